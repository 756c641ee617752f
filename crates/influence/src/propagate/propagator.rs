//! The double-buffered diffusion state, with whole or time-sliced steps.

use super::diffuse::{generic_cells, Diffusion};
use super::grid_kernel::grid_rows;
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
/// [`step_grid`](Self::step_grid) on a grid, bit-identical and faster). Nothing allocates
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
}

impl Propagator {
    /// Zeroed buffers for `space`.
    pub fn new(space: &impl Space, diffusion: Diffusion) -> Self {
        let front = Layer::for_space(space);
        Self { diffusion, back: front.clone(), front, cursor: 0, dirty: false }
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
        if self.cursor % w != 0 {
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
        grid_rows(grid, self.front.values(), self.back.values_mut(), &self.diffusion, first..last);
        self.advance(last * w)
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
            p.write_seeds(&grid, &[Seed::new(grid.index(0, 1).unwrap(), 5.0)]).unwrap();
            p.step_grid(&grid);
        }
        for y in 0..3 {
            assert!(p.values()[grid.index(1, y).unwrap()] > 1.0);
            for x in 2..5 {
                assert_eq!(p.values()[grid.index(x, y).unwrap()], 0.0);
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
        grid.set_blocked(1, 0, true).unwrap();
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
