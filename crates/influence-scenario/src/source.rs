//! One `[[source]]` table: a team's source on the grid, its curve and the curve's
//! parameters (checked in [`falloff`](crate::falloff)), distance and mode.

use influence::glam::Vec2;
use influence::{Cell, Grid, Metric, Mode, Source};
use serde::{Deserialize, Serialize};

pub use crate::falloff::FalloffKind;
use crate::falloff::Params;

use crate::error::Invalid;
use crate::fixed::Fixed;
use crate::key::KeyPath;
use crate::layers::check_team_name;
use crate::propagation::Kind;
use crate::rule::{check, Rule};

/// One `[[source]]` table (the sandbox's API takes the same keys as JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceSpec {
    /// The team's name.
    pub team: String,
    /// World position.
    pub at: Fixed<2>,
    /// Value at the source.
    pub strength: f32,
    /// The curve's name; its parameters follow.
    pub falloff: FalloffKind,
    /// Reach in world units; a band's extent or one cell for a point when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f32>,
    /// Exponential decay per world unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<f32>,
    /// Halving distance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<f32>,
    /// Polynomial exponent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<f32>,
    /// Gaussian standard deviation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f32>,
    /// Band `(distance, factor)` points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Vec<Fixed<2>>>,
    /// Band areas: end of full strength.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full: Option<f32>,
    /// Band areas: end of the accuracy area.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy_end: Option<f32>,
    /// Band areas: factor at the end of the accuracy area.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<f32>,
    /// Band areas: end of the movement area.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement_end: Option<f32>,
    /// Band ring: `[inner_fade, inner, outer, outer_fade]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ring: Option<Fixed<4>>,
    /// How distance is measured; `euclidean` when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<Metric>,
    /// `None`: `add`, or `set` when the sources seed a diffusion or steady state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// What to do if it stands on a wall; `None`: the scenario's `on_blocked`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_blocked: Option<OnBlocked>,
    /// The team's colour in pictures, `"#rrggbb"` (see [`color`](crate::color)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
}

/// What a source standing on a blocked cell does: refuse the scenario with an error naming
/// the nearest walkable cell (the default), or move there.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnBlocked {
    /// An error naming the source, its cell and the nearest walkable cell.
    #[default]
    Error,
    /// Move to the centre of the nearest walkable cell, with a note saying so.
    Snap,
}

impl SourceSpec {
    /// The library source this table (at `path`, e.g. `source[2]`) describes on `grid`,
    /// under a propagation of `kind` (which sets the default mode, and refuses additive
    /// sources for a steady state). A source on a wall is refused, or moved to the nearest
    /// walkable cell's centre if its `on_blocked` (else `scenario_on_blocked`) says `snap`;
    /// the note returned then says so. A source off the map gets a note too: it reaches only
    /// the cells within its radius.
    ///
    /// # Errors
    /// [`Invalid`] naming the key at fault.
    pub fn place(
        &self,
        path: &KeyPath,
        grid: &Grid,
        kind: Option<Kind>,
        scenario_on_blocked: Option<OnBlocked>,
    ) -> Result<(Source, Option<String>), Invalid> {
        let mut source = self.validate(path, grid.cell_size(), kind)?;
        let at = source.position();
        let name = if path.is_empty() { "the source".to_owned() } else { path.to_string() };
        let (cell, nearest) = match source.check_placement(grid) {
            Ok(()) if grid.cell_at(at).is_some() => return Ok((source, None)),
            Ok(()) => {
                let note = format!(
                    "{name} at {} is outside the map; it reaches only cells within its radius",
                    pair(at)
                );
                return Ok((source, Some(note)));
            }
            Err(influence::Error::Unplaced { cell, nearest, .. }) => (cell, nearest),
            Err(e) => return Err(Invalid::at(&path.key("at"), e)),
        };
        let place = match cell {
            Some([x, y]) => format!("is on blocked cell ({x}, {y})"),
            None => "is outside the map, and a point or walking-distance source needs a walkable cell to start from"
                .to_owned(),
        };
        let here = format!("{name} (team {:?}) at {} {place}", self.team, pair(at));
        let nearest = Cell::from(nearest.ok_or_else(|| {
            Invalid::at(&path.key("at"), format!("{here}, and no cell of the map is walkable"))
        })?);
        let centre = grid.center(nearest);
        let there = format!("({}, {}), centre {}", nearest.x, nearest.y, pair(centre));
        match self.on_blocked.or(scenario_on_blocked).unwrap_or_default() {
            OnBlocked::Error => Err(Invalid::at(
                &path.key("at"),
                format!("{here}; the nearest walkable cell is {there}: move it there, or set on_blocked = \"snap\""),
            )),
            OnBlocked::Snap => {
                // A cell centre of a map that holds the source is finite.
                source.set_position(centre).map_err(|e| Invalid::at(&path.key("at"), e))?;
                Ok((source, Some(format!("{here}; moved to the nearest walkable cell, {there} (on_blocked = \"snap\")"))))
            }
        }
    }

