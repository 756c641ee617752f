//! The x86-64 parts of stamping: kernel rows added with AVX-512, and prefetches.
//!
//! Kernel rows are added 16 cells a vector: each row is a few masked loads, adds
//! and stores, the mask taking the cells that are inside the row, inside the grid and
//! walkable at once (from the grid's free-cell bits, [`Grid::free_bits`]). No row is
//! clipped or scanned for walls first, and none falls back to a cell at a time.
//!
//! Each cell gets `cell + strength · factor`, the same two operations in the same order as
//! [`apply_row`](super::apply_row), so the results are the same bits.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m512, __m512d, _mm256_castpd_ps, _mm256_castps_pd, _mm512_abs_ps, _mm512_add_epi32, _mm512_add_ps,
    _mm512_castpd_ps, _mm512_castps256_ps512, _mm512_castps512_ps256, _mm512_castps_pd, _mm512_cmp_ps_mask,
    _mm512_cvtepi32_ps, _mm512_cvtpd_ps, _mm512_cvtps_pd, _mm512_div_ps, _mm512_extractf64x4_pd,
    _mm512_insertf64x4, _mm512_loadu_ps, _mm512_mask_storeu_ps, _mm512_maskz_loadu_ps, _mm512_max_ps,
    _mm512_min_ps, _mm512_mul_pd, _mm512_mul_ps, _mm512_set1_epi32, _mm512_set1_pd, _mm512_set1_ps,
    _mm512_setr_epi32, _mm512_sqrt_ps, _mm512_sub_ps, _mm_prefetch, _CMP_LE_OQ, _MM_HINT_T0,
};

use super::direct::{covered_row, rows, walkable64, Curve, Euclidean, Frame, Manhattan, Octile, Straight};
use super::kernel_rows::{self, Adder, Placed};
use crate::space::Grid;

/// The AVX-512 row adder. A value of it is the proof that the CPU has AVX-512 F and BW:
/// [`new`](Self::new) is the only way to make one.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx512(());

impl Avx512 {
    /// The adder, if this CPU runs it (and `INFLUENCE_KERNEL` allows it).
    pub(super) fn new() -> Option<Self> {
        crate::simd::avx512().then_some(Self(()))
    }

    /// Adds `strength · factor` of each of the placed kernel's rows to the walkable cells of
    /// `values` (a layer of `grid`) under it.
    ///
    /// # Panics
    /// If `values` is not a layer of `grid`, or a row's factors are not in `factors`.
    pub(super) fn add_rows(self, grid: &Grid, values: &mut [f32], placed: Placed<'_>) {
        assert_eq!(values.len(), grid.width() * grid.height(), "a layer of the grid");
        // SAFETY: the value proves the CPU has AVX-512 F and BW; `values` is a layer of the
        // grid (asserted above).
        unsafe { add_rows(self, grid, values, placed) }
    }
}

/// A straight-line metric on 16 lanes: [`Straight::term`] and [`Straight::distance`], the
/// same operations in the same order.
pub(super) trait Lanes: Straight {
    /// [`Straight::term`] of each lane.
    fn terms(x: __m512) -> __m512;
    /// [`Straight::distance`] of each lane.
    fn distances(column: __m512, row: __m512) -> __m512;
    /// What [`distances`](Self::distances) computes before its last monotone step (the
    /// sum of the terms where that step is a square root; the distance itself otherwise):
    /// `distances` is [`from_key`](Self::from_key) of it, lane by lane.
    #[inline(always)]
    fn keys(column: __m512, row: __m512) -> __m512 {
        Self::distances(column, row)
    }
    /// The distance of a key, as [`distances`](Self::distances) finishes it.
    #[inline(always)]
    fn from_key(key: f32) -> f32 {
        key
    }
    /// About the key of a distance (a start for [`limit`]'s search).
    #[inline(always)]
    fn to_key(distance: f32) -> f32 {
        distance
    }
}

