//! The grid step's row kernel written for AVX-512, 16 cells at a time, where the portable
//! kernel ([`portable`](super::portable)) leaves the compiler to vectorise.
//!
//! It evaluates the same float operations per cell as the portable row, so it gives the
//! same bits (its tests compare the two on walls, edges, NaN, infinities and negatives);
//! what it saves is everything around them:
//!
//! * Walls are bit rows made once per row from the grid's free-cell bits
//!   ([`Grid::free_bits`]: a step reads a bit of walls per cell, not a byte): the free
//!   cells and, with 8 neighbours, the cells whose four diagonals each count (both orthogonal cells beside
//!   the diagonal free). They enter the arithmetic as AVX-512 mask registers: a gated
//!   diagonal is a masked maximum, and the cell's own wall and the threshold cut share one
//!   masked compare — no mask words per cell and neighbour to load and AND.
//! * The left and right neighbours in the row itself come from its chunks already loaded,
//!   shifted by one lane, instead of two more unaligned loads.
//! * With exponential decay and a factor above 0, the product of a non-negative maximum is
//!   never negative or NaN, so the maximum with 0 after it is skipped.
//! * The first step of a pass prefetches the input a few rows ahead: on maps beyond the
//!   caches that made a single step about a fifth faster.
//! * On maps beyond the caches the output is written with non-temporal stores (see
//!   [`row`]), which skip reading each line before writing it.
//!
//! The chunks at a row's ends use masked loads and stores (lanes past the end read as 0),
//! so any width works; the chunks between read straight from memory.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m512, _mm512_abs_ps, _mm512_add_epi32, _mm512_add_ps, _mm512_alignr_epi32, _mm512_castps_si512,
    _mm512_castsi512_ps, _mm512_loadu_ps, _mm512_mask_cmp_ps_mask, _mm512_mask_max_ps, _mm512_mask_storeu_ps,
    _mm512_maskz_loadu_ps, _mm512_maskz_max_ps, _mm512_maskz_mov_ps, _mm512_max_ps, _mm512_mul_ps,
    _mm512_permutex2var_ps, _mm512_set1_epi32, _mm512_set1_ps, _mm512_setr_epi32, _mm512_setzero_ps,
    _mm512_storeu_ps, _mm512_stream_ps, _mm512_sub_ps, _mm_prefetch, _mm_sfence, _CMP_NLT_UQ, _MM_HINT_T0,
};
use std::marker::PhantomData;

use super::diffuse::{Diffusion, Rule};
use super::fused::{Coefs, Hints, RowKernel};
use crate::space::Grid;

/// The AVX-512 kernel for decay kind `R` and 8 neighbours or 4. A value of it is the proof
/// that the CPU has AVX-512 F and BW: [`new`](Self::new) is the only way to make one.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx512<R, const EIGHT: bool>(PhantomData<R>);

impl<R, const EIGHT: bool> Avx512<R, EIGHT> {
    /// The kernel, if this CPU runs it.
    pub(super) fn new() -> Option<Self> {
        let detected =
            std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512bw");
        detected.then_some(Self(PhantomData))
    }
}

impl<R: Rule, const EIGHT: bool> RowKernel for Avx512<R, EIGHT> {
    #[inline(always)]
    fn coefs(&self, grid: &Grid, d: &Diffusion) -> Coefs {
        Coefs::new::<R>(grid, d)
    }

    /// [`gate_rows`] bit rows (see [`fill_bits`]) of whole 64-bit blocks.
    #[inline(always)]
    fn mask_len(&self, width: usize) -> usize {
        gate_rows(EIGHT) * 2 * width.div_ceil(64)
    }

    #[inline(always)]
    fn fill(&self, grid: &Grid, y: usize, out: &mut [u32]) {
        let rows = [y.wrapping_sub(1), y, y + 1].map(|y| grid.free_bits(y));
        fill_bits::<EIGHT>(rows, grid.width(), out);
    }

