//! The chase flood fill on grids and on a graph, and the generic step on a graph.

use influence::glam::Vec3;
use influence::propagate::{Chase, Diffusion, FloodFill, Propagator, Seed, SteadyState, Steps};
use influence::Cell;
use influence::{Grid, Layer, Space};

fn chase() -> Chase {
    Chase::new(0.1, 100, 8, 3.0).unwrap()
}

#[test]
fn predicts_down_a_corridor_in_the_direction_of_the_velocity() {
    let grid =
        Grid::from_rows(&["@@@@@@@@@@@@@@@@@@@@", "@..................@", "@@@@@@@@@@@@@@@@@@@@"]).unwrap();
    let seen = grid.index(Cell::new(10, 1)).unwrap();
    let mut fill = FloodFill::default();
    for (velocity, ahead) in [(Vec3::X, true), (-Vec3::X, false)] {
        let p = fill.predict(&grid, seen, velocity, &chase()).unwrap();
        let Cell { x, y } = grid.cell(p.cell);
        assert_eq!(y, 1);
        assert!(if ahead { x > 12 } else { x < 8 }, "{velocity} → {x}");
        assert!(!p.front_empty && !p.too_many_new); // max_steps
                                                    // Nothing behind the target was heated.
        let behind = if ahead { 1..10 } else { 11..19 };
        assert!(behind.clone().all(|x| fill.heat()[grid.index(Cell::new(x, 1)).unwrap()] == 0.0));
    }
}

/// A cell reached `k` steps before the end holds `heat − k · cooling`: the heat sets how much
/// of the trail stays warm.
#[test]
fn heat_over_cooling_is_how_long_the_trail_stays_warm() {
    let grid = Grid::from_rows(&["...................."]).unwrap();
    let mut fill = FloodFill::default();
    for (heat, warm) in [(None, 2), (Some(2.0), 4), (Some(0.25), 1)] {
        let mut chase = Chase::new(0.5, 100, 10, 0.0).unwrap();
        if let Some(h) = heat {
            chase.initial_heat = h;
        }
        let p = fill.predict(&grid, 0, Vec3::ZERO, &chase).unwrap();
        assert_eq!(p.warm, warm, "heat {heat:?}");
        assert_eq!(fill.heat()[10], chase.initial_heat);
        assert_eq!(fill.heat()[9], (chase.initial_heat - 0.5).max(0.0));
        assert_eq!(fill.heat()[11], 0.0);
    }
    for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        let chase = Chase { initial_heat: bad, ..Chase::new(0.5, 100, 10, 0.0).unwrap() };
        assert!(fill.predict(&grid, 0, Vec3::ZERO, &chase).is_err(), "{bad}");
    }
}

#[test]
fn at_a_junction_the_barrier_keeps_the_guess_out_of_the_branch_behind() {
    // A corridor with an arm going up at each end; the target was seen in the middle.
    let grid = Grid::from_rows(&["@.@@@@@.@", "@.@@@@@.@", "@.@@@@@.@", "@.......@", "@@@@@@@@@"]).unwrap();
    let seen = grid.index(Cell::new(4, 3)).unwrap();
    let chase = Chase::new(0.1, 100, 10, 2.0).unwrap();
    let mut fill = FloodFill::default();
    for (velocity, arm) in [(-Vec3::X, 1), (Vec3::X, 7)] {
        let p = fill.predict(&grid, seen, velocity, &chase).unwrap();
        // Along the corridor, round the corner and up the arm ahead: the newest, hottest
        // cells are there, and the snapped guess is in that arm, not in the wall between.
        assert_eq!(grid.cell(p.cell), Cell::new(arm, 2), "{velocity}");
        assert_eq!((p.front_empty, p.steps), (true, 6));
        let other = 8 - arm;
        assert!((0..3).all(|y| fill.heat()[grid.index(Cell::new(other, y)).unwrap()] == 0.0));
    }
}

/// A small graph: nodes on a line in 3D with explicit edges, some nodes blocked.
struct Graph {
    positions: Vec<Vec3>,
    edges: Vec<Vec<usize>>,
    blocked: Vec<bool>,
}

impl Space for Graph {
    fn len(&self) -> usize {
        self.positions.len()
    }
    fn is_walkable(&self, i: usize) -> bool {
        !self.blocked[i]
    }
    fn for_each_neighbour(&self, i: usize, mut visit: impl FnMut(usize, f32)) {
        for &j in &self.edges[i] {
            if !self.blocked[j] {
                visit(j, self.positions[i].distance(self.positions[j]));
            }
        }
    }
    fn position(&self, i: usize) -> Vec3 {
        self.positions[i]
    }
}

/// Rooms 0–1–2–3 in a chain with a side room 4 off room 1, and a blocked room 5 off room 2.
fn rooms() -> Graph {
    let positions = vec![
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(4.0, 0.0, 0.0),
        Vec3::new(8.0, 0.0, 3.0),
        Vec3::new(12.0, 0.0, 3.0),
        Vec3::new(4.0, 5.0, 0.0),
        Vec3::new(8.0, 4.0, 3.0),
    ];
    let pairs = [(0, 1), (1, 2), (2, 3), (1, 4), (2, 5)];
    let mut edges = vec![Vec::new(); positions.len()];
    for (a, b) in pairs {
        edges[a].push(b);
        edges[b].push(a);
    }
    Graph { positions, edges, blocked: vec![false, false, false, false, false, true] }
}

#[test]
fn the_generic_step_and_steady_state_run_on_a_graph() {
    let g = rooms();
    let d = Diffusion::new(0.1, 1.0).unwrap().with_threshold(0.0).unwrap();
    let mut p = Propagator::new(&g, d);
    let seeds = [Seed::new(0, 1.0)];
    for _ in 0..10 {
        p.write_seeds(&g, &seeds).unwrap();
        p.step(&g, Steps::default()).unwrap();
    }
    p.write_seeds(&g, &seeds).unwrap();
    let mut out = Layer::for_space(&g);
    SteadyState::default().solve(&g, &d, &seeds, &mut out).unwrap();
    assert_eq!(p.values(), &out);
    assert!((out[3] - (-0.1f32 * (4.0 + 5.0 + 4.0)).exp()).abs() < 1e-6);
    assert_eq!(out[5], 0.0);
}

#[test]
fn the_flood_fill_runs_on_a_graph() {
    let g = rooms();
    let p = FloodFill::default().predict(&g, 1, Vec3::X, &Chase::new(0.1, 10, 5, 5.0).unwrap()).unwrap();
    // Room 0 lies behind (and room 4 beside) the target: the guess is down the chain.
    assert!(p.cell == 2 || p.cell == 3, "{p:?}");
    assert!(matches!(
        FloodFill::default().predict(&g, 5, Vec3::X, &chase()),
        Err(influence::Error::Blocked { index: 5 })
    ));
}
