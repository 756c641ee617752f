//! The one-sweep steady state against iterating the step until nothing changes.
//!
//! Tolerance: with momentum 1 the two are bit-identical. With momentum in (0, 1) the lerp
//! stalls a few ulps short of its target and the stall travels along paths, so values may
//! differ by up to 1e-4 × the strongest seed; and a cell whose value lies within 0.1 % of
//! the rising cut-off `threshold / momentum` may be 0 on one side only.

mod common;

use influence::propagate::{Diffusion, Propagator, Seed, SteadyState, Steps};
use influence::{Connectivity, Grid, Layer, Mode, Space};
use proptest::prelude::*;

fn walled_grid() -> impl Strategy<Value = Grid> {
    common::walled_grid(1..11, 0.25, 1.0)
}

fn seeds(len: usize) -> impl Strategy<Value = Vec<Seed>> {
    prop::collection::vec((0..len, 0.5f32..5.0, any::<bool>()), 1..5).prop_map(|v| {
        v.into_iter()
            .map(|(cell, s, max)| Seed::new(cell, s).with_mode(if max { Mode::Max } else { Mode::Set }))
            .collect()
    })
}

fn case(momentum: impl Strategy<Value = f32>) -> impl Strategy<Value = (Grid, Vec<Seed>, Diffusion)> {
    let params = (0.02f32..1.0, momentum, prop::sample::select(vec![0.0f32, 1e-4, 0.05]), any::<bool>());
    (walled_grid(), params).prop_flat_map(|(grid, (decay, momentum, threshold, linear))| {
        let make = if linear { Diffusion::linear } else { Diffusion::new };
        let d = make(decay, momentum).unwrap().with_threshold(threshold).unwrap();
        let len = grid.len();
        (Just(grid), seeds(len), Just(d))
    })
}

/// Steps until the map stops changing, then writes the seeds once more: the map a step reads.
fn iterate(grid: &Grid, seeds: &[Seed], d: Diffusion) -> Layer {
    let mut p = Propagator::new(grid, d);
    for _ in 0..100_000 {
        let before = p.values().clone();
        p.write_seeds(grid, seeds).unwrap();
        p.step(grid, Steps::default()).unwrap();
        if p.values().values().iter().zip(before.values()).all(|(a, b)| a.to_bits() == b.to_bits()) {
            p.write_seeds(grid, seeds).unwrap();
            return p.values().clone();
        }
    }
    panic!("no fixed point");
}

fn steady(grid: &Grid, seeds: &[Seed], d: Diffusion) -> Layer {
    let mut out = Layer::for_space(grid);
    SteadyState::default().solve(grid, &d, seeds, &mut out).unwrap();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn momentum_one_is_bit_identical((grid, seeds, d) in case(Just(1.0f32))) {
        let (a, b) = (iterate(&grid, &seeds, d), steady(&grid, &seeds, d));
        let bits = |l: &Layer| l.values().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        prop_assert_eq!(bits(&a), bits(&b));
    }

    #[test]
    fn lower_momentum_agrees_within_tolerance((grid, seeds, d) in case(0.2f32..1.0)) {
        let (a, b) = (iterate(&grid, &seeds, d), steady(&grid, &seeds, d));
        let strongest = seeds.iter().map(|s| s.strength).fold(0.0, f32::max);
        let cut = d.threshold() / d.momentum();
        for (i, (&x, &y)) in a.values().iter().zip(b.values()).enumerate() {
            let close = (x - y).abs() <= 1e-4 * strongest;
            let at_cut = x.min(y) == 0.0 && x.max(y) <= cut * 1.001;
            prop_assert!(close || at_cut, "cell {}: iterated {} steady {}", i, x, y);
        }
    }
}

#[test]
fn steady_state_is_exp_of_path_distance_around_walls() {
    let grid = Grid::from_rows(&["...", ".@.", "..."]).unwrap().with_connectivity(Connectivity::Four);
    let d = Diffusion::new(0.5, 1.0).unwrap().with_threshold(0.0).unwrap();
    let out = steady(&grid, &[Seed::new(0, 1.0)], d);
    // Four steps around the wall to the far corner.
    assert!((out[8] - (-2.0f32).exp()).abs() < 1e-6);
    assert_eq!(out[4], 0.0);
    assert_eq!(out, iterate(&grid, &[Seed::new(0, 1.0)], d));
}
