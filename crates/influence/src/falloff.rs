//! Falloff curves: how a source's strength fades with distance, as a factor of it.
//!
//! The curves are those of the articles: linear and exponential decay ("Influence Maps:
//! Part 1"); halving per tile, strength-with-falloff-distance, and the full-strength /
//! accuracy / movement areas and artillery rings of "Influence Maps I" (Ground Control 2 and
//! World in Conflict), written here as a piecewise-linear [`Band`].

use std::fmt;
use std::sync::Arc;

use crate::error::{non_negative, positive, Error};

/// A falloff curve: `factor(d, r)` multiplies a source's strength at distance `d` from it,
/// for a source of radius `r`. Every curve is 0 beyond the radius.
///
/// ```
/// use influence::Falloff;
/// assert_eq!(Falloff::Linear.factor(2.0, 8.0), 0.75);
/// assert_eq!(Falloff::Halving { step: 1.0 }.factor(3.0, 8.0), 0.125);
/// assert_eq!(Falloff::Linear.factor(9.0, 8.0), 0.0);
/// ```
#[derive(Clone)]
pub enum Falloff {
    /// `1 − d/r`: strength fades evenly to zero at the radius.
    Linear,
    /// `exp(−rate · d)`.
    Exponential {
        /// Decay per world unit (≥ 0).
        rate: f32,
    },
    /// `0.5^(d / step)`: halves every `step` world units (per tile, with `step` = cell size).
    Halving {
        /// Distance over which the value halves (> 0).
        step: f32,
    },
    /// `1 − (d/r)^power`: flat near the source for large powers, cone-like for 1.
    Polynomial {
        /// The exponent (> 0).
        power: f32,
    },
    /// `exp(−d² / 2σ²)`.
    Gaussian {
        /// Standard deviation in world units (> 0).
        sigma: f32,
    },
    /// Full strength everywhere within the radius.
    Constant,
    /// Only the cell the source stands in, at full strength.
    Point,
    /// A piecewise-linear profile: full-strength, accuracy and movement areas, or a ring.
    Band(Band),
    /// A user-supplied curve `f(distance, radius) -> factor`, shared cheaply between
    /// sources ([`Falloff::custom`] wraps a closure).
    Custom(Arc<dyn Fn(f32, f32) -> f32 + Send + Sync>),
}

impl Falloff {
    /// The factor at distance `d` for a source of radius `radius`; 0 when `d > radius`.
    /// A custom curve that returns NaN or an infinity counts as 0.
    #[inline]
    pub fn factor(&self, d: f32, radius: f32) -> f32 {
        if d > radius {
            return 0.0;
        }
        match self {
            Self::Linear => 1.0 - d / radius,
            Self::Exponential { rate } => (-rate * d).exp(),
            Self::Halving { step } => (-std::f32::consts::LN_2 * d / step).exp(),
            Self::Polynomial { power } => 1.0 - (d / radius).powf(*power),
            // Through d/σ: 2σ² would underflow to 0 (or overflow) for extreme σ, and 0/0 is NaN.
            Self::Gaussian { sigma } => {
                let z = d / sigma;
                (-0.5 * z * z).exp()
            }
            Self::Constant => 1.0,
            Self::Point => f32::from(u8::from(d == 0.0)),
            Self::Band(band) => band.at(d),
            Self::Custom(c) => Some(c(d, radius)).filter(|v| v.is_finite()).unwrap_or(0.0),
        }
    }

    /// Replaces each distance in `distances` by its factor, exactly as [`Falloff::factor`]
    /// would; the curve is matched once, outside the loop.
    pub(crate) fn factors_in_place(&self, distances: &mut [f32], radius: f32) {
        macro_rules! per_cell {
            () => {
                distances.iter_mut().for_each(|d| *d = self.factor(*d, radius))
            };
        }
        // One loop per curve: inside an arm the variant is known, so the inlined `factor`
        // folds to that curve alone and the loop does no per-cell dispatch.
        match self {
            Self::Linear => per_cell!(),
            Self::Exponential { .. } => per_cell!(),
            Self::Halving { .. } => per_cell!(),
            Self::Polynomial { .. } => per_cell!(),
            Self::Gaussian { .. } => per_cell!(),
            _ => per_cell!(),
        }
    }

    /// Checks the curve's parameters.
    ///
    /// # Errors
    /// [`Error::BadNumber`] for a negative or non-finite rate, a step, power or sigma that is
    /// not finite and positive.
    pub fn validate(&self) -> Result<(), Error> {
        match *self {
            Self::Exponential { rate } => non_negative("exponential rate", rate).map(drop),
            Self::Halving { step } => positive("halving step", step).map(drop),
            Self::Polynomial { power } => positive("polynomial power", power).map(drop),
            Self::Gaussian { sigma } => positive("gaussian sigma", sigma).map(drop),
            _ => Ok(()),
        }
    }

