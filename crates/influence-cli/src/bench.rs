//! `influence bench`: nanoseconds per cell for each kernel at several map sizes, beside a
//! straightforward reference of the same kernel (`influence::reference`) and a plain copy of
//! the same bytes (the memory-bandwidth floor), all measured in the same run. Speed is
//! reported as numbers and ratios, never judged against a fixed time.

use std::hint::black_box;
use std::time::{Duration, Instant};

use influence::glam::Vec2;
use influence::{Analysis, Falloff, Grid, Layer, Source, Stamper};
use serde::Serialize;

/// One kernel at one size and thread count.
#[derive(Debug, Serialize)]
pub struct Record {
    kernel: &'static str,
    size: usize,
    threads: usize,
    ns_per_cell: f64,
    reference_ns_per_cell: f64,
    copy_ns_per_cell: f64,
}

/// The fast run and the reference run of one kernel, ready to be timed.
type Runs = (Box<dyn FnMut()>, Box<dyn FnMut()>);

/// A kernel under test: builds, for a `size × size` map, its [`Runs`].
struct Kernel {
    name: &'static str,
    setup: fn(usize) -> Runs,
}

const KERNELS: &[Kernel] =
    &[Kernel { name: "stamp", setup: stamp }, Kernel { name: "algebra", setup: algebra }];

/// Every kernel's name, for `--kernels` validation.
pub fn kernel_names() -> Vec<&'static str> {
    KERNELS.iter().map(|k| k.name).collect()
}

/// Measures the chosen kernels (all when `only` is empty) at `sizes`, spending about
/// `budget` on each measurement.
pub fn run(
    sizes: &[usize],
    only: &[String],
    budget: Duration,
    mut progress: impl FnMut(&Record),
) -> Vec<Record> {
    let mut records = Vec::new();
    for &size in sizes {
        let cells = (size * size) as f64;
        let copy = copy_floor(size * size, budget) / cells;
        for kernel in KERNELS.iter().filter(|k| only.is_empty() || only.iter().any(|o| o == k.name)) {
            let (mut fast, mut reference) = (kernel.setup)(size);
            let record = Record {
                kernel: kernel.name,
                size,
                threads: 1,
                ns_per_cell: best_time(&mut *fast, budget) / cells,
                reference_ns_per_cell: best_time(&mut *reference, budget) / cells,
                copy_ns_per_cell: copy,
            };
            progress(&record);
            records.push(record);
        }
    }
    records
}

/// The human-readable table line for a record.
pub fn line(r: &Record) -> String {
    format!(
        "{:<10} {:>5}²  {:>8.3} ns/cell   reference {:>8.3} ({:>5.1}× slower)   copy {:>6.3} ({:>4.1}× the floor)",
        r.kernel,
        r.size,
        r.ns_per_cell,
        r.reference_ns_per_cell,
        r.reference_ns_per_cell / r.ns_per_cell,
        r.copy_ns_per_cell,
        r.ns_per_cell / r.copy_ns_per_cell,
    )
}

/// The fastest of repeated runs, in nanoseconds: the least disturbed by other work on a
/// shared machine. Runs at least three times and until `budget` is spent.
fn best_time(f: &mut dyn FnMut(), budget: Duration) -> f64 {
    let start = Instant::now();
    let mut best = f64::INFINITY;
    let mut runs = 0;
    while runs < 3 || start.elapsed() < budget {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_nanos() as f64);
        runs += 1;
    }
    best
}

fn copy_floor(cells: usize, budget: Duration) -> f64 {
    let src = vec![1.0f32; cells];
    let mut dst = vec![0.0f32; cells];
    best_time(
        &mut || {
            dst.copy_from_slice(black_box(&src));
            black_box(&mut dst);
        },
        budget,
    )
}

/// One source per 256 cells, radius 8 cells, at pseudo-random off-centre positions.
fn stamp(size: usize) -> Runs {
    let grid = Grid::new(size, size).expect("bench sizes are valid");
    let mut s = 0x2545_F491_4F6C_DD1D_u64;
    let sources: Vec<Source> = (0..(size * size / 256).max(1))
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let at = Vec2::new((s % 10_007) as f32, (s >> 32) as f32 % 10_007.0) % size as f32;
            Source::new(at, 1.0, Falloff::Linear, 8.0).expect("finite")
        })
        .collect();
    let (g2, s2) = (grid.clone(), sources.clone());
    let (mut layer, mut layer2) = (Layer::for_space(&grid), Layer::for_space(&grid));
    let mut stamper = Stamper::new();
    (
        Box::new(move || {
            layer.fill(0.0);
            stamper.stamp_all(&grid, &mut layer, &sources);
            black_box(&layer);
        }),
        Box::new(move || {
            layer2.fill(0.0);
            influence::reference::stamp(&g2, &mut layer2, &s2);
            black_box(&layer2);
        }),
    )
}

/// The compound maps of two teams.
fn algebra(size: usize) -> Runs {
    let cells = size * size;
    let red = Layer::from_vec((0..cells).map(|i| (i % 17) as f32).collect());
    let blue = Layer::from_vec((0..cells).map(|i| (i % 13) as f32).collect());
    let (r2, b2) = (red.clone(), blue.clone());
    let mut maps = Analysis::new(cells);
    (
        Box::new(move || {
            maps.update(&[&red, &blue], 0);
            black_box(&maps);
        }),
        Box::new(move || {
            black_box(influence::reference::analysis(r2.values(), b2.values()));
        }),
    )
}
