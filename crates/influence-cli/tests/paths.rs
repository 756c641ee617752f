//! `[[path]]`: routes that avoid danger, drawn on the pictures and reported in
//! `summary.json` — checked against the library's router and for the trade-off they make.

mod common;

use common::{influence_ok, repo, summary};
use influence::route::{Cost, Heuristic, Router};
use influence::Cell;
use influence::{Analysis, Falloff, Grid, Layer, Source, Stamper};

#[test]
fn routes_trade_length_for_safety_and_unreachable_goals_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let printed =
        influence_ok(&["render", repo("examples/scenarios/ambush.toml").to_str().unwrap(), "--out", out]);
    assert!(printed.contains("path 2: (1, 4) to (26, 14): unreachable"), "{printed}");
    let s = summary(dir.path());
    let paths = s["paths"].as_array().unwrap();
    assert_eq!(paths.len(), 3);
    let (direct, safe, walled) = (&paths[0], &paths[1], &paths[2]);
    let f = |v: &serde_json::Value, k: &str| v[k].as_f64().unwrap();
    assert!(f(safe, "length") > f(direct, "length"), "the safe route is longer");
    assert!(f(safe, "exposure") < f(direct, "exposure"), "and less exposed");
    assert_eq!(walled["reachable"], false);
    assert!(walled["length"].is_null() && walled["cells"].as_array().unwrap().is_empty());
    assert_eq!(direct["cells"][0], serde_json::json!([1, 4]));
    assert_eq!(direct["cells"].as_array().unwrap().last().unwrap(), &serde_json::json!([28, 4]));

    // The same route as the library's router finds on the same layer.
    let text = std::fs::read_to_string(repo("examples/scenarios/ambush.toml")).unwrap();
    let rows: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("  \""))
        .map(|l| l.trim().trim_end_matches(',').trim_matches('"').to_owned())
        .collect();
    let grid = Grid::from_rows(&rows).unwrap().with_cell_size(2.0).unwrap();
    let mut stamper = Stamper::new();
    let (mut player, mut enemy) = (Layer::for_space(&grid), Layer::for_space(&grid));
    let at = |x, y| influence::glam::Vec2::new(x, y);
    stamper
        .stamp(&grid, &mut player, &Source::new(at(3.0, 17.0), 2.0, Falloff::Linear, 8.0).unwrap())
        .unwrap();
    stamper
        .stamp(&grid, &mut enemy, &Source::new(at(30.0, 3.0), 8.0, Falloff::Linear, 16.0).unwrap())
        .unwrap();
    let maps = Analysis::from_teams(&player, &[&enemy]);
    let cost = Cost::avoiding(&maps.theirs, 2.0).unwrap();
    let (from, to) = (grid.index(Cell::new(1, 4)).unwrap(), grid.index(Cell::new(28, 4)).unwrap());
    let route = Router::new().find(&grid, from, to, &cost, Heuristic::Octile).unwrap().unwrap();
    assert_eq!(f(safe, "length"), route.length);
    assert_eq!(f(safe, "exposure"), route.exposure);
    let cells: Vec<[usize; 2]> = route.cells.iter().map(|&c| grid.cell(c).into()).collect();
    assert_eq!(safe["cells"], serde_json::json!(cells));
}
