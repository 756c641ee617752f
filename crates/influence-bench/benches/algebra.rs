//! The compound maps (influence, tension, vulnerability, …) of two 1024 × 1024 team layers:
//! `Analysis::update`, in place, beside `influence_bench::reference::analysis`, which builds
//! each map as a fresh vector, in one run.

#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use influence::{Analysis, Layer};
use influence_bench::rng::Rng;
use std::hint::black_box;

const CELLS: usize = 1024 * 1024;

fn layer(seed: u64) -> Layer {
    let mut rng = Rng::new(seed);
    Layer::from_vec((0..CELLS).map(|_| rng.unit()).collect())
}

fn bench(c: &mut Criterion) {
    let (red, blue) = (layer(1), layer(2));
    let mut group = c.benchmark_group("analysis_1024");
    group.throughput(Throughput::Elements(CELLS as u64));
    let mut maps = Analysis::new(CELLS);
    group.bench_function("in_place", |b| {
        b.iter(|| {
            maps.update(&red, &[&blue]);
            black_box(maps.vulnerability.values()[7])
        });
    });
    group.bench_function("reference", |b| {
        b.iter(|| black_box(influence_bench::reference::analysis(red.values(), blue.values())));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
