//! Straightforward implementations, written the way the articles' sample code is: per-cell
//! loops with bounds-checked indexing, values recomputed, fresh buffers. They are the
//! baselines that the benchmarks (`cargo bench -p influence-bench`, `influence bench`)
//! measure the library's kernels against in the same run; tests (here, and in
//! [`kernels`](crate::kernels) on the benchmark's maps) hold them to the library's answers.
//! Not part of the library's API: nothing here is for production use.

use influence::glam::Vec3;
use influence::propagate::{Chase, Diffusion, Seed};
use influence::Cell;
use influence::{Connectivity, Grid, Layer, Source, Space};

/// Stamps `sources` (Euclidean distance, additive) the naive way: every cell of each
/// source's bounding box, distance and falloff computed from scratch, checked indexing.
pub fn stamp(grid: &Grid, layer: &mut Layer, sources: &[Source]) {
    let (w, h) = (grid.width() as isize, grid.height() as isize);
    for s in sources {
        let c = (s.position() - grid.origin()) / grid.cell_size(); // in cell units
        let reach = (s.radius() / grid.cell_size()).ceil() as isize + 1;
        let (cx, cy) = (c.x.floor() as isize, c.y.floor() as isize);
        for y in (cy - reach).max(0)..=(cy + reach).min(h - 1) {
            for x in (cx - reach).max(0)..=(cx + reach).min(w - 1) {
                let centre = grid.center(Cell::new(x as usize, y as usize));
                let d = centre.distance(s.position());
                let i = grid.index(Cell::new(x as usize, y as usize)).unwrap();
                if d <= s.radius() && !grid.is_blocked(Cell::new(x as usize, y as usize)) {
                    layer[i] += s.strength() * s.falloff().factor(d, s.radius());
                }
            }
        }
    }
}

/// The `n` highest walkable cells at least `spacing` apart, the plain way: every walkable
/// cell sorted by value (highest first, ties by the lower index), then taken greedily when
/// far enough from every cell taken (NaNs are never taken).
pub fn top_n(grid: &Grid, layer: &Layer, n: usize, spacing: f32) -> Vec<(usize, f32)> {
    let mut cells: Vec<(f32, usize)> = Vec::new();
    for i in 0..grid.len() {
        if grid.is_walkable(i) && !layer[i].is_nan() {
            cells.push((layer[i], i));
        }
    }
    cells.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut chosen: Vec<(usize, f32)> = Vec::new();
    for (v, i) in cells {
        if chosen.len() == n {
            break;
        }
        let p = grid.position(i);
        if chosen.iter().all(|&(j, _)| grid.position(j).distance(p) >= spacing) {
            chosen.push((i, v));
        }
    }
    chosen
}

/// The five compound maps of two teams, each built as a fresh vector with checked indexing:
/// influence, tension, tension product, vulnerability, directed vulnerability.
pub fn analysis(mine: &[f32], theirs: &[f32]) -> [Vec<f32>; 5] {
    let mut influence = Vec::new();
    let mut tension = Vec::new();
    let mut product = Vec::new();
    for i in 0..mine.len() {
        influence.push(mine[i] - theirs[i]);
        tension.push(mine[i] + theirs[i]);
        product.push(mine[i] * theirs[i]);
    }
    let mut vulnerability = Vec::new();
    let mut directed = Vec::new();
    for i in 0..mine.len() {
        vulnerability.push(tension[i] - influence[i].abs());
        directed.push(tension[i] + influence[i]);
    }
    [influence, tension, product, vulnerability, directed]
}

/// A grid seen only as a [`Space`] (its `as_grid` left at `None`): a
/// [`Propagator`](influence::propagate::Propagator) steps it with the generic rule, the one
/// written over any space, instead of the grid's row-wise kernel.
#[derive(Debug, Clone, Copy)]
pub struct GenericSpace<'a>(pub &'a Grid);

impl Space for GenericSpace<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn is_walkable(&self, i: usize) -> bool {
        self.0.is_walkable(i)
    }
    fn for_each_neighbour(&self, i: usize, visit: impl FnMut(usize, f32)) {
        self.0.for_each_neighbour(i, visit);
    }
    fn position(&self, i: usize) -> Vec3 {
        self.0.position(i)
    }
}

