//! Flow fields: one search from a goal (or a set of goals) over a [`Cost`], giving every
//! reachable cell its cost to the goal and its next step there, so any number of units
//! walking to the same goal share one search and follow it at O(1) a step.

mod frontier;
mod queue;
mod ways;
#[cfg(target_arch = "x86_64")]
mod x86;

use crate::error::Error;
use crate::paths::{Padded, Ring};
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
    /// Per padded cell, the cost of the cheapest route to a goal: `+∞` where none, `−∞` on
    /// walls (so no offer lowers them). One per entry of the padded
    /// penalties, their slack included, for the queue search's row loads (`paths/rows.rs`).
    costs: Vec<f32>,
    /// Per padded cell, the way to its next step: the neighbour bit of
    /// [`Padded::steps`](crate::paths::Padded) from the next step to the cell, [`GOAL`] or
    /// [`UNREACHED`]. One byte beside a cost instead of a whole next-cell index: a 512² map's
    /// field fits the caches better.
    ways: Vec<u8>,
    /// The searches' buffers.
    scratch: Scratch,
}

/// The buffers of the two searches, kept from call to call.
#[derive(Debug, Clone, Default)]
struct Scratch {
    /// The frontier search's lists.
    lists: frontier::Lists,
    /// Buckets of cells: all of the queue search's, and the frontier search's far ones.
    ring: Ring,
    /// A bucket taken from the ring.
    taken: Vec<u32>,
}

/// The two searches (see [`FlowField::compute`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum By {
    /// `flow/frontier.rs`.
    Frontier,
    /// `flow/queue.rs`.
    Queue,
}

/// Penalties at least this many straight steps long count as heavy.
const HEAVY_STEPS: f32 = 4.0;
/// The share of a map's open cells with heavy penalties from which the queue search is
/// the faster (see [`FlowField::compute`]).
const HEAVY_SHARE: f32 = 0.3;

/// The way of a goal: its next step is itself.
const GOAL: u8 = 8;
/// The way of a cell no offer has reached, and of a wall.
const UNREACHED: u8 = 15;
/// The bit the queue search sets in the way of a cell expanded at its current cost
/// (`flow/queue.rs`); the queries ignore it.
const DONE: u8 = 1 << 7;

impl FlowField {
    /// An empty field; it grows to the map's size on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Searches from `goals` (cells of `grid`, each at cost 0) outwards, so that each cell
    /// learns the cheapest cost of walking from it to a goal under `cost` — entering a cell
    /// costs as in [`Cost::step`] — and its first step. Replaces what the field held.
    ///
    /// The search is Dijkstra's from the goals, in buckets as wide as the cheapest step, with
    /// the grid's neighbours computed in place, in one of two ways with the same costs:
    /// without a branch on what an offer does, keeping the frontier in a list that each
    /// bucket scans (`flow/frontier.rs`, the ways then read off the final costs in one pass,
    /// `flow/ways.rs`), or on a queue of buckets, keeping each way as its offer lands
    /// (`flow/queue.rs`). The list costs a cell one look per bucket it waits, the queue a
    /// hard-to-predict branch per offer. So the queue is taken where steps into danger are
    /// long: where at least 30 % of the open cells (counted on one row in eight) cost 4
    /// straight steps or more to enter. Where next steps tie in cost, the two searches may
    /// keep different ones.
    ///
    /// # Errors
    /// [`Error::OutOfBounds`] for a goal outside the grid, [`Error::Blocked`] for a blocked
    /// one; [`Error::TooMany`] for a grid of more than `u32::MAX` cells.
    ///
    /// # Panics
    /// If the cost's layer was not made for `grid`.
    pub fn compute(&mut self, grid: &Grid, goals: &[usize], cost: &Cost<'_>) -> Result<(), Error> {
        self.compute_by(grid, goals, cost, None)
    }

