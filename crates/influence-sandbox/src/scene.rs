//! The scene: a map, sources of any number of teams, a perspective and an optional
//! propagation — a scenario being edited — with its layers computed through the library
//! exactly as `influence render` computes the exported scenario.
//!
//! Team layers are stamped, or under `[propagation]` spread from their sources' seeds or
//! solved for the steady state — by `influence_scenario::spread`, as `influence render` does;
//! the compound maps come from `Analysis` for the perspective team and the front line from
//! `query::frontline` on the map. A diffusion shows "`steps` rounds of write the seeds, step,
//! from rest": any edit starts it again from rest and replays the steps, at most
//! [`STEP_BUDGET`] cell-steps per request, and stops early once a step changes nothing (every
//! later step would be the same), so the page shows what the export renders.

use influence::propagate::Prediction;
use influence::route::{Route, Router};
use influence::{query, Analysis, Grid, Layer, Source, Space};
use influence_scenario::layers;
use influence_scenario::propagation::{Kind, Method, Propagation, PropagationSpec};
use influence_scenario::report::{MapReport, PredictionReport};
use influence_scenario::route::{self, PathPlan, PathSpec};
use influence_scenario::source::SourceSpec;
use influence_scenario::spread::{self, Diffusing};

use crate::api::{ApiError, CellView, MapRequest, MapView, PathView, SceneView, SourceView, Steps, WallEdit};
use crate::spec::{self, limits};

/// Cell-steps (cells × teams × steps) one request may spend replaying a diffusion.
pub const STEP_BUDGET: usize = 1 << 25;

/// A source in the scene.
#[derive(Debug, Clone)]
struct Placed {
    id: u32,
    spec: SourceSpec,
    source: Source,
}

/// The scene and its computed layers.
#[derive(Debug)]
pub struct Scene {
    map_name: String,
    grid: Grid,
    sources: Vec<Placed>,
    next_id: u32,
    perspective: Option<String>,
    propagation: Option<(PropagationSpec, Propagation)>,
    paths: Vec<(PathSpec, PathPlan)>,
    /// Steps asked for (diffuse `steps`, flood `max_steps`).
    steps: u64,
    version: u64,
    calc: Calc,
}

/// What is computed from the scene, and what is out of date.
#[derive(Debug)]
struct Calc {
    /// Team layers must be recomputed from scratch.
    stale: bool,
    /// The flood fill must be run again (its step count changed).
    flood_stale: bool,
    /// The compound maps and front line must be recomputed.
    analysis_stale: bool,
    teams: Vec<String>,
    /// Per team: stamped or solved layers (empty while diffusing).
    layers: Vec<Layer>,
    /// Every team's layer while diffusing.
    diffusing: Option<Diffusing>,
    /// The map the propagation walks (the scene's, with `neighbours` applied).
    walk: Grid,
    done: u64,
    converged: bool,
    /// The flood fill's heat (zero without one).
    heat: Layer,
    prediction: Option<Prediction>,
    analysis: Analysis,
    front: Vec<bool>,
    front_layer: Layer,
    /// Per path: its route, or `None` where the goal cannot be reached.
    routes: Vec<Option<Route>>,
    router: Router,
    error: Option<String>,
}

impl Calc {
    fn new(grid: &Grid) -> Self {
        Self {
            stale: true,
            flood_stale: true,
            analysis_stale: true,
            teams: Vec::new(),
            layers: Vec::new(),
            diffusing: None,
            walk: grid.clone(),
            done: 0,
            converged: false,
            heat: Layer::for_space(grid),
            prediction: None,
            analysis: Analysis::new(grid.len()),
            front: vec![false; grid.len()],
            front_layer: Layer::for_space(grid),
            routes: Vec::new(),
            router: Router::new(),
            error: None,
        }
    }

    /// Team `t`'s current layer.
    fn team(&self, t: usize) -> &Layer {
        team_layer(&self.layers, self.diffusing.as_ref(), t)
    }
}

/// Team `t`'s layer: the diffusing one while diffusing, else its stamped or solved one.
fn team_layer<'a>(layers: &'a [Layer], diffusing: Option<&'a Diffusing>, t: usize) -> &'a Layer {
    match diffusing {
        Some(d) => d.layer(t),
        None => &layers[t],
    }
}

