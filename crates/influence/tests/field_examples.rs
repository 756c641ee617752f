//! Worked examples of the grid-free field: rejecting bad numbers, a two-storey building in
//! 3D, obstacle-aware flow through a corridor, and the bridges to grids.

use influence::field::{Curve, Field, PointSource, Polygon, Rings, Search};
use influence::glam::{Vec2, Vec3};
use influence::{Band, Error, Falloff, Grid, Layer, Metric, Mode, Source, Stamper};

fn message<T: std::fmt::Debug>(result: Result<T, Error>) -> String {
    result.unwrap_err().to_string()
}

#[test]
fn nan_and_infinity_are_rejected_naming_the_parameter() {
    let src = |p: Vec3, s: f32, r: f32| PointSource::new(p, s, r, Curve::Linear);
    assert!(message(src(Vec3::new(f32::NAN, 0.0, 0.0), 1.0, 1.0)).contains("position x"));
    assert!(message(src(Vec3::new(0.0, f32::INFINITY, 0.0), 1.0, 1.0)).contains("position y"));
    assert!(message(src(Vec3::new(0.0, 0.0, f32::NEG_INFINITY), 1.0, 1.0)).contains("position z"));
    assert!(message(src(Vec3::ZERO, f32::NAN, 1.0)).contains("strength"));
    for r in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        assert!(message(src(Vec3::ZERO, 1.0, r)).contains("radius"), "{r}");
    }
    assert!(message(PointSource::new(Vec2::ZERO, 1.0, 1.0, Curve::Gaussian { sigma: f32::NAN }))
        .contains("gaussian sigma"));

    let field = Field::new(vec![PointSource::new(Vec2::ZERO, 1.0, 4.0, Curve::Smooth).unwrap()]);
    assert!(message(field.local_max(Vec2::new(f32::NAN, 0.0), &Search::default())).contains("search start x"));
    let bad_search = Search { step: f32::INFINITY, ..Search::default() };
    assert!(message(field.local_min(Vec2::ZERO, &bad_search)).contains("search step"));
}

#[test]
fn bad_propagation_and_simplification_parameters_are_rejected() {
    let mut field = Field::new(vec![PointSource::new(Vec2::ZERO, 1.0, 4.0, Curve::Smooth).unwrap()]);
    let bad = [
        (Rings { spread: f32::NAN, ..Rings::default() }, "spread"),
        (Rings { decay: 1.5, ..Rings::default() }, "decay"),
        (Rings { threshold: f32::INFINITY, ..Rings::default() }, "threshold"),
        (Rings { children: 0, ..Rings::default() }, "children"),
    ];
    for (step, name) in bad {
        assert!(message(field.propagate(&step, |_| false)).contains(name), "{name}");
    }
    assert!(message(field.simplify(f32::NAN, 3)).contains("merge_distance"));
    assert!(message(field.simplify(0.5, 1)).contains("min_cluster"));
    assert_eq!(field.sources().len(), 1, "failed calls leave the field unchanged");
}

/// Two storeys 4 units apart. A 2D grid flattens them onto each other; the 3D field keeps an
/// enemy downstairs and a friend upstairs apart, spreads each along its own floor, and a
/// sampled layer per floor shows only that floor.
#[test]
fn a_two_storey_building_in_3d() {
    const CEILING: f32 = 4.0;
    let enemy = PointSource::new(Vec3::new(5.0, 5.0, 0.0), -3.0, 3.0, Curve::Smooth).unwrap();
    let friend = PointSource::new(Vec3::new(5.0, 5.0, CEILING), 2.0, 3.0, Curve::Smooth).unwrap();
    let mut field = Field::new(vec![enemy, friend]);
    assert_eq!(field.value(Vec3::new(5.0, 5.0, 0.0)), -3.0);
    assert_eq!(field.value(Vec3::new(5.0, 5.0, CEILING)), 2.0);

    let floor_of = |p: Vec3| if p.z < CEILING / 2.0 { 0.0 } else { CEILING };
    // Anything more than half a unit off a floor is slab or air: children may not go there.
    let off_floor = |p: Vec3| (p.z - floor_of(p)).abs() > 0.5;
    let step = Rings { children: 12, spread: 1.0, decay: 0.05, threshold: 1e-3 };
    for _ in 0..3 {
        let before = field.total_strength();
        let (expired, _, blocked) = field.propagate(&step, off_floor).unwrap();
        assert!(blocked > 0);
        assert!((field.total_strength() + expired - 0.95 * before).abs() < 1e-5);
        field.simplify(0.4, 2).unwrap();
    }
    for s in field.sources() {
        assert!(!off_floor(s.position()));
        // Everything upstairs is the friend's, everything downstairs the enemy's.
        assert_eq!(s.strength() > 0.0, floor_of(s.position()) == CEILING, "{s:?}");
    }

    let grid = Grid::new(10, 10).unwrap();
    let (mut ground, mut upstairs) = (Layer::for_space(&grid), Layer::for_space(&grid));
    field.sample_onto(&grid, 0.0, &mut ground);
    field.sample_onto(&grid, CEILING, &mut upstairs);
    assert!(ground.values().iter().all(|&v| v <= 0.0) && ground.min_max().unwrap().0 < -0.5);
    assert!(upstairs.values().iter().all(|&v| v >= 0.0) && upstairs.min_max().unwrap().1 > 0.5);

    // The safest spot near the friend is on the friend's floor, not through the slab.
    let (safest, value, _) = field.local_max(Vec3::new(7.0, 5.0, CEILING), &Search::default()).unwrap();
    assert!((safest.z - CEILING).abs() < 1.0 && value > 0.5, "{safest:?}");
}

