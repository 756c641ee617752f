//! The steady state: where repeated steps with fixed seeds end up, computed in one sweep
//! or, on grids where that is cheaper, by iterating the grid's own step to its fixed point.
//!
//! With the seeds written before every step and momentum > 0, the step converges to a
//! fixed point where every cell holds the best, over seeds, of the seed's strength carried
//! along a shortest-decay walkable path (`strength · exp(−decay · path length)` for
//! exponential decay, `strength − decay · path length` for linear). Values only shrink along
//! a path, so a largest-first sweep (Dijkstra's algorithm with `max` and `×` in place of
//! `min` and `+`) settles each cell once.
//!
//! Seeds combine as in the step: a [`Mode::Set`] seed pins its cell (neighbours never raise
//! it, and influence passing through it starts again from the pinned value); a
//! [`Mode::Max`] seed is a floor that stronger influence may exceed. A [`Mode::Add`] seed
//! on a cell no earlier `Set` seed pins adds to the cell's own diffused value every step —
//! a feedback loop with no best-first solution — and is refused.
//!
//! ## How exactly it matches iterating
//!
//! The sweep evaluates the same float products and maxima as the step, so with momentum 1
//! it equals the map that iterating until nothing changes gives (with the seeds written once
//! more), bit for bit. With momentum in (0, 1) the lerp `old + momentum · (m − old)` can
//! stall a few units in the last place short of `m` (the increment rounds away), and the
//! stall is carried along paths: iterating then agrees to a relative error of about
//! `path length × 2⁻²³ / momentum`; the tests use `1e-4` of the strongest seed.
//!
//! The threshold matters: a cell starts rising only if its first step from rest,
//! `rest + momentum · (m − rest)` (rest is 0, or a `Max` seed's floor), is not cut to 0.
//! So the steady state keeps a cell only when that first step survives the threshold —
//! with momentum < 1 that is stricter than `m ≥ threshold`, and cells whose `m` lies in
//! `[threshold, threshold / momentum)` stay at 0 for ever. With momentum 0 nothing moves
//! and the steady state is the seeds alone.
//!
//! ## Cost, and which method
//!
//! A sweep costs about 50–170 ns per cell it reaches; a step of the grid kernel 0.1–0.3 ns
//! per cell of the map. So on a grid with momentum 1 (where iterating gives the sweep's map,
//! bit for bit) the solve first iterates the step from rest, in fused blocks each checked
//! for a fixed point, wherever the sweep is estimated to cost at least 8 steps, and gives up
//! for the sweep once the steps have cost what the sweep would (at most about twice the
//! better method): strong decay or dense seeds converge in a few dozen steps, and
//! `influence bench --kernels steady,steady_far` shows the solve at or above iterating the
//! step one compared step at a time. Elsewhere — graphs, momentum below 1 — the sweep runs.
//!
//! One sweep of the best-first engine of [`crate::paths`], whose queue is a radix heap once
//! it holds more than a few keys: each cell is settled once and offers its neighbours the
//! value it carries. Only an offer that would raise a cell looks at the seeds, through one
//! bit per cell (the seeded cells' values sit in a short sorted list), and the output is
//! written in one pass at the end; so per cell the sweep touches the engine's 8 bytes and
//! the space's own data.

use super::diffuse::{settle, DecayKind, Diffusion, Exp, Lin, Rule};
use super::propagator::{Propagator, Steps};
use super::seed::{self, Seed};
use crate::error::Error;
use crate::layer::Layer;
use crate::paths::BestFirst;
use crate::source::Mode;
use crate::space::{Grid, Space};

