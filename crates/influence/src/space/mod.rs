//! Spaces: where influence lives.
//!
//! A space is a set of cells (grid cells, graph nodes) numbered `0..len()`, some of them
//! blocked, with walkable neighbours at known distances. Every algorithm that only needs
//! "who is next to whom, and how far" — path distance, reachability queries, top-N, front
//! lines, centroids — is written once over [`Space`], so grids and graphs share it (the
//! neighbours abstraction of the `pathfinding` crate). Grid-only work (bilinear sampling,
//! stamping kernels, row-wise fast paths) lives on [`Grid`] itself.
//!
//! ## Memory per map type
//!
//! What each type holds on the heap, as its `heap_bytes()` reports it (64-bit targets;
//! checked on a 256 × 256 grid in `tests/trust_memory.rs`):
//!
//! | Type | Bytes on the heap |
//! |---|---|
//! | [`Grid`] | 1⅛ per cell: the blocked flags, and the free cells as bits (rows padded to 64 cells) |
//! | [`Layer`](crate::Layer) | 4 per cell |
//! | [`Propagator`](crate::propagate::Propagator) | 8 per cell (two layers, on a grid up to 4 KiB more), plus the grid kernels' ring rows once stepped: per band of rows 16 × width × fused steps, at most 16 steps and about half of the core's L2 cache (1 MiB with a 2 MiB L2), and the walls' data that single steps keep (with AVX-512 a quarter of a byte a cell, with AVX2 one byte with 4 neighbours and two with 8), plus, for steps in place (maps beyond the L2), three rows and the two rows around each band |
//! | [`Field`](crate::field::Field) (2D or 3D) | per source, not per cell: the source (position, strength, radius, curve) plus its R*-tree entry, under 200 bytes (`Field::heap_bytes`, checked in `tests/field_examples.rs`); `influence bench --field` measured 91 KiB for 1,000 sources |
//! | [`Graph`] | 17 per node and 8 per arc, exactly, plus an estimated 96 per node for the R*-tree index: under 128 per node + 8 per arc (a walkable 8-connected grid cell has up to 8 arcs) |
//!
//! A 256 × 256 grid thus takes 64 KiB, each layer 256 KiB, a propagator 512 KiB plus, once
//! it has fused steps, about 100 KiB of ring rows and their wall data per thread, and the same map as a graph about 11 MB.

pub(crate) mod derived;
mod graph;
mod graph_io;
mod grid;
mod locate;
mod movingai;

pub use derived::{DerivedGraph, Reduce};
pub use graph::{Graph, MAX_ARCS, MAX_NODES};
pub(crate) use grid::WallsTag;
pub use grid::{Cell, Connectivity, Grid, MAX_CELLS};

use glam::Vec3;

/// A set of cells with walkable neighbours at known positions: the abstraction every generic
/// algorithm uses. Cells can be found from world points ([`locate`](Space::locate),
/// [`for_each_within`](Space::for_each_within)), so
/// [`Stamper`](crate::Stamper) places sources on any space.
pub trait Space {
    /// Number of cells (or nodes); valid indices are `0..len()`.
    fn len(&self) -> usize;

    /// `true` when the space has no cells (never the case for a [`Grid`]).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether units can stand in (and influence can pass through) cell `i`.
    fn is_walkable(&self, i: usize) -> bool;

    /// Calls `visit(j, distance)` for each walkable neighbour `j` of the walkable cell `i`,
    /// with the distance between their centres in world units. Allocates nothing.
    fn for_each_neighbour(&self, i: usize, visit: impl FnMut(usize, f32));

    /// World position of cell `i`'s centre (`z` = 0 on a flat grid).
    fn position(&self, i: usize) -> Vec3;

    /// This space as a [`Grid`], if it is one: generic code takes the grid's row-wise fast
    /// paths through it (a [`Propagator`](crate::propagate::Propagator) step, for one).
    /// `None` unless overridden; only [`Grid`] returns itself.
    fn as_grid(&self) -> Option<&Grid> {
        None
    }

    /// The walkable cell a world point belongs to: on a [`Grid`] the cell containing it (its
    /// `z` ignored), `None` outside the grid or on a wall; on a [`Graph`] the nearest
    /// walkable node in 3D ([`Graph::nearest`]). The default is the walkable cell nearest in
    /// 3D, ties to the lower index, found by a scan; `None` when `p` is not finite.
    ///
    /// ```
    /// use influence::{glam::Vec3, Grid, Space};
    /// let grid = Grid::from_rows(&["..@"])?;
    /// assert_eq!(grid.locate(Vec3::new(1.5, 0.5, 9.0)), Some(1));
    /// assert_eq!(grid.locate(Vec3::new(2.5, 0.5, 0.0)), None); // the wall
    /// # Ok::<(), influence::Error>(())
    /// ```
    fn locate(&self, p: Vec3) -> Option<usize> {
        if !p.is_finite() {
            return None;
        }
        let mut best: Option<(f32, usize)> = None;
        for i in (0..self.len()).filter(|&i| self.is_walkable(i)) {
            let d2 = self.position(i).distance_squared(p);
            if best.is_none_or(|(b, _)| d2 < b) {
                best = Some((d2, i));
            }
        }
        best.map(|(_, i)| i)
    }

    /// Calls `visit(i)` for every walkable cell whose position lies within straight-line
    /// (3D) `radius` of `p`, inclusive, in no particular order. The default scans every cell;
    /// a [`Grid`] scans only the square around `p`, a [`Graph`] asks its R*-tree.
    ///
    /// ```
    /// use influence::{glam::Vec3, Grid, Space};
    /// let grid = Grid::new(3, 1)?;
    /// let mut near = Vec::new();
    /// grid.for_each_within(Vec3::new(0.5, 0.5, 0.0), 1.0, |i| near.push(i));
    /// near.sort_unstable();
    /// assert_eq!(near, vec![0, 1]);
    /// # Ok::<(), influence::Error>(())
    /// ```
    fn for_each_within(&self, p: Vec3, radius: f32, mut visit: impl FnMut(usize)) {
        let r2 = radius * radius;
        for i in (0..self.len()).filter(|&i| self.is_walkable(i)) {
            if self.position(i).distance_squared(p) <= r2 {
                visit(i);
            }
        }
    }
}
