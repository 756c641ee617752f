//! Property tests of the grid-free field: index-backed queries equal brute-force sums, the
//! analytic gradient equals finite differences, searches never end worse than they start,
//! propagation conserves energy and never places a child in an obstacle, and simplification
//! stays within its stated error bounds.

use influence::field::{Curve, Field, Point, PointSource, Polygon, Rings, Search};
use influence::glam::{Vec2, Vec3};
use influence::Cell;
use influence::Grid;
use proptest::prelude::*;

/// Curves whose slope is bounded (all built-ins with power ≥ 1), so simplification merges them.
fn curve() -> impl Strategy<Value = Curve> {
    prop_oneof![
        Just(Curve::Linear),
        Just(Curve::Smooth),
        (1.0f32..4.0).prop_map(|power| Curve::Polynomial { power }),
        (0.5f32..5.0).prop_map(|sigma| Curve::Gaussian { sigma }),
        (0.0f32..1.0).prop_map(|rate| Curve::Exponential { rate }),
    ]
}

/// A source somewhere in `[0, 40]²` (and `z` in `[0, 12]`), strength in ±5, radius 1–12.
fn source<P: Point>(lift: fn(f32, f32, f32) -> P) -> impl Strategy<Value = PointSource<P>> {
    (0f32..40.0, 0f32..40.0, 0f32..12.0, -5f32..5.0, 1f32..12.0, curve())
        .prop_map(move |(x, y, z, s, r, c)| PointSource::new(lift(x, y, z), s, r, c).unwrap())
}

fn v2(x: f32, y: f32, _: f32) -> Vec2 {
    Vec2::new(x, y)
}
fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn brute<P: Point>(sources: &[PointSource<P>], p: P) -> (f32, P) {
    sources
        .iter()
        .map(|s| s.value_and_gradient_at(p))
        .fold((0.0, P::default()), |(v, g), (sv, sg)| (v + sv, g + sg))
}

fn abs_sum<P: Point>(sources: &[PointSource<P>]) -> f32 {
    sources.iter().map(|s| s.strength().abs()).sum()
}

/// The index finds every contributing source: values and gradients equal the brute-force
/// sums (up to summation order), and the value alone equals the value beside the gradient.
fn check_index<P: Point>(sources: Vec<PointSource<P>>, points: &[P], dist: fn(P, P) -> f32) {
    let tol = 1e-5 * (1.0 + abs_sum(&sources));
    let field = Field::new(sources);
    for &p in points {
        let (value, gradient) = brute(field.sources(), p);
        let (field_value, field_gradient) = field.value_and_gradient(p);
        assert!((field.value(p) - value).abs() <= tol, "value at {p:?}");
        assert_eq!(field_value, field.value(p));
        assert!(dist(field_gradient, gradient) <= tol, "gradient at {p:?}");
    }
}

/// `[0, 40]²` with walls: random blocked cells of a 10 × 10 grid of 4-unit cells.
fn walls() -> impl Strategy<Value = Grid> {
    prop::collection::vec(any::<bool>(), 100).prop_map(|cells| {
        let mut grid = Grid::new(10, 10).unwrap().with_cell_size(4.0).unwrap();
        for (i, _) in cells.iter().enumerate().filter(|(i, b)| **b && i % 3 == 0) {
            grid.set_blocked(Cell::new(i % 10, i / 10), true).unwrap();
        }
        grid
    })
}

/// Up to three random triangles in `[0, 40]²`.
fn polygons() -> impl Strategy<Value = Vec<Polygon>> {
    prop::collection::vec(prop::array::uniform3((0f32..40.0, 0f32..40.0)), 0..4).prop_map(|tris| {
        tris.into_iter()
            .filter_map(|t| Polygon::new(t.iter().map(|&(x, y)| Vec2::new(x, y)).collect()).ok())
            .collect()
    })
}

fn propagation() -> impl Strategy<Value = Rings> {
    (1usize..10, 0.2f32..3.0, 0f32..=1.0, 0f32..0.3).prop_map(|(children, spread, decay, threshold)| Rings {
        children,
        spread,
        decay,
        threshold,
    })
}

