//! Propagation: `Grid.diffusion` (the library's `Propagator`, its sources re-set every step,
//! and `SteadyState`) and `Grid.chase` (`FloodFill`).
//!
//! A diffusion steps as the scenario engine's does (`influence-scenario/src/engine/team.rs`):
//! the sources' seeds are written into a map at rest, then each step is "step, write the
//! seeds again", run fused; so `Diffusion.layer()` after `n` steps is what a scenario with
//! the same sources and `steps = n` writes.

use influence::propagate::{
    seeds_from_sources, Chase, Diffusion, FloodFill, Prediction, Propagator, Seed, SteadyState, Steps,
};
use influence::{Grid, Layer};
use influence_scenario::propagation::DecayName;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;

use crate::args::{self, given, value_error};
use crate::grid::{neighbours_of, PyGrid};
use crate::guarded;
use crate::layer::PyLayer;
use crate::sources::{self, SourceArgs};

/// Influence spreading over time on a grid (from :meth:`Grid.diffusion`): each step every
/// walkable cell takes its strongest neighbour's value decayed by the distance to it,
/// ``v · exp(−decay · d)`` (or ``v − decay · d`` with ``decay_kind="linear"``), and moves
/// towards it by ``momentum``; values below ``threshold`` become 0. The sources set with
/// :meth:`set_sources` are written again after every step (a ``"set"`` source holds its
/// cells at its value). Only positive influence spreads: keep one diffusion per team and
/// combine their layers with :func:`analysis`.
///
/// >>> import influence_maps as im
/// >>> grid = im.Grid.from_rows(["........"])
/// >>> spread = grid.diffusion(decay=0.5)
/// >>> _ = spread.set_sources((0.5, 0.5), strength=1.0)     # a point source at cell 0
/// >>> _ = spread.step(3)
/// >>> [round(v, 4) for v in spread.layer().numpy()[0, :5].tolist()]
/// [1.0, 0.6065, 0.3679, 0.2231, 0.0]
#[pyclass(name = "Diffusion", module = "influence_maps")]
pub(crate) struct PyDiffusion {
    grid: Py<PyGrid>,
    /// The grid with the diffusion's own connectivity.
    walk: Grid,
    propagator: Propagator,
    seeds: Vec<Seed>,
    steps: usize,
    solver: SteadyState,
}

