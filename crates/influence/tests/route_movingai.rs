//! Routes on a real MovingAI map: with zero weight, A* and Dijkstra find the benchmark's
//! optimal lengths (octile moves, no corner cutting); with a threat layer they trade length
//! for exposure.

use influence::Cell;
use std::path::PathBuf;

use influence::route::{Cost, Heuristic, Router};
use influence::{Falloff, Grid, Layer, Source, Space, Stamper};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/maps").join(name)
}

#[test]
fn zero_weight_routes_have_the_benchmark_optimal_lengths() {
    let grid = Grid::load_movingai(data("London_0_512.map")).unwrap();
    let scen = movingai::parser::parse_scen_file(&data("London_0_512.map.scen")).unwrap();
    let mut router = Router::new();
    let cost = Cost::distance();
    // Every 37th problem (short and long ones) keeps the debug build quick; Dijkstra, which
    // expands far more, on every 4th of those.
    for (k, record) in scen.iter().step_by(37).enumerate() {
        let start = grid.index(Cell::new(record.start_pos.0, record.start_pos.1)).unwrap();
        let goal = grid.index(Cell::new(record.goal_pos.0, record.goal_pos.1)).unwrap();
        let expected = record.optimal_length;
        let mut searches = vec![Heuristic::Octile, Heuristic::Euclidean];
        if k % 4 == 0 {
            searches.push(Heuristic::Zero);
        }
        for h in searches {
            let route = router.find(&grid, start, goal, &cost, h).unwrap().expect("reachable");
            let got = route.length;
            assert!((got - expected).abs() <= 1e-6 * expected.max(1.0), "{record:?} {h:?}: got {got}");
            assert!(
                (f64::from(route.cost) - got).abs() <= 1e-4 * expected.max(1.0),
                "the cost is the length"
            );
            assert_eq!((route.cells[0], *route.cells.last().unwrap()), (start, goal));
        }
    }
}

#[test]
fn a_threat_layer_bends_the_route_round_the_danger() {
    let grid = Grid::load_movingai(data("London_0_512.map")).unwrap();
    let scen = movingai::parser::parse_scen_file(&data("London_0_512.map.scen")).unwrap();
    // A long problem, and a threat on the midpoint of its shortest route.
    let record = scen.iter().rev().find(|r| r.optimal_length > 200.0).unwrap();
    let start = grid.index(Cell::new(record.start_pos.0, record.start_pos.1)).unwrap();
    let goal = grid.index(Cell::new(record.goal_pos.0, record.goal_pos.1)).unwrap();
    let mut router = Router::new();
    let shortest = router.find(&grid, start, goal, &Cost::distance(), Heuristic::Octile).unwrap().unwrap();
    let mid = shortest.cells[shortest.cells.len() / 2];
    let mut threat = Layer::for_space(&grid);
    let turret = Source::new(grid.position(mid).truncate(), 5.0, Falloff::Linear, 25.0).unwrap();
    Stamper::new().stamp(&grid, &mut threat, &turret).unwrap();

    let exposed = router
        .find(&grid, start, goal, &Cost::avoiding(&threat, 0.0).unwrap(), Heuristic::Octile)
        .unwrap()
        .unwrap();
    assert_eq!(exposed.length, shortest.length);
    let mut last = exposed.clone();
    for weight in [0.5, 2.0, 10.0] {
        let cost = Cost::avoiding(&threat, weight).unwrap();
        let safe = router.find(&grid, start, goal, &cost, Heuristic::Octile).unwrap().unwrap();
        let dijkstra = router.find(&grid, start, goal, &cost, Heuristic::Zero).unwrap().unwrap();
        assert!((safe.cost - dijkstra.cost).abs() <= 1e-4 * dijkstra.cost);
        // More weight: never more exposure, never a shorter route.
        assert!(safe.exposure <= last.exposure + 1e-3, "{weight}: {} > {}", safe.exposure, last.exposure);
        assert!(safe.length >= last.length - 1e-3);
        assert!(safe.expanded <= dijkstra.expanded);
        last = safe;
    }
    assert!(last.exposure < exposed.exposure / 2.0, "{} vs {}", last.exposure, exposed.exposure);
}
