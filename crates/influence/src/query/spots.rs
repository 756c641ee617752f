//! An index of one layer's spots on a grid, built once per frame and shared by the spot
//! queries of that frame: top-N with spacing, the extreme, within a radius, within a walk.
//!
//! # Design
//!
//! A game asks several spot queries of the same layer each frame (ten top-N queries with
//! different spacings, say). [`top_n`](super::top_n()) keys and orders every cell of the map
//! for each of them, although only the few hundred best cells ever matter. The index keeps
//! what all of them need:
//!
//! * **Tile bounds.** The grid is cut into tiles of [`TILE`] cells along each row (the last
//!   tile of a row may be shorter; tiles never span rows), and the build records, per tile,
//!   the largest and the smallest *ascending key* of its walkable, non-`NaN` cells: the
//!   value's bits mapped to an order-preserving `u32`, `-0.0` folded into `0.0`, exactly the
//!   key [`Extreme::rank`] flips or keeps. Walls and `NaN` are masked out (0 for the largest,
//!   `u32::MAX` for the smallest; no value has either key), so an empty tile shows as a
//!   largest key of 0. The pass reads each value and wall flag once with no branches and
//!   keeps eight running float maxima and minima per tile (walls turned into `NaN` by or-ing
//!   a quiet `NaN`'s bits in; `c > max` is false for `NaN`, so walls and `NaN` values are
//!   skipped with no mask), then keys the tile's two extremes: the keys are order-preserving,
//!   so the keys of the extremes are the extremes of the keys. On 256² it takes about
//!   20 µs, SSE2 as built; the same pass on keys (unsigned minima and maxima, which SSE2
//!   lacks) took 32 µs. A tile with no walkable cell (its bits of the grid's free-cell words
//!   all clear) is not read at all: most of a real map's rectangle is often wall, and
//!   skipping it takes the ten queries of the frame on brc202d (17 % walkable) from 0.043 to
//!   0.027 of [`top_n`](super::top_n())'s time.
//! * **Why one-row tiles.** A tile is then a run of consecutive cell indices, and tiles in
//!   index order hold ever larger cells. So the tile with the best bound (ties: the first
//!   tile) holds the best cell, and a bound that only *ties* the best cell found in an earlier
//!   tile cannot win, since ties go to the lower index. 32 cells per tile keeps the bounds
//!   few (2,048 on 256², so a scan of them costs a microsecond) and still tight around the
//!   peaks that spot queries look for (a tile opened near a peak keys 32 cells, most of which
//!   are near the peak too).
//! * **A shared candidate order.** Top-N needs the cells in (rank, cell) order, best first,
//!   until it has its spots. The index builds that order lazily, once per [`Extreme`] per
//!   build, and every later top-N query of the frame reuses and extends it. Tiles are taken
//!   in the order of their bound, ties by tile (itself sorted lazily in growing blocks, so a
//!   frame sorts tens of tiles, not thousands). Once a batch of tiles is opened (8, then 2×
//!   as many each time), every key below the bound of the next unopened tile (its best rank,
//!   then its first cell) is final: no cell of an unopened tile can come before it. The
//!   order grows by blocks of the smallest final keys (64, then 2×), brought forward by a
//!   partial selection and sorted; the rest wait. On the frame's 256² layer, ten queries
//!   open about 56 of 2,048 tiles and sort about 650 keys, where each
//!   [`top_n`](super::top_n()) keys all 59,000 walkable cells.
//! * **Exact spacing without roots.** glam's distance is the correctly rounded root of the
//!   squared distance, and the root is monotone, so `distance >= spacing` holds exactly when
//!   the squared distance reaches the least float whose root reaches the spacing, found once
//!   per query.
//! * **Radius.** Only the tiles of the rows and columns the disc can reach are looked at
//!   (found in `f64` with a margin of cells, so rounding never drops a cell), and only those
//!   whose bound beats the best cell so far are read, each cell with the exact test of
//!   [`extreme_within_radius`](super::extreme_within_radius).
//!
//! Every answer is the one the generic function gives, bit for bit: the same keys, the same
//! tie rule, the same distance computation on the same positions.

use glam::Vec3;

use super::{extremes, Extreme};
use crate::{layer::Layer, paths::Router, space::Grid, space::Space};

