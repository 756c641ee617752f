//! N distinct good spots: the best cells that keep a minimum distance from each other.

use glam::Vec3;

use super::{check_len, Extreme};
use crate::{layer::Layer, space::Space};

/// Up to `n` walkable cells with the highest (or lowest) values such that any two chosen
/// centres are at least `min_spacing` apart in a straight line: N separate candidate spots
/// (where to send N squads), not one peak and its neighbours. Greedy: cells are taken best
/// first (ties by lower index) and kept when far enough from every cell kept so far. The
/// result is sorted best first.
///
/// A negative spacing counts as 0 (the plain top N); a `NaN` spacing gives nothing.
/// Allocates the result and a list of candidate cells. Cost is O(cells) when the spots
/// are found among the leading candidates, O(cells · log cells) at worst, when the spacing
/// rejects nearly every cell (about 2 ms and 8 ms on a 512 × 512 map), plus
/// O(candidates scanned · n) distance checks.
///
/// ```
/// use influence::{query::{self, Extreme}, Grid, Layer};
/// let grid = Grid::new(5, 1)?;
/// let layer = Layer::from_vec(vec![9.0, 8.0, 1.0, 7.0, 6.0]);
/// assert_eq!(query::top_n(&grid, &layer, 2, 0.0, Extreme::Highest), vec![(0, 9.0), (1, 8.0)]);
/// // At least 2 apart: 8 is too close to 9, so the next spot is the 7.
/// assert_eq!(query::top_n(&grid, &layer, 2, 2.0, Extreme::Highest), vec![(0, 9.0), (3, 7.0)]);
/// # Ok::<(), influence::Error>(())
/// ```
pub fn top_n<S: Space>(
    space: &S,
    layer: &Layer,
    n: usize,
    min_spacing: f32,
    which: Extreme,
) -> Vec<(usize, f32)> {
    check_len(space, layer);
    if n == 0 || min_spacing.is_nan() {
        return Vec::new();
    }
    let spacing = min_spacing.max(0.0);
    // Integer keys sort about 3× faster than comparisons that look values up in the layer,
    // and one word (rank, then cell) faster than a pair. Spaces hold at most 2²⁸ cells.
    let mut candidates: Vec<u64> = (0..space.len())
        .filter(|&i| space.is_walkable(i) && !layer[i].is_nan())
        .map(|i| u64::from(which.rank(layer[i])) << 32 | i as u64)
        .collect();
    let mut chosen: Vec<(usize, f32, Vec3)> = Vec::with_capacity(n.min(candidates.len()));
    in_order(&mut candidates, n, |i| {
        let p = space.position(i);
        if chosen.iter().all(|c| c.2.distance(p) >= spacing) {
            chosen.push((i, layer[i], p));
        }
        chosen.len() < n
    });
    chosen.into_iter().map(|(i, v, _)| (i, v)).collect()
}

