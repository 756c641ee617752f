//! `Layer`: one `float32` per cell of a grid, indexed `[y, x]`, owned by an `influence::Layer`
//! that numpy views without copying; stamping, algebra and queries on it.
//!
//! The values' buffer is allocated once, when the layer is made, and never replaced: every
//! operation writes into it in place (`Layer::values_mut`, `map`, `zip_map`, the stamper).
//! That is what makes the numpy view of [`PyLayer::numpy`] sound.

use influence::glam::Vec2;
use influence::query::{self, Extreme};
use influence::{Grid, Layer, Space};
use numpy::ndarray::ArrayView2;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyTuple};

use crate::args::{self, given, shown, type_error, value_error};
use crate::grid::PyGrid;
use crate::guarded;
use crate::sources::{self, SourceArgs};

/// A layer: one `float32` value per cell of its grid, indexed ``[y, x]``.
///
/// Make one with :meth:`Grid.layer`. Stamp units into it with :meth:`add`, read and write it
/// through :meth:`numpy` (a view: no copy), combine layers with ``+``, ``-``, ``*`` and the
/// in-place methods, and ask it questions (:meth:`top`, :meth:`value`, :meth:`frontline`).
///
/// >>> import influence_maps as im, numpy as np
/// >>> grid = im.Grid(np.ones((4, 6)))
/// >>> layer = grid.layer()
/// >>> layer.shape
/// (4, 6)
/// >>> _ = layer.add([(2.5, 1.5)], strength=4.0, radius=2.0)
/// >>> float(layer.numpy()[1, 2]), float(layer.numpy()[1, 3])
/// (4.0, 2.0)
#[pyclass(name = "Layer", module = "influence_maps")]
pub(crate) struct PyLayer {
    /// The values, row-major `[y, x]`. Never reassigned: numpy views point into it.
    layer: Layer,
    /// The grid the layer belongs to.
    grid: Py<PyGrid>,
}

/// Buffers of `Layer.top` within a region, kept by the grid between calls so that a query
/// per frame allocates no layer-sized memory.
#[derive(Debug, Default)]
pub(crate) struct Region {
    /// The layer's values inside the region, NaN outside.
    masked: Vec<f32>,
    /// Cells within the straight-line radius (when a walking distance limits them too).
    inside: Vec<bool>,
}

/// The right-hand side of an operation: a number, a layer, or an array's values as a layer.
enum Operand<'py> {
    Scalar(f32),
    /// The layer itself (`a + a`, `a += a`): read from the values being written.
    Same,
    Layer(PyRef<'py, PyLayer>),
    Values(Layer),
}

impl Operand<'_> {
    /// `layer ← f(layer, self)` cell by cell, by the library's `map` and `zip_map` (the
    /// lengths were checked when the operand was made).
    fn apply(&self, layer: &mut Layer, f: impl Fn(f32, f32) -> f32) {
        match self {
            Self::Scalar(k) => {
                let k = *k;
                layer.map(|a| f(a, k));
            }
            Self::Same => {
                layer.map(|a| f(a, a));
            }
            Self::Layer(other) => {
                layer.zip_map(&other.layer, f);
            }
            Self::Values(other) => {
                layer.zip_map(other, f);
            }
        }
    }
}

impl PyLayer {
    /// A layer of `grid` holding `layer` (made for that grid).
    pub(crate) fn new(grid: Py<PyGrid>, layer: Layer) -> Self {
        Self { layer, grid }
    }

    /// The library layer.
    pub(crate) fn layer(&self) -> &Layer {
        &self.layer
    }

    /// The grid object.
    pub(crate) fn grid_object(&self) -> &Py<PyGrid> {
        &self.grid
    }

    /// `(height, width)`.
    pub(crate) fn shape(&self) -> (usize, usize) {
        let g = &self.grid.get().grid;
        (g.height(), g.width())
    }

    /// `ValueError` naming `arg` unless the layer has `shape`, `(height, width)`: checked
    /// before any library call that would panic on layers of different lengths.
    pub(crate) fn check_shape(&self, shape: (usize, usize), arg: &str) -> PyResult<()> {
        let mine = self.shape();
        if mine == shape {
            return Ok(());
        }
        Err(value_error(format!(
            "{arg} must be a layer of shape {}, got one of shape {}",
            args::shape_text(&[shape.0, shape.1]),
            args::shape_text(&[mine.0, mine.1])
        )))
    }

    /// A new layer of the same grid with `values`.
    fn sibling(&self, py: Python<'_>, values: Vec<f32>) -> Self {
        Self { layer: Layer::from_vec(values), grid: self.grid.clone_ref(py) }
    }
}

