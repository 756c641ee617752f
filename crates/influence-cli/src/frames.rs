//! The states of a `[propagation]` over time, for `influence animate`: frame `i` is the run
//! after `i · every` steps. Diffusion runs to its `steps`; the steady state is shown as the
//! diffusion step iterated from rest until a step changes nothing; the flood fill runs until
//! it stops. Every state comes from the one engine, `influence_scenario::engine::Run`.

use influence_scenario::engine::{Run, View};
use influence_scenario::propagation::Method;
use influence_scenario::scenario::Scenario;

use crate::error::CliError;

/// Frames of a steady-state animation when `--frames` is not given: it ends earlier when a
/// step changes nothing.
pub const STEADY_FRAMES: usize = 200;

/// The sequence of states.
pub struct Frames {
    run: Run,
    every: usize,
    /// The most frames to give.
    limit: usize,
    /// Frames given so far.
    given: usize,
    /// Steps taken to reach the last frame given.
    step: usize,
    /// The last step to show (`None`: until a step changes nothing).
    end: Option<usize>,
    /// A flood fill: its steps are the fill's own.
    flood: bool,
    /// The state stopped changing (steady) or the fill stopped early (flood).
    ended: bool,
}

impl Frames {
    /// Frames of `scenario`'s propagation, `every` steps apart, at most `frames` of them.
    /// They run to the state `influence render` writes: diffuse to its `steps`, flood until
    /// the fill stops; steady until a step changes nothing, at most [`STEADY_FRAMES`] frames
    /// unless `frames` says otherwise.
    ///
    /// # Errors
    /// [`CliError::Usage`] for a scenario without `[propagation]`; [`CliError::Input`] as
    /// rendering it would.
    pub fn new(scenario: Scenario, frames: Option<usize>, every: usize) -> Result<Self, CliError> {
        let p = scenario.propagation.ok_or_else(|| {
            CliError::Usage(format!(
                "{} has no [propagation] table, so nothing in it changes over time; add one (see \
                 docs/scenario.md) or use `influence render`",
                scenario.file
            ))
        })?;
        let (end, flood) = match p.method {
            Method::Diffuse { steps, .. } => (Some(steps), false),
            Method::Steady { .. } => (None, false),
            Method::Flood { chase, .. } => (Some(chase.max_steps), true),
        };
        let limit = frames.unwrap_or(match end {
            Some(end) => end.div_ceil(every) + 1,
            None => STEADY_FRAMES,
        });
        let run = Run::new(scenario)?;
        Ok(Self { run, every, limit, given: 0, step: 0, end, flood, ended: false })
    }

    /// Steps taken to reach the last frame given.
    pub fn step(&self) -> usize {
        self.step
    }

    /// The next frame's step and state, or `None` when the frames are done.
    ///
    /// # Errors
    /// [`CliError::Input`] as rendering the scenario would.
    pub fn next_view(&mut self) -> Result<Option<(usize, View<'_>)>, CliError> {
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
        // A steady state shows each step until one changes nothing.
        self.run.step_to(target, usize::MAX, self.end.is_none());
        let fixed = if self.end.is_none() { self.run.fixed_at() } else { None };
        let view = self.run.view();
        if let Some(e) = view.error() {
            return Err(e.clone().into());
        }
        if self.flood {
            self.step = view.prediction().map_or(0, |p| p.steps);
            self.ended = self.step < target;
        } else if let Some(at) = fixed {
            self.step = at.min(target);
            self.ended = true;
        } else {
            self.step = target;
        }
        Ok(Some((self.step, view)))
    }
}
