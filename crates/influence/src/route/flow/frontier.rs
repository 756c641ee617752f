//! The flow field's search: Dijkstra's from the goals, one bucket of cost at a time, with
//! no branch on what an offer does.
//!
//! Buckets are as wide as the cheapest step `δ` (one straight step: penalties only add).
//! A cell settled at cost `c` offers its neighbours at least `c + δ`, a later bucket, so the
//! cells of the lowest bucket cannot improve one another: once the buckets below are done,
//! each holds its final cost, in whatever order the bucket is settled.
//!
//! A priority queue pushes a cell when an offer improves it. Whether an offer improves a
//! cell is a coin toss to the branch predictor, and so is how many of a cell's eight do:
//! that is where a queue-driven field spends its time. Here, instead:
//!
//! * **Every offer is written.** A neighbour keeps the lower of its cost and the offer,
//!   chosen without a branch, and walls hold `−∞` so no offer lowers them.
//! * **The frontier is a list, not a queue.** A cell joins it when an offer first reaches
//!   it (its cost was `+∞`), by a store at the list's end and a length grown by the
//!   comparison's result, which is 0 or 1: again no branch. Each round scans the list once
//!   and splits it, without branches, into the cells of the lowest bucket, which it
//!   settles, and the rest.
//! * **Far cells wait in the ring.** A cell whose cost is [`WINDOW`] buckets or more ahead
//!   (a step into heavy danger) would be scanned again every round until its bucket comes.
//!   The scan moves such cells into the grid searches' ring of buckets (`paths/ring.rs`)
//!   instead, and the ring hands each bucket back to the list when the rounds come within
//!   [`WINDOW`] of it. An offer that lowers a waiting cell puts it back in the list at
//!   once; its entry in the ring is then stale and is dropped when it comes back.
//!
//! In `f32` an offer `c + δ` may round down onto a bucket's edge, and so lower a cell that
//! was already settled. Such a cell joins the list again and is settled again, so the
//! costs are always Dijkstra's.

use crate::paths::{bucket, threshold, Padded, Ring};

/// Slots past a list's cells that a split may write.
#[cfg(target_arch = "x86_64")]
use super::x86::SLACK;
#[cfg(not(target_arch = "x86_64"))]
const SLACK: usize = 0;

/// Buckets ahead of the lowest whose cells wait in the frontier list; cells further ahead
/// wait in the ring. A cell's wait costs a scan a round, and a trip through the ring costs
/// about as much as a few scans. On light danger 8 to 32 buckets were alike and 4 was
/// slower; under heavy danger the narrower the faster (docs/PERFORMANCE.md).
const WINDOW: u32 = 8;

/// The search's lists, reused from call to call.
#[derive(Debug, Clone, Default)]
pub(super) struct Lists {
    /// The frontier: cells reached and not settled (a cell lowered again while it is due far
    /// ahead may be listed twice; see [`room`]).
    near: Vec<u32>,
    /// The next round's frontier, being built.
    next: Vec<u32>,
    /// The cells of the lowest bucket.
    settle: Vec<u32>,
    /// Cells found too far ahead, on their way to the ring.
    far: Vec<u32>,
}

impl Lists {
    /// Each list's buffer (for tests of reuse).
    #[cfg(test)]
    pub(super) fn buffers(&self) -> Vec<*const u32> {
        [&self.near, &self.next, &self.settle, &self.far].map(Vec::as_ptr).into()
    }
}