/// `other` as an operand of `slf`: a number, `slf` itself, another layer of the same shape,
/// or an array-like of the layer's shape (copied, so it may be a view of `slf` itself).
fn operand<'py>(slf: &Bound<'py, PyLayer>, other: &Bound<'py, PyAny>, arg: &str) -> PyResult<Operand<'py>> {
    let shape = slf.try_borrow()?.shape();
    if let Ok(layer) = other.cast::<PyLayer>() {
        if layer.is(slf) {
            return Ok(Operand::Same);
        }
        let layer = layer.try_borrow()?;
        layer.check_shape(shape, arg)?;
        return Ok(Operand::Layer(layer));
    }
    if args::is_number(other) {
        return args::finite(other, arg).map(Operand::Scalar);
    }
    if other.is_instance_of::<pyo3::types::PyString>() || other.is_none() {
        return Err(type_error(format!(
            "{arg} must be a Layer, an array of shape {} or a number, got {}",
            args::shape_text(&[shape.0, shape.1]),
            shown(other)
        )));
    }
    args::values(other, arg, shape).map(|v| Operand::Values(Layer::from_vec(v)))
}

/// A new layer: `f(self, other)` cell by cell (`other` first when `reflected`).
fn binary(
    slf: &Bound<'_, PyLayer>,
    other: &Bound<'_, PyAny>,
    reflected: bool,
    f: impl Fn(f32, f32) -> f32,
) -> PyResult<PyLayer> {
    let py = slf.py();
    let rhs = operand(slf, other, "other")?;
    let this = slf.try_borrow()?;
    let mut layer = this.layer.clone();
    rhs.apply(&mut layer, |a, b| if reflected { f(b, a) } else { f(a, b) });
    Ok(this.sibling(py, layer.into_vec()))
}

/// `self ← f(self, other)` cell by cell.
fn in_place(
    slf: &Bound<'_, PyLayer>,
    other: &Bound<'_, PyAny>,
    arg: &str,
    f: impl Fn(f32, f32) -> f32,
) -> PyResult<()> {
    let rhs = operand(slf, other, arg)?;
    rhs.apply(&mut slf.try_borrow_mut()?.layer, f);
    Ok(())
}

/// The checked arguments of a top query: `Layer.top`, and `SpotIndex.top`, which takes the
/// same arguments so that it is a drop-in for it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TopArgs {
    /// Spots wanted.
    pub(crate) n: usize,
    /// Least distance between two spots' centres.
    pub(crate) spacing: f32,
    /// Highest or lowest values.
    pub(crate) which: Extreme,
    /// The region the spots must lie in, if any.
    pub(crate) near: Option<Near>,
}

/// The region of a top query: cells within `radius` of `point` and/or within a walk of
/// `walk.1` from cell `walk.0` (the walkable cell holding `point`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Near {
    /// The point measured from, `(x, y)` in world units.
    pub(crate) point: Vec2,
    /// The straight-line radius.
    pub(crate) radius: Option<f32>,
    /// The start cell and the walking distance.
    pub(crate) walk: Option<(usize, f32)>,
}

impl TopArgs {
    /// The arguments of `top(n=5, spacing=0.0, highest=True, near=None, radius=None,
    /// path_distance=None)`, checked in that order against `grid`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn parse(
        grid: &Grid,
        n: Option<&Bound<'_, PyAny>>,
        spacing: Option<&Bound<'_, PyAny>>,
        highest: Option<&Bound<'_, PyAny>>,
        near: Option<&Bound<'_, PyAny>>,
        radius: Option<&Bound<'_, PyAny>>,
        path_distance: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let n = given(n).map(|v| args::count(v, "n")).transpose()?.unwrap_or(5);
        let spacing = given(spacing).map(|v| args::non_negative(v, "spacing")).transpose()?.unwrap_or(0.0);
        let which = match given(highest).map(|v| flag(v, "highest")).transpose()? {
            Some(false) => Extreme::Lowest,
            _ => Extreme::Highest,
        };
        let radius = given(radius).map(|v| args::non_negative(v, "radius")).transpose()?;
        let walk = given(path_distance).map(|v| args::non_negative(v, "path_distance")).transpose()?;
        let near = match given(near) {
            Some(p) => {
                if radius.is_none() && walk.is_none() {
                    return Err(value_error("near needs radius or path_distance (or both)"));
                }
                let point = args::point(p, "near")?;
                let cell = args::cell_of(grid, point, "near")?;
                let walk = match walk {
                    Some(limit) => {
                        if grid.is_blocked(cell) {
                            return Err(value_error(format!(
                                "near = {} is on blocked cell ({}, {}); path_distance needs a walkable start",
                                args::point_text(point),
                                cell.x,
                                cell.y
                            )));
                        }
                        grid.index(cell).map(|start| (start, limit))
                    }
                    None => None,
                };
                Some(Near { point, radius, walk })
            }
            None if radius.is_some() || walk.is_some() => {
                let which = if radius.is_some() { "radius" } else { "path_distance" };
                return Err(value_error(format!("{which} needs near=(x, y), the point to measure from")));
            }
            None => None,
        };
        Ok(Self { n, spacing, which, near })
    }
}

