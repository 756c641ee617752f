//! Careful hand-written code for the same jobs as the library's kernels: the baselines the
//! library must beat, unlike the [`reference`](mod@crate::reference) implementations, which
//! are written as the articles write them. Each is what a competent programmer writes for one
//! game: plain loops over flat slices, cut to one length so the compiler drops the bounds
//! checks and vectorises, and nothing the library's general API has to support (walls in
//! the flat step, other modes and metrics in the stampers).
//!
//! * [`FlatStep`]: the diffusion step over the interior of a map without walls, two
//!   buffers swapped after each step. The edge cells stay 0. The benchmark binary is built for
//!   the target's baseline (SSE2), where a game would build with `-C target-cpu=native`; to be
//!   as fast as that, the loop is compiled three times — for AVX-512 (F, BW, VL, DQ, CD),
//!   for AVX2 with FMA, and as built — and the widest the CPU runs is chosen once, as the
//!   library chooses its kernels.
//! * [`TemplateStamper`]: linear sources stamped from a template of factors made once per
//!   radius, for the source's nearest cell centre, added row by row (walls skipped, as the
//!   library skips them): a run of cells without walls is one loop the compiler vectorises,
//!   one with walls tests each cell.
//! * [`iterate_to_still`]: the library's own step, iterated until it changes nothing: the
//!   other way to reach the steady state.
//! * [`Bins`]: a uniform grid of bins over a grid-free field's sources, each source listed
//!   in every bin its disc touches; a query sums the sources of its bin.
#![allow(unsafe_code)]

use influence::field::PointSource;
use influence::glam::Vec2;
use influence::propagate::{Diffusion, Propagator, Seed, Steps};
use influence::{Falloff, Grid, Layer, Source};

/// The constants of one step: the factor per straight and diagonal neighbour, momentum and
/// threshold.
#[derive(Debug, Clone, Copy)]
struct Constants {
    straight: f32,
    diagonal: f32,
    momentum: f32,
    threshold: f32,
}

/// The flat-interior, swap-buffer step (exponential decay, no walls).
#[derive(Debug, Clone)]
pub struct FlatStep {
    width: usize,
    height: usize,
    eight: bool,
    k: Constants,
    /// The current map (read), held as the library holds its maps (see [`FlatStep::new`]).
    current: Layer,
    /// The next map (written), swapped with `current` after each step.
    next: Layer,
}

impl FlatStep {
    /// A step over a `width × height` map holding `values`, with the decay per cell and
    /// the momentum and threshold of `d`, over 8 neighbours or 4.
    ///
    /// Both maps are [`Layer`]s, as a propagator's are: they start on a cache line, so the
    /// flat loop and the library's step read and write memory laid out alike. In plain
    /// `Vec`s, the loop's time moved with where the allocator put them (at 256² with 8
    /// neighbours, 0.141–0.166 ns a cell over a few placements), and with it the ratio.
    ///
    /// # Panics
    /// If `values` does not hold `width × height` cells.
    pub fn new(width: usize, height: usize, values: Vec<f32>, d: &Diffusion, eight: bool) -> Self {
        assert_eq!(values.len(), width * height, "a value per cell");
        let k = Constants {
            straight: (-d.decay()).exp(),
            diagonal: (-(d.decay() * std::f32::consts::SQRT_2)).exp(),
            momentum: d.momentum(),
            threshold: d.threshold(),
        };
        // A clone is a layer the library allocates: on a cache line.
        let current = Layer::from_vec(values).clone();
        Self { width, height, eight, k, next: current.clone(), current }
    }

    /// The current map.
    pub fn values(&self) -> &[f32] {
        self.current.values()
    }

    /// One step; the result becomes the current map.
    pub fn step(&mut self) {
        #[cfg(target_arch = "x86_64")]
        match (widest(), self.eight) {
            // SAFETY: `widest` found AVX-512 F, BW, VL, DQ and CD (and AVX2) on this CPU.
            (2, true) => return unsafe { self.avx512::<true>() },
            // SAFETY: as above.
            (2, false) => return unsafe { self.avx512::<false>() },
            // SAFETY: `widest` found AVX2 and FMA on this CPU.
            (1, true) => return unsafe { self.avx2::<true>() },
            // SAFETY: as above.
            (1, false) => return unsafe { self.avx2::<false>() },
            _ => {}
        }
        if self.eight {
            self.rows::<true>();
        } else {
            self.rows::<false>();
        }
    }

