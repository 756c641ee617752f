//! Property tests for `influence::query` on random small grids with walls and ties.

use influence::glam::{Vec2, Vec3};
use influence::query::{self, Extreme};
use influence::route::Router;
use influence::Cell;
use influence::{Connectivity, Grid, Layer, Space};
use proptest::prelude::*;

/// A random grid (walls, connectivity, cell size, origin) and a layer on it. Values come
/// from a coarse set so ties and exact zeros are common.
fn map() -> impl Strategy<Value = (Grid, Layer)> {
    (1usize..10, 1usize..10, any::<bool>(), 0.25f32..3.0, -5.0f32..5.0).prop_flat_map(
        |(w, h, four, cs, o)| {
            let cells = w * h;
            (prop::collection::vec(prop::bool::weighted(0.2), cells), prop::collection::vec(-8i8..=8, cells))
                .prop_map(move |(blocked, values)| {
                    let mut grid = Grid::new(w, h)
                        .unwrap()
                        .with_cell_size(cs)
                        .unwrap()
                        .with_origin(Vec2::splat(o))
                        .unwrap();
                    if four {
                        grid = grid.with_connectivity(Connectivity::Four);
                    }
                    let mut layer = Layer::zeros(cells);
                    for (i, (&b, &v)) in blocked.iter().zip(&values).enumerate() {
                        let Cell { x, y } = grid.cell(i);
                        grid.set_blocked(Cell::new(x, y), b).unwrap();
                        // Stamping leaves walls at 0; queries must ignore them anyway.
                        layer[i] = if b { 0.0 } else { f32::from(v) * 0.5 };
                    }
                    (grid, layer)
                })
        },
    )
}

fn walkable(grid: &Grid) -> Vec<usize> {
    (0..grid.len()).filter(|&i| grid.is_walkable(i)).collect()
}

fn which() -> impl Strategy<Value = Extreme> {
    prop_oneof![Just(Extreme::Highest), Just(Extreme::Lowest)]
}

/// `a` is at least as good as `b`.
fn at_least(which: Extreme, a: f32, b: f32) -> bool {
    match which {
        Extreme::Highest => a >= b,
        Extreme::Lowest => a <= b,
    }
}

/// The best of `cells`, ties by lowest index: the reference for the extreme queries.
fn reference(layer: &Layer, which: Extreme, cells: impl Iterator<Item = usize>) -> Option<(usize, f32)> {
    cells.fold(None, |best: Option<(usize, f32)>, i| match best {
        Some((_, v)) if !at_least(which, layer[i], v) || layer[i] == v => best,
        _ => Some((i, layer[i])),
    })
}

/// Path distances from `start` (None = unreachable).
fn distances(grid: &Grid, start: usize) -> Vec<Option<f32>> {
    let mut d = vec![None; grid.len()];
    Router::new().sweep(grid, &[(start, 0.0)], f32::INFINITY, |c, x| d[c] = Some(x));
    d
}