/// The top query `query` of `layer` within `near`: the library's `top_n` on a copy of the
/// layer that is NaN outside the region (the query never picks NaN), in buffers the grid
/// keeps between calls.
pub(crate) fn top_within(pyg: &PyGrid, layer: &Layer, query: &TopArgs, near: &Near) -> Vec<(usize, f32)> {
    let grid = &pyg.grid;
    let mut region = crate::scratch(&pyg.region);
    let Region { masked, inside } = &mut *region;
    masked.clear();
    masked.resize(grid.len(), f32::NAN);
    let mut masked = Layer::from_vec(std::mem::take(masked));
    let p = near.point.extend(0.0);
    match (near.radius, near.walk) {
        (Some(r), None) => grid.for_each_within(p, r, |i| masked[i] = layer[i]),
        (None, Some((start, limit))) => {
            let mut router = crate::scratch(&pyg.router);
            router.sweep(grid, &[(start, 0.0)], limit, |i, _| masked[i] = layer[i]);
        }
        (Some(r), Some((start, limit))) => {
            inside.clear();
            inside.resize(grid.len(), false);
            grid.for_each_within(p, r, |i| inside[i] = true);
            let mut router = crate::scratch(&pyg.router);
            router.sweep(grid, &[(start, 0.0)], limit, |i, _| {
                if inside[i] {
                    masked[i] = layer[i];
                }
            });
        }
        // `near` comes with a radius or a walking distance (checked by `TopArgs::parse`).
        (None, None) => masked.values_mut().copy_from_slice(layer.values()),
    }
    let spots = query::top_n(grid, &masked, query.n, query.spacing, query.which);
    region.masked = masked.into_vec();
    spots
}

/// The answer of a top query: an `(k, 2)` float64 array of the spots' cell centres in world
/// units and a `(k,)` float32 array of their values.
pub(crate) fn spots_out<'py>(
    py: Python<'py>,
    grid: &Grid,
    spots: &[(usize, f32)],
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<f32>>)> {
    let centres: Vec<[f64; 2]> = spots
        .iter()
        .map(|&(i, _)| {
            let c = grid.center(grid.cell(i));
            [f64::from(c.x), f64::from(c.y)]
        })
        .collect();
    let points = pairs_out(py, centres, false)?;
    let values = PyArray1::from_vec(py, spots.iter().map(|s| s.1).collect());
    Ok((points, values))
}

/// Values at points, as one Python value (`single`) or an array.
pub(crate) fn one_or_many<'py>(
    py: Python<'py>,
    values: Vec<f32>,
    single: bool,
) -> PyResult<Bound<'py, PyAny>> {
    if single {
        Ok(values[0].into_pyobject(py)?.into_any())
    } else {
        Ok(PyArray1::from_vec(py, values).into_any())
    }
}

/// Pairs (world points, cells) as an `(N, 2)` array, without copying them again.
pub(crate) fn pairs_array<T: numpy::Element>(
    py: Python<'_>,
    pairs: Vec<[T; 2]>,
) -> PyResult<Bound<'_, PyArray2<T>>> {
    let n = pairs.len();
    PyArray1::from_vec(py, pairs.into_flattened()).reshape([n, 2])
}

/// Pairs as one `(x, y)` tuple (`single`) or an `(N, 2)` array (float64 for world points,
/// int64 for cells).
pub(crate) fn pairs_out<'py, T>(
    py: Python<'py>,
    pairs: Vec<[T; 2]>,
    single: bool,
) -> PyResult<Bound<'py, PyAny>>
where
    T: numpy::Element + IntoPyObject<'py> + Copy,
{
    if single {
        return Ok(PyTuple::new(py, pairs[0])?.into_any());
    }
    Ok(pairs_array(py, pairs)?.into_any())
}

#[pymethods]
impl PyLayer {
    /// The grid the layer belongs to.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> grid = im.Grid(np.ones((3, 5)))
    /// >>> grid.layer().grid is grid
    /// True
    #[getter]
    fn grid(&self, py: Python<'_>) -> Py<PyGrid> {
        self.grid.clone_ref(py)
    }

