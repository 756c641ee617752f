//! Scenario TOML out and in, in the format of `docs/scenario.md`, so that `influence render`
//! on an exported scene computes exactly the layers the page shows.
//!
//! An export is the scene as the scenario model (`influence_scenario::file::ScenarioFile`),
//! written by the model (`ScenarioFile::to_toml`): the map always as `rows` (self-contained,
//! and it carries painted walls), every number as the shortest decimal that reads back as the
//! same `f32`; a diffusion's `steps` and a flood's `max_steps` are the scene's step count, and
//! `[output]` lists every layer. An import reads it as `influence render` does (unknown keys
//! refused, errors at their line), then within the sandbox's caps; `map.file` may name a
//! bundled map (by its file name), or, for the scenario given on the command line, a file
//! beside it.

use influence_scenario::doc::Doc;
use influence_scenario::error::Problem;
use influence_scenario::file::{OutputSpec, ScenarioFile};
use influence_scenario::map::MapSpec;
use influence_scenario::source::SourceSpec;

use crate::caps;
use crate::error::SceneError;
use crate::scene::Scene;

/// What an export starts with.
const HEADER: &str =
    "# Exported by the influence sandbox. Render it with\n#     influence render THIS.toml --out DIR\n\n";

/// The scene as a scenario: the scenario model's tables, every layer listed with markers on.
pub fn scenario(scene: &Scene) -> ScenarioFile {
    ScenarioFile {
        map: MapSpec::of(scene.grid()),
        perspective: scene.perspective().map(str::to_owned),
        on_blocked: None,
        sources: scene.source_specs().cloned().collect(),
        output: OutputSpec { layers: Some(scene.layer_names()), upscale: None, markers: true },
        propagation: scene.propagation_spec(),
        field: None,
        paths: scene.path_specs().cloned().collect(),
    }
}

/// The scene as a scenario file.
///
/// # Errors
/// 500 should serialisation fail (it does not for validated scenes).
pub fn export(scene: &Scene) -> Result<String, SceneError> {
    let text = scenario(scene).to_toml().map_err(|e| SceneError::Internal(format!("export failed: {e}")))?;
    Ok(format!("{HEADER}{text}"))
}

/// Turns a `map.file` value into the map's text and a label for the page.
pub type MapResolver<'a> = &'a dyn Fn(&str) -> Result<(String, String), String>;

/// Reads a scenario. `map_file` turns a `map.file` value into the map's text and a label.
///
/// # Errors
/// [`SceneError::Scenario`] with the kind of fault: TOML that does not parse, an unknown key
/// or a value of the wrong type (with its line), a value out of range, or a map file that
/// cannot be had.
pub fn import(text: &str, map_file: MapResolver<'_>) -> Result<Scene, SceneError> {
    let doc = Doc::parse("scenario", text)?;
    influence_scenario::known::check(&doc)?;
    let file = ScenarioFile::from_doc(&doc)?;
    doc.check_numbers()?;
    if file.field.is_some() {
        return Err(SceneError::Scenario {
            problem: Problem::UnknownKey,
            message: "scenario: [field] (grid-free sources) is not shown in the sandbox".to_owned(),
        });
    }
    let (map_text, label) = match &file.map.file {
        Some(name) => {
            let (text, label) = map_file(name).map_err(|m| SceneError::Scenario {
                problem: Problem::File,
                message: format!("map.file: {m}"),
            })?;
            (Some(text), label)
        }
        None => (None, "imported".to_owned()),
    };
    let grid = caps::map_grid(&file.map, map_text.as_deref())?;
    // The scene keeps each source's own table, so the file's `on_blocked` moves into them.
    let sources = file
        .sources
        .into_iter()
        .map(|s| SourceSpec { on_blocked: s.on_blocked.or(file.on_blocked), ..s })
        .collect();
    Scene::from_parts(grid, label, sources, file.perspective, file.propagation, file.paths)
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
