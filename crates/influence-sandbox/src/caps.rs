//! What the sandbox adds to the scenario model of `influence_scenario`: caps on every size
//! and magnitude a request may ask for ([`limits`]), checked before the model's own checks so
//! that no request can make the sandbox allocate or compute without bound; and those checks'
//! messages as the API reports them.
//!
//! The JSON API takes the scenario's own tables (`docs/scenario.md`), so a source posted to
//! `/api/sources` is a `[[source]]` table written as JSON, with the same keys, defaults and
//! checks as `influence render`.

use influence::{Grid, Source};
use influence_scenario::error::Problem;
use influence_scenario::layers::layer_named;
use influence_scenario::map::MapSpec;
use influence_scenario::propagation::{Kind, Propagation, PropagationSpec};
use influence_scenario::route::{PathPlan, PathSpec};
use influence_scenario::source::SourceSpec;
use influence_scenario::{Invalid, KeyPath};

use crate::error::SceneError;
use serde::Serialize;

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

/// Every number of `table` that is an `f32` (as serialised: integers are counts, capped on
/// their own) finite and at most [`limits::MAX_ABS`] in magnitude. Serialised, a non-finite
/// `f32` is `null`, and absent keys are left out, so `null` is refused too.
fn numbers(table: &impl Serialize, at: &KeyPath) -> Result<(), SceneError> {
    fn walk(v: &serde_json::Value, key: &KeyPath) -> Result<(), String> {
        let refuse =
            |got: String| Err(format!("{key} must be a finite number of magnitude at most 1e6, got {got}"));
        match v {
            serde_json::Value::Null => refuse("a non-finite number".to_owned()),
            serde_json::Value::Number(n) if n.is_f64() => match n.as_f64() {
                Some(x) if x.abs() <= f64::from(limits::MAX_ABS) => Ok(()),
                // Serialised from an `f32`, so shown as one.
                x => refuse(x.map_or_else(|| n.to_string(), |x| (x as f32).to_string())),
            },
            serde_json::Value::Array(a) => a.iter().enumerate().try_for_each(|(i, v)| walk(v, &key.index(i))),
            serde_json::Value::Object(o) => o.iter().try_for_each(|(k, v)| walk(v, &key.key(k))),
            _ => Ok(()),
        }
    }
    let value = serde_json::to_value(table).map_err(|e| SceneError::Internal(e.to_string()))?;
    walk(&value, at).map_err(SceneError::invalid)
}

/// A source within the caps, then valid as a `[[source]]` table on a map of `cell_size`
/// under a propagation of `kind` (which sets the default mode and refuses additive sources
/// for a steady state).
///
/// # Errors
/// [`SceneError`] naming the key at fault.
pub fn source(spec: &SourceSpec, grid: &Grid, kind: Option<Kind>) -> Result<Source, SceneError> {
    if spec.team.chars().count() > limits::MAX_TEAM_NAME {
        return Err(SceneError::Limit(format!(
            "team names use 1 to 32 letters, digits, '_' and '-', got {:?}",
            spec.team
        )));
    }
    if spec.points.as_ref().is_some_and(|p| p.len() > limits::MAX_BAND_POINTS) {
        return Err(SceneError::Limit(format!("points: at most {} points", limits::MAX_BAND_POINTS)));
    }
    numbers(spec, &KeyPath::default())?;
    Ok(spec.place(&KeyPath::default(), grid, kind, None)?.0)
}

/// `width × height`, refused above [`limits::MAX_CELLS`] before anything is allocated.
fn check_size(width: usize, height: usize) -> Result<(), SceneError> {
    match width.checked_mul(height) {
        Some(n) if width > 0 && height > 0 && n <= limits::MAX_CELLS => Ok(()),
        _ => Err(SceneError::Limit(format!(
            "a map of {width}×{height} cells is not allowed here: 1 to 1048576 cells"
        ))),
    }
}

