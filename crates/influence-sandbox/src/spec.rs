//! The scenario's tables — `[map]`, `[[source]]`, `[propagation]` — as the sandbox reads and
//! writes them, with the same keys, defaults and checks as `influence render`
//! (`docs/scenario.md`), and their validation into library objects.
//!
//! The JSON API takes the same shapes, so a source posted to `/api/sources` is a
//! `[[source]]` table written as JSON. On top of the scenario's own checks the sandbox caps
//! every size and magnitude ([`limits`]) so that no request can make it allocate or compute
//! without bound.

use influence::glam::{Vec2, Vec3};
use influence::propagate::{Chase, DecayKind, Diffusion};
use influence::{Analysis, Band, Connectivity, Falloff, Grid, Metric, Mode, Source};
use serde::{Deserialize, Serialize};

/// Caps on what a request may ask for.
pub mod limits {
    /// Cells of a map (1024 × 1024).
    pub const MAX_CELLS: usize = 1 << 20;
    /// Sources in a scene.
    pub const MAX_SOURCES: usize = 128;
    /// Distinct teams in a scene.
    pub const MAX_TEAMS: usize = 8;
    /// Characters of a team name.
    pub const MAX_TEAM_NAME: usize = 32;
    /// Points of a band falloff.
    pub const MAX_BAND_POINTS: usize = 64;
    /// Magnitude of any position, strength, radius or curve parameter.
    pub const MAX_ABS: f32 = 1e6;
    /// Diffusion or flood steps.
    pub const MAX_STEPS: u64 = 100_000;
    /// Routes (`[[path]]` tables) in a scene.
    pub const MAX_PATHS: usize = 8;
}

/// Exactly `N` numbers (serde's own arrays would let extra elements through).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Vec<f32>", into = "Vec<f32>")]
pub struct Fixed<const N: usize>(pub [f32; N]);

impl<const N: usize> TryFrom<Vec<f32>> for Fixed<N> {
    type Error = String;
    fn try_from(v: Vec<f32>) -> Result<Self, String> {
        v.try_into().map(Self).map_err(|v: Vec<f32>| format!("expected {N} numbers, got {}", v.len()))
    }
}

impl<const N: usize> From<Fixed<N>> for Vec<f32> {
    fn from(f: Fixed<N>) -> Self {
        f.0.to_vec()
    }
}

/// A number the sandbox accepts: finite and at most [`limits::MAX_ABS`] in magnitude.
fn num(key: &str, v: f32) -> Result<f32, String> {
    if v.is_finite() && v.abs() <= limits::MAX_ABS {
        Ok(v)
    } else {
        Err(format!("{key} must be a finite number of magnitude at most 1e6, got {v}"))
    }
}

pub use influence::falloff::FalloffKind;

/// One `[[source]]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)] // the keys are documented in docs/scenario.md
pub struct SourceSpec {
    pub team: String,
    pub at: Fixed<2>,
    pub strength: f32,
    pub falloff: FalloffKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Vec<Fixed<2>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy_end: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement_end: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ring: Option<Fixed<4>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<Metric>,
    /// `None`: `add`, or `set` when the sources seed a diffusion or steady state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
}

/// The names no team may take: the other layers'.
pub fn check_team_name(name: &str) -> Result<(), String> {
    let ok_chars = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if name.is_empty() || name.len() > limits::MAX_TEAM_NAME || !ok_chars {
        return Err(format!("team names use 1 to 32 letters, digits, '_' and '-', got {name:?}"));
    }
    if name == "frontline" || name == "heat" || Analysis::NAMES.contains(&name) {
        return Err(format!("{name:?} is the name of a compound layer; pick another team name"));
    }
    Ok(())
}

impl SourceSpec {
    /// The library source this table describes on a map of `cell_size`, under a propagation
    /// of `kind` (which sets the default mode and refuses additive sources for a steady state).
    ///
    /// # Errors
    /// A message naming the key at fault.
    pub fn validate(&self, cell_size: f32, kind: Option<PropKind>) -> Result<Source, String> {
        check_team_name(&self.team)?;
        let at = Vec2::new(num("at[0]", self.at.0[0])?, num("at[1]", self.at.0[1])?);
        let strength = num("strength", self.strength)?;
        let (falloff, extent) = self.falloff(cell_size)?;
        let radius = match self.radius.or(extent) {
            Some(r) if r > 0.0 => num("radius", r)?,
            Some(r) => return Err(format!("radius must be > 0, got {r}")),
            None => return Err(format!("radius is required for falloff \"{}\"", self.falloff.name())),
        };
        let mode = match (self.mode, kind) {
            (Some(Mode::Add), Some(PropKind::Steady)) => {
                return Err("mode: an \"add\" source has no steady state (it adds to what spreads back \
                            into its cell at every step); use \"set\" or \"max\""
                    .to_owned())
            }
            (Some(mode), _) => mode,
            (None, Some(PropKind::Diffuse | PropKind::Steady)) => Mode::Set,
            (None, _) => Mode::Add,
        };
        Source::new(at, strength, falloff, radius)
            .map(|s| s.with_metric(self.distance.unwrap_or_default()).with_mode(mode))
            .map_err(|e| e.to_string())
    }

