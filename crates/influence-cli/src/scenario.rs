//! Scenarios: the TOML model (every key is described in `docs/scenario.md`) and its
//! validation into library objects — a grid, teams with their sources, a perspective and the
//! layers to write. Unknown keys are errors, and every error names the file, line and key.

use std::path::Path;

use influence::{analysis::Analysis, glam::Vec2, Grid, Metric, Mode, Source, MAX_CELLS};
use serde::Deserialize;

use crate::doc::{Doc, KeyPath};
use crate::error::CliError;
use crate::falloff::FalloffKind;
use crate::field::{FieldSpec, Fields};
use crate::map::{MapFiles, MapSpec};
use crate::propagation::{Kind, Propagation, PropagationSpec};
use crate::route::{PathPlan, PathSpec};

/// A scenario file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    map: MapSpec,
    perspective: Option<String>,
    #[serde(default, rename = "source")]
    sources: Vec<SourceSpec>,
    #[serde(default)]
    output: OutputSpec,
    propagation: Option<PropagationSpec>,
    field: Option<FieldSpec>,
    #[serde(default, rename = "path")]
    paths: Vec<PathSpec>,
}

/// One `[[source]]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceSpec {
    team: String,
    at: Fixed<2>,
    strength: f32,
    radius: Option<f32>,
    #[serde(default)]
    distance: Metric,
    /// `None`: `add`, or `set` when the sources seed a propagation.
    mode: Option<Mode>,
    /// The curve's name; its parameters follow.
    pub falloff: FalloffKind,
    /// Exponential decay per world unit.
    pub rate: Option<f32>,
    /// Halving distance.
    pub step: Option<f32>,
    /// Polynomial exponent.
    pub power: Option<f32>,
    /// Gaussian standard deviation.
    pub sigma: Option<f32>,
    /// Band `(distance, factor)` points.
    pub points: Option<Vec<Fixed<2>>>,
    /// Band areas: end of full strength.
    pub full: Option<f32>,
    /// Band areas: end of the accuracy area.
    pub accuracy_end: Option<f32>,
    /// Band areas: factor at the end of the accuracy area.
    pub accuracy: Option<f32>,
    /// Band areas: end of the movement area.
    pub movement_end: Option<f32>,
    /// Band ring: `[inner_fade, inner, outer, outer_fade]`.
    pub ring: Option<Fixed<4>>,
}

/// The `[output]` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct OutputSpec {
    layers: Option<Vec<String>>,
    upscale: Option<u32>,
    #[serde(default)]
    markers: bool,
}

/// An array of exactly `N` numbers (serde's own arrays let extra elements through).
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(try_from = "Vec<f32>")]
pub struct Fixed<const N: usize>(pub [f32; N]);

impl<const N: usize> TryFrom<Vec<f32>> for Fixed<N> {
    type Error = String;
    fn try_from(v: Vec<f32>) -> Result<Self, String> {
        v.try_into().map(Self).map_err(|v: Vec<f32>| format!("expected {N} numbers, got {}", v.len()))
    }
}

/// A layer that can be written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LayerName {
    /// A team's own influence, by team index.
    Team(usize),
    /// One of [`Analysis::NAMES`].
    Analysis(&'static str),
    /// The front line as a 0/1 mask.
    Frontline,
    /// The chase flood fill's heat.
    Heat,
}

/// Layers written when `[output] layers` is not given (besides every team).
const DEFAULT_LAYERS: [&str; 4] = ["influence", "tension", "vulnerability", "frontline"];

/// Upscale chosen automatically makes the picture at least this wide...
const AUTO_WIDTH: usize = 512;
/// ...but never scales by more than this.
const AUTO_MAX_UPSCALE: u32 = 8;

/// A validated scenario, ready to run.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The scenario's file name as shown in messages.
    pub file: String,
    /// The map.
    pub grid: Grid,
    /// Team names, in order of first appearance among the `[[source]]` tables, then the
    /// `[[field.source]]` tables.
    pub teams: Vec<String>,
    /// Each source with its team's index.
    pub sources: Vec<(usize, Source)>,
    /// The perspective team's index.
    pub perspective: usize,
    /// The layers to write, in order, with their file stems.
    pub layers: Vec<(String, LayerName)>,
    /// Pixels per cell in pictures.
    pub upscale: u32,
    /// Whether pictures mark the sources.
    pub markers: bool,
    /// Things worth knowing that are not errors (a source outside the map).
    pub notes: Vec<String>,
    /// The `[propagation]` table, if any.
    pub propagation: Option<Propagation>,
    /// The `[field]` sources, per team.
    pub fields: Fields,
    /// The `[[path]]` routes to find, in order.
    pub paths: Vec<PathPlan>,
}

