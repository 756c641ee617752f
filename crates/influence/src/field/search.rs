//! Optimisation queries: the local maximum or minimum near a point by gradient ascent or
//! descent, kept within a search radius ("Escaping the Grid", §29.8 and Listing 29.2).
//!
//! The article's caveat is the step size. Here a step moves `step` world units along the
//! gradient's direction (so the gradient's magnitude does not set the distance); a step that
//! improves the value is taken and the next one doubles, a step that does not is refused and
//! halved (backtracking), and every trial point is pulled back onto the search ball around
//! the start. Only improvements are ever accepted, so the answer is never worse than the start.

use super::point::{finite_point, length, Point};
use super::Field;
use crate::error::{positive, Error};

/// Parameters of [`Field::local_max`] and [`Field::local_min`].
///
/// ```
/// use influence::field::Search;
/// // Look up to 20 units away, in finer first steps than the default.
/// let wide = Search { radius: 20.0, step: 0.5, ..Search::default() };
/// assert_eq!((wide.min_step, wide.max_steps), (1e-3, 100));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Search {
    /// How far from the start the answer may lie (world units, > 0).
    pub radius: f32,
    /// The first step's length (world units, > 0); later steps double or halve.
    pub step: f32,
    /// The search stops once the step is shorter than this (world units, > 0).
    pub min_step: f32,
    /// At most this many trial points are evaluated.
    pub max_steps: usize,
}

impl Default for Search {
    /// Radius 8, first step 1, down to steps of 0.001, at most 100 trials.
    fn default() -> Self {
        Self { radius: 8.0, step: 1.0, min_step: 1e-3, max_steps: 100 }
    }
}

impl Search {
    /// Checks the parameters.
    ///
    /// # Errors
    /// [`Error::BadNumber`] for a radius, step or minimum step that is not finite and positive.
    pub(crate) fn validate(&self) -> Result<(), Error> {
        positive("search radius", self.radius)?;
        positive("search step", self.step)?;
        positive("search min_step", self.min_step).map(drop)
    }
}

impl<P: Point> Field<P> {
    /// The highest point found by gradient ascent from `start` within `search.radius`, as
    /// `(point, value, steps)`: the best point found (within the search radius of the start),
    /// the field's value there, and the improving steps taken.
    ///
    /// ```
    /// use influence::field::{Curve, Field, PointSource, Search};
    /// use influence::glam::Vec2;
    /// let field = Field::new(vec![PointSource::new(Vec2::new(3.0, 4.0), 1.0, 10.0, Curve::Smooth)?]);
    /// let (top, _, _) = field.local_max(Vec2::ZERO, &Search::default())?;
    /// assert!(top.distance(Vec2::new(3.0, 4.0)) < 0.01);
    /// // A radius too short to get there: the best point on the way, at the boundary.
    /// let (near, value, _) = field.local_max(Vec2::ZERO, &Search { radius: 2.0, ..Search::default() })?;
    /// assert!((near.length() - 2.0).abs() < 0.01 && value > field.value(Vec2::ZERO));
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::BadNumber`] for a non-finite start or bad [`Search`] parameters.
    pub fn local_max(&self, start: P, search: &Search) -> Result<(P, f32, usize), Error> {
        self.climb(start, search, 1.0)
    }

    /// The lowest point found by gradient descent from `start` within `search.radius`: the
    /// safest spot nearby on a threat map. As [`Field::local_max`], `(point, value, steps)`.
    ///
    /// ```
    /// use influence::field::{Curve, Field, PointSource, Search};
    /// use influence::glam::Vec2;
    /// let threat = Field::new(vec![PointSource::new(Vec2::ZERO, 1.0, 10.0, Curve::Linear)?]);
    /// let (safest, value, _) = threat.local_min(Vec2::new(1.0, 0.0), &Search::default())?;
    /// assert!((safest.x - 9.0).abs() < 0.01 && value < threat.value(Vec2::new(1.0, 0.0)));
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::BadNumber`] for a non-finite start or bad [`Search`] parameters.
    pub fn local_min(&self, start: P, search: &Search) -> Result<(P, f32, usize), Error> {
        self.climb(start, search, -1.0)
    }

    /// Ascent on `sign · value` (`sign` = 1 for a maximum, −1 for a minimum).
    fn climb(&self, start: P, search: &Search, sign: f32) -> Result<(P, f32, usize), Error> {
        search.validate()?;
        finite_point(["search start x", "search start y", "search start z"], start)?;
        let (value, gradient) = self.value_and_gradient(start);
        let (mut best, mut best_value, mut uphill) = (start, sign * value, gradient * sign);
        let (mut step, mut steps) = (search.step.min(search.radius), 0);
        for _ in 0..search.max_steps {
            let slope = length(uphill);
            if step < search.min_step || slope == 0.0 || !slope.is_finite() {
                break;
            }
            let trial = clamp_to_ball(start, best + uphill * (step / slope), search.radius);
            let (value, gradient) = self.value_and_gradient(trial);
            if sign * value > best_value {
                (best, best_value, uphill) = (trial, sign * value, gradient * sign);
                step = (step * 2.0).min(search.radius);
                steps += 1;
            } else {
                step *= 0.5;
            }
        }
        Ok((best, sign * best_value, steps))
    }
}

/// `p` moved onto the ball of `radius` around `centre` if it lies outside.
fn clamp_to_ball<P: Point>(centre: P, p: P, radius: f32) -> P {
    let offset = p - centre;
    let d = length(offset);
    if d > radius {
        centre + offset * (radius / d)
    } else {
        p
    }
}