    #[inline(always)]
    fn row(&self, values: [&[f32]; 3], masks: [&[u32]; 3], out: &mut [f32], k: &Coefs, hints: Hints) {
        let Hints { ahead, stream } = hints;
        // The shortcut holds for exponential decay with a factor above 0 (see the module docs).
        let floor = R::LINEAR || k.straight.is_nan() || k.straight <= 0.0;
        let bits = masks[1];
        // SAFETY: as in `fill`.
        unsafe {
            match (floor, stream) {
                (true, false) => row::<R, EIGHT, true, false>(values, bits, out, k, ahead),
                (false, false) => row::<R, EIGHT, false, false>(values, bits, out, k, ahead),
                (true, true) => row::<R, EIGHT, true, true>(values, bits, out, k, ahead),
                (false, true) => row::<R, EIGHT, false, true>(values, bits, out, k, ahead),
            }
        }
    }
}

/// How many bit rows a row has, one bit per cell in each: the free cells; with 8
/// neighbours also the cells whose diagonal neighbour up-left, up-right, down-left,
/// down-right counts — both orthogonal cells beside it free (no corner cutting).
const fn gate_rows(eight: bool) -> usize {
    if eight {
        5
    } else {
        1
    }
}

/// Writes the [`gate_rows`] of a row `w` cells wide, each `2 · ⌈w / 64⌉` words, from the
/// free-cell bits ([`Grid::free_bits`]) of the rows above, here and below (empty beyond the
/// grid). Bits past the row's end are clear, as they are in the free bits.
#[inline(always)]
fn fill_bits<const EIGHT: bool>([above, here, below]: [&[u64]; 3], w: usize, out: &mut [u32]) {
    let words = 2 * w.div_ceil(64);
    assert!(out.len() >= gate_rows(EIGHT) * words, "bit rows too short");
    let free = |row: &[u64], i: usize| row.get(i).copied().unwrap_or(0);
    // One pair of words (64 cells) at a time into each bit row, by iterators: no bounds
    // checks, and the running words stay in registers.
    let (pairs, n) = (out.as_chunks_mut::<2>().0, words / 2);
    let put = |pair: &mut [u32; 2], bits: u64| *pair = [bits as u32, (bits >> 32) as u32];
    if !EIGHT {
        for (i, pair) in pairs[..n].iter_mut().enumerate() {
            put(pair, free(here, i));
        }
        return;
    }
    let (own, rest) = pairs.split_at_mut(n);
    let (ul, rest) = rest.split_at_mut(n);
    let (ur, rest) = rest.split_at_mut(n);
    let (dl, rest) = rest.split_at_mut(n);
    let dr = &mut rest[..n];
    let (mut before, mut now) = (0, free(here, 0));
    let gates = own.iter_mut().zip(ul).zip(ur).zip(dl).zip(dr);
    for (i, ((((own, ul), ur), dl), dr)) in gates.enumerate() {
        let after = free(here, i + 1);
        // Cells whose left, and whose right, neighbour is free.
        let (left, right) = (now << 1 | before >> 63, now >> 1 | after << 63);
        let (up, down) = (free(above, i), free(below, i));
        put(own, now);
        put(ul, up & left);
        put(ur, up & right);
        put(dl, down & left);
        put(dr, down & right);
        (before, now) = (now, after);
    }
}

/// The bits of chunk `j` of a row in its [`gate_rows`] (0 for the diagonals with 4
/// neighbours).
///
/// # Safety
/// `bits` holds the bit rows of a row at least `16j + 1` cells wide.
#[inline(always)]
unsafe fn gates<const EIGHT: bool>(bits: &[u32], j: usize) -> [u16; 5] {
    let halves = 2 * (bits.len() / gate_rows(EIGHT));
    let half = bits.as_ptr().cast::<u16>();
    // SAFETY: each bit row has `halves` ≥ j + 1 halves (the caller's promise); x86-64 is
    // little-endian, so half 2i of a word holds its low 16 bits.
    let at = |g: usize| unsafe { half.add(g * halves + j).read() };
    if EIGHT {
        [at(0), at(1), at(2), at(3), at(4)]
    } else {
        [at(0), 0, 0, 0, 0]
    }
}