/// The diffusion step of "Influence Maps: Part 1": per-cell neighbour checks with bounds tests, the article's
/// `lerp(current, max_neighbour · exp(−decay · dist), momentum)`, then a full copy.
pub struct DiffusionReference {
    /// The map being written.
    pub map: Vec<f32>,
    /// The previous step's values (read), refreshed by a full copy after each step.
    pub buffer: Vec<f32>,
}

impl DiffusionReference {
    /// One step over `grid`; the result is in `buffer` (and `map`).
    pub fn step(&mut self, grid: &Grid, d: &Diffusion) {
        let (w, h) = (grid.width() as isize, grid.height() as isize);
        let straight = (-(d.decay() * grid.cell_size())).exp();
        let diagonal = (-(d.decay() * (grid.cell_size() * std::f32::consts::SQRT_2))).exp();
        let eight = grid.connectivity() == Connectivity::Eight;
        let free = |x: isize, y: isize| {
            x >= 0 && y >= 0 && x < w && y < h && !grid.is_blocked(Cell::new(x as usize, y as usize))
        };
        for y in 0..h {
            for x in 0..w {
                let i = (y * w + x) as usize;
                if !free(x, y) {
                    self.map[i] = 0.0;
                    continue;
                }
                let mut max_influence = 0.0f32;
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    if free(x + dx, y + dy) {
                        let v = self.buffer[((y + dy) * w + x + dx) as usize] * straight;
                        max_influence = if v > max_influence { v } else { max_influence };
                    }
                }
                if eight {
                    for (dx, dy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                        if free(x + dx, y) && free(x, y + dy) && free(x + dx, y + dy) {
                            let v = self.buffer[((y + dy) * w + x + dx) as usize] * diagonal;
                            max_influence = if v > max_influence { v } else { max_influence };
                        }
                    }
                }
                let current = self.buffer[i];
                let v = current + d.momentum() * (max_influence - current);
                self.map[i] = if v.abs() < d.threshold() { 0.0 } else { v };
            }
        }
        self.buffer.copy_from_slice(&self.map);
    }
}

/// The reference diffusion step from rest, seeds written before each step, until a step
/// changes nothing (at most 100,000 steps); the map with the seeds written once more.
pub fn iterate_until_still(grid: &Grid, d: &Diffusion, seeds: &[Seed]) -> Vec<f32> {
    let n = grid.width() * grid.height();
    let mut r = DiffusionReference { map: vec![0.0; n], buffer: vec![0.0; n] };
    let mut previous = vec![0.0; n];
    let write = |buffer: &mut Vec<f32>| {
        for s in seeds {
            buffer[s.cell] = s.strength;
        }
    };
    write(&mut r.buffer);
    for _ in 0..100_000 {
        previous.copy_from_slice(&r.buffer);
        r.step(grid, d);
        write(&mut r.buffer);
        if r.buffer == previous {
            break;
        }
    }
    r.buffer
}

