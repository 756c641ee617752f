//! Animated GIFs of rendered frames. A GIF holds at most 256 colours, so the palette is built
//! from the render colour maps themselves — evenly spaced levels of the frames' one fixed
//! scale, plus walls, the front line, NaN, the marker colours and, for figures, the frame's
//! and the text's — and each
//! pixel the renderer drew is matched to its nearest palette entry (exact for every colour
//! but the map's in-between shades, which move by less than one level).

use std::collections::HashMap;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use influence::render::{RgbImage, Scale, FRONTLINE_COLOR, NAN_COLOR, OBSTACLE_COLOR};

use crate::error::CliError;

/// Levels of the colour map in the palette; the rest is left for the fixed colours.
pub const PALETTE_LEVELS: usize = 240;

/// The palette and the nearest entry of each colour met so far.
struct Palette {
    colors: Vec<[u8; 3]>,
    nearest: HashMap<[u8; 3], u8>,
}

/// `n` evenly spaced levels of `scale`'s colour map, each passed through `look` (the
/// identity for plain pictures, washing out for a faint figure).
pub fn levels(scale: Scale, n: usize, look: impl Fn([u8; 3]) -> [u8; 3]) -> Vec<[u8; 3]> {
    let last = (n - 1) as f32;
    let level = |i: usize| match scale {
        Scale::Diverging { .. } => Scale::Diverging { max_abs: 1.0 }.color(2.0 * i as f32 / last - 1.0),
        Scale::Sequential { .. } => Scale::Sequential { min: 0.0, max: 1.0 }.color(i as f32 / last),
    };
    (0..n).map(|i| look(level(i))).collect()
}

/// The palette of plain pictures on `scale`: [`PALETTE_LEVELS`] levels, walls, the black
/// front line, NaN, then `markers` (at most 13 colours).
pub fn plain_palette(scale: Scale, markers: &[[u8; 3]]) -> Vec<[u8; 3]> {
    let mut colors = levels(scale, PALETTE_LEVELS, |c| c);
    colors.extend(
        [OBSTACLE_COLOR, FRONTLINE_COLOR, NAN_COLOR].iter().chain(markers).take(256 - PALETTE_LEVELS),
    );
    colors
}

impl Palette {
    /// The palette `colors` (at most 256; the rest is dropped).
    fn new(mut colors: Vec<[u8; 3]>) -> Self {
        colors.truncate(256);
        Self { colors, nearest: HashMap::new() }
    }

    /// The palette as GIF wants it: `r g b r g b ...`.
    fn bytes(&self) -> Vec<u8> {
        self.colors.iter().flatten().copied().collect()
    }

    /// The index of the entry nearest `c` (squared RGB distance, ties to the lower index).
    fn index(&mut self, c: [u8; 3]) -> u8 {
        let colors = &self.colors;
        *self.nearest.entry(c).or_insert_with(|| {
            let d = |p: &[u8; 3]| (0..3).map(|k| (i32::from(p[k]) - i32::from(c[k])).pow(2)).sum::<i32>();
            let best = (0..colors.len()).min_by_key(|&i| (d(&colors[i]), i)).unwrap_or(0);
            // The palette has at most 256 entries.
            u8::try_from(best).unwrap_or(u8::MAX)
        })
    }
}

/// A GIF being written, frame by frame.
pub struct GifWriter {
    encoder: gif::Encoder<BufWriter<File>>,
    palette: Palette,
    path: PathBuf,
    size: (u16, u16),
    delay: u16,
    indices: Vec<u8>,
}

impl GifWriter {
    /// Starts a looping GIF of `width × height` frames drawn in the colours of `palette` (at
    /// most 256: e.g. [`plain_palette`]), shown `delay` hundredths of a second each.
    ///
    /// # Errors
    /// [`CliError::Usage`] for frames larger than GIF allows (65,535 pixels a side);
    /// [`CliError::Output`] if the file cannot be written.
    pub fn create(
        path: &Path,
        (width, height): (u32, u32),
        palette: Vec<[u8; 3]>,
        delay: u16,
    ) -> Result<Self, CliError> {
        let side = |v: u32| {
            u16::try_from(v).map_err(|_| {
                CliError::Usage(format!(
                    "frames of {width}×{height} pixels are too large for a GIF (at most 65535 a side); \
                     lower [output] upscale or write --png"
                ))
            })
        };
        let size = (side(width)?, side(height)?);
        let palette = Palette::new(palette);
        let fail = |e: &dyn std::fmt::Display| CliError::Output {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let file = File::create(path).map_err(|e| CliError::output(path, &e))?;
        let mut encoder = gif::Encoder::new(BufWriter::new(file), size.0, size.1, &palette.bytes())
            .map_err(|e| fail(&e))?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(|e| fail(&e))?;
        Ok(Self { encoder, palette, path: path.to_owned(), size, delay, indices: Vec::new() })
    }

    /// Appends a frame (an image of the size given to [`create`](Self::create)).
    ///
    /// # Errors
    /// [`CliError::Output`] if the file cannot be written.
    pub fn frame(&mut self, image: &RgbImage) -> Result<(), CliError> {
        self.indices.clear();
        let mut last: Option<([u8; 3], u8)> = None;
        for p in image.pixels().chunks_exact(3) {
            let c = [p[0], p[1], p[2]];
            let i = match last {
                Some((lc, li)) if lc == c => li,
                _ => self.palette.index(c),
            };
            last = Some((c, i));
            self.indices.push(i);
        }
        let frame = gif::Frame {
            width: self.size.0,
            height: self.size.1,
            delay: self.delay,
            buffer: std::borrow::Cow::Borrowed(&self.indices),
            ..gif::Frame::default()
        };
        self.encoder.write_frame(&frame).map_err(|e| self.failed(&e))
    }

    /// Writes the trailer and closes the file.
    ///
    /// # Errors
    /// [`CliError::Output`] if the file cannot be written.
    pub fn finish(self) -> Result<(), CliError> {
        let path = self.path.clone();
        let fail = |message: String| CliError::Output { path: path.display().to_string(), message };
        let writer = self.encoder.into_inner().map_err(|e| fail(e.to_string()))?;
        writer
            .into_inner()
            .map_err(|e| fail(e.error().to_string()))?
            .sync_all()
            .map_err(|e| fail(e.to_string()))
    }

    fn failed(&self, e: &dyn std::fmt::Display) -> CliError {
        CliError::Output { path: self.path.display().to_string(), message: e.to_string() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_colours_find_their_level_and_fixed_colours_are_exact() {
        let viridis = Scale::Sequential { min: 0.0, max: 1.0 };
        let mut p = Palette::new(plain_palette(viridis, &[[255, 170, 0]]));
        assert_eq!(p.colors.len(), PALETTE_LEVELS + 4);
        assert_eq!(p.index(viridis.color(0.0)), 0);
        assert_eq!(usize::from(p.index(viridis.color(1.0))), PALETTE_LEVELS - 1);
        let mid = usize::from(p.index(viridis.color(0.5)));
        assert!(mid.abs_diff(PALETTE_LEVELS / 2) <= 2, "{mid}");
        for fixed in [OBSTACLE_COLOR, [255, 170, 0]] {
            let i = usize::from(p.index(fixed));
            assert_eq!(p.colors[i], fixed);
        }
    }
}
