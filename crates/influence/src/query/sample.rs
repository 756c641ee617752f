//! Reading a grid layer at any world point: nearest cell, bilinear surface, its gradient.
//!
//! The bilinear surface passes through each cell's value at the cell's centre and
//! interpolates between the four surrounding centres; in the outer half-cell border (outside
//! the lattice of centres) it is clamped to the edge. Blocked cells take part with their
//! value as-is: stamping leaves them at 0, so values fade towards walls instead of jumping,
//! and no renormalisation is needed.

use glam::Vec2;

use super::check_len;
use crate::{layer::Layer, space::Grid};

/// The bilinear surface at world point `p`, or `None` outside the grid (or `NaN`). The value
/// of the cell containing `p` is `layer[i]` for `i` the [`Grid::index`] of [`Grid::cell_at`].
///
/// ```
/// use influence::{query, Grid, Layer, glam::Vec2};
/// let grid = Grid::new(2, 1)?;
/// let layer = Layer::from_vec(vec![1.0, 5.0]);
/// // Centres at x = 0.5 and 1.5: a quarter of the way between them.
/// assert_eq!(query::value_bilinear(&grid, &layer, Vec2::new(0.75, 0.5)), Some(2.0));
/// // Clamped in the outer half-cell border.
/// assert_eq!(query::value_bilinear(&grid, &layer, Vec2::new(0.1, 0.9)), Some(1.0));
/// # Ok::<(), influence::Error>(())
/// ```
pub fn value_bilinear(grid: &Grid, layer: &Layer, p: Vec2) -> Option<f32> {
    let q = Patch::at(grid, layer, p)?;
    let (fx, fy) = (q.clamped.x, q.clamped.y);
    Some(lerp(lerp(q.v00, q.v10, fx), lerp(q.v01, q.v11, fx), fy))
}

/// The slope of the bilinear surface at `p`, in value per world unit, or `None` outside the
/// grid. It is the exact derivative of the patch around `p` (on a line of cell centres, the
/// patch to its +x / +y side). In the outer half-cell border, where the surface is clamped
/// flat, the slope of the nearest patch is reported instead, so a unit at the map edge still
/// learns which way values rise. Its direction (`try_normalize`) is the way to walk towards
/// safety on a safety map.
///
/// ```
/// use influence::{query, Grid, Layer, glam::Vec2};
/// let grid = Grid::new(2, 2)?.with_cell_size(2.0)?;
/// let layer = Layer::from_vec(vec![0.0, 4.0, 0.0, 4.0]); // rises by 4 over one cell in x
/// assert_eq!(query::gradient(&grid, &layer, Vec2::new(2.0, 2.0)), Some(Vec2::new(2.0, 0.0)));
/// let uphill = query::gradient(&grid, &layer, Vec2::new(2.0, 2.0)).and_then(Vec2::try_normalize);
/// assert_eq!(uphill, Some(Vec2::X));
/// # Ok::<(), influence::Error>(())
/// ```
pub fn gradient(grid: &Grid, layer: &Layer, p: Vec2) -> Option<Vec2> {
    let q = Patch::at(grid, layer, p)?;
    let (fx, fy) = (q.unclamped.x, q.unclamped.y);
    let dx = lerp(q.v10 - q.v00, q.v11 - q.v01, fy);
    let dy = lerp(q.v01 - q.v00, q.v11 - q.v10, fx);
    Some(Vec2::new(dx, dy) / grid.cell_size())
}

/// The four cell-centre values around a point and its position inside their square.
struct Patch {
    v00: f32,
    v10: f32,
    v01: f32,
    v11: f32,
    /// Position in the patch clamped to `[0, 1]²` (the sampled surface).
    clamped: Vec2,
    /// Position in the patch, outside `[0, 1]` in the border (for the border slope).
    unclamped: Vec2,
}

impl Patch {
    fn at(grid: &Grid, layer: &Layer, p: Vec2) -> Option<Self> {
        check_len(grid, layer);
        grid.cell_at(p)?; // rejects outside points and NaN
                          // Lattice coordinates: cell (x, y)'s centre sits at integer (x, y).
        let u = grid.to_cell_space(p) - 0.5;
        let (x0, x1, ux) = axis(u.x, grid.width());
        let (y0, y1, uy) = axis(u.y, grid.height());
        let v = |x, y| layer[y * grid.width() + x];
        Some(Self {
            v00: v(x0, y0),
            v10: v(x1, y0),
            v01: v(x0, y1),
            v11: v(x1, y1),
            clamped: Vec2::new(ux.clamp(0.0, 1.0), uy.clamp(0.0, 1.0)),
            unclamped: Vec2::new(ux, uy),
        })
    }
}

/// The lattice interval `[i0, i1]` of `n` centres nearest to coordinate `u`, and `u`'s
/// offset from `i0`. With a single centre both ends are 0, so the slope there is 0.
fn axis(u: f32, n: usize) -> (usize, usize, f32) {
    let i0 = (u.max(0.0) as usize).min(n.saturating_sub(2));
    let i1 = (i0 + 1).min(n - 1);
    let offset = if i0 == i1 { 0.0 } else { u - i0 as f32 };
    (i0, i1, offset)
}

