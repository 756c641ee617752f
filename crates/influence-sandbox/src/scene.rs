//! The scene: a map, sources of any number of teams, a perspective and an optional
//! propagation — a scenario being edited. Its layers are computed by the one engine,
//! `influence_scenario::engine::Run`, exactly as `influence render` computes the exported
//! scenario; the scene keeps what the page edits (each source's id and table, the step
//! count) and turns requests into the engine's edits, each of which recomputes only what
//! it invalidates.
//!
//! A diffusion shows "`steps` rounds of write the seeds, step, from rest": an edit restarts
//! the teams it touches from rest and the steps are replayed, at most [`STEP_BUDGET`]
//! cell-steps per round of the worker (`worker.rs`), stopping early once a step changes
//! nothing (every later step would be the same), so the page shows what the export renders.
//!
//! Edits ([`Scene::apply`]) check the request and mark what it invalidates; the work is done
//! by [`Scene::build`] (interruptible between two sources) and [`Scene::step`], on the
//! worker's thread, and [`Scene::snapshot`] copies out what readers are sent.

use std::sync::Arc;

use influence::{Grid, Layer, Source, Space};
use influence_scenario::color;
use influence_scenario::engine::Run;
use influence_scenario::layers;
use influence_scenario::propagation::{Kind, Method, PropagationSpec};
use influence_scenario::report::{MapReport, PredictionReport};
use influence_scenario::route::{PathPlan, PathSpec};
use influence_scenario::scenario::Scenario;
use influence_scenario::source::SourceSpec;

use crate::api::{MapRequest, MapView, PathView, SceneView, SourceView, Steps, WallEdit};
use crate::caps::{self, limits};
use crate::error::SceneError;
use crate::snapshot::{Shown, Snapshot, Spare};

/// A change to the scene, as the API asks for it.
#[derive(Debug)]
pub enum Edit {
    /// `POST /api/map`.
    Map(MapRequest),
    /// `POST /api/walls`.
    Walls(WallEdit),
    /// `POST /api/sources`.
    AddSource(SourceSpec),
    /// `PUT /api/sources/{id}`.
    ReplaceSource(u32, SourceSpec),
    /// `DELETE /api/sources/{id}`.
    DeleteSource(u32),
    /// `PUT /api/perspective`.
    Perspective(Option<String>),
    /// `PUT /api/propagation` (`None`: stamping only).
    Propagation(Option<PropagationSpec>),
    /// `PUT /api/paths`.
    Paths(Vec<PathSpec>),
    /// `POST /api/step` and `POST /api/frame`: steps to add (checked against `MAX_ADVANCE`).
    Advance(u64),
    /// `POST /api/reset`.
    Reset,
    /// `POST /api/import`: a scene read (and checked) off the worker.
    Import(Box<Scene>),
}

/// Cell-steps (cells × teams × steps) one request may spend replaying a diffusion.
pub const STEP_BUDGET: usize = 1 << 25;

/// A source in the scene: its id and table (the engine holds the validated source).
#[derive(Debug, Clone)]
struct Placed {
    id: u32,
    spec: SourceSpec,
}

/// The scene and its run.
#[derive(Debug)]
pub struct Scene {
    map_name: String,
    run: Run,
    sources: Vec<Placed>,
    next_id: u32,
    perspective: Option<String>,
    propagation: Option<PropagationSpec>,
    paths: Vec<PathSpec>,
    /// Steps asked for (diffuse `steps`, flood `max_steps`).
    steps: u64,
    version: u64,
}

/// An empty scenario on `grid`: what the engine runs before any source is placed.
fn empty(grid: Grid) -> Scenario {
    Scenario {
        file: "sandbox".to_owned(),
        grid,
        teams: Vec::new(),
        sources: Vec::new(),
        colors: Vec::new(),
        perspective: 0,
        layers: Vec::new(),
        upscale: 1,
        markers: false,
        notes: Vec::new(),
        propagation: None,
        fields: influence_scenario::field::Fields::default(),
        paths: Vec::new(),
    }
}

impl Scene {
    /// An empty scene on `grid`, called `map_name` on the page.
    pub fn new(grid: Grid, map_name: String) -> Self {
        // An empty scenario has nothing the engine could refuse.
        let run = Run::new(empty(grid)).expect("an empty scenario runs");
        Self {
            map_name,
            run,
            sources: Vec::new(),
            next_id: 1,
            perspective: None,
            propagation: None,
            paths: Vec::new(),
            steps: 1,
            version: 1,
        }
    }

