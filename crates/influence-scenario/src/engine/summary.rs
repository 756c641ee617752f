//! What a run found, for `summary.json` and the terminal: per team its total and peak
//! influence and its safest cell, the hottest tension, the length of the front, the
//! propagation's outcome and the routes.

use std::fmt;

use influence::query::{self, Extreme};
use influence::{Cell, Grid, Layer};
use serde::Serialize;

use super::View;
use crate::map::neighbours;
use crate::propagation::Method;
use crate::report::{MapReport, PredictionReport};

/// The contents of `summary.json`.
#[derive(Debug, Serialize)]
pub struct Summary {
    /// The scenario file.
    pub scenario: String,
    /// The map's size and geometry.
    pub map: MapReport,
    /// The team whose point of view the compound maps take.
    pub perspective: String,
    /// Per team, in order of first appearance.
    pub teams: Vec<TeamInfo>,
    /// The walkable cell of highest tension (mine + theirs); left out if nothing is walkable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hottest_tension: Option<Spot>,
    /// Length of the front line (where the perspective's influence changes sign), in world units.
    pub front_length: f32,
    /// The layers written, by name (each as `<name>.png` and `<name>.npy`).
    pub layers: Vec<String>,
    /// Remarks that are not errors, such as sources outside the map.
    pub notes: Vec<String>,
    /// What `[propagation]` did, when the scenario has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub propagation: Option<PropagationInfo>,
    /// One entry per `[[path]]`, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<PathInfo>,
}

/// A `[[path]]` and the route found for it.
#[derive(Debug, Serialize)]
pub struct PathInfo {
    /// Start cell `[x, y]`.
    pub from: [usize; 2],
    /// Goal cell `[x, y]`.
    pub to: [usize; 2],
    /// The layer avoided.
    pub layer: String,
    /// Cost per unit of the layer's positive value.
    pub weight: f32,
    /// Whether the goal can be reached at all.
    pub reachable: bool,
    /// Length in world units (diagonal steps √2 cells); left out if unreachable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<f64>,
    /// The layer's values summed over every cell of the route; left out if unreachable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exposure: Option<f64>,
    /// The cells visited, start to goal, as `[x, y]`; empty if unreachable.
    pub cells: Vec<[usize; 2]>,
}

/// What `[propagation]` did.
#[derive(Debug, Serialize)]
pub struct PropagationInfo {
    /// `"diffuse"`, `"steady"` or `"flood"`.
    pub kind: String,
    /// 4 or 8: the connectivity the propagation walked.
    pub neighbours: u8,
    /// Diffusion steps taken (diffuse), or flood steps; left out for the steady state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<usize>,
    /// The chase flood fill's guess (flood only), with its last-seen cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prediction: Option<PredictionReport>,
}

/// One team's figures.
#[derive(Debug, Serialize)]
pub struct TeamInfo {
    /// The team's name.
    pub name: String,
    /// How many `[[source]]` tables it has.
    pub sources: usize,
    /// How many `[[field.source]]` tables it has.
    pub field_sources: usize,
    /// Sum of its own layer over all cells.
    pub total: f64,
    /// The walkable cell where its own layer is highest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak: Option<Spot>,
    /// The safest walkable cell: where `influence` from this team's perspective (its own
    /// layer minus every other team's) is highest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub safest: Option<Spot>,
}

/// A cell, its centre in world units, and a layer's value there.
#[derive(Debug, Serialize)]
pub struct Spot {
    /// Cell coordinates `[x, y]`.
    pub cell: [usize; 2],
    /// World position of the cell's centre.
    pub world: [f32; 2],
    /// The value.
    pub value: f32,
}

impl Summary {
    /// Summarises a run.
    pub(super) fn new(view: &View<'_>) -> Self {
        let s = view.scenario();
        let grid = &s.grid;
        let teams = s
            .teams
            .iter()
            .enumerate()
            .map(|(t, name)| TeamInfo {
                name: name.clone(),
                sources: s.sources.iter().filter(|(team, _)| *team == t).count(),
                field_sources: s.fields.teams.iter().filter(|f| f.team == t).map(|f| f.sources).sum(),
                total: view.team(t).sum(),
                peak: highest(grid, view.team(t)),
                safest: highest(grid, &view.analysis_for(t).influence),
            })
            .collect();
        let analysis = view.analysis();
        Self {
            scenario: s.file.clone(),
            map: MapReport::of(grid),
            perspective: s.teams.get(s.perspective).cloned().unwrap_or_default(),
            teams,
            hottest_tension: highest(grid, &analysis.tension),
            front_length: query::frontline_length(grid, &analysis.influence),
            layers: s.layers.iter().map(|(name, _)| name.clone()).collect(),
            notes: s.notes.clone(),
            propagation: propagation(view),
            paths: s
                .paths
                .iter()
                .zip(view.routes())
                .map(|(plan, route)| PathInfo {
                    from: grid.cell(plan.from).into(),
                    to: grid.cell(plan.to).into(),
                    layer: plan.layer_name.clone(),
                    weight: plan.weight,
                    reachable: route.is_some(),
                    length: route.as_ref().map(|r| r.length),
                    exposure: route.as_ref().map(|r| r.exposure),
                    cells: route.iter().flat_map(|r| &r.cells).map(|&c| grid.cell(c).into()).collect(),
                })
                .collect(),
        }
    }
}

