//! The same inputs give the same bits: a whole pipeline run twice from scratch, and parallel
//! diffusion on 1, 2 and 3 threads against one.

mod common;

use influence::propagate::{Diffusion, Propagator, Seed, SteadyState, Steps};
use influence::query::{self, Extreme};
use influence::route::{Cost, Heuristic, Router};
use influence::{Analysis, Band, Falloff, Grid, Layer, Metric, Mode, Source, Space, Stamper};
use proptest::prelude::*;
use rand_core::SeedableRng; // `next_u64` comes with proptest's prelude (`Rng`)
use rand_xorshift::XorShiftRng;

fn bits(values: &[f32]) -> Vec<u32> {
    values.iter().map(|v| v.to_bits()).collect()
}

/// Every output of the pipeline, as bits.
#[derive(Debug, PartialEq)]
struct Outputs {
    teams: Vec<Vec<u32>>,
    diffused: Vec<u32>,
    steady: Vec<u32>,
    analysis: Vec<Vec<u32>>,
    route: Option<(Vec<usize>, u64, u64, u32, usize)>,
    top: Vec<(usize, u32)>,
}

/// Stamp 50 sources (two teams, every metric, mixed falloffs and modes), 20 diffusion steps,
/// the steady state, the analysis maps, a route avoiding the enemy and the top 5 spots.
fn pipeline(grid: &Grid, seed: u64, d: Diffusion) -> Outputs {
    let mut rng = XorShiftRng::seed_from_u64(seed);
    let mut next = move || rng.next_u64();
    let unit = |r: u64| (r >> 40) as f32 / (1u64 << 24) as f32;
    let falloffs = [
        Falloff::Linear,
        Falloff::Exponential { rate: 0.7 },
        Falloff::Gaussian { sigma: 2.5 },
        Falloff::Halving { step: 1.5 },
        Falloff::Band(Band::ring(1.0, 2.0, 4.0, 6.0).unwrap()),
    ];
    let metrics = [Metric::Euclidean, Metric::Manhattan, Metric::Octile, Metric::Path];
    let modes = [Mode::Add, Mode::Add, Mode::Max, Mode::Set];
    let size = grid.world_size();
    let mut teams = [Layer::for_space(grid), Layer::for_space(grid)];
    let mut stamper = Stamper::new();
    let mut seeds = Vec::new();
    for k in 0..50 {
        let at = grid.origin() + glam::Vec2::new(unit(next()) * size.x, unit(next()) * size.y);
        let src =
            Source::new(at, 0.5 + 4.0 * unit(next()), falloffs[k % 5].clone(), 1.0 + 8.0 * unit(next()))
                .unwrap()
                .with_metric(metrics[(next() % 4) as usize])
                .with_mode(modes[(next() % 4) as usize]);
        common::stamp_unless_walled(&mut stamper, grid, &mut teams[k % 2], &src);
        if let Some(c) = grid.cell_at(at).and_then(|c| grid.index(c)) {
            seeds.push(Seed::new(c, src.strength()));
        }
    }
    let mut p = Propagator::new(grid, d);
    p.step(grid, Steps { count: 20, seeds: &seeds, ..Steps::default() }).unwrap();
    let mut steady = Layer::for_space(grid);
    SteadyState::default().solve(grid, &d, &seeds, &mut steady).unwrap();
    let a = Analysis::from_teams(&teams[0], &[&teams[1]]);
    let walkable: Vec<usize> = (0..grid.len()).filter(|&i| grid.is_walkable(i)).collect();
    let route = match (walkable.first(), walkable.last()) {
        (Some(&start), Some(&goal)) => Router::new()
            .find(grid, start, goal, &Cost::avoiding(&teams[1], 0.5).unwrap(), Heuristic::Octile)
            .unwrap()
            .map(|r| (r.cells, r.length.to_bits(), r.exposure.to_bits(), r.cost.to_bits(), r.expanded)),
        _ => None,
    };
    let top = query::top_n(grid, &a.vulnerability, 5, 3.0, Extreme::Highest);
    Outputs {
        teams: teams.iter().map(|l| bits(l.values())).collect(),
        diffused: bits(p.values().values()),
        steady: bits(steady.values()),
        analysis: [
            &a.mine,
            &a.theirs,
            &a.influence,
            &a.tension,
            &a.tension_product,
            &a.vulnerability,
            &a.directed_vulnerability,
        ]
        .iter()
        .map(|l| bits(l.values()))
        .collect(),
        route,
        top: top.into_iter().map(|(i, v)| (i, v.to_bits())).collect(),
    }
}

fn diffusion() -> impl Strategy<Value = Diffusion> {
    (0.0f32..1.5, 0.0f32..=1.0, prop::sample::select(vec![0.0f32, 1e-4, 0.05]), any::<bool>()).prop_map(
        |(decay, momentum, threshold, linear)| {
            let make = if linear { Diffusion::linear } else { Diffusion::new };
            make(decay, momentum).unwrap().with_threshold(threshold).unwrap()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn the_whole_pipeline_gives_the_same_bits_twice(
        grid in common::walled_grid(8..40, 0.2, 1.0), seed in any::<u64>(), d in diffusion(),
    ) {
        let first = pipeline(&grid.clone(), seed, d);
        let second = pipeline(&grid, seed, d);
        prop_assert_eq!(first, second);
    }
}

#[cfg(feature = "rayon")]
mod parallel {
    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// Tall maps so that 2 and 3 threads cut several bands of at least 16 rows.
        #[test]
        fn par_steps_on_1_2_3_threads_equal_steps(
            grid in common::walled_grid(3..80, 0.2, 1.0), d in diffusion(), n in 0usize..30,
            picks in prop::collection::vec((any::<prop::sample::Index>(), 0.0f32..5.0), 0..6),
        ) {
            let seeds: Vec<Seed> = picks.iter().map(|(i, s)| Seed::new(i.index(grid.len()), *s)).collect();
            let mut single = Propagator::new(&grid, d);
            single.step(&grid, Steps { count: n, seeds: &seeds, ..Steps::default() }).unwrap();
            for threads in [1, 2, 3] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let mut par = Propagator::new(&grid, d);
                pool.install(|| par.step(&grid, Steps { count: n, seeds: &seeds, parallel: true, ..Steps::default() })).unwrap();
                prop_assert_eq!(bits(par.values().values()), bits(single.values().values()), "{} threads", threads);
            }
        }
    }
}
