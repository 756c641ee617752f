//! The best cell of a layer: anywhere, within a radius, or within a walking distance.

use glam::Vec3;

use super::{check_len, Best, Extreme};
use crate::{layer::Layer, paths::Router, space::Space};

/// The walkable cell with the highest (or lowest) value, as `(cell, value)`; ties go to the
/// lowest index. `None` if no walkable cell holds a number.
///
/// The safest spot of "Influence Maps in Game AI" is the highest cell of water − fire:
///
/// ```
/// use influence::{query::{self, Extreme}, Grid, Layer};
/// let grid = Grid::from_rows(&["...@"])?;
/// let water = Layer::from_vec(vec![1.0, 3.0, 3.0, 9.0]);
/// let fire = Layer::from_vec(vec![0.0, 2.5, 0.5, 0.0]);
/// let mut safety = water.clone();
/// safety.zip_map(&fire, |w, f| w - f);
/// // Cell 3 is blocked, so cell 2 wins.
/// assert_eq!(query::extreme(&grid, &safety, Extreme::Highest), Some((2, 2.5)));
/// assert_eq!(query::extreme(&grid, &safety, Extreme::Lowest), Some((1, 0.5)));
/// # Ok::<(), influence::Error>(())
/// ```
pub fn extreme<S: Space>(space: &S, layer: &Layer, which: Extreme) -> Option<(usize, f32)> {
    check_len(space, layer);
    let mut best = Best::new(which);
    for i in (0..space.len()).filter(|&i| space.is_walkable(i)) {
        best.offer(i, layer[i]);
    }
    best.get()
}

/// Like [`extreme`], among walkable cells whose centre lies within straight-line `radius`
/// of `centre` (inclusive). Scans every cell: O(cells), no allocation.
///
/// ```
/// use influence::{query::{self, Extreme}, Grid, Layer, glam::Vec3};
/// let grid = Grid::new(4, 1)?;
/// let layer = Layer::from_vec(vec![5.0, 1.0, 2.0, 9.0]);
/// // Centres at x = 0.5 … 3.5: within 1 of x = 1.5 are cells 0, 1, 2.
/// let near = query::extreme_within_radius(&grid, &layer, Vec3::new(1.5, 0.5, 0.0), 1.0, Extreme::Highest);
/// assert_eq!(near, Some((0, 5.0)));
/// # Ok::<(), influence::Error>(())
/// ```
pub fn extreme_within_radius<S: Space>(
    space: &S,
    layer: &Layer,
    centre: Vec3,
    radius: f32,
    which: Extreme,
) -> Option<(usize, f32)> {
    check_len(space, layer);
    if radius.is_nan() || radius < 0.0 {
        return None;
    }
    // Squared distances avoid a root per cell; a NaN `centre` fails every comparison.
    let r2 = radius * radius;
    let mut best = Best::new(which);
    for i in (0..space.len()).filter(|&i| space.is_walkable(i)) {
        if space.position(i).distance_squared(centre) <= r2 {
            best.offer(i, layer[i]);
        }
    }
    best.get()
}