/// Cells per tile along a row.
pub(crate) const TILE: usize = 32;

/// A tile's bits in a word of the grid's free-cell bits (a tile never spans two words).
const TILE_BITS: u64 = u64::MAX >> (64 - TILE);
const _: () = assert!(64 % TILE == 0, "tiles must tile the free-cell words");

/// Tiles opened by the first batch of a candidate order; later batches grow 2×.
const FIRST_BATCH: usize = 8;

/// Final keys sorted into a candidate order by its first extension; later ones grow 2×.
const FIRST_BLOCK: usize = 64;

/// Tiles of the tile order sorted by the first block; later blocks grow 4×.
const FIRST_TILE_BLOCK: usize = 64;

/// The value's bits as an order-preserving `u32`, `-0.0` as `0.0`: [`Extreme::rank`] for
/// [`Extreme::Lowest`], and its complement for [`Extreme::Highest`]. Branch-free so that the
/// build vectorises.
#[inline]
fn ascending(v: f32) -> u32 {
    let bits = (v + 0.0).to_bits();
    // Negative values: all bits flipped; others: the sign bit set.
    bits ^ (((bits as i32 >> 31) as u32) | 1 << 31)
}

/// The spots of one layer of a [`Grid`], indexed for the spot queries of one frame.
///
/// [`build`](Self::build) it from the grid and layer once the layer is final, then ask any
/// number of queries of that grid and layer: each answer is exactly the answer of the
/// function of the same name in [`query`](super) (ties to the lower cell index, walls and
/// `NaN` never chosen), but the index does most of the work once. On a 256 × 256 map, the
/// build and ten [`top_n_into`](Self::top_n_into) queries cost a few percent of ten
/// [`query::top_n`](super::top_n()) calls. Build again whenever the layer or the walls change.
/// Keep one index and rebuild it every frame: after the first frame, neither the build nor
/// the queries allocate (once the buffers have grown to the map and the deepest query).
///
/// Every query takes the grid and layer the index was built from. It panics if their sizes
/// differ from the build's; other values give answers for the values built from.
///
/// ```
/// use influence::{query::{self, Extreme, SpotIndex}, Grid, Layer};
/// let grid = Grid::new(5, 1)?;
/// let layer = Layer::from_vec(vec![9.0, 8.0, 1.0, 7.0, 6.0]);
/// let mut spots = SpotIndex::new();
/// spots.build(&grid, &layer);
/// let mut best = Vec::new();
/// spots.top_n_into(&grid, &layer, 2, 2.0, Extreme::Highest, &mut best);
/// assert_eq!(best, vec![(0, 9.0), (3, 7.0)]);
/// assert_eq!(best, query::top_n(&grid, &layer, 2, 2.0, Extreme::Highest));
/// assert_eq!(spots.extreme(&grid, &layer, Extreme::Lowest), Some((2, 1.0)));
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct SpotIndex {
    width: usize,
    height: usize,
    /// Tiles per row.
    across: usize,
    /// Per tile, the largest ascending key of its candidates (0: none).
    hi: Vec<u32>,
    /// Per tile, the smallest ascending key of its candidates (`u32::MAX`: none).
    lo: Vec<u32>,
    /// The candidate order of [`Extreme::Highest`], then of [`Extreme::Lowest`].
    orders: [Order; 2],
    /// Positions of the spots a top-N query has kept so far.
    kept: Vec<Vec3>,
}

/// The candidates of one [`Extreme`] in (rank, cell) order, built as far as a query needed.
#[derive(Debug, Clone, Default)]
struct Order {
    /// Whether `tiles` holds this build's tiles.
    started: bool,
    /// `(best rank in the tile) << 32 | tile` of every tile with a candidate; the first
    /// `tiles_sorted` are sorted and no later one is smaller.
    tiles: Vec<u64>,
    tiles_sorted: usize,
    /// The next block of tiles to sort.
    tile_block: usize,
    /// Tiles opened: `tiles[..opened]`.
    opened: usize,
    /// Tiles the next batch opens.
    batch: usize,
    /// Keys (`rank << 32 | cell`) of opened tiles that are not yet in `keys`; the first
    /// `final_keys` of them are below every key of an unopened tile.
    pending: Vec<u64>,
    final_keys: usize,
    /// Final keys the next extension sorts into `keys`.
    block: usize,
    /// The leading candidates in order, and their positions.
    keys: Vec<u64>,
    positions: Vec<Vec3>,
}

