//! Flow fields: one search from a goal (or a set of goals) over a [`Cost`], giving every
//! reachable cell its cost to the goal and its next step there, so any number of units
//! walking to the same goal share one search and follow it at O(1) a step.

use crate::error::Error;
use crate::paths::{padded_neighbours, Padded, Queue};
use crate::space::{Grid, Space};

use super::{Cost, Route};

/// The cheapest route from every cell of a [`Grid`] to the nearest of a set of goals, under
/// the same [`Cost`] as [`Router::find`](super::Router::find): one search from the goals,
/// after which [`cost_to_goal`](Self::cost_to_goal), [`next_step`](Self::next_step) and
/// [`route_into`](Self::route_into) answer for any start. A route read off the field is an
/// optimal route: its cost is the one A* finds (up to the order its `f32` steps are added
/// in; the route may differ from A*'s where several routes cost the same).
///
/// Keep one field and call [`compute`](Self::compute) again each frame: its buffers are
/// reused, so once it has seen a map of this size it allocates nothing.
///
/// ```
/// use influence::{route::{Cost, FlowField, Route}, Cell, Grid, Layer};
/// let grid = Grid::from_rows(&[
///     ".....",
///     ".@@@.",
///     ".....",
/// ])?;
/// let at = |x, y| grid.index(Cell::new(x, y)).unwrap();
/// let danger = Layer::for_space(&grid);
/// let cost = Cost::avoiding(&danger, 1.0)?;
/// let mut field = FlowField::new();
/// field.compute(&grid, &[at(4, 1)], &cost)?;
/// assert_eq!(field.cost_to_goal(at(4, 1)), Some(0.0));
/// assert_eq!(field.next_step(at(3, 0)), Some(at(4, 0))); // no cutting past the wall
/// assert_eq!(field.next_step(at(4, 0)), Some(at(4, 1)));
/// // Any number of units walk there off the one search.
/// let mut route = Route::default();
/// for start in [at(0, 0), at(0, 2), at(2, 2)] {
///     assert!(field.route_into(&grid, start, &cost, &mut route));
///     assert_eq!(route.cells.last(), Some(&at(4, 1)));
/// }
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct FlowField {
    /// The grid's entry penalties, padded with a border of walls: the search's map, and the
    /// indexing of the arrays below (padded cells; see `paths/padded.rs`).
    padded: Padded,
    /// Cells of the grid the field was computed on.
    cells: usize,
    /// What the search knows of each padded cell.
    cells_state: Vec<State>,
    ring: Ring,
    queue: Buckets,
}

/// The next step of a cell no goal can be reached from.
const NONE: u32 = u32::MAX;
/// The bit of [`State::next`] set once the cell is expanded at its current cost (cells and
/// padded cells fit in 29 bits: grids hold at most 2²⁸ cells).
const DONE: u32 = 1 << 31;

/// One padded cell's cost to the nearest goal (infinite where no goal can be reached) and
/// next step (the padded cell; the cell itself at a goal, [`NONE`] where unreachable; with
/// [`DONE`] once expanded), side by side so that an offer reads and writes one place.
#[derive(Debug, Clone, Copy)]
struct State {
    cost: f32,
    next: u32,
}

/// A cell no offer has reached.
const UNREACHED: State = State { cost: f32::INFINITY, next: NONE };

