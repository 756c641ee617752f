//! The spot queries of one game frame on one layer, three ways, and the single-answer
//! queries with and without the index.
//!
//! * `top_n10/today`: ten `query::top_n` (5 spots, spacing 1 to 10, highest), as the
//!   `frame` kernel of `influence bench` asks them.
//! * `top_n10/plain`: the same ten with `plain_top_n::PlainTopN`, a careful top-N without
//!   an index (reused key buffer, partial selection, sorting only a leading block): the bar.
//! * `top_n10/index`: `SpotIndex::build` and the same ten `SpotIndex::top_n_into`, the build
//!   included.
//! * `extreme`, `radius` (10 discs of radius 12), `reachable` (a walk of 20 from 10 starts):
//!   today's functions against the index's methods on an index already built (the build is
//!   the frame's, shared), plus `build` alone.
//!
//! Maps: 256² with ~10 % walls (`rng::walled_grid`), 8-connected; layers `diffused` (the
//! frame's: 500 units of radius 8 stamped anywhere, then 50 diffusion steps) and `stamped`
//! (`rng::danger`: 500 units, no diffusion). After criterion's runs, the three top-N ways
//! are timed again in turns (so that they share the machine's load) and the two ratios the
//! index must meet are printed: index / today (goal ≤ 5 %) and plain / index (goal ≥ 10×).
//!
//! `cargo bench -p influence-bench --bench spots`
//!
//! One run on the 2-core development machine (shared, so ±15 %): on the diffused layer,
//! today 2025 µs, plain 1424 µs, index 34.9 µs (1.72 % of today, 40.8× faster than plain);
//! on the stamped one 1689, 1115 and 26.0 µs (1.54 %, 42.9×). The build alone: 18.6 µs.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};
use influence::glam::{Vec2, Vec3};
use influence::propagate::{Diffusion, Propagator, Steps};
use influence::query::{self, Extreme, SpotIndex};
use influence::route::Router;
use influence::{Connectivity, Falloff, Grid, Layer, Source, Space, Stamper};
use influence_bench::plain_top_n::PlainTopN;
use influence_bench::rng::{danger, walled_grid, Rng};

const SIDE: usize = 256;
const QUERIES: usize = 10;

/// The frame's layer: 500 units (strength 1–5, linear, radius 8) on walkable points, then
/// 50 diffusion steps (rate 0.3, decay 0.5).
fn diffused(grid: &Grid) -> Layer {
    let mut rng = Rng::new(0x0123_4567_89AB_CDEF);
    let mut units = Vec::new();
    while units.len() < 500 {
        let at = Vec2::new(rng.range(0.0, SIDE as f32), rng.range(0.0, SIDE as f32));
        let strength = rng.range(1.0, 5.0);
        if grid.cell_at(at).is_some_and(|c| !grid.is_blocked(c)) {
            units.push(Source::new(at, strength, Falloff::Linear, 8.0).unwrap());
        }
    }
    let mut layer = Layer::for_space(grid);
    Stamper::new().stamp_all(grid, &mut layer, &units).unwrap();
    let mut p = Propagator::new(grid, Diffusion::new(0.3, 0.5).unwrap());
    p.values_mut().values_mut().copy_from_slice(layer.values());
    drop(p.step(grid, Steps { count: 50, ..Steps::default() }));
    p.values().clone()
}

