//! The diffusion rule: its parameters and the per-cell update, written once over any space.
//!
//! One step, as in "The Core Mechanics of Influence Mapping" (Champandard) and
//! "Influence Maps: Part 1":
//!
//! ```text
//! m   = max(0, max over walkable neighbours n of carry(prev[n], dist(n)))
//! new = old + momentum · (m − old)          (the article's lerp(old, m, momentum))
//! new = 0 if |new| < threshold
//! ```
//!
//! where `carry(v, d)` is `v · exp(−decay · d)` (exponential, the articles' choice) or
//! `v − decay · d` (linear; the maximum with 0 floors it). Blocked cells hold 0.
//!
//! Every kernel in this module — generic, grid rows, sparse — evaluates exactly these float
//! operations: the same products or differences, a maximum (exact, so its order does not
//! matter), then the same lerp. That is why they agree bit for bit; `f32` arithmetic is not
//! contracted into fused multiply-adds by the compiler, so this holds on every target.

use std::ops::Range;

use crate::error::{non_negative, Error};
use crate::space::Space;

/// How influence weakens with the distance it travels in one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DecayKind {
    /// `value · exp(−decay · distance)`.
    Exponential,
    /// `value − decay · distance`, floored at 0.
    Linear,
}

/// The parameters of a diffusion step, validated. Influence crossing `distance` world units
/// carries `value · exp(−decay · distance)` ([`new`](Self::new): the articles' choice,
/// which never reaches 0 by itself — the threshold cuts the tail) or
/// `value − decay · distance`, floored at 0 ([`linear`](Self::linear): a hard edge at
/// `strength / decay`).
///
/// ```
/// use influence::{propagate::{Diffusion, Propagator, Seed, Steps}, Error, Grid};
/// // Part 1's examples: decay 0.5 per tile, momentum 0.2 (lingering) or 0.8 (quick).
/// let slow = Diffusion::new(0.5, 0.2)?;
/// assert_eq!(slow.threshold(), Diffusion::DEFAULT_THRESHOLD);
/// let edged = Diffusion::linear(0.25, 1.0)?.with_threshold(0.0)?;
/// assert!(edged.is_linear() && !slow.is_linear());
/// let grid = Grid::new(8, 1)?;
/// let mut p = Propagator::new(&grid, edged);
/// p.step(&grid, Steps { count: 8, seeds: &[Seed::new(0, 1.0)], ..Steps::default() })?;
/// assert_eq!(p.values()[2], 0.5); // 1 − 0.25 × 2
/// assert_eq!(p.values()[5], 0.0); // beyond the edge at 4
/// assert!(matches!(Diffusion::new(0.5, 1.5), Err(Error::BadNumber { what: "momentum", .. })));
/// assert!(matches!(Diffusion::new(-1.0, 0.5), Err(Error::BadNumber { what: "decay", .. })));
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Diffusion {
    decay: f32,
    momentum: f32,
    threshold: f32,
    kind: DecayKind,
}

impl Diffusion {
    /// Values smaller than this in magnitude become exactly 0 unless told otherwise. Far
    /// above the subnormal range (below ~1.2e-38): without a cut, exponential tails sink
    /// into subnormals, which many CPUs process much more slowly, and the long tail of tiny
    /// values would keep the whole map active in a [`SparsePropagator`](super::SparsePropagator).
    pub const DEFAULT_THRESHOLD: f32 = 1e-4;

    /// Exponential decay of `decay` per world unit, the given momentum, and
    /// [`Diffusion::DEFAULT_THRESHOLD`].
    ///
    /// # Errors
    /// [`Error::BadNumber`] naming `decay` unless it is finite and ≥ 0, or `momentum`
    /// unless it lies in `[0, 1]`.
    pub fn new(decay: f32, momentum: f32) -> Result<Self, Error> {
        Self::of_kind(DecayKind::Exponential, decay, momentum)
    }

