//! The one evaluation engine: a checked [`Scenario`] run over time. The command's `render`
//! and `animate`, the sandbox's scene and the fuzz targets all drive a [`Run`]; nothing else
//! stamps a scenario's sources or steps a propagation.
//!
//! A run starts at step 0: each team's sources stamped, or written as seeds into a map at
//! rest under `[propagation]` diffuse or steady. [`Run::step_to`] moves time on (diffusion
//! steps, flood steps), [`Run::finish`] goes to the state `influence render` writes (the
//! table's `steps`, the solved steady state, the flood's `max_steps`), and [`Run::view`]
//! brings the compound maps, front line and routes up to date and reads them.
//!
//! Edits (sources, walls, perspective, propagation, routes) recompute only what they
//! invalidate: editing one team's source restarts that team's layer alone, a new perspective
//! only the compound maps and routes, new routes only the routes.
//!
//! ```
//! use influence_scenario::{engine::Run, map::MapFiles, scenario};
//! let text = "[map]\nwidth = 16\nheight = 4\n\n[propagation]\nkind = \"diffuse\"\ndecay = 0.1\n\
//!             steps = 12\n\n[[source]]\nteam = \"red\"\nat = [1, 1]\nstrength = 5\n\
//!             falloff = \"point\"\n";
//! let s = scenario::parse("s.toml", text, &MapFiles::Embedded(&[]))?;
//! let mut run = Run::new(s)?;
//! run.finish(&mut |_| {})?;
//! assert_eq!(run.steps_done(), 12);
//! let view = run.view();
//! assert!(view.team(0)[3] > 0.0, "12 steps carried influence 3 cells along the row");
//! # Ok::<(), influence_scenario::Located>(())
//! ```

mod summary;
mod team;

use std::borrow::Cow;

use influence::propagate::{Chase, FloodFill, Prediction, SteadyState};
use influence::route::{Route, Router};
use influence::{query, Analysis, Cell, Grid, Layer, Source, Space, Stamper};

pub use summary::{PathInfo, PropagationInfo, Spot, Summary, TeamInfo};

use crate::error::{Located, Problem};
use crate::key::KeyPath;
use crate::layers::{layer_named, Compound, LayerName};
use crate::propagation::{Kind, Method, Propagation};
use crate::route::{self, PathPlan};
use crate::scenario::Scenario;
use team::Team;

/// How far a run has come, for a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Steps done.
    pub done: usize,
    /// Steps asked for.
    pub total: usize,
}

/// The chase flood fill of a run: its heat and guess after `limit` steps.
#[derive(Debug)]
struct Flood {
    fill: FloodFill,
    heat: Layer,
    prediction: Option<Prediction>,
    limit: usize,
}

/// What must be computed again before the next [`Run::view`].
#[derive(Debug, Clone, Copy)]
struct Stale {
    flood: bool,
    fields: bool,
    analysis: bool,
    routes: bool,
}

impl Stale {
    const ALL: Self = Self { flood: true, fields: true, analysis: true, routes: true };
}

/// A scenario being run: its team layers over time, and what is derived from them.
#[derive(Debug)]
pub struct Run {
    scenario: Scenario,
    /// The perspective team asked for by name; the first team when `None` or gone.
    perspective: Option<String>,
    /// The map the propagation walks: the scenario's, with the propagation's `neighbours`.
    walk: Grid,
    stamper: Stamper,
    solver: SteadyState,
    /// A steady state is shown solved (after [`Run::finish`]) rather than stepped.
    solved: bool,
    /// Per team, in the scenario's team order.
    teams: Vec<Team>,
    /// The `[field]` sampled on the map: one layer per entry of `scenario.fields.teams`
    /// (which names its team, and follows the teams through edits).
    fields: Vec<Layer>,
    /// Per team with a field: its layer with the field added (kept between derivations).
    shown: Vec<Option<Layer>>,
    flood: Option<Flood>,
    /// Steps asked for by the last [`Run::step_to`] or [`Run::finish`].
    target: usize,
    analysis: Analysis,
    front: Vec<bool>,
    front_layer: Layer,
    /// Per `[[path]]`: the layer it avoids, while that layer exists.
    path_layers: Vec<Option<LayerName>>,
    routes: Vec<Option<Route>>,
    router: Router,
    stale: Stale,
    /// Why the flood fill could not run (its heat is zero meanwhile).
    flood_error: Option<Located>,
    /// The first layer holding a value that is not finite, as an error: nothing is
    /// written while it stands.
    overflow: Option<Located>,
}

