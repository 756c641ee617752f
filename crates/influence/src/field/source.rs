//! Point sources: a position, a strength, a radius and a differentiable curve.

use super::falloff::Curve;
use super::point::{finite_point, is_finite, Point};
use crate::error::{finite, positive, Error};

/// One source of a grid-free field: it adds `strength · curve(d, radius)` at distance `d`
/// ("Escaping the Grid", Equation 29.4). Strength may be negative.
///
/// ```
/// use influence::field::{Curve, PointSource};
/// use influence::glam::{Vec2, Vec3};
/// let scout = PointSource::new(Vec2::new(3.0, 4.0), 2.0, 10.0, Curve::Linear)?;
/// assert_eq!(scout.value_and_gradient_at(Vec2::ZERO).0, 1.0); // 2 · (1 − 5/10)
/// let drone = PointSource::new(Vec3::new(0.0, 0.0, 12.0), 1.0, 4.0, Curve::Smooth)?;
/// assert_eq!(drone.value_and_gradient_at(Vec3::ZERO), (0.0, Vec3::ZERO));
/// assert!(PointSource::new(Vec2::new(f32::NAN, 0.0), 1.0, 1.0, Curve::Linear).is_err());
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PointSource<P> {
    position: P,
    strength: f32,
    radius: f32,
    curve: Curve,
}

impl<P: Point> PointSource<P> {
    /// A validated source.
    ///
    /// # Errors
    /// [`Error::BadNumber`] naming the parameter: a non-finite position coordinate
    /// (`"point source position x"`, …) or strength, a radius that is not finite and
    /// positive, or a bad curve parameter.
    pub fn new(position: P, strength: f32, radius: f32, curve: Curve) -> Result<Self, Error> {
        curve.validate()?;
        Ok(Self {
            position: finite_point(
                ["point source position x", "point source position y", "point source position z"],
                position,
            )?,
            strength: finite("point source strength", strength)?,
            radius: positive("point source radius", radius)?,
            curve,
        })
    }

    /// The same source elsewhere with another strength, for positions and strengths that
    /// are finite by construction (children, merged clusters); `None` otherwise.
    pub(crate) fn moved(&self, position: P, strength: f32) -> Option<Self> {
        (is_finite(position) && strength.is_finite()).then(|| Self { position, strength, ..self.clone() })
    }

    /// Position.
    pub fn position(&self) -> P {
        self.position
    }
    /// Strength: the value at the source itself.
    pub fn strength(&self) -> f32 {
        self.strength
    }
    /// Radius: nothing beyond it is affected.
    pub fn radius(&self) -> f32 {
        self.radius
    }
    /// The falloff curve.
    pub fn curve(&self) -> &Curve {
        &self.curve
    }

    /// This source's value at `p`.
    #[inline]
    pub(crate) fn value_at(&self, p: P) -> f32 {
        self.value_and_gradient_at(p).0
    }

    /// This source's value at `p` and its gradient there: `strength · slope(d) · (p − position) / d`
    /// ("Escaping the Grid", Equations 29.7–29.9). The gradient is zero at the source itself,
    /// where the direction is undefined, and beyond the radius.
    #[inline]
    pub fn value_and_gradient_at(&self, p: P) -> (f32, P) {
        let offset = p - self.position;
        let d2 = offset.dot(offset);
        if d2 > self.radius * self.radius {
            return (0.0, P::ZERO);
        }
        let d = d2.sqrt();
        let (value, slope) = self.curve.value_and_slope(d, self.radius);
        let gradient = if d > 0.0 { offset * (self.strength * slope / d) } else { P::ZERO };
        (self.strength * value, gradient)
    }
}
