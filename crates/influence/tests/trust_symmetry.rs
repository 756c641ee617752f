//! A mirrored map gives a mirrored result: mirror a random walled grid left-right (or
//! transpose a square one), mirror the sources, and every algorithm's output is the mirror
//! of the original's, bit for bit.
//!
//! Exact equality holds because every value is computed by the same float operations in a
//! mirrored order: stamping from a source at a cell centre sees the same |dx|, |dy| per cell
//! (a kernel over integer offsets); the diffusion step and the steady state take maxima
//! (exact, order-free) of the same carried values; and a path distance is the minimum over
//! paths of the left-fold sum of its steps, a set of sums the mirror maps onto itself
//! (rounding is monotone, so Dijkstra finds exactly that minimum either way).

mod common;

use influence::propagate::{Diffusion, Propagator, Seed, SteadyState, Steps};
use influence::route::Router;
use influence::{Band, Falloff, Grid, Layer, Metric, Mode, Source, Stamper};
use influence::{Cell, Space};
use proptest::prelude::*;

/// A grid and a map of its cells onto the mirrored grid's cells.
#[derive(Debug, Clone, Copy)]
enum Mirror {
    LeftRight,
    Transpose,
}

impl Mirror {
    fn cell(self, grid: &Grid, x: usize, y: usize) -> (usize, usize) {
        match self {
            Mirror::LeftRight => (grid.width() - 1 - x, y),
            Mirror::Transpose => (y, x),
        }
    }

    fn index(self, grid: &Grid, i: usize) -> usize {
        let Cell { x, y } = grid.cell(i);
        let (mx, my) = self.cell(grid, x, y);
        // Both mirrors keep the width (a transposed grid is square).
        my * grid.width() + mx
    }

    fn grid(self, grid: &Grid) -> Grid {
        let (w, h) = (grid.width(), grid.height());
        let (mw, mh) = match self {
            Mirror::LeftRight => (w, h),
            Mirror::Transpose => (h, w),
        };
        let mut out = Grid::new(mw, mh)
            .unwrap()
            .with_cell_size(grid.cell_size())
            .unwrap()
            .with_connectivity(grid.connectivity());
        for y in 0..h {
            for x in 0..w {
                let (mx, my) = self.cell(grid, x, y);
                out.set_blocked(Cell::new(mx, my), grid.is_blocked(Cell::new(x, y))).unwrap();
            }
        }
        out
    }
}

/// Random walled grids, and square ones for the transpose.
fn case() -> impl Strategy<Value = (Grid, Mirror)> {
    prop_oneof![
        common::walled_grid(1..16, 0.2, 1.0).prop_map(|g| (g, Mirror::LeftRight)),
        common::walled_grid(1..16, 0.2, 0.7).prop_map(|g| (g, Mirror::LeftRight)),
        common::walled_grid(1..16, 0.2, 1.3).prop_map(|g| {
            let side = g.width().min(g.height());
            let mut sq = Grid::new(side, side)
                .unwrap()
                .with_cell_size(1.3)
                .unwrap()
                .with_connectivity(g.connectivity());
            for y in 0..side {
                for x in 0..side {
                    sq.set_blocked(Cell::new(x, y), g.is_blocked(Cell::new(x, y))).unwrap();
                }
            }
            (sq, Mirror::Transpose)
        }),
    ]
}

fn metric() -> impl Strategy<Value = Metric> {
    prop_oneof![Just(Metric::Euclidean), Just(Metric::Manhattan), Just(Metric::Octile), Just(Metric::Path)]
}

fn falloff() -> impl Strategy<Value = Falloff> {
    prop_oneof![
        Just(Falloff::Linear),
        (0.0f32..2.0).prop_map(|rate| Falloff::Exponential { rate }),
        (0.5f32..5.0).prop_map(|sigma| Falloff::Gaussian { sigma }),
        Just(Falloff::Band(Band::ring(1.0, 2.0, 4.0, 6.0).unwrap())),
    ]
}

fn diffusion() -> impl Strategy<Value = Diffusion> {
    (0.0f32..1.5, 0.0f32..=1.0, prop::sample::select(vec![0.0f32, 1e-4, 0.05]), any::<bool>()).prop_map(
        |(decay, momentum, threshold, linear)| {
            let make = if linear { Diffusion::linear } else { Diffusion::new };
            make(decay, momentum).unwrap().with_threshold(threshold).unwrap()
        },
    )
}

/// `mirrored` is `original` mirrored, bit for bit.
fn assert_mirrored(grid: &Grid, m: Mirror, original: &[f32], mirrored: &[f32]) -> Result<(), TestCaseError> {
    for (i, v) in original.iter().enumerate() {
        let j = m.index(grid, i);
        prop_assert_eq!(
            v.to_bits(),
            mirrored[j].to_bits(),
            "cell {} ({:?}) vs {}: {} vs {}",
            i,
            grid.cell(i),
            j,
            v,
            mirrored[j]
        );
    }
    Ok(())
}