    /// Linear decay of `decay` per world unit, otherwise as [`new`](Self::new).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    pub fn linear(decay: f32, momentum: f32) -> Result<Self, Error> {
        Self::of_kind(DecayKind::Linear, decay, momentum)
    }

    fn of_kind(kind: DecayKind, decay: f32, momentum: f32) -> Result<Self, Error> {
        if !(0.0..=1.0).contains(&momentum) {
            return Err(Error::BadNumber {
                what: "momentum",
                expected: "a number from 0 to 1",
                value: momentum.into(),
            });
        }
        Ok(Self { decay: non_negative("decay", decay)?, momentum, threshold: Self::DEFAULT_THRESHOLD, kind })
    }

    /// Sets the threshold below which values become 0 (0 keeps every value).
    ///
    /// # Errors
    /// [`Error::BadNumber`] naming `threshold` unless it is finite and ≥ 0.
    pub fn with_threshold(mut self, threshold: f32) -> Result<Self, Error> {
        self.threshold = non_negative("threshold", threshold)?;
        Ok(self)
    }

    /// Decay per world unit.
    pub fn decay(&self) -> f32 {
        self.decay
    }
    /// How far a cell moves towards its strongest neighbour per step, in `[0, 1]`.
    pub fn momentum(&self) -> f32 {
        self.momentum
    }
    /// Magnitudes below this become 0.
    pub fn threshold(&self) -> f32 {
        self.threshold
    }
    /// Whether the decay is linear ([`linear`](Self::linear)) rather than exponential.
    pub fn is_linear(&self) -> bool {
        self.kind == DecayKind::Linear
    }

    /// The same parameters with the given decay kind.
    #[cfg(test)]
    pub(super) fn with_kind(self, kind: DecayKind) -> Self {
        Self { kind, ..self }
    }

    /// Exponential or linear.
    pub(super) fn kind(&self) -> DecayKind {
        self.kind
    }

    /// What `value` becomes after crossing `distance` world units (before the maximum with
    /// 0): the quantity every kernel compares.
    #[cfg(test)]
    fn carry(&self, value: f32, distance: f32) -> f32 {
        match self.kind {
            DecayKind::Exponential => Exp::carry(value, Exp::coef(self.decay, distance)),
            DecayKind::Linear => Lin::carry(value, Lin::coef(self.decay, distance)),
        }
    }
}

/// A decay kind as a type, so kernels are compiled once per kind with no branch inside.
pub(super) trait Rule: Copy {
    /// Whether carrying subtracts (and can go below 0) rather than multiplies.
    const LINEAR: bool;
    /// The per-distance coefficient, computed once per distance.
    fn coef(decay: f32, dist: f32) -> f32;
    /// The value carried across that distance.
    fn carry(value: f32, coef: f32) -> f32;
}

/// [`DecayKind::Exponential`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Exp;
/// [`DecayKind::Linear`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Lin;

impl Rule for Exp {
    const LINEAR: bool = false;
    #[inline]
    fn coef(decay: f32, dist: f32) -> f32 {
        (-(decay * dist)).exp()
    }
    #[inline(always)]
    fn carry(value: f32, coef: f32) -> f32 {
        value * coef
    }
}

impl Rule for Lin {
    const LINEAR: bool = true;
    #[inline]
    fn coef(decay: f32, dist: f32) -> f32 {
        decay * dist
    }
    #[inline(always)]
    fn carry(value: f32, coef: f32) -> f32 {
        value - coef
    }
}

/// The larger of the accumulator and `x`, keeping the accumulator on ties: with the
/// accumulator starting at +0 and no NaNs, the result is the exact maximum whatever the
/// order, and compiles to a single `max` instruction.
#[inline(always)]
pub(super) fn fmax(acc: f32, x: f32) -> f32 {
    if x > acc {
        x
    } else {
        acc
    }
}

/// The lerp towards `m` and the threshold cut.
#[inline(always)]
pub(super) fn settle(old: f32, m: f32, momentum: f32, threshold: f32) -> f32 {
    let v = old + momentum * (m - old);
    if v.abs() < threshold {
        0.0
    } else {
        v
    }
}

