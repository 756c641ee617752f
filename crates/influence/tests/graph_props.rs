//! A grid turned into a graph (every cell a node, every neighbour step an arc) behaves as
//! the grid: the same diffusion steps and steady state bit for bit, the same path distances
//! and stamped layers, the same routes. And derived graphs keep their cell maps consistent.

mod common;

use influence::propagate::{Diffusion, Propagator, Seed, SteadyState, Steps};
use influence::route::{Cost, Heuristic, Router};
use influence::space::{DerivedGraph, Graph, Reduce};
use influence::{Falloff, Grid, Layer, Metric, Mode, Source, Space, Stamper};
use proptest::prelude::*;

fn walled_grid() -> impl Strategy<Value = Grid> {
    common::walled_grid(1..12, 0.25, 1.5)
}

fn with_seeds() -> impl Strategy<Value = (Grid, Vec<Seed>)> {
    walled_grid().prop_flat_map(|grid| {
        let n = grid.len();
        let seeds = prop::collection::vec((0..n, 0.5f32..5.0, any::<bool>()), 1..4).prop_map(|v| {
            v.into_iter()
                .map(|(c, s, max)| Seed::new(c, s).with_mode(if max { Mode::Max } else { Mode::Set }))
                .collect::<Vec<_>>()
        });
        (Just(grid), seeds)
    })
}

fn bits(l: &Layer) -> Vec<u32> {
    l.values().iter().map(|v| v.to_bits()).collect()
}

proptest! {
    #[test]
    fn a_grid_as_a_graph_diffuses_and_settles_as_the_grid((grid, seeds) in with_seeds(), decay in 0.0f32..1.0, momentum in 0.1f32..=1.0) {
        let graph = Graph::from_space(&grid).unwrap();
        let d = Diffusion::new(decay, momentum).unwrap();
        let (mut on_grid, mut on_graph) = (Propagator::new(&grid, d), Propagator::new(&graph, d));
        for _ in 0..6 {
            on_grid.write_seeds(&grid, &seeds).unwrap();
            on_graph.write_seeds(&graph, &seeds).unwrap();
            on_grid.step(&grid, Steps::default()).unwrap();
            on_graph.step(&graph, Steps::default()).unwrap();
            prop_assert_eq!(bits(on_grid.values()), bits(on_graph.values()));
        }
        let (mut a, mut b) = (Layer::for_space(&grid), Layer::for_space(&graph));
        SteadyState::default().solve(&grid, &d, &seeds, &mut a).unwrap();
        SteadyState::default().solve(&graph, &d, &seeds, &mut b).unwrap();
        prop_assert_eq!(bits(&a), bits(&b));
    }

    #[test]
    fn a_grid_as_a_graph_measures_stamps_and_routes_as_the_grid((grid, seeds) in with_seeds()) {
        let graph = Graph::from_space(&grid).unwrap();
        let start = seeds[0].cell;
        let (mut a, mut b) = (vec![None; grid.len()], vec![None; grid.len()]);
        Router::new().sweep(&grid, &[(start, 0.0)], f32::INFINITY, |c, d| a[c] = Some(d));
        Router::new().sweep(&graph, &[(start, 0.0)], f32::INFINITY, |c, d| b[c] = Some(d));
        prop_assert_eq!(&a, &b);
        // Path stamping through the generic stamper on the graph equals the grid's Stamper.
        let p = grid.position(start).truncate();
        let s = Source::new(p, 3.0, Falloff::Linear, 5.0).unwrap().with_metric(Metric::Path);
        let (mut on_grid, mut on_graph) = (Layer::for_space(&grid), Layer::for_space(&graph));
        let placed = Stamper::new().stamp(&grid, &mut on_grid, &s).is_ok();
        prop_assert_eq!(placed, grid.is_walkable(start));
        if placed {
            Stamper::new().stamp(&graph, &mut on_graph, &s).unwrap();
            prop_assert_eq!(bits(&on_grid), bits(&on_graph));
        }
        // Routes: the same costs on both.
        let danger = Layer::from_vec((0..grid.len()).map(|i| (i % 7) as f32 - 2.0).collect());
        let cost = Cost::avoiding(&danger, 0.7).unwrap();
        let mut router = Router::new();
        for goal in seeds.iter().map(|s| s.cell) {
            if !(grid.is_walkable(start) && grid.is_walkable(goal)) {
                continue;
            }
            let r1 = router.find(&grid, start, goal, &cost, Heuristic::Octile).unwrap();
            let r2 = router.find(&graph, start, goal, &cost, Heuristic::Zero).unwrap();
            prop_assert_eq!(r1.is_some(), r2.is_some());
            if let (Some(r1), Some(r2)) = (r1, r2) {
                prop_assert!((r1.cost - r2.cost).abs() <= 1e-4 * r2.cost.max(1.0));
            }
        }
    }

    #[test]
    fn derived_graphs_map_every_walkable_cell_to_one_node(grid in walled_grid(), block in 1usize..5, spacing in 1.0f32..6.0) {
        for derived in [DerivedGraph::coarse(&grid, block).unwrap(), DerivedGraph::areas(&grid, spacing).unwrap()] {
            let g = derived.graph();
            let mut count = vec![0usize; g.len()];
            for c in 0..grid.len() {
                match derived.node_of(c) {
                    Some(n) => {
                        prop_assert!(grid.is_walkable(c));
                        prop_assert!(derived.cells_of(n).any(|x| x == c));
                        count[n] += 1;
                    }
                    None => prop_assert!(!grid.is_walkable(c)),
                }
            }
            prop_assert!(count.iter().all(|&k| k > 0));
            // Two nodes are joined exactly when two of their cells are grid neighbours.
            for a in 0..g.len() {
                let mut touching: Vec<usize> = Vec::new();
                for c in derived.cells_of(a) {
                    grid.for_each_neighbour(c, |j, _| {
                        let b = derived.node_of(j).unwrap();
                        if b != a && !touching.contains(&b) {
                            touching.push(b);
                        }
                    });
                }
                touching.sort_unstable();
                let mut joined: Vec<usize> = g.arcs_from(a).map(|(b, _)| b).collect();
                joined.sort_unstable();
                joined.dedup();
                prop_assert_eq!(joined, touching);
            }
            // Mean summaries expanded back keep the walkable total.
            let layer = Layer::from_vec((0..grid.len()).map(|i| if grid.is_walkable(i) { (i % 5) as f32 } else { 0.0 }).collect());
            let mut summary = Layer::for_space(derived.graph());
            derived.summarise_into(&layer, Reduce::Mean, &mut summary);
            let mut back = Layer::for_space(&grid);
            derived.expand_into(&summary, &mut back);
            prop_assert!((back.sum() - layer.sum()).abs() < 1e-3);
        }
    }
}

