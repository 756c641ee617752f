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
//! | [`Propagator`](crate::propagate::Propagator) | 8 per cell (two layers), plus the grid kernels' ring rows once stepped: per band of rows at most about 1 MiB (16 × width × fused steps) |
//! | [`Field`](crate::field::Field) (2D or 3D) | per source, not per cell: the source (position, strength, radius, curve) plus its R*-tree entry, under 200 bytes (`Field::heap_bytes`, checked in `tests/field_examples.rs`); `influence bench --field` measured 91 KiB for 1,000 sources |
//! | [`Graph`] | 17 per node and 8 per arc, exactly, plus an estimated 96 per node for the R*-tree index: under 128 per node + 8 per arc (a walkable 8-connected grid cell has up to 8 arcs) |
//!
//! A 256 × 256 grid thus takes 64 KiB, each layer 256 KiB, a propagator 512 KiB plus at most
//! about 1 MiB of rows per thread, and the same map as a graph about 11 MB.

pub(crate) mod derived;
mod graph;
mod graph_io;
mod grid;
mod locate;
mod movingai;

pub use derived::{DerivedGraph, Reduce};
pub use graph::{Edge, Graph, GraphNode, MAX_ARCS, MAX_NODES};
pub use grid::{Connectivity, Grid, MAX_CELLS};
pub use locate::Locate;

use glam::Vec3;

/// A set of cells with walkable neighbours: the abstraction every generic algorithm uses.
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
}
