//! One team's layer over time: stamped once, diffusing step by step from its sources'
//! seeds, or solved for the steady state.

use influence::propagate::{seeds_from_sources, Diffusion, Propagator, Seed, SteadyState, Steps};
use influence::{Error, Grid, Layer, Source, Stamper};

use crate::error::Located;

/// Steps a diffusing team takes between two checks for a fixed point: one compared step,
/// then the rest fused (`Propagator::step` with a `Steps::count`: up to 16 steps a pass over
/// memory).
const CHUNK: usize = 64;

/// What a team's layer is.
#[derive(Debug)]
pub(super) enum Team {
    /// Its sources stamped (no propagation, or a flood fill beside it).
    Stamped(Layer),
    /// Diffusing from its seeds.
    Diffusing(Box<Diffusing>),
    /// The steady state of its seeds.
    Solved(Layer),
    /// Zero: the library refused its seeds, for this reason.
    Failed(Layer, Located),
}

/// A team's diffusion: the map after `done` rounds of "step, write the seeds" from the seeds
/// written once into a map at rest.
#[derive(Debug)]
pub(super) struct Diffusing {
    propagator: Propagator,
    seeds: Vec<Seed>,
    done: usize,
    /// The first step that changed nothing: every later step leaves the map as it is.
    fixed_at: Option<usize>,
    /// The map before the last compared step.
    before: Layer,
}

impl Team {
    /// `sources` stamped into a layer of `grid`, in order.
    ///
    /// # Errors
    /// A source on a wall ([`Error::Unplaced`]); validation and [`Run::set_walls`](super::Run::set_walls)
    /// keep that from happening.
    pub(super) fn stamped(grid: &Grid, stamper: &mut Stamper, sources: &[&Source]) -> Result<Self, Error> {
        let mut layer = Layer::for_space(grid);
        stamper.stamp_all(grid, &mut layer, sources.iter().copied())?;
        Ok(Self::Stamped(layer))
    }

    /// The diffusion of `sources` at rest: their seeds (stamped on `grid`) written into a map
    /// that `walk` steps.
    ///
    /// # Errors
    /// If a source is on a wall, or a seed is refused (a stamped value too large for 32 bits).
    pub(super) fn diffusing(
        grid: &Grid,
        walk: &Grid,
        stamper: &mut Stamper,
        sources: &[&Source],
        diffusion: Diffusion,
    ) -> Result<Self, Error> {
        let owned: Vec<Source> = sources.iter().map(|s| (*s).clone()).collect();
        let mut seeds = Vec::new();
        seeds_from_sources(grid, stamper, &owned, &mut seeds)?;
        let mut propagator = Propagator::new(walk, diffusion);
        propagator.write_seeds(walk, &seeds)?;
        Ok(Self::Diffusing(Box::new(Diffusing {
            propagator,
            seeds,
            done: 0,
            fixed_at: None,
            before: Layer::default(),
        })))
    }

    /// The layer as it stands.
    pub(super) fn layer(&self) -> &Layer {
        match self {
            Self::Stamped(l) | Self::Solved(l) | Self::Failed(l, _) => l,
            Self::Diffusing(d) => d.propagator.values(),
        }
    }

    /// Why the team's layer is zero, if it failed.
    pub(super) fn error(&self) -> Option<&Located> {
        match self {
            Self::Failed(_, e) => Some(e),
            _ => None,
        }
    }

    /// The diffusion, if the team diffuses.
    pub(super) fn diffusing_mut(&mut self) -> Option<&mut Diffusing> {
        match self {
            Self::Diffusing(d) => Some(d),
            _ => None,
        }
    }

    /// The diffusion, if the team diffuses.
    pub(super) fn as_diffusing(&self) -> Option<&Diffusing> {
        match self {
            Self::Diffusing(d) => Some(d),
            _ => None,
        }
    }

    /// Replaces a diffusion by its steady state, solved on `walk`.
    ///
    /// # Errors
    /// If the solver refuses the seeds (additive seeds no `set` seed pins).
    pub(super) fn solve(&mut self, walk: &Grid, solver: &mut SteadyState) -> Result<(), Error> {
        if let Self::Diffusing(d) = self {
            let mut layer = Layer::for_space(walk);
            solver.solve(walk, d.propagator.diffusion(), &d.seeds, &mut layer)?;
            *self = Self::Solved(layer);
        }
        Ok(())
    }
}

impl Diffusing {
    /// Steps taken.
    pub(super) fn done(&self) -> usize {
        self.done
    }

    /// The first step that changed nothing, once one has.
    pub(super) fn fixed_at(&self) -> Option<usize> {
        self.fixed_at
    }

    /// Steps towards `target`, at most `allowed` of them; returns how many were taken. Each
    /// step is "step on `walk`, write the seeds again"; `exact` compares every step with the
    /// map before it (to find the very step that changes nothing), otherwise one step in
    /// [`CHUNK`] is compared and the others run fused, with the same bits. Once a step
    /// changes nothing the team is at `target` at once.
    pub(super) fn advance(&mut self, walk: &Grid, target: usize, allowed: usize, exact: bool) -> usize {
        let mut taken = 0;
        while self.done < target && taken < allowed {
            if self.fixed_at.is_some() {
                self.done = target;
                break;
            }
            // A compared step.
            if self.before.len() != self.propagator.values().len() {
                self.before = Layer::for_space(walk);
            }
            self.before.values_mut().copy_from_slice(self.propagator.values().values());
            self.step(walk);
            self.done += 1;
            taken += 1;
            if same_bits(&self.before, self.propagator.values()) {
                self.fixed_at = Some(self.done);
                self.done = self.done.max(target);
                break;
            }
            if exact {
                continue;
            }
            // Then up to CHUNK - 1 steps fused: (step, write)^m = step, (write, step)^(m-1), write.
            let m = (target - self.done).min(allowed - taken).min(CHUNK - 1);
            if m > 0 {
                // The seeds were checked when first written, so they cannot be refused now.
                let _ = self.propagator.step(walk, Steps::default());
                let _ = self
                    .propagator
                    .step(walk, Steps { count: m - 1, seeds: &self.seeds, ..Steps::default() });
                let _ = self.propagator.write_seeds(walk, &self.seeds);
                self.done += m;
                taken += m;
            }
        }
        taken
    }

    /// One step, then the seeds written again.
    fn step(&mut self, walk: &Grid) {
        // The seeds were checked when first written, so they cannot be refused now.
        let _ = self.propagator.step(walk, Steps::default());
        let _ = self.propagator.write_seeds(walk, &self.seeds);
    }
}

/// Whether two layers hold the same bits.
fn same_bits(a: &Layer, b: &Layer) -> bool {
    a.values().iter().zip(b.values()).all(|(x, y)| x.to_bits() == y.to_bits())
}
