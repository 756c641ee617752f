//! The `[map]` table: a MovingAI `.map` file or an ASCII/open grid, with cell size, origin
//! and connectivity.

use influence::{glam::Vec2, Cell, Connectivity, Error, Grid};
use serde::{Deserialize, Serialize};

pub use crate::map_files::{MapFiles, MAX_MAP_FILE, MAX_SCENARIO_FILE};

use crate::error::Invalid;
use crate::fixed::Fixed;
use crate::key::KeyPath;

/// The `[map]` table as written.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    /// A MovingAI `.map` file, relative to the scenario.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Cells across, without `file`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<usize>,
    /// Cells down, without `file`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<usize>,
    /// World units per cell (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell_size: Option<f32>,
    /// World position of the corner of cell (0, 0) (default `[0, 0]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Fixed<2>>,
    /// 4 or 8 (default 8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighbours: Option<u8>,
    /// `height` strings of `width` cells (`.` walkable, `@` blocked, ...), row 0 first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<Vec<String>>,
}

impl MapSpec {
    /// The table that describes `grid` completely: its size, geometry and walls as `rows`.
    pub fn of(grid: &Grid) -> Self {
        Self {
            file: None,
            width: Some(grid.width()),
            height: Some(grid.height()),
            cell_size: Some(grid.cell_size()),
            origin: Some(Fixed(grid.origin().to_array())),
            neighbours: Some(neighbours(grid.connectivity())),
            rows: Some(grid.to_rows()),
        }
    }

    /// The grid this table describes; `load` reads the map that `file` names (it is called
    /// only for a table with `file` and no size).
    ///
    /// # Errors
    /// [`Invalid`] naming the key, or what `load` gives.
    pub fn grid(&self, load: impl FnOnce(&str) -> Result<Grid, Invalid>) -> Result<Grid, Invalid> {
        let key = |k: &str| KeyPath::root("map").key(k);
        let grid = match (&self.file, self.width, self.height) {
            (Some(_), ..) if self.width.is_some() || self.height.is_some() || self.rows.is_some() => {
                return Err(Invalid::at(
                    &key("file"),
                    "give either `file` or `width`/`height`/`rows`, not both",
                ))
            }
            (Some(file), ..) => load(file)?,
            (None, Some(width), Some(height)) => {
                let open = Grid::new(width, height).map_err(|e| Invalid::at(&key("width"), e))?;
                match &self.rows {
                    Some(rows) => ascii(rows, width, height)?,
                    None => open,
                }
            }
            (None, None, _) => {
                return Err(Invalid::at(&key("width"), "the map needs `file`, or `width` and `height`"))
            }
            (None, Some(_), None) => {
                return Err(Invalid::at(&key("height"), "the map needs `height` with `width`"))
            }
        };
        let connectivity = connectivity(self.neighbours).map_err(|m| Invalid::at(&key("neighbours"), m))?;
        grid.with_cell_size(self.cell_size.unwrap_or(1.0))
            .map_err(|e| Invalid::at(&key("cell_size"), e))?
            .with_origin(Vec2::from(self.origin.map_or([0.0; 2], |o| o.0)))
            .map_err(|e| Invalid::at(&key("origin"), e))
            .map(|g| g.with_connectivity(connectivity.unwrap_or(Connectivity::Eight)))
    }
}

/// A grid from `rows`, which must match `width` × `height`.
fn ascii(rows: &[String], width: usize, height: usize) -> Result<Grid, Invalid> {
    let rows_key = KeyPath::root("map").key("rows");
    if rows.len() != height {
        return Err(Invalid::at(&rows_key, format!("has {} rows, but height is {height}", rows.len())));
    }
    if let Some(y) = rows.iter().position(|r| r.chars().count() != width) {
        let n = rows[y].chars().count();
        return Err(Invalid::at(&rows_key.index(y), format!("row has {n} cells, but width is {width}")));
    }
    Grid::from_rows(rows).map_err(|e| match e {
        Error::MapFormat { line, message } => Invalid::at(&rows_key.index(line - 1), message),
        other => Invalid::at(&rows_key, other),
    })
}

/// The connectivity a `neighbours` key asks for, if given.
///
/// # Errors
/// A message for anything but 4 or 8.
pub fn connectivity(neighbours: Option<u8>) -> Result<Option<Connectivity>, String> {
    match neighbours {
        None => Ok(None),
        Some(4) => Ok(Some(Connectivity::Four)),
        Some(8) => Ok(Some(Connectivity::Eight)),
        Some(n) => Err(format!("must be 4 or 8, got {n}")),
    }
}

/// The `neighbours` value of a connectivity: 4 or 8.
pub fn neighbours(c: Connectivity) -> u8 {
    match c {
        Connectivity::Four => 4,
        Connectivity::Eight => 8,
    }
}

/// The walkable cell holding world position `at`, or a message saying why there is none.
///
/// # Errors
/// A message for a position off the map or in a blocked cell.
pub fn walkable_cell(grid: &Grid, at: Vec2) -> Result<usize, String> {
    let Cell { x, y } = grid.cell_at(at).ok_or_else(|| {
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
    if grid.is_blocked(Cell::new(x, y)) {
        return Err(format!("{:?} is in cell ({x}, {y}), which is blocked", at.to_array()));
    }
    grid.index(Cell::new(x, y)).ok_or_else(|| format!("cell ({x}, {y}) is outside the map"))
}