    /// [`compute`](Self::compute) with the search `by`, or the faster for the map (`None`).
    fn compute_by(
        &mut self,
        grid: &Grid,
        goals: &[usize],
        cost: &Cost<'_>,
        by: Option<By>,
    ) -> Result<(), Error> {
        let len = grid.len();
        if let Some(layer) = cost.layer {
            assert_eq!(layer.len(), len, "cost layer was not made for this grid");
        }
        if len >= u32::MAX as usize {
            return Err(Error::TooMany { what: "cells", count: len, max: u32::MAX as usize - 1 });
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
        let census = self.padded.census(HEAVY_STEPS * grid.cell_size());
        self.cells = len;
        let goals = goals.iter().map(|&g| self.padded.pad(g) as u32);
        let (per_step, scratch) = (1.0 / grid.cell_size(), &mut self.scratch);
        let buckets = (&mut scratch.ring, &mut scratch.taken);
        // Walls cost −∞, so no offer lowers them; the rest +∞ until reached.
        let wall = |&p: &f32| if p.is_nan() { f32::NEG_INFINITY } else { f32::INFINITY };
        self.costs.clear();
        self.costs.extend(self.padded.penalty.iter().map(wall));
        self.ways.clear();
        self.ways.resize(self.padded.len(), UNREACHED);
        let (padded, costs, ways) = (&self.padded, &mut self.costs, &mut self.ways);
        let light = (census.heavy as f32) < HEAVY_SHARE * census.open as f32;
        if by.unwrap_or(if light { By::Frontier } else { By::Queue }) == By::Frontier {
            // The ways serve as the search's marks, then are all written over: a mark is
            // left on reached cells only.
            frontier::run(padded, per_step, costs, &mut scratch.lists, buckets, ways, goals);
            ways::write(padded, costs, ways);
        } else {
            queue::run(padded, per_step, (costs, ways), buckets, goals);
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
        (self.ways[p] & !DONE != UNREACHED).then_some(self.costs[p])
    }

    /// The cell to step to from `cell` on a cheapest route to a goal (`cell` itself at a
    /// goal); `None` where no goal can be reached.
    pub fn next_step(&self, cell: usize) -> Option<usize> {
        let p = self.slot(cell)?;
        match self.ways[p] & !DONE {
            UNREACHED => None,
            GOAL => Some(cell),
            i => Some(self.padded.unpad(p.wrapping_sub(self.padded.steps()[i as usize]))),
        }
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
        route.cells.push(start);
        let mut at = start;
        while c != at {
            if route.cells.len() > self.cells {
                break; // not a field of this grid: never loop
            }
            route.cells.push(c);
            at = c;
            c = self.next_step(at).unwrap_or(at);
        }
        super::measure(grid, cost, route);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::Heuristic;
    use crate::route::Router;
    use crate::{Cell, Connectivity, Layer};

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

    /// The two searches give the same costs, bit for bit, and routes of those costs, on
    /// random maps: walls, both connectivities, cell sizes whose inverse is not exact, and
    /// penalties from none to longer than the ring holds (the frontier's far cells).
    #[test]
    fn both_searches_give_the_same_costs() {
        let mut next = crate::test_rng::xorshift(0x5eed_f1e1d);
        let (mut frontier, mut queue, mut route) = (FlowField::new(), FlowField::new(), Route::default());
        for case in 0..300 {
            let (w, h) = (1 + next() as usize % 40, 1 + next() as usize % 30);
            let connectivity = if case % 3 == 0 { Connectivity::Four } else { Connectivity::Eight };
            let size = [1.0, 0.7, 2.5][case % 3];
            let mut grid =
                Grid::new(w, h).unwrap().with_connectivity(connectivity).with_cell_size(size).unwrap();
            for i in 0..w * h {
                if next().is_multiple_of(5) {
                    grid.set_blocked(Cell::new(i % w, i / w), true).unwrap();
                }
            }
            let mut danger = Layer::for_space(&grid);
            let scale = [1.0, 10.0, 3000.0][case % 7 % 3];
            for v in danger.values_mut() {
                *v = (next() % 100) as f32 / 100.0 * scale * f32::from(next().is_multiple_of(4));
            }
            let open: Vec<usize> = (0..grid.len()).filter(|&i| grid.is_walkable(i)).collect();
            if open.is_empty() {
                continue;
            }
            let goals = [open[next() as usize % open.len()], open[next() as usize % open.len()]];
            let cost = Cost::avoiding(&danger, 1.0).unwrap();
            frontier.compute_by(&grid, &goals, &cost, Some(By::Frontier)).unwrap();
            queue.compute_by(&grid, &goals, &cost, Some(By::Queue)).unwrap();
            for start in 0..grid.len() {
                let (a, b) = (frontier.cost_to_goal(start), queue.cost_to_goal(start));
                assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits), "case {case}, cell {start}");
                for field in [&frontier, &queue] {
                    assert_eq!(field.route_into(&grid, start, &cost, &mut route), a.is_some());
                    if let Some(want) = a {
                        assert!(goals.contains(route.cells.last().unwrap()));
                        assert!(
                            (route.cost - want).abs() <= 1e-5 * want.max(1.0),
                            "case {case}: {} vs {want}",
                            route.cost
                        );
                    }
                }
            }
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
            let scratch = &f.scratch;
            let (ring, taken) = (scratch.ring.slot_buffers(), scratch.taken.as_ptr());
            (
                f.padded.penalty.as_ptr(),
                f.costs.as_ptr(),
                f.ways.as_ptr(),
                scratch.lists.buffers(),
                ring,
                taken,
            )
        };
        let before = held(&field);
        for _ in 0..3 {
            field.compute(&grid, &[0], &cost).unwrap();
            assert_eq!(held(&field), before);
        }
    }
}
