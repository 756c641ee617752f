//! A layer: one `f32` per cell of a space, and element-wise algebra on layers.
//!
//! Every operation works in place on `self` and allocates nothing, so a game can keep its
//! layers and rebuild them every frame. Operations that combine two layers require them to
//! have the same length (layers made for the same space always do) and panic otherwise, as
//! slice indexing does: a mismatch is a programming error, never bad input.

mod derived;

use std::ops::{Index, IndexMut};

use crate::space::Space;

/// Values per cell, indexed like the space they were made for.
///
/// ```
/// use influence::Layer;
/// let mut a = Layer::from_vec(vec![1.0, -2.0, 3.0]);
/// let b = Layer::from_vec(vec![0.5, 0.5, 0.5]);
/// a.add_scaled(&b, 2.0).abs().clamp(0.0, 3.5);
/// assert_eq!(a.values(), &[2.0, 1.0, 3.5]);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layer {
    values: Vec<f32>,
}

impl Layer {
    /// A layer of `len` zeros.
    pub fn zeros(len: usize) -> Self {
        Self { values: vec![0.0; len] }
    }

    /// A layer of zeros with one value per cell of `space`.
    pub fn for_space(space: &impl Space) -> Self {
        Self::zeros(space.len())
    }

    /// Wraps existing values (row-major for a grid).
    pub fn from_vec(values: Vec<f32>) -> Self {
        Self { values }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// `true` if the layer holds no values.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The values, row-major for a grid.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// The values, mutable.
    pub fn values_mut(&mut self) -> &mut [f32] {
        &mut self.values
    }

    /// Gives the values back.
    pub fn into_vec(self) -> Vec<f32> {
        self.values
    }

    /// Bytes this layer holds on the heap: 4 per value of capacity.
    ///
    /// ```
    /// assert_eq!(influence::Layer::zeros(1000).heap_bytes(), 4000);
    /// ```
    pub fn heap_bytes(&self) -> usize {
        self.values.capacity() * std::mem::size_of::<f32>()
    }

    /// Smallest and largest value, or `None` for an empty layer.
    pub fn min_max(&self) -> Option<(f32, f32)> {
        let first = *self.values.first()?;
        Some(self.values.iter().fold((first, first), |(lo, hi), &v| (lo.min(v), hi.max(v))))
    }

    /// Largest absolute value (0 for an empty layer).
    pub fn max_abs(&self) -> f32 {
        self.values.iter().fold(0.0, |m, v| m.max(v.abs()))
    }

    /// Sum of all values, accumulated in `f64`.
    pub fn sum(&self) -> f64 {
        self.values.iter().map(|&v| f64::from(v)).sum()
    }

    /// Sets every value to `v`.
    pub fn fill(&mut self, v: f32) -> &mut Self {
        self.values.fill(v);
        self
    }

    /// Copies `other`'s values into `self` (no allocation when lengths match).
    pub fn copy_from(&mut self, other: &Layer) -> &mut Self {
        self.values.copy_from_slice(&other.values);
        self
    }

    /// Applies `f` to every value.
    pub fn map(&mut self, f: impl Fn(f32) -> f32) -> &mut Self {
        for v in &mut self.values {
            *v = f(*v);
        }
        self
    }

    /// Sets each value to `f(self, other)` of the same cell.
    ///
    /// # Panics
    /// If the layers have different lengths.
    pub fn zip_map(&mut self, other: &Layer, f: impl Fn(f32, f32) -> f32) -> &mut Self {
        assert_eq!(self.len(), other.len(), "layers of different lengths");
        for (v, &o) in self.values.iter_mut().zip(&other.values) {
            *v = f(*v, o);
        }
        self
    }

    /// `self += other`.
    pub fn add(&mut self, other: &Layer) -> &mut Self {
        self.zip_map(other, |a, b| a + b)
    }

    /// `self += weight · other`: the weighted sum, one term at a time.
    pub fn add_scaled(&mut self, other: &Layer, weight: f32) -> &mut Self {
        self.zip_map(other, |a, b| a + weight * b)
    }

    /// `self -= other`.
    pub fn sub(&mut self, other: &Layer) -> &mut Self {
        self.zip_map(other, |a, b| a - b)
    }

    /// `self *= other`, cell by cell.
    pub fn mul(&mut self, other: &Layer) -> &mut Self {
        self.zip_map(other, |a, b| a * b)
    }

    /// `self = min(self, other)`, cell by cell.
    pub fn min_with(&mut self, other: &Layer) -> &mut Self {
        self.zip_map(other, f32::min)
    }

    /// `self = max(self, other)`, cell by cell.
    pub fn max_with(&mut self, other: &Layer) -> &mut Self {
        self.zip_map(other, f32::max)
    }

    /// Sets `self` to `Σ weightᵢ · layerᵢ` (zero for no terms).
    ///
    /// ```
    /// use influence::Layer;
    /// let (water, fire) = (Layer::from_vec(vec![3.0, 1.0]), Layer::from_vec(vec![1.0, 2.0]));
    /// let mut safety = Layer::zeros(2);
    /// safety.weighted_sum(&[(&water, 1.0), (&fire, -1.0)]);
    /// assert_eq!(safety.values(), &[2.0, -1.0]);
    /// ```
    pub fn weighted_sum(&mut self, terms: &[(&Layer, f32)]) -> &mut Self {
        self.fill(0.0);
        for (layer, weight) in terms {
            self.add_scaled(layer, *weight);
        }
        self
    }

    /// Multiplies every value by `k`.
    pub fn scale(&mut self, k: f32) -> &mut Self {
        self.map(|v| v * k)
    }

    /// Replaces every value by its absolute value.
    pub fn abs(&mut self) -> &mut Self {
        self.map(f32::abs)
    }

    /// Clamps every value into `[lo, hi]`.
    pub fn clamp(&mut self, lo: f32, hi: f32) -> &mut Self {
        self.map(|v| v.max(lo).min(hi))
    }

    /// Divides by the largest absolute value, so values land in `[-1, 1]` with zero and
    /// signs kept (a signed influence map stays signed). An all-zero layer stays zero.
    pub fn normalize(&mut self) -> &mut Self {
        let m = self.max_abs();
        if m > 0.0 {
            self.scale(1.0 / m);
        }
        self
    }

    /// Mirrors values within their range: `v → min + max − v`, so the best cell becomes the
    /// worst; on a normalized `[0, 1]` layer this is `1 − v`.
    pub fn invert(&mut self) -> &mut Self {
        if let Some((lo, hi)) = self.min_max() {
            self.map(|v| lo + hi - v);
        }
        self
    }

    /// Zeroes every value below `t`, keeping the others.
    pub fn threshold(&mut self, t: f32) -> &mut Self {
        self.map(|v| if v >= t { v } else { 0.0 })
    }
}

impl Index<usize> for Layer {
    type Output = f32;
    fn index(&self, i: usize) -> &f32 {
        &self.values[i]
    }
}

impl IndexMut<usize> for Layer {
    fn index_mut(&mut self, i: usize) -> &mut f32 {
        &mut self.values[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(v: &[f32]) -> Layer {
        Layer::from_vec(v.to_vec())
    }

    #[test]
    fn two_layer_ops() {
        let b = l(&[2.0, -1.0, 0.5]);
        assert_eq!(l(&[1.0, 1.0, 1.0]).add(&b).values(), &[3.0, 0.0, 1.5]);
        assert_eq!(l(&[1.0, 1.0, 1.0]).sub(&b).values(), &[-1.0, 2.0, 0.5]);
        assert_eq!(l(&[1.0, 2.0, 4.0]).mul(&b).values(), &[2.0, -2.0, 2.0]);
        assert_eq!(l(&[1.0, 2.0, 4.0]).min_with(&b).values(), &[1.0, -1.0, 0.5]);
        assert_eq!(l(&[1.0, 2.0, 4.0]).max_with(&b).values(), &[2.0, 2.0, 4.0]);
        assert_eq!(l(&[1.0, 2.0, 4.0]).add_scaled(&b, -2.0).values(), &[-3.0, 4.0, 3.0]);
    }

    #[test]
    fn one_layer_ops() {
        assert_eq!(l(&[-2.0, 1.0]).scale(3.0).values(), &[-6.0, 3.0]);
        assert_eq!(l(&[-2.0, 1.0]).abs().values(), &[2.0, 1.0]);
        assert_eq!(l(&[-2.0, 1.0, 5.0]).clamp(-1.0, 2.0).values(), &[-1.0, 1.0, 2.0]);
        assert_eq!(l(&[-4.0, 2.0, 0.0]).normalize().values(), &[-1.0, 0.5, 0.0]);
        assert_eq!(l(&[0.0, 0.0]).normalize().values(), &[0.0, 0.0]);
        assert_eq!(l(&[0.0, 0.25, 1.0]).invert().values(), &[1.0, 0.75, 0.0]);
        assert_eq!(l(&[2.0, 4.0, 3.0]).invert().values(), &[4.0, 2.0, 3.0]);
        assert_eq!(l(&[0.1, 0.5, -3.0]).threshold(0.5).values(), &[0.0, 0.5, 0.0]);
        assert_eq!(l(&[0.1, -7.0, 3.0]).min_max(), Some((-7.0, 3.0)));
        assert_eq!(Layer::zeros(0).min_max(), None);
    }

    #[test]
    fn weighted_sum_replaces_contents() {
        let a = l(&[1.0, 2.0]);
        let b = l(&[10.0, 20.0]);
        let mut out = l(&[99.0, 99.0]);
        out.weighted_sum(&[(&a, 2.0), (&b, 0.5)]);
        assert_eq!(out.values(), &[7.0, 14.0]);
    }

    #[test]
    #[should_panic(expected = "different lengths")]
    fn mismatched_lengths_panic() {
        l(&[1.0]).add(&l(&[1.0, 2.0]));
    }
}