    /// The map.
    pub fn grid(&self) -> &Grid {
        &self.run.scenario().grid
    }

    /// The teams, in order of first appearance among the sources.
    fn teams(&self) -> &[String] {
        &self.run.scenario().teams
    }

    /// The perspective team, if any team has sources: the chosen one, else the first.
    pub fn perspective(&self) -> Option<&str> {
        let teams = self.teams();
        match &self.perspective {
            Some(p) if teams.contains(p) => Some(p),
            _ => teams.first().map(String::as_str),
        }
    }

    /// The sources' tables, in order.
    pub fn source_specs(&self) -> impl Iterator<Item = &SourceSpec> {
        self.sources.iter().map(|p| &p.spec)
    }

    /// The `[propagation]` table with the step count written in.
    pub fn propagation_spec(&self) -> Option<PropagationSpec> {
        self.propagation.as_ref().map(|spec| {
            let mut spec = spec.clone();
            match spec.kind {
                Kind::Diffuse => spec.steps = Some(self.steps),
                Kind::Flood => spec.max_steps = Some(self.steps),
                Kind::Steady => {}
            }
            spec
        })
    }

    fn kind(&self) -> Option<Kind> {
        self.propagation.as_ref().map(|s| s.kind)
    }

    /// Builds a scene from validated parts (an import).
    ///
    /// # Errors
    /// [`SceneError`] naming the source or table at fault.
    pub fn from_parts(
        grid: Grid,
        map_name: String,
        sources: Vec<SourceSpec>,
        perspective: Option<String>,
        propagation: Option<PropagationSpec>,
        paths: Vec<PathSpec>,
    ) -> Result<Self, SceneError> {
        let mut scene = Self::new(grid, map_name);
        if let Some(spec) = propagation {
            let p = caps::propagation(&spec, scene.grid())?;
            scene.steps = p.steps() as u64;
            scene.propagation = Some(spec);
            scene.run.set_propagation(Some(p), Vec::new());
        }
        for (i, spec) in sources.into_iter().enumerate() {
            scene.add_source(spec).map_err(|e| e.within(&format!("source[{i}]")))?;
        }
        if let Some(p) = perspective {
            scene.set_perspective(Some(p))?;
        }
        scene.set_paths(paths)?;
        Ok(scene)
    }

    /// Takes `other`'s contents (an import), keeping the edit counter increasing.
    pub fn replace_with(&mut self, other: Scene) {
        let version = self.version;
        *self = other;
        self.version = version + 1;
    }

    /// After a panic in a handler: recompute everything on the next request.
    pub fn recover(&mut self) {
        self.run.reset();
        self.version += 1;
    }

    /// Loads a new map: the sources and perspective go; a diffusion or steady state stays, a
    /// flood fill (whose last-seen cell belonged to the old map) goes.
    ///
    /// # Errors
    /// [`SceneError::NotFound`] for an unknown bundled map, another for a bad or oversized one.
    pub fn load_map(&mut self, request: &MapRequest) -> Result<(), SceneError> {
        let (spec, text, name) = request.resolve()?;
        let grid = caps::map_grid(&spec, text)?;
        let propagation = self.propagation.take().filter(|s| s.kind != Kind::Flood);
        let version = self.version;
        *self = Self::new(grid, name);
        self.version = version + 1;
        if let Some(spec) = propagation {
            self.set_propagation(Some(spec))?;
        }
        Ok(())
    }

    /// Blocks or opens cells; the cells the engine keeps open (sources', routes' ends, a
    /// flood's last-seen cell) stay open.
    ///
    /// # Errors
    /// [`SceneError`] for a cell off the map (nothing changes then).
    pub fn edit_walls(&mut self, edit: &WallEdit) -> Result<(), SceneError> {
        let (w, h) = (self.grid().width(), self.grid().height());
        if let Some([x, y]) = edit.cells.iter().find(|[x, y]| *x as usize >= w || *y as usize >= h) {
            return Err(SceneError::invalid(format!("cell ({x}, {y}) is outside the {w}×{h} map")));
        }
        let cells: Vec<(usize, usize)> = edit.cells.iter().map(|&[x, y]| (x as usize, y as usize)).collect();
        // In range (checked above), so this cannot fail.
        if self.run.set_walls(&cells, edit.blocked).unwrap_or(false) {
            self.version += 1;
        }
        Ok(())
    }

