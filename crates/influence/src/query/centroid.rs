//! Where a region's weight sits: the value-weighted centre of the cells above a threshold.

use glam::{DVec3, Vec3};

use super::check_len;
use crate::{layer::Layer, space::Space};

/// The centroid of the walkable cells whose value exceeds `threshold`, each weighted by its
/// value: the centre of mass of an army's influence, or of a danger zone. `None` if no cell
/// qualifies or the weights sum to zero. Sums run in `f64`, so large maps lose no precision.
/// Meant for thresholds ≥ 0; below 0, negative values would weigh against the others.
///
/// ```
/// use influence::{query, Grid, Layer, glam::Vec3};
/// let grid = Grid::new(4, 1)?;
/// let layer = Layer::from_vec(vec![1.0, 3.0, 0.0, 0.2]);
/// // Centres at x = 0.5 and 1.5, weights 1 and 3; the 0.2 is below the threshold.
/// let c = query::weighted_centroid(&grid, &layer, 0.5);
/// assert_eq!(c, Some(Vec3::new(1.25, 0.5, 0.0)));
/// # Ok::<(), influence::Error>(())
/// ```
pub fn weighted_centroid<S: Space>(space: &S, layer: &Layer, threshold: f32) -> Option<Vec3> {
    check_len(space, layer);
    let (mut sum, mut weight) = (DVec3::ZERO, 0.0f64);
    for i in (0..space.len()).filter(|&i| space.is_walkable(i) && layer[i] > threshold) {
        let w = f64::from(layer[i]);
        sum += space.position(i).as_dvec3() * w;
        weight += w;
    }
    let c = (sum / weight).as_vec3();
    (weight != 0.0 && c.is_finite()).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Grid;

    #[test]
    fn weights_by_value_above_the_threshold_only() {
        let g = Grid::from_rows(&["...", ".@."]).unwrap().with_cell_size(2.0).unwrap();
        // The blocked cell's value and everything at or below 1 are ignored.
        let l = Layer::from_vec(vec![2.0, 1.0, 2.0, 4.0, 50.0, 1.0]);
        let c = weighted_centroid(&g, &l, 1.0).unwrap();
        // Weights 2 at (1, 1), 2 at (5, 1), 4 at (1, 3).
        assert!((c - Vec3::new(2.0, 2.0, 0.0)).length() < 1e-6, "{c}");
    }

    #[test]
    fn none_without_weight() {
        let g = Grid::new(3, 1).unwrap();
        assert_eq!(weighted_centroid(&g, &Layer::zeros(3), 0.0), None);
        assert_eq!(weighted_centroid(&g, &Layer::from_vec(vec![1.0, 2.0, f32::NAN]), 5.0), None);
        assert_eq!(weighted_centroid(&g, &Layer::from_vec(vec![1.0, -1.0, 0.0]), -2.0), None);
        assert_eq!(weighted_centroid(&g, &Layer::from_vec(vec![1.0, 2.0, 3.0]), f32::NAN), None);
        // Weights of one sign below zero still average.
        let c = weighted_centroid(&g, &Layer::from_vec(vec![-1.0, -1.0, -9.0]), -2.0);
        assert_eq!(c, Some(Vec3::new(1.0, 0.5, 0.0)));
    }
}