impl SpotIndex {
    /// An empty index; [`build`](Self::build) it before asking a query.
    ///
    /// ```
    /// let spots = influence::query::SpotIndex::new();
    /// # drop(spots);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Indexes `layer` on `grid`: the per-tile bounds (one pass over the values and walls)
    /// and a fresh start for the candidate orders, which the first top-N query of each
    /// [`Extreme`] builds as far as it needs.
    ///
    /// # Panics
    /// If `layer` was not made for `grid`.
    ///
    /// ```
    /// use influence::{query::{Extreme, SpotIndex}, Grid, Layer};
    /// let grid = Grid::from_rows(&["..@"])?;
    /// let mut spots = SpotIndex::new();
    /// spots.build(&grid, &Layer::from_vec(vec![1.0, 2.0, 9.0]));
    /// assert_eq!(spots.extreme(&grid, &Layer::from_vec(vec![1.0, 2.0, 9.0]), Extreme::Highest), Some((1, 2.0)));
    /// // The next frame's layer.
    /// let layer = Layer::from_vec(vec![3.0, 2.0, 9.0]);
    /// spots.build(&grid, &layer);
    /// assert_eq!(spots.extreme(&grid, &layer, Extreme::Highest), Some((0, 3.0)));
    /// # Ok::<(), influence::Error>(())
    /// ```
    pub fn build(&mut self, grid: &Grid, layer: &Layer) {
        super::check_len(grid, layer);
        let (width, height) = (grid.width(), grid.height());
        let across = width.div_ceil(TILE);
        (self.width, self.height, self.across) = (width, height, across);
        self.hi.clear();
        self.lo.clear();
        self.hi.reserve(across * height);
        self.lo.reserve(across * height);
        let rows = layer.values().chunks_exact(width).zip(grid.blocked().chunks_exact(width));
        for (y, (values, blocked)) in rows.enumerate() {
            // A tile with no walkable cell (its bits of the grid's free-cell words clear)
            // is not read: on real maps, most of the rectangle is often wall.
            let free = grid.free_bits(y);
            let open = |tx: usize| free[tx / (64 / TILE)] >> (tx % (64 / TILE) * TILE) & TILE_BITS != 0;
            for (tx, (v, b)) in values.chunks(TILE).zip(blocked.chunks(TILE)).enumerate() {
                let (hi, lo) = match (<&[f32; TILE]>::try_from(v), <&[bool; TILE]>::try_from(b)) {
                    _ if !open(tx) => (0, u32::MAX),
                    (Ok(v), Ok(b)) => tile_bounds(v, b),
                    _ => {
                        // The row's short last tile, padded with walls.
                        let (mut pv, mut pb) = ([0.0; TILE], [true; TILE]);
                        pv[..v.len()].copy_from_slice(v);
                        pb[..b.len()].copy_from_slice(b);
                        tile_bounds(&pv, &pb)
                    }
                };
                self.hi.push(hi);
                self.lo.push(lo);
            }
        }
        for order in &mut self.orders {
            // The orders of the last layer are gone; the first query starts them afresh.
            order.started = false;
            order.keys.clear();
            order.positions.clear();
        }
    }

    /// Panics unless `grid` and `layer` have the sizes the index was built for.
    fn check(&self, grid: &Grid, layer: &Layer) {
        super::check_len(grid, layer);
        assert!(
            grid.width() == self.width && grid.height() == self.height,
            "the spot index was built for a {}×{} grid, not {}×{} (build it first)",
            self.width,
            self.height,
            grid.width(),
            grid.height()
        );
    }

    /// The first cell and the end of tile `t`.
    fn tile_cells(&self, t: usize) -> (usize, usize) {
        let (y, tx) = (t / self.across, t % self.across);
        let start = y * self.width + tx * TILE;
        (start, (start + TILE).min((y + 1) * self.width))
    }

    /// The best rank of tile `t` for `which`, `None` if it has no candidate.
    fn bound(&self, t: usize, which: Extreme) -> Option<u32> {
        bound(&self.hi, &self.lo, t, which)
    }

