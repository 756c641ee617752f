//! Best-first searches over any [`Space`]: a best-first engine settles cells largest value
//! first (Dijkstra's algorithm for any value that only shrinks along edges), with scratch
//! kept between calls so a per-frame caller allocates only the first time. Shortest walkable
//! distances (`PathScratch`: path falloff, reachability queries, [`Router::sweep`]) sweep
//! negated distances; the diffusion steady state sweeps max-product values; area graphs
//! sweep distances carrying the nearest seed along. The routes of
//! [`route`](crate::route) are an A* search over the same queue ([`Router`]).
//!
//! The queue, in `paths/queue.rs`, is a binary heap while small, then a radix heap. On a
//! grid, A* and the flow field expand cells on `paths/padded.rs`'s padded array of entry
//! penalties (one load per neighbour, no bounds or wall checks) and queue them in
//! `paths/ring.rs`'s buckets as wide as the cheapest step or a fraction of it, taken in
//! no order by value inside a bucket: exact for the field as it is, and for A* because it
//! reopens cells and finishes the goal's bucket (see `Router::astar_grid`).
//!
//! Per cell the engine keeps its best value, a generation mark (queued or settled this
//! sweep) and an optional payload side by side, so one cache line serves a neighbour's
//! check; marks are valid for the current generation only, so a sweep that touches few
//! cells of a big space clears nothing.

mod areas;
mod padded;
mod queue;
mod ring;
mod rows;

use crate::space::{Grid, Space};
pub(crate) use padded::Padded;
use padded::OFFSETS;
pub(crate) use queue::Queue;
use queue::{key, key_cell, key_value};
pub(crate) use ring::{bucket, threshold, Ring};

/// Reusable scratch for [`PathScratch::sweep`]: a best-first sweep over negated
/// distances (negation is exact, so distances come out bit for bit as summed).
#[derive(Debug, Default, Clone)]
pub(crate) struct PathScratch(BestFirst);

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
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Visits every cell reachable from `starts` (cell, starting distance) within `limit`,
    /// nearest first, calling `visit(cell, distance)` once per cell (see [`Router::sweep`]).
    pub(crate) fn sweep<S: Space>(
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

/// The most cells a [`Router`] searches: parents are stored as `u32`. Grids and graphs
/// hold at most 2²⁸ cells, well within it.
pub const MAX_SEARCH: usize = u32::MAX as usize;

/// Reusable search scratch, for routes ([`find`](Router::find) and its kin, in
/// [`route`](crate::route)) and for walking-distance sweeps ([`sweep`](Router::sweep)): best
/// costs and parents valid for the current generation only, so a search that touches few
/// cells of a big map clears nothing, and one queue (a radix heap once large) for both; on
/// a grid, the grid searches' bucket queue.
///
/// ```
/// use influence::{route::{Cost, Heuristic, Router}, Cell, Grid, Layer};
/// let grid = Grid::from_rows(&[
///     ".....",
///     ".....",
///     ".....",
/// ])?;
/// let at = |x, y| grid.index(Cell::new(x, y)).unwrap();
/// let (start, goal) = (at(0, 1), at(4, 1));
/// let mut router = Router::new();
/// let direct = router.find(&grid, start, goal, &Cost::distance(), Heuristic::Octile)?.unwrap();
/// assert_eq!(direct.length, 4.0);
/// // A turret covering the middle row: the route bends round it.
/// let mut danger = Layer::for_space(&grid);
/// for x in 1..4 { danger[at(x, 1)] = 10.0; }
/// let safe = router.find(&grid, start, goal, &Cost::avoiding(&danger, 1.0)?, Heuristic::Octile)?.unwrap();
/// assert_eq!(safe.exposure, 0.0);
/// assert!(safe.length > direct.length && safe.cost < 4.0 + 30.0);
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Default, Clone)]
pub struct Router {
    paths: PathScratch,
    nodes: Vec<Node>,
    generation: u32,
    queue: Queue<u128>,
    /// What the grid search knows of each padded cell.
    cells: Vec<GridNode>,
    /// The grid search's generation, counted from 1 (up to [`GRID_GENERATIONS`]).
    grid_generation: u32,
    /// The grid search's queue.
    ring: Ring,
    /// The bucket being expanded, taken whole from the ring.
    bucket_cells: Vec<u32>,
    /// The grid of the last grid search, padded (see `paths/padded.rs`).
    padded: Padded,
    /// Whether the last search was a grid search, whose nodes are indexed by padded cell.
    on_grid: bool,
}

