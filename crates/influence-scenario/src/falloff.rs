//! The falloff keys of a `[[source]]` table turned into a library [`Falloff`]: each curve
//! gets exactly its own parameters, and a missing or bad one is named.

use std::fmt;

use influence::{Band, Falloff};
use serde::{Deserialize, Serialize};

use crate::error::Invalid;
use crate::fixed::Fixed;
use crate::key::KeyPath;
use crate::rule::{check, Rule};

/// The `falloff` names of `[[source]]` tables: the library's built-in curves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FalloffKind {
    /// [`Falloff::Linear`].
    Linear,
    /// [`Falloff::Exponential`]: `rate`.
    Exponential,
    /// [`Falloff::Halving`]: `step`.
    Halving,
    /// [`Falloff::Polynomial`]: `power`.
    Polynomial,
    /// [`Falloff::Gaussian`]: `sigma`.
    Gaussian,
    /// [`Falloff::Constant`].
    Constant,
    /// [`Falloff::Point`].
    Point,
    /// [`Falloff::Band`]: `points`, the four areas, or a `ring`.
    Band,
}

impl FalloffKind {
    /// The `[[source]]` keys this curve takes as its parameters.
    pub fn params(self) -> &'static [&'static str] {
        match self {
            Self::Exponential => &["rate"],
            Self::Halving => &["step"],
            Self::Polynomial => &["power"],
            Self::Gaussian => &["sigma"],
            Self::Band => &["points", "full", "accuracy_end", "accuracy", "movement_end", "ring"],
            Self::Linear | Self::Constant | Self::Point => &[],
        }
    }
}

impl fmt::Display for FalloffKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::vocab::name_of(self))
    }
}

/// The band shorthand for full-strength, accuracy and movement areas, in `Band::areas` order.
const AREA_KEYS: [&str; 4] = ["full", "accuracy_end", "accuracy", "movement_end"];

/// A `[[source]]` table's curve parameters, as written.
#[derive(Debug, Clone, Copy, Default)]
#[allow(missing_docs)] // the keys are documented in docs/scenario.md
pub struct Params<'a> {
    pub rate: Option<f32>,
    pub step: Option<f32>,
    pub power: Option<f32>,
    pub sigma: Option<f32>,
    pub points: Option<&'a [Fixed<2>]>,
    pub full: Option<f32>,
    pub accuracy_end: Option<f32>,
    pub accuracy: Option<f32>,
    pub movement_end: Option<f32>,
    pub ring: Option<Fixed<4>>,
}

