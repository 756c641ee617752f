//! The grid-free field ("Escaping the Grid", Game AI Pro):
//!
//! 1. `field_index`: 10,000 sources in a 1000 × 1000 world, build + 100,000 value queries,
//!    through the field's rstar index, through a kiddo k-d tree queried with the largest
//!    radius (the article's scheme), and by brute force over every source; once with radii
//!    5–20 and once with one extra source of radius 200.
//! 2. `field_vs_grid`: 1,000 linear sources of radius 8 over 1024 × 1024 world units; 100,000
//!    random reads of the field vs nearest-cell reads of stamped grids of cell size 1 and
//!    0.25, plus the cost of stamping those grids and of sampling the field onto the coarse
//!    one. Memory and accuracy are printed once (they are not timings).

#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use influence::field::{Curve, Field, PointSource};
use influence::glam::Vec2;
use influence::{Falloff, Grid, Layer, Source, Stamper};
use influence_bench::rng::Rng;
use kiddo::{ImmutableKdTree, SquaredEuclidean};
use std::hint::black_box;

/// A point with both coordinates in `[0, world)`.
fn point(rng: &mut Rng, world: f32) -> Vec2 {
    Vec2::new(rng.unit() * world, rng.unit() * world)
}

fn sources(n: usize, world: f32, radius: impl Fn(&mut Rng) -> f32) -> Vec<PointSource<Vec2>> {
    let mut rng = Rng::new(7);
    (0..n)
        .map(|_| {
            let (p, s, r) = (point(&mut rng, world), rng.range(1.0, 5.0), radius(&mut rng));
            PointSource::new(p, s, r, Curve::Linear).unwrap()
        })
        .collect()
}

/// The article's k-d tree scheme: search the largest radius, keep the sources that reach.
fn kiddo_sum(sources: &[PointSource<Vec2>], queries: &[Vec2]) -> f32 {
    let points: Vec<[f32; 2]> = sources.iter().map(|s| s.position().to_array()).collect();
    let tree: ImmutableKdTree<f32, 2> = ImmutableKdTree::new_from_slice(&points);
    let reach = sources.iter().map(PointSource::radius).fold(0.0, f32::max);
    let mut total = 0.0;
    for q in queries {
        for n in tree.within_unsorted::<SquaredEuclidean>(&q.to_array(), reach * reach) {
            total += sources[n.item as usize].value_and_gradient_at(*q).0;
        }
    }
    total
}

fn index_bench(c: &mut Criterion) {
    const WORLD: f32 = 1000.0;
    let queries: Vec<Vec2> = {
        let mut rng = Rng::new(99);
        (0..100_000).map(|_| point(&mut rng, WORLD)).collect()
    };
    let even = sources(10_000, WORLD, |rng| rng.range(5.0, 20.0));
    let mut wide = even.clone();
    wide.push(PointSource::new(Vec2::splat(WORLD / 2.0), 1.0, 200.0, Curve::Linear).unwrap());
    let mut group = c.benchmark_group("field_index_10k_sources_100k_queries");
    group.sample_size(10);
    for (name, set) in [("radii_5_20", &even), ("plus_one_radius_200", &wide)] {
        group.bench_function(BenchmarkId::new("rstar_field", name), |b| {
            b.iter(|| {
                let field = Field::new(set.clone());
                black_box(queries.iter().map(|&q| field.value(q)).sum::<f32>())
            });
        });
        group.bench_function(BenchmarkId::new("kiddo", name), |b| {
            b.iter(|| black_box(kiddo_sum(set, &queries)));
        });
    }
    group.bench_function(BenchmarkId::new("brute_force", "radii_5_20"), |b| {
        b.iter(|| {
            black_box(
                queries
                    .iter()
                    .map(|&q| even.iter().map(|s| s.value_and_gradient_at(q).0).sum::<f32>())
                    .sum::<f32>(),
            )
        });
    });
    group.finish();
}

fn grid_bench(c: &mut Criterion) {
    const WORLD: usize = 1024;
    let points = sources(1_000, WORLD as f32, |_| 8.0);
    let grid_sources: Vec<Source> = points
        .iter()
        .map(|s| Source::new(s.position(), s.strength(), Falloff::Linear, s.radius()).unwrap())
        .collect();
    let field = Field::<Vec2>::from_sources(&grid_sources).unwrap();
    let reads: Vec<Vec2> = {
        let mut rng = Rng::new(5);
        (0..100_000).map(|_| point(&mut rng, WORLD as f32)).collect()
    };
    let exact: Vec<f32> = reads.iter().map(|&p| field.value(p)).collect();
    eprintln!("field: {} sources, {} bytes, exact", field.sources().len(), field.heap_bytes());
    let mut stamper = Stamper::new();
    let mut group = c.benchmark_group("field_vs_grid_1000_sources_1024_world");
    group.sample_size(10);
    for cell in [1.0f32, 0.25] {
        let side = (WORLD as f32 / cell) as usize;
        let grid = Grid::new(side, side).unwrap().with_cell_size(cell).unwrap();
        let mut layer = Layer::for_space(&grid);
        stamper.stamp_all(&grid, &mut layer, &grid_sources).unwrap();
        let read = |p: Vec2| grid.cell_at(p).and_then(|c| grid.index(c)).map_or(0.0, |i| layer[i]);
        let errors: Vec<f32> = reads.iter().zip(&exact).map(|(&p, &e)| (read(p) - e).abs()).collect();
        eprintln!(
            "grid cell {cell}: {side}x{side}, {} bytes, nearest-cell error max {:.4} mean {:.5}",
            layer.len() * std::mem::size_of::<f32>(),
            errors.iter().fold(0.0f32, |m, &e| m.max(e)),
            errors.iter().sum::<f32>() / errors.len() as f32,
        );
        group.bench_function(BenchmarkId::new("grid_read_100k", cell), |b| {
            b.iter(|| black_box(reads.iter().map(|&p| read(p)).sum::<f32>()));
        });
        let mut scratch = Layer::for_space(&grid);
        group.bench_function(BenchmarkId::new("grid_stamp", cell), |b| {
            b.iter(|| {
                scratch.fill(0.0);
                stamper.stamp_all(&grid, &mut scratch, &grid_sources).unwrap();
                black_box(scratch.values()[0])
            });
        });
    }
    group.bench_function("field_read_100k", |b| {
        b.iter(|| black_box(reads.iter().map(|&p| field.value(p)).sum::<f32>()));
    });
    group.bench_function("field_build", |b| b.iter(|| black_box(Field::new(points.clone()).sources().len())));
    let grid = Grid::new(WORLD, WORLD).unwrap();
    let mut layer = Layer::for_space(&grid);
    group.bench_function("field_sample_onto_1024x1024", |b| {
        b.iter(|| {
            field.sample_onto(&grid, 0.0, &mut layer);
            black_box(layer.values()[0])
        });
    });
    group.finish();
}

criterion_group!(benches, index_bench, grid_bench);
criterion_main!(benches);
