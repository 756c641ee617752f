//! The row-wise grid kernel, fused steps, parallel steps and time-sliced steps against the
//! generic rule and single steps, bit for bit.

mod common;

use influence::propagate::{Diffusion, Propagator, Seed, Steps};
use influence::Cell;
use influence::{Connectivity, Grid, Layer, Mode, Space};
use proptest::prelude::*;

/// A random map: size, walls (about a quarter), connectivity, cell size, and initial values
/// (zero, positive or, rarely, negative — the kernels must agree on those too).
fn map() -> impl Strategy<Value = (Grid, Vec<f32>)> {
    sized_map(14, 14)
}

/// [`map`] up to `max_w − 1` × `max_h − 1` cells.
fn sized_map(max_w: usize, max_h: usize) -> impl Strategy<Value = (Grid, Vec<f32>)> {
    (1usize..max_w, 1usize..max_h, any::<bool>(), prop::sample::select(vec![0.5f32, 1.0, 1.7]))
        .prop_flat_map(|(w, h, eight, cs)| {
            let cells = w * h;
            let value = prop_oneof![3 => Just(0.0f32), 6 => 0.0f32..5.0, 1 => -2.0f32..0.0];
            (
                Just((w, h, eight, cs)),
                prop::collection::vec(prop::bool::weighted(0.25), cells),
                prop::collection::vec(value, cells),
            )
        })
        .prop_map(|((w, h, eight, cs), walls, values)| {
            let conn = if eight { Connectivity::Eight } else { Connectivity::Four };
            let mut grid = Grid::new(w, h).unwrap().with_cell_size(cs).unwrap().with_connectivity(conn);
            for (i, &b) in walls.iter().enumerate() {
                grid.set_blocked(Cell::new(i % w, i / w), b).unwrap();
            }
            let values = values.iter().enumerate().map(|(i, &v)| if walls[i] { 0.0 } else { v }).collect();
            (grid, values)
        })
}

fn diffusion() -> impl Strategy<Value = Diffusion> {
    (0.0f32..1.5, 0.0f32..=1.0, prop::sample::select(vec![0.0f32, 1e-4, 0.05]), any::<bool>()).prop_map(
        |(decay, momentum, threshold, linear)| {
            let make = if linear { Diffusion::linear } else { Diffusion::new };
            make(decay, momentum).unwrap().with_threshold(threshold).unwrap()
        },
    )
}

/// Up to 6 seeds anywhere (walls included), in every mode, some on the same cell.
fn seeds(len: usize) -> impl Strategy<Value = Vec<Seed>> {
    let mode = prop::sample::select(vec![Mode::Set, Mode::Add, Mode::Max]);
    prop::collection::vec((0..len, -1.0f32..6.0, mode), 0..6).prop_map(|v| {
        let mut seeds: Vec<Seed> = v.into_iter().map(|(c, s, m)| Seed::new(c, s).with_mode(m)).collect();
        if let Some(&first) = seeds.first() {
            seeds.push(Seed::new(first.cell, 0.5).with_mode(Mode::Add));
        }
        seeds
    })
}

/// `n` single steps, each after writing `seeds`: what fused steps must equal.
fn looped(p: &mut Propagator, grid: &Grid, n: usize, seeds: &[Seed]) {
    for _ in 0..n {
        p.write_seeds(grid, seeds).unwrap();
        p.step(grid, Steps::default()).unwrap();
    }
}

fn bits(layer: &Layer) -> Vec<u32> {
    layer.values().iter().map(|v| v.to_bits()).collect()
}