/// Chunk `j` of the 16-lane chunks of `row` (`chunks` of them, the last holding the cells
/// `tail` selects), or zeros past the end.
#[inline]
#[target_feature(enable = "avx512f")]
fn chunk(row: &[f32], j: usize, chunks: usize, tail: u16) -> __m512 {
    if j + 1 < chunks {
        // SAFETY: 16 floats from 16j lie in the row, since a later chunk exists.
        unsafe { _mm512_loadu_ps(row[16 * j..].as_ptr()) }
    } else if j + 1 == chunks {
        // SAFETY: the mask selects the row's last `len − 16j` floats only.
        unsafe { _mm512_maskz_loadu_ps(tail, row[16 * j..].as_ptr()) }
    } else {
        _mm512_setzero_ps()
    }
}

/// Lanes 15, 0..15 of `prev`, `cur`: each lane's left neighbour.
#[inline]
#[target_feature(enable = "avx512f")]
fn left(cur: __m512, prev: __m512) -> __m512 {
    _mm512_castsi512_ps(_mm512_alignr_epi32::<15>(_mm512_castps_si512(cur), _mm512_castps_si512(prev)))
}

/// Lanes 1..16 of `cur`, 0 of `next`: each lane's right neighbour.
#[inline]
#[target_feature(enable = "avx512f")]
fn right(next: __m512, cur: __m512) -> __m512 {
    _mm512_castsi512_ps(_mm512_alignr_epi32::<1>(_mm512_castps_si512(next), _mm512_castps_si512(cur)))
}

/// `v · c` or `v − c`, as [`Rule::carry`].
#[inline]
#[target_feature(enable = "avx512f")]
fn carry<R: Rule>(v: __m512, c: __m512) -> __m512 {
    if R::LINEAR {
        _mm512_sub_ps(v, c)
    } else {
        _mm512_mul_ps(v, c)
    }
}

/// The step's constants in every lane.
#[derive(Clone, Copy)]
struct Lanes {
    straight: __m512,
    diagonal: __m512,
    momentum: __m512,
    threshold: __m512,
}

/// A chunk's neighbourhood: rows above, here and below, each read one cell left, at the
/// cell, and one cell right.
type Around = [[__m512; 3]; 3];

/// Chunk `j` of the rows above and below: at the cells, and with 8 neighbours also one
/// cell left and right.
///
/// # Safety
/// `1 ≤ j` and `16j + 17 ≤ w`, the rows' width.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn above_below<const EIGHT: bool>([a, _, b]: [&[f32]; 3], j: usize) -> [[__m512; 3]; 2] {
    // SAFETY: cells 16j − 1 ..= 16j + 16 lie in each row (the caller's promise).
    let (a, b) = unsafe { (a.as_ptr().add(16 * j), b.as_ptr().add(16 * j)) };
    let zero = _mm512_setzero_ps();
    // SAFETY: as above.
    unsafe {
        if EIGHT {
            [
                [_mm512_loadu_ps(a.sub(1)), _mm512_loadu_ps(a), _mm512_loadu_ps(a.add(1))],
                [_mm512_loadu_ps(b.sub(1)), _mm512_loadu_ps(b), _mm512_loadu_ps(b.add(1))],
            ]
        } else {
            [[zero, _mm512_loadu_ps(a), zero], [zero, _mm512_loadu_ps(b), zero]]
        }
    }
}

/// The neighbourhood of chunk `j` from chunks `j − 1`, `j`, `j + 1` of each row, loaded
/// with masks: for the chunks at the row's ends.
#[inline]
#[target_feature(enable = "avx512f")]
fn around_masked(rows: [&[f32]; 3], j: usize, chunks: usize, tail: u16) -> Around {
    let [a, h, b] = [
        row_window(rows[0], j, chunks, tail),
        row_window(rows[1], j, chunks, tail),
        row_window(rows[2], j, chunks, tail),
    ];
    [a, h, b]
}

/// One row's part of [`around_masked`].
#[inline]
#[target_feature(enable = "avx512f")]
fn row_window(r: &[f32], j: usize, chunks: usize, tail: u16) -> [__m512; 3] {
    let prev = if j == 0 { _mm512_setzero_ps() } else { chunk(r, j - 1, chunks, tail) };
    let (cur, next) = (chunk(r, j, chunks, tail), chunk(r, j + 1, chunks, tail));
    [left(cur, prev), cur, right(next, cur)]
}