    /// [`rows`](Self::rows) compiled for AVX-512.
    ///
    /// # Safety
    /// The CPU must have AVX-512 F, BW, VL, DQ and CD.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd,avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn avx512<const EIGHT: bool>(&mut self) {
        self.rows::<EIGHT>();
    }

    /// [`rows`](Self::rows) compiled for AVX2.
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn avx2<const EIGHT: bool>(&mut self) {
        self.rows::<EIGHT>();
    }

    #[inline(always)]
    fn rows<const EIGHT: bool>(&mut self) {
        let (w, h, k) = (self.width, self.height, self.k);
        if w >= 3 {
            let (current, next) = (self.current.values(), self.next.values_mut());
            for y in 1..h.saturating_sub(1) {
                let above = &current[(y - 1) * w..][..w];
                let here = &current[y * w..][..w];
                let below = &current[(y + 1) * w..][..w];
                let out = &mut next[y * w..][..w];
                row::<EIGHT>(above, here, below, &mut out[1..w - 1], &k);
            }
        }
        std::mem::swap(&mut self.current, &mut self.next);
    }
}

/// The larger of `a` and `b`, one `max` instruction (no NaN rule, unlike `f32::max`).
#[inline(always)]
fn max(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}

/// Cells `1..w − 1` of a row into `out` (`w − 2` long).
#[inline(always)]
fn row<const EIGHT: bool>(above: &[f32], here: &[f32], below: &[f32], out: &mut [f32], k: &Constants) {
    let n = out.len();
    let (ul, u, ur) = (&above[..n], &above[1..][..n], &above[2..][..n]);
    let (l, c, r) = (&here[..n], &here[1..][..n], &here[2..][..n]);
    let (dl, d, dr) = (&below[..n], &below[1..][..n], &below[2..][..n]);
    for i in 0..n {
        let mut m = max(0.0, max(max(u[i], d[i]), max(l[i], r[i])) * k.straight);
        if EIGHT {
            m = max(m, max(max(ul[i], ur[i]), max(dl[i], dr[i])) * k.diagonal);
        }
        let v = c[i] + k.momentum * (m - c[i]);
        out[i] = if v.abs() < k.threshold { 0.0 } else { v };
    }
}

/// The widest compilation of [`FlatStep`] this CPU runs: 2 for AVX-512, 1 for AVX2, else 0,
/// capped as the library's kernels are by `INFLUENCE_KERNEL` (`avx2` or `portable`), so
/// that a run so capped compares both as a CPU without the wider instructions would.
#[cfg(target_arch = "x86_64")]
fn widest() -> u8 {
    use std::sync::OnceLock;
    static WIDEST: OnceLock<u8> = OnceLock::new();
    *WIDEST.get_or_init(|| {
        let avx2 = std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt");
        let avx512 = std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512cd");
        let cap = match std::env::var("INFLUENCE_KERNEL").as_deref() {
            Ok("portable") => 0,
            Ok("avx2") => 1,
            _ => 2,
        };
        (u8::from(avx2) + u8::from(avx2 && avx512)).min(cap)
    })
}

/// Linear sources (Euclidean distance, additive) stamped from templates made once per
/// radius: each template row is the run of factors `1 − d / r` of the cells within the
/// radius of a cell centre, and a source adds `strength ·` each row at its nearest cell.
#[derive(Debug, Default)]
pub struct TemplateStamper {
    /// Templates by the radius's bits.
    templates: Vec<(u32, Template)>,
}

/// One radius's template: for each row offset `dy`, the first column offset and factors.
#[derive(Debug)]
struct Template {
    rows: Vec<(isize, isize, Vec<f32>)>,
}

impl Template {
    fn new(radius: f32) -> Self {
        let reach = radius.ceil() as isize;
        let rows = (-reach..=reach)
            .filter_map(|dy| {
                let run: Vec<(isize, f32)> = (-reach..=reach)
                    .map(|dx| (dx, ((dx * dx + dy * dy) as f32).sqrt()))
                    .filter(|&(_, d)| d <= radius)
                    .map(|(dx, d)| (dx, Falloff::Linear.factor(d, radius)))
                    .collect();
                let first = run.first()?.0;
                Some((dy, first, run.into_iter().map(|(_, f)| f).collect()))
            })
            .collect();
        Self { rows }
    }
}

impl TemplateStamper {
    /// Adds each source (linear falloff, Euclidean, additive; cell size 1, origin 0) at its
    /// nearest cell centre to `layer`, skipping walls.
    pub fn stamp_all(&mut self, grid: &Grid, layer: &mut Layer, sources: &[Source]) {
        #[cfg(target_arch = "x86_64")]
        match widest() {
            // SAFETY: `widest` found AVX-512 F, BW, VL, DQ and CD (and AVX2) on this CPU.
            2 => return unsafe { self.avx512(grid, layer, sources) },
            // SAFETY: `widest` found AVX2 and FMA on this CPU.
            1 => return unsafe { self.avx2(grid, layer, sources) },
            _ => {}
        }
        self.stamp_rows(grid, layer, sources);
    }

