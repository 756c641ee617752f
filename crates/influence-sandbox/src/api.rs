//! The JSON API's request and response types (the scenario-shaped ones — sources, map,
//! propagation, paths — are the scenario model's, from `influence_scenario`), the error
//! every handler returns, and reading a body into them with a message that names the field
//! at fault. `docs/sandbox-api.md` documents each endpoint.

use influence_scenario::map::MapSpec;
use influence_scenario::propagation::PropagationSpec;
use influence_scenario::report::{MapReport, PredictionReport};
use influence_scenario::route::PathSpec;
use influence_scenario::source::SourceSpec;
use influence_scenario::Fixed;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::SceneError;

/// A refused request: the status and a message for the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// 4xx (or 500 if the server itself failed).
    pub status: u16,
    /// What was wrong.
    pub message: String,
}

impl ApiError {
    /// An error with `status`.
    pub fn new(status: u16, message: impl Into<String>) -> Self {
        Self { status, message: message.into() }
    }
    /// 400: the body or query could not be read.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self { status: 400, message: message.into() }
    }
    /// 404: no such thing.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self { status: 404, message: message.into() }
    }
    /// 422: well-formed, but a value is out of range or does not fit the scene.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self { status: 422, message: message.into() }
    }
}

/// What each body is, as the documentation calls it (by the type's name).
const EXPECTED: [(&str, &str); 10] = [
    ("SourceSpec", "a [[source]] table as a JSON object"),
    ("PathSpec", "a [[path]] table as a JSON object"),
    ("PropagationSpec", "a [propagation] table as a JSON object"),
    ("MapRequest", "a JSON object like {\"bundled\": \"den012d\"}"),
    ("WallEdit", "a JSON object like {\"cells\": [[x, y]], \"blocked\": true}"),
    ("PerspectiveRequest", "a JSON object like {\"team\": \"red\"}"),
    ("PathsRequest", "a JSON object like {\"paths\": [...]}"),
    ("StepRequest", "a JSON object like {\"steps\": 1}"),
    ("ResetRequest", "an empty JSON object {}"),
    ("FrameRequest", "a JSON object like {\"layer\": \"influence\", \"advance\": 0}"),
];

/// A `T` read from a JSON object only. (serde's derived structs also take an array of the
/// fields in order, so that `[]` would be a `StepRequest` with its defaults.)
#[derive(Debug, Clone)]
pub struct Object<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Fields<T> {
            type Value = T;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let name = std::any::type_name::<T>().rsplit("::").next().unwrap_or_default();
                let doc = EXPECTED.iter().find(|(n, _)| *n == name).map_or("a JSON object", |(_, d)| d);
                f.write_str(doc)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }
        deserializer.deserialize_map(Fields(std::marker::PhantomData)).map(Object)
    }
}

/// A serde error as the client reads it: the key at fault first (`body` for the whole body).
fn refusal(path: &serde_path_to_error::Path, error: &serde_json::Error) -> ApiError {
    // serde_path_to_error writes `.` for the whole body and `?` for a key not read in full.
    let at = match path.to_string().trim_end_matches(".?") {
        "." | "?" => "body".to_owned(),
        p => p.to_owned(),
    };
    let text = error.to_string();
    ApiError::bad_request(if error.is_syntax() || error.is_eof() {
        format!("malformed JSON body (at {at}): {text}")
    } else {
        format!("{at}: {text}")
    })
}

/// Parses a JSON object (an empty body reads as `{}`, so that defaults apply); a syntax,
/// shape or type error is a 400 naming the key at fault (`body` for the whole body) and the
/// position.
///
/// # Errors
/// [`ApiError`] 400.
pub fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let body = if body.iter().all(u8::is_ascii_whitespace) { b"{}" } else { body };
    let mut de = serde_json::Deserializer::from_slice(body);
    let Object(value) =
        serde_path_to_error::deserialize(&mut de).map_err(|e| refusal(e.path(), e.inner()))?;
    de.end().map_err(|e| ApiError::bad_request(format!("malformed JSON body (after the value): {e}")))?;
    Ok(value)
}

