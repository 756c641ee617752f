//! `influence bench --field`: the grid-free field (`influence::field`) measured two ways,
//! which do not fit the per-cell records of the kernels, so they form their own report.
//!
//! * `field_index`: value queries through the field's spatial index (an R*-tree) against
//!   brute force over every source — linear sources of radius 5–20 in a 1000 × 1000 world,
//!   10,000 sources and 100,000 queries (`--quick`: 1,000 and 10,000). Index build time is
//!   reported apart; the largest difference between the answers shows they agree. The
//!   baseline: a plain uniform-bin grid ([`Bins`]), built and queried in the same run.
//! * `field_vs_grid`: the field against stamped grids of several cell sizes — 1,000 linear
//!   sources of radius 8, strengths 1–5, in a 1024 × 1024 world (`--quick`: 100 in 256 ×
//!   256) — in memory, build time (index bulk load, or stamping), time per read (a field
//!   query, or a grid's bilinear read) and largest error at random points against the exact
//!   field. The grid "of the same accuracy" is the coarsest whose error is within
//!   [`TOLERANCE`] (1 % of the largest strength); the field is exact by construction.

use std::hint::black_box;
use std::time::{Duration, Instant};

use influence::field::{Curve, Field, PointSource};
use influence::glam::Vec2;
use influence::{query, Falloff, Grid, Layer, Source, Stamper};
use serde::Serialize;

use crate::baseline::Bins;
use crate::kernel_goals::{field_goals, said, Goal};
use crate::kernels::{best_time, best_times};
use crate::rng::Rng;

/// The side of the baseline's bins in `field_index`, in world units: about the sources'
/// radii (5–20), as fast as 8 and faster than 32 to query, quicker than 8 to build.
pub const BIN: f32 = 16.0;

/// Largest read error a grid may have to count as accurate as the field: 1 % of the
/// largest strength (5).
pub const TOLERANCE: f32 = 0.05;

/// Both comparisons.
#[derive(Debug, Serialize)]
pub struct FieldReport {
    /// Index against brute force.
    pub field_index: IndexReport,
    /// The field against grids.
    pub field_vs_grid: GridReport,
}

/// `field_index`.
#[derive(Debug, Serialize)]
pub struct IndexReport {
    /// Sources in the field.
    pub sources: usize,
    /// Value queries made each way.
    pub queries: usize,
    /// Bulk-loading the index, in ns.
    pub index_build_ns: f64,
    /// One query through the index, in ns.
    pub index_ns_per_query: f64,
    /// One query summing every source, in ns.
    pub brute_ns_per_query: f64,
    /// Building the baseline's uniform bins ([`Bins`], side [`BIN`]), in ns.
    pub baseline_build_ns: f64,
    /// Building a kiddo k-d tree (`ImmutableKdTree`) of the sources' positions, in ns: the
    /// index "Escaping the Grid" uses, which the field's should build as fast as.
    pub kiddo_build_ns: f64,
    /// One query through the baseline's bins, in ns (timed in turns with the index).
    pub baseline_ns_per_query: f64,
    /// The largest difference between the two answers.
    pub max_difference: f32,
    /// The kernels issue's goals for the index, as ratios of the times above
    /// ([`field_goals`]): queries against the bins, the build against kiddo's.
    pub goals: Vec<Goal>,
}

/// `field_vs_grid`.
#[derive(Debug, Serialize)]
pub struct GridReport {
    /// Side of the square world, in world units.
    pub world: f32,
    /// Sources.
    pub sources: usize,
    /// Reads made of each map.
    pub queries: usize,
    /// [`TOLERANCE`].
    pub tolerance: f32,
    /// The field's figures (its `max_error` is 0: it is the reference).
    pub field: MapFigures,
    /// Each grid's, finest last.
    pub grids: Vec<MapFigures>,
    /// The coarsest grid within the tolerance, if any.
    pub same_accuracy_cell_size: Option<f32>,
}

/// One map's memory, build time, read time and error.
#[derive(Debug, Serialize)]
pub struct MapFigures {
    /// Cell size in world units (`None` for the field).
    pub cell_size: Option<f32>,
    /// Heap bytes held.
    pub bytes: usize,
    /// Building it, in ns.
    pub build_ns: f64,
    /// One read, in ns.
    pub ns_per_query: f64,
    /// The largest read error against the exact field.
    pub max_error: f32,
}

