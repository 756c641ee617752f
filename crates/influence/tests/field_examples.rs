//! Worked examples of the grid-free field: rejecting bad numbers, memory per source.

use influence::field::{Curve, Field2, PointSource, Search};
use influence::glam::{Vec2, Vec3};
use influence::Error;

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
fn memory_is_per_source_not_per_cell() {
    let sources: Vec<_> = (0..100)
        .map(|i| PointSource::new(Vec2::new(i as f32 * 40.0, 0.0), 1.0, 8.0, Curve::Smooth).unwrap())
        .collect();
    let field = Field2::new(sources);
    let per_source = field.heap_bytes() / field.len();
    assert!((24..200).contains(&per_source), "{per_source} bytes per source");
}
