//! The double-buffered diffusion state, with whole or time-sliced steps.

use super::diffuse::{generic_cells, Diffusion};
use super::dispatch;
use super::fused::{max_fused, Pass, Scratch};
use super::seed::{self, Seed};
use crate::error::Error;
use crate::layer::Layer;
use crate::source::Source;
use crate::space::{Grid, Space};
use crate::stamp::Stamper;

/// One layer that diffuses: two buffers, the step reading one and writing the other, then
/// swapping them — never copying ("The Core Mechanics of Influence Mapping": double
/// buffering keeps the result independent of the order cells are visited in).
///
/// Each frame: write the sources into the current map ([`write_seeds`](Self::write_seeds)
/// or [`stamp`](Self::stamp)), then step ([`step`](Self::step) on any space,
/// [`step_grid`](Self::step_grid) on a grid, bit-identical and faster) — or do several steps
/// at once with [`steps_grid`](Self::steps_grid), which writes the seeds before each. The
/// grid kernels keep a few rows of scratch, sized on first use; nothing else allocates
/// after construction.
///
/// A step can be spread over several frames ([`step_sliced`](Self::step_sliced),
/// [`step_grid_sliced`](Self::step_grid_sliced)); the finished step is bit-identical to one
/// done at once, and [`values`](Self::values) keeps showing the last complete map meanwhile.
/// Write sources only between steps ([`is_stepping`](Self::is_stepping) is `false`): a write
/// during a sliced step reaches only the cells not yet computed.
///
/// ```
/// use influence::{propagate::{Diffusion, Propagator, Seed}, Grid};
/// let grid = Grid::from_rows(&["....", ".@@.", "...."])?;
/// let mut p = Propagator::new(&grid, Diffusion::new(0.5, 1.0)?);
/// for _ in 0..3 {
///     p.write_seeds(&grid, &[Seed::new(0, 1.0)])?;
///     p.step_grid(&grid);
/// }
/// assert_eq!(p.values()[1], (-0.5f32).exp()); // one cell away
/// assert_eq!(p.values()[5], 0.0); // blocked
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Propagator {
    diffusion: Diffusion,
    front: Layer,
    back: Layer,
    /// Cells of `back` computed by the step in progress; 0 when none is.
    cursor: usize,
    /// The front may hold values in blocked cells (after `values_mut`).
    dirty: bool,
    /// Ring rows of the grid kernel, one set per band of rows.
    scratch: Vec<Scratch>,
    /// The walkable seeds of [`steps_grid`](Self::steps_grid), sorted by cell.
    sorted: Vec<Seed>,
}

