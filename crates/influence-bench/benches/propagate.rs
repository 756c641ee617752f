//! The grid diffusion step on 4- and 8-connected grids at 1024² and 4096², all in one run:
//!
//! * `copy`: a plain copy of one map's bytes, the one-pass memory floor;
//! * `step`: `write_seeds` + `step`, the row-wise kernel;
//! * `fused16`: `step` of 16 steps (throughput counts cells × steps, so the time per
//!   element is the time per cell per step): fused into one pass over memory, except with
//!   AVX-512 on maps of at most 2²⁰ cells (1024²), where the library takes single steps as
//!   the faster;
//! * `generic` (1024² only): `step` on the grid seen as any space, the rule written once
//!   over any space;
//! * `reference`: `influence_bench::reference::DiffusionReference`, written the way
//!   "Influence Maps: Part 1" writes it (a per-cell loop with bounds checks, then a full
//!   copy);
//! * `par_step` and `par_fused16` (feature `rayon`, which this crate turns on) on pools of
//!   1 and 2 threads;
//! * `arithmetic`: the step on a map of 1024 × 32 cells, which stays in the second-level
//!   cache — the kernel's arithmetic alone, the bound a step meets while the map fits in
//!   cache.
//!
//! Then `frame`: 1,000 agents stamped and 50 steps on a 256 × 256 map (Tayebi's "Influence
//! Maps in Game AI" frame budget), in one call and as a loop of single steps; and `chase`: the
//! flood fill predicting where a lost target went, on the real level `den012d` (Dragon
//! Age: Origins), from the first open cell of its lower half, for 32 and 128 steps.
//!
//! And `small_parallel`: one step of a 128², 256² and 512² map with `parallel` on and off,
//! called from the main thread, as an engine calls it.
//!
//! `cargo bench -p influence-bench --bench propagate -- --quick`; criterion
//! reports elements (cells) per second and the time per element, i.e. per cell.
#![allow(missing_docs)]

use influence::Cell;
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use influence::glam::Vec2;
use influence::glam::Vec3;
use influence::propagate::{Chase, Diffusion, FloodFill, Propagator, Seed, Steps};
use influence::{Connectivity, Falloff, Grid, Mode, Source, Space, Stamper};
use influence_bench::reference::{DiffusionReference, GenericSpace};
use influence_bench::rng::Rng;

const DECAY: f32 = 0.05;
const MOMENTUM: f32 = 0.6;
const FUSED: usize = 16;

/// The stream of the fixed pseudo-random maps and positions.
fn rng() -> Rng {
    Rng::new(0x2545_f491_4f6c_dd1d)
}

/// A grid with about 10 % of its cells blocked (a fixed pseudo-random pattern).
fn map(side: usize, connectivity: Connectivity) -> Grid {
    let mut grid = Grid::new(side, side).unwrap().with_connectivity(connectivity);
    let mut rng = rng();
    for i in 0..side * side {
        if rng.one_in(10) {
            grid.set_blocked(Cell::new(i % side, i / side), true).unwrap();
        }
    }
    grid
}

fn seeds(grid: &Grid) -> Vec<Seed> {
    let s = grid.width();
    [(s / 4, s / 4), (3 * s / 4, s / 2), (s / 2, 3 * s / 4)]
        .iter()
        .filter_map(|&(x, y)| grid.index(Cell::new(x, y)))
        .map(|i| Seed::new(i, 10.0))
        .collect()
}

/// A propagator whose map is covered with influence, as in play (values in (0, 10) on
/// walkable cells, then a few steps).
fn warm(grid: &Grid, d: Diffusion, seeds: &[Seed]) -> Propagator {
    let mut p = Propagator::new(grid, d);
    let mut rng = rng();
    for (i, v) in p.values_mut().values_mut().iter_mut().enumerate() {
        *v = if grid.is_walkable(i) { rng.below(1000) as f32 / 100.0 } else { 0.0 };
    }
    p.step(grid, Steps { count: 8, seeds, ..Steps::default() }).unwrap();
    p
}