impl Scene {
    /// An empty scene on `grid`, called `map_name` on the page.
    pub fn new(grid: Grid, map_name: String) -> Self {
        Self {
            map_name,
            calc: Calc::new(&grid),
            grid,
            sources: Vec::new(),
            next_id: 1,
            perspective: None,
            propagation: None,
            paths: Vec::new(),
            steps: 1,
            version: 1,
        }
    }

    /// The default scene: the first bundled map, empty.
    ///
    /// # Errors
    /// Should the bundled map not parse (a test holds that it does).
    pub fn bundled_default() -> Result<Self, String> {
        let map = &crate::maps::BUNDLED[0];
        Ok(Self::new(spec::movingai_grid(map.text)?, map.name.to_owned()))
    }

    /// The map.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The perspective team, if any team has sources: the chosen one, else the first.
    pub fn perspective(&self) -> Option<&str> {
        let teams = team_order(&self.sources);
        match &self.perspective {
            Some(p) if teams.contains(&p.as_str()) => Some(p),
            _ => teams.first().copied(),
        }
    }

    /// The sources' tables, in order.
    pub fn source_specs(&self) -> impl Iterator<Item = &SourceSpec> {
        self.sources.iter().map(|p| &p.spec)
    }

    /// The `[propagation]` table with the step count written in.
    pub fn propagation_spec(&self) -> Option<PropagationSpec> {
        self.propagation.as_ref().map(|(spec, p)| {
            let mut spec = spec.clone();
            match p.method {
                Method::Diffuse { .. } => spec.steps = Some(self.steps),
                Method::Flood { .. } => spec.max_steps = Some(self.steps),
                Method::Steady { .. } => {}
            }
            spec
        })
    }

    fn kind(&self) -> Option<Kind> {
        self.propagation.as_ref().map(|(s, _)| s.kind)
    }

    /// Marks the layers out of date after an edit.
    fn edited(&mut self) {
        self.version += 1;
        self.calc.stale = true;
    }

