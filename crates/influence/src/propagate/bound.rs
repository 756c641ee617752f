//! What a [`Propagator`](super::Propagator) knows of its map's values, so that the grid
//! kernels can skip making them clean.
//!
//! The step's maxima are chains from +0 that pass over NaN, and its threshold cut compares
//! a magnitude. On a map whose values are all finite and at least +0 (never −0), those
//! guards change nothing: the AVX-512 kernel then skips the maximum with 0 that starts each
//! chain (4 neighbours), the cleaning of each value read (8 neighbours) and the absolute
//! value before the cut: two of 13 vector operations a chunk with 4 neighbours and 3 of 23
//! with 8 (see [`Coefs::clean`](super::fused::Coefs)).
//!
//! Steps keep such a map clean: each cell's maximum is at least +0 and at most the largest
//! value (every factor is at most 1, every linear decay at least 0), and the lerp towards it
//! with a momentum in \[0, 1\] stays between the two (rounded, never to −0). So the
//! propagator tracks a bound: [`Bound::Clean`] with the largest value a cell may hold, which
//! seeds raise and each step may raise by a rounding, kept far below `f32::MAX` so that no
//! sum or rounding on the way can overflow. An edit through `values_mut` makes the bound
//! unknown, and the next step finds it in the pass that clears the map's walls
//! ([`Bound::of_cleared`]; one pass, compiled for AVX2 where the CPU has it: the only
//! `unsafe` here). A seed of another strength makes the map mixed; a mixed map (negative
//! influence, say) takes that pass again every [`RESCAN`] steps, since steps relax negative
//! values towards 0.

#![allow(unsafe_code)]

use super::seed::Seed;
use crate::source::Mode;

/// The most a clean map's bound may reach: 2¹⁰⁰, far from `f32::MAX` (about 2¹²⁸), so that
/// a step's roundings and the seeds' sums never come near an overflow.
const LIMIT: f64 = 1.267_650_600_228_229_4e30;

/// Steps between scans of a map found mixed.
pub(super) const RESCAN: u32 = 64;

/// A relative margin for the roundings of one step or one write of seeds (each value is
/// rounded a few times, by at most 2⁻²⁴ of itself each).
const ROUNDING: f64 = 1.0 + 1.0 / (1 << 20) as f64;

/// What is known of a map's values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Bound {
    /// Every value is finite, at least +0 (not −0) and at most this (at most [`LIMIT`]).
    Clean(f64),
    /// Nothing: find it before the next step.
    Unknown,
    /// Some value may be negative, −0, NaN, infinite or beyond [`LIMIT`]: look again after
    /// this many more steps.
    Mixed(u32),
}

impl Bound {
    /// The bound of `values` once the cells `blocked` (one flag a value) are set to +0,
    /// which this does in the same pass.
    pub(super) fn of_cleared(values: &mut [f32], blocked: &[bool]) -> Self {
        // As unsigned integers, the bits of floats from +0 to +∞ sort as the floats do, and
        // every negative value (−0 too) and NaN sorts above +∞.
        let top = top_bits(values, blocked);
        if top <= LIMIT_BITS {
            Self::Clean(f64::from(f32::from_bits(top)))
        } else {
            Self::Mixed(RESCAN)
        }
    }

    /// Whether the map is known to be clean.
    pub(super) fn is_clean(self) -> bool {
        matches!(self, Self::Clean(_))
    }

    /// Whether the bound should be found again ([`of_cleared`](Self::of_cleared)) before the
    /// next step.
    pub(super) fn wants_scan(self) -> bool {
        matches!(self, Self::Unknown | Self::Mixed(0))
    }

    /// The bound after `seeds` are written.
    #[must_use]
    pub(super) fn seeded(self, seeds: &Seeds) -> Self {
        match self {
            Self::Clean(top) if seeds.clean => Self::Clean(top.max(seeds.most) + seeds.added).checked(),
            Self::Clean(_) => Self::Mixed(RESCAN),
            other => other,
        }
    }

