//! The flow field's expansion of a cell, a row of neighbours at a time on `x86_64`.
//!
//! [`Padded::offers`] tests a cell's eight neighbours one by one: a load of the penalty, a
//! NaN test, a load of the neighbour's cost, a comparison, shifts to place the bit. Here
//! each row of the neighbours (the three above, the two beside, the three below) is one
//! SSE vector of four entries, the fourth past the neighbours and ignored. SSE is part of
//! every `x86_64` CPU, so nothing is dispatched. The bits are [`Padded::offers`]'s (a test
//! compares the two), and the flow field's queue search takes 10–14 % less time on the
//! Dragon Age maps (docs/PERFORMANCE.md).
//!
//! A* (`Router`) keeps one-by-one tests: its nodes hold a cost and a tag side by side, and
//! taking them apart a row at a time made routes 10–15 % slower.
#![cfg_attr(target_arch = "x86_64", allow(unsafe_code))]

use super::Padded;

impl Padded {
    /// The neighbours of padded cell `p` (bits as [`offers`](Self::offers) gives them) whose
    /// cost in `costs` an offer lowers: `offer[0]` for a straight step, `offer[1]` for a
    /// diagonal one (the flow field's expansion, whose offers are the cell's cost plus the
    /// step into it). `costs` holds a cost per entry of the penalties, slack included.
    ///
    /// # Panics
    /// If `p` is not an inner cell, or `costs` is short.
    #[inline(always)]
    pub(crate) fn cheaper(&self, p: usize, costs: &[f32], offer: [f32; 2]) -> u32 {
        let (s, pen) = (self.stride, &self.penalty[..]);
        assert!(p > s && p + s + 3 <= pen.len() && costs.len() >= pen.len(), "an inner cell, its costs");
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: the loads read entries p − s − 1 (≥ 0) to p + s + 2 (below both lengths,
            // asserted above).
            unsafe { cheaper_sse(self, p, costs, offer) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.offers(p, |i, q| offer[(i >> 2) as usize] < costs[q])
        }
    }
}

/// [`Padded::cheaper`] with SSE.
///
/// # Safety
/// `grid.penalty` and `costs` hold entries `p − s − 1 ..= p + s + 2` (`s` the stride).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn cheaper_sse(grid: &Padded, p: usize, costs: &[f32], [straight, diagonal]: [f32; 2]) -> u32 {
    use std::arch::x86_64::{
        __m128, _mm_and_ps, _mm_cmplt_ps, _mm_cmpord_ps, _mm_loadu_ps, _mm_movemask_ps, _mm_set1_ps,
        _mm_setr_ps,
    };
    let (s, pen) = (grid.stride, grid.penalty.as_ptr());
    // SAFETY: SSE is part of x86_64; the caller promised the entries each row reads.
    unsafe {
        // For the row of neighbours from entry `at` (the column left of the cell), offered
        // `offer` lane by lane: the bits of the lanes whose cost the offer lowers, and of
        // the open lanes.
        let row = |at: usize, offer: __m128| {
            let walls = _mm_loadu_ps(pen.add(at));
            let open = _mm_cmpord_ps(walls, walls);
            let lower = _mm_cmplt_ps(offer, _mm_loadu_ps(costs.as_ptr().add(at)));
            (_mm_movemask_ps(_mm_and_ps(open, lower)) as u32, _mm_movemask_ps(open) as u32)
        };
        let edge = _mm_setr_ps(diagonal, straight, diagonal, diagonal);
        let ((up, o_up), (mid, o_mid), (down, o_down)) =
            (row(p - s - 1, edge), row(p - 1, _mm_set1_ps(straight)), row(p + s - 1, edge));
        // Lane 0 is the column left of the cell, 1 its own, 2 the one right of it.
        let (r, l, d, u) = (o_mid >> 2 & 1, o_mid & 1, o_down >> 1 & 1, o_up >> 1 & 1);
        let bits = (mid >> 2 & 1) | (mid & 1) << 1 | (down >> 1 & 1) << 2 | (up >> 1 & 1) << 3;
        if !grid.eight {
            return bits;
        }
        bits | (r & d & down >> 2) << 4 | (l & d & down) << 5 | (r & u & up >> 2) << 6 | (l & u & up) << 7
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::{Connectivity, Grid};
    use crate::Cell;

    /// The same bits as [`Padded::offers`] with the same test, on random walls, penalties
    /// (infinite ones too) and costs (walls' `−∞` and unreached `+∞` too), both
    /// connectivities, every cell.
    #[test]
    fn rows_give_the_bits_of_one_by_one() {
        let mut next = crate::test_rng::xorshift(0x000f_f375);
        for case in 0..60 {
            let (w, h) = (1 + next() as usize % 12, 1 + next() as usize % 9);
            let connectivity = if case % 2 == 0 { Connectivity::Four } else { Connectivity::Eight };
            let mut grid = Grid::new(w, h).unwrap().with_connectivity(connectivity);
            for i in 0..w * h {
                if next().is_multiple_of(4) {
                    grid.set_blocked(Cell::new(i % w, i / w), true).unwrap();
                }
            }
            let layer: Vec<f32> =
                (0..w * h).map(|_| [0.0, 1.0, 7.5, f32::INFINITY][next() as usize % 4]).collect();
            let mut padded = Padded::default();
            padded.fill(&grid, Some(&layer), 1.0);
            // Costs anywhere from 0 to 20, so that some fall between a straight offer and a
            // diagonal one.
            let costs: Vec<f32> = (0..padded.penalty.len())
                .map(|_| match next() % 8 {
                    0 => f32::INFINITY,
                    1 => f32::NEG_INFINITY,
                    k => (k * 1000 + next() % 1000) as f32 / 400.0,
                })
                .collect();
            let length = [padded.straight, padded.diagonal];
            for i in 0..w * h {
                let p = padded.pad(i);
                let (here, penalty) = ([0.0, 2.0, 5.0][next() as usize % 3], padded.penalty[p]);
                let offer = length.map(|d| here + (d + penalty));
                let want = padded.offers(p, |b, q| offer[(b >> 2) as usize] < costs[q]);
                assert_eq!(padded.cheaper(p, &costs, offer), want, "case {case}, cell {i}");
            }
        }
    }
}
