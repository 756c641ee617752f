//! The double-buffered diffusion state, stepped whole, fused, sliced or in parallel.

use super::apart;
use super::bound::{Bound, Seeds};
use super::diffuse::{generic_cells, Diffusion};
use super::dispatch;
use super::fused::{Pass, Scratch};
use super::in_place::InPlace;
use super::seed::{self, Seed};
use crate::error::Error;
use crate::layer::Layer;
use crate::space::{Grid, Space, WallsTag};

/// What one [`Propagator::step`] call does: how many steps, the seeds written before each,
/// a budget of cells that slices a step over several calls, and whether the rows are shared
/// among threads (feature `rayon`). [`Steps::default()`] is one whole step with no seeds.
///
/// Every combination gives the same bits as `count` rounds of "write the seeds, step once
/// with the generic rule".
///
/// ```
/// use influence::{propagate::{Diffusion, Propagator, Seed, Steps}, Grid};
/// let grid = Grid::from_rows(&["......", "..@@..", "......"])?;
/// let seeds = [Seed::new(0, 1.0), Seed::new(17, 2.0)];
/// let mut p = Propagator::new(&grid, Diffusion::new(0.2, 0.5)?);
/// // Ten steps, the seeds written before each (fused, up to 16 a pass over memory, on maps
/// // beyond the caches).
/// p.step(&grid, Steps { count: 10, seeds: &seeds, ..Steps::default() })?;
/// // One more step spread over frames, at most 5 cells a call.
/// let slice = Steps { seeds: &seeds, budget: 5, ..Steps::default() };
/// let mut calls = 1;
/// while !p.step(&grid, slice)? {
///     calls += 1;
/// }
/// assert_eq!(calls, 4); // 18 cells
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Steps<'a> {
    /// How many steps (1 by default; 0 does nothing). A step left part-done by an earlier
    /// call is finished first and counts as the first.
    pub count: usize,
    /// Written into the current map, in order, before each step starts (blocked cells are
    /// skipped). Empty by default.
    pub seeds: &'a [Seed],
    /// The most cells this call computes (at least one; unlimited by default). When it runs
    /// out mid-step, the step is left part-done and the next call resumes it, while
    /// [`Propagator::values`] keeps showing the last complete map.
    pub budget: usize,
    /// Shares each whole step's rows among the current rayon thread pool — the global one,
    /// or the one this runs in with `rayon::ThreadPool::install` — on grids (off by
    /// default). Each band of rows recomputes the few rows beside it that its fused steps
    /// need rather than waiting for its neighbours, so the bits do not depend on the number
    /// of threads. Called from outside a rayon pool, a pass with less work than 2¹⁷
    /// cell-steps (two steps of a 256² map) runs on the calling thread all the same:
    /// handing its bands to the pool and waiting costs more than such a pass. Without the
    /// feature `rayon` the steps run on the calling thread, with the same bits: the field is
    /// always there, so turning the feature on breaks no code.
    pub parallel: bool,
}

/// Cells times fused steps below which a pass called from outside a thread pool is not
/// shared: from the main thread, a shared step of a 256² map took 1.7 times as long as one
/// run there, and one of a 512² map 0.8 times (docs/PERFORMANCE.md).
#[cfg(feature = "rayon")]
const PARALLEL_FROM: usize = 1 << 17;

impl Default for Steps<'_> {
    fn default() -> Self {
        Self { count: 1, seeds: &[], budget: usize::MAX, parallel: false }
    }
}