    /// The bound after a step.
    #[must_use]
    pub(super) fn stepped(self) -> Self {
        match self {
            Self::Clean(top) => Self::Clean(top).checked(),
            Self::Mixed(n) => Self::Mixed(n.saturating_sub(1)),
            Self::Unknown => Self::Unknown,
        }
    }

    /// Whether each of `steps` steps, with `seeds` written before each, starts from a clean
    /// map, and the bound after them.
    pub(super) fn through(self, steps: usize, seeds: &Seeds) -> (bool, Self) {
        let mut bound = self;
        let mut clean = true;
        for _ in 0..steps {
            bound = bound.seeded(seeds);
            clean &= bound.is_clean();
            bound = bound.stepped();
        }
        (clean, bound)
    }

    /// `Clean(top)` with room for a rounding, or mixed beyond [`LIMIT`].
    fn checked(self) -> Self {
        match self {
            Self::Clean(top) if top * ROUNDING <= LIMIT => Self::Clean(top * ROUNDING),
            Self::Clean(_) => Self::Mixed(RESCAN),
            other => other,
        }
    }
}

/// The largest bits, as unsigned integers, of `values`, with the cells `blocked` set to +0
/// first: [`top_bits_in`] compiled for AVX2 where the CPU has it. The crate's baseline
/// (SSE2) has no maximum of 32-bit integers, and without one a pass took about four times
/// as long.
fn top_bits(values: &mut [f32], blocked: &[bool]) -> u32 {
    /// [`top_bits_in`] compiled for AVX2.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[target_feature(enable = "avx2")]
    unsafe fn avx2(values: &mut [f32], blocked: &[bool]) -> u32 {
        top_bits_in(values, blocked)
    }
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if crate::simd::avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { avx2(values, blocked) };
    }
    top_bits_in(values, blocked)
}

/// [`top_bits`]: one pass, no branch a cell (a tenth of the cells walls at random would
/// cost a misprediction each).
#[inline(always)]
fn top_bits_in(values: &mut [f32], blocked: &[bool]) -> u32 {
    let mut top = 0u32;
    for (v, &b) in values.iter_mut().zip(blocked) {
        let bits = if b { 0 } else { v.to_bits() };
        *v = f32::from_bits(bits);
        top = top.max(bits);
    }
    top
}

/// What a list of seeds can do to a clean map's bound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Seeds {
    /// Every strength is finite, at least +0 and not −0 (and at most [`LIMIT`]).
    clean: bool,
    /// The largest strength of seeds that set a cell or keep the larger value.
    most: f64,
    /// At least the sum of the strengths of seeds that add (all of them may add to one
    /// cell): their count times the largest.
    added: f64,
}

impl Seeds {
    /// The summary of `seeds` (on walls or not: a bound need not be tight). The maxima are
    /// taken on the strengths' bits, which sort as clean strengths do (and put every other
    /// above [`LIMIT_BITS`]): a frame's thousands of seeds cost no chain of float additions.
    pub(super) fn of(seeds: &[Seed]) -> Self {
        let (mut most, mut add, mut adds) = (0u32, 0u32, 0u32);
        for s in seeds {
            let bits = s.strength.to_bits();
            if s.mode == Mode::Add {
                add = add.max(bits);
                adds += 1;
            } else {
                most = most.max(bits);
            }
        }
        let value = |bits: u32| f64::from(f32::from_bits(bits));
        Self { clean: most.max(add) <= LIMIT_BITS, most: value(most), added: f64::from(adds) * value(add) }
    }
}

