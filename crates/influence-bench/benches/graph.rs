//! Graphs against grids, and routes with and without influence.
//!
//! * `step/*`: one diffusion step on a 256² grid with ~10 % walls (the pattern of
//!   `benches/propagate.rs`), as the grid's row kernel, the generic rule on the grid, and
//!   the generic rule on the same map turned into a `Graph` (`Graph::from_space`: the same
//!   node count, the same arcs), so the difference is the CSR graph against the grid's
//!   computed neighbours. Throughput is nodes (cells) per second.
//! * `route/*`: A* and Dijkstra on `data/maps/London_0_512.map` over 16 of its scenario's
//!   longest problems, with zero weight and with a threat layer of 40 stamped turrets
//!   (weight 1). Time is per batch of 16 searches.
//! * `sweep/*`: the best-first engine of `influence::paths` on the same map:
//!   `paths_full`, `Router::sweep` over the whole map from one cell; `path_falloff`,
//!   1,000 path-distance sources of radius 12 stamped (a few hundred cells each);
//!   `steady`, `SteadyState::solve` with decay 0.5 and one seed per 256 walkable cells;
//!   `areas`, `DerivedGraph::areas` with spacing 12 (a clearance sweep, a sweep per seed,
//!   and the nearest-seed labelling). Throughput is map cells per second.
//!
//! `cargo bench -p influence-bench --bench graph -- --quick`
//!
//! On the 2-core development machine (noisy: runs vary by ~25 %), one run gave: step
//! `grid_kernel` 0.15 ms, `grid_generic` 1.7 ms, `graph` 1.0 ms (64 M nodes/s); routes per
//! batch of 16 `astar` 284 ms, `astar_influence` 503 ms, `dijkstra` 384 ms,
//! `dijkstra_influence` 387 ms. These are the map's hardest problems (~830 long, A*
//! expanding 10–85 % of the 197k walkable cells); with a threat layer the octile estimate
//! is far below the true cost, so A* loses its edge over Dijkstra. Sweeps: `paths_full`
//! 7.2 ms, `path_falloff` 12.7 ms, `steady` 9.9 ms, `areas` 48 ms, against 10.7, 11.5–15.7,
//! 23.8 and 84 ms for the engine's former binary heap, run alternately.
#![allow(missing_docs)]

use influence::Cell;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use influence::propagate::{Diffusion, Propagator, Seed, SteadyState, Steps};
use influence::route::{Cost, Heuristic, Route, Router};
use influence::space::{DerivedGraph, Graph};
use influence::{Falloff, Grid, Layer, Metric, Source, Space, Stamper};
use influence_bench::reference::GenericSpace;
use influence_bench::rng::walled_grid;

/// The walled 256² map of the graph and route benches.
fn walled(side: usize) -> Grid {
    walled_grid(side, 0x2545_f491_4f6c_dd1d)
}

fn step(c: &mut Criterion) {
    let side = 256;
    let grid = walled(side);
    let graph = Graph::from_space(&grid).unwrap();
    let d = Diffusion::new(0.05, 0.6).unwrap();
    let seeds: Vec<Seed> = [(64, 64), (192, 128), (128, 192)]
        .iter()
        .filter_map(|&(x, y)| grid.index(Cell::new(x, y)))
        .map(|i| Seed::new(i, 10.0))
        .collect();
    let mut warm = Propagator::new(&grid, d);
    for _ in 0..2 * side {
        warm.write_seeds(&grid, &seeds).unwrap();
        warm.step(&grid, Steps::default()).unwrap();
    }
    let (mut kernel, mut generic, mut on_graph) = (warm.clone(), warm.clone(), warm);
    let mut group = c.benchmark_group("step");
    group.throughput(Throughput::Elements(grid.len() as u64));
    group.bench_function(BenchmarkId::new("grid_kernel", side), |b| {
        b.iter(|| {
            kernel.write_seeds(&grid, &seeds).unwrap();
            kernel.step(&grid, Steps::default()).unwrap();
        });
    });
    group.bench_function(BenchmarkId::new("grid_generic", side), |b| {
        b.iter(|| {
            generic.write_seeds(&grid, &seeds).unwrap();
            generic.step(&GenericSpace(&grid), Steps::default()).unwrap();
        });
    });
    group.bench_function(BenchmarkId::new("graph", side), |b| {
        b.iter(|| {
            on_graph.write_seeds(&graph, &seeds).unwrap();
            on_graph.step(&graph, Steps::default()).unwrap();
        });
    });
    group.finish();
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/maps").join(name)
}

