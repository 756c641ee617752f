//! Scenario TOML out and in, in the format of `docs/scenario.md`, so that `influence render`
//! on an exported scene computes exactly the layers the page shows.
//!
//! The map is always written as `rows` (self-contained, and it carries painted walls); every
//! number is written as the shortest decimal that reads back as the same `f32`; a diffusion's
//! `steps` and a flood's `max_steps` are the scene's step count. `[output]` lists every layer.
//! An import reads the same keys and refuses unknown ones; `map.file` may name a bundled map
//! (by its file name), or, for the scenario given on the command line, a file beside it.

use serde::{Deserialize, Serialize};

use crate::api::ApiError;
use crate::scene::{neighbours, Scene};
use crate::spec::{MapSpec, PathSpec, PropagationSpec, SourceSpec};

/// A scenario file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    map: MapSpec,
    perspective: Option<String>,
    #[serde(default, rename = "source")]
    sources: Vec<SourceSpec>,
    #[serde(default)]
    #[allow(dead_code)] // read to refuse unknown keys; the sandbox shows every layer anyway
    output: OutputSpec,
    propagation: Option<PropagationSpec>,
    #[serde(default, rename = "path")]
    paths: Vec<PathSpec>,
}

/// The `[output]` table.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct OutputSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    layers: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    upscale: Option<u32>,
    #[serde(default)]
    markers: bool,
}

/// Everything after `[map]`.
#[derive(Serialize)]
struct Rest<'a> {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    source: Vec<&'a SourceSpec>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    path: Vec<&'a PathSpec>,
    #[serde(skip_serializing_if = "Option::is_none")]
    propagation: Option<PropagationSpec>,
    output: OutputSpec,
}

/// The shortest decimal that reads back as `x` through `f64` (as TOML readers read it), as
/// an `f64`; `f64::from(x)` itself should the short one not.
fn tidy(x: f32) -> f64 {
    let short: f64 = x.to_string().parse().unwrap_or(f64::NAN);
    if (short as f32).to_bits() == x.to_bits() {
        short
    } else {
        f64::from(x)
    }
}

/// Rewrites every float of `v` (serialised from an `f32`) as its [`tidy`] form.
fn tidy_floats(v: &mut toml::Value) {
    match v {
        toml::Value::Float(f) => *f = tidy(*f as f32),
        toml::Value::Array(a) => a.iter_mut().for_each(tidy_floats),
        toml::Value::Table(t) => t.iter_mut().for_each(|(_, v)| tidy_floats(v)),
        _ => {}
    }
}

fn float(x: f32) -> String {
    toml::Value::Float(tidy(x)).to_string()
}

/// The scene as a scenario file.
///
/// # Errors
/// 500 should serialisation fail (it does not for validated scenes).
pub fn export(scene: &Scene) -> Result<String, ApiError> {
    let g = scene.grid();
    let mut out = String::from(
        "# Exported by the influence sandbox. Render it with\n#     influence render THIS.toml --out DIR\n\n",
    );
    if let Some(p) = scene.perspective() {
        out += &format!("perspective = {}\n\n", toml::Value::String(p.to_owned()));
    }
    out += &format!("[map]\nwidth = {}\nheight = {}\n", g.width(), g.height());
    out += &format!("cell_size = {}\n", float(g.cell_size()));
    out += &format!("origin = [{}, {}]\n", float(g.origin().x), float(g.origin().y));
    out += &format!("neighbours = {}\nrows = [\n", neighbours(g.connectivity()));
    for row in g.to_rows() {
        // Only '.' and '@': nothing to escape.
        out += &format!("  \"{row}\",\n");
    }
    out += "]\n\n";
    let rest = Rest {
        source: scene.source_specs().collect(),
        path: scene.path_specs().collect(),
        propagation: scene.propagation_spec(),
        output: OutputSpec { layers: Some(scene.layer_names()), upscale: None, markers: true },
    };
    let fail = |e: &dyn std::fmt::Display| ApiError { status: 500, message: format!("export failed: {e}") };
    let mut value = toml::Value::try_from(&rest).map_err(|e| fail(&e))?;
    tidy_floats(&mut value);
    out += &toml::to_string(&value).map_err(|e| fail(&e))?;
    Ok(out)
}

/// Turns a `map.file` value into the map's text and a label for the page.
pub type MapResolver<'a> = &'a dyn Fn(&str) -> Result<(String, String), String>;

/// Reads a scenario. `map_file` turns a `map.file` value into the map's text and a label.
///
/// # Errors
/// 400 for TOML that does not parse or a key of the wrong type (with its line), 422 for
/// values out of range or a map file that cannot be had.
pub fn import(text: &str, map_file: MapResolver<'_>) -> Result<Scene, ApiError> {
    let file: ScenarioFile = toml::from_str(text)
        .map_err(|e| ApiError::bad_request(format!("scenario: {}", e.to_string().trim())))?;
    let (map_text, label) = match &file.map.file {
        Some(name) => {
            let (text, label) = map_file(name).map_err(|m| ApiError::invalid(format!("map.file: {m}")))?;
            (Some(text), label)
        }
        None => (None, "imported".to_owned()),
    };
    let grid = file.map.grid(map_text.as_deref())?;
    Scene::from_parts(grid, label, file.sources, file.perspective, file.propagation, file.paths)
}

/// Resolves `map.file` among the bundled maps only (what an upload may name).
///
/// # Errors
/// A message listing the bundled file names.
pub fn bundled_only(name: &str) -> Result<(String, String), String> {
    crate::maps::by_file(name).map(|b| (b.text.to_owned(), b.name.to_owned())).ok_or_else(|| {
        let names: Vec<&str> = crate::maps::BUNDLED.iter().map(|b| b.file).collect();
        format!(
            "{name:?} is not a bundled map ({}); an uploaded scenario must use one of those or `rows`",
            names.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tidy_numbers_read_back_exactly() {
        for x in [0.1f32, 1.0 / 3.0, 16_777_217.0, 1e-7, -0.0, 123.456] {
            assert_eq!((tidy(x) as f32).to_bits(), x.to_bits(), "{x}");
        }
        assert_eq!(tidy(0.1), 0.1);
        assert_eq!(float(2.0), "2.0");
    }
}
