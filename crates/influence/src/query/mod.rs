//! Queries: answers read off a layer — "what is the value here", "where is it safest",
//! "where is the front".
//!
//! Queries that need only neighbours and positions (extremes, top-N, front cells,
//! centroids) are generic over [`Space`], so they serve graphs as well as grids; those
//! that need the lattice of cell centres (bilinear sampling, gradients, front length)
//! take a [`Grid`](crate::Grid).
//!
//! Every query takes the layer made for its space and panics if the lengths differ: as in
//! [`Layer`]'s algebra, a mismatch is a programming error. `NaN` values in a layer are
//! never chosen, and `NaN` query inputs give `None` (or nothing).

mod centroid;
mod contour;
mod extremes;
mod front;
mod sample;
mod spots;
mod top_n;

pub use centroid::weighted_centroid;
pub use contour::frontline_length;
pub use extremes::{extreme, extreme_reachable, extreme_within_radius};
pub use front::frontline_into;
pub use sample::{gradient, value_bilinear};
pub use spots::SpotIndex;
pub use top_n::top_n;

use crate::{layer::Layer, space::Space};

/// Which end of the value range a query looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Extreme {
    /// The largest value (e.g. the safest spot on a safety map).
    Highest,
    /// The smallest value (e.g. the least contested spot on a tension map).
    Lowest,
}

impl Extreme {
    /// A key that sorts ascending best first, so `(rank, cell)` pairs order every query the
    /// same way, ties by lower cell index: the float's bits mapped to an order-preserving
    /// `u32`, flipped for `Highest`. `-0.0` turns into `0.0` first so the two tie. Not for `NaN`.
    fn rank(self, v: f32) -> u32 {
        let bits = (v + 0.0).to_bits();
        let ascending = if bits >> 31 == 1 { !bits } else { bits | 1 << 31 };
        match self {
            Self::Highest => !ascending,
            Self::Lowest => ascending,
        }
    }
}

/// Keeps the best `(cell, value)` offered so far, in any offering order.
struct Best {
    which: Extreme,
    best: Option<((u32, usize), f32)>,
}

impl Best {
    fn new(which: Extreme) -> Self {
        Self { which, best: None }
    }

    fn offer(&mut self, cell: usize, value: f32) {
        if value.is_nan() {
            return;
        }
        let key = (self.which.rank(value), cell);
        if self.best.is_none_or(|(k, _)| key < k) {
            self.best = Some((key, value));
        }
    }

    fn get(&self) -> Option<(usize, f32)> {
        self.best.map(|((_, cell), value)| (cell, value))
    }
}

/// Panics unless `layer` was made for `space`.
fn check_len(space: &impl Space, layer: &Layer) {
    assert_eq!(space.len(), layer.len(), "layer length does not match the space");
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A xorshift64 stream for the queries' randomised tests: numbers from `seed`, the same
    /// in every run.
    pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    #[test]
    fn rank_orders_values_and_ties_signed_zeros() {
        let values = [f32::NEG_INFINITY, -3.5, -1e-30, -0.0, 0.0, 1e-30, 2.0, f32::INFINITY];
        for pair in values.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let (lo, hi) = (Extreme::Lowest, Extreme::Highest);
            if a == b {
                assert_eq!(lo.rank(a), lo.rank(b));
                assert_eq!(hi.rank(a), hi.rank(b));
            } else {
                assert!(lo.rank(a) < lo.rank(b), "{a} {b}");
                assert!(hi.rank(a) > hi.rank(b), "{a} {b}");
            }
        }
    }
}