fn maps() -> (Grid, [(&'static str, Layer); 2]) {
    let grid = walled_grid(SIDE, 0x9E37_79B9_7F4A_7C15).with_connectivity(Connectivity::Eight);
    let layers = [("diffused", diffused(&grid)), ("stamped", danger(&grid, 500, 7))];
    (grid, layers)
}

fn today(grid: &Grid, layer: &Layer) {
    for q in 0..QUERIES {
        black_box(query::top_n(grid, layer, 5, (q + 1) as f32, Extreme::Highest));
    }
}

fn plain(grid: &Grid, layer: &Layer, p: &mut PlainTopN, out: &mut Vec<(usize, f32)>) {
    for q in 0..QUERIES {
        p.top_n_into(grid, layer, 5, (q + 1) as f32, Extreme::Highest, out);
        black_box(&out);
    }
}

fn indexed(grid: &Grid, layer: &Layer, index: &mut SpotIndex, out: &mut Vec<(usize, f32)>) {
    index.build(grid, layer);
    for q in 0..QUERIES {
        index.top_n_into(grid, layer, 5, (q + 1) as f32, Extreme::Highest, out);
        black_box(&out);
    }
}

/// Points and starts for the single-answer queries: walkable cells spread over the map.
fn probes(grid: &Grid) -> Vec<usize> {
    let mut rng = Rng::new(99);
    let mut cells = Vec::new();
    while cells.len() < QUERIES {
        let i = rng.below(grid.len());
        if grid.is_walkable(i) {
            cells.push(i);
        }
    }
    cells
}

fn spots(c: &mut Criterion) {
    let (grid, layers) = maps();
    let (mut p, mut index, mut out) = (PlainTopN::new(), SpotIndex::new(), Vec::new());
    let cells = probes(&grid);
    let centres: Vec<Vec3> = cells.iter().map(|&i| grid.position(i)).collect();
    let mut router = Router::new();
    for (name, layer) in &layers {
        // The three ways agree before they are timed.
        for q in 0..QUERIES {
            let s = (q + 1) as f32;
            let want = query::top_n(&grid, layer, 5, s, Extreme::Highest);
            p.top_n_into(&grid, layer, 5, s, Extreme::Highest, &mut out);
            assert_eq!(out, want);
            index.build(&grid, layer);
            index.top_n_into(&grid, layer, 5, s, Extreme::Highest, &mut out);
            assert_eq!(out, want);
        }
        let mut group = c.benchmark_group(format!("spots/{name}"));
        group.bench_function("top_n10/today", |b| b.iter(|| today(&grid, layer)));
        group.bench_function("top_n10/plain", |b| b.iter(|| plain(&grid, layer, &mut p, &mut out)));
        group.bench_function("top_n10/index", |b| b.iter(|| indexed(&grid, layer, &mut index, &mut out)));
        group.bench_function("build", |b| b.iter(|| index.build(&grid, black_box(layer))));
        index.build(&grid, layer);
        for which in [Extreme::Highest, Extreme::Lowest] {
            assert_eq!(index.extreme(&grid, layer, which), query::extreme(&grid, layer, which));
            for &c in &centres {
                let want = query::extreme_within_radius(&grid, layer, c, 12.0, which);
                assert_eq!(index.extreme_within_radius(&grid, layer, c, 12.0, which), want);
            }
        }
        group.bench_function("extreme/today", |b| {
            b.iter(|| black_box(query::extreme(&grid, layer, Extreme::Highest)));
        });
        group.bench_function("extreme/index", |b| {
            b.iter(|| black_box(index.extreme(&grid, layer, Extreme::Highest)));
        });
        group.bench_function("radius10/today", |b| {
            b.iter(|| {
                for &c in &centres {
                    black_box(query::extreme_within_radius(&grid, layer, c, 12.0, Extreme::Highest));
                }
            });
        });
        group.bench_function("radius10/index", |b| {
            b.iter(|| {
                for &c in &centres {
                    black_box(index.extreme_within_radius(&grid, layer, c, 12.0, Extreme::Highest));
                }
            });
        });
        group.bench_function("reachable10/today", |b| {
            b.iter(|| {
                for &s in &cells {
                    black_box(query::extreme_reachable(&grid, layer, s, 20.0, &mut router, Extreme::Highest));
                }
            });
        });
        group.bench_function("reachable10/index", |b| {
            b.iter(|| {
                for &s in &cells {
                    black_box(index.extreme_reachable(&grid, layer, s, 20.0, &mut router, Extreme::Highest));
                }
            });
        });
        group.finish();
        ratios(name, &grid, layer);
    }
}

/// The three top-N ways timed in turns, 15 rounds of about 20 ms each; the medians'
/// ratios are printed.
fn ratios(name: &str, grid: &Grid, layer: &Layer) {
    let (mut p, mut index, mut out) = (PlainTopN::new(), SpotIndex::new(), Vec::new());
    let mut times: [Vec<f64>; 3] = Default::default();
    let time = |f: &mut dyn FnMut(), reps: usize| {
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        t.elapsed().as_secs_f64() / reps as f64
    };
    for _ in 0..15 {
        times[0].push(time(&mut || today(grid, layer), 8));
        times[1].push(time(&mut || plain(grid, layer, &mut p, &mut out), 8));
        times[2].push(time(&mut || indexed(grid, layer, &mut index, &mut out), 200));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let [t, pl, ix] = times.each_mut().map(median);
    eprintln!(
        "spots/{name}: 10 top_n: today {:.1} µs, plain {:.1} µs, index (build included) {:.1} µs; \
         index / today = {:.2} % (goal ≤ 5 %), plain / index = {:.1}× (goal ≥ 10×)",
        t * 1e6,
        pl * 1e6,
        ix * 1e6,
        100.0 * ix / t,
        pl / ix
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = spots
}
criterion_main!(benches);
