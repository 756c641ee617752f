//! Differentiable falloff curves for point sources: a value and its slope `d/dd`, so the
//! field's gradient is exact ("Escaping the Grid", Game AI Pro, §29.4 and §29.8: any
//! continuously differentiable falloff will do, and the gradient is the sum of theirs).

use std::fmt;
use std::sync::Arc;

use crate::error::{non_negative, positive, Error};

/// How a point source fades with distance `d` for a source of radius `r`; 0 beyond `r`.
///
/// Equal when of the same kind with equal parameters; a custom curve only to clones of itself.
///
/// ```
/// use influence::field::Curve;
/// assert_eq!(Curve::Linear.value_and_slope(2.0, 8.0), (0.75, -0.125));
/// assert_eq!(Curve::Smooth.value_and_slope(4.0, 8.0).0, 0.5625); // (1 − ¼)²
/// assert_eq!(Curve::Smooth.value_and_slope(9.0, 8.0), (0.0, 0.0));
/// ```
#[derive(Clone)]
pub enum Curve {
    /// `1 − d/r`: the article's cone (Equation 29.1).
    Linear,
    /// `(1 − (d/r)²)²`: flat at the centre and meeting zero with zero slope at `r`, so the
    /// field is continuously differentiable everywhere.
    Smooth,
    /// `1 − (d/r)^power` (the grid's polynomial falloff).
    Polynomial {
        /// The exponent (> 0; at least 1 for a bounded slope).
        power: f32,
    },
    /// `exp(−d² / 2σ²)`, cut at `r` (the grid's Gaussian falloff).
    Gaussian {
        /// Standard deviation in world units (> 0).
        sigma: f32,
    },
    /// `exp(−rate · d)`, cut at `r` (the grid's exponential and halving falloffs).
    Exponential {
        /// Decay per world unit (≥ 0).
        rate: f32,
    },
    /// A user-supplied curve: `(value, slope)` at `(d, r)` — the factor and its derivative
    /// in `d` — shared cheaply between sources. Non-finite results count as 0.
    ///
    /// ```
    /// // A cosine bump, 1 at the centre and 0 at the radius.
    /// use std::{f32::consts::PI, sync::Arc};
    /// use influence::field::Curve;
    /// let bump = Curve::Custom(Arc::new(|d, r| {
    ///     (0.5 + 0.5 * (PI * d / r).cos(), -0.5 * PI / r * (PI * d / r).sin())
    /// }));
    /// assert!((bump.value_and_slope(1.0, 2.0).0 - 0.5).abs() < 1e-6);
    /// assert_eq!(bump, bump.clone());
    /// ```
    Custom(Arc<dyn Fn(f32, f32) -> (f32, f32) + Send + Sync>),
}

