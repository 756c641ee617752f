//! The diffusion step on 4- and 8-connected grids at 256² and 1024²: the row-wise kernel,
//! the generic rule, and `influence::reference::DiffusionReference`, written the way
//! "Influence Maps: Part 1" writes it (a per-cell loop with bounds checks, then a full copy).
//!
//! `cargo bench -p influence --bench propagate -- --quick`; criterion reports elements (cells)
//! per second, and the time per step divided by the cell count is the time per cell.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use influence::propagate::{Diffusion, Propagator, Seed};
use influence::reference::DiffusionReference;
use influence::{Connectivity, Grid};

const DECAY: f32 = 0.05;
const MOMENTUM: f32 = 0.6;

/// A grid with about 10 % of its cells blocked (a fixed pseudo-random pattern).
fn map(side: usize, connectivity: Connectivity) -> Grid {
    let mut grid = Grid::new(side, side).unwrap().with_connectivity(connectivity);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for i in 0..side * side {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        if state % 10 == 0 {
            grid.set_blocked(i % side, i / side, true).unwrap();
        }
    }
    grid
}

fn seeds(grid: &Grid) -> Vec<Seed> {
    let s = grid.width();
    [(s / 4, s / 4), (3 * s / 4, s / 2), (s / 2, 3 * s / 4)]
        .iter()
        .filter_map(|&(x, y)| grid.index(x, y))
        .map(|i| Seed::new(i, 10.0))
        .collect()
}

fn bench(c: &mut Criterion) {
    let d = Diffusion::new(DECAY, MOMENTUM).unwrap();
    for connectivity in [Connectivity::Four, Connectivity::Eight] {
        let mut group = c.benchmark_group(format!("step/{connectivity:?}"));
        for side in [256, 1024] {
            let grid = map(side, connectivity);
            let seeds = seeds(&grid);
            // Warm up so that influence covers the map, as in play.
            let mut fast = Propagator::new(&grid, d);
            for _ in 0..2 * side {
                fast.write_seeds(&grid, &seeds).unwrap();
                fast.step_grid(&grid);
            }
            let mut generic = fast.clone();
            let values = fast.values().values().to_vec();
            let mut reference = DiffusionReference { map: values.clone(), buffer: values };

            // The three compute the same map.
            let mut check = fast.clone();
            check.write_seeds(&grid, &seeds).unwrap();
            for &s in &seeds {
                reference.buffer[s.cell] = s.strength;
            }
            check.step_grid(&grid);
            reference.step(&grid, &d);
            assert!(check
                .values()
                .values()
                .iter()
                .zip(&reference.buffer)
                .all(|(a, b)| a.to_bits() == b.to_bits()));

            group.throughput(Throughput::Elements(grid.len() as u64));
            group.bench_function(BenchmarkId::new("fast", side), |b| {
                b.iter(|| {
                    fast.write_seeds(&grid, &seeds).unwrap();
                    fast.step_grid(&grid);
                });
            });
            group.bench_function(BenchmarkId::new("generic", side), |b| {
                b.iter(|| {
                    generic.write_seeds(&grid, &seeds).unwrap();
                    generic.step(&grid);
                });
            });
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

criterion_group!(benches, bench);
criterion_main!(benches);
