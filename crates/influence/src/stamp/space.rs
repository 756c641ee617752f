//! Stamping on any space, which finds cells from world points ([`Space::locate`]): graphs, and
//! grids when a source stands above their plane, with the same sources as on grids.
//!
//! [`Stamper::stamp`] on a grid takes the fast path (cached kernels, row loops). This is
//! the generic one: it reuses the source's own curve and mode
//! ([`Mode::apply`](crate::Mode::apply)), and only measures distance differently per space.
//! A [`Source`] has a 2D position and a height ([`Source::height`], a floor of a building)
//! and is measured from both:
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
//! the grid path bit for bit, and the straight metrics agree to float rounding (the grid
//! path measures in cell units).

use glam::Vec3;

use super::Stamper;
use crate::falloff::Falloff;
use crate::layer::Layer;
use crate::source::{Metric, Source};
use crate::space::Space;

impl Stamper {
    /// Stamps `source`, standing at its position lifted to its height, into `layer` of any
    /// [`Space`], as the module documentation describes. `start` is the cell a point or
    /// walking-distance source starts from ([`Source::start_cell`]); `None` for the
    /// straight metrics.
    pub(super) fn stamp_located<L: Space>(
        &mut self,
        space: &L,
        layer: &mut Layer,
        source: &Source,
        start: Option<usize>,
    ) {
        let at = source.position().extend(source.height());
        let (mode, radius, metric) = (source.mode(), source.radius(), source.metric());
        let values = layer.values_mut();
        if let Some(start) = start {
            if matches!(source.falloff(), Falloff::Point) {
                values[start] = mode.apply(values[start], source.strength());
            } else {
                self.paths.sweep(space, &[(start, 0.0)], radius, |i, d| {
                    values[i] = mode.apply(values[i], source.value_at(d));
                });
            }
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
                    Stamper::new().stamp(&grid, &mut a, &src).unwrap();
                    Stamper::new().stamp_located(&grid, &mut b, &src, src.start_cell(&grid).unwrap());
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
    fn point_sources_hit_the_located_cell_and_heights_lift_the_source() {
        let grid = Grid::from_rows(&["...", ".@."]).unwrap();
        let mut layer = Layer::for_space(&grid);
        let mut stamper = Stamper::new();
        let src = Source::new(grid.center(Cell::new(2, 1)), 3.0, Falloff::Point, 1.0).unwrap();
        stamper.stamp(&grid, &mut layer, &src).unwrap();
        assert_eq!(layer[5], 3.0);
        let wall = Source::new(grid.center(Cell::new(1, 1)), 3.0, Falloff::Point, 1.0).unwrap();
        assert!(stamper.stamp(&grid, &mut layer, &wall).is_err());
        assert_eq!(layer.sum(), 3.0);
        // One unit above the middle of the top row: the cell under it is 1 away, its
        // neighbours √2 (or walls), so a radius of 1.2 reaches that cell alone.
        let mut above = Source::new(grid.center(Cell::new(1, 0)), 1.0, Falloff::Constant, 1.2).unwrap();
        above.set_height(1.0).unwrap();
        let mut lifted = Layer::for_space(&grid);
        stamper.stamp(&grid, &mut lifted, &above).unwrap();
        assert_eq!(lifted.values(), &[0.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
    }
}
