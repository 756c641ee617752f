//! Real MovingAI maps from `data/maps/`: our parser agrees with the `movingai` crate's, and
//! path distances over the grid space equal the benchmark's optimal lengths.

use influence::{Cell, Space};
use std::path::PathBuf;

use influence::route::Router;
use influence::Grid;
use movingai::{Map2D, MovingAiMap};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/maps").join(name)
}

#[test]
fn parser_agrees_with_the_movingai_crate() {
    for name in ["den012d.map", "brc202d.map", "London_0_512.map", "maze512-8-6.map"] {
        let ours = Grid::load_movingai(data(name)).unwrap();
        let theirs: MovingAiMap = movingai::parser::parse_map_file(&data(name)).unwrap();
        assert_eq!((ours.width(), ours.height()), (theirs.width(), theirs.height()), "{name}");
        for y in 0..ours.height() {
            for x in 0..ours.width() {
                assert_eq!(
                    !ours.is_blocked(Cell::new(x, y)),
                    theirs.is_traversable((x, y)),
                    "{name} ({x}, {y})"
                );
            }
        }
    }
}

#[test]
fn path_distances_match_scenario_optimal_lengths() {
    let grid = Grid::load_movingai(data("London_0_512.map")).unwrap();
    let scen = movingai::parser::parse_scen_file(&data("London_0_512.map.scen")).unwrap();
    let mut scratch = Router::new();
    // Every 40th problem: short and long ones, so the test stays quick in debug builds.
    for record in scen.iter().step_by(40) {
        let (sx, sy) = record.start_pos;
        let (gx, gy) = record.goal_pos;
        let start = grid.index(Cell::new(sx, sy)).unwrap();
        let goal = grid.index(Cell::new(gx, gy)).unwrap();
        let mut found = None;
        scratch.sweep(&grid, &[(start, 0.0)], f32::INFINITY, |cell, d| {
            if cell == goal {
                found = Some(d);
            }
        });
        let d = f64::from(found.expect("goal reachable"));
        let expected = record.optimal_length;
        assert!((d - expected).abs() <= 1e-4 * expected.max(1.0), "{record:?}: got {d}");
    }
    assert!(grid.walkable_count() > 0 && grid.len() == 512 * 512);
}
