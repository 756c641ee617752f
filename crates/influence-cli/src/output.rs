//! Writing a run to a folder: `<layer>.png` and `<layer>.npy` per requested layer, and
//! `summary.json`. Every picture the command draws goes through this module.

use std::fs;
use std::path::{Path, PathBuf};

use influence::glam::Vec2;
use influence::render::figure::{self, Figure, Key, Shape};
use influence::render::{self, RenderOptions, RgbImage, Scale};

use influence_scenario::engine::{Summary, View};
use influence_scenario::layers::{Compound, LayerName};
use influence_scenario::propagation::Method;

use crate::error::CliError;
use crate::npy;

/// Marker colour of the perspective team's sources (drawn where the influence map is red)...
const MINE: [u8; 3] = [255, 170, 0];
/// ...and of every other team's (where it is blue).
const THEIRS: [u8; 3] = [0, 230, 255];

/// How a picture is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// The figure: title, colour bar, legend, team colours and shapes, the front line in its
    /// own colour, chase marks.
    Figure,
    /// The bare heatmap (`--plain`), for scripts: the map alone, as before figures.
    Plain,
}

/// Writes every requested layer and the summary into `dir`, creating it; returns the files
/// written, in order.
///
/// # Errors
/// [`CliError::Output`] naming the file that could not be written.
pub fn write(run: &View<'_>, summary: &Summary, dir: &Path, look: Look) -> Result<Vec<PathBuf>, CliError> {
    fs::create_dir_all(dir).map_err(|e| CliError::output(dir, &e))?;
    let s = run.scenario();
    let grid = &s.grid;
    let mut written = Vec::new();
    for (name, layer_name) in &s.layers {
        let npy_path = dir.join(format!("{name}.npy"));
        npy::write(&npy_path, grid.width(), grid.height(), run.layer(*layer_name).values())
            .map_err(|e| CliError::output(&npy_path, &e))?;
        let png_path = dir.join(format!("{name}.png"));
        let image = match look {
            Look::Plain => picture(run, *layer_name, None, &png_path)?,
            Look::Figure => figure(run, (name, *layer_name), None, None, &png_path)?,
        };
        write_png(&image, &png_path)?;
        written.extend([png_path, npy_path]);
    }
    let json_path = dir.join("summary.json");
    let fail = |message: String| CliError::Output { path: json_path.display().to_string(), message };
    let json = serde_json::to_string_pretty(summary).map_err(|e| fail(e.to_string()))?;
    fs::write(&json_path, json + "\n").map_err(|e| fail(e.to_string()))?;
    written.push(json_path);
    Ok(written)
}

/// The marker colours pictures may use: the perspective team's, then the others'.
pub const MARKER_COLORS: [[u8; 3]; 2] = [MINE, THEIRS];

/// The picture of one layer of a run, as `render` writes it: the front line on the influence
/// map, markers if the scenario asks for them, and `scale` (automatic when `None`). `path` is
/// the file it is for, named if drawing fails.
///
/// # Errors
/// [`CliError::Output`] naming `path` if the renderer refuses the picture.
pub fn picture(
    run: &View<'_>,
    layer_name: LayerName,
    scale: Option<Scale>,
    path: &Path,
) -> Result<RgbImage, CliError> {
    let s = run.scenario();
    let markers: Vec<(Vec2, [u8; 3])> = if s.markers {
        let color = |team| if team == s.perspective { MINE } else { THEIRS };
        let grid_sources = s.sources.iter().map(|(team, source)| (*team, source.position()));
        let field_sources = s.fields.positions.iter().copied();
        grid_sources.chain(field_sources).map(|(team, at)| (at, color(team))).collect()
    } else {
        Vec::new()
    };
    let options = RenderOptions {
        scale,
        upscale: s.upscale,
        // The influence map shows where its front line runs.
        frontline: (layer_name == LayerName::Analysis(Compound::Influence)).then(|| run.front().to_vec()),
        markers,
        routes: run.routes().iter().flatten().map(|r| r.cells.clone()).collect(),
        ..RenderOptions::default()
    };
    render::render_rgb(&s.grid, &run.layer(layer_name), &options)
        .map_err(|e| CliError::Output { path: path.display().to_string(), message: e.to_string() })
}

