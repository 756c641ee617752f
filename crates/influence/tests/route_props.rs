//! Properties of routes on random walled grids and random graphs: A* never finds a cheaper
//! route than Dijkstra, finds an equally cheap one under an admissible heuristic, and every
//! route is a real walk whose reported length, exposure and cost add up.

mod common;

use influence::glam::Vec3;
use influence::route::{Cost, Heuristic, Route, Router};
use influence::space::Graph;
use influence::{Grid, Layer, Space};
use proptest::prelude::*;

fn walled_grid() -> impl Strategy<Value = Grid> {
    common::walled_grid(2..16, 0.3, 1.0)
}

fn graph() -> impl Strategy<Value = Graph> {
    prop::collection::vec((-20.0f32..20.0, -20.0f32..20.0, 0.0f32..4.0), 2..30).prop_flat_map(|pts| {
        let n = pts.len();
        let edge = (0..n, 0..n, prop::option::of(0.0f32..1.5), any::<bool>());
        (Just(pts), prop::collection::vec(edge, n..4 * n)).prop_map(|(pts, edges)| {
            let positions: Vec<Vec3> = pts.iter().map(|&(x, y, z)| Vec3::new(x, y, z)).collect();
            // Lengths at least the straight line (a stretch factor ≥ 1), so Euclidean is admissible.
            // An undirected edge is two opposite arcs; no stretch: the straight line.
            let mut arcs = Vec::new();
            for (a, b, stretch, directed) in edges {
                let straight = positions[a].distance(positions[b]);
                let l = stretch.map_or(straight, |s| straight * (1.0 + s));
                arcs.push((a, b, l));
                if !directed {
                    arcs.push((b, a, l));
                }
            }
            Graph::from_arcs(positions, arcs).unwrap()
        })
    })
}

/// Checks that `r` is a walk from start to goal in `space` whose numbers add up.
fn check_route<S: Space>(space: &S, r: &Route, cost: &Cost, layer: &Layer) -> Result<(), TestCaseError> {
    let (mut length, mut total) = (0.0f64, 0.0f64);
    for w in r.cells.windows(2) {
        let mut step = None;
        space.for_each_neighbour(w[0], |j, d| {
            if j == w[1] {
                step = Some(step.map_or(d, |s: f32| s.min(d)));
            }
        });
        let d = step.ok_or_else(|| TestCaseError::fail(format!("{} → {} is no step", w[0], w[1])))?;
        length += f64::from(d);
        total += f64::from(cost.step(d, w[1]));
    }
    let exposure: f64 = r.cells.iter().map(|&c| f64::from(layer[c])).sum();
    prop_assert!((length - r.length).abs() <= 1e-9 * length.max(1.0), "length summed in f64");
    prop_assert!((total - f64::from(r.cost)).abs() <= 1e-3 * total.max(1.0));
    prop_assert!((exposure - r.exposure).abs() <= 1e-9 * exposure.abs().max(1.0), "exposure summed in f64");
    Ok(())
}

fn layer_for(n: usize, values: &[f32]) -> Layer {
    Layer::from_vec((0..n).map(|i| values[i % values.len()]).collect())
}

proptest! {
    #[test]
    fn astar_matches_dijkstra_on_grids(
        grid in walled_grid(),
        values in prop::collection::vec(-3.0f32..8.0, 1..20),
        weight in prop_oneof![Just(0.0f32), 0.0f32..3.0],
        picks in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..6),
    ) {
        let layer = layer_for(grid.len(), &values);
        let cost = Cost::avoiding(&layer, weight).unwrap();
        let open: Vec<usize> = (0..grid.len()).filter(|&i| grid.is_walkable(i)).collect();
        prop_assume!(!open.is_empty());
        let mut router = Router::new();
        for (a, b) in picks {
            let (s, g) = (*a.get(&open), *b.get(&open));
            let dijkstra = router.find(&grid, s, g, &cost, Heuristic::Zero).unwrap();
            for h in [Heuristic::Octile, Heuristic::Euclidean] {
                let astar = router.find(&grid, s, g, &cost, h).unwrap();
                prop_assert_eq!(astar.is_some(), dijkstra.is_some());
                if let (Some(a), Some(d)) = (&astar, &dijkstra) {
                    prop_assert!((a.cost - d.cost).abs() <= 1e-4 * d.cost.max(1.0), "{h:?}: {} vs {}", a.cost, d.cost);
                    check_route(&grid, a, &cost, &layer)?;
                }
            }
            // An inadmissible (inflated) estimate may lose optimality, never beat it.
            let target = grid.position(g);
            let greedy = router.find_with(&grid, s, g, &cost, |c| 3.0 * grid.position(c).distance(target)).unwrap();
            if let (Some(a), Some(d)) = (&greedy, &dijkstra) {
                prop_assert!(a.cost >= d.cost - 1e-4 * d.cost.max(1.0));
                check_route(&grid, a, &cost, &layer)?;
            }
        }
    }

    #[test]
    fn astar_matches_dijkstra_on_graphs(
        g in graph(),
        values in prop::collection::vec(-3.0f32..8.0, 1..20),
        weight in 0.0f32..3.0,
    ) {
        let layer = layer_for(g.len(), &values);
        let cost = Cost::avoiding(&layer, weight).unwrap();
        let mut router = Router::new();
        for s in 0..g.len().min(4) {
            for t in 0..g.len() {
                let d = router.find(&g, s, t, &cost, Heuristic::Zero).unwrap();
                let a = router.find(&g, s, t, &cost, Heuristic::Euclidean).unwrap();
                prop_assert_eq!(a.is_some(), d.is_some());
                if let (Some(a), Some(d)) = (a, d) {
                    prop_assert!((a.cost - d.cost).abs() <= 1e-4 * d.cost.max(1.0));
                    check_route(&g, &a, &cost, &layer)?;
                }
            }
        }
    }
}

