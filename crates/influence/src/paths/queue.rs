//! The best-first engine's queue.
//!
//! Entries are keys packed into one `u64`: the value's bits mapped to an order-reversing
//! `u32` in the high half, the cell in the low half, so the smallest key is the largest value
//! and, among equal values, the smaller cell (determinism). Whatever structure holds them,
//! the queue pops exactly what one binary heap of all the keys would (a unit test checks it
//! against `BinaryHeap`), so results and visit order do not depend on it.
//!
//! A sweep starts with a binary heap, which is all in L1 while the queue is small (a path
//! falloff of a few hundred cells). Past 1,024 keys (an A* search's wider keys: past 64) it
//! becomes a monotone *radix heap* on the value half: a sweep only queues values no larger than the one it settles,
//! so bucket `i` holds the keys whose value half first differs from a frame value at bit
//! `i`, the smallest key is always in the lowest non-empty bucket, and a key only ever moves
//! to lower buckets, a few times in all, each move a sequential push instead of a sift
//! through a heap too big for the cache. The lowest bucket is taken out whole when small and
//! sorted; otherwise it is split around its smallest value, and the keys with exactly that
//! value (a tie group: diffusion from equal seeds makes groups of thousands) are sorted by
//! cell, by radix when large, and popped in order. A key at or above the frame (a zero-length
//! edge, decay 0, a value that rounds back to itself) goes to the binary heap, which is
//! drained alongside the current run.
//!
//! On the steady state's sweep (`influence bench --kernels steady`) a binary heap took about
//! 1.45 times as long as the radix heap at 1024², and a 4-ary heap about 1.3 times; at 256²
//! both about 1.1 times.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The queue key of `value` at `cell`: the value's bits mapped to a `u32` that orders them
/// opposite to `f32::total_cmp` in the high half, the cell in the low half, so the smallest
/// key pops first: the largest value and, among equal values, the smaller cell. Cells fit in
/// 32 bits: spaces hold at most 2²⁸.
pub(super) fn key(value: f32, cell: usize) -> u64 {
    let bits = value.to_bits();
    let ordered = if bits >> 31 == 1 { !bits } else { bits | 1 << 31 };
    u64::from(!ordered) << 32 | cell as u64
}

pub(super) fn key_value(key: u64) -> f32 {
    let ordered = !((key >> 32) as u32);
    f32::from_bits(if ordered >> 31 == 1 { ordered & !(1 << 31) } else { !ordered })
}

pub(super) fn key_cell(key: u64) -> usize {
    key as u32 as usize
}

/// A queue key: ordered as a whole, split into buckets by its top 32 bits (its value half).
/// Sweeps use `u64` keys ([`key`]); the A* search `u128` keys, its estimate in the top 32
/// bits, then its cost so far and its cell (`paths::search_key`).
pub(crate) trait Key: Copy + Ord + Default + std::fmt::Debug {
    /// Keys the queue holds in its binary heap before it switches to buckets.
    const HEAP_MAX: usize;

    /// The value half: the top 32 bits.
    fn high(self) -> u32;

    /// Sorts keys of equal value halves in descending order (a run, popped from the end).
    fn sort_ties(keys: &mut Vec<Self>, _spare: &mut Vec<Self>) {
        keys.sort_unstable_by(|a, b| b.cmp(a));
    }
}

impl Key for u64 {
    const HEAP_MAX: usize = HEAP_MAX;

    #[inline]
    fn high(self) -> u32 {
        (self >> 32) as u32
    }

    fn sort_ties(keys: &mut Vec<Self>, spare: &mut Vec<Self>) {
        sort_run(keys, spare);
    }
}

impl Key for u128 {
    const HEAP_MAX: usize = A_STAR_HEAP_MAX;

    #[inline]
    fn high(self) -> u32 {
        (self >> 96) as u32
    }
}

/// The value half of a key.
#[inline]
fn high<K: Key>(key: K) -> u32 {
    key.high()
}

/// A min-queue of keys: a binary heap while small, then a radix heap (see the module docs).
/// It pops exactly what one binary heap of the same keys would, whatever is pushed; it is
/// fast when keys are pushed no lower than the last popped one's value half.
#[derive(Debug, Default, Clone)]
pub(crate) struct Queue<K: Key = u64> {
    /// The value half the buckets are relative to: every key in a bucket is above it,
    /// every key in `run` and `early` at or below it.
    frame: u32,
    /// Bucket `i`: keys whose value half first differs from `frame` at bit `i`.
    buckets: [Vec<K>; 32],
    /// Bit `i` set when bucket `i` is not empty.
    occupied: u32,
    /// The keys of one bucket taken out whole (a tie group, or a small bucket), in
    /// descending order: popped from the end.
    run: Vec<K>,
    /// Keys pushed at or below `frame`: all of them until the queue outgrows [`HEAP_MAX`],
    /// then those that land within or above the current run (rare but for small runs, which
    /// span several values).
    early: BinaryHeap<Reverse<K>>,
    /// Whether the buckets are in use this sweep.
    radix: bool,
    /// Scratch for [`Key::sort_ties`].
    spare: Vec<K>,
}

