//! The dimension abstraction: every field algorithm is written once over [`Point`], which
//! glam's [`Vec2`] and [`Vec3`] implement.

use std::fmt::Debug;
use std::ops::{Add, Mul, Sub};

use glam::{Vec2, Vec3};

use crate::error::{finite, Error};

/// A position in 2D ([`Vec2`]) or 3D ([`Vec3`]) space. Sealed: only those two implement it.
///
/// ```
/// use influence::field::{Curve, Field, Point, PointSource};
/// use influence::glam::{Vec2, Vec3};
/// // Written once, for either dimension.
/// fn peak<P: Point>(at: P) -> f32 {
///     Field::new(vec![PointSource::new(at, 2.0, 1.0, Curve::Linear).unwrap()]).value(at)
/// }
/// assert_eq!((peak(Vec2::ONE), peak(Vec3::ONE)), (2.0, 2.0));
/// ```
// The private supertrait seals it and keeps what the algorithms need out of the public API.
#[allow(private_bounds)]
pub trait Point:
    sealed::Coords
    + Copy
    + Debug
    + Default
    + PartialEq
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<f32, Output = Self>
{
}

impl Point for Vec2 {}
impl Point for Vec3 {}

pub(crate) mod sealed {
    use super::{Vec2, Vec3};

    /// What the field's algorithms need of a point, kept out of the public API.
    pub(crate) trait Coords: Sized + Send + Sync + 'static {
        /// The point as an `rstar` point.
        type Array: rstar::Point<Scalar = f32> + AsRef<[f32]> + Copy;
        /// The origin.
        const ZERO: Self;
        /// The coordinates as an array.
        fn array(self) -> Self::Array;
        /// All coordinates equal to `v`.
        fn splat(v: f32) -> Self;
        /// Dot product.
        fn dot(self, other: Self) -> f32;
        /// The `i`-th of `n` unit directions spread evenly: around a circle in 2D, over a
        /// sphere (the Fibonacci lattice) in 3D.
        fn direction(i: usize, n: usize) -> Self;
        /// The point at `xy` (and height `z` in 3D).
        fn lift(xy: Vec2, z: f32) -> Self;
    }

    impl Coords for Vec2 {
        type Array = [f32; 2];
        const ZERO: Self = Vec2::ZERO;
        fn array(self) -> [f32; 2] {
            self.to_array()
        }
        fn splat(v: f32) -> Self {
            Vec2::splat(v)
        }
        fn dot(self, other: Self) -> f32 {
            Vec2::dot(self, other)
        }
        fn direction(i: usize, n: usize) -> Self {
            Vec2::from_angle(std::f32::consts::TAU * i as f32 / n as f32)
        }
        fn lift(xy: Vec2, _z: f32) -> Self {
            xy
        }
    }

    impl Coords for Vec3 {
        type Array = [f32; 3];
        const ZERO: Self = Vec3::ZERO;
        fn array(self) -> [f32; 3] {
            self.to_array()
        }
        fn splat(v: f32) -> Self {
            Vec3::splat(v)
        }
        fn dot(self, other: Self) -> f32 {
            Vec3::dot(self, other)
        }
        fn direction(i: usize, n: usize) -> Self {
            // Equal-area bands in z, successive points turned by the golden angle.
            let z = 1.0 - (2.0 * i as f32 + 1.0) / n as f32;
            let ring = (1.0 - z * z).max(0.0).sqrt();
            let (sin, cos) = (i as f32 * std::f32::consts::PI * (3.0 - 5f32.sqrt())).sin_cos();
            Vec3::new(ring * cos, ring * sin, z)
        }
        fn lift(xy: Vec2, z: f32) -> Self {
            xy.extend(z)
        }
    }
}

/// Length of `p`.
pub(crate) fn length<P: Point>(p: P) -> f32 {
    p.dot(p).sqrt()
}

/// Whether every coordinate of `p` is finite.
pub(crate) fn is_finite<P: Point>(p: P) -> bool {
    p.array().as_ref().iter().all(|v| v.is_finite())
}

/// Checks each coordinate of `p`, naming the bad one with `names[axis]` (x, y, z).
pub(crate) fn finite_point<P: Point>(names: [&'static str; 3], p: P) -> Result<P, Error> {
    for (&v, name) in p.array().as_ref().iter().zip(names) {
        finite(name, v)?;
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::sealed::Coords;
    use super::*;

    #[test]
    fn directions_are_unit_and_circles_balanced() {
        for n in [1, 4, 7, 32] {
            let sum2: Vec2 = (0..n).map(|i| Vec2::direction(i, n)).sum();
            for i in 0..n {
                assert!((Vec2::direction(i, n).length() - 1.0).abs() < 1e-5);
                assert!((Vec3::direction(i, n).length() - 1.0).abs() < 1e-5);
            }
            if n > 1 {
                assert!(sum2.length() < 1e-4, "{n}: {sum2}");
            }
        }
    }

    #[test]
    fn names_the_bad_axis() {
        let names = ["p x", "p y", "p z"];
        assert!(finite_point(names, Vec3::new(1.0, 2.0, 3.0)).is_ok());
        let err = finite_point(names, Vec3::new(1.0, 2.0, f32::NAN)).unwrap_err().to_string();
        assert!(err.contains("p z"), "{err}");
        let err = finite_point(names, Vec2::new(f32::INFINITY, 0.0)).unwrap_err().to_string();
        assert!(err.contains("p x"), "{err}");
    }
}
