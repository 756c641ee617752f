//! Property tests for `query::SpotIndex`: on random grids and layers full of ties, `NaN`s,
//! signed zeros and infinities, every indexed query answers exactly (bit for bit) what the
//! generic function of the same name answers.

use influence::glam::{Vec2, Vec3};
use influence::query::{self, Extreme, SpotIndex};
use influence::route::Router;
use influence::{Cell, Connectivity, Grid, Layer};
use proptest::prelude::*;

/// A value with many ties and every special float: small integers and halves, signed zeros,
/// infinities, `NaN`s of both signs, and arbitrary bits now and then.
fn value() -> impl Strategy<Value = f32> {
    prop_oneof![
        6 => (-6i8..=6).prop_map(|v| f32::from(v) * 0.5),
        1 => Just(0.0f32),
        1 => Just(-0.0f32),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(f32::NAN),
        1 => Just(-f32::NAN),
        1 => any::<f32>(),
    ]
}

/// A random grid (sizes from 1 to past two tiles, walls, connectivity, cell size, origin) and
/// a layer on it; walls hold values too, which no query may choose. Some grids are mostly
/// wall, so that whole tiles are (the index skips them unread).
fn map() -> impl Strategy<Value = (Grid, Layer)> {
    (
        1usize..80,
        1usize..12,
        prop_oneof![0.0f64..0.6, 0.9f64..1.0],
        any::<bool>(),
        0.25f32..3.0,
        -50.0f32..50.0,
    )
        .prop_flat_map(|(w, h, walls, four, cs, o)| {
            let cells = w * h;
            (prop::collection::vec(prop::bool::weighted(walls), cells), prop::collection::vec(value(), cells))
                .prop_map(move |(blocked, values)| {
                    let mut grid = Grid::new(w, h)
                        .unwrap()
                        .with_cell_size(cs)
                        .unwrap()
                        .with_origin(Vec2::new(o, -o * 0.5))
                        .unwrap();
                    if four {
                        grid = grid.with_connectivity(Connectivity::Four);
                    }
                    for (i, &b) in blocked.iter().enumerate() {
                        grid.set_blocked(Cell::new(i % w, i / w), b).unwrap();
                    }
                    (grid, Layer::from_vec(values))
                })
        })
}

fn which() -> impl Strategy<Value = Extreme> {
    prop_oneof![Just(Extreme::Highest), Just(Extreme::Lowest)]
}

/// Spacings and radii: ordinary ones, zero, negative, `NaN`, huge and infinite.
fn distance() -> impl Strategy<Value = f32> {
    prop_oneof![
        6 => 0.0f32..20.0,
        1 => Just(0.0f32),
        1 => -5.0f32..0.0,
        1 => Just(f32::NAN),
        1 => Just(1e30f32),
        1 => Just(f32::INFINITY),
    ]
}

/// A coordinate in and around the map, or far away, infinite or `NaN`.
fn coordinate() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -80.0f32..250.0,
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(-1e30f32),
    ]
}

