//! The `[propagation]` table: influence that spreads over the map (diffusion for a number of
//! steps, or its steady state) or a chase flood fill from where a target was last seen. Each
//! kind takes exactly its own keys, and every bad value is named with its line.

use std::fmt;

use influence::glam::{Vec2, Vec3};
use influence::propagate::{Chase, Diffusion};
use influence::{Connectivity, Error, Grid};
use serde::{Deserialize, Serialize};

use crate::error::Invalid;
use crate::fixed::Fixed;
use crate::key::KeyPath;
use crate::map::{connectivity, walkable_cell};
use crate::rule::{check, check_opt, Rule};

/// The `kind` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A number of diffusion steps.
    Diffuse,
    /// Where diffusion ends up for fixed sources.
    Steady,
    /// The chase flood fill.
    Flood,
}

impl Kind {
    /// The keys this kind accepts besides `kind`.
    fn params(self) -> &'static [&'static str] {
        match self {
            Self::Diffuse => &["decay", "decay_kind", "momentum", "steps", "neighbours", "threshold"],
            Self::Steady => &["decay", "decay_kind", "momentum", "neighbours", "threshold"],
            Self::Flood => &[
                "last_seen",
                "velocity",
                "heat",
                "cooling",
                "max_new",
                "max_steps",
                "barrier_radius",
                "neighbours",
            ],
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format!("{self:?}").to_lowercase())
    }
}

/// `decay_kind`: how influence weakens along the way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DecayName {
    /// By a factor per world unit.
    Exponential,
    /// By an amount per world unit.
    Linear,
}

/// The `[propagation]` table as written (the keys are described in `docs/scenario.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)] // the keys are documented in docs/scenario.md
pub struct PropagationSpec {
    pub kind: Kind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decay: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decay_kind: Option<DecayName>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub momentum: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighbours: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_seen: Option<Fixed<2>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub velocity: Option<Fixed<2>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub barrier_radius: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heat: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cooling: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_new: Option<u64>,
}

/// Momentum when none is given: each step takes the strongest neighbour's value at once.
const DEFAULT_MOMENTUM: f32 = 1.0;
/// Heat lost per step when none is given (Tayebi's value).
const DEFAULT_COOLING: f32 = 0.1;
/// Steps of the flood fill when none is given: with the default cooling, the first heat is
/// gone by then.
const DEFAULT_MAX_STEPS: usize = 10;

/// What spreads, validated.
#[derive(Debug, Clone, Copy)]
pub enum Method {
    /// `steps` diffusion steps from rest.
    Diffuse {
        /// The step's parameters.
        diffusion: Diffusion,
        /// How many steps.
        steps: usize,
    },
    /// The fixed point of the diffusion step.
    Steady {
        /// The step's parameters.
        diffusion: Diffusion,
    },
    /// The chase flood fill.
    Flood {
        /// The last-seen cell's index.
        last_seen: usize,
        /// The target's velocity (only its direction matters).
        velocity: Vec3,
        /// Cooling, limits and barrier.
        chase: Chase,
    },
}

/// A validated `[propagation]` table.
#[derive(Debug, Clone, Copy)]
pub struct Propagation {
    /// What spreads.
    pub method: Method,
    /// The connectivity the propagation walks, when it overrides the map's.
    pub neighbours: Option<Connectivity>,
}

impl Propagation {
    /// The kind, as named in the file.
    pub fn kind(&self) -> Kind {
        match self.method {
            Method::Diffuse { .. } => Kind::Diffuse,
            Method::Steady { .. } => Kind::Steady,
            Method::Flood { .. } => Kind::Flood,
        }
    }

    /// The steps the table asks for: diffuse `steps`, flood `max_steps`; 1 for a steady state.
    pub fn steps(&self) -> usize {
        match self.method {
            Method::Diffuse { steps, .. } => steps,
            Method::Steady { .. } => 1,
            Method::Flood { chase, .. } => chase.max_steps,
        }
    }

    /// The map as the propagation walks it: the scenario's, with `neighbours` applied.
    pub fn grid(&self, grid: &Grid) -> Grid {
        let grid = grid.clone();
        match self.neighbours {
            Some(c) => grid.with_connectivity(c),
            None => grid,
        }
    }
}