/// Keys a sweep's queue holds in its binary heap before it switches to buckets: a sweep that
/// stays small (a path falloff of a few hundred cells) keeps the heap, which is then all in L1.
const HEAP_MAX: usize = 1024;
/// The same for the A* search's wide keys. Its frontier is long-lived: on a maze it stays
/// under 1,024 keys for the whole search, and every pop sifted 16-byte keys through ten
/// levels of heap; past 64 keys the buckets take them (maze512: a route in 0.90× the
/// time, the same pops).
const A_STAR_HEAP_MAX: usize = 64;
/// A bucket this small is sorted whole rather than split further.
const SMALL_RUN: usize = 128;
/// Tie groups this large are sorted by radix on the cell, smaller ones by comparison.
const RADIX_SORT_MIN: usize = 512;

impl<K: Key> Queue<K> {
    pub(crate) fn clear(&mut self) {
        let mut occupied = self.occupied;
        while occupied != 0 {
            self.buckets[occupied.trailing_zeros() as usize].clear();
            occupied &= occupied - 1;
        }
        self.occupied = 0;
        self.frame = u32::MAX;
        self.radix = false;
        self.run.clear();
        self.early.clear();
    }

    #[inline]
    pub(crate) fn push(&mut self, key: K) {
        let h = high(key);
        if h <= self.frame {
            self.early.push(Reverse(key));
            if !self.radix && self.early.len() > K::HEAP_MAX {
                self.switch_to_buckets();
            }
        } else {
            let i = 31 - (h ^ self.frame).leading_zeros();
            self.buckets[i as usize].push(key);
            self.occupied |= 1 << i;
        }
    }

    /// Moves the keys of the binary heap into the buckets, relative to the largest value
    /// (the smallest value half, the top's), whose keys stay in the heap; the heap keeps its
    /// allocation.
    #[cold]
    fn switch_to_buckets(&mut self) {
        self.radix = true;
        let Some(&Reverse(top)) = self.early.peek() else { return };
        let frame = high(top);
        self.frame = frame;
        let (buckets, occupied) = (&mut self.buckets, &mut self.occupied);
        let mut keys = std::mem::take(&mut self.early).into_vec();
        keys.retain(|&Reverse(k)| {
            let h = high(k);
            if h != frame {
                let i = 31 - (h ^ frame).leading_zeros();
                buckets[i as usize].push(k);
                *occupied |= 1 << i;
            }
            h == frame
        });
        self.early = BinaryHeap::from(keys);
    }

    /// The smallest key: every bucket key's value half is above `frame`, every run and early
    /// key's at or below it, so the smallest is the smaller of the run's last key and the top
    /// of the early heap, and only when both are empty do the buckets give the next run.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<K> {
        loop {
            if let Some(&Reverse(e)) = self.early.peek() {
                if self.run.last().is_none_or(|&t| e < t) {
                    self.early.pop();
                    return Some(e);
                }
            }
            if let Some(t) = self.run.pop() {
                return Some(t);
            }
            if self.occupied == 0 {
                return None;
            }
            self.refill();
        }
    }

    /// Takes the lowest non-empty bucket, whose keys are below all others, as the next run:
    /// sorted whole when small, else split around its smallest value half, the keys with
    /// that value (a tie group) becoming the run and the rest moving to lower buckets. Either
    /// way `frame` becomes the largest value half in the run, and the buckets left stay valid
    /// relative to it: it agrees with the old frame above bit `i`.
    fn refill(&mut self) {
        let i = self.occupied.trailing_zeros() as usize;
        let mut bucket = std::mem::take(&mut self.buckets[i]);
        self.occupied &= !(1 << i);
        if bucket.len() <= SMALL_RUN {
            bucket.sort_unstable_by(|a, b| b.cmp(a));
            self.frame = high(bucket[0]);
            std::mem::swap(&mut self.run, &mut bucket);
            self.buckets[i] = bucket;
            return;
        }
        self.frame = bucket.iter().map(|&k| high(k)).min().unwrap_or(self.frame);
        for &k in &bucket {
            let h = high(k);
            if h == self.frame {
                self.run.push(k);
            } else {
                let j = 31 - (h ^ self.frame).leading_zeros();
                self.buckets[j as usize].push(k);
                self.occupied |= 1 << j;
            }
        }
        bucket.clear();
        self.buckets[i] = bucket;
        K::sort_ties(&mut self.run, &mut self.spare);
    }
}

