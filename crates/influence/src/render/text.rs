//! Layers as text, one character per cell and one line per row, for terminals and snapshot
//! tests.
//!
//! Each value becomes one of ten strength levels, `round(|unit| · 9)` where `unit` is
//! [`Scale::unit`]:
//! - diverging scale: `1`..`9` for positive values (weakest to strongest), `a`..`i` for
//!   negative ones (`a` weakest, `i` strongest), `.` for level 0 — zero, or less than half a
//!   level (1/18 of the scale) away from it;
//! - sequential scale: `0`..`9` from the scale's minimum to its maximum.
//!
//! Blocked cells are `#` (unless [`RenderOptions::obstacles`] is off), front-line cells `|`,
//! NaN `?`. Of the [`RenderOptions`], text reads `scale`, `obstacles`, `frontline` and
//! `legend`.

use super::{prepare, RenderOptions, Scale};
use crate::{Error, Grid, Layer};

/// The character of value `v`, as the module documentation describes.
fn level_char(scale: &Scale, v: f32) -> char {
    let t = scale.unit(v);
    if t.is_nan() {
        return '?';
    }
    let level = (t.abs() * 9.0).round() as u8;
    match scale {
        Scale::Sequential { .. } => char::from(b'0' + level),
        Scale::Diverging { .. } if level == 0 => '.',
        Scale::Diverging { .. } if t > 0.0 => char::from(b'0' + level),
        Scale::Diverging { .. } => char::from(b'a' + level - 1),
    }
}

/// `layer` on `grid` as text: `height` lines of `width` characters, each ending in `\n`,
/// then the legend line if asked for.
///
/// ```
/// use influence::{render::{render_text, RenderOptions}, Grid, Layer};
/// let grid = Grid::from_rows(&["..#.", "...."])?;
/// let layer = Layer::from_vec(vec![0.0, 1.0, 0.0, 2.0, 2.0, 2.0, 0.5, 0.0]);
/// let opts = RenderOptions { legend: true, ..Default::default() };
/// assert_eq!(
///     render_text(&grid, &layer, &opts)?,
///     "05#9\n9920\nsequential 0..2: 0 (low) to 9 (high); # blocked, | front line, ? NaN\n"
/// );
/// # Ok::<(), influence::Error>(())
/// ```
///
/// # Errors
/// [`Error::BadSize`] if the layer or the front-line mask does not have one entry per cell;
/// [`Error::BadNumber`] for invalid scale bounds.
pub fn render_text(grid: &Grid, layer: &Layer, opts: &RenderOptions) -> Result<String, Error> {
    let scale = prepare(grid, layer, opts.scale, opts.frontline.as_deref())?;
    let mut out = String::with_capacity((grid.width() + 1) * grid.height());
    for (i, (&v, &blocked)) in layer.values().iter().zip(grid.blocked()).enumerate() {
        out.push(if blocked && opts.obstacles {
            '#'
        } else if opts.frontline.as_ref().is_some_and(|f| f[i]) {
            '|'
        } else {
            level_char(&scale, v)
        });
        if (i + 1) % grid.width() == 0 {
            out.push('\n');
        }
    }
    if opts.legend {
        let levels = match scale {
            Scale::Diverging { .. } => "1 (weak) to 9 (strong) positive, a to i negative, . near zero",
            Scale::Sequential { .. } => "0 (low) to 9 (high)",
        };
        out.push_str(&format!("{scale}: {levels}; # blocked, | front line, ? NaN\n"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(rows: &[&str], values: &[f32], opts: &RenderOptions) -> String {
        render_text(&Grid::from_rows(rows).unwrap(), &Layer::from_vec(values.to_vec()), opts).unwrap()
    }

    #[test]
    fn diverging_levels_by_sign_and_strength() {
        let values = [-9.0, -5.0, -1.0, -0.4, 0.0, 0.49, 0.51, 5.0, 9.0, 20.0];
        let opts = RenderOptions { scale: Some(Scale::Diverging { max_abs: 9.0 }), ..Default::default() };
        assert_eq!(text(&[".........."], &values, &opts), "iea...1599\n");
    }

    #[test]
    fn sequential_levels_walls_front_and_nan() {
        let opts = RenderOptions {
            frontline: Some(vec![false, false, false, true, false, false]),
            ..Default::default()
        };
        assert_eq!(text(&["..#", "..."], &[0.0, 1.0, 0.0, 3.0, f32::NAN, 0.5], &opts), "03#\n|?2\n");
        // A constant layer is all minimum, never NaN.
        assert_eq!(text(&["..", ".."], &[2.0; 4], &RenderOptions::default()), "00\n00\n");
    }

    #[test]
    fn legend_and_errors() {
        let opts = RenderOptions { legend: true, ..Default::default() };
        let out = text(&[".."], &[-2.0, 1.0], &opts);
        assert_eq!(out.lines().nth(1).unwrap().split(':').next(), Some("diverging ±2"));
        let grid = Grid::new(2, 2).unwrap();
        assert!(matches!(render_text(&grid, &Layer::zeros(3), &opts), Err(Error::BadSize { .. })));
        let opts =
            RenderOptions { scale: Some(Scale::Diverging { max_abs: f32::NAN }), ..Default::default() };
        assert!(matches!(render_text(&grid, &Layer::zeros(4), &opts), Err(Error::BadNumber { .. })));
    }
}
