//! The portable row kernel of the grid step, one row at a time: the cell rule written once,
//! for both connectivities and both decay kinds, in a form the compiler vectorises (built
//! for the target's baseline, and again for AVX2 by [`dispatch`](super::dispatch)).
//!
//! A row is computed from three rows of the previous map (above, here, below) and three rows
//! of masks (all bits set for a free cell, none for a blocked one). Rows and columns outside
//! the grid are read as blocked cells holding 0, which no neighbour's maximum ever picks (it
//! starts at 0 and keeps it on ties), so border cells need no special rule — only the two
//! edge columns are computed apart, by the same function.
//!
//! The operations differ from the generic rule's but give the same bits:
//!
//! * Decay is monotone (`v·c` with `c ≥ 0`, or `v − c`, rounded), so the strongest carried
//!   value is the strongest value, carried: one carry per distance, not per neighbour.
//! * Each maximum chain starts at 0, as the generic rule's does, so NaNs and values ≤ 0 are
//!   passed over in both; masked values are exactly +0 (a bitwise AND, never `0 · ∞`).
//! * The lerp and the threshold are [`settle`], the same function; the per-distance factors
//!   come from [`Rule::coef`], as the generic rule's do, so every product matches.

use std::marker::PhantomData;

use super::diffuse::{fmax, settle, Rule};
use super::fused::{Coefs, Hints, RowKernel};
use crate::space::Grid;

/// The portable kernel for decay kind `R` and 8 neighbours or 4: one `u32` mask per cell.
#[derive(Debug, Clone, Copy)]
pub(super) struct Portable<R, const EIGHT: bool>(PhantomData<R>);

impl<R, const EIGHT: bool> Portable<R, EIGHT> {
    pub(super) fn new() -> Self {
        Self(PhantomData)
    }
}

impl<R: Rule, const EIGHT: bool> RowKernel for Portable<R, EIGHT> {
    type Rule = R;

    #[inline(always)]
    fn mask_len(&self, width: usize) -> usize {
        width
    }
    /// A word a cell: as large as the map, not kept.
    #[inline(always)]
    fn layout(&self) -> Option<usize> {
        None
    }
    #[inline(always)]
    fn fill(&self, grid: &Grid, y: usize, out: &mut [u32]) {
        let w = grid.width();
        for (m, &b) in out.iter_mut().zip(&grid.blocked()[y * w..(y + 1) * w]) {
            *m = mask(b);
        }
    }
    #[inline(always)]
    fn row(&self, values: [&[f32]; 3], masks: [&[u32]; 3], out: &mut [f32], k: &Coefs, _: Hints) {
        row::<R, EIGHT>(values, masks, out, k);
    }
}

/// The mask of a cell: all bits for a free one, none for a blocked one.
#[inline(always)]
pub(super) fn mask(blocked: bool) -> u32 {
    u32::from(!blocked).wrapping_neg()
}

/// `v` where the mask is set, +0 elsewhere.
#[inline(always)]
fn and(v: f32, mask: u32) -> f32 {
    f32::from_bits(v.to_bits() & mask)
}

/// The `n` cells left of, at, and right of columns `1..=n`.
#[inline(always)]
fn three(r: &[f32], n: usize) -> [&[f32]; 3] {
    [&r[..n], &r[1..][..n], &r[2..][..n]]
}

/// The new value of a cell from its 3 × 3 neighbourhood `v` (rows above, here, below) and
/// the masks left, right, up, down and of the cell itself.
#[inline(always)]
fn cell<R: Rule, const EIGHT: bool>(v: [[f32; 3]; 3], [ml, mr, mu, md, mc]: [u32; 5], k: &Coefs) -> f32 {
    let [[ul, u, ur], [l, c, r], [dl, d, dr]] = v;
    let straight = fmax(fmax(fmax(fmax(0.0, u), d), l), r);
    let mut m = fmax(0.0, R::carry(straight, k.straight));
    if EIGHT {
        // A diagonal counts only when both orthogonal cells beside it are free.
        let up = and(fmax(fmax(0.0, and(ul, ml)), and(ur, mr)), mu);
        let down = and(fmax(fmax(0.0, and(dl, ml)), and(dr, mr)), md);
        m = fmax(m, R::carry(fmax(up, down), k.diagonal));
    }
    and(settle(c, m, k.momentum, k.threshold), mc)
}

