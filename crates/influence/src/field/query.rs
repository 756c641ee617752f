//! Point queries: the field's value (the sum of the sources' falloffs, "Escaping the Grid"
//! Equation 29.4) and its analytic gradient (the sum of theirs, Equation 29.6).

use super::point::Point;
use super::Field;

impl<P: Point> Field<P> {
    /// The value at `p`: the sum over sources within their radius of `p`.
    ///
    /// ```
    /// use influence::field::{Curve, Field, PointSource};
    /// use influence::glam::Vec2;
    /// let field = Field::new(vec![
    ///     PointSource::new(Vec2::ZERO, 4.0, 8.0, Curve::Linear)?,
    ///     PointSource::new(Vec2::new(4.0, 0.0), -2.0, 8.0, Curve::Linear)?,
    /// ]);
    /// assert_eq!(field.value(Vec2::new(2.0, 0.0)), 4.0 * 0.75 - 2.0 * 0.75);
    /// # Ok::<(), influence::Error>(())
    /// ```
    #[inline]
    pub fn value(&self, p: P) -> f32 {
        if let Some(sum) = self.index.linear_value(p) {
            return sum;
        }
        let mut sum = 0.0;
        self.index.for_each_near(p, |i| sum += self.sources[i].value_at(p));
        sum
    }

    /// Value and gradient at `p` in one pass over the nearby sources; the gradient is the
    /// direction and rate of steepest increase.
    ///
    /// ```
    /// use influence::field::{Curve, Field, PointSource};
    /// use influence::glam::Vec3;
    /// let field = Field::new(vec![PointSource::new(Vec3::ZERO, 1.0, 10.0, Curve::Linear)?]);
    /// let (value, gradient) = field.value_and_gradient(Vec3::new(0.0, 0.0, 5.0));
    /// assert_eq!(value, 0.5);
    /// assert!(gradient.abs_diff_eq(Vec3::new(0.0, 0.0, -0.1), 1e-7)); // uphill: towards the source
    /// # Ok::<(), influence::Error>(())
    /// ```
    #[inline]
    pub fn value_and_gradient(&self, p: P) -> (f32, P) {
        let (mut value, mut gradient) = (0.0, P::ZERO);
        self.index.for_each_near(p, |i| {
            let (v, g) = self.sources[i].value_and_gradient_at(p);
            value += v;
            gradient = gradient + g;
        });
        (value, gradient)
    }
}