impl Run {
    /// The scenario at step 0: each team's sources stamped, or their seeds written into a map
    /// at rest under a diffusion or steady state.
    ///
    /// # Errors
    /// [`Located`] at `[propagation]` if the library refuses a seed.
    pub fn new(scenario: Scenario) -> Result<Self, Located> {
        let grid = &scenario.grid;
        let walk = walk_grid(grid, scenario.propagation.as_ref());
        let perspective = scenario.teams.get(scenario.perspective).cloned();
        let mut run = Self {
            perspective,
            walk,
            stamper: Stamper::new(),
            solver: SteadyState::default(),
            solved: false,
            teams: Vec::new(),
            fields: Vec::new(),
            shown: Vec::new(),
            flood: None,
            target: 0,
            analysis: Analysis::new(grid.len()),
            front: vec![false; grid.len()],
            front_layer: Layer::for_space(grid),
            path_layers: Vec::new(),
            routes: Vec::new(),
            router: Router::new(),
            stale: Stale::ALL,
            flood_error: None,
            overflow: None,
            scenario,
        };
        run.sample_fields();
        run.rebuild_all();
        match run.teams.iter().find_map(Team::error) {
            Some(e) => Err(e.clone()),
            None => Ok(run),
        }
    }

    /// The scenario as it stands (with every edit applied).
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The propagation's kind, if any.
    fn kind(&self) -> Option<Kind> {
        self.scenario.propagation.as_ref().map(Propagation::kind)
    }

    /// Steps done: the least of every diffusing team's, the flood's limit, or the steps
    /// last asked for when nothing steps.
    pub fn steps_done(&self) -> usize {
        if let Some(f) = &self.flood {
            return f.limit;
        }
        self.teams
            .iter()
            .filter_map(Team::as_diffusing)
            .map(team::Diffusing::done)
            .min()
            .unwrap_or(self.target)
    }

    /// The step at which every team's diffusion stopped changing, once all have.
    pub fn fixed_at(&self) -> Option<usize> {
        let mut last = None;
        for team in &self.teams {
            let at = team.as_diffusing()?.fixed_at()?;
            last = Some(last.map_or(at, |l: usize| l.max(at)));
        }
        last
    }

    /// Moves time on towards step `target` (from where each team is; never back), each
    /// diffusing team taking at most `allowed` steps in this call. Diffusion takes steps (in
    /// fused passes, with the same bits as single ones) and stops early once a step changes
    /// nothing; a flood fill is run to `target` steps. `exact` checks every diffusion step
    /// for a fixed point, so that [`fixed_at`](Self::fixed_at) names the very step.
    pub fn step_to(&mut self, target: usize, allowed: usize, exact: bool) {
        self.target = target;
        if let Some(f) = &mut self.flood {
            if f.limit != target {
                f.limit = target;
                self.stale.flood = true;
                self.stale.routes = true;
            }
            return;
        }
        let exact = exact || self.kind() == Some(Kind::Steady);
        let mut moved = false;
        for team in &mut self.teams {
            if let Some(d) = team.diffusing_mut() {
                moved |= d.advance(&self.walk, target, allowed, exact) > 0;
            }
        }
        if moved {
            self.layers_changed();
        }
    }

