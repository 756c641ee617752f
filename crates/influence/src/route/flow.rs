//! Flow fields: one search from a goal (or a set of goals) over a [`Cost`], giving every
//! reachable cell its cost to the goal and its next step there, so any number of units
//! walking to the same goal share one search and follow it at O(1) a step.

use crate::error::Error;
use crate::paths::{self, Padded, Ring};
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
    /// Per padded cell, the cost of the cheapest route to a goal (infinite where none).
    costs: Vec<f32>,
    /// Per padded cell, the way to its next step: the neighbour bit of
    /// [`Padded::steps`](crate::paths::Padded) the cell was offered its cost by, [`GOAL`] or
    /// [`UNREACHED`], with [`DONE`] once the cell is expanded at its cost. One byte beside a
    /// cost instead of a whole next-cell index: a 512² map's field fits the caches better.
    ways: Vec<u8>,
    ring: Ring,
    /// The bucket being expanded, taken whole from the ring.
    bucket: Vec<u32>,
}

/// The way of a goal: its next step is itself.
const GOAL: u8 = 8;
/// The way of a cell no offer has reached.
const UNREACHED: u8 = 15;
/// The bit of a way set once the cell is expanded at its current cost.
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
    /// The search is Dijkstra's from the goals, on the grid searches' queue of buckets as
    /// wide as the cheapest step (`paths/ring.rs`), with the grid's neighbours computed in
    /// place.
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
        self.cells = len;
        // Reused at the same size: `resize` only allocates when the map grows.
        self.costs.clear();
        self.costs.resize(self.padded.len(), f32::INFINITY);
        self.ways.clear();
        self.ways.resize(self.padded.len(), UNREACHED);
        self.ring.clear();
        let goals = goals.iter().map(|&g| self.padded.pad(g) as u32);
        Search { grid: &self.padded, per_step: 1.0 / grid.cell_size() }.run(
            &mut self.costs,
            &mut self.ways,
            &mut self.ring,
            &mut self.bucket,
            goals,
        );
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

/// One field search: the map and the cost, read in place.
struct Search<'a> {
    /// The grid's entry penalties.
    grid: &'a Padded,
    /// One over the bucket width, the cheapest step.
    per_step: f32,
}

impl Search<'_> {
    /// Dijkstra's search from the goals (padded cells) on the grid searches' bucket queue
    /// ([`Ring`], one bucket per cheapest step, each taken whole): a cell is expanded when
    /// taken unless it was expanded at its current cost already ([`DONE`], cleared when the
    /// cost drops), so stale entries need no check of their own.
    ///
    /// Why no order inside a bucket is needed. Every step costs at least one straight step
    /// `δ`, so a cell settled at cost `c` offers its neighbours at least `c + δ`: a later
    /// bucket than `c`'s. Cells that share a bucket therefore cannot improve one another, and
    /// once the buckets below are done, every cell in the lowest bucket holds its final cost,
    /// in whatever order the bucket is emptied. In `f32` the sum `c + δ` may round down onto
    /// the bucket's edge; then the offer lands in the bucket being emptied, the cell is
    /// expanded again at its lower cost, and the costs are still exactly Dijkstra's (the
    /// search only stops when no offer improves any cell).
    ///
    /// Walking from a neighbour into `v` costs `d + penalty(v)`, as [`Cost::step`] adds, so
    /// a cell makes two offers, straight and diagonal. Which neighbours take them is decided
    /// without a branch per neighbour — the open ones ([`Padded::offers`]) that the offer
    /// improves — and only the set bits are visited: eight unpredictable branches a cell
    /// cost more than the whole search's arithmetic. The branches that remain (how many
    /// bits are set) are still hard to predict, so a bucket's cells are expanded in a
    /// pipeline of two: a cell's offers are chosen ([`Search::choose`]) before the previous
    /// cell's are written, and a mispredicted branch does not wait on loads (6 % on the
    /// frame's 256² map).
    fn run(
        &self,
        costs: &mut [f32],
        ways: &mut [u8],
        queue: &mut Ring,
        spare: &mut Vec<u32>,
        goals: impl Iterator<Item = u32>,
    ) {
        let grid = self.grid;
        let bucket = |c: f32| paths::bucket(c, self.per_step);
        let steps = grid.steps();
        for g in goals {
            (costs[g as usize], ways[g as usize]) = (0.0, GOAL);
            queue.push(0, g);
        }
        let mut bucket_cells = std::mem::take(spare);
        while queue.take(&mut bucket_cells).is_some() {
            let mut cells = bucket_cells.iter();
            let mut next = cells.next().map(|&v| self.choose(costs, ways, v));
            while let Some(Chosen { cell: v, offer, mut offers }) = next {
                // The next cell's offers are chosen before this cell's are written, so the
                // hard-to-predict branches below do not wait on the next cell's loads.
                next = cells.next().map(|&w| self.choose(costs, ways, w));
                while offers != 0 {
                    let i = offers.trailing_zeros() as usize;
                    offers &= offers - 1;
                    let u = v.wrapping_add(steps[i]);
                    let o = offer[i >> 2];
                    if o < costs[u] {
                        (costs[u], ways[u]) = (o, i as u8);
                        queue.push(bucket(o), u as u32);
                    }
                }
            }
        }
        *spare = bucket_cells;
    }

    /// Marks padded cell `v` expanded and chooses its offers: the neighbours its straight
    /// and diagonal offers improve now, none if it was expanded at this cost already. A
    /// neighbour may be improved again before the offers are written, so each is tested
    /// once more then.
    #[inline(always)]
    fn choose(&self, costs: &[f32], ways: &mut [u8], v: u32) -> Chosen {
        let (grid, v) = (self.grid, v as usize);
        let way = ways[v];
        if way & DONE != 0 {
            // A stale entry: skipping its loads beats the mispredicted branch here.
            return Chosen { cell: v, offer: [0.0; 2], offers: 0 };
        }
        ways[v] = way | DONE;
        let (here, penalty) = (costs[v], grid.penalty[v]);
        let offer = [here + (grid.straight + penalty), here + (grid.diagonal + penalty)];
        let offers = grid.offers(v, |i, u| offer[(i >> 2) as usize] < costs[u]);
        Chosen { cell: v, offer, offers }
    }
}

/// A cell's offers, chosen by [`Search::choose`].
struct Chosen {
    /// The padded cell.
    cell: usize,
    /// Its straight and diagonal offers.
    offer: [f32; 2],
    /// The neighbours (bits of `Padded::steps`) the offers improved when chosen.
    offers: u32,
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
            let bins = f.ring.slot_buffers();
            (f.padded.penalty.as_ptr(), f.costs.as_ptr(), f.ways.as_ptr(), f.bucket.as_ptr(), bins)
        };
        let before = held(&field);
        for _ in 0..3 {
            field.compute(&grid, &[0], &cost).unwrap();
            assert_eq!(held(&field), before);
        }
    }
}