impl Propagator {
    /// Zeroed buffers for `space`.
    pub fn new(space: &impl Space, diffusion: Diffusion) -> Self {
        let front = Layer::for_space(space);
        Self {
            diffusion,
            back: front.clone(),
            front,
            cursor: 0,
            dirty: false,
            scratch: Vec::new(),
            sorted: Vec::new(),
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

    /// The current map, to edit by hand. Values left in blocked cells are cleared before
    /// the next step.
    pub fn values_mut(&mut self) -> &mut Layer {
        self.dirty = true;
        &mut self.front
    }

    /// Bytes this propagator holds on the heap: its two layers (8 bytes a cell), the sorted
    /// seeds of [`steps_grid`](Self::steps_grid), and the grid kernels' ring rows once a grid
    /// step has run (one set per band of rows; each set at most about
    /// `16 × width × fused steps` bytes, and the fused steps are capped so that this stays
    /// within about 1 MiB, or `32 × width` bytes on grids wider than 32768 cells).
    ///
    /// ```
    /// use influence::{propagate::{Diffusion, Propagator}, Grid};
    /// let p = Propagator::new(&Grid::new(100, 100)?, Diffusion::new(0.5, 1.0)?);
    /// assert_eq!(p.heap_bytes(), 2 * 4 * 100 * 100);
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
    }

    /// Whether a sliced step has started and not finished.
    pub fn is_stepping(&self) -> bool {
        self.cursor > 0
    }

    /// Call after blocking cells of the space: their values are cleared before the next
    /// step, so influence does not leak through new walls.
    pub fn walls_changed(&mut self) {
        self.dirty = true;
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
        Ok(())
    }

    /// Stamps grid sources into the current map with `stamper` (a [`Falloff::Point`]
    /// source writes its strength into its own cell, the model of "Influence Maps: Part 1";
    /// other falloffs write their footprint).
    ///
    /// [`Falloff::Point`]: crate::Falloff::Point
    ///
    /// # Panics
    /// If the propagator was made for a space of another size.
    pub fn stamp(&mut self, grid: &Grid, stamper: &mut Stamper, sources: &[Source]) {
        self.check_len(grid.len());
        stamper.stamp_all(grid, &mut self.front, sources);
    }

    /// One whole step over any space, with the generic rule (finishing a sliced step if
    /// one is in progress).
    ///
    /// # Panics
    /// If the propagator was made for a space of another size.
    pub fn step<S: Space>(&mut self, space: &S) {
        self.step_sliced(space, usize::MAX);
    }

    /// Advances the step by at most `budget` cells (at least one) with the generic rule;
    /// returns `true` when the step completed and the new map is current.
    ///
    /// # Panics
    /// If the propagator was made for a space of another size.
    pub fn step_sliced<S: Space>(&mut self, space: &S, budget: usize) -> bool {
        self.begin(space);
        let end = self.cursor.saturating_add(budget.max(1)).min(space.len());
        generic_cells(space, self.front.values(), self.back.values_mut(), &self.diffusion, self.cursor..end);
        self.advance(end)
    }

    /// One whole step on a grid with the row-wise kernel: bit-identical to [`step`](Self::step).
    ///
    /// # Panics
    /// If the propagator was made for a grid of another size.
    pub fn step_grid(&mut self, grid: &Grid) {
        self.step_grid_sliced(grid, usize::MAX);
    }

    /// Advances the step by at most `rows` grid rows (at least one) with the row-wise
    /// kernel; returns `true` when the step completed. A row left half-done by
    /// [`step_sliced`](Self::step_sliced) is finished first and counts as one.
    ///
    /// # Panics
    /// If the propagator was made for a grid of another size.
    pub fn step_grid_sliced(&mut self, grid: &Grid, rows: usize) -> bool {
        self.begin(grid);
        let w = grid.width();
        let mut budget = rows.max(1);
        if !self.cursor.is_multiple_of(w) {
            let row_end = self.cursor.next_multiple_of(w);
            generic_cells(
                grid,
                self.front.values(),
                self.back.values_mut(),
                &self.diffusion,
                self.cursor..row_end,
            );
            self.cursor = row_end;
            budget -= 1;
        }
        let first = self.cursor / w;
        let last = first.saturating_add(budget).min(grid.height());
        let pass = Pass {
            grid,
            diffusion: &self.diffusion,
            input: self.front.values(),
            rows: first..last,
            steps: 1,
            seeds: &[],
        };
        if self.scratch.is_empty() {
            self.scratch.push(Scratch::default());
        }
        dispatch::run(&pass, &mut self.back.values_mut()[first * w..last * w], &mut self.scratch[0]);
        self.advance(last * w)
    }

    /// `n` steps on a grid, each after writing `seeds` into the current map: bit-identical to
    /// `for _ in 0..n { p.write_seeds(grid, seeds)?; p.step_grid(grid) }`, and faster, since up
    /// to 16 steps share one pass over memory (see the [module docs](super#speed)). A sliced
    /// step in progress is finished first, as [`step_grid`](Self::step_grid) would; `n = 0`
    /// does nothing.
    ///
    /// ```
    /// use influence::{propagate::{Diffusion, Propagator, Seed}, Grid};
    /// let grid = Grid::from_rows(&["......", "..@@..", "......"])?;
    /// let seeds = [Seed::new(0, 1.0), Seed::new(17, 2.0)];
    /// let d = Diffusion::new(0.2, 0.5)?;
    /// let (mut fused, mut looped) = (Propagator::new(&grid, d), Propagator::new(&grid, d));
    /// fused.steps_grid(&grid, 10, &seeds)?;
    /// for _ in 0..10 {
    ///     looped.write_seeds(&grid, &seeds)?;
    ///     looped.step_grid(&grid);
    /// }
    /// assert_eq!(fused.values(), looped.values());
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`write_seeds`](Self::write_seeds); nothing is written or stepped then.
    ///
    /// # Panics
    /// If the propagator was made for a grid of another size.
    pub fn steps_grid(&mut self, grid: &Grid, n: usize, seeds: &[Seed]) -> Result<(), Error> {
        self.passes(grid, n, seeds, 1)
    }

    /// [`step_grid`](Self::step_grid) in parallel bands of rows, on the current rayon thread
    /// pool: the global one, or the one this runs in with [`rayon::ThreadPool::install`].
    /// Bit-identical to `step_grid` whatever the number of threads.
    ///
    /// # Panics
    /// If the propagator was made for a grid of another size.
    #[cfg(feature = "rayon")]
    pub fn par_step_grid(&mut self, grid: &Grid) {
        if self.is_stepping() {
            self.step_grid(grid);
        } else {
            self.passes(grid, 1, &[], rayon::current_num_threads()).expect("no seeds to refuse");
        }
    }

