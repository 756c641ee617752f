//! Strategies shared by the property tests.

#![allow(dead_code)] // Each test file uses a different subset.

use influence::{Connectivity, Grid};
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
                grid.set_blocked(i % w, i / w, b).unwrap();
            }
            grid
        })
}
