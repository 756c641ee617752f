//! What `influence render` computes for a scenario, written out again from
//! `docs/scenario.md` with the library alone (it shares no code with the sandbox): the oracle
//! the exported scenes are checked against.

use std::collections::BTreeMap;

use influence::glam::{Vec2, Vec3};
use influence::propagate::{
    seeds_from_sources, Chase, DecayKind, Diffusion, FloodFill, Propagator, SteadyState,
};
use influence::route::{Cost, Heuristic, Router};
use influence::{query, Analysis, Band, Connectivity, Falloff, Grid, Layer, Metric, Mode, Source, Stamper};
use toml::Value;

/// A scenario's layers by name, as `influence render` would write them.
pub struct Rendered {
    pub grid: Grid,
    pub layers: BTreeMap<String, Layer>,
    /// The flood fill's predicted cell.
    pub predicted: Option<usize>,
    /// Each `[[path]]`'s route cells (`None` where unreachable).
    pub routes: Vec<Option<Vec<usize>>>,
}

fn f(v: &Value) -> f32 {
    v.as_float().map(|x| x as f32).or_else(|| v.as_integer().map(|i| i as f32)).expect("a number")
}

fn pair(v: &Value) -> Vec2 {
    let a = v.as_array().expect("[x, y]");
    Vec2::new(f(&a[0]), f(&a[1]))
}

fn connectivity(v: Option<&Value>) -> Option<Connectivity> {
    v.map(|n| if n.as_integer() == Some(4) { Connectivity::Four } else { Connectivity::Eight })
}

fn falloff(t: &Value, cell_size: f32) -> (Falloff, Option<f32>) {
    let p = |k: &str| t.get(k).map(f);
    let fo = match t["falloff"].as_str().unwrap() {
        "linear" => Falloff::Linear,
        "exponential" => Falloff::Exponential { rate: p("rate").unwrap() },
        "halving" => Falloff::Halving { step: p("step").unwrap_or(cell_size) },
        "polynomial" => Falloff::Polynomial { power: p("power").unwrap() },
        "gaussian" => Falloff::Gaussian { sigma: p("sigma").unwrap() },
        "constant" => Falloff::Constant,
        "point" => Falloff::Point,
        "band" => Falloff::Band(if let Some(points) = t.get("points") {
            Band::new(points.as_array().unwrap().iter().map(|q| pair(q).into()).collect()).unwrap()
        } else if let Some(ring) = t.get("ring") {
            let r: Vec<f32> = ring.as_array().unwrap().iter().map(f).collect();
            Band::ring(r[0], r[1], r[2], r[3]).unwrap()
        } else {
            Band::areas(
                p("full").unwrap(),
                p("accuracy_end").unwrap(),
                p("accuracy").unwrap(),
                p("movement_end").unwrap(),
            )
            .unwrap()
        }),
        other => panic!("unknown falloff {other}"),
    };
    let extent = match &fo {
        Falloff::Band(b) => Some(b.extent()),
        Falloff::Point => Some(cell_size),
        _ => None,
    };
    (fo, extent)
}

