//! A scenario file as written: every table, unknown keys refused (each key is described in
//! `docs/scenario.md`). [`scenario`](crate::scenario) validates it; [`ScenarioFile::to_toml`]
//! puts it back into TOML.

use serde::{Deserialize, Serialize};

use crate::doc::Doc;
use crate::error::Located;
use crate::field::FieldSpec;
use crate::map::MapSpec;
use crate::propagation::PropagationSpec;
use crate::route::PathSpec;
use crate::source::{OnBlocked, SourceSpec};

/// A scenario file as written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// `[map]`.
    pub map: MapSpec,
    /// The team whose point of view the compound maps take (default: the first).
    pub perspective: Option<String>,
    /// What a `[[source]]` on a wall does unless it says (default: `error`).
    pub on_blocked: Option<OnBlocked>,
    /// `[[source]]`, in order.
    #[serde(default, rename = "source")]
    pub sources: Vec<SourceSpec>,
    /// `[output]`.
    #[serde(default)]
    pub output: OutputSpec,
    /// `[propagation]`.
    pub propagation: Option<PropagationSpec>,
    /// `[field]`.
    pub field: Option<FieldSpec>,
    /// `[[path]]`, in order.
    #[serde(default, rename = "path")]
    pub paths: Vec<PathSpec>,
}

/// The `[output]` table.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// The layers to write, in order (default: every team, then the main compound maps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layers: Option<Vec<String>>,
    /// Pixels per cell (default: automatic).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upscale: Option<u32>,
    /// Whether pictures mark the sources.
    #[serde(default)]
    pub markers: bool,
}

impl ScenarioFile {
    /// The tables of `doc`: a key of the wrong type or an unknown one is an error at its line.
    /// Numbers are not checked here ([`Doc::check_numbers`] does that).
    ///
    /// # Errors
    /// [`Located`] at the key at fault.
    pub fn from_doc(doc: &Doc) -> Result<Self, Located> {
        toml::from_str(doc.text()).map_err(|e| doc.serde_error(&e))
    }
}
