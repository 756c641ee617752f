//! The row-wise grid kernel and time-sliced steps against the generic rule, bit for bit.

use influence::propagate::{DecayKind, Diffusion, Propagator, Seed};
use influence::{Connectivity, Grid, Layer, Space};
use proptest::prelude::*;

/// A random map: size, walls (about a quarter), connectivity, cell size, and initial values
/// (zero, positive or, rarely, negative — the kernels must agree on those too).
fn map() -> impl Strategy<Value = (Grid, Vec<f32>)> {
    (1usize..14, 1usize..14, any::<bool>(), prop::sample::select(vec![0.5f32, 1.0, 1.7]))
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
                grid.set_blocked(i % w, i / w, b).unwrap();
            }
            let values = values.iter().enumerate().map(|(i, &v)| if walls[i] { 0.0 } else { v }).collect();
            (grid, values)
        })
}

fn diffusion() -> impl Strategy<Value = Diffusion> {
    (0.0f32..1.5, 0.0f32..=1.0, prop::sample::select(vec![0.0f32, 1e-4, 0.05]), any::<bool>()).prop_map(
        |(decay, momentum, threshold, linear)| {
            let kind = if linear { DecayKind::Linear } else { DecayKind::Exponential };
            Diffusion::new(decay, momentum).unwrap().with_threshold(threshold).unwrap().with_kind(kind)
        },
    )
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
            fast.step_grid(&grid);
            generic.step(&grid);
            prop_assert_eq!(bits(fast.values()), bits(generic.values()));
        }
    }

    #[test]
    fn sliced_steps_equal_whole_steps(
        (grid, values) in map(),
        d in diffusion(),
        budgets in prop::collection::vec((any::<bool>(), 0usize..20), 1..60),
    ) {
        let (mut whole, mut sliced) = (with_values(&grid, d, &values), with_values(&grid, d, &values));
        let seeds = [Seed::new(grid.len() - 1, 4.0)];
        for (by_rows, budget) in budgets {
            if !sliced.is_stepping() {
                sliced.write_seeds(&grid, &seeds).unwrap();
            }
            let done = if by_rows { sliced.step_grid_sliced(&grid, budget) } else { sliced.step_sliced(&grid, budget) };
            if done {
                whole.write_seeds(&grid, &seeds).unwrap();
                whole.step_grid(&grid);
                prop_assert_eq!(bits(whole.values()), bits(sliced.values()));
            }
        }
    }

    #[test]
    fn blocked_cells_stay_zero_and_sources_bound_the_map((grid, values) in map(), d in diffusion()) {
        let values: Vec<f32> = values.iter().map(|v| v.clamp(0.0, 3.0)).collect();
        let mut p = with_values(&grid, d, &values);
        let seeds = [Seed::new(0, 3.0), Seed::new(grid.len() / 3, 1.0)];
        for _ in 0..20 {
            p.write_seeds(&grid, &seeds).unwrap();
            p.step_grid(&grid);
            for (i, &v) in p.values().values().iter().enumerate() {
                prop_assert!((0.0..=3.0).contains(&v));
                if !grid.is_walkable(i) {
                    prop_assert_eq!(v.to_bits(), 0);
                }
            }
        }
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
                fast.step_grid(&grid);
                generic.step(&grid);
                assert_eq!(bits(fast.values()), bits(generic.values()), "{w}×{h} {conn:?}");
            }
        }
    }
}