    /// [`query::top_n`](super::top_n()) of the grid and layer built from, into `out` (cleared
    /// first): up to `n` walkable cells, best first, at least `min_spacing` apart, chosen
    /// greedily in (value, cell) order. The first query of each [`Extreme`] after a build
    /// orders the leading candidates, as far as it scans; later ones reuse that order and
    /// extend it if they scan deeper.
    ///
    /// # Panics
    /// If the grid or layer is not the size built for.
    ///
    /// ```
    /// use influence::{query::{self, Extreme, SpotIndex}, Grid, Layer};
    /// let grid = Grid::new(64, 64)?;
    /// let layer = Layer::from_vec((0..64 * 64).map(|i| ((i * 37) % 101) as f32).collect());
    /// let mut spots = SpotIndex::new();
    /// spots.build(&grid, &layer);
    /// let mut out = Vec::new();
    /// for spacing in 1..=10 {
    ///     spots.top_n_into(&grid, &layer, 5, spacing as f32, Extreme::Highest, &mut out);
    ///     assert_eq!(out, query::top_n(&grid, &layer, 5, spacing as f32, Extreme::Highest));
    /// }
    /// # Ok::<(), influence::Error>(())
    /// ```
    pub fn top_n_into(
        &mut self,
        grid: &Grid,
        layer: &Layer,
        n: usize,
        min_spacing: f32,
        which: Extreme,
        out: &mut Vec<(usize, f32)>,
    ) {
        self.check(grid, layer);
        out.clear();
        if n == 0 || min_spacing.is_nan() {
            return;
        }
        // `distance(a, b) >= spacing` exactly when `distance_squared(a, b) >= least`: glam's
        // distance is the correctly rounded root of the same squared distance.
        let spacing = min_spacing.max(0.0);
        let least = least_square_reaching(spacing);
        // Beyond the longest distance between two centres, the first spot is the only one.
        let world = grid.world_size();
        let (o, w) = (grid.origin(), (f64::from(world.x), f64::from(world.y)));
        let reach = w.0.hypot(w.1) * 1.001 + 1e-5 * (f64::from(o.x.abs() + o.y.abs()) + w.0 + w.1);
        let one_only = f64::from(spacing) > reach;
        let mut kept = std::mem::take(&mut self.kept);
        kept.clear();
        let slot = which as usize;
        let mut next = 0;
        loop {
            if next == self.orders[slot].keys.len() && !self.extend(grid, layer, which) {
                break;
            }
            let order = &self.orders[slot];
            let p = order.positions[next];
            if kept.iter().all(|c| c.distance_squared(p) >= least) {
                let cell = (order.keys[next] & u64::from(u32::MAX)) as usize;
                out.push((cell, layer[cell]));
                kept.push(p);
                if out.len() == n || one_only {
                    break;
                }
            }
            next += 1;
        }
        self.kept = kept;
    }

    /// Appends the next candidates to the order of `which`; `false` when there are none.
    fn extend(&mut self, grid: &Grid, layer: &Layer, which: Extreme) -> bool {
        let (hi, lo, across, width) = (&self.hi, &self.lo, self.across, self.width);
        let order = &mut self.orders[which as usize];
        if !order.started {
            order.tiles.clear();
            order.tiles.extend(
                (0..hi.len()).filter_map(|t| bound(hi, lo, t, which).map(|b| u64::from(b) << 32 | t as u64)),
            );
            order.started = true;
            order.tiles_sorted = 0;
            order.tile_block = FIRST_TILE_BLOCK;
            order.opened = 0;
            order.batch = FIRST_BATCH;
            order.block = FIRST_BLOCK;
            order.final_keys = 0;
            order.pending.clear();
        }
        let first_cell = |t: usize| (t / across) * width + (t % across) * TILE;
        let (values, blocked) = (layer.values(), grid.blocked());
        loop {
            // Keys below the next unopened tile's (bound, first cell) are final: no cell of an
            // unopened tile comes before them. They gather at the front of `pending`.
            let limit = order.tiles.get(order.opened).map_or(u64::MAX, |&key| {
                (key >> 32) << 32 | first_cell((key & u64::from(u32::MAX)) as usize) as u64
            });
            let mut done = order.final_keys;
            for k in order.final_keys..order.pending.len() {
                if order.pending[k] < limit {
                    order.pending.swap(done, k);
                    done += 1;
                }
            }
            if done > 0 {
                // The next block of final keys, brought forward and sorted, joins the order.
                let take = done.min(order.block);
                if take < done {
                    order.pending[..done].select_nth_unstable(take - 1);
                }
                order.pending[..take].sort_unstable();
                for &key in &order.pending[..take] {
                    order.keys.push(key);
                    order.positions.push(grid.position((key & u64::from(u32::MAX)) as usize));
                }
                order.pending.drain(..take);
                order.final_keys = done - take;
                order.block = order.block.saturating_mul(2);
                return true;
            }
            order.final_keys = 0;
            if order.opened == order.tiles.len() {
                return false; // every tile opened and every key in the order
            }
            // Open the next batch, with the tile order sorted one past it.
            let open = order.opened..(order.opened + order.batch).min(order.tiles.len());
            order.sort_tiles(open.end + 1);
            for k in open.clone() {
                let start = first_cell((order.tiles[k] & u64::from(u32::MAX)) as usize);
                let end = (start + TILE).min((start / width + 1) * width);
                for i in start..end {
                    if !blocked[i] && !values[i].is_nan() {
                        order.pending.push(u64::from(which.rank(values[i])) << 32 | i as u64);
                    }
                }
            }
            order.opened = open.end;
            order.batch = order.batch.saturating_mul(2);
        }
    }

