//! The flow field's search where danger is heavy: Dijkstra's on a queue of buckets.
//!
//! Buckets are as wide as the cheapest step, as in `flow/frontier.rs`, and each is taken
//! whole from the grid searches' ring (`paths/ring.rs`): a cell is pushed to the bucket of
//! its cost each time an offer lowers it, and expanded when taken unless it was expanded at
//! its current cost already (so stale entries need no check of their own). Cells that share
//! a bucket cannot improve one another (every step costs at least the bucket's width), so
//! no order inside a bucket is needed; an offer that rounds down onto the bucket being
//! taken lands in it, and the cell is expanded again at its lower cost.
//!
//! Each push follows a branch on whether the offer lowered the cell, which the frontier
//! search does without. But a push puts a cell straight into the bucket its cost is due in,
//! where the frontier search looks at a waiting cell once a bucket: where steps into danger
//! are many steps long, cells wait many buckets and the queue is the faster of the two.
//! And since only a lowering offer is written, the cell's way is written with it, at no
//! cost: no pass over the map afterwards.

use crate::paths::{bucket, Padded, Ring};

use super::{DONE, GOAL};

/// Settles every cell `goals` reach on `grid`, writing each one's cost to the nearest goal
/// into `costs` and its way into `ways` (padded cells; on entry `−∞` on walls, `+∞`
/// elsewhere and [`UNREACHED`](super::UNREACHED) throughout), with buckets `1 / per_step` wide, and the
/// [`DONE`] bit set on the way of every cell reached. `ring` and `taken` (a bucket taken
/// from it) are scratch.
pub(super) fn run(
    grid: &Padded,
    per_step: f32,
    (costs, ways): (&mut [f32], &mut [u8]),
    (ring, taken): (&mut Ring, &mut Vec<u32>),
    goals: impl Iterator<Item = u32>,
) {
    ring.clear();
    for g in goals {
        (costs[g as usize], ways[g as usize]) = (0.0, GOAL);
        ring.push(0, g);
    }
    let steps = grid.steps();
    while ring.take(taken).is_some() {
        // A pipeline of two: the next cell's offers are chosen before this cell's are
        // written, so the hard-to-predict branches below (how many neighbours an offer
        // lowers) do not wait on the next cell's loads.
        let mut cells = taken.iter();
        let mut next = cells.next().map(|&v| choose(grid, costs, ways, v));
        while let Some(Chosen { cell: v, offer, mut offers }) = next {
            next = cells.next().map(|&w| choose(grid, costs, ways, w));
            while offers != 0 {
                let i = offers.trailing_zeros() as usize;
                offers &= offers - 1;
                let u = v.wrapping_add(steps[i]);
                let o = offer[i >> 2];
                // Tested again: the cell before may have lowered `u` since it was chosen.
                if o < costs[u] {
                    (costs[u], ways[u]) = (o, i as u8);
                    ring.push(bucket(o, per_step), u as u32);
                }
            }
        }
    }
}

/// A cell's offers, chosen by [`choose`].
struct Chosen {
    /// The padded cell.
    cell: usize,
    /// Its straight and diagonal offers.
    offer: [f32; 2],
    /// The neighbours (bits of `Padded::steps`) the offers lowered when chosen.
    offers: u32,
}

/// Marks padded cell `v` expanded ([`DONE`], cleared when an offer lowers it) and chooses
/// its offers: the open neighbours its straight and diagonal offers lower
/// ([`Padded::cheaper`], no branch per neighbour), none if it was expanded at this cost
/// already.
#[inline(always)]
fn choose(grid: &Padded, costs: &[f32], ways: &mut [u8], v: u32) -> Chosen {
    let v = v as usize;
    let way = ways[v];
    if way & DONE != 0 {
        // A stale entry: skipping its loads beats the mispredicted branch here.
        return Chosen { cell: v, offer: [0.0; 2], offers: 0 };
    }
    ways[v] = way | DONE;
    let (here, penalty) = (costs[v], grid.penalty[v]);
    let offer = [here + (grid.straight + penalty), here + (grid.diagonal + penalty)];
    let offers = grid.cheaper(v, costs, offer);
    Chosen { cell: v, offer, offers }
}
