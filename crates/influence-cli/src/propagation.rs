//! The `[propagation]` table: influence that spreads over the map (diffusion for a number of
//! steps, or its steady state) or a chase flood fill from where a target was last seen. Each
//! kind takes exactly its own keys, and every bad value is named with its line.

use std::fmt;

use influence::glam::{Vec2, Vec3};
use influence::propagate::{Chase, DecayKind, Diffusion};
use influence::{Connectivity, Error, Grid};
use serde::Deserialize;

use crate::doc::{Doc, KeyPath};
use crate::error::CliError;
use crate::scenario::Fixed;

/// The `kind` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
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
            Self::Flood => {
                &["last_seen", "velocity", "cooling", "max_new", "max_steps", "barrier_radius", "neighbours"]
            }
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format!("{self:?}").to_lowercase())
    }
}

/// `decay_kind`: how influence weakens along the way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum DecayName {
    Exponential,
    Linear,
}

/// The `[propagation]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PropagationSpec {
    kind: Kind,
    decay: Option<f32>,
    decay_kind: Option<DecayName>,
    momentum: Option<f32>,
    steps: Option<usize>,
    neighbours: Option<u8>,
    threshold: Option<f32>,
    last_seen: Option<Fixed<2>>,
    velocity: Option<Fixed<2>>,
    cooling: Option<f32>,
    max_new: Option<usize>,
    max_steps: Option<usize>,
    barrier_radius: Option<f32>,
}

/// Momentum when none is given: each step takes the strongest neighbour's value at once.
const DEFAULT_MOMENTUM: f32 = 1.0;
/// Heat lost per step when none is given (Tayebi's value).
const DEFAULT_COOLING: f32 = 0.1;
/// Steps of the flood fill when none is given: with the default cooling, the first heat is
/// gone by then.
const DEFAULT_MAX_STEPS: usize = 10;

/// What spreads, validated.
#[derive(Debug, Clone)]
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
#[derive(Debug, Clone)]
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
    /// The kind, before validation (source modes default by it).
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Validates the table against the map (the last-seen cell must be on it and walkable);
    /// notes that are not errors go to `notes`.
    ///
    /// # Errors
    /// [`CliError::Input`] naming the key at fault.
    pub fn validate(&self, doc: &Doc, grid: &Grid, notes: &mut Vec<String>) -> Result<Propagation, CliError> {
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
            ("cooling", self.cooling.is_some()),
            ("max_new", self.max_new.is_some()),
            ("max_steps", self.max_steps.is_some()),
            ("barrier_radius", self.barrier_radius.is_some()),
        ];
        let kind = self.kind;
        if let Some((k, _)) = given.iter().find(|(k, g)| *g && !kind.params().contains(k)) {
            let takes = kind.params().iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
            return Err(doc.error(&key(k), format!("is not a key of kind \"{kind}\", which takes {takes}")));
        }
        let need = |k: &str, given: bool| {
            if given {
                Ok(())
            } else {
                Err(doc.error(&key(k), format!("kind \"{kind}\" needs `{k}`")))
            }
        };
        let neighbours = match self.neighbours {
            None => None,
            Some(4) => Some(Connectivity::Four),
            Some(8) => Some(Connectivity::Eight),
            Some(n) => return Err(doc.error(&key("neighbours"), format!("must be 4 or 8, got {n}"))),
        };
        let method = match kind {
            Kind::Diffuse | Kind::Steady => {
                need("decay", self.decay.is_some())?;
                let diffusion = self.diffusion(doc)?;
                if kind == Kind::Steady {
                    Method::Steady { diffusion }
                } else {
                    need("steps", self.steps.is_some())?;
                    match self.steps {
                        Some(steps @ 1..) => Method::Diffuse { diffusion, steps },
                        _ => return Err(doc.error(&key("steps"), "must be at least 1, got 0")),
                    }
                }
            }
            Kind::Flood => {
                let Some(Fixed(at)) = self.last_seen else {
                    return Err(doc.error(&key("last_seen"), "kind \"flood\" needs `last_seen = [x, y]`"));
                };
                let last_seen = crate::map::walkable_cell(grid, Vec2::from(at))
                    .map_err(|m| doc.error(&key("last_seen"), m))?;
                let velocity = Vec2::from(self.velocity.map_or([0.0; 2], |v| v.0));
                let max_steps = self.max_steps.unwrap_or(DEFAULT_MAX_STEPS);
                if max_steps == 0 {
                    return Err(doc.error(&key("max_steps"), "must be at least 1, got 0"));
                }
                let barrier_radius = self.barrier_radius.unwrap_or(0.0);
                let chase = Chase::new(
                    self.cooling.unwrap_or(DEFAULT_COOLING),
                    self.max_new.unwrap_or(usize::MAX),
                    max_steps,
                    barrier_radius,
                )
                .map_err(|e| match e {
                    Error::BadNumber { what: "barrier_radius", .. } => doc.error(&key("barrier_radius"), e),
                    other => doc.error(&key("cooling"), other),
                })?;
                if velocity != Vec2::ZERO && barrier_radius == 0.0 {
                    notes.push("propagation.velocity raises no barrier while barrier_radius is 0".to_owned());
                }
                Method::Flood { last_seen, velocity: velocity.extend(0.0), chase }
            }
        };
        Ok(Propagation { method, neighbours })
    }

    /// The diffusion parameters, each bad one named.
    fn diffusion(&self, doc: &Doc) -> Result<Diffusion, CliError> {
        let key = |k: &str| KeyPath::root("propagation").key(k);
        let at = |e: Error| match e {
            Error::BadNumber { what: "momentum", .. } => doc.error(&key("momentum"), e),
            Error::BadNumber { what: "threshold", .. } => doc.error(&key("threshold"), e),
            other => doc.error(&key("decay"), other),
        };
        let kind = match self.decay_kind {
            None | Some(DecayName::Exponential) => DecayKind::Exponential,
            Some(DecayName::Linear) => DecayKind::Linear,
        };
        let d = Diffusion::new(self.decay.unwrap_or_default(), self.momentum.unwrap_or(DEFAULT_MOMENTUM))
            .map_err(at)?
            .with_kind(kind);
        match self.threshold {
            Some(t) => d.with_threshold(t).map_err(at),
            None => Ok(d),
        }
    }
}
