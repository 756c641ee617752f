//! Routes that avoid danger: `Grid.path`, the library's A* (`route::Router`) with the
//! octile heuristic, and `Route`, what it found.

use influence::glam::Vec2;
use influence::route::{Cost, Heuristic, Route};
use influence::{Grid, Layer};
use numpy::PyArray2;
use pyo3::prelude::*;

use crate::args::{self, given, value_error};
use crate::grid::PyGrid;
use crate::guarded;
use crate::layer::{pairs_array, PyLayer};

/// A route from start to goal over walkable cells (from :meth:`Grid.path`).
///
/// >>> import influence_maps as im
/// >>> grid = im.Grid.from_rows(["....", "....", "...."])
/// >>> route = grid.path((0.5, 1.5), (3.5, 1.5))
/// >>> route.points.tolist()
/// [[0.5, 1.5], [1.5, 1.5], [2.5, 1.5], [3.5, 1.5]]
/// >>> route.length, route.exposure, len(route)
/// (3.0, 0.0, 4)
#[pyclass(frozen, name = "Route", module = "influence_maps")]
pub(crate) struct PyRoute {
    /// Cell centres, start to goal.
    points: Vec<[f64; 2]>,
    /// Cells `[x, y]`, start to goal.
    cells: Vec<[i64; 2]>,
    route: Route,
}

#[pymethods]
impl PyRoute {
    /// The cell centres from start to goal (both included), an ``(N, 2)`` float64 array of
    /// world points.
    ///
    /// >>> import influence_maps as im
    /// >>> im.Grid.from_rows([".."]).path((0.5, 0.5), (1.5, 0.5)).points.shape
    /// (2, 2)
    #[getter]
    fn points<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        pairs_array(py, self.points.clone())
    }

    /// The cells ``(x, y)`` from start to goal, an ``(N, 2)`` int64 array (index a layer's
    /// array with ``[cells[:, 1], cells[:, 0]]``).
    ///
    /// >>> import influence_maps as im
    /// >>> im.Grid.from_rows([".."]).path((0.5, 0.5), (1.5, 0.5)).cells.tolist()
    /// [[0, 0], [1, 0]]
    #[getter]
    fn cells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        pairs_array(py, self.cells.clone())
    }

    /// Length in world units: the sum of the steps (diagonals √2 · cell_size).
    ///
    /// >>> import influence_maps as im
    /// >>> round(im.Grid.from_rows(["..", ".."]).path((0.5, 0.5), (1.5, 1.5)).length, 4)
    /// 1.4142
    #[getter]
    fn length(&self) -> f64 {
        self.route.length
    }

    /// The avoided layer's values summed over every cell of the route, start and goal
    /// included (0 without ``avoid``).
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["..."])
    /// >>> grid.path((0.5, 0.5), (2.5, 0.5), avoid=grid.layer(1.0)).exposure
    /// 3.0
    #[getter]
    fn exposure(&self) -> f64 {
        self.route.exposure
    }

    /// The cost the search minimised: length plus ``weight`` times the positive values of
    /// the avoided layer in every cell entered.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["..."])
    /// >>> grid.path((0.5, 0.5), (2.5, 0.5), avoid=grid.layer(1.0), weight=2.0).cost
    /// 6.0
    #[getter]
    fn cost(&self) -> f32 {
        self.route.cost
    }

    /// How many cells the search expanded (its work).
    ///
    /// >>> import influence_maps as im
    /// >>> im.Grid.from_rows(["..."]).path((0.5, 0.5), (2.5, 0.5)).expanded
    /// 3
    #[getter]
    fn expanded(&self) -> usize {
        self.route.expanded
    }

    fn __len__(&self) -> usize {
        self.route.cells.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Route(cells={}, length={}, exposure={}, cost={})",
            self.route.cells.len(),
            self.route.length,
            self.route.exposure,
            self.route.cost
        )
    }
}

