//! Pictures of layers on a grid: RGB images (and PNG files with the `png` feature) for
//! people, plain text for terminals and snapshot tests.
//!
//! Signed layers (an influence map: one side positive, the other negative) use a diverging
//! colour map — blue below zero, near-white at zero, red above — and one-signed layers
//! (tension, vulnerability, distance) a sequential one (viridis); [`Scale::auto`] picks
//! between them, and [`Scale::color`] is either map at any value (the bare maps are the
//! scales of unit width: `Scale::Diverging { max_abs: 1.0 }` over `[-1, 1]`,
//! `Scale::Sequential { min: 0.0, max: 1.0 }` over `[0, 1]`). One [`RenderOptions`] serves
//! every renderer. Walls are drawn dark grey, an optional front-line mask black, NaN magenta,
//! and markers as outlined diamonds at world positions. Image row 0 and the first text line
//! are grid row y = 0. With the `figure` feature, `render::figure` frames a picture with a title,
//! a colour bar with values, a legend of teams and marker shapes per team.
//!
//! ```
//! use influence::{render, Grid, Layer};
//! let grid = Grid::from_rows(&["...#..", "...#.."])?;
//! let layer = Layer::from_vec(vec![4.0, 2.0, 0.0, 0.0, -1.0, -4.0, 4.0, 2.0, 0.0, 0.0, -1.0, -4.0]);
//! assert_eq!(render::render_text(&grid, &layer, &Default::default())?, "95.#bi\n95.#bi\n");
//! let image = render::render_rgb(&grid, &layer, &render::RenderOptions { upscale: 4, ..Default::default() })?;
//! assert_eq!((image.width(), image.height()), (24, 8));
//! assert_eq!(image.pixel(12, 0), Some(render::OBSTACLE_COLOR));
//! # Ok::<(), influence::Error>(())
//! ```

mod colormap;
#[cfg(feature = "figure")]
pub mod figure;
mod graph;
mod image;
#[cfg(feature = "png")]
mod png;
mod text;

pub use colormap::{Scale, FRONTLINE_COLOR, NAN_COLOR, OBSTACLE_COLOR};
pub use graph::{render_graph, EDGE_COLOR, GRAPH_BACKGROUND, MAX_PANEL};
pub use image::{render_rgb, RenderOptions, RgbImage, MAX_UPSCALE};
#[cfg(feature = "png")]
pub use png::{encode_png, write_png};
pub use text::render_text;

use crate::{Error, Grid, Layer, Space};

/// Checks that the layer and the front-line mask have one entry per cell, then settles the
/// scale: the given one validated, or [`Scale::auto`].
fn prepare(
    grid: &Grid,
    layer: &Layer,
    scale: Option<Scale>,
    frontline: Option<&[bool]>,
) -> Result<Scale, Error> {
    let bad = |reason| Error::BadSize { width: grid.width(), height: grid.height(), reason };
    if layer.len() != grid.len() {
        return Err(bad("the layer's length differs from the grid's cell count"));
    }
    if frontline.is_some_and(|f| f.len() != grid.len()) {
        return Err(bad("the front-line mask's length differs from the grid's cell count"));
    }
    scale.map_or_else(|| Ok(Scale::auto(layer)), Scale::validate)
}