    /// The curve, and the radius it implies when none is given (a band's extent, one cell
    /// for a point). Each curve takes exactly its own keys.
    fn falloff(&self, cell_size: f32) -> Result<(Falloff, Option<f32>), String> {
        let kind = self.falloff;
        let given = [
            ("rate", self.rate.is_some()),
            ("step", self.step.is_some()),
            ("power", self.power.is_some()),
            ("sigma", self.sigma.is_some()),
            ("points", self.points.is_some()),
            ("full", self.full.is_some()),
            ("accuracy_end", self.accuracy_end.is_some()),
            ("accuracy", self.accuracy.is_some()),
            ("movement_end", self.movement_end.is_some()),
            ("ring", self.ring.is_some()),
        ];
        if let Some((key, _)) = given.iter().find(|(k, g)| *g && !kind.params().contains(k)) {
            return Err(format!("{key} is not a parameter of falloff \"{}\"", kind.name()));
        }
        let need = |key: &str, v: Option<f32>| match v {
            Some(v) => num(key, v),
            None => Err(format!("falloff \"{}\" needs `{key}`", kind.name())),
        };
        let falloff = match kind {
            FalloffKind::Linear => Falloff::Linear,
            FalloffKind::Exponential => Falloff::Exponential { rate: need("rate", self.rate)? },
            FalloffKind::Halving => Falloff::Halving { step: need("step", self.step.or(Some(cell_size)))? },
            FalloffKind::Polynomial => Falloff::Polynomial { power: need("power", self.power)? },
            FalloffKind::Gaussian => Falloff::Gaussian { sigma: need("sigma", self.sigma)? },
            FalloffKind::Constant => Falloff::Constant,
            FalloffKind::Point => Falloff::Point,
            FalloffKind::Band => Falloff::Band(self.band()?),
        };
        falloff.validate().map_err(|e| e.to_string())?;
        let extent = match &falloff {
            Falloff::Band(b) => Some(b.extent()),
            Falloff::Point => Some(cell_size),
            _ => None,
        };
        Ok((falloff, extent))
    }

    /// A band from exactly one of its three forms.
    fn band(&self) -> Result<Band, String> {
        let areas = [self.full, self.accuracy_end, self.accuracy, self.movement_end];
        let forms = [self.points.is_some(), areas.iter().any(Option::is_some), self.ring.is_some()];
        if forms.iter().filter(|f| **f).count() != 1 {
            return Err("falloff \"band\" takes exactly one of `points`, the areas (`full`, \
                        `accuracy_end`, `accuracy`, `movement_end`) or `ring`"
                .to_owned());
        }
        let all = |v: &[f32]| v.iter().try_for_each(|&x| num("band parameter", x).map(drop));
        let band = if let Some(points) = &self.points {
            if points.len() > limits::MAX_BAND_POINTS {
                return Err(format!("points: at most {} points", limits::MAX_BAND_POINTS));
            }
            points.iter().try_for_each(|p| all(&p.0))?;
            Band::new(points.iter().map(|p| (p.0[0], p.0[1])).collect())
        } else if let Some(Fixed(r)) = self.ring {
            all(&r)?;
            Band::ring(r[0], r[1], r[2], r[3])
        } else {
            let keys = ["full", "accuracy_end", "accuracy", "movement_end"];
            let mut v = [0.0; 4];
            for ((slot, value), key) in v.iter_mut().zip(areas).zip(keys) {
                *slot = num(key, value.ok_or_else(|| format!("band areas need `{key}`"))?)?;
            }
            Band::areas(v[0], v[1], v[2], v[3])
        };
        band.map_err(|e| e.to_string())
    }
}

/// The `[map]` table: a MovingAI file (resolved by the caller) or a size with ASCII rows.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)] // the keys are documented in docs/scenario.md
pub struct MapSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell_size: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Fixed<2>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighbours: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<Vec<String>>,
}