impl Lanes for Euclidean {
    #[inline(always)]
    fn terms(x: __m512) -> __m512 {
        // SAFETY: only `direct`, compiled for AVX-512 F and run on CPUs that have it, calls
        // these (here and in the other impls), and they are inlined into it.
        unsafe { _mm512_mul_ps(x, x) }
    }
    #[inline(always)]
    fn distances(column: __m512, row: __m512) -> __m512 {
        // SAFETY: as above.
        unsafe { _mm512_sqrt_ps(_mm512_add_ps(column, row)) }
    }
    #[inline(always)]
    fn keys(column: __m512, row: __m512) -> __m512 {
        // SAFETY: as above.
        unsafe { _mm512_add_ps(column, row) }
    }
    #[inline(always)]
    fn from_key(key: f32) -> f32 {
        key.sqrt()
    }
    #[inline(always)]
    fn to_key(distance: f32) -> f32 {
        distance * distance
    }
}

impl Lanes for Manhattan {
    #[inline(always)]
    fn terms(x: __m512) -> __m512 {
        // SAFETY: as above.
        unsafe { _mm512_abs_ps(x) }
    }
    #[inline(always)]
    fn distances(column: __m512, row: __m512) -> __m512 {
        // SAFETY: as above.
        unsafe { _mm512_add_ps(column, row) }
    }
}

impl Lanes for Octile {
    #[inline(always)]
    fn terms(x: __m512) -> __m512 {
        // SAFETY: as above.
        unsafe { _mm512_abs_ps(x) }
    }
    #[inline(always)]
    fn distances(column: __m512, row: __m512) -> __m512 {
        // The terms are finite and ≥ +0, where these agree with `f32::max` and `f32::min`.
        // SAFETY: as above.
        unsafe {
            let k = _mm512_set1_ps(std::f32::consts::SQRT_2 - 1.0);
            _mm512_add_ps(_mm512_max_ps(column, row), _mm512_mul_ps(k, _mm512_min_ps(column, row)))
        }
    }
}

impl Avx512 {
    /// Direct evaluation of a source with a straight-line metric `M`, linear or constant
    /// falloff, adding (or with `set`, setting) its values: what
    /// [`direct_rows`](super::direct::direct_rows) does for those, 16 columns a vector, with
    /// the same operations per cell. The columns of a row are covered whole, in vectors, and
    /// each cell is kept where its distance is within the radius, it lies in the grid and it
    /// is walkable.
    ///
    /// # Panics
    /// If `values` is not a layer of `grid`.
    pub(super) fn direct<M: Lanes>(
        self,
        grid: &Grid,
        values: &mut [f32],
        f: &Frame,
        curve: Curve,
        set: bool,
    ) {
        let Self(()) = self;
        assert_eq!(values.len(), grid.width() * grid.height(), "a layer of the grid");
        let columns = f.dx_hi - f.dx_lo + 1;
        if let Some(limit) = limit::<M>(f.radius, f.cell_size).filter(|_| columns <= FITTED as isize) {
            // SAFETY: the value proves the CPU has AVX-512 F and BW.
            return unsafe {
                match (curve, set) {
                    (Curve::Linear, false) => fitted::<M, true, false>(grid, values, f, limit),
                    (Curve::Linear, true) => fitted::<M, true, true>(grid, values, f, limit),
                    (Curve::Constant, false) => fitted::<M, false, false>(grid, values, f, limit),
                    (Curve::Constant, true) => fitted::<M, false, true>(grid, values, f, limit),
                }
            };
        }
        // SAFETY: the value proves the CPU has AVX-512 F and BW.
        unsafe {
            match (curve, set) {
                (Curve::Linear, false) => direct::<M, true, false>(grid, values, f),
                (Curve::Linear, true) => direct::<M, true, true>(grid, values, f),
                (Curve::Constant, false) => direct::<M, false, false>(grid, values, f),
                (Curve::Constant, true) => direct::<M, false, true>(grid, values, f),
            }
        }
    }
}

