//! No value exceeds what its sources can give, nothing lowers when a source is added, and
//! nothing crosses a closed wall.

mod common;

use common::{falloff, metric};
use influence::propagate::{Diffusion, Propagator, Seed, SteadyState, Steps};
use influence::Cell;
use influence::{Analysis, Falloff, Grid, Layer, Metric, Mode, Source, Space, Stamper};
use proptest::prelude::*;

fn diffusion() -> impl Strategy<Value = Diffusion> {
    (0.0f32..1.5, 0.0f32..=1.0, prop::sample::select(vec![0.0f32, 1e-4, 0.05]), any::<bool>()).prop_map(
        |(decay, momentum, threshold, linear)| {
            let make = if linear { Diffusion::linear } else { Diffusion::new };
            make(decay, momentum).unwrap().with_threshold(threshold).unwrap()
        },
    )
}

/// Non-negative sources anywhere on the grid (not only at centres).
fn sources(grid: &Grid, picks: &[(f32, f32, f32, f32)], f: &Falloff, m: Metric, mode: Mode) -> Vec<Source> {
    let size = grid.world_size();
    picks
        .iter()
        .map(|&(fx, fy, s, r)| {
            let at = grid.origin() + glam::Vec2::new(fx * size.x, fy * size.y);
            Source::new(at, s, f.clone(), r).unwrap().with_metric(m).with_mode(mode)
        })
        .collect()
}

fn picks() -> impl Strategy<Value = Vec<(f32, f32, f32, f32)>> {
    prop::collection::vec((0.0f32..1.0, 0.0f32..1.0, 0.0f32..5.0, 0.5f32..10.0), 1..8)
}

/// A grid with the ring around `x0..x1 × y0..y1` (inclusive of the ring) blocked, and the
/// cells strictly inside it.
fn room(grid: &mut Grid, (x0, y0, x1, y1): (usize, usize, usize, usize)) -> Vec<usize> {
    let mut inside = Vec::new();
    for y in y0..=y1 {
        for x in x0..=x1 {
            if x == x0 || x == x1 || y == y0 || y == y1 {
                grid.set_blocked(Cell::new(x, y), true).unwrap();
            }
            inside.push(grid.index(Cell::new(x, y)).unwrap());
        }
    }
    inside
}