impl FlowField {
    /// An empty field; it grows to the map's size on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Searches from `goals` (cells of `grid`, each at cost 0) outwards, so that each cell
    /// learns the cheapest cost of walking from it to a goal under `cost` — entering a cell
    /// costs as in [`Cost::step`] — and its first step. Replaces what the field held.
    ///
    /// The search is Dijkstra's from the goals, on a queue of buckets as wide as the
    /// cheapest step (see `Buckets`), with the grid's neighbours computed in place.
    ///
    /// # Errors
    /// [`Error::OutOfBounds`] for a goal outside the grid, [`Error::Blocked`] for a blocked
    /// one; [`Error::TooMany`] for a grid of more than `u32::MAX` cells.
    ///
    /// # Panics
    /// If the cost's layer was not made for `grid`.
    pub fn compute(&mut self, grid: &Grid, goals: &[usize], cost: &Cost<'_>) -> Result<(), Error> {
        let len = grid.len();
        if let Some(layer) = cost.layer {
            assert_eq!(layer.len(), len, "cost layer was not made for this grid");
        }
        if len >= NONE as usize {
            return Err(Error::TooMany { what: "cells", count: len, max: NONE as usize - 1 });
        }
        for &g in goals {
            if g >= len {
                return Err(Error::OutOfBounds { index: g, len });
            }
            if !grid.is_walkable(g) {
                return Err(Error::Blocked { index: g });
            }
        }
        // Every step is at least one straight step long: penalties only add (Cost::step).
        let (layer, weight) = cost.penalties().map_or((None, 0.0), |(l, w)| (Some(l), w));
        self.padded.fill(grid, layer, weight);
        self.cells = len;
        // Reused at the same size: `resize` only allocates when the map grows.
        let padded = self.padded.len();
        self.cells_state.clear();
        self.cells_state.resize(padded, UNREACHED);
        let per_step = 1.0 / grid.cell_size();
        let most = layer.map_or(0.0, largest);
        let longest = grid.cell_size() * std::f32::consts::SQRT_2 + weight * most;
        // A ring of buckets as long as the longest step, or a radix heap where that would be
        // too many (a few huge penalties).
        let span = longest * per_step;
        let goals = goals.iter().map(|&g| self.padded.pad(g) as u32);
        let search = Search { grid: &self.padded, per_step };
        if span < RING_MAX as f32 {
            self.ring.reset(span as usize + 4);
            search.run(&mut self.cells_state, &mut self.ring, goals);
        } else {
            self.queue.clear();
            search.run(&mut self.cells_state, &mut self.queue, goals);
        }
        Ok(())
    }

    /// The padded index of `cell`, if it is a cell of the field's grid.
    fn slot(&self, cell: usize) -> Option<usize> {
        (cell < self.cells).then(|| self.padded.pad(cell))
    }

    /// The cost of the cheapest route from `cell` to a goal; `None` where no goal can be
    /// reached (or `cell` is outside the field).
    pub fn cost_to_goal(&self, cell: usize) -> Option<f32> {
        let p = self.slot(cell)?;
        let state = self.cells_state[p];
        (state.next != NONE).then_some(state.cost)
    }

    /// The cell to step to from `cell` on a cheapest route to a goal (`cell` itself at a
    /// goal); `None` where no goal can be reached.
    pub fn next_step(&self, cell: usize) -> Option<usize> {
        let n = self.cells_state[self.slot(cell)?].next;
        (n != NONE).then(|| self.padded.unpad((n & !DONE) as usize))
    }

    /// The route from `start` to its goal read off the field, written into `route` (its
    /// cell list reused) with length and exposure as [`Router::find`](super::Router::find)
    /// gives them and the cost summed from the start, as A* sums it; `expanded` is 0 (no
    /// search). `grid` and `cost` must be those of the last [`compute`](Self::compute).
    /// Returns `false` (and `route` emptied) where no goal can be reached from `start`.
    ///
    /// # Panics
    /// If the cost's layer was not made for `grid`.
    pub fn route_into(&self, grid: &Grid, start: usize, cost: &Cost<'_>, route: &mut Route) -> bool {
        route.cells.clear();
        *route = Route { cells: std::mem::take(&mut route.cells), ..Route::default() };
        let Some(mut c) = self.next_step(start) else { return false };
        let mut total = 0.0f32;
        route.cells.push(start);
        let mut at = start;
        while c != at {
            if route.cells.len() > self.cells {
                break; // not a field of this grid: never loop
            }
            total += cost.step(super::arc_length(grid, at, c), c);
            route.cells.push(c);
            at = c;
            c = self.next_step(at).unwrap_or(at);
        }
        route.cost = total;
        super::measure(grid, cost, route);
        true
    }
}