    /// Runs to the state `influence render` writes: a diffusion to its `steps` (reporting
    /// progress after each pass), a steady state solved, a flood fill to its `max_steps`.
    ///
    /// # Errors
    /// [`Located`] at `[propagation]` if the library refuses the steady state's seeds.
    pub fn finish(&mut self, progress: &mut dyn FnMut(Progress)) -> Result<(), Located> {
        if let Some(p) = self.scenario.propagation {
            self.propagate(p, progress);
        }
        match self.view().error() {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// The propagation part of [`finish`](Self::finish).
    fn propagate(&mut self, p: Propagation, progress: &mut dyn FnMut(Progress)) {
        match p.method {
            Method::Diffuse { steps, .. } => {
                // Passes of a few million cell-steps, so the progress moves.
                let per_step = self.walk.len().max(1) * self.teams.len().max(1);
                let pass = (1 << 23) / per_step;
                while self.steps_done() < steps {
                    let before = self.steps_done();
                    self.step_to(steps, pass.max(1), false);
                    progress(Progress { done: self.steps_done(), total: steps });
                    if self.steps_done() == before {
                        break;
                    }
                }
            }
            Method::Steady { .. } => {
                self.solved = true;
                let mut solved_any = false;
                for team in &mut self.teams {
                    solved_any |= team.as_diffusing().is_some();
                    if let Err(e) = team.solve(&self.walk, &mut self.solver) {
                        let zero = Layer::for_space(&self.scenario.grid);
                        *team = Team::Failed(zero, self.scenario.propagation_failed(&e));
                    }
                }
                if solved_any {
                    self.layers_changed();
                }
            }
            Method::Flood { chase, .. } => {
                self.step_to(chase.max_steps, usize::MAX, false);
                self.run_flood();
                self.stale.flood = false;
            }
        }
    }

    /// Brings the field sums, compound maps, front line, flood fill and routes up to date,
    /// and reads them.
    pub fn view(&mut self) -> View<'_> {
        self.derive();
        View { run: self }
    }

    // --- edits ------------------------------------------------------------------------------

    /// Replaces every source (each with its team's name): the teams are those of the sources
    /// in order of first appearance (then those of `[field]`). Teams named in `changed`
    /// start again from rest; the others keep their layers.
    fn set_sources(&mut self, sources: Vec<(String, Source)>, changed: &[&str]) {
        let old_names = std::mem::take(&mut self.scenario.teams);
        let mut names: Vec<String> = Vec::new();
        let mut indexed = Vec::with_capacity(sources.len());
        for (name, source) in sources {
            let t = crate::layers::team_index(&mut names, &name);
            indexed.push((t, source));
        }
        for f in &self.scenario.fields.teams {
            crate::layers::team_index(&mut names, &old_names[f.team]);
        }
        let new_of = |old: usize| names.iter().position(|n| *n == old_names[old]);
        for f in &mut self.scenario.fields.teams {
            f.team = new_of(f.team).unwrap_or(f.team);
        }
        for (team, _) in &mut self.scenario.fields.positions {
            *team = new_of(*team).unwrap_or(*team);
        }
        let mut old_teams: Vec<Option<Team>> =
            std::mem::take(&mut self.teams).into_iter().map(Some).collect();
        self.scenario.sources = indexed;
        self.scenario.teams = names;
        self.scenario.perspective = self.perspective_index();
        for (t, name) in self.scenario.teams.clone().iter().enumerate() {
            let kept = old_names
                .iter()
                .position(|n| n == name)
                .filter(|_| !changed.contains(&name.as_str()))
                .and_then(|old| old_teams.get_mut(old).and_then(Option::take));
            let team = match kept {
                Some(team) => team,
                None => self.build_team(t),
            };
            self.teams.push(team);
        }
        self.stale.fields = true;
        self.resolve_paths();
        self.layers_changed();
    }

    /// Adds a source of team `team` at the end.
    pub fn add_source(&mut self, team: &str, source: Source) {
        let mut sources = self.named_sources();
        sources.push((team.to_owned(), source));
        self.set_sources(sources, &[team]);
    }

    /// Replaces source `index` (in order) by a source of team `team`.
    ///
    /// # Panics
    /// If there is no source `index`.
    pub fn replace_source(&mut self, index: usize, team: &str, source: Source) {
        let mut sources = self.named_sources();
        let old = std::mem::replace(&mut sources[index], (team.to_owned(), source)).0;
        self.set_sources(sources, &[team, &old]);
    }

    /// Removes source `index` (in order).
    ///
    /// # Panics
    /// If there is no source `index`.
    pub fn remove_source(&mut self, index: usize) {
        let mut sources = self.named_sources();
        let (old, _) = sources.remove(index);
        self.set_sources(sources, &[&old]);
    }

    /// Each source with its team's name, in order.
    fn named_sources(&self) -> Vec<(String, Source)> {
        let s = &self.scenario;
        s.sources.iter().map(|(t, source)| (s.teams[*t].clone(), source.clone())).collect()
    }

    /// Opens or blocks `cells` (`(x, y)`); returns whether any changed. A change restarts
    /// every team (path distances and diffusion walk the walls) and the flood fill. Cells
    /// that must stay open are never blocked: those a source stands on, the routes' ends and
    /// the flood fill's last-seen cell.
    ///
    /// # Errors
    /// If a cell is off the map; nothing changes then.
    pub fn set_walls(&mut self, cells: &[(usize, usize)], blocked: bool) -> Result<bool, influence::Error> {
        let grid = &self.scenario.grid;
        if let Some(&(x, y)) = cells.iter().find(|&&(x, y)| grid.index(Cell::new(x, y)).is_none()) {
            return Err(influence::Error::OutOfBounds {
                index: y.saturating_mul(grid.width()).saturating_add(x),
                len: grid.len(),
            });
        }
        let s = &self.scenario;
        let mut open: Vec<Cell> =
            s.sources.iter().filter_map(|(_, src)| grid.cell_at(src.position())).collect();
        open.extend(s.paths.iter().flat_map(|p| [p.from, p.to]).map(|i| grid.cell(i)));
        if let Some(Method::Flood { last_seen, .. }) = s.propagation.map(|p| p.method) {
            open.push(grid.cell(last_seen));
        }
        // Sorted, so that a long stroke of walls looks each cell up in O(log n).
        open.sort_unstable();
        let mut changed = false;
        for &(x, y) in cells {
            if blocked && open.binary_search(&Cell::new(x, y)).is_ok() {
                continue;
            }
            if self.scenario.grid.is_blocked(Cell::new(x, y)) != blocked {
                changed |= self.scenario.grid.set_blocked(Cell::new(x, y), blocked).is_ok();
            }
        }
        if changed {
            self.walk = walk_grid(&self.scenario.grid, self.scenario.propagation.as_ref());
            self.sample_fields();
            self.rebuild_all();
        }
        Ok(changed)
    }

    /// Takes team `team`'s point of view (`None`: the first team's). A team without sources
    /// is kept by name and taken once it has some; meanwhile the first team's is shown.
    pub fn set_perspective(&mut self, team: Option<String>) {
        self.perspective = team;
        self.scenario.perspective = self.perspective_index();
        self.stale.analysis = true;
        self.stale.routes = true;
    }

    /// The perspective's team index: the one asked for if it has sources, else the first.
    fn perspective_index(&self) -> usize {
        let teams = &self.scenario.teams;
        self.perspective.as_ref().and_then(|p| teams.iter().position(|t| t == p)).unwrap_or(0)
    }

    /// Sets or clears the propagation, with every source checked again under it (the kind
    /// sets the sources' default mode); every team starts again from rest.
    pub fn set_propagation(&mut self, propagation: Option<Propagation>, sources: Vec<(String, Source)>) {
        self.scenario.propagation = propagation;
        self.walk = walk_grid(&self.scenario.grid, propagation.as_ref());
        self.solved = false;
        let names: Vec<String> = self.scenario.teams.clone();
        self.set_sources(sources, &names.iter().map(String::as_str).collect::<Vec<_>>());
        self.reset_flood();
    }

    /// Replaces the `[[path]]` routes.
    pub fn set_paths(&mut self, paths: Vec<PathPlan>) {
        self.scenario.paths = paths;
        self.resolve_paths();
        self.stale.routes = true;
    }

    /// Back to step 0: every team from rest, the flood fill not yet run.
    pub fn reset(&mut self) {
        self.solved = false;
        self.target = 0;
        self.rebuild_all();
    }

    // --- computing ----------------------------------------------------------------------------

    /// Team `t`'s layer at step 0 under the current propagation (solved for a steady state
    /// shown solved); an error is kept and the layer is zero.
    fn build_team(&mut self, t: usize) -> Team {
        let s = &self.scenario;
        let sources: Vec<&Source> =
            s.sources.iter().filter(|(team, _)| *team == t).map(|(_, src)| src).collect();
        let diffusion = match s.propagation.map(|p| p.method) {
            Some(Method::Diffuse { diffusion, .. } | Method::Steady { diffusion }) => diffusion,
            _ => {
                return Team::stamped(&s.grid, &mut self.stamper, &sources).unwrap_or_else(|e| {
                    let at = Located::new(&s.file, Problem::Run, e).with_key(KeyPath::root("source"));
                    Team::Failed(Layer::for_space(&s.grid), at)
                })
            }
        };
        let built = Team::diffusing(&s.grid, &self.walk, &mut self.stamper, &sources, diffusion).and_then(
            |mut team| {
                if self.solved {
                    team.solve(&self.walk, &mut self.solver)?;
                }
                Ok(team)
            },
        );
        match built {
            Ok(team) => team,
            Err(e) => {
                Team::Failed(Layer::for_space(&self.scenario.grid), self.scenario.propagation_failed(&e))
            }
        }
    }

    /// Every team from step 0, the flood fill from scratch.
    fn rebuild_all(&mut self) {
        self.teams = (0..self.scenario.teams.len()).map(|t| self.build_team(t)).collect();
        self.reset_flood();
    }

    /// The flood fill (under `kind = "flood"`) from scratch, at the current step limit.
    fn reset_flood(&mut self) {
        self.flood_error = None;
        self.flood = match self.scenario.propagation.map(|p| p.method) {
            Some(Method::Flood { .. }) => Some(Flood {
                fill: FloodFill::default(),
                heat: Layer::for_space(&self.walk),
                prediction: None,
                limit: self.target,
            }),
            _ => None,
        };
        self.resolve_paths();
        self.stale = Stale::ALL;
    }

    /// The team layers changed: everything derived from them is out of date.
    fn layers_changed(&mut self) {
        self.stale.fields = true;
        self.stale.analysis = true;
        self.stale.routes = true;
    }

    /// Samples the `[field]` on the map.
    fn sample_fields(&mut self) {
        let s = &self.scenario;
        self.fields = s.fields.teams.iter().map(|f| f.field.sample(&s.grid)).collect();
        self.stale.fields = true;
    }

    /// Which layer each route avoids, by its name, among the layers there are now.
    fn resolve_paths(&mut self) {
        let s = &self.scenario;
        let flood = self.kind() == Some(Kind::Flood);
        self.path_layers = s.paths.iter().map(|p| layer_named(&s.teams, flood, &p.layer_name).ok()).collect();
    }

    /// Computes what is out of date.
    fn derive(&mut self) {
        if self.stale.flood {
            self.run_flood();
        }
        if self.stale.fields {
            let mut shown = std::mem::take(&mut self.shown);
            shown.resize_with(self.teams.len(), || None);
            let with_field: Vec<usize> = self.scenario.fields.teams.iter().map(|f| f.team).collect();
            for (t, slot) in shown.iter_mut().enumerate() {
                if !with_field.contains(&t) {
                    *slot = None;
                }
            }
            for (f, field) in self.scenario.fields.teams.iter().zip(&self.fields) {
                let layer = shown[f.team].get_or_insert_with(|| Layer::for_space(&self.scenario.grid));
                layer.values_mut().copy_from_slice(self.teams[f.team].layer().values());
                layer.zip_map(field, |a, b| a + b);
            }
            self.shown = shown;
        }
        if self.stale.analysis || self.stale.fields {
            let me = self.scenario.perspective;
            let team = |t| team_layer(&self.teams, &self.shown, t);
            let others: Vec<&Layer> = (0..self.teams.len()).filter(|&t| t != me).map(team).collect();
            if self.teams.is_empty() {
                self.analysis = Analysis::new(self.scenario.grid.len());
            } else {
                self.analysis.update(team(me), &others);
            }
            self.overflow = self.first_overflow();
            query::frontline_into(&self.scenario.grid, &self.analysis.influence, &mut self.front);
            for (v, &f) in self.front_layer.values_mut().iter_mut().zip(&self.front) {
                *v = f32::from(u8::from(f));
            }
            self.stale.routes = true;
        }
        if self.stale.routes {
            let mut router = std::mem::take(&mut self.router);
            let view = View { run: self };
            let routes = self
                .scenario
                .paths
                .iter()
                .zip(&self.path_layers)
                .map(|(plan, layer)| {
                    route::find(&mut router, &self.scenario.grid, plan, &view.layer((*layer)?))
                })
                .collect();
            self.routes = routes;
            self.router = router;
        }
        self.stale = Stale { flood: false, fields: false, analysis: false, routes: false };
    }

    /// The first team or compound layer with a value that is not finite (sums of large
    /// strengths overflow 32-bit floats), as an error naming the layer, the cell and the
    /// strongest source.
    fn first_overflow(&self) -> Option<Located> {
        let s = &self.scenario;
        // Checked after every change of the layers, so names are made only for a failure.
        let teams = (0..self.teams.len()).map(|t| (Ok(t), team_layer(&self.teams, &self.shown, t)));
        let compounds = Compound::ALL.into_iter().map(|c| (Err(c), c.of(&self.analysis)));
        let (which, layer) =
            teams.chain(compounds).find(|(_, l)| !l.values().iter().all(|v| v.is_finite()))?;
        let name = which.map_or_else(|c| crate::vocab::name_of(&c), |t| s.teams[t].clone());
        let i = layer.values().iter().position(|v| !v.is_finite())?;
        let cell = s.grid.cell(i);
        let strongest = s
            .sources
            .iter()
            .enumerate()
            .rev() // ties to the first
            .max_by(|a, b| a.1 .1.strength().abs().total_cmp(&b.1 .1.strength().abs()))
            .map_or_else(String::new, |(k, (_, src))| {
                format!(" (the strongest: source[{k}], {:e})", src.strength())
            });
        let message = format!(
            "layer {name:?} is {} at cell ({}, {}): the sources' values overflow 32-bit floats; use smaller strengths{strongest}",
            layer[i],
            cell.x,
            cell.y
        );
        Some(Located::new(&s.file, Problem::Value, message).with_key(KeyPath::root("source")))
    }

    /// Runs the flood fill to its step limit.
    fn run_flood(&mut self) {
        let Some(Method::Flood { last_seen, velocity, chase }) = self.scenario.propagation.map(|p| p.method)
        else {
            return;
        };
        let Some(f) = &mut self.flood else { return };
        match f.fill.predict(&self.walk, last_seen, velocity, &Chase { max_steps: f.limit, ..chase }) {
            Ok(prediction) => {
                f.heat.values_mut().copy_from_slice(f.fill.heat());
                f.prediction = Some(prediction);
            }
            Err(e) => self.flood_error = Some(self.scenario.propagation_failed(&e)),
        }
    }
}

/// The map a propagation walks: `grid` with the propagation's `neighbours`, if any.
fn walk_grid(grid: &Grid, propagation: Option<&Propagation>) -> Grid {
    match propagation {
        Some(p) => p.grid(grid),
        None => grid.clone(),
    }
}

/// Team `t`'s layer as shown: with its field added, if it has one.
fn team_layer<'a>(teams: &'a [Team], shown: &'a [Option<Layer>], t: usize) -> &'a Layer {
    match shown.get(t) {
        Some(Some(layer)) => layer,
        _ => teams[t].layer(),
    }
}

/// A run's layers and findings, up to date (from [`Run::view`]).
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    run: &'a Run,
}

