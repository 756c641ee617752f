//! `influence bench`: nanoseconds per cell for each kernel at several map sizes, beside a
//! straightforward reference of the same kernel (from [`reference`](mod@crate::reference)),
//! careful hand-written code for the same job where there is one (from
//! [`baseline`](mod@crate::baseline): the code the library must beat) and a plain copy of the
//! map's bytes (the memory-bandwidth floor; on as many threads as the kernel, each copying
//! one share of the map), all measured in the same run. Speed is
//! reported as numbers and ratios, never judged against a fixed time.
//!
//! | kernel | fast | reference | baseline | per |
//! | --- | --- | --- | --- | --- |
//! | `stamp` | `Stamper::stamp_all`, one linear source (radius 8) per 256 cells, at cell corners (exact positions, one offset from the centres) | `reference::stamp` | `baseline::TemplateStamper` at the nearest centre | map cell |
//! | `stamp_centred` | the same at cell centres | `reference::stamp` | `baseline::TemplateStamper` | map cell |
//! | `stamp_anywhere` | the same anywhere in their cells (exact positions, each its own offset) | `reference::stamp` | `baseline::TemplateStamper` at the nearest centre | map cell |
//! | `algebra` | `Analysis::update` of two teams | `reference::analysis` | — | map cell |
//! | `diffuse4`, `diffuse8` | one `Propagator::step` (seeds written first) on a 4- or 8-connected map with ~10 % walls | `reference::DiffusionReference::step` | `baseline::FlatStep` (no walls, one thread) | map cell |
//! | `edited8` | `diffuse8`'s step after a cell is written through `Propagator::values_mut` (as a stamper writes a frame's sources): the step first clears the map's walls and finds its bound in one pass | the same | the same | map cell |
//! | `fused4`, `fused8` | `Propagator::step` of 16 steps: fused into one pass over memory, except where the library takes single steps as the faster (AVX-512 or AVX2, maps in the caches: at most 2²⁰ cells on AMD's CPUs, 2¹⁸ on others) | 16 `reference::DiffusionReference::step`s | 16 `baseline::FlatStep` steps | map cell and step |
//! | `steady` | `SteadyState::solve` (decay 0.5 per cell, momentum 1, one seed per 256 cells) | `reference::iterate_until_still`: the reference step iterated until a step changes nothing | `baseline::iterate_to_still`: the library's step, iterated so | map cell, per solve |
//! | `steady_far` | the same with decay 0.05 per cell (about 180 steps to converge) | the same | the same | map cell, per solve |
//! | `flood` | `FloodFill::predict` from the centre, 48 steps, cooling 1/64, running east with a barrier of 8 cells | `reference::plain_flood`: whole-map scans per step | — | cell the fill heats |
//! | `frame` | one frame of a game: 1,000 units per 256² (linear, radius 8, anywhere) stamped for 2 teams, `Analysis::update`, 50 diffusion steps (fused) of one team's map, a `SpotIndex` built and 10 top-N queries from it (5 spots, spacing 1–10) | the same with `reference::stamp`, `reference::analysis`, 50 reference steps and `reference::top_n` | — | map cell, per frame |
//!
//! Each kernel is timed in turns with its baseline and the copy, so that they see the same load on a
//! shared machine (memory bandwidth shared with other machines moves the copy by ±30 %).
//! Each record carries the kernels issue's goal for it, where the issue sets one, as a ratio
//! of these times with its bound ([`kernel_goals`](mod@crate::kernel_goals)).
//!
//! The measurements on several threads run inside a rayon pool of that many threads, as a
//! game whose frame runs in a pool would call: the diffusion shares its steps among the
//! pool's threads (`Steps::parallel`) and the copy splits the map among them. Neither pays
//! for a hop into the pool per run, which would cost microseconds, more than a step of a
//! 256² map; the baseline and the reference run on one of the pool's threads.
//!
//! The flood's cost grows with the cells it heats, not with the map, so it is reported per
//! heated cell; its reference scans the whole map every step (as the articles' code does),
//! so the ratio grows with the map.

use influence::Cell;
use std::hint::black_box;
use std::time::{Duration, Instant};

