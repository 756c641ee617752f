//! The `[field]` table: grid-free point sources ("Escaping the Grid"), in 2D or 3D, whose
//! exact values are sampled at the cell centres of the scenario's map (at height `z` in 3D)
//! and added to their teams' layers — so every output works unchanged.

use std::fmt;

use influence::field::{Curve, Field, PointSource};
use influence::glam::{Vec2, Vec3};
use influence::{Error, Grid, Layer};
use serde::{Deserialize, Serialize};

use crate::error::Invalid;
use crate::key::KeyPath;
use crate::rule::{check, Rule};

/// The `[field]` table as written (the keys are described in `docs/scenario.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)] // the keys are documented in docs/scenario.md
pub struct FieldSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dimensions: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub z: Option<f32>,
    #[serde(default, rename = "source", skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<FieldSourceSpec>,
}

/// One `[[field.source]]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)] // the keys are documented in docs/scenario.md
pub struct FieldSourceSpec {
    pub team: String,
    pub at: Vec<f32>,
    pub strength: f32,
    pub radius: f32,
    pub falloff: CurveName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<f32>,
}

/// The `falloff` names of field sources: the differentiable curves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)] // influence::field::Curve describes each
pub enum CurveName {
    Linear,
    Smooth,
    Polynomial,
    Gaussian,
    Exponential,
}

impl fmt::Display for CurveName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format!("{self:?}").to_lowercase())
    }
}

/// A field in 2D, or in 3D sampled at a height.
#[derive(Debug, Clone)]
pub enum AnyField {
    /// In the plane.
    Two(Field<Vec2>),
    /// In space, sampled at height `z`.
    Three(Field<Vec3>, f32),
}

impl AnyField {
    /// The field's values at the cell centres of `grid` (0 in blocked cells).
    pub fn sample(&self, grid: &Grid) -> Layer {
        let mut layer = Layer::for_space(grid);
        match self {
            Self::Two(f) => f.sample_onto(grid, 0.0, &mut layer),
            Self::Three(f, z) => f.sample_onto(grid, *z, &mut layer),
        }
        layer
    }
}

/// One team's field sources, validated.
#[derive(Debug, Clone)]
pub struct TeamField {
    /// The team's index.
    pub team: usize,
    /// Its field.
    pub field: AnyField,
    /// How many sources it has.
    pub sources: usize,
}

/// The validated `[field]` table: one field per team that has field sources, and each
/// source's `(x, y)` for markers.
#[derive(Debug, Clone, Default)]
pub struct Fields {
    /// Per team with field sources, in team order.
    pub teams: Vec<TeamField>,
    /// Each source's team and `(x, y)`.
    pub positions: Vec<(usize, Vec2)>,
}

impl FieldSpec {
    /// Whether the table has sources.
    pub fn has_sources(&self) -> bool {
        !self.sources.is_empty()
    }

    /// The team names of the sources, in order.
    pub fn team_names(&self) -> impl Iterator<Item = (usize, &str)> {
        self.sources.iter().enumerate().map(|(i, s)| (i, s.team.as_str()))
    }