impl<'a> View<'a> {
    /// The scenario as it stands.
    pub fn scenario(&self) -> &'a Scenario {
        &self.run.scenario
    }

    /// Team `t`'s layer (with its `[field]` added).
    ///
    /// # Panics
    /// If there is no team `t`.
    pub fn team(&self, t: usize) -> &'a Layer {
        team_layer(&self.run.teams, &self.run.shown, t)
    }

    /// Every team's layer, in team order.
    pub fn teams(&self) -> Vec<&'a Layer> {
        (0..self.run.teams.len()).map(|t| self.team(t)).collect()
    }

    /// The compound maps from the perspective team's point of view.
    pub fn analysis(&self) -> &'a Analysis {
        &self.run.analysis
    }

    /// The front line of `influence`: walkable cells where its sign changes.
    pub fn front(&self) -> &'a [bool] {
        &self.run.front
    }

    /// The flood fill's heat, under `kind = "flood"`.
    pub fn heat(&self) -> Option<&'a Layer> {
        self.run.flood.as_ref().map(|f| &f.heat)
    }

    /// The flood fill's guess, once it has run.
    pub fn prediction(&self) -> Option<&'a Prediction> {
        self.run.flood.as_ref().and_then(|f| f.prediction.as_ref())
    }

    /// Each `[[path]]`'s route; `None` where the goal cannot be reached or the layer it avoids
    /// is gone.
    pub fn routes(&self) -> &'a [Option<Route>] {
        &self.run.routes
    }

    /// Whether `[[path]]` `i` avoids a layer that exists now.
    pub fn path_has_layer(&self, i: usize) -> bool {
        self.run.path_layers.get(i).is_some_and(Option::is_some)
    }

    /// A problem met computing the layers: a team's layer the library refused (zero
    /// meanwhile; [`Problem::Run`]), or a layer that overflowed to a value that is not
    /// finite ([`Problem::Value`]), which no output may carry.
    pub fn error(&self) -> Option<&'a Located> {
        let run = self.run;
        run.teams.iter().find_map(Team::error).or(run.flood_error.as_ref()).or(run.overflow.as_ref())
    }

    /// Steps done (see [`Run::steps_done`]).
    pub fn steps_done(&self) -> usize {
        self.run.steps_done()
    }

    /// The layer `name` stands for.
    ///
    /// # Panics
    /// For a team that does not exist.
    pub fn layer(&self, name: LayerName) -> Cow<'a, Layer> {
        match name {
            LayerName::Team(t) => Cow::Borrowed(self.team(t)),
            LayerName::Analysis(a) => Cow::Borrowed(a.of(&self.run.analysis)),
            LayerName::Frontline => Cow::Borrowed(&self.run.front_layer),
            LayerName::Heat => match self.heat() {
                Some(heat) => Cow::Borrowed(heat),
                None => Cow::Owned(Layer::for_space(&self.run.scenario.grid)),
            },
        }
    }

    /// The layer called `name` now, if there is one.
    pub fn layer_named(&self, name: &str) -> Option<Cow<'a, Layer>> {
        let s = &self.run.scenario;
        let flood = self.run.kind() == Some(Kind::Flood);
        layer_named(&s.teams, flood, name).ok().map(|l| self.layer(l))
    }

    /// The compound maps from team `t`'s point of view.
    pub fn analysis_for(&self, t: usize) -> Analysis {
        let others: Vec<&Layer> =
            (0..self.run.teams.len()).filter(|&u| u != t).map(|u| self.team(u)).collect();
        Analysis::from_teams(self.team(t), &others)
    }

    /// What the run found, as `summary.json` holds it.
    pub fn summary(&self) -> Summary {
        Summary::new(self)
    }
}
