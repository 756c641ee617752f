//! The compound maps (influence, tension, vulnerability, …) of two 1024 × 1024 team layers:
//! `Analysis::update`, in place, beside a straightforward reference that builds each map
//! as a fresh vector, in one run.

#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use influence::{Analysis, Layer};
use std::hint::black_box;

const CELLS: usize = 1024 * 1024;

fn layer(seed: u64) -> Layer {
    let mut s = seed;
    Layer::from_vec(
        (0..CELLS)
            .map(|_| {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (s >> 40) as f32 / (1u64 << 24) as f32
            })
            .collect(),
    )
}

/// Each map allocated anew from the two inputs, element by element with checked indexing.
fn reference(mine: &[f32], theirs: &[f32]) -> [Vec<f32>; 5] {
    let mut influence = Vec::new();
    let mut tension = Vec::new();
    let mut product = Vec::new();
    for i in 0..mine.len() {
        influence.push(mine[i] - theirs[i]);
        tension.push(mine[i] + theirs[i]);
        product.push(mine[i] * theirs[i]);
    }
    let mut vulnerability = Vec::new();
    let mut directed = Vec::new();
    for i in 0..mine.len() {
        vulnerability.push(tension[i] - influence[i].abs());
        directed.push(tension[i] + influence[i]);
    }
    [influence, tension, product, vulnerability, directed]
}

fn bench(c: &mut Criterion) {
    let (red, blue) = (layer(1), layer(2));
    let mut group = c.benchmark_group("analysis_1024");
    group.throughput(Throughput::Elements(CELLS as u64));
    let mut maps = Analysis::new(CELLS);
    group.bench_function("in_place", |b| {
        b.iter(|| {
            maps.update(&[&red, &blue], 0);
            black_box(maps.vulnerability.values()[7])
        });
    });
    group.bench_function("reference", |b| b.iter(|| black_box(reference(red.values(), blue.values()))));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