/// `width × height`, refused above [`limits::MAX_CELLS`] before anything is allocated.
fn check_size(width: usize, height: usize) -> Result<(), String> {
    match width.checked_mul(height) {
        Some(n) if width > 0 && height > 0 && n <= limits::MAX_CELLS => Ok(()),
        _ => Err(format!("a map of {width}×{height} cells is not allowed here: 1 to 1048576 cells")),
    }
}

/// A MovingAI map from its text, its size checked from the header first.
///
/// # Errors
/// A message for a map over the cap or malformed (with its line).
pub fn movingai_grid(text: &str) -> Result<Grid, String> {
    let header = |key: &str| {
        text.lines().take(4).find_map(|l| l.strip_prefix(key)).and_then(|v| v.trim().parse::<usize>().ok())
    };
    if let (Some(w), Some(h)) = (header("width"), header("height")) {
        check_size(w, h)?;
    }
    Grid::from_movingai(text).map_err(|e| format!("map: {e}"))
}

impl MapSpec {
    /// The grid: `movingai` is the text `file` names (the caller resolves it).
    ///
    /// # Errors
    /// A message naming the key at fault.
    pub fn grid(&self, movingai: Option<&str>) -> Result<Grid, String> {
        let grid = match (movingai, self.width, self.height) {
            (Some(_), ..) if self.width.is_some() || self.height.is_some() || self.rows.is_some() => {
                return Err("map: give either `file` or `width`/`height`/`rows`, not both".to_owned())
            }
            (Some(text), ..) => movingai_grid(text)?,
            (None, Some(w), Some(h)) => {
                check_size(w, h)?;
                match &self.rows {
                    Some(rows) => {
                        if rows.len() != h {
                            return Err(format!("map.rows has {} rows, but height is {h}", rows.len()));
                        }
                        if let Some(y) = rows.iter().position(|r| r.chars().count() != w) {
                            return Err(format!("map.rows[{y}] does not have width {w} cells"));
                        }
                        Grid::from_rows(rows).map_err(|e| format!("map.rows: {e}"))?
                    }
                    None => Grid::new(w, h).map_err(|e| e.to_string())?,
                }
            }
            _ => return Err("map needs `file`, or `width` and `height`".to_owned()),
        };
        let connectivity = match self.neighbours {
            None | Some(8) => Connectivity::Eight,
            Some(4) => Connectivity::Four,
            Some(n) => return Err(format!("map.neighbours must be 4 or 8, got {n}")),
        };
        let cell_size = num("map.cell_size", self.cell_size.unwrap_or(1.0))?;
        let origin = self.origin.map_or([0.0; 2], |o| o.0);
        let origin = Vec2::new(num("map.origin[0]", origin[0])?, num("map.origin[1]", origin[1])?);
        grid.with_cell_size(cell_size)
            .and_then(|g| g.with_origin(origin))
            .map(|g| g.with_connectivity(connectivity))
            .map_err(|e| format!("map: {e}"))
    }
}

/// One `[[path]]` table: the cheapest walk from `from` to `to` where entering a cell costs
/// its step plus `weight` times the positive value of `layer` there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)] // the keys are documented in docs/scenario.md
pub struct PathSpec {
    pub from: Fixed<2>,
    pub to: Fixed<2>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<f32>,
}

/// A validated `[[path]]`: its end cells, the layer to avoid and the weight.
#[derive(Debug, Clone, PartialEq)]
pub struct PathPlan {
    /// Start cell.
    pub from: usize,
    /// Goal cell.
    pub to: usize,
    /// The layer to avoid (default `theirs`).
    pub layer: String,
    /// Cost per unit of the layer's positive value.
    pub weight: f32,
}

/// The walkable cell holding world position `at`.
fn walkable_cell(grid: &Grid, key: &str, at: Fixed<2>) -> Result<usize, String> {
    let p = Vec2::new(num(key, at.0[0])?, num(key, at.0[1])?);
    match grid.cell_at(p) {
        Some((x, y)) if !grid.is_blocked(x, y) => Ok(y * grid.width() + x),
        Some((x, y)) => Err(format!("{key} is in cell ({x}, {y}), which is blocked")),
        None => Err(format!("{key} is outside the map")),
    }
}

impl PathSpec {
    /// Checks the ends (on the map, walkable), the weight and the layer's name against
    /// `layers`.
    ///
    /// # Errors
    /// A message naming the key at fault.
    pub fn validate(&self, grid: &Grid, layers: &[String]) -> Result<PathPlan, String> {
        let layer = self.layer.clone().unwrap_or_else(|| "theirs".to_owned());
        if !layers.contains(&layer) {
            return Err(format!("path.layer: unknown layer {layer:?}; layers: {}", layers.join(", ")));
        }
        let weight = self.weight.unwrap_or(1.0);
        if num("path.weight", weight)? < 0.0 {
            return Err(format!("path.weight must be >= 0, got {weight}"));
        }
        Ok(PathPlan {
            from: walkable_cell(grid, "path.from", self.from)?,
            to: walkable_cell(grid, "path.to", self.to)?,
            layer,
            weight,
        })
    }
}