/// Renders the scenario `text` (its map given as `rows`).
pub fn render(text: &str) -> Rendered {
    let doc: Value = toml::from_str(text).expect("the export parses as TOML");
    let map = &doc["map"];
    let rows: Vec<&str> = map["rows"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    let cell_size = map.get("cell_size").map_or(1.0, f);
    let grid = Grid::from_rows(&rows)
        .unwrap()
        .with_cell_size(cell_size)
        .unwrap()
        .with_origin(map.get("origin").map_or(Vec2::ZERO, pair))
        .unwrap()
        .with_connectivity(connectivity(map.get("neighbours")).unwrap_or(Connectivity::Eight));
    let prop = doc.get("propagation");
    let kind = prop.map(|p| p["kind"].as_str().unwrap());
    let empty = Vec::new();
    let mut teams: Vec<String> = Vec::new();
    let mut sources: Vec<(usize, Source)> = Vec::new();
    for t in doc.get("source").and_then(Value::as_array).unwrap_or(&empty) {
        let team = t["team"].as_str().unwrap().to_owned();
        if !teams.contains(&team) {
            teams.push(team.clone());
        }
        let (fo, extent) = falloff(t, cell_size);
        let radius = t.get("radius").map(f).or(extent).unwrap();
        let metric = match t.get("distance").and_then(Value::as_str) {
            None | Some("euclidean") => Metric::Euclidean,
            Some("manhattan") => Metric::Manhattan,
            Some("octile") => Metric::Octile,
            Some("path") => Metric::Path,
            Some(other) => panic!("unknown distance {other}"),
        };
        let mode = match (t.get("mode").and_then(Value::as_str), kind) {
            (Some("add"), _) => Mode::Add,
            (Some("set"), _) => Mode::Set,
            (Some("max"), _) => Mode::Max,
            (None, Some("diffuse" | "steady")) => Mode::Set,
            _ => Mode::Add,
        };
        let source = Source::new(pair(&t["at"]), f(&t["strength"]), fo, radius).unwrap();
        sources.push((
            teams.iter().position(|x| *x == team).unwrap(),
            source.with_metric(metric).with_mode(mode),
        ));
    }
    let walk = match prop.and_then(|p| connectivity(p.get("neighbours"))) {
        Some(c) => grid.clone().with_connectivity(c),
        None => grid.clone(),
    };
    let mut stamper = Stamper::new();
    let team_sources = |t: usize| -> Vec<Source> {
        sources.iter().filter(|(team, _)| *team == t).map(|(_, s)| s.clone()).collect()
    };
    let diffusion = |p: &Value| {
        let d = Diffusion::new(f(&p["decay"]), p.get("momentum").map_or(1.0, f)).unwrap().with_kind(
            if p.get("decay_kind").and_then(Value::as_str) == Some("linear") {
                DecayKind::Linear
            } else {
                DecayKind::Exponential
            },
        );
        match p.get("threshold") {
            Some(t) => d.with_threshold(f(t)).unwrap(),
            None => d,
        }
    };
    let mut team_layers = Vec::new();
    let mut heat = None;
    let mut predicted = None;
    for t in 0..teams.len() {
        let layer = match (kind, prop) {
            (Some("diffuse"), Some(p)) => {
                let mut seeds = Vec::new();
                seeds_from_sources(&grid, &mut stamper, &team_sources(t), &mut seeds);
                let mut prop = Propagator::new(&walk, diffusion(p));
                prop.write_seeds(&walk, &seeds).unwrap();
                for _ in 0..p["steps"].as_integer().unwrap() {
                    prop.step_grid(&walk);
                    prop.write_seeds(&walk, &seeds).unwrap();
                }
                prop.values().clone()
            }
            (Some("steady"), Some(p)) => {
                let mut seeds = Vec::new();
                seeds_from_sources(&grid, &mut stamper, &team_sources(t), &mut seeds);
                let mut layer = Layer::for_space(&walk);
                SteadyState::new().solve(&walk, &diffusion(p), &seeds, &mut layer).unwrap();
                layer
            }
            _ => {
                let mut layer = Layer::for_space(&grid);
                for s in team_sources(t) {
                    stamper.stamp(&grid, &mut layer, &s);
                }
                layer
            }
        };
        team_layers.push(layer);
    }
    if let (Some("flood"), Some(p)) = (kind, prop) {
        let (x, y) = grid.cell_at(pair(&p["last_seen"])).unwrap();
        let v = p.get("velocity").map_or(Vec2::ZERO, pair);
        let max_new = p.get("max_new").map_or(usize::MAX, |n| n.as_integer().unwrap() as usize);
        let chase = Chase::new(
            p.get("cooling").map_or(0.1, f),
            max_new,
            p.get("max_steps").map_or(10, |n| n.as_integer().unwrap() as usize),
            p.get("barrier_radius").map_or(0.0, f),
        )
        .unwrap()
        .with_heat(p.get("heat").map_or(1.0, f))
        .unwrap();
        let mut fill = FloodFill::new();
        let guess = fill.predict(&walk, grid.index(x, y).unwrap(), Vec3::new(v.x, v.y, 0.0), &chase).unwrap();
        heat = Some(Layer::from_vec(fill.heat().to_vec()));
        predicted = Some(guess.cell);
    }
    let perspective = doc
        .get("perspective")
        .and_then(Value::as_str)
        .map_or(0, |p| teams.iter().position(|t| t == p).unwrap());
    let refs: Vec<&Layer> = team_layers.iter().collect();
    let analysis =
        if refs.is_empty() { Analysis::new(grid.len()) } else { Analysis::from_teams(&refs, perspective) };
    let mut layers = BTreeMap::new();
    for name in Analysis::NAMES {
        layers.insert(name.to_owned(), analysis.by_name(name).unwrap().clone());
    }
    let front = query::frontline(&grid, &analysis.influence);
    layers
        .insert("frontline".into(), Layer::from_vec(front.iter().map(|&b| f32::from(u8::from(b))).collect()));
    if let Some(h) = heat {
        layers.insert("heat".into(), h);
    }
    for (name, layer) in teams.into_iter().zip(team_layers) {
        layers.insert(name, layer);
    }
    let mut router = Router::new();
    let mut routes = Vec::new();
    for p in doc.get("path").and_then(Value::as_array).unwrap_or(&empty) {
        let cell = |k: &str| {
            let (x, y) = grid.cell_at(pair(&p[k])).unwrap();
            grid.index(x, y).unwrap()
        };
        let layer = &layers[p.get("layer").and_then(Value::as_str).unwrap_or("theirs")];
        let cost = Cost::avoiding(layer, p.get("weight").map_or(1.0, f)).unwrap();
        let route = router.find(&grid, cell("from"), cell("to"), &cost, Heuristic::Octile).unwrap();
        routes.push(route.map(|r| r.cells));
    }
    Rendered { grid, layers, predicted, routes }
}
