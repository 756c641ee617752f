//! The states of a `[propagation]` over time, for `influence animate`: frame `i` is the
//! state after `i · every` steps. Diffusion is stepped on; the steady state is shown as the
//! diffusion step iterated from rest until it stops changing; the flood fill is run again
//! for each frame with its step limit set to the frame's step (the fill does not depend on
//! the limit until it stops, so each run's heat is the fill's heat at that step).

use influence::glam::Vec3;
use influence::propagate::Chase;
use influence::{Grid, Layer};

use influence_scenario::propagation::Method;
use influence_scenario::scenario::Scenario;
use influence_scenario::spread::{self, Chased, Diffusing};

use crate::error::CliError;

/// Frames of a steady-state animation when `--frames` is not given: it ends earlier when a
/// step changes nothing.
pub const STEADY_FRAMES: usize = 200;

/// One state: the team layers, and the flood fill's outcome for a flood.
pub type State = (Vec<Layer>, Option<Chased>);

/// What is stepped.
enum Stepper {
    Diffuse(Diffusing),
    Flood { grid: Grid, last_seen: usize, velocity: Vec3, chase: Chase, teams: Vec<Layer> },
}

/// The sequence of states.
pub struct Frames<'a> {
    scenario: &'a Scenario,
    stepper: Stepper,
    every: usize,
    /// The most frames to give.
    limit: usize,
    /// Frames given so far.
    given: usize,
    /// Steps taken so far.
    step: usize,
    /// The last step to show (`None`: until a step changes nothing).
    end: Option<usize>,
    /// The state stopped changing (steady) or the fill stopped early (flood).
    ended: bool,
}

impl<'a> Frames<'a> {
    /// Frames of `scenario`'s propagation, `every` steps apart, at most `frames` of them.
    /// They run to the state `influence render` writes: diffuse to its `steps`, flood until
    /// the fill stops; steady until a step changes nothing, at most [`STEADY_FRAMES`] frames
    /// unless `frames` says otherwise.
    ///
    /// # Errors
    /// [`CliError::Usage`] for a scenario without `[propagation]`; [`CliError::Input`] as
    /// rendering it would.
    pub fn new(scenario: &'a Scenario, frames: Option<usize>, every: usize) -> Result<Self, CliError> {
        let p = scenario.propagation.as_ref().ok_or_else(|| {
            CliError::Usage(format!(
                "{} has no [propagation] table, so nothing in it changes over time; add one (see \
                 docs/scenario.md) or use `influence render`",
                scenario.file
            ))
        })?;
        let grid = p.grid(&scenario.grid);
        let diffusing = |grid, diffusion| {
            Diffusing::new(grid, diffusion, scenario.seeds()).map_err(|e| scenario.propagation_failed(&e))
        };
        let (stepper, end) = match &p.method {
            Method::Diffuse { diffusion, steps } => {
                (Stepper::Diffuse(diffusing(grid, *diffusion)?), Some(*steps))
            }
            Method::Steady { diffusion } => (Stepper::Diffuse(diffusing(grid, *diffusion)?), None),
            Method::Flood { last_seen, velocity, chase } => {
                let teams = scenario.stamped();
                let flood =
                    Stepper::Flood { grid, last_seen: *last_seen, velocity: *velocity, chase: *chase, teams };
                (flood, Some(chase.max_steps()))
            }
        };
        let limit = frames.unwrap_or(match end {
            Some(end) => end.div_ceil(every) + 1,
            None => STEADY_FRAMES,
        });
        Ok(Self { scenario, stepper, every, limit, given: 0, step: 0, end, ended: false })
    }

    /// Steps taken to reach the last frame given.
    pub fn step(&self) -> usize {
        self.step
    }

    /// The next frame's state, or `None` when the frames are done.
    ///
    /// # Errors
    /// [`CliError::Input`] as rendering the scenario would.
    pub fn next_state(&mut self) -> Result<Option<State>, CliError> {
        let at_end = self.end.is_some_and(|end| self.step >= end);
        if self.given == self.limit || self.ended || (self.given > 0 && at_end) {
            return Ok(None);
        }
        let target = if self.given == 0 {
            0
        } else {
            self.end.map_or(self.step + self.every, |end| end.min(self.step + self.every))
        };
        self.given += 1;
        let state = match &mut self.stepper {
            Stepper::Diffuse(d) => {
                while self.step < target {
                    let before = self.end.is_none().then(|| d.layers());
                    d.step();
                    self.step += 1;
                    if before.is_some_and(|b| b == d.layers()) {
                        self.ended = true;
                        break;
                    }
                }
                (d.layers(), None)
            }
            Stepper::Flood { grid, last_seen, velocity, chase, teams } => {
                let failed = |e: influence::Error| self.scenario.propagation_failed(&e);
                let limited = chase.with_max_steps(target);
                let chased = spread::flood(grid, *last_seen, *velocity, &limited).map_err(failed)?;
                self.step = chased.prediction.steps;
                self.ended = self.step < target;
                (teams.clone(), Some(chased))
            }
        };
        Ok(Some(state))
    }
}
