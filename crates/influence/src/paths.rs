//! Best-first sweeps over any [`Space`]: a best-first engine settles cells largest value first
//! (Dijkstra's algorithm for any value that only shrinks along edges), with scratch kept
//! between calls so a per-frame caller allocates only the first time. Shortest walkable
//! distances ([`PathScratch`]: path falloff, reachability queries, routes) sweep negated
//! distances; the diffusion steady state sweeps max-product values; area graphs sweep
//! distances carrying the nearest seed along. One engine serves them all.
//!
//! ## The queue
//!
//! Entries are keys packed into one `u64`: the value's bits mapped to an order-reversing
//! `u32` in the high half, the cell in the low half, so the smallest key is the largest value
//! and, among equal values, the smaller cell (determinism). Whatever structure holds them,
//! the queue pops exactly what one binary heap of all the keys would (a unit test checks it
//! against `BinaryHeap`), so results and visit order do not depend on it.
//!
//! A sweep starts with a binary heap, which is all in L1 while the queue is small (a path
//! falloff of a few hundred cells). Past 1,024 keys it becomes a monotone *radix
//! heap* on the value half: a sweep only queues values no larger than the one it settles,
//! so bucket `i` holds the keys whose value half first differs from a frame value at bit
//! `i`, the smallest key is always in the lowest non-empty bucket, and a key only ever moves
//! to lower buckets, a few times in all, each move a sequential push instead of a sift
//! through a heap too big for the cache. The lowest bucket is taken out whole when small and
//! sorted; otherwise it is split around its smallest value, and the keys with exactly that
//! value (a tie group: diffusion from equal seeds makes groups of thousands) are sorted by
//! cell, by radix when large, and popped in order. A key at or above the frame (a zero-length
//! edge, decay 0, a value that rounds back to itself) goes to the binary heap, which is
//! drained alongside the current run.
//!
//! On the steady state's sweep (`influence bench --kernels steady`) a binary heap took about
//! 1.45 times as long as the radix heap at 1024², and a 4-ary heap about 1.3 times; at 256²
//! both about 1.1 times.
//!
//! Per cell the engine keeps its best value, a generation mark (queued or settled this
//! sweep) and an optional payload side by side, so one cache line serves a neighbour's
//! check; marks are valid for the current generation only, so a sweep that touches few
//! cells of a big space clears nothing.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::space::Space;

/// Reusable scratch for [`PathScratch::sweep`]: a best-first sweep over negated
/// distances (negation is exact, so distances come out bit for bit as summed).
#[derive(Debug, Default, Clone)]
pub struct PathScratch(BestFirst);

/// The best-first engine, with reusable scratch. Each cell may carry a payload `P` (the
/// start it was reached from, say): it passes unchanged from a settled cell to the cells it
/// offers values to, and when two offers tie on value the smaller payload is kept.
#[derive(Debug, Default, Clone)]
pub(crate) struct BestFirst<P = ()> {
    cells: Vec<CellState<P>>,
    /// Marks of this sweep are `2 · generation` (queued) and `2 · generation + 1` (settled).
    generation: u32,
    queue: Queue,
}

/// What the engine knows of one cell; only meaningful when `mark` is of this sweep.
#[derive(Debug, Default, Clone, Copy)]
struct CellState<P> {
    best: f32,
    mark: u32,
    payload: P,
}

/// The queue key of `value` at `cell`: the value's bits mapped to a `u32` that orders them
/// opposite to `f32::total_cmp` in the high half, the cell in the low half, so the smallest
/// key pops first: the largest value and, among equal values, the smaller cell. Cells fit in
/// 32 bits: spaces hold at most 2²⁸.
fn key(value: f32, cell: usize) -> u64 {
    let bits = value.to_bits();
    let ordered = if bits >> 31 == 1 { !bits } else { bits | 1 << 31 };
    u64::from(!ordered) << 32 | cell as u64
}

fn key_value(key: u64) -> f32 {
    let ordered = !((key >> 32) as u32);
    f32::from_bits(if ordered >> 31 == 1 { ordered & !(1 << 31) } else { !ordered })
}

fn key_cell(key: u64) -> usize {
    key as u32 as usize
}

/// The value half of a key.
fn high(key: u64) -> u32 {
    (key >> 32) as u32
}

