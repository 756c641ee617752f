//! Property tests of placing influence and the compound maps.

mod common;

use common::{falloff, metric};
use influence::{Analysis, Falloff, Grid, Layer, Metric, Mode, Source, Stamper};
use influence::{Cell, Space};
use proptest::prelude::*;
use rand_core::SeedableRng; // `next_u64` and `next_u32` come with proptest's prelude (`Rng`)
use rand_xorshift::XorShiftRng;

/// A random grid up to 24×24 with roughly `wall_pct` % blocked cells.
fn grid() -> impl Strategy<Value = Grid> {
    (2usize..24, 2usize..24, 0u32..35, any::<u64>(), prop_oneof![Just(1.0f32), Just(0.5), Just(2.56)])
        .prop_map(|(w, h, wall_pct, seed, cs)| {
            let mut g = Grid::new(w, h).unwrap().with_cell_size(cs).unwrap();
            let mut rng = XorShiftRng::seed_from_u64(seed);
            for y in 0..h {
                for x in 0..w {
                    if rng.next_u64() % 100 < u64::from(wall_pct) {
                        g.set_blocked(Cell::new(x, y), true).unwrap();
                    }
                }
            }
            g
        })
}

/// `len` values in `[-5, 5)`.
fn random_layer(len: usize, seed: u64) -> Layer {
    let mut rng = XorShiftRng::seed_from_u64(seed);
    Layer::from_vec(
        (0..len).map(|_| (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32 * 10.0 - 5.0).collect(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_positive_additive_source_never_lowers_a_cell(
        g in grid(), f in falloff(), m in metric(), seed in any::<u64>(),
        fx in 0.0f32..1.0, fy in 0.0f32..1.0, strength in 0.0f32..10.0, radius in 0.5f32..12.0,
    ) {
        let before = random_layer(g.len(), seed);
        let mut after = before.clone();
        let at = g.origin() + glam::Vec2::new(fx * g.world_size().x, fy * g.world_size().y);
        let src = Source::new(at, strength, f, radius).unwrap().with_metric(m);
        if Stamper::new().stamp(&g, &mut after, &src).is_err() {
            // Refused, as it stands on a wall, and nothing written.
            prop_assert!(g.cell_at(at).is_some_and(|c| g.is_blocked(c)));
            prop_assert_eq!(&after, &before);
        }
        for (a, b) in after.values().iter().zip(before.values()) {
            prop_assert!(a >= b);
            prop_assert!(a.is_finite());
            // At most the strength, plus the rounding of the sum (half an ulp of the cell's
            // value, which dwarfs a tiny strength added to a value near 5).
            prop_assert!(a - b <= strength * 1.0001 + a.abs() * f32::EPSILON);
        }
    }

    #[test]
    fn templates_equal_direct_evaluation_for_centred_sources(
        g in grid(), f in falloff(), m in metric(), mode in prop_oneof![Just(Mode::Add), Just(Mode::Set), Just(Mode::Max)],
        cells in prop::collection::vec((any::<prop::sample::Index>(), -5.0f32..5.0, 0.5f32..9.0), 1..6),
    ) {
        let (mut a, mut b) = (Layer::for_space(&g), Layer::for_space(&g));
        let (mut cached, mut direct) = (Stamper::new(), Stamper::direct());
        for (cell, strength, radius) in cells {
            let Cell { x, y } = g.cell(cell.index(g.len()));
            let src = Source::new(g.center(Cell::new(x, y)), strength, f.clone(), radius).unwrap().with_metric(m).with_mode(mode);
            let placed = cached.stamp(&g, &mut a, &src).is_ok();
            prop_assert_eq!(placed, direct.stamp(&g, &mut b, &src).is_ok());
            prop_assert_eq!(placed, !g.is_blocked(Cell::new(x, y)));
        }
        for (p, q) in a.values().iter().zip(b.values()) {
            prop_assert_eq!(p.to_bits(), q.to_bits());
        }
    }

    #[test]
    fn path_distance_never_gives_more_than_the_straight_line(
        g in grid(), cell in any::<prop::sample::Index>(), radius in 0.5f32..12.0,
    ) {
        let Cell { x, y } = g.cell(cell.index(g.len()));
        let src = Source::new(g.center(Cell::new(x, y)), 1.0, Falloff::Linear, radius).unwrap();
        let (mut straight, mut path) = (Layer::for_space(&g), Layer::for_space(&g));
        let placed = Stamper::new().stamp(&g, &mut straight, &src).is_ok();
        prop_assert_eq!(placed, Stamper::new().stamp(&g, &mut path, &src.with_metric(Metric::Path)).is_ok());
        for (p, s) in path.values().iter().zip(straight.values()) {
            prop_assert!(*p <= *s + 1e-6, "path {} > straight {}", p, s);
        }
    }

    #[test]
    fn vulnerability_is_at_most_tension_and_maps_are_consistent(
        len in 1usize..300, seeds in prop::collection::vec(any::<u64>(), 2..5), me in any::<prop::sample::Index>(),
    ) {
        let teams: Vec<Layer> = seeds.iter().map(|&s| { let mut l = random_layer(len, s); l.map(f32::abs); l }).collect();
        let me = me.index(teams.len());
        let others: Vec<&Layer> = teams.iter().enumerate().filter(|&(t, _)| t != me).map(|(_, l)| l).collect();
        let a = Analysis::from_teams(&teams[me], &others);
        for i in 0..len {
            let (t, v, inf) = (a.tension[i], a.vulnerability[i], a.influence[i]);
            prop_assert!(v <= t);
            prop_assert!(v >= -1e-4, "non-negative teams give non-negative vulnerability");
            prop_assert!((a.mine[i] - a.theirs[i] - inf).abs() <= 1e-4);
            prop_assert!((a.directed_vulnerability[i] - 2.0 * a.mine[i]).abs() <= 1e-3);
        }
    }
}

#[test]
fn an_enclosed_room_keeps_path_influence_out() {
    let grid = Grid::from_rows(&[
        "..........",
        ".@@@@@@...",
        ".@....@...",
        ".@....@...",
        ".@@@@@@...",
        "..........",
    ])
    .unwrap();
    let mut layer = Layer::for_space(&grid);
    let src = Source::new(grid.center(Cell::new(8, 3)), 9.0, Falloff::Constant, 50.0)
        .unwrap()
        .with_metric(Metric::Path);
    Stamper::new().stamp(&grid, &mut layer, &src).unwrap();
    for (x, y) in [(2, 2), (5, 3), (3, 3)] {
        assert_eq!(layer[grid.index(Cell::new(x, y)).unwrap()], 0.0, "({x}, {y}) is inside the room");
    }
    assert_eq!(layer[grid.index(Cell::new(0, 0)).unwrap()], 9.0);
}