/// `Grid.diffusion`: see its docstring in `grid.rs`.
pub(crate) fn diffusion(
    slf: &Bound<'_, PyGrid>,
    decay: &Bound<'_, PyAny>,
    momentum: Option<&Bound<'_, PyAny>>,
    decay_kind: Option<&Bound<'_, PyAny>>,
    threshold: Option<&Bound<'_, PyAny>>,
    neighbours: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyDiffusion> {
    let decay = args::non_negative(decay, "decay")?;
    let momentum = given(momentum).map(|m| args::unit(m, "momentum")).transpose()?.unwrap_or(1.0);
    let linear = match given(decay_kind) {
        Some(k) => args::named::<DecayName>(k, "decay_kind")? == DecayName::Linear,
        None => false,
    };
    let made = if linear { Diffusion::linear(decay, momentum) } else { Diffusion::new(decay, momentum) };
    let mut rule = made.map_err(|e| args::library_error("diffusion", &e))?;
    if let Some(t) = given(threshold) {
        let t = args::non_negative(t, "threshold")?;
        rule = rule.with_threshold(t).map_err(|e| args::library_error("threshold", &e))?;
    }
    let walk = slf.get().walking(neighbours)?.into_owned();
    Ok(PyDiffusion {
        grid: slf.clone().unbind(),
        propagator: Propagator::new(&walk, rule),
        walk,
        seeds: Vec::new(),
        steps: 0,
        solver: SteadyState::default(),
    })
}

#[pymethods]
impl PyDiffusion {
    /// Replaces the sources, which are written into the map now and again after every
    /// step; what the old ones spread stays and fades. Takes the arguments of
    /// :meth:`Layer.add`, with ``falloff="point"`` (the source's own cell) and
    /// ``mode="set"`` (the cell is held at the value) by default; ``"max"`` is a floor that
    /// stronger influence may exceed, ``"add"`` adds every step. Returns the diffusion.
    ///
    /// >>> import influence_maps as im
    /// >>> spread = im.Grid.from_rows(["....."]).diffusion(decay=0.1)
    /// >>> spread.set_sources([(0.5, 0.5), (4.5, 0.5)], strength=[1.0, 2.0]).layer().numpy().tolist()
    /// [[1.0, 0.0, 0.0, 0.0, 2.0]]
    #[pyo3(signature = (points, strength=None, radius=None, falloff=None, distance=None, mode=None, on_blocked=None, *, rate=None, step=None, power=None, sigma=None, band=None),
           text_signature = "(self, points, strength=1.0, radius=None, falloff='point', distance='euclidean', mode='set', on_blocked='error', *, rate=None, step=None, power=None, sigma=None, band=None)")]
    #[allow(clippy::too_many_arguments)]
    fn set_sources<'py>(
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
            sources::SEED,
            points,
            strength,
            radius,
            falloff,
            distance,
            mode,
            on_blocked,
            [rate, step, power, sigma, band],
        );
        let mut guard = slf.try_borrow_mut()?;
        let this = &mut *guard;
        let pyg = this.grid.get();
        let checked = sources::checked(&pyg.grid, &a)?;
        if checked.custom.is_some() {
            return Err(value_error("falloff must be a name for a diffusion's sources, not a callable"));
        }
        let mut seeds = Vec::new();
        py.detach(|| {
            guarded(|| {
                let mut stamper = crate::scratch(&pyg.stamper);
                seeds_from_sources(&pyg.grid, &mut stamper, &checked.sources, &mut seeds)
                    .map_err(|e| args::library_error("points", &e))?;
                this.propagator
                    .write_seeds(&this.walk, &seeds)
                    .map_err(|e| args::library_error("strength", &e))
            })
        })?;
        this.seeds = seeds;
        drop(guard);
        Ok(slf)
    }

    /// Takes ``steps`` steps (each: spread once, then write the sources again), fused in
    /// passes over memory without the GIL; returns the diffusion.
    ///
    /// >>> import influence_maps as im
    /// >>> spread = im.Grid.from_rows(["....."]).diffusion(decay=0.0)
    /// >>> _ = spread.set_sources((0.5, 0.5)).step(2)
    /// >>> spread.layer().numpy().tolist(), spread.steps
    /// ([[1.0, 1.0, 1.0, 0.0, 0.0]], 2)
    #[pyo3(signature = (steps=None), text_signature = "(self, steps=1)")]
    fn step<'py>(slf: Bound<'py, Self>, steps: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, Self>> {
        let py = slf.py();
        let n = given(steps).map(|s| args::count(s, "steps")).transpose()?.unwrap_or(1);
        let mut guard = slf.try_borrow_mut()?;
        let this = &mut *guard;
        if n > 0 {
            let (walk, seeds, propagator) = (&this.walk, &this.seeds, &mut this.propagator);
            py.detach(|| {
                guarded(|| {
                    // (step, write)^n = step, (write, step)^(n-1), write: the last two fused.
                    let steps = [Steps::default(), Steps { count: n - 1, seeds, ..Steps::default() }];
                    for s in steps {
                        propagator.step(walk, s).map_err(|e| args::library_error("step", &e))?;
                    }
                    propagator.write_seeds(walk, seeds).map_err(|e| args::library_error("step", &e))
                })
            })?;
            this.steps = this.steps.saturating_add(n);
        }
        drop(guard);
        Ok(slf)
    }

    /// The map now, as a new :class:`Layer` (a copy: the diffusion keeps stepping its own).
    ///
    /// >>> import influence_maps as im
    /// >>> spread = im.Grid.from_rows(["..."]).diffusion(decay=1.0)
    /// >>> spread.layer().sum()
    /// 0.0
    fn layer(&self, py: Python<'_>) -> PyLayer {
        PyLayer::new(self.grid.clone_ref(py), self.propagator.values().clone())
    }

    /// Where the steps end up with these sources, solved in one sweep (no stepping): a new
    /// :class:`Layer`. With ``momentum=1`` it equals stepping until nothing changes. Sources
    /// with ``mode="add"`` on cells no ``"set"`` source holds have no steady state
    /// (``ValueError``).
    ///
    /// >>> import influence_maps as im
    /// >>> spread = im.Grid.from_rows(["...."]).diffusion(decay=0.0, decay_kind="linear")
    /// >>> spread.set_sources((0.5, 0.5), strength=2.0).steady_state().numpy().tolist()
    /// [[2.0, 2.0, 2.0, 2.0]]
    fn steady_state(&mut self, py: Python<'_>) -> PyResult<PyLayer> {
        let mut out = Layer::for_space(&self.walk);
        let (walk, seeds, solver, rule) =
            (&self.walk, &self.seeds, &mut self.solver, self.propagator.diffusion());
        py.detach(|| {
            guarded(|| {
                solver.solve(walk, rule, seeds, &mut out).map_err(|e| args::library_error("steady_state", &e))
            })
        })?;
        Ok(PyLayer::new(self.grid.clone_ref(py), out))
    }

    /// Back to rest: the map zeroed, the sources written again, the step count 0. Returns
    /// the diffusion.
    ///
    /// >>> import influence_maps as im
    /// >>> spread = im.Grid.from_rows(["..."]).diffusion(decay=0.1).set_sources((0.5, 0.5))
    /// >>> spread.step(5).reset().steps, spread.layer().sum()
    /// (0, 1.0)
    fn reset(slf: Bound<'_, Self>) -> PyResult<Bound<'_, Self>> {
        let mut guard = slf.try_borrow_mut()?;
        let this = &mut *guard;
        this.propagator.clear();
        this.propagator.write_seeds(&this.walk, &this.seeds).map_err(|e| args::library_error("reset", &e))?;
        this.steps = 0;
        drop(guard);
        Ok(slf)
    }

    /// Steps taken since the diffusion was made (or reset).
    ///
    /// >>> import influence_maps as im
    /// >>> spread = im.Grid.from_rows(["..."]).diffusion(decay=0.25, momentum=0.5, decay_kind="linear", threshold=0.125, neighbours=4)
    /// >>> spread.steps
    /// 0
    #[getter]
    fn steps(&self) -> usize {
        self.steps
    }

    /// Decay per world unit.
    ///
    /// >>> import influence_maps as im
    /// >>> spread = im.Grid.from_rows(["..."]).diffusion(decay=0.25, momentum=0.5, decay_kind="linear", threshold=0.125, neighbours=4)
    /// >>> spread.decay
    /// 0.25
    #[getter]
    fn decay(&self) -> f32 {
        self.propagator.diffusion().decay()
    }

    /// How far a cell moves towards its strongest neighbour per step, in [0, 1].
    ///
    /// >>> import influence_maps as im
    /// >>> spread = im.Grid.from_rows(["..."]).diffusion(decay=0.25, momentum=0.5, decay_kind="linear", threshold=0.125, neighbours=4)
    /// >>> spread.momentum
    /// 0.5
    #[getter]
    fn momentum(&self) -> f32 {
        self.propagator.diffusion().momentum()
    }

    /// Magnitudes below this become 0.
    ///
    /// >>> import influence_maps as im
    /// >>> spread = im.Grid.from_rows(["..."]).diffusion(decay=0.25, momentum=0.5, decay_kind="linear", threshold=0.125, neighbours=4)
    /// >>> spread.threshold
    /// 0.125
    #[getter]
    fn threshold(&self) -> f32 {
        self.propagator.diffusion().threshold()
    }

    /// ``"exponential"`` or ``"linear"``.
    ///
    /// >>> import influence_maps as im
    /// >>> spread = im.Grid.from_rows(["..."]).diffusion(decay=0.25, momentum=0.5, decay_kind="linear", threshold=0.125, neighbours=4)
    /// >>> spread.decay_kind
    /// 'linear'
    #[getter]
    fn decay_kind(&self) -> &'static str {
        if self.propagator.diffusion().is_linear() {
            "linear"
        } else {
            "exponential"
        }
    }

    /// 4 or 8: the neighbours influence spreads to.
    ///
    /// >>> import influence_maps as im
    /// >>> spread = im.Grid.from_rows(["..."]).diffusion(decay=0.25, momentum=0.5, decay_kind="linear", threshold=0.125, neighbours=4)
    /// >>> spread.neighbours
    /// 4
    #[getter]
    fn neighbours(&self) -> u8 {
        neighbours_of(&self.walk)
    }

    fn __repr__(&self) -> String {
        let d = self.propagator.diffusion();
        format!(
            "Diffusion(decay={}, momentum={}, decay_kind='{}', threshold={}, neighbours={}, sources={}, steps={})",
            d.decay(),
            d.momentum(),
            self.decay_kind(),
            d.threshold(),
            neighbours_of(&self.walk),
            self.seeds.len(),
            self.steps
        )
    }
}