use crate::baseline::{self, FlatStep, TemplateStamper};
use crate::kernel_goals::{self, Goal};
use crate::reference::{self, DiffusionReference};
use crate::rng::Rng;
use influence::glam::{Vec2, Vec3};
use influence::propagate::{Chase, Diffusion, FloodFill, Propagator, Seed, SteadyState, Steps};
use influence::query::{Extreme, SpotIndex};
use influence::{Analysis, Connectivity, Falloff, Grid, Layer, Source, Stamper};
use serde::Serialize;

/// One kernel at one size and thread count.
#[derive(Debug, Serialize)]
pub struct Record {
    kernel: &'static str,
    size: usize,
    threads: usize,
    ns_per_cell: f64,
    reference_ns_per_cell: f64,
    /// The careful hand-written baseline of the same job ([`baseline`](mod@crate::baseline)),
    /// where the kernel has one.
    baseline_ns_per_cell: Option<f64>,
    /// A plain copy of the map on as many threads as the kernel.
    copy_ns_per_cell: f64,
    /// The kernels issue's goal for this record, as a ratio of the times above, where it
    /// sets one ([`kernel_goals`](mod@crate::kernel_goals)).
    goal: Option<Goal>,
}

/// The fast run, the reference run and the baseline run (if any) of one kernel, ready to be
/// timed, and the number of cells a run's time is divided by.
type Runs = (Box<dyn FnMut()>, Box<dyn FnMut()>, Option<Box<dyn FnMut()>>, usize);

/// A kernel under test: builds, for a `size × size` map and a thread count, its [`Runs`].
/// Kernels with `parallel` are also measured on a pool of [`PARALLEL_THREADS`] threads.
struct Kernel {
    name: &'static str,
    setup: fn(usize, usize) -> Runs,
    parallel: bool,
}

/// The thread count of the parallel measurements: this machine's two cores.
const PARALLEL_THREADS: usize = 2;
/// Steps fused into one pass over memory by the `fused*` kernels.
const FUSED: usize = 16;

const KERNELS: &[Kernel] = &[
    Kernel { name: "stamp", setup: |size, _| stamp(size, Placed::Corners), parallel: false },
    Kernel { name: "stamp_centred", setup: |size, _| stamp(size, Placed::Centres), parallel: false },
    Kernel { name: "stamp_anywhere", setup: |size, _| stamp(size, Placed::Anywhere), parallel: false },
    Kernel { name: "algebra", setup: |size, _| algebra(size), parallel: false },
    Kernel {
        name: "diffuse4",
        setup: |size, t| diffuse(size, Connectivity::Four, 1, t, false),
        parallel: true,
    },
    Kernel {
        name: "diffuse8",
        setup: |size, t| diffuse(size, Connectivity::Eight, 1, t, false),
        parallel: true,
    },
    Kernel {
        name: "edited8",
        setup: |size, t| diffuse(size, Connectivity::Eight, 1, t, true),
        parallel: false,
    },
    Kernel {
        name: "fused4",
        setup: |size, t| diffuse(size, Connectivity::Four, FUSED, t, false),
        parallel: true,
    },
    Kernel {
        name: "fused8",
        setup: |size, t| diffuse(size, Connectivity::Eight, FUSED, t, false),
        parallel: true,
    },
    Kernel { name: "steady", setup: |size, _| steady(size, 0.5), parallel: false },
    Kernel { name: "steady_far", setup: |size, _| steady(size, 0.05), parallel: false },
    Kernel { name: "flood", setup: |size, _| flood(size), parallel: false },
    Kernel { name: "frame", setup: |size, _| frame(size), parallel: false },
];

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
        let (src, mut dst) = (vec![1.0f32; size * size], vec![0.0f32; size * size]);
        for kernel in KERNELS.iter().filter(|k| only.is_empty() || only.iter().any(|o| o == k.name)) {
            let thread_counts: &[usize] = if kernel.parallel { &[1, PARALLEL_THREADS] } else { &[1] };
            for &threads in thread_counts {
                let record = if threads > 1 {
                    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
                    let dst = &mut dst;
                    pool.expect("a thread pool")
                        .install(|| measure(kernel, size, threads, (&src, dst), budget))
                } else {
                    measure(kernel, size, threads, (&src, &mut dst), budget)
                };
                progress(&record);
                records.push(record);
            }
        }
    }
    records
}

