//! Worked examples of the grid-free field: rejecting bad numbers and obstacle-aware flow
//! through a gap in a wall.

use influence::field::{Curve, Field2, PointSource, Polygon, Propagation, Search, Simplify};
use influence::glam::{Vec2, Vec3};
use influence::{Error, Grid};

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

    let field = Field2::new(vec![PointSource::new(Vec2::ZERO, 1.0, 4.0, Curve::Smooth).unwrap()]);
    assert!(message(field.local_max(Vec2::new(f32::NAN, 0.0), &Search::default())).contains("search start x"));
    let bad_search = Search { step: f32::INFINITY, ..Search::default() };
    assert!(message(field.local_min(Vec2::ZERO, &bad_search)).contains("search step"));
}

#[test]
fn bad_propagation_and_simplification_parameters_are_rejected() {
    let mut field = Field2::new(vec![PointSource::new(Vec2::ZERO, 1.0, 4.0, Curve::Smooth).unwrap()]);
    let bad = [
        (Propagation { spread: f32::NAN, ..Propagation::default() }, "spread"),
        (Propagation { decay: 1.5, ..Propagation::default() }, "decay"),
        (Propagation { threshold: f32::INFINITY, ..Propagation::default() }, "threshold"),
        (Propagation { children: 0, ..Propagation::default() }, "children"),
    ];
    for (step, name) in bad {
        assert!(message(field.propagate(&step, &influence::field::NoObstacles)).contains(name), "{name}");
    }
    let bad_merge = Simplify { merge_distance: f32::NAN, ..Simplify::default() };
    assert!(message(field.simplify(&bad_merge)).contains("merge_distance"));
    assert!(
        message(field.simplify(&Simplify { min_cluster: 1, ..Simplify::default() })).contains("min_cluster")
    );
    assert_eq!(field.len(), 1, "failed calls leave the field unchanged");
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
        Field2::new(vec![PointSource::new(Vec2::new(1.5, 2.5), 10.0, 1.5, Curve::Linear).unwrap()]);
    let step = Propagation { children: 4, spread: 0.7, decay: 0.0, threshold: 1e-4 };
    let mut expired = 0.0;
    for _ in 0..8 {
        expired += field.propagate(&step, &grid).unwrap().expired;
        field.simplify(&Simplify { merge_distance: 0.3, min_cluster: 2 }).unwrap();
    }
    assert!((field.total_strength() + expired - 10.0).abs() < 1e-4, "no decay: nothing lost");
    let far: Vec<_> = field.sources().iter().filter(|s| s.position().x > 5.0).collect();
    assert!(!far.is_empty(), "influence reached the far side");
    assert!(field
        .sources()
        .iter()
        .all(|s| grid.cell_at(s.position()).is_some_and(|(x, y)| !grid.is_blocked(x, y))));

    // Polygons work the same way: a square pillar is never entered.
    let pillar = Polygon::new(vec![
        Vec2::new(3.0, 1.0),
        Vec2::new(6.0, 1.0),
        Vec2::new(6.0, 4.0),
        Vec2::new(3.0, 4.0),
    ])
    .unwrap();
    let mut field =
        Field2::new(vec![PointSource::new(Vec2::new(1.5, 2.5), 1.0, 1.5, Curve::Linear).unwrap()]);
    for _ in 0..4 {
        field.propagate(&step, &pillar).unwrap();
    }
    assert!(field.sources().iter().all(|s| !pillar.contains(s.position())));
    assert!((field.total_strength() - 1.0).abs() < 1e-5);
}

#[test]
fn memory_is_per_source_not_per_cell() {
    let sources: Vec<_> = (0..100)
        .map(|i| PointSource::new(Vec2::new(i as f32 * 40.0, 0.0), 1.0, 8.0, Curve::Smooth).unwrap())
        .collect();
    let field = Field2::new(sources);
    let per_source = field.heap_bytes() / field.len();
    assert!((24..200).contains(&per_source), "{per_source} bytes per source");
}
