//! One danger-aware route, three ways, and one flow field, on the maps a game frame routes on.
//!
//! * `route/today`: `Router::find` (octile estimate, weight 1) through the generic search,
//!   the way every route was searched before the grid search: the same map seen through
//!   `GenericSpace`, which hides that it is a grid.
//! * `route/router`: `Router::find` on the grid itself, which takes the grid search.
//! * `route/binary_heap`: a plain binary-heap grid A* written here as a careful engineer
//!   would (flat arrays, the neighbours computed in place, packed `u64` keys, the same octile
//!   estimate and the same costs), the baseline; its cost is checked against the router's.
//! * `route/flow_field`: `FlowField::compute` from the route's goal over the whole map, the
//!   search that then serves every unit walking there; `flow_field_heavy` the same at ten
//!   times the danger weight.
//!
//! Maps: 256² with 10 % walls (the pattern of `benches/graph.rs`) under 500 stamped units of
//! radius 8 (linear), corner to corner; and `data/maps/London_0_512.map` under 2,000 such
//! units, on its scenario's longest problem.
//!
//! `cargo bench -p influence-bench --bench routes`
//!
//! On the 2-core development machine (AMD EPYC, Zen 5, shared with other builds under KVM,
//! so ±15 %; Rust 1.95, release), with the command above:
//!
//! | map | today | router | binary heap | flow field |
//! |---|---|---|---|---|
//! | walled256 (A* expands 38k of 59k cells), before | 3.42 ms | 2.74 ms | 2.47 ms | 1.88 ms |
//! | walled256, padded search core | 3.48 ms | 2.50 ms | 2.17 ms | 1.75 ms |
//! | london512 (A* expands 111k of 197k cells), before | 11.0 ms | 8.78 ms | 7.05 ms | 5.77 ms |
//! | london512, padded search core | 9.26 ms | 7.19 ms | 6.23 ms | 5.59 ms |
//! | walled256, A* buckets past 64 keys | 2.81 ms | 2.19 ms | 2.27 ms | 1.69 ms |
//! | london512, A* buckets past 64 keys | 8.91 ms | 6.21 ms | 6.33 ms | 4.55 ms |
//! | walled256, grid searches on buckets | 2.87 ms | 1.36 ms | 2.26 ms | 1.31 ms |
//! | london512, grid searches on buckets | 9.48 ms | 3.98 ms | 6.70 ms | 3.95 ms |
//!
//! "Before" is the last run before the searches expanded grids on the padded penalty array
//! (`paths/padded.rs`); a run of the old code on the same day gave 3.38 / 2.77 / 2.26 / 1.74
//! and 11.9 / 7.73 / 6.85 / 5.51. So the grid search is about 1.3–1.4× today's and a whole
//! field 0.50–0.60× of one route today: still short of the goals (2× and 0.3×),
//! and the plain binary heap still beats the router. Profiles put most of what is left in
//! the expansion's data-dependent branches (is the offer better?) and, for A*, a quarter in
//! the queue keeping the exact tie order (estimate, larger cost so far, lower cell) that the
//! golden routes depend on; see docs/PERFORMANCE.md. With the A* queue taking its radix
//! buckets past 64 keys instead of 1,024 (the same pops, so the same routes and
//! expansions), the router is 1.28× today on walled256 and 1.43× on london512 and now
//! edges out the binary heap; still short of 2×. With both grid searches on buckets as wide
//! as (a quarter of, for A*) the cheapest step and no branch per neighbour ("grid searches
//! on buckets"; A* reopens cells, so equal-cost routes may differ from the generic
//! search's), the router is 2.1× today on walled256 and 2.4× on london512, 1.7× the plain binary heap.
#![allow(missing_docs)]

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use influence::route::{Cost, FlowField, Heuristic, Route, Router};
use influence::{Cell, Grid};
use influence_bench::plain_astar::PlainAstar;
use influence_bench::reference::GenericSpace;
use influence_bench::rng::{danger, open_near, walled_grid};

/// The walled 256² map of the graph and route benches.
fn walled(side: usize) -> Grid {
    walled_grid(side, 0x2545_f491_4f6c_dd1d)
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/maps").join(name)
}

fn routes(c: &mut Criterion) {
    let open_256 = walled(256);
    let london = Grid::load_movingai(data("London_0_512.map")).unwrap();
    let scen = movingai::parser::parse_scen_file(&data("London_0_512.map.scen")).unwrap();
    let longest = scen.iter().max_by(|a, b| a.optimal_length.total_cmp(&b.optimal_length)).unwrap();
    let maps = [
        (
            "walled256",
            danger(&open_256, 500, 7),
            open_near(&open_256, 0, 0).expect("an open corner"),
            open_near(&open_256, 255, 255).expect("an open corner"),
            &open_256,
        ),
        (
            "london512",
            danger(&london, 2000, 11),
            london.index(Cell::new(longest.start_pos.0, longest.start_pos.1)).unwrap(),
            london.index(Cell::new(longest.goal_pos.0, longest.goal_pos.1)).unwrap(),
            &london,
        ),
    ];
    let mut group = c.benchmark_group("route");
    group.sample_size(20);
    for (name, layer, start, goal, grid) in &maps {
        let (start, goal, grid) = (*start, *goal, *grid);
        let cost = Cost::avoiding(layer, 1.0).unwrap();
        let mut router = Router::new();
        let mut out = Route::default();
        let mut plain = PlainAstar::new();
        let mut field = FlowField::new();
        // The three searches agree on the cost (up to the order f32 steps add in).
        router.find_into(grid, start, goal, &cost, Heuristic::Octile, &mut out).unwrap();
        let best = out.cost;
        let baseline = plain.find(grid, start, goal, layer, 1.0).unwrap();
        field.compute(grid, &[goal], &cost).unwrap();
        let from_field = field.cost_to_goal(start).unwrap();
        for other in [baseline, from_field] {
            assert!((other - best).abs() <= 1e-5 * best, "{name}: {other} vs {best}");
        }
        eprintln!("{name}: route cost {best}, {} cells expanded", out.expanded);
        group.bench_function(BenchmarkId::new("today", name), |b| {
            b.iter(|| {
                router
                    .find_into(&GenericSpace(grid), start, goal, &cost, Heuristic::Octile, &mut out)
                    .unwrap()
            });
        });
        group.bench_function(BenchmarkId::new("router", name), |b| {
            b.iter(|| router.find_into(grid, start, goal, &cost, Heuristic::Octile, &mut out).unwrap());
        });
        group.bench_function(BenchmarkId::new("binary_heap", name), |b| {
            b.iter(|| plain.find(grid, start, goal, layer, 1.0));
        });
        group.bench_function(BenchmarkId::new("flow_field", name), |b| {
            b.iter(|| field.compute(grid, &[goal], &cost).unwrap());
        });
        // Ten times the danger: most steps into it are long, and the field takes its queue
        // search (`route/flow/queue.rs`) instead of the frontier list.
        let heavy = Cost::avoiding(layer, 10.0).unwrap();
        group.bench_function(BenchmarkId::new("flow_field_heavy", name), |b| {
            b.iter(|| field.compute(grid, &[goal], &heavy).unwrap());
        });
    }
    group.finish();
}

criterion_group!(benches, routes);
criterion_main!(benches);