/// The chase flood fill's result (from :meth:`Grid.chase`): where a target you lost sight
/// of has probably gone.
///
/// >>> import influence_maps as im
/// >>> grid = im.Grid.from_rows(["@@@@@@@@@@@@", "@..........@", "@@@@@@@@@@@@"])
/// >>> chase = grid.chase((4.5, 1.5), direction=(1.0, 0.0), barrier_radius=3.0, max_steps=5)
/// >>> chase.predicted[0] > 4.5               # running right: the guess lies ahead
/// True
/// >>> bool(chase.warm[1, 2])                  # never behind
/// False
#[pyclass(frozen, name = "Chase", module = "influence_maps")]
pub(crate) struct PyChase {
    heat: Py<PyLayer>,
    warm: Vec<bool>,
    shape: (usize, usize),
    predicted: (f64, f64),
    predicted_cell: (usize, usize),
    prediction: Prediction,
}

#[pymethods]
impl PyChase {
    /// The heat of every cell (a :class:`Layer`): 0 where the fill never reached or that
    /// has cooled down, up to ``heat`` on the newest cells.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows([".....", "....."])
    /// >>> chase = grid.chase((0.5, 0.5), direction=(1.0, 0.0), cooling=0.5, max_steps=2)
    /// >>> chase.heat.numpy().tolist()
    /// [[0.0, 0.5, 1.0, 0.0, 0.0], [0.5, 0.5, 1.0, 0.0, 0.0]]
    #[getter]
    fn heat(&self, py: Python<'_>) -> Py<PyLayer> {
        self.heat.clone_ref(py)
    }