/// What the generic search knows of one cell, kept together so a step touches one cache
/// line.
#[derive(Debug, Clone, Copy, Default)]
struct Node {
    /// Best cost found to the cell.
    g: f32,
    /// The cell the best route found comes from.
    parent: u32,
    /// Equal to the search's generation when the fields above are current.
    seen: u32,
}

/// What the grid search knows of one padded cell, in 8 bytes, so that a 512² map's fit in
/// the second-level cache where [`Node`]s would not: the estimate is recomputed from the
/// coordinates when needed, and the parent is the step the best route came by.
#[derive(Debug, Clone, Copy, Default)]
struct GridNode {
    /// Best cost found to the cell.
    g: f32,
    /// `generation << 5 | done << 4 | step`: the search the cost is of, whether the cell
    /// was expanded at that cost ([`TAG_DONE`]), and the neighbour bit of
    /// [`Padded::steps`] the route came by from its parent ([`START`] at the start).
    tag: u32,
}

/// [`GridNode::tag`]'s bit for a cell expanded at its current cost.
const TAG_DONE: u32 = 1 << 4;
/// [`GridNode::tag`]'s step at the start of a search.
const START: u32 = 8;
/// Generations [`GridNode::tag`] can tell apart before the nodes are cleared.
const GRID_GENERATIONS: u32 = 1 << 27;

/// How many of the grid A*'s buckets one straight step spans. Narrower buckets than the
/// cheapest step mean fewer cells share a bucket with a cheaper route to them, so fewer are
/// opened twice: on the route across walled256 (`benches/routes.rs`) 38,499 expansions at
/// 4 (40,713 at 1; the exact-order search makes 38,062), about 10 % faster.
const BUCKETS_PER_STEP: f32 = 4.0;

/// The queue key of a search entry: smallest estimate `f` first, then the larger cost so far
/// `g` (nearer the goal), then the smaller cell. Both are never negative, so their bit
/// patterns order as the numbers do, and one integer comparison decides.
#[inline]
fn search_key(f: f32, g: f32, cell: usize) -> u128 {
    u128::from(f.to_bits()) << 96 | u128::from(!g.to_bits()) << 64 | cell as u128
}

/// The cost so far and the cell of a search key.
#[inline]
fn search_entry(key: u128) -> (f32, usize) {
    (f32::from_bits(!((key >> 64) as u32)), key as u32 as usize)
}