/// Reusable scratch for [`SteadyState::solve`], empty by default; after the first call on a
/// space, solving again allocates nothing.
///
/// ```
/// use influence::{propagate::{Diffusion, Seed, SteadyState}, Grid, Layer, Mode};
/// let grid = Grid::from_rows(&["....."])?;
/// let mut out = Layer::for_space(&grid);
/// let d = Diffusion::new(0.1, 1.0)?;
/// SteadyState::default().solve(&grid, &d, &[Seed::new(0, 1.0), Seed::new(4, 2.0)], &mut out)?;
/// let f = (-0.1f32).exp();
/// // The stronger seed wins next to the weaker one, which stays pinned at 1.
/// assert_eq!(out.values(), &[1.0, 2.0 * f * f * f, 2.0 * f * f, 2.0 * f, 2.0]);
/// // A floor (Max) seed is raised by the stronger one.
/// let floor = Seed::new(0, 1.0).with_mode(Mode::Max);
/// SteadyState::default().solve(&grid, &d, &[floor, Seed::new(4, 2.0)], &mut out)?;
/// assert_eq!(out[0], 2.0 * f * f * f * f);
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Default, Clone)]
pub struct SteadyState {
    sweep: BestFirst,
    /// One bit per cell, set for the cells of `seeded`: the sweep asks it for every offer
    /// that would raise a cell, and it is small enough to stay in cache where a value per
    /// cell would not. The next solve clears just the bits it set.
    is_seeded: Vec<u64>,
    /// The seeded walkable cells of the last solve, ascending: (cell, pinned, pinned value
    /// or floor).
    seeded: Vec<(usize, bool, f32)>,
    /// Scratch for [`Self::classify`]: the seeds' (cell, index) sorted, then the new `seeded`.
    order: Vec<(usize, usize)>,
    classified: Vec<(usize, bool, f32)>,
    /// The step iterated instead of the sweep, where that is cheaper (see [`Method`]).
    iterate: Option<Box<Iterate>>,
}

/// How a solve finds the steady state. Both give the same bits where both apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Method {
    /// The best-first sweep: any space, any momentum; about 50 ns per cell it reaches.
    Sweep,
    /// The grid's step (fused passes of the row kernel) iterated from rest until a step
    /// changes nothing: on grids with momentum 1 only (where the sweep equals iterating, bit
    /// for bit); about 0.1–0.3 ns per cell of the map and step, so cheaper when few steps
    /// converge — the decay is strong, or the seeds dense or weak — and the seeds cover the
    /// map. Tried first wherever the sweep is estimated to cost more than a few steps.
    Iterate,
}

/// Whether `a` and `b` hold the same bits, compared 64 values at a time without a branch
/// per value, so that the compiler vectorises it (a branch per value took about as long as
/// a step of the map).
fn same_bits(a: &[f32], b: &[f32]) -> bool {
    let same =
        |(x, y): (&[f32], &[f32])| x.iter().zip(y).fold(true, |s, (p, q)| s & (p.to_bits() == q.to_bits()));
    a.len() == b.len() && a.chunks(64).zip(b.chunks(64)).all(same)
}

/// The scratch of [`Method::Iterate`].
#[derive(Debug, Clone)]
struct Iterate {
    propagator: Propagator,
    previous: Vec<f32>,
}

/// The sweep costs about this many times an iterated step, per cell (both measured with
/// `influence bench --kernels steady,steady_far` beside `diffuse8`: a fused step costs
/// 0.1–0.3 ns a cell, the sweep 45–170); the choice needs only the order of magnitude.
const SWEEP_PER_STEP: f64 = 150.0;

/// Iterating is tried only when the sweep is estimated to cost at least this many steps.
const MIN_STEPS: usize = 8;

impl SteadyState {
    /// Writes into `out` the fixed point of writing `seeds` and stepping with `diffusion`,
    /// as the map looks right after the seeds are written (so seed cells show their seeds).
    ///
    /// # Errors
    /// [`Error::OutOfBounds`] or [`Error::BadNumber`] for a bad seed, and
    /// [`Error::NoSteadyState`] for an additive seed on a cell no `Set` seed pins; `out`
    /// is unchanged then.
    ///
    /// # Panics
    /// If `out` was not made for `space`.
    pub fn solve<S: Space>(
        &mut self,
        space: &S,
        diffusion: &Diffusion,
        seeds: &[Seed],
        out: &mut Layer,
    ) -> Result<(), Error> {
        assert_eq!(out.len(), space.len(), "layer was not made for this space");
        seed::check(space.len(), seeds)?;
        self.classify(space, seeds)?;
        self.set_seeded(space.len());
        let method = self.choose(space, diffusion);
        self.solve_by(method, space, diffusion, seeds, out);
        Ok(())
    }