/// One layer that diffuses: two buffers, the step reading one and writing the other, then
/// swapping them — never copying ("The Core Mechanics of Influence Mapping": double
/// buffering keeps the result independent of the order cells are visited in). On a grid
/// beyond the core's L2 cache, where the CPU has AVX-512, a step alone is written over the
/// map it reads instead, each row saved in a small ring before it is overwritten: the same
/// bits as double buffering, with a third less memory traffic.
///
/// Each frame: write the sources into the current map ([`write_seeds`](Self::write_seeds),
/// or a [`Stamper`](crate::Stamper) into [`values_mut`](Self::values_mut)), then
/// [`step`](Self::step) — or let the step write the seeds itself, before each of several
/// steps ([`Steps`]). On any space the step runs the generic rule; on a [`Grid`] it runs a
/// row-wise kernel with the same bits, fusing several steps in one pass over memory. The
/// grid kernels keep a few rows of scratch, sized on first use; nothing else allocates
/// after construction.
///
/// A step can be spread over several frames ([`Steps::budget`]); the finished step is
/// bit-identical to one done at once, and [`values`](Self::values) keeps showing the last
/// complete map meanwhile. Write sources only between steps ([`is_stepping`](Self::is_stepping)
/// is `false`): a write during a sliced step reaches only the cells not yet computed.
///
/// ```
/// use influence::{propagate::{Diffusion, Propagator, Seed, Steps}, Grid};
/// let grid = Grid::from_rows(&["....", ".@@.", "...."])?;
/// let mut p = Propagator::new(&grid, Diffusion::new(0.5, 1.0)?);
/// for _ in 0..3 {
///     p.write_seeds(&grid, &[Seed::new(0, 1.0)])?;
///     p.step(&grid, Steps::default())?;
/// }
/// assert_eq!(p.values()[1], (-0.5f32).exp()); // one cell away
/// assert_eq!(p.values()[5], 0.0); // blocked
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug)]
pub struct Propagator {
    diffusion: Diffusion,
    front: Layer,
    back: Layer,
    /// Cells of `back` computed by the step in progress; 0 when none is.
    cursor: usize,
    /// The front may hold values in blocked cells, and any values at all (after
    /// `values_mut`): `begin` clears the walls and finds the bound again.
    dirty: bool,
    /// What is known of the front's values, trusted once `begin` has run: whether the
    /// kernels may take them as clean.
    bound: Bound,
    /// Ring rows of the grid kernel, one set per band of rows.
    scratch: Vec<Scratch>,
    /// The walkable seeds of fused steps, sorted by cell.
    sorted: Vec<Seed>,
    /// The walls for which every blocked cell of the front and of the back buffer is known
    /// to hold +0, if any: a step into the back buffer on those walls may leave runs of
    /// them unwritten ([`Pass::zeroed`]). Known after a step writes the buffer (the rule
    /// writes +0 in walls; a step in pieces, if every piece saw the same walls) or `begin`
    /// clears the front's walls; anything else forgets it. A step on a grid whose walls
    /// the front's are not known for clears them first ([`begin`](Self::begin)).
    zeroed: [Option<WallsTag>; 2],
}

/// A layer of `len` zeros whose first value lies `at` bytes (mod 4 KiB, whole cache lines)
/// after `like`'s: a propagator's second buffer, placed apart from its first.
fn placed(len: usize, like: &Layer, at: usize) -> Layer {
    Layer::zeros_placed(len, apart::ROOM, |base| apart::index_at(base, 0, like.values().as_ptr(), at))
}

impl Clone for Propagator {
    /// The same state, its buffers placed apart as [`Propagator::new`] places them.
    fn clone(&self) -> Self {
        let front = self.front.clone();
        let at = apart::offset(self.back.values().as_ptr(), self.front.values().as_ptr());
        let mut back = placed(self.back.len(), &front, at);
        back.values_mut().copy_from_slice(self.back.values());
        Self {
            diffusion: self.diffusion,
            front,
            back,
            cursor: self.cursor,
            dirty: self.dirty,
            bound: self.bound,
            scratch: self.scratch.clone(),
            sorted: self.sorted.clone(),
            zeroed: self.zeroed,
        }
    }
}

impl Propagator {
    /// Zeroed buffers for `space`.
    pub fn new(space: &impl Space, diffusion: Diffusion) -> Self {
        let front = Layer::for_space(space);
        // A grid's step reads rows of one buffer while it writes the other's: their rows
        // are kept apart within 4 KiB ([`apart`](super::apart)), both ways as they swap.
        let at = space.as_grid().map_or(0, |grid| apart::clear_of(&[0], grid.width()));
        Self {
            diffusion,
            back: placed(front.len(), &front, at),
            front,
            cursor: 0,
            dirty: false,
            bound: Bound::Clean(0.0),
            scratch: Vec::new(),
            sorted: Vec::new(),
            zeroed: [None; 2],
        }
    }