/// The figure of one layer of a run (`name`, `layer_name`): the layer framed by the title
/// (the scenario's file stem and the layer's name) and `counter` (e.g. `step 3 / 40`), a
/// colour bar on `scale` (automatic when `None`; for the front-line layer, a scale of the
/// influence map) with values and unit, and a legend naming
/// each team in its colour beside its marker shape. The influence map and the front-line
/// layer show the front line in its own colour, the latter over a faded influence map; a
/// chase marks its last-seen and predicted cells. `path` is named if drawing fails.
///
/// # Errors
/// [`CliError::Output`] naming `path` if the renderer refuses the picture.
pub fn figure(
    run: &View<'_>,
    (name, layer_name): (&str, LayerName),
    scale: Option<Scale>,
    counter: Option<String>,
    path: &Path,
) -> Result<RgbImage, CliError> {
    let s = run.scenario();
    let stem =
        Path::new(&s.file).file_stem().map_or_else(|| s.file.clone(), |f| f.to_string_lossy().into_owned());
    let teams: Vec<Key> = s
        .teams
        .iter()
        .enumerate()
        .map(|(t, name)| Key { name: name.clone(), color: s.team_color(t), shape: Shape::of_team(t) })
        .collect();
    let markers = if s.markers {
        let grid_sources = s.sources.iter().map(|(team, source)| (source.position(), *team));
        let field_sources = s.fields.positions.iter().map(|&(team, at)| (at, team));
        grid_sources.chain(field_sources).collect()
    } else {
        Vec::new()
    };
    let influence = LayerName::Analysis(Compound::Influence);
    // The front-line layer is the influence map faded, with the front line over it.
    let frontline = layer_name == LayerName::Frontline;
    let shown = if frontline { influence } else { layer_name };
    let unit = match shown {
        LayerName::Heat => "heat",
        _ => "influence",
    };
    let ends = (shown == influence && s.teams.len() > 1).then(|| {
        let others: Vec<&str> = s
            .teams
            .iter()
            .enumerate()
            .filter(|&(t, _)| t != s.perspective)
            .map(|(_, n)| n.as_str())
            .collect();
        (format!("{} ahead", others.join(", ")), format!("{} ahead", s.teams[s.perspective]))
    });
    let last_seen = match s.propagation.map(|p| p.method) {
        Some(Method::Flood { last_seen, .. }) => Some(last_seen),
        _ => None,
    };
    let spec = Figure {
        title: format!("{stem}: {name}"),
        counter,
        scale,
        unit: unit.to_owned(),
        ends,
        teams,
        markers,
        front: (shown == influence).then(|| run.front().to_vec()),
        faint: frontline,
        routes: run.routes().iter().flatten().map(|r| r.cells.clone()).collect(),
        last_seen,
        predicted: last_seen.and(run.prediction().map(|p| p.cell)),
        upscale: s.upscale,
    };
    figure::render_figure(&s.grid, &run.layer(shown), &spec)
        .map_err(|e| CliError::Output { path: path.display().to_string(), message: e.to_string() })
}

/// The fixed colours a figure of `run` may use besides the colour map: the frame, its text
/// and a few shades between them, the front line, walls, NaN, marks and outlines, and the
/// teams' colours.
pub fn figure_colors(run: &View<'_>) -> Vec<[u8; 3]> {
    let (bg, fg) = (figure::BACKGROUND, figure::TEXT_COLOR);
    let shade = |k: u16| -> [u8; 3] {
        std::array::from_fn(|c| ((u16::from(bg[c]) * (6 - k) + u16::from(fg[c]) * k) / 6) as u8)
    };
    let mut colors = vec![
        render::OBSTACLE_COLOR,
        [0, 0, 0],
        render::NAN_COLOR,
        bg,
        fg,
        figure::FRONT_COLOR,
        figure::LAST_SEEN_COLOR,
        figure::PREDICTED_COLOR,
    ];
    colors.extend((1..6).map(shade));
    let s = run.scenario();
    colors.extend((0..s.teams.len()).map(|t| s.team_color(t)));
    colors
}

/// Writes a picture as a PNG file.
///
/// # Errors
/// [`CliError::Output`] naming the file.
pub fn write_png(image: &RgbImage, path: &Path) -> Result<(), CliError> {
    render::write_png(image, path).map_err(|e| match e {
        // The library's I/O errors already name the file.
        influence::Error::Io { path, message } => CliError::Output { path, message },
        other => CliError::Output { path: path.display().to_string(), message: other.to_string() },
    })
}
