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

/// A completed state of the scene: its parts, and what is encoded from them on demand.
#[derive(Debug)]
pub struct Snapshot {
    parts: Parts,
    /// Each layer's frame, in the order of `parts.layers`.
    frames: Vec<OnceLock<Bytes>>,
    export_text: OnceLock<Result<String, SceneError>>,
}

/// The layer buffers of the last snapshot readers let go of, for the next snapshot to copy its
/// layers into: a snapshot copies every layer after every step (ten 256 KiB layers for two
/// teams on 256 × 256), and fresh buffers of that size cost page faults each time. It holds
/// at most one snapshot's layers, and only those no reader holds any more.
#[derive(Debug, Default)]
pub struct Spare(Vec<Layer>);

impl Spare {
    /// Keeps the layers of `retired` (the snapshot just replaced) if no reader holds it, in
    /// place of those kept before.
    pub fn reclaim(&mut self, retired: Arc<Snapshot>) {
        self.0.clear();
        if let Ok(snapshot) = Arc::try_unwrap(retired) {
            let layers = snapshot.parts.layers.into_iter();
            self.0.extend(layers.filter_map(|(_, layer)| Arc::try_unwrap(layer).ok()));
        }
    }

    /// A copy of `layer`, in a kept buffer of its length when there is one.
    pub fn copy(&mut self, layer: &Layer) -> Layer {
        match self.0.iter().position(|l| l.len() == layer.len()) {
            Some(i) => {
                let mut copy = self.0.swap_remove(i);
                copy.values_mut().copy_from_slice(layer.values());
                copy
            }
            None => layer.clone(),
        }
    }
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
        LiveView {
            version: self.snapshot.version(),
            steps: self.snapshot.parts.steps,
            computing: self.computing,
        }
    }
}

impl Snapshot {
    /// A snapshot of `parts`.
    pub fn new(parts: Parts) -> Self {
        let frames = parts.layers.iter().map(|_| OnceLock::new()).collect();
        Self { parts, frames, export_text: OnceLock::new() }
    }

    /// The scene's edit counter.
    pub fn version(&self) -> u64 {
        self.parts.version
    }

    /// The map (shared with the next snapshot when no edit comes between).
    pub fn grid(&self) -> &Arc<Grid> {
        &self.parts.grid
    }

    /// The scene as JSON, with `computing`; with `id`, `{"id": id, "scene": ...}` (what adding
    /// a source answers).
    pub fn scene_json(&self, computing: bool, id: Option<u32>) -> Vec<u8> {
        let mut scene = self.parts.scene.clone();
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
        self.parts.grid.len()
    }

    /// Where layer `name` is in `parts.layers`.
    ///
    /// # Errors
    /// [`SceneError::NotFound`] naming the layers there are.
    fn layer_index(&self, name: &str) -> Result<usize, SceneError> {
        let layers = &self.parts.layers;
        layers.iter().position(|(n, _)| n == name).ok_or_else(|| {
            let names: Vec<&str> = layers.iter().map(|(n, _)| n.as_str()).collect();
            SceneError::NotFound(format!("no layer {name:?}; layers: {}", names.join(", ")))
        })
    }

    /// Whether the scene has a layer called `name`.
    ///
    /// # Errors
    /// [`SceneError::NotFound`] naming the layers there are.
    pub fn check_layer(&self, name: &str) -> Result<(), SceneError> {
        self.layer_index(name).map(drop)
    }

    /// The layer `name` as a frame (`frame.rs`), encoded by the first request for it.
    ///
    /// # Errors
    /// [`SceneError::NotFound`] for a layer the scene does not have; the overflow error when
    /// a layer holds a value that is not finite.
    pub fn frame(&self, name: &str) -> Result<Bytes, SceneError> {
        let p = &self.parts;
        if let Some(e) = &p.overflow {
            return Err(e.clone());
        }
        let i = self.layer_index(name)?;
        let bytes = self.frames[i].get_or_init(|| {
            let info = FrameInfo {
                version: p.version,
                done: p.steps.done,
                target: p.steps.target,
                draw_front: name == "influence",
                predicted: p.predicted,
                last_seen: p.last_seen,
            };
            let routes: Vec<&[usize]> = p.routes.iter().map(Vec::as_slice).collect();
            Bytes::from(frame::encode(&p.grid, &p.layers[i].1, &p.front, &routes, info))
        });
        Ok(bytes.clone())
    }

    /// `GET /api/cell`: every layer's value at cell `(x, y)`.
    ///
    /// # Errors
    /// [`SceneError`] for a cell off the map, or the overflow error.
    pub fn cell(&self, x: usize, y: usize) -> Result<CellView, SceneError> {
        let p = &self.parts;
        if let Some(e) = &p.overflow {
            return Err(e.clone());
        }
        let g = &p.grid;
        let i = g.index(Cell::new(x, y)).ok_or_else(|| {
            SceneError::invalid(format!("cell ({x}, {y}) is outside the {}×{} map", g.width(), g.height()))
        })?;
        Ok(CellView {
            cell: [x, y],
            world: g.center(Cell::new(x, y)).to_array(),
            walkable: g.is_walkable(i),
            layers: p.layers.iter().map(|(n, _)| n.clone()).collect(),
            values: p.layers.iter().map(|(_, l)| l[i]).collect(),
        })
    }

    /// `GET /api/export`: the scene as a scenario file, written by the first request for it.
    ///
    /// # Errors
    /// 500 should serialisation fail (it does not for validated scenes).
    pub fn export(&self) -> Result<String, SceneError> {
        self.export_text.get_or_init(|| crate::export::write(&self.parts.export, &self.parts.grid)).clone()
    }
}
