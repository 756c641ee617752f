//! Pictures of layers on a grid: RGB images (and PNG files with the `png` feature) for
//! people, plain text for terminals and snapshot tests.
//!
//! Signed layers (an influence map: one side positive, the other negative) use a diverging
//! colour map — blue below zero, near-white at zero, red above — and one-signed layers
//! (tension, vulnerability, distance) a sequential one (viridis); [`Scale::auto`] picks
//! between them. Walls are drawn dark grey, an optional front-line mask black, NaN magenta,
//! and markers as outlined diamonds at world positions. Image row 0 and the first text line
//! are grid row y = 0.

mod colormap;

pub use colormap::{diverging, sequential, Scale, FRONTLINE_COLOR, NAN_COLOR, OBSTACLE_COLOR};