impl Router {
    /// Empty scratch; it grows to the space's size on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Visits every cell reachable from `starts` (cell, starting distance) within `limit`,
    /// nearest first, calling `visit(cell, distance)` once per cell: a bounded multi-source
    /// Dijkstra. Blocked and out-of-range start cells are skipped. Distances are in world
    /// units, along the space's neighbour steps (octile moves on an 8-connected grid, around
    /// walls), summed bit for bit as the steps add up.
    ///
    /// ```
    /// use influence::{Grid, route::Router};
    /// let grid = Grid::from_rows(&[".@.", ".@.", "..."])?;
    /// let mut far_side = None;
    /// Router::new().sweep(&grid, &[(0, 0.0)], f32::INFINITY, |cell, d| {
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
        visit: impl FnMut(usize, f32),
    ) {
        self.paths.sweep(space, starts, limit, visit);
    }

    /// A* from `start` to `goal` (both walkable cells of `space`, which has at most
    /// [`MAX_SEARCH`] cells), entering cell `j` over a step of length `d` at cost
    /// `step(d, j)` (never negative), with `h(cell)` the estimate of the remaining cost
    /// (clamped to 0 and up). Returns whether the goal was reached and how many cells were
    /// taken from the queue; the route is then read with
    /// [`trace`](Self::trace). The search of any space; grids take
    /// [`astar_grid`](Self::astar_grid).
    pub(crate) fn astar<S: Space>(
        &mut self,
        space: &S,
        start: usize,
        goal: usize,
        step: impl Fn(f32, usize) -> f32,
        mut h: impl FnMut(usize) -> f32,
    ) -> (bool, usize) {
        // Costs are never negative, so neither is a useful estimate; the queue key needs it.
        let mut h = |c: usize| h(c).max(0.0) + 0.0;
        self.on_grid = false;
        let gen = self.begin(space.len(), start, h(start));
        let mut expanded = 0;
        while let Some(key) = self.queue.pop() {
            let (g, cell) = search_entry(key);
            let here = self.nodes[cell];
            if g > here.g {
                continue; // stale: reached more cheaply since
            }
            expanded += 1;
            if cell == goal {
                return (true, expanded);
            }
            let Self { nodes, queue, .. } = self;
            space.for_each_neighbour(cell, |j, d| {
                let next = g + step(d, j);
                let n = &mut nodes[j];
                if n.seen != gen || next < n.g {
                    *n = Node { g: next, parent: cell as u32, seen: gen };
                    queue.push(search_key(next + h(j), next, j));
                }
            });
        }
        (false, expanded)
    }

    /// [`astar`](Self::astar) on a grid, entering cell `j` at `d + weight · max(0, layer[j])`
    /// (`penalties` the layer's values and weight, `None` for length alone) with `h(x, y)`
    /// the estimate at cell `(x, y)`: the same steps, estimates and cost sums as the generic
    /// search over the grid, on the grid's [`Padded`] penalties (a neighbour costs one load,
    /// no bounds or wall checks; rows filled as the search reaches them) and the grid
    /// searches' bucket queue ([`Ring`]), keyed by `⌊f / δ⌋` with `δ` a quarter of the
    /// straight step ([`BUCKETS_PER_STEP`]).
    ///
    /// Why it stays exact. Cells are taken a bucket at a time, in no order by value inside
    /// it, so a cell may be expanded before the best route to it is known; a cheaper offer
    /// later reopens it (its mark of being expanded, [`TAG_DONE`], is cleared) and it is
    /// expanded again. The first time the goal is taken its cost is only an upper bound
    /// `best`; the search goes on until the lowest bucket is past `best`'s, expanding only
    /// cells whose `f` is below `best`. Every cell left then has `f > best`, and with an
    /// admissible estimate no route through it is cheaper: `best` is the optimum, as the
    /// generic search's is. Narrow buckets keep this cheap: only cells that share a bucket
    /// with a cheaper route to them are opened twice (a few hundred on a route of 38,000
    /// expansions). Among routes of equal cost the one found may differ from the generic
    /// search's; which is found is deterministic.
    ///
    /// Per cell, which neighbours take an offer is decided without a branch per neighbour
    /// ([`Padded::offers`]), and estimates are computed from coordinates carried along
    /// rather than divided out of the index. Returns whether the goal was reached and how
    /// many cells were expanded.
    pub(crate) fn astar_grid(
        &mut self,
        grid: &Grid,
        start: usize,
        goal: usize,
        penalties: Option<(&[f32], f32)>,
        mut h: impl FnMut(u32, u32) -> f32,
    ) -> (bool, usize) {
        let mut h = |x: u32, y: u32| h(x, y).max(0.0) + 0.0;
        let (layer, weight) = penalties.map_or((None, 0.0), |(l, w)| (Some(l), w));
        // Rows are filled as the search reaches them: a short route on a big map pays for
        // the rows it touches, not for the map.
        let layer = self.padded.begin(grid, layer, weight);
        let blocked = grid.blocked();
        self.on_grid = true;
        let w = grid.width();
        let (start, goal, h0) =
            (self.padded.pad(start), self.padded.pad(goal), h((start % w) as u32, (start / w) as u32));
        let gen = self.begin_grid(start);
        let Self { cells, ring, bucket_cells, padded, .. } = self;
        let per_step = BUCKETS_PER_STEP / padded.straight;
        let bucket_of = |f: f32| bucket(f, per_step);
        ring.clear();
        ring.push(bucket_of(h0), start as u32);
        let (stride, steps) = (padded.stride as u32, padded.steps());
        // The goal's cost once taken (an upper bound until the search ends), and its bucket.
        let (mut found, mut best, mut last) = (false, f32::INFINITY, u32::MAX);
        let mut expanded = 0;
        while let Some(b) = ring.take(bucket_cells) {
            if b > last {
                break; // every cell left has f > best
            }
            // The last pushed first: deeper cells before their siblings, as a stack would
            // (38,166 expansions across walled256 against 38,499 first pushed first).
            for &p in bucket_cells.iter().rev() {
                let p = p as usize;
                let here = cells[p];
                if here.tag & TAG_DONE != 0 {
                    continue; // expanded at this cost already
                }
                // The cell's padded coordinates: its grid coordinates, and a neighbour's, are
                // these (plus the neighbour's offset) less one (the border).
                let (x, y) = (p as u32 % stride, p as u32 / stride);
                if found && here.g + h(x - 1, y - 1) >= best {
                    continue; // no way through here to a cheaper goal
                }
                cells[p].tag |= TAG_DONE;
                expanded += 1;
                if p == goal {
                    (found, best, last) = (true, here.g, bucket_of(here.g));
                    continue;
                }
                padded.ensure_rows(y as usize, blocked, layer, weight);
                let g = here.g;
                let lengths = [padded.straight, padded.diagonal];
                let pen = &padded.penalty[..];
                let mut offers = padded.offers(p, |i, q| {
                    let n = cells[q];
                    (n.tag >> 5 != gen) | (g + (lengths[(i >> 2) as usize] + pen[q]) < n.g)
                });
                while offers != 0 {
                    let i = offers.trailing_zeros();
                    offers &= offers - 1;
                    let q = p.wrapping_add(steps[i as usize]);
                    let next = g + (lengths[(i >> 2) as usize] + pen[q]);
                    cells[q] = GridNode { g: next, tag: gen << 5 | i };
                    let (dx, dy) = OFFSETS[i as usize];
                    let estimate = h(x.wrapping_add_signed(dx - 1), y.wrapping_add_signed(dy - 1));
                    ring.push(bucket_of(next + estimate), q as u32);
                }
            }
        }
        (found, expanded)
    }

    /// Starts a search of `len` nodes from `start`, whose estimate is `h`: a new generation
    /// (the nodes grown when the space is larger than any before, cleared only when the count
    /// wraps), an empty queue holding the start. Returns the generation.
    fn begin(&mut self, len: usize, start: usize, h: f32) -> u32 {
        if self.generation == u32::MAX {
            self.nodes.fill(Node::default());
            self.generation = 0;
        }
        if self.nodes.len() < len {
            self.nodes.resize(len, Node::default());
        }
        self.generation += 1;
        self.nodes[start] = Node { g: 0.0, parent: start as u32, seen: self.generation };
        self.queue.clear();
        self.queue.push(search_key(h, 0.0, start));
        self.generation
    }

    /// Starts a grid search from padded cell `start`: a new generation (the nodes grown to
    /// the padded grid, cleared only when the count wraps). Returns the generation.
    fn begin_grid(&mut self, start: usize) -> u32 {
        if self.grid_generation == GRID_GENERATIONS - 1 {
            self.cells.fill(GridNode::default());
            self.grid_generation = 0;
        }
        if self.cells.len() < self.padded.len() {
            self.cells.resize(self.padded.len(), GridNode::default());
        }
        self.grid_generation += 1;
        self.cells[start] = GridNode { g: 0.0, tag: self.grid_generation << 5 | START };
        self.grid_generation
    }

    /// The cells of the last search's route from `start` to `goal`, appended to `out` in order.
    pub(crate) fn trace(&self, start: usize, goal: usize, out: &mut Vec<usize>) {
        let from = out.len();
        if self.on_grid {
            let steps = self.padded.steps();
            let (start, mut c) = (self.padded.pad(start), self.padded.pad(goal));
            out.push(goal);
            while c != start {
                c = c.wrapping_sub(steps[(self.cells[c].tag & 0xf) as usize]);
                out.push(self.padded.unpad(c));
            }
        } else {
            let mut c = goal;
            out.push(c);
            while c != start {
                c = self.nodes[c].parent as usize;
                out.push(c);
            }
        }
        out[from..].reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cell, Connectivity, Grid};

    #[test]
    fn search_keys_order_by_estimate_then_larger_cost_then_lower_cell() {
        let mut keys: Vec<u128> = [
            (2.0, 1.0, 5),
            (1.0, 0.5, 9),
            (1.0, 0.75, 7),
            (1.0, 0.75, 3),
            (0.0, 0.0, 1),
            (f32::INFINITY, 1.0, 0),
        ]
        .into_iter()
        .map(|(f, g, c)| search_key(f, g, c))
        .collect();
        keys.sort_unstable();
        let order: Vec<(f32, usize)> = keys.into_iter().map(search_entry).collect();
        assert_eq!(order, vec![(0.0, 1), (0.75, 3), (0.75, 7), (0.5, 9), (1.0, 5), (1.0, 0)]);
    }

    /// When the grid search's generations run out its nodes are cleared, and a search then
    /// sees none of the old marks: routes across the wrap match a fresh router's.
    #[test]
    fn grid_generations_wrap_cleanly() {
        let grid = Grid::from_rows(&["......", ".@@@..", "...@..", ".@....", "......"]).unwrap();
        let at = |x, y| grid.index(Cell::new(x, y)).unwrap();
        let octile = |x: u32, y: u32| {
            let (dx, dy) = ((x as f32 - 5.0).abs(), (y as f32 - 4.0).abs());
            dx.max(dy) + (std::f32::consts::SQRT_2 - 1.0) * dx.min(dy)
        };
        let route = |router: &mut Router, from: usize| {
            let (reached, _) = router.astar_grid(&grid, from, at(5, 4), None, octile);
            let mut cells = Vec::new();
            router.trace(from, at(5, 4), &mut cells);
            (reached, cells)
        };
        let mut worn = Router::new();
        route(&mut worn, at(0, 0)); // sizes the nodes
        worn.grid_generation = GRID_GENERATIONS - 3;
        for from in [at(0, 0), at(2, 2), at(0, 4), at(4, 0), at(0, 0)] {
            assert_eq!(route(&mut worn, from), route(&mut Router::new(), from), "from {from}");
        }
        assert!(worn.grid_generation < 4, "the count wrapped");
    }

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
        assert!((d[g.index(Cell::new(4, 2)).unwrap()].unwrap() - (2.0 * 2f32.sqrt() + 2.0)).abs() < 1e-5);
        let four = Grid::new(5, 5).unwrap().with_connectivity(Connectivity::Four);
        assert_eq!(distances(&four, 0, f32::INFINITY)[four.index(Cell::new(4, 2)).unwrap()], Some(6.0));
    }

    #[test]
    fn walls_force_detours_and_enclosures_are_unreachable() {
        let g = Grid::from_rows(&["..@..", "..@..", "..@.."]).unwrap().with_connectivity(Connectivity::Four);
        let d = distances(&g, 0, f32::INFINITY);
        assert_eq!(d[g.index(Cell::new(4, 0)).unwrap()], None);
        let g = Grid::from_rows(&["..@..", "..@..", "....."]).unwrap().with_connectivity(Connectivity::Four);
        assert_eq!(distances(&g, 0, f32::INFINITY)[g.index(Cell::new(4, 0)).unwrap()], Some(8.0));
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
