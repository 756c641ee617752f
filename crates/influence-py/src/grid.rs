//! `Grid`: the map, from a walkable array `[y, x]` (python-sc2's pathing grid as is) or a
//! MovingAI file; it makes layers, finds routes, and starts propagations.

use std::borrow::Cow;
use std::sync::{Mutex, PoisonError};

use influence::route::Router;
use influence::{Cell, Connectivity, Error, Falloff, Grid, Layer, Source, Space, Stamper};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;

use crate::args::{self, given, value_error};
use crate::guarded;
use crate::layer::{pairs_out, PyLayer, Region};
use crate::sources::Checked;

/// A grid of square cells, some blocked, built from a 2-D array indexed ``[y, x]``:
/// ``walkable[y, x]`` nonzero means cell ``(x, y)`` is walkable (python-sc2's
/// ``game_info.pathing_grid.data_numpy`` works as is). Cell ``(x, y)`` covers
/// ``origin + [x, x+1) × [y, y+1) · cell_size`` in world units.
///
/// ``neighbours`` is 8 (diagonal steps cost √2 and never cut a corner) or 4. Every array a
/// grid gives or takes has shape ``(height, width)``.
///
/// >>> import influence_maps as im, numpy as np
/// >>> walkable = np.ones((3, 5), dtype=bool)
/// >>> walkable[1, 2] = False            # cell (x=2, y=1) is a wall
/// >>> grid = im.Grid(walkable, cell_size=1.0, neighbours=8)
/// >>> grid.width, grid.height, grid.shape
/// (5, 3, (3, 5))
/// >>> grid.is_walkable((2.5, 1.5))
/// False
#[pyclass(frozen, name = "Grid", module = "influence_maps")]
pub(crate) struct PyGrid {
    /// The library grid.
    pub(crate) grid: Grid,
    /// Kernels cached between calls (every `Layer.add` on this grid).
    pub(crate) stamper: Mutex<Stamper>,
    /// Search scratch kept between routes and walking-distance queries.
    pub(crate) router: Mutex<Router>,
    /// Buffers kept between `Layer.top` queries within a region.
    pub(crate) region: Mutex<Region>,
}

impl PyGrid {
    fn wrap(grid: Grid) -> Self {
        Self {
            grid,
            stamper: Mutex::new(Stamper::new()),
            router: Mutex::new(Router::new()),
            region: Mutex::new(Region::default()),
        }
    }

    /// Stamps checked sources into `layer` (made for this grid), releasing the GIL unless
    /// the falloff is a Python callable.
    pub(crate) fn stamp(&self, py: Python<'_>, layer: &mut Layer, checked: Checked) -> PyResult<()> {
        let Checked { sources, custom } = checked;
        let stamp_all = |stamper: &mut Stamper, layer: &mut Layer| -> PyResult<()> {
            for (i, source) in sources.iter().enumerate() {
                stamper
                    .stamp(&self.grid, layer, source)
                    .map_err(|e| args::library_error(args::Item::new("points", i, false), &e))?;
            }
            Ok(())
        };
        match custom {
            None => py.detach(|| {
                guarded(|| {
                    let mut stamper = crate::scratch(&self.stamper);
                    stamp_all(&mut stamper, layer)
                })
            }),
            Some(raised) => {
                // The curve calls Python: keep the GIL, and keep its kernels out of the shared
                // cache (they are keyed by the closure's address, which a later one may reuse).
                let before = layer.values().to_vec();
                let stamped = guarded(|| stamp_all(&mut Stamper::direct(), layer));
                let first = raised.lock().unwrap_or_else(PoisonError::into_inner).take();
                match (stamped, first) {
                    (Ok(()), None) => Ok(()),
                    (Err(e), _) | (Ok(()), Some(e)) => {
                        layer.values_mut().copy_from_slice(&before);
                        Err(e)
                    }
                }
            }
        }
    }

