//! One danger-aware route, three ways, and one flow field, on the maps a game frame routes on.
//!
//! * `route/today`: `Router::find` (octile estimate, weight 1) through the generic search,
//!   the way every route was searched before the grid search: the same map seen through
//!   `GenericSpace`, which hides that it is a grid.
//! * `route/router`: `Router::find` on the grid itself, which takes the grid search.
//! * `route/binary_heap`: a plain binary-heap grid A* written here as a careful engineer
//!   would (flat arrays, the neighbours computed in place, packed `u64` keys, the same octile
//!   estimate and the same costs), the baseline; its cost is checked against the router's.
//! * `flow/field`: `FlowField::compute` from the route's goal over the whole map, the
//!   search that then serves every unit walking there.
//!
//! Maps: 256² with 10 % walls (the pattern of `benches/graph.rs`) under 500 stamped units of
//! radius 8 (linear), corner to corner; and `data/maps/London_0_512.map` under 2,000 such
//! units, on its scenario's longest problem.
//!
//! `cargo bench -p influence-bench --bench routes`
//!
//! On the 2-core development machine (shared with other builds, so ±15 %), one run gave:
//!
//! | map | today | router | binary heap | flow field |
//! |---|---|---|---|---|
//! | walled256 (A* expands 38k of 59k cells) | 3.42 ms | 2.74 ms | 2.47 ms | 1.88 ms |
//! | london512 (A* expands 111k cells) | 11.0 ms | 8.78 ms | 7.05 ms | 5.77 ms |
//!
//! So the grid search is about 1.25× today's and a whole field about 0.55× of one route
//! today: short of the goals (2× and 0.3×), and the plain binary heap still beats
//! the router, whose queue keeps the exact tie order (estimate, larger cost so far, lower
//! cell) that the golden routes depend on.
#![allow(missing_docs)]

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use influence::route::{Cost, FlowField, Heuristic, Route, Router};
use influence::{Cell, Connectivity, Falloff, Grid, Layer, Source, Space, Stamper};
use influence_bench::reference::GenericSpace;
use influence_bench::rng::{walled_grid, Rng};

/// The walled 256² map of the graph and route benches.
fn walled(side: usize) -> Grid {
    walled_grid(side, 0x2545_f491_4f6c_dd1d)
}

/// A unit's strength: with it, A* across the 256² map expands about 44,000 of its 59,000
/// walkable cells, as the frame the issue measured did (a weaker layer leaves the octile
/// estimate tight, and A* fast).
const STRENGTH: f32 = 4.0;

/// `units` enemies of radius 8 (linear falloff, strength [`STRENGTH`]) on random walkable
/// cells.
fn danger(grid: &Grid, units: usize, seed: u64) -> Layer {
    let open: Vec<usize> = (0..grid.len()).filter(|&i| grid.is_walkable(i)).collect();
    let mut rng = Rng::new(seed);
    let mut layer = Layer::for_space(grid);
    let mut stamper = Stamper::new();
    for _ in 0..units {
        let at = open[rng.below(open.len())];
        let unit = Source::new(grid.position(at).truncate(), STRENGTH, Falloff::Linear, 8.0).unwrap();
        stamper.stamp(grid, &mut layer, &unit).unwrap();
    }
    layer
}

/// The walkable cell nearest `(x, y)` along the diagonal towards the map's centre.
fn open_near(grid: &Grid, x: usize, y: usize) -> usize {
    let (cx, cy) = (grid.width() / 2, grid.height() / 2);
    (0..grid.width().max(grid.height()))
        .map(|k| {
            let step = |a: usize, c: usize| if a < c { (a + k).min(c) } else { a.saturating_sub(k).max(c) };
            Cell::new(step(x, cx), step(y, cy))
        })
        .find(|&c| !grid.is_blocked(c))
        .and_then(|c| grid.index(c))
        .unwrap()
}

/// A plain binary-heap A* on an 8-connected grid (no corner cutting), entering cell `j` at
/// `d + weight · max(0, layer[j])`, with the octile estimate. Returns the route's cost.
struct PlainAstar {
    g: Vec<f32>,
    closed: Vec<bool>,
    heap: BinaryHeap<Reverse<u64>>,
}

impl PlainAstar {
    fn new() -> Self {
        Self { g: Vec::new(), closed: Vec::new(), heap: BinaryHeap::new() }
    }

    fn find(&mut self, grid: &Grid, start: usize, goal: usize, layer: &Layer, weight: f32) -> Option<f32> {
        assert_eq!(grid.connectivity(), Connectivity::Eight);
        let (w, h, n) = (grid.width(), grid.height(), grid.len());
        let blocked = grid.blocked();
        let values = layer.values();
        self.g.clear();
        self.g.resize(n, f32::INFINITY);
        self.closed.clear();
        self.closed.resize(n, false);
        self.heap.clear();
        let (gx, gy) = ((goal % w) as f32, (goal / w) as f32);
        let octile = |c: usize| {
            let (dx, dy) = (((c % w) as f32 - gx).abs(), ((c / w) as f32 - gy).abs());
            dx.max(dy) + (std::f32::consts::SQRT_2 - 1.0) * dx.min(dy)
        };
        // f ≥ 0, so its bits order as the numbers do; the cell breaks ties.
        let key = |f: f32, c: usize| u64::from(f.to_bits()) << 32 | c as u64;
        self.g[start] = 0.0;
        self.heap.push(Reverse(key(octile(start), start)));
        let diagonal = std::f32::consts::SQRT_2;
        while let Some(Reverse(k)) = self.heap.pop() {
            let v = k as u32 as usize;
            if self.closed[v] {
                continue;
            }
            if v == goal {
                return Some(self.g[v]);
            }
            self.closed[v] = true;
            let gv = self.g[v];
            let (x, y) = (v % w, v / w);
            let right = x + 1 < w && !blocked[v + 1];
            let left = x > 0 && !blocked[v - 1];
            let down = y + 1 < h && !blocked[v + w];
            let up = y > 0 && !blocked[v - w];
            let mut relax = |u: usize, d: f32| {
                let c = gv + (d + weight * values[u].max(0.0));
                if c < self.g[u] {
                    self.g[u] = c;
                    self.heap.push(Reverse(key(c + octile(u), u)));
                }
            };
            for (open, u) in
                [(right, v + 1), (left, v.wrapping_sub(1)), (down, v + w), (up, v.wrapping_sub(w))]
            {
                if open {
                    relax(u, 1.0);
                }
            }
            for (open, u) in [
                (right && down, v + w + 1),
                (left && down, (v + w).wrapping_sub(1)),
                (right && up, v.wrapping_sub(w) + 1),
                (left && up, v.wrapping_sub(w + 1)),
            ] {
                if open && !blocked[u] {
                    relax(u, diagonal);
                }
            }
        }
        None
    }
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
            open_near(&open_256, 0, 0),
            open_near(&open_256, 255, 255),
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
    }
    group.finish();
}

criterion_group!(benches, routes);
criterion_main!(benches);
