//! `[[path]]`: routes that avoid danger. Each entry asks for the cheapest walk from `from` to
//! `to` (world units) where entering a cell costs its distance plus `weight` times the
//! positive value of `layer` there (`influence::route`); the route is drawn on every picture
//! and reported in `summary.json` with its length and exposure.

use influence::glam::Vec2;
use influence::route::{Cost, FlowField, Heuristic, Route, Router};
use influence::{Grid, Layer};
use serde::{Deserialize, Serialize};

use crate::error::Invalid;
use crate::fixed::Fixed;
use crate::key::KeyPath;
use crate::layers::LayerName;
use crate::map::walkable_cell;

/// One `[[path]]` table as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathSpec {
    /// Start, in world units.
    pub from: Fixed<2>,
    /// Goal, in world units.
    pub to: Fixed<2>,
    /// The layer whose positive values are dangerous; default `theirs` (the other teams).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<String>,
    /// Cost per unit of layer value entered; default 1, 0 for the plain shortest path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<f32>,
}

/// A validated `[[path]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct PathPlan {
    /// Start cell.
    pub from: usize,
    /// Goal cell.
    pub to: usize,
    /// The layer's name as written (or the default).
    pub layer_name: String,
    /// The layer to avoid.
    pub layer: LayerName,
    /// Cost per unit of layer value.
    pub weight: f32,
}

impl PathSpec {
    /// Checks the ends (inside the map, walkable), the layer's name and the weight.
    ///
    /// # Errors
    /// [`Invalid`] naming `path[index]`'s key.
    pub fn validate(
        &self,
        index: usize,
        grid: &Grid,
        layer_named: impl Fn(&str) -> Result<LayerName, String>,
    ) -> Result<PathPlan, Invalid> {
        let key = |k: &str| KeyPath::root("path").index(index).key(k);
        let end = |k: &str, at: Fixed<2>| {
            walkable_cell(grid, Vec2::from(at.0)).map_err(|m| Invalid::at(&key(k), m))
        };
        let layer_name = self.layer.clone().unwrap_or_else(|| "theirs".to_owned());
        let weight = self.weight.unwrap_or(1.0);
        if weight.is_nan() || weight < 0.0 {
            return Err(Invalid::at(&key("weight"), format!("must be a number, 0 or more, got {weight}")));
        }
        Ok(PathPlan {
            from: end("from", self.from)?,
            to: end("to", self.to)?,
            layer: layer_named(&layer_name).map_err(|m| Invalid::at(&key("layer"), m))?,
            layer_name,
            weight,
        })
    }
}

/// The route of `plan` over `layer`, or `None` where the goal cannot be reached.
pub fn find(router: &mut Router, grid: &Grid, plan: &PathPlan, layer: &Layer) -> Option<Route> {
    // Validated: weight finite and >= 0, layer made for this grid, both ends walkable.
    let cost = Cost::avoiding(layer, plan.weight).ok()?;
    router.find(grid, plan.from, plan.to, &cost, Heuristic::Octile).ok().flatten()
}

/// The routes of `plans`, each over its layer in `layers` (`None` where the layer does not
/// exist: no route). Plans that share a goal, a layer and a weight are answered from one
/// [`FlowField`] searched from that goal, the others by A* as [`find`] does. Either way each
/// route is optimal, with the cost A* finds; where several routes cost the same, the one
/// read off a field may be another of them than A*'s.
pub fn find_all(
    router: &mut Router,
    field: &mut FlowField,
    grid: &Grid,
    plans: &[PathPlan],
    layers: &[Option<&Layer>],
) -> Vec<Option<Route>> {
    let same = |a: usize, b: usize| match (layers[a], layers[b]) {
        (Some(x), Some(y)) => {
            plans[a].to == plans[b].to
                && std::ptr::eq(x, y)
                && plans[a].weight.to_bits() == plans[b].weight.to_bits()
        }
        _ => false,
    };
    let mut routes: Vec<Option<Option<Route>>> = vec![None; plans.len()];
    for i in 0..plans.len() {
        if routes[i].is_some() {
            continue;
        }
        let Some(layer) = layers[i] else {
            routes[i] = Some(None);
            continue;
        };
        let shared: Vec<usize> = (i..plans.len()).filter(|&j| same(i, j)).collect();
        if shared.len() < 2 {
            routes[i] = Some(find(router, grid, &plans[i], layer));
            continue;
        }
        // Validated: weight finite and >= 0, layer made for this grid, both ends walkable.
        let answered = Cost::avoiding(layer, plans[i].weight)
            .ok()
            .filter(|cost| field.compute(grid, &[plans[i].to], cost).is_ok());
        for j in shared {
            routes[j] = Some(answered.as_ref().and_then(|cost| {
                let mut route = Route::default();
                field.route_into(grid, plans[j].from, cost, &mut route).then_some(route)
            }));
        }
    }
    routes.into_iter().map(Option::flatten).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use influence::Cell;

    /// Plans sharing a goal, a layer and a weight come from one field with A*'s costs; the
    /// others are exactly what `find` gives.
    #[test]
    fn shared_goals_are_answered_from_one_field_with_astar_costs() {
        let grid =
            Grid::from_rows(&["..........", "..@@@@....", "......@...", ".@@...@...", ".........."]).unwrap();
        let at = |x, y| grid.index(Cell::new(x, y)).unwrap();
        let mut danger = Layer::for_space(&grid);
        for (i, v) in danger.values_mut().iter_mut().enumerate() {
            *v = (i * 13 % 7) as f32 * 0.75 - 1.0;
        }
        let plan = |from, to, weight| PathPlan {
            from,
            to,
            layer_name: "theirs".to_owned(),
            layer: LayerName::Frontline,
            weight,
        };
        let plans = [
            plan(at(0, 0), at(9, 4), 1.5),
            plan(at(0, 4), at(9, 4), 1.5),
            plan(at(4, 2), at(9, 4), 1.5),
            plan(at(0, 0), at(9, 4), 0.0), // another weight: A*
            plan(at(0, 0), at(9, 0), 1.5), // another goal: A*
            plan(at(2, 0), at(9, 4), 1.5),
        ];
        let layers = vec![Some(&danger); plans.len()];
        let (mut router, mut field) = (Router::new(), FlowField::new());
        let all = find_all(&mut router, &mut field, &grid, &plans, &layers);
        for (i, (plan, got)) in plans.iter().zip(&all).enumerate() {
            let astar = find(&mut router, &grid, plan, &danger).unwrap();
            let got = got.as_ref().unwrap();
            if [3, 4].contains(&i) {
                assert_eq!(*got, astar, "{i}");
            } else {
                assert!((got.cost - astar.cost).abs() <= 1e-6 * astar.cost, "{i}");
                assert_eq!((got.cells[0], *got.cells.last().unwrap()), (plan.from, plan.to));
                assert_eq!(got.expanded, 0, "{i}: read off the field");
            }
        }
        // No layer, no route.
        let none = find_all(&mut router, &mut field, &grid, &plans[..2], &[None, Some(&danger)]);
        assert_eq!(none[0], None);
        assert!(none[1].is_some());
    }
}