    /// The walkable cell whose centre is nearest to `p`, by the library's placement rule
    /// (`Source::check_placement` names it for a point source on a wall or off the grid);
    /// `None` if no cell is walkable.
    pub(crate) fn nearest_walkable_cell(&self, p: influence::glam::Vec2) -> PyResult<Option<Cell>> {
        let probe =
            Source::new(p, 1.0, Falloff::Point, 1.0).map_err(|e| args::library_error("points", &e))?;
        match probe.check_placement(&self.grid) {
            Ok(()) => Ok(self.grid.cell_at(p)),
            Err(Error::Unplaced { nearest, .. }) => Ok(nearest.map(Cell::from)),
            Err(e) => Err(args::library_error("points", &e)),
        }
    }

    /// The grid to walk on: this one, or a copy with `neighbours` (4 or 8) if given.
    pub(crate) fn walking(&self, neighbours: Option<&Bound<'_, PyAny>>) -> PyResult<Cow<'_, Grid>> {
        Ok(match given(neighbours) {
            Some(n) => Cow::Owned(self.grid.clone().with_connectivity(args::neighbours(n, "neighbours")?)),
            None => Cow::Borrowed(&self.grid),
        })
    }

    /// The grid with the given geometry, or `ValueError`.
    fn configured(
        grid: Grid,
        cell_size: Option<&Bound<'_, PyAny>>,
        neighbours: Option<&Bound<'_, PyAny>>,
        origin: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Grid> {
        let mut grid = grid;
        if let Some(c) = given(cell_size) {
            let c = args::positive(c, "cell_size")?;
            grid = grid.with_cell_size(c).map_err(|e| args::library_error("cell_size", &e))?;
        }
        if let Some(o) = given(origin) {
            let o = args::point(o, "origin")?;
            grid = grid.with_origin(o).map_err(|e| args::library_error("origin", &e))?;
        }
        let connectivity = match given(neighbours) {
            Some(n) => args::neighbours(n, "neighbours")?,
            None => Connectivity::Eight,
        };
        Ok(grid.with_connectivity(connectivity))
    }
}

/// The connectivity as 4 or 8.
pub(crate) fn neighbours_of(grid: &Grid) -> u8 {
    match grid.connectivity() {
        Connectivity::Four => 4,
        Connectivity::Eight => 8,
    }
}

#[pymethods]
impl PyGrid {
    #[new]
    #[pyo3(signature = (walkable, cell_size=None, neighbours=None, origin=None),
           text_signature = "(walkable, cell_size=1.0, neighbours=8, origin=(0.0, 0.0))")]
    fn py_new(
        walkable: &Bound<'_, PyAny>,
        cell_size: Option<&Bound<'_, PyAny>>,
        neighbours: Option<&Bound<'_, PyAny>>,
        origin: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let ((h, w), flags) = args::walkable(walkable, "walkable")?;
        let mut grid = Grid::new(w, h).map_err(|e| args::library_error("walkable", &e))?;
        for (i, _) in flags.iter().enumerate().filter(|(_, walkable)| !**walkable) {
            grid.set_blocked(Cell::new(i % w, i / w), true)
                .map_err(|e| args::library_error("walkable", &e))?;
        }
        Ok(Self::wrap(Self::configured(grid, cell_size, neighbours, origin)?))
    }