    /// Builds a scene from validated parts (an import).
    ///
    /// # Errors
    /// 422 naming the source or table at fault.
    pub fn from_parts(
        grid: Grid,
        map_name: String,
        sources: Vec<SourceSpec>,
        perspective: Option<String>,
        propagation: Option<PropagationSpec>,
        paths: Vec<PathSpec>,
    ) -> Result<Self, ApiError> {
        let mut scene = Self::new(grid, map_name);
        if let Some(spec) = propagation {
            let p = spec::propagation(&spec, &scene.grid)?;
            scene.steps = p.steps() as u64;
            scene.propagation = Some((spec, p));
        }
        for (i, spec) in sources.into_iter().enumerate() {
            scene.add_source(spec).map_err(|e| ApiError::invalid(format!("source[{i}]: {}", e.message)))?;
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
        self.calc = Calc::new(&self.grid);
        self.version += 1;
    }

    /// Loads a new map: the sources and perspective go; a diffusion or steady state stays, a
    /// flood fill (whose last-seen cell belonged to the old map) goes.
    ///
    /// # Errors
    /// 404 for an unknown bundled map, 422 for a bad or oversized map.
    pub fn load_map(&mut self, request: &MapRequest) -> Result<(), ApiError> {
        let (spec, text, name) = request.resolve()?;
        let grid = spec::map_grid(&spec, text)?;
        let propagation = self.propagation.take().filter(|(s, _)| s.kind != Kind::Flood);
        let version = self.version;
        *self = Self::new(grid, name);
        self.version = version + 1;
        if let Some((spec, _)) = propagation {
            self.set_propagation(Some(spec))?;
        }
        Ok(())
    }

    /// Blocks or opens cells; a flood's last-seen cell stays open.
    ///
    /// # Errors
    /// 422 for a cell off the map (nothing changes then).
    pub fn edit_walls(&mut self, edit: &WallEdit) -> Result<(), ApiError> {
        let (w, h) = (self.grid.width(), self.grid.height());
        if let Some([x, y]) = edit.cells.iter().find(|[x, y]| *x as usize >= w || *y as usize >= h) {
            return Err(ApiError::invalid(format!("cell ({x}, {y}) is outside the {w}×{h} map")));
        }
        // Cells that must stay open: the flood's last-seen cell and the routes' ends.
        let mut keep: Vec<usize> = self.paths.iter().flat_map(|(_, p)| [p.from, p.to]).collect();
        if let Some(Method::Flood { last_seen, .. }) = self.propagation.as_ref().map(|(_, p)| p.method) {
            keep.push(last_seen);
        }
        let mut changed = false;
        for &[x, y] in &edit.cells {
            let (x, y) = (x as usize, y as usize);
            if !keep.contains(&(y * w + x)) && self.grid.is_blocked(x, y) != edit.blocked {
                // In range (checked above), so this cannot fail.
                changed |= self.grid.set_blocked(x, y, edit.blocked).is_ok();
            }
        }
        if changed {
            self.edited();
        }
        Ok(())
    }

    /// Validates a source against the scene (its team, the caps, the propagation's modes).
    fn placed(&self, spec: SourceSpec, id: u32, replacing: Option<u32>) -> Result<Placed, ApiError> {
        let source = spec::source(&spec, self.grid.cell_size(), self.kind())?;
        let others = self.sources.iter().filter(|p| Some(p.id) != replacing);
        let mut teams: Vec<&str> = others.map(|p| p.spec.team.as_str()).collect();
        teams.sort_unstable();
        teams.dedup();
        if !teams.contains(&spec.team.as_str()) && teams.len() >= limits::MAX_TEAMS {
            return Err(ApiError::invalid(format!("at most {} teams", limits::MAX_TEAMS)));
        }
        Ok(Placed { id, spec, source })
    }

    /// Adds a source at the end; returns its id.
    ///
    /// # Errors
    /// 422 for a bad source or one over the caps.
    pub fn add_source(&mut self, spec: SourceSpec) -> Result<u32, ApiError> {
        if self.sources.len() >= limits::MAX_SOURCES {
            return Err(ApiError::invalid(format!("at most {} sources", limits::MAX_SOURCES)));
        }
        let placed = self.placed(spec, self.next_id, None)?;
        self.next_id += 1;
        self.sources.push(placed);
        self.edited();
        Ok(self.next_id - 1)
    }

    /// Replaces source `id`'s table, keeping its place in the order.
    ///
    /// # Errors
    /// 404 for no such source, 422 for a bad table.
    pub fn replace_source(&mut self, id: u32, spec: SourceSpec) -> Result<(), ApiError> {
        let i = self.index_of(id)?;
        self.sources[i] = self.placed(spec, id, Some(id))?;
        self.edited();
        Ok(())
    }

    /// Removes source `id`.
    ///
    /// # Errors
    /// 404 for no such source.
    pub fn delete_source(&mut self, id: u32) -> Result<(), ApiError> {
        let i = self.index_of(id)?;
        self.sources.remove(i);
        self.edited();
        Ok(())
    }

    fn index_of(&self, id: u32) -> Result<usize, ApiError> {
        self.sources
            .iter()
            .position(|p| p.id == id)
            .ok_or_else(|| ApiError::not_found(format!("no source {id}")))
    }

    /// Sets the perspective team (`None`: the first team).
    ///
    /// # Errors
    /// 422 for a team without sources.
    pub fn set_perspective(&mut self, team: Option<String>) -> Result<(), ApiError> {
        if let Some(t) = &team {
            if !self.sources.iter().any(|p| &p.spec.team == t) {
                return Err(ApiError::invalid(format!("no source has team {t:?}")));
            }
        }
        self.perspective = team;
        self.version += 1;
        self.calc.analysis_stale = true;
        Ok(())
    }

    /// Sets or clears the propagation. A table without its step count (`steps`, `max_steps`)
    /// keeps the current count if the kind stays, else starts at 1.
    ///
    /// # Errors
    /// 422 for a bad table, or a source whose mode the new kind refuses.
    pub fn set_propagation(&mut self, spec: Option<PropagationSpec>) -> Result<(), ApiError> {
        let Some(mut spec) = spec else {
            self.propagation = None;
            return self.revalidate_sources();
        };
        let keep = if self.kind() == Some(spec.kind) { self.steps } else { 1 };
        match spec.kind {
            Kind::Diffuse => spec.steps = spec.steps.or(Some(keep)),
            Kind::Flood => spec.max_steps = spec.max_steps.or(Some(keep)),
            Kind::Steady => {}
        }
        let p = spec::propagation(&spec, &self.grid)?;
        let previous = self.propagation.replace((spec, p));
        if let Err(e) = self.revalidate_sources() {
            self.propagation = previous;
            return Err(e);
        }
        self.steps = p.steps() as u64;
        Ok(())
    }

    /// Rebuilds every source under the current propagation (modes default by its kind).
    fn revalidate_sources(&mut self) -> Result<(), ApiError> {
        let kind = self.kind();
        let mut rebuilt = Vec::with_capacity(self.sources.len());
        for placed in &self.sources {
            let source = spec::source(&placed.spec, self.grid.cell_size(), kind)
                .map_err(|e| ApiError::invalid(format!("source {}: {e}", placed.id)))?;
            rebuilt.push(source);
        }
        for (placed, source) in self.sources.iter_mut().zip(rebuilt) {
            placed.source = source;
        }
        self.edited();
        Ok(())
    }

    /// Replaces the routes (`[[path]]` tables).
    ///
    /// # Errors
    /// 422 for more than [`limits::MAX_PATHS`] or a bad table (nothing changes then).
    pub fn set_paths(&mut self, specs: Vec<PathSpec>) -> Result<(), ApiError> {
        if specs.len() > limits::MAX_PATHS {
            return Err(ApiError::invalid(format!("at most {} paths", limits::MAX_PATHS)));
        }
        let teams = self.team_names();
        let heat = self.kind() == Some(Kind::Flood);
        let mut paths = Vec::with_capacity(specs.len());
        for (i, table) in specs.into_iter().enumerate() {
            let plan = spec::path(&table, i, &self.grid, &teams, heat)?;
            paths.push((table, plan));
        }
        self.paths = paths;
        self.version += 1;
        self.calc.analysis_stale = true;
        Ok(())
    }

    /// Adds `n` steps to a diffusion or flood (nothing for other kinds).
    pub fn advance(&mut self, n: u64) {
        match self.kind() {
            Some(Kind::Diffuse | Kind::Flood) if n > 0 => {
                self.steps = (self.steps + n).min(limits::MAX_STEPS);
                self.calc.flood_stale = true;
            }
            _ => {}
        }
    }

    /// Back to one step from rest.
    pub fn reset(&mut self) {
        self.steps = 1;
        self.edited();
    }

    /// Brings the layers up to date, spending at most [`STEP_BUDGET`] on a diffusion replay.
    pub fn refresh(&mut self) {
        if self.calc.stale {
            self.rebuild();
        }
        let flood = self.propagation.as_ref().and_then(|(_, p)| match p.method {
            Method::Flood { last_seen, velocity, chase } => Some((last_seen, velocity, chase)),
            _ => None,
        });
        if let (Some((last_seen, velocity, chase)), true) = (flood, self.calc.flood_stale) {
            let steps = usize::try_from(self.steps).unwrap_or(usize::MAX);
            let run = spread::flood(&self.calc.walk, last_seen, velocity, &chase.with_max_steps(steps));
            match run {
                Ok(chased) => (self.calc.heat, self.calc.prediction) = (chased.heat, Some(chased.prediction)),
                Err(e) => self.calc.error = Some(e.to_string()),
            }
            self.calc.analysis_stale = true; // a route may avoid the heat
            self.calc.done = self.steps;
        }
        self.calc.flood_stale = false;
        self.catch_up();
        if self.calc.analysis_stale {
            self.analyse();
        }
    }

    /// Recomputes the team layers from scratch (a diffusion from rest).
    fn rebuild(&mut self) {
        let calc = &mut self.calc;
        if calc.analysis.mine.len() != self.grid.len() {
            *calc = Calc::new(&self.grid);
        }
        calc.teams = team_order(&self.sources).into_iter().map(str::to_owned).collect();
        calc.layers.clear();
        calc.diffusing = None;
        calc.error = None;
        calc.done = 0;
        calc.converged = false;
        calc.heat.fill(0.0);
        calc.prediction = None;
        let prop = self.propagation.as_ref().map(|(_, p)| *p);
        calc.walk = match prop {
            Some(p) => p.grid(&self.grid),
            None => self.grid.clone(),
        };
        let teams = calc.teams.len();
        let team_of = |name: &str| calc.teams.iter().position(|t| t == name).unwrap_or(0);
        let sources: Vec<(usize, &Source)> =
            self.sources.iter().map(|p| (team_of(&p.spec.team), &p.source)).collect();
        let zero = || vec![Layer::for_space(&self.grid); teams];
        match prop.map(|p| p.method) {
            Some(Method::Diffuse { diffusion, .. }) if teams > 0 => {
                let seeds = spread::team_seeds(&self.grid, teams, sources);
                match Diffusing::new(calc.walk.clone(), diffusion, seeds) {
                    Ok(d) => calc.diffusing = Some(d),
                    Err(e) => (calc.layers, calc.error) = (zero(), Some(e.to_string())),
                }
            }
            Some(Method::Steady { diffusion }) => {
                let seeds = spread::team_seeds(&self.grid, teams, sources);
                match spread::steady(&calc.walk, &diffusion, &seeds) {
                    Ok(layers) => calc.layers = layers,
                    Err(e) => (calc.layers, calc.error) = (zero(), Some(e.to_string())),
                }
            }
            _ => calc.layers = spread::stamped(&self.grid, teams, sources),
        }
        calc.stale = false;
        calc.flood_stale = true;
        calc.analysis_stale = true;
    }

    /// Replays diffusion steps towards the step count, within the budget.
    fn catch_up(&mut self) {
        let calc = &mut self.calc;
        let Some(diffusing) = &mut calc.diffusing else { return };
        if calc.done >= self.steps {
            return;
        }
        if calc.converged {
            calc.done = self.steps;
            return;
        }
        let per_step = self.grid.len() * diffusing.teams();
        let mut allowed = (STEP_BUDGET / per_step.max(1)).max(1);
        while calc.done < self.steps && allowed > 0 {
            let changed = diffusing.step_changed();
            calc.done += 1;
            allowed -= 1;
            if !changed {
                // A fixed point: every further step leaves the map as it is.
                calc.converged = true;
                calc.done = self.steps;
            }
        }
        calc.analysis_stale = true;
    }

    /// The compound maps for the perspective team, and the front line.
    fn analyse(&mut self) {
        let perspective = self.perspective().map(str::to_owned);
        let calc = &mut self.calc;
        let me = calc.teams.iter().position(|t| Some(t) == perspective.as_ref()).unwrap_or(0);
        let Calc { teams, layers, diffusing, analysis, .. } = calc;
        let teams: Vec<&Layer> =
            (0..teams.len()).map(|t| team_layer(layers, diffusing.as_ref(), t)).collect();
        if teams.is_empty() {
            *analysis = Analysis::new(self.grid.len());
        } else {
            analysis.update(&teams, me);
        }
        query::frontline_into(&self.grid, &calc.analysis.influence, &mut calc.front);
        for (v, &f) in calc.front_layer.values_mut().iter_mut().zip(&calc.front) {
            *v = f32::from(u8::from(f));
        }
        calc.analysis_stale = false;
        let mut router = std::mem::take(&mut self.calc.router);
        let routes = self
            .paths
            .iter()
            // A layer gone with its team's last source leaves the route unreachable.
            .map(|(_, plan)| route::find(&mut router, &self.grid, plan, self.layer(&plan.layer_name)?))
            .collect();
        self.calc.router = router;
        self.calc.routes = routes;
    }

    /// Each route's cells (empty where the goal cannot be reached).
    pub fn route_cells(&self) -> Vec<&[usize]> {
        self.calc.routes.iter().map(|r| r.as_ref().map_or(&[][..], |r| r.cells.as_slice())).collect()
    }

    /// The `[[path]]` tables.
    pub fn path_specs(&self) -> impl Iterator<Item = &PathSpec> {
        self.paths.iter().map(|(s, _)| s)
    }

    /// The teams, in order of first appearance among the sources.
    fn team_names(&self) -> Vec<String> {
        team_order(&self.sources).into_iter().map(str::to_owned).collect()
    }

    /// The names of the layers, in the page's order: teams, compound maps, front line, heat.
    pub fn layer_names(&self) -> Vec<String> {
        let heat = self.kind() == Some(Kind::Flood);
        layers::names(&self.team_names(), heat).map(str::to_owned).collect()
    }

    /// The layer called `name` (call [`refresh`](Self::refresh) first).
    pub fn layer(&self, name: &str) -> Option<&Layer> {
        let calc = &self.calc;
        if let Some(t) = calc.teams.iter().position(|t| t == name) {
            return Some(calc.team(t));
        }
        match name {
            "frontline" => Some(&calc.front_layer),
            "heat" if self.kind() == Some(Kind::Flood) => Some(&calc.heat),
            _ => calc.analysis.by_name(name),
        }
    }

    /// The front line of `influence` (call [`refresh`](Self::refresh) first).
    pub fn front(&self) -> &[bool] {
        &self.calc.front
    }

    /// The step counts.
    pub fn steps(&self) -> Steps {
        let done = if self.calc.diffusing.is_some() { self.calc.done } else { self.steps };
        Steps { target: self.steps, done: done.min(self.steps) }
    }

    /// The edit counter.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The flood's predicted and last-seen cells.
    pub fn flood_cells(&self) -> (Option<usize>, Option<usize>) {
        let last_seen = self.propagation.as_ref().and_then(|(_, p)| match p.method {
            Method::Flood { last_seen, .. } => Some(last_seen),
            _ => None,
        });
        (self.calc.prediction.map(|p| p.cell), last_seen)
    }

    /// `GET /api/scene` (call [`refresh`](Self::refresh) first).
    pub fn view(&self) -> SceneView<'_> {
        let g = &self.grid;
        SceneView {
            version: self.version,
            map: MapView { name: self.map_name.clone(), geometry: MapReport::of(g) },
            sources: self.sources.iter().map(|p| SourceView { id: p.id, spec: &p.spec }).collect(),
            teams: team_order(&self.sources),
            perspective: self.perspective(),
            propagation: self.propagation_spec(),
            steps: self.steps(),
            layers: self.layer_names(),
            paths: self
                .paths
                .iter()
                .zip(self.calc.routes.iter().map(Some).chain(std::iter::repeat(None)))
                .map(|((spec, plan), route)| {
                    let route = route.and_then(Option::as_ref);
                    PathView {
                        spec,
                        note: self.layer(&plan.layer_name).is_none().then(|| {
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
            prediction: self.calc.prediction.as_ref().map(|p| PredictionReport::new(g, p, None)),
            error: self.calc.error.clone(),
        }
    }

    /// `GET /api/cell` (call [`refresh`](Self::refresh) first).
    ///
    /// # Errors
    /// 422 for a cell off the map.
    pub fn cell(&self, x: usize, y: usize) -> Result<CellView, ApiError> {
        let g = &self.grid;
        let i = g.index(x, y).ok_or_else(|| {
            ApiError::invalid(format!("cell ({x}, {y}) is outside the {}×{} map", g.width(), g.height()))
        })?;
        let layers = self.layer_names();
        let values = layers.iter().map(|n| self.layer(n).map_or(f32::NAN, |l| l[i])).collect();
        Ok(CellView {
            cell: [x, y],
            world: g.cell_center(x, y).to_array(),
            walkable: g.is_walkable(i),
            layers,
            values,
        })
    }
}

/// Team names in order of first appearance among the sources.
fn team_order(sources: &[Placed]) -> Vec<&str> {
    let mut teams: Vec<&str> = Vec::new();
    for p in sources {
        if !teams.contains(&p.spec.team.as_str()) {
            teams.push(&p.spec.team);
        }
    }
    teams
}