/// A min-queue of keys: a binary heap while small, then a radix heap (see the module docs).
/// It pops exactly what one binary heap of the same keys would, whatever is pushed; it is
/// fast when keys are pushed no lower than the last popped one's value half.
#[derive(Debug, Default, Clone)]
struct Queue {
    /// The value half the buckets are relative to: every key in a bucket is above it,
    /// every key in `run` and `early` at or below it.
    frame: u32,
    /// Bucket `i`: keys whose value half first differs from `frame` at bit `i`.
    buckets: [Vec<u64>; 32],
    /// Bit `i` set when bucket `i` is not empty.
    occupied: u32,
    /// The keys of one bucket taken out whole (a tie group, or a small bucket), in
    /// descending order: popped from the end.
    run: Vec<u64>,
    /// Keys pushed at or below `frame`: all of them until the queue outgrows [`HEAP_MAX`],
    /// then those that land within or above the current run (rare but for small runs, which
    /// span several values).
    early: BinaryHeap<Reverse<u64>>,
    /// Whether the buckets are in use this sweep.
    radix: bool,
    /// Scratch for [`sort_run`].
    spare: Vec<u64>,
}

/// Keys the queue holds in its binary heap before it switches to buckets: a sweep that stays
/// small (a path falloff of a few hundred cells) keeps the heap, which is then all in L1.
const HEAP_MAX: usize = 1024;
/// A bucket this small is sorted whole rather than split further.
const SMALL_RUN: usize = 128;
/// Tie groups this large are sorted by radix on the cell, smaller ones by comparison.
const RADIX_SORT_MIN: usize = 512;

impl Queue {
    fn clear(&mut self) {
        let mut occupied = self.occupied;
        while occupied != 0 {
            self.buckets[occupied.trailing_zeros() as usize].clear();
            occupied &= occupied - 1;
        }
        self.occupied = 0;
        self.frame = u32::MAX;
        self.radix = false;
        self.run.clear();
        self.early.clear();
    }

    #[inline]
    fn push(&mut self, key: u64) {
        let h = high(key);
        if h <= self.frame {
            self.early.push(Reverse(key));
            if !self.radix && self.early.len() > HEAP_MAX {
                self.switch_to_buckets();
            }
        } else {
            let i = 31 - (h ^ self.frame).leading_zeros();
            self.buckets[i as usize].push(key);
            self.occupied |= 1 << i;
        }
    }

    /// Moves the keys of the binary heap into the buckets, relative to the largest value
    /// (the smallest value half, the top's), whose keys stay in the heap; the heap keeps its
    /// allocation.
    #[cold]
    fn switch_to_buckets(&mut self) {
        self.radix = true;
        let Some(&Reverse(top)) = self.early.peek() else { return };
        let frame = high(top);
        self.frame = frame;
        let (buckets, occupied) = (&mut self.buckets, &mut self.occupied);
        let mut keys = std::mem::take(&mut self.early).into_vec();
        keys.retain(|&Reverse(k)| {
            let h = high(k);
            if h != frame {
                let i = 31 - (h ^ frame).leading_zeros();
                buckets[i as usize].push(k);
                *occupied |= 1 << i;
            }
            h == frame
        });
        self.early = BinaryHeap::from(keys);
    }

    /// The smallest key: every bucket key's value half is above `frame`, every run and early
    /// key's at or below it, so the smallest is the smaller of the run's last key and the top
    /// of the early heap, and only when both are empty do the buckets give the next run.
    #[inline]
    fn pop(&mut self) -> Option<u64> {
        loop {
            if let Some(&Reverse(e)) = self.early.peek() {
                if self.run.last().is_none_or(|&t| e < t) {
                    self.early.pop();
                    return Some(e);
                }
            }
            if let Some(t) = self.run.pop() {
                return Some(t);
            }
            if self.occupied == 0 {
                return None;
            }
            self.refill();
        }
    }

    /// Takes the lowest non-empty bucket, whose keys are below all others, as the next run:
    /// sorted whole when small, else split around its smallest value half, the keys with
    /// that value (a tie group) becoming the run and the rest moving to lower buckets. Either
    /// way `frame` becomes the largest value half in the run, and the buckets left stay valid
    /// relative to it: it agrees with the old frame above bit `i`.
    fn refill(&mut self) {
        let i = self.occupied.trailing_zeros() as usize;
        let mut bucket = std::mem::take(&mut self.buckets[i]);
        self.occupied &= !(1 << i);
        if bucket.len() <= SMALL_RUN {
            bucket.sort_unstable_by(|a, b| b.cmp(a));
            self.frame = high(bucket[0]);
            std::mem::swap(&mut self.run, &mut bucket);
            self.buckets[i] = bucket;
            return;
        }
        self.frame = bucket.iter().map(|&k| high(k)).min().unwrap_or(self.frame);
        for &k in &bucket {
            let h = high(k);
            if h == self.frame {
                self.run.push(k);
            } else {
                let j = 31 - (h ^ self.frame).leading_zeros();
                self.buckets[j as usize].push(k);
                self.occupied |= 1 << j;
            }
        }
        bucket.clear();
        self.buckets[i] = bucket;
        sort_run(&mut self.run, &mut self.spare);
    }
}