/// A MovingAI map from its text, its size checked from the header first.
///
/// # Errors
/// [`SceneError`] for a map over the cap or malformed (with its line).
pub fn movingai_grid(text: &str) -> Result<Grid, SceneError> {
    let header = |key: &str| {
        text.lines().take(4).find_map(|l| l.strip_prefix(key)).and_then(|v| v.trim().parse::<usize>().ok())
    };
    if let (Some(w), Some(h)) = (header("width"), header("height")) {
        check_size(w, h)?;
    }
    Grid::from_movingai(text)
        .map_err(|e| SceneError::Scenario { problem: Problem::File, message: e.to_string() })
}

/// The grid of a `[map]` table within the caps: `movingai` is the text `file` names (the
/// caller resolves it).
///
/// # Errors
/// [`SceneError`] naming the key at fault.
pub fn map_grid(spec: &MapSpec, movingai: Option<&str>) -> Result<Grid, SceneError> {
    if let (Some(w), Some(h)) = (spec.width, spec.height) {
        check_size(w, h)?;
    }
    numbers(spec, &KeyPath::root("map"))?;
    let file = KeyPath::root("map").key("file");
    let load = |_: &str| {
        let text = movingai.ok_or_else(|| Invalid::at(&file, "the map's text is missing"))?;
        movingai_grid(text).map_err(|m| Invalid::at(&file, m))
    };
    Ok(spec.grid(load)?)
}

/// A `[propagation]` table within the caps, checked against `grid` (a flood's last-seen cell
/// must be on it and walkable).
///
/// # Errors
/// [`SceneError`] naming the key at fault.
pub fn propagation(spec: &PropagationSpec, grid: &Grid) -> Result<Propagation, SceneError> {
    numbers(spec, &KeyPath::root("propagation"))?;
    for (key, steps) in [("steps", spec.steps), ("max_steps", spec.max_steps)] {
        if let Some(s) = steps.filter(|&s| s > limits::MAX_STEPS) {
            return Err(SceneError::Limit(format!(
                "propagation.{key} must be 1 to {}, got {s}",
                limits::MAX_STEPS
            )));
        }
    }
    Ok(spec.validate(grid, &mut Vec::new())?)
}

/// `path[index]` within the caps, its ends on the map and walkable, its layer one of those
/// of `teams` (and `heat` with a flood fill).
///
/// # Errors
/// [`SceneError`] naming the key at fault.
pub fn path(
    spec: &PathSpec,
    index: usize,
    grid: &Grid,
    teams: &[String],
    heat: bool,
) -> Result<PathPlan, SceneError> {
    numbers(spec, &KeyPath::root("path").index(index))?;
    Ok(spec.validate(index, grid, |name| layer_named(teams, heat, name))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(json: &str) -> Result<Source, String> {
        let spec = serde_json::from_str::<SourceSpec>(json).map_err(|e| e.to_string())?;
        super::source(&spec, &Grid::new(8, 8).unwrap(), None).map_err(|e| e.to_string())
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
        assert!(map_grid(&huge, None).unwrap_err().to_string().contains("not allowed"));
        assert!(movingai_grid("type octile\nheight 100000\nwidth 100000\nmap\n").is_err());
        let rows =
            MapSpec { width: Some(2), height: Some(1), rows: Some(vec![".@".into()]), ..Default::default() };
        assert!(map_grid(&rows, None).unwrap().is_blocked(influence::Cell::new(1, 0)));
    }

    #[test]
    fn propagation_checks_kind_keys_and_ranges() {
        let grid = Grid::from_rows(&["..@"]).unwrap();
        let parse = |j: &str| propagation(&serde_json::from_str::<PropagationSpec>(j).unwrap(), &grid);
        assert_eq!(parse(r#"{"kind":"diffuse","decay":0.1,"steps":5}"#).unwrap().steps(), 5);
        assert!(parse(r#"{"kind":"diffuse","decay":0.1,"steps":0}"#).is_err());
        assert!(parse(r#"{"kind":"diffuse","decay":0.1,"steps":5,"momentum":2}"#).is_err());
        assert!(parse(r#"{"kind":"steady","decay":0.1,"steps":5}"#).is_err());
        assert!(parse(r#"{"kind":"flood","last_seen":[2.5,0.5]}"#)
            .unwrap_err()
            .to_string()
            .contains("blocked"));
        assert_eq!(parse(r#"{"kind":"flood","last_seen":[0.5,0.5]}"#).unwrap().steps(), 10);
    }
}
