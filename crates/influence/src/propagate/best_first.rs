//! A best-first (largest value first) sweep over any space: the max-product counterpart of
//! the shortest-distance sweep in [`crate::paths`]. Values only shrink along edges, so the
//! first time a cell is taken from the queue its value is final, as in Dijkstra's algorithm.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::space::Space;

/// Reusable scratch: per-cell best values valid for the current generation only, so a
/// sweep that touches few cells of a big space clears nothing.
#[derive(Debug, Default, Clone)]
pub(super) struct BestFirst {
    best: Vec<f32>,
    /// Equal to `generation` when the cell has a value this sweep.
    seen: Vec<u32>,
    /// Equal to `generation` when the cell's value is final this sweep.
    settled: Vec<u32>,
    generation: u32,
    heap: BinaryHeap<Entry>,
}

/// Largest value first, ties by smaller cell index (determinism).
#[derive(Debug, Clone, Copy)]
struct Entry {
    value: f32,
    cell: usize,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        self.value.total_cmp(&other.value).then_with(|| other.cell.cmp(&self.cell))
    }
}

impl BestFirst {
    /// Starts a sweep over a space of `len` cells.
    pub(super) fn begin(&mut self, len: usize) {
        if self.seen.len() != len || self.generation == u32::MAX {
            self.best = vec![0.0; len];
            self.seen = vec![0; len];
            self.settled = vec![0; len];
            self.generation = 0;
        }
        self.generation += 1;
        self.heap.clear();
    }

    /// Offers `value` to `cell`; it is queued if it beats what the cell has (or the cell
    /// has nothing yet) and the cell is not settled.
    pub(super) fn offer(&mut self, cell: usize, value: f32) {
        let g = self.generation;
        if self.settled[cell] == g || (self.seen[cell] == g && value <= self.best[cell]) {
            return;
        }
        self.seen[cell] = g;
        self.best[cell] = value;
        self.heap.push(Entry { value, cell });
    }

    /// Settles cells largest first until the queue is empty: `visit(cell, value)` once per
    /// cell, then `expand(cell, value, neighbour, distance)` for each walkable neighbour,
    /// which returns the value to offer that neighbour, if any.
    pub(super) fn run<S: Space>(
        &mut self,
        space: &S,
        mut visit: impl FnMut(usize, f32),
        mut expand: impl FnMut(usize, f32, usize, f32) -> Option<f32>,
    ) {
        while let Some(Entry { value, cell }) = self.heap.pop() {
            let g = self.generation;
            if self.settled[cell] == g || value < self.best[cell] {
                continue; // settled already, or a stale entry
            }
            self.settled[cell] = g;
            visit(cell, value);
            space.for_each_neighbour(cell, |next, dist| {
                if let Some(v) = expand(cell, value, next, dist) {
                    self.offer(next, v);
                }
            });
        }
    }
}