/// Sorts a tie group (keys with equal value halves) in descending order: by cell, with a
/// least-significant-digit radix sort when the group is large.
fn sort_run(keys: &mut Vec<u64>, spare: &mut Vec<u64>) {
    const DIGIT: u32 = 11;
    const MASK: u64 = (1 << DIGIT) - 1;
    if keys.len() < RADIX_SORT_MIN {
        keys.sort_unstable_by(|a, b| b.cmp(a));
        return;
    }
    let bits = 32 - keys.iter().fold(0u32, |m, &k| m | k as u32).leading_zeros();
    spare.clear();
    spare.resize(keys.len(), 0);
    let mut shift = 0;
    while shift < bits {
        let mut at = [0u32; 1 << DIGIT];
        for &k in keys.iter() {
            at[(k >> shift & MASK) as usize] += 1;
        }
        let mut next = 0;
        for slot in at.iter_mut().rev() {
            (*slot, next) = (next, next + *slot);
        }
        for &k in keys.iter() {
            let slot = &mut at[(k >> shift & MASK) as usize];
            spare[*slot as usize] = k;
            *slot += 1;
        }
        std::mem::swap(keys, spare);
        shift += DIGIT;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_keys_round_trip_and_order_like_total_cmp() {
        let values = [-f32::INFINITY, -3.5, -1e-30, -0.0, 0.0, 1e-30, 2.0, 7.25, f32::MAX];
        for (i, &v) in values.iter().enumerate() {
            let k = key(v, 1000 + i);
            assert_eq!((key_value(k).to_bits(), key_cell(k)), (v.to_bits(), 1000 + i));
            for &w in &values {
                // The larger value is the smaller key, popped first.
                let order = v.total_cmp(&w);
                assert_eq!(key(w, 5).cmp(&key(v, 5)), order, "{v} vs {w}");
            }
        }
        // Equal values: the smaller cell is the smaller key, popped first.
        assert!(key(1.0, 3) < key(1.0, 4));
    }

    /// The queue pops exactly what a binary heap of the same keys pops, whatever is pushed:
    /// mostly keys no lower than the last popped value, as sweeps push, but also ties, keys
    /// above the current value and repeats; small queues and large ones (the buckets), and
    /// tie groups large enough for the radix sort.
    #[test]
    fn queue_pops_in_binary_heap_order() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut queue = Queue::default();
        let (mut most, mut radix_sorted) = (0, false);
        for round in 0..40 {
            queue.clear();
            let mut heap = BinaryHeap::new();
            let spread = [1u64, 3, 1 << 10, 1 << 24, 1 << 33][round % 5];
            let pushes_per_pop = 1 + round as u64 % 4;
            let mut last = 1u64 << 40;
            for _ in 0..6000 {
                if next() % (pushes_per_pop + 1) != 0 {
                    let h = last >> 32;
                    let h = match next() % 8 {
                        0 => h,
                        1 => h.saturating_sub(1 + next() % 4),
                        _ => h + next() % spread + 1,
                    };
                    let k = (h.min(u64::from(u32::MAX)) << 32) | (next() % (1 << 20));
                    queue.push(k);
                    heap.push(Reverse(k));
                    most = most.max(heap.len());
                } else {
                    let got = queue.pop();
                    radix_sorted |= queue.run.len() >= RADIX_SORT_MIN;
                    assert_eq!(got, heap.pop().map(|Reverse(k)| k));
                    last = got.unwrap_or(last);
                }
            }
            while let Some(Reverse(k)) = heap.pop() {
                assert_eq!(queue.pop(), Some(k));
            }
            assert_eq!(queue.pop(), None);
        }
        assert!(most > HEAP_MAX && radix_sorted, "{most}");
    }

    /// Wide keys (the A* search's: estimate, cost so far, cell) pop as a binary heap of
    /// them would too: ties on the value half are broken by the whole rest of the key.
    #[test]
    fn wide_keys_pop_in_binary_heap_order() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut queue = Queue::<u128>::default();
        let mut heap = BinaryHeap::new();
        let mut last = 0u128;
        for _ in 0..5000 {
            if next() % 3 != 0 {
                // Value halves mostly at or above the last popped one, with many ties.
                let h = (last >> 96) as u64 + next() % 40;
                let k = u128::from(h.min(u64::from(u32::MAX))) << 96
                    | u128::from(next() % 8) << 64
                    | u128::from(next() % 64);
                queue.push(k);
                heap.push(Reverse(k));
            } else {
                let got = queue.pop();
                assert_eq!(got, heap.pop().map(|Reverse(k)| k));
                last = got.unwrap_or(last);
            }
        }
        while let Some(Reverse(k)) = heap.pop() {
            assert_eq!(queue.pop(), Some(k));
        }
        assert_eq!(queue.pop(), None);
    }
}
