//! The diffusion step on a grid, row by row, without bounds checks in the inner loop.
//!
//! Interior rows read three row slices of the previous buffer (above, here, below), all cut
//! to the same length, so the compiler drops the bounds checks and vectorises the loop.
//! The loop has no branches: blocked cells of the previous buffer hold 0, which no
//! neighbour's maximum ever picks (the maximum starts at 0 and keeps it on ties), so
//! blocked neighbours need no test; the no-corner-cutting rule for diagonals and the
//! blocked-cell output are selects. Border rows and columns go through the generic rule.
//!
//! The per-step factors — `exp(−decay·cs)` and `exp(−decay·cs·√2)`, or their linear
//! counterparts — are computed once, by the same function the generic rule uses for the
//! same distances, so every product matches it bit for bit.

use std::ops::Range;

use super::diffuse::{cell_value, fmax, settle, CoefCache, DecayKind, Diffusion, Exp, Lin, Rule};
use crate::space::{Connectivity, Grid};

/// Computes rows `rows` of `next` from `prev` (both the grid's length). Requires blocked
/// cells of `prev` to hold values ≤ 0 (the propagator keeps them at 0).
pub(super) fn grid_rows(grid: &Grid, prev: &[f32], next: &mut [f32], d: &Diffusion, rows: Range<usize>) {
    match d.kind() {
        DecayKind::Exponential => run::<Exp>(grid, prev, next, d, rows),
        DecayKind::Linear => run::<Lin>(grid, prev, next, d, rows),
    }
}

fn run<R: Rule>(grid: &Grid, prev: &[f32], next: &mut [f32], d: &Diffusion, rows: Range<usize>) {
    let (w, h) = (grid.width(), grid.height());
    let straight = R::coef(d.decay(), grid.cell_size());
    let diagonal = R::coef(d.decay(), grid.cell_size() * std::f32::consts::SQRT_2);
    let blocked = grid.blocked();
    let mut cache = CoefCache::new();
    for y in rows {
        let row = y * w..(y + 1) * w;
        if y == 0 || y + 1 == h || w < 3 {
            for i in row {
                next[i] = cell_value::<Grid, R>(grid, prev, i, d, &mut cache);
            }
            continue;
        }
        for i in [row.start, row.end - 1] {
            next[i] = cell_value::<Grid, R>(grid, prev, i, d, &mut cache);
        }
        let rows3 = Rows {
            above: &prev[row.start - w..row.start],
            here: &prev[row.clone()],
            below: &prev[row.end..row.end + w],
            blocked_above: &blocked[row.start - w..row.start],
            blocked_here: &blocked[row.clone()],
            blocked_below: &blocked[row.end..row.end + w],
        };
        let out = &mut next[row.start + 1..row.end - 1];
        match grid.connectivity() {
            Connectivity::Four => interior4::<R>(&rows3, out, straight, d),
            Connectivity::Eight => interior8::<R>(&rows3, out, straight, diagonal, d),
        }
    }
}

/// Three consecutive rows of values and of blocked flags, each `width` long.
struct Rows<'a> {
    above: &'a [f32],
    here: &'a [f32],
    below: &'a [f32],
    blocked_above: &'a [bool],
    blocked_here: &'a [bool],
    blocked_below: &'a [bool],
}

/// 1.0 for a free cell, 0.0 for a blocked one.
#[inline(always)]
fn free(blocked: bool) -> f32 {
    f32::from(u8::from(!blocked))
}

/// Columns 1..width−1 of a 4-connected interior row.
#[inline(never)]
fn interior4<R: Rule>(r: &Rows<'_>, out: &mut [f32], straight: f32, d: &Diffusion) {
    let n = out.len();
    let (up, down) = (&r.above[1..][..n], &r.below[1..][..n]);
    let (left, centre, right) = (&r.here[..n], &r.here[1..][..n], &r.here[2..][..n]);
    let blocked = &r.blocked_here[1..][..n];
    let (momentum, threshold) = (d.momentum(), d.threshold());
    for i in 0..n {
        let mut m = 0.0f32;
        m = fmax(m, R::carry(up[i], straight));
        m = fmax(m, R::carry(down[i], straight));
        m = fmax(m, R::carry(left[i], straight));
        m = fmax(m, R::carry(right[i], straight));
        let v = settle(centre[i], m, momentum, threshold);
        out[i] = if blocked[i] { 0.0 } else { v };
    }
}

