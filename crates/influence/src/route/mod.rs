//! Routes that avoid danger: A* and Dijkstra over any [`Space`], where stepping into a cell
//! costs its distance plus a weighted penalty from an influence layer.
//!
//! The cost of entering cell `j` from a neighbour `d` world units away is
//!
//! ```text
//! d + weight · max(0, layer[j])
//! ```
//!
//! so with weight 0 a route is a shortest path, and with a threat layer (enemy influence,
//! tension, the "fire" of Tayebi's safest-spot example) it trades length for safety: the
//! tactical pathfinding that influence maps exist to feed ("The Core Mechanics of Influence
//! Mapping": situation summaries help the AI decide). Negative values never lower a cost
//! (Dijkstra needs non-negative steps), and NaN counts as 0.
//!
//! On a [`Grid`](crate::Grid) the neighbour steps are octile with no corner cutting, so
//! with weight 0 the routes have the optimal lengths of the MovingAI benchmarks
//! (`tests/route_movingai.rs` checks them against `London_0_512.map.scen`).
//!
//! A [`Router`] keeps its scratch between calls, generation-stamped so a search that
//! touches few cells of a big map clears nothing; [`Router::find_into`] reuses the caller's
//! [`Route`] too, so per-frame searches allocate nothing once warm. The search runs on the
//! same queue as the walking-distance sweeps ([`Router::sweep`]).

mod flow;

use glam::Vec3;

use crate::error::{non_negative, Error};
use crate::layer::Layer;
use crate::space::Space;

pub use crate::paths::{Router, MAX_SEARCH};
pub use flow::FlowField;

/// What a step costs: its length, plus `weight` per unit of positive layer value entered.
///
/// ```
/// use influence::{route::Cost, Layer};
/// let danger = Layer::from_vec(vec![0.0, 5.0, -3.0]);
/// let cost = Cost::avoiding(&danger, 2.0)?;
/// assert_eq!(cost.step(1.5, 1), 11.5);
/// assert_eq!(cost.step(1.5, 2), 1.5); // negative values do not pay you to walk
/// assert_eq!(Cost::distance().step(1.5, 1), 1.5);
/// assert!(Cost::avoiding(&danger, -1.0).is_err());
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Cost<'a> {
    layer: Option<&'a Layer>,
    weight: f32,
}

impl<'a> Cost<'a> {
    /// Length alone: shortest paths.
    pub fn distance() -> Self {
        Self { layer: None, weight: 0.0 }
    }

    /// Length plus `weight · max(0, layer[j])` for each cell `j` entered.
    ///
    /// # Errors
    /// [`Error::BadNumber`] unless `weight` is finite and ≥ 0.
    pub fn avoiding(layer: &'a Layer, weight: f32) -> Result<Self, Error> {
        Ok(Self { layer: Some(layer), weight: non_negative("weight", weight)? })
    }

    /// The cost of entering cell `j` over a step of `length`.
    #[inline]
    pub fn step(&self, length: f32, j: usize) -> f32 {
        match self.layer {
            Some(layer) if self.weight > 0.0 => length + self.weight * layer[j].max(0.0),
            _ => length,
        }
    }

    /// The layer's values and the weight that add penalties, if any (a layer at weight 0 adds none).
    pub(crate) fn penalties(&self) -> Option<(&'a [f32], f32)> {
        self.layer.filter(|_| self.weight > 0.0).map(|l| (l.values(), self.weight))
    }

    /// The layer's value at `j` as exposure counts it (0 without a layer, NaN as 0).
    fn value(&self, j: usize) -> f32 {
        self.layer.map_or(0.0, |l| if l[j].is_nan() { 0.0 } else { l[j] })
    }
}

/// A lower bound on the remaining cost, from the cells' positions. Any bound that never
/// overestimates the true remaining distance keeps routes optimal (penalties only add).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Heuristic {
    /// No estimate: Dijkstra's algorithm. Optimal on every space.
    #[default]
    Zero,
    /// The straight-line (3D) distance between positions. Admissible when no step is
    /// shorter than the straight line between its ends: grids, and graphs whose edges have
    /// their default lengths (or longer).
    Euclidean,
    /// The octile distance `max(|dx|, |dy|) + (√2 − 1) · min(|dx|, |dy|)` plus `|dz|`: the
    /// exact obstacle-free distance on an 8-connected grid, so the tightest admissible
    /// estimate there (and admissible on 4-connected grids). Not admissible on graphs
    /// with diagonal edges of their straight length.
    Octile,
}

