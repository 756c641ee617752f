//! Properties of flow fields on random walled grids with random danger layers: the cost a
//! field gives each cell is the cost of the optimal A* route from it (to the nearest goal,
//! within 1e-6 relative: the two add the same `f32` steps in opposite orders), and the route
//! read off the field is a real walk to a goal with that optimal cost.

mod common;

use influence::route::{Cost, FlowField, Heuristic, Route, Router};
use influence::{Grid, Layer, Space};
use proptest::prelude::*;

fn walled_grid() -> impl Strategy<Value = Grid> {
    prop_oneof![common::walled_grid(1..18, 0.25, 1.0), common::walled_grid(1..12, 0.3, 2.5)]
}

/// Within 1e-6 of each other, relative to the larger.
fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs())
}

/// The cost of walking `cells` in `space` under `cost`, in `f64`, and whether every step is
/// a real neighbour step.
fn walk_cost<S: Space>(space: &S, cells: &[usize], cost: &Cost<'_>) -> Option<f64> {
    let mut total = 0.0;
    for w in cells.windows(2) {
        let mut step = None;
        space.for_each_neighbour(w[0], |j, d| {
            if j == w[1] {
                step = Some(d);
            }
        });
        total += f64::from(cost.step(step?, w[1]));
    }
    Some(total)
}

proptest! {
    #[test]
    fn field_costs_are_astar_costs_and_its_routes_are_optimal(
        grid in walled_grid(),
        values in prop::collection::vec(-3.0f32..8.0, 1..40),
        // 2e4 makes steps longer than the ring holds: the radix-heap queue's path.
        weight in prop_oneof![Just(0.0f32), 0.0f32..3.0, Just(2e4f32)],
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
    ) {
        let layer = Layer::from_vec((0..grid.len()).map(|i| values[i * 7 % values.len()]).collect());
        let cost = Cost::avoiding(&layer, weight).unwrap();
        let open: Vec<usize> = (0..grid.len()).filter(|&i| grid.is_walkable(i)).collect();
        prop_assume!(!open.is_empty());
        let mut goals: Vec<usize> = picks.iter().map(|p| *p.get(&open)).collect();
        goals.dedup();
        let mut field = FlowField::new();
        // A field used before, on another cost, answers as a fresh one.
        field.compute(&grid, &goals[..1], &Cost::distance()).unwrap();
        field.compute(&grid, &goals, &cost).unwrap();
        let mut router = Router::new();
        let mut route = Route::default();
        for start in 0..grid.len() {
            if !grid.is_walkable(start) {
                prop_assert_eq!(field.cost_to_goal(start), None);
                continue;
            }
            // The cheapest of the routes to each goal.
            let best = goals
                .iter()
                .filter_map(|&g| router.find(&grid, start, g, &cost, Heuristic::Octile).unwrap())
                .min_by(|a, b| a.cost.total_cmp(&b.cost));
            let reached = field.route_into(&grid, start, &cost, &mut route);
            prop_assert_eq!(reached, best.is_some());
            prop_assert_eq!(field.cost_to_goal(start).is_some(), best.is_some());
            let Some(best) = best else { continue };
            let got = field.cost_to_goal(start).unwrap();
            prop_assert!(close(got, best.cost), "field {} vs A* {}", got, best.cost);
            // The route read off the field: a walk from the start to a goal, optimal.
            prop_assert_eq!(route.cells.first(), Some(&start));
            prop_assert!(goals.contains(route.cells.last().unwrap()));
            prop_assert!(close(route.cost, best.cost), "route {} vs A* {}", route.cost, best.cost);
            let walked = walk_cost(&grid, &route.cells, &cost);
            prop_assert!(walked.is_some(), "every step a neighbour step");
            let optimal = walk_cost(&grid, &best.cells, &cost).unwrap();
            prop_assert!(walked.unwrap() <= optimal * (1.0 + 1e-6) + 1e-9, "{walked:?} vs {optimal}");
            // Following next steps one at a time gives the same walk.
            let mut at = start;
            for &c in &route.cells[1..] {
                prop_assert_eq!(field.next_step(at), Some(c));
                at = c;
            }
            prop_assert_eq!(field.next_step(at), Some(at));
            // Length and exposure as the router reports them for the same cells.
            let length: f64 = walk_cost(&grid, &route.cells, &Cost::distance()).unwrap();
            prop_assert!((route.length - length).abs() <= 1e-9 * length.max(1.0));
            let exposure: f64 = route.cells.iter().map(|&c| f64::from(layer[c])).sum();
            prop_assert!((route.exposure - exposure).abs() <= 1e-9 * exposure.abs().max(1.0));
        }
    }

    /// Fields are deterministic: the same inputs give the same bits, on a reused field too.
    #[test]
    fn fields_are_deterministic(
        grid in walled_grid(),
        values in prop::collection::vec(-3.0f32..8.0, 1..40),
        weight in 0.0f32..3.0,
        pick in any::<prop::sample::Index>(),
    ) {
        let layer = Layer::from_vec((0..grid.len()).map(|i| values[i * 5 % values.len()]).collect());
        let cost = Cost::avoiding(&layer, weight).unwrap();
        let open: Vec<usize> = (0..grid.len()).filter(|&i| grid.is_walkable(i)).collect();
        prop_assume!(!open.is_empty());
        let goal = *pick.get(&open);
        let (mut a, mut b) = (FlowField::new(), FlowField::new());
        a.compute(&grid, &[goal], &cost).unwrap();
        b.compute(&grid, &[open[0]], &Cost::distance()).unwrap();
        b.compute(&grid, &[goal], &cost).unwrap();
        for c in 0..grid.len() {
            prop_assert_eq!(a.cost_to_goal(c).map(f32::to_bits), b.cost_to_goal(c).map(f32::to_bits));
            prop_assert_eq!(a.next_step(c), b.next_step(c));
        }
    }
}

#[test]
fn goals_are_checked() {
    let grid = Grid::from_rows(&["..@", "..."]).unwrap();
    let mut field = FlowField::new();
    assert_eq!(field.compute(&grid, &[2], &Cost::distance()), Err(influence::Error::Blocked { index: 2 }));
    assert_eq!(
        field.compute(&grid, &[9], &Cost::distance()),
        Err(influence::Error::OutOfBounds { index: 9, len: 6 })
    );
    field.compute(&grid, &[], &Cost::distance()).unwrap();
    assert_eq!(field.cost_to_goal(0), None);
    assert_eq!(field.next_step(99), None);
}