/// [`Avx512::direct`].
///
/// # Safety
/// The CPU has AVX-512 F and BW, and `values` holds a value per cell of `grid`.
#[target_feature(enable = "avx512f,avx512bw")]
fn direct<M: Lanes, const LINEAR: bool, const SET: bool>(grid: &Grid, values: &mut [f32], f: &Frame) {
    let (radius, cell_size) = (_mm512_set1_ps(f.radius), _mm512_set1_ps(f.cell_size));
    let (strength, one) = (_mm512_set1_ps(f.strength), _mm512_set1_ps(1.0));
    let inverse = _mm512_set1_pd(1.0 / f64::from(f.radius));
    let lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    // The columns in vectors of 16, each its terms and the lanes inside the footprint.
    let columns = (f.dx_hi - f.dx_lo + 1) as usize;
    let chunks = columns.div_ceil(16);
    let chunk = |k: usize| {
        let dx = f.dx_lo + 16 * k as isize;
        // Through i32, as `Metric::distances_along_row` converts columns.
        let dxs = _mm512_cvtepi32_ps(_mm512_add_epi32(_mm512_set1_epi32(dx as i32), lane));
        let terms = M::terms(_mm512_sub_ps(dxs, _mm512_set1_ps(f.fx)));
        (dx, terms, u16::MAX >> (16 - (columns - 16 * k).min(16)))
    };
    // Most footprints are two vectors wide or less; wider ones compute their terms per row.
    let (first, second) = (chunk(0), chunk(1.min(chunks - 1)));
    let x0 = f.cx + f.dx_lo;
    for dy in rows(f) {
        let Some(row) = covered_row::<M>(f, dy) else { continue };
        let y = f.cy + dy;
        let (free, row) = (grid.free_bits(y as usize), _mm512_set1_ps(row));
        // The walkable cells of the first 64 columns, a bit each.
        let window = walkable64(free, x0);
        let line = values.as_mut_ptr().wrapping_offset(y * f.width + f.cx);
        for k in 0..chunks {
            let (dx, terms, columns) = match k {
                0 => first,
                1 => second,
                _ => chunk(k),
            };
            let walls = if k < 4 { (window >> (16 * k)) as u16 } else { walkable(free, f.cx + dx) };
            let d = _mm512_mul_ps(M::distances(terms, row), cell_size);
            let lanes = _mm512_cmp_ps_mask::<_CMP_LE_OQ>(d, radius) & columns & walls;
            let value = if LINEAR {
                _mm512_mul_ps(strength, _mm512_sub_ps(one, quotient(d, inverse)))
            } else {
                _mm512_mul_ps(strength, one)
            };
            let at = line.wrapping_offset(dx);
            // SAFETY: the lanes selected are walkable cells of row y, so between columns 0
            // and w − 1 of a row of the grid: inside `values`.
            unsafe {
                let new = if SET { value } else { _mm512_add_ps(_mm512_maskz_loadu_ps(lanes, at), value) };
                _mm512_mask_storeu_ps(at, lanes, new);
            }
        }
    }
}

/// The widest footprint, in columns, that [`fitted`] evaluates.
const FITTED: usize = 64;

/// The largest key `k` ≥ 0 of metric `M` (see [`Lanes::keys`]) whose distance,
/// `M::from_key(k) · cell_size` as the lanes compute it, is within `radius`; `None` if the
/// search does not settle within a few steps. Both steps (a square root or nothing, then a
/// product by a positive `cell_size`) are monotone, rounding included, so a cell's distance
/// is within the radius exactly when its key is at most this limit.
fn limit<M: Lanes>(radius: f32, cell_size: f32) -> Option<f32> {
    let within = |k: f32| M::from_key(k) * cell_size <= radius;
    let mut k = M::to_key(radius / cell_size);
    if !(k >= 0.0 && within(0.0)) {
        return None;
    }
    for _ in 0..64 {
        if !within(k) {
            k = k.next_down();
        } else if within(k.next_up()) && k < f32::INFINITY {
            k = k.next_up();
        } else {
            return Some(k);
        }
    }
    None
}

