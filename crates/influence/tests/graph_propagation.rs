//! Everything generic over `Space` runs on a `Graph` unchanged: stamping, the diffusion
//! step, steady state, sparse diffusion, memory, flood fill and its prediction, queries and
//! analysis. No graph-specific copy of any of them exists; these tests are the proof.

use influence::glam::{Vec2, Vec3};
use influence::propagate::{
    Chase, Diffusion, FloodFill, MemoryLayer, Propagator, Seed, SparsePropagator, SteadyState, Steps,
};
use influence::query::{self, Extreme};
use influence::route::Router;
use influence::space::Graph;
use influence::{Analysis, Falloff, Layer, Metric, Mode, Source, Space, Stamper};

/// A `w × h` lattice of waypoints `spacing` apart at height `z`, joined to their 8
/// neighbours (diagonals at their straight length), with the listed nodes blocked.
fn lattice(w: usize, h: usize, spacing: f32, blocked: &[usize]) -> Graph {
    let positions = (0..w * h).map(|i| Vec3::new((i % w) as f32, (i / w) as f32, 0.0) * spacing).collect();
    let mut edges = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if x + 1 < w {
                edges.push((i, i + 1));
            }
            if y + 1 < h {
                edges.push((i, i + w));
                if x + 1 < w {
                    edges.push((i, i + w + 1));
                }
                if x > 0 {
                    edges.push((i, i + w - 1));
                }
            }
        }
    }
    let mut g = Graph::from_edges(positions, edges).unwrap();
    for &i in blocked {
        g.set_blocked(i, true).unwrap();
    }
    g
}

fn bits(layer: &Layer) -> Vec<u32> {
    layer.values().iter().map(|v| v.to_bits()).collect()
}

#[test]
fn the_step_on_a_graph_follows_the_rule_by_hand() {
    // 0 —1— 1 —3— 2, lengths 1 and 3.
    let g = Graph::from_arcs(
        vec![Vec3::ZERO, Vec3::X, Vec3::new(4.0, 0.0, 0.0)],
        [(0, 1, 1.0), (1, 0, 1.0), (1, 2, 3.0), (2, 1, 3.0)],
    )
    .unwrap();
    let mut p = Propagator::new(&g, Diffusion::new(0.5, 1.0).unwrap().with_threshold(0.0).unwrap());
    p.write_seeds(&g, &[Seed::new(0, 1.0)]).unwrap();
    p.step(&g, Steps::default()).unwrap();
    assert_eq!(p.values().values(), &[0.0, (-0.5f32).exp(), 0.0]);
    p.write_seeds(&g, &[Seed::new(0, 1.0)]).unwrap();
    p.step(&g, Steps::default()).unwrap();
    assert_eq!(p.values()[2], (-0.5f32).exp() * (-1.5f32).exp());
}

#[test]
fn sparse_diffusion_equals_the_dense_step_bit_for_bit() {
    let g = lattice(12, 9, 2.0, &[40, 41, 52, 53]);
    let d = Diffusion::new(0.3, 0.6).unwrap();
    let seeds = [Seed::new(0, 5.0), Seed::new(107, 3.0).with_mode(Mode::Max)];
    let (mut dense, mut sparse) = (Propagator::new(&g, d), SparsePropagator::new(&g, d));
    for step in 0..40 {
        dense.write_seeds(&g, &seeds).unwrap();
        sparse.write_seeds(&g, &seeds).unwrap();
        dense.step(&g, Steps::default()).unwrap();
        sparse.step(&g);
        assert_eq!(bits(dense.values()), bits(sparse.values()), "step {step}");
    }
    assert_eq!(dense.values()[40], 0.0); // blocked
    assert!(dense.values()[60] > 0.0);
}

#[test]
fn the_steady_state_equals_iterating_until_nothing_changes() {
    let g = lattice(10, 7, 1.5, &[23, 33, 43]);
    let d = Diffusion::new(0.2, 1.0).unwrap();
    let seeds = [Seed::new(0, 4.0), Seed::new(69, 2.0), Seed::new(34, 1.0).with_mode(Mode::Max)];
    let mut p = Propagator::new(&g, d);
    let mut last = Vec::new();
    for _ in 0..500 {
        p.write_seeds(&g, &seeds).unwrap();
        p.step(&g, Steps::default()).unwrap();
        let now = bits(p.values());
        if now == last {
            break;
        }
        last = now;
    }
    p.write_seeds(&g, &seeds).unwrap();
    let mut steady = Layer::for_space(&g);
    SteadyState::default().solve(&g, &d, &seeds, &mut steady).unwrap();
    assert_eq!(bits(&steady), bits(p.values()));
}

#[test]
fn memory_layers_leave_fading_breadcrumbs_on_a_graph() {
    let g = lattice(6, 1, 2.0, &[]);
    let mut trail = MemoryLayer::new(&g, Some(std::f32::consts::LN_2)).unwrap();
    for node in 0..6 {
        trail.deposit(&g, &[Seed::new(node, 1.0).with_mode(Mode::Add)]).unwrap();
        trail.update(1.0).unwrap();
    }
    let v = trail.layer().values();
    assert!(v.windows(2).all(|w| w[0] < w[1]), "{v:?}");
    assert!((v[5] - 0.5).abs() < 1e-6);
}