impl Heuristic {
    /// The estimate between two positions.
    #[inline]
    pub(crate) fn estimate(self, a: Vec3, b: Vec3) -> f32 {
        let d = (a - b).abs();
        match self {
            Self::Zero => 0.0,
            Self::Euclidean => d.length(),
            Self::Octile => d.x.max(d.y) + (std::f32::consts::SQRT_2 - 1.0) * d.x.min(d.y) + d.z,
        }
    }
}

/// A route from start to goal.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Route {
    /// The cells (or nodes) from start to goal, both included.
    pub cells: Vec<usize>,
    /// Length in world units: the sum of the steps' distances, added up in `f64` so that a
    /// long route keeps its digits.
    pub length: f64,
    /// Total exposure: the layer's values summed over every cell of the route, start and
    /// goal included (0 without a layer; NaN counts as 0), added up in `f64`.
    pub exposure: f64,
    /// The cost minimised: length plus the weighted penalties of the cells entered.
    pub cost: f32,
    /// Cells expanded, a cell reopened by a cheaper route counting again: the work done (A*
    /// expands fewer than Dijkstra).
    pub expanded: usize,
}

impl Router {
    /// The cheapest route from `start` to `goal`, with A* under `heuristic`
    /// ([`Heuristic::Zero`] for Dijkstra); `Ok(None)` when the goal cannot be reached.
    ///
    /// # Errors
    /// [`Error::OutOfBounds`] for a start or goal outside the space, [`Error::Blocked`] for
    /// a blocked one.
    ///
    /// # Panics
    /// If the cost's layer was not made for `space`.
    pub fn find<S: Space>(
        &mut self,
        space: &S,
        start: usize,
        goal: usize,
        cost: &Cost<'_>,
        heuristic: Heuristic,
    ) -> Result<Option<Route>, Error> {
        let mut route = Route::default();
        Ok(self.find_into(space, start, goal, cost, heuristic, &mut route)?.then_some(route))
    }

    /// [`find`](Self::find) writing into `route` (its cell list reused): `Ok(true)` when a
    /// route was found, `Ok(false)` (and `route` emptied) when the goal is unreachable.
    ///
    /// # Errors
    /// As [`find`](Self::find).
    ///
    /// # Panics
    /// As [`find`](Self::find).
    pub fn find_into<S: Space>(
        &mut self,
        space: &S,
        start: usize,
        goal: usize,
        cost: &Cost<'_>,
        heuristic: Heuristic,
        route: &mut Route,
    ) -> Result<bool, Error> {
        let target =
            if start < space.len() && goal < space.len() { space.position(goal) } else { Vec3::ZERO };
        self.search(space, start, goal, cost, |p| heuristic.estimate(p, target), route)
    }

    /// [`find`](Self::find) with a caller's estimate `h(cell)` of the remaining cost to
    /// the goal: optimal whenever `h` never overestimates; an overestimating `h` trades
    /// optimality for speed (the cost found is never below the optimum).
    ///
    /// # Errors
    /// As [`find`](Self::find).
    ///
    /// # Panics
    /// As [`find`](Self::find).
    pub fn find_with<S: Space>(
        &mut self,
        space: &S,
        start: usize,
        goal: usize,
        cost: &Cost<'_>,
        mut h: impl FnMut(usize) -> f32,
    ) -> Result<Option<Route>, Error> {
        let mut route = Route::default();
        let found = if let Some(grid) = space.as_grid() {
            let w = grid.width();
            self.search_with(space, start, goal, cost, &mut route, |r| {
                r.astar_grid(grid, start, goal, cost.penalties(), |x, y| h(y as usize * w + x as usize))
            })?
        } else {
            self.search_with(space, start, goal, cost, &mut route, |r| {
                r.astar(space, start, goal, |d, j| cost.step(d, j), h)
            })?
        };
        Ok(found.then_some(route))
    }

