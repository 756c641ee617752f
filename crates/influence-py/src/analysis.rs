//! `analysis(mine, theirs)`: the compound maps of `influence::Analysis`.

use influence::{Analysis, Layer};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::args::{self, shown, type_error, value_error};
use crate::guarded;
use crate::layer::PyLayer;

/// The compound maps of one side's view (from :func:`analysis`), each a :class:`Layer`:
///
/// ========================== ======================================================
/// ``mine``                   your layer (a copy)
/// ``theirs``                 every other team's, summed
/// ``influence``              mine − theirs: > 0 where you control, < 0 where they do
/// ``tension``                mine + theirs: where the strength is, of either side
/// ``tension_product``        mine × theirs: zero wherever one side is absent
/// ``vulnerability``          tension − \|influence\|: strong forces evenly matched
/// ``directed_vulnerability`` tension + influence: conflict where you are the stronger
/// ========================== ======================================================
///
/// >>> import influence_maps as im, numpy as np
/// >>> grid = im.Grid(np.ones((1, 3)))
/// >>> maps = im.analysis(grid.layer([[4.0, 2.0, 0.0]]), grid.layer([[0.0, 2.0, 3.0]]))
/// >>> maps.influence.numpy().tolist(), maps.vulnerability.numpy().tolist()
/// ([[4.0, 0.0, -3.0]], [[0.0, 4.0, 0.0]])
#[pyclass(frozen, name = "Analysis", module = "influence_maps")]
pub(crate) struct PyAnalysis {
    /// Your layer (a copy of ``mine``).
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["..."])
    /// >>> maps = im.analysis(grid.layer([[4.0, 2.0, 0.0]]), [grid.layer([[0.0, 2.0, 3.0]])])
    /// >>> maps.mine.numpy().tolist()
    /// [[4.0, 2.0, 0.0]]
    #[pyo3(get)]
    mine: Py<PyLayer>,
    /// Every other team's layer, summed.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["..."])
    /// >>> maps = im.analysis(grid.layer([[4.0, 2.0, 0.0]]), [grid.layer([[0.0, 2.0, 3.0]])])
    /// >>> maps.theirs.numpy().tolist()
    /// [[0.0, 2.0, 3.0]]
    #[pyo3(get)]
    theirs: Py<PyLayer>,
    /// mine − theirs: positive where you control, negative where they do.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["..."])
    /// >>> maps = im.analysis(grid.layer([[4.0, 2.0, 0.0]]), [grid.layer([[0.0, 2.0, 3.0]])])
    /// >>> maps.influence.numpy().tolist()
    /// [[4.0, 0.0, -3.0]]
    #[pyo3(get)]
    influence: Py<PyLayer>,
    /// mine + theirs: where the strength is, of either side.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["..."])
    /// >>> maps = im.analysis(grid.layer([[4.0, 2.0, 0.0]]), [grid.layer([[0.0, 2.0, 3.0]])])
    /// >>> maps.tension.numpy().tolist()
    /// [[4.0, 4.0, 3.0]]
    #[pyo3(get)]
    tension: Py<PyLayer>,
    /// mine × theirs: zero wherever only one side is present.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["..."])
    /// >>> maps = im.analysis(grid.layer([[4.0, 2.0, 0.0]]), [grid.layer([[0.0, 2.0, 3.0]])])
    /// >>> maps.tension_product.numpy().tolist()
    /// [[0.0, 4.0, 0.0]]
    #[pyo3(get)]
    tension_product: Py<PyLayer>,
    /// tension − |influence|: high where strong forces are evenly matched.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["..."])
    /// >>> maps = im.analysis(grid.layer([[4.0, 2.0, 0.0]]), [grid.layer([[0.0, 2.0, 3.0]])])
    /// >>> maps.vulnerability.numpy().tolist()
    /// [[0.0, 4.0, 0.0]]
    #[pyo3(get)]
    vulnerability: Py<PyLayer>,
    /// tension + influence: conflict where you are the stronger.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["..."])
    /// >>> maps = im.analysis(grid.layer([[4.0, 2.0, 0.0]]), [grid.layer([[0.0, 2.0, 3.0]])])
    /// >>> maps.directed_vulnerability.numpy().tolist()
    /// [[8.0, 4.0, 0.0]]
    #[pyo3(get)]
    directed_vulnerability: Py<PyLayer>,
}