    /// The predicted cells: a bool array ``[y, x]``, true where the heat is above 0 (where
    /// the target may be now).
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows([".....", "....."])
    /// >>> chase = grid.chase((0.5, 0.5), direction=(1.0, 0.0), cooling=0.5, max_steps=2)
    /// >>> chase.warm.tolist()
    /// [[False, True, True, False, False], [True, True, True, False, False]]
    #[getter]
    fn warm<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        PyArray1::from_vec(py, self.warm.clone()).reshape([self.shape.0, self.shape.1])
    }

    /// The best guess: the centre ``(x, y)`` of the warm cell nearest the heat-weighted
    /// centroid of the warm cells.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows([".....", "....."])
    /// >>> chase = grid.chase((0.5, 0.5), direction=(1.0, 0.0), cooling=0.5, max_steps=2)
    /// >>> chase.predicted
    /// (1.5, 1.5)
    #[getter]
    fn predicted(&self) -> (f64, f64) {
        self.predicted
    }

    /// The predicted cell ``(x, y)``.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows([".....", "....."])
    /// >>> chase = grid.chase((0.5, 0.5), direction=(1.0, 0.0), cooling=0.5, max_steps=2)
    /// >>> chase.predicted_cell
    /// (1, 1)
    #[getter]
    fn predicted_cell(&self) -> (usize, usize) {
        self.predicted_cell
    }

    /// The heat-weighted centroid ``(x, y)`` of the warm cells (it may lie in a wall).
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows([".....", "....."])
    /// >>> chase = grid.chase((0.5, 0.5), direction=(1.0, 0.0), cooling=0.5, max_steps=2)
    /// >>> tuple(round(c, 2) for c in chase.centroid)
    /// (1.93, 1.07)
    #[getter]
    fn centroid(&self) -> (f64, f64) {
        (f64::from(self.prediction.centroid.x), f64::from(self.prediction.centroid.y))
    }

    /// Steps the fill took.
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows([".....", "....."])
    /// >>> chase = grid.chase((0.5, 0.5), direction=(1.0, 0.0), cooling=0.5, max_steps=2)
    /// >>> chase.steps
    /// 2
    #[getter]
    fn steps(&self) -> usize {
        self.prediction.steps
    }

    /// Why it stopped: ``"max_steps"``, ``"front_empty"`` (the reachable area is covered)
    /// or ``"too_many_new"`` (a step heated more than ``max_new`` cells).
    ///
    /// >>> import influence_maps as im
    /// >>> grid = im.Grid.from_rows([".....", "....."])
    /// >>> chase = grid.chase((0.5, 0.5), direction=(1.0, 0.0), cooling=0.5, max_steps=2)
    /// >>> chase.stopped
    /// 'max_steps'
    #[getter]
    fn stopped(&self) -> &'static str {
        if self.prediction.front_empty {
            "front_empty"
        } else if self.prediction.too_many_new {
            "too_many_new"
        } else {
            "max_steps"
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "Chase(predicted=({}, {}), warm={}, steps={}, stopped='{}')",
            self.predicted.0,
            self.predicted.1,
            self.prediction.warm,
            self.prediction.steps,
            self.stopped()
        )
    }
}