/// The walkable cell of an endpoint, or `ValueError` naming it (off the grid, or on a wall
/// with the nearest walkable cell).
fn endpoint(grid: &PyGrid, obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<usize> {
    walkable_index(grid, args::point(obj, arg)?, arg)
}

/// The index of the walkable cell under world point `p`, or `ValueError` naming `name` (off
/// the grid, or on a wall with the nearest walkable cell): a route's endpoints, a flow
/// field's goals.
pub(crate) fn walkable_index(grid: &PyGrid, p: Vec2, name: impl std::fmt::Display) -> PyResult<usize> {
    let cell = args::cell_of(&grid.grid, p, &name)?;
    if grid.grid.is_blocked(cell) {
        let hint = match grid.nearest_walkable_cell(p)? {
            Some(n) => {
                let c = grid.grid.center(n);
                format!("; the nearest walkable cell is ({}, {}), centre {}", n.x, n.y, args::point_text(c))
            }
            None => "; no cell of the grid is walkable".to_owned(),
        };
        return Err(value_error(format!(
            "{name} = {} is on blocked cell ({}, {}){hint}",
            args::point_text(p),
            cell.x,
            cell.y
        )));
    }
    grid.grid.index(cell).ok_or_else(|| value_error(format!("{name} is off the grid")))
}

/// The layer a route avoids (`avoid`): a `Layer` of the grid's shape, borrowed, or an array
/// `[y, x]`, copied.
pub(crate) enum Avoid<'py> {
    /// A `Layer` object, borrowed for the call.
    Borrowed(PyRef<'py, PyLayer>),
    /// An array's values.
    Owned(Layer),
}

impl Avoid<'_> {
    /// The library layer.
    pub(crate) fn layer(&self) -> &Layer {
        match self {
            Self::Borrowed(layer) => layer.layer(),
            Self::Owned(layer) => layer,
        }
    }
}

/// `avoid`, if given, checked against the grid's `shape` `(height, width)`.
pub(crate) fn avoid<'py>(
    avoid: Option<&Bound<'py, PyAny>>,
    shape: (usize, usize),
) -> PyResult<Option<Avoid<'py>>> {
    let Some(obj) = given(avoid) else { return Ok(None) };
    if let Ok(layer) = obj.cast::<PyLayer>() {
        let borrowed = layer.try_borrow()?;
        borrowed.check_shape(shape, "avoid")?;
        Ok(Some(Avoid::Borrowed(borrowed)))
    } else {
        Ok(Some(Avoid::Owned(Layer::from_vec(args::values(obj, "avoid", shape)?))))
    }
}

/// `weight`, if given (a finite number ≥ 0), else 1.
pub(crate) fn weight(weight: Option<&Bound<'_, PyAny>>) -> PyResult<f32> {
    Ok(given(weight).map(|w| args::non_negative(w, "weight")).transpose()?.unwrap_or(1.0))
}

/// The cost of entering cells: length, plus `weight` per unit of `avoid`'s positive values.
pub(crate) fn cost(avoid: Option<&Layer>, weight: f32) -> PyResult<Cost<'_>> {
    match avoid {
        Some(layer) => Cost::avoiding(layer, weight).map_err(|e| args::library_error("weight", &e)),
        None => Ok(Cost::distance()),
    }
}

impl PyRoute {
    /// A route the library found on `grid`, with its cells' centres and coordinates.
    pub(crate) fn new(grid: &Grid, route: Route) -> Self {
        let (points, cells) = route
            .cells
            .iter()
            .map(|&i| {
                let c = grid.cell(i);
                let p = grid.center(c);
                ([f64::from(p.x), f64::from(p.y)], [c.x as i64, c.y as i64])
            })
            .unzip();
        Self { points, cells, route }
    }
}

/// `Grid.path`: see its docstring in `grid.rs`.
pub(crate) fn path(
    slf: &Bound<'_, PyGrid>,
    start: &Bound<'_, PyAny>,
    goal: &Bound<'_, PyAny>,
    avoid: Option<&Bound<'_, PyAny>>,
    weight: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<PyRoute>> {
    let py = slf.py();
    let pyg = slf.get();
    let grid = &pyg.grid;
    let (from, to) = (endpoint(pyg, start, "start")?, endpoint(pyg, goal, "goal")?);
    let weight = self::weight(weight)?;
    let avoid = self::avoid(avoid, (grid.height(), grid.width()))?;
    let cost = cost(avoid.as_ref().map(Avoid::layer), weight)?;
    let found = py.detach(|| {
        guarded(|| {
            let mut router = crate::scratch(&pyg.router);
            router.find(grid, from, to, &cost, Heuristic::Octile).map_err(|e| args::library_error("path", &e))
        })
    })?;
    Ok(found.map(|route| PyRoute::new(grid, route)))
}
