//! Running a `[propagation]` with the library's `propagate` module, for any front end: each
//! team's sources become the seeds of that team's own diffusing layer (stepped, or solved for
//! the steady state), or the chase flood fill heats the map from the last-seen cell; without
//! a propagation, each team's sources are stamped.
//!
//! Sources become seeds through `seeds_from_sources`: a `point` source writes its strength
//! into its own cell, any other falloff its stamped footprint, each seed combining with the
//! spreading map by the source's mode. Seeds are stamped on the scenario's map; the
//! propagation walks that map with its own `neighbours` ([`Propagation::grid`]).
//!
//! [`Propagation::grid`]: crate::propagation::Propagation::grid

use influence::glam::Vec3;
use influence::propagate::{
    seeds_from_sources, Chase, Diffusion, FloodFill, Prediction, Propagator, Seed, SteadyState,
};
use influence::{Error, Grid, Layer, Source, Stamper};

/// Per team (`0..teams`), the seeds its sources write, stamped on `grid`; `sources` pairs each
/// source with its team's index, in file order.
pub fn team_seeds<'a>(
    grid: &Grid,
    teams: usize,
    sources: impl IntoIterator<Item = (usize, &'a Source)>,
) -> Vec<Vec<Seed>> {
    let mut per_team: Vec<Vec<Source>> = vec![Vec::new(); teams];
    for (team, source) in sources {
        per_team[team].push(source.clone());
    }
    let mut stamper = Stamper::new();
    per_team
        .iter()
        .map(|sources| {
            let mut seeds = Vec::new();
            seeds_from_sources(grid, &mut stamper, sources, &mut seeds);
            seeds
        })
        .collect()
}

/// Per team (`0..teams`), its sources stamped into a layer of `grid`, in file order.
pub fn stamped<'a>(
    grid: &Grid,
    teams: usize,
    sources: impl IntoIterator<Item = (usize, &'a Source)>,
) -> Vec<Layer> {
    let mut layers = vec![Layer::for_space(grid); teams];
    let mut stamper = Stamper::new();
    for (team, source) in sources {
        stamper.stamp(grid, &mut layers[team], source);
    }
    layers
}

/// Every team's layer diffusing, one step at a time.
#[derive(Debug)]
pub struct Diffusing {
    /// The map the step walks (the propagation's connectivity).
    grid: Grid,
    teams: Vec<(Propagator, Vec<Seed>)>,
    /// The values before a step, for [`Diffusing::step_changed`] (empty until then).
    scratch: Layer,
}

impl Diffusing {
    /// Step 0: each team's seeds written into a map at rest.
    ///
    /// # Errors
    /// If a seed is refused (a stamped value too large for 32 bits).
    pub fn new(grid: Grid, diffusion: Diffusion, seeds: Vec<Vec<Seed>>) -> Result<Self, Error> {
        let teams = seeds
            .into_iter()
            .map(|seeds| {
                let mut p = Propagator::new(&grid, diffusion);
                p.write_seeds(&grid, &seeds)?;
                Ok((p, seeds))
            })
            .collect::<Result<_, Error>>()?;
        Ok(Self { grid, teams, scratch: Layer::default() })
    }

    /// One step of every team's layer, then the seeds written again: the map after `n`
    /// calls is what `n` rounds of "write the sources, step" leave, with the sources shown.
    pub fn step(&mut self) {
        for (p, seeds) in &mut self.teams {
            step(&self.grid, p, seeds);
        }
    }

    /// [`step`](Self::step), telling whether any value changed, bit for bit: once none does,
    /// every later step leaves the layers as they are.
    pub fn step_changed(&mut self) -> bool {
        if self.scratch.len() != self.grid.len() {
            self.scratch = Layer::for_space(&self.grid);
        }
        let mut changed = false;
        for (p, seeds) in &mut self.teams {
            self.scratch.copy_from(p.values());
            step(&self.grid, p, seeds);
            let same = self
                .scratch
                .values()
                .iter()
                .zip(p.values().values())
                .all(|(a, b)| a.to_bits() == b.to_bits());
            changed |= !same;
        }
        changed
    }

    /// Team `t`'s current layer.
    pub fn layer(&self, t: usize) -> &Layer {
        self.teams[t].0.values()
    }

    /// How many teams diffuse.
    pub fn teams(&self) -> usize {
        self.teams.len()
    }

    /// The teams' current layers.
    pub fn layers(&self) -> Vec<Layer> {
        self.teams.iter().map(|(p, _)| p.values().clone()).collect()
    }
}

/// One step of `p` on `grid`, then its seeds written again.
fn step(grid: &Grid, p: &mut Propagator, seeds: &[Seed]) {
    p.step_grid(grid);
    // The seeds were checked when first written, so they cannot be refused now.
    let _ = p.write_seeds(grid, seeds);
}

/// Each team's steady state on `grid` from its `seeds`: where [`Diffusing`] ends up.
///
/// # Errors
/// If the library refuses a seed (the scenario refuses additive sources before this).
pub fn steady(grid: &Grid, diffusion: &Diffusion, seeds: &[Vec<Seed>]) -> Result<Vec<Layer>, Error> {
    let mut solver = SteadyState::new();
    seeds
        .iter()
        .map(|seeds| {
            let mut layer = Layer::for_space(grid);
            solver.solve(grid, diffusion, seeds, &mut layer)?;
            Ok(layer)
        })
        .collect()
}

/// The chase flood fill's outcome.
#[derive(Debug, Clone)]
pub struct Chased {
    /// Heat per cell at the end.
    pub heat: Layer,
    /// The guess.
    pub prediction: Prediction,
}

/// The flood fill from `last_seen` on `grid`.
///
/// # Errors
/// If the library refuses the start (the scenario checks it first).
pub fn flood(grid: &Grid, last_seen: usize, velocity: Vec3, chase: &Chase) -> Result<Chased, Error> {
    let mut fill = FloodFill::new();
    let prediction = fill.predict(grid, last_seen, velocity, chase)?;
    Ok(Chased { heat: Layer::from_vec(fill.heat().to_vec()), prediction })
}