    /// A user-supplied curve `f(distance, radius)`; it should return a finite factor.
    ///
    /// ```
    /// let stepped = influence::Falloff::custom(|d, r| if d < r / 2.0 { 1.0 } else { 0.5 });
    /// assert_eq!(stepped.factor(3.0, 4.0), 0.5);
    /// ```
    pub fn custom(f: impl Fn(f32, f32) -> f32 + Send + Sync + 'static) -> Self {
        Self::Custom(Arc::new(f))
    }

    /// Identity for caching precomputed kernels: equal keys mean equal curves.
    #[inline]
    pub(crate) fn key(&self) -> FalloffKey {
        let bits = |v: f32| u64::from(v.to_bits());
        match self {
            Self::Linear => FalloffKey::Simple(0, 0),
            Self::Exponential { rate } => FalloffKey::Simple(1, bits(*rate)),
            Self::Halving { step } => FalloffKey::Simple(2, bits(*step)),
            Self::Polynomial { power } => FalloffKey::Simple(3, bits(*power)),
            Self::Gaussian { sigma } => FalloffKey::Simple(4, bits(*sigma)),
            Self::Constant => FalloffKey::Simple(5, 0),
            Self::Point => FalloffKey::Simple(6, 0),
            Self::Band(b) => {
                FalloffKey::Band(b.points.iter().map(|&(d, f)| (d.to_bits(), f.to_bits())).collect())
            }
            Self::Custom(c) => FalloffKey::Custom(Arc::as_ptr(c).cast::<()>() as usize),
        }
    }
}

/// See [`Falloff::key`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum FalloffKey {
    Simple(u8, u64),
    Band(Vec<(u32, u32)>),
    Custom(usize),
}

/// As derived, with a custom curve shown as `Custom(..)`.
impl fmt::Debug for Falloff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Linear => f.write_str("Linear"),
            Self::Exponential { rate } => f.debug_struct("Exponential").field("rate", rate).finish(),
            Self::Halving { step } => f.debug_struct("Halving").field("step", step).finish(),
            Self::Polynomial { power } => f.debug_struct("Polynomial").field("power", power).finish(),
            Self::Gaussian { sigma } => f.debug_struct("Gaussian").field("sigma", sigma).finish(),
            Self::Constant => f.write_str("Constant"),
            Self::Point => f.write_str("Point"),
            Self::Band(band) => f.debug_tuple("Band").field(band).finish(),
            Self::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

/// A piecewise-linear falloff through `(distance, factor)` points: linear between them,
/// the first point's factor before it, 0 after the last.
///
/// "Influence Maps I" gives units a full-strength area, an accuracy area where influence
/// drops to what the unit's accuracy allows, and a movement area where it fades to zero; an
/// artillery piece's full-strength area starts away from it, making a ring.
///
/// ```
/// use influence::Band;
/// // Full strength to 4, down to 60 % at 10 (accuracy), to 0 at 16 (movement).
/// let tank = Band::areas(4.0, 10.0, 0.6, 16.0)?;
/// assert_eq!(tank.at(2.0), 1.0);
/// assert!((tank.at(13.0) - 0.3).abs() < 1e-6);
/// // Artillery: nothing within 5, full from 8 to 20, fading out by 24.
/// let artillery = Band::ring(5.0, 8.0, 20.0, 24.0)?;
/// assert_eq!((artillery.at(3.0), artillery.at(10.0), artillery.at(22.0)), (0.0, 1.0, 0.5));
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    points: Vec<(f32, f32)>,
}

impl Band {
    /// A band through `points`, sorted by distance. Factors lie in `[-1, 1]`, like every other
    /// curve's: the source's strength carries the magnitude (and stamped values stay finite).
    ///
    /// # Errors
    /// [`Error::BadBand`] for no points, a non-finite or negative distance, a factor outside
    /// `[-1, 1]`, or distances that decrease.
    pub fn new(points: Vec<(f32, f32)>) -> Result<Self, Error> {
        if points.is_empty() {
            return Err(Error::BadBand("needs at least one point"));
        }
        if points.iter().any(|&(d, f)| !d.is_finite() || d < 0.0 || !(-1.0..=1.0).contains(&f)) {
            return Err(Error::BadBand(
                "distances must be finite numbers, 0 or more, and factors numbers from -1 to 1",
            ));
        }
        if points.windows(2).any(|w| w[1].0 < w[0].0) {
            return Err(Error::BadBand("distances must not decrease"));
        }
        Ok(Self { points })
    }

    /// Full strength to `full`, linear to `accuracy` (a factor) at `accuracy_end`, linear to 0
    /// at `movement_end`.
    ///
    /// # Errors
    /// As [`Band::new`], when the distances are out of order.
    pub fn areas(full: f32, accuracy_end: f32, accuracy: f32, movement_end: f32) -> Result<Self, Error> {
        Self::new(vec![(0.0, 1.0), (full, 1.0), (accuracy_end, accuracy), (movement_end, 0.0)])
    }