proptest! {
    /// The grid's own search (bucket queue, neighbours computed in place) finds routes as
    /// cheap as the generic search's exact-order A* over the same grid (within the rounding
    /// of summing the steps of another equally cheap route), and each is a real walk.
    #[test]
    fn grid_search_costs_what_the_generic_search_costs(
        grid in common::walled_grid(1..20, 0.3, 1.5),
        values in prop::collection::vec(-3.0f32..8.0, 1..20),
        // Large weights make steps too long for the grid queue's ring: they wait in its heap.
        weight in prop_oneof![Just(0.0f32), 0.0f32..3.0, 50.0f32..300.0],
        picks in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..6),
    ) {
        let layer = layer_for(grid.len(), &values);
        let cost = Cost::avoiding(&layer, weight).unwrap();
        let open: Vec<usize> = (0..grid.len()).filter(|&i| grid.is_walkable(i)).collect();
        prop_assume!(!open.is_empty());
        let mut router = Router::new();
        for (a, b) in picks {
            let (s, g) = (*a.get(&open), *b.get(&open));
            for h in [Heuristic::Octile, Heuristic::Euclidean, Heuristic::Zero] {
                let fast = router.find(&grid, s, g, &cost, h).unwrap();
                let generic = router.find(&common::Generic(&grid), s, g, &cost, h).unwrap();
                prop_assert_eq!(fast.is_some(), generic.is_some());
                if let (Some(fast), Some(generic)) = (fast, generic) {
                    let scale = generic.cost.max(1.0);
                    prop_assert!(
                        (fast.cost - generic.cost).abs() <= 1e-6 * scale,
                        "{s} → {g} ({h:?}): grid {} vs generic {}", fast.cost, generic.cost
                    );
                    prop_assert_eq!((fast.cells.first(), fast.cells.last()), (Some(&s), Some(&g)));
                    check_route(&grid, &fast, &cost, &layer)?;
                }
            }
        }
    }
}

/// An infinite penalty keeps a cell walkable: a route that must cross it is found, at an
/// infinite cost, by the grid search as by the generic one; one that can go round it does.
#[test]
fn infinite_penalties_are_walkable_at_infinite_cost() {
    let grid = Grid::from_rows(&["..@..", "..@..", "....."]).unwrap();
    let at = |x, y| grid.index(influence::Cell::new(x, y)).unwrap();
    let mut danger = Layer::for_space(&grid);
    danger[at(2, 2)] = f32::INFINITY; // the only gap
    let cost = Cost::avoiding(&danger, 1.0).unwrap();
    let mut router = Router::new();
    for h in [Heuristic::Octile, Heuristic::Zero] {
        let crossing = router.find(&grid, at(0, 0), at(4, 0), &cost, h).unwrap().unwrap();
        let generic = router.find(&common::Generic(&grid), at(0, 0), at(4, 0), &cost, h).unwrap().unwrap();
        assert_eq!((crossing.cost, generic.cost), (f32::INFINITY, f32::INFINITY));
        assert!(crossing.cells.contains(&at(2, 2)));
        let round = router.find(&grid, at(0, 0), at(0, 2), &cost, h).unwrap().unwrap();
        assert_eq!(round.cost, 2.0);
    }
}
