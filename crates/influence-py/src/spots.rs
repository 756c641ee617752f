//! `SpotIndex`: the library's `query::SpotIndex` over a copy of one layer, so that a frame's
//! many top queries of that layer share one index. It answers `top` with `Layer.top`'s
//! arguments and `Layer.top`'s answers, bit for bit; this file only routes each query to
//! the index's function that answers it:
//!
//! - no region: `top_n_into` (any `n` and spacing);
//! - `n = 1` within `radius` alone: `extreme_within_radius`;
//! - `n = 1` within `path_distance` alone: `extreme_reachable`;
//! - anything else within a region (`n > 1`, or both limits): the library has no indexed
//!   form, so it is `Layer.top`'s own code on the index's copy.
//!
//! The library's index checks only sizes, and answers for the values it was built from
//! only if it is asked with those values. So the object keeps its own copy of them (one
//! buffer, overwritten by each build): changing the layer after a build changes no answer
//! until the next build.

use influence::query::SpotIndex;
use influence::Layer;
use numpy::PyArray1;
use pyo3::prelude::*;

use crate::args::{shown, type_error, value_error};
use crate::grid::PyGrid;
use crate::layer::{spots_out, top_within, Near, PyLayer, TopArgs};
use crate::{guarded, scratch};

/// An index of one layer's spots, built once per frame and shared by that frame's
/// :meth:`top` queries: the same arguments and the same answers as :meth:`Layer.top`, bit
/// for bit, most of the work done once by :meth:`build` (on a 256 × 256 map, the build and
/// ten top-N queries cost a few percent of ten :meth:`Layer.top` calls).
///
/// Make one with ``SpotIndex(grid)`` (or ``SpotIndex(grid, layer)``, or
/// :meth:`Layer.spot_index`), keep it, and call :meth:`build` with each frame's layer: its
/// buffers are reused, so after the first frame neither the build nor the queries allocate
/// layer-sized memory.
///
/// The index keeps a copy of the values it was built from: changing the layer afterwards
/// (stamping, algebra, writing to its :meth:`Layer.numpy` view) changes no answer until
/// the next :meth:`build`. It belongs to its grid, and builds only from that grid's layers.
///
/// >>> import influence_maps as im, numpy as np
/// >>> grid = im.Grid(np.ones((1, 5)))
/// >>> layer = grid.layer([[9.0, 8.0, 1.0, 7.0, 6.0]])
/// >>> spots = im.SpotIndex(grid, layer)
/// >>> points, values = spots.top(2, spacing=2.0)
/// >>> points.tolist(), values.tolist()
/// ([[0.5, 0.5], [3.5, 0.5]], [9.0, 7.0])
/// >>> _ = layer.fill(0.0)                      # the index still answers for the built values
/// >>> spots.top(1)[1].tolist(), spots.build(layer).top(1)[1].tolist()
/// ([9.0], [0.0])
#[pyclass(name = "SpotIndex", module = "influence_maps")]
pub(crate) struct PySpotIndex {
    grid: Py<PyGrid>,
    /// A copy of the values built from: the index answers for these. Its buffer is
    /// allocated with the index and overwritten by each build.
    values: Layer,
    index: SpotIndex,
    /// Whether `index` holds a build of `values`.
    built: bool,
    /// The last answer, kept for its buffer.
    out: Vec<(usize, f32)>,
}

impl PySpotIndex {
    /// An index of `grid`, built from `layer` if one is given.
    fn create(grid: Bound<'_, PyGrid>, layer: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let values = Layer::for_space(&grid.get().grid);
        let mut this =
            Self { grid: grid.unbind(), values, index: SpotIndex::new(), built: false, out: Vec::new() };
        if let Some(layer) = crate::args::given(layer) {
            this.build_from(layer.py(), layer)?;
        }
        Ok(this)
    }

    /// Copies `layer` (a `Layer` of the index's grid) and builds the index over the copy.
    fn build_from(&mut self, py: Python<'_>, layer: &Bound<'_, PyAny>) -> PyResult<()> {
        let source = layer
            .cast::<PyLayer>()
            .map_err(|_| type_error(format!("layer must be a Layer, got {}", shown(layer))))?
            .try_borrow()?;
        if !source.grid_object().is(&self.grid) {
            return Err(value_error(format!(
                "layer must be a layer of the index's grid ({}), got one of another grid ({})",
                shown(self.grid.bind(py).as_any()),
                shown(source.grid_object().bind(py).as_any())
            )));
        }
        let Self { grid, values, index, built, .. } = self;
        let grid = &grid.get().grid;
        let from = source.layer();
        *built = false;
        py.detach(|| {
            guarded(|| {
                values.values_mut().copy_from_slice(from.values());
                index.build(grid, values);
                Ok(())
            })
        })?;
        *built = true;
        Ok(())
    }
}

/// `Layer.spot_index`: an index of `layer`'s grid, built from `layer`.
pub(crate) fn spot_index(layer: &Bound<'_, PyLayer>) -> PyResult<PySpotIndex> {
    let grid = layer.try_borrow()?.grid_object().bind(layer.py()).clone();
    PySpotIndex::create(grid, Some(layer.as_any()))
}

#[pymethods]
impl PySpotIndex {
    #[new]
    #[pyo3(signature = (grid, layer=None))]
    fn py_new(grid: &Bound<'_, PyAny>, layer: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let grid = grid
            .cast::<PyGrid>()
            .map_err(|_| type_error(format!("grid must be a Grid, got {}", shown(grid))))?;
        Self::create(grid.clone(), layer)
    }

