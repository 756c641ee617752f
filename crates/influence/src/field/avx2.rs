//! A bin of linear sources in the plane summed with AVX2, 8 entries a vector, for CPUs
//! without AVX-512: the entries' distances, reach and boxes tested without a branch, then
//! the contributions of those in reach packed together in the entries' order and added one
//! by one, as the scalar loop adds them, so the sum is the same bits.
//!
//! AVX2 has no compress instruction: a table, indexed by the lanes in reach, gives the
//! permutation that packs them. The packed contributions of the whole bin are gathered in a
//! buffer and added in one loop at the end: a loop over each vector's lanes in reach ends
//! at a different count each time, and its mispredicted exits would cost more than the
//! arithmetic saved.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m256, _mm256_add_ps, _mm256_and_ps, _mm256_cmp_ps, _mm256_cvtepu8_epi32, _mm256_div_ps,
    _mm256_loadu_ps, _mm256_loadu_si256, _mm256_maskload_ps, _mm256_movemask_ps, _mm256_mul_ps,
    _mm256_permutevar8x32_ps, _mm256_set1_ps, _mm256_shuffle_ps, _mm256_sqrt_ps, _mm256_storeu_ps,
    _mm256_sub_ps, _mm256_unpackhi_ps, _mm256_unpacklo_ps, _mm_loadl_epi64, _CMP_LE_OQ,
};

/// The AVX2 bin summer. A value of it is the proof that the CPU has AVX2 and POPCNT (which
/// every CPU with AVX2 has): [`new`](Self::new) is the only way to make one.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx2(());

impl Avx2 {
    /// The summer, if this CPU runs it (and `INFLUENCE_KERNEL` allows it).
    pub(super) fn new() -> Option<Self> {
        (crate::simd::avx2() && std::arch::is_x86_feature_detected!("popcnt")).then_some(Self(()))
    }

    /// The sum over `entries` (`[x, y, strength, radius]` each) of the linear sources'
    /// values at `p`, for those whose box holds `p`: what the scalar loop gives.
    pub(super) fn linear_sum(self, entries: &[[f32; 4]], p: [f32; 2]) -> f32 {
        let Self(()) = self;
        // SAFETY: the value proves the CPU has AVX2 and POPCNT.
        unsafe { linear_sum(entries, p) }
    }
}

/// The lane each of a vector's 8 entries lands in. Loaded two entries a vector and
/// transposed within each 128-bit half, the even entries fill the low half and the odd
/// ones the high half.
const LANE: [u8; 8] = [0, 4, 1, 5, 2, 6, 3, 7];

/// For each set of lanes in reach (a movemask), the lanes to read to pack their
/// contributions to the front in the entries' order; the lanes out of reach follow.
static PACK: [[u8; 8]; 256] = pack_table();

