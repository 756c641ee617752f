//! PNG encoding of rendered images (feature `png`).

use std::path::Path;

use super::RgbImage;
use crate::Error;

/// Encodes `image` as an 8-bit RGB PNG, naming `shown` in errors.
fn encode(image: &RgbImage, shown: &str) -> Result<Vec<u8>, Error> {
    let fail = |e: ::png::EncodingError| Error::Io { path: shown.to_owned(), message: e.to_string() };
    let mut out = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut out, image.width(), image.height());
    encoder.set_color(::png::ColorType::Rgb);
    encoder.set_depth(::png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(fail)?;
    writer.write_image_data(image.pixels()).map_err(fail)?;
    writer.finish().map_err(fail)?;
    Ok(out)
}

/// The bytes of a PNG file holding `image`.
///
/// ```
/// use influence::{render::{encode_png, render_rgb, RenderOptions}, Grid, Layer};
/// let grid = Grid::new(4, 3)?;
/// let image = render_rgb(&grid, &Layer::for_space(&grid), &RenderOptions::default())?;
/// assert!(encode_png(&image)?.starts_with(b"\x89PNG"));
/// # Ok::<(), influence::Error>(())
/// ```
///
/// # Errors
/// [`Error::Io`] (path `<png>`) if the encoder fails.
pub fn encode_png(image: &RgbImage) -> Result<Vec<u8>, Error> {
    encode(image, "<png>")
}

/// Writes `image` as a PNG file at `path`, replacing any file there.
///
/// # Errors
/// [`Error::Io`] with the path if encoding or writing fails.
pub fn write_png(image: &RgbImage, path: impl AsRef<Path>) -> Result<(), Error> {
    let shown = path.as_ref().display().to_string();
    let bytes = encode(image, &shown)?;
    std::fs::write(path, bytes).map_err(|e| Error::Io { path: shown, message: e.to_string() })
}