    /// The library source this table (at `path`, e.g. `source[2]`) describes on a map of
    /// `cell_size`, under a propagation of `kind`, wherever it stands (see [`place`](Self::place)).
    ///
    /// # Errors
    /// [`Invalid`] naming the key at fault.
    pub fn validate(&self, path: &KeyPath, cell_size: f32, kind: Option<Kind>) -> Result<Source, Invalid> {
        check_team_name(&self.team).map_err(|m| Invalid::at(&path.key("team"), m))?;
        if let Some(text) = &self.color {
            crate::color::parse(text).ok_or_else(|| {
                Invalid::at(&path.key("color"), format!("expected {}, got {text:?}", crate::color::EXPECTED))
            })?;
        }
        let params = Params {
            rate: self.rate,
            step: self.step,
            power: self.power,
            sigma: self.sigma,
            points: self.points.as_deref(),
            full: self.full,
            accuracy_end: self.accuracy_end,
            accuracy: self.accuracy,
            movement_end: self.movement_end,
            ring: self.ring,
        };
        let (falloff, extent) = crate::falloff::build(self.falloff, &params, path, cell_size)?;
        let radius = self.radius.or(extent).ok_or_else(|| {
            Invalid::missing(&path.key("radius"), format!("required for falloff \"{}\"", self.falloff))
        })?;
        check(&path.key("radius"), radius, Rule::Positive)?;
        check(&path.key("strength"), self.strength, Rule::Finite)?;
        for (i, &c) in self.at.0.iter().enumerate() {
            check(&path.key("at").index(i), c, Rule::Finite)?;
        }
        let mode = mode(path, self.mode, kind)?;
        // Every number was checked above, so the library has nothing left to refuse.
        let source = Source::new(Vec2::from(self.at.0), self.strength, falloff, radius)
            .map_err(|e| Invalid::at(path, e))?;
        Ok(source.with_metric(self.distance.unwrap_or_default()).with_mode(mode))
    }
}

/// `[x, y]` as a message writes a point.
fn pair(p: Vec2) -> String {
    format!("[{}, {}]", p.x, p.y)
}

/// A source's mode: as given, else `add` — or `set` when sources seed a diffusion, where
/// an additive seed would add to what has spread back into its cell at every step. The
/// steady state has no solution for additive seeds, so it refuses them.
fn mode(path: &KeyPath, given: Option<Mode>, kind: Option<Kind>) -> Result<Mode, Invalid> {
    match (given, kind) {
        (Some(Mode::Add), Some(Kind::Steady)) => Err(Invalid::at(
            &path.key("mode"),
            "an \"add\" source has no steady state (it adds to what spreads back into its cell at \
             every step); use \"set\" or \"max\", or propagation kind \"diffuse\"",
        )),
        (Some(mode), _) => Ok(mode),
        (None, Some(Kind::Diffuse | Kind::Steady)) => Ok(Mode::Set),
        (None, _) => Ok(Mode::Add),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab;

    #[test]
    fn every_falloff_parameter_is_a_source_key() {
        let keys = vocab::names::<SourceSpec>();
        for name in vocab::names::<FalloffKind>() {
            let kind: FalloffKind = vocab::parse_name(name).unwrap();
            assert_eq!(kind.to_string(), *name);
            for p in kind.params() {
                assert!(keys.contains(p), "{p} of {kind}");
            }
        }
    }
}
