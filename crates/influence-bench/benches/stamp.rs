//! Stamping 1,000 sources of radius 8 into a 1024 × 1024 grid: the cached-kernel stamper,
//! the same stamper evaluating every source directly, and `influence_bench::reference::stamp`
//! (per cell: bounds-checked indexing, distance and falloff recomputed), in one run. Then
//! the same sources moved off their cell centres, which the stamper evaluates directly.

#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use influence::glam::Vec2;
use influence::Cell;
use influence::{Falloff, Grid, Layer, Source, Stamper};
use influence_bench::rng::Rng;
use std::hint::black_box;

const SIZE: usize = 1024;
const RADIUS: f32 = 8.0;

/// `n` sources at cell centres, each moved by `offset` (in world units).
fn sources(grid: &Grid, n: usize, offset: Vec2) -> Vec<Source> {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    (0..n)
        .map(|_| {
            let at = grid.center(Cell::new(rng.below(SIZE), rng.below(SIZE))) + offset;
            Source::new(at, 1.0 + rng.below(7) as f32, Falloff::Linear, RADIUS).unwrap()
        })
        .collect()
}

/// How long `stamp` takes to fill a zeroed `layer`.
fn measure(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    layer: &mut Layer,
    mut stamp: impl FnMut(&mut Layer),
) {
    group.bench_function(BenchmarkId::new(name, 1000), |b| {
        b.iter(|| {
            layer.fill(0.0);
            stamp(layer);
            black_box(layer.values()[0])
        });
    });
}

fn bench(c: &mut Criterion) {
    let grid = Grid::new(SIZE, SIZE).unwrap();
    let mut layer = Layer::for_space(&grid);
    let all = sources(&grid, 1000, Vec2::ZERO);
    let mut group = c.benchmark_group("stamp_1000_r8_1024");
    group.throughput(Throughput::Elements(all.len() as u64));
    let (mut cached, mut direct) = (Stamper::new(), Stamper::direct());
    measure(&mut group, "kernels", &mut layer, |l| cached.stamp_all(&grid, l, &all).unwrap());
    measure(&mut group, "direct", &mut layer, |l| direct.stamp_all(&grid, l, &all).unwrap());
    measure(&mut group, "reference", &mut layer, |l| influence_bench::reference::stamp(&grid, l, &all));
    group.finish();

    // Off-centre: no kernel applies, every source is evaluated directly.
    let all = sources(&grid, 1000, Vec2::new(0.37, -0.19));
    let mut group = c.benchmark_group("stamp_offcentre_1000_r8_1024");
    group.throughput(Throughput::Elements(all.len() as u64));
    let mut stamper = Stamper::new();
    measure(&mut group, "stamper", &mut layer, |l| stamper.stamp_all(&grid, l, &all).unwrap());
    measure(&mut group, "reference", &mut layer, |l| influence_bench::reference::stamp(&grid, l, &all));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
