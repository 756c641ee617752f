//! Writing a run to a folder: `<layer>.png` and `<layer>.npy` per requested layer, and
//! `summary.json`. Every picture the command draws goes through this module.

use std::fs;
use std::path::{Path, PathBuf};

use influence::glam::Vec2;
use influence::render::{self, RenderOptions, RgbImage, Scale};

use influence_scenario::engine::{Summary, View};
use influence_scenario::layers::{Compound, LayerName};

use crate::error::CliError;
use crate::npy;

/// Marker colour of the perspective team's sources (drawn where the influence map is red)...
const MINE: [u8; 3] = [255, 170, 0];
/// ...and of every other team's (where it is blue).
const THEIRS: [u8; 3] = [0, 230, 255];

/// Writes every requested layer and the summary into `dir`, creating it; returns the files
/// written, in order.
///
/// # Errors
/// [`CliError::Output`] naming the file that could not be written.
pub fn write(run: &View<'_>, summary: &Summary, dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    fs::create_dir_all(dir).map_err(|e| CliError::output(dir, &e))?;
    let s = run.scenario();
    let grid = &s.grid;
    let mut written = Vec::new();
    for (name, layer_name) in &s.layers {
        let npy_path = dir.join(format!("{name}.npy"));
        npy::write(&npy_path, grid.width(), grid.height(), run.layer(*layer_name).values())
            .map_err(|e| CliError::output(&npy_path, &e))?;
        let png_path = dir.join(format!("{name}.png"));
        write_png(&picture(run, *layer_name, None, &png_path)?, &png_path)?;
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