    /// [`stamp_rows`](Self::stamp_rows) compiled for AVX-512.
    ///
    /// # Safety
    /// The CPU must have AVX-512 F, BW, VL, DQ and CD.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd,avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn avx512(&mut self, grid: &Grid, layer: &mut Layer, sources: &[Source]) {
        self.stamp_rows(grid, layer, sources);
    }

    /// [`stamp_rows`](Self::stamp_rows) compiled for AVX2.
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn avx2(&mut self, grid: &Grid, layer: &mut Layer, sources: &[Source]) {
        self.stamp_rows(grid, layer, sources);
    }

    #[inline(always)]
    fn stamp_rows(&mut self, grid: &Grid, layer: &mut Layer, sources: &[Source]) {
        let (w, h) = (grid.width() as isize, grid.height() as isize);
        let (values, blocked) = (layer.values_mut(), grid.blocked());
        for s in sources {
            let key = s.radius().to_bits();
            let t = match self.templates.iter().position(|(k, _)| *k == key) {
                Some(i) => &self.templates[i].1,
                None => {
                    self.templates.push((key, Template::new(s.radius())));
                    &self.templates[self.templates.len() - 1].1
                }
            };
            let (cx, cy) = (s.position().x.floor() as isize, s.position().y.floor() as isize);
            let strength = s.strength();
            for (dy, dx0, factors) in &t.rows {
                let y = cy + dy;
                if y < 0 || y >= h {
                    continue;
                }
                let x0 = cx + dx0;
                let (from, to) = (x0.max(0), (x0 + factors.len() as isize).min(w));
                if from >= to {
                    continue;
                }
                let (a, b) = ((y * w + from) as usize, (y * w + to) as usize);
                let factors = &factors[(from - x0) as usize..][..b - a];
                if blocked[a..b].contains(&true) {
                    for ((v, &wall), &f) in values[a..b].iter_mut().zip(&blocked[a..b]).zip(factors) {
                        if !wall {
                            *v += strength * f;
                        }
                    }
                } else {
                    // No walls in the run: a loop the compiler vectorises.
                    for (v, &f) in values[a..b].iter_mut().zip(factors) {
                        *v += strength * f;
                    }
                }
            }
        }
    }
}

/// The library's step, from rest, with the seeds written before each step, iterated until a
/// step changes nothing (at most `limit` steps); the map with the seeds written once more,
/// and the steps taken.
pub fn iterate_to_still(
    grid: &Grid,
    d: &Diffusion,
    seeds: &[Seed],
    p: &mut Propagator,
    previous: &mut Vec<f32>,
    limit: usize,
) -> usize {
    p.clear();
    let mut steps = 0;
    p.write_seeds(grid, seeds).expect("seeds on the map");
    while steps < limit {
        previous.clear();
        previous.extend_from_slice(p.values().values());
        p.step(grid, Steps::default()).expect("valid");
        p.write_seeds(grid, seeds).expect("seeds on the map");
        steps += 1;
        if p.values().values() == &previous[..] {
            break;
        }
    }
    let _ = d;
    steps
}

/// A uniform grid of square bins over the sources of a grid-free field: each bin lists the
/// sources whose disc reaches into it, so a query reads one bin.
#[derive(Debug, Clone)]
pub struct Bins {
    origin: Vec2,
    inverse: f32,
    side: usize,
    /// Where each bin's sources start in `items`, and one more.
    starts: Vec<u32>,
    /// Each bin's sources: position, strength, radius.
    items: Vec<(Vec2, f32, f32)>,
}

