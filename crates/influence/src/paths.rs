//! Best-first sweeps over any [`Space`]: a best-first engine settles cells largest value first
//! (Dijkstra's algorithm for any value that only shrinks along edges), with scratch kept
//! between calls so a per-frame caller allocates only the first time. Shortest walkable
//! distances ([`PathScratch`]: path falloff, reachability queries, routes) sweep negated
//! distances; the diffusion steady state sweeps max-product values. One engine serves both.

use std::collections::BinaryHeap;

use crate::space::Space;

/// Reusable scratch for [`PathScratch::sweep`]: a best-first sweep over negated
/// distances (negation is exact, so distances come out bit for bit as summed).
#[derive(Debug, Default, Clone)]
pub struct PathScratch(BestFirst);

/// Reusable scratch: per-cell best values valid for the current generation only, so a
/// sweep that touches few cells of a big space clears nothing.
#[derive(Debug, Default, Clone)]
pub(crate) struct BestFirst {
    best: Vec<f32>,
    /// Equal to `generation` when the cell has a value this sweep.
    seen: Vec<u32>,
    /// Equal to `generation` when the cell's value is final this sweep.
    settled: Vec<u32>,
    generation: u32,
    heap: BinaryHeap<Entry>,
}

/// A queue entry packed into one integer, so the heap compares and moves 8 bytes: the value's
/// bits mapped to an order-preserving `u32` (as `f32::total_cmp` orders them) in the high
/// half, the complement of the cell in the low half. The max-heap then pops the largest value
/// first and, among equal values, the smaller cell (determinism). Cells fit in 32 bits:
/// spaces hold at most 2²⁸.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Entry(u64);

impl Entry {
    fn new(value: f32, cell: usize) -> Self {
        let bits = value.to_bits();
        let ordered = if bits >> 31 == 1 { !bits } else { bits | 1 << 31 };
        Self(u64::from(ordered) << 32 | u64::from(!(cell as u32)))
    }

    fn value(self) -> f32 {
        let ordered = (self.0 >> 32) as u32;
        f32::from_bits(if ordered >> 31 == 1 { ordered & !(1 << 31) } else { !ordered })
    }

    fn cell(self) -> usize {
        !(self.0 as u32) as usize
    }
}

impl BestFirst {
    /// Starts a sweep over a space of `len` cells.
    pub(crate) fn begin(&mut self, len: usize) {
        if self.seen.len() != len || self.generation == u32::MAX {
            self.best = vec![0.0; len];
            self.seen = vec![0; len];
            self.settled = vec![0; len];
            self.generation = 0;
        }
        self.generation += 1;
        self.heap.clear();
    }

    /// Offers `value` to `cell`; it is queued if it beats what the cell has (or the cell
    /// has nothing yet) and the cell is not settled.
    pub(crate) fn offer(&mut self, cell: usize, value: f32) {
        let g = self.generation;
        if self.settled[cell] == g || (self.seen[cell] == g && value <= self.best[cell]) {
            return;
        }
        self.seen[cell] = g;
        self.best[cell] = value;
        self.heap.push(Entry::new(value, cell));
    }

    /// Settles cells largest first until the queue is empty: `visit(cell, value)` once per
    /// cell, then `expand(cell, value, neighbour, distance)` for each walkable neighbour,
    /// which returns the value to offer that neighbour, if any.
    pub(crate) fn run<S: Space>(
        &mut self,
        space: &S,
        mut visit: impl FnMut(usize, f32),
        mut expand: impl FnMut(usize, f32, usize, f32) -> Option<f32>,
    ) {
        while let Some(entry) = self.heap.pop() {
            let (value, cell) = (entry.value(), entry.cell());
            let g = self.generation;
            if self.settled[cell] == g || value < self.best[cell] {
                continue; // settled already, or a stale entry
            }
            self.settled[cell] = g;
            visit(cell, value);
            space.for_each_neighbour(cell, |next, dist| {
                if let Some(v) = expand(cell, value, next, dist) {
                    self.offer(next, v);
                }
            });
        }
    }
}