fn with_values(grid: &Grid, d: Diffusion, values: &[f32]) -> Propagator {
    let mut p = Propagator::new(grid, d);
    p.values_mut().values_mut().copy_from_slice(values);
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn grid_kernel_equals_generic_rule((grid, values) in map(), d in diffusion(), steps in 1usize..5) {
        let (mut fast, mut generic) = (with_values(&grid, d, &values), with_values(&grid, d, &values));
        let seeds = [Seed::new(0, 3.0), Seed::new(grid.len() / 2, 2.0)];
        for _ in 0..steps {
            fast.write_seeds(&grid, &seeds).unwrap();
            generic.write_seeds(&grid, &seeds).unwrap();
            fast.step(&grid, Steps::default()).unwrap();
            generic.step(&common::Generic(&grid), Steps::default()).unwrap();
            prop_assert_eq!(bits(fast.values()), bits(generic.values()));
        }
    }

    #[test]
    fn sliced_steps_equal_whole_steps(
        (grid, values) in map(),
        d in diffusion(),
        budgets in prop::collection::vec((any::<bool>(), any::<bool>(), 0usize..20), 1..60),
    ) {
        let (mut whole, mut sliced) = (with_values(&grid, d, &values), with_values(&grid, d, &values));
        let seeds = [Seed::new(grid.len() - 1, 4.0)];
        for (by_rows, on_grid, budget) in budgets {
            // Rows of cells, or single cells; through the grid kernel or the generic rule;
            // the seeds written by hand or by the step.
            let budget = if by_rows { budget * grid.width() } else { budget };
            let step = if on_grid { Steps { budget, seeds: &seeds, ..Steps::default() } } else {
                if !sliced.is_stepping() {
                    sliced.write_seeds(&grid, &seeds).unwrap();
                }
                Steps { budget, ..Steps::default() }
            };
            let done = if on_grid { sliced.step(&grid, step) } else { sliced.step(&common::Generic(&grid), step) };
            if done.unwrap() {
                whole.write_seeds(&grid, &seeds).unwrap();
                whole.step(&grid, Steps::default()).unwrap();
                prop_assert_eq!(bits(whole.values()), bits(sliced.values()));
            }
        }
    }

    #[test]
    fn fused_steps_equal_single_steps(
        ((grid, values), seeds) in map().prop_flat_map(|m| { let len = m.0.len(); (Just(m), seeds(len)) }),
        d in diffusion(),
        runs in prop::collection::vec(0usize..40, 1..4),
    ) {
        let (mut fused, mut single) = (with_values(&grid, d, &values), with_values(&grid, d, &values));
        for n in runs {
            fused.step(&grid, Steps { count: n, seeds: &seeds, ..Steps::default() }).unwrap();
            looped(&mut single, &grid, n, &seeds);
            prop_assert_eq!(bits(fused.values()), bits(single.values()), "{} steps", n);
        }
    }

    #[test]
    fn blocked_cells_stay_zero_and_sources_bound_the_map((grid, values) in map(), d in diffusion()) {
        let values: Vec<f32> = values.iter().map(|v| v.clamp(0.0, 3.0)).collect();
        let mut p = with_values(&grid, d, &values);
        let seeds = [Seed::new(0, 3.0), Seed::new(grid.len() / 3, 1.0)];
        for _ in 0..20 {
            p.write_seeds(&grid, &seeds).unwrap();
            p.step(&grid, Steps::default()).unwrap();
            for (i, &v) in p.values().values().iter().enumerate() {
                prop_assert!((0.0..=3.0).contains(&v));
                if !grid.is_walkable(i) {
                    prop_assert_eq!(v.to_bits(), 0);
                }
            }
        }
    }
}

/// One thing done to a propagator, for [`clean_maps_and_mixed_ones_step_alike`].
#[derive(Debug, Clone)]
enum Action {
    /// Write these seeds.
    Seed(Vec<Seed>),
    /// Write this value into the cell (by hand, through `values_mut`).
    Edit(usize, f32),
    /// Steps, several fused when more than one, these seeds written before each.
    Step(usize, Vec<Seed>),
    /// One step sliced to a budget of this many cells a call, on the grid or (`false`) by
    /// the generic rule.
    Slice(usize, bool),
    Clear,
}

