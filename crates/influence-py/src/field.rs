//! `Field`: the library's grid-free field in the plane (`field::Field<Vec2>`), its values,
//! gradients, local extremum search and sampling onto a grid.

use influence::field::{Curve, Field, PointSource, Search};
use influence::glam::Vec2;
use influence::Layer;
use influence_scenario::field::CurveName;
use numpy::PyArray1;
use pyo3::prelude::*;

use crate::args::{self, given, shown, type_error, value_error};
use crate::grid::PyGrid;
use crate::guarded;
use crate::layer::{pairs_out, PyLayer};

/// A grid-free influence map in the plane: point sources, each adding
/// ``strength · curve(d, radius)`` at straight-line distance ``d`` (walls are not seen),
/// read anywhere with no grid; its gradient is exact. Curves: ``"linear"`` ``1 − d/r``,
/// ``"smooth"`` ``(1 − (d/r)²)²``, ``"polynomial"`` (``power=``), ``"gaussian"``
/// (``sigma=``), ``"exponential"`` (``rate=``); every curve is 0 beyond the radius.
///
/// ``points`` is an ``(N, 2)`` array or a list of ``(x, y)``; ``strength`` and ``radius``
/// are numbers or one per point.
///
/// >>> import influence_maps as im
/// >>> field = im.Field([(0.0, 0.0), (30.0, 0.0)], strength=[4.0, 2.0], radius=10.0)
/// >>> field.sample((15.0, 0.0))                # between the two, out of reach
/// 0.0
/// >>> field.sample([(0.0, 0.0), (30.0, 0.0)]).tolist()
/// [4.0, 2.0]
#[pyclass(frozen, name = "Field", module = "influence_maps")]
pub(crate) struct PyField {
    field: Field<Vec2>,
}

/// `Search` parameters from keyword arguments.
fn search(
    radius: Option<&Bound<'_, PyAny>>,
    step: Option<&Bound<'_, PyAny>>,
    min_step: Option<&Bound<'_, PyAny>>,
    max_steps: Option<&Bound<'_, PyAny>>,
) -> PyResult<Search> {
    let d = Search::default();
    Ok(Search {
        radius: given(radius).map(|v| args::positive(v, "radius")).transpose()?.unwrap_or(d.radius),
        step: given(step).map(|v| args::positive(v, "step")).transpose()?.unwrap_or(d.step),
        min_step: given(min_step).map(|v| args::positive(v, "min_step")).transpose()?.unwrap_or(d.min_step),
        max_steps: given(max_steps).map(|v| args::count(v, "max_steps")).transpose()?.unwrap_or(d.max_steps),
    })
}