impl PropagationSpec {
    /// Validates the table against the map (the last-seen cell must be on it and walkable);
    /// notes that are not errors go to `notes`.
    ///
    /// # Errors
    /// [`Invalid`] naming the key at fault.
    pub fn validate(&self, grid: &Grid, notes: &mut Vec<String>) -> Result<Propagation, Invalid> {
        let key = |k: &str| KeyPath::root("propagation").key(k);
        let given = [
            ("decay", self.decay.is_some()),
            ("decay_kind", self.decay_kind.is_some()),
            ("momentum", self.momentum.is_some()),
            ("steps", self.steps.is_some()),
            ("neighbours", self.neighbours.is_some()),
            ("threshold", self.threshold.is_some()),
            ("last_seen", self.last_seen.is_some()),
            ("velocity", self.velocity.is_some()),
            ("heat", self.heat.is_some()),
            ("cooling", self.cooling.is_some()),
            ("max_new", self.max_new.is_some()),
            ("max_steps", self.max_steps.is_some()),
            ("barrier_radius", self.barrier_radius.is_some()),
        ];
        let kind = self.kind;
        if let Some((k, _)) = given.iter().find(|(k, g)| *g && !kind.params().contains(k)) {
            let takes = kind.params().iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
            return Err(Invalid::at(
                &key(k),
                format!("is not a key of kind \"{kind}\", which takes {takes}"),
            ));
        }
        let need = |k: &str, given: bool| {
            if given {
                Ok(())
            } else {
                Err(Invalid::missing(&key(k), format!("kind \"{kind}\" needs `{k}`")))
            }
        };
        let neighbours = connectivity(self.neighbours).map_err(|m| Invalid::at(&key("neighbours"), m))?;
        let method = match kind {
            Kind::Diffuse | Kind::Steady => {
                need("decay", self.decay.is_some())?;
                let diffusion = self.diffusion()?;
                if kind == Kind::Steady {
                    Method::Steady { diffusion }
                } else {
                    need("steps", self.steps.is_some())?;
                    let steps = steps_in_range(&key("steps"), self.steps.unwrap_or(0))?;
                    Method::Diffuse { diffusion, steps }
                }
            }
            Kind::Flood => {
                let Some(Fixed(at)) = self.last_seen else {
                    return Err(Invalid::missing(
                        &key("last_seen"),
                        "kind \"flood\" needs `last_seen = [x, y]`",
                    ));
                };
                let last_seen =
                    walkable_cell(grid, Vec2::from(at)).map_err(|m| Invalid::at(&key("last_seen"), m))?;
                let velocity = Vec2::from(self.velocity.map_or([0.0; 2], |v| v.0));
                let max_steps = match self.max_steps {
                    Some(n) => steps_in_range(&key("max_steps"), n)?,
                    None => DEFAULT_MAX_STEPS,
                };
                let barrier_radius =
                    check(&key("barrier_radius"), self.barrier_radius.unwrap_or(0.0), Rule::NonNegative)?;
                let cooling =
                    check(&key("cooling"), self.cooling.unwrap_or(DEFAULT_COOLING), Rule::NonNegative)?;
                let heat = check(&key("heat"), self.heat.unwrap_or(1.0), Rule::Positive)?;
                // Every number was checked above, so the library has nothing left to refuse.
                let chase =
                    Chase::new(cooling, self.max_new.map_or(usize::MAX, count), max_steps, barrier_radius)
                        .map(|chase| Chase { initial_heat: heat, ..chase })
                        .map_err(|e| Invalid::at(&KeyPath::root("propagation"), e))?;
                if velocity != Vec2::ZERO && barrier_radius == 0.0 {
                    notes.push("propagation.velocity raises no barrier while barrier_radius is 0".to_owned());
                }
                Method::Flood { last_seen, velocity: velocity.extend(0.0), chase }
            }
        };
        Ok(Propagation { method, neighbours })
    }

    /// The diffusion parameters, each bad one named.
    fn diffusion(&self) -> Result<Diffusion, Invalid> {
        let key = |k: &str| KeyPath::root("propagation").key(k);
        let make = match self.decay_kind {
            None | Some(DecayName::Exponential) => Diffusion::new,
            Some(DecayName::Linear) => Diffusion::linear,
        };
        let decay = check(&key("decay"), self.decay.unwrap_or_default(), Rule::NonNegative)?;
        let momentum = check(&key("momentum"), self.momentum.unwrap_or(DEFAULT_MOMENTUM), Rule::Unit)?;
        let threshold = check_opt(&key("threshold"), self.threshold, Rule::NonNegative)?;
        // Every number was checked above, so the library has nothing left to refuse.
        let at = |e: Error| Invalid::at(&KeyPath::root("propagation"), e);
        let d = make(decay, momentum).map_err(at)?;
        match threshold {
            Some(t) => d.with_threshold(t).map_err(at),
            None => Ok(d),
        }
    }
}

/// The most steps a diffusion or flood fill may take: a million steps of a 1024² map are
/// about ten minutes of one core; more is a mistake, not a scenario.
pub const MAX_STEPS: u64 = 1_000_000;

/// `n` steps, if within 1 to [`MAX_STEPS`].
fn steps_in_range(key: &KeyPath, n: u64) -> Result<usize, Invalid> {
    if (1..=MAX_STEPS).contains(&n) {
        Ok(count(n))
    } else {
        Err(Invalid::at(key, format!("must be a whole number from 1 to 1,000,000, got {n}")))
    }
}

/// A count as `usize`, saturating (more steps than memory has bytes is no different).
fn count(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}