    /// The parameters.
    pub fn diffusion(&self) -> &Diffusion {
        &self.diffusion
    }

    /// Changes the parameters (from the next cell computed on).
    pub fn set_diffusion(&mut self, diffusion: Diffusion) {
        self.diffusion = diffusion;
    }

    /// The current map: the result of the last complete step, plus sources written since.
    pub fn values(&self) -> &Layer {
        &self.front
    }

    /// The current map, to edit by hand or stamp into. Values left in blocked cells are
    /// cleared before the next step. That step first reads the whole map once, to clear the
    /// walls and to learn whether every value is finite and at least +0, which the grid
    /// kernels step faster (see the [module docs](super#speed));
    /// [`write_seeds`](Self::write_seeds) needs no such pass.
    ///
    /// On a grid, a step after cells were blocked (or on another grid) clears the new walls
    /// by itself, in the same pass, so influence never leaks through them. On other spaces,
    /// after blocking nodes, call this (and drop the result) to the same end.
    ///
    /// ```
    /// use influence::{propagate::{Diffusion, Propagator, Steps}, Cell, Falloff, Grid, Source, Stamper};
    /// let mut grid = Grid::new(4, 1)?;
    /// let mut p = Propagator::new(&grid, Diffusion::new(0.5, 1.0)?);
    /// let tank = Source::new(grid.center(Cell::new(0, 0)), 2.0, Falloff::Point, 1.0)?;
    /// Stamper::new().stamp_all(&grid, p.values_mut(), [&tank])?;
    /// p.step(&grid, Steps::default())?;
    /// grid.set_blocked(Cell::new(1, 0), true)?; // a door closes
    /// p.step(&grid, Steps::default())?;
    /// assert_eq!(p.values()[1], 0.0);
    /// # Ok::<(), influence::Error>(())
    /// ```
    pub fn values_mut(&mut self) -> &mut Layer {
        self.dirty = true;
        self.zeroed[0] = None;
        &mut self.front
    }

    /// Bytes this propagator holds on the heap: its two layers (8 bytes a cell, up to 60
    /// bytes that start the first on a cache line, see [`Layer::zeros`], and on a grid up to
    /// 4 KiB that place the second's rows apart from the first's), the sorted
    /// seeds of fused steps, and the grid kernels' ring rows once a grid step has run (one
    /// set per band of rows; each set at most about `16 × width × fused steps` bytes, and the
    /// fused steps, at most 16, are capped so that this stays within half of the core's L2
    /// cache (as the CPU reports it, else 1 MiB), or `32 × width` bytes on grids too wide for
    /// two steps in it), plus, once a single step has run with the AVX-512 kernel, each
    /// band's wall data, kept for the next step (under a byte a cell), and with a step in
    /// place (maps beyond the L2) three rows and the two rows around each band.
    ///
    /// ```
    /// use influence::{propagate::{Diffusion, Propagator}, Grid};
    /// let p = Propagator::new(&Grid::new(100, 100)?, Diffusion::new(0.5, 1.0)?);
    /// assert!((2 * 4 * 100 * 100..=2 * 4 * 100 * 100 + 60 + 4092).contains(&p.heap_bytes()));
    /// # Ok::<(), influence::Error>(())
    /// ```
    pub fn heap_bytes(&self) -> usize {
        self.front.heap_bytes()
            + self.back.heap_bytes()
            + self.sorted.capacity() * std::mem::size_of::<Seed>()
            + self.scratch.capacity() * std::mem::size_of::<Scratch>()
            + self.scratch.iter().map(Scratch::heap_bytes).sum::<usize>()
    }

    /// Zeroes both buffers and abandons any step in progress.
    pub fn clear(&mut self) {
        self.front.fill(0.0);
        self.back.fill(0.0);
        self.cursor = 0;
        self.dirty = false;
        self.bound = Bound::Clean(0.0);
        self.zeroed = [None; 2];
    }

    /// Whether a sliced step has started and not finished.
    pub fn is_stepping(&self) -> bool {
        self.cursor > 0
    }