    /// Validates the sources; `team_of(i)` is the index of source `i`'s team.
    ///
    /// # Errors
    /// [`Invalid`] naming the key at fault.
    pub fn validate(&self, team_of: impl Fn(usize) -> usize) -> Result<Fields, Invalid> {
        let root = KeyPath::root("field");
        let three = match self.dimensions {
            None | Some(2) => false,
            Some(3) => true,
            Some(n) => return Err(Invalid::at(&root.key("dimensions"), format!("must be 2 or 3, got {n}"))),
        };
        if self.z.is_some() && !three {
            return Err(Invalid::at(&root.key("z"), "applies only to dimensions = 3"));
        }
        if self.sources.is_empty() {
            return Err(Invalid::at(&root, "[field] has no [[field.source]] tables"));
        }
        let dims = if three { 3 } else { 2 };
        let (mut two, mut space): (PerTeam<Vec2>, PerTeam<Vec3>) = (Vec::new(), Vec::new());
        let mut positions = Vec::new();
        for (i, spec) in self.sources.iter().enumerate() {
            let path = root.key("source").index(i);
            if spec.at.len() != dims {
                let message =
                    format!("expected {dims} numbers for dimensions = {dims}, got {}", spec.at.len());
                return Err(Invalid::at(&path.key("at"), message));
            }
            let curve = curve(spec, &path)?;
            check(&path.key("radius"), spec.radius, Rule::Positive)?;
            check(&path.key("strength"), spec.strength, Rule::Finite)?;
            for (k, &c) in spec.at.iter().enumerate() {
                check(&path.key("at").index(k), c, Rule::Finite)?;
            }
            // Every number was checked above, so the library has nothing left to refuse.
            let at = |e: Error| Invalid::at(&path, e);
            let team = team_of(i);
            let xy = Vec2::new(spec.at[0], spec.at[1]);
            positions.push((team, xy));
            if three {
                let p =
                    PointSource::new(xy.extend(spec.at[2]), spec.strength, spec.radius, curve).map_err(at)?;
                grow(&mut space, team).push(p);
            } else {
                grow(&mut two, team)
                    .push(PointSource::new(xy, spec.strength, spec.radius, curve).map_err(at)?);
            }
        }
        let z = self.z.unwrap_or(0.0);
        let teams = if three {
            space
                .into_iter()
                .enumerate()
                .filter(|(_, s)| !s.is_empty())
                .map(|(team, s)| TeamField {
                    team,
                    sources: s.len(),
                    field: AnyField::Three(Field::new(s), z),
                })
                .collect()
        } else {
            two.into_iter()
                .enumerate()
                .filter(|(_, s)| !s.is_empty())
                .map(|(team, s)| TeamField { team, sources: s.len(), field: AnyField::Two(Field::new(s)) })
                .collect()
        };
        Ok(Fields { teams, positions })
    }
}

/// Point sources per team index.
type PerTeam<P> = Vec<Vec<PointSource<P>>>;

/// The list for `team`, growing `lists` as needed.
fn grow<T>(lists: &mut Vec<Vec<T>>, team: usize) -> &mut Vec<T> {
    if lists.len() <= team {
        lists.resize_with(team + 1, Vec::new);
    }
    &mut lists[team]
}

impl FieldSourceSpec {
    /// The key of the curve's parameter, or `falloff` for a curve without one.
    fn falloff_key(&self) -> &'static str {
        match self.falloff {
            CurveName::Polynomial => "power",
            CurveName::Gaussian => "sigma",
            CurveName::Exponential => "rate",
            CurveName::Linear | CurveName::Smooth => "falloff",
        }
    }
}

/// The curve of a source: exactly its own parameter, required.
fn curve(spec: &FieldSourceSpec, path: &KeyPath) -> Result<Curve, Invalid> {
    let kind = spec.falloff;
    let own = spec.falloff_key();
    let given = [("power", spec.power), ("sigma", spec.sigma), ("rate", spec.rate)];
    if let Some((key, _)) = given.iter().find(|(k, v)| v.is_some() && *k != own) {
        let takes = if own == "falloff" { "no parameters".to_owned() } else { format!("only `{own}`") };
        return Err(Invalid::at(
            &path.key(key),
            format!("is not a parameter of falloff \"{kind}\", which takes {takes}"),
        ));
    }
    let need = |v: Option<f32>, rule: Rule| {
        let v =
            v.ok_or_else(|| Invalid::missing(&path.key(own), format!("falloff \"{kind}\" needs `{own}`")))?;
        check(&path.key(own), v, rule)
    };
    Ok(match kind {
        CurveName::Linear => Curve::Linear,
        CurveName::Smooth => Curve::Smooth,
        CurveName::Polynomial => Curve::Polynomial { power: need(spec.power, Rule::Positive)? },
        CurveName::Gaussian => Curve::Gaussian { sigma: need(spec.sigma, Rule::Positive)? },
        CurveName::Exponential => Curve::Exponential { rate: need(spec.rate, Rule::NonNegative)? },
    })
}
