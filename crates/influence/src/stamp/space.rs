//! Stamping on any [`Space`], which finds cells from world points: graphs, and
//! grids too, with the same sources as [`Stamper`](crate::Stamper).
//!
//! [`Stamper`](crate::Stamper) is the fast grid path (cached kernels, row loops). This is
//! the generic one: it reuses the source's own curve ([`Source::value_at`]) and mode
//! ([`Mode::apply`](crate::Mode::apply)), and only measures distance differently per space.
//! A [`Source`] has a 2D position; [`SpaceStamper::stamp`] lifts it to the height `z` given
//! (a floor of a building) and measures:
//!
//! * [`Metric::Path`]: walking distance from the cell the point is on ([`Space::locate`];
//!   the nearest walkable node of a graph), along the space's neighbour steps, with
//!   the same sweep as [`Router::sweep`](crate::route::Router::sweep) — on a multi-floor graph, up and down the stairs only.
//! * [`Metric::Euclidean`]: the straight 3D distance from the point to each cell's
//!   position — through floors and walls, as World in Conflict's "true distance".
//! * [`Metric::Manhattan`], [`Metric::Octile`]: the metric's horizontal length plus the
//!   height difference.
//!
//! A [`Falloff::Point`] source writes its strength into the located
//! cell alone. Blocked cells never receive influence. On a grid, path stamping here equals
//! [`Stamper`](crate::Stamper)'s bit for bit, and the straight metrics agree to float
//! rounding (the grid path measures in cell units).

use glam::Vec3;

use crate::falloff::Falloff;
use crate::layer::Layer;
use crate::paths::PathScratch;
use crate::source::{Metric, Source};
use crate::space::Space;

/// Stamps sources into layers of any [`Space`], keeping path scratch between calls.
///
/// ```
/// use influence::{space::Graph, stamp::SpaceStamper, Falloff, Layer, Metric, Source, glam::{Vec2, Vec3}};
/// // A corridor of waypoints 2 apart.
/// let positions = (0..5).map(|i| Vec3::new(2.0 * i as f32, 0.0, 0.0)).collect();
/// let graph = Graph::from_edges(positions, (1..5).map(|i| (i - 1, i)))?;
/// let mut layer = Layer::for_space(&graph);
/// let unit = Source::new(Vec2::new(0.0, 0.0), 8.0, Falloff::Linear, 8.0)?.with_metric(Metric::Path);
/// SpaceStamper::new().stamp(&graph, &mut layer, &unit, 0.0);
/// assert_eq!(layer.values(), &[8.0, 6.0, 4.0, 2.0, 0.0]);
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Default, Clone)]
pub struct SpaceStamper {
    paths: PathScratch,
}

impl SpaceStamper {
    /// Empty scratch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stamps every source, all at height `z`, in order.
    pub fn stamp_all<'a, L: Space>(
        &mut self,
        space: &L,
        layer: &mut Layer,
        sources: impl IntoIterator<Item = &'a Source>,
        z: f32,
    ) {
        for source in sources {
            self.stamp(space, layer, source, z);
        }
    }

    /// Stamps `source`, standing at its position lifted to height `z`, into `layer`. A
    /// non-finite `z` stamps nothing.
    ///
    /// # Panics
    /// If `layer` was not made for `space` (different length).
    pub fn stamp<L: Space>(&mut self, space: &L, layer: &mut Layer, source: &Source, z: f32) {
        assert_eq!(layer.len(), space.len(), "layer was not made for this space");
        let at = source.position().extend(z);
        if !z.is_finite() {
            return;
        }
        let (mode, radius) = (source.mode(), source.radius());
        let values = layer.values_mut();
        if matches!(source.falloff(), Falloff::Point) {
            if let Some(i) = space.locate(at) {
                values[i] = mode.apply(values[i], source.strength());
            }
            return;
        }
        let metric = source.metric();
        if metric == Metric::Path {
            let Some(start) = space.locate(at) else { return };
            self.paths.sweep(space, &[(start, 0.0)], radius, |i, d| {
                values[i] = mode.apply(values[i], source.value_at(d));
            });
            return;
        }
        // Every straight metric is at least the Euclidean distance, so the ball holds the footprint.
        space.for_each_within(at, radius, |i| {
            let d = straight_distance(metric, space.position(i) - at);
            if d <= radius {
                values[i] = mode.apply(values[i], source.value_at(d));
            }
        });
    }
}

/// The length of offset `v` under a straight-line metric, extended to 3D: Euclidean in 3D,
/// the others horizontally plus the height difference.
fn straight_distance(metric: Metric, v: Vec3) -> f32 {
    match metric {
        Metric::Euclidean => v.length(),
        Metric::Manhattan | Metric::Octile | Metric::Path => metric.length(v.x, v.y) + v.z.abs(),
    }
}

/// Stamps one source at height `z` with fresh scratch: [`SpaceStamper::stamp`] for a
/// one-off call (a per-frame caller keeps a [`SpaceStamper`]).
///
/// # Panics
/// If `layer` was not made for `space`.
pub fn stamp_space<L: Space>(space: &L, layer: &mut Layer, source: &Source, z: f32) {
    SpaceStamper::new().stamp(space, layer, source, z);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Cell;
    use crate::{Grid, Mode, Stamper};

    #[test]
    fn on_a_grid_path_stamping_equals_the_stamper_and_straight_metrics_agree() {
        let grid = Grid::from_rows(&["..........", "...@......", "...@..@...", "..........", "......@@.."])
            .unwrap()
            .with_cell_size(1.5)
            .unwrap();
        for metric in [Metric::Path, Metric::Euclidean, Metric::Manhattan, Metric::Octile] {
            for mode in [Mode::Add, Mode::Set, Mode::Max] {
                let (mut a, mut b) =
                    (Layer::from_vec(vec![0.5; grid.len()]), Layer::from_vec(vec![0.5; grid.len()]));
                for (x, y, s) in [(0, 0, 2.0), (4, 2, -1.5), (9, 4, 3.0)] {
                    let src = Source::new(grid.center(Cell::new(x, y)), s, Falloff::Linear, 4.6)
                        .unwrap()
                        .with_metric(metric)
                        .with_mode(mode);
                    Stamper::new().stamp(&grid, &mut a, &src);
                    stamp_space(&grid, &mut b, &src, 0.0);
                }
                if metric == Metric::Path {
                    assert_eq!(a, b, "{metric:?} {mode:?}");
                } else {
                    for (p, q) in a.values().iter().zip(b.values()) {
                        assert!((p - q).abs() < 1e-5, "{metric:?} {mode:?}: {p} vs {q}");
                    }
                }
            }
        }
    }

    #[test]
    fn point_sources_hit_the_located_cell_and_bad_heights_nothing() {
        let grid = Grid::from_rows(&["...", ".@."]).unwrap();
        let mut layer = Layer::for_space(&grid);
        let src = Source::new(grid.center(Cell::new(2, 1)), 3.0, Falloff::Point, 1.0).unwrap();
        stamp_space(&grid, &mut layer, &src, 0.0);
        assert_eq!(layer[5], 3.0);
        stamp_space(&grid, &mut layer, &src, f32::NAN);
        assert_eq!(layer.sum(), 3.0);
        let wall = Source::new(grid.center(Cell::new(1, 1)), 3.0, Falloff::Point, 1.0).unwrap();
        stamp_space(&grid, &mut layer, &wall, 0.0);
        assert_eq!(layer.sum(), 3.0);
    }
}
