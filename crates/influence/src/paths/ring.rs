//! The grid searches' queue: Dial's buckets, one per cheapest step.
//!
//! On a grid every step costs at least one straight step `δ` (penalties only add), so the
//! searches of grids key their cells by `⌊cost / δ⌋` and need no order inside a key: the
//! flow field's Dijkstra and A* alike (see `route/flow.rs` and `Router::astar_grid` for
//! why each stays exact). [`Ring`] holds the keys a search can reach from the bucket being
//! emptied in a ring of stacks, so a push and a pop are a `Vec` push and pop with no
//! comparisons; a key too far ahead for the ring (a huge penalty) waits in a binary heap
//! and moves into the ring when the ring reaches it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Buckets the ring holds at once: a power of two, so a bucket's slot is a mask. A step
/// moves a flow field's key by its cost in straight steps, and an A* key by up to twice
/// that in quarter steps (the estimate changes too): 1,024 slots hold every step of
/// penalty up to about 120 straight steps in A*, 1,000 in a field. Longer steps go to the
/// heap.
const SLOTS: u32 = 1024;

/// A monotone queue of cells by bucket number: a pop gives a cell of the lowest bucket, and a
/// push below the bucket being emptied joins that bucket. Inside a bucket the order is
/// deterministic but not by value: the last pushed pops first, and keys that waited in the
/// heap join their bucket by cell.
#[derive(Debug, Clone, Default)]
pub(crate) struct Ring {
    /// Stack `b % SLOTS` holds the cells of bucket `b`, for `current ≤ b < current + SLOTS`.
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

    /// A cell of the lowest bucket, with the bucket, the last pushed first.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(u32, u32)> {
        loop {
            if let Some(cell) = self.slots[(self.current % SLOTS) as usize].pop() {
                self.held -= 1;
                return Some((self.current, cell));
            }
            if self.held == 0 {
                // Nothing near: jump to the heap's lowest bucket (or stop).
                let &Reverse(key) = self.far.peek()?;
                self.current = (key >> 32) as u32;
            } else {
                // A slot ahead holds a bucket > current, so this cannot overflow.
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

    /// Pops come in bucket order, the last pushed first within a bucket, across the ring
    /// and the heap alike; pushes below the current bucket join it.
    #[test]
    fn pops_lowest_bucket_last_in_first() {
        let mut ring = Ring::default();
        ring.clear();
        let mut want = Vec::new();
        // A deterministic scramble of buckets, near and far.
        let mut x = 12345u32;
        for cell in 0..2000u32 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let key = [x % 7, x % 300, x % 5000, u32::MAX - x % 3][(x >> 20) as usize % 4];
            ring.push(key, cell);
            want.push((key, cell));
        }
        // Within a bucket the last pushed pops first: sort by bucket, then push order reversed.
        want.sort_by_key(|&(k, c)| (k, Reverse(c)));
        let mut got = Vec::new();
        while let Some(p) = ring.pop() {
            got.push(p);
        }
        // The heap orders ties by cell (ascending), the ring by push order (descending):
        // compare bucket sequences and the set of cells per bucket.
        assert_eq!(got.len(), want.len());
        assert!(got.windows(2).all(|w| w[0].0 <= w[1].0), "buckets never go down");
        let mut sorted = got.clone();
        sorted.sort_by_key(|&(k, c)| (k, Reverse(c)));
        assert_eq!(sorted, want);
        // A push below the bucket being emptied joins it.
        ring.clear();
        ring.push(10, 1);
        assert_eq!(ring.pop(), Some((10, 1)));
        ring.push(3, 2);
        ring.push(12, 3);
        assert_eq!(ring.pop(), Some((10, 2)));
        assert_eq!(ring.pop(), Some((12, 3)));
        assert_eq!(ring.pop(), None);
    }

    /// Within one bucket, cells reached through the ring pop last in, first out.
    #[test]
    fn a_bucket_is_a_stack() {
        let mut ring = Ring::default();
        ring.clear();
        for cell in 0..5 {
            ring.push(2, cell);
        }
        let order: Vec<_> = std::iter::from_fn(|| ring.pop()).collect();
        assert_eq!(order, [(2, 4), (2, 3), (2, 2), (2, 1), (2, 0)]);
    }
}