fn route(c: &mut Criterion) {
    let grid = Grid::load_movingai(data("London_0_512.map")).unwrap();
    let scen = movingai::parser::parse_scen_file(&data("London_0_512.map.scen")).unwrap();
    let mut longest: Vec<_> = scen.iter().collect();
    longest.sort_by(|a, b| b.optimal_length.total_cmp(&a.optimal_length));
    let problems: Vec<(usize, usize)> = longest
        .iter()
        .take(16)
        .map(|r| {
            (
                grid.index(Cell::new(r.start_pos.0, r.start_pos.1)).unwrap(),
                grid.index(Cell::new(r.goal_pos.0, r.goal_pos.1)).unwrap(),
            )
        })
        .collect();
    // 40 turrets on walkable cells spread over the map.
    let open: Vec<usize> = (0..grid.len()).filter(|&i| grid.is_walkable(i)).collect();
    let mut threat = Layer::for_space(&grid);
    let mut stamper = Stamper::new();
    for k in 0..40 {
        let at = open[k * open.len() / 40 + open.len() / 80];
        let turret = Source::new(grid.position(at).truncate(), 5.0, Falloff::Linear, 30.0).unwrap();
        stamper.stamp(&grid, &mut threat, &turret).unwrap();
    }
    let plain = Cost::distance();
    let avoiding = Cost::avoiding(&threat, 1.0).unwrap();
    let mut router = Router::new();
    let mut out = Route::default();
    let mut group = c.benchmark_group("route");
    group.sample_size(10);
    for (name, cost, h) in [
        ("astar", &plain, Heuristic::Octile),
        ("astar_influence", &avoiding, Heuristic::Octile),
        ("dijkstra", &plain, Heuristic::Zero),
        ("dijkstra_influence", &avoiding, Heuristic::Zero),
    ] {
        group.bench_function(BenchmarkId::new(name, "london16"), |b| {
            b.iter(|| {
                for &(s, g) in &problems {
                    assert!(router.find_into(&grid, s, g, cost, h, &mut out).unwrap());
                }
            });
        });
    }
    group.finish();
}

fn sweep(c: &mut Criterion) {
    let grid = Grid::load_movingai(data("London_0_512.map")).unwrap();
    let open: Vec<usize> = (0..grid.len()).filter(|&i| grid.is_walkable(i)).collect();
    let mut group = c.benchmark_group("sweep");
    group.sample_size(10).throughput(Throughput::Elements(grid.len() as u64));

    let mut scratch = Router::new();
    let start = open[open.len() / 2];
    group.bench_function("paths_full", |b| {
        b.iter(|| {
            let mut far = 0.0f32;
            scratch.sweep(&grid, &[(start, 0.0)], f32::INFINITY, |_, d| far = far.max(d));
            far
        });
    });

    let sources: Vec<Source> = (0..1000)
        .map(|k| {
            let at = grid.position(open[k * open.len() / 1000]).truncate();
            Source::new(at, 1.0, Falloff::Linear, 12.0).unwrap().with_metric(Metric::Path)
        })
        .collect();
    let mut stamper = Stamper::new();
    let mut layer = Layer::for_space(&grid);
    group.bench_function("path_falloff", |b| {
        b.iter(|| {
            for s in &sources {
                stamper.stamp(&grid, &mut layer, s).unwrap();
            }
        });
    });

    let seeds: Vec<Seed> = open.iter().step_by(256).map(|&i| Seed::new(i, 1.0)).collect();
    let d = Diffusion::new(0.5, 1.0).unwrap();
    let mut solver = SteadyState::default();
    group.bench_function("steady", |b| {
        b.iter(|| solver.solve(&grid, &d, &seeds, &mut layer).unwrap());
    });

    group.bench_function("areas", |b| b.iter(|| DerivedGraph::areas(&grid, 12.0).unwrap()));
    group.finish();
}

criterion_group!(benches, step, route, sweep);
criterion_main!(benches);
