//! How long the front is: the zero contour of a grid layer, by marching squares.

use glam::Vec2;

use super::check_len;
use crate::{layer::Layer, space::Grid, space::Space};

/// Length in world units of the zero contour of `layer` — the front line of "Influence
/// Maps I", where influence passes from positive to negative — measured by marching squares
/// over the lattice of cell centres.
///
/// Each 2 × 2 block of walkable cells with finite values is a square; the contour crosses
/// an edge whose ends are on different sides (> 0 versus ≤ 0) at the linearly interpolated
/// zero, and the crossings are joined by straight segments. A saddle (diagonal corners on
/// the same side) is resolved by the average of the four corners, as in the classic
/// algorithm. Blocks touching a wall are skipped: the front stops at walls. Only blocks
/// where the sides meet count — some corner above zero and some below — so the edge of one
/// side's reach, where its influence fades to zero with no opponent there, is no front: one
/// team alone has a front of length 0, as [`frontline_into`](super::frontline_into) marks
/// no cell. (A front running exactly through cells at zero counts where such a cell has
/// neighbours on both sides, as `frontline_into` marks it.)
///
/// ```
/// use influence::{query, Grid, Layer};
/// // Influence falls from west to east and changes sign between columns 1 and 2.
/// let grid = Grid::new(4, 3)?.with_cell_size(2.0)?;
/// let layer = Layer::from_vec([3.0, 1.0, -1.0, -3.0].repeat(3));
/// // A straight north-south front across the two rows of blocks: 2 cells × 2 units.
/// assert_eq!(query::frontline_length(&grid, &layer), 4.0);
/// # Ok::<(), influence::Error>(())
/// ```
pub fn frontline_length(grid: &Grid, layer: &Layer) -> f32 {
    check_len(grid, layer);
    let w = grid.width();
    let mut total = 0.0f64;
    for y in 0..grid.height() - 1 {
        for x in 0..w - 1 {
            let i = y * w + x;
            // Corners counter-clockwise from (x, y), matching `CORNERS`.
            let cells = [i, i + 1, i + w + 1, i + w];
            if cells.iter().all(|&c| grid.is_walkable(c) && layer[c].is_finite()) {
                let v = cells.map(|c| layer[c]);
                let sides_meet = v.iter().any(|&x| x > 0.0) && v.iter().any(|&x| x < 0.0);
                // A front that runs exactly through cells at zero is in blocks of one side
                // and zeros: it counts where such a zero cell touches both sides.
                let on_zero_front =
                    || cells.iter().any(|&c| layer[c] == 0.0 && touches_both_sides(grid, layer, c));
                if sides_meet || on_zero_front() {
                    total += f64::from(square_length(v));
                }
            }
        }
    }
    total as f32 * grid.cell_size()
}

/// Whether walkable cell `c` has a walkable neighbour above zero and one below.
fn touches_both_sides(grid: &Grid, layer: &Layer, c: usize) -> bool {
    let (mut above, mut below) = (false, false);
    grid.for_each_neighbour(c, |j, _| {
        above |= layer[j] > 0.0;
        below |= layer[j] < 0.0;
    });
    above && below
}

/// The unit square's corners, counter-clockwise; edge `e` runs from corner `e` to `e + 1`.
const CORNERS: [Vec2; 4] =
    [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(0.0, 1.0)];