/// Columns 1..width−1 of an 8-connected interior row. A diagonal counts only when both
/// orthogonal cells beside it are free, as in [`Grid`]'s neighbours.
///
/// Masking by products is exact: `v · 1 = v`, and a masked diagonal carries `0 · v`, which
/// is ±0 (or NaN for an infinite `v`) and never beats the maximum's starting 0; the output
/// of a blocked cell is `new · 0 = +0`, since `new ≥ 0` when the cell held 0.
#[inline(never)]
fn interior8<R: Rule>(r: &Rows<'_>, out: &mut [f32], straight: f32, diagonal: f32, d: &Diffusion) {
    let n = out.len();
    let (up_left, up, up_right) = (&r.above[..n], &r.above[1..][..n], &r.above[2..][..n]);
    let (left, centre, right) = (&r.here[..n], &r.here[1..][..n], &r.here[2..][..n]);
    let (down_left, down, down_right) = (&r.below[..n], &r.below[1..][..n], &r.below[2..][..n]);
    let (b_up, b_down) = (&r.blocked_above[1..][..n], &r.blocked_below[1..][..n]);
    let (b_left, b_here, b_right) =
        (&r.blocked_here[..n], &r.blocked_here[1..][..n], &r.blocked_here[2..][..n]);
    let (momentum, threshold) = (d.momentum(), d.threshold());
    for i in 0..n {
        let mut m = 0.0f32;
        m = fmax(m, R::carry(up[i], straight));
        m = fmax(m, R::carry(down[i], straight));
        m = fmax(m, R::carry(left[i], straight));
        m = fmax(m, R::carry(right[i], straight));
        // A diagonal's value times 1 (allowed) or 0 (it would cut a corner): exact either
        // way, and a product, unlike a select, never becomes a branch on the walls.
        let (free_left, free_right) = (free(b_left[i]), free(b_right[i]));
        let (free_up, free_down) = (free(b_up[i]), free(b_down[i]));
        m = fmax(m, R::carry(up_left[i] * (free_left * free_up), diagonal));
        m = fmax(m, R::carry(up_right[i] * (free_right * free_up), diagonal));
        m = fmax(m, R::carry(down_left[i] * (free_left * free_down), diagonal));
        m = fmax(m, R::carry(down_right[i] * (free_right * free_down), diagonal));
        out[i] = settle(centre[i], m, momentum, threshold) * free(b_here[i]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::diffuse::generic_cells;
    use super::*;
    use crate::space::Space;

    fn both(grid: &Grid, prev: &[f32], d: &Diffusion) -> (Vec<f32>, Vec<f32>) {
        let (mut fast, mut generic) = (vec![9.0; grid.len()], vec![9.0; grid.len()]);
        grid_rows(grid, prev, &mut fast, d, 0..grid.height());
        generic_cells(grid, prev, &mut generic, d, 0..grid.len());
        (fast, generic)
    }

    #[test]
    fn matches_the_generic_rule_on_a_small_walled_grid() {
        let rows = ["......", ".@..@.", "..@...", "......", "...@.."];
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let grid = Grid::from_rows(&rows).unwrap().with_connectivity(conn);
            let prev: Vec<f32> = (0..grid.len())
                .map(|i| if grid.is_walkable(i) { ((i * 37) % 11) as f32 * 0.5 } else { 0.0 })
                .collect();
            for kind in [DecayKind::Exponential, DecayKind::Linear] {
                let d = Diffusion::new(0.4, 0.7).unwrap().with_kind(kind);
                let (fast, generic) = both(&grid, &prev, &d);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&fast), bits(&generic), "{conn:?} {kind:?}");
            }
        }
    }

    #[test]
    fn diagonals_do_not_cut_corners() {
        // The diagonal from (0,0) to (1,1) passes beside (1,0), which is blocked.
        let grid = Grid::from_rows(&[".@..", "....", "....", "...."]).unwrap();
        let mut prev = vec![0.0; grid.len()];
        prev[0] = 1.0;
        let d = Diffusion::new(0.0, 1.0).unwrap();
        let (fast, _) = both(&grid, &prev, &d);
        assert_eq!(fast[grid.index(0, 1).unwrap()], 1.0);
        assert_eq!(fast[grid.index(1, 1).unwrap()], 0.0);
    }
}
