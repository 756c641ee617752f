//! A layer: one `f32` per cell of a space, and element-wise algebra on layers.
//!
//! Every operation works in place on `self` and allocates nothing, so a game can keep its
//! layers and rebuild them every frame. Operations that combine two layers require them to
//! have the same length (layers made for the same space always do) and panic otherwise, as
//! slice indexing does: a mismatch is a programming error, never bad input.
//!
//! The algebra is two general calls with closures rather than a method per operation:
//! [`Layer::map`] for one layer (scale, absolute value, clamp, threshold, invert) and
//! [`Layer::zip_map`] for two (add, subtract, multiply, add a scaled layer, minimum,
//! maximum, copy); each is one loop the compiler specialises to the closure. What needs the
//! whole layer keeps its name: [`Layer::weighted_sum`], [`Layer::normalize`].

mod derived;

use std::ops::{Index, IndexMut};

use crate::space::Space;

/// Values per cell, indexed like the space they were made for.
///
/// ```
/// use influence::Layer;
/// let mut a = Layer::from_vec(vec![1.0, -2.0, 3.0]);
/// let b = Layer::from_vec(vec![0.5, 0.5, 0.5]);
/// a.zip_map(&b, |a, b| a + 2.0 * b).map(f32::abs).map(|v| v.clamp(0.0, 3.5));
/// assert_eq!(a.values(), &[2.0, 1.0, 3.5]);
/// ```
#[derive(Default)]
pub struct Layer {
    /// The values at `start..`, after `start` unused cells that put the first value of a layer
    /// the library allocates on a 64-byte boundary (see [`Layer::zeros`]).
    buf: Vec<f32>,
    start: usize,
}

/// Cells a layer may skip at its start so that its values begin on a cache line: one fewer
/// than fit in 64 bytes.
const ALIGN_CELLS: usize = 64 / std::mem::size_of::<f32>() - 1;

impl Layer {
    /// A layer of `len` zeros, its first value on a 64-byte boundary (at the cost of up to
    /// 60 bytes more). The grid kernels read and write a map in vectors of 16 cells that
    /// follow the cache lines: when rows start on one, as every row of a map a multiple of 16
    /// cells wide then does, no vector straddles two lines and none covers a row's end only
    /// in part. A diffusion step at 256² took about 6 % less time so on AVX-512.
    pub fn zeros(len: usize) -> Self {
        Self::zeros_placed(len, ALIGN_CELLS, |base| {
            (base as usize).wrapping_neg() % 64 / std::mem::size_of::<f32>()
        })
    }

    /// A layer of `len` zeros in a buffer with `spare` cells more, starting at the index
    /// `start` finds from the buffer's address (at most `spare`): [`Layer::zeros`] starts on
    /// a cache line so, and a propagator its second buffer apart from its first.
    pub(crate) fn zeros_placed(len: usize, spare: usize, start: impl FnOnce(*const f32) -> usize) -> Self {
        if len == 0 {
            return Self::default();
        }
        let mut buf = vec![0.0; len + spare];
        let start = start(buf.as_ptr());
        assert!(start <= spare, "a layer's start within its spare cells");
        buf.truncate(start + len);
        Self { buf, start }
    }

    /// A layer of zeros with one value per cell of `space`.
    pub fn for_space(space: &impl Space) -> Self {
        Self::zeros(space.len())
    }

    /// Wraps existing values (row-major for a grid), where they are: no copy.
    pub fn from_vec(values: Vec<f32>) -> Self {
        Self { buf: values, start: 0 }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.buf.len() - self.start
    }

    /// `true` if the layer holds no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values, row-major for a grid.
    pub fn values(&self) -> &[f32] {
        &self.buf[self.start..]
    }

    /// The values, mutable.
    pub fn values_mut(&mut self) -> &mut [f32] {
        &mut self.buf[self.start..]
    }

    /// Gives the values back, without allocating: those of [`Layer::from_vec`] as they
    /// were, others moved to the start of their buffer if they did not begin there.
    pub fn into_vec(self) -> Vec<f32> {
        let Self { mut buf, start } = self;
        buf.drain(..start);
        buf
    }