impl PyField {
    /// Ascent (`sign` 1) or descent (−1) from `start`.
    #[allow(clippy::too_many_arguments)]
    fn climb(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        up: bool,
        radius: Option<&Bound<'_, PyAny>>,
        step: Option<&Bound<'_, PyAny>>,
        min_step: Option<&Bound<'_, PyAny>>,
        max_steps: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<((f64, f64), f32, usize)> {
        let start = args::point(start, "start")?;
        let search = search(radius, step, min_step, max_steps)?;
        let field = &self.field;
        let (p, v, n) = py.detach(|| {
            guarded(|| {
                let found =
                    if up { field.local_max(start, &search) } else { field.local_min(start, &search) };
                found.map_err(|e| args::library_error("search", &e))
            })
        })?;
        Ok(((f64::from(p.x), f64::from(p.y)), v, n))
    }
}

#[pymethods]
impl PyField {
    #[new]
    #[pyo3(signature = (points, strength=None, radius=None, curve=None, *, power=None, sigma=None, rate=None),
           text_signature = "(points, strength=1.0, radius=None, curve='smooth', *, power=None, sigma=None, rate=None)")]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        points: &Bound<'_, PyAny>,
        strength: Option<&Bound<'_, PyAny>>,
        radius: Option<&Bound<'_, PyAny>>,
        curve: Option<&Bound<'_, PyAny>>,
        power: Option<&Bound<'_, PyAny>>,
        sigma: Option<&Bound<'_, PyAny>>,
        rate: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let (points, single) = args::points(points, "points")?;
        let n = points.len();
        let strength = match given(strength) {
            Some(s) => args::per_point(s, "strength", n)?,
            None => args::PerPoint::All(1.0),
        };
        let radius =
            args::per_point(given(radius).ok_or_else(|| value_error("radius is required"))?, "radius", n)?;
        let kind = given(curve).map(|c| args::named::<CurveName>(c, "curve")).transpose()?;
        let kind = kind.unwrap_or(CurveName::Smooth);
        let params = [("power", power), ("sigma", sigma), ("rate", rate)];
        let takes = match kind {
            CurveName::Polynomial => "power",
            CurveName::Gaussian => "sigma",
            CurveName::Exponential => "rate",
            CurveName::Linear | CurveName::Smooth => "",
        };
        for (key, value) in params {
            if given(value).is_some() && key != takes {
                return Err(value_error(format!("{key} does not apply to curve '{kind}'")));
            }
        }
        let needs = |key: &str| format!("curve '{kind}' needs {key}");
        let curve = match kind {
            CurveName::Linear => Curve::Linear,
            CurveName::Polynomial => Curve::Polynomial {
                power: args::positive(args::required(power, || needs("power"))?, "power")?,
            },
            CurveName::Gaussian => {
                Curve::Gaussian { sigma: args::positive(args::required(sigma, || needs("sigma"))?, "sigma")? }
            }
            CurveName::Exponential => Curve::Exponential {
                rate: args::non_negative(args::required(rate, || needs("rate"))?, "rate")?,
            },
            CurveName::Smooth => Curve::Smooth,
        };
        let mut sources = Vec::with_capacity(n);
        for (i, &p) in points.iter().enumerate() {
            let r = radius.positive_at(i, "radius")?;
            sources.push(
                PointSource::new(p, strength.at(i), r, curve.clone())
                    .map_err(|e| args::library_error(args::Item::new("points", i, single), &e))?,
            );
        }
        Ok(Self { field: Field::new(sources) })
    }

    /// The field's value at world points: a float for one ``(x, y)``, a float32 array for
    /// ``(N, 2)`` points.
    ///
    /// >>> import influence_maps as im
    /// >>> im.Field((0.0, 0.0), strength=2.0, radius=4.0, curve="linear").sample((1.0, 0.0))
    /// 1.5
    fn sample<'py>(&self, py: Python<'py>, points: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (points, single) = args::points(points, "points")?;
        let field = &self.field;
        let values: Vec<f32> =
            py.detach(|| guarded(|| Ok(points.iter().map(|&p| field.value(p)).collect())))?;
        if single {
            return Ok(values[0].into_pyobject(py)?.into_any());
        }
        Ok(PyArray1::from_vec(py, values).into_any())
    }

    /// The exact gradient ``(d/dx, d/dy)`` at world points: a tuple for one point, an
    /// ``(N, 2)`` float64 array for many.
    ///
    /// >>> import influence_maps as im
    /// >>> im.Field((0.0, 0.0), strength=2.0, radius=4.0, curve="linear").gradient((1.0, 0.0))
    /// (-0.5, 0.0)
    fn gradient<'py>(&self, py: Python<'py>, points: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (points, single) = args::points(points, "points")?;
        let field = &self.field;
        let out: Vec<[f64; 2]> = py.detach(|| {
            guarded(|| {
                Ok(points
                    .iter()
                    .map(|&p| {
                        let g = field.value_and_gradient(p).1;
                        [f64::from(g.x), f64::from(g.y)]
                    })
                    .collect())
            })
        })?;
        pairs_out(py, out, single)
    }

    /// Gradient descent from ``start`` to the lowest point it finds within ``radius`` of the
    /// start (the safest spot nearby on a threat field): ``((x, y), value, steps)``. Only
    /// improving steps are taken, so the answer is never worse than the start. ``step`` is
    /// the first step's length (later ones double or halve), down to ``min_step``, with at
    /// most ``max_steps`` trials.
    ///
    /// >>> import influence_maps as im
    /// >>> threat = im.Field((0.0, 0.0), strength=1.0, radius=10.0, curve="linear")
    /// >>> (x, y), value, steps = threat.descend((1.0, 0.0))
    /// >>> round(x, 2), bool(value < threat.sample((1.0, 0.0)))
    /// (9.0, True)
    #[pyo3(signature = (start, radius=None, step=None, min_step=None, max_steps=None),
           text_signature = "(self, start, radius=8.0, step=1.0, min_step=0.001, max_steps=100)")]
    fn descend(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        radius: Option<&Bound<'_, PyAny>>,
        step: Option<&Bound<'_, PyAny>>,
        min_step: Option<&Bound<'_, PyAny>>,
        max_steps: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<((f64, f64), f32, usize)> {
        self.climb(py, start, false, radius, step, min_step, max_steps)
    }

    /// Gradient ascent from ``start`` to the highest point it finds within ``radius``: as
    /// :meth:`descend`, ``((x, y), value, steps)``.
    ///
    /// >>> import influence_maps as im
    /// >>> field = im.Field((3.0, 4.0), strength=1.0, radius=10.0)
    /// >>> (x, y), value, steps = field.ascend((0.0, 0.0))
    /// >>> round(x, 1), round(y, 1)
    /// (3.0, 4.0)
    #[pyo3(signature = (start, radius=None, step=None, min_step=None, max_steps=None),
           text_signature = "(self, start, radius=8.0, step=1.0, min_step=0.001, max_steps=100)")]
    fn ascend(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        radius: Option<&Bound<'_, PyAny>>,
        step: Option<&Bound<'_, PyAny>>,
        min_step: Option<&Bound<'_, PyAny>>,
        max_steps: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<((f64, f64), f32, usize)> {
        self.climb(py, start, true, radius, step, min_step, max_steps)
    }

    /// The field sampled at the cell centres of ``grid``: a new :class:`Layer` (blocked cells
    /// get 0), so the layer algebra, :func:`analysis` and queries apply.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["...."])
    /// >>> im.Field((0.5, 0.5), strength=3.0, radius=2.0, curve="linear").to_layer(grid).numpy().tolist()
    /// [[3.0, 1.5, 0.0, 0.0]]
    fn to_layer(&self, py: Python<'_>, grid: &Bound<'_, PyAny>) -> PyResult<PyLayer> {
        let grid = grid
            .cast::<PyGrid>()
            .map_err(|_| type_error(format!("grid must be a Grid, got {}", shown(grid))))?;
        let g = &grid.get().grid;
        let field = &self.field;
        let mut layer = Layer::for_space(g);
        py.detach(|| {
            guarded(|| {
                field.sample_onto(g, 0.0, &mut layer);
                Ok(())
            })
        })?;
        Ok(PyLayer::new(grid.clone().unbind(), layer))
    }

    /// The sum of the sources' strengths.
    ///
    /// >>> import influence_maps as im
    /// >>> im.Field([(0.0, 0.0), (5.0, 5.0)], strength=[2.0, -0.5], radius=3.0).total_strength
    /// 1.5
    #[getter]
    fn total_strength(&self) -> f64 {
        self.field.total_strength()
    }

    fn __len__(&self) -> usize {
        self.field.sources().len()
    }

    fn __repr__(&self) -> String {
        format!("Field(sources={})", self.field.sources().len())
    }
}
