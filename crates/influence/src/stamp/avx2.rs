//! The AVX2 parts of stamping, for x86-64 CPUs without AVX-512 (most of AMD's before Zen 4,
//! Intel's client cores): kernel rows added, and linear and constant curves evaluated
//! directly, 8 cells a vector. Without them those CPUs took the portable path, which reads
//! a byte of wall flags per cell and fits no vector to a row: it barely beat a plain
//! template stamper for centred sources, and trailed it for sources anywhere in their cells.
//!
//! AVX2 has no mask registers. The cells a vector may touch — inside the row, inside the
//! grid and walkable, as one set of bits from the grid's free-cell bits
//! ([`Grid::free_bits`]) — become the sign bits of a lane mask (the bits broadcast to every
//! lane and shifted so that lane `i`'s bit lands on its sign: two instructions), and the
//! loads and stores are masked by it: no cell outside the grid or on a wall is read or
//! written.
//!
//! Each cell gets the same operations in the same order as on the portable path
//! (`cell + strength · factor`; `strength · (1 − d / r)` with `d` from the same terms),
//! with no fused multiply-add, so the results are the same bits.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m256, __m256i, _mm256_add_ps, _mm256_and_ps, _mm256_castps_si256, _mm256_castsi256_ps, _mm256_cmp_ps,
    _mm256_div_ps, _mm256_loadu_ps, _mm256_maskload_ps, _mm256_maskstore_ps, _mm256_max_ps, _mm256_min_ps,
    _mm256_mul_ps, _mm256_set1_epi32, _mm256_set1_ps, _mm256_setr_epi32, _mm256_sllv_epi32, _mm256_sqrt_ps,
    _mm256_sub_ps, _mm_prefetch, _CMP_LE_OQ, _MM_HINT_T0,
};

use super::direct::{covered_row, rows, walkable64, Curve, Euclidean, Frame, Manhattan, Octile, Straight};
use super::kernel_rows::{self, Adder, Placed};
use crate::space::Grid;

/// The AVX2 row adder. A value of it is the proof that the CPU has AVX2:
/// [`new`](Self::new) is the only way to make one.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx2(());

impl Avx2 {
    /// The adder, if this CPU runs it (and `INFLUENCE_KERNEL` allows it).
    pub(super) fn new() -> Option<Self> {
        crate::simd::avx2().then_some(Self(()))
    }

    /// Adds `strength · factor` of each of the placed kernel's rows to the walkable cells of
    /// `values` (a layer of `grid`) under it.
    ///
    /// # Panics
    /// If `values` is not a layer of `grid`, or a row's factors are not in `factors`.
    pub(super) fn add_rows(self, grid: &Grid, values: &mut [f32], placed: Placed<'_>) {
        assert_eq!(values.len(), grid.width() * grid.height(), "a layer of the grid");
        // SAFETY: the value proves the CPU has AVX2; `values` is a layer of the grid
        // (asserted above).
        unsafe { add_rows(self, grid, values, placed) }
    }

    /// Direct evaluation of a source with a straight-line metric `M`, linear or constant
    /// falloff, adding (or with `set`, setting) its values: what
    /// [`direct_rows`](super::direct::direct_rows) does for those, 8 columns a vector, with
    /// the same operations per cell. Every row takes the same vectors, laid over the columns
    /// that any row of the footprint covers, as `direct_rows` covers the whole width and for
    /// its reason: the same trip count row after row keeps the branch predictor right.
    /// (Vectors fitted to each row's covered columns, as the AVX-512 path lays them, took
    /// fewer square roots but measured slower here: with 8 lanes a row takes one to three of
    /// them, and each source at its own offset made the loop's exit a guess.) Each cell is
    /// kept where its distance is within the radius, it lies in the grid and it is walkable.
    /// `terms` is room for the columns' metric terms.
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
        terms: &mut Vec<f32>,
    ) {
        let Self(()) = self;
        assert_eq!(values.len(), grid.width() * grid.height(), "a layer of the grid");
        // SAFETY: the value proves the CPU has AVX2.
        let Some(first) = (unsafe { covered_columns::<M>(f, terms) }) else { return };
        let x0 = f.cx + f.dx_lo + first as isize;
        // SAFETY: the value proves the CPU has AVX2; x0 is a column of the footprint, which
        // lies in the grid, and `terms` holds the terms of the columns from it on, then +∞ to
        // a whole vector.
        unsafe {
            match (curve, set) {
                (Curve::Linear, false) => direct::<M, true, false>(grid, values, f, terms, x0),
                (Curve::Linear, true) => direct::<M, true, true>(grid, values, f, terms, x0),
                (Curve::Constant, false) => direct::<M, false, false>(grid, values, f, terms, x0),
                (Curve::Constant, true) => direct::<M, false, true>(grid, values, f, terms, x0),
            }
        }
    }
}