/// The `kind` names of `[propagation]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PropKind {
    /// A number of diffusion steps.
    Diffuse,
    /// Where diffusion ends up for fixed sources.
    Steady,
    /// The chase flood fill.
    Flood,
}

impl PropKind {
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

/// `decay_kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum DecayName {
    Exponential,
    Linear,
}

/// The `[propagation]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)] // the keys are documented in docs/scenario.md
pub struct PropagationSpec {
    pub kind: PropKind,
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
    pub cooling: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_new: Option<u64>,
}

/// What spreads, validated.
#[derive(Debug, Clone, Copy)]
pub enum Method {
    /// Diffusion steps from rest.
    Diffuse(Diffusion),
    /// The fixed point of the diffusion step.
    Steady(Diffusion),
    /// The chase flood fill; its step limit is the scene's step count.
    Flood {
        /// The last-seen cell's index.
        last_seen: usize,
        /// The target's velocity (only its direction matters).
        velocity: Vec3,
        /// Heat lost per step.
        cooling: f32,
        /// Stop after a step heating more cells than this.
        max_new: usize,
        /// Reach of the barrier behind the target.
        barrier_radius: f32,
    },
}

impl Method {
    /// The chase parameters for `steps` steps.
    ///
    /// # Errors
    /// Never for a validated flood (the numbers were checked); a message otherwise.
    pub fn chase(cooling: f32, max_new: usize, steps: usize, barrier_radius: f32) -> Result<Chase, String> {
        Chase::new(cooling, max_new, steps, barrier_radius).map_err(|e| e.to_string())
    }
}

/// A validated `[propagation]` table: the method, the connectivity it walks (when it
/// overrides the map's) and the step count it asks for (diffuse `steps`, flood `max_steps`).
#[derive(Debug, Clone, Copy)]
pub struct Propagation {
    /// What spreads.
    pub method: Method,
    /// The propagation's own connectivity.
    pub neighbours: Option<Connectivity>,
    /// Steps asked for (1 for a steady state).
    pub steps: u64,
}