/// Times `kernel` on a `size × size` map on `threads` threads (in the pool this runs in, if
/// more than one), beside its reference, its baseline and a copy of `src` into `dst`.
fn measure(
    kernel: &Kernel,
    size: usize,
    threads: usize,
    (src, dst): (&[f32], &mut [f32]),
    budget: Duration,
) -> Record {
    let cells = (size * size) as f64;
    let mut copy = copier(src, dst, threads);
    let (mut fast, mut reference, baseline, per) = (kernel.setup)(size, threads);
    let per = per.max(1) as f64;
    // The kernel, its baseline and the copy in turns, so that their ratios see
    // one load.
    let (fast, baseline, copy) = match baseline {
        Some(mut baseline) => {
            let [fast, baseline, copy] = best_times([&mut *fast, &mut *baseline, &mut copy], budget);
            (fast, Some(baseline), copy)
        }
        None => {
            let [fast, copy] = best_times([&mut *fast, &mut copy], budget);
            (fast, None, copy)
        }
    };
    let (ns_per_cell, baseline_ns_per_cell, copy_ns_per_cell) =
        (fast / per, baseline.map(|b| b / per), copy / cells);
    Record {
        kernel: kernel.name,
        size,
        threads,
        ns_per_cell,
        reference_ns_per_cell: best_time(&mut *reference, budget) / per,
        baseline_ns_per_cell,
        copy_ns_per_cell,
        goal: kernel_goals::goal(
            kernel.name,
            size,
            threads,
            ns_per_cell,
            baseline_ns_per_cell,
            copy_ns_per_cell,
        ),
    }
}

/// A plain copy of `src` into `dst` on `threads` threads (each copying one share of the
/// map, on the pool this runs in), so that a kernel run on several threads is compared with
/// a copy that uses as many.
fn copier<'a>(src: &'a [f32], dst: &'a mut [f32], threads: usize) -> impl FnMut() + 'a {
    let share = src.len().div_ceil(threads).max(1);
    move || {
        if threads > 1 {
            use rayon::prelude::*;
            dst.par_chunks_mut(share)
                .zip(src.par_chunks(share))
                .for_each(|(d, s)| d.copy_from_slice(black_box(s)));
        } else {
            dst.copy_from_slice(black_box(src));
        }
        black_box(&mut *dst);
    }
}

/// The human-readable table line for a record: the kernel's time, then each comparison
/// said from the kernel's side ("1.06× faster" than the baseline, "5.0× a copy's time").
pub fn line(r: &Record) -> String {
    let baseline = match r.baseline_ns_per_cell {
        Some(b) => format!("baseline {b:>8.3}: {:<13}", versus(r.ns_per_cell, b)),
        None => format!("{:<32}", "no baseline"),
    };
    let goal = r.goal.as_ref().map(|g| format!("   {}", kernel_goals::said(g))).unwrap_or_default();
    format!(
        "{:<13} {:>5}² {} thr  {:>8.3} ns/cell   {baseline}   reference {:>8.3}: {:<13}   copy {:>6.3}: {:.1}× a copy's time{goal}",
        r.kernel,
        r.size,
        r.threads,
        r.ns_per_cell,
        r.reference_ns_per_cell,
        versus(r.ns_per_cell, r.reference_ns_per_cell),
        r.copy_ns_per_cell,
        r.ns_per_cell / r.copy_ns_per_cell,
    )
}

/// `ours` against `theirs` (both times): "2.50× faster" or "1.60× slower".
fn versus(ours: f64, theirs: f64) -> String {
    if theirs >= ours {
        format!("{:.2}× faster", theirs / ours)
    } else {
        format!("{:.2}× slower", ours / theirs)
    }
}

/// The fastest of repeated runs, in nanoseconds: the least disturbed by other work on a
/// shared machine. Runs at least three times and until `budget` is spent.
pub fn best_time(f: &mut dyn FnMut(), budget: Duration) -> f64 {
    let [best] = best_times([f], budget);
    best
}

