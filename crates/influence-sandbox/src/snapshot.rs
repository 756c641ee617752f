//! The last completed state of the scene, as readers get it: copied out of the engine by the
//! worker after each computation (`Scene::snapshot`), shared by every request and never
//! changed. Reads (`GET /api/scene`, frames, cells, export) answer from it at once, however
//! long the worker's next computation takes; a frame or export is encoded once per snapshot,
//! by the first request that asks for it, and shared by every other.

use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use influence::{Cell, Grid, Layer, Space};
use influence_scenario::file::ScenarioFile;

use crate::api::{CellView, LiveView, Steps};
use crate::error::SceneError;
use crate::frame::{self, FrameInfo};

/// What [`Snapshot::new`] is made of.
#[derive(Debug)]
pub struct Parts {
    /// The scene's edit counter.
    pub version: u64,
    /// Step counts.
    pub steps: Steps,
    /// The scene as `GET /api/scene` gives it (without `computing`).
    pub scene: serde_json::Value,
    /// The map, with its walls.
    pub grid: Arc<Grid>,
    /// Every layer the scene lists, by name, in its order.
    pub layers: Vec<(String, Arc<Layer>)>,
    /// The front line of `influence`.
    pub front: Vec<bool>,
    /// Each route's cells (none where unreachable).
    pub routes: Vec<Vec<usize>>,
    /// The flood's predicted cell.
    pub predicted: Option<usize>,
    /// The flood's last-seen cell.
    pub last_seen: Option<usize>,
    /// A layer that overflowed: frames and cells are refused with it.
    pub overflow: Option<SceneError>,
    /// The scene as a scenario (without its map, written from `grid`).
    pub export: ScenarioFile,
}

/// A completed state of the scene.
#[derive(Debug)]
pub struct Snapshot {
    /// The scene's edit counter.
    pub version: u64,
    /// Step counts.
    pub steps: Steps,
    /// The map (shared with the next snapshot when no edit comes between).
    pub grid: Arc<Grid>,
    scene: serde_json::Value,
    layers: Vec<(String, Arc<Layer>, OnceLock<Bytes>)>,
    front: Vec<bool>,
    routes: Vec<Vec<usize>>,
    predicted: Option<usize>,
    last_seen: Option<usize>,
    overflow: Option<SceneError>,
    export: ScenarioFile,
    export_text: OnceLock<Result<String, SceneError>>,
}

/// What readers are shown: the last completed snapshot, and whether a newer edit is being
/// computed meanwhile.
#[derive(Debug, Clone)]
pub struct Shown {
    /// The last completed state.
    pub snapshot: Arc<Snapshot>,
    /// A newer edit was accepted and is being computed.
    pub computing: bool,
}

impl Shown {
    /// `GET /api/scene`: the snapshot's scene with `computing`.
    pub fn scene_json(&self) -> Vec<u8> {
        self.snapshot.scene_json(self.computing, None)
    }

    /// What `GET /api/live` sends.
    pub fn live(&self) -> LiveView {
        LiveView { version: self.snapshot.version, steps: self.snapshot.steps, computing: self.computing }
    }
}

impl Snapshot {
    /// A snapshot of `parts`.
    pub fn new(parts: Parts) -> Self {
        let Parts {
            version,
            steps,
            scene,
            grid,
            layers,
            front,
            routes,
            predicted,
            last_seen,
            overflow,
            export,
        } = parts;
        Self {
            version,
            steps,
            grid,
            scene,
            layers: layers.into_iter().map(|(name, layer)| (name, layer, OnceLock::new())).collect(),
            front,
            routes,
            predicted,
            last_seen,
            overflow,
            export,
            export_text: OnceLock::new(),
        }
    }

    /// The scene as JSON, with `computing`; with `id`, `{"id": id, "scene": ...}` (what adding
    /// a source answers).
    pub fn scene_json(&self, computing: bool, id: Option<u32>) -> Vec<u8> {
        let mut scene = self.scene.clone();
        if let Some(map) = scene.as_object_mut() {
            map.insert("computing".to_owned(), computing.into());
        }
        let value = match id {
            Some(id) => serde_json::json!({ "id": id, "scene": scene }),
            None => scene,
        };
        serde_json::to_vec(&value).unwrap_or_default()
    }

    /// Cells of the map.
    pub fn cells(&self) -> usize {
        self.grid.len()
    }

    /// Whether the scene has a layer called `name`.
    ///
    /// # Errors
    /// [`SceneError::NotFound`] naming the layers there are.
    pub fn check_layer(&self, name: &str) -> Result<(), SceneError> {
        if self.layers.iter().any(|(n, ..)| n == name) {
            return Ok(());
        }
        let names: Vec<&str> = self.layers.iter().map(|(n, ..)| n.as_str()).collect();
        Err(SceneError::NotFound(format!("no layer {name:?}; layers: {}", names.join(", "))))
    }

    /// The layer `name` as a frame (`frame.rs`), encoded by the first request for it.
    ///
    /// # Errors
    /// [`SceneError::NotFound`] for a layer the scene does not have; the overflow error when
    /// a layer holds a value that is not finite.
    pub fn frame(&self, name: &str) -> Result<Bytes, SceneError> {
        if let Some(e) = &self.overflow {
            return Err(e.clone());
        }
        self.check_layer(name)?;
        let Some((_, layer, encoded)) = self.layers.iter().find(|(n, ..)| n == name) else {
            unreachable!("checked above")
        };
        let bytes = encoded.get_or_init(|| {
            let info = FrameInfo {
                version: self.version,
                done: self.steps.done,
                target: self.steps.target,
                draw_front: name == "influence",
                predicted: self.predicted,
                last_seen: self.last_seen,
            };
            let routes: Vec<&[usize]> = self.routes.iter().map(Vec::as_slice).collect();
            Bytes::from(frame::encode(&self.grid, layer, &self.front, &routes, info))
        });
        Ok(bytes.clone())
    }

    /// `GET /api/cell`: every layer's value at cell `(x, y)`.
    ///
    /// # Errors
    /// [`SceneError`] for a cell off the map, or the overflow error.
    pub fn cell(&self, x: usize, y: usize) -> Result<CellView, SceneError> {
        if let Some(e) = &self.overflow {
            return Err(e.clone());
        }
        let g = &self.grid;
        let i = g.index(Cell::new(x, y)).ok_or_else(|| {
            SceneError::invalid(format!("cell ({x}, {y}) is outside the {}×{} map", g.width(), g.height()))
        })?;
        Ok(CellView {
            cell: [x, y],
            world: g.center(Cell::new(x, y)).to_array(),
            walkable: g.is_walkable(i),
            layers: self.layers.iter().map(|(n, ..)| n.clone()).collect(),
            values: self.layers.iter().map(|(_, l, _)| l[i]).collect(),
        })
    }

    /// `GET /api/export`: the scene as a scenario file, written by the first request for it.
    ///
    /// # Errors
    /// 500 should serialisation fail (it does not for validated scenes).
    pub fn export(&self) -> Result<String, SceneError> {
        self.export_text.get_or_init(|| crate::export::write(&self.export, &self.grid)).clone()
    }
}