impl PathScratch {
    /// Empty scratch; it grows to the space's size on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Visits every cell reachable from `starts` (cell, starting distance) within `limit`,
    /// nearest first, calling `visit(cell, distance)` once per cell. Blocked and
    /// out-of-range start cells are skipped. Distances are in world units, along the
    /// space's neighbour steps (octile moves on an 8-connected grid, around walls).
    ///
    /// ```
    /// use influence::{Grid, paths::PathScratch};
    /// let grid = Grid::from_rows(&[".@.", ".@.", "..."])?;
    /// let mut far_side = None;
    /// PathScratch::new().sweep(&grid, &[(0, 0.0)], f32::INFINITY, |cell, d| {
    ///     if cell == 2 { far_side = Some(d); }
    /// });
    /// // Around the wall: no corner cutting, so down 2, across 2, up 2.
    /// assert_eq!(far_side, Some(6.0));
    /// # Ok::<(), influence::Error>(())
    /// ```
    pub fn sweep<S: Space>(
        &mut self,
        space: &S,
        starts: &[(usize, f32)],
        limit: f32,
        mut visit: impl FnMut(usize, f32),
    ) {
        let len = space.len();
        self.0.begin(len);
        for &(cell, d) in starts {
            if cell < len && space.is_walkable(cell) && d <= limit {
                self.0.offer(cell, -d);
            }
        }
        self.0.run(
            space,
            |cell, v| visit(cell, -v),
            |_, v, _, step| {
                let d = -v + step;
                (d <= limit).then_some(-d)
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Connectivity, Grid};

    fn distances(grid: &Grid, start: usize, limit: f32) -> Vec<Option<f32>> {
        let mut out = vec![None; grid.len()];
        PathScratch::new().sweep(grid, &[(start, 0.0)], limit, |c, d| out[c] = Some(d));
        out
    }

    #[test]
    fn open_grid_distances_are_octile() {
        let g = Grid::new(5, 5).unwrap();
        let d = distances(&g, 0, f32::INFINITY);
        // To (4, 2): two diagonal steps and two straight ones.
        assert!((d[g.index(4, 2).unwrap()].unwrap() - (2.0 * 2f32.sqrt() + 2.0)).abs() < 1e-5);
        let four = Grid::new(5, 5).unwrap().with_connectivity(Connectivity::Four);
        assert_eq!(distances(&four, 0, f32::INFINITY)[four.index(4, 2).unwrap()], Some(6.0));
    }

    #[test]
    fn walls_force_detours_and_enclosures_are_unreachable() {
        let g = Grid::from_rows(&["..@..", "..@..", "..@.."]).unwrap().with_connectivity(Connectivity::Four);
        let d = distances(&g, 0, f32::INFINITY);
        assert_eq!(d[g.index(4, 0).unwrap()], None);
        let g = Grid::from_rows(&["..@..", "..@..", "....."]).unwrap().with_connectivity(Connectivity::Four);
        assert_eq!(distances(&g, 0, f32::INFINITY)[g.index(4, 0).unwrap()], Some(8.0));
    }

    #[test]
    fn packed_entries_round_trip_and_order_like_total_cmp() {
        let values = [-f32::INFINITY, -3.5, -1e-30, -0.0, 0.0, 1e-30, 2.0, 7.25, f32::MAX];
        for (i, &v) in values.iter().enumerate() {
            let e = Entry::new(v, 1000 + i);
            assert_eq!((e.value().to_bits(), e.cell()), (v.to_bits(), 1000 + i));
            for &w in &values {
                let order = v.total_cmp(&w);
                assert_eq!(Entry::new(v, 5).cmp(&Entry::new(w, 5)), order, "{v} vs {w}");
            }
        }
        // Equal values: the smaller cell is the larger entry, popped first.
        assert!(Entry::new(1.0, 3) > Entry::new(1.0, 4));
    }

    #[test]
    fn limit_bounds_the_sweep_and_scratch_is_reusable() {
        let g = Grid::new(9, 1).unwrap();
        let mut scratch = PathScratch::new();
        let mut seen = Vec::new();
        scratch.sweep(&g, &[(4, 0.0)], 2.0, |c, _| seen.push(c));
        seen.sort_unstable();
        assert_eq!(seen, vec![2, 3, 4, 5, 6]);
        seen.clear();
        scratch.sweep(&g, &[(0, 0.0), (8, 0.5)], 1.0, |c, _| seen.push(c));
        seen.sort_unstable();
        assert_eq!(seen, vec![0, 1, 8]); // 7 is 1.5 from the second start
    }
}