impl fmt::Debug for Curve {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Linear => f.write_str("Linear"),
            Self::Smooth => f.write_str("Smooth"),
            Self::Polynomial { power } => f.debug_struct("Polynomial").field("power", power).finish(),
            Self::Gaussian { sigma } => f.debug_struct("Gaussian").field("sigma", sigma).finish(),
            Self::Exponential { rate } => f.debug_struct("Exponential").field("rate", rate).finish(),
            Self::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

impl PartialEq for Curve {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Linear, Self::Linear) | (Self::Smooth, Self::Smooth) => true,
            (Self::Polynomial { power: a }, Self::Polynomial { power: b }) => a == b,
            (Self::Gaussian { sigma: a }, Self::Gaussian { sigma: b }) => a == b,
            (Self::Exponential { rate: a }, Self::Exponential { rate: b }) => a == b,
            (Self::Custom(a), Self::Custom(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Curve {
    /// The factor at distance `d` from a source of radius `r`: 0 when `d > r`.
    #[inline]
    pub(crate) fn value(&self, d: f32, r: f32) -> f32 {
        self.value_and_slope(d, r).0
    }

    /// The factor at distance `d` from a source of radius `r` and its derivative with
    /// respect to `d`; both 0 when `d > r`.
    #[inline]
    pub fn value_and_slope(&self, d: f32, r: f32) -> (f32, f32) {
        if d > r {
            return (0.0, 0.0);
        }
        match self {
            Self::Linear => (1.0 - d / r, -1.0 / r),
            Self::Smooth => {
                let (t, u) = (d / r, 1.0 - (d / r) * (d / r));
                (u * u, -4.0 * t * u / r)
            }
            Self::Polynomial { power } => {
                let t = d / r;
                (1.0 - t.powf(*power), -power * t.powf(power - 1.0) / r)
            }
            // Through d/σ, as the grid's Gaussian: 2σ² can underflow to 0 and 0/0 is NaN.
            Self::Gaussian { sigma } => {
                let z = d / sigma;
                let e = (-0.5 * z * z).exp();
                (e, -(z / sigma) * e)
            }
            Self::Exponential { rate } => {
                let e = (-rate * d).exp();
                (e, -rate * e)
            }
            Self::Custom(f) => {
                let keep = |v: f32| if v.is_finite() { v } else { 0.0 };
                let (value, slope) = f(d, r);
                (keep(value), keep(slope))
            }
        }
    }

    /// Checks the curve's parameter.
    ///
    /// # Errors
    /// [`Error::BadNumber`] for a power or sigma that is not finite and positive, or a
    /// negative or non-finite rate.
    pub(crate) fn validate(&self) -> Result<(), Error> {
        match *self {
            Self::Polynomial { power } => positive("polynomial power", power).map(drop),
            Self::Gaussian { sigma } => positive("gaussian sigma", sigma).map(drop),
            Self::Exponential { rate } => non_negative("exponential rate", rate).map(drop),
            _ => Ok(()),
        }
    }

    /// The most the factor can change between two distances `moved` apart, for radius `r`:
    /// `min(L · moved + J, 1)` with `L` the largest |slope| on `[0, r]` and `J` the jump to 0
    /// at `r` (0 for curves that reach 0 there). Built-in factors lie in `[0, 1]`, hence the
    /// cap. `None` when unknown: custom curves and polynomials with `power < 1`.
    pub(crate) fn change_bound(&self, r: f32, moved: f32) -> Option<f32> {
        if moved == 0.0 {
            return Some(0.0);
        }
        let (lipschitz, jump) = match *self {
            Self::Linear => (1.0 / r, 0.0),
            // |d/dd (1 − t²)²| = 4t(1 − t²)/r peaks at t = 1/√3.
            Self::Smooth => (8.0 / (3.0 * 3f32.sqrt() * r), 0.0),
            Self::Polynomial { power } if power >= 1.0 => (power / r, 0.0),
            // d/σ² · e^(−d²/2σ²) peaks at d = σ, or at r if the cut comes first.
            Self::Gaussian { sigma } => {
                let d = sigma.min(r);
                (d / (sigma * sigma) * (-d * d / (2.0 * sigma * sigma)).exp(), self.value(r, r))
            }
            Self::Exponential { rate } => (rate, self.value(r, r)),
            Self::Polynomial { .. } | Self::Custom(_) => return None,
        };
        Some((lipschitz * moved + jump).min(1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curves() -> Vec<Curve> {
        vec![
            Curve::Linear,
            Curve::Smooth,
            Curve::Polynomial { power: 3.0 },
            Curve::Gaussian { sigma: 2.5 },
            Curve::Exponential { rate: 0.4 },
            Curve::Custom(Arc::new(|d, r| (1.0 - (d / r).powi(2), -2.0 * d / (r * r)))),
        ]
    }

    #[test]
    fn slopes_match_finite_differences() {
        let (r, h) = (6.0f32, 1e-3f32);
        for c in curves() {
            for i in 1..60 {
                let d = i as f32 * 0.1;
                let numeric = (c.value(d + h, r) - c.value(d - h, r)) / (2.0 * h);
                let (_, slope) = c.value_and_slope(d, r);
                assert!((numeric - slope).abs() < 2e-3, "{c:?} at {d}: {numeric} vs {slope}");
            }
        }
    }

    #[test]
    fn change_bound_holds_on_a_fine_sweep() {
        let r = 6.0f32;
        for c in curves() {
            for moved in [0.05f32, 0.5, 2.0] {
                let Some(bound) = c.change_bound(r, moved) else { continue };
                for i in 0..=800 {
                    let d = i as f32 * 0.01;
                    let change = (c.value(d, r) - c.value(d + moved, r)).abs();
                    assert!(change <= bound + 1e-6, "{c:?} d {d} moved {moved}: {change} > {bound}");
                }
            }
        }
        assert!(curves()[5].change_bound(r, 1.0).is_none());
        assert_eq!(Curve::Polynomial { power: 0.5 }.change_bound(r, 1.0), None);
    }

    #[test]
    fn zero_beyond_radius_and_nan_custom_is_zero() {
        for c in curves() {
            assert_eq!(c.value_and_slope(6.01, 6.0), (0.0, 0.0), "{c:?}");
        }
        let nan = Curve::Custom(Arc::new(|_, _| (f32::NAN, f32::INFINITY)));
        assert_eq!(nan.value_and_slope(1.0, 2.0), (0.0, 0.0));
    }

    #[test]
    fn validation_names_the_parameter() {
        let err = Curve::Gaussian { sigma: -1.0 }.validate().unwrap_err().to_string();
        assert!(err.contains("gaussian sigma"), "{err}");
        assert!(Curve::Polynomial { power: f32::NAN }.validate().is_err());
        assert!(Curve::Exponential { rate: 0.0 }.validate().is_ok());
    }

    #[test]
    fn equality_by_parameters_and_identity() {
        assert_eq!(Curve::Gaussian { sigma: 1.0 }, Curve::Gaussian { sigma: 1.0 });
        assert_ne!(Curve::Gaussian { sigma: 1.0 }, Curve::Exponential { rate: 1.0 });
        let c = curves().pop().unwrap();
        assert_eq!(c, c.clone());
        assert_ne!(c, curves().pop().unwrap());
    }
}