/// A wall with a one-cell gap: influence released on one side can only flow through the gap,
/// so after a few steps the far side's influence sits behind the gap, never inside the wall.
#[test]
fn influence_flows_through_a_gap_in_a_wall() {
    let grid = Grid::from_rows(&[
        "....@....", //
        "....@....",
        ".........",
        "....@....",
        "....@....",
    ])
    .unwrap();
    let mut field =
        Field::new(vec![PointSource::new(Vec2::new(1.5, 2.5), 10.0, 1.5, Curve::Linear).unwrap()]);
    let step = Rings { children: 4, spread: 0.7, decay: 0.0, threshold: 1e-4 };
    let walls = |p: Vec2| grid.cell_at(p).is_none_or(|c| grid.is_blocked(c));
    let mut expired = 0.0;
    for _ in 0..8 {
        expired += field.propagate(&step, walls).unwrap().0;
        field.simplify(0.3, 2).unwrap();
    }
    assert!((field.total_strength() + expired - 10.0).abs() < 1e-4, "no decay: nothing lost");
    let far: Vec<_> = field.sources().iter().filter(|s| s.position().x > 5.0).collect();
    assert!(!far.is_empty(), "influence reached the far side");
    assert!(field.sources().iter().all(|s| grid.cell_at(s.position()).is_some_and(|c| !grid.is_blocked(c))));

    // Polygons work the same way: a square pillar is never entered.
    let pillar = Polygon::new(vec![
        Vec2::new(3.0, 1.0),
        Vec2::new(6.0, 1.0),
        Vec2::new(6.0, 4.0),
        Vec2::new(3.0, 4.0),
    ])
    .unwrap();
    let mut field = Field::new(vec![PointSource::new(Vec2::new(1.5, 2.5), 1.0, 1.5, Curve::Linear).unwrap()]);
    for _ in 0..4 {
        field.propagate(&step, |p| pillar.contains(p)).unwrap();
    }
    assert!(field.sources().iter().all(|s| !pillar.contains(s.position())));
    assert!((field.total_strength() - 1.0).abs() < 1e-5);
}

#[test]
fn grid_sources_become_a_field_that_samples_like_the_stamper() {
    let grid = Grid::from_rows(&["..........", "...@@.....", "...@@.....", "..........", ".........."])
        .unwrap()
        .with_cell_size(2.0)
        .unwrap();
    let sources = [
        Source::new(Vec2::new(3.3, 4.1), 5.0, Falloff::Linear, 6.0).unwrap(),
        Source::new(Vec2::new(12.0, 7.0), -2.0, Falloff::Gaussian { sigma: 2.0 }, 5.0).unwrap(),
        Source::new(Vec2::new(15.5, 2.0), 1.5, Falloff::Halving { step: 2.0 }, 8.0).unwrap(),
        Source::new(Vec2::new(8.0, 9.0), 1.0, Falloff::Polynomial { power: 2.0 }, 4.0).unwrap(),
        Source::new(Vec2::new(1.0, 1.0), 0.5, Falloff::Exponential { rate: 0.3 }, 3.0).unwrap(),
    ];
    let (mut stamped, mut sampled) = (Layer::for_space(&grid), Layer::for_space(&grid));
    Stamper::new().stamp_all(&grid, &mut stamped, &sources).unwrap();
    Field::<Vec2>::from_sources(&sources).unwrap().sample_onto(&grid, 0.0, &mut sampled);
    for (i, (a, b)) in stamped.values().iter().zip(sampled.values()).enumerate() {
        assert!((a - b).abs() < 1e-5, "cell {i}: stamped {a}, sampled {b}");
    }
    // A 3D field made from the same sources lies in the plane z = 0.
    let flat = Field::<Vec3>::from_sources(&sources).unwrap();
    assert_eq!(flat.value(Vec3::new(3.3, 4.1, 0.0)), 5.0);
    assert_eq!(flat.value(Vec3::new(3.3, 4.1, 6.5)), 0.0);
}

#[test]
fn unsupported_grid_sources_are_named() {
    let at = Vec2::new(1.0, 1.0);
    let ok = Source::new(at, 1.0, Falloff::Linear, 2.0).unwrap();
    let band = Source::new(at, 1.0, Falloff::Band(Band::ring(1.0, 2.0, 3.0, 4.0).unwrap()), 4.0).unwrap();
    let err = message(Field::<Vec2>::from_sources(&[ok.clone(), band]));
    assert!(err.contains("source 1") && err.contains("band"), "{err}");
    let err = message(Field::<Vec2>::from_sources(&[ok.clone().with_metric(Metric::Path)]));
    assert!(err.contains("source 0") && err.contains("metric"), "{err}");
    let err = message(Field::<Vec2>::from_sources(&[ok.with_mode(Mode::Max)]));
    assert!(err.contains("mode"), "{err}");
    assert!(matches!(Curve::from_falloff(&Falloff::Point), Err(Error::Unsupported { .. })));
}

#[test]
fn memory_is_per_source_not_per_cell() {
    let sources: Vec<_> = (0..100)
        .map(|i| PointSource::new(Vec2::new(i as f32 * 40.0, 0.0), 1.0, 8.0, Curve::Smooth).unwrap())
        .collect();
    let field = Field::new(sources);
    let per_source = field.heap_bytes() / field.sources().len();
    assert!((24..200).contains(&per_source), "{per_source} bytes per source");
}