/// [`best_time`] of several functions run in turns, each at least four times, until
/// `budget` is spent on each on average: a burst of load elsewhere on the machine slows
/// all of them alike, so ratios between them hold better than between separate runs. Each
/// turn runs a function twice, so that its second run finds its data where its first left
/// it (in cache, on maps that fit), as a run among runs of its own would.
pub fn best_times<const N: usize>(mut fs: [&mut dyn FnMut(); N], budget: Duration) -> [f64; N] {
    let start = Instant::now();
    let mut best = [f64::INFINITY; N];
    let mut turns = 0;
    while turns < 2 || start.elapsed() < budget * N as u32 {
        for (f, best) in fs.iter_mut().zip(&mut best) {
            for _ in 0..2 {
                let t = Instant::now();
                f();
                *best = best.min(t.elapsed().as_nanos() as f64);
            }
        }
        turns += 1;
    }
    best
}

/// Where the `stamp*` kernels place their sources.
#[derive(Debug, Clone, Copy)]
enum Placed {
    Corners,
    Centres,
    Anywhere,
}

/// One source per 256 cells, radius 8 cells, at pseudo-random cell corners (off the
/// centres: exact positions, which share one offset from their cell's centre and so one
/// cached kernel), at cell centres, or anywhere (each its own offset: evaluated directly).
/// The baseline stamps templates at the nearest cell centre (exact only when centred).
fn stamp(size: usize, at: Placed) -> Runs {
    let grid = Grid::new(size, size).expect("bench sizes are valid");
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let sources: Vec<Source> = (0..(size * size / 256).max(1))
        .map(|_| {
            let cell = Vec2::new(rng.below(size) as f32, rng.below(size) as f32);
            let offset = match at {
                Placed::Corners => Vec2::ZERO,
                Placed::Centres => Vec2::splat(0.5),
                Placed::Anywhere => Vec2::new(rng.unit(), rng.unit()),
            };
            Source::new(cell + offset, 1.0, Falloff::Linear, 8.0).expect("finite")
        })
        .collect();
    let (g2, s2) = (grid.clone(), sources.clone());
    let (g3, s3) = (grid.clone(), sources.clone());
    let (mut layer, mut layer2, mut layer3) =
        (Layer::for_space(&grid), Layer::for_space(&grid), Layer::for_space(&grid));
    let mut stamper = Stamper::new();
    let mut templates = TemplateStamper::default();
    (
        Box::new(move || {
            layer.fill(0.0);
            stamper.stamp_all(&grid, &mut layer, &sources).unwrap();
            black_box(&layer);
        }),
        Box::new(move || {
            layer2.fill(0.0);
            reference::stamp(&g2, &mut layer2, &s2);
            black_box(&layer2);
        }),
        Some(Box::new(move || {
            layer3.fill(0.0);
            templates.stamp_all(&g3, &mut layer3, &s3);
            black_box(&layer3);
        })),
        size * size,
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
            maps.update(&red, &[&blue]);
            black_box(&maps);
        }),
        Box::new(move || {
            black_box(reference::analysis(r2.values(), b2.values()));
        }),
        None,
        cells,
    )
}

/// A `size × size` map with about 10 % of its cells blocked at random, the centre kept open.
fn walled(size: usize, connectivity: Connectivity) -> Grid {
    let mut grid = crate::rng::walled_grid(size, 0x9E37_79B9_7F4A_7C15).with_connectivity(connectivity);
    grid.set_blocked(Cell::new(size / 2, size / 2), false).expect("inside the map");
    grid
}

/// One seed of strength 1 on a walkable cell per 256 cells.
fn seeds(grid: &Grid) -> Vec<Seed> {
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let n = grid.width() * grid.height();
    let walkable = |c: &usize| !grid.blocked()[*c];
    (0..(n / 256).max(1)).map(|_| rng.below(n)).filter(walkable).map(|c| Seed::new(c, 1.0)).collect()
}

