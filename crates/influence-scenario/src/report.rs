//! What running a scenario found, in the shapes both front ends report (`summary.json` of
//! `influence render`, the sandbox's `GET /api/scene`): the map's geometry and the chase
//! flood fill's guess.

use influence::propagate::Prediction;
use influence::Cell;
use influence::Grid;
use serde::Serialize;

use crate::map::neighbours;

/// A map's size and geometry.
#[derive(Debug, Clone, Serialize)]
pub struct MapReport {
    /// Width in cells.
    pub width: usize,
    /// Height in cells.
    pub height: usize,
    /// Side of a cell in world units.
    pub cell_size: f32,
    /// World position of the corner of cell (0, 0).
    pub origin: [f32; 2],
    /// 4 or 8.
    pub neighbours: u8,
    /// Number of walkable cells.
    pub walkable: usize,
}

impl MapReport {
    /// The report of `grid`.
    pub fn of(grid: &Grid) -> Self {
        Self {
            width: grid.width(),
            height: grid.height(),
            cell_size: grid.cell_size(),
            origin: grid.origin().to_array(),
            neighbours: neighbours(grid.connectivity()),
            walkable: grid.walkable_count(),
        }
    }
}

/// The flood fill's guess of where the target went.
#[derive(Debug, Clone, Serialize)]
pub struct PredictionReport {
    /// The cell the fill started from, `[x, y]` (left out where not reported).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_seen: Option<[usize; 2]>,
    /// The predicted cell `[x, y]`: the warm cell nearest the centroid.
    pub cell: [usize; 2],
    /// World position of the predicted cell's centre.
    pub world: [f32; 2],
    /// The heat-weighted centroid of the warm cells (may lie in a wall).
    pub centroid: [f32; 2],
    /// Steps the fill took.
    pub steps: usize,
    /// Cells still warm at the end.
    pub warm: usize,
    /// Why the fill stopped: `"front_empty"`, `"too_many_new"` or `"max_steps"`.
    pub stop: &'static str,
}

impl PredictionReport {
    /// The report of `prediction` on `grid`, with the last-seen cell if given.
    pub fn new(grid: &Grid, prediction: &Prediction, last_seen: Option<usize>) -> Self {
        let Cell { x, y } = grid.cell(prediction.cell);
        Self {
            last_seen: last_seen.map(|c| grid.cell(c).into()),
            cell: [x, y],
            world: grid.center(Cell::new(x, y)).to_array(),
            centroid: prediction.centroid.truncate().to_array(),
            steps: prediction.steps,
            warm: prediction.warm,
            stop: match (prediction.front_empty, prediction.too_many_new) {
                (true, _) => "front_empty",
                (_, true) => "too_many_new",
                _ => "max_steps",
            },
        }
    }
}