/// `(index, value)` picks turned into cells of `grid`.
fn cells(grid: &Grid, picks: &[(prop::sample::Index, f32)]) -> Vec<(usize, f32)> {
    picks.iter().map(|(i, v)| (i.index(grid.len()), *v)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn stamping_from_centres_is_mirrored(
        (grid, m) in case(), f in falloff(), metric in metric(),
        mode in prop_oneof![Just(Mode::Add), Just(Mode::Max), Just(Mode::Set)],
        picks in prop::collection::vec((any::<prop::sample::Index>(), -3.0f32..5.0, 0.5f32..8.0), 1..5),
    ) {
        let mg = m.grid(&grid);
        let (mut a, mut b) = (Layer::for_space(&grid), Layer::for_space(&mg));
        let mut stamper = Stamper::new();
        for (cell, strength, radius) in picks {
            let i = cell.index(grid.len());
            let Cell { x, y } = grid.cell(i);
            let (mx, my) = m.cell(&grid, x, y);
            let src = Source::new(grid.center(Cell::new(x, y)), strength, f.clone(), radius).unwrap().with_metric(metric).with_mode(mode);
            let placed = stamper.stamp(&grid, &mut a, &src).is_ok();
            let mut msrc = src.clone();
            msrc.set_position(mg.center(Cell::new(mx, my))).unwrap();
            prop_assert_eq!(placed, stamper.stamp(&mg, &mut b, &msrc).is_ok());
        }
        assert_mirrored(&grid, m, a.values(), b.values())?;
    }

    #[test]
    fn diffusion_steps_are_mirrored(
        (grid, m) in case(), d in diffusion(), k in 1usize..12,
        picks in prop::collection::vec((any::<prop::sample::Index>(), 0.0f32..5.0), 1..5),
    ) {
        let mg = m.grid(&grid);
        let seeds: Vec<Seed> = cells(&grid, &picks).into_iter().map(|(c, s)| Seed::new(c, s)).collect();
        let mseeds: Vec<Seed> = seeds.iter().map(|s| Seed::new(m.index(&grid, s.cell), s.strength)).collect();
        let (mut a, mut b) = (Propagator::new(&grid, d), Propagator::new(&mg, d));
        for step in 0..k {
            a.write_seeds(&grid, &seeds).unwrap();
            b.write_seeds(&mg, &mseeds).unwrap();
            a.step(&grid, Steps::default()).unwrap();
            b.step(&mg, Steps::default()).unwrap();
            assert_mirrored(&grid, m, a.values().values(), b.values().values()).map_err(|e| {
                TestCaseError::fail(format!("after step {}: {}", step + 1, e))
            })?;
        }
    }

    #[test]
    fn the_steady_state_is_mirrored(
        (grid, m) in case(), d in diffusion(),
        picks in prop::collection::vec((any::<prop::sample::Index>(), 0.0f32..5.0), 1..5),
        floors in any::<bool>(),
    ) {
        let mg = m.grid(&grid);
        let mode = if floors { Mode::Max } else { Mode::Set };
        let seeds: Vec<Seed> = cells(&grid, &picks).into_iter().map(|(c, s)| Seed::new(c, s).with_mode(mode)).collect();
        let mseeds: Vec<Seed> = seeds.iter().map(|s| Seed::new(m.index(&grid, s.cell), s.strength).with_mode(mode)).collect();
        let (mut a, mut b) = (Layer::for_space(&grid), Layer::for_space(&mg));
        SteadyState::default().solve(&grid, &d, &seeds, &mut a).unwrap();
        SteadyState::default().solve(&mg, &d, &mseeds, &mut b).unwrap();
        assert_mirrored(&grid, m, a.values(), b.values())?;
    }

    #[test]
    fn path_distances_are_mirrored(
        (grid, m) in case(),
        picks in prop::collection::vec((any::<prop::sample::Index>(), 0.0f32..3.0), 1..4),
        limit in prop_oneof![Just(f32::INFINITY), 0.0f32..20.0],
    ) {
        let mg = m.grid(&grid);
        let starts = cells(&grid, &picks);
        let mstarts: Vec<(usize, f32)> = starts.iter().map(|&(c, d)| (m.index(&grid, c), d)).collect();
        // Unreached cells stay NaN; compare bits, so NaN matches NaN.
        let (mut a, mut b) = (vec![f32::NAN; grid.len()], vec![f32::NAN; mg.len()]);
        let mut scratch = Router::new();
        scratch.sweep(&grid, &starts, limit, |c, d| a[c] = d);
        scratch.sweep(&mg, &mstarts, limit, |c, d| b[c] = d);
        assert_mirrored(&grid, m, &a, &b)?;
    }
}
