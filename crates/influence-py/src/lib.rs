//! # influence-py
//!
//! The Python module `influence_maps` (distribution `influence-maps`): a thin client of the
//! library `influence` and of the scenario engine in `influence-scenario`. Every algorithm is
//! theirs; this crate only converts at the boundary:
//!
//! - **Coordinates.** Arrays are indexed `[y, x]` with shape `(height, width)`: exactly the
//!   library's row-major layout (index `y · width + x`), so no array is transposed. Points are
//!   `(x, y)` in world units, which the library's `Vec2` already is; cell `(x, y)` covers
//!   `origin + [x, x+1) × [y, y+1) · cell_size` in both.
//! - **Checks.** Every argument is checked before the library sees it (`args.rs`), and
//!   anything wrong raises `ValueError` or `TypeError` naming the argument and the value;
//!   layer shapes are compared before any library call that would panic on a mismatch. As a
//!   last defence, `guarded` turns a panic inside a call into `RuntimeError`.
//! - **Memory.** A `Layer` owns its values (an `influence::Layer`); `Layer.numpy()` is a numpy
//!   view of them with the `Layer` object as its base (`layer.rs`, the crate's one `unsafe`
//!   block). Library calls that take a while release the GIL (`Python::detach`).
//!   A `SpotIndex` keeps its own copy of the layer it was built from (`spots.rs`), so
//!   its answers are always those of the built values, whatever happens to the layer.

mod analysis;
mod args;
mod field;
mod flow;
mod grid;
mod layer;
mod propagate;
mod route;
mod scenario;
mod sources;
mod spots;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard};

use influence_scenario::falloff::FalloffKind;
use influence_scenario::field::CurveName;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// Runs `f`, turning a panic into `RuntimeError` instead of unwinding into Python. The
/// checks at the boundary leave no known way to panic; this is the backstop.
pub(crate) fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_owned());
            Err(PyRuntimeError::new_err(format!(
                "influence_maps: internal error (a bug, please report it): {what}"
            )))
        }
    }
}

/// Locks scratch shared between calls (a grid's stamper and router). Scratch left behind
/// by a call that panicked (see [`guarded`]) is replaced by fresh scratch, not reused.
pub(crate) fn scratch<T: Default>(shared: &Mutex<T>) -> MutexGuard<'_, T> {
    match shared.lock() {
        Ok(guard) => guard,
        Err(poisoned) => {
            let mut guard = poisoned.into_inner();
            *guard = T::default();
            shared.clear_poison();
            guard
        }
    }
}

/// The extension module, imported as `influence_maps._native` and re-exported by the
/// package `influence_maps`.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<grid::PyGrid>()?;
    m.add_class::<layer::PyLayer>()?;
    m.add_class::<route::PyRoute>()?;
    m.add_class::<flow::PyFlowField>()?;
    m.add_class::<analysis::PyAnalysis>()?;
    m.add_class::<propagate::PyDiffusion>()?;
    m.add_class::<propagate::PyChase>()?;
    m.add_class::<field::PyField>()?;
    m.add_class::<spots::PySpotIndex>()?;
    m.add_function(wrap_pyfunction!(analysis::analysis, m)?)?;
    m.add_function(wrap_pyfunction!(scenario::run_scenario, m)?)?;
    // The names as the scenario files spell them, read off their serde definitions.
    m.add("FALLOFFS", args::names::<FalloffKind>().to_vec())?;
    m.add("DISTANCES", args::names::<influence::Metric>().to_vec())?;
    m.add("MODES", args::names::<influence::Mode>().to_vec())?;
    m.add("CURVES", args::names::<CurveName>().to_vec())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
