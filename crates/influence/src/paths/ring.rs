//! The grid searches' queue: Dial's buckets, as wide as the cheapest step or a fraction of it.
//!
//! On a grid every step costs at least one straight step `δ` (penalties only add), so the
//! searches of grids key their cells by `⌊cost / δ⌋` (A*: `⌊4 f / δ⌋`) and need no order inside a key: the
//! flow field's Dijkstra and A* alike (see `route/flow/` and `Router::astar_grid` for
//! why each stays exact). [`Ring`] holds the keys a search can reach from the bucket being
//! emptied in a ring of lists, so a push is a `Vec` push with no comparisons and a search
//! takes a bucket whole and walks it as a slice; a key too far ahead for the ring (a huge
//! penalty) waits in a binary heap and moves into the ring when the ring reaches it.
//! [`Ring::take_below`] takes only buckets below a bound: the flow field's frontier search
//! keeps its far cells here and takes them back as its window reaches them.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Buckets the ring holds at once: a power of two, so a bucket's slot is a mask. A step
/// moves a flow field's key by its cost in straight steps, and an A* key by up to twice
/// that in quarter steps (the estimate changes too): 1,024 slots hold every step of
/// penalty up to about 120 straight steps in A*, 1,000 in a field. Longer steps go to the
/// heap.
const SLOTS: u32 = 1024;

/// The bucket of `value` for buckets `1 / per_width` wide: `⌊value · per_width⌋`, monotone
/// in `value` (so the ring's order is the values' order, to a bucket), and saturating at
/// `u32::MAX` for infinite or huge values (the ring's heap holds them).
#[inline(always)]
pub(crate) fn bucket(value: f32, per_width: f32) -> u32 {
    (value * per_width) as u32
}

/// [`bucket`]'s inverse: the smallest value `x` whose bucket `⌊x · per_width⌋` (as `bucket`
/// computes it, in `f32`) is at least `b`, so that `x < threshold(b)` exactly when `x`'s
/// bucket is below `b`; infinite past the last bucket. A search that compares values with
/// bucket edges (the flow field's frontier) needs no conversion per value.
pub(crate) fn threshold(b: u64, per_width: f32) -> f32 {
    if b > u64::from(u32::MAX) {
        return f32::INFINITY;
    }
    let want = b as f32;
    if per_width == 1.0 {
        return want;
    }
    let mut x = want / per_width;
    while x > 0.0 && x * per_width >= want {
        x = x.next_down();
    }
    while x * per_width < want {
        x = x.next_up();
    }
    x
}

/// A monotone queue of cells by bucket number: [`take`](Self::take) gives the lowest bucket
/// whole, and a push below the bucket being emptied joins that bucket. Inside a bucket the
/// order is deterministic but not by value: the order of the pushes, after the keys that
/// waited in the heap, which join their bucket by cell.
#[derive(Debug, Clone, Default)]
pub(crate) struct Ring {
    /// Slot `b % SLOTS` holds the cells of bucket `b`, for `current ≤ b < current + SLOTS`.
    slots: Vec<Vec<u32>>,
    /// The bucket being emptied.
    current: u32,
    /// Cells in the slots.
    held: usize,
    /// Keys `bucket << 32 | cell` of buckets at or past `current + SLOTS`.
    far: BinaryHeap<Reverse<u64>>,
}