/// `steps` diffusion steps per run (fused into one pass over memory when more than one) on
/// `threads` threads, timed per cell and step, against as many reference steps; with
/// `edit`, each run first writes a seed's cell through `values_mut`, as a stamper does.
fn diffuse(size: usize, connectivity: Connectivity, steps: usize, threads: usize, edit: bool) -> Runs {
    let grid = walled(size, connectivity);
    let seeds = seeds(&grid);
    let d = Diffusion::new(0.3, 0.5).expect("valid");
    let mut p = Propagator::new(&grid, d);
    for _ in 0..8 {
        p.write_seeds(&grid, &seeds).expect("seeds on the map");
        let _ = p.step(&grid, Steps::default());
    }
    let n = size * size * steps;
    let mut r =
        DiffusionReference { map: p.values().values().to_vec(), buffer: p.values().values().to_vec() };
    let (g2, s2) = (grid.clone(), seeds.clone());
    // The baseline: the same values on a map without walls, one thread.
    let eight = connectivity == Connectivity::Eight;
    let mut flat = FlatStep::new(size, size, p.values().values().to_vec(), &d, eight);
    (
        Box::new(move || {
            if edit {
                p.values_mut().values_mut()[seeds[0].cell] = seeds[0].strength;
            }
            // On several threads, this runs in their pool (see the module docs).
            let run = Steps { count: steps, seeds: &seeds, parallel: threads > 1, ..Steps::default() };
            drop(p.step(&grid, run));
            black_box(p.values());
        }),
        Box::new(move || {
            for _ in 0..steps {
                for s in &s2 {
                    r.buffer[s.cell] = s.strength;
                }
                r.step(&g2, &d);
            }
            black_box(&r.buffer);
        }),
        Some(Box::new(move || {
            for _ in 0..steps {
                flat.step();
            }
            black_box(flat.values());
        })),
        n,
    )
}

/// The steady state against the reference step iterated from rest until it changes nothing
/// (momentum 1 makes both the same map, bit for bit), with `decay` per cell: 0.5 converges
/// in about 20 steps, 0.05 in about 180.
fn steady(size: usize, decay: f32) -> Runs {
    let grid = walled(size, Connectivity::Eight);
    let seeds = seeds(&grid);
    let d = Diffusion::new(decay, 1.0).expect("valid");
    let n = size * size;
    let mut solver = SteadyState::default();
    let mut out = Layer::for_space(&grid);
    let g2 = grid.clone();
    let s2 = seeds.clone();
    let (g3, s3) = (grid.clone(), seeds.clone());
    let (mut p, mut previous) = (Propagator::new(&grid, d), Vec::new());
    (
        Box::new(move || {
            solver.solve(&grid, &d, &seeds, &mut out).expect("set seeds have a steady state");
            black_box(&out);
        }),
        Box::new(move || {
            black_box(reference::iterate_until_still(&g2, &d, &s2));
        }),
        Some(Box::new(move || {
            black_box(baseline::iterate_to_still(&g3, &d, &s3, &mut p, &mut previous, 100_000));
        })),
        n,
    )
}