    /// Writes seeds into the current map, in order (blocked cells are skipped).
    ///
    /// # Errors
    /// [`Error::OutOfBounds`] for a cell outside the space, [`Error::BadNumber`] for a
    /// non-finite strength; nothing is written then.
    ///
    /// # Panics
    /// If the propagator was made for a space of another size.
    pub fn write_seeds<S: Space>(&mut self, space: &S, seeds: &[Seed]) -> Result<(), Error> {
        self.check_len(space.len());
        seed::check(space.len(), seeds)?;
        seed::apply(space, self.front.values_mut(), seeds, |_| {});
        self.bound = self.bound.seeded(&Seeds::of(seeds));
        Ok(())
    }

    /// Steps as `steps` says: each step writes `steps.seeds`, then moves every cell per the
    /// rule of [`Diffusion`]. On a [`Grid`] ([`Space::as_grid`]) whole steps run the
    /// row-wise kernel, up to 16 fused in one pass over memory where that is the faster
    /// (see the [module docs](super#speed)), in parallel if asked; elsewhere the generic rule. All
    /// give the same bits. Returns `true` when every step asked for is complete, `false`
    /// when the budget ran out first.
    ///
    /// ```
    /// use influence::{propagate::{Diffusion, Propagator, Seed, Steps}, Grid};
    /// let grid = Grid::from_rows(&["......", "..@@..", "......"])?;
    /// let seeds = [Seed::new(0, 1.0), Seed::new(17, 2.0)];
    /// let d = Diffusion::new(0.2, 0.5)?;
    /// let (mut fused, mut looped) = (Propagator::new(&grid, d), Propagator::new(&grid, d));
    /// fused.step(&grid, Steps { count: 10, seeds: &seeds, ..Steps::default() })?;
    /// for _ in 0..10 {
    ///     looped.write_seeds(&grid, &seeds)?;
    ///     looped.step(&grid, Steps::default())?;
    /// }
    /// assert_eq!(fused.values(), looped.values());
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`write_seeds`](Self::write_seeds); nothing is written or stepped then.
    ///
    /// # Panics
    /// If the propagator was made for a space of another size.
    pub fn step<S: Space>(&mut self, space: &S, steps: Steps<'_>) -> Result<bool, Error> {
        self.check_len(space.len());
        seed::check(space.len(), steps.seeds)?;
        #[cfg(feature = "rayon")]
        let bands = if steps.parallel { rayon::current_num_threads() } else { 1 };
        #[cfg(not(feature = "rayon"))]
        let bands = 1; // `steps.parallel` asks for threads, which only rayon gives
        let len = space.len();
        let summary = Seeds::of(steps.seeds);
        let (mut left, mut budget) = (steps.count, steps.budget.max(1));
        while left > 0 && budget > 0 {
            if self.cursor == 0 {
                if let Some(grid) = space.as_grid() {
                    let whole = left.min(budget / len);
                    if whole > 0 {
                        self.passes(grid, whole, steps.seeds, &summary, bands);
                        left -= whole;
                        budget -= whole * len;
                        continue;
                    }
                }
                seed::apply(space, self.front.values_mut(), steps.seeds, |_| {});
                self.bound = self.bound.seeded(&summary);
            }
            let (start, end) = (self.cursor, self.cursor.saturating_add(budget).min(len));
            self.cells(space, end);
            budget -= end - start;
            if self.advance(end) {
                self.bound = self.bound.stepped();
                left -= 1;
            }
        }
        Ok(left == 0)
    }

    /// Computes the cells from the cursor to `end` of the step in progress: on a grid, whole
    /// rows with the row-wise kernel and the ends of part-done rows with the generic rule.
    fn cells<S: Space>(&mut self, space: &S, end: usize) {
        self.begin(space);
        let start = self.cursor;
        // Each piece writes +0 in its walls: the buffer's walls are known when every piece
        // of the step saw the same ones.
        let tag = space.as_grid().map(Grid::walls_tag);
        self.zeroed[1] = if start == 0 || self.zeroed[1] == tag { tag } else { None };
        let Some(grid) = space.as_grid() else {
            generic_cells(space, self.front.values(), self.back.values_mut(), &self.diffusion, start..end);
            return;
        };
        let w = grid.width();
        let a = start.next_multiple_of(w).min(end);
        let b = a.max(end / w * w);
        generic_cells(grid, self.front.values(), self.back.values_mut(), &self.diffusion, start..a);
        if b > a {
            let pass = Pass {
                grid,
                diffusion: &self.diffusion,
                input: self.front.values(),
                rows: a / w..b / w,
                steps: 1,
                seeds: &[],
                clean: false,
                zeroed: false,
            };
            if self.scratch.is_empty() {
                self.scratch.push(Scratch::default());
            }
            dispatch::run(&pass, &mut self.back.values_mut()[a..b], &mut self.scratch[0]);
        }
        generic_cells(grid, self.front.values(), self.back.values_mut(), &self.diffusion, b..end);
    }

    /// `n` whole fused steps from a step boundary, each after writing the checked `seeds`
    /// (`summary` of them), in up to `bands` bands of rows (in parallel with rayon).
    fn passes(&mut self, grid: &Grid, n: usize, seeds: &[Seed], summary: &Seeds, bands: usize) {
        self.begin(grid);
        self.sorted.clear();
        // Only the steps after a pass's first read the sorted seeds (the first finds them
        // written into its input): a single step skips the sort.
        if n > 1 {
            self.sorted.extend(seeds.iter().filter(|s| grid.is_walkable(s.cell)));
            self.sorted.sort_by_key(|s| s.cell); // stable: seeds on one cell keep their order
        }
        let (w, h) = (grid.width(), grid.height());
        let per_pass = dispatch::most_fused(grid);
        // Called from outside a thread pool (an engine's main thread), sharing a pass means
        // handing it to the pool and waiting: only worth it with the work to pay for that.
        #[cfg(feature = "rayon")]
        let bands = if rayon::current_thread_index().is_none() && w * h * n.min(per_pass) < PARALLEL_FROM {
            1
        } else {
            bands
        };
        // Bands of at least 16 rows: thinner ones would spend more on their halos.
        let band = h.div_ceil(bands.clamp(1, h.div_ceil(16).max(1)));
        if self.scratch.len() < h.div_ceil(band) {
            self.scratch.resize_with(h.div_ceil(band), Scratch::default);
        }
        let mut left = n;
        while left > 0 {
            let steps = left.min(per_pass);
            seed::apply(grid, self.front.values_mut(), seeds, |_| {});
            let clean;
            (clean, self.bound) = self.bound.through(steps, summary);
            // A step alone on a map beyond the L2 is written over its input; others into
            // the other buffer, then swapped.
            let in_place = steps == 1 && dispatch::steps_in_place(grid);
            let (out, input) = if in_place {
                let values = self.front.values_mut();
                for (i, scratch) in self.scratch.iter_mut().enumerate().take(h.div_ceil(band)) {
                    scratch.save_halo(values, w, h, &(i * band..((i + 1) * band).min(h)));
                }
                (values, None)
            } else {
                (self.back.values_mut(), Some(self.front.values()))
            };
            let diffusion = &self.diffusion;
            let sorted = &self.sorted;
            let tag = Some(grid.walls_tag());
            // Whether the walls of what the pass writes hold +0 already.
            let zeroed = self.zeroed[usize::from(!in_place)] == tag;
            let run = |(i, (out, scratch)): (usize, (&mut [f32], &mut Scratch))| {
                let rows = i * band..i * band + out.len() / w;
                match input {
                    Some(input) => {
                        let pass = Pass { grid, diffusion, input, rows, steps, seeds: sorted, clean, zeroed };
                        dispatch::run(&pass, out, scratch);
                    }
                    None => dispatch::run_in_place(
                        &InPlace { grid, diffusion, rows, clean, zeroed },
                        out,
                        scratch,
                    ),
                }
            };
            #[cfg(feature = "rayon")]
            if bands > 1 {
                use rayon::prelude::*;
                out.par_chunks_mut(band * w).zip(self.scratch.par_iter_mut()).enumerate().for_each(run);
            } else {
                out.chunks_mut(band * w).zip(self.scratch.iter_mut()).enumerate().for_each(run);
            }
            #[cfg(not(feature = "rayon"))]
            out.chunks_mut(band * w).zip(self.scratch.iter_mut()).enumerate().for_each(run);
            // The pass wrote +0 in every wall of its output.
            if in_place {
                self.zeroed[0] = tag;
            } else {
                std::mem::swap(&mut self.front, &mut self.back);
                self.zeroed = [tag, self.zeroed[0]];
            }
            left -= steps;
        }
    }

    fn check_len(&self, len: usize) {
        assert_eq!(len, self.front.len(), "propagator was not made for this space");
    }

    /// Before a new step: after the map was edited by hand, or on a grid whose walls are not
    /// those the map's walls were last cleared for (cells blocked since, or another grid),
    /// clears its blocked cells, and on a grid, then or when the bound is due again
    /// ([`Bound::wants_scan`]), finds the bound in the same pass. Other spaces run the
    /// generic rule, which needs no bound.
    fn begin<S: Space>(&mut self, space: &S) {
        if self.cursor != 0 {
            return;
        }
        let values = self.front.values_mut();
        match space.as_grid() {
            Some(grid)
                if self.dirty || self.bound.wants_scan() || self.zeroed[0] != Some(grid.walls_tag()) =>
            {
                self.bound = Bound::of_cleared(values, grid.blocked());
                self.zeroed[0] = Some(grid.walls_tag());
            }
            None if self.dirty => {
                for (i, v) in values.iter_mut().enumerate() {
                    if !space.is_walkable(i) {
                        *v = 0.0;
                    }
                }
                // Found by the next step on a grid.
                self.bound = Bound::Unknown;
            }
            _ => return,
        }
        self.dirty = false;
    }

    /// Records progress; swaps the buffers when the step is complete.
    fn advance(&mut self, cursor: usize) -> bool {
        if cursor < self.front.len() {
            self.cursor = cursor;
            return false;
        }
        std::mem::swap(&mut self.front, &mut self.back);
        self.zeroed.swap(0, 1);
        self.cursor = 0;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::Connectivity;
    use crate::Cell;

    fn corridor(len: usize) -> Grid {
        Grid::new(len, 1).unwrap().with_connectivity(Connectivity::Four)
    }

    /// A grid's two buffers lie apart within 4 KiB (half a page for rows a multiple of 4 KiB
    /// long, which would otherwise fall together), on cache lines, and a clone keeps them so
    /// with the same values.
    #[test]
    fn the_buffers_lie_apart_and_a_clone_keeps_them_so() {
        let offset = |p: &Propagator| apart::offset(p.back.values().as_ptr(), p.front.values().as_ptr());
        for (width, at) in [(1024, 2048), (256, 512), (100, apart::clear_of(&[0], 100))] {
            let grid = Grid::new(width, 8).unwrap();
            let mut p = Propagator::new(&grid, Diffusion::new(0.3, 0.5).unwrap());
            assert_eq!(offset(&p), at, "{width}");
            assert_eq!(p.back.values().as_ptr() as usize % 64, 0);
            p.write_seeds(&grid, &[Seed::new(3, 1.0)]).unwrap();
            p.step(&grid, Steps::default()).unwrap();
            let q = p.clone();
            assert_eq!(offset(&q), offset(&p));
            assert_eq!((q.front.values(), q.back.values()), (p.front.values(), p.back.values()));
        }
    }

    #[test]
    fn momentum_one_gives_exact_exponentials_after_k_steps() {
        let grid = corridor(8);
        let d = Diffusion::new(0.3, 1.0).unwrap().with_threshold(0.0).unwrap();
        let f = (-0.3f32).exp();
        let mut p = Propagator::new(&grid, d);
        for k in 1..=5 {
            p.write_seeds(&grid, &[Seed::new(0, 2.0)]).unwrap();
            p.step(&grid, Steps::default()).unwrap();
            let mut expect = 2.0f32;
            for j in 1..8 {
                expect *= f;
                // The value j cells away is 2·f^j once the front has got there, 0 before.
                let want = if j <= k { expect } else { 0.0 };
                assert_eq!(p.values()[j], want, "step {k}, cell {j}");
                assert!((want - if j <= k { 2.0 * (-0.3 * j as f32).exp() } else { 0.0 }).abs() < 1e-6);
            }
        }
    }

    #[test]
    fn a_wall_stops_diffusion_and_blocked_cells_stay_zero() {
        let grid = Grid::from_rows(&["..@..", "..@..", "..@.."]).unwrap();
        let mut p = Propagator::new(&grid, Diffusion::new(0.1, 0.5).unwrap());
        for _ in 0..50 {
            p.write_seeds(&grid, &[Seed::new(grid.index(Cell::new(0, 1)).unwrap(), 5.0)]).unwrap();
            p.step(&grid, Steps::default()).unwrap();
        }
        for y in 0..3 {
            assert!(p.values()[grid.index(Cell::new(1, y)).unwrap()] > 1.0);
            for x in 2..5 {
                assert_eq!(p.values()[grid.index(Cell::new(x, y)).unwrap()], 0.0);
            }
        }
    }

    #[test]
    fn values_never_exceed_the_strongest_source() {
        let grid = Grid::from_rows(&["......", ".@@...", "....@.", "......"]).unwrap();
        let mut p = Propagator::new(&grid, Diffusion::new(0.05, 0.8).unwrap());
        let seeds = [Seed::new(0, 3.0), Seed::new(23, 4.0), Seed::new(9, 1.0)];
        for _ in 0..100 {
            p.write_seeds(&grid, &seeds).unwrap();
            p.step(&grid, Steps::default()).unwrap();
            assert!(p.values().values().iter().all(|&v| (0.0..=4.0).contains(&v)));
        }
        assert!(p.values()[22] > 3.5);
    }

    #[test]
    fn hand_edits_in_blocked_cells_are_cleared_before_the_next_step() {
        let mut grid = corridor(3);
        let mut p = Propagator::new(&grid, Diffusion::new(0.0, 1.0).unwrap());
        p.values_mut()[0] = 1.0;
        grid.set_blocked(Cell::new(1, 0), true).unwrap();
        p.values_mut()[1] = 7.0; // a value in a wall must not leak
        p.step(&grid, Steps::default()).unwrap();
        assert_eq!(p.values().values(), &[0.0, 0.0, 0.0]);
    }

    #[test]
    fn sliced_steps_equal_whole_steps_bit_for_bit() {
        let grid = Grid::from_rows(&["........", "..@@....", "......@.", "........", ".@......"]).unwrap();
        let d = Diffusion::new(0.2, 0.6).unwrap();
        let seeds = [Seed::new(0, 2.0), Seed::new(30, 1.5)];
        let mut whole = Propagator::new(&grid, d);
        let mut sliced = Propagator::new(&grid, d);
        for frame in 0..40 {
            if !sliced.is_stepping() {
                sliced.write_seeds(&grid, &seeds).unwrap();
            }
            let budget = if frame % 3 == 0 { 7 } else { 2 * grid.width() };
            let done = sliced.step(&grid, Steps { budget, ..Steps::default() }).unwrap();
            if done {
                whole.write_seeds(&grid, &seeds).unwrap();
                whole.step(&grid, Steps::default()).unwrap();
                assert_eq!(whole.values(), sliced.values(), "frame {frame}");
            }
        }
        assert!(whole.values()[1] > 0.0);
    }

    #[test]
    fn the_parallel_flag_gives_the_same_bits_with_or_without_rayon() {
        // 512 × 256 cells: work enough to be shared from this thread (PARALLEL_FROM) even a
        // step a pass, as the AVX-512 kernel takes them on a map this size (`most_fused`).
        let grid = Grid::new(512, 256).unwrap();
        let d = Diffusion::new(0.2, 0.6).unwrap();
        let seeds = [Seed::new(0, 2.0), Seed::new(300, 1.5)];
        let (mut one, mut par) = (Propagator::new(&grid, d), Propagator::new(&grid, d));
        one.step(&grid, Steps { count: 20, seeds: &seeds, ..Steps::default() }).unwrap();
        par.step(&grid, Steps { count: 20, seeds: &seeds, parallel: true, ..Steps::default() }).unwrap();
        assert_eq!(one.values(), par.values());
        assert!(one.values()[301] > 0.0);
    }
}
