//! Flow fields: `Grid.flow_field` and `FlowField`, the library's `route::FlowField` (one
//! search from the goals, after which every cell knows its cost to the nearest goal and its
//! next step there). This file only checks arguments and converts: the field's cost and
//! next step per cell are the library's, read as arrays or at points.
//!
//! What the library leaves implicit is written out here: a cell no goal can be reached from
//! (walls included) has cost `-1.0` (never `inf`) and direction `(0, 0)`, and `reachable`
//! says which cells those are; a goal has cost `0.0` and direction `(0, 0)` too.

use influence::route::{FlowField, Route};
use influence::{Grid, Layer, Space};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::prelude::*;

use crate::args::{self, value_error, Item};
use crate::grid::PyGrid;
use crate::guarded;
use crate::layer::{one_or_many, pairs_out};
use crate::route::{self, PyRoute};

/// The cost written for a cell no goal can be reached from (walls included).
const UNREACHABLE: f32 = -1.0;

/// The cheapest way from every cell of a grid to the nearest of one or more goals (from
/// :meth:`Grid.flow_field`): one search from the goals over the same costs as
/// :meth:`Grid.path` (length, plus ``weight`` times the positive values of ``avoid`` in
/// every cell entered), after which any number of units read their next step, their cost to
/// the goal or their whole route without a search of their own. A route read off the field
/// costs what :meth:`Grid.path` finds (it may differ from it where routes tie).
///
/// Keep one field per goal and call :meth:`compute` again each frame: its buffers are
/// reused, so a recompute allocates nothing in the search.
///
/// Cells no goal can be reached from (walls, and walkable cells walled off from every goal)
/// have cost ``-1.0`` (never ``inf``), ``reachable`` false and direction ``(0, 0)``; the
/// goals have cost ``0.0``, ``reachable`` true and direction ``(0, 0)``.
///
/// >>> import influence_maps as im
/// >>> grid = im.Grid.from_rows([".....", ".@@@.", "....."])
/// >>> field = grid.flow_field((4.5, 1.5))             # the goal: cell (4, 1)
/// >>> field.next_step((3.5, 0.5))                     # no cutting past the wall
/// (4.5, 0.5)
/// >>> field.cost((4.5, 0.5)), field.cost((2.5, 1.5))  # 2.5 is in the wall
/// (1.0, -1.0)
/// >>> route = field.path((0.5, 1.5))
/// >>> route.points[-1].tolist(), route.length          # round the wall
/// ([4.5, 1.5], 6.0)
#[pyclass(name = "FlowField", module = "influence_maps")]
pub(crate) struct PyFlowField {
    grid: Py<PyGrid>,
    field: FlowField,
    /// The avoided layer of the last compute (kept for routes' costs and exposure; its
    /// buffer is reused), if `avoiding`.
    avoid: Layer,
    avoiding: bool,
    weight: f32,
    goals: usize,
}

/// The goal cells: one point or a non-empty list of them, each on a walkable cell.
fn goal_cells(grid: &PyGrid, goal: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    let (points, single) = args::points(goal, "goal")?;
    if points.is_empty() {
        return Err(value_error(format!(
            "goal must be one point (x, y) or a non-empty list of them, got {}",
            args::shown(goal)
        )));
    }
    points
        .iter()
        .enumerate()
        .map(|(i, &p)| route::walkable_index(grid, p, Item::new("goal", i, single)))
        .collect()
}

