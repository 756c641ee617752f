//! A plain binary-heap A* on an 8-connected grid: the baseline that the library's router
//! (`Router::find`) and flow field (`FlowField`) are measured against, in
//! `benches/routes.rs` and in the frame of `influence bench`. Written as a careful engineer
//! would for one game: flat arrays, the neighbours computed in place, packed `u64` keys,
//! the octile estimate and the same costs as `Cost::avoiding`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use influence::{Connectivity, Grid, Layer, Space};

/// A plain binary-heap A* on an 8-connected grid (no corner cutting), entering cell `j` at
/// `d + weight · max(0, layer[j])`, with the octile estimate.
#[derive(Debug, Default)]
pub struct PlainAstar {
    g: Vec<f32>,
    closed: Vec<bool>,
    heap: BinaryHeap<Reverse<u64>>,
}

impl PlainAstar {
    /// An empty search: buffers grow on the first route and are reused.
    pub fn new() -> Self {
        Self { g: Vec::new(), closed: Vec::new(), heap: BinaryHeap::new() }
    }

    /// The cost of the cheapest route from `start` to `goal`, `None` if there is none.
    pub fn find(
        &mut self,
        grid: &Grid,
        start: usize,
        goal: usize,
        layer: &Layer,
        weight: f32,
    ) -> Option<f32> {
        assert_eq!(grid.connectivity(), Connectivity::Eight);
        let (w, h, n) = (grid.width(), grid.height(), grid.len());
        let blocked = grid.blocked();
        let values = layer.values();
        self.g.clear();
        self.g.resize(n, f32::INFINITY);
        self.closed.clear();
        self.closed.resize(n, false);
        self.heap.clear();
        let (gx, gy) = ((goal % w) as f32, (goal / w) as f32);
        let octile = |c: usize| {
            let (dx, dy) = (((c % w) as f32 - gx).abs(), ((c / w) as f32 - gy).abs());
            dx.max(dy) + (std::f32::consts::SQRT_2 - 1.0) * dx.min(dy)
        };
        // f ≥ 0, so its bits order as the numbers do; the cell breaks ties.
        let key = |f: f32, c: usize| u64::from(f.to_bits()) << 32 | c as u64;
        self.g[start] = 0.0;
        self.heap.push(Reverse(key(octile(start), start)));
        let diagonal = std::f32::consts::SQRT_2;
        while let Some(Reverse(k)) = self.heap.pop() {
            let v = k as u32 as usize;
            if self.closed[v] {
                continue;
            }
            if v == goal {
                return Some(self.g[v]);
            }
            self.closed[v] = true;
            let gv = self.g[v];
            let (x, y) = (v % w, v / w);
            let right = x + 1 < w && !blocked[v + 1];
            let left = x > 0 && !blocked[v - 1];
            let down = y + 1 < h && !blocked[v + w];
            let up = y > 0 && !blocked[v - w];
            let mut relax = |u: usize, d: f32| {
                let c = gv + (d + weight * values[u].max(0.0));
                if c < self.g[u] {
                    self.g[u] = c;
                    self.heap.push(Reverse(key(c + octile(u), u)));
                }
            };
            for (open, u) in
                [(right, v + 1), (left, v.wrapping_sub(1)), (down, v + w), (up, v.wrapping_sub(w))]
            {
                if open {
                    relax(u, 1.0);
                }
            }
            for (open, u) in [
                (right && down, v + w + 1),
                (left && down, (v + w).wrapping_sub(1)),
                (right && up, v.wrapping_sub(w) + 1),
                (left && up, v.wrapping_sub(w + 1)),
            ] {
                if open && !blocked[u] {
                    relax(u, diagonal);
                }
            }
        }
        None
    }
}
