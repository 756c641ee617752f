//! Sparse diffusion: the step visiting only influenced cells and their neighbours.
//!
//! Tayebi ("Influence Maps in Game AI") speeds up diffusion on big navigation graphs by
//! updating only the vertices that hold influence and their neighbours, dropping values
//! below a threshold. Here the influenced cells are kept in an active list; candidates are
//! deduplicated with a generation-stamped marker per cell (no hashing, nothing to clear),
//! and each candidate is computed by the same rule as the dense step, so the result is the
//! dense step's bit for bit. A cell that is 0 with only 0 around it stays 0 under the rule,
//! which is why skipping every other cell is exact.

use super::diffuse::{cell_value, CoefCache, DecayKind, Diffusion, Exp, Lin, Rule};
use super::seed::{self, Seed};
use crate::error::Error;
use crate::layer::Layer;
use crate::space::Space;

/// A diffusing layer that costs time in proportion to its influenced area, not the map.
///
/// Both buffers are kept with a list of the cells that may be non-zero in each; a step
/// clears the stale buffer at its listed cells, computes every listed cell of the current
/// buffer and each of their neighbours, lists the non-zero results, and swaps. After
/// warm-up (the lists have grown to the influenced area) nothing allocates.
///
/// ```
/// use influence::{propagate::{Diffusion, Seed, SparsePropagator}, Cell, Grid};
/// let grid = Grid::new(1000, 1000)?;
/// let mut p = SparsePropagator::new(&grid, Diffusion::new(2.0, 1.0)?);
/// for _ in 0..3 {
///     p.write_seeds(&grid, &[Seed::new(grid.index(Cell::new(500, 500)).unwrap(), 1.0)])?;
///     p.step(&grid);
/// }
/// assert!(p.active() < 50); // a few cells around the seed, out of a million
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SparsePropagator {
    diffusion: Diffusion,
    front: Layer,
    back: Layer,
    /// Cells that may be non-zero in `front` (duplicates allowed).
    front_cells: Vec<usize>,
    /// Cells that may be non-zero in `back`.
    back_cells: Vec<usize>,
    candidates: Vec<usize>,
    marks: Vec<u32>,
    generation: u32,
}

impl SparsePropagator {
    /// Zeroed buffers for `space`.
    pub fn new(space: &impl Space, diffusion: Diffusion) -> Self {
        let front = Layer::for_space(space);
        Self {
            diffusion,
            back: front.clone(),
            marks: vec![0; front.len()],
            front,
            front_cells: Vec::new(),
            back_cells: Vec::new(),
            candidates: Vec::new(),
            generation: 0,
        }
    }

    /// The current map.
    pub fn values(&self) -> &Layer {
        &self.front
    }

    /// How many cells the current map lists as influenced (an upper bound on the non-zero
    /// cells; the next step visits these and their neighbours).
    pub fn active(&self) -> usize {
        self.front_cells.len()
    }

    /// Zeroes the map.
    pub fn clear(&mut self) {
        for &c in self.front_cells.iter().chain(&self.back_cells) {
            self.front[c] = 0.0;
            self.back[c] = 0.0;
        }
        self.front_cells.clear();
        self.back_cells.clear();
    }

    /// Writes seeds into the current map, in order (blocked cells are skipped).
    ///
    /// # Errors
    /// [`Error::OutOfBounds`] or [`Error::BadNumber`] for a bad seed; nothing is written.
    ///
    /// # Panics
    /// If the propagator was made for a space of another size.
    pub fn write_seeds<S: Space>(&mut self, space: &S, seeds: &[Seed]) -> Result<(), Error> {
        assert_eq!(space.len(), self.front.len(), "propagator was not made for this space");
        seed::check(space.len(), seeds)?;
        let cells = &mut self.front_cells;
        seed::apply(space, self.front.values_mut(), seeds, |c| cells.push(c));
        Ok(())
    }

    /// One step: bit-identical to a [`Propagator::step`](super::Propagator::step) on the
    /// same map.
    ///
    /// # Panics
    /// If the propagator was made for a space of another size.
    pub fn step<S: Space>(&mut self, space: &S) {
        assert_eq!(space.len(), self.front.len(), "propagator was not made for this space");
        for &c in &self.back_cells {
            self.back[c] = 0.0;
        }
        self.back_cells.clear();
        self.collect_candidates(space);
        match self.diffusion.kind() {
            DecayKind::Exponential => self.compute::<S, Exp>(space),
            DecayKind::Linear => self.compute::<S, Lin>(space),
        }
        std::mem::swap(&mut self.front, &mut self.back);
        std::mem::swap(&mut self.front_cells, &mut self.back_cells);
    }

    /// The listed cells of the current map and their walkable neighbours, each once.
    fn collect_candidates<S: Space>(&mut self, space: &S) {
        if self.generation == u32::MAX {
            self.marks.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
        let Self { front_cells, candidates, marks, generation, .. } = self;
        let g = *generation;
        candidates.clear();
        let mut add = |c: usize| {
            if marks[c] != g {
                marks[c] = g;
                candidates.push(c);
            }
        };
        for &c in front_cells.iter() {
            add(c);
            if space.is_walkable(c) {
                space.for_each_neighbour(c, |j, _| add(j));
            }
        }
    }

    fn compute<S: Space, R: Rule>(&mut self, space: &S) {
        let mut cache = CoefCache::new();
        let (prev, next) = (self.front.values(), self.back.values_mut());
        for &c in &self.candidates {
            let v = cell_value::<S, R>(space, prev, c, &self.diffusion, &mut cache);
            next[c] = v;
            // Anything but +0 is listed, so the buffer is exactly +0 everywhere unlisted.
            if v.to_bits() != 0 {
                self.back_cells.push(c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Propagator;
    use super::*;
    use crate::space::Grid;

    #[test]
    fn equals_the_dense_step_as_influence_grows_and_dies() {
        let grid = Grid::from_rows(&["..........", "...@@.....", ".......@..", ".........."]).unwrap();
        let d = Diffusion::new(0.6, 0.7).unwrap();
        let (mut sparse, mut dense) = (SparsePropagator::new(&grid, d), Propagator::new(&grid, d));
        for step in 0..60 {
            if step < 20 {
                let seeds = [Seed::new(11, 2.0), Seed::new(38, 1.0)];
                sparse.write_seeds(&grid, &seeds).unwrap();
                dense.write_seeds(&grid, &seeds).unwrap();
            }
            sparse.step(&grid);
            dense.step(&grid, super::super::Steps::default()).unwrap();
            let bits = |l: &Layer| l.values().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(sparse.values()), bits(dense.values()), "step {step}");
        }
        // Without sources the influence decays below the threshold and the list empties.
        assert_eq!(sparse.active(), 0);
    }
}
