//! PNG round trip: encode a rendered map, decode it with the `png` crate, compare.
#![cfg(feature = "png")]

use influence::render::{encode_png, render_rgb, write_png, RenderOptions, RgbImage, OBSTACLE_COLOR};
use influence::{glam::Vec2, Error, Grid, Layer};

fn sample() -> RgbImage {
    let grid = Grid::from_rows(&["..#.", "...."]).unwrap();
    let layer = Layer::from_vec(vec![2.0, 1.0, 0.0, -2.0, 0.0, 0.0, 0.0, 0.0]);
    let marker = (Vec2::new(0.5, 1.5), [0, 200, 0]);
    render_rgb(&grid, &layer, &RenderOptions { upscale: 3, markers: vec![marker], ..Default::default() })
        .unwrap()
}

fn decode(bytes: &[u8]) -> (png::OutputInfo, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info, buf)
}

#[test]
fn encoded_png_decodes_to_the_same_pixels() {
    let image = sample();
    let (info, pixels) = decode(&encode_png(&image).unwrap());
    assert_eq!((info.width, info.height), (12, 6));
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgb, png::BitDepth::Eight));
    assert_eq!(pixels, image.pixels());
    let at = |x: usize, y: usize| &pixels[3 * (y * 12 + x)..3 * (y * 12 + x) + 3];
    assert_eq!(at(7, 1), OBSTACLE_COLOR); // the wall, cell (2, 0)
    assert_eq!(at(0, 0), [0xb2, 0x18, 0x2b]); // +2: full red
    assert_eq!(at(10, 1), [0x21, 0x66, 0xac]); // -2: full blue
    assert_eq!(at(1, 4), [0, 200, 0]); // the marker at the centre of cell (0, 1)
}

#[test]
fn write_png_writes_the_file_and_names_bad_paths() {
    let path = std::env::temp_dir().join(format!("influence-render-{}.png", std::process::id()));
    let image = sample();
    write_png(&image, &path).unwrap();
    let (_, pixels) = decode(&std::fs::read(&path).unwrap());
    std::fs::remove_file(&path).unwrap();
    assert_eq!(pixels, image.pixels());
    let bad = std::env::temp_dir().join("no-such-directory-influence").join("x.png");
    let err = write_png(&image, &bad).unwrap_err();
    assert!(matches!(err, Error::Io { ref path, .. } if path.ends_with("x.png")), "{err}");
}