    /// Validates a source against the scene (its team, the caps, the propagation's modes).
    fn checked(&self, spec: &SourceSpec, replacing: Option<u32>) -> Result<Source, SceneError> {
        let source = caps::source(spec, self.grid(), self.kind())?;
        let others = self.sources.iter().filter(|p| Some(p.id) != replacing);
        let mut teams: Vec<String> = others.map(|p| p.spec.team.clone()).collect();
        teams.sort_unstable();
        teams.dedup();
        // As a scenario file's sources are checked: teams that differ only in letter case
        // would write files that differ only in case, and `influence render` refuses them.
        layers::check_case(&teams, &spec.team).map_err(|m| SceneError::invalid(format!("team: {m}")))?;
        if !teams.contains(&spec.team) && teams.len() >= limits::MAX_TEAMS {
            return Err(SceneError::Limit(format!("at most {} teams", limits::MAX_TEAMS)));
        }
        // A team has one colour, as in a scenario file (the value itself was checked above).
        if let Some(c) = spec.color.as_deref().and_then(color::parse) {
            let mut same_team =
                self.sources.iter().filter(|p| Some(p.id) != replacing && p.spec.team == spec.team);
            if let Some(other) = same_team.find_map(|p| p.spec.color.as_deref().and_then(color::parse)) {
                if other != c {
                    return Err(SceneError::invalid(format!(
                        "color: team {:?} already has colour \"{}\"; a team has one colour",
                        spec.team,
                        color::hex(other)
                    )));
                }
            }
        }
        Ok(source)
    }

    /// Adds a source at the end; returns its id.
    ///
    /// # Errors
    /// [`SceneError`] for a bad source or one over the caps.
    pub fn add_source(&mut self, spec: SourceSpec) -> Result<u32, SceneError> {
        if self.sources.len() >= limits::MAX_SOURCES {
            return Err(SceneError::Limit(format!("at most {} sources", limits::MAX_SOURCES)));
        }
        let source = self.checked(&spec, None)?;
        let id = self.next_id;
        self.next_id += 1;
        self.run.add_source(&spec.team, source);
        self.sources.push(Placed { id, spec });
        self.version += 1;
        Ok(id)
    }

    /// Replaces source `id`'s table, keeping its place in the order.
    ///
    /// # Errors
    /// [`SceneError::NotFound`] for no such source, another for a bad table.
    pub fn replace_source(&mut self, id: u32, spec: SourceSpec) -> Result<(), SceneError> {
        let i = self.index_of(id)?;
        let source = self.checked(&spec, Some(id))?;
        self.run.replace_source(i, &spec.team, source);
        self.sources[i].spec = spec;
        self.version += 1;
        Ok(())
    }

    /// Removes source `id`.
    ///
    /// # Errors
    /// [`SceneError::NotFound`] for no such source.
    pub fn delete_source(&mut self, id: u32) -> Result<(), SceneError> {
        let i = self.index_of(id)?;
        self.run.remove_source(i);
        self.sources.remove(i);
        self.version += 1;
        Ok(())
    }

    fn index_of(&self, id: u32) -> Result<usize, SceneError> {
        self.sources
            .iter()
            .position(|p| p.id == id)
            .ok_or_else(|| SceneError::NotFound(format!("no source {id}")))
    }

    /// Sets the perspective team (`None`: the first team).
    ///
    /// # Errors
    /// [`SceneError`] for a team without sources.
    pub fn set_perspective(&mut self, team: Option<String>) -> Result<(), SceneError> {
        if let Some(t) = &team {
            if !self.sources.iter().any(|p| &p.spec.team == t) {
                return Err(SceneError::invalid(format!("no source has team {t:?}")));
            }
        }
        self.perspective.clone_from(&team);
        self.run.set_perspective(team);
        self.version += 1;
        Ok(())
    }

    /// Sets or clears the propagation. A table without its step count (`steps`, `max_steps`)
    /// keeps the current count if the kind stays, else starts at 1.
    ///
    /// # Errors
    /// [`SceneError`] for a bad table, or a source whose mode the new kind refuses.
    pub fn set_propagation(&mut self, spec: Option<PropagationSpec>) -> Result<(), SceneError> {
        let Some(mut spec) = spec else {
            let sources = self.revalidated(None)?;
            self.propagation = None;
            self.run.set_propagation(None, sources);
            self.version += 1;
            return Ok(());
        };
        let keep = if self.kind() == Some(spec.kind) { self.steps } else { 1 };
        match spec.kind {
            Kind::Diffuse => spec.steps = spec.steps.or(Some(keep)),
            Kind::Flood => spec.max_steps = spec.max_steps.or(Some(keep)),
            Kind::Steady => {}
        }
        let p = caps::propagation(&spec, self.grid())?;
        let sources = self.revalidated(Some(spec.kind))?;
        self.propagation = Some(spec);
        self.run.set_propagation(Some(p), sources);
        self.steps = p.steps() as u64;
        self.version += 1;
        Ok(())
    }