    /// [`query::extreme`](super::extreme) of the grid and layer built from: the best
    /// walkable cell, ties to the lowest index, `None` if no walkable cell holds a number.
    /// Reads the tile bounds and one tile.
    ///
    /// # Panics
    /// If the grid or layer is not the size built for.
    ///
    /// ```
    /// use influence::{query::{Extreme, SpotIndex}, Grid, Layer};
    /// let grid = Grid::from_rows(&["...@"])?;
    /// let layer = Layer::from_vec(vec![1.0, 2.5, 2.5, 9.0]);
    /// let mut spots = SpotIndex::new();
    /// spots.build(&grid, &layer);
    /// assert_eq!(spots.extreme(&grid, &layer, Extreme::Highest), Some((1, 2.5)));
    /// # Ok::<(), influence::Error>(())
    /// ```
    pub fn extreme(&self, grid: &Grid, layer: &Layer, which: Extreme) -> Option<(usize, f32)> {
        self.check(grid, layer);
        let t = match which {
            Extreme::Highest => {
                let best = self.hi.iter().copied().max().filter(|&h| h != 0)?;
                self.hi.iter().position(|&h| h == best)?
            }
            Extreme::Lowest => {
                let best = self.lo.iter().copied().min().filter(|&l| l != u32::MAX)?;
                self.lo.iter().position(|&l| l == best)?
            }
        };
        let (start, end) = self.tile_cells(t);
        let mut best: Option<(u32, usize)> = None;
        for i in start..end {
            offer(grid, layer, which, i, &mut best);
        }
        best.map(|(_, i)| (i, layer[i]))
    }

    /// [`query::extreme_within_radius`](super::extreme_within_radius) of the grid and layer
    /// built from: the best walkable cell whose centre lies within `radius` of `centre`
    /// (inclusive), ties to the lowest index. Reads only the tiles the disc reaches whose
    /// bound beats the best cell found so far.
    ///
    /// # Panics
    /// If the grid or layer is not the size built for.
    ///
    /// ```
    /// use influence::{query::{Extreme, SpotIndex}, Grid, Layer, glam::Vec3};
    /// let grid = Grid::new(4, 1)?;
    /// let layer = Layer::from_vec(vec![5.0, 1.0, 2.0, 9.0]);
    /// let mut spots = SpotIndex::new();
    /// spots.build(&grid, &layer);
    /// let near = spots.extreme_within_radius(&grid, &layer, Vec3::new(1.5, 0.5, 0.0), 1.0, Extreme::Highest);
    /// assert_eq!(near, Some((0, 5.0)));
    /// # Ok::<(), influence::Error>(())
    /// ```
    pub fn extreme_within_radius(
        &self,
        grid: &Grid,
        layer: &Layer,
        centre: Vec3,
        radius: f32,
        which: Extreme,
    ) -> Option<(usize, f32)> {
        self.check(grid, layer);
        if radius.is_nan() || radius < 0.0 {
            return None;
        }
        let r2 = radius * radius;
        let xs = reach(grid, centre.x, grid.origin().x, radius, self.width)?;
        let ys = reach(grid, centre.y, grid.origin().y, radius, self.height)?;
        let mut best: Option<(u32, usize)> = None;
        for y in ys.0..=ys.1 {
            let row = y * self.width;
            for tx in xs.0 / TILE..=xs.1 / TILE {
                let t = y * self.across + tx;
                // Cells of later tiles have higher indices: a tie cannot win.
                match (self.bound(t, which), best) {
                    (None, _) => continue,
                    (Some(b), Some((r, _))) if b >= r => continue,
                    _ => {}
                }
                let (from, to) = ((tx * TILE).max(xs.0), (tx * TILE + TILE - 1).min(xs.1));
                for i in row + from..=row + to {
                    if grid.position(i).distance_squared(centre) <= r2 {
                        offer(grid, layer, which, i, &mut best);
                    }
                }
            }
        }
        best.map(|(_, i)| (i, layer[i]))
    }

