//! A plain top-N with spacing, as a careful engineer would write it without an index: the
//! bar `query::SpotIndex` must clear (benches/spots.rs).
//!
//! Each query keys every candidate once into a buffer kept between calls (one `u64` per cell:
//! an order-preserving rank of the value, then the cell, so one integer comparison orders by
//! value and breaks ties by the lower index), brings the leading block to the front with
//! `select_nth_unstable` and sorts only that block, and takes cells greedily when they are
//! far enough from every cell taken. A block too short for the spacing is followed by the
//! next, 4× larger. Walls and `NaN` are never keyed; `-0.0` ties `0.0`. No allocation
//! after the first call but the caller's result vector.

use influence::glam::Vec3;
use influence::query::Extreme;
use influence::{Grid, Layer, Space};

/// The buffers of [`PlainTopN::top_n_into`], kept from query to query.
#[derive(Debug, Default)]
pub struct PlainTopN {
    keys: Vec<u64>,
    kept: Vec<Vec3>,
}

/// The value's bits as an order-preserving `u32`, best first for `which` (`-0.0` as `0.0`).
#[inline]
fn rank(v: f32, which: Extreme) -> u32 {
    let bits = (v + 0.0).to_bits();
    let ascending = bits ^ (((bits as i32 >> 31) as u32) | 1 << 31);
    match which {
        Extreme::Highest => !ascending,
        Extreme::Lowest => ascending,
    }
}

impl PlainTopN {
    /// Empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same answer as `query::top_n(grid, layer, n, min_spacing, which)`, into `out`.
    pub fn top_n_into(
        &mut self,
        grid: &Grid,
        layer: &Layer,
        n: usize,
        min_spacing: f32,
        which: Extreme,
        out: &mut Vec<(usize, f32)>,
    ) {
        assert_eq!(grid.len(), layer.len(), "layer length does not match the grid");
        out.clear();
        if n == 0 || min_spacing.is_nan() {
            return;
        }
        let spacing = min_spacing.max(0.0);
        // Keys written branch-free: every cell writes its slot, only candidates advance.
        let (values, blocked) = (layer.values(), grid.blocked());
        self.keys.resize(values.len(), 0);
        let mut len = 0;
        for (i, (&v, &b)) in values.iter().zip(blocked).enumerate() {
            self.keys[len] = u64::from(rank(v, which)) << 32 | i as u64;
            len += usize::from(!b & !v.is_nan());
        }
        self.kept.clear();
        let mut rest = &mut self.keys[..len];
        let mut block = n.max(256);
        'blocks: while !rest.is_empty() {
            let take = block.min(rest.len());
            if take < rest.len() {
                rest.select_nth_unstable(take - 1);
            }
            let (head, tail) = rest.split_at_mut(take);
            head.sort_unstable();
            for &key in head.iter() {
                let i = (key & u64::from(u32::MAX)) as usize;
                let p = grid.position(i);
                if self.kept.iter().all(|c| c.distance(p) >= spacing) {
                    out.push((i, values[i]));
                    self.kept.push(p);
                    if out.len() == n {
                        break 'blocks;
                    }
                }
            }
            rest = tail;
            block = block.saturating_mul(4);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{walled_grid, Rng};
    use influence::query;
    use influence::Connectivity;

    /// On walled maps of layers with ties, `NaN`s, signed zeros and infinities, for both
    /// ends and spacings from none to one spot only, the answers are `query::top_n`'s.
    #[test]
    fn agrees_with_the_library() {
        let mut rng = Rng::new(0x5EED);
        let mut plain = PlainTopN::new();
        let mut got = Vec::new();
        for side in [1, 7, 40, 100] {
            for connectivity in [Connectivity::Four, Connectivity::Eight] {
                let grid = walled_grid(side, rng.u64()).with_connectivity(connectivity);
                let specials = [f32::NAN, -0.0, 0.0, f32::INFINITY, f32::NEG_INFINITY];
                let layer = Layer::from_vec(
                    (0..side * side)
                        .map(|_| match rng.below(12) {
                            k @ 0..=4 => specials[k],
                            _ => rng.below(20) as f32 - 10.0,
                        })
                        .collect(),
                );
                for which in [Extreme::Highest, Extreme::Lowest] {
                    for (n, spacing) in [(5, 1.0), (5, 10.0), (300, 0.0), (3, -1.0), (2, f32::NAN), (9, 1e9)]
                    {
                        plain.top_n_into(&grid, &layer, n, spacing, which, &mut got);
                        let want = query::top_n(&grid, &layer, n, spacing, which);
                        let bits =
                            |v: &[(usize, f32)]| v.iter().map(|&(i, x)| (i, x.to_bits())).collect::<Vec<_>>();
                        assert_eq!(
                            bits(&got),
                            bits(&want),
                            "side {side}, n {n}, spacing {spacing}, {which:?}"
                        );
                    }
                }
            }
        }
    }
}
