//! Running a `[propagation]` with the library's `propagate` module: each team's sources
//! become the seeds of that team's own diffusing layer (stepped, or solved for the steady
//! state), or the chase flood fill heats the map from the last-seen cell.
//!
//! Sources become seeds through `seeds_from_sources`: a `point` source writes its strength
//! into its own cell, any other falloff its stamped footprint, each seed combining with the
//! spreading map by the source's mode.

use influence::glam::Vec3;
use influence::propagate::{
    seeds_from_sources, Chase, Diffusion, FloodFill, Prediction, Propagator, Seed, SteadyState,
};
use influence::{Grid, Layer, Source, Stamper};

use crate::error::CliError;
use crate::scenario::Scenario;

/// A library error met while propagating, pinned to the `[propagation]` table.
fn failed(scenario: &Scenario, e: &influence::Error) -> CliError {
    CliError::input(&scenario.file, None, Some("propagation".to_owned()), e)
}

/// Per team, the seeds its sources write (stamped on the scenario's map, as rendering would).
fn team_seeds(scenario: &Scenario) -> Vec<Vec<Seed>> {
    let mut stamper = Stamper::new();
    (0..scenario.teams.len())
        .map(|t| {
            let sources: Vec<Source> =
                scenario.sources.iter().filter(|(team, _)| *team == t).map(|(_, s)| s.clone()).collect();
            let mut seeds = Vec::new();
            seeds_from_sources(&scenario.grid, &mut stamper, &sources, &mut seeds);
            seeds
        })
        .collect()
}

/// Every team's layer diffusing, one step at a time.
#[derive(Debug)]
pub struct Diffusing {
    /// The map the step walks (the propagation's connectivity).
    grid: Grid,
    teams: Vec<(Propagator, Vec<Seed>)>,
}

impl Diffusing {
    /// Step 0: each team's seeds written into a map at rest.
    ///
    /// # Errors
    /// [`CliError::Input`] if a seed is refused (a stamped value too large for 32 bits).
    pub fn new(scenario: &Scenario, grid: Grid, diffusion: Diffusion) -> Result<Self, CliError> {
        let teams = team_seeds(scenario)
            .into_iter()
            .map(|seeds| {
                let mut p = Propagator::new(&grid, diffusion);
                p.write_seeds(&grid, &seeds).map_err(|e| failed(scenario, &e))?;
                Ok((p, seeds))
            })
            .collect::<Result<_, CliError>>()?;
        Ok(Self { grid, teams })
    }

    /// One step of every team's layer, then the seeds written again: the map after `n`
    /// calls is what `n` rounds of "write the sources, step" leave, with the sources shown.
    pub fn step(&mut self) {
        for (p, seeds) in &mut self.teams {
            p.step_grid(&self.grid);
            // The seeds were checked when first written, so they cannot be refused now.
            let _ = p.write_seeds(&self.grid, seeds);
        }
    }

    /// The teams' current layers.
    pub fn layers(&self) -> Vec<Layer> {
        self.teams.iter().map(|(p, _)| p.values().clone()).collect()
    }
}

/// Each team's steady state: where [`Diffusing`] ends up.
///
/// # Errors
/// [`CliError::Input`] if the library refuses a seed (the scenario refuses additive sources
/// before this).
pub fn steady(scenario: &Scenario, grid: &Grid, diffusion: &Diffusion) -> Result<Vec<Layer>, CliError> {
    let mut solver = SteadyState::new();
    team_seeds(scenario)
        .iter()
        .map(|seeds| {
            let mut layer = Layer::for_space(grid);
            solver.solve(grid, diffusion, seeds, &mut layer).map_err(|e| failed(scenario, &e))?;
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
/// [`CliError::Input`] if the library refuses the start (the scenario checks it first).
pub fn flood(
    scenario: &Scenario,
    grid: &Grid,
    last_seen: usize,
    velocity: Vec3,
    chase: &Chase,
) -> Result<Chased, CliError> {
    let mut fill = FloodFill::new();
    let prediction = fill.predict(grid, last_seen, velocity, chase).map_err(|e| failed(scenario, &e))?;
    Ok(Chased { heat: Layer::from_vec(fill.heat().to_vec()), prediction })
}