    /// [`query::extreme_reachable`](super::extreme_reachable) of the grid and layer built
    /// from: the best cell reachable from `start` by a walk of at most `max_path_distance`
    /// world units, `None` if `start` is blocked or outside the grid. The walk
    /// ([`Router::sweep`](crate::route::Router::sweep)) decides which cells count, so it
    /// costs what the walk costs; the index only saves nothing and loses nothing here, and is
    /// offered so that a frame's spot queries all go through it.
    ///
    /// # Panics
    /// If the grid or layer is not the size built for.
    ///
    /// ```
    /// use influence::{query::{Extreme, SpotIndex}, route::Router, Grid, Layer};
    /// let grid = Grid::from_rows(&["..@."])?;
    /// let layer = Layer::from_vec(vec![1.0, 2.0, 0.0, 9.0]);
    /// let mut spots = SpotIndex::new();
    /// spots.build(&grid, &layer);
    /// let mut router = Router::new();
    /// let best = spots.extreme_reachable(&grid, &layer, 0, 100.0, &mut router, Extreme::Highest);
    /// assert_eq!(best, Some((1, 2.0)));
    /// # Ok::<(), influence::Error>(())
    /// ```
    pub fn extreme_reachable(
        &self,
        grid: &Grid,
        layer: &Layer,
        start: usize,
        max_path_distance: f32,
        router: &mut Router,
        which: Extreme,
    ) -> Option<(usize, f32)> {
        self.check(grid, layer);
        extremes::extreme_reachable(grid, layer, start, max_path_distance, router, which)
    }
}

/// The columns (or rows) `lo..=hi` whose centres can lie within `radius` of coordinate
/// `c`, given the grid's `origin` coordinate and `cells` along the axis: a superset of
/// the exact test's (a margin of a cell and more for rounding), or every one when a
/// number is not finite. `None` if none can.
fn reach(grid: &Grid, c: f32, origin: f32, radius: f32, cells: usize) -> Option<(usize, usize)> {
    let all = Some((0, cells - 1));
    if !(c.is_finite() && (radius * radius).is_finite()) {
        // A NaN centre fails every test of the exact loop, an infinite one passes with an
        // infinite radius only: the exact test over every cell decides.
        return all;
    }
    let (c, o, r, cs) = (f64::from(c), f64::from(origin), f64::from(radius), f64::from(grid.cell_size()));
    let margin = 1.0 + 1e-5 * (c.abs() + r + o.abs()) / cs;
    let lo = ((c - r - o) / cs - 0.5 - margin).floor();
    let hi = ((c + r - o) / cs - 0.5 + margin).ceil();
    if hi < 0.0 || lo > (cells - 1) as f64 {
        return None;
    }
    Some((lo.max(0.0) as usize, (hi as usize).min(cells - 1)))
}

impl Order {
    /// Sorts the tile order so that at least its first `k` tiles are in place.
    fn sort_tiles(&mut self, k: usize) {
        let k = k.min(self.tiles.len());
        while self.tiles_sorted < k {
            let rest = &mut self.tiles[self.tiles_sorted..];
            let take = self.tile_block.min(rest.len());
            if take < rest.len() {
                rest.select_nth_unstable(take - 1);
            }
            rest[..take].sort_unstable();
            self.tiles_sorted += take;
            self.tile_block = self.tile_block.saturating_mul(4);
        }
    }
}