/// Length of the zero contour inside the unit square with corner values `v`.
fn square_length(v: [f32; 4]) -> f32 {
    let above = v.map(|x| x > 0.0);
    // Crossings in edge order; a closed loop of edges always crosses an even number of times.
    let mut hits = [Vec2::ZERO; 4];
    let mut n = 0;
    for a in 0..4 {
        let b = (a + 1) % 4;
        if above[a] != above[b] {
            hits[n] = CORNERS[a].lerp(CORNERS[b], v[a] / (v[a] - v[b]));
            n += 1;
        }
    }
    let d = |a: usize, b: usize| hits[a].distance(hits[b]);
    match n {
        2 => d(0, 1),
        4 => {
            // Saddle: if the centre sides with corner 0, corners 0 and 2 join through it and
            // the segments cut off corners 1 and 3; otherwise they cut off corners 0 and 2.
            let (cut_1_3, cut_0_2) = (d(0, 1) + d(2, 3), d(3, 0) + d(1, 2));
            let centre = v.iter().sum::<f32>();
            if centre == 0.0 {
                // Either joining is right; the shorter keeps the length the same for both
                // sides (negating the map), which "centre ≤ 0 is below" would not.
                cut_1_3.min(cut_0_2)
            } else if (centre > 0.0) == above[0] {
                cut_1_3
            } else {
                cut_0_2
            }
        }
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::{PI, SQRT_2};

    fn field(grid: &Grid, f: impl Fn(Vec2) -> f32) -> Layer {
        Layer::from_vec((0..grid.len()).map(|i| f(grid.position(i).truncate())).collect())
    }

    #[test]
    fn one_side_alone_has_no_front() {
        let g = Grid::new(12, 12).unwrap();
        // A single team's reach: positive in a disc, zero outside.
        let alone = field(&g, |p| (4.0 - p.distance(Vec2::splat(6.0))).max(0.0));
        assert_eq!(frontline_length(&g, &alone), 0.0);
        let mut negated = alone.clone();
        negated.map(|v| -v);
        assert_eq!(frontline_length(&g, &negated), 0.0);
        // An opponent's disc touching it makes a front.
        let met = field(&g, |p| {
            (4.0 - p.distance(Vec2::splat(4.0))).max(0.0) - (4.0 - p.distance(Vec2::splat(9.0))).max(0.0)
        });
        assert!(frontline_length(&g, &met) > 1.0);
    }

    #[test]
    fn straight_front_spans_the_lattice_height() {
        let g = Grid::new(10, 7).unwrap().with_cell_size(1.5).unwrap();
        for c in [4.0, 6.75, 6.7] {
            // x − c, both between centres and exactly on a column of centres.
            let len = frontline_length(&g, &field(&g, |p| p.x - c));
            assert!((len - 6.0 * 1.5).abs() < 1e-5, "c = {c}: {len}");
        }
    }

    #[test]
    fn diagonal_front_runs_corner_to_corner() {
        let g = Grid::new(9, 9).unwrap().with_cell_size(2.0).unwrap();
        let len = frontline_length(&g, &field(&g, |p| p.x - p.y));
        assert!((len - SQRT_2 * 8.0 * 2.0).abs() < 1e-4, "{len}");
    }

    #[test]
    fn circle_front_is_close_to_its_circumference() {
        let g = Grid::new(64, 64).unwrap().with_cell_size(0.5).unwrap();
        let r = 10.0;
        let len = frontline_length(&g, &field(&g, |p| r - p.distance(Vec2::splat(16.0))));
        let expected = 2.0 * PI * r;
        assert!((len - expected).abs() / expected < 0.02, "{len} vs {expected}");
    }

    #[test]
    fn saddles_follow_the_centre_average() {
        // Centre average 0.5 > 0: the positive corners join, cutting off corners 1 and 3.
        assert!((square_length([2.0, -1.0, 2.0, -1.0]) - 2.0 * SQRT_2 / 3.0).abs() < 1e-6);
        assert!((square_length([-2.0, 1.0, -2.0, 1.0]) - 2.0 * SQRT_2 / 3.0).abs() < 1e-6);
        assert!((square_length([1.0, -1.0, 1.0, -1.0]) - SQRT_2).abs() < 1e-6);
        // Centre exactly 0: the shorter joining, whichever side is positive.
        let short = square_length([1.5, -1.0, 0.5, -1.0]);
        assert_eq!(short, square_length([-1.5, 1.0, -0.5, 1.0]));
        assert!((short - (0.6 + 1.0 / 3.0) * SQRT_2).abs() < 1e-5, "{short}");
    }

    #[test]
    fn no_sign_change_walls_and_thin_grids_give_no_length() {
        let g = Grid::new(4, 4).unwrap();
        assert_eq!(frontline_length(&g, &field(&g, |p| p.x + 1.0)), 0.0);
        // A wall column on the front removes the blocks around it.
        let walled = Grid::from_rows(&["..@.", "..@.", "..@.", "..@."]).unwrap();
        assert_eq!(frontline_length(&walled, &field(&walled, |p| p.x - 2.5)), 0.0);
        let mut l = field(&g, |p| p.x - 2.0);
        l[g.index(crate::Cell::new(1, 0)).unwrap()] = f32::NAN; // drops the one block it touches on the front
        assert!((frontline_length(&g, &l) - 2.0).abs() < 1e-6);
        let row = Grid::new(5, 1).unwrap();
        assert_eq!(frontline_length(&row, &field(&row, |p| p.x - 2.0)), 0.0);
    }
}