    /// Every source checked again under a propagation of `kind` (which sets modes by default).
    fn revalidated(&self, kind: Option<Kind>) -> Result<Vec<(String, Source)>, SceneError> {
        self.sources
            .iter()
            .map(|placed| {
                let source = caps::source(&placed.spec, self.grid(), kind)
                    .map_err(|e| e.within(&format!("source {}", placed.id)))?;
                Ok((placed.spec.team.clone(), source))
            })
            .collect()
    }

    /// Replaces the routes (`[[path]]` tables).
    ///
    /// # Errors
    /// [`SceneError`] for more than [`limits::MAX_PATHS`] or a bad table (nothing changes then).
    pub fn set_paths(&mut self, specs: Vec<PathSpec>) -> Result<(), SceneError> {
        if specs.len() > limits::MAX_PATHS {
            return Err(SceneError::Limit(format!("at most {} paths", limits::MAX_PATHS)));
        }
        let heat = self.kind() == Some(Kind::Flood);
        let plans: Vec<PathPlan> = specs
            .iter()
            .enumerate()
            .map(|(i, table)| caps::path(table, i, self.grid(), self.teams(), heat))
            .collect::<Result<_, _>>()?;
        self.paths = specs;
        self.run.set_paths(plans);
        self.version += 1;
        Ok(())
    }

    /// Adds `n` steps to a diffusion or flood (nothing for other kinds).
    pub fn advance(&mut self, n: u64) {
        if matches!(self.kind(), Some(Kind::Diffuse | Kind::Flood)) && n > 0 {
            self.steps = (self.steps + n).min(limits::MAX_STEPS);
        }
    }

    /// Back to one step from rest.
    pub fn reset(&mut self) {
        self.steps = 1;
        self.run.reset();
        self.version += 1;
    }

    /// Applies `edit`, checked first: refused, it changes nothing. Returns a new source's id.
    /// Cheap: the layers are computed by [`build`](Self::build) and [`step`](Self::step).
    ///
    /// # Errors
    /// [`SceneError`] saying what is wrong.
    pub fn apply(&mut self, edit: Edit) -> Result<Option<u32>, SceneError> {
        match edit {
            Edit::Map(request) => self.load_map(&request)?,
            Edit::Walls(edit) => self.edit_walls(&edit)?,
            Edit::AddSource(spec) => return self.add_source(spec).map(Some),
            Edit::ReplaceSource(id, spec) => self.replace_source(id, spec)?,
            Edit::DeleteSource(id) => self.delete_source(id)?,
            Edit::Perspective(team) => self.set_perspective(team)?,
            Edit::Propagation(spec) => self.set_propagation(spec)?,
            Edit::Paths(paths) => self.set_paths(paths)?,
            Edit::Advance(n) => self.advance(n),
            Edit::Reset => self.reset(),
            Edit::Import(scene) => self.replace_with(*scene),
        }
        Ok(None)
    }

    /// Builds the team layers the edits left to build, asking `interrupted` between two
    /// sources (`Run::prepare`); returns whether all are built.
    pub fn build(&mut self, interrupted: &mut dyn FnMut() -> bool) -> bool {
        self.run.prepare(interrupted)
    }

    /// Moves time on towards the step count, spending at most [`STEP_BUDGET`] cell-steps on a
    /// diffusion replay; returns whether the layers have caught up.
    pub fn step(&mut self) -> bool {
        let steps = usize::try_from(self.steps).unwrap_or(usize::MAX);
        match self.kind() {
            Some(Kind::Diffuse) => {
                let per_step = self.grid().len() * self.teams().len();
                self.run.step_to(steps, (STEP_BUDGET / per_step.max(1)).max(1), false);
                self.run.steps_done() >= steps
            }
            Some(Kind::Flood) => {
                self.run.step_to(steps, usize::MAX, false);
                true
            }
            Some(Kind::Steady) => {
                // A refused steady state shows as the scene's error.
                drop(self.run.finish(&mut |_| {}));
                true
            }
            None => true,
        }
    }