/// [`direct`] for footprints at most [`FITTED`] columns wide, with the vectors laid over
/// each row's covered columns rather than over the footprint's whole width: a row's keys
/// (an addition a cell) give its covered columns exactly (against [`limit`]), and the
/// distances and values — the square root and the quotient — are computed from the first
/// of them on, 16 at a time. Most rows of a footprint up to 16 columns across take one
/// vector instead of two. Each cell is computed with the same operations on the same
/// values as in [`direct`], and kept under the same test, so the results are the same bits.
///
/// # Safety
/// The CPU has AVX-512 F and BW, `values` holds a value per cell of `grid`, and the
/// footprint is at most [`FITTED`] columns wide.
#[target_feature(enable = "avx512f,avx512bw")]
fn fitted<M: Lanes, const LINEAR: bool, const SET: bool>(
    grid: &Grid,
    values: &mut [f32],
    f: &Frame,
    limit: f32,
) {
    let (radius, cell_size) = (_mm512_set1_ps(f.radius), _mm512_set1_ps(f.cell_size));
    let (strength, one, limit) = (_mm512_set1_ps(f.strength), _mm512_set1_ps(1.0), _mm512_set1_ps(limit));
    let lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let columns = (f.dx_hi - f.dx_lo + 1) as usize;
    assert!(columns <= FITTED);
    let chunks = columns.div_ceil(16);
    // The columns' terms, and beyond them (to a whole vector past the last) +∞, whose keys
    // and distances are +∞: never within the radius.
    let mut terms = [f32::INFINITY; FITTED + 16];
    for k in 0..chunks {
        // Through i32, as `Metric::distances_along_row` converts columns.
        let dx = _mm512_add_epi32(_mm512_set1_epi32((f.dx_lo + 16 * k as isize) as i32), lane);
        let t = M::terms(_mm512_sub_ps(_mm512_cvtepi32_ps(dx), _mm512_set1_ps(f.fx)));
        let inside = u16::MAX >> (16 - (columns - 16 * k).min(16));
        // SAFETY: 16·k + 16 ≤ 16·chunks ≤ FITTED + 16 (columns ≤ FITTED): inside `terms`.
        unsafe { _mm512_mask_storeu_ps(terms.as_mut_ptr().add(16 * k), inside, t) };
    }
    let x0 = f.cx + f.dx_lo;
    // The footprint's first column lies in the grid (dx_lo ≥ −cx): its walkable cells are
    // bits from `shift` on of word `word` of each row, and of the next word if the row has
    // one (as `walkable64` reads them).
    let (free, words) = grid.free_words();
    let (word, shift) = (x0 as usize / 64, x0 as usize % 64);
    let next = word + 1 < words;
    // Two vectors of keys hold footprints up to 32 columns wide; four, the others.
    let wide = chunks > 2;
    for dy in rows(f) {
        let Some(row) = covered_row::<M>(f, dy) else { continue };
        let row = _mm512_set1_ps(row);
        let keys = |k: usize| {
            // SAFETY: k < 4, so 16·k + 16 ≤ FITTED + 16: inside `terms`.
            let t = unsafe { _mm512_loadu_ps(terms.as_ptr().add(16 * k)) };
            u64::from(_mm512_cmp_ps_mask::<_CMP_LE_OQ>(M::keys(t, row), limit)) << (16 * k)
        };
        // The covered columns, a bit each (bit i for column dx_lo + i); columns past the
        // footprint's have infinite terms, so their bits are clear.
        let mut covered = keys(0) | keys(1);
        if wide {
            covered |= keys(2) | keys(3);
        }
        if covered == 0 {
            continue;
        }
        let y = f.cy + dy;
        let at = y as usize * words + word;
        let walls = free[at] >> shift | if next { free[at + 1] << 1 << (63 - shift) } else { 0 };
        let line = values.as_mut_ptr().wrapping_offset(y * f.width + x0);
        let (mut c, end) = (covered.trailing_zeros() as usize, 64 - covered.leading_zeros() as usize);
        while c < end {
            // SAFETY: c < end ≤ FITTED, so c + 16 ≤ FITTED + 16: inside `terms`.
            let t = unsafe { _mm512_loadu_ps(terms.as_ptr().add(c)) };
            let d = _mm512_mul_ps(M::distances(t, row), cell_size);
            let lanes = _mm512_cmp_ps_mask::<_CMP_LE_OQ>(d, radius) & (walls >> c) as u16;
            // The quotient by the divider: one vector a row, so its latency counts more
            // than its throughput (`quotient`'s products take longer to finish).
            let value = if LINEAR {
                _mm512_mul_ps(strength, _mm512_sub_ps(one, _mm512_div_ps(d, radius)))
            } else {
                _mm512_mul_ps(strength, one)
            };
            let at = line.wrapping_add(c);
            // SAFETY: the lanes selected are walkable cells of row y (bits of `walls`), so
            // between columns 0 and w − 1 of a row of the grid: inside `values`.
            unsafe {
                let new = if SET { value } else { _mm512_add_ps(_mm512_maskz_loadu_ps(lanes, at), value) };
                _mm512_mask_storeu_ps(at, lanes, new);
            }
            c += 16;
        }
    }
}