    /// Bytes this layer holds on the heap: 4 per value of capacity, with the up to 60 bytes
    /// that align a layer the library allocates ([`Layer::zeros`]).
    ///
    /// ```
    /// let bytes = influence::Layer::zeros(1000).heap_bytes();
    /// assert!((4000..=4060).contains(&bytes));
    /// ```
    pub fn heap_bytes(&self) -> usize {
        self.buf.capacity() * std::mem::size_of::<f32>()
    }

    /// Smallest and largest value, or `None` for an empty layer.
    pub fn min_max(&self) -> Option<(f32, f32)> {
        let first = *self.values().first()?;
        Some(self.values().iter().fold((first, first), |(lo, hi), &v| (lo.min(v), hi.max(v))))
    }

    /// Largest absolute value (0 for an empty layer).
    pub fn max_abs(&self) -> f32 {
        self.values().iter().fold(0.0, |m, v| m.max(v.abs()))
    }

    /// Sum of all values, accumulated in `f64`.
    pub fn sum(&self) -> f64 {
        self.values().iter().map(|&v| f64::from(v)).sum()
    }

    /// Sets every value to `v`.
    pub fn fill(&mut self, v: f32) -> &mut Self {
        self.values_mut().fill(v);
        self
    }

    /// Applies `f` to every value: the one-layer algebra.
    ///
    /// ```
    /// use influence::Layer;
    /// let mut l = Layer::from_vec(vec![-2.0, 0.5, 4.0]);
    /// l.map(|v| v * 2.0)                         // scale
    ///     .map(f32::abs)                         // absolute value
    ///     .map(|v| v.clamp(0.0, 6.0))            // clamp
    ///     .map(|v| if v >= 2.0 { v } else { 0.0 }); // threshold: zero below 2
    /// assert_eq!(l.values(), &[4.0, 0.0, 6.0]);
    /// // Invert within the range (the best cell becomes the worst): v → min + max − v.
    /// if let Some((lo, hi)) = l.min_max() {
    ///     l.map(|v| lo + hi - v);
    /// }
    /// assert_eq!(l.values(), &[2.0, 6.0, 0.0]);
    /// ```
    pub fn map(&mut self, f: impl Fn(f32) -> f32) -> &mut Self {
        for v in self.values_mut() {
            *v = f(*v);
        }
        self
    }

    /// Sets each value to `f(self, other)` of the same cell: the two-layer algebra.
    ///
    /// ```
    /// use influence::Layer;
    /// let (mut a, b) = (Layer::from_vec(vec![1.0, 4.0]), Layer::from_vec(vec![2.0, -1.0]));
    /// a.zip_map(&b, |a, b| a + b);                // add (a - b: subtract, a * b: multiply)
    /// assert_eq!(a.values(), &[3.0, 3.0]);
    /// a.zip_map(&b, |a, b| a + 0.5 * b);          // add a scaled layer
    /// assert_eq!(a.values(), &[4.0, 2.5]);
    /// a.zip_map(&b, f32::min);                    // cell-wise minimum (f32::max: maximum)
    /// assert_eq!(a.values(), &[2.0, -1.0]);
    /// a.zip_map(&Layer::from_vec(vec![7.0, 8.0]), |_, b| b); // copy
    /// assert_eq!(a.values(), &[7.0, 8.0]);
    /// ```
    ///
    /// # Panics
    /// If the layers have different lengths.
    pub fn zip_map(&mut self, other: &Layer, f: impl Fn(f32, f32) -> f32) -> &mut Self {
        assert_eq!(self.len(), other.len(), "layers of different lengths");
        for (v, &o) in self.values_mut().iter_mut().zip(other.values()) {
            *v = f(*v, o);
        }
        self
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
        for &(layer, weight) in terms {
            self.zip_map(layer, |a, b| a + weight * b);
        }
        self
    }

