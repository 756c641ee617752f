//! The `[map]` table: a MovingAI `.map` file or an ASCII/open grid, with cell size, origin
//! and connectivity.

use std::borrow::Cow;
use std::path::PathBuf;

use influence::{glam::Vec2, Connectivity, Error, Grid};
use serde::Deserialize;

use crate::doc::{Doc, KeyPath};
use crate::error::CliError;
use crate::scenario::Fixed;

/// The `[map]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    file: Option<String>,
    width: Option<usize>,
    height: Option<usize>,
    rows: Option<Vec<String>>,
    cell_size: Option<f32>,
    origin: Option<Fixed<2>>,
    neighbours: Option<u8>,
}

/// Where `map.file` names are read from.
#[derive(Debug)]
pub enum MapFiles<'a> {
    /// From disk; relative names resolve against this folder (the scenario's).
    Dir(PathBuf),
    /// Built into the program: `(name, text)` pairs.
    Embedded(&'a [(&'a str, &'a str)]),
}

impl MapFiles<'_> {
    /// The map's path as shown in messages, and its text.
    fn read(&self, name: &str) -> Result<(String, Cow<'_, str>), String> {
        match self {
            Self::Dir(dir) => {
                let path = dir.join(name);
                let shown = path.display().to_string();
                match std::fs::read_to_string(&path) {
                    Ok(text) => Ok((shown, Cow::Owned(text))),
                    Err(e) => Err(format!("cannot read {shown}: {e}")),
                }
            }
            Self::Embedded(maps) => maps
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(n, text)| ((*n).to_owned(), Cow::Borrowed(*text)))
                .ok_or_else(|| format!("no embedded map named {name:?}")),
        }
    }
}

impl MapSpec {
    /// The grid this table describes.
    ///
    /// # Errors
    /// [`CliError::Input`] naming the key, or the map file and its line for a malformed map.
    pub fn grid(&self, doc: &Doc, maps: &MapFiles<'_>) -> Result<Grid, CliError> {
        let key = |k: &str| KeyPath::root("map").key(k);
        let grid = match (&self.file, self.width, self.height) {
            (Some(_), ..) if self.width.is_some() || self.height.is_some() || self.rows.is_some() => {
                return Err(doc.error(&key("file"), "give either `file` or `width`/`height`/`rows`, not both"))
            }
            (Some(file), ..) => {
                let (shown, text) = maps.read(file).map_err(|m| doc.error(&key("file"), m))?;
                Grid::from_movingai(&text).map_err(|e| match e {
                    Error::MapFormat { line, message } => {
                        let context = format!("{message} (read for map.file of {})", doc.file());
                        CliError::input(&shown, Some(line), None, context)
                    }
                    other => doc.error(&key("file"), other),
                })?
            }
            (None, Some(width), Some(height)) => {
                let open = Grid::new(width, height).map_err(|e| doc.error(&key("width"), e))?;
                match &self.rows {
                    Some(rows) => ascii(doc, rows, width, height)?,
                    None => open,
                }
            }
            (None, None, _) => {
                return Err(doc.error(&key("width"), "the map needs `file`, or `width` and `height`"))
            }
            (None, Some(_), None) => {
                return Err(doc.error(&key("height"), "the map needs `height` with `width`"))
            }
        };
        let connectivity = match self.neighbours {
            None | Some(8) => Connectivity::Eight,
            Some(4) => Connectivity::Four,
            Some(n) => return Err(doc.error(&key("neighbours"), format!("must be 4 or 8, got {n}"))),
        };
        grid.with_cell_size(self.cell_size.unwrap_or(1.0))
            .map_err(|e| doc.error(&key("cell_size"), e))?
            .with_origin(Vec2::from(self.origin.map_or([0.0; 2], |o| o.0)))
            .map_err(|e| doc.error(&key("origin"), e))
            .map(|g| g.with_connectivity(connectivity))
    }
}

/// A grid from `rows`, which must match `width` × `height`.
fn ascii(doc: &Doc, rows: &[String], width: usize, height: usize) -> Result<Grid, CliError> {
    let rows_key = KeyPath::root("map").key("rows");
    if rows.len() != height {
        return Err(doc.error(&rows_key, format!("has {} rows, but height is {height}", rows.len())));
    }
    if let Some(y) = rows.iter().position(|r| r.chars().count() != width) {
        let n = rows[y].chars().count();
        return Err(doc.error(&rows_key.index(y), format!("row has {n} cells, but width is {width}")));
    }
    Grid::from_rows(rows).map_err(|e| match e {
        Error::MapFormat { line, message } => doc.error(&rows_key.index(line - 1), message),
        other => doc.error(&rows_key, other),
    })
}
/// The walkable cell holding world position `at`, or a message saying why there is none.
pub fn walkable_cell(grid: &Grid, at: Vec2) -> Result<usize, String> {
    let (x, y) = grid.cell_at(at).ok_or_else(|| {
        let (lo, hi) = (
            grid.origin(),
            grid.origin() + grid.cell_size() * Vec2::new(grid.width() as f32, grid.height() as f32),
        );
        format!(
            "{:?} is outside the map, which covers x {}–{}, y {}–{}",
            at.to_array(),
            lo.x,
            hi.x,
            lo.y,
            hi.y
        )
    })?;
    if grid.is_blocked(x, y) {
        return Err(format!("{:?} is in cell ({x}, {y}), which is blocked", at.to_array()));
    }
    grid.index(x, y).ok_or_else(|| format!("cell ({x}, {y}) is outside the map"))
}
