//! Two floors of a building as one waypoint graph, joined by a stair: influence climbs the
//! stair and never leaks through the floor ("The Core Mechanics of Influence Mapping": a
//! waypoint network "wraps over multiple levels of a building", which a 2D grid cannot).

use influence::glam::{Vec2, Vec3};
use influence::propagate::{Diffusion, Propagator, Seed, SteadyState, Steps};
use influence::route::{Cost, Heuristic, Router};
use influence::space::Graph;
use influence::{Falloff, Layer, Metric, Source, Space, Stamper};

const W: usize = 5;
const H: usize = 3;
const SPACING: f32 = 2.0;
const STOREY: f32 = 4.0;
const STAIR: f32 = 6.0;
/// Nodes per floor.
const FLOOR: usize = W * H;
/// The stair joins the far corner of floor 1 to the one above it.
const FOOT: usize = FLOOR - 1;
const HEAD: usize = 2 * FLOOR - 1;

/// Two 8-connected lattices of waypoints, one above the other, and a stair of length 6
/// between their far corners.
fn building() -> Graph {
    let mut positions = Vec::new();
    let mut edges = Vec::new();
    for floor in 0..2 {
        let base = floor * FLOOR;
        for i in 0..FLOOR {
            let (x, y) = ((i % W) as f32, (i / W) as f32);
            positions.push(Vec3::new(x * SPACING, y * SPACING, floor as f32 * STOREY));
        }
        for y in 0..H {
            for x in 0..W {
                let i = base + y * W + x;
                if x + 1 < W {
                    edges.push((i, i + 1));
                }
                if y + 1 < H {
                    edges.push((i, i + W));
                    if x + 1 < W {
                        edges.push((i, i + W + 1));
                    }
                    if x > 0 {
                        edges.push((i, i + W - 1));
                    }
                }
            }
        }
    }
    // Straight-line lengths, and the stair longer than the drop: as arcs both ways.
    let mut arcs: Vec<(usize, usize, f32)> = Vec::new();
    for (a, b) in edges {
        let l = positions[a].distance(positions[b]);
        arcs.extend([(a, b, l), (b, a, l)]);
    }
    arcs.extend([(FOOT, HEAD, STAIR), (HEAD, FOOT, STAIR)]);
    Graph::from_arcs(positions, arcs).unwrap()
}

/// Walking distance from node 0 (floor 1's near corner) to the foot of the stair: two
/// diagonal steps and two straight ones.
fn to_foot() -> f32 {
    2.0 * SPACING * std::f32::consts::SQRT_2 + 2.0 * SPACING
}

fn path_distances(g: &Graph, from: usize) -> Vec<Option<f32>> {
    let mut out = vec![None; g.len()];
    Router::new().sweep(g, &[(from, 0.0)], f32::INFINITY, |c, d| out[c] = Some(d));
    out
}

#[test]
fn points_locate_on_their_own_floor() {
    let g = building();
    assert_eq!(g.locate(Vec3::new(0.1, 0.1, 0.5)), Some(0));
    assert_eq!(g.locate(Vec3::new(0.1, 0.1, 3.5)), Some(FLOOR));
}

#[test]
fn path_stamping_climbs_the_stair_and_never_crosses_the_floor() {
    let g = building();
    let above = FLOOR; // straight above the source, 4 units up through the floor
    let d = path_distances(&g, 0);
    let via_stair = to_foot() + STAIR + to_foot();
    assert!((d[above].unwrap() - via_stair).abs() < 1e-4);

    let stamp = |radius: f32, metric: Metric| {
        let mut layer = Layer::for_space(&g);
        let s = Source::new(Vec2::ZERO, 10.0, Falloff::Linear, radius).unwrap().with_metric(metric);
        Stamper::new().stamp(&g, &mut layer, &s).unwrap();
        (layer, s)
    };
    // Radius 20 reaches the head of the stair (15.7) but not the node above the source.
    let (layer, s) = stamp(20.0, Metric::Path);
    assert_eq!(layer[above], 0.0);
    assert_eq!(layer[HEAD], s.strength() * s.falloff().factor(d[HEAD].unwrap(), s.radius()));
    // Every node on floor 2 holds exactly the value of its walking distance, via the stair.
    let (layer, s) = stamp(40.0, Metric::Path);
    for i in FLOOR..2 * FLOOR {
        assert_eq!(layer[i], s.strength() * s.falloff().factor(d[i].unwrap(), s.radius()), "node {i}");
        assert!(d[i].unwrap() >= to_foot() + STAIR);
    }
    // The straight-line metric goes through the floor: that is what Path is for.
    let (through, _) = stamp(20.0, Metric::Euclidean);
    assert!(through[above] > 0.0);
}

#[test]
fn diffusion_reaches_floor_two_by_the_stair_only() {
    let g = building();
    let decay = 0.1;
    let d = Diffusion::new(decay, 1.0).unwrap().with_threshold(0.0).unwrap();
    let seeds = [Seed::new(0, 1.0)];
    let mut steady = Layer::for_space(&g);
    SteadyState::default().solve(&g, &d, &seeds, &mut steady).unwrap();
    let dist = path_distances(&g, 0);
    for i in FLOOR..2 * FLOOR {
        let expected = (-decay * dist[i].unwrap()).exp();
        assert!((steady[i] - expected).abs() < 1e-5, "node {i}: {} vs {expected}", steady[i]);
    }
    // Iterating the step agrees, and a closed stair (its foot blocked) keeps floor 2 at 0.
    let mut p = Propagator::new(&g, d);
    for _ in 0..60 {
        p.write_seeds(&g, &seeds).unwrap();
        p.step(&g, Steps::default()).unwrap();
    }
    assert!((p.values()[FLOOR] - steady[FLOOR]).abs() < 1e-6);
    let mut closed = building();
    closed.set_blocked(FOOT, true).unwrap();
    SteadyState::default().solve(&closed, &d, &seeds, &mut steady).unwrap();
    assert!((FLOOR..2 * FLOOR).all(|i| steady[i] == 0.0));
    assert!(steady[1] > 0.0);
}

#[test]
fn routes_between_floors_take_the_stair() {
    let g = building();
    let route = Router::new().find(&g, 0, FLOOR, &Cost::distance(), Heuristic::Euclidean).unwrap().unwrap();
    assert!(route.cells.windows(2).any(|w| w == [FOOT, HEAD]), "{:?}", route.cells);
    assert!((route.length - f64::from(2.0 * to_foot() + STAIR)).abs() < 1e-4);
}