impl Bins {
    /// Bins of side `bin` over the square from `origin`, `extent` wide.
    pub fn new(sources: &[PointSource<Vec2>], origin: Vec2, extent: f32, bin: f32) -> Self {
        let side = ((extent / bin).ceil() as usize).max(1);
        let inverse = 1.0 / bin;
        let range = |lo: f32, hi: f32| {
            let cell = |v: f32| (((v) * inverse).floor().max(0.0) as usize).min(side - 1);
            cell(lo)..=cell(hi)
        };
        let cover = |s: &PointSource<Vec2>| {
            let (p, r) = (s.position() - origin, s.radius());
            (range(p.x - r, p.x + r), range(p.y - r, p.y + r))
        };
        let mut counts = vec![0u32; side * side + 1];
        for s in sources {
            let (xs, ys) = cover(s);
            for y in ys {
                for x in xs.clone() {
                    counts[y * side + x + 1] += 1;
                }
            }
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let mut fill = counts.clone();
        let mut items = vec![(Vec2::ZERO, 0.0, 0.0); counts[side * side] as usize];
        for s in sources {
            let (xs, ys) = cover(s);
            for y in ys {
                for x in xs.clone() {
                    let slot = &mut fill[y * side + x];
                    items[*slot as usize] = (s.position(), s.strength(), s.radius());
                    *slot += 1;
                }
            }
        }
        Self { origin, inverse, side, starts: counts, items }
    }

    /// The sum of the linear sources' values at `p`.
    pub fn value(&self, p: Vec2) -> f32 {
        let q = (p - self.origin) * self.inverse;
        if q.x < 0.0 || q.y < 0.0 {
            return 0.0;
        }
        let (x, y) = (q.x as usize, q.y as usize);
        if x >= self.side || y >= self.side {
            return 0.0;
        }
        let b = y * self.side + x;
        let mut sum = 0.0;
        for &(at, strength, radius) in &self.items[self.starts[b] as usize..self.starts[b + 1] as usize] {
            let d = at.distance(p);
            if d < radius {
                sum += strength * (1.0 - d / radius);
            }
        }
        sum
    }
}

/// The five compound maps of two teams (influence, tension, tension product,
/// vulnerability, directed vulnerability, as `Analysis` computes them) in one loop over
/// flat slices into buffers kept between frames.
pub fn plain_analysis(mine: &[f32], theirs: &[f32], out: &mut [Vec<f32>; 5]) {
    let n = mine.len().min(theirs.len());
    for buffer in out.iter_mut() {
        buffer.resize(n, 0.0);
    }
    let [influence, tension, product, vulnerability, directed] = out;
    let (mine, theirs) = (&mine[..n], &theirs[..n]);
    let (influence, tension, product) = (&mut influence[..n], &mut tension[..n], &mut product[..n]);
    let (vulnerability, directed) = (&mut vulnerability[..n], &mut directed[..n]);
    for i in 0..n {
        let (a, b) = (mine[i], theirs[i]);
        influence[i] = a - b;
        tension[i] = a + b;
        product[i] = a * b;
        vulnerability[i] = a + b - (a - b).abs();
        directed[i] = a + b + (a - b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use influence::{Cell, Space, Stamper};

    #[test]
    fn the_flat_step_matches_the_library_inside_a_map_without_walls() {
        for eight in [false, true] {
            let grid = Grid::new(37, 9).unwrap().with_connectivity(if eight {
                influence::Connectivity::Eight
            } else {
                influence::Connectivity::Four
            });
            let d = Diffusion::new(0.3, 0.5).unwrap();
            let values: Vec<f32> = (0..grid.len()).map(|i| ((i * 37) % 11) as f32 * 0.5).collect();
            let mut flat = FlatStep::new(37, 9, values.clone(), &d, eight);
            flat.step();
            let mut p = Propagator::new(&grid, d);
            p.values_mut().values_mut().copy_from_slice(&values);
            p.step(&grid, Steps::default()).unwrap();
            for y in 1..8 {
                for x in 1..36 {
                    let i = y * 37 + x;
                    assert_eq!(flat.values()[i], p.values()[i], "({x}, {y}) eight {eight}");
                }
            }
        }
    }

    #[test]
    fn templates_match_the_library_at_cell_centres() {
        let mut grid = Grid::new(40, 30).unwrap();
        grid.set_blocked(Cell::new(10, 10), true).unwrap();
        let sources: Vec<Source> = [(10, 11, 8.0), (0, 0, 5.0), (39, 29, 3.0), (20, 15, 8.0)]
            .iter()
            .map(|&(x, y, r)| Source::new(grid.center(Cell::new(x, y)), 2.0, Falloff::Linear, r).unwrap())
            .collect();
        let (mut a, mut b) = (Layer::for_space(&grid), Layer::for_space(&grid));
        TemplateStamper::default().stamp_all(&grid, &mut a, &sources);
        Stamper::new().stamp_all(&grid, &mut b, &sources).unwrap();
        for (x, y) in a.values().iter().zip(b.values()) {
            assert!((x - y).abs() < 1e-5, "{x} {y}");
        }
    }

    #[test]
    fn bins_sum_the_sources_that_reach_a_point() {
        use influence::field::{Curve, Field};
        let sources: Vec<PointSource<Vec2>> = (0..200)
            .map(|i| {
                let p = Vec2::new((i * 37 % 100) as f32, (i * 53 % 100) as f32);
                PointSource::new(p, 1.0 + (i % 4) as f32, 3.0 + (i % 7) as f32, Curve::Linear).unwrap()
            })
            .collect();
        let bins = Bins::new(&sources, Vec2::ZERO, 100.0, 8.0);
        let field = Field::new(sources);
        for i in 0..500 {
            let p = Vec2::new((i * 7919 % 1000) as f32 / 10.0, (i * 104_729 % 1000) as f32 / 10.0);
            assert!((bins.value(p) - field.value(p)).abs() < 1e-4, "{p}");
        }
    }
}