fn action(len: usize) -> impl Strategy<Value = Action> {
    let value = prop::sample::select(vec![-2.0f32, -0.0, f32::NAN, f32::INFINITY, 1e30, 0.5, 0.0]);
    // Seeds of positive strength, mostly, as a layer of one team's influence has.
    let strength = prop_oneof![6 => 0.0f32..6.0, 1 => -1.0f32..0.0, 1 => Just(-0.0f32)];
    let mode = prop::sample::select(vec![Mode::Set, Mode::Add, Mode::Max]);
    let seeds = prop::collection::vec((0..len, strength, mode), 0..4)
        .prop_map(|v| v.into_iter().map(|(c, s, m)| Seed::new(c, s).with_mode(m)).collect::<Vec<_>>());
    prop_oneof![
        2 => seeds.clone().prop_map(Action::Seed),
        1 => (0..len, value).prop_map(|(c, v)| Action::Edit(c, v)),
        6 => (1usize..20, seeds).prop_map(|(n, s)| Action::Step(n, s)),
        2 => (1usize..30, any::<bool>()).prop_map(|(b, g)| Action::Slice(b, g)),
        1 => Just(Action::Clear),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The kernels skip their guards against negative values, −0, NaN and infinities on
    /// maps the propagator knows are clean: whatever is written (negative seeds, values by
    /// hand, a clear), its steps give the generic rule's bits. Widths to 69, so that the
    /// rows between a map's first and last run as the kernels' plain loops.
    #[test]
    fn clean_maps_and_mixed_ones_step_alike(
        ((grid, values), actions) in sized_map(70, 10).prop_flat_map(|m| {
            let len = m.0.len();
            (Just(m), prop::collection::vec(action(len), 1..12))
        }),
        d in diffusion(),
    ) {
        let values: Vec<f32> = values.iter().map(|v| v.abs()).collect();
        let (mut fast, mut generic) = (with_values(&grid, d, &values), with_values(&grid, d, &values));
        let plain = common::Generic(&grid);
        for (i, a) in actions.iter().enumerate() {
            match a {
                Action::Seed(seeds) => {
                    fast.write_seeds(&grid, seeds).unwrap();
                    generic.write_seeds(&grid, seeds).unwrap();
                }
                Action::Edit(cell, v) => {
                    fast.values_mut().values_mut()[*cell] = *v;
                    generic.values_mut().values_mut()[*cell] = *v;
                }
                Action::Step(n, seeds) => {
                    fast.step(&grid, Steps { count: *n, seeds, ..Steps::default() }).unwrap();
                    for _ in 0..*n {
                        generic.write_seeds(&grid, seeds).unwrap();
                        generic.step(&plain, Steps::default()).unwrap();
                    }
                }
                Action::Slice(budget, on_grid) => {
                    let slice = Steps { budget: *budget, ..Steps::default() };
                    while !(if *on_grid { fast.step(&grid, slice) } else { fast.step(&plain, slice) }).unwrap() {}
                    generic.step(&plain, Steps::default()).unwrap();
                }
                Action::Clear => {
                    fast.clear();
                    generic.clear();
                }
            }
            prop_assert_eq!(bits(fast.values()), bits(generic.values()), "after action {}: {:?}", i, a);
        }
    }
}

/// A hand edit stepped first by the generic rule (another space over the same cells) is
/// still known on the next grid step: the grid kernels keep their guards for the negative
/// value it left.
#[test]
fn a_hand_edit_is_seen_after_a_step_on_another_space() {
    for conn in [Connectivity::Four, Connectivity::Eight] {
        let grid = Grid::new(37, 6).unwrap().with_connectivity(conn);
        let plain = common::Generic(&grid);
        let d = Diffusion::new(0.3, 0.5).unwrap();
        let (mut fast, mut generic) = (with_values(&grid, d, &vec![1.0; 37 * 6]), Propagator::new(&grid, d));
        generic.values_mut().values_mut().fill(1.0);
        fast.step(&grid, Steps::default()).unwrap();
        generic.step(&plain, Steps::default()).unwrap();
        for p in [&mut fast, &mut generic] {
            p.values_mut().values_mut()[2 * 37 + 10] = -1e6;
            p.step(&plain, Steps::default()).unwrap();
        }
        fast.step(&grid, Steps::default()).unwrap();
        generic.step(&plain, Steps::default()).unwrap();
        assert!(generic.values()[2 * 37 + 10] < 0.0);
        assert_eq!(bits(fast.values()), bits(generic.values()), "{conn:?}");
    }
}

#[test]
fn long_thin_and_tiny_grids_take_the_border_path() {
    for (w, h) in [(1, 1), (1, 7), (7, 1), (2, 2), (3, 3), (64, 3)] {
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let grid = Grid::new(w, h).unwrap().with_connectivity(conn);
            let d = Diffusion::new(0.3, 0.9).unwrap();
            let (mut fast, mut generic) = (Propagator::new(&grid, d), Propagator::new(&grid, d));
            for _ in 0..5 {
                for p in [&mut fast, &mut generic] {
                    p.write_seeds(&grid, &[Seed::new(0, 1.0)]).unwrap();
                }
                fast.step(&grid, Steps::default()).unwrap();
                generic.step(&common::Generic(&grid), Steps::default()).unwrap();
                assert_eq!(bits(fast.values()), bits(generic.values()), "{w}×{h} {conn:?}");
            }
        }
    }
}