/// `Grid.flow_field`: see its docstring in `grid.rs`.
pub(crate) fn flow_field(
    slf: &Bound<'_, PyGrid>,
    goal: &Bound<'_, PyAny>,
    avoid: Option<&Bound<'_, PyAny>>,
    weight: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyFlowField> {
    let grid = &slf.get().grid;
    let mut field = PyFlowField {
        grid: slf.clone().unbind(),
        field: FlowField::new(),
        avoid: Layer::for_space(grid),
        avoiding: false,
        weight: 1.0,
        goals: 0,
    };
    field.compute_from(slf.py(), goal, avoid, weight)?;
    Ok(field)
}

impl PyFlowField {
    /// Checks every argument, then searches from the goals; the field is unchanged if an
    /// argument is wrong.
    fn compute_from(
        &mut self,
        py: Python<'_>,
        goal: &Bound<'_, PyAny>,
        avoid: Option<&Bound<'_, PyAny>>,
        weight: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let pyg = self.grid.get();
        let grid = &pyg.grid;
        let goals = goal_cells(pyg, goal)?;
        let weight = route::weight(weight)?;
        let given = route::avoid(avoid, (grid.height(), grid.width()))?;
        // Kept for routes read off the field later: copied into the field's own buffer.
        self.avoiding = given.is_some();
        if let Some(a) = &given {
            self.avoid.values_mut().copy_from_slice(a.layer().values());
        }
        drop(given);
        self.weight = weight;
        self.goals = goals.len();
        let (field, avoid) = (&mut self.field, self.avoiding.then_some(&self.avoid));
        py.detach(|| {
            guarded(|| {
                let cost = route::cost(avoid, weight)?;
                field.compute(grid, &goals, &cost).map_err(|e| args::library_error("goal", &e))
            })
        })
    }

    /// The grid.
    fn walk(&self) -> &Grid {
        &self.grid.get().grid
    }

    /// The cell index under each point (`points`, or `points[i]`, named if off the grid).
    fn cells_at(&self, points: &Bound<'_, PyAny>) -> PyResult<(Vec<usize>, bool)> {
        let grid = self.walk();
        let (points, single) = args::points(points, "points")?;
        let cells = points
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let c = args::cell_of(grid, p, Item::new("points", i, single))?;
                grid.index(c).ok_or_else(|| value_error("points is off the grid"))
            })
            .collect::<PyResult<Vec<usize>>>()?;
        Ok((cells, single))
    }

    /// The step `(dx, dy)` from cell `i` to its next cell, `(0, 0)` at a goal or where no
    /// goal can be reached.
    fn direction(&self, i: usize) -> [i8; 2] {
        let w = self.walk().width();
        match self.field.next_step(i) {
            // Neighbours: each difference is -1, 0 or 1.
            Some(j) => {
                [((j % w) as isize - (i % w) as isize) as i8, ((j / w) as isize - (i / w) as isize) as i8]
            }
            None => [0, 0],
        }
    }

    /// The cost to the nearest goal, [`UNREACHABLE`] where none can be reached.
    fn cost_at(&self, i: usize) -> f32 {
        self.field.cost_to_goal(i).unwrap_or(UNREACHABLE)
    }
}