    /// The solve after the seeds are checked and classified, by `method`.
    fn solve_by<S: Space>(
        &mut self,
        method: Method,
        space: &S,
        d: &Diffusion,
        seeds: &[Seed],
        out: &mut Layer,
    ) {
        if let (Method::Iterate, Some(grid)) = (method, space.as_grid()) {
            let limit = self.affordable(grid, d).unwrap_or(0);
            if self.iterate(grid, d, seeds, out, limit) {
                return;
            }
        }
        match d.kind() {
            DecayKind::Exponential => self.sweep::<S, Exp>(space, d, out),
            DecayKind::Linear => self.sweep::<S, Lin>(space, d, out),
        }
    }

    /// [`Method::Iterate`] where it applies and the sweep would cost at least
    /// [`MIN_STEPS`] steps (see [`Self::affordable`]).
    fn choose<S: Space>(&self, space: &S, d: &Diffusion) -> Method {
        match space.as_grid().and_then(|grid| self.affordable(grid, d)) {
            Some(steps) if steps >= MIN_STEPS => Method::Iterate,
            _ => Method::Sweep,
        }
    }

    /// How many steps cost what the sweep is estimated to cost, where iterating applies
    /// (momentum 1, decay above 0, a seed above 0): the sweep costs about [`SWEEP_PER_STEP`]
    /// steps per cell it reaches, and the seeds reach at most the cells within the
    /// [reach](Self::reach) of the strongest, each of them.
    fn affordable(&self, grid: &Grid, d: &Diffusion) -> Option<usize> {
        let reach = self.reach(grid, d)?;
        let len = grid.len() as f64;
        let reached = len.min(self.seeded.len() as f64 * (2.0 * reach + 3.0).powi(2));
        Some((SWEEP_PER_STEP * reached / len).min(1e6) as usize)
    }

    /// The reach of the strongest seed in cells (until carrying cuts it below the threshold,
    /// or below the smallest float), where iterating applies: momentum 1, decay above 0, a
    /// seed above 0. Influence from rest travels a cell a step, so no more steps than this
    /// (and two) converge, and often far fewer, where nearer seeds dominate.
    fn reach(&self, grid: &Grid, d: &Diffusion) -> Option<f64> {
        let strongest = f64::from(self.seeded.iter().map(|&(_, _, v)| v).fold(0.0f32, f32::max));
        if d.momentum() != 1.0 || d.decay() <= 0.0 || strongest <= 0.0 {
            return None;
        }
        let floor = f64::from(d.threshold()).max(1e-45);
        let reach = match d.kind() {
            DecayKind::Exponential => (strongest / floor).ln().max(0.0) / f64::from(d.decay()),
            DecayKind::Linear => strongest / f64::from(d.decay()),
        };
        Some(reach / f64::from(grid.cell_size()))
    }

    /// Iterates the grid's step from rest with the seeds written before each step until a
    /// step changes nothing, then writes the seeds once more: the steady state with momentum
    /// 1, bit for bit. The steps run fused in blocks (the reach or the seeds' spacing,
    /// whichever is less, at most 32; then a fifth as many again as run so far), each
    /// followed by one step compared with the map before it; the fixed point, once reached,
    /// stays, so steps run past it change nothing, and a block runs past it by at most a
    /// sixth of the steps. (Blocks of half as many again ran up to a third past it: on a 64²
    /// map with decay 0.05 a solve took 1.22 times as long as iterating one compared step at
    /// a time. A first block of the reach alone, 32 steps there, where 22 converge, left the
    /// solve level with iterating.) Returns `false` (and leaves `out`
    /// alone) once more than `limit` steps have run without a fixed point, so that the sweep
    /// answers instead: at most about twice what the better method costs.
    fn iterate(&mut self, grid: &Grid, d: &Diffusion, seeds: &[Seed], out: &mut Layer, limit: usize) -> bool {
        // The seeds' spacing: about how far influence travels before it meets a
        // neighbouring seed's, a few steps short of the fixed point.
        let spacing = (grid.len() as f64 / self.seeded.len().max(1) as f64).sqrt() as usize;
        let first = self.reach(grid, d).map_or(16, |reach| (reach as usize + 2).min(spacing).clamp(1, 32));
        let state = self.iterate.get_or_insert_with(|| {
            Box::new(Iterate { propagator: Propagator::new(grid, *d), previous: Vec::new() })
        });
        if state.propagator.values().len() != grid.len() {
            state.propagator = Propagator::new(grid, *d);
        }
        let p = &mut state.propagator;
        p.set_diffusion(*d);
        p.clear();
        let run = |p: &mut Propagator, count: usize| {
            p.step(grid, Steps { count, seeds, ..Steps::default() }).expect("the seeds are checked");
        };
        let mut done = 0;
        while done <= limit {
            let block = if done == 0 { first } else { (done / 5).max(1) };
            run(p, block);
            state.previous.clear();
            state.previous.extend_from_slice(p.values().values());
            run(p, 1);
            done += block + 1;
            if same_bits(&state.previous, p.values().values()) {
                p.write_seeds(grid, seeds).expect("the seeds are checked");
                out.values_mut().copy_from_slice(p.values().values());
                return true;
            }
        }
        false
    }