    /// The `[[path]]` tables.
    pub fn path_specs(&self) -> impl Iterator<Item = &PathSpec> {
        self.paths.iter()
    }

    /// The names of the layers, in the page's order: teams, compound maps, front line, heat.
    pub fn layer_names(&self) -> Vec<String> {
        let heat = self.kind() == Some(Kind::Flood);
        layers::names(self.teams(), heat).collect()
    }

    /// The step counts.
    pub fn steps(&self) -> Steps {
        let done = if self.kind() == Some(Kind::Diffuse) { self.run.steps_done() as u64 } else { self.steps };
        Steps { target: self.steps, done: done.min(self.steps) }
    }

    /// The colours the sources give their teams, by team name.
    fn given_colors(&self) -> Vec<(String, [u8; 3])> {
        let specs: Vec<SourceSpec> = self.sources.iter().map(|p| p.spec.clone()).collect();
        // Every source was checked against the others' colours when it was placed.
        color::given(&specs).unwrap_or_default()
    }

    /// What readers are sent, copied out of the run (brought up to date first): the scene
    /// as `GET /api/scene` gives it, every layer, the front line and routes, and the export.
    /// `before` is the last snapshot, whose map is shared when no edit came between; the
    /// layers are copied into `spare`'s buffers where it has them.
    pub fn snapshot(&mut self, before: Option<&Shown>, spare: &mut Spare) -> Snapshot {
        let steps = self.steps();
        let layer_names = self.layer_names();
        let propagation = self.propagation_spec();
        let given = self.given_colors();
        let export = crate::export::scenario(self);
        let version = self.version;
        let grid = match before {
            Some(b) if b.snapshot.version() == version => Arc::clone(b.snapshot.grid()),
            _ => Arc::new(self.grid().clone()),
        };
        let view = self.run.view();
        let g = &view.scenario().grid;
        let scene = SceneView {
            version,
            map: MapView { name: self.map_name.clone(), geometry: MapReport::of(g) },
            sources: self.sources.iter().map(|p| SourceView { id: p.id, spec: &p.spec }).collect(),
            teams: view.scenario().teams.iter().map(String::as_str).collect(),
            team_colors: (view.scenario().teams.iter().enumerate())
                .map(|(t, name)| color::hex(color::team_color(&given, t, name)))
                .collect(),
            perspective: view.scenario().teams.get(view.scenario().perspective).map(String::as_str),
            propagation,
            steps,
            layers: layer_names.clone(),
            paths: self
                .paths
                .iter()
                .enumerate()
                .zip(view.scenario().paths.iter())
                .map(|((i, spec), plan)| {
                    let route = view.routes().get(i).and_then(Option::as_ref);
                    PathView {
                        spec,
                        note: (!view.path_has_layer(i)).then(|| {
                            format!(
                                "layer {:?} does not exist now; influence render would refuse it",
                                plan.layer_name
                            )
                        }),
                        reachable: route.is_some(),
                        length: route.map(|r| r.length),
                        exposure: route.map(|r| r.exposure),
                    }
                })
                .collect(),
            prediction: view.prediction().map(|p| PredictionReport::new(g, p, None)),
            error: view.error().map(|e| e.message.clone()),
        };
        let scene =
            serde_json::to_value(&scene).unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }));
        // No response carries NaN or infinity: a layer that overflowed refuses frames and cells.
        let overflow = match view.error() {
            Some(e) if e.problem == influence_scenario::error::Problem::Value => {
                Some(SceneError::Scenario { problem: e.problem, message: e.message.clone() })
            }
            _ => None,
        };
        let layers: Vec<(String, Arc<Layer>)> = layer_names
            .into_iter()
            .filter_map(|name| {
                let layer = spare.copy(&*view.layer_named(&name)?);
                Some((name, Arc::new(layer)))
            })
            .collect();
        let last_seen = match view.scenario().propagation.map(|p| p.method) {
            Some(Method::Flood { last_seen, .. }) => Some(last_seen),
            _ => None,
        };
        Snapshot::new(crate::snapshot::Parts {
            version,
            steps,
            scene,
            grid,
            layers,
            front: view.front().to_vec(),
            routes: view
                .routes()
                .iter()
                .map(|r| r.as_ref().map_or_else(Vec::new, |r| r.cells.clone()))
                .collect(),
            predicted: view.prediction().map(|p| p.cell),
            last_seen,
            overflow,
            export,
        })
    }
}