    /// Divides by the largest absolute value, so values land in `[-1, 1]` with zero and
    /// signs kept (a signed influence map stays signed). An all-zero layer stays zero.
    pub fn normalize(&mut self) -> &mut Self {
        let m = self.max_abs();
        if m > 0.0 {
            let k = 1.0 / m;
            self.map(|v| v * k);
        }
        self
    }
}

impl Clone for Layer {
    /// A layer of the same values, aligned as [`Layer::zeros`] aligns.
    fn clone(&self) -> Self {
        let mut copy = Self::zeros(self.len());
        copy.values_mut().copy_from_slice(self.values());
        copy
    }

    /// Copies `source`'s values into this layer's buffer when the lengths agree: no allocation.
    fn clone_from(&mut self, source: &Self) {
        if self.len() == source.len() {
            self.values_mut().copy_from_slice(source.values());
        } else {
            *self = source.clone();
        }
    }
}

impl PartialEq for Layer {
    fn eq(&self, other: &Self) -> bool {
        self.values() == other.values()
    }
}

impl std::fmt::Debug for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Layer").field("values", &self.values()).finish()
    }
}

impl Index<usize> for Layer {
    type Output = f32;
    fn index(&self, i: usize) -> &f32 {
        &self.values()[i]
    }
}

impl IndexMut<usize> for Layer {
    fn index_mut(&mut self, i: usize) -> &mut f32 {
        &mut self.values_mut()[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(v: &[f32]) -> Layer {
        Layer::from_vec(v.to_vec())
    }

    #[test]
    fn one_layer_ops() {
        assert_eq!(l(&[-4.0, 2.0, 0.0]).normalize().values(), &[-1.0, 0.5, 0.0]);
        assert_eq!(l(&[0.0, 0.0]).normalize().values(), &[0.0, 0.0]);
        assert_eq!(l(&[0.1, -7.0, 3.0]).min_max(), Some((-7.0, 3.0)));
        assert_eq!(Layer::zeros(0).min_max(), None);
        assert_eq!(l(&[-2.0, 1.0]).fill(3.0).values(), &[3.0, 3.0]);
    }

    #[test]
    fn weighted_sum_replaces_contents() {
        let a = l(&[1.0, 2.0]);
        let b = l(&[10.0, 20.0]);
        let mut out = l(&[99.0, 99.0]);
        out.weighted_sum(&[(&a, 2.0), (&b, 0.5)]);
        assert_eq!(out.values(), &[7.0, 14.0]);
    }

    /// Layers the library allocates start on a cache line; whatever their padding, they
    /// compare, clone, print and give their values back as the values alone.
    #[test]
    fn aligned_layers_behave_as_their_values() {
        for len in [1, 2, 15, 16, 17, 1000, 70_000] {
            let mut a = Layer::zeros(len);
            assert_eq!(a.values().as_ptr() as usize % 64, 0, "{len} cells");
            assert_eq!((a.len(), a.is_empty()), (len, false));
            for (i, v) in a.values_mut().iter_mut().enumerate() {
                *v = i as f32;
            }
            let want: Vec<f32> = (0..len).map(|i| i as f32).collect();
            let wrapped = Layer::from_vec(want.clone());
            assert_eq!(a, wrapped);
            let copy = a.clone();
            assert_eq!(copy.values().as_ptr() as usize % 64, 0);
            assert_eq!(copy, a);
            let mut into = Layer::zeros(len);
            let before = into.values().as_ptr();
            into.clone_from(&wrapped);
            assert_eq!((into.values().as_ptr(), &into), (before, &a), "same length: copied in place");
            assert_eq!(format!("{a:?}"), format!("{wrapped:?}"));
            assert_eq!(a[len - 1], (len - 1) as f32);
            assert_eq!(a.into_vec(), want);
        }
        assert_eq!(Layer::zeros(0), Layer::default());
        assert!(Layer::zeros(0).into_vec().is_empty());
    }

    #[test]
    #[should_panic(expected = "different lengths")]
    fn mismatched_lengths_panic() {
        l(&[1.0]).zip_map(&l(&[1.0, 2.0]), |a, b| a + b);
    }
}