#[pymethods]
impl PyAnalysis {
    fn __repr__(&self) -> String {
        "Analysis(mine, theirs, influence, tension, tension_product, vulnerability, directed_vulnerability)"
            .to_owned()
    }
}

/// The compound maps of ``mine``'s view against ``theirs`` (one :class:`Layer` or a list of
/// them, summed): influence, tension, vulnerability and directed vulnerability, as an
/// :class:`Analysis` of new layers. Every layer must have the shape of ``mine``.
///
/// >>> import influence_maps as im, numpy as np
/// >>> grid = im.Grid(np.ones((4, 8)))
/// >>> red, blue = grid.layer(), grid.layer()
/// >>> _ = red.add((1.5, 1.5), strength=5.0, radius=4.0)
/// >>> _ = blue.add((6.5, 2.5), strength=5.0, radius=4.0)
/// >>> maps = im.analysis(red, blue)          # red's view
/// >>> bool(maps.influence.value((0.5, 0.5)) > 0), bool(maps.influence.value((7.5, 3.5)) < 0)
/// (True, True)
#[pyfunction]
pub(crate) fn analysis(
    py: Python<'_>,
    mine: &Bound<'_, PyAny>,
    theirs: &Bound<'_, PyAny>,
) -> PyResult<PyAnalysis> {
    let mine_layer = mine
        .cast::<PyLayer>()
        .map_err(|_| type_error(format!("mine must be a Layer, got {}", shown(mine))))?
        .try_borrow()?;
    let shape = mine_layer.shape();
    let one = theirs.cast::<PyLayer>().is_ok();
    let others: Vec<Bound<'_, PyAny>> = if one {
        vec![theirs.clone()]
    } else if theirs.is_instance_of::<PyList>() || theirs.is_instance_of::<PyTuple>() {
        theirs.try_iter()?.collect::<PyResult<_>>()?
    } else {
        return Err(type_error(format!("theirs must be a Layer or a list of Layers, got {}", shown(theirs))));
    };
    let mut borrowed = Vec::with_capacity(others.len());
    for (i, other) in others.iter().enumerate() {
        let name = args::Item::new("theirs", i, one);
        let layer = other
            .cast::<PyLayer>()
            .map_err(|_| type_error(format!("{name} must be a Layer, got {}", shown(other))))?
            .try_borrow()?;
        if layer.shape() != shape {
            return Err(value_error(format!(
                "{name} must have the shape of mine, {}, got {}",
                args::shape_text(&[shape.0, shape.1]),
                args::shape_text(&[layer.shape().0, layer.shape().1])
            )));
        }
        borrowed.push(layer);
    }
    let refs: Vec<&Layer> = borrowed.iter().map(|l| l.layer()).collect();
    let mine_values = mine_layer.layer();
    let maps = py.detach(|| guarded(|| Ok(Analysis::from_teams(mine_values, &refs))))?;
    let grid = mine_layer.grid_object();
    let wrap = |layer: Layer| Py::new(py, PyLayer::new(grid.clone_ref(py), layer));
    Ok(PyAnalysis {
        mine: wrap(maps.mine)?,
        theirs: wrap(maps.theirs)?,
        influence: wrap(maps.influence)?,
        tension: wrap(maps.tension)?,
        tension_product: wrap(maps.tension_product)?,
        vulnerability: wrap(maps.vulnerability)?,
        directed_vulnerability: wrap(maps.directed_vulnerability)?,
    })
}