    /// Indexes ``layer`` (a :class:`Layer` of the index's grid): copies its values into the
    /// index's own buffer and builds the index over them; returns the index. Call it once a
    /// frame, once the layer is final. The GIL is released while building.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> grid = im.Grid(np.ones((2, 3)))
    /// >>> spots = im.SpotIndex(grid)
    /// >>> for frame in range(3):
    /// ...     danger = grid.layer().add((frame + 0.5, 0.5), strength=5.0, radius=1.0)
    /// ...     print(spots.build(danger).top(1)[0].tolist())
    /// [[0.5, 0.5]]
    /// [[1.5, 0.5]]
    /// [[2.5, 0.5]]
    fn build<'py>(slf: Bound<'py, Self>, layer: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        slf.try_borrow_mut()?.build_from(slf.py(), layer)?;
        Ok(slf)
    }

    /// :meth:`Layer.top` of the layer last built from, with the same arguments and the same
    /// answer, bit for bit: the ``n`` best walkable cells at least ``spacing`` apart, best
    /// first, highest or lowest values, optionally only within ``radius`` and/or
    /// ``path_distance`` of ``near``. Returns ``(points, values)``: a ``(k, 2)`` float64
    /// array of cell centres ``(x, y)`` and a ``(k,)`` float32 array, ``k <= n``.
    ///
    /// The index answers the whole-layer query for any ``n`` and ``spacing``, and the best
    /// spot (``n=1``) within ``radius`` or within ``path_distance``; within a region, ``n >
    /// 1`` (or both limits at once) costs what :meth:`Layer.top` costs. The GIL is released
    /// while querying. Raises ``ValueError`` if the index was never built.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> layer = im.Grid(np.ones((1, 5))).layer([[9.0, 8.0, 1.0, 7.0, 6.0]])
    /// >>> spots = layer.spot_index()
    /// >>> spots.top(1, highest=False)[1].tolist(), spots.top(1, near=(4.5, 0.5), radius=1.0)[1].tolist()
    /// ([1.0], [7.0])
    /// >>> spots.top(1, near=(4.5, 0.5), path_distance=1.0)[0].tolist()
    /// [[3.5, 0.5]]
    #[pyo3(signature = (n=None, spacing=None, highest=None, near=None, radius=None, path_distance=None),
           text_signature = "(self, n=5, spacing=0.0, highest=True, near=None, radius=None, path_distance=None)")]
    #[allow(clippy::too_many_arguments)]
    fn top<'py>(
        &mut self,
        py: Python<'py>,
        n: Option<&Bound<'py, PyAny>>,
        spacing: Option<&Bound<'py, PyAny>>,
        highest: Option<&Bound<'py, PyAny>>,
        near: Option<&Bound<'py, PyAny>>,
        radius: Option<&Bound<'py, PyAny>>,
        path_distance: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<f32>>)> {
        let Self { grid, values, index, built, out } = self;
        let pyg = grid.get();
        let grid = &pyg.grid;
        let query = TopArgs::parse(grid, n, spacing, highest, near, radius, path_distance)?;
        if !*built {
            return Err(value_error("the index has not been built: call build(layer) first"));
        }
        let (values, index) = (&*values, &mut *index);
        py.detach(|| {
            guarded(|| {
                let TopArgs { n, spacing, which, near } = query;
                match near {
                    None => index.top_n_into(grid, values, n, spacing, which, out),
                    Some(_) if n == 0 => out.clear(),
                    Some(Near { point, radius: Some(r), walk: None }) if n == 1 => {
                        out.clear();
                        out.extend(index.extreme_within_radius(grid, values, point.extend(0.0), r, which));
                    }
                    Some(Near { radius: None, walk: Some((start, limit)), .. }) if n == 1 => {
                        let mut router = scratch(&pyg.router);
                        out.clear();
                        out.extend(index.extreme_reachable(grid, values, start, limit, &mut router, which));
                    }
                    Some(near) => *out = top_within(pyg, values, &query, &near),
                }
                Ok(())
            })
        })?;
        spots_out(py, grid, out)
    }

    /// The grid the index belongs to.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> grid = im.Grid(np.ones((3, 5)))
    /// >>> im.SpotIndex(grid).grid is grid
    /// True
    #[getter]
    fn grid(&self, py: Python<'_>) -> Py<PyGrid> {
        self.grid.clone_ref(py)
    }

    /// ``(height, width)`` of the grid, and of the layers the index builds from.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> im.SpotIndex(im.Grid(np.ones((3, 5)))).shape
    /// (3, 5)
    #[getter]
    fn shape(&self) -> (usize, usize) {
        let g = &self.grid.get().grid;
        (g.height(), g.width())
    }

    /// Whether the index has been built (and so can answer :meth:`top`).
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> grid = im.Grid(np.ones((3, 5)))
    /// >>> spots = im.SpotIndex(grid)
    /// >>> spots.built, spots.build(grid.layer()).built
    /// (False, True)
    #[getter]
    fn built(&self) -> bool {
        self.built
    }

    fn __repr__(&self) -> String {
        let (h, w) = self.shape();
        let built = if self.built { "True" } else { "False" };
        format!("SpotIndex(shape=({h}, {w}), built={built})")
    }
}