    fn search<S: Space>(
        &mut self,
        space: &S,
        start: usize,
        goal: usize,
        cost: &Cost<'_>,
        mut h: impl FnMut(Vec3) -> f32,
        route: &mut Route,
    ) -> Result<bool, Error> {
        if let Some(grid) = space.as_grid() {
            // The cell's centre from its coordinates, as `Grid::position` gives it, in line.
            let (origin, size) = (grid.origin(), grid.cell_size());
            let at =
                |x: u32, y: u32| h((origin + (glam::Vec2::new(x as f32, y as f32) + 0.5) * size).extend(0.0));
            return self.search_with(space, start, goal, cost, route, |r| {
                r.astar_grid(grid, start, goal, cost.penalties(), at)
            });
        }
        self.search_with(space, start, goal, cost, route, |r| {
            r.astar(space, start, goal, |d, j| cost.step(d, j), |c| h(space.position(c)))
        })
    }

    /// Checks the request, runs `search` (which returns whether it reached the goal and the
    /// cells it expanded) and reads the route off the router.
    fn search_with<S: Space>(
        &mut self,
        space: &S,
        start: usize,
        goal: usize,
        cost: &Cost<'_>,
        route: &mut Route,
        search: impl FnOnce(&mut Self) -> (bool, usize),
    ) -> Result<bool, Error> {
        let len = space.len();
        if let Some(layer) = cost.layer {
            assert_eq!(layer.len(), len, "cost layer was not made for this space");
        }
        if len > MAX_SEARCH {
            return Err(Error::TooMany { what: "cells", count: len, max: MAX_SEARCH });
        }
        for c in [start, goal] {
            if c >= len {
                return Err(Error::OutOfBounds { index: c, len });
            }
            if !space.is_walkable(c) {
                return Err(Error::Blocked { index: c });
            }
        }
        route.cells.clear();
        let (found, expanded) = search(self);
        route.expanded = expanded;
        if !found {
            *route = Route {
                cells: std::mem::take(&mut route.cells),
                expanded: route.expanded,
                ..Route::default()
            };
            return Ok(false);
        }
        self.trace(start, goal, &mut route.cells);
        measure(space, cost, route);
        Ok(true)
    }
}

/// The length of the step from `a` to its neighbour `b`: the shortest of the arcs between
/// them (a graph may have several; a search takes that one, since they enter the same cell).
fn arc_length<S: Space>(space: &S, a: usize, b: usize) -> f32 {
    let mut step = f32::INFINITY;
    space.for_each_neighbour(a, |j, d| {
        if j == b {
            step = step.min(d);
        }
    });
    step
}