/// Reads and validates the scenario file at `path`; `map.file` resolves against its folder.
///
/// # Errors
/// [`CliError::Input`] naming the file, line and key of the first problem.
pub fn load(path: &Path) -> Result<Scenario, CliError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| CliError::input(&shown, None, None, e))?;
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    parse(&shown, &text, &MapFiles::Dir(dir))
}

/// Validates scenario `text`, shown in messages as `file`, reading maps from `maps`.
///
/// # Errors
/// [`CliError::Input`] naming the file, line and key of the first problem.
pub fn parse(file: &str, text: &str, maps: &MapFiles<'_>) -> Result<Scenario, CliError> {
    let doc = Doc::parse(file, text)?;
    if let Some((path, value)) = doc.first_non_finite() {
        return Err(doc.error(&path, format!("must be a finite 32-bit number, got {value}")));
    }
    let spec: ScenarioFile = toml::from_str(text).map_err(|e| doc.serde_error(&e))?;
    let grid = spec.map.grid(&doc, maps)?;
    let kind = spec.propagation.as_ref().map(PropagationSpec::kind);
    if spec.sources.is_empty() && !spec.field.as_ref().is_some_and(FieldSpec::has_sources) {
        return Err(CliError::input(
            doc.file(),
            None,
            None,
            "no [[source]] tables (nor [[field.source]]): a scenario needs at least one",
        ));
    }
    let (mut teams, sources, mut notes) = sources(&doc, &grid, &spec.sources, kind)?;
    let fields = match &spec.field {
        Some(field) => {
            let mut team_of = Vec::new();
            for (i, name) in field.team_names() {
                let path = KeyPath::root("field").key("source").index(i).key("team");
                check_team_name(name).map_err(|m| doc.error(&path, m))?;
                team_of.push(team_index(&mut teams, name));
            }
            field.validate(&doc, |i| team_of[i])?
        }
        None => Fields::default(),
    };
    let propagation = match &spec.propagation {
        Some(p) => Some(p.validate(&doc, &grid, &mut notes)?),
        None => None,
    };
    let perspective = match &spec.perspective {
        None => 0,
        Some(name) => teams.iter().position(|t| t == name).ok_or_else(|| {
            doc.error(&KeyPath::root("perspective"), format!("no source has team {name:?}; teams: {teams:?}"))
        })?,
    };
    let heat = kind == Some(Kind::Flood);
    let layers = output_layers(&doc, &teams, heat, spec.output.layers.as_deref())?;
    let upscale = upscale(&doc, &grid, spec.output.upscale)?;
    let paths = spec
        .paths
        .iter()
        .enumerate()
        .map(|(i, p)| p.validate(&doc, i, &grid, |name| layer_named(&teams, heat, name)))
        .collect::<Result<_, _>>()?;
    Ok(Scenario {
        file: file.to_owned(),
        grid,
        teams,
        sources,
        perspective,
        layers,
        upscale,
        markers: spec.output.markers,
        notes,
        propagation,
        fields,
        paths,
    })
}

/// The given upscale, checked, or the automatic one: the picture at least [`AUTO_WIDTH`]
/// pixels wide, scaled by at most [`AUTO_MAX_UPSCALE`]. Either way the picture must have at
/// most [`MAX_CELLS`] pixels, as the renderer requires.
fn upscale(doc: &Doc, grid: &Grid, given: Option<u32>) -> Result<u32, CliError> {
    let fits = |u: u32| {
        let u = u as usize;
        (grid.width() * u).checked_mul(grid.height() * u).is_some_and(|n| n <= MAX_CELLS)
    };
    match given {
        Some(u @ 1..=64) if fits(u) => Ok(u),
        Some(u) => Err(doc.error(
            &KeyPath::root("output").key("upscale"),
            format!("must be 1 to 64 and keep the picture within 2^28 pixels, got {u}"),
        )),
        None => {
            let wanted = u32::try_from(AUTO_WIDTH.div_ceil(grid.width())).unwrap_or(u32::MAX);
            Ok((1..=wanted.clamp(1, AUTO_MAX_UPSCALE)).rev().find(|&u| fits(u)).unwrap_or(1))
        }
    }
}

/// Teams (in order of first appearance), library sources and notes from the `[[source]]` tables.
type Sources = (Vec<String>, Vec<(usize, Source)>, Vec<String>);