/// Sorts a tie group (keys with equal value halves) in descending order: by cell, with a
/// least-significant-digit radix sort when the group is large.
fn sort_run(keys: &mut Vec<u64>, spare: &mut Vec<u64>) {
    const DIGIT: u32 = 11;
    const MASK: u64 = (1 << DIGIT) - 1;
    if keys.len() < RADIX_SORT_MIN {
        keys.sort_unstable_by(|a, b| b.cmp(a));
        return;
    }
    let bits = 32 - keys.iter().fold(0u32, |m, &k| m | k as u32).leading_zeros();
    spare.clear();
    spare.resize(keys.len(), 0);
    let mut shift = 0;
    while shift < bits {
        let mut at = [0u32; 1 << DIGIT];
        for &k in keys.iter() {
            at[(k >> shift & MASK) as usize] += 1;
        }
        let mut next = 0;
        for slot in at.iter_mut().rev() {
            (*slot, next) = (next, next + *slot);
        }
        for &k in keys.iter() {
            let slot = &mut at[(k >> shift & MASK) as usize];
            spare[*slot as usize] = k;
            *slot += 1;
        }
        std::mem::swap(keys, spare);
        shift += DIGIT;
    }
}

impl<P: Copy + Ord + Default> BestFirst<P> {
    /// Starts a sweep over a space of `len` cells.
    pub(crate) fn begin(&mut self, len: usize) {
        if self.cells.len() != len || self.generation >= u32::MAX / 2 {
            self.cells = vec![CellState::default(); len];
            self.generation = 0;
        }
        self.generation += 1;
        self.queue.clear();
    }

    /// Offers `value` to `cell`, carrying `payload`; it is queued if it beats what the cell
    /// has (or the cell has nothing yet) and the cell is not settled. An offer equal to what
    /// the cell has keeps the smaller payload.
    pub(crate) fn offer(&mut self, cell: usize, value: f32, payload: P) {
        offer(&mut self.cells[cell], &mut self.queue, 2 * self.generation, cell, value, payload, |_, _| true);
    }

    /// Settles cells largest first until the queue is empty: `visit(cell, value, payload)`
    /// once per cell, then `expand(cell, value, neighbour, distance)` for each walkable
    /// neighbour not settled yet, which returns the value to offer that neighbour, if any.
    /// An offer that beats what the neighbour has is then put to `admit(neighbour, value)`,
    /// which may refuse it; it must depend on nothing else, so checks that need more of the
    /// neighbour than the engine keeps are made only for offers that would count.
    pub(crate) fn run<S: Space>(
        &mut self,
        space: &S,
        mut visit: impl FnMut(usize, f32, P),
        mut expand: impl FnMut(usize, f32, usize, f32) -> Option<f32>,
        mut admit: impl FnMut(usize, f32) -> bool,
    ) {
        let Self { cells, generation, queue } = self;
        let queued = 2 * *generation;
        let settled = queued + 1;
        while let Some(k) = queue.pop() {
            let (value, cell) = (key_value(k), key_cell(k));
            let state = &mut cells[cell];
            if state.mark == settled || value < state.best {
                continue; // settled already, or a stale entry
            }
            state.mark = settled;
            let payload = state.payload;
            visit(cell, value, payload);
            space.for_each_neighbour(cell, |next, dist| {
                let state = &mut cells[next];
                if state.mark != settled {
                    if let Some(v) = expand(cell, value, next, dist) {
                        offer(state, queue, queued, next, v, payload, &mut admit);
                    }
                }
            });
        }
    }

    /// The value each cell settled at in the last sweep, in cell order; `None` for cells it
    /// did not reach.
    pub(crate) fn settled(&self) -> impl Iterator<Item = Option<f32>> + '_ {
        let settled = 2 * self.generation + 1;
        self.cells.iter().map(move |s| (s.mark == settled).then_some(s.best))
    }
}

/// [`BestFirst::offer`] on one cell's state; `queued` is this sweep's queued mark. Kept out
/// of line: inlined, it made the per-neighbour closure heavier and small sweeps slower.
#[inline(never)]
fn offer<P: Copy + Ord>(
    state: &mut CellState<P>,
    queue: &mut Queue,
    queued: u32,
    cell: usize,
    value: f32,
    payload: P,
    admit: impl FnOnce(usize, f32) -> bool,
) {
    if state.mark == queued + 1 {
        return;
    }
    if state.mark == queued {
        if value == state.best {
            // Admitted before: `admit` depends on the cell and the value alone.
            state.payload = state.payload.min(payload);
            return;
        }
        if value < state.best {
            return;
        }
    }
    if admit(cell, value) {
        *state = CellState { best: value, mark: queued, payload };
        queue.push(key(value, cell));
    }
}