/// Like [`extreme`], among cells reachable from `start` by a walk of at most
/// `max_path_distance` world units (around walls, see [`Router::sweep`]). `None` if
/// `start` is blocked or outside the space. Visits only the reachable cells; `router`'s
/// scratch is reused so a per-frame call allocates nothing after the first.
///
/// ```
/// use influence::{query::{self, Extreme}, route::Router, Grid, Layer};
/// let grid = Grid::from_rows(&["..@."])?;
/// let layer = Layer::from_vec(vec![1.0, 2.0, 0.0, 9.0]);
/// let mut router = Router::new();
/// // The 9 lies behind a wall, unreachable however far we walk.
/// let best = query::extreme_reachable(&grid, &layer, 0, 100.0, &mut router, Extreme::Highest);
/// assert_eq!(best, Some((1, 2.0)));
/// # Ok::<(), influence::Error>(())
/// ```
pub fn extreme_reachable<S: Space>(
    space: &S,
    layer: &Layer,
    start: usize,
    max_path_distance: f32,
    router: &mut Router,
    which: Extreme,
) -> Option<(usize, f32)> {
    check_len(space, layer);
    let mut best = Best::new(which);
    // The sweep visits nearest first, not by index: `Best` breaks ties by index anyway.
    router.sweep(space, &[(start, 0.0)], max_path_distance, |i, _| best.offer(i, layer[i]));
    best.get()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Connectivity, Grid};
    use Extreme::{Highest, Lowest};

    fn layer(v: &[f32]) -> Layer {
        Layer::from_vec(v.to_vec())
    }

    #[test]
    fn extreme_skips_walls_and_nan_and_breaks_ties_by_index() {
        let g = Grid::from_rows(&["..@.", "...."]).unwrap();
        let l = layer(&[1.0, 4.0, 99.0, f32::NAN, 4.0, -2.0, -2.0, 0.0]);
        assert_eq!(extreme(&g, &l, Highest), Some((1, 4.0)));
        assert_eq!(extreme(&g, &l, Lowest), Some((5, -2.0)));
        // -0.0 and 0.0 tie: the lower index wins.
        let g = Grid::new(2, 1).unwrap();
        assert_eq!(extreme(&g, &layer(&[0.0, -0.0]), Lowest), Some((0, 0.0)));
        assert_eq!(extreme(&g, &layer(&[-0.0, 0.0]), Highest), Some((0, -0.0)));
    }

    #[test]
    fn extreme_is_none_without_walkable_numbers() {
        let walled = Grid::from_rows(&["@@"]).unwrap();
        assert_eq!(extreme(&walled, &layer(&[1.0, 2.0]), Highest), None);
        let open = Grid::new(2, 1).unwrap();
        assert_eq!(extreme(&open, &layer(&[f32::NAN, f32::NAN]), Lowest), None);
    }

    #[test]
    fn within_radius_is_inclusive_and_rejects_bad_input() {
        let g = Grid::new(3, 3).unwrap();
        let mut l = Layer::for_space(&g);
        let at = |x, y| g.index(crate::Cell::new(x, y)).unwrap();
        l[at(2, 2)] = 5.0; // √2 from the centre cell
        l[at(0, 1)] = 3.0; // 1 away
        let c = g.position(at(1, 1));
        assert_eq!(extreme_within_radius(&g, &l, c, 1.0, Highest), Some((3, 3.0)));
        assert_eq!(extreme_within_radius(&g, &l, c, 1.5, Highest), Some((8, 5.0)));
        assert_eq!(extreme_within_radius(&g, &l, c, 0.0, Highest), Some((4, 0.0)));
        assert_eq!(extreme_within_radius(&g, &l, c, 0.4, Highest), Some((4, 0.0)));
        assert_eq!(extreme_within_radius(&g, &l, Vec3::splat(50.0), 1.0, Highest), None);
        assert_eq!(extreme_within_radius(&g, &l, c, -1.0, Highest), None);
        assert_eq!(extreme_within_radius(&g, &l, c, f32::NAN, Highest), None);
        assert_eq!(extreme_within_radius(&g, &l, Vec3::new(f32::NAN, 0.0, 0.0), 9.0, Highest), None);
    }

    #[test]
    fn reachable_walks_around_walls_and_respects_the_limit() {
        let g = Grid::from_rows(&[".@.", ".@.", "..."]).unwrap().with_connectivity(Connectivity::Four);
        let l = layer(&[0.0, 0.0, 7.0, 1.0, 0.0, 6.0, 2.0, 3.0, 5.0]);
        let mut s = Router::new();
        // Cell 2 (the 7) is 6 steps around the wall, though only 2 away in a straight line.
        assert_eq!(extreme_reachable(&g, &l, 0, 3.0, &mut s, Highest), Some((7, 3.0)));
        assert_eq!(extreme_reachable(&g, &l, 0, 5.0, &mut s, Highest), Some((5, 6.0)));
        assert_eq!(extreme_reachable(&g, &l, 0, 6.0, &mut s, Highest), Some((2, 7.0)));
        assert_eq!(extreme_reachable(&g, &l, 8, 1.0, &mut s, Lowest), Some((7, 3.0)));
        assert_eq!(extreme_reachable(&g, &l, 0, 0.0, &mut s, Highest), Some((0, 0.0)));
        assert_eq!(extreme_reachable(&g, &l, 1, 9.0, &mut s, Highest), None); // blocked start
        assert_eq!(extreme_reachable(&g, &l, 99, 9.0, &mut s, Highest), None);
        assert_eq!(extreme_reachable(&g, &l, 0, f32::NAN, &mut s, Highest), None);
    }

    #[test]
    fn reachable_ties_go_to_the_lowest_index_not_the_nearest() {
        let g = Grid::new(5, 1).unwrap();
        let l = layer(&[4.0, 1.0, 1.0, 4.0, 4.0]);
        let mut s = Router::new();
        assert_eq!(extreme_reachable(&g, &l, 3, 9.0, &mut s, Highest), Some((0, 4.0)));
    }
}