/// Offers cell `i` to `best`, a (rank, cell) seen in increasing cell order.
#[inline]
fn offer(grid: &Grid, layer: &Layer, which: Extreme, i: usize, best: &mut Option<(u32, usize)>) {
    let v = layer[i];
    if grid.is_walkable(i) && !v.is_nan() {
        let rank = which.rank(v);
        if best.is_none_or(|(r, _)| rank < r) {
            *best = Some((rank, i));
        }
    }
}

/// The least `d ≥ 0` whose correctly rounded square root reaches `s ≥ 0` (`+∞` for
/// `s = +∞`): since the root is monotone, `d.sqrt() >= s` exactly when `d >= ` this, so a
/// spacing test needs no root. Found from `s * s` within a few steps of one unit in the last
/// place (positive floats order as their bits).
fn least_square_reaching(s: f32) -> f32 {
    let mut t = s * s;
    while t > 0.0 && f32::from_bits(t.to_bits() - 1).sqrt() >= s {
        t = f32::from_bits(t.to_bits() - 1);
    }
    while t.sqrt() < s {
        t = f32::from_bits(t.to_bits() + 1);
    }
    t
}

/// The best rank of tile `t` for `which` from the tile bounds, `None` if it has no candidate.
#[inline]
fn bound(hi: &[u32], lo: &[u32], t: usize, which: Extreme) -> Option<u32> {
    (hi[t] != 0).then(|| match which {
        Extreme::Highest => !hi[t],
        Extreme::Lowest => lo[t],
    })
}