    /// ``(height, width)``, the shape of :meth:`numpy`.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> im.Grid(np.ones((3, 5))).layer().shape
    /// (3, 5)
    #[getter(shape)]
    fn shape_py(&self) -> (usize, usize) {
        self.shape()
    }

    /// The values as a ``float32`` numpy array indexed ``[y, x]`` that shares the layer's
    /// memory: no copy is made, writes to it change the layer, and the layer's operations
    /// show in it at once. The array keeps the layer alive.
    ///
    /// Do not write to the view from another thread while a call on the same layer runs
    /// (calls release the GIL), just as with numpy's own operations.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> layer = im.Grid(np.ones((3, 5))).layer()
    /// >>> view = layer.numpy()
    /// >>> view[1, 4] = 2.5                 # cell (x=4, y=1)
    /// >>> layer.max()
    /// 2.5
    /// >>> np.shares_memory(view, layer.numpy())
    /// True
    #[allow(unsafe_code)]
    fn numpy<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let this = slf.try_borrow()?;
        let view = ArrayView2::from_shape(this.shape(), this.layer.values())
            .map_err(|e| value_error(format!("the layer does not fit its grid: {e}")))?;
        // SAFETY: the array points into `this.layer`'s buffer and has the `Layer` object
        // `slf` as its base, so the object (and the `Vec` inside it) outlives the array. The
        // buffer is allocated when the layer is made and never reallocated or replaced: no
        // operation of this module assigns `PyLayer::layer` or changes its length (see the
        // module docs); the library writes into a `&mut Layer` in place.
        let array = unsafe { PyArray2::borrow_from_array(&view, slf.clone().into_any()) };
        Ok(array)
    }

    /// numpy's array protocol: ``np.asarray(layer)`` is :meth:`numpy` (a view);
    /// ``np.array(layer)`` and any ``dtype`` other than ``float32`` copy.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> layer = im.Grid(np.ones((2, 2))).layer()
    /// >>> np.shares_memory(np.asarray(layer), layer.numpy())
    /// True
    /// >>> np.asarray(layer, dtype=np.float64).dtype
    /// dtype('float64')
    #[pyo3(signature = (dtype=None, copy=None))]
    fn __array__<'py>(
        slf: &Bound<'py, Self>,
        dtype: Option<&Bound<'py, PyAny>>,
        copy: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let view = Self::numpy(slf)?.into_any();
        let copy = given(copy).map(pyo3::types::PyAnyMethods::is_truthy).transpose()?.unwrap_or(false);
        match given(dtype) {
            Some(dtype) => view.call_method1("astype", (dtype,)),
            None if copy => view.call_method0("copy"),
            None => Ok(view),
        }
    }

    /// Stamps units into the layer and returns the layer.
    ///
    /// Each point ``(x, y)`` in world units gets ``strength · falloff(distance, radius)`` on
    /// every walkable cell whose centre lies within ``radius`` of it, combined with what the
    /// cell holds per ``mode``. Blocked cells never receive influence.
    ///
    /// - ``points``: an ``(N, 2)`` array or a list of ``(x, y)`` (python-sc2 ``Point2`` s
    ///   work), or one ``(x, y)``; ``[]`` stamps nothing.
    /// - ``strength``, ``radius``: a number, or one per point. ``radius`` may be left out
    ///   for ``"point"`` (one cell) and ``"band"`` (the band's last distance).
    /// - ``falloff``: ``"linear"``, ``"exponential"`` (``rate=``), ``"halving"``
    ///   (``step=``, default one cell), ``"polynomial"`` (``power=``), ``"gaussian"``
    ///   (``sigma=``), ``"constant"``, ``"point"``, ``"band"`` (``band=[(distance,
    ///   factor), ...]``), or a callable ``f(distance, radius) -> factor``.
    /// - ``distance``: ``"euclidean"``, ``"manhattan"``, ``"octile"``, or ``"path"``
    ///   (walking distance around walls).
    /// - ``mode``: ``"add"``, ``"set"`` or ``"max"``.
    /// - ``on_blocked``: a point on a blocked cell raises ``ValueError`` naming the nearest
    ///   walkable cell (``"error"``), moves there (``"snap"``), or is left out (``"skip"``).
    ///
    /// A point off the grid, NaN, or a bad parameter raises ``ValueError`` before anything
    /// is written. The GIL is released while stamping (except for a callable falloff).
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> grid = im.Grid(np.ones((5, 9)))
    /// >>> danger = grid.layer()
    /// >>> enemies = np.array([[2.5, 2.5], [6.5, 2.5]])
    /// >>> _ = danger.add(enemies, strength=[4.0, 2.0], radius=2.0)
    /// >>> danger.numpy()[2, 1:8].tolist()
    /// [2.0, 4.0, 2.0, 0.0, 1.0, 2.0, 1.0]
    /// >>> _ = danger.add((4.5, 4.5), strength=1.0, radius=3.0, falloff="gaussian", sigma=1.0)
    #[pyo3(signature = (points, strength=None, radius=None, falloff=None, distance=None, mode=None, on_blocked=None, *, rate=None, step=None, power=None, sigma=None, band=None),
           text_signature = "(self, points, strength=1.0, radius=None, falloff='linear', distance='euclidean', mode='add', on_blocked='error', *, rate=None, step=None, power=None, sigma=None, band=None)")]
    #[allow(clippy::too_many_arguments)]
    fn add<'py>(
        slf: Bound<'py, Self>,
        points: &Bound<'py, PyAny>,
        strength: Option<&Bound<'py, PyAny>>,
        radius: Option<&Bound<'py, PyAny>>,
        falloff: Option<&Bound<'py, PyAny>>,
        distance: Option<&Bound<'py, PyAny>>,
        mode: Option<&Bound<'py, PyAny>>,
        on_blocked: Option<&Bound<'py, PyAny>>,
        rate: Option<&Bound<'py, PyAny>>,
        step: Option<&Bound<'py, PyAny>>,
        power: Option<&Bound<'py, PyAny>>,
        sigma: Option<&Bound<'py, PyAny>>,
        band: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, Self>> {
        let py = slf.py();
        let a = SourceArgs::new(
            sources::STAMP,
            points,
            strength,
            radius,
            falloff,
            distance,
            mode,
            on_blocked,
            [rate, step, power, sigma, band],
        );
        let grid_object = slf.try_borrow()?.grid.clone_ref(py);
        let grid = grid_object.get();
        let checked = sources::checked(&grid.grid, &a)?;
        let mut this = slf.try_borrow_mut()?;
        grid.stamp(py, &mut this.layer, checked)?;
        drop(this);
        Ok(slf)
    }

    /// A copy: a new layer of the same grid with the same values.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> a = im.Grid(np.ones((2, 2))).layer(1.0)
    /// >>> b = a.copy()
    /// >>> _ = b.fill(3.0)
    /// >>> a.max(), b.max()
    /// (1.0, 3.0)
    fn copy(&self, py: Python<'_>) -> Self {
        self.sibling(py, self.layer.values().to_vec())
    }

    /// Sets every cell to ``value``; returns the layer.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> im.Grid(np.ones((2, 2))).layer().fill(7).sum()
    /// 28.0
    fn fill<'py>(slf: Bound<'py, Self>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let v = args::finite(value, "value")?;
        slf.try_borrow_mut()?.layer.fill(v);
        Ok(slf)
    }

    /// Multiplies every cell by ``factor`` in place; returns the layer.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> im.Grid(np.ones((2, 2))).layer(2.0).scale(-0.5).max()
    /// -1.0
    fn scale<'py>(slf: Bound<'py, Self>, factor: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let k = args::finite(factor, "factor")?;
        slf.try_borrow_mut()?.layer.map(|v| v * k);
        Ok(slf)
    }

    /// Clamps every cell to ``[lo, hi]`` in place (either bound may be ``None``); returns the
    /// layer.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> layer = im.Grid(np.ones((1, 3))).layer([[-2.0, 0.5, 9.0]])
    /// >>> layer.clamp(0.0, 1.0).numpy().tolist()
    /// [[0.0, 0.5, 1.0]]
    #[pyo3(signature = (lo=None, hi=None))]
    fn clamp<'py>(
        slf: Bound<'py, Self>,
        lo: Option<&Bound<'py, PyAny>>,
        hi: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, Self>> {
        let lo = given(lo).map(|v| args::finite(v, "lo")).transpose()?.unwrap_or(f32::NEG_INFINITY);
        let hi = given(hi).map(|v| args::finite(v, "hi")).transpose()?.unwrap_or(f32::INFINITY);
        if lo > hi {
            return Err(value_error(format!("lo must not exceed hi, got lo={lo} and hi={hi}")));
        }
        slf.try_borrow_mut()?.layer.map(|v| v.clamp(lo, hi));
        Ok(slf)
    }

    /// Keeps the larger of each cell and ``other`` (a layer, an array of the layer's shape
    /// or a number) in place; returns the layer.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> a = im.Grid(np.ones((1, 3))).layer([[1.0, 5.0, 2.0]])
    /// >>> a.maximum(np.array([[3.0, 0.0, 2.5]])).numpy().tolist()
    /// [[3.0, 5.0, 2.5]]
    fn maximum<'py>(slf: Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        in_place(&slf, other, "other", f32::max)?;
        Ok(slf)
    }

    /// Keeps the smaller of each cell and ``other`` in place; returns the layer.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> a = im.Grid(np.ones((1, 3))).layer([[1.0, 5.0, 2.0]])
    /// >>> a.minimum(2.0).numpy().tolist()
    /// [[1.0, 2.0, 2.0]]
    fn minimum<'py>(slf: Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        in_place(&slf, other, "other", f32::min)?;
        Ok(slf)
    }

    /// Replaces every cell by its absolute value; returns the layer.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> im.Grid(np.ones((1, 2))).layer([[-3.0, 2.0]]).abs().numpy().tolist()
    /// [[3.0, 2.0]]
    fn abs(slf: Bound<'_, Self>) -> PyResult<Bound<'_, Self>> {
        slf.try_borrow_mut()?.layer.map(f32::abs);
        Ok(slf)
    }

    /// Divides by the largest absolute value, so values land in ``[-1, 1]`` with signs kept
    /// (an all-zero layer stays zero); returns the layer.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> im.Grid(np.ones((1, 2))).layer([[-4.0, 2.0]]).normalize().numpy().tolist()
    /// [[-1.0, 0.5]]
    fn normalize(slf: Bound<'_, Self>) -> PyResult<Bound<'_, Self>> {
        slf.try_borrow_mut()?.layer.normalize();
        Ok(slf)
    }

    /// The sum of all cells (accumulated in float64). With numpy's arguments (``axis``,
    /// ``dtype``, ...), as ``numpy.sum`` of :meth:`numpy`, so ``np.sum(layer)`` works too.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> layer = im.Grid(np.ones((2, 3))).layer(0.5)
    /// >>> layer.sum(), layer.sum(axis=0).tolist(), float(np.sum(layer))
    /// (3.0, [1.0, 1.0, 1.0], 3.0)
    #[pyo3(signature = (*args, **kwargs))]
    fn sum<'py>(
        slf: &Bound<'py, Self>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        reduce(slf, "sum", args, kwargs, Layer::sum)
    }

    /// The smallest value of any cell (blocked cells included). With numpy's arguments, as
    /// ``numpy.min`` of :meth:`numpy`.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> im.Grid(np.ones((1, 2))).layer([[-1.0, 3.0]]).min()
    /// -1.0
    #[pyo3(signature = (*args, **kwargs))]
    fn min<'py>(
        slf: &Bound<'py, Self>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        reduce(slf, "min", args, kwargs, |l| f64::from(l.min_max().map_or(0.0, |(lo, _)| lo)))
    }

    /// The largest value of any cell (blocked cells included). With numpy's arguments, as
    /// ``numpy.max`` of :meth:`numpy`.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> im.Grid(np.ones((1, 2))).layer([[-1.0, 3.0]]).max()
    /// 3.0
    #[pyo3(signature = (*args, **kwargs))]
    fn max<'py>(
        slf: &Bound<'py, Self>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        reduce(slf, "max", args, kwargs, |l| f64::from(l.min_max().map_or(0.0, |(_, hi)| hi)))
    }

    /// The layer's value at world points: the bilinear surface through the cell centres
    /// (``bilinear=True``), or the value of the cell holding each point. One ``(x, y)``
    /// gives a float, ``(N, 2)`` points a float32 array. Points off the grid raise
    /// ``ValueError``.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> layer = im.Grid(np.ones((1, 2))).layer([[1.0, 5.0]])
    /// >>> layer.value((0.75, 0.5))
    /// 2.0
    /// >>> layer.value([(0.75, 0.5), (1.9, 0.1)], bilinear=False).tolist()
    /// [1.0, 5.0]
    #[pyo3(signature = (points, bilinear=None), text_signature = "(self, points, bilinear=True)")]
    fn value<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
        bilinear: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let bilinear = given(bilinear).map(|b| flag(b, "bilinear")).transpose()?.unwrap_or(true);
        let grid = &self.grid.get().grid;
        let (points, single) = args::points(points, "points")?;
        let mut out = Vec::with_capacity(points.len());
        for (i, &p) in points.iter().enumerate() {
            let name = args::Item::new("points", i, single);
            let cell = args::cell_of(grid, p, name)?;
            let v = if bilinear {
                query::value_bilinear(grid, &self.layer, p)
            } else {
                grid.index(cell).map(|i| self.layer[i])
            };
            out.push(v.ok_or_else(|| value_error(format!("{name} is off the grid")))?);
        }
        one_or_many(py, out, single)
    }

    /// The slope of the bilinear surface at world points, ``(d/dx, d/dy)`` in value per world
    /// unit: a tuple for one point, an ``(N, 2)`` float64 array for many. It points uphill:
    /// on a danger layer, walk against it.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> layer = im.Grid(np.ones((2, 2))).layer([[0.0, 4.0], [0.0, 4.0]])
    /// >>> layer.gradient((1.0, 1.0))
    /// (4.0, 0.0)
    fn gradient<'py>(&self, py: Python<'py>, points: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let grid = &self.grid.get().grid;
        let (points, single) = args::points(points, "points")?;
        let mut out = Vec::with_capacity(points.len());
        for (i, &p) in points.iter().enumerate() {
            let name = args::Item::new("points", i, single);
            args::cell_of(grid, p, name)?;
            let g = query::gradient(grid, &self.layer, p)
                .ok_or_else(|| value_error(format!("{name} is off the grid")))?;
            out.push([f64::from(g.x), f64::from(g.y)]);
        }
        pairs_out(py, out, single)
    }

    /// The ``n`` best walkable cells, at least ``spacing`` world units apart (centre to
    /// centre), best first: the highest values (``highest=True``: the safest spots of an
    /// influence map seen from your side) or the lowest (the most dangerous ones). With
    /// ``near=(x, y)``, only cells within straight-line ``radius`` of it and/or within
    /// walking distance ``path_distance`` of it (around walls; ``near`` must then be on a
    /// walkable cell). NaN cells are never chosen.
    ///
    /// Returns ``(points, values)``: an ``(k, 2)`` float64 array of cell centres in world
    /// units and a ``(k,)`` float32 array, ``k <= n``.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> layer = im.Grid(np.ones((1, 5))).layer([[9.0, 8.0, 1.0, 7.0, 6.0]])
    /// >>> points, values = layer.top(2, spacing=2.0)
    /// >>> points.tolist(), values.tolist()
    /// ([[0.5, 0.5], [3.5, 0.5]], [9.0, 7.0])
    /// >>> layer.top(1, highest=False, near=(4.5, 0.5), radius=1.0)[1].tolist()
    /// [6.0]
    #[pyo3(signature = (n=None, spacing=None, highest=None, near=None, radius=None, path_distance=None),
           text_signature = "(self, n=5, spacing=0.0, highest=True, near=None, radius=None, path_distance=None)")]
    #[allow(clippy::too_many_arguments)]
    fn top<'py>(
        &self,
        py: Python<'py>,
        n: Option<&Bound<'py, PyAny>>,
        spacing: Option<&Bound<'py, PyAny>>,
        highest: Option<&Bound<'py, PyAny>>,
        near: Option<&Bound<'py, PyAny>>,
        radius: Option<&Bound<'py, PyAny>>,
        path_distance: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<f32>>)> {
        let pyg = self.grid.get();
        let query = TopArgs::parse(&pyg.grid, n, spacing, highest, near, radius, path_distance)?;
        let layer = &self.layer;
        let spots = py.detach(|| {
            guarded(|| {
                Ok(match &query.near {
                    None => query::top_n(&pyg.grid, layer, query.n, query.spacing, query.which),
                    Some(near) => top_within(pyg, layer, &query, near),
                })
            })
        })?;
        spots_out(py, &pyg.grid, &spots)
    }

    /// A :class:`SpotIndex` of the layer's grid built from the layer: for a frame that asks
    /// several :meth:`top` queries of one layer, the same answers with most of the work done
    /// once. The index keeps a copy of the values; see :class:`SpotIndex`.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> layer = im.Grid(np.ones((1, 5))).layer([[9.0, 8.0, 1.0, 7.0, 6.0]])
    /// >>> spots = layer.spot_index()
    /// >>> [spots.top(2, spacing=s)[1].tolist() for s in (0.0, 2.0, 4.0)]
    /// [[9.0, 8.0], [9.0, 7.0], [9.0, 6.0]]
    fn spot_index(slf: &Bound<'_, Self>) -> PyResult<crate::spots::PySpotIndex> {
        crate::spots::spot_index(slf)
    }

    /// The front line: a bool array ``[y, x]``, true on walkable cells where the layer's
    /// sign changes to a walkable neighbour's (the border between your side and theirs on
    /// an influence map).
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> layer = im.Grid(np.ones((1, 4))).layer([[2.0, 1.0, -1.0, -2.0]])
    /// >>> layer.frontline().tolist()
    /// [[False, True, True, False]]
    fn frontline<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let grid = &self.grid.get().grid;
        let layer = &self.layer;
        let mut front = Vec::new();
        py.detach(|| {
            guarded(|| {
                query::frontline_into(grid, layer, &mut front);
                Ok(())
            })
        })?;
        PyArray1::from_vec(py, front).reshape([grid.height(), grid.width()])
    }

    /// The length of the front line in world units: the zero contour of the bilinear
    /// surface, through walkable cells.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> layer = im.Grid(np.ones((3, 4))).layer(np.tile([2.0, 1.0, -1.0, -2.0], (3, 1)))
    /// >>> layer.frontline_length()
    /// 2.0
    fn frontline_length(&self, py: Python<'_>) -> PyResult<f32> {
        let grid = &self.grid.get().grid;
        let layer = &self.layer;
        py.detach(|| guarded(|| Ok(query::frontline_length(grid, layer))))
    }

    /// The value-weighted centre ``(x, y)`` of the walkable cells above ``threshold`` (the
    /// centre of mass of an army's influence), or ``None`` if there are none.
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> im.Grid(np.ones((1, 4))).layer([[0.0, 1.0, 0.0, 1.0]]).centroid()
    /// (2.5, 0.5)
    #[pyo3(signature = (threshold=None), text_signature = "(self, threshold=0.0)")]
    fn centroid(&self, threshold: Option<&Bound<'_, PyAny>>) -> PyResult<Option<(f64, f64)>> {
        let threshold = given(threshold).map(|v| args::finite(v, "threshold")).transpose()?.unwrap_or(0.0);
        let grid = &self.grid.get().grid;
        Ok(query::weighted_centroid(grid, &self.layer, threshold).map(|c| (f64::from(c.x), f64::from(c.y))))
    }

    fn __add__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(slf, other, false, |a, b| a + b)
    }
    fn __radd__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(slf, other, true, |a, b| a + b)
    }
    fn __sub__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(slf, other, false, |a, b| a - b)
    }
    fn __rsub__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(slf, other, true, |a, b| a - b)
    }
    fn __mul__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(slf, other, false, |a, b| a * b)
    }
    fn __rmul__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        binary(slf, other, true, |a, b| a * b)
    }
    fn __truediv__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        let k = args::finite(other, "divisor")?;
        if k == 0.0 {
            return Err(value_error("divisor must not be zero, got 0"));
        }
        binary(slf, other, false, |a, b| a / b)
    }
    fn __neg__(&self, py: Python<'_>) -> Self {
        let mut negated = self.layer.clone();
        negated.map(|v| -v);
        self.sibling(py, negated.into_vec())
    }
    fn __iadd__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        in_place(slf, other, "other", |a, b| a + b)
    }
    fn __isub__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        in_place(slf, other, "other", |a, b| a - b)
    }
    fn __imul__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        in_place(slf, other, "other", |a, b| a * b)
    }
    fn __itruediv__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        let k = args::finite(other, "divisor")?;
        if k == 0.0 {
            return Err(value_error("divisor must not be zero, got 0"));
        }
        in_place(slf, other, "divisor", |a, b| a / b)
    }

    fn __repr__(&self) -> String {
        let (h, w) = self.shape();
        let (lo, hi) = self.layer.min_max().unwrap_or((0.0, 0.0));
        format!("Layer(shape=({h}, {w}), min={lo}, max={hi})")
    }
}