/// The largest of `values` and 0 (NaN ignored), in eight lanes so that it vectorises: one
/// running maximum is a chain of dependent instructions as long as the map.
fn largest(values: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let chunks = values.chunks_exact(8);
    let rest = chunks.remainder();
    for chunk in chunks {
        for (m, &v) in lanes.iter_mut().zip(chunk) {
            *m = m.max(v);
        }
    }
    lanes.into_iter().chain(rest.iter().copied()).fold(0.0, f32::max)
}

/// The most buckets a ring holds; longer steps (huge penalties) use the radix heap.
const RING_MAX: usize = 1 << 16;

/// One field search: the map and the cost, read in place.
struct Search<'a> {
    /// The grid's entry penalties.
    grid: &'a Padded,
    /// One over the bucket width, the cheapest step.
    per_step: f32,
}

impl Search<'_> {
    /// Dijkstra's search from the goals (padded cells) on `queue`: a cell is expanded when
    /// popped unless it was expanded at its current cost already ([`DONE`], cleared when the
    /// cost drops), so stale entries need no check of their own. The neighbours are the
    /// padded grid's (`padded_neighbours!`); a wall's NaN penalty makes no offer (NaN beats
    /// nothing), but the macro skips walls anyway, for the diagonals' sake. Writing every
    /// offer's state and queue slot without a branch measured slower: each push then
    /// updated a bucket's length, a chain through memory eight links long per cell.
    fn run(&self, state: &mut [State], queue: &mut impl Monotone, goals: impl Iterator<Item = u32>) {
        let grid = self.grid;
        let bucket = |c: f32| (c * self.per_step) as u32; // monotone in c; saturates at infinity
        for g in goals {
            state[g as usize] = State { cost: 0.0, next: g };
            queue.push(0, g);
        }
        while let Some(v) = queue.pop() {
            let v = v as usize;
            let here = state[v];
            if here.next & DONE != 0 {
                continue; // expanded at this cost already
            }
            state[v].next |= DONE;
            // Walking from a neighbour into `v` costs `d + penalty(v)`, as Cost::step adds.
            let penalty = grid.penalty[v];
            padded_neighbours!(grid, v, |u, d, _pen, _dx, _dy| {
                let c = here.cost + (d + penalty);
                if c < state[u].cost {
                    state[u] = State { cost: c, next: v as u32 };
                    queue.push(bucket(c), u as u32);
                }
            });
        }
    }
}

/// A queue of cells by bucket number, for keys that never fall below the last popped one.
trait Monotone {
    fn push(&mut self, key: u32, cell: u32);
    /// A cell of the lowest bucket.
    fn pop(&mut self) -> Option<u32>;
}

/// Dial's queue: a ring of buckets, one per step width, longer than any step, so the
/// buckets a search can push to while emptying bucket `b` (up to `b` plus the longest
/// step, with a margin for rounding) are all distinct slots of the ring. Each bucket is a
/// stack: no order inside a bucket is needed, and the last cell in is the first out,
/// deterministically. Why bucketing by the cheapest step is exact: see [`Buckets`].
#[derive(Debug, Clone, Default)]
struct Ring {
    /// The slots; only the first `len` are in use (the rest kept for a longer ring later).
    slots: Vec<Vec<u32>>,
    len: usize,
    /// The bucket being emptied.
    current: u32,
    /// Entries in all slots.
    pending: usize,
}

impl Ring {
    /// Empties the ring and makes it at least `len` slots long (a power of two, so a
    /// bucket's slot is a mask, not a division), keeping the slots' allocations.
    fn reset(&mut self, len: usize) {
        let len = len.next_power_of_two();
        for slot in &mut self.slots {
            slot.clear();
        }
        if self.slots.len() < len {
            self.slots.resize_with(len, Vec::new);
        }
        self.len = len;
        self.current = 0;
        self.pending = 0;
    }
}

