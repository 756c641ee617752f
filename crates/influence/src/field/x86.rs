//! A bin of linear sources in the plane summed with AVX-512, 16 entries a vector: the
//! entries' distances, reach and boxes tested without a branch per entry, then the
//! contributions of those in reach packed together and added one by one in the entries'
//! order, as the scalar loop adds them, so the sum is the same bits.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m512, _mm512_add_ps, _mm512_cmp_ps_mask, _mm512_div_ps, _mm512_loadu_ps, _mm512_maskz_compress_ps,
    _mm512_maskz_loadu_ps, _mm512_mul_ps, _mm512_permutex2var_ps, _mm512_set1_ps, _mm512_setr_epi32,
    _mm512_sqrt_ps, _mm512_storeu_ps, _mm512_sub_ps, _CMP_LE_OQ,
};

/// The AVX-512 bin summer. A value of it is the proof that the CPU has AVX-512 F and BW:
/// [`new`](Self::new) is the only way to make one.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx512(());

impl Avx512 {
    /// The summer, if this CPU runs it (and `INFLUENCE_KERNEL` allows it).
    pub(super) fn new() -> Option<Self> {
        crate::simd::avx512().then_some(Self(()))
    }

    /// The sum over `entries` (`[x, y, strength, radius]` each) of the linear sources'
    /// values at `p`, for those whose box holds `p`: what `Bins::linear_value`'s scalar loop
    /// gives.
    pub(super) fn linear_sum(self, entries: &[[f32; 4]], p: [f32; 2]) -> f32 {
        let Self(()) = self;
        // SAFETY: the value proves the CPU has AVX-512 F and BW.
        unsafe { linear_sum(entries, p) }
    }
}

/// [`Avx512::linear_sum`].
///
/// # Safety
/// The CPU has AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
fn linear_sum(entries: &[[f32; 4]], [px, py]: [f32; 2]) -> f32 {
    // From four entries a vector to one field a vector: first x and y of eight entries (of
    // two vectors) into one, then of sixteen; likewise strength and radius.
    let pick = |k: i32| {
        _mm512_setr_epi32(
            k,
            4 + k,
            8 + k,
            12 + k,
            16 + k,
            20 + k,
            24 + k,
            28 + k,
            1 + k,
            5 + k,
            9 + k,
            13 + k,
            17 + k,
            21 + k,
            25 + k,
            29 + k,
        )
    };
    let (xy, sr) = (pick(0), pick(2));
    let low = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
    let high = _mm512_setr_epi32(8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31);
    let (x, y, one) = (_mm512_set1_ps(px), _mm512_set1_ps(py), _mm512_set1_ps(1.0));
    let mut sum = 0.0f32;
    let mut values = [0.0f32; 16];
    // Whole blocks of 16 entries read straight, the last one partly through masks: the
    // masks cost about as many instructions as the block's arithmetic.
    let whole = entries.len() / 16;
    for (b, block) in entries.chunks(16).enumerate() {
        let n = block.len();
        let floats = block.as_ptr().cast::<f32>();
        let load = |k: usize| {
            if b < whole {
                // SAFETY: a whole block holds 16 entries, 64 floats.
                return unsafe { _mm512_loadu_ps(floats.add(16 * k)) };
            }
            let present = n.saturating_sub(4 * k).min(4);
            let lanes = if present == 0 { 0 } else { u16::MAX >> (16 - 4 * present) };
            // SAFETY: the mask selects the floats of the entries 4k .. 4k + 4 of `block`
            // that it holds.
            unsafe { _mm512_maskz_loadu_ps(lanes, floats.wrapping_add(16 * k)) }
        };
        let (v0, v1, v2, v3) = (load(0), load(1), load(2), load(3));
        let (a, b) = (_mm512_permutex2var_ps(v0, xy, v1), _mm512_permutex2var_ps(v2, xy, v3));
        let (c, d) = (_mm512_permutex2var_ps(v0, sr, v1), _mm512_permutex2var_ps(v2, sr, v3));
        let (cx, cy) = (_mm512_permutex2var_ps(a, low, b), _mm512_permutex2var_ps(a, high, b));
        let (strength, radius) = (_mm512_permutex2var_ps(c, low, d), _mm512_permutex2var_ps(c, high, d));
        let le = |a: __m512, b: __m512| _mm512_cmp_ps_mask::<_CMP_LE_OQ>(a, b);
        let (dx, dy) = (_mm512_sub_ps(x, cx), _mm512_sub_ps(y, cy));
        let d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
        // In reach, and the box (as the tree stores it: corners `position ∓ radius`) holds p.
        let inside = le(d2, _mm512_mul_ps(radius, radius))
            & le(_mm512_sub_ps(cx, radius), x)
            & le(x, _mm512_add_ps(cx, radius))
            & le(_mm512_sub_ps(cy, radius), y)
            & le(y, _mm512_add_ps(cy, radius))
            & (u32::from(u16::MAX) >> (16 - n)) as u16;
        if inside == 0 {
            continue;
        }
        let d = _mm512_sqrt_ps(d2);
        // `Curve::Linear`: 1 − d / r, and 0 beyond r (which adds nothing to the sum: such
        // lanes, possible only where r² is below the normal range, are left out).
        let inside = inside & le(d, radius);
        let factor = _mm512_sub_ps(one, _mm512_div_ps(d, radius));
        // The contributions in reach, in order, packed to the front; +0 after them.
        let packed = _mm512_maskz_compress_ps(inside, _mm512_mul_ps(strength, factor));
        // SAFETY: `values` holds 16 floats.
        unsafe { _mm512_storeu_ps(values.as_mut_ptr(), packed) };
        // Added in order, then the +0s, which leave the sum as it is (it starts at +0 and is
        // never −0: x + (−x) is +0): a fixed count of additions, where a loop over the lanes
        // in reach ended at a different count each block, and its mispredicted exits took a
        // third of a query's time (67 ns a query against 42 on an Intel Xeon core).
        let take = if inside.count_ones() <= 8 { 8 } else { 16 };
        for v in &values[..take] {
            sum += v;
        }
    }
    sum
}