#[pymethods]
impl PyFlowField {
    /// Searches again from ``goal`` (one world point ``(x, y)`` or a list of them; each cell
    /// gets the cost to the nearest) with ``avoid`` and ``weight`` as :meth:`Grid.flow_field`
    /// takes them, replacing what the field held. The field's buffers are reused: call it
    /// every frame. Arguments are checked first; if one is wrong the field is unchanged.
    /// Returns the field. The search runs without the GIL.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["....."])
    /// >>> field = grid.flow_field((0.5, 0.5))
    /// >>> field.compute([(0.5, 0.5), (4.5, 0.5)]).costs.tolist()
    /// [[0.0, 1.0, 2.0, 1.0, 0.0]]
    /// >>> danger = grid.layer([[0, 0, 0, 5, 0]])
    /// >>> field.compute((4.5, 0.5), avoid=danger, weight=2.0).cost((0.5, 0.5))
    /// 14.0
    #[pyo3(signature = (goal, avoid=None, weight=None),
           text_signature = "(self, goal, avoid=None, weight=1.0)")]
    fn compute<'py>(
        slf: Bound<'py, Self>,
        goal: &Bound<'py, PyAny>,
        avoid: Option<&Bound<'py, PyAny>>,
        weight: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, Self>> {
        slf.try_borrow_mut()?.compute_from(slf.py(), goal, avoid, weight)?;
        Ok(slf)
    }

    /// The cost from every cell to the nearest goal: a new ``float32`` array ``[y, x]``,
    /// ``0.0`` at the goals and ``-1.0`` where no goal can be reached (walls included).
    ///
    /// >>> import influence_maps as im
    /// >>> im.Grid.from_rows(["..@."]).flow_field((0.5, 0.5)).costs.tolist()
    /// [[0.0, 1.0, -1.0, -1.0]]
    #[getter]
    fn costs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let grid = self.walk();
        let values: Vec<f32> = (0..grid.len()).map(|i| self.cost_at(i)).collect();
        PyArray1::from_vec(py, values).reshape([grid.height(), grid.width()])
    }

    /// Whether a goal can be reached from each cell: a new bool array ``[y, x]`` (false on
    /// walls).
    ///
    /// >>> import influence_maps as im
    /// >>> im.Grid.from_rows(["..@."]).flow_field((0.5, 0.5)).reachable.tolist()
    /// [[True, True, False, False]]
    #[getter]
    fn reachable<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let grid = self.walk();
        let flags: Vec<bool> = (0..grid.len()).map(|i| self.field.next_step(i).is_some()).collect();
        PyArray1::from_vec(py, flags).reshape([grid.height(), grid.width()])
    }

    /// The step to take from every cell: a new ``int8`` array of shape
    /// ``(height, width, 2)``, ``directions[y, x] = (dx, dy)``, each -1, 0 or 1 (the next
    /// cell is ``(x + dx, y + dy)``); ``(0, 0)`` at the goals and where no goal can be
    /// reached (tell them apart with :attr:`reachable`).
    ///
    /// >>> import influence_maps as im
    /// >>> field = im.Grid.from_rows(["...", "..."]).flow_field((2.5, 0.5))
    /// >>> field.directions.shape, field.directions.dtype
    /// ((2, 3, 2), dtype('int8'))
    /// >>> field.directions[1, 1].tolist(), field.directions[0, 2].tolist()   # [y, x]
    /// ([1, -1], [0, 0])
    #[getter]
    fn directions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<i8>>> {
        let grid = self.walk();
        let steps: Vec<i8> = (0..grid.len()).flat_map(|i| self.direction(i)).collect();
        PyArray1::from_vec(py, steps).reshape([grid.height(), grid.width(), 2])
    }

    /// The cost from each world point's cell to the nearest goal (what :attr:`costs` holds
    /// there): a float for one point, a ``float32`` array for many; ``-1.0`` where no goal
    /// can be reached (walls included). Points off the grid raise ``ValueError``.
    ///
    /// >>> import influence_maps as im
    /// >>> field = im.Grid.from_rows(["..@."]).flow_field((0.5, 0.5))
    /// >>> field.cost((1.5, 0.5)), field.cost([(0.5, 0.5), (3.5, 0.5)]).tolist()
    /// (1.0, [0.0, -1.0])
    fn cost<'py>(&self, py: Python<'py>, points: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (cells, single) = self.cells_at(points)?;
        one_or_many(py, cells.iter().map(|&i| self.cost_at(i)).collect(), single)
    }

    /// Whether a goal can be reached from each world point's cell: a bool for one point, a
    /// bool array for many (false on walls). Points off the grid raise ``ValueError``.
    ///
    /// >>> import influence_maps as im
    /// >>> im.Grid.from_rows(["..@."]).flow_field((0.5, 0.5)).is_reachable([(1.5, 0.5), (3.5, 0.5)]).tolist()
    /// [True, False]
    fn is_reachable<'py>(&self, py: Python<'py>, points: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (cells, single) = self.cells_at(points)?;
        let flags: Vec<bool> = cells.iter().map(|&i| self.field.next_step(i).is_some()).collect();
        if single {
            return Ok(pyo3::types::PyBool::new(py, flags[0]).to_owned().into_any());
        }
        Ok(PyArray1::from_vec(py, flags).into_any())
    }

    /// Where to walk next from each world point: the centre ``(x, y)`` of the next cell on
    /// a cheapest route to the nearest goal (the cell's own centre at a goal). One point
    /// gives a tuple, or ``None`` where no goal can be reached; many give an ``(N, 2)``
    /// float64 array, whose rows for points no goal can be reached from hold their own
    /// cell's centre (direction ``(0, 0)``: check :meth:`is_reachable` or
    /// ``cost(points) >= 0``). Points off the grid raise ``ValueError``. O(1) a point.
    ///
    /// >>> import influence_maps as im
    /// >>> field = im.Grid.from_rows(["...@."]).flow_field((0.5, 0.5))
    /// >>> field.next_step((2.2, 0.7)), field.next_step((4.5, 0.5))
    /// ((1.5, 0.5), None)
    /// >>> field.next_step([(2.5, 0.5), (0.5, 0.5), (4.5, 0.5)]).tolist()
    /// [[1.5, 0.5], [0.5, 0.5], [4.5, 0.5]]
    fn next_step<'py>(&self, py: Python<'py>, points: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let grid = self.walk();
        let (cells, single) = self.cells_at(points)?;
        if single && self.field.next_step(cells[0]).is_none() {
            return Ok(py.None().into_bound(py));
        }
        let centres: Vec<[f64; 2]> = cells
            .iter()
            .map(|&i| {
                let p = grid.center(grid.cell(self.field.next_step(i).unwrap_or(i)));
                [f64::from(p.x), f64::from(p.y)]
            })
            .collect();
        pairs_out(py, centres, single)
    }

    /// The route from ``start`` (a world point on a walkable cell) to its nearest goal read
    /// off the field, a :class:`Route` as :meth:`Grid.path` gives (``expanded`` is 0: no
    /// search), or ``None`` if no goal can be reached. Its cost is summed from the start as
    /// :meth:`Grid.path` sums it, and its exposure counts the layer the field avoids. A
    /// start off the grid or on a wall raises ``ValueError``.
    ///
    /// >>> import influence_maps as im
    /// >>> route = im.Grid.from_rows(["...."]).flow_field((3.5, 0.5)).path((0.5, 0.5))
    /// >>> route.cells.tolist(), route.cost, route.length, route.expanded
    /// ([[0, 0], [1, 0], [2, 0], [3, 0]], 3.0, 3.0, 0)
    fn path(&self, start: &Bound<'_, PyAny>) -> PyResult<Option<PyRoute>> {
        let pyg = self.grid.get();
        let grid = &pyg.grid;
        let from = route::walkable_index(pyg, args::point(start, "start")?, "start")?;
        let cost = route::cost(self.avoiding.then_some(&self.avoid), self.weight)?;
        let mut found = Route::default();
        let reached = guarded(|| Ok(self.field.route_into(grid, from, &cost, &mut found)))?;
        Ok(reached.then(|| PyRoute::new(grid, found)))
    }

    /// The grid the field covers.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows([".."])
    /// >>> grid.flow_field((0.5, 0.5)).grid is grid
    /// True
    #[getter]
    fn grid(&self, py: Python<'_>) -> Py<PyGrid> {
        self.grid.clone_ref(py)
    }

    fn __repr__(&self) -> String {
        let reachable = (0..self.walk().len()).filter(|&i| self.field.next_step(i).is_some()).count();
        format!(
            "FlowField(goals={}, reachable={reachable}, avoid={}, weight={})",
            self.goals,
            if self.avoiding { "Layer" } else { "None" },
            self.weight
        )
    }
}