#[test]
fn a_coarse_graph_of_a_real_map_carries_influence_like_the_grid() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/maps/den012d.map");
    let grid = Grid::load_movingai(path).unwrap();
    let coarse = DerivedGraph::coarse(&grid, 4).unwrap();
    let areas = DerivedGraph::areas(&grid, 6.0).unwrap();
    assert!(coarse.graph().len() < grid.walkable_count() / 8);
    assert!(areas.graph().len() < coarse.graph().len());
    // Steady-state influence from one spot, on the grid and on each graph, then compared
    // per node: the graphs' values follow the grid's summarised values.
    let spot = (0..grid.len()).find(|&i| grid.is_walkable(i)).unwrap();
    // No threshold: "reached" then means connected, on both.
    let d = Diffusion::new(0.05, 1.0).unwrap().with_threshold(0.0).unwrap();
    let mut on_grid = Layer::for_space(&grid);
    SteadyState::default().solve(&grid, &d, &[Seed::new(spot, 1.0)], &mut on_grid).unwrap();
    for derived in [&coarse, &areas] {
        let g = derived.graph();
        let node = derived.node_of(spot).unwrap();
        let mut on_graph = Layer::for_space(g);
        SteadyState::default().solve(g, &d, &[Seed::new(node, 1.0)], &mut on_graph).unwrap();
        let mut summary = Layer::for_space(g);
        derived.summarise_into(&on_grid, Reduce::Mean, &mut summary);
        let reached = |l: &Layer, i: usize| l[i] > 0.0;
        // The same nodes are reached (the graph keeps the grid's connectivity).
        for n in 0..g.len() {
            assert_eq!(reached(&on_graph, n), reached(&summary, n), "node {n}");
        }
    }
}