    /// [`steps_grid`](Self::steps_grid) in parallel bands of rows, on the current rayon
    /// thread pool (see [`par_step_grid`](Self::par_step_grid)). Bit-identical to `steps_grid`
    /// whatever the number of threads: each band recomputes the few rows beside it that its
    /// fused steps need rather than waiting for its neighbours.
    ///
    /// # Errors
    /// As [`write_seeds`](Self::write_seeds); nothing is written or stepped then.
    ///
    /// # Panics
    /// If the propagator was made for a grid of another size.
    #[cfg(feature = "rayon")]
    pub fn par_steps_grid(&mut self, grid: &Grid, n: usize, seeds: &[Seed]) -> Result<(), Error> {
        self.passes(grid, n, seeds, rayon::current_num_threads())
    }

    /// `n` fused steps in up to `bands` bands of rows (in parallel with rayon).
    fn passes(&mut self, grid: &Grid, n: usize, seeds: &[Seed], bands: usize) -> Result<(), Error> {
        self.check_len(grid.len());
        seed::check(grid.len(), seeds)?;
        if n == 0 {
            return Ok(());
        }
        if self.is_stepping() {
            self.step_grid(grid);
        }
        self.begin(grid);
        self.sorted.clear();
        self.sorted.extend(seeds.iter().filter(|s| grid.is_walkable(s.cell)));
        self.sorted.sort_by_key(|s| s.cell); // stable: seeds on one cell keep their order
        let (w, h) = (grid.width(), grid.height());
        // Bands of at least 16 rows: thinner ones would spend more on their halos.
        let band = h.div_ceil(bands.clamp(1, h.div_ceil(16).max(1)));
        if self.scratch.len() < h.div_ceil(band) {
            self.scratch.resize_with(h.div_ceil(band), Scratch::default);
        }
        let mut left = n;
        while left > 0 {
            let steps = left.min(max_fused(w));
            seed::apply(grid, self.front.values_mut(), seeds, |_| {});
            let pass = Pass {
                grid,
                diffusion: &self.diffusion,
                input: self.front.values(),
                rows: 0..0,
                steps,
                seeds: &self.sorted,
            };
            let run = |(i, (out, scratch)): (usize, (&mut [f32], &mut Scratch))| {
                let rows = i * band..i * band + out.len() / w;
                dispatch::run(&Pass { rows, ..pass.clone() }, out, scratch);
            };
            let out = self.back.values_mut();
            #[cfg(feature = "rayon")]
            if bands > 1 {
                use rayon::prelude::*;
                out.par_chunks_mut(band * w).zip(self.scratch.par_iter_mut()).enumerate().for_each(run);
            } else {
                out.chunks_mut(band * w).zip(self.scratch.iter_mut()).enumerate().for_each(run);
            }
            #[cfg(not(feature = "rayon"))]
            out.chunks_mut(band * w).zip(self.scratch.iter_mut()).enumerate().for_each(run);
            std::mem::swap(&mut self.front, &mut self.back);
            left -= steps;
        }
        Ok(())
    }

    fn check_len(&self, len: usize) {
        assert_eq!(len, self.front.len(), "propagator was not made for this space");
    }

    /// Checks the space and, before a new step, clears blocked cells if needed.
    fn begin<S: Space>(&mut self, space: &S) {
        self.check_len(space.len());
        if self.cursor == 0 && self.dirty {
            for (i, v) in self.front.values_mut().iter_mut().enumerate() {
                if !space.is_walkable(i) {
                    *v = 0.0;
                }
            }
            self.dirty = false;
        }
    }

    /// Records progress; swaps the buffers when the step is complete.
    fn advance(&mut self, cursor: usize) -> bool {
        if cursor < self.front.len() {
            self.cursor = cursor;
            return false;
        }
        std::mem::swap(&mut self.front, &mut self.back);
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

    #[test]
    fn momentum_one_gives_exact_exponentials_after_k_steps() {
        let grid = corridor(8);
        let d = Diffusion::new(0.3, 1.0).unwrap().with_threshold(0.0).unwrap();
        let f = (-0.3f32).exp();
        let mut p = Propagator::new(&grid, d);
        for k in 1..=5 {
            p.write_seeds(&grid, &[Seed::new(0, 2.0)]).unwrap();
            p.step_grid(&grid);
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
            p.step_grid(&grid);
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
            p.step_grid(&grid);
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
        p.step_grid(&grid);
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
            let done =
                if frame % 3 == 0 { sliced.step_sliced(&grid, 7) } else { sliced.step_grid_sliced(&grid, 2) };
            if done {
                whole.write_seeds(&grid, &seeds).unwrap();
                whole.step_grid(&grid);
                assert_eq!(whole.values(), sliced.values(), "frame {frame}");
            }
        }
        assert!(whole.values()[1] > 0.0);
    }
}