/// Propagates `steps` times; after each step checks that no source stands in an obstacle
/// and that children plus expired equal `(1 − decay)` times the strength before, within
/// `2⁻²² · Σ|strength|` (the module's stated bound is `3 · 2⁻²⁴`).
fn check_propagation<P: Point>(mut field: Field<P>, step: &Rings, blocked: impl Fn(P) -> bool, steps: usize) {
    for _ in 0..steps {
        let (before, scale) = (field.total_strength(), f64::from(abs_sum(field.sources())));
        let (expired, _, _) = field.propagate(step, &blocked).unwrap();
        let expected = before * (1.0 - f64::from(step.decay));
        let error = (field.total_strength() + expired - expected).abs();
        assert!(error <= scale * 2f64.powi(-22) + 1e-12, "energy off by {error} (scale {scale})");
        assert!(field.sources().iter().all(|s| !blocked(s.position())), "child in an obstacle");
        if field.sources().len() > 4000 {
            break;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn index_matches_brute_force_2d(
        sources in prop::collection::vec(source(v2), 0..60),
        points in prop::collection::vec((-10f32..50.0, -10f32..50.0), 1..40),
    ) {
        let points: Vec<Vec2> = points.into_iter().map(|(x, y)| Vec2::new(x, y)).collect();
        check_index(sources, &points, Vec2::distance);
    }

    #[test]
    fn index_matches_brute_force_3d(
        sources in prop::collection::vec(source(v3), 0..60),
        points in prop::collection::vec((-10f32..50.0, -10f32..50.0, -5f32..17.0), 1..40),
    ) {
        let points: Vec<Vec3> = points.into_iter().map(|(x, y, z)| Vec3::new(x, y, z)).collect();
        check_index(sources, &points, Vec3::distance);
    }

    /// Central differences with h = 0.01 at points at least 0.05 from every source's rim
    /// (where the linear and truncated curves have kinks or steps) and 1 from every centre,
    /// within 3·10⁻⁴ of the strength of the sources reaching the point (`f32` rounding of
    /// the differences is about 10⁻⁴ of it; a gradient 1 % off fails). Near a centre the
    /// distance itself curves: a difference's error is about h²·|g'|/(2d²), with a slope
    /// |g'| up to 4|s|/r here, which stays within the tolerance only from d ≈ 0.82 (r ≥ 1)
    /// — at d = 0.26 a linear source's exact gradient was once 5·10⁻⁴|s| off the differences.
    #[test]
    fn gradient_equals_finite_differences(
        sources in prop::collection::vec(source(v3), 1..30),
        points in prop::collection::vec((0f32..40.0, 0f32..40.0, 0f32..12.0), 1..30),
    ) {
        let field = Field::new(sources);
        let h = 0.01;
        for (x, y, z) in points {
            let p = Vec3::new(x, y, z);
            let near_kink = field.sources().iter().any(|s| {
                let d = s.position().distance(p);
                d < 1.0 || (d - s.radius()).abs() < 0.05
            });
            if near_kink {
                continue;
            }
            let reaching: f32 =
                field.sources().iter().filter(|s| s.position().distance(p) <= s.radius()).map(|s| s.strength().abs()).sum();
            let numeric = Vec3::new(
                field.value(p + Vec3::X * h) - field.value(p - Vec3::X * h),
                field.value(p + Vec3::Y * h) - field.value(p - Vec3::Y * h),
                field.value(p + Vec3::Z * h) - field.value(p - Vec3::Z * h),
            ) / (2.0 * h);
            let analytic = field.value_and_gradient(p).1;
            prop_assert!(numeric.distance(analytic) <= 3e-4 * (1.0 + reaching), "at {p}: numeric {numeric} analytic {analytic}");
        }
    }

    #[test]
    fn searches_never_end_worse_than_they_start(
        sources in prop::collection::vec(source(v2), 0..40),
        starts in prop::collection::vec((-5f32..45.0, -5f32..45.0), 1..10),
        radius in 0.1f32..20.0,
        step in 0.01f32..8.0,
        max_steps in 0usize..200,
    ) {
        let field = Field::new(sources);
        let search = Search { radius, step, min_step: 1e-3, max_steps };
        for (x, y) in starts {
            let start = Vec2::new(x, y);
            let (top, low) = (field.local_max(start, &search).unwrap(), field.local_min(start, &search).unwrap());
            prop_assert!(top.1 >= field.value(start) && low.1 <= field.value(start));
            for (point, value, _) in [top, low] {
                prop_assert_eq!(value, field.value(point));
                prop_assert!(point.distance(start) <= radius * (1.0 + 1e-5) + 1e-5);
            }
        }
    }

    #[test]
    fn propagation_conserves_energy_in_the_open_2d(
        sources in prop::collection::vec(source(v2), 0..30),
        step in propagation(),
    ) {
        check_propagation(Field::<Vec2>::new(sources), &step, |_| false, 3);
    }

    #[test]
    fn propagation_conserves_energy_in_the_open_3d(
        sources in prop::collection::vec(source(v3), 0..20),
        step in propagation(),
    ) {
        check_propagation(Field::<Vec3>::new(sources), &step, |_| false, 2);
    }

    #[test]
    fn obstacle_aware_splitting_never_places_a_child_in_a_wall(
        sources in prop::collection::vec(source(v2), 0..30),
        grid in walls(),
        step in propagation(),
    ) {
        let walls = |p: Vec2| grid.cell_at(p).is_none_or(|c| grid.is_blocked(c));
        let free = sources.into_iter().filter(|s| !walls(s.position())).collect();
        check_propagation(Field::new(free), &step, walls, 3);
    }

    #[test]
    fn obstacle_aware_splitting_never_places_a_child_in_a_polygon(
        sources in prop::collection::vec(source(v3), 0..20),
        polys in polygons(),
        step in propagation(),
    ) {
        let inside = |p: Vec3| polys.iter().any(|poly| poly.contains(p.truncate()));
        let free = sources.into_iter().filter(|s| !inside(s.position())).collect();
        check_propagation(Field::new(free), &step, inside, 2);
    }

    /// Clusters of sources around a few centres; values anywhere change by at most the
    /// reported bound, and the total strength by at most 2⁻²⁴ · Σ|strength|.
    #[test]
    fn simplification_stays_within_its_bounds(
        centres in prop::collection::vec((0f32..40.0, 0f32..40.0, 1f32..10.0, curve()), 1..6),
        jitter in prop::collection::vec((0usize..6, -1f32..1.0, -1f32..1.0, -3f32..3.0), 1..80),
        (merge_distance, min_cluster) in (0f32..2.0, 2usize..5),
        points in prop::collection::vec((0usize..6, -12f32..12.0, -12f32..12.0), 1..60),
    ) {
        let sources: Vec<_> = jitter
            .iter()
            .map(|&(c, dx, dy, s)| {
                let (x, y, r, curve) = centres[c % centres.len()].clone();
                PointSource::new(Vec2::new(x + dx, y + dy), s, r, curve).unwrap()
            })
            .collect();
        let before = Field::new(sources);
        let mut after = before.clone();
        let (clusters, bound) = after.simplify(merge_distance, min_cluster).unwrap();
        let scale = abs_sum(before.sources());
        prop_assert!(after.sources().len() + clusters * (min_cluster - 1) <= before.sources().len());
        prop_assert_eq!(after.sources().len() == before.sources().len(), clusters == 0);
        let drift = (after.total_strength() - before.total_strength()).abs();
        prop_assert!(drift <= f64::from(scale) * 2f64.powi(-24) * 1.01, "total drifted by {}", drift);
        prop_assert!(bound <= scale * (1.0 + 1e-5)); // each member at most |s|
        // Random points near the clusters, and every source before and after, where the
        // cones' tips make the change largest.
        let near = points.iter().map(|&(c, dx, dy)| {
            let (x, y, ..) = centres[c % centres.len()];
            Vec2::new(x + dx, y + dy)
        });
        let tips = before.sources().iter().chain(after.sources()).map(PointSource::position);
        for p in near.chain(tips) {
            let change = (after.value(p) - before.value(p)).abs();
            prop_assert!(change <= bound + 1e-5 * (1.0 + scale), "{change} > {bound}");
        }
    }
}