/// The propagation's kind, steps and guess.
fn propagation(view: &View<'_>) -> Option<PropagationInfo> {
    let s = view.scenario();
    let p = s.propagation.as_ref()?;
    let prediction = match (&p.method, view.prediction()) {
        (Method::Flood { last_seen, .. }, Some(prediction)) => {
            Some(PredictionReport::new(&s.grid, prediction, Some(*last_seen)))
        }
        _ => None,
    };
    let steps = match &p.method {
        Method::Diffuse { steps, .. } => Some(*steps),
        Method::Steady { .. } => None,
        Method::Flood { .. } => prediction.as_ref().map(|pr| pr.steps),
    };
    // The connectivity the propagation walked: its own `neighbours`, else the map's.
    let neighbours = neighbours(p.neighbours.unwrap_or_else(|| s.grid.connectivity()));
    Some(PropagationInfo { kind: p.kind().to_string(), neighbours, steps, prediction })
}

/// The walkable cell holding the largest value, ties to the lower index.
fn highest(grid: &Grid, layer: &Layer) -> Option<Spot> {
    query::extreme(grid, layer, Extreme::Highest).map(|(i, value)| {
        let Cell { x, y } = grid.cell(i);
        Spot { cell: [x, y], world: grid.center(Cell::new(x, y)).to_array(), value }
    })
}
impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ([x, y], [wx, wy]) = (self.cell, self.world);
        write!(f, "{:.3} at cell ({x}, {y}), world ({wx}, {wy})", self.value)
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = &self.map;
        writeln!(
            f,
            "{}: {}×{} cells of {} world units, {} walkable",
            self.scenario, m.width, m.height, m.cell_size, m.walkable
        )?;
        writeln!(f, "perspective: {}", self.perspective)?;
        let none = || "none (no walkable cell)".to_owned();
        for t in &self.teams {
            let field = if t.field_sources > 0 {
                format!(", {} field sources", t.field_sources)
            } else {
                String::new()
            };
            writeln!(f, "  {} ({} sources{field}): total {:.1}", t.name, t.sources, t.total)?;
            writeln!(f, "    peak:   {}", t.peak.as_ref().map_or_else(none, ToString::to_string))?;
            writeln!(f, "    safest: {}", t.safest.as_ref().map_or_else(none, ToString::to_string))?;
        }
        writeln!(
            f,
            "hottest tension: {}",
            self.hottest_tension.as_ref().map_or_else(none, ToString::to_string)
        )?;
        writeln!(f, "front length: {:.1} world units", self.front_length)?;
        if let Some(p) = &self.propagation {
            write!(f, "propagation: {}, {} neighbours", p.kind, p.neighbours)?;
            match (p.kind.as_str(), p.steps) {
                ("diffuse", Some(n)) => writeln!(f, ", {n} steps")?,
                _ => writeln!(f)?,
            }
            if let Some(pr) = &p.prediction {
                let ([lx, ly], [x, y], [wx, wy]) = (pr.last_seen.unwrap_or_default(), pr.cell, pr.world);
                writeln!(
                    f,
                    "  chase from cell ({lx}, {ly}): predicted cell ({x}, {y}), world ({wx}, {wy}), after {} \
                     steps (stopped: {}), {} warm cells",
                    pr.steps, pr.stop, pr.warm
                )?;
            }
        }
        for (i, p) in self.paths.iter().enumerate() {
            let ([fx, fy], [tx, ty]) = (p.from, p.to);
            match (p.length, p.exposure) {
                (Some(length), Some(exposure)) => writeln!(
                    f,
                    "path {i}: ({fx}, {fy}) to ({tx}, {ty}) avoiding {} ×{}: length {length:.1}, exposure {exposure:.1}, {} cells",
                    p.layer,
                    p.weight,
                    p.cells.len()
                )?,
                _ => writeln!(f, "path {i}: ({fx}, {fy}) to ({tx}, {ty}): unreachable")?,
            }
        }
        for note in &self.notes {
            writeln!(f, "note: {note}")?;
        }
        Ok(())
    }
}