/// The new values of one chunk from its neighbourhood and its [`gates`]. `FLOOR` keeps the
/// maximum with 0 after carrying the straight neighbours' maximum.
///
/// Each `fmax(acc, x)` of the portable rule is `max_ps(x, acc)`: both give `x` only when
/// `x > acc`, and `acc` on ties and NaN.
#[inline]
#[target_feature(enable = "avx512f")]
fn chunk_step<R: Rule, const EIGHT: bool, const FLOOR: bool>(
    [[ul, u, ur], [l, c, r], [dl, d, dr]]: Around,
    [own, up_left, up_right, down_left, down_right]: [u16; 5],
    k: Lanes,
) -> __m512 {
    let zero = _mm512_setzero_ps();
    // Two chains from 0 instead of one: each result is a number ≥ +0, so their maximum is
    // the one chain's, and the shorter chains keep more chunks in flight.
    let vertical = _mm512_max_ps(d, _mm512_max_ps(u, zero));
    let horizontal = _mm512_max_ps(r, _mm512_max_ps(l, zero));
    let mut m = carry::<R>(_mm512_max_ps(horizontal, vertical), k.straight);
    if FLOOR {
        m = _mm512_max_ps(m, zero);
    }
    if EIGHT {
        let up = _mm512_maskz_max_ps(up_left, ul, zero);
        let up = _mm512_mask_max_ps(up, up_right, ur, up);
        let down = _mm512_maskz_max_ps(down_left, dl, zero);
        let down = _mm512_mask_max_ps(down, down_right, dr, down);
        m = _mm512_max_ps(carry::<R>(_mm512_max_ps(down, up), k.diagonal), m);
    }
    // settle: old + momentum · (m − old), 0 below the threshold, and 0 in walls.
    let new = _mm512_add_ps(c, _mm512_mul_ps(k.momentum, _mm512_sub_ps(m, c)));
    let keep = _mm512_mask_cmp_ps_mask::<_CMP_NLT_UQ>(own, _mm512_abs_ps(new), k.threshold);
    _mm512_maskz_mov_ps(keep, new)
}