impl Monotone for Ring {
    #[inline]
    fn push(&mut self, key: u32, cell: u32) {
        debug_assert!(key >= self.current && ((key - self.current) as usize) < self.len);
        let mask = self.len - 1;
        self.slots[key as usize & mask].push(cell);
        self.pending += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<u32> {
        let mask = self.len - 1;
        while self.pending > 0 {
            if let Some(c) = self.slots[self.current as usize & mask].pop() {
                self.pending -= 1;
                return Some(c);
            }
            self.current += 1;
        }
        None
    }
}

/// The flow field's queue when a ring would be too long: the search core's queue
/// (`paths::Queue`, a radix heap once large) over keys `bucket << 32 | cell`, lowest first.
///
/// Why bucketing by the cheapest step is exact. Every step costs at least one straight step
/// `δ`, so a cell settled at cost `c` offers its neighbours at least `c + δ`: a later bucket
/// than `c`'s. Cells that share a bucket therefore cannot improve one another, and once the
/// buckets below are done, every cell in the lowest bucket holds its final cost, in whatever
/// order the bucket is emptied — no ordering inside a bucket is needed, unlike A*'s
/// estimated keys, where a larger step can land a neighbour in the same key range. In `f32`
/// the sum `c + δ` may round down onto the bucket's edge; then the offer lands in the bucket
/// being emptied, the cell is expanded again at its lower cost, and the costs are still
/// exactly Dijkstra's (the search only stops when no offer improves any cell). Bucket
/// numbers never fall below the current one (a cost plus a non-negative step rounds to no
/// less than the cost, and rounding down a product is monotone), which keeps the radix heap
/// on its fast path.
type Buckets = Queue;

impl Monotone for Buckets {
    #[inline]
    fn push(&mut self, key: u32, cell: u32) {
        Queue::push(self, u64::from(key) << 32 | u64::from(cell));
    }

    #[inline]
    fn pop(&mut self) -> Option<u32> {
        Queue::pop(self).map(|k| k as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::Heuristic;
    use crate::route::Router;
    use crate::{Cell, Layer};

    #[test]
    fn field_costs_match_dijkstra_on_a_small_map() {
        let grid = Grid::from_rows(&["......", ".@@.@.", "...@..", "@.....", "...@@."]).unwrap();
        let mut danger = Layer::for_space(&grid);
        for (i, v) in danger.values_mut().iter_mut().enumerate() {
            *v = (i * 7 % 5) as f32 * 0.5 - 0.5;
        }
        let cost = Cost::avoiding(&danger, 1.5).unwrap();
        let goal = grid.index(Cell::new(5, 4)).unwrap();
        let mut field = FlowField::new();
        field.compute(&grid, &[goal], &cost).unwrap();
        let mut router = Router::new();
        let mut route = Route::default();
        for start in 0..grid.len() {
            if !grid.is_walkable(start) {
                assert_eq!(field.cost_to_goal(start), None);
                continue;
            }
            let best = router.find(&grid, start, goal, &cost, Heuristic::Zero).unwrap().unwrap();
            let got = field.cost_to_goal(start).unwrap();
            assert!((got - best.cost).abs() <= 1e-5 * best.cost.max(1.0), "{start}: {got} vs {}", best.cost);
            assert!(field.route_into(&grid, start, &cost, &mut route));
            assert!((route.cost - best.cost).abs() <= 1e-5 * best.cost.max(1.0));
        }
    }

    /// A field computed again on a map of the same size keeps its buffers: nothing is
    /// allocated after the first call (the buckets keep what they grew to).
    #[test]
    fn a_reused_field_keeps_its_buffers() {
        let grid = Grid::new(40, 30).unwrap();
        let mut danger = Layer::for_space(&grid);
        danger.values_mut()[300..400].fill(5.0);
        let mut field = FlowField::new();
        let cost = Cost::avoiding(&danger, 1.0).unwrap();
        field.compute(&grid, &[0], &cost).unwrap();
        let held = |f: &FlowField| {
            let bins: Vec<_> = f.ring.slots.iter().map(|b| (b.as_ptr(), b.capacity())).collect();
            (f.padded.penalty.as_ptr(), f.cells_state.as_ptr(), bins)
        };
        let before = held(&field);
        for _ in 0..3 {
            field.compute(&grid, &[0], &cost).unwrap();
            assert_eq!(held(&field), before);
        }
    }
}