/// The largest and smallest ascending key of a tile's walkable, non-`NaN` cells (0 and
/// `u32::MAX` for none). Branch-free over a whole tile so that it vectorises: walls are made
/// `NaN` (their bits or-ed with a quiet `NaN`'s), and `c > hi` and `c < lo` are false for
/// `NaN`, so the running maximum and minimum skip them with one instruction each, with no
/// mask. An empty tile keeps `hi = -∞ < lo = +∞`, which no cell leaves.
#[inline]
fn tile_bounds(values: &[f32; TILE], blocked: &[bool; TILE]) -> (u32, u32) {
    // Eight running extremes, one per lane of two SSE (or one AVX) registers, reduced at the end.
    const LANES: usize = 8;
    let (mut hi, mut lo) = ([f32::NEG_INFINITY; LANES], [f32::INFINITY; LANES]);
    for (v, b) in values.chunks_exact(LANES).zip(blocked.chunks_exact(LANES)) {
        for k in 0..LANES {
            let wall = u32::from(b[k]).wrapping_neg() & 0x7FC0_0000;
            let c = f32::from_bits(v[k].to_bits() | wall);
            hi[k] = if c > hi[k] { c } else { hi[k] };
            lo[k] = if c < lo[k] { c } else { lo[k] };
        }
    }
    let hi = hi.into_iter().fold(f32::NEG_INFINITY, |a, b| if b > a { b } else { a });
    let lo = lo.into_iter().fold(f32::INFINITY, |a, b| if b < a { b } else { a });
    if hi < lo {
        (0, u32::MAX)
    } else {
        // The order-preserving keys of the extremes are the extremes of the keys.
        (ascending(hi), ascending(lo))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascending_is_the_rank_of_lowest() {
        for v in [f32::NEG_INFINITY, -3.5, -1e-40, -0.0, 0.0, 1e-40, 7.0, f32::INFINITY, f32::MAX] {
            assert_eq!(ascending(v), Extreme::Lowest.rank(v), "{v}");
            assert_eq!(!ascending(v), Extreme::Highest.rank(v), "{v}");
            assert!(ascending(v) != 0 && ascending(v) != u32::MAX);
        }
    }

    /// Against the keys' plain maximum and minimum over the candidates, on tiles of every
    /// special value, walls over each of them, and tiles with nothing or only walls.
    #[test]
    fn tile_bounds_are_the_candidates_extreme_keys() {
        let specials =
            [f32::NAN, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 0.0, 1.5, -2.0, f32::MIN_POSITIVE];
        let mut next = super::super::tests::xorshift(0x9E37_79B9_7F4A_7C15u64);
        for case in 0..2000 {
            let (mut values, mut blocked) = ([0.0f32; TILE], [false; TILE]);
            for k in 0..TILE {
                values[k] = match next() % 4 {
                    0 => f32::from_bits(next() as u32),
                    _ => specials[(next() % specials.len() as u64) as usize],
                };
                blocked[k] = next().is_multiple_of(1 + case % 5);
            }
            let keys =
                (0..TILE).filter(|&k| !blocked[k] && !values[k].is_nan()).map(|k| ascending(values[k]));
            let want = (keys.clone().max().unwrap_or(0), keys.min().unwrap_or(u32::MAX));
            assert_eq!(tile_bounds(&values, &blocked), want, "{values:?} {blocked:?}");
        }
    }

    /// `d.sqrt() >= s` exactly when `d >= least_square_reaching(s)`, at the threshold, one
    /// step below it and at random squares, for spacings of every magnitude.
    #[test]
    fn least_square_reaching_is_the_exact_threshold() {
        let mut next = super::super::tests::xorshift(0x2545_F491_4F6C_DD1Du64);
        let mut spacings =
            vec![0.0, f32::MIN_POSITIVE, 1e-45, 1.0, 2.0, 10.0, 1e19, 1.8e19, f32::MAX, f32::INFINITY];
        spacings
            .extend((0..3000).map(|_| f32::from_bits(next() as u32 & 0x7FFF_FFFF)).filter(|s| !s.is_nan()));
        spacings.extend((0..3000).map(|_| (next() % 100_000) as f32 / 1000.0));
        for s in spacings {
            let t = least_square_reaching(s);
            assert!(t.sqrt() >= s, "{s}: {t}");
            if t > 0.0 {
                assert!(f32::from_bits(t.to_bits() - 1).sqrt() < s, "{s}: {t} is not the least");
            }
            for _ in 0..20 {
                let d = f32::from_bits(next() as u32 & 0x7FFF_FFFF);
                if !d.is_nan() {
                    assert_eq!(d.sqrt() >= s, d >= t, "{s}: {d} against {t}");
                }
            }
        }
    }

    /// The second frame reuses every buffer: the same addresses and capacities after a build
    /// and queries as deep as the first frame's.
    #[test]
    fn a_second_frame_allocates_nothing() {
        let mut grid = Grid::new(300, 40).unwrap();
        for i in (0..grid.len()).step_by(7) {
            grid.set_blocked(grid.cell(i), true).unwrap();
        }
        let first = Layer::from_vec((0..grid.len()).map(|i| ((i * 7919) % 1013) as f32).collect());
        let second = Layer::from_vec(first.values().iter().map(|v| v * 2.0 - 1.0).collect());
        let mut spots = SpotIndex::new();
        let mut out = Vec::new();
        let frame = |spots: &mut SpotIndex, layer: &Layer, out: &mut Vec<(usize, f32)>| {
            spots.build(&grid, layer);
            for (k, which) in [Extreme::Highest, Extreme::Lowest].into_iter().enumerate() {
                for spacing in 0..12 {
                    spots.top_n_into(&grid, layer, 5 + k, spacing as f32, which, out);
                    assert_eq!(*out, super::super::top_n(&grid, layer, 5 + k, spacing as f32, which));
                }
            }
        };
        let buffers = |s: &SpotIndex| {
            let mut b =
                vec![(s.hi.as_ptr() as usize, s.hi.capacity()), (s.lo.as_ptr() as usize, s.lo.capacity())];
            b.push((s.kept.as_ptr() as usize, s.kept.capacity()));
            for o in &s.orders {
                b.push((o.tiles.as_ptr() as usize, o.tiles.capacity()));
                b.push((o.pending.as_ptr() as usize, o.pending.capacity()));
                b.push((o.keys.as_ptr() as usize, o.keys.capacity()));
                b.push((o.positions.as_ptr() as usize, o.positions.capacity()));
            }
            b
        };
        frame(&mut spots, &first, &mut out);
        let before = (buffers(&spots), out.as_ptr() as usize);
        frame(&mut spots, &second, &mut out);
        assert_eq!((buffers(&spots), out.as_ptr() as usize), before);
    }
}