/// One row of a step: `out` from the rows of values `v` and of masks `m` above, here and
/// below, all `out.len()` long.
#[inline(always)]
pub(super) fn row<R: Rule, const EIGHT: bool>(v: [&[f32]; 3], m: [&[u32]; 3], out: &mut [f32], k: &Coefs) {
    let w = out.len();
    let [va, vh, vb] = v.map(|r| &r[..w]);
    let [ma, mh, mb] = m.map(|r| &r[..w]);
    if w >= 3 {
        // Slices cut to one length, so the loop has no bounds checks and vectorises.
        let n = w - 2;
        let ([ul, u, ur], [l, c, r], [dl, d, dr]) = (three(va, n), three(vh, n), three(vb, n));
        let (ml, mr, mc, mu, md) = (&mh[..n], &mh[2..][..n], &mh[1..][..n], &ma[1..][..n], &mb[1..][..n]);
        for (i, o) in out[1..][..n].iter_mut().enumerate() {
            let v = [[ul[i], u[i], ur[i]], [l[i], c[i], r[i]], [dl[i], d[i], dr[i]]];
            *o = cell::<R, EIGHT>(v, [ml[i], mr[i], mu[i], md[i], mc[i]], k);
        }
    }
    // The edge columns: the same rule, reading 0 (blocked) beyond the row's ends.
    for x in [0, w - 1] {
        let at =
            |r: &[f32], dx: usize| (x + dx).checked_sub(1).and_then(|x| r.get(x)).copied().unwrap_or(0.0);
        let mat = |r: &[u32], dx: usize| (x + dx).checked_sub(1).and_then(|x| r.get(x)).copied().unwrap_or(0);
        let v = [va, vh, vb].map(|r| [at(r, 0), at(r, 1), at(r, 2)]);
        out[x] = cell::<R, EIGHT>(v, [mat(mh, 0), mat(mh, 2), mat(ma, 1), mat(mb, 1), mat(mh, 1)], k);
    }
}

#[cfg(test)]
mod tests {
    use super::super::diffuse::{generic_cells, DecayKind, Diffusion, Exp, Lin};
    use super::*;
    use crate::space::{Connectivity, Space};
    use crate::Cell;

    /// The whole grid, row by row, with zero rows beyond its top and bottom.
    fn rows(grid: &Grid, prev: &[f32], d: &Diffusion) -> Vec<f32> {
        fn run<R: Rule, const EIGHT: bool>(grid: &Grid, prev: &[f32], d: &Diffusion) -> Vec<f32> {
            let (w, h) = (grid.width(), grid.height());
            let k = Coefs::new::<R>(grid, d, false);
            let masks: Vec<u32> = grid.blocked().iter().map(|&b| mask(b)).collect();
            let (zeros, none) = (vec![0.0; w], vec![0; w]);
            let mut next = vec![9.0; grid.len()];
            for y in 0..h {
                let v = |y: usize| if y < h { &prev[y * w..][..w] } else { &zeros };
                let m = |y: usize| if y < h { &masks[y * w..][..w] } else { &none };
                let (above, below) = (y.wrapping_sub(1), y + 1);
                let out = &mut next[y * w..(y + 1) * w];
                row::<R, EIGHT>([v(above), v(y), v(below)], [m(above), m(y), m(below)], out, &k);
            }
            next
        }
        match (d.kind(), grid.connectivity()) {
            (DecayKind::Exponential, Connectivity::Four) => run::<Exp, false>(grid, prev, d),
            (DecayKind::Exponential, Connectivity::Eight) => run::<Exp, true>(grid, prev, d),
            (DecayKind::Linear, Connectivity::Four) => run::<Lin, false>(grid, prev, d),
            (DecayKind::Linear, Connectivity::Eight) => run::<Lin, true>(grid, prev, d),
        }
    }

    fn both(grid: &Grid, prev: &[f32], d: &Diffusion) -> (Vec<u32>, Vec<u32>) {
        let mut generic = vec![9.0; grid.len()];
        generic_cells(grid, prev, &mut generic, d, 0..grid.len());
        let bits = |v: Vec<f32>| v.iter().map(|x| x.to_bits()).collect();
        (bits(rows(grid, prev, d)), bits(generic))
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
                assert_eq!(fast, generic, "{conn:?} {kind:?}");
            }
        }
    }

    #[test]
    fn nans_infinities_and_negatives_are_handled_as_the_generic_rule_does() {
        let grid = Grid::from_rows(&[".....", ".@...", "....@", "....."]).unwrap();
        let specials = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, -0.0, 3.0];
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let grid = grid.clone().with_connectivity(conn);
            let prev: Vec<f32> = (0..grid.len())
                .map(|i| if grid.is_walkable(i) { specials[(i * 7) % specials.len()] } else { 0.0 })
                .collect();
            for (decay, kind) in
                [(0.3, DecayKind::Exponential), (1e9, DecayKind::Exponential), (0.3, DecayKind::Linear)]
            {
                for momentum in [0.0, 0.5, 1.0] {
                    let d = Diffusion::new(decay, momentum).unwrap().with_kind(kind);
                    let (fast, generic) = both(&grid, &prev, &d);
                    assert_eq!(fast, generic, "{conn:?} {kind:?} decay {decay} momentum {momentum}");
                }
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
        let fast = rows(&grid, &prev, &d);
        assert_eq!(fast[grid.index(Cell::new(0, 1)).unwrap()], 1.0);
        assert_eq!(fast[grid.index(Cell::new(1, 1)).unwrap()], 0.0);
    }
}