#[test]
fn flood_fill_predicts_ahead_along_a_waypoint_corridor() {
    // A corridor of waypoints along x with a side room hanging off node 2.
    let mut positions: Vec<Vec3> = (0..12).map(|i| Vec3::new(3.0 * i as f32, 0.0, 0.0)).collect();
    positions.push(Vec3::new(6.0, 5.0, 0.0));
    let mut edges: Vec<(usize, usize)> = (1..12).map(|i| (i - 1, i)).collect();
    edges.push((2, 12));
    let g = Graph::from_edges(positions, edges).unwrap();
    let mut fill = FloodFill::default();
    let chase = Chase::new(0.1, 50, 4, 4.0).unwrap();
    let ahead = fill.predict(&g, 5, Vec3::X, &chase).unwrap();
    assert!(ahead.cell > 5, "{ahead:?}");
    assert_eq!(fill.heat()[4], 0.0); // behind the target: the barrier
    let back = fill.predict(&g, 5, -Vec3::X, &chase).unwrap();
    assert!(back.cell < 5 || back.cell == 12, "{back:?}");
    assert_eq!(fill.heat()[6], 0.0);
}

#[test]
fn queries_run_on_a_graph() {
    let g = lattice(8, 5, 2.0, &[3, 11, 19, 27]); // a wall at x = 3, open in the bottom row
    let mut layer = Layer::for_space(&g);
    for i in 0..g.len() {
        layer[i] = g.position(i).x + 0.1 * g.position(i).y;
    }
    // Top N with spacing: distinct spots on the right-hand side.
    let spots = query::top_n(&g, &layer, 3, 3.0, Extreme::Highest);
    assert_eq!(spots.len(), 3);
    for (k, a) in spots.iter().enumerate() {
        for b in &spots[k + 1..] {
            assert!(g.position(a.0).distance(g.position(b.0)) >= 3.0);
        }
    }
    // Reachable extremes: behind the wall the best spot is out of a short walk's reach.
    let mut scratch = Router::new();
    let near = query::extreme_reachable(&g, &layer, 8, 6.0, &mut scratch, Extreme::Highest).unwrap();
    assert!(g.position(near.0).x < 6.0, "{near:?}");
    let far = query::extreme_reachable(&g, &layer, 8, 100.0, &mut scratch, Extreme::Highest).unwrap();
    assert_eq!(far.0, query::extreme(&g, &layer, Extreme::Highest).unwrap().0);
    // Within a radius, and the weighted centroid, in 3D positions.
    let c = g.position(20);
    let best = query::extreme_within_radius(&g, &layer, c, 2.0, Extreme::Lowest).unwrap();
    assert!(g.position(best.0).distance(c) <= 2.0);
    let mut spike = Layer::for_space(&g);
    spike[0] = 1.0;
    spike[2] = 1.0;
    assert_eq!(query::weighted_centroid(&g, &spike, 0.0), Some(Vec3::new(2.0, 0.0, 0.0)));
}

#[test]
fn two_teams_stamped_by_path_give_analysis_and_a_front_on_a_graph() {
    let g = lattice(10, 4, 2.0, &[]);
    let team = |x: f32| {
        Source::new(Vec2::new(x, 3.0), 10.0, Falloff::Linear, 16.0).unwrap().with_metric(Metric::Path)
    };
    let mut stamper = Stamper::new();
    let (mut red, mut blue) = (Layer::for_space(&g), Layer::for_space(&g));
    stamper.stamp(&g, &mut red, &team(0.0)).unwrap();
    stamper.stamp(&g, &mut blue, &team(18.0)).unwrap();
    let maps = Analysis::from_teams(&red, &[&blue]);
    assert!(maps.influence[10] > 0.0 && maps.influence[19] < 0.0);
    let mut front = Vec::new();
    query::frontline_into(&g, &maps.influence, &mut front);
    let xs: Vec<f32> = (0..g.len()).filter(|&i| front[i]).map(|i| g.position(i).x).collect();
    assert!(!xs.is_empty() && xs.iter().all(|&x| (6.0..=12.0).contains(&x)), "{xs:?}");
    // The contested middle has the highest vulnerability.
    let (peak, _) = query::extreme(&g, &maps.vulnerability, Extreme::Highest).unwrap();
    assert!((6.0..=12.0).contains(&g.position(peak).x));
}

#[test]
fn straight_line_stamping_reaches_every_node_within_the_radius_in_3d() {
    let g = lattice(5, 5, 1.0, &[12]);
    let mut layer = Layer::for_space(&g);
    let mut s = Source::new(Vec2::new(2.0, 2.0), 1.0, Falloff::Constant, 1.5).unwrap();
    s.set_height(1.0).unwrap();
    Stamper::new().stamp(&g, &mut layer, &s).unwrap();
    // Height 1 above the centre: within 1.5 are the 4 orthogonal neighbours (√2 away),
    // not the blocked centre, not the diagonals (√3).
    let hit: Vec<usize> = (0..g.len()).filter(|&i| layer[i] > 0.0).collect();
    assert_eq!(hit, vec![7, 11, 13, 17]);
}