/// Calls `visit` on the cells of `keys` in ascending key order until it returns `false`,
/// sorting only as far as needed: a partial selection brings the next block to the front,
/// and blocks grow 4× so a scan deep into the list costs O(len · log len) in all. The first
/// block holds at least 256 keys: sorting those costs a few microseconds, and spaced spots
/// usually lie deeper than a handful of keys, where each smaller block would cost a
/// selection over the whole list (on 256² with spacing 1–10, a fifth of a query's time).
fn in_order(keys: &mut [u64], first_block: usize, mut visit: impl FnMut(usize) -> bool) {
    let mut rest = keys;
    let mut block = first_block.max(256);
    while !rest.is_empty() {
        let take = block.min(rest.len());
        if take < rest.len() {
            rest.select_nth_unstable(take - 1);
        }
        let (head, tail) = rest.split_at_mut(take);
        head.sort_unstable();
        for &key in head.iter() {
            if !visit((key & u64::from(u32::MAX)) as usize) {
                return;
            }
        }
        rest = tail;
        block = block.saturating_mul(4);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Grid;
    use Extreme::{Highest, Lowest};

    #[test]
    fn plain_top_n_is_sorted_with_ties_by_index() {
        let g = Grid::from_rows(&["....@"]).unwrap();
        let l = Layer::from_vec(vec![3.0, 5.0, f32::NAN, 5.0, 99.0]);
        assert_eq!(top_n(&g, &l, 3, 0.0, Highest), vec![(1, 5.0), (3, 5.0), (0, 3.0)]);
        assert_eq!(top_n(&g, &l, 9, -1.0, Lowest), vec![(0, 3.0), (1, 5.0), (3, 5.0)]);
        assert_eq!(top_n(&g, &l, 0, 0.0, Highest), vec![]);
        assert_eq!(top_n(&g, &l, 2, f32::NAN, Highest), vec![]);
    }

    #[test]
    fn spacing_picks_separate_peaks_not_one_hill() {
        // Two hills on a 7 × 7 map: the big one centred at (1, 1), a smaller one at (5, 5).
        let g = Grid::new(7, 7).unwrap();
        let hill = |x: usize, y: usize, cx: f32, cy: f32, h: f32| {
            h - ((x as f32 - cx).powi(2) + (y as f32 - cy).powi(2)).sqrt()
        };
        let l = Layer::from_vec(
            (0..49)
                .map(|i| hill(i % 7, i / 7, 1.0, 1.0, 10.0).max(hill(i % 7, i / 7, 5.0, 5.0, 8.0)))
                .collect(),
        );
        let spots = top_n(&g, &l, 2, 3.0, Highest);
        let at = |x, y| g.index(crate::Cell::new(x, y)).unwrap();
        assert_eq!(spots, vec![(at(1, 1), 10.0), (at(5, 5), 8.0)]);
        // Without spacing the second spot is a neighbour of the first.
        assert_eq!(top_n(&g, &l, 2, 0.0, Highest)[1].1, 9.0);
        // Spacing so large that only one spot fits.
        assert_eq!(top_n(&g, &l, 3, 100.0, Highest).len(), 1);
    }

    /// Against every candidate sorted by value (ties by cell) and taken greedily, on maps
    /// with many ties and some NaNs.
    #[test]
    fn spots_are_the_greedy_choice_over_all_candidates_in_order() {
        let g = Grid::new(60, 40).unwrap();
        let mut next = super::super::tests::xorshift(0x2545_F491_4F6C_DD1Du64);
        for case in 0..100 {
            let l = Layer::from_vec(
                (0..g.len())
                    .map(|_| if next().is_multiple_of(50) { f32::NAN } else { (next() % 40) as f32 })
                    .collect(),
            );
            let n = 1 + (next() % 40) as usize;
            let spacing = (next() % 12) as f32;
            for which in [Highest, Lowest] {
                let mut cells: Vec<usize> = (0..g.len()).filter(|&i| !l[i].is_nan()).collect();
                cells.sort_by_key(|&i| (which.rank(l[i]), i));
                let mut want: Vec<(usize, f32)> = Vec::new();
                for i in cells {
                    let p = g.position(i);
                    if want.len() < n && want.iter().all(|&(j, _)| g.position(j).distance(p) >= spacing) {
                        want.push((i, l[i]));
                    }
                }
                let bits = |v: &[(usize, f32)]| v.iter().map(|&(i, x)| (i, x.to_bits())).collect::<Vec<_>>();
                let got = top_n(&g, &l, n, spacing, which);
                assert_eq!(bits(&got), bits(&want), "case {case}, n {n}, spacing {spacing}");
            }
        }
    }

    #[test]
    fn deep_scans_cross_block_boundaries() {
        // A descending ramp of 1000 cells and spacing 100: the kept cells are 0, 100, 200, …
        let g = Grid::new(1000, 1).unwrap();
        let l = Layer::from_vec((0..1000).map(|i| -(i as f32)).collect());
        let got: Vec<usize> = top_n(&g, &l, 20, 100.0, Highest).into_iter().map(|c| c.0).collect();
        assert_eq!(got, (0..10).map(|k| k * 100).collect::<Vec<_>>());
    }
}