proptest! {
    #[test]
    fn extreme_beats_every_walkable_cell((grid, layer) in map(), which in which()) {
        let got = query::extreme(&grid, &layer, which);
        prop_assert_eq!(got, reference(&layer, which, walkable(&grid).into_iter()));
        if let Some((i, v)) = got {
            prop_assert!(grid.is_walkable(i));
            for j in walkable(&grid) {
                prop_assert!(at_least(which, v, layer[j]));
            }
        }
    }

    #[test]
    fn within_radius_is_the_best_inside_the_disc(
        (grid, layer) in map(), which in which(), cx in -6.0f32..30.0, cy in -6.0f32..30.0, r in 0.0f32..10.0,
    ) {
        let c = Vec3::new(cx, cy, 0.0);
        let inside = walkable(&grid).into_iter().filter(|&i| grid.position(i).distance_squared(c) <= r * r);
        prop_assert_eq!(query::extreme_within_radius(&grid, &layer, c, r, which), reference(&layer, which, inside));
    }

    #[test]
    fn reachable_stays_within_the_walk((grid, layer) in map(), which in which(), start in 0usize..100, limit in 0.0f32..12.0) {
        let start = start % grid.len();
        let mut scratch = Router::new();
        let got = query::extreme_reachable(&grid, &layer, start, limit, &mut scratch, which);
        if !grid.is_walkable(start) {
            prop_assert_eq!(got, None);
            return Ok(());
        }
        let d = distances(&grid, start);
        let (i, v) = got.expect("the start itself is reachable");
        prop_assert!(d[i].is_some_and(|x| x <= limit), "cell {} at {:?} > {}", i, d[i], limit);
        let within = (0..grid.len()).filter(|&j| d[j].is_some_and(|x| x <= limit));
        prop_assert_eq!(Some((i, v)), reference(&layer, which, within));
        // The scratch is reusable: a second call agrees.
        prop_assert_eq!(query::extreme_reachable(&grid, &layer, start, limit, &mut scratch, which), got);
    }

    #[test]
    fn top_n_is_spaced_sorted_and_greedy((grid, layer) in map(), which in which(), n in 0usize..8, spacing in 0.0f32..6.0) {
        let got = query::top_n(&grid, &layer, n, spacing, which);
        prop_assert!(got.len() <= n);
        for (k, &(i, v)) in got.iter().enumerate() {
            prop_assert!(grid.is_walkable(i) && layer[i] == v);
            for &(j, w) in &got[k + 1..] {
                prop_assert!(grid.position(i).distance(grid.position(j)) >= spacing);
                prop_assert!(at_least(which, v, w));
            }
        }
        // Greedy: every cell better than the last pick (or any cell, if fewer than n were
        // found) was either picked or is too close to a pick.
        let blocked_by_pick = |j: usize| got.iter().any(|&(i, _)| grid.position(i).distance(grid.position(j)) < spacing);
        for j in walkable(&grid) {
            let better_than_last = got.last().is_some_and(|&(_, last)| !at_least(which, last, layer[j]));
            if (got.len() < n || better_than_last) && !got.iter().any(|&(i, _)| i == j) {
                prop_assert!(blocked_by_pick(j), "cell {} was skipped", j);
            }
        }
        if n >= 1 {
            prop_assert_eq!(got.first().copied(), query::extreme(&grid, &layer, which));
        }
    }

    #[test]
    fn bilinear_reads_back_cell_values_at_centres((grid, layer) in map()) {
        for i in 0..grid.len() {
            let Cell { x, y } = grid.cell(i);
            let v = query::value_bilinear(&grid, &layer, grid.center(Cell::new(x, y))).unwrap();
            prop_assert!((v - layer[i]).abs() <= 1e-4, "cell {}: {} vs {}", i, v, layer[i]);
            prop_assert_eq!(grid.cell_at(grid.center(Cell::new(x, y))), Some(Cell::new(x, y)));
        }
    }

    #[test]
    fn sampling_outside_or_nan_is_none((grid, layer) in map(), t in -2.0f32..-0.001) {
        let outside = [
            grid.origin() + Vec2::new(t, 0.0),
            grid.origin() + grid.world_size() - Vec2::new(0.0, t),
            Vec2::new(f32::NAN, 0.0),
        ];
        for p in outside {
            prop_assert_eq!(grid.cell_at(p), None);
            prop_assert_eq!(query::value_bilinear(&grid, &layer, p), None);
            prop_assert_eq!(query::gradient(&grid, &layer, p), None);
        }
    }

    #[test]
    fn gradient_matches_finite_differences(
        (grid, layer) in map(), fx in 0.0f32..1.0, fy in 0.0f32..1.0, off in prop::array::uniform2(0.05f32..0.95),
    ) {
        if grid.width() < 2 || grid.height() < 2 {
            return Ok(()); // no lattice square to stand in
        }
        // A point inside a square of centres, at least 0.05 cell from its lines.
        let square = |f: f32, n: usize| (f * (n - 1) as f32).floor().min((n - 2) as f32);
        let lattice = Vec2::new(square(fx, grid.width()), square(fy, grid.height())) + Vec2::from(off);
        let cs = grid.cell_size();
        let p = grid.origin() + (lattice + 0.5) * cs;
        let h = 0.01 * cs;
        let at = |q: Vec2| query::value_bilinear(&grid, &layer, q).unwrap();
        let fd = Vec2::new(
            at(p + Vec2::X * h) - at(p - Vec2::X * h),
            at(p + Vec2::Y * h) - at(p - Vec2::Y * h),
        ) / (2.0 * h);
        let g = query::gradient(&grid, &layer, p).unwrap();
        prop_assert!((g - fd).length() <= 0.01 / cs + 1e-3 * g.length(), "{} vs {}", g, fd);
        match g.try_normalize() {
            Some(dir) => prop_assert!((dir - g.normalize()).length() < 1e-5),
            None => prop_assert_eq!(g, Vec2::ZERO),
        }
    }

    #[test]
    fn every_contact_between_sides_is_on_the_front((grid, layer) in map()) {
        let mut front = Vec::new();
        query::frontline_into(&grid, &layer, &mut front);
        for i in walkable(&grid) {
            let v = layer[i];
            let (mut pos, mut neg) = (false, false);
            grid.for_each_neighbour(i, |j, _| {
                let w = layer[j];
                pos |= w > 0.0;
                neg |= w < 0.0;
                if v * w < 0.0 {
                    assert!(front[i] || front[j], "contact {i}-{j} left unmarked");
                }
            });
            // Marked cells sit on a crossing: an opposite neighbour, or zero between both.
            let opposite = (v > 0.0 && neg) || (v < 0.0 && pos) || (v == 0.0 && pos && neg);
            prop_assert_eq!(front[i], front[i] && opposite);
        }
        for i in (0..grid.len()).filter(|&i| !grid.is_walkable(i)) {
            prop_assert!(!front[i]);
        }
    }

    #[test]
    fn front_length_is_symmetric_and_zero_without_contact((grid, mut layer) in map()) {
        // Without exact zeros, negating the map keeps the contour (saddles included).
        layer.map(|v| if v == 0.0 { 0.25 } else { v });
        let len = query::frontline_length(&grid, &layer);
        prop_assert!(len.is_finite() && len >= 0.0);
        let mut neg = layer.clone();
        neg.map(|v| -v);
        prop_assert!((query::frontline_length(&grid, &neg) - len).abs() <= 1e-4 * (1.0 + len));
        // Each block holds at most two segments, each at most a diagonal long.
        let blocks = (grid.width() - 1) * (grid.height() - 1);
        prop_assert!(len <= blocks as f32 * 2.0 * std::f32::consts::SQRT_2 * grid.cell_size() + 1e-3);
        layer.map(f32::abs);
        prop_assert_eq!(query::frontline_length(&grid, &layer), 0.0);
    }

    #[test]
    fn centroid_lies_among_the_weighted_cells((grid, layer) in map(), threshold in 0.0f32..4.0) {
        let cells: Vec<usize> = walkable(&grid).into_iter().filter(|&i| layer[i] > threshold).collect();
        let got = query::weighted_centroid(&grid, &layer, threshold);
        prop_assert_eq!(got.is_some(), !cells.is_empty());
        if let Some(c) = got {
            let (lo, hi) = cells.iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), &i| {
                (lo.min(grid.position(i)), hi.max(grid.position(i)))
            });
            prop_assert!(c.cmpge(lo - 1e-3).all() && c.cmple(hi + 1e-3).all(), "{} outside {}..{}", c, lo, hi);
        }
    }
}