/// The curve `kind` with parameters `spec` (of the table at `path`), and the radius it implies when none is given: a band's
/// extent, or one cell for a point.
///
/// # Errors
/// [`Invalid`] for a parameter the curve does not take, a missing or bad one.
pub fn build(
    kind: FalloffKind,
    spec: &Params<'_>,
    path: &KeyPath,
    cell_size: f32,
) -> Result<(Falloff, Option<f32>), Invalid> {
    let given = [
        ("rate", spec.rate.is_some()),
        ("step", spec.step.is_some()),
        ("power", spec.power.is_some()),
        ("sigma", spec.sigma.is_some()),
        ("points", spec.points.is_some()),
        ("full", spec.full.is_some()),
        ("accuracy_end", spec.accuracy_end.is_some()),
        ("accuracy", spec.accuracy.is_some()),
        ("movement_end", spec.movement_end.is_some()),
        ("ring", spec.ring.is_some()),
    ];
    if let Some((key, _)) = given.iter().find(|(k, g)| *g && !kind.params().contains(k)) {
        let takes = match kind.params() {
            [] => "no parameters".to_owned(),
            keys => format!("only {}", keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")),
        };
        return Err(Invalid::at(
            &path.key(key),
            format!("is not a parameter of falloff \"{kind}\", which takes {takes}"),
        ));
    }
    let need = |key: &str, value: Option<f32>, rule: Rule| {
        let key = path.key(key);
        let value = value.ok_or_else(|| {
            Invalid::missing(
                &key,
                format!("falloff \"{kind}\" needs `{}`", key.last_key().unwrap_or_default()),
            )
        })?;
        check(&key, value, rule)
    };
    let falloff = match kind {
        FalloffKind::Linear => Falloff::Linear,
        FalloffKind::Exponential => {
            Falloff::Exponential { rate: need("rate", spec.rate, Rule::NonNegative)? }
        }
        FalloffKind::Halving => {
            Falloff::Halving { step: need("step", spec.step.or(Some(cell_size)), Rule::Positive)? }
        }
        FalloffKind::Polynomial => Falloff::Polynomial { power: need("power", spec.power, Rule::Positive)? },
        FalloffKind::Gaussian => Falloff::Gaussian { sigma: need("sigma", spec.sigma, Rule::Positive)? },
        FalloffKind::Constant => Falloff::Constant,
        FalloffKind::Point => Falloff::Point,
        FalloffKind::Band => Falloff::Band(band(spec, path)?),
    };
    // Every parameter was checked above; what the library still refuses concerns the curve.
    falloff.validate().map_err(|e| Invalid::at(&path.key("falloff"), e))?;
    let extent = match &falloff {
        Falloff::Band(b) => Some(b.extent()),
        Falloff::Point => Some(cell_size),
        _ => None,
    };
    Ok((falloff, extent))
}

/// A band from exactly one of its three forms.
fn band(spec: &Params<'_>, path: &KeyPath) -> Result<Band, Invalid> {
    let areas = [spec.full, spec.accuracy_end, spec.accuracy, spec.movement_end];
    let forms = [spec.points.is_some(), areas.iter().any(Option::is_some), spec.ring.is_some()];
    if forms.iter().filter(|f| **f).count() != 1 {
        return Err(Invalid::at(
            &path.key("falloff"),
            "falloff \"band\" takes exactly one of `points`, the areas (`full`, `accuracy_end`, \
             `accuracy`, `movement_end`) or `ring`",
        ));
    }
    let at = |key: &str| {
        let path = path.key(key);
        move |e: influence::Error| Invalid::at(&path, e)
    };
    if let Some(points) = spec.points {
        for (i, Fixed([d, f])) in points.iter().enumerate() {
            check(&path.key("points").index(i).index(0), *d, Rule::NonNegative)?;
            check(&path.key("points").index(i).index(1), *f, Rule::Factor)?;
        }
        Band::new(points.iter().map(|Fixed([d, f])| (*d, *f)).collect()).map_err(at("points"))
    } else if let Some(Fixed(ring)) = spec.ring {
        increasing(&path.key("ring"), &ring)?;
        let [inner_fade, inner, outer, outer_fade] = ring;
        Band::ring(inner_fade, inner, outer, outer_fade).map_err(at("ring"))
    } else {
        if let Some(i) = areas.iter().position(Option::is_none) {
            let message = "band areas need all four of `full`, `accuracy_end`, `accuracy`, `movement_end`";
            return Err(Invalid::missing(&path.key(AREA_KEYS[i]), message));
        }
        let [full, accuracy_end, accuracy, movement_end] = areas.map(Option::unwrap_or_default);
        check(&path.key("full"), full, Rule::NonNegative)?;
        check(&path.key("accuracy"), accuracy, Rule::Factor)?;
        for (key, value, after, floor) in [
            ("accuracy_end", accuracy_end, "full", full),
            ("movement_end", movement_end, "accuracy_end", accuracy_end),
        ] {
            if value < floor {
                return Err(Invalid::at(
                    &path.key(key),
                    format!("{key} must be at least {after} ({floor}), got {value}"),
                ));
            }
        }
        Band::areas(full, accuracy_end, accuracy, movement_end).map_err(at("falloff"))
    }
}

/// Ring distances: each >= 0 and none smaller than the one before.
fn increasing(key: &KeyPath, values: &[f32]) -> Result<(), Invalid> {
    for (i, &v) in values.iter().enumerate() {
        check(&key.index(i), v, Rule::NonNegative)?;
        if i > 0 && v < values[i - 1] {
            return Err(Invalid::at(
                &key.index(i),
                format!("ring distances must not decrease: {} then {v}", values[i - 1]),
            ));
        }
    }
    Ok(())
}