/// The bits of [`LIMIT`] as an `f32` (exact: a power of two).
const LIMIT_BITS: u32 = (127 + 100) << 23;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_two_to_the_hundred() {
        assert_eq!(f64::from(f32::from_bits(LIMIT_BITS)), LIMIT);
        assert_eq!(LIMIT, 2f64.powi(100));
    }

    #[test]
    fn the_pass_finds_every_value_that_is_not_clean() {
        let open = [false; 3];
        assert_eq!(Bound::of_cleared(&mut [], &[]), Bound::Clean(0.0));
        assert_eq!(Bound::of_cleared(&mut [0.0, 2.5, 1.0], &open), Bound::Clean(2.5));
        let limit = f32::from_bits(LIMIT_BITS);
        assert_eq!(Bound::of_cleared(&mut [limit], &open[..1]), Bound::Clean(LIMIT));
        let next = f32::from_bits(LIMIT_BITS + 1);
        for bad in [-0.0, -1e-30, f32::NAN, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY, next, f32::MAX] {
            assert_eq!(Bound::of_cleared(&mut [1.0, bad, 0.5], &open), Bound::Mixed(RESCAN), "{bad}");
        }
    }

    /// Walls are cleared first, on either compilation of the pass (the test runs on every
    /// `INFLUENCE_KERNEL`), at lengths around its vectors'.
    #[test]
    fn clearing_walls_and_finding_the_bound_is_one_pass() {
        for len in [0usize, 1, 7, 8, 9, 31, 32, 33, 100] {
            for bad in [-1.0, -0.0, f32::NAN, f32::INFINITY] {
                let blocked: Vec<bool> = (0..len).map(|i| i % 3 == 1).collect();
                let mut values: Vec<f32> =
                    (0..len).map(|i| if i % 3 == 1 { bad } else { i as f32 }).collect();
                let want = (0..len).filter(|i| i % 3 != 1).max().unwrap_or(0) as f64;
                assert_eq!(Bound::of_cleared(&mut values, &blocked), Bound::Clean(want), "{len}, {bad}");
                assert!(values.iter().enumerate().all(|(i, v)| if blocked[i] {
                    v.to_bits() == 0
                } else {
                    *v == i as f32
                }));
                if len > 0 {
                    values[0] = bad;
                    assert_eq!(
                        Bound::of_cleared(&mut values, &blocked),
                        Bound::Mixed(RESCAN),
                        "{len}, {bad}"
                    );
                }
            }
        }
    }

    #[test]
    fn seeds_raise_the_bound_and_dirty_ones_end_it() {
        let set = Seed::new(0, 3.0);
        let add = Seed::new(1, 2.0).with_mode(Mode::Add);
        let max = Seed::new(2, 5.0).with_mode(Mode::Max);
        let Bound::Clean(top) = Bound::Clean(1.0).seeded(&Seeds::of(&[set, add, add])) else { panic!() };
        assert!((7.0..7.001).contains(&top), "{top}");
        let Bound::Clean(top) = Bound::Clean(1.0).seeded(&Seeds::of(&[max])) else { panic!() };
        assert!((5.0..5.001).contains(&top), "{top}");
        for bad in [-1.0, -0.0, f32::from_bits(LIMIT_BITS + 1)] {
            let seeds = Seeds::of(&[set, Seed::new(3, bad).with_mode(Mode::Max)]);
            assert_eq!(Bound::Clean(1.0).seeded(&seeds), Bound::Mixed(RESCAN));
        }
        assert_eq!(Bound::Unknown.seeded(&Seeds::of(&[set])), Bound::Unknown);
    }

    #[test]
    fn steps_grow_the_bound_until_the_limit_and_count_down_to_a_scan() {
        let Bound::Clean(top) = Bound::Clean(1.0).stepped() else { panic!() };
        assert!(top > 1.0 && top < 1.000_01);
        assert_eq!(Bound::Clean(LIMIT).stepped(), Bound::Mixed(RESCAN));
        let mut mixed = Bound::Mixed(2);
        assert!(!mixed.wants_scan());
        mixed = mixed.stepped().stepped();
        assert!(mixed.wants_scan() && Bound::Unknown.wants_scan());
        let seeds = Seeds::of(&[Seed::new(0, 1.0).with_mode(Mode::Add)]);
        let (clean, after) = Bound::Clean(0.0).through(3, &seeds);
        assert!(clean && matches!(after, Bound::Clean(t) if (3.0..3.001).contains(&t)));
        let big = Seeds::of(&[Seed::new(0, 4e29).with_mode(Mode::Add)]);
        let (clean, after) = Bound::Clean(0.0).through(4, &big);
        assert!(!clean && after == Bound::Mixed(RESCAN - 1), "{after:?}");
    }
}