/// `n` points with both coordinates from `lo` to `hi`.
fn points(rng: &mut Rng, n: usize, lo: f32, hi: f32) -> Vec<Vec2> {
    (0..n).map(|_| Vec2::new(rng.range(lo, hi), rng.range(lo, hi))).collect()
}

/// Runs both comparisons, spending about `budget` on each repeated measurement.
pub fn run(quick: bool, budget: Duration) -> FieldReport {
    FieldReport {
        field_index: index(if quick { (1_000, 10_000) } else { (10_000, 100_000) }, budget),
        field_vs_grid: grids(quick, budget),
    }
}

/// The field's value at each of `points` into `out`, allocating nothing.
fn read_all(field: &Field<Vec2>, points: &[Vec2], out: &mut [f32]) {
    for (o, &p) in out.iter_mut().zip(points) {
        *o = field.value(p);
    }
}

fn index((n, queries): (usize, usize), budget: Duration) -> IndexReport {
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let sources: Vec<PointSource<Vec2>> = points(&mut rng, n, 0.0, 1000.0)
        .into_iter()
        .map(|p| {
            let radius = rng.range(5.0, 20.0);
            PointSource::new(p, rng.range(1.0, 5.0), radius, Curve::Linear).expect("finite")
        })
        .collect();
    let points = points(&mut rng, queries, 0.0, 1000.0);
    // The index alone, rebuilt over the sources the field holds (`Field::update` with no
    // edit), as the other two are built from sources already in memory.
    let mut rebuilt = Field::new(sources.clone());
    let build = best_time(&mut || black_box(&mut rebuilt).update(|_| {}), budget);
    let bins_build = best_time(&mut || drop(black_box(Bins::new(&sources, Vec2::ZERO, 1000.0, BIN))), budget);
    let positions: Vec<[f32; 2]> = sources.iter().map(|s| s.position().to_array()).collect();
    let kiddo_build = best_time(
        &mut || drop(black_box(kiddo::ImmutableKdTree::<f32, 2>::new_from_slice(&positions))),
        budget,
    );
    let field = Field::new(sources.clone());
    let bins = Bins::new(&sources, Vec2::ZERO, 1000.0, BIN);
    let (mut fast, mut binned) = (vec![0.0; queries], vec![0.0; queries]);
    let [indexed, bins_time] = best_times(
        [&mut || read_all(&field, &points, &mut fast), &mut || {
            for (o, &p) in binned.iter_mut().zip(&points) {
                *o = bins.value(p);
            }
            black_box(&binned);
        }],
        budget,
    );
    // Brute force once: it is the slow side, and long enough to time in one go.
    let start = Instant::now();
    let slow: Vec<f32> =
        points.iter().map(|&p| sources.iter().map(|s| s.value_and_gradient_at(p).0).sum()).collect();
    let brute = start.elapsed().as_nanos() as f64;
    let max_difference = fast.iter().zip(&slow).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
    let bins_difference = binned.iter().zip(&slow).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
    IndexReport {
        sources: n,
        queries,
        index_build_ns: build,
        index_ns_per_query: indexed / queries as f64,
        brute_ns_per_query: brute / queries as f64,
        baseline_build_ns: bins_build,
        kiddo_build_ns: kiddo_build,
        baseline_ns_per_query: bins_time / queries as f64,
        max_difference: max_difference.max(bins_difference),
        goals: field_goals(indexed, bins_time, build, kiddo_build),
    }
}

