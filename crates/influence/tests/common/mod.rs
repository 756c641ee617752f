//! Strategies shared by the property tests.

#![allow(dead_code)] // Each test file uses a different subset.

use influence::Cell;
use influence::{Band, Connectivity, Falloff, Grid, Layer, Metric, Source, Stamper};
use proptest::prelude::*;

/// Random grids with sides in `sides`, each cell blocked with probability `walls`, 4- or
/// 8-connected, with cell size `cell_size`.
pub fn walled_grid(sides: std::ops::Range<usize>, walls: f64, cell_size: f32) -> impl Strategy<Value = Grid> {
    (sides.clone(), sides, any::<bool>())
        .prop_flat_map(move |(w, h, eight)| {
            (Just((w, h, eight)), prop::collection::vec(prop::bool::weighted(walls), w * h))
        })
        .prop_map(move |((w, h, eight), blocked)| {
            let conn = if eight { Connectivity::Eight } else { Connectivity::Four };
            let mut grid =
                Grid::new(w, h).unwrap().with_connectivity(conn).with_cell_size(cell_size).unwrap();
            for (i, &b) in blocked.iter().enumerate() {
                grid.set_blocked(Cell::new(i % w, i / w), b).unwrap();
            }
            grid
        })
}

/// Built-in curves with factors in [0, 1], so a positive strength gives non-negative values.
pub fn falloff() -> impl Strategy<Value = Falloff> {
    prop_oneof![
        Just(Falloff::Linear),
        (0.0f32..2.0).prop_map(|rate| Falloff::Exponential { rate }),
        (0.3f32..3.0).prop_map(|step| Falloff::Halving { step }),
        (0.5f32..4.0).prop_map(|power| Falloff::Polynomial { power }),
        (0.5f32..5.0).prop_map(|sigma| Falloff::Gaussian { sigma }),
        Just(Falloff::Constant),
        Just(Falloff::Point),
        Just(Falloff::Band(Band::areas(1.0, 3.0, 0.5, 6.0).unwrap())),
        Just(Falloff::Band(Band::ring(1.0, 2.0, 4.0, 6.0).unwrap())),
    ]
}

/// Every distance metric.
pub fn metric() -> impl Strategy<Value = Metric> {
    prop_oneof![Just(Metric::Euclidean), Just(Metric::Manhattan), Just(Metric::Octile), Just(Metric::Path)]
}

/// Stamps `src`, which the stamper may refuse only when it stands on a wall of `grid` (and
/// then writes nothing); returns whether it was stamped.
pub fn stamp_unless_walled(stamper: &mut Stamper, grid: &Grid, layer: &mut Layer, src: &Source) -> bool {
    let before = layer.clone();
    match stamper.stamp(grid, layer, src) {
        Ok(()) => true,
        Err(e) => {
            assert!(grid.cell_at(src.position()).is_some_and(|c| grid.is_blocked(c)), "{e}");
            assert_eq!(*layer, before, "a refused source writes nothing");
            false
        }
    }
}

/// A grid seen only as a [`Space`](influence::Space) (no `Space::as_grid`): routes and steps
/// on it take the generic code, cell by cell, which the grid's own code must equal.
pub struct Generic<'a>(pub &'a Grid);

impl influence::Space for Generic<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn is_walkable(&self, i: usize) -> bool {
        self.0.is_walkable(i)
    }
    fn for_each_neighbour(&self, i: usize, visit: impl FnMut(usize, f32)) {
        self.0.for_each_neighbour(i, visit);
    }
    fn position(&self, i: usize) -> influence::glam::Vec3 {
        self.0.position(i)
    }
}