    /// A ring: 0 up to `inner_fade`, rising to full at `inner`, full to `outer`, 0 at `outer_fade`.
    ///
    /// # Errors
    /// As [`Band::new`], when the distances are out of order.
    pub fn ring(inner_fade: f32, inner: f32, outer: f32, outer_fade: f32) -> Result<Self, Error> {
        Self::new(vec![(0.0, 0.0), (inner_fade, 0.0), (inner, 1.0), (outer, 1.0), (outer_fade, 0.0)])
    }

    /// The distance of the last point: where the band ends.
    pub fn extent(&self) -> f32 {
        self.points.last().map_or(0.0, |p| p.0)
    }

    /// The `(distance, factor)` points.
    pub fn points(&self) -> &[(f32, f32)] {
        &self.points
    }

    /// The factor at distance `d`.
    pub fn at(&self, d: f32) -> f32 {
        let (first, last) = (self.points[0], self.points[self.points.len() - 1]);
        if d <= first.0 {
            return first.1;
        }
        if d > last.0 {
            return 0.0;
        }
        // The first point at or beyond d; its predecessor is before d.
        let i = self.points.partition_point(|p| p.0 < d);
        let ((d0, f0), (d1, f1)) = (self.points[i - 1], self.points[i]);
        if d1 > d0 {
            f0 + (f1 - f0) * (d - d0) / (d1 - d0)
        } else {
            f1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curves_match_their_formulas() {
        let r = 10.0;
        assert_eq!(Falloff::Linear.factor(0.0, r), 1.0);
        assert_eq!(Falloff::Linear.factor(10.0, r), 0.0);
        assert!((Falloff::Exponential { rate: 0.5 }.factor(2.0, r) - (-1f32).exp()).abs() < 1e-7);
        assert!((Falloff::Halving { step: 2.0 }.factor(4.0, r) - 0.25).abs() < 1e-7);
        assert!((Falloff::Polynomial { power: 2.0 }.factor(5.0, r) - 0.75).abs() < 1e-7);
        assert!((Falloff::Gaussian { sigma: 2.0 }.factor(2.0, r) - (-0.5f32).exp()).abs() < 1e-7);
        assert_eq!(Falloff::Constant.factor(9.99, r), 1.0);
        assert_eq!((Falloff::Point.factor(0.0, r), Falloff::Point.factor(0.1, r)), (1.0, 0.0));
        for f in [Falloff::Constant, Falloff::Exponential { rate: 0.0 }, Falloff::Gaussian { sigma: 9.0 }] {
            assert_eq!(f.factor(10.5, r), 0.0, "{f:?} must be cut at the radius");
        }
    }

    #[test]
    fn debug_shows_the_curve() {
        assert_eq!(format!("{:?}", Falloff::Exponential { rate: 0.5 }), "Exponential { rate: 0.5 }");
        assert_eq!(format!("{:?}", Falloff::Linear), "Linear");
        assert_eq!(format!("{:?}", Falloff::custom(|_, _| 1.0)), "Custom(..)");
        let band = Falloff::Band(Band::ring(1.0, 2.0, 3.0, 4.0).unwrap());
        assert!(format!("{band:?}").starts_with("Band(Band { points: [(0.0, 0.0)"));
    }

    #[test]
    fn custom_curves_never_leak_nan() {
        let bad = Falloff::custom(|_, _| f32::NAN);
        assert_eq!(bad.factor(1.0, 2.0), 0.0);
        let inf = Falloff::custom(|_, _| f32::INFINITY);
        assert_eq!(inf.factor(1.0, 2.0), 0.0);
    }

    #[test]
    fn validation_names_the_parameter() {
        let err = Falloff::Gaussian { sigma: 0.0 }.validate().unwrap_err().to_string();
        assert!(err.contains("gaussian sigma"), "{err}");
        assert!(Falloff::Exponential { rate: f32::NAN }.validate().is_err());
        assert!(Falloff::Exponential { rate: 0.0 }.validate().is_ok());
        assert!(Falloff::Halving { step: -1.0 }.validate().is_err());
    }

    #[test]
    fn bands_reject_bad_points() {
        assert!(Band::new(vec![]).is_err());
        assert!(Band::new(vec![(1.0, 1.0), (0.5, 0.0)]).is_err());
        assert!(Band::new(vec![(f32::NAN, 1.0)]).is_err());
        assert!(Band::new(vec![(1.0, 1.5)]).is_err());
        assert!(Band::new(vec![(1.0, f32::NAN)]).is_err());
        assert!(Band::areas(5.0, 3.0, 0.5, 8.0).is_err());
    }

    #[test]
    fn band_holds_first_value_and_steps_at_repeated_distances() {
        let b = Band::new(vec![(2.0, 0.5), (4.0, 0.5), (4.0, 1.0), (6.0, 0.0)]).unwrap();
        assert_eq!(b.at(0.0), 0.5);
        assert_eq!(b.at(4.0), 0.5);
        assert_eq!(b.at(5.0), 0.5);
        assert_eq!(b.at(6.5), 0.0);
        assert_eq!(b.extent(), 6.0);
    }
}