/// Maps of 2²² cells or more have their steps' output written past the caches (streamed):
/// a map that size, with rows that start at every offset from a 64-byte boundary (an odd
/// width), walls and seeds, single and fused steps against the generic rule.
#[test]
fn maps_beyond_the_caches_stream_the_same_bits() {
    let (w, h) = (4099, 1024);
    for conn in [Connectivity::Four, Connectivity::Eight] {
        let mut grid = Grid::new(w, h).unwrap().with_connectivity(conn);
        for i in (0..w * h).filter(|i| (i * 7919) % 11 == 0) {
            grid.set_blocked(Cell::new(i % w, i / w), true).unwrap();
        }
        let seeds: Vec<Seed> =
            (0..64).map(|i| Seed::new((i * 65_537 + 1) % (w * h), 1.0 + i as f32)).collect();
        let d = Diffusion::new(0.1, 0.6).unwrap();
        let (mut fast, mut fused, mut generic) =
            (Propagator::new(&grid, d), Propagator::new(&grid, d), Propagator::new(&grid, d));
        for _ in 0..2 {
            fast.write_seeds(&grid, &seeds).unwrap();
            fast.step(&grid, Steps::default()).unwrap();
            generic.write_seeds(&grid, &seeds).unwrap();
            generic.step(&common::Generic(&grid), Steps::default()).unwrap();
        }
        fused.step(&grid, Steps { count: 2, seeds: &seeds, ..Steps::default() }).unwrap();
        assert_eq!(bits(fast.values()), bits(generic.values()), "{conn:?}");
        assert_eq!(bits(fused.values()), bits(generic.values()), "{conn:?}");
        assert!(generic.values().values().iter().filter(|&&v| v > 0.0).count() > 64 * 5);
    }
}

#[test]
fn fused_steps_refuse_bad_seeds_and_finish_a_sliced_step_first() {
    let grid = Grid::from_rows(&["......", "..@...", "......", "...@..", "......"]).unwrap();
    let d = Diffusion::new(0.2, 0.7).unwrap();
    let seeds = [Seed::new(0, 2.0), Seed::new(29, 1.0).with_mode(Mode::Add)];
    let (mut fused, mut single) = (Propagator::new(&grid, d), Propagator::new(&grid, d));
    looped(&mut fused, &grid, 3, &seeds);
    let before = fused.values().clone();
    assert!(fused.step(&grid, Steps { count: 5, seeds: &[Seed::new(30, 1.0)], ..Steps::default() }).is_err());
    assert!(fused
        .step(&grid, Steps { count: 5, seeds: &[Seed::new(1, f32::NAN)], ..Steps::default() })
        .is_err());
    assert_eq!(fused.values(), &before);
    looped(&mut single, &grid, 3, &seeds);

    fused.write_seeds(&grid, &seeds).unwrap();
    assert!(!fused.step(&grid, Steps { budget: 2 * grid.width(), ..Steps::default() }).unwrap());
    // The step in progress counts as the first of the seven.
    fused.step(&grid, Steps { count: 7, seeds: &seeds, ..Steps::default() }).unwrap();
    looped(&mut single, &grid, 7, &seeds);
    assert_eq!(bits(fused.values()), bits(single.values()));
}

/// Parallel steps on thread pools of 1 and 2 threads against single-threaded steps: maps tall
/// enough for several bands, so band edges and their halos are crossed.
#[cfg(feature = "rayon")]
mod parallel {
    use super::*;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        #[test]
        fn parallel_steps_equal_single_steps(
            ((grid, values), seeds) in sized_map(12, 90).prop_flat_map(|m| { let len = m.0.len(); (Just(m), seeds(len)) }),
            d in diffusion(),
            n in 0usize..40,
        ) {
            let mut single = with_values(&grid, d, &values);
            looped(&mut single, &grid, n, &seeds);
            let mut one = with_values(&grid, d, &values);
            one.step(&grid, Steps::default()).unwrap();
            for threads in [1, 2] {
                let mut par = with_values(&grid, d, &values);
                pool(threads).install(|| par.step(&grid, Steps { count: n, seeds: &seeds, parallel: true, ..Steps::default() })).unwrap();
                prop_assert_eq!(bits(par.values()), bits(single.values()), "{} threads", threads);
                let mut par = with_values(&grid, d, &values);
                pool(threads).install(|| par.step(&grid, Steps { parallel: true, ..Steps::default() }).unwrap());
                prop_assert_eq!(bits(par.values()), bits(one.values()), "{} threads, one step", threads);
            }
        }
    }
}
