//! Scenarios: a whole file validated into library objects — a grid, teams with their sources,
//! a perspective, the layers to write, a propagation, field sources and routes — every error
//! naming the file, line and key. The tables themselves are in [`file`](crate::file).

use std::path::Path;

use influence::{Grid, Source, MAX_CELLS};

use crate::doc::Doc;
use crate::error::{Invalid, Located, Problem};
use crate::field::{FieldSpec, Fields};
use crate::file::ScenarioFile;
use crate::key::KeyPath;
use crate::layers::{check_case, check_team_name, layer_named, team_index, LayerName};
use crate::map::MapFiles;
use crate::memory;
use crate::propagation::{Kind, Propagation};
use crate::route::PathPlan;
use crate::source::{OnBlocked, SourceSpec};

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
    /// The colours `[[source]]` tables give their teams, by team name (the others take
    /// [`color::PALETTE`](crate::color::PALETTE) in team order: [`Scenario::team_color`]).
    pub colors: Vec<(String, [u8; 3])>,
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
/// [`Located`] naming the file, line and key of the first problem.
pub fn load(path: &Path) -> Result<Scenario, Located> {
    let shown = path.display().to_string();
    let bytes = crate::map_files::read_capped(path, crate::map_files::MAX_SCENARIO_FILE, "scenario file")
        .map_err(|e| Located::new(&shown, Problem::File, e))?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let (line, column) = crate::doc::position(&String::from_utf8_lossy(&bytes), e.valid_up_to());
        let message = format!("not UTF-8 text: invalid byte at offset {}", e.valid_up_to());
        Located::new(&shown, Problem::Syntax, message).at(Some(line), Some(column))
    })?;
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    parse(&shown, text, &MapFiles::Dir(dir))
}

/// Validates scenario `text`, shown in messages as `file`, reading maps from `maps`.
///
/// # Errors
/// [`Located`] naming the file, line and key of the first problem.
pub fn parse(file: &str, text: &str, maps: &MapFiles<'_>) -> Result<Scenario, Located> {
    let doc = Doc::parse(file, text)?;
    crate::known::check(&doc)?;
    doc.check_numbers()?;
    let spec = ScenarioFile::from_doc(&doc)?;
    validate(&spec, file, maps).map_err(|e| doc.place(e))
}