/// A random walled grid at least 4 × 4, a room on it (ring at least 3 × 3), and walkable
/// cells outside the room.
fn walled_room() -> impl Strategy<Value = (Grid, Vec<usize>, Vec<usize>)> {
    common::walled_grid(4..18, 0.15, 1.0)
        .prop_flat_map(|g| {
            let (w, h) = (g.width(), g.height());
            (Just(g), 0..w - 2, 0..h - 2).prop_flat_map(|(g, x0, y0)| {
                let (w, h) = (g.width(), g.height());
                (Just(g), Just((x0, y0)), x0 + 2..w, y0 + 2..h)
            })
        })
        .prop_map(|(mut g, (x0, y0), x1, y1)| {
            let inside = room(&mut g, (x0, y0, x1, y1));
            let outside = (0..g.len()).filter(|i| !inside.contains(i) && g.is_walkable(*i)).collect();
            (g, inside, outside)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// `Set` and `Max` seeds only: an `Add` seed rewritten every step adds up past its
    /// strength by design.
    #[test]
    fn diffusion_never_exceeds_the_strongest_seed(
        grid in common::walled_grid(1..20, 0.2, 1.0), d in diffusion(), n in 0usize..40,
        picks in prop::collection::vec((any::<prop::sample::Index>(), 0.0f32..5.0, any::<bool>()), 1..6),
        fused in any::<bool>(),
    ) {
        let seeds: Vec<Seed> = picks
            .iter()
            .map(|(i, s, max)| Seed::new(i.index(grid.len()), *s).with_mode(if *max { Mode::Max } else { Mode::Set }))
            .collect();
        let top = seeds.iter().map(|s| s.strength).fold(0.0f32, f32::max);
        let mut p = Propagator::new(&grid, d);
        if fused {
            p.step(&grid, Steps { count: n, seeds: &seeds, ..Steps::default() }).unwrap();
        } else {
            for _ in 0..n {
                p.write_seeds(&grid, &seeds).unwrap();
                p.step(&grid, Steps::default()).unwrap();
            }
        }
        for (i, &v) in p.values().values().iter().enumerate() {
            prop_assert!((0.0..=top).contains(&v), "cell {} = {} > strongest seed {}", i, v, top);
        }
    }

    /// Each falloff factor is at most 1, so a cell gets at most each strength once. The bound
    /// sums the strengths in stamping order: rounding is monotone, so it is exact.
    #[test]
    fn non_negative_stamping_stays_below_the_sum_of_strengths(
        grid in common::walled_grid(1..20, 0.2, 0.8), f in falloff(), m in metric(), picks in picks(),
        mode in prop_oneof![Just(Mode::Add), Just(Mode::Max), Just(Mode::Set)],
    ) {
        let srcs = sources(&grid, &picks, &f, m, mode);
        let sum = srcs.iter().fold(0.0f32, |a, s| a + s.strength());
        let mut layer = Layer::for_space(&grid);
        let mut stamper = Stamper::new();
        for s in &srcs {
            common::stamp_unless_walled(&mut stamper, &grid, &mut layer, s);
        }
        for (i, &v) in layer.values().iter().enumerate() {
            prop_assert!((0.0..=sum).contains(&v), "cell {} = {} > {}", i, v, sum);
        }
    }

    /// |mine − theirs| ≤ mine + theirs for non-negative layers, and in floats too (rounding
    /// is monotone): vulnerability is never negative.
    #[test]
    fn influence_is_bounded_by_tension(
        grid in common::walled_grid(1..16, 0.2, 1.0), f in falloff(), m in metric(),
        teams in prop::collection::vec(picks(), 2..4), me in any::<prop::sample::Index>(),
    ) {
        let layers: Vec<Layer> = teams
            .iter()
            .map(|p| {
                let mut l = Layer::for_space(&grid);
                let mut stamper = Stamper::new();
                for s in &sources(&grid, p, &f, m, Mode::Add) {
                    common::stamp_unless_walled(&mut stamper, &grid, &mut l, s);
                }
                l
            })
            .collect();
        let me = me.index(layers.len());
        let others: Vec<&Layer> = layers.iter().enumerate().filter(|&(t, _)| t != me).map(|(_, l)| l).collect();
        let a = Analysis::from_teams(&layers[me], &others);
        for i in 0..grid.len() {
            prop_assert!(a.influence[i].abs() <= a.tension[i], "cell {}: |{}| > {}", i, a.influence[i], a.tension[i]);
            prop_assert!(a.vulnerability[i] >= 0.0);
        }
    }

    /// A `Max` seed is a floor, so adding one can only raise the fixed point.
    #[test]
    fn a_positive_seed_never_lowers_the_steady_state(
        grid in common::walled_grid(1..20, 0.2, 1.0), d in diffusion(),
        picks in prop::collection::vec((any::<prop::sample::Index>(), 0.0f32..5.0, any::<bool>()), 0..5),
        extra in (any::<prop::sample::Index>(), 0.0f32..5.0),
    ) {
        let mut seeds: Vec<Seed> = picks
            .iter()
            .map(|(i, s, max)| Seed::new(i.index(grid.len()), *s).with_mode(if *max { Mode::Max } else { Mode::Set }))
            .collect();
        let (mut before, mut after) = (Layer::for_space(&grid), Layer::for_space(&grid));
        let mut solver = SteadyState::default();
        solver.solve(&grid, &d, &seeds, &mut before).unwrap();
        seeds.push(Seed::new(extra.0.index(grid.len()), extra.1).with_mode(Mode::Max));
        solver.solve(&grid, &d, &seeds, &mut after).unwrap();
        for i in 0..grid.len() {
            prop_assert!(after[i] >= before[i], "cell {} fell from {} to {}", i, before[i], after[i]);
        }
    }

    #[test]
    fn nothing_crosses_a_closed_wall(
        (grid, inside, outside) in walled_room(), d in diffusion(), f in falloff(), n in 1usize..30,
        picks in prop::collection::vec((any::<prop::sample::Index>(), 0.1f32..5.0, 1.0f32..40.0), 1..5),
    ) {
        if outside.is_empty() {
            return Ok(());
        }
        let cells: Vec<(usize, f32, f32)> = picks.iter().map(|(i, s, r)| (outside[i.index(outside.len())], *s, *r)).collect();
        // Path stamping.
        let mut stamped = Layer::for_space(&grid);
        let mut stamper = Stamper::new();
        for &(c, s, r) in &cells {
            let Cell { x, y } = grid.cell(c);
            let src = Source::new(grid.center(Cell::new(x, y)), s, f.clone(), r).unwrap().with_metric(Metric::Path);
            stamper.stamp(&grid, &mut stamped, &src).unwrap();
        }
        // Diffusion and the steady state.
        let seeds: Vec<Seed> = cells.iter().map(|&(c, s, _)| Seed::new(c, s)).collect();
        let mut p = Propagator::new(&grid, d);
        p.step(&grid, Steps { count: n, seeds: &seeds, ..Steps::default() }).unwrap();
        let mut steady = Layer::for_space(&grid);
        SteadyState::default().solve(&grid, &d, &seeds, &mut steady).unwrap();
        for &i in &inside {
            prop_assert_eq!(stamped[i].to_bits(), 0, "path stamp reached {:?}", grid.cell(i));
            prop_assert_eq!(p.values()[i].to_bits(), 0, "diffusion reached {:?}", grid.cell(i));
            prop_assert_eq!(steady[i].to_bits(), 0, "steady state reached {:?}", grid.cell(i));
        }
    }
}