/// `d / r` rounded to `f32`, for `d` ≥ 0 and `r` positive and finite, from `inverse`, the
/// `f64` nearest `1 / r`: the product `d · inverse` in `f64`, rounded to `f32`. That is the
/// quotient `f32` division gives, bit for bit, with multiplications instead of the divider
/// (several times slower per vector). Why: the `f64` product is within 2⁻⁵² of `d / r`,
/// relatively, while `d / r` lies at least 2⁻⁴⁹ (relatively) from every point halfway
/// between two `f32`s — `d / r − m`, for such a point `m` of 25 significant bits, is a
/// non-zero multiple of `ulp(m) / 2` divided by `r`'s 24-bit significand — so both round to
/// the same `f32`. (Below the normal range the spacing is wider still, relatively.) Lanes
/// holding infinities or NaN give what they give: their cells are beyond the radius.
#[inline]
#[target_feature(enable = "avx512f")]
fn quotient(d: __m512, inverse: __m512d) -> __m512 {
    let halves =
        [_mm512_castps512_ps256(d), _mm256_castpd_ps(_mm512_extractf64x4_pd::<1>(_mm512_castps_pd(d)))];
    let [low, high] = halves.map(|h| _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_cvtps_pd(h), inverse)));
    _mm512_castpd_ps(_mm512_insertf64x4::<1>(
        _mm512_castps_pd(_mm512_castps256_ps512(low)),
        _mm256_castps_pd(high),
    ))
}

/// Asks for the cache lines holding `values[a]` and `values[b]` (a hint: it reads nothing,
/// and the indices are not checked — an address outside `values` cannot fault either).
#[inline]
pub(super) fn prefetch_pair(values: &[f32], a: usize, b: usize) {
    let at = values.as_ptr();
    // SAFETY: SSE is part of x86-64; a prefetch dereferences nothing.
    unsafe {
        _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(a).cast());
        _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(b).cast());
    }
}

/// The walkable cells among `x .. x + 16` of a row, as [`walkable64`] gives 64 of them.
#[inline(always)]
fn walkable(free: &[u64], x: isize) -> u16 {
    walkable64(free, x) as u16
}

/// [`kernel_rows::add_rows`] compiled for AVX-512.
///
/// # Safety
/// The CPU has AVX-512 F and BW, and `values` holds a value per cell of `grid`.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn add_rows(adder: Avx512, grid: &Grid, values: &mut [f32], placed: Placed<'_>) {
    // SAFETY: as the caller promised.
    unsafe { kernel_rows::add_rows(adder, grid, values, placed) }
}

impl Adder for Avx512 {
    const LANES: usize = 16;
    const FROM_EDGE: bool = true;
    const PREFETCH: bool = false;
    type Strength = __m512;

    #[inline(always)]
    fn splat(self, strength: f32) -> __m512 {
        // SAFETY: the value proves the CPU has AVX-512 F.
        unsafe { _mm512_set1_ps(strength) }
    }

    #[inline(always)]
    unsafe fn add(self, at: *mut f32, factors: *const f32, s: __m512, bits: u64) {
        let lanes = bits as u16;
        // SAFETY: the lanes selected are readable and writable (the contract); the others
        // are neither read nor written, and cannot fault.
        unsafe {
            let f = _mm512_maskz_loadu_ps(lanes, factors);
            let v = _mm512_maskz_loadu_ps(lanes, at);
            _mm512_mask_storeu_ps(at, lanes, _mm512_add_ps(v, _mm512_mul_ps(s, f)));
        }
    }
}