/// One frame of a game on a `size` map (8-connected, ~10 % walls): each team's units
/// stamped into its map, the compound maps, 50 steps of one team's map, 10 top-N queries.
fn frame(size: usize) -> Runs {
    let grid = walled(size, Connectivity::Eight);
    let mut rng = Rng::new(0x0123_4567_89AB_CDEF);
    let [red, blue] = crate::frame::teams(&grid, &mut rng);
    let d = Diffusion::new(0.3, 0.5).expect("valid");
    const STEPS: usize = 50;
    const QUERIES: usize = 10;
    let (g2, r2, b2) = (grid.clone(), red.clone(), blue.clone());
    let (mut layers, mut stamper) = ([Layer::for_space(&grid), Layer::for_space(&grid)], Stamper::new());
    let n = size * size;
    let mut maps = Analysis::new(n);
    let mut p = Propagator::new(&grid, d);
    let mut naive = [Layer::for_space(&grid), Layer::for_space(&grid)];
    let (mut spots, mut best) = (SpotIndex::new(), Vec::new());
    (
        Box::new(move || {
            for (layer, units) in layers.iter_mut().zip([&red, &blue]) {
                layer.fill(0.0);
                stamper.stamp_all(&grid, layer, units).expect("units stand on walkable cells");
            }
            maps.update(&layers[0], &[&layers[1]]);
            p.values_mut().values_mut().copy_from_slice(layers[0].values());
            drop(p.step(&grid, Steps { count: STEPS, ..Steps::default() }));
            spots.build(&grid, p.values());
            for q in 0..QUERIES {
                spots.top_n_into(&grid, p.values(), 5, (q + 1) as f32, Extreme::Highest, &mut best);
                black_box(&best);
            }
            black_box(&maps);
        }),
        Box::new(move || {
            for (layer, units) in naive.iter_mut().zip([&r2, &b2]) {
                layer.fill(0.0);
                reference::stamp(&g2, layer, units);
            }
            black_box(reference::analysis(naive[0].values(), naive[1].values()));
            let values = naive[0].values().to_vec();
            let mut r = DiffusionReference { map: values.clone(), buffer: values };
            for _ in 0..STEPS {
                r.step(&g2, &d);
            }
            let diffused = Layer::from_vec(r.buffer);
            for q in 0..QUERIES {
                black_box(reference::top_n(&g2, &diffused, 5, (q + 1) as f32));
            }
        }),
        None,
        n,
    )
}

/// The chase parameters of the `flood` kernel on a `size` map.
fn chase() -> Chase {
    Chase::new(1.0 / 64.0, usize::MAX, 48, 8.0).expect("valid")
}

/// The chase flood fill from the centre, running east, per cell it heats.
fn flood(size: usize) -> Runs {
    let grid = walled(size, Connectivity::Eight);
    let start = grid.index(Cell::new(size / 2, size / 2)).expect("inside");
    let chase = chase();
    let mut fill = FloodFill::default();
    let heated = fill.predict(&grid, start, Vec3::X, &chase).expect("the centre is open").warm;
    let g2 = grid.clone();
    (
        Box::new(move || {
            black_box(fill.predict(&grid, start, Vec3::X, &chase).expect("the centre is open"));
        }),
        Box::new(move || {
            black_box(reference::plain_flood(&g2, start, Vec3::X, &chase));
        }),
        None,
        heated,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_flood_agrees_with_the_library() {
        for connectivity in [Connectivity::Four, Connectivity::Eight] {
            let grid = walled(40, connectivity);
            let start = grid.index(Cell::new(20, 20)).unwrap();
            for chase in [chase(), Chase { initial_heat: 2.5, ..Chase::new(0.1, 30, 20, 3.0).unwrap() }] {
                let mut fill = FloodFill::default();
                let p = fill.predict(&grid, start, Vec3::new(1.0, 0.5, 0.0), &chase).unwrap();
                let (heat, cell) = reference::plain_flood(&grid, start, Vec3::new(1.0, 0.5, 0.0), &chase);
                assert_eq!(fill.heat(), heat.as_slice(), "{connectivity:?}");
                assert_eq!(p.cell, cell, "{connectivity:?}");
            }
        }
    }

    #[test]
    fn the_plain_top_n_agrees_with_the_library() {
        let grid = walled(40, Connectivity::Eight);
        let layer = Layer::from_vec((0..40 * 40).map(|i| ((i * 7919) % 97) as f32 / 7.0).collect());
        for spacing in [0.0, 1.0, 3.5, 10.0] {
            let want = influence::query::top_n(&grid, &layer, 6, spacing, Extreme::Highest);
            assert_eq!(reference::top_n(&grid, &layer, 6, spacing), want, "spacing {spacing}");
        }
    }

    #[test]
    fn iterating_the_reference_reaches_the_steady_state() {
        let grid = walled(48, Connectivity::Eight);
        let seeds = seeds(&grid);
        let d = Diffusion::new(0.5, 1.0).unwrap();
        let mut out = Layer::for_space(&grid);
        SteadyState::default().solve(&grid, &d, &seeds, &mut out).unwrap();
        assert_eq!(reference::iterate_until_still(&grid, &d, &seeds), out.values());
    }
}