/// A whole-layer reduction: the library's (`whole`) without arguments; with numpy's
/// (`axis`, `dtype`, `out`, ... — as `np.sum(layer)` passes them), numpy's `method` on the view.
fn reduce<'py>(
    slf: &Bound<'py, PyLayer>,
    method: &str,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
    whole: impl FnOnce(&Layer) -> f64,
) -> PyResult<Bound<'py, PyAny>> {
    let numpy_args = !args.is_empty() || kwargs.is_some_and(|k| k.values().iter().any(|v| !v.is_none()));
    if numpy_args {
        return PyLayer::numpy(slf)?.into_any().call_method(method, args, kwargs);
    }
    let value = whole(&slf.try_borrow()?.layer);
    Ok(value.into_pyobject(slf.py())?.into_any())
}

/// A `bool` argument (Python `bool` or numpy `bool_`).
pub(crate) fn flag(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<bool> {
    if obj.is_instance_of::<PyBool>() {
        return obj.extract::<bool>();
    }
    let numpy_bool =
        obj.py().import("numpy").and_then(|np| np.getattr("bool_")).and_then(|t| obj.is_instance(&t));
    if numpy_bool.unwrap_or(false) {
        return obj.is_truthy();
    }
    Err(type_error(format!("{arg} must be True or False, got {}", shown(obj))))
}
