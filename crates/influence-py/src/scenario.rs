//! `run_scenario`: a scenario file run by the one engine (`influence_scenario::engine::Run`),
//! exactly as `influence render` runs it, into arrays and its summary.

use std::path::PathBuf;

use influence_scenario::engine::Run;
use influence_scenario::layers::names;
use influence_scenario::scenario;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyFileNotFoundError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use crate::args::{shown, type_error, value_error};
use crate::guarded;

/// Runs a scenario file (``docs/scenario.md``) as ``influence render`` does — stamping,
/// propagation, field, compound maps, front line, routes — and returns
/// ``(layers, summary)``: a dict of float32 arrays ``[y, x]`` by layer name, and the
/// summary as ``summary.json`` holds it (a dict).
///
/// ``layers`` picks the arrays: ``None`` for those the scenario's ``[output] layers`` lists
/// (what ``influence render`` writes), ``"all"`` for every layer (each team, ``mine``,
/// ``theirs``, ``influence``, ``tension``, ``tension_product``, ``vulnerability``,
/// ``directed_vulnerability``, ``frontline``, and ``heat`` after a flood fill), or a list of
/// names. A missing file raises ``FileNotFoundError``; a bad scenario ``ValueError`` naming
/// the file, line and key.
///
/// >>> import influence_maps as im, pathlib, tempfile
/// >>> path = pathlib.Path(tempfile.mkdtemp()) / "duel.toml"
/// >>> _ = path.write_text('''
/// ... [map]
/// ... width = 8
/// ... height = 3
/// ... [[source]]
/// ... team = "red"
/// ... at = [1.5, 1.5]
/// ... strength = 4
/// ... falloff = "linear"
/// ... radius = 4
/// ... ''')
/// >>> layers, summary = im.run_scenario(path)
/// >>> sorted(layers), layers["red"].shape
/// (['frontline', 'influence', 'red', 'tension', 'vulnerability'], (3, 8))
/// >>> summary["teams"][0]["name"], summary["teams"][0]["peak"]["cell"]
/// ('red', [1, 1])
#[pyfunction]
#[pyo3(signature = (path, layers=None))]
pub(crate) fn run_scenario<'py>(
    py: Python<'py>,
    path: &Bound<'py, PyAny>,
    layers: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let file: PathBuf = path
        .extract()
        .map_err(|_| type_error(format!("path must be a str or os.PathLike, got {}", shown(path))))?;
    if !file.is_file() {
        return Err(PyFileNotFoundError::new_err(format!("path: no scenario file at {}", file.display())));
    }
    enum Pick {
        Output,
        All,
        Named(Vec<String>),
    }
    let pick = match layers.filter(|l| !l.is_none()) {
        None => Pick::Output,
        Some(l) if l.cast::<PyString>().is_ok_and(|s| s.to_cow().is_ok_and(|s| s == "all")) => Pick::All,
        Some(l) if l.is_instance_of::<PyList>() || l.is_instance_of::<PyTuple>() => {
            let mut named = Vec::new();
            for (i, item) in l.try_iter()?.enumerate() {
                let item = item?;
                let name = item
                    .cast::<PyString>()
                    .map_err(|_| {
                        type_error(format!("layers[{i}] must be a layer name, got {}", shown(&item)))
                    })?
                    .to_cow()?
                    .into_owned();
                named.push(name);
            }
            Pick::Named(named)
        }
        Some(l) => {
            return Err(type_error(format!(
                "layers must be None, \"all\" or a list of layer names, got {}",
                shown(l)
            )))
        }
    };
    let (arrays, summary, shape) = py.detach(|| {
        guarded(|| {
            let fail = |e: &dyn std::fmt::Display| value_error(e.to_string());
            let s = scenario::load(&file).map_err(|e| fail(&e))?;
            let mut run = Run::new(s).map_err(|e| fail(&e))?;
            run.finish(&mut |_| {}).map_err(|e| fail(&e))?;
            let view = run.view();
            let s = view.scenario();
            let chosen: Vec<String> = match &pick {
                Pick::Output => s.layers.iter().map(|(name, _)| name.clone()).collect(),
                Pick::All => names(&s.teams, view.heat().is_some()).collect(),
                Pick::Named(named) => named.clone(),
            };
            let mut arrays = Vec::with_capacity(chosen.len());
            for (i, name) in chosen.into_iter().enumerate() {
                let layer = view.layer_named(&name).ok_or_else(|| {
                    let known: Vec<String> = names(&s.teams, view.heat().is_some()).collect();
                    value_error(format!(
                        "layers[{i}] = {name:?} is not a layer of this scenario; known: {}",
                        known.join(", ")
                    ))
                })?;
                arrays.push((name, layer.values().to_vec()));
            }
            let summary = serde_json::to_string(&view.summary()).map_err(|e| fail(&e))?;
            Ok((arrays, summary, (s.grid.height(), s.grid.width())))
        })
    })?;
    let dict = PyDict::new(py);
    for (name, values) in arrays {
        dict.set_item(name, PyArray1::from_vec(py, values).reshape([shape.0, shape.1])?)?;
    }
    let summary = py.import("json")?.call_method1("loads", (summary,))?;
    PyTuple::new(py, [dict.into_any(), summary])
}