    /// Folds the seeds of each cell, in order, into a pinned value or a floor, in
    /// `classified`; the first additive seed (in seed order) on a cell no earlier `Set` seed
    /// pins is an error.
    fn classify<S: Space>(&mut self, space: &S, seeds: &[Seed]) -> Result<(), Error> {
        self.order.clear();
        self.order.extend(
            seeds.iter().enumerate().filter(|(_, s)| space.is_walkable(s.cell)).map(|(i, s)| (s.cell, i)),
        );
        self.order.sort_unstable();
        self.classified.clear();
        let mut unpinned_add: Option<(usize, usize)> = None; // (seed index, cell)
        for &(c, i) in &self.order {
            if self.classified.last().is_none_or(|&(last, _, _)| last != c) {
                self.classified.push((c, false, f32::NEG_INFINITY));
            }
            let Some((_, pinned, value)) = self.classified.last_mut() else { continue };
            let s = &seeds[i];
            match s.mode {
                Mode::Set => (*pinned, *value) = (true, s.strength),
                Mode::Max => *value = value.max(s.strength),
                Mode::Add if *pinned => *value += s.strength,
                Mode::Add => {
                    if unpinned_add.is_none_or(|(first, _)| i < first) {
                        unpinned_add = Some((i, c));
                    }
                }
            }
        }
        match unpinned_add {
            Some((_, index)) => Err(Error::NoSteadyState { index }),
            None => Ok(()),
        }
    }

    /// Makes the newly classified seeds those of the sweep, touching only seeded cells.
    fn set_seeded(&mut self, len: usize) {
        if self.is_seeded.len() == len.div_ceil(64) {
            for &(c, _, _) in &self.seeded {
                self.is_seeded[c / 64] = 0;
            }
        } else {
            self.is_seeded = vec![0; len.div_ceil(64)];
        }
        std::mem::swap(&mut self.seeded, &mut self.classified);
        for &(c, _, _) in &self.seeded {
            self.is_seeded[c / 64] |= 1 << (c % 64);
        }
    }

    fn sweep<S: Space, R: Rule>(&mut self, space: &S, d: &Diffusion, out: &mut Layer) {
        let Self { sweep, is_seeded, seeded, .. } = self;
        sweep.begin(space.len());
        for &(c, pinned, value) in seeded.iter() {
            if pinned || value > 0.0 {
                sweep.offer(c, value, ());
            }
        }
        let (momentum, threshold) = (d.momentum(), d.threshold());
        let mut coefs = Coefs::new();
        sweep.run(
            space,
            |_, _, ()| {},
            |_, v, _, dist| Some(R::carry(v, coefs.get::<R>(d.decay(), dist))),
            |next, carried| {
                // What the cell holds before influence reaches it: 0, or its floor.
                // Neighbours never raise a pinned cell; others rise if the first step from
                // rest survives the threshold.
                let mut rest = 0.0;
                if is_seeded[next / 64] >> (next % 64) & 1 == 1 {
                    let k = seeded.partition_point(|&(c, _, _)| c < next);
                    let (_, pinned, value) = seeded[k];
                    if pinned {
                        return false;
                    }
                    rest = value.max(0.0);
                }
                carried > 0.0 && settle(rest, carried, momentum, threshold) != 0.0
            },
        );
        for (v, settled) in out.values_mut().iter_mut().zip(sweep.settled()) {
            *v = settled.unwrap_or(0.0);
        }
    }
}