/// Shortest walkable distances from `starts` (cell, starting distance, payload) within
/// `limit`, nearest first: `visit(cell, distance, payload)` once per reachable cell, the
/// payload that of the start the cell is nearest to (the smallest payload among equally
/// near starts). Blocked and out-of-range start cells are skipped.
pub(crate) fn distance_sweep<S: Space, P: Copy + Ord + Default>(
    engine: &mut BestFirst<P>,
    space: &S,
    starts: impl IntoIterator<Item = (usize, f32, P)>,
    limit: f32,
    mut visit: impl FnMut(usize, f32, P),
) {
    let len = space.len();
    engine.begin(len);
    for (cell, d, payload) in starts {
        if cell < len && space.is_walkable(cell) && d <= limit {
            engine.offer(cell, -d, payload);
        }
    }
    engine.run(
        space,
        |cell, v, payload| visit(cell, -v, payload),
        |_, v, _, step| {
            let d = -v + step;
            (d <= limit).then_some(-d)
        },
        |_, _| true,
    );
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
        let starts = starts.iter().map(|&(cell, d)| (cell, d, ()));
        distance_sweep(&mut self.0, space, starts, limit, |cell, d, ()| visit(cell, d));
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
    fn packed_keys_round_trip_and_order_like_total_cmp() {
        let values = [-f32::INFINITY, -3.5, -1e-30, -0.0, 0.0, 1e-30, 2.0, 7.25, f32::MAX];
        for (i, &v) in values.iter().enumerate() {
            let k = key(v, 1000 + i);
            assert_eq!((key_value(k).to_bits(), key_cell(k)), (v.to_bits(), 1000 + i));
            for &w in &values {
                // The larger value is the smaller key, popped first.
                let order = v.total_cmp(&w);
                assert_eq!(key(w, 5).cmp(&key(v, 5)), order, "{v} vs {w}");
            }
        }
        // Equal values: the smaller cell is the smaller key, popped first.
        assert!(key(1.0, 3) < key(1.0, 4));
    }

    /// The queue pops exactly what a binary heap of the same keys pops, whatever is pushed:
    /// mostly keys no lower than the last popped value, as sweeps push, but also ties, keys
    /// above the current value and repeats; small queues and large ones (the buckets), and
    /// tie groups large enough for the radix sort.
    #[test]
    fn queue_pops_in_binary_heap_order() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut queue = Queue::default();
        let (mut most, mut radix_sorted) = (0, false);
        for round in 0..40 {
            queue.clear();
            let mut heap = BinaryHeap::new();
            let spread = [1u64, 3, 1 << 10, 1 << 24, 1 << 33][round % 5];
            let pushes_per_pop = 1 + round as u64 % 4;
            let mut last = 1u64 << 40;
            for _ in 0..6000 {
                if next() % (pushes_per_pop + 1) != 0 {
                    let h = last >> 32;
                    let h = match next() % 8 {
                        0 => h,
                        1 => h.saturating_sub(1 + next() % 4),
                        _ => h + next() % spread + 1,
                    };
                    let k = (h.min(u64::from(u32::MAX)) << 32) | (next() % (1 << 20));
                    queue.push(k);
                    heap.push(Reverse(k));
                    most = most.max(heap.len());
                } else {
                    let got = queue.pop();
                    radix_sorted |= queue.run.len() >= RADIX_SORT_MIN;
                    assert_eq!(got, heap.pop().map(|Reverse(k)| k));
                    last = got.unwrap_or(last);
                }
            }
            while let Some(Reverse(k)) = heap.pop() {
                assert_eq!(queue.pop(), Some(k));
            }
            assert_eq!(queue.pop(), None);
        }
        assert!(most > HEAP_MAX && radix_sorted, "{most}");
    }

    #[test]
    fn payloads_follow_the_nearest_start_and_ties_keep_the_smaller() {
        let g = Grid::new(7, 1).unwrap();
        let mut engine = BestFirst::<u32>::default();
        let mut labels = |a: u32, b: u32| {
            let mut got = vec![(0.0, 0); 7];
            distance_sweep(&mut engine, &g, [(0, 0.0, a), (4, 2.0, b)], f32::INFINITY, |c, d, p| {
                got[c] = (d, p);
            });
            got
        };
        // Cell 3 is 3 from both starts: the smaller payload wins, whichever start has it.
        let d = [0.0, 1.0, 2.0, 3.0, 2.0, 3.0, 4.0];
        let with = |p: [u32; 7]| d.into_iter().zip(p).collect::<Vec<_>>();
        assert_eq!(labels(8, 9), with([8, 8, 8, 8, 9, 9, 9]));
        assert_eq!(labels(9, 8), with([9, 9, 9, 8, 8, 8, 8]));
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