/// [`PACK`].
const fn pack_table() -> [[u8; 8]; 256] {
    let mut table = [[0; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut at = 0;
        // The lanes in reach (their bit set) first, then the others.
        let mut pass = 0;
        while pass < 2 {
            let mut entry = 0;
            while entry < 8 {
                let lane = LANE[entry];
                if ((mask >> lane) & 1 == 1) == (pass == 0) {
                    table[mask][at] = lane;
                    at += 1;
                }
                entry += 1;
            }
            pass += 1;
        }
        mask += 1;
    }
    table
}

/// For each count `n` of entries in a block (0 to 8), the movemask of their lanes.
const PRESENT: [u32; 9] = {
    let mut present = [0; 9];
    let mut n = 1;
    while n <= 8 {
        present[n] = present[n - 1] | 1 << LANE[n - 1];
        n += 1;
    }
    present
};

/// 32 set words then 32 clear: the 8 words from `32 - 4n + 8k` mask the floats of the
/// entries `2k` and `2k + 1` among the first `n`.
static WINDOW: [i32; 64] = {
    let mut window = [0; 64];
    let mut i = 0;
    while i < 32 {
        window[i] = -1;
        i += 1;
    }
    window
};

/// Packed contributions gathered before they are added: past this many, they are added
/// there and then, so a bin of any length fits.
const GATHERED: usize = 16;

/// [`Avx2::linear_sum`].
///
/// # Safety
/// The CPU has AVX2 and POPCNT.
#[target_feature(enable = "avx2,popcnt")]
fn linear_sum(entries: &[[f32; 4]], [px, py]: [f32; 2]) -> f32 {
    let (x, y, one) = (_mm256_set1_ps(px), _mm256_set1_ps(py), _mm256_set1_ps(1.0));
    let mut sum = 0.0f32;
    // Room for one more vector past the limit.
    let mut gathered = [0.0f32; GATHERED + 8];
    let mut count = 0;
    let whole = entries.len() / 8;
    for (b, block) in entries.chunks(8).enumerate() {
        let n = block.len();
        let floats = block.as_ptr().cast::<f32>();
        // Entries 2k and 2k + 1, side by side.
        let load = |k: usize| {
            if b < whole {
                // SAFETY: a whole block holds 8 entries, 32 floats.
                return unsafe { _mm256_loadu_ps(floats.add(8 * k)) };
            }
            // SAFETY: `WINDOW` holds 64 words, and 32 − 4n + 8k + 8 ≤ 64 for 1 ≤ n and k ≤ 3.
            let mask = unsafe { _mm256_loadu_si256(WINDOW.as_ptr().add(32 - 4 * n + 8 * k).cast()) };
            // SAFETY: the mask selects the floats of the entries 2k and 2k + 1 of `block`
            // that it holds; the others are not read.
            unsafe { _mm256_maskload_ps(floats.wrapping_add(8 * k), mask) }
        };
        let (v0, v1, v2, v3) = (load(0), load(1), load(2), load(3));
        // A 4 × 4 transpose in each half: x, y, strength and radius of the even entries in
        // the low half, of the odd ones in the high half (see `LANE`).
        let (xy01, sr01) = (_mm256_unpacklo_ps(v0, v1), _mm256_unpackhi_ps(v0, v1));
        let (xy23, sr23) = (_mm256_unpacklo_ps(v2, v3), _mm256_unpackhi_ps(v2, v3));
        let (cx, cy) = (_mm256_shuffle_ps::<0x44>(xy01, xy23), _mm256_shuffle_ps::<0xEE>(xy01, xy23));
        let (strength, radius) =
            (_mm256_shuffle_ps::<0x44>(sr01, sr23), _mm256_shuffle_ps::<0xEE>(sr01, sr23));
        let le = |a: __m256, b: __m256| _mm256_cmp_ps::<_CMP_LE_OQ>(a, b);
        let and = _mm256_and_ps;
        let (dx, dy) = (_mm256_sub_ps(x, cx), _mm256_sub_ps(y, cy));
        let d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
        // In reach, and the box (as the tree stores it: corners `position ∓ radius`) holds p.
        let inside = and(
            and(le(d2, _mm256_mul_ps(radius, radius)), le(_mm256_sub_ps(cx, radius), x)),
            and(
                and(le(x, _mm256_add_ps(cx, radius)), le(_mm256_sub_ps(cy, radius), y)),
                le(y, _mm256_add_ps(cy, radius)),
            ),
        );
        let inside = _mm256_movemask_ps(inside) as u32 & PRESENT[n];
        // Every vector goes on, whether or not any of it is in reach (it then packs
        // nothing): most vectors have some, and a branch around the rest, mispredicted
        // often, cost more than their square roots and divisions (53 ns a query against 48
        // on an Intel Xeon core).
        let d = _mm256_sqrt_ps(d2);
        // `Curve::Linear`: 1 − d / r, and 0 beyond r (which adds nothing to the sum: such
        // lanes, possible only where r² is below the normal range, are left out).
        let inside = inside & _mm256_movemask_ps(le(d, radius)) as u32;
        let factor = _mm256_sub_ps(one, _mm256_div_ps(d, radius));
        // SAFETY: a row of `PACK` holds 8 bytes.
        let lanes = _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(PACK[inside as usize].as_ptr().cast()) });
        // The contributions in reach, in order, at the front; whatever follows them is
        // overwritten by the next vector or never read.
        let packed = _mm256_permutevar8x32_ps(_mm256_mul_ps(strength, factor), lanes);
        // SAFETY: `count` < GATHERED, so the 8 floats fit in `gathered`.
        unsafe { _mm256_storeu_ps(gathered.as_mut_ptr().add(count), packed) };
        count += inside.count_ones() as usize;
        if count >= GATHERED {
            for v in &gathered[..count] {
                sum += v;
            }
            count = 0;
        }
    }
    for v in &gathered[..count] {
        sum += v;
    }
    sum
}