/// Remembers the coefficient of the last distance seen, so a grid (two distances) or a
/// graph with repeated edge lengths computes few exponentials.
#[derive(Debug, Clone, Copy)]
pub(super) struct CoefCache {
    dist: f32,
    coef: f32,
}

impl CoefCache {
    pub(super) fn new() -> Self {
        Self { dist: f32::NAN, coef: 0.0 }
    }

    #[inline]
    pub(super) fn get<R: Rule>(&mut self, decay: f32, dist: f32) -> f32 {
        if dist != self.dist {
            self.dist = dist;
            self.coef = R::coef(decay, dist);
        }
        self.coef
    }
}

/// The new value of cell `i` from the previous buffer: the rule above, as written once.
#[inline]
pub(super) fn cell_value<S: Space, R: Rule>(
    space: &S,
    prev: &[f32],
    i: usize,
    d: &Diffusion,
    cache: &mut CoefCache,
) -> f32 {
    if !space.is_walkable(i) {
        return 0.0;
    }
    let mut m = 0.0f32;
    space.for_each_neighbour(i, |j, dist| m = fmax(m, R::carry(prev[j], cache.get::<R>(d.decay, dist))));
    settle(prev[i], m, d.momentum, d.threshold)
}

/// The generic step over cells `range`: `next[i]` for each, from `prev` only.
pub(super) fn generic_cells<S: Space>(
    space: &S,
    prev: &[f32],
    next: &mut [f32],
    d: &Diffusion,
    range: Range<usize>,
) {
    fn run<S: Space, R: Rule>(space: &S, prev: &[f32], next: &mut [f32], d: &Diffusion, range: Range<usize>) {
        let mut cache = CoefCache::new();
        for i in range {
            next[i] = cell_value::<S, R>(space, prev, i, d, &mut cache);
        }
    }
    match d.kind {
        DecayKind::Exponential => run::<S, Exp>(space, prev, next, d, range),
        DecayKind::Linear => run::<S, Lin>(space, prev, next, d, range),
    }
}

/// One generic step of `values` on `space`, its blocked cells cleared first: what every
/// grid kernel's step gives, bit for bit (for the kernels' tests).
#[cfg(test)]
pub(super) fn generic_step<S: Space>(space: &S, values: &[f32], d: &Diffusion) -> Vec<f32> {
    let prev: Vec<f32> =
        values.iter().enumerate().map(|(i, &v)| if space.is_walkable(i) { v } else { 0.0 }).collect();
    let mut next = vec![9.0; space.len()];
    generic_cells(space, &prev, &mut next, d, 0..space.len());
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_validated_and_named() {
        for m in [-0.1, 1.01, f32::NAN] {
            assert!(matches!(Diffusion::new(0.1, m), Err(Error::BadNumber { what: "momentum", .. })));
        }
        for d in [-0.1, f32::NAN, f32::INFINITY] {
            assert!(matches!(Diffusion::new(d, 0.5), Err(Error::BadNumber { what: "decay", .. })));
        }
        let ok = Diffusion::new(0.0, 0.0).unwrap();
        assert!(matches!(ok.with_threshold(-1.0), Err(Error::BadNumber { what: "threshold", .. })));
        assert!(Diffusion::new(0.0, 1.0).is_ok());
    }

    #[test]
    fn carry_and_settle() {
        let d = Diffusion::new(0.5, 1.0).unwrap();
        assert_eq!(d.carry(2.0, 2.0), 2.0 * (-1.0f32).exp());
        assert_eq!(Diffusion::linear(0.5, 1.0).unwrap().carry(2.0, 2.0), 1.0);
        assert_eq!(settle(1.0, 3.0, 0.5, 0.0), 2.0);
        assert_eq!(settle(1.0, 0.0, 1.0, 1e-4), 0.0);
        assert_eq!(settle(1e-3, 0.0, 0.95, 1e-4).to_bits(), 0.0f32.to_bits());
        assert_eq!(fmax(0.0, -0.0).to_bits(), 0.0f32.to_bits());
    }
}