/// Reads `value` as a `T` (from an object only), naming the key at fault.
fn from_value<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(value).map(|Object(v)| v).map_err(|e| refusal(e.path(), e.inner()))
}

/// `POST /api/map`: a bundled map, an uploaded MovingAI text, or a size with optional rows.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapRequest {
    /// The name of a bundled map (`GET /api/maps`).
    pub bundled: Option<String>,
    /// The text of a MovingAI `.map` file.
    pub movingai: Option<String>,
    /// A label for the page (e.g. the uploaded file's name).
    pub name: Option<String>,
    /// Size in cells, with `height`, when there is no map text.
    pub width: Option<usize>,
    /// Size in cells.
    pub height: Option<usize>,
    /// `height` strings of `width` characters (`.` walkable, `@` blocked), row 0 first.
    pub rows: Option<Vec<String>>,
    /// World units per cell (default 1).
    pub cell_size: Option<f32>,
    /// World position of the corner of cell (0, 0) (default `[0, 0]`).
    pub origin: Option<Fixed<2>>,
    /// 4 or 8 (default 8).
    pub neighbours: Option<u8>,
}

impl MapRequest {
    /// The `[map]` table this request amounts to (a map text stands for its `file`), the
    /// MovingAI text it carries (the bundled map's or the upload), and its label.
    ///
    /// # Errors
    /// [`SceneError::NotFound`] for an unknown bundled map; another for both a map text and a size.
    pub fn resolve(&self) -> Result<(MapSpec, Option<&str>, String), SceneError> {
        let text = match (&self.bundled, &self.movingai) {
            (Some(_), Some(_)) => return Err(SceneError::invalid("give `bundled` or `movingai`, not both")),
            (Some(name), None) => Some(
                crate::maps::by_name(name)
                    .ok_or_else(|| SceneError::NotFound(format!("no bundled map named {name:?}")))?
                    .text,
            ),
            (None, text) => text.as_deref(),
        };
        let label = match (&self.name, &self.bundled) {
            (Some(n), _) | (None, Some(n)) => n.chars().take(64).collect(),
            _ if text.is_some() => "upload".to_owned(),
            _ => "blank".to_owned(),
        };
        let spec = MapSpec {
            file: text.map(|_| label.clone()),
            width: self.width,
            height: self.height,
            cell_size: self.cell_size,
            origin: self.origin,
            neighbours: self.neighbours,
            rows: self.rows.clone(),
        };
        Ok((spec, text, label))
    }
}

/// `POST /api/walls`: block or open cells.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WallEdit {
    /// `[x, y]` cells.
    pub cells: Vec<[u32; 2]>,
    /// `true` paints walls, `false` erases them.
    pub blocked: bool,
}

/// `PUT /api/perspective`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerspectiveRequest {
    /// A team with sources, or `null` for the first team.
    pub team: Option<String>,
}

/// `PUT /api/propagation`: `{"kind": "none"}` (stamping only) or a `[propagation]` table,
/// from the body's object.
///
/// # Errors
/// [`ApiError`] 400 for a key of the wrong type, 422 for keys beside `"none"`.
pub fn propagation(
    table: serde_json::Map<String, serde_json::Value>,
) -> Result<Option<PropagationSpec>, ApiError> {
    if table.get("kind").and_then(serde_json::Value::as_str) == Some("none") {
        return match table.len() {
            1 => Ok(None),
            _ => Err(ApiError::invalid("kind \"none\" takes no other keys")),
        };
    }
    from_value(serde_json::Value::Object(table)).map(Some)
}

/// `POST /api/step`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepRequest {
    /// Steps to add to the step count (default 1, at most 1000 per request).
    #[serde(default = "one")]
    pub steps: u64,
}

fn one() -> u64 {
    1
}

/// `POST /api/reset`: no keys (an empty body reads as `{}`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResetRequest {}

/// `POST /api/frame`: advance, then send a layer.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameRequest {
    /// The layer to send.
    pub layer: String,
    /// Steps to add first (default 0, at most 1000).
    #[serde(default)]
    pub advance: u64,
}