/// Validates the tables of a scenario file shown in messages as `file`, reading maps from
/// `maps`.
///
/// # Errors
/// [`Invalid`] naming the key of the first problem (no line: that takes the text, see
/// [`parse`]).
pub fn validate(spec: &ScenarioFile, file: &str, maps: &MapFiles<'_>) -> Result<Scenario, Invalid> {
    let team_count = {
        let mut names: Vec<&str> = spec.sources.iter().map(|s| s.team.as_str()).collect();
        names.extend(spec.field.iter().flat_map(|f| f.team_names().map(|(_, name)| name)));
        names.sort_unstable();
        names.dedup();
        names.len()
    };
    let fits = |key: &str, cells: usize| {
        memory::check(&KeyPath::root("map").key(key), cells, team_count, spec.propagation.is_some())
    };
    // A size given in the file is checked before the map is allocated (past `MAX_CELLS`,
    // the library's own limit speaks); a map file is at most 2^28 bytes (its own cap), and
    // is checked once read.
    if let (None, Some(width), Some(height)) = (&spec.map.file, spec.map.width, spec.map.height) {
        if width.saturating_mul(height) <= MAX_CELLS {
            fits("width", width * height)?;
        }
    }
    let grid = spec.map.grid(|name| maps.grid(name, file))?;
    if spec.map.file.is_some() {
        fits("file", grid.width() * grid.height())?;
    }
    let kind = spec.propagation.as_ref().map(|p| p.kind);
    if spec.sources.is_empty() && !spec.field.as_ref().is_some_and(FieldSpec::has_sources) {
        return Err(Invalid::File(Located::new(
            file,
            Problem::Missing,
            "no [[source]] tables (nor [[field.source]]): a scenario needs at least one",
        )));
    }
    let (mut teams, sources, mut notes) = sources(&grid, &spec.sources, kind, spec.on_blocked)?;
    let colors = crate::color::given(&spec.sources)?;
    let fields = match &spec.field {
        Some(field) => {
            let mut team_of = Vec::new();
            for (i, name) in field.team_names() {
                let path = KeyPath::root("field").key("source").index(i).key("team");
                check_team_name(name).map_err(|m| Invalid::at(&path, m))?;
                check_case(&teams, name).map_err(|m| Invalid::at(&path, m))?;
                team_of.push(team_index(&mut teams, name));
            }
            field.validate(|i| team_of[i])?
        }
        None => Fields::default(),
    };
    let propagation = match &spec.propagation {
        Some(p) => Some(p.validate(&grid, &mut notes)?),
        None => None,
    };
    let perspective = match &spec.perspective {
        None => 0,
        Some(name) => teams.iter().position(|t| t == name).ok_or_else(|| {
            let given = crate::known::shorten(name);
            let message = match crate::vocab::suggest(name, teams.iter().map(String::as_str)) {
                Some(near) => format!("no source has team {given:?}; did you mean {near:?}?"),
                None => format!("no source has team {given:?}; the teams are {}", teams.join(", ")),
            };
            Invalid::at(&KeyPath::root("perspective"), message)
        })?,
    };
    let heat = kind == Some(Kind::Flood);
    let layers = output_layers(&teams, heat, spec.output.layers.as_deref())?;
    let upscale = upscale(&grid, spec.output.upscale)?;
    let paths = spec
        .paths
        .iter()
        .enumerate()
        .map(|(i, p)| p.validate(i, &grid, |name| layer_named(&teams, heat, name)))
        .collect::<Result<_, _>>()?;
    Ok(Scenario {
        file: file.to_owned(),
        grid,
        teams,
        sources,
        colors,
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
fn upscale(grid: &Grid, given: Option<u32>) -> Result<u32, Invalid> {
    let fits = |u: u32| {
        let u = u as usize;
        (grid.width() * u).checked_mul(grid.height() * u).is_some_and(|n| n <= MAX_CELLS)
    };
    match given {
        Some(u @ 1..=64) if fits(u) => Ok(u),
        Some(u) => Err(Invalid::at(
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

fn sources(
    grid: &Grid,
    specs: &[SourceSpec],
    kind: Option<Kind>,
    on_blocked: Option<OnBlocked>,
) -> Result<Sources, Invalid> {
    let (mut teams, mut sources, mut notes) = (Vec::<String>::new(), Vec::new(), Vec::new());
    for (i, spec) in specs.iter().enumerate() {
        let path = KeyPath::root("source").index(i);
        let (source, note) = spec.place(&path, grid, kind, on_blocked)?;
        notes.extend(note);
        check_case(&teams, &spec.team).map_err(|m| Invalid::at(&path.key("team"), m))?;
        sources.push((team_index(&mut teams, &spec.team), source));
    }
    Ok((teams, sources, notes))
}

fn output_layers(
    teams: &[String],
    heat: bool,
    names: Option<&[String]>,
) -> Result<Vec<(String, LayerName)>, Invalid> {
    let extra = heat.then(|| "heat".to_owned());
    let defaults: Vec<String> =
        teams.iter().cloned().chain(DEFAULT_LAYERS.map(String::from)).chain(extra).collect();
    let mut layers: Vec<(String, LayerName)> = Vec::new();
    for (i, name) in names.unwrap_or(&defaults).iter().enumerate() {
        let path = KeyPath::root("output").key("layers").index(i);
        let layer = layer_named(teams, heat, name).map_err(|m| Invalid::at(&path, m))?;
        if layers.iter().any(|(n, _)| n == name) {
            return Err(Invalid::at(&path, format!("layer {name:?} is listed twice")));
        }
        layers.push((name.clone(), layer));
    }
    Ok(layers)
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

    /// Team `t`'s colour in pictures: the one its sources give, else the palette's.
    pub fn team_color(&self, t: usize) -> [u8; 3] {
        crate::color::team_color(&self.colors, t, self.teams.get(t).map_or("", String::as_str))
    }

    /// A library error met while propagating, pinned to the `[propagation]` table.
    pub fn propagation_failed(&self, e: &influence::Error) -> Located {
        Located::new(&self.file, Problem::Run, e).with_key(KeyPath::root("propagation"))
    }
}