/// Settles every cell `goals` reach on `grid`, writing each one's cost to the nearest
/// goal into `costs` (padded cells; on entry `−∞` on walls and `+∞` elsewhere), with
/// buckets `1 / per_step` wide. `marks` (one per padded cell, none [`IN_RING`] on entry)
/// is scratch: it is left holding marks on some reached cells.
pub(super) fn run(
    grid: &Padded,
    per_step: f32,
    costs: &mut [f32],
    lists: &mut Lists,
    (ring, taken): (&mut Ring, &mut Vec<u32>),
    marks: &mut [u8],
    goals: impl Iterator<Item = u32>,
) {
    // One slot more than cells: a store at a list's end lands even when it is not kept; and
    // room for the whole vector a vector split stores at a list's end.
    let len = costs.len() + 1 + SLACK;
    let Lists { near, next, settle, far } = lists;
    for list in [&mut *near, &mut *next, &mut *settle, &mut *far] {
        if list.len() != len {
            list.clear();
            list.resize(len, 0);
        }
    }
    ring.clear();
    let mut far_off = Far { ring, taken, marks, low: u64::MAX };
    let mut frontier = 0;
    for g in goals {
        if costs[g as usize] != 0.0 {
            costs[g as usize] = 0.0;
            near[frontier] = g;
            frontier += 1;
        }
    }
    let step = Step::new(grid);
    #[cfg(target_arch = "x86_64")]
    let wide = super::x86::Wide::new(costs.len());
    let mut c: u32 = 0;
    loop {
        if frontier == 0 {
            // Nothing in reach: go on from the ring's lowest bucket, if any is left.
            let Some((b, back)) = far_off.resume(costs, per_step, near) else { break };
            c = b;
            frontier = far_off.bring(u64::from(c) + u64::from(WINDOW), costs, per_step, near, back);
            continue;
        }
        let settled_below = threshold(u64::from(c) + 1, per_step);
        let far_from = threshold(u64::from(c) + u64::from(WINDOW), per_step);
        // Split the frontier: the lowest bucket, the cells to keep, and the far ones.
        for list in [&mut *settle, &mut *next, &mut *far] {
            room(list, frontier);
        }
        let (bounds, lists) = ([settled_below, far_from], [&mut settle[..], &mut next[..], &mut far[..]]);
        #[cfg(target_arch = "x86_64")]
        let [settling, mut kept, leaving] = match wide {
            Some(wide) => wide.split(&near[..frontier], costs, bounds, lists),
            None => split(&near[..frontier], costs, bounds, lists),
        };
        #[cfg(not(target_arch = "x86_64"))]
        let [settling, mut kept, leaving] = split(&near[..frontier], costs, bounds, lists);
        for &u in &far[..leaving] {
            far_off.push(bucket(costs[u as usize], per_step), u);
        }
        if settling == 0 {
            // The lowest bucket is empty: on to the lowest one held.
            c = next[..kept]
                .iter()
                .map(|&u| bucket(costs[u as usize], per_step))
                .min()
                .map_or(c.saturating_add(WINDOW), |b| b.max(c.saturating_add(1)));
        } else {
            // Each cell settled adds at most eight.
            room(next, kept + 8 * settling);
            let next = &mut next[..];
            for &v in &settle[..settling] {
                step.offer(v as usize, costs, next, &mut kept, [settled_below, far_from]);
            }
            c = c.saturating_add(1);
        }
        std::mem::swap(near, next);
        frontier = far_off.bring(u64::from(c) + u64::from(WINDOW), costs, per_step, near, kept);
    }
}

/// Grows `list` (never shrinks it) to hold `cells` cells and what a step past them writes:
/// one slot for a store that is not kept, and a vector split's slack. A cell is listed in
/// the frontier once, save that one lowered again in the round it was first offered a cost
/// due far ahead is listed again (the two entries are settled together, or go to the ring
/// together and its marks let one come back). So a list's usual size is the map's, and
/// room is checked once a round, never per cell.
#[inline]
fn room(list: &mut Vec<u32>, cells: usize) {
    let want = cells + 1 + SLACK;
    if list.len() < want {
        list.resize(want, 0);
    }
}

/// Splits the frontier `near` into the cells of the lowest bucket (cost below
/// `settled_below`, into `settle`), the far ones (cost at least `far_from`, into `far`) and
/// the rest (into `keep`), in order and without a branch; returns how many went each way
/// (settle, keep, far).
#[inline(never)]
fn split(near: &[u32], costs: &[f32], bounds: [f32; 2], lists: [&mut [u32]; 3]) -> [usize; 3] {
    let ([settled_below, far_from], [settle, keep, far]) = (bounds, lists);
    let (mut settling, mut kept, mut leaving) = (0, 0, 0);
    for &u in near {
        let cost = costs[u as usize];
        let (now, away) = (cost < settled_below, cost >= far_from);
        settle[settling] = u;
        keep[kept] = u;
        far[leaving] = u;
        settling += usize::from(now);
        leaving += usize::from(away);
        kept += usize::from(!now & !away);
    }
    [settling, kept, leaving]
}

/// The cells waiting in the ring, and the lowest bucket the ring may hold.
struct Far<'a> {
    ring: &'a mut Ring,
    /// A bucket taken from the ring.
    taken: &'a mut Vec<u32>,
    /// Per padded cell, [`IN_RING`] from when the cell is put in the ring until it is taken
    /// back into the frontier. A cell lowered while it waits may be put in again, so it may
    /// have several entries, of one bucket or more: only the first that still holds its
    /// bucket comes back, so no cell is ever twice in the frontier.
    marks: &'a mut [u8],
    /// No bucket below this holds a cell.
    low: u64,
}