impl PropagationSpec {
    /// Checks the table against `grid` (a flood's last-seen cell must be on it and walkable).
    ///
    /// # Errors
    /// A message naming the key at fault.
    pub fn validate(&self, grid: &Grid) -> Result<Propagation, String> {
        let kind = self.kind;
        let given = [
            ("decay", self.decay.is_some()),
            ("decay_kind", self.decay_kind.is_some()),
            ("momentum", self.momentum.is_some()),
            ("steps", self.steps.is_some()),
            ("neighbours", self.neighbours.is_some()),
            ("threshold", self.threshold.is_some()),
            ("last_seen", self.last_seen.is_some()),
            ("velocity", self.velocity.is_some()),
            ("barrier_radius", self.barrier_radius.is_some()),
            ("cooling", self.cooling.is_some()),
            ("max_steps", self.max_steps.is_some()),
            ("max_new", self.max_new.is_some()),
        ];
        if let Some((k, _)) = given.iter().find(|(k, g)| *g && !kind.params().contains(k)) {
            return Err(format!("propagation.{k} is not a key of kind \"{kind:?}\"").to_lowercase());
        }
        let neighbours = match self.neighbours {
            None => None,
            Some(4) => Some(Connectivity::Four),
            Some(8) => Some(Connectivity::Eight),
            Some(n) => return Err(format!("propagation.neighbours must be 4 or 8, got {n}")),
        };
        let steps = |key: &str, v: Option<u64>, default: u64| match v.unwrap_or(default) {
            s @ 1..=limits::MAX_STEPS => Ok(s),
            s => Err(format!("propagation.{key} must be 1 to {}, got {s}", limits::MAX_STEPS)),
        };
        let (method, steps) = match kind {
            PropKind::Diffuse | PropKind::Steady => {
                let decay = self.decay.ok_or("propagation.decay is required for diffuse and steady")?;
                let d = Diffusion::new(num("propagation.decay", decay)?, self.momentum.unwrap_or(1.0))
                    .map_err(|e| format!("propagation: {e}"))?
                    .with_kind(match self.decay_kind {
                        None | Some(DecayName::Exponential) => DecayKind::Exponential,
                        Some(DecayName::Linear) => DecayKind::Linear,
                    });
                let d = match self.threshold {
                    Some(t) => d.with_threshold(num("propagation.threshold", t)?),
                    None => Ok(d),
                }
                .map_err(|e| format!("propagation: {e}"))?;
                if kind == PropKind::Diffuse {
                    let s = self.steps.ok_or("propagation.steps is required for diffuse")?;
                    (Method::Diffuse(d), steps("steps", Some(s), 1)?)
                } else {
                    (Method::Steady(d), 1)
                }
            }
            PropKind::Flood => {
                let Some(Fixed(at)) = self.last_seen else {
                    return Err("propagation.last_seen = [x, y] is required for flood".to_owned());
                };
                let last_seen = walkable_cell(grid, "propagation.last_seen", Fixed(at))?;
                let v = self.velocity.map_or([0.0; 2], |v| v.0);
                let velocity = Vec3::new(num("velocity[0]", v[0])?, num("velocity[1]", v[1])?, 0.0);
                let cooling = num("propagation.cooling", self.cooling.unwrap_or(0.1))?;
                let barrier_radius = num("propagation.barrier_radius", self.barrier_radius.unwrap_or(0.0))?;
                let max_new = self.max_new.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
                Method::chase(cooling, max_new, 1, barrier_radius)
                    .map_err(|e| format!("propagation: {e}"))?;
                let flood = Method::Flood { last_seen, velocity, cooling, max_new, barrier_radius };
                (flood, steps("max_steps", self.max_steps, 10)?)
            }
        };
        Ok(Propagation { method, neighbours, steps })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(json: &str) -> Result<Source, String> {
        serde_json::from_str::<SourceSpec>(json).map_err(|e| e.to_string())?.validate(1.0, None)
    }

    #[test]
    fn sources_take_exactly_their_keys_and_finite_numbers() {
        let ok = r#"{"team":"red","at":[1,2],"strength":5,"falloff":"linear","radius":4}"#;
        assert_eq!(source(ok).unwrap().radius(), 4.0);
        let band = r#"{"team":"b","at":[1,2],"strength":5,"falloff":"band","ring":[1,2,3,4]}"#;
        assert_eq!(source(band).unwrap().radius(), 4.0);
        for bad in [
            r#"{"team":"red","at":[1,2],"strength":5,"falloff":"linear"}"#,
            r#"{"team":"red","at":[1,2],"strength":5,"falloff":"linear","radius":-1}"#,
            r#"{"team":"red","at":[1,2],"strength":5e30,"falloff":"linear","radius":1}"#,
            r#"{"team":"red","at":[1,2,3],"strength":5,"falloff":"linear","radius":1}"#,
            r#"{"team":"red","at":[1,2],"strength":5,"falloff":"linear","radius":1,"sigma":2}"#,
            r#"{"team":"tension","at":[1,2],"strength":5,"falloff":"linear","radius":1}"#,
            r#"{"team":"red","at":[1,2],"strength":5,"falloff":"gaussian","radius":1}"#,
            r#"{"team":"red","at":[1,2],"strength":5,"falloff":"linear","radius":1,"colour":1}"#,
        ] {
            assert!(source(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn maps_are_capped_before_allocation() {
        let huge = MapSpec { width: Some(1 << 20), height: Some(1 << 20), ..Default::default() };
        assert!(huge.grid(None).unwrap_err().contains("not allowed"));
        assert!(movingai_grid("type octile\nheight 100000\nwidth 100000\nmap\n").is_err());
        let rows =
            MapSpec { width: Some(2), height: Some(1), rows: Some(vec![".@".into()]), ..Default::default() };
        assert!(rows.grid(None).unwrap().is_blocked(1, 0));
    }

    #[test]
    fn propagation_checks_kind_keys_and_ranges() {
        let grid = Grid::from_rows(&["..@"]).unwrap();
        let parse = |j: &str| serde_json::from_str::<PropagationSpec>(j).unwrap().validate(&grid);
        assert_eq!(parse(r#"{"kind":"diffuse","decay":0.1,"steps":5}"#).unwrap().steps, 5);
        assert!(parse(r#"{"kind":"diffuse","decay":0.1,"steps":0}"#).is_err());
        assert!(parse(r#"{"kind":"diffuse","decay":0.1,"steps":5,"momentum":2}"#).is_err());
        assert!(parse(r#"{"kind":"steady","decay":0.1,"steps":5}"#).is_err());
        assert!(parse(r#"{"kind":"flood","last_seen":[2.5,0.5]}"#).unwrap_err().contains("blocked"));
        assert_eq!(parse(r#"{"kind":"flood","last_seen":[0.5,0.5]}"#).unwrap().steps, 10);
    }
}