/// The most steps one request may add.
pub const MAX_ADVANCE: u64 = 1000;

/// A source as the API shows it: its id and its `[[source]]` table.
#[derive(Debug, Clone, Serialize)]
pub struct SourceView<'a> {
    /// Stable while the source exists.
    pub id: u32,
    /// The table.
    #[serde(flatten)]
    pub spec: &'a SourceSpec,
}

/// `PUT /api/paths`: every route, replacing those there were.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathsRequest {
    /// `[[path]]` tables.
    pub paths: Vec<Object<PathSpec>>,
}

/// A route as the API shows it: its `[[path]]` table and what was found.
#[derive(Debug, Clone, Serialize)]
pub struct PathView<'a> {
    /// The table.
    #[serde(flatten)]
    pub spec: &'a PathSpec,
    /// Whether a walk reaches the goal.
    pub reachable: bool,
    /// Its length in world units.
    pub length: Option<f64>,
    /// The avoided layer's values summed over its cells.
    pub exposure: Option<f64>,
    /// Why the route cannot be found, when its layer is gone (its team's last source was
    /// deleted, or the flood fill whose heat it avoided), or `null`.
    pub note: Option<String>,
}

/// The map part of `GET /api/scene`.
#[derive(Debug, Clone, Serialize)]
pub struct MapView {
    /// The bundled map's name, the upload's file name, or `blank`.
    pub name: String,
    /// Size and geometry, as `summary.json` gives them.
    #[serde(flatten)]
    pub geometry: MapReport,
}

/// The step counts of `GET /api/scene`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Steps {
    /// Steps asked for: what the export writes (`steps` or `max_steps`).
    pub target: u64,
    /// Steps computed so far (a long replay after an edit catches up in the background).
    pub done: u64,
}

/// `GET /api/scene`: everything but the walls (those come with each frame).
#[derive(Debug, Clone, Serialize)]
pub struct SceneView<'a> {
    /// Increases with every edit, so clients know when to fetch the scene again.
    pub version: u64,
    /// The map.
    pub map: MapView,
    /// The sources, in order.
    pub sources: Vec<SourceView<'a>>,
    /// Teams in order of first appearance.
    pub teams: Vec<&'a str>,
    /// Each team's colour, `"#rrggbb"`, in the order of `teams`: its sources' `color`, else
    /// the palette's (the same as in pictures `influence render` draws).
    pub team_colors: Vec<String>,
    /// The perspective team (`null` without sources).
    pub perspective: Option<&'a str>,
    /// The `[propagation]` table with its step count, or `null`.
    pub propagation: Option<PropagationSpec>,
    /// Step counts.
    pub steps: Steps,
    /// The layers `/api/layer/{name}` serves.
    pub layers: Vec<String>,
    /// The routes, with what was found (their cells come with each frame).
    pub paths: Vec<PathView<'a>>,
    /// The flood fill's guess, under `kind = "flood"` (without its last-seen cell).
    pub prediction: Option<PredictionReport>,
    /// A problem computing the layers (they are zero meanwhile), or `null`.
    pub error: Option<String>,
}

/// What `GET /api/live` sends whenever the scene shown changes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LiveView {
    /// The scene's `version`, as `GET /api/scene` gives it.
    pub version: u64,
    /// Step counts of the layers shown.
    pub steps: Steps,
    /// A newer edit is being computed; the scene shown is the one before it.
    pub computing: bool,
}

/// `GET /api/cell?x=&y=`: every layer's value at one cell.
#[derive(Debug, Clone, Serialize)]
pub struct CellView {
    /// The cell.
    pub cell: [usize; 2],
    /// Its centre in world units.
    pub world: [f32; 2],
    /// Whether it is walkable.
    pub walkable: bool,
    /// Layer names, as `layers` in the scene.
    pub layers: Vec<String>,
    /// Their values at this cell, in the same order.
    pub values: Vec<f32>,
}

/// `GET /api/maps`: one bundled map.
#[derive(Debug, Clone, Serialize)]
pub struct BundledView {
    /// The name `/api/map` takes.
    pub name: &'static str,
    /// What it is.
    pub title: &'static str,
}
