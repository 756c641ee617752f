//! `[[path]]`: routes that avoid danger. Each entry asks for the cheapest walk from `from` to
//! `to` (world units) where entering a cell costs its distance plus `weight` times the
//! positive value of `layer` there (`influence::route`); the route is drawn on every picture
//! and reported in `summary.json` with its length and exposure.

use influence::glam::Vec2;
use influence::route::{Cost, Heuristic, Route, Router};
use influence::{Grid, Layer};
use serde::{Deserialize, Serialize};

use crate::error::Invalid;
use crate::fixed::Fixed;
use crate::key::KeyPath;
use crate::layers::LayerName;
use crate::map::walkable_cell;

/// One `[[path]]` table as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathSpec {
    /// Start, in world units.
    pub from: Fixed<2>,
    /// Goal, in world units.
    pub to: Fixed<2>,
    /// The layer whose positive values are dangerous; default `theirs` (the other teams).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<String>,
    /// Cost per unit of layer value entered; default 1, 0 for the plain shortest path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<f32>,
}

/// A validated `[[path]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct PathPlan {
    /// Start cell.
    pub from: usize,
    /// Goal cell.
    pub to: usize,
    /// The layer's name as written (or the default).
    pub layer_name: String,
    /// The layer to avoid.
    pub layer: LayerName,
    /// Cost per unit of layer value.
    pub weight: f32,
}

impl PathSpec {
    /// Checks the ends (inside the map, walkable), the layer's name and the weight.
    ///
    /// # Errors
    /// [`Invalid`] naming `path[index]`'s key.
    pub fn validate(
        &self,
        index: usize,
        grid: &Grid,
        layer_named: impl Fn(&str) -> Result<LayerName, String>,
    ) -> Result<PathPlan, Invalid> {
        let key = |k: &str| KeyPath::root("path").index(index).key(k);
        let end = |k: &str, at: Fixed<2>| {
            walkable_cell(grid, Vec2::from(at.0)).map_err(|m| Invalid::at(&key(k), m))
        };
        let layer_name = self.layer.clone().unwrap_or_else(|| "theirs".to_owned());
        let weight = self.weight.unwrap_or(1.0);
        if weight.is_nan() || weight < 0.0 {
            return Err(Invalid::at(&key("weight"), format!("must be a number, 0 or more, got {weight}")));
        }
        Ok(PathPlan {
            from: end("from", self.from)?,
            to: end("to", self.to)?,
            layer: layer_named(&layer_name).map_err(|m| Invalid::at(&key("layer"), m))?,
            layer_name,
            weight,
        })
    }
}

/// The route of `plan` over `layer`, or `None` where the goal cannot be reached.
pub fn find(router: &mut Router, grid: &Grid, plan: &PathPlan, layer: &Layer) -> Option<Route> {
    // Validated: weight finite and >= 0, layer made for this grid, both ends walkable.
    let cost = Cost::avoiding(layer, plan.weight).ok()?;
    router.find(grid, plan.from, plan.to, &cost, Heuristic::Octile).ok().flatten()
}