fn step(c: &mut Criterion) {
    let d = Diffusion::new(DECAY, MOMENTUM).unwrap();
    for connectivity in [Connectivity::Four, Connectivity::Eight] {
        let mut group = c.benchmark_group(format!("step/{connectivity:?}"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        for side in [1024, 4096] {
            let grid = map(side, connectivity);
            let seeds = seeds(&grid);
            let mut fast = warm(&grid, d, &seeds);
            let values = fast.values().values().to_vec();
            let mut reference = DiffusionReference { map: values.clone(), buffer: values.clone() };

            // The step and the reference compute the same map.
            let mut check = fast.clone();
            check.write_seeds(&grid, &seeds).unwrap();
            check.step(&grid, Steps::default()).unwrap();
            for &s in &seeds {
                reference.buffer[s.cell] = s.strength;
            }
            reference.step(&grid, &d);
            assert!(check
                .values()
                .values()
                .iter()
                .zip(&reference.buffer)
                .all(|(a, b)| a.to_bits() == b.to_bits()));

            group.throughput(Throughput::Elements(grid.len() as u64));
            let mut copy = values.clone();
            group.bench_function(BenchmarkId::new("copy", side), |b| {
                b.iter(|| copy.copy_from_slice(black_box(&values)));
            });
            group.bench_function(BenchmarkId::new("step", side), |b| {
                b.iter(|| {
                    fast.write_seeds(&grid, &seeds).unwrap();
                    fast.step(&grid, Steps::default()).unwrap();
                });
            });
            group.throughput(Throughput::Elements((grid.len() * FUSED) as u64));
            group.bench_function(BenchmarkId::new(format!("fused{FUSED}"), side), |b| {
                b.iter(|| {
                    fast.step(&grid, Steps { count: FUSED, seeds: &seeds, ..Steps::default() }).unwrap()
                });
            });
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                group.throughput(Throughput::Elements(grid.len() as u64));
                group.bench_function(BenchmarkId::new(format!("par_step/{threads}"), side), |b| {
                    b.iter(|| {
                        fast.write_seeds(&grid, &seeds).unwrap();
                        pool.install(|| {
                            fast.step(&grid, Steps { parallel: true, ..Steps::default() }).unwrap()
                        });
                    });
                });
                group.throughput(Throughput::Elements((grid.len() * FUSED) as u64));
                group.bench_function(BenchmarkId::new(format!("par_fused{FUSED}/{threads}"), side), |b| {
                    b.iter(|| {
                        pool.install(|| {
                            fast.step(
                                &grid,
                                Steps { count: FUSED, seeds: &seeds, parallel: true, ..Steps::default() },
                            )
                        })
                        .unwrap()
                    });
                });
            }
            group.throughput(Throughput::Elements(grid.len() as u64));
            if side <= 1024 {
                let mut generic = fast.clone();
                group.bench_function(BenchmarkId::new("generic", side), |b| {
                    b.iter(|| {
                        generic.write_seeds(&grid, &seeds).unwrap();
                        generic.step(&GenericSpace(&grid), Steps::default()).unwrap();
                    });
                });
            }
            group.bench_function(BenchmarkId::new("reference", side), |b| {
                b.iter(|| {
                    for s in &seeds {
                        reference.buffer[s.cell] = s.strength;
                    }
                    reference.step(&grid, &d);
                });
            });
        }
        group.finish();
    }
}

/// One frame of a game: 1,000 agents stamped (radius 3, additive) into a 256 × 256 map, then
/// 50 steps with the agents' cells re-written as sources before each.
fn frame(c: &mut Criterion) {
    let grid = map(256, Connectivity::Eight);
    let d = Diffusion::new(DECAY, MOMENTUM).unwrap();
    let mut rng = rng();
    let cells: Vec<usize> = std::iter::repeat_with(|| rng.below(grid.len()))
        .filter(|&i| grid.is_walkable(i))
        .take(1000)
        .collect();
    let sources: Vec<Source> = cells
        .iter()
        .map(|&i| {
            let Cell { x, y } = grid.cell(i);
            Source::new(grid.center(Cell::new(x, y)) + Vec2::splat(0.25), 1.0, Falloff::Linear, 3.0).unwrap()
        })
        .collect();
    let seeds: Vec<Seed> = cells.iter().map(|&i| Seed::new(i, 1.0).with_mode(Mode::Max)).collect();
    let mut stamper = Stamper::new();
    let mut group = c.benchmark_group("frame");
    group.sample_size(20);
    let mut p = Propagator::new(&grid, d);
    group.bench_function("256/1000 agents + 50 steps in one call", |b| {
        b.iter(|| {
            stamper.stamp_all(&grid, p.values_mut(), &sources).unwrap();
            p.step(&grid, Steps { count: 50, seeds: &seeds, ..Steps::default() }).unwrap();
        });
    });
    group.bench_function("256/1000 agents + 50 single steps", |b| {
        b.iter(|| {
            stamper.stamp_all(&grid, p.values_mut(), &sources).unwrap();
            for _ in 0..50 {
                p.write_seeds(&grid, &seeds).unwrap();
                p.step(&grid, Steps::default()).unwrap();
            }
        });
    });
    group.finish();
}

/// The chase flood fill on a real level: the same fill and prediction a guard would make
/// each time it loses the player, with scratch reused between fills.
fn chase(c: &mut Criterion) {
    let map = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/maps/den012d.map");
    let grid = Grid::load_movingai(map).unwrap();
    let start =
        (0..grid.len()).find(|&i| grid.is_walkable(i) && grid.cell(i).y >= grid.height() / 2).unwrap();
    let mut fill = FloodFill::default();
    let mut group = c.benchmark_group("chase");
    for steps in [32, 128] {
        let chase = Chase::new(1.0 / steps as f32, usize::MAX, steps, 4.0).unwrap();
        group.bench_function(BenchmarkId::new("den012d", steps), |b| {
            b.iter(|| fill.predict(&grid, start, Vec3::X, &chase).unwrap());
        });
    }
    group.finish();
}

/// The step where memory costs next to nothing: a 1024 × 32 map (256 KiB for both
/// buffers, within the second-level cache).
fn arithmetic(c: &mut Criterion) {
    let d = Diffusion::new(DECAY, MOMENTUM).unwrap();
    let mut group = c.benchmark_group("arithmetic");
    for connectivity in [Connectivity::Four, Connectivity::Eight] {
        let grid = Grid::new(1024, 32).unwrap().with_connectivity(connectivity);
        let seeds = [Seed::new(grid.index(Cell::new(512, 2)).unwrap(), 10.0)];
        let mut p = warm(&grid, d, &seeds);
        group.throughput(Throughput::Elements(grid.len() as u64));
        group.bench_function(BenchmarkId::new(format!("{connectivity:?}"), "1024x32"), |b| {
            b.iter(|| p.step(&grid, Steps::default()).unwrap());
        });
    }
    group.finish();
}

/// One step of a small map with `parallel` on and off, called from the main thread (so
/// on rayon's global pool), as an engine calls it each frame: below a pass of 2¹⁷ cell-steps
/// the propagator keeps the work on the calling thread.
fn small_parallel(c: &mut Criterion) {
    let d = Diffusion::new(DECAY, MOMENTUM).unwrap();
    let mut group = c.benchmark_group("small_parallel");
    group.sample_size(20).measurement_time(Duration::from_secs(2));
    for side in [128, 256, 512] {
        let grid = map(side, Connectivity::Eight);
        let seeds = seeds(&grid);
        group.throughput(Throughput::Elements(grid.len() as u64));
        for parallel in [false, true] {
            let mut p = warm(&grid, d, &seeds);
            let name = if parallel { "parallel" } else { "calling_thread" };
            group.bench_function(BenchmarkId::new(name, side), |b| {
                b.iter(|| {
                    black_box(p.step(&grid, Steps { seeds: &seeds, parallel, ..Steps::default() }).unwrap())
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, step, frame, chase, arithmetic, small_parallel);
criterion_main!(benches);