/// The coefficients of the last two distances seen: a grid's straight and diagonal steps
/// alternate around every cell.
struct Coefs {
    dist: [f32; 2],
    coef: [f32; 2],
}

impl Coefs {
    fn new() -> Self {
        Self { dist: [f32::NAN; 2], coef: [0.0; 2] }
    }

    #[inline]
    fn get<R: Rule>(&mut self, decay: f32, dist: f32) -> f32 {
        if dist == self.dist[0] {
            self.coef[0]
        } else if dist == self.dist[1] {
            self.coef[1]
        } else {
            let coef = R::coef(decay, dist);
            self.dist = [dist, self.dist[0]];
            self.coef = [coef, self.coef[0]];
            coef
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::{Connectivity, Grid};

    /// The fixed-point test compares bits: −0 differs from +0, a NaN equals itself, and one
    /// differing value anywhere (in a last, partial block of 64 too) is found.
    #[test]
    fn same_bits_finds_any_difference() {
        for len in [0, 1, 63, 64, 65, 200] {
            let a: Vec<f32> = (0..len).map(|i| if i % 7 == 3 { f32::NAN } else { i as f32 }).collect();
            assert!(same_bits(&a, &a.clone()), "{len}: equal");
            for i in 0..len {
                let mut b = a.clone();
                b[i] = if a[i] == 0.0 {
                    -0.0
                } else if a[i].is_nan() {
                    1.0
                } else {
                    a[i] + 1.0
                };
                assert!(!same_bits(&a, &b), "{len}: differs at {i}");
            }
            assert!(!same_bits(&a, &a[..len.saturating_sub(1)]) || len == 0, "{len}: lengths");
        }
    }

    fn corridor(n: usize) -> Grid {
        Grid::new(n, 1).unwrap().with_connectivity(Connectivity::Four)
    }

    #[test]
    fn pinned_seeds_block_stronger_influence_and_floors_let_it_through() {
        let grid = corridor(5);
        let d = Diffusion::linear(0.0, 1.0).unwrap();
        let mut out = Layer::for_space(&grid);
        let mut s = SteadyState::default();
        s.solve(&grid, &d, &[Seed::new(0, 5.0), Seed::new(2, 1.0)], &mut out).unwrap();
        assert_eq!(out.values(), &[5.0, 5.0, 1.0, 1.0, 1.0]);
        s.solve(&grid, &d, &[Seed::new(0, 5.0), Seed::new(2, 1.0).with_mode(Mode::Max)], &mut out).unwrap();
        assert_eq!(out.values(), &[5.0; 5]);
    }

    #[test]
    fn linear_decay_reaches_zero_at_strength_over_decay() {
        let grid = corridor(6);
        let d = Diffusion::linear(1.0, 1.0).unwrap();
        let mut out = Layer::for_space(&grid);
        SteadyState::default().solve(&grid, &d, &[Seed::new(0, 3.0)], &mut out).unwrap();
        assert_eq!(out.values(), &[3.0, 2.0, 1.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn additive_seeds_need_a_pin() {
        let grid = corridor(3);
        let d = Diffusion::new(1.0, 1.0).unwrap();
        let mut out = Layer::from_vec(vec![7.0; 3]);
        let add = Seed::new(1, 1.0).with_mode(Mode::Add);
        let err = SteadyState::default().solve(&grid, &d, &[add], &mut out).unwrap_err();
        assert_eq!(err, Error::NoSteadyState { index: 1 });
        assert_eq!(out.values(), &[7.0; 3]);
        SteadyState::default().solve(&grid, &d, &[Seed::new(1, 2.0), add], &mut out).unwrap();
        assert_eq!(out[1], 3.0);
    }

    #[test]
    fn the_error_names_the_first_unpinned_additive_seed_in_seed_order() {
        let grid = corridor(200);
        let d = Diffusion::new(1.0, 1.0).unwrap();
        let mut out = Layer::for_space(&grid);
        let add = |c| Seed::new(c, 1.0).with_mode(Mode::Add);
        let mut s = SteadyState::default();
        let err = |s: &mut SteadyState, seeds: &[Seed], out: &mut Layer| {
            s.solve(&grid, &d, seeds, out).unwrap_err()
        };
        assert_eq!(err(&mut s, &[add(150), add(3)], &mut out), Error::NoSteadyState { index: 150 });
        // A pin that comes after the additive seed does not count.
        assert_eq!(
            err(&mut s, &[Seed::new(3, 1.0), add(150), add(3), Seed::new(150, 1.0)], &mut out),
            Error::NoSteadyState { index: 150 }
        );
    }

    #[test]
    fn seeds_of_an_earlier_solve_are_forgotten() {
        let grid = corridor(130);
        let d = Diffusion::linear(1.0, 1.0).unwrap().with_threshold(0.0).unwrap();
        let mut out = Layer::for_space(&grid);
        let mut s = SteadyState::default();
        let floor = Seed::new(100, 90.0).with_mode(Mode::Max);
        s.solve(&grid, &d, &[Seed::new(0, 120.0), Seed::new(70, 1.0), floor], &mut out).unwrap();
        assert_eq!((out[69], out[70], out[71], out[100], out[101]), (51.0, 1.0, 61.0, 90.0, 89.0));
        s.solve(&grid, &d, &[Seed::new(0, 120.0)], &mut out).unwrap();
        assert_eq!((out[69], out[70], out[71], out[100], out[101]), (51.0, 50.0, 49.0, 20.0, 19.0));
    }

    /// Iterating the step and the sweep give the same bits, on walled grids with seeds of
    /// every mode, both decays, and thresholds from 0 up.
    #[test]
    fn iterating_and_the_sweep_agree_bit_for_bit() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for case in 0..300 {
            let (w, h) = (1 + next(40) as usize, 1 + next(20) as usize);
            let eight = next(2) == 0;
            let mut grid = Grid::new(w, h).unwrap().with_connectivity(if eight {
                Connectivity::Eight
            } else {
                Connectivity::Four
            });
            for i in 0..w * h {
                if next(5) == 0 {
                    grid.set_blocked(crate::Cell::new(i % w, i / w), true).unwrap();
                }
            }
            let seeds: Vec<Seed> = (0..=next(6))
                .map(|_| {
                    let s = Seed::new(next((w * h) as u64) as usize, next(500) as f32 / 50.0 - 1.0);
                    if next(3) == 0 {
                        s.with_mode(Mode::Max)
                    } else {
                        s
                    }
                })
                .collect();
            let decay = [0.05, 0.3, 1.0, 3.0][next(4) as usize];
            let threshold = [0.0, 1e-4, 0.05][next(3) as usize];
            let d = if next(2) == 0 { Diffusion::new(decay, 1.0) } else { Diffusion::linear(decay, 1.0) };
            let d = d.unwrap().with_threshold(threshold).unwrap();
            let (mut a, mut b) = (Layer::for_space(&grid), Layer::for_space(&grid));
            let mut s = SteadyState::default();
            s.classify(&grid, &seeds).unwrap();
            s.set_seeded(grid.len());
            s.solve_by(Method::Sweep, &grid, &d, &seeds, &mut a);
            if s.affordable(&grid, &d).is_none() {
                continue; // no seed above 0: iterating does not apply
            }
            assert!(s.iterate(&grid, &d, &seeds, &mut b, 100_000), "case {case}: no fixed point");
            let bits = |l: &Layer| l.values().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&a), bits(&b), "case {case}: {w} × {h}, {d:?}, {seeds:?}");
        }
    }

    #[test]
    fn low_momentum_cuts_cells_below_threshold_over_momentum() {
        let grid = corridor(4);
        let d = Diffusion::linear(0.0, 0.5).unwrap().with_threshold(1.5).unwrap();
        let mut out = Layer::for_space(&grid);
        // m = 2 next to the seed: the first step from 0 gives 1 < 1.5, so it never rises.
        SteadyState::default().solve(&grid, &d, &[Seed::new(0, 2.0)], &mut out).unwrap();
        assert_eq!(out.values(), &[2.0, 0.0, 0.0, 0.0]);
        SteadyState::default().solve(&grid, &d, &[Seed::new(0, 3.0)], &mut out).unwrap();
        assert_eq!(out.values(), &[3.0; 4]);
    }
}
