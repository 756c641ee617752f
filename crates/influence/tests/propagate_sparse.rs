//! Sparse diffusion against the dense step, bit for bit.

use influence::propagate::{seeds_from_sources, Diffusion, Propagator, Seed, SparsePropagator, Steps};
use influence::{Cell, Space};
use influence::{Connectivity, Falloff, Grid, Layer, Mode, Source, Stamper};
use proptest::prelude::*;

fn bits(layer: &Layer) -> Vec<u32> {
    layer.values().iter().map(|v| v.to_bits()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn sparse_equals_dense(
        (w, h, walls) in (1usize..16, 1usize..16)
            .prop_flat_map(|(w, h)| (Just(w), Just(h), prop::collection::vec(prop::bool::weighted(0.2), w * h))),
        eight in any::<bool>(),
        decay in 0.1f32..2.0,
        momentum in 0.1f32..=1.0,
        linear in any::<bool>(),
        seeds in prop::collection::vec((any::<prop::sample::Index>(), 0.1f32..4.0, 0u8..3), 1..4),
        seeded_steps in 0usize..10,
        steps in 1usize..30,
    ) {
        let conn = if eight { Connectivity::Eight } else { Connectivity::Four };
        let mut grid = Grid::new(w, h).unwrap().with_connectivity(conn);
        for (i, &b) in walls.iter().enumerate() {
            grid.set_blocked(Cell::new(i % w, i / w), b).unwrap();
        }
        let make = if linear { Diffusion::linear } else { Diffusion::new };
        let d = make(decay, momentum).unwrap();
        let modes = [Mode::Set, Mode::Max, Mode::Add];
        let seeds: Vec<Seed> = seeds
            .iter()
            .map(|(i, s, m)| Seed::new(i.index(grid.len()), *s).with_mode(modes[usize::from(*m)]))
            .collect();
        let (mut sparse, mut dense) = (SparsePropagator::new(&grid, d), Propagator::new(&grid, d));
        for step in 0..steps {
            if step < seeded_steps {
                sparse.write_seeds(&grid, &seeds).unwrap();
                dense.write_seeds(&grid, &seeds).unwrap();
            }
            sparse.step(&grid);
            dense.step(&grid, Steps::default()).unwrap();
            prop_assert_eq!(bits(sparse.values()), bits(dense.values()), "step {}", step);
        }
    }
}

#[test]
fn stamped_sources_as_seeds_drive_both_the_same() {
    let grid = Grid::from_rows(&["............", "....@@@.....", "............", "..@........."]).unwrap();
    let sources = [
        // Explicit modes, which seeds and stamping share (without one a seed would set).
        Source::new(grid.center(Cell::new(1, 1)), 2.0, Falloff::Linear, 2.0).unwrap().with_mode(Mode::Add),
        Source::new(grid.center(Cell::new(9, 2)), 1.0, Falloff::Point, 1.0).unwrap().with_mode(Mode::Max),
    ];
    let mut seeds = Vec::new();
    let mut stamper = Stamper::new();
    seeds_from_sources(&grid, &mut stamper, &sources, &mut seeds).unwrap();
    let d = Diffusion::new(0.4, 0.5).unwrap();
    let (mut sparse, mut dense) = (SparsePropagator::new(&grid, d), Propagator::new(&grid, d));
    for _ in 0..15 {
        sparse.write_seeds(&grid, &seeds).unwrap();
        stamper.stamp_all(&grid, dense.values_mut(), &sources).unwrap();
        sparse.step(&grid);
        dense.step(&grid, Steps::default()).unwrap();
        assert_eq!(bits(sparse.values()), bits(dense.values()));
    }
}