/// Fills `terms` with the metric terms of the columns that any row of the footprint covers,
/// then +∞ (whose distances are never within the radius) to a whole vector, and returns the
/// first of those columns (counted from `f.dx_lo`); `None` if no cell is within the radius.
///
/// Those columns are the ones within the radius in the row nearest the source (the least
/// row term), as each metric's distance, rounding included, grows with the row's term; they
/// are contiguous, as the terms grow with the distance from the source's column. The others
/// are left out of every row's vectors: at a radius of 8 cells, at most 16 columns of the 19
/// within reach for a source off its cell's centre, two vectors a row instead of three.
/// (Compiled for AVX2, where the terms' loop takes vectors.)
#[target_feature(enable = "avx2")]
fn covered_columns<M: Straight>(f: &Frame, terms: &mut Vec<f32>) -> Option<usize> {
    let rows = rows(f);
    if rows.is_empty() {
        return None;
    }
    // The row offset nearest the source's (`fy` lies within half a cell of 0).
    let row = M::term(0.clamp(*rows.start(), *rows.end()) as f32 - f.fy);
    let columns = (f.dx_hi - f.dx_lo + 1) as usize;
    terms.clear();
    // Through i32, as `Metric::distances_along_row` converts columns.
    terms.extend((0..columns).map(|i| M::term((f.dx_lo + i as isize) as i32 as f32 - f.fx)));
    let within = |t: &f32| M::distance(*t, row) * f.cell_size <= f.radius;
    let first = terms.iter().position(within)?;
    let last = terms.iter().rposition(within)?;
    terms.truncate(last + 1);
    terms.drain(..first);
    terms.resize(8 * terms.len().div_ceil(8), f32::INFINITY);
    Some(first)
}

/// A straight-line metric on 8 lanes: [`Straight::distance`], the same operations in the
/// same order.
pub(super) trait Lanes: Straight {
    /// [`Straight::distance`] of each lane.
    fn distances(column: __m256, row: __m256) -> __m256;
}

impl Lanes for Euclidean {
    #[inline(always)]
    fn distances(column: __m256, row: __m256) -> __m256 {
        // SAFETY: only `direct`, compiled for AVX2 and run on CPUs that have it, calls these
        // (here and in the other impls), and they are inlined into it.
        unsafe { _mm256_sqrt_ps(_mm256_add_ps(column, row)) }
    }
}

impl Lanes for Manhattan {
    #[inline(always)]
    fn distances(column: __m256, row: __m256) -> __m256 {
        // SAFETY: as above.
        unsafe { _mm256_add_ps(column, row) }
    }
}

impl Lanes for Octile {
    #[inline(always)]
    fn distances(column: __m256, row: __m256) -> __m256 {
        // The terms are ≥ +0 (or +∞ past the columns), where these agree with `f32::max`
        // and `f32::min`.
        // SAFETY: as above.
        unsafe {
            let k = _mm256_set1_ps(std::f32::consts::SQRT_2 - 1.0);
            _mm256_add_ps(_mm256_max_ps(column, row), _mm256_mul_ps(k, _mm256_min_ps(column, row)))
        }
    }
}

/// The lanes whose bits of `bits` are set (bit `i` for lane `i`; bits from 8 on ignored), as
/// the sign bits a masked load or store reads: the bits in every lane, lane `i`'s shifted
/// left by `31 − i`.
#[inline]
#[target_feature(enable = "avx2")]
fn lanes(bits: u32) -> __m256i {
    _mm256_sllv_epi32(_mm256_set1_epi32(bits as i32), _mm256_setr_epi32(31, 30, 29, 28, 27, 26, 25, 24))
}

/// [`kernel_rows::add_rows`] compiled for AVX2.
///
/// # Safety
/// The CPU has AVX2, and `values` holds a value per cell of `grid`.
#[target_feature(enable = "avx2")]
unsafe fn add_rows(adder: Avx2, grid: &Grid, values: &mut [f32], placed: Placed<'_>) {
    // SAFETY: as the caller promised.
    unsafe { kernel_rows::add_rows(adder, grid, values, placed) }
}