    /// Reads a MovingAI ``.map`` file (``.``, ``G``, ``S``, ``W`` walkable; ``@``, ``O``,
    /// ``T`` blocked; the first map row is ``y = 0``). A missing file raises
    /// ``FileNotFoundError``, a malformed one ``ValueError`` naming the line.
    ///
    /// >>> import influence_maps as im, pathlib, tempfile
    /// >>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.map"
    /// >>> _ = path.write_text("type octile\nheight 2\nwidth 3\nmap\n..@\n...\n")
    /// >>> grid = im.Grid.load_movingai(path)
    /// >>> grid.shape, grid.walkable_count
    /// ((2, 3), 5)
    #[staticmethod]
    #[pyo3(signature = (path, cell_size=None, neighbours=None, origin=None),
           text_signature = "(path, cell_size=1.0, neighbours=8, origin=(0.0, 0.0))")]
    fn load_movingai(
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        cell_size: Option<&Bound<'_, PyAny>>,
        neighbours: Option<&Bound<'_, PyAny>>,
        origin: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let path: std::path::PathBuf = path.extract().map_err(|_| {
            args::type_error(format!("path must be a str or os.PathLike, got {}", args::shown(path)))
        })?;
        if !path.is_file() {
            return Err(pyo3::exceptions::PyFileNotFoundError::new_err(format!(
                "path: no map file at {}",
                path.display()
            )));
        }
        let grid = py.detach(|| Grid::load_movingai(&path)).map_err(|e| args::library_error("path", &e))?;
        Ok(Self::wrap(Self::configured(grid, cell_size, neighbours, origin)?))
    }

    /// A grid from ASCII rows, the first row ``y = 0``: ``.`` (also ``G``, ``S``, ``W`` and
    /// space) walkable, ``@`` (also ``#``, ``T``, ``O``) blocked.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["..@", "..."], neighbours=4)
    /// >>> grid.shape, int(grid.walkable.sum())
    /// ((2, 3), 5)
    #[staticmethod]
    #[pyo3(signature = (rows, cell_size=None, neighbours=None, origin=None),
           text_signature = "(rows, cell_size=1.0, neighbours=8, origin=(0.0, 0.0))")]
    fn from_rows(
        rows: &Bound<'_, PyAny>,
        cell_size: Option<&Bound<'_, PyAny>>,
        neighbours: Option<&Bound<'_, PyAny>>,
        origin: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let rows: Vec<String> = if rows.is_instance_of::<pyo3::types::PyString>() {
            Err(())
        } else {
            rows.extract().map_err(|_| ())
        }
        .map_err(|()| {
            args::type_error(format!("rows must be a list of strings, got {}", args::shown(rows)))
        })?;
        let grid = Grid::from_rows(&rows).map_err(|e| args::library_error("rows", &e))?;
        Ok(Self::wrap(Self::configured(grid, cell_size, neighbours, origin)?))
    }

    /// Width in cells (the second axis of every array).
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["....", "..@."], cell_size=2.0, origin=(10.0, 0.0), neighbours=4)
    /// >>> grid.width
    /// 4
    #[getter]
    fn width(&self) -> usize {
        self.grid.width()
    }

    /// Height in cells (the first axis of every array).
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["....", "..@."], cell_size=2.0, origin=(10.0, 0.0), neighbours=4)
    /// >>> grid.height
    /// 2
    #[getter]
    fn height(&self) -> usize {
        self.grid.height()
    }

    /// ``(height, width)``: the shape of every array of this grid.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["....", "..@."], cell_size=2.0, origin=(10.0, 0.0), neighbours=4)
    /// >>> grid.shape
    /// (2, 4)
    #[getter]
    fn shape(&self) -> (usize, usize) {
        (self.grid.height(), self.grid.width())
    }

    /// The side of a cell in world units.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["....", "..@."], cell_size=2.0, origin=(10.0, 0.0), neighbours=4)
    /// >>> grid.cell_size
    /// 2.0
    #[getter]
    fn cell_size(&self) -> f32 {
        self.grid.cell_size()
    }

    /// The world position ``(x, y)`` of the corner of cell ``(0, 0)``.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["....", "..@."], cell_size=2.0, origin=(10.0, 0.0), neighbours=4)
    /// >>> grid.origin
    /// (10.0, 0.0)
    #[getter]
    fn origin(&self) -> (f32, f32) {
        (self.grid.origin().x, self.grid.origin().y)
    }

    /// 4 or 8: the neighbours a step may go to.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["....", "..@."], cell_size=2.0, origin=(10.0, 0.0), neighbours=4)
    /// >>> grid.neighbours
    /// 4
    #[getter]
    fn neighbours(&self) -> u8 {
        neighbours_of(&self.grid)
    }

    /// The walkable flags as a new bool array ``[y, x]``.
    ///
    /// >>> import influence_maps as im
    /// >>> im.Grid.from_rows([".@"]).walkable.tolist()
    /// [[True, False]]
    #[getter]
    fn walkable<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray2<bool>>> {
        let flags: Vec<bool> = self.grid.blocked().iter().map(|b| !b).collect();
        PyArray1::from_vec(py, flags).reshape([self.grid.height(), self.grid.width()])
    }

    /// How many cells are walkable.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["....", "..@."], cell_size=2.0, origin=(10.0, 0.0), neighbours=4)
    /// >>> grid.walkable_count
    /// 7
    #[getter]
    fn walkable_count(&self) -> usize {
        self.grid.walkable_count()
    }

    /// A new layer of this grid: zeros, every cell ``values`` (a number), or a copy of
    /// ``values`` (an array ``[y, x]`` of the grid's shape).
    ///
    /// >>> import influence_maps as im, numpy as np
    /// >>> grid = im.Grid(np.ones((2, 3)))
    /// >>> grid.layer().sum(), grid.layer(2.0).sum()
    /// (0.0, 12.0)
    /// >>> grid.layer(np.arange(6).reshape(2, 3)).numpy().tolist()
    /// [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    #[pyo3(signature = (values=None))]
    fn layer(slf: &Bound<'_, Self>, values: Option<&Bound<'_, PyAny>>) -> PyResult<PyLayer> {
        let grid = &slf.get().grid;
        let layer = match given(values) {
            None => Layer::for_space(grid),
            Some(v) if args::is_number(v) => Layer::from_vec(vec![args::finite(v, "values")?; grid.len()]),
            Some(v) => Layer::from_vec(args::values(v, "values", (grid.height(), grid.width()))?),
        };
        Ok(PyLayer::new(slf.clone().unbind(), layer))
    }

    /// The cell ``(x, y)`` holding each world point: a tuple for one point, an ``(N, 2)``
    /// int64 array for many. Points off the grid raise ``ValueError``.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["....", "...."], cell_size=2.0)
    /// >>> grid.cell_at((5.0, 3.9))
    /// (2, 1)
    fn cell_at<'py>(&self, py: Python<'py>, points: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (points, single) = args::points(points, "points")?;
        let mut out = Vec::with_capacity(points.len());
        for (i, &p) in points.iter().enumerate() {
            let name = args::Item::new("points", i, single);
            let c = args::cell_of(&self.grid, p, name)?;
            out.push([c.x as i64, c.y as i64]);
        }
        pairs_out(py, out, single)
    }

    /// The world position of each cell's centre: ``origin + ((x, y) + 0.5) · cell_size``.
    /// ``cells`` are integer ``(x, y)`` pairs on the grid; one gives a tuple, many an
    /// ``(N, 2)`` float64 array.
    ///
    /// >>> import influence_maps as im
    /// >>> im.Grid.from_rows(["....", "...."], cell_size=2.0).center((2, 1))
    /// (5.0, 3.0)
    fn center<'py>(&self, py: Python<'py>, cells: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (cells, single) = args::cells(cells, "cells", &self.grid)?;
        let out: Vec<[f64; 2]> = cells
            .iter()
            .map(|&c| {
                let p = self.grid.center(c);
                [f64::from(p.x), f64::from(p.y)]
            })
            .collect();
        pairs_out(py, out, single)
    }

    /// Whether the cell under each world point is walkable: a bool for one point, a bool
    /// array for many. Points off the grid raise ``ValueError``.
    ///
    /// >>> import influence_maps as im
    /// >>> im.Grid.from_rows([".@"]).is_walkable([(0.5, 0.5), (1.5, 0.5)]).tolist()
    /// [True, False]
    fn is_walkable<'py>(&self, py: Python<'py>, points: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (points, single) = args::points(points, "points")?;
        let mut out = Vec::with_capacity(points.len());
        for (i, &p) in points.iter().enumerate() {
            let name = args::Item::new("points", i, single);
            out.push(!self.grid.is_blocked(args::cell_of(&self.grid, p, name)?));
        }
        if single {
            return Ok(pyo3::types::PyBool::new(py, out[0]).to_owned().into_any());
        }
        Ok(PyArray1::from_vec(py, out).into_any())
    }

    /// The centre of the walkable cell nearest to each world point (the point's own cell
    /// when walkable; ties to the lower row, then column): where a unit standing in a wall
    /// could stand. Points may lie off the grid. One point gives a tuple, many an ``(N, 2)``
    /// float64 array; ``ValueError`` if no cell is walkable.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["@@@@.", "@@@@@", "....."])
    /// >>> grid.nearest_walkable((1.5, 0.5))
    /// (1.5, 2.5)
    fn nearest_walkable<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (points, single) = args::points(points, "points")?;
        let mut out = Vec::with_capacity(points.len());
        for &p in &points {
            let cell = self
                .nearest_walkable_cell(p)?
                .ok_or_else(|| value_error("no cell of the grid is walkable"))?;
            let c = self.grid.center(cell);
            out.push([f64::from(c.x), f64::from(c.y)]);
        }
        pairs_out(py, out, single)
    }

    /// The cheapest route from ``start`` to ``goal`` (world points on walkable cells), or
    /// ``None`` if the goal cannot be reached. Entering a cell costs the step's length plus
    /// ``weight`` times the positive value of ``avoid`` there (a :class:`Layer` or an array
    /// ``[y, x]``; negative values never lower a cost), so a danger layer bends the route
    /// away from danger; without ``avoid`` it is a shortest path. A* with the octile
    /// heuristic, without the GIL. Endpoints off the grid or on a wall raise ``ValueError``
    /// (naming the nearest walkable cell).
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows([".....", ".....", "....."])
    /// >>> danger = grid.layer()
    /// >>> _ = danger.add((2.5, 1.5), strength=10.0, radius=1.0)    # a turret mid-row
    /// >>> straight = grid.path((0.5, 1.5), (4.5, 1.5), avoid=danger, weight=0.0)
    /// >>> around = grid.path((0.5, 1.5), (4.5, 1.5), avoid=danger, weight=1.0)
    /// >>> straight.exposure, around.exposure, around.length > straight.length
    /// (10.0, 0.0, True)
    #[pyo3(signature = (start, goal, avoid=None, weight=None),
           text_signature = "(self, start, goal, avoid=None, weight=1.0)")]
    fn path(
        slf: &Bound<'_, Self>,
        start: &Bound<'_, PyAny>,
        goal: &Bound<'_, PyAny>,
        avoid: Option<&Bound<'_, PyAny>>,
        weight: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<crate::route::PyRoute>> {
        crate::route::path(slf, start, goal, avoid, weight)
    }

    /// A :class:`FlowField` to ``goal`` (one world point ``(x, y)`` on a walkable cell, or a
    /// list of them: each cell then leads to the nearest): one search from the goals, after
    /// which any number of units read their next step, cost or route at no search of their
    /// own. Costs are :meth:`path`'s: each cell entered costs the step's length plus
    /// ``weight`` times the positive value of ``avoid`` there. Keep the field and call
    /// :meth:`FlowField.compute` each frame to reuse its buffers. Goals off the grid or on
    /// a wall raise ``ValueError`` (naming the nearest walkable cell).
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows([".....", ".....", "....."])
    /// >>> danger = grid.layer()
    /// >>> _ = danger.add((2.5, 1.5), strength=10.0, radius=1.0)    # a turret mid-row
    /// >>> field = grid.flow_field((4.5, 1.5), avoid=danger, weight=1.0)
    /// >>> field.path((0.5, 1.5)).exposure                        # around the turret
    /// 0.0
    /// >>> round(field.cost((0.5, 1.5)), 4), round(grid.path((0.5, 1.5), (4.5, 1.5), avoid=danger).cost, 4)
    /// (4.8284, 4.8284)
    #[pyo3(signature = (goal, avoid=None, weight=None),
           text_signature = "(self, goal, avoid=None, weight=1.0)")]
    fn flow_field(
        slf: &Bound<'_, Self>,
        goal: &Bound<'_, PyAny>,
        avoid: Option<&Bound<'_, PyAny>>,
        weight: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<crate::flow::PyFlowField> {
        crate::flow::flow_field(slf, goal, avoid, weight)
    }

    /// A :class:`Diffusion` on this grid: influence that spreads step by step,
    /// ``v · exp(−decay · d)`` per world unit crossed (``decay_kind="exponential"``) or
    /// ``v − decay · d`` (``"linear"``), each cell moving towards its strongest neighbour by
    /// ``momentum`` in [0, 1]; values below ``threshold`` become 0. ``neighbours`` (4 or 8)
    /// overrides the grid's for the spread.
    ///
    /// >>> import influence_maps as im
    /// >>> spread = im.Grid.from_rows(["....."]).diffusion(decay=0.5, momentum=0.5)
    /// >>> spread.decay, spread.momentum, spread.neighbours
    /// (0.5, 0.5, 8)
    #[pyo3(signature = (decay, momentum=None, decay_kind=None, threshold=None, neighbours=None),
           text_signature = "(self, decay, momentum=1.0, decay_kind='exponential', threshold=0.0001, neighbours=None)")]
    fn diffusion(
        slf: &Bound<'_, Self>,
        decay: &Bound<'_, PyAny>,
        momentum: Option<&Bound<'_, PyAny>>,
        decay_kind: Option<&Bound<'_, PyAny>>,
        threshold: Option<&Bound<'_, PyAny>>,
        neighbours: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<crate::propagate::PyDiffusion> {
        crate::propagate::diffusion(slf, decay, momentum, decay_kind, threshold, neighbours)
    }

    /// The chase flood fill (Dishonored 2): where did a target go after you lost sight of it
    /// at ``last_seen``, running in ``direction`` (a vector; only its direction counts, and
    /// ``(0, 0)`` raises no barrier)? Heat starts there; each step the newest heat spreads
    /// to untouched walkable neighbours (at ``heat``) while older cells cool by
    /// ``cooling``; cells behind the target within ``barrier_radius`` are never entered.
    /// Stops after ``max_steps`` steps, or after a step that heats more than ``max_new``
    /// cells. Returns a :class:`Chase`: the heat, the warm (predicted) cells and the guess.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows(["........", "........"])
    /// >>> chase = grid.chase((0.5, 0.5), direction=(1.0, 0.0), max_steps=3)
    /// >>> chase.steps, chase.stopped, int(chase.warm.sum())
    /// (3, 'max_steps', 8)
    #[pyo3(signature = (last_seen, direction=None, barrier_radius=None, heat=None, cooling=None, max_steps=None, max_new=None, neighbours=None),
           text_signature = "(self, last_seen, direction=(0.0, 0.0), barrier_radius=0.0, heat=1.0, cooling=0.1, max_steps=10, max_new=None, neighbours=None)")]
    #[allow(clippy::too_many_arguments)]
    fn chase(
        slf: &Bound<'_, Self>,
        last_seen: &Bound<'_, PyAny>,
        direction: Option<&Bound<'_, PyAny>>,
        barrier_radius: Option<&Bound<'_, PyAny>>,
        heat: Option<&Bound<'_, PyAny>>,
        cooling: Option<&Bound<'_, PyAny>>,
        max_steps: Option<&Bound<'_, PyAny>>,
        max_new: Option<&Bound<'_, PyAny>>,
        neighbours: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<crate::propagate::PyChase> {
        crate::propagate::chase(
            slf,
            last_seen,
            direction,
            barrier_radius,
            heat,
            cooling,
            max_steps,
            max_new,
            neighbours,
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "Grid(width={}, height={}, cell_size={}, neighbours={}, walkable={})",
            self.grid.width(),
            self.grid.height(),
            self.grid.cell_size(),
            neighbours_of(&self.grid),
            self.grid.walkable_count()
        )
    }
}