fn grids(quick: bool, budget: Duration) -> GridReport {
    let (world, n, cells, queries) = if quick {
        (256.0f32, 100, &[2.0f32, 1.0, 0.5, 0.25][..], 10_000)
    } else {
        (1024.0, 1_000, &[4.0f32, 2.0, 1.0, 0.5, 0.25, 0.125][..], 100_000)
    };
    let radius = 8.0;
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let placed: Vec<(Vec2, f32)> =
        points(&mut rng, n, 0.0, world).into_iter().map(|p| (p, rng.range(1.0, 5.0))).collect();
    let points = points(&mut rng, queries, 4.0, world - 4.0);
    let field_sources: Vec<PointSource<Vec2>> =
        placed.iter().map(|&(p, s)| PointSource::new(p, s, radius, Curve::Linear).expect("finite")).collect();
    let field_build = best_time(&mut || drop(black_box(Field::new(field_sources.clone()))), budget);
    let field = Field::new(field_sources);
    let mut exact = vec![0.0; queries];
    let field_read = best_time(&mut || read_all(&field, &points, &mut exact), budget) / queries as f64;
    let grid_sources: Vec<Source> =
        placed.iter().map(|&(p, s)| Source::new(p, s, Falloff::Linear, radius).expect("finite")).collect();
    let grids: Vec<MapFigures> = cells
        .iter()
        .map(|&cell| {
            let side = (world / cell) as usize;
            let grid = Grid::new(side, side).expect("bench sizes").with_cell_size(cell).expect("positive");
            let mut layer = Layer::for_space(&grid);
            let mut stamper = Stamper::new();
            let build = best_time(
                &mut || {
                    layer.fill(0.0);
                    stamper.stamp_all(&grid, &mut layer, &grid_sources).unwrap();
                },
                budget,
            );
            let read = |p: Vec2| query::value_bilinear(&grid, &layer, p).unwrap_or(0.0);
            let mut out = vec![0.0; queries];
            let time = best_time(
                &mut || {
                    for (o, &p) in out.iter_mut().zip(&points) {
                        *o = read(p);
                    }
                    black_box(&out);
                },
                budget,
            );
            let max_error = out.iter().zip(&exact).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
            MapFigures {
                cell_size: Some(cell),
                bytes: layer.len() * std::mem::size_of::<f32>(),
                build_ns: build,
                ns_per_query: time / queries as f64,
                max_error,
            }
        })
        .collect();
    let same_accuracy_cell_size = grids.iter().find(|g| g.max_error <= TOLERANCE).and_then(|g| g.cell_size);
    GridReport {
        world,
        sources: n,
        queries,
        tolerance: TOLERANCE,
        field: MapFigures {
            cell_size: None,
            bytes: field.heap_bytes(),
            build_ns: field_build,
            ns_per_query: field_read,
            max_error: 0.0,
        },
        grids,
        same_accuracy_cell_size,
    }
}

/// The human-readable report.
pub fn table(r: &FieldReport) -> String {
    let i = &r.field_index;
    let g = &r.field_vs_grid;
    let mut out = format!(
        "field_index: {} sources, {} queries: index {:.1} ns/query (build {:.2} ms), brute force {:.1} ns/query \
         ({:.0}× slower); baseline uniform bins {:.1} ns/query ({:.2}× faster; build {:.2} ms); \
         answers differ by at most {:.1e}\n",
        i.sources,
        i.queries,
        i.index_ns_per_query,
        i.index_build_ns / 1e6,
        i.brute_ns_per_query,
        i.brute_ns_per_query / i.index_ns_per_query,
        i.baseline_ns_per_query,
        i.baseline_ns_per_query / i.index_ns_per_query,
        i.baseline_build_ns / 1e6,
        i.max_difference,
    );
    for goal in &i.goals {
        out += &format!("  {}: {:.2}, {}\n", goal.ratio_of, goal.ratio, said(goal));
    }
    out += &format!(
        "field_vs_grid: {} sources of radius 8 in a {}² world, {} reads at random points\n",
        g.sources, g.world, g.queries
    );
    let row = |name: String, m: &MapFigures| {
        format!(
            "  {name:<12} {:>10}  build {:>9.3} ms  {:>7.1} ns/read  max error {:.4}\n",
            bytes(m.bytes),
            m.build_ns / 1e6,
            m.ns_per_query,
            m.max_error
        )
    };
    out += &row("field".to_owned(), &g.field);
    for m in &g.grids {
        out += &row(format!("grid {}", m.cell_size.unwrap_or_default()), m);
    }
    out += &match g.grids.iter().find(|m| m.cell_size == g.same_accuracy_cell_size) {
        Some(m) => format!(
            "  same accuracy (max error ≤ {}): grid {} at {} against the field's {}\n",
            g.tolerance,
            m.cell_size.unwrap_or_default(),
            bytes(m.bytes),
            bytes(g.field.bytes)
        ),
        None => format!("  no grid measured reaches max error ≤ {}\n", g.tolerance),
    };
    out
}

/// `95.0 KiB`, `64.0 MiB`.
fn bytes(n: usize) -> String {
    let n = n as f64;
    if n >= 1024.0 * 1024.0 {
        format!("{:.1} MiB", n / (1024.0 * 1024.0))
    } else {
        format!("{:.1} KiB", n / 1024.0)
    }
}