/// One row: [`portable::row`](super::portable) on 16 lanes; `read` is a row to
/// prefetch (or null). With `STREAM`, the chunks between the row's ends are written with
/// non-temporal stores, which need 64-byte aligned addresses: each is stored as the aligned
/// block that ends inside it, made of its own lanes and the chunk's before it, and the two
/// chunks at the ends of that run also get an ordinary store (same values) to cover the
/// cells no block covers.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn row<R: Rule, const EIGHT: bool, const FLOOR: bool, const STREAM: bool>(
    v: [&[f32]; 3],
    bits: &[u32],
    out: &mut [f32],
    k: &Coefs,
    read: *const f32,
) {
    let w = out.len();
    let rows = v.map(|r| &r[..w]);
    let chunks = w.div_ceil(16);
    assert_eq!(bits.len(), gate_rows(EIGHT) * 2 * w.div_ceil(64), "bit rows of another width");
    let tail = u16::MAX >> ((16 - w % 16) % 16);
    let k = Lanes {
        straight: _mm512_set1_ps(k.straight),
        diagonal: _mm512_set1_ps(k.diagonal),
        momentum: _mm512_set1_ps(k.momentum),
        threshold: _mm512_set1_ps(k.threshold),
    };
    // SAFETY: `gates` needs bit rows at least 16j + 1 cells wide. They are as wide as `out`
    // (asserted above), and it is called only for chunks j < `chunks`, so 16j < w.
    let gates = |j| unsafe { gates::<EIGHT>(bits, j) };
    // Streaming: which cell of a chunk sits at a 64-byte boundary (0 to 15), so that the
    // aligned block ending in chunk j starts `back` cells before it, and the lane order that
    // joins its lanes from the chunk before (`aligned..16`) and from its own (`0..aligned`).
    let aligned = (out.as_ptr() as usize / 4).wrapping_neg() % 16;
    let back = 16 - aligned;
    let join = _mm512_add_epi32(
        _mm512_set1_epi32(aligned as i32),
        _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    );
    let mut j = 0;
    while j < chunks {
        if j == 0 || 16 * (j + 2) > w {
            // The chunks at the row's ends.
            let new = chunk_step::<R, EIGHT, FLOOR>(around_masked(rows, j, chunks, tail), gates(j), k);
            let dst = out[16 * j..].as_mut_ptr();
            if j + 1 < chunks {
                // SAFETY: a later chunk exists, so 16 floats from 16j lie in `out`.
                unsafe { _mm512_storeu_ps(dst, new) };
            } else {
                // SAFETY: the mask selects the row's last `w − 16j` floats only.
                unsafe { _mm512_mask_storeu_ps(dst, tail, new) };
            }
            j += 1;
            continue;
        }
        // The chunks between, whole, as are the ones beside them: the row here is read a
        // chunk at a time and shifted, the rows above and below straight from memory.
        let here = rows[1].as_ptr();
        // SAFETY: 1 ≤ j and 16 (j + 2) ≤ w, so chunks j − 1 and j lie in the row.
        let (mut before, mut now) =
            unsafe { (_mm512_loadu_ps(here.add(16 * (j - 1))), _mm512_loadu_ps(here.add(16 * j))) };
        let (first, mut last) = (j, _mm512_setzero_ps());
        while 16 * (j + 2) <= w {
            // SAFETY: as above, for chunk j + 1 and cells 16j − 1 ..= 16j + 16.
            let (after, [a, b]) =
                unsafe { (_mm512_loadu_ps(here.add(16 * (j + 1))), above_below::<EIGHT>(rows, j)) };
            let around = [a, [left(now, before), now, right(after, now)], b];
            let new = chunk_step::<R, EIGHT, FLOOR>(around, gates(j), k);
            if !read.is_null() {
                // A prefetch is only a hint: it reads nothing and cannot fault.
                _mm_prefetch::<_MM_HINT_T0>(read.wrapping_add(16 * j).cast());
            }
            let dst = out.as_mut_ptr().wrapping_add(16 * j);
            if !STREAM || j == first {
                // SAFETY: 16j + 16 < w, so the chunk lies in `out`.
                unsafe { _mm512_storeu_ps(dst, new) };
            } else {
                // SAFETY: the block starts `back` (1 to 16) cells before the chunk, in the
                // chunk before it (in `out`, as j > first), at a 64-byte boundary, and ends
                // before 16j + 16 < w.
                unsafe { _mm512_stream_ps(dst.wrapping_sub(back), _mm512_permutex2var_ps(last, join, new)) };
            }
            last = new;
            (before, now) = (now, after);
            j += 1;
        }
        if STREAM && j > first + 1 {
            // SAFETY: chunk j − 1 lies in `out` (the loop stored it). The fence orders the
            // streamed stores before any later store, as ordinary stores are ordered.
            unsafe {
                _mm512_storeu_ps(out.as_mut_ptr().add(16 * (j - 1)), last);
                _mm_sfence();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::diffuse::{DecayKind, Exp, Lin};
    use super::super::portable::Portable;
    use super::*;
    use crate::space::Connectivity;
    use crate::Cell;

    /// Both kernels on three random rows of `w` cells.
    fn compare<R: Rule, const EIGHT: bool>(w: usize, seed: u64, d: &Diffusion) {
        let mut grid = Grid::new(w, 3).unwrap().with_connectivity(if EIGHT {
            Connectivity::Eight
        } else {
            Connectivity::Four
        });
        let mut s = seed | 1;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let specials = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, -0.0, 0.0, 1e-5];
        let values: Vec<Vec<f32>> = (0..3)
            .map(|_| {
                (0..w)
                    .map(|_| match next() % 8 {
                        0 => specials[(next() % specials.len() as u64) as usize],
                        _ => (next() % 1000) as f32 / 100.0,
                    })
                    .collect()
            })
            .collect();
        for i in 0..3 * w {
            grid.set_blocked(Cell::new(i % w, i / w), next() % 4 == 0).unwrap();
        }
        let k = Coefs::new::<R>(&grid, d);
        let (portable, fast) = (Portable::<R, EIGHT>::new(), Avx512::<R, EIGHT>::new().unwrap());
        let (mut lanes, mut bits) = (vec![vec![0; w]; 3], vec![vec![7; fast.mask_len(w)]; 3]);
        for y in 0..3_usize {
            portable.fill(&grid, y, &mut lanes[y]);
            fast.fill(&grid, y, &mut bits[y]);
        }
        let v = [&values[0][..], &values[1], &values[2]];
        let mut want = vec![9.0; w];
        let hints = |stream| Hints { ahead: values[0].as_ptr(), stream };
        portable.row(v, [&lanes[0], &lanes[1], &lanes[2]], &mut want, &k, hints(false));
        let as_bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        // Streamed rows at every offset from a 64-byte boundary, and cells beside the row
        // left alone.
        let skew = (seed % 16) as usize;
        for stream in [false, true] {
            let mut got = vec![9.0; w + 32];
            let row = &mut got[skew..][..w];
            fast.row(v, [&bits[0], &bits[1], &bits[2]], row, &k, hints(stream));
            assert_eq!(
                as_bits(row),
                as_bits(&want),
                "width {w}, seed {seed}, {d:?}, eight {EIGHT}, stream {stream}"
            );
            let beside = got[..skew].iter().chain(&got[skew + w..]);
            assert!(beside.clone().all(|&x| x == 9.0), "a store outside the row: width {w}, skew {skew}");
        }
    }

    #[test]
    fn gives_the_portable_kernels_bits() {
        if Avx512::<Exp, true>::new().is_none() {
            eprintln!("SKIP: this CPU has no AVX-512");
            return;
        }
        let params = [
            Diffusion::new(0.3, 0.5).unwrap(),
            Diffusion::new(0.0, 1.0).unwrap().with_threshold(0.0).unwrap(),
            Diffusion::new(1e9, 0.7).unwrap(),
            Diffusion::new(0.3, 0.0).unwrap(),
            Diffusion::linear(0.2, 0.8).unwrap(),
        ];
        for w in (1..=70).chain([127, 128, 129, 1000]) {
            for (i, d) in params.iter().enumerate() {
                let seed = (w * 31 + i) as u64;
                match d.kind() {
                    DecayKind::Exponential => {
                        compare::<Exp, false>(w, seed, d);
                        compare::<Exp, true>(w, seed, d);
                    }
                    DecayKind::Linear => {
                        compare::<Lin, false>(w, seed, d);
                        compare::<Lin, true>(w, seed, d);
                    }
                }
            }
        }
    }

    #[test]
    fn bit_rows_hold_free_cells_and_uncut_diagonals() {
        let Some(kernel) = Avx512::<Exp, true>::new() else {
            eprintln!("SKIP: this CPU has no AVX-512");
            return;
        };
        for w in [1, 63, 64, 65, 70, 200] {
            let row = |k: usize| {
                (0..w).map(|x| (x + k).is_multiple_of(3) || (x * k) % 7 == 2).collect::<Vec<bool>>()
            };
            let rows = [row(1), row(2), row(5)];
            for (above, below) in [(true, true), (false, true), (true, false)] {
                let around = [
                    if above { &rows[0][..] } else { &[] },
                    &rows[1],
                    if below { &rows[2][..] } else { &[] },
                ];
                // A grid of the rows present; the row under test is the middle one.
                let present: Vec<&[bool]> = around.iter().copied().filter(|r| !r.is_empty()).collect();
                let mut grid = Grid::new(w, present.len()).unwrap();
                for (y, r) in present.iter().enumerate() {
                    for (x, &b) in r.iter().enumerate() {
                        grid.set_blocked(Cell::new(x, y), b).unwrap();
                    }
                }
                let mut bits = vec![u32::MAX; kernel.mask_len(w)];
                kernel.fill(&grid, usize::from(above), &mut bits);
                let words = bits.len() / gate_rows(true);
                let free = |r: usize, x: Option<usize>| x.and_then(|x| around[r].get(x)).is_some_and(|&b| !b);
                for x in 0..words * 32 {
                    let bit = |g: usize| bits[g * words + x / 32] >> (x % 32) & 1 == 1;
                    let (l, r) = (free(1, x.checked_sub(1)), free(1, Some(x + 1)));
                    let (u, d) = (free(0, Some(x)), free(2, Some(x)));
                    let want = [free(1, Some(x)), u && l, u && r, d && l, d && r];
                    for (g, want) in want.into_iter().enumerate() {
                        assert_eq!(bit(g), want, "width {w}, cell {x}, gate {g}");
                    }
                }
            }
        }
    }
}
