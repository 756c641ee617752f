//! The steady state: where repeated steps with fixed seeds end up, computed in one sweep.
//!
//! With the seeds written before every step and momentum > 0, the step converges to a
//! fixed point where every cell holds the best, over seeds, of the seed's strength carried
//! along a shortest-decay walkable path (`strength · exp(−decay · path length)` for
//! exponential decay, `strength − decay · path length` for linear). Values only shrink along
//! a path, so a largest-first sweep (Dijkstra's algorithm with `max` and `×` in place of
//! `min` and `+`) settles each cell once.
//!
//! Seeds combine as in the step: a [`Mode::Set`] seed pins its cell (neighbours never raise
//! it, and influence passing through it starts again from the pinned value); a
//! [`Mode::Max`] seed is a floor that stronger influence may exceed. A [`Mode::Add`] seed
//! on a cell no earlier `Set` seed pins adds to the cell's own diffused value every step —
//! a feedback loop with no best-first solution — and is refused.
//!
//! ## How exactly it matches iterating
//!
//! The sweep evaluates the same float products and maxima as the step, so with momentum 1
//! it equals the map that iterating until nothing changes gives (with the seeds written once
//! more), bit for bit. With momentum in (0, 1) the lerp `old + momentum · (m − old)` can
//! stall a few units in the last place short of `m` (the increment rounds away), and the
//! stall is carried along paths: iterating then agrees to a relative error of about
//! `path length × 2⁻²³ / momentum`; the tests use `1e-4` of the strongest seed.
//!
//! The threshold matters: a cell starts rising only if its first step from rest,
//! `rest + momentum · (m − rest)` (rest is 0, or a `Max` seed's floor), is not cut to 0.
//! So the steady state keeps a cell only when that first step survives the threshold —
//! with momentum < 1 that is stricter than `m ≥ threshold`, and cells whose `m` lies in
//! `[threshold, threshold / momentum)` stay at 0 for ever. With momentum 0 nothing moves
//! and the steady state is the seeds alone.

use super::diffuse::{settle, CoefCache, DecayKind, Diffusion, Exp, Lin, Rule};
use super::seed::{self, Seed};
use crate::error::Error;
use crate::layer::Layer;
use crate::paths::BestFirst;
use crate::source::Mode;
use crate::space::Space;

/// Reusable scratch for [`SteadyState::solve`]; after the first call on a space, solving
/// again allocates nothing.
///
/// ```
/// use influence::{propagate::{Diffusion, Seed, SteadyState}, Grid, Layer, Mode};
/// let grid = Grid::from_rows(&["....."])?;
/// let mut out = Layer::for_space(&grid);
/// let d = Diffusion::new(0.1, 1.0)?;
/// SteadyState::new().solve(&grid, &d, &[Seed::new(0, 1.0), Seed::new(4, 2.0)], &mut out)?;
/// let f = (-0.1f32).exp();
/// // The stronger seed wins next to the weaker one, which stays pinned at 1.
/// assert_eq!(out.values(), &[1.0, 2.0 * f * f * f, 2.0 * f * f, 2.0 * f, 2.0]);
/// // A floor (Max) seed is raised by the stronger one.
/// let floor = Seed::new(0, 1.0).with_mode(Mode::Max);
/// SteadyState::new().solve(&grid, &d, &[floor, Seed::new(4, 2.0)], &mut out)?;
/// assert_eq!(out[0], 2.0 * f * f * f * f);
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Default, Clone)]
pub struct SteadyState {
    sweep: BestFirst,
    /// Equal to `generation` for cells with a seed this solve.
    seeded: Vec<u32>,
    pinned: Vec<bool>,
    /// The pinned value, or the floor of `Max` seeds (−∞ when none).
    value: Vec<f32>,
    generation: u32,
    cells: Vec<usize>,
}

impl SteadyState {
    /// Empty scratch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes into `out` the fixed point of writing `seeds` and stepping with `diffusion`,
    /// as the map looks right after the seeds are written (so seed cells show their seeds).
    ///
    /// # Errors
    /// [`Error::OutOfBounds`] or [`Error::BadNumber`] for a bad seed, and
    /// [`Error::NoSteadyState`] for an additive seed on a cell no `Set` seed pins; `out`
    /// is unchanged then.
    ///
    /// # Panics
    /// If `out` was not made for `space`.
    pub fn solve<S: Space>(
        &mut self,
        space: &S,
        diffusion: &Diffusion,
        seeds: &[Seed],
        out: &mut Layer,
    ) -> Result<(), Error> {
        assert_eq!(out.len(), space.len(), "layer was not made for this space");
        seed::check(space.len(), seeds)?;
        self.classify(space, seeds)?;
        match diffusion.kind() {
            DecayKind::Exponential => self.sweep::<S, Exp>(space, diffusion, out),
            DecayKind::Linear => self.sweep::<S, Lin>(space, diffusion, out),
        }
        Ok(())
    }