impl Adder for Avx2 {
    const LANES: usize = 8;
    const FROM_EDGE: bool = false;
    const PREFETCH: bool = true;
    type Strength = __m256;

    #[inline(always)]
    fn splat(self, strength: f32) -> __m256 {
        // SAFETY: the value proves the CPU has AVX2.
        unsafe { _mm256_set1_ps(strength) }
    }

    #[inline(always)]
    unsafe fn add(self, at: *mut f32, factors: *const f32, s: __m256, bits: u64) {
        // SAFETY: the value proves the CPU has AVX2; the lanes taken are readable and
        // writable (the contract); the others are neither read nor written, and cannot
        // fault.
        unsafe {
            let mask = lanes(bits as u32);
            let f = _mm256_maskload_ps(factors, mask);
            let v = _mm256_maskload_ps(at, mask);
            _mm256_maskstore_ps(at, mask, _mm256_add_ps(v, _mm256_mul_ps(s, f)));
        }
    }
}

/// [`Avx2::direct`], given the `terms` of the columns from `x0` on.
///
/// # Safety
/// The CPU has AVX2, `values` holds a value per cell of `grid`, `x0` is a column of the grid
/// within the footprint (`f.cx + f.dx_lo ..= f.cx + f.dx_hi`), and `terms` holds the metric
/// terms of the footprint's columns from `x0` on, then +∞, 8 a vector.
#[target_feature(enable = "avx2")]
unsafe fn direct<M: Lanes, const LINEAR: bool, const SET: bool>(
    grid: &Grid,
    values: &mut [f32],
    f: &Frame,
    terms: &[f32],
    x0: isize,
) {
    let (radius, cell_size) = (_mm256_set1_ps(f.radius), _mm256_set1_ps(f.cell_size));
    let (strength, one) = (_mm256_set1_ps(f.strength), _mm256_set1_ps(1.0));
    let chunks = terms.len() / 8;
    // Each row's cells are asked for from memory before any is computed: a row's square
    // roots and quotients fill the reorder buffer, so that, left to itself, the core waits
    // on the cache a few rows at a time rather than for all at once (a few per cent at
    // 1024², where the layer is beyond the L2).
    for dy in rows(f) {
        // (A hint: it reads nothing, and cannot fault.)
        let first = values.as_ptr().wrapping_offset((f.cy + dy) * f.width + x0);
        _mm_prefetch::<_MM_HINT_T0>(first.cast());
        _mm_prefetch::<_MM_HINT_T0>(first.wrapping_add(8 * chunks - 1).cast());
    }
    for dy in rows(f) {
        let Some(row) = covered_row::<M>(f, dy) else { continue };
        let y = f.cy + dy;
        let (free, row) = (grid.free_bits(y as usize), _mm256_set1_ps(row));
        // The walkable cells of the first 64 columns, a bit each.
        let window = walkable64(free, x0);
        let line = values.as_mut_ptr().wrapping_offset(y * f.width + x0);
        for k in 0..chunks {
            let c = 8 * k;
            // SAFETY: c + 8 ≤ 8 · chunks: within `terms` (the contract).
            let t = unsafe { _mm256_loadu_ps(terms.as_ptr().add(c)) };
            let d = _mm256_mul_ps(M::distances(t, row), cell_size);
            let walls = if k < 8 { window >> c } else { walkable64(free, x0 + c as isize) };
            let walkable = lanes(walls as u32);
            let at = line.wrapping_add(c);
            // The walkable cells are read whether or not the radius covers them: a mask
            // known at once lets the load start before the distances are done.
            // SAFETY: the lanes read are walkable cells of row y (bits of `walls`), so
            // between columns 0 and w − 1 of a row of the grid: inside `values`.
            let old = if SET { one } else { unsafe { _mm256_maskload_ps(at, walkable) } };
            let within = _mm256_cmp_ps::<_CMP_LE_OQ>(d, radius);
            let keep = _mm256_castps_si256(_mm256_and_ps(within, _mm256_castsi256_ps(walkable)));
            let value = if LINEAR {
                _mm256_mul_ps(strength, _mm256_sub_ps(one, _mm256_div_ps(d, radius)))
            } else {
                _mm256_mul_ps(strength, one)
            };
            let new = if SET { value } else { _mm256_add_ps(old, value) };
            // SAFETY: the lanes kept are walkable cells of row y, as above, inside `values`,
            // borrowed mutably.
            unsafe { _mm256_maskstore_ps(at, keep, new) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Avx2;
    use crate::falloff::Falloff;
    use crate::layer::Layer;
    use crate::source::{Metric, Mode, Source};
    use crate::space::{Cell, Grid};
    use crate::stamp::{Detected, Stamper, Vector};
    use crate::test_rng::xorshift;
    use glam::Vec2;

    /// A stamper on the AVX2 paths and one on the portable paths, both caching kernels or
    /// both evaluating `direct`ly; `None` where the CPU has no AVX2. (Made here rather than
    /// detected, so that the AVX2 paths are tested whatever `INFLUENCE_KERNEL` allows.)
    fn stampers(direct: bool) -> Option<(Stamper, Stamper)> {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return None;
        }
        let make = |vector| Stamper {
            vector: Detected(vector),
            ..if direct { Stamper::direct() } else { Stamper::new() }
        };
        Some((make(Some(Vector::Avx2(Avx2(())))), make(None)))
    }

    /// Stamps many sources with both of [`stampers`]`(direct)` into random walled grids of
    /// odd and even widths (narrower than a vector, a few vectors, more than a window of
    /// columns), each into a layer holding signed zeros, NaN and infinities, and asserts
    /// the same bits after every source: sources inside, on every edge and off the grid, at
    /// the cell centres, the corners, each eighth of a cell and anywhere, of radii whose rows
    /// span one vector to several windows.
    fn assert_avx2_equals_portable(direct: bool) {
        let Some((mut ours, mut portable)) = stampers(direct) else { return };
        let mut next = xorshift(0x5EED_A5A2 + u64::from(direct));
        let mut unit = move || (next() >> 40) as f32 / (1u64 << 24) as f32;
        for (w, h) in [
            (1, 1),
            (3, 5),
            (7, 9),
            (8, 8),
            (9, 3),
            (17, 12),
            (31, 20),
            (64, 7),
            (65, 30),
            (130, 41),
            (201, 13),
        ] {
            let cell_size = [1.0, 0.75, 2.5][w % 3];
            let mut grid = Grid::new(w, h).unwrap().with_cell_size(cell_size).unwrap();
            let density = [0.0, 0.1, 0.5][h % 3];
            for i in 0..w * h {
                grid.set_blocked(Cell::new(i % w, i / w), unit() < density).unwrap();
            }
            let start: Vec<f32> = (0..w * h)
                .map(|i| [0.5, -0.0, f32::NAN, 2.25, f32::INFINITY, -1.0, 0.0][(i * 7 + i / 3) % 7])
                .collect();
            let (mut a, mut b) = (Layer::from_vec(start.clone()), Layer::from_vec(start));
            for k in 0..160 {
                let cell = Vec2::new(
                    (unit() * (w + 6) as f32).floor() - 3.0,
                    (unit() * (h + 6) as f32).floor() - 3.0,
                );
                let offset = match k % 4 {
                    0 => Vec2::splat(0.5),
                    1 => Vec2::ZERO,
                    2 => Vec2::new((k / 4 % 8) as f32, (k / 32 % 8) as f32) / 8.0,
                    _ => Vec2::new(unit(), unit()),
                };
                let radius = [0.3, 1.0, 2.5, 4.0, 8.0, 8.5, 15.0, 31.0, 40.0][k % 9] * cell_size;
                let falloff =
                    [Falloff::Linear, Falloff::Constant, Falloff::Exponential { rate: 0.3 }][k % 3].clone();
                let src = Source::new((cell + offset) * cell_size, unit() * 6.0 - 3.0, falloff, radius)
                    .unwrap()
                    .with_metric([Metric::Euclidean, Metric::Manhattan, Metric::Octile][k / 3 % 3])
                    .with_mode([Mode::Add, Mode::Add, Mode::Set][k / 9 % 3]);
                // Twice, so that offsets come back and get kernels.
                for _ in 0..2 {
                    assert_eq!(ours.stamp(&grid, &mut a, &src), portable.stamp(&grid, &mut b, &src));
                    let diff =
                        a.values().iter().zip(b.values()).position(|(p, q)| p.to_bits() != q.to_bits());
                    assert!(diff.is_none(), "{w}×{h}: cell {diff:?} differs after {src:?}");
                }
            }
        }
        assert_eq!(ours.kernels.is_empty(), direct, "kernels are used unless evaluating directly");
    }

    #[test]
    fn kernels_added_with_avx2_equal_the_portable_rows() {
        assert_avx2_equals_portable(false);
    }

    #[test]
    fn direct_evaluation_with_avx2_equals_the_portable_rows() {
        assert_avx2_equals_portable(true);
    }
}