impl Ring {
    /// Empties the queue, keeping its memory.
    pub(crate) fn clear(&mut self) {
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS as usize, Vec::new);
        }
        for slot in &mut self.slots {
            slot.clear();
        }
        self.current = 0;
        self.held = 0;
        self.far.clear();
    }

    /// Queues `cell` in bucket `key` (or the bucket being emptied, if `key` is below it).
    #[inline]
    pub(crate) fn push(&mut self, key: u32, cell: u32) {
        let key = key.max(self.current);
        if key - self.current < SLOTS {
            self.slots[(key % SLOTS) as usize].push(cell);
            self.held += 1;
        } else {
            self.far.push(Reverse(u64::from(key) << 32 | u64::from(cell)));
        }
    }

    /// Takes the lowest bucket whole: its number, and its cells copied into `cells`
    /// (cleared first; each buffer keeps its memory, so once grown nothing is allocated).
    /// Cells pushed to that bucket meanwhile are taken by the next call. `None` when the
    /// queue is empty.
    #[inline]
    pub(crate) fn take(&mut self, cells: &mut Vec<u32>) -> Option<u32> {
        self.take_below(u64::MAX, cells)
    }

    /// [`take`](Self::take), if the lowest bucket is below `limit`; otherwise `None`, with
    /// nothing taken (the ring moves on to `limit` at most, so pushes at or past `limit`
    /// still join their own buckets).
    #[inline]
    pub(crate) fn take_below(&mut self, limit: u64, cells: &mut Vec<u32>) -> Option<u32> {
        cells.clear();
        loop {
            if u64::from(self.current) >= limit {
                return None;
            }
            let slot = &mut self.slots[(self.current % SLOTS) as usize];
            if !slot.is_empty() {
                cells.extend_from_slice(slot);
                slot.clear();
                self.held -= cells.len();
                return Some(self.current);
            }
            if self.held == 0 {
                let &Reverse(key) = self.far.peek()?;
                if key >> 32 >= limit {
                    return None;
                }
                self.current = (key >> 32) as u32;
            } else {
                self.current += 1;
            }
            self.take_from_far();
        }
    }

    /// Moves the heap's keys that the ring now reaches into their slots.
    #[inline]
    fn take_from_far(&mut self) {
        while let Some(&Reverse(key)) = self.far.peek() {
            let bucket = (key >> 32) as u32;
            if bucket - self.current >= SLOTS {
                break;
            }
            self.far.pop();
            self.slots[(bucket % SLOTS) as usize].push(key as u32);
            self.held += 1;
        }
    }

    /// Each slot's buffer and capacity (for tests of reuse).
    #[cfg(test)]
    pub(crate) fn slot_buffers(&self) -> Vec<(*const u32, usize)> {
        self.slots.iter().map(|s| (s.as_ptr(), s.capacity())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cell pushed, bucket by bucket, in bucket order.
    fn drain(ring: &mut Ring) -> Vec<(u32, Vec<u32>)> {
        let mut cells = Vec::new();
        std::iter::from_fn(|| ring.take(&mut cells).map(|b| (b, cells.clone()))).collect()
    }

    /// Buckets come out lowest first, near (in the ring) and far (in the heap) alike, each
    /// holding exactly the cells pushed to it; pushes below the current bucket join it, and
    /// pushes to the bucket being taken come out in the next take.
    #[test]
    fn takes_each_bucket_whole_lowest_first() {
        let mut ring = Ring::default();
        ring.clear();
        let mut want = std::collections::BTreeMap::<u32, Vec<u32>>::new();
        // A deterministic scramble of buckets, near and far.
        let mut x = 12345u32;
        for cell in 0..2000u32 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let key = [x % 7, x % 300, x % 5000, u32::MAX - x % 3][(x >> 20) as usize % 4];
            ring.push(key, cell);
            want.entry(key).or_default().push(cell);
        }
        let got = drain(&mut ring);
        assert!(got.windows(2).all(|w| w[0].0 < w[1].0), "each bucket once, lowest first");
        let got: std::collections::BTreeMap<u32, Vec<u32>> = got
            .into_iter()
            .map(|(b, mut cells)| {
                cells.sort_unstable();
                (b, cells)
            })
            .collect();
        assert_eq!(got, want);

        ring.clear();
        ring.push(10, 1);
        let mut cells = Vec::new();
        assert_eq!(ring.take(&mut cells), Some(10));
        assert_eq!(cells, [1]);
        ring.push(3, 2); // below the bucket being taken: joins it
        ring.push(12, 3);
        assert_eq!(ring.take(&mut cells), Some(10));
        assert_eq!(cells, [2]);
        assert_eq!(ring.take(&mut cells), Some(12));
        assert_eq!(cells, [3]);
        assert_eq!(ring.take(&mut cells), None);
    }

    /// The threshold of bucket `b` splits costs exactly where [`bucket`] does, for cell
    /// sizes whose inverse is not exact in `f32`.
    #[test]
    fn thresholds_split_where_buckets_do() {
        for per_width in [1.0f32, 1.0 / 3.0, 1.0 / 0.7, 10.0, 0.015_625] {
            for b in [1u64, 2, 3, 7, 100, 12_345, 1 << 20] {
                let t = threshold(b, per_width);
                assert!(u64::from(bucket(t, per_width)) >= b, "{per_width} {b}");
                assert!(u64::from(bucket(t.next_down(), per_width)) < b, "{per_width} {b}");
            }
        }
        assert_eq!(threshold(u64::from(u32::MAX) + 1, 1.0), f32::INFINITY);
    }

    /// Only buckets below the limit are taken, and a refused take loses nothing.
    #[test]
    fn takes_below_a_limit_only() {
        let mut ring = Ring::default();
        ring.clear();
        for (key, cell) in [(4, 0), (9, 1), (9, 2), (5000, 3)] {
            ring.push(key, cell);
        }
        let mut cells = Vec::new();
        assert_eq!(ring.take_below(4, &mut cells), None);
        assert_eq!(ring.take_below(5, &mut cells), Some(4));
        assert_eq!(cells, [0]);
        assert_eq!(ring.take_below(9, &mut cells), None);
        ring.push(10, 4); // past the limit the ring stopped at: its own bucket
        assert_eq!(ring.take_below(10, &mut cells), Some(9));
        assert_eq!(cells, [1, 2]);
        assert_eq!(ring.take_below(11, &mut cells), Some(10));
        assert_eq!(cells, [4]);
        assert_eq!(ring.take_below(4999, &mut cells), None);
        assert_eq!(ring.take_below(u64::MAX, &mut cells), Some(5000));
        assert_eq!(cells, [3]);
        assert_eq!(ring.take_below(u64::MAX, &mut cells), None);
    }

    /// A bucket's cells come out in the order they were pushed.
    #[test]
    fn a_bucket_keeps_its_push_order() {
        let mut ring = Ring::default();
        ring.clear();
        for cell in 0..5 {
            ring.push(2, cell);
        }
        assert_eq!(drain(&mut ring), [(2, vec![0, 1, 2, 3, 4])]);
    }
}