/// `Grid.chase`: see its docstring in `grid.rs`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn chase(
    slf: &Bound<'_, PyGrid>,
    last_seen: &Bound<'_, PyAny>,
    direction: Option<&Bound<'_, PyAny>>,
    barrier_radius: Option<&Bound<'_, PyAny>>,
    heat: Option<&Bound<'_, PyAny>>,
    cooling: Option<&Bound<'_, PyAny>>,
    max_steps: Option<&Bound<'_, PyAny>>,
    max_new: Option<&Bound<'_, PyAny>>,
    neighbours: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyChase> {
    let py = slf.py();
    let grid = &slf.get().grid;
    let seen = args::point(last_seen, "last_seen")?;
    let cell = args::cell_of(grid, seen, "last_seen")?;
    if grid.is_blocked(cell) {
        return Err(value_error(format!(
            "last_seen = {} is on blocked cell ({}, {}); the target was last seen on a walkable cell",
            args::point_text(seen),
            cell.x,
            cell.y
        )));
    }
    let start = grid.index(cell).ok_or_else(|| value_error("last_seen is off the grid"))?;
    let direction = given(direction).map(|d| args::point(d, "direction")).transpose()?.unwrap_or_default();
    let spec = Chase {
        initial_heat: given(heat).map(|h| args::positive(h, "heat")).transpose()?.unwrap_or(1.0),
        cooling: given(cooling).map(|c| args::non_negative(c, "cooling")).transpose()?.unwrap_or(0.1),
        max_new: given(max_new).map(|m| args::count(m, "max_new")).transpose()?.unwrap_or(usize::MAX),
        max_steps: given(max_steps).map(|m| args::count(m, "max_steps")).transpose()?.unwrap_or(10),
        barrier_radius: given(barrier_radius)
            .map(|b| args::non_negative(b, "barrier_radius"))
            .transpose()?
            .unwrap_or(0.0),
    };
    let walk = slf.get().walking(neighbours)?;
    let walk: &Grid = &walk;
    let (prediction, values) = py.detach(|| {
        guarded(|| {
            let mut fill = FloodFill::default();
            let prediction = fill
                .predict(walk, start, direction.extend(0.0), &spec)
                .map_err(|e| args::library_error("chase", &e))?;
            Ok((prediction, fill.heat().to_vec()))
        })
    })?;
    let c = grid.cell(prediction.cell);
    let centre = grid.center(c);
    let warm = values.iter().map(|&h| h > 0.0).collect();
    Ok(PyChase {
        heat: Py::new(py, PyLayer::new(slf.clone().unbind(), Layer::from_vec(values)))?,
        warm,
        shape: (grid.height(), grid.width()),
        predicted: (f64::from(centre.x), f64::from(centre.y)),
        predicted_cell: (c.x, c.y),
        prediction,
    })
}