/// Exact at both ends (`t` = 0 gives `a`, 1 gives `b`), so centres read back their values.
fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a * (1.0 - t) + b * t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ramp() -> (Grid, Layer) {
        // 3 × 2, value = 10·x + y at cell (x, y); one blocked cell holding 0.
        let grid = Grid::from_rows(&["...", "..@"]).unwrap();
        let layer = Layer::from_vec(vec![0.0, 10.0, 20.0, 1.0, 11.0, 0.0]);
        (grid, layer)
    }

    fn value_nearest(grid: &Grid, layer: &Layer, p: Vec2) -> Option<f32> {
        grid.cell_at(p).and_then(|c| grid.index(c)).map(|i| layer[i])
    }

    fn steepest_ascent(grid: &Grid, layer: &Layer, p: Vec2) -> Option<Vec2> {
        gradient(grid, layer, p)?.try_normalize()
    }

    #[test]
    fn nearest_reads_the_containing_cell() {
        let (g, l) = ramp();
        assert_eq!(value_nearest(&g, &l, Vec2::new(0.0, 0.0)), Some(0.0));
        assert_eq!(value_nearest(&g, &l, Vec2::new(1.99, 1.5)), Some(11.0));
        assert_eq!(value_nearest(&g, &l, Vec2::new(2.5, 1.5)), Some(0.0)); // blocked: as-is
        assert_eq!(value_nearest(&g, &l, Vec2::new(3.0, 0.5)), None);
        assert_eq!(value_nearest(&g, &l, Vec2::new(-0.01, 0.5)), None);
        assert_eq!(value_nearest(&g, &l, Vec2::new(f32::NAN, 0.5)), None);
    }

    #[test]
    fn bilinear_interpolates_between_centres_and_clamps_at_the_border() {
        let (g, l) = ramp();
        let at = |x, y| value_bilinear(&g, &l, Vec2::new(x, y)).unwrap();
        assert_eq!(at(0.5, 0.5), 0.0);
        assert_eq!(at(1.5, 1.5), 11.0);
        assert_eq!(at(1.0, 0.5), 5.0);
        assert_eq!(at(1.0, 1.0), 5.5); // the middle of 0, 10, 1, 11
        assert_eq!(at(0.1, 0.2), 0.0); // corner border: the corner cell
        assert_eq!(at(0.1, 1.0), 0.5); // left border: clamped in x only
                                       // Towards the blocked cell the surface fades to its 0.
        assert_eq!(at(2.0, 1.5), 5.5);
        assert_eq!(value_bilinear(&g, &l, Vec2::new(1.0, 2.0)), None);
        assert_eq!(value_bilinear(&g, &l, Vec2::new(1.0, f32::NAN)), None);
    }

    #[test]
    fn gradient_is_the_patch_slope_in_world_units() {
        let g =
            Grid::new(3, 3).unwrap().with_cell_size(2.0).unwrap().with_origin(Vec2::new(-1.0, 0.0)).unwrap();
        // value = 3·x − y in cell coordinates: slope (1.5, −0.5) per world unit.
        let l = Layer::from_vec((0..9).map(|i| 3.0 * (i % 3) as f32 - (i / 3) as f32).collect());
        for p in [Vec2::new(1.3, 2.2), Vec2::new(3.0, 3.0), Vec2::new(-0.9, 0.1), Vec2::new(4.9, 5.9)] {
            let d = gradient(&g, &l, p).unwrap() - Vec2::new(1.5, -0.5);
            assert!(d.length() < 1e-6, "at {p}: off by {d}");
        }
        assert_eq!(gradient(&g, &l, Vec2::new(5.0, 1.0)), None);
        let dir = steepest_ascent(&g, &l, Vec2::new(1.0, 1.0)).unwrap();
        assert!((dir - Vec2::new(3.0, -1.0).normalize()).length() < 1e-6);
    }

    #[test]
    fn gradient_follows_the_bilinear_twist_and_vanishes_on_single_rows() {
        // A saddle patch v = x·y on the unit square of centres.
        let g = Grid::new(2, 2).unwrap();
        let l = Layer::from_vec(vec![0.0, 0.0, 0.0, 1.0]);
        assert_eq!(gradient(&g, &l, Vec2::new(0.75, 1.25)), Some(Vec2::new(0.75, 0.25)));
        assert_eq!(steepest_ascent(&g, &l, Vec2::splat(0.5)), None); // flat at the corner
                                                                     // A single row has no slope across it.
        let row = Grid::new(3, 1).unwrap();
        let l = Layer::from_vec(vec![0.0, 1.0, 2.0]);
        assert_eq!(gradient(&row, &l, Vec2::new(1.2, 0.9)), Some(Vec2::new(1.0, 0.0)));
        assert_eq!(steepest_ascent(&row, &l, Vec2::new(1.2, 0.9)), Some(Vec2::X));
    }

    #[test]
    #[should_panic(expected = "does not match")]
    fn mismatched_layer_panics() {
        value_bilinear(&Grid::new(2, 2).unwrap(), &Layer::zeros(3), Vec2::ZERO);
    }
}
