//! Shortest walkable distances over any [`Space`]: a multi-source Dijkstra sweep bounded by
//! a distance limit, with scratch memory that is kept between calls so a per-frame caller
//! allocates only the first time. Path-distance falloff, reachability queries and the
//! propagation issue's steady state are all built on it.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::space::Space;

/// Reusable scratch for [`PathScratch::sweep`].
#[derive(Debug, Default, Clone)]
pub struct PathScratch {
    dist: Vec<f32>,
    touched: Vec<usize>,
    heap: BinaryHeap<Frontier>,
}

/// A heap entry: smaller distance first, ties by smaller cell index (determinism).
#[derive(Debug, Clone, Copy)]
struct Frontier {
    dist: f32,
    cell: usize,
}

impl PartialEq for Frontier {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Frontier {}
impl PartialOrd for Frontier {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Frontier {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap and we want the nearest first.
        other.dist.total_cmp(&self.dist).then_with(|| other.cell.cmp(&self.cell))
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
        self.reset(space.len());
        for &(cell, d) in starts {
            if cell < space.len() && space.is_walkable(cell) && d <= limit && d < self.dist[cell] {
                self.improve(cell, d);
            }
        }
        while let Some(Frontier { dist, cell }) = self.heap.pop() {
            if dist > self.dist[cell] {
                continue; // a stale entry: the cell was reached more cheaply since
            }
            visit(cell, dist);
            let Self { dist: best, touched, heap } = self;
            space.for_each_neighbour(cell, |next, step| {
                let d = dist + step;
                if d <= limit && d < best[next] {
                    if best[next] == f32::INFINITY {
                        touched.push(next);
                    }
                    best[next] = d;
                    heap.push(Frontier { dist: d, cell: next });
                }
            });
        }
    }

    fn improve(&mut self, cell: usize, d: f32) {
        if self.dist[cell] == f32::INFINITY {
            self.touched.push(cell);
        }
        self.dist[cell] = d;
        self.heap.push(Frontier { dist: d, cell });
    }

    /// Clears only what the last sweep touched, so a small sweep on a big map stays small.
    fn reset(&mut self, len: usize) {
        if self.dist.len() != len {
            self.dist.clear();
            self.dist.resize(len, f32::INFINITY);
        } else {
            for &c in &self.touched {
                self.dist[c] = f32::INFINITY;
            }
        }
        self.touched.clear();
        self.heap.clear();
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