fn sources(doc: &Doc, grid: &Grid, specs: &[SourceSpec], kind: Option<Kind>) -> Result<Sources, CliError> {
    let (mut teams, mut sources, mut notes) = (Vec::<String>::new(), Vec::new(), Vec::new());
    for (i, spec) in specs.iter().enumerate() {
        let path = KeyPath::root("source").index(i);
        check_team_name(&spec.team).map_err(|m| doc.error(&path.key("team"), m))?;
        let team = team_index(&mut teams, &spec.team);
        let (falloff, extent) = crate::falloff::build(spec, doc, &path, grid.cell_size())?;
        let radius = spec.radius.or(extent).ok_or_else(|| {
            doc.error(&path.key("radius"), format!("required for falloff \"{}\"", spec.falloff))
        })?;
        let mode = source_mode(doc, &path, spec.mode, kind)?;
        let at = Vec2::from(spec.at.0);
        // Position and strength are finite (checked first) and the curve is valid, so only
        // the radius can be refused here.
        let source = Source::new(at, spec.strength, falloff, radius)
            .map_err(|e| doc.error(&path.key("radius"), e))?
            .with_metric(spec.distance)
            .with_mode(mode);
        if grid.cell_at(at).is_none() {
            notes.push(format!(
                "{path} at {:?} is outside the map; it reaches only cells within its radius",
                spec.at.0
            ));
        }
        sources.push((team, source));
    }
    Ok((teams, sources, notes))
}

/// A source's mode: as given, else `add` — or `set` when sources seed a diffusion, where
/// an additive seed would add to what has spread back into its cell at every step. The
/// steady state has no solution for additive seeds, so it refuses them.
fn source_mode(doc: &Doc, path: &KeyPath, given: Option<Mode>, kind: Option<Kind>) -> Result<Mode, CliError> {
    match (given, kind) {
        (Some(Mode::Add), Some(Kind::Steady)) => Err(doc.error(
            &path.key("mode"),
            "an \"add\" source has no steady state (it adds to what spreads back into its cell at \
             every step); use \"set\" or \"max\", or propagation kind \"diffuse\"",
        )),
        (Some(mode), _) => Ok(mode),
        (None, Some(Kind::Diffuse | Kind::Steady)) => Ok(Mode::Set),
        (None, _) => Ok(Mode::Add),
    }
}

/// The index of team `name`, added at the end if new.
fn team_index(teams: &mut Vec<String>, name: &str) -> usize {
    teams.iter().position(|t| t == name).unwrap_or_else(|| {
        teams.push(name.to_owned());
        teams.len() - 1
    })
}

/// Team names become file names and layer names, so they are kept plain and distinct from
/// the compound layers.
fn check_team_name(name: &str) -> Result<(), String> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(format!("team names use letters, digits, '_' and '-' only, got {name:?}"));
    }
    if name == "frontline" || name == "heat" || Analysis::NAMES.contains(&name) {
        return Err(format!("{name:?} is the name of a compound layer; pick another team name"));
    }
    Ok(())
}

fn output_layers(
    doc: &Doc,
    teams: &[String],
    heat: bool,
    names: Option<&[String]>,
) -> Result<Vec<(String, LayerName)>, CliError> {
    let extra = heat.then(|| "heat".to_owned());
    let defaults: Vec<String> =
        teams.iter().cloned().chain(DEFAULT_LAYERS.map(String::from)).chain(extra).collect();
    let mut layers: Vec<(String, LayerName)> = Vec::new();
    for (i, name) in names.unwrap_or(&defaults).iter().enumerate() {
        let path = KeyPath::root("output").key("layers").index(i);
        let layer = layer_named(teams, heat, name).map_err(|m| doc.error(&path, m))?;
        if layers.iter().any(|(n, _)| n == name) {
            return Err(doc.error(&path, format!("layer {name:?} is listed twice")));
        }
        layers.push((name.clone(), layer));
    }
    Ok(layers)
}

/// The layer called `name`, among the teams' and the compound ones (and `heat` after a
/// flood fill); the message lists the known names.
fn layer_named(teams: &[String], heat: bool, name: &str) -> Result<LayerName, String> {
    if let Some(t) = teams.iter().position(|t| t == name) {
        Ok(LayerName::Team(t))
    } else if let Some(&a) = Analysis::NAMES.iter().find(|&&a| a == name) {
        Ok(LayerName::Analysis(a))
    } else if name == "frontline" {
        Ok(LayerName::Frontline)
    } else if heat && name == "heat" {
        Ok(LayerName::Heat)
    } else {
        let hint = if name == "heat" { " (it comes with [propagation] kind = \"flood\")" } else { "" };
        let heat = heat.then_some("heat");
        let known = teams.iter().map(String::as_str).chain(Analysis::NAMES).chain(["frontline"]).chain(heat);
        let known = known.collect::<Vec<_>>().join(", ");
        Err(format!("unknown layer {name:?}{hint}; known: {known}"))
    }
}

impl Scenario {
    /// The layer called `name`, as `[output] layers` would take it.
    ///
    /// # Errors
    /// A message listing the known names.
    pub fn layer_named(&self, name: &str) -> Result<LayerName, String> {
        let flood = self.propagation.as_ref().is_some_and(|p| p.kind() == Kind::Flood);
        layer_named(&self.teams, flood, name)
    }
}