    /// Folds the seeds of each cell, in order, into a pinned value or a floor.
    fn classify<S: Space>(&mut self, space: &S, seeds: &[Seed]) -> Result<(), Error> {
        let len = space.len();
        if self.seeded.len() != len || self.generation == u32::MAX {
            self.seeded = vec![0; len];
            self.pinned = vec![false; len];
            self.value = vec![0.0; len];
            self.generation = 0;
        }
        self.generation += 1;
        self.cells.clear();
        for s in seeds.iter().filter(|s| space.is_walkable(s.cell)) {
            let c = s.cell;
            if self.seeded[c] != self.generation {
                self.seeded[c] = self.generation;
                self.pinned[c] = false;
                self.value[c] = f32::NEG_INFINITY;
                self.cells.push(c);
            }
            match s.mode {
                Mode::Set => (self.pinned[c], self.value[c]) = (true, s.strength),
                Mode::Max => self.value[c] = self.value[c].max(s.strength),
                Mode::Add if self.pinned[c] => self.value[c] += s.strength,
                Mode::Add => return Err(Error::NoSteadyState { index: c }),
            }
        }
        Ok(())
    }

    fn sweep<S: Space, R: Rule>(&mut self, space: &S, d: &Diffusion, out: &mut Layer) {
        let Self { sweep, seeded, pinned, value, generation, cells } = self;
        let g = *generation;
        sweep.begin(space.len());
        for &c in cells.iter() {
            if pinned[c] || value[c] > 0.0 {
                sweep.offer(c, value[c]);
            }
        }
        // What a cell holds before influence reaches it: 0, or its floor.
        let rest = |c: usize| if seeded[c] == g && !pinned[c] { value[c].max(0.0) } else { 0.0 };
        let (momentum, threshold) = (d.momentum(), d.threshold());
        let mut cache = CoefCache::new();
        let values = out.values_mut();
        values.fill(0.0);
        sweep.run(
            space,
            |cell, v| values[cell] = v,
            |_, v, next, dist| {
                let carried = R::carry(v, cache.get::<R>(d.decay(), dist));
                let pinned_next = seeded[next] == g && pinned[next];
                let rises = carried > 0.0 && settle(rest(next), carried, momentum, threshold) != 0.0;
                (!pinned_next && rises).then_some(carried)
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::{Connectivity, Grid};

    fn corridor(n: usize) -> Grid {
        Grid::new(n, 1).unwrap().with_connectivity(Connectivity::Four)
    }

    #[test]
    fn pinned_seeds_block_stronger_influence_and_floors_let_it_through() {
        let grid = corridor(5);
        let d = Diffusion::new(0.0, 1.0).unwrap().with_kind(DecayKind::Linear);
        let mut out = Layer::for_space(&grid);
        let mut s = SteadyState::new();
        s.solve(&grid, &d, &[Seed::new(0, 5.0), Seed::new(2, 1.0)], &mut out).unwrap();
        assert_eq!(out.values(), &[5.0, 5.0, 1.0, 1.0, 1.0]);
        s.solve(&grid, &d, &[Seed::new(0, 5.0), Seed::new(2, 1.0).with_mode(Mode::Max)], &mut out).unwrap();
        assert_eq!(out.values(), &[5.0; 5]);
    }

    #[test]
    fn linear_decay_reaches_zero_at_strength_over_decay() {
        let grid = corridor(6);
        let d = Diffusion::new(1.0, 1.0).unwrap().with_kind(DecayKind::Linear);
        let mut out = Layer::for_space(&grid);
        SteadyState::new().solve(&grid, &d, &[Seed::new(0, 3.0)], &mut out).unwrap();
        assert_eq!(out.values(), &[3.0, 2.0, 1.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn additive_seeds_need_a_pin() {
        let grid = corridor(3);
        let d = Diffusion::new(1.0, 1.0).unwrap();
        let mut out = Layer::from_vec(vec![7.0; 3]);
        let add = Seed::new(1, 1.0).with_mode(Mode::Add);
        let err = SteadyState::new().solve(&grid, &d, &[add], &mut out).unwrap_err();
        assert_eq!(err, Error::NoSteadyState { index: 1 });
        assert_eq!(out.values(), &[7.0; 3]);
        SteadyState::new().solve(&grid, &d, &[Seed::new(1, 2.0), add], &mut out).unwrap();
        assert_eq!(out[1], 3.0);
    }

    #[test]
    fn low_momentum_cuts_cells_below_threshold_over_momentum() {
        let grid = corridor(4);
        let d = Diffusion::new(0.0, 0.5).unwrap().with_kind(DecayKind::Linear).with_threshold(1.5).unwrap();
        let mut out = Layer::for_space(&grid);
        // m = 2 next to the seed: the first step from 0 gives 1 < 1.5, so it never rises.
        SteadyState::new().solve(&grid, &d, &[Seed::new(0, 2.0)], &mut out).unwrap();
        assert_eq!(out.values(), &[2.0, 0.0, 0.0, 0.0]);
        SteadyState::new().solve(&grid, &d, &[Seed::new(0, 3.0)], &mut out).unwrap();
        assert_eq!(out.values(), &[3.0; 4]);
    }
}