fn centre() -> impl Strategy<Value = Vec3> {
    (coordinate(), coordinate(), prop_oneof![4 => Just(0.0f32), 1 => -3.0f32..3.0, 1 => Just(f32::NAN)])
        .prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// How many spots: none, a few, more than the map holds, or unbounded.
fn count() -> impl Strategy<Value = usize> {
    prop_oneof![6 => 0usize..12, 1 => 12usize..2000, 1 => Just(usize::MAX)]
}

/// Values as bits, so that `-0.0` differs from `0.0` and `NaN` equals itself.
fn bits(spots: &[(usize, f32)]) -> Vec<(usize, u32)> {
    spots.iter().map(|&(i, v)| (i, v.to_bits())).collect()
}

fn bits1(spot: Option<(usize, f32)>) -> Option<(usize, u32)> {
    spot.map(|(i, v)| (i, v.to_bits()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Several top-N queries in a row on one index (the order the first builds is reused and
    /// extended by the later ones), each against `query::top_n`.
    #[test]
    fn top_n_is_todays_top_n(
        (grid, layer) in map(),
        queries in prop::collection::vec((count(), distance(), which()), 1..8),
    ) {
        let mut spots = SpotIndex::new();
        spots.build(&grid, &layer);
        let mut got = vec![(7, 7.0)];
        for (n, spacing, which) in queries {
            spots.top_n_into(&grid, &layer, n, spacing, which, &mut got);
            let want = query::top_n(&grid, &layer, n, spacing, which);
            prop_assert_eq!(bits(&got), bits(&want), "n {}, spacing {}, {:?}", n, spacing, which);
        }
    }

    #[test]
    fn extreme_is_todays_extreme((grid, layer) in map(), which in which()) {
        let mut spots = SpotIndex::new();
        spots.build(&grid, &layer);
        prop_assert_eq!(bits1(spots.extreme(&grid, &layer, which)), bits1(query::extreme(&grid, &layer, which)));
    }

    #[test]
    fn within_radius_is_todays_within_radius(
        (grid, layer) in map(),
        discs in prop::collection::vec((centre(), distance(), which()), 1..6),
    ) {
        let mut spots = SpotIndex::new();
        spots.build(&grid, &layer);
        for (c, r, which) in discs {
            let got = spots.extreme_within_radius(&grid, &layer, c, r, which);
            let want = query::extreme_within_radius(&grid, &layer, c, r, which);
            prop_assert_eq!(bits1(got), bits1(want), "centre {}, radius {}, {:?}", c, r, which);
        }
    }

    /// Discs centred on cell centres and corners, with radii at and a hair around the
    /// distances to other centres: where rounding decides whether a cell is inside.
    #[test]
    fn within_radius_agrees_on_the_rim(
        (grid, layer) in map(), which in which(), a in any::<prop::sample::Index>(), b in any::<prop::sample::Index>(),
        corner in any::<bool>(), nudge in -2i32..=2,
    ) {
        let mut spots = SpotIndex::new();
        spots.build(&grid, &layer);
        let n = grid.width() * grid.height();
        let (a, b) = (grid.cell(a.index(n)), grid.cell(b.index(n)));
        let half = if corner { grid.cell_size() * 0.5 } else { 0.0 };
        let c = (grid.center(a) + half).extend(0.0);
        let r = c.distance(grid.center(b).extend(0.0));
        let r = f32::from_bits((r.to_bits() as i32 + nudge).max(0) as u32);
        let got = spots.extreme_within_radius(&grid, &layer, c, r, which);
        prop_assert_eq!(bits1(got), bits1(query::extreme_within_radius(&grid, &layer, c, r, which)));
    }

    #[test]
    fn reachable_is_todays_reachable(
        (grid, layer) in map(), which in which(), start in 0usize..1000, limit in distance(),
    ) {
        let mut spots = SpotIndex::new();
        spots.build(&grid, &layer);
        let mut router = Router::new();
        let got = spots.extreme_reachable(&grid, &layer, start, limit, &mut router, which);
        let want = query::extreme_reachable(&grid, &layer, start, limit, &mut router, which);
        prop_assert_eq!(bits1(got), bits1(want));
    }

    /// One index rebuilt frame after frame, for another layer (and another grid): every answer
    /// is the new layer's, none left over from the old one.
    #[test]
    fn a_rebuilt_index_answers_for_the_new_layer(
        (grid, first) in map(), (other_grid, other) in map(), scale in prop_oneof![Just(-1.0f32), 0.5f32..2.0],
        n in count(), spacing in distance(), which in which(), c in centre(), r in distance(),
    ) {
        let mut spots = SpotIndex::new();
        let mut out = Vec::new();
        // The same grid with its layer changed (negated or scaled: the order of cells changes),
        // then another grid altogether.
        let changed = Layer::from_vec(first.values().iter().map(|v| v * scale + 1.0).collect());
        for (g, l) in [(&grid, &first), (&grid, &changed), (&other_grid, &other)] {
            spots.build(g, l);
            spots.top_n_into(g, l, n, spacing, which, &mut out);
            prop_assert_eq!(bits(&out), bits(&query::top_n(g, l, n, spacing, which)));
            prop_assert_eq!(bits1(spots.extreme(g, l, which)), bits1(query::extreme(g, l, which)));
            prop_assert_eq!(
                bits1(spots.extreme_within_radius(g, l, c, r, which)),
                bits1(query::extreme_within_radius(g, l, c, r, which))
            );
        }
    }
}

/// A layer that changes between builds changes the answers: the old order is not reused.
#[test]
fn rebuilding_after_a_change_gives_the_new_spots() {
    let grid = Grid::new(100, 3).unwrap();
    let mut layer = Layer::from_vec((0..300).map(|i| (i % 100) as f32).collect());
    let mut spots = SpotIndex::new();
    let mut out = Vec::new();
    spots.build(&grid, &layer);
    spots.top_n_into(&grid, &layer, 3, 0.0, Extreme::Highest, &mut out);
    assert_eq!(out, vec![(99, 99.0), (199, 99.0), (299, 99.0)]);
    layer[150] = 500.0;
    spots.build(&grid, &layer);
    spots.top_n_into(&grid, &layer, 3, 0.0, Extreme::Highest, &mut out);
    assert_eq!(out, vec![(150, 500.0), (99, 99.0), (199, 99.0)]);
    assert_eq!(spots.extreme(&grid, &layer, Extreme::Highest), Some((150, 500.0)));
    assert_eq!(out, query::top_n(&grid, &layer, 3, 0.0, Extreme::Highest));
}

#[test]
#[should_panic(expected = "built for")]
fn a_query_of_another_grid_size_panics() {
    let mut spots = SpotIndex::new();
    let grid = Grid::new(4, 4).unwrap();
    spots.build(&grid, &Layer::zeros(16));
    let other = Grid::new(8, 2).unwrap();
    let _ = spots.extreme(&other, &Layer::zeros(16), Extreme::Highest);
}