/// A cell's mark while it waits in the ring.
const IN_RING: u8 = 1;

impl Far<'_> {
    /// Puts cell `u` in bucket `b`.
    fn push(&mut self, b: u32, u: u32) {
        self.low = self.low.min(u64::from(b));
        self.marks[u as usize] = IN_RING;
        self.ring.push(b, u);
    }

    /// Moves the ring's lowest bucket into the empty frontier `near` (those of its cells that
    /// still wait there); returns the bucket's number and the frontier's new length, or
    /// `None` when the ring is empty.
    fn resume(&mut self, costs: &[f32], per_step: f32, near: &mut Vec<u32>) -> Option<(u32, usize)> {
        let b = self.ring.take(self.taken)?;
        self.low = u64::from(b);
        Some((b, self.admit(b, costs, per_step, near, 0)))
    }

    /// Moves the buckets below `below` into the frontier `near` (holding `frontier`
    /// cells), and returns its new length.
    #[inline]
    fn bring(
        &mut self,
        below: u64,
        costs: &[f32],
        per_step: f32,
        near: &mut Vec<u32>,
        mut frontier: usize,
    ) -> usize {
        if self.low >= below {
            return frontier;
        }
        while let Some(b) = self.ring.take_below(below, self.taken) {
            frontier = self.admit(b, costs, per_step, near, frontier);
        }
        self.low = below;
        frontier
    }

    /// Appends to `near` (holding `frontier` cells) the cells of bucket `b`, just taken
    /// from the ring, that are still waiting and still cost what put them there (a cell
    /// lowered since has left the ring, or waits in a lower bucket). Returns the new length.
    fn admit(
        &mut self,
        b: u32,
        costs: &[f32],
        per_step: f32,
        near: &mut Vec<u32>,
        mut frontier: usize,
    ) -> usize {
        room(near, frontier + self.taken.len());
        for &u in self.taken.iter() {
            let mark = &mut self.marks[u as usize];
            let back = (*mark == IN_RING) & (bucket(costs[u as usize], per_step) == b);
            near[frontier] = u;
            frontier += usize::from(back);
            *mark = std::hint::select_unpredictable(back, 0, *mark);
        }
        frontier
    }
}

/// What settling a cell offers its neighbours: the map's penalties, layout and step lengths,
/// copied out of [`Padded`] into locals the settle loop keeps in registers (reading them
/// through `&Padded` in the loop measured 3–5 % slower).
struct Step<'a> {
    penalty: &'a [f32],
    stride: usize,
    straight: f32,
    diagonal: f32,
    eight: bool,
}

impl<'a> Step<'a> {
    fn new(grid: &'a Padded) -> Self {
        Self {
            penalty: &grid.penalty,
            stride: grid.stride,
            straight: grid.straight,
            diagonal: grid.diagonal,
            eight: grid.eight,
        }
    }

    /// Settles padded cell `v`: offers each neighbour its cost plus the step into `v`
    /// (walking from the neighbour to the goal passes through `v`), a diagonal only where
    /// both cells beside it are open (no corner cutting). A neighbour that the offer lowers
    /// joins the frontier `next` (holding `kept` cells) if it was out of it: never reached,
    /// settled already (`cost < settled_below`, the `f32` rounding above) or waiting in the
    /// ring (`cost ≥ far_from`).
    #[inline(always)]
    fn offer(&self, v: usize, costs: &mut [f32], next: &mut [u32], kept: &mut usize, bounds: [f32; 2]) {
        let [settled_below, far_from] = bounds;
        let (here, penalty) = (costs[v], self.penalty[v]);
        let straight = here + (self.straight + penalty);
        let diagonal = here + (self.diagonal + penalty);
        let s = self.stride;
        // Offers `o` to `u`; returns whether `u` is open.
        let mut offer = |u: usize, o: f32| {
            let old = costs[u];
            let lower = o < old;
            costs[u] = std::hint::select_unpredictable(lower, o, old);
            next[*kept] = u as u32;
            *kept += usize::from(lower & ((old < settled_below) | (old >= far_from)));
            old != f32::NEG_INFINITY
        };
        let r = offer(v + 1, straight);
        let l = offer(v - 1, straight);
        let d = offer(v + s, straight);
        let u = offer(v - s, straight);
        if self.eight {
            let only = |open: bool| std::hint::select_unpredictable(open, diagonal, f32::INFINITY);
            offer(v + s + 1, only(r & d));
            offer(v + s - 1, only(l & d));
            offer(v - s + 1, only(r & u));
            offer(v - s - 1, only(l & u));
        }
    }
}