/// The chase flood fill written plainly, as the articles' code is: fresh buffers, each step
/// a scan of the whole map to cool it, and whole-map scans for the centroid and the nearest
/// warm cell. Returns the heat and the predicted cell, which equal `FloodFill::predict`'s.
pub fn plain_flood(grid: &Grid, start: usize, velocity: Vec3, chase: &Chase) -> (Vec<f32>, usize) {
    let (w, h) = (grid.width() as isize, grid.height() as isize);
    let n = grid.width() * grid.height();
    let mut heat = vec![0.0f32; n];
    let mut visited = vec![false; n];
    let free = |x: isize, y: isize| {
        x >= 0 && y >= 0 && x < w && y < h && !grid.is_blocked(Cell::new(x as usize, y as usize))
    };
    let centre = |i: usize| grid.center(Cell::new(i % grid.width(), i / grid.width())).extend(0.0);
    let origin = centre(start);
    let behind = |i: usize| {
        let off = centre(i) - origin;
        off.dot(velocity) < 0.0 && off.length() <= chase.barrier_radius
    };
    let eight = grid.connectivity() == Connectivity::Eight;
    heat[start] = chase.initial_heat;
    visited[start] = true;
    let mut front = vec![start];
    for _ in 0..chase.max_steps {
        let mut next = Vec::new();
        for &c in &front {
            let (x, y) = ((c % grid.width()) as isize, (c / grid.width()) as isize);
            let mut visit = |nx: isize, ny: isize| {
                let j = (ny * w + nx) as usize;
                if !visited[j] && !behind(j) {
                    visited[j] = true;
                    next.push(j);
                }
            };
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                if free(x + dx, y + dy) {
                    visit(x + dx, y + dy);
                }
            }
            if eight {
                for (dx, dy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                    if free(x + dx, y) && free(x, y + dy) && free(x + dx, y + dy) {
                        visit(x + dx, y + dy);
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        for v in &mut heat {
            if *v > 0.0 {
                *v = (*v - chase.cooling).max(0.0);
            }
        }
        for &c in &next {
            heat[c] = chase.initial_heat;
        }
        let too_many = next.len() > chase.max_new;
        front = next;
        if too_many {
            break;
        }
    }
    let (mut sum, mut weight) = ([0f64; 2], 0f64);
    for (i, &v) in heat.iter().enumerate() {
        if v > 0.0 {
            let p = centre(i);
            sum[0] += f64::from(v) * f64::from(p.x);
            sum[1] += f64::from(v) * f64::from(p.y);
            weight += f64::from(v);
        }
    }
    let c = Vec3::new((sum[0] / weight) as f32, (sum[1] / weight) as f32, 0.0);
    let mut best = (f32::INFINITY, start);
    for (i, &v) in heat.iter().enumerate() {
        let d = centre(i).distance_squared(c);
        if v > 0.0 && d < best.0 {
            best = (d, i);
        }
    }
    (heat, best.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use influence::{Analysis, Falloff, Stamper};

    #[test]
    fn naive_stamping_agrees_with_the_stamper() {
        let grid = Grid::from_rows(&["........", "..@@....", "........", "......@."]).unwrap();
        let sources: Vec<Source> = [(1.3, 0.7, 2.0), (5.5, 2.5, -1.0), (7.9, 3.9, 3.0)]
            .iter()
            .map(|&(x, y, s)| Source::new(influence::glam::Vec2::new(x, y), s, Falloff::Linear, 3.0).unwrap())
            .collect();
        let (mut naive, mut fast) = (Layer::for_space(&grid), Layer::for_space(&grid));
        stamp(&grid, &mut naive, &sources);
        Stamper::new().stamp_all(&grid, &mut fast, &sources).unwrap();
        for (a, b) in naive.values().iter().zip(fast.values()) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
    }

    #[test]
    fn naive_diffusion_agrees_with_the_propagator_bit_for_bit() {
        use influence::propagate::{Propagator, Seed, Steps};
        for connectivity in [Connectivity::Four, Connectivity::Eight] {
            let grid = Grid::from_rows(&["......", ".@@...", "....@.", "......"])
                .unwrap()
                .with_connectivity(connectivity);
            let d = Diffusion::new(0.3, 0.7).unwrap();
            let mut fast = Propagator::new(&grid, d);
            let mut naive = DiffusionReference { map: vec![0.0; 24], buffer: vec![0.0; 24] };
            for _ in 0..12 {
                fast.write_seeds(&grid, &[Seed::new(0, 5.0)]).unwrap();
                fast.step(&grid, Steps::default()).unwrap();
                naive.buffer[0] = 5.0;
                naive.step(&grid, &d);
            }
            let same =
                fast.values().values().iter().zip(&naive.buffer).all(|(a, b)| a.to_bits() == b.to_bits());
            assert!(same, "{connectivity:?}");
        }
    }

    #[test]
    fn naive_analysis_agrees() {
        let (m, t) = (Layer::from_vec(vec![1.0, 4.0, 0.0]), Layer::from_vec(vec![3.0, 1.0, 2.0]));
        let a = Analysis::from_teams(&m, &[&t]);
        let [inf, ten, prod, vul, dir] = analysis(m.values(), t.values());
        assert_eq!(
            (inf.as_slice(), ten.as_slice(), prod.as_slice()),
            (a.influence.values(), a.tension.values(), a.tension_product.values())
        );
        assert_eq!(
            (vul.as_slice(), dir.as_slice()),
            (a.vulnerability.values(), a.directed_vulnerability.values())
        );
    }
}