/// Sets `route`'s cost, length and exposure from its cells: the cost summed in `f32` from
/// the start, step by step as a search sums it (so an optimal search's route costs its
/// search's bits, and a route cut short by an overestimating estimate what it really costs),
/// length and exposure each summed in `f64` (an empty sum is -0.0 in Rust; `+ 0.0` makes a
/// one-cell route's length 0).
fn measure<S: Space>(space: &S, cost: &Cost<'_>, route: &mut Route) {
    let (mut total, mut length) = (0.0f32, 0.0f64);
    for w in route.cells.windows(2) {
        let d = arc_length(space, w[0], w[1]);
        total += cost.step(d, w[1]);
        length += f64::from(d);
    }
    (route.cost, route.length) = (total, length + 0.0);
    route.exposure = route.cells.iter().map(|&c| f64::from(cost.value(c))).sum::<f64>() + 0.0;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cell, Connectivity, Grid};

    /// A router fills the rows of its padded grid as a search reaches them: a later search
    /// with another layer, another grid or none must see its own penalties, not rows left
    /// from before.
    #[test]
    fn a_reused_router_sees_each_searchs_own_penalties() {
        let grid = Grid::new(40, 40).unwrap();
        let at = |x, y| grid.index(Cell::new(x, y)).unwrap();
        let calm = Layer::for_space(&grid);
        let mut danger = calm.clone();
        for y in 0..40 {
            danger[at(20, y)] = 100.0; // a line no route can go around
        }
        let (from, to) = (at(0, 20), at(39, 20));
        let mut reused = Router::new();
        let fresh = |cost: &Cost<'_>| Router::new().find(&grid, from, to, cost, Heuristic::Octile).unwrap();
        for cost in
            [Cost::avoiding(&calm, 1.0).unwrap(), Cost::avoiding(&danger, 1.0).unwrap(), Cost::distance()]
        {
            let route = reused.find(&grid, from, to, &cost, Heuristic::Octile).unwrap();
            assert_eq!(route, fresh(&cost));
        }
        assert_eq!(
            reused
                .find(&grid, from, to, &Cost::avoiding(&danger, 1.0).unwrap(), Heuristic::Octile)
                .unwrap()
                .unwrap()
                .cost,
            139.0
        );
        // A short route on a bigger grid, then the first grid again.
        let big = Grid::new(300, 300).unwrap();
        let short = reused.find(&big, 5, 7, &Cost::distance(), Heuristic::Octile).unwrap().unwrap();
        assert_eq!(short.cost, 2.0);
        let cost = Cost::avoiding(&danger, 1.0).unwrap();
        assert_eq!(reused.find(&grid, from, to, &cost, Heuristic::Octile).unwrap(), fresh(&cost));
    }

    #[test]
    fn start_equals_goal_and_typed_errors() {
        let grid = Grid::from_rows(&["..@", "..."]).unwrap();
        let mut r = Router::new();
        let route = r.find(&grid, 0, 0, &Cost::distance(), Heuristic::Zero).unwrap().unwrap();
        assert_eq!((route.cells, route.length, route.cost), (vec![0], 0.0, 0.0));
        assert_eq!(r.find(&grid, 0, 2, &Cost::distance(), Heuristic::Zero), Err(Error::Blocked { index: 2 }));
        assert_eq!(
            r.find(&grid, 9, 0, &Cost::distance(), Heuristic::Zero),
            Err(Error::OutOfBounds { index: 9, len: 6 })
        );
    }

    #[test]
    fn unreachable_goals_are_none_and_the_scratch_recovers() {
        let grid = Grid::from_rows(&[".@.", ".@.", ".@."]).unwrap();
        let mut r = Router::new();
        assert_eq!(r.find(&grid, 0, 2, &Cost::distance(), Heuristic::Octile).unwrap(), None);
        let route = r.find(&grid, 0, 6, &Cost::distance(), Heuristic::Octile).unwrap().unwrap();
        assert_eq!(route.cells, vec![0, 3, 6]);
        assert_eq!(route.length, 2.0);
    }

    #[test]
    fn useless_estimates_are_clamped_not_trusted() {
        let grid = Grid::new(6, 6).unwrap();
        let mut r = Router::new();
        let best = r.find(&grid, 0, 35, &Cost::distance(), Heuristic::Zero).unwrap().unwrap();
        for h in [-5.0, f32::NAN, -0.0] {
            let got = r.find_with(&grid, 0, 35, &Cost::distance(), |_| h).unwrap().unwrap();
            assert_eq!(got.cost, best.cost, "{h}");
        }
    }

    #[test]
    fn weight_trades_length_for_exposure() {
        let grid = Grid::new(5, 3).unwrap().with_connectivity(Connectivity::Four);
        let mut danger = Layer::for_space(&grid);
        let at = |x, y| grid.index(Cell::new(x, y)).unwrap();
        danger[at(2, 1)] = 3.0;
        let (s, g) = (at(0, 1), at(4, 1));
        let mut r = Router::new();
        for (weight, length, exposure) in [(0.0, 4.0, 3.0), (0.5, 4.0, 3.0), (1.0, 6.0, 0.0)] {
            let cost = Cost::avoiding(&danger, weight).unwrap();
            let route = r.find(&grid, s, g, &cost, Heuristic::Euclidean).unwrap().unwrap();
            assert_eq!((route.length, route.exposure), (length, exposure), "weight {weight}");
            assert_eq!(f64::from(route.cost), length + f64::from(weight) * exposure);
        }
    }
}
