//! The grid step's row kernel written for AVX-512, 16 cells at a time, where the portable
//! kernel ([`portable`](super::portable)) leaves the compiler to vectorise.
//!
//! It evaluates the same float operations per cell as the portable row, so it gives the
//! same bits (its tests compare the two on walls, edges, NaN, infinities and negatives, at
//! every offset from a cache line); what it saves is everything around them:
//!
//! * Chunks follow the memory, not the row: chunk `j` of a row starts `q` cells before
//!   `16 j`, where `q` is how far the map's rows start past a 64-byte boundary (the kernel
//!   is made for a pass with [`Avx512::for_rows`]). A vector of 16 cells is then one cache
//!   line, where a chunk that starts at the row's start straddles two lines on every load
//!   and store when the buffer is not 64-byte aligned (a `Vec<f32>` of a large map sits 16
//!   bytes past one with glibc's allocator).
//! * Each row (above, here, below) is read once per chunk, an aligned load; the neighbours
//!   one cell left and right come from the chunks already loaded, shifted by a lane.
//! * Walls are bit rows made once per row from the grid's free-cell bits
//!   ([`Grid::free_bits`]), in the chunks' frame: the free cells and, with 8 neighbours,
//!   the open squares (2 × 2 cells of this row and the next, all free; see [`fill`]). They
//!   enter the arithmetic as AVX-512 mask registers, and the cell's own wall and the
//!   threshold cut share one masked compare. A diagonal counts when the square it crosses
//!   is open: a masked maximum for the one up-right (down-right), and for the one up-left
//!   (down-left) the row's values masked by its squares, the two rows' maximum, shifted a
//!   lane, so that each row of squares is one mask register. (AMD's Zen 4 and 5 write about
//!   one mask register a cycle: with four diagonal gates, five registers a chunk were about
//!   a fifth of the 8-neighbour step's time; gate bytes widened to lane masks and combined
//!   with AND cost as much, in their memory traffic.)
//! * With 8 neighbours, each value read is first made at least +0 and not NaN, and the
//!   maxima are then taken as integers (see [`chunk_step`]): Zen 5 runs a float maximum on
//!   two of its four vector pipes and an integer one on all four, and the step has eleven
//!   of them a chunk. With 4 neighbours (four maxima) that costs more than it saves.
//! * Each chunk is settled (the lerp and the threshold cut) and stored after the next
//!   chunk's maxima are found, so that these last, dependent operations find their inputs
//!   ready. Both changes together made the 8-neighbour step about 6 % faster on Zen 5.
//! * With exponential decay and a factor above 0, the product of a non-negative maximum is
//!   never negative or NaN, so the maximum with 0 after it is skipped.
//! * On Intel's cores (Sapphire Rapids measured) a step in the caches is bound by the two
//!   512-bit pipes, and a mask register loaded from memory takes one of them as an
//!   operation does; stores do not. So with 8 neighbours a chunk's cut lanes are written
//!   as zeros under a masked store ([`Settled::store`]; with 4, on Zen 5, one store of the
//!   masked move was faster), and two rows at a time read their
//!   diagonals from spans passed down a ring ([`pair`](pair::pair), see its module).
//!   Together, at 256², 0.200 ns a cell became 0.175.
//! * Where the propagator knows every value is finite and at least +0 ([`Coefs::clean`],
//!   [`Bound`](super::bound::Bound)), the rows between a map's first and last run without
//!   the guards against other values (`CLEAN`): the maximum with 0 that starts the
//!   4-neighbour chain, the 8-neighbour cleaning of each value read, and the absolute
//!   value before the threshold cut. On an Intel Xeon core, single steps at 256² took
//!   0.118–0.119 ns a cell instead of 0.128 (4 neighbours) and 0.201–0.206 instead of
//!   0.223–0.229 (8).
//! * The first step of a pass prefetches the input a few rows ahead: on maps beyond the
//!   caches that made a single step about a fifth faster.
//! * On maps beyond the caches a pass of several steps writes its output with
//!   non-temporal stores (see [`row`]), which skip reading each line before writing it. A
//!   single step there is written over its input instead ([`in_place`](super::in_place)),
//!   the second row of each pair saved as it is read ([`pair::pair`]).
//! * A single step's rows run in one function ([`band`]) with the row inlined: no call, no
//!   constants set up again per row. Where the input starts on a cache line (the library's
//!   layers do, [`Layer::zeros`](crate::Layer::zeros)), the rows between the grid's first
//!   and last run as plain loops from each row's start ([`stream`]), without the set-up of
//!   a row's ends, and masked only in a last chunk partly past the row: at 256², a
//!   4-neighbour step took 0.077 ns a cell instead of 0.089, an 8-neighbour one 0.137
//!   instead of 0.140; on a 530-wide map 0.093 instead of 0.113 and (two rows at a time,
//!   `pair::pair`) 0.138 instead of 0.164.
//!
//! The chunks at a row's ends use masked loads and stores (lanes outside the row read as 0
//! and are not written), so any width works; the chunks between read straight from memory.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m512, _mm512_abs_ps, _mm512_add_ps, _mm512_castps_si512, _mm512_castsi512_ps, _mm512_loadu_ps,
    _mm512_mask_cmp_ps_mask, _mm512_mask_max_epi32, _mm512_mask_storeu_ps, _mm512_maskz_loadu_ps,
    _mm512_maskz_mov_ps, _mm512_max_epi32, _mm512_max_ps, _mm512_mul_ps, _mm512_set1_ps, _mm512_setzero_ps,
    _mm512_storeu_ps, _mm512_stream_ps, _mm512_sub_ps, _mm_prefetch, _mm_sfence, _CMP_NLT_UQ, _MM_HINT_T0,
};
use std::marker::PhantomData;

use super::diffuse::Rule;
use super::fused::{
    prefetched, saved_pair, two_rows, Band, Carry, Coefs, Hints, RowKernel, Saved, STREAM_CELLS,
};
use crate::space::Grid;

mod pair;
mod streamed;

use pair::{Ends, Rows};
use streamed::stream;

/// `$run!(a, b, c)` with the three booleans as literals: one compiled function for each of
/// the eight choices a row can be made with. With `; d`, `$run!(a, b, c, d)`: sixteen.
macro_rules! each_choice {
    ($run:ident, $a:expr, $b:expr, $c:expr $(, $d:literal)?) => {
        match ($a, $b, $c) {
            (true, false, false) => $run!(true, false, false $(, $d)?),
            (false, false, false) => $run!(false, false, false $(, $d)?),
            (true, true, false) => $run!(true, true, false $(, $d)?),
            (false, true, false) => $run!(false, true, false $(, $d)?),
            (true, false, true) => $run!(true, false, true $(, $d)?),
            (false, false, true) => $run!(false, false, true $(, $d)?),
            (true, true, true) => $run!(true, true, true $(, $d)?),
            (false, true, true) => $run!(false, true, true $(, $d)?),
        }
    };
    ($run:ident, $a:expr, $b:expr, $c:expr; $d:expr) => {
        if $d {
            each_choice!($run, $a, $b, $c, true)
        } else {
            each_choice!($run, $a, $b, $c, false)
        }
    };
}

/// The AVX-512 kernel for decay kind `R` and 8 neighbours or 4, with chunks starting `q`
/// cells before each multiple of 16. A value of it is the proof that the CPU has AVX-512 F
/// and BW: [`new`](Self::new) is the only way to make one.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx512<R, const EIGHT: bool> {
    q: usize,
    rule: PhantomData<R>,
}

impl<R, const EIGHT: bool> Avx512<R, EIGHT> {
    /// The kernel, if this CPU runs it, with chunks at multiples of 16 cells.
    pub(super) fn new() -> Option<Self> {
        let detected =
            std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512bw");
        detected.then_some(Self { q: 0, rule: PhantomData })
    }

    /// The kernel with its chunks on the cache lines of `map`'s rows, `width` cells each:
    /// when every row starts at the same offset from a 64-byte boundary (`width` a multiple
    /// of 16), chunks start that many cells before each multiple of 16. Only speed depends
    /// on it; the results are the same for any offset.
    pub(super) fn for_rows(self, map: &[f32], width: usize) -> Self {
        let q = if width.is_multiple_of(16) { (map.as_ptr() as usize / 4) % 16 } else { 0 };
        self.with_offset(q)
    }

    /// The kernel with chunks starting `q` (below 16) cells before each multiple of 16.
    pub(super) fn with_offset(self, q: usize) -> Self {
        assert!(q < 16, "an offset within a chunk");
        Self { q, ..self }
    }

    /// Bits of one bit row: one per cell from `−q` to the row's end, in whole 64s.
    fn gate_len(&self, width: usize) -> usize {
        gate_len(width, self.q)
    }
}

impl<R: Rule, const EIGHT: bool> Avx512<R, EIGHT> {
    /// Whether two rows at a time run as one ([`pair::pair`]): with chunks from each row's
    /// start (`q` 0) and, with 8 neighbours, constants the spans hold for ([`Coefs::spans_hold`]).
    fn pairs(self, k: &Coefs) -> bool {
        self.q == 0 && (!EIGHT || k.spans_hold::<R>())
    }

    /// [`pair::pair`] over the four rows `rows` into the two rows `dst[..2]` (and with
    /// `SAVE`, the second middle row's values into `dst[2]`), with the choices it is compiled
    /// for made from `k` and `hints`: [`RowKernel::pair`] and
    /// [`RowKernel::pair_in_place`] both end here. With `SAVE` and `skip` (on maps with runs
    /// of walls), only the pair's parts with free cells run ([`streamed::parts`]), and the
    /// runs of walls are written as +0 unless `skip` says they hold +0 already.
    ///
    /// # Safety
    /// The CPU has AVX-512 F and BW (the kernel's value proves it), `q` is 0, the
    /// pointers are rows of `w` cells as [`pair::pair`] asks, and with 8 neighbours
    /// [`Coefs::spans_hold`] for `k`.
    ///
    /// # Panics
    /// If the wall data of the first three rows is not [`mask_len`](RowKernel::mask_len)
    /// words, or with `SAVE`, if `hints` asks to write past the caches.
    #[inline(always)]
    #[expect(clippy::too_many_arguments, reason = "rows as pointers, which alias in place, and their width")]
    unsafe fn streamed<const SAVE: bool>(
        &self,
        rows: [*const f32; 4],
        masks: [&[u32]; 4],
        dst: [*mut f32; 3],
        w: usize,
        k: &Coefs,
        hints: Hints,
        skip: Option<bool>,
    ) {
        let len = self.mask_len(w);
        assert!(masks[..3].iter().all(|m| m.len() == len), "wall data of the rows' width");
        assert!(!(SAVE && hints.stream), "a row written over its input stays in the caches");
        let floor = floors::<R>(k);
        let (stream, ahead) = (hints.stream, hints.ahead);
        let walls = [masks[0].as_ptr().cast::<u16>(), masks[1].as_ptr().cast(), masks[2].as_ptr().cast()];
        // The open squares follow the free cells' bit row (see `fill`), in 16-bit words.
        let squares = self.gate_len(w) / 16;
        let p = Rows { values: rows, walls, squares, out: dst, ahead, stride: w, ends: Ends::new(w) };
        macro_rules! run {
            ($floor:literal, $stream:literal, $prefetch:literal, $clean:literal) => {
                match skip {
                    Some(zeroed) if SAVE && !$stream => {
                        streamed::saved_parts::<R, EIGHT, $floor, $prefetch, $clean>(
                            p,
                            zeroed,
                            Lanes::new(k),
                        );
                    }
                    _ => pair::pair::<R, EIGHT, $floor, $prefetch, $stream, SAVE, $clean, false>(
                        p,
                        None,
                        Lanes::new(k),
                    ),
                }
            };
        }
        // SAFETY: the caller promised the CPU and the rows; the wall data is `mask_len`
        // words of `fill`'s for `q` 0 (asserted above); `Lanes::new` needs AVX-512 F only.
        unsafe { each_choice!(run, floor, stream, !ahead.is_null(); k.clean) }
    }
}

/// [`Avx512::gate_len`] for chunks `q` cells before each multiple of 16: also where, in
/// bits, a row's open squares follow its free cells (see [`fill`]).
fn gate_len(width: usize, q: usize) -> usize {
    (width + q).div_ceil(64) * 64
}

/// Whether a step keeps the maximum with 0 after carrying the straight neighbours' maximum
/// (`FLOOR`): not for exponential decay with a factor above 0, whose product of a
/// non-negative maximum is never negative or NaN (see the module docs).
fn floors<R: Rule>(k: &Coefs) -> bool {
    R::LINEAR || k.straight.is_nan() || k.straight <= 0.0
}

impl<R: Rule, const EIGHT: bool> RowKernel for Avx512<R, EIGHT> {
    type Rule = R;

    /// The free cells' bit row, then with 8 neighbours the open squares' (see [`fill`]).
    #[inline(always)]
    fn mask_len(&self, width: usize) -> usize {
        let bytes = self.gate_len(width);
        bytes / 32 * if EIGHT { 2 } else { 1 }
    }

    /// One bit a cell (one more with 8 neighbours), in the chunks' frame.
    #[inline(always)]
    fn layout(&self) -> Option<usize> {
        Some(1 + self.q + if EIGHT { 16 } else { 0 })
    }

    #[inline(always)]
    fn fill(&self, grid: &Grid, y: usize, out: &mut [u32]) {
        let rows = [grid.free_bits(y), grid.free_bits(y + 1)];
        let len = self.gate_len(grid.width());
        assert_eq!(out.len(), self.mask_len(grid.width()), "wall data of another width");
        // SAFETY: the kernel exists only on CPUs with AVX-512 F and BW.
        unsafe { fill::<EIGHT>(rows, self.q, len, out) };
    }

    #[inline(always)]
    fn row(&self, values: [&[f32]; 3], masks: [&[u32]; 3], out: &mut [f32], k: &Coefs, hints: Hints) {
        let Hints { ahead, stream } = hints;
        let floor = floors::<R>(k);
        let walls = [masks[0], masks[1]];
        let len = self.mask_len(out.len());
        assert!(walls[0].len() == len && walls[1].len() == len, "wall data of another width");
        let q = self.q;
        macro_rules! run {
            ($floor:literal, $stream:literal, $prefetch:literal) => {
                row::<R, EIGHT, $floor, $stream, $prefetch>(values, walls, out, k, q, ahead)
            };
        }
        // SAFETY: the kernel exists only on CPUs with AVX-512 F and BW; the wall data has
        // the length `row` reads (asserted just above).
        unsafe { each_choice!(run, floor, stream, !ahead.is_null()) }
    }

    /// Where [`pairs`](Self::pairs), the two rows in one loop ([`pair`](pair::pair)), which
    /// shares their loads and, with 8 neighbours, their cleaning, shifts and spans; else two
    /// [`row`]s.
    #[inline(always)]
    fn pair(
        &self,
        values: [&[f32]; 4],
        masks: [&[u32]; 4],
        out: [&mut [f32]; 2],
        _: Option<Carry<'_>>,
        k: &Coefs,
        hints: Hints,
    ) {
        let w = out[0].len();
        if !self.pairs(k) {
            return two_rows(self, values, masks, out, k, hints);
        }
        assert!(values.iter().all(|v| v.len() == w) && out[1].len() == w, "rows of one width");
        let rows = [values[0].as_ptr(), values[1].as_ptr(), values[2].as_ptr(), values[3].as_ptr()];
        let [first, second] = out;
        let dst = [first.as_mut_ptr(), second.as_mut_ptr(), std::ptr::null_mut()];
        // SAFETY: the kernel exists only on CPUs with AVX-512 F and BW; the four rows read
        // and the two written (borrowed apart from them) are `w` cells (asserted above);
        // with 8 neighbours the spans hold (`pairs`, checked above).
        unsafe { self.streamed::<false>(rows, masks, dst, w, k, hints, None) }
    }

    /// Where [`pairs`](Self::pairs), [`pair`](pair::pair) reading the two rows it writes
    /// and saving the second as it goes; else [`saved_pair`].
    #[inline(always)]
    fn pair_in_place(
        &self,
        [above, below]: [&[f32]; 2],
        rows: [&mut [f32]; 2],
        saved: Saved<'_>,
        masks: [&[u32]; 4],
        k: &Coefs,
        hints: Hints,
    ) {
        let w = rows[0].len();
        if !self.pairs(k) {
            return saved_pair(self, [above, below], rows, saved, masks, k, hints);
        }
        assert!(
            above.len() == w && below.len() == w && rows[1].len() == w && saved.second.len() == w,
            "rows of one width"
        );
        let [one, two] = rows;
        let dst = [one.as_mut_ptr(), two.as_mut_ptr(), saved.second.as_mut_ptr()];
        let src = [above.as_ptr(), dst[0].cast_const(), dst[1].cast_const(), below.as_ptr()];
        // Written over its input: never past the caches.
        let hints = Hints { stream: false, ..hints };
        // SAFETY: the kernel exists only on CPUs with AVX-512 F and BW; the rows are `w`
        // cells (asserted above), the two written being the two middle ones read, and the
        // saved row, borrowed apart from them, `w` cells too; with 8 neighbours the spans
        // hold (`pairs`, checked above); with `walled`, the rows are a step's, so the
        // blocked cells of the second hold at most 0.
        unsafe { self.streamed::<true>(src, masks, dst, w, k, hints, saved.walled.then_some(saved.zeroed)) }
    }

    /// The rows of a single step in one loop ([`band`]), the choices [`row`] is compiled for
    /// made once.
    #[inline(always)]
    fn band(&self, b: &Band<'_>, out: &mut [f32], k: &Coefs) {
        let floor = floors::<R>(k);
        let (stream, prefetch) = (b.input.len() >= STREAM_CELLS, prefetched(b.input.len()));
        assert_eq!(b.len, self.mask_len(b.width), "wall data of another width");
        let q = self.q;
        macro_rules! run {
            ($floor:literal, $stream:literal, $prefetch:literal, $clean:literal) => {
                band::<R, EIGHT, $floor, $stream, $prefetch, $clean>(b, out, k, q)
            };
        }
        // SAFETY: the kernel exists only on CPUs with AVX-512 F and BW; each row's wall data
        // has the length `row` reads (asserted just above; `Band::around` cuts rows of it).
        unsafe { each_choice!(run, floor, stream, prefetch; k.clean) }
    }
}

/// The rows of a single step ([`Band`]) in one function: no call, no constants set up again
/// per row. Where every row starts on a cache line (`q` is 0 and the width a multiple of
/// 16), the rows with a row of the grid on either side run as one stream of chunks
/// ([`stream`]); the others, and every row of other maps, by [`row`].
///
/// # Safety
/// As [`row`]: the CPU has AVX-512 F and BW, and `b.len` is [`Avx512::mask_len`] of the
/// width.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn band<
    R: Rule,
    const EIGHT: bool,
    const FLOOR: bool,
    const STREAM: bool,
    const PREFETCH: bool,
    const CLEAN: bool,
>(
    b: &Band<'_>,
    out: &mut [f32],
    k: &Coefs,
    q: usize,
) {
    let each = |b: &Band<'_>, out: &mut [f32]| {
        b.each(out, |values, masks, out, hints| {
            // SAFETY: the caller promised the CPU and the length of a row's wall data.
            unsafe {
                row::<R, EIGHT, FLOOR, STREAM, PREFETCH>(
                    values,
                    [masks[0], masks[1]],
                    out,
                    k,
                    q,
                    hints.ahead,
                );
            }
        });
    };
    let (w, (start, end)) = (b.width, b.rows);
    // The rows with a grid row above and below.
    let (inner_start, inner_end) = (start.max(1), end.min(b.height.saturating_sub(1)));
    if q != 0 || STREAM || inner_start >= inner_end {
        return each(b, out);
    }
    let (top, out) = out.split_at_mut((inner_start - start) * w);
    let (inner, bottom) = out.split_at_mut((inner_end - inner_start) * w);
    each(&Band { rows: (start, inner_start), ..*b }, top);
    // SAFETY: the caller promised the CPU and the wall data's length (for `q` 0); the rows
    // are inside the grid with a grid row either side.
    unsafe { stream::<R, EIGHT, FLOOR, PREFETCH, CLEAN>(b, inner_start..inner_end, inner, k) };
    each(&Band { rows: (inner_end, end), ..*b }, bottom);
}

/// Writes the wall data of a row into `out`, from the free-cell bits ([`Grid::free_bits`])
/// of the row and the row below (empty beyond the grid), in a frame shifted `q` cells left
/// (index `i` is cell `i − q`; cells outside the row are never free), `len` cells long:
///
/// * a bit row of the free cells;
/// * with 8 neighbours, one more: the open squares, cell `x` standing for the square of
///   cells `x` and `x + 1` in this row and the row below, set when all four are free.
///
/// A diagonal between two cells of a square counts when the other two are free (no corner
/// cutting); here the whole square is asked to be free. The two cells it adds are the
/// diagonal's ends, which change nothing: a blocked cell's own value is cleared, and a
/// blocked neighbour holds at most 0, which no maximum (from 0) picks.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn fill<const EIGHT: bool>([here, below]: [&[u64]; 2], q: usize, len: usize, out: &mut [u32]) {
    let words = len / 64;
    let word = |row: &[u64], i: usize| row.get(i).copied().unwrap_or(0);
    // Word i in the shifted frame, holding cells 64i − q ..= 64i − q + 63, from words i and
    // i − 1 of a row (`>> 1 >> (63 − q)` is `>> (64 − q)`, and 0 when q is 0).
    let shift = |now: u64, before: u64| now << q | before >> 1 >> (63 - q);
    let (own, squares) = out.split_at_mut(words * 2);
    let (own, _) = own.as_chunks_mut::<2>();
    let (squares, _) = squares.as_chunks_mut::<2>();
    let put = |pair: &mut [u32; 2], bits: u64| *pair = [bits as u32, (bits >> 32) as u32];
    // Columns free in both rows, words i and i + 1, and the open squares, word i − 1.
    let pair = |i: usize| word(here, i) & word(below, i);
    let (mut now, mut next, mut square) = (pair(0), pair(1), 0);
    for i in 0..words {
        put(&mut own[i], shift(word(here, i), word(here, i.wrapping_sub(1))));
        if EIGHT {
            let open = now & (now >> 1 | next << 63);
            put(&mut squares[i], shift(open, square));
            square = open;
            (now, next) = (next, pair(i + 2));
        }
    }
}

/// Lanes 15, 0..15 of `prev`, `cur`: each lane's left neighbour.
#[inline]
#[target_feature(enable = "avx512f")]
fn left(cur: __m512, prev: __m512) -> __m512 {
    align::<15>(cur, prev)
}

/// Lanes 1..16 of `cur`, 0 of `next`: each lane's right neighbour.
#[inline]
#[target_feature(enable = "avx512f")]
fn right(next: __m512, cur: __m512) -> __m512 {
    align::<1>(next, cur)
}

/// Lanes `N..N + 16` of `low` then `high` (`valignd`, as `_mm512_alignr_epi32`).
///
/// Written out: the compiler turns `_mm512_alignr_epi32` into a two-source permute that
/// overwrites one of its inputs, and a register copy to keep that input, where `valignd`
/// writes a third register. Without the copies, an 8-neighbour step at 256² took 0.121 ns a
/// cell instead of 0.130.
#[inline]
#[target_feature(enable = "avx512f")]
fn align<const N: u8>(high: __m512, low: __m512) -> __m512 {
    let out: __m512;
    // SAFETY: one AVX-512 F instruction (enabled on this function) on registers only.
    unsafe {
        std::arch::asm!(
            "valignd {o}, {a}, {b}, {n}",
            o = lateout(zmm_reg) out,
            a = in(zmm_reg) high,
            b = in(zmm_reg) low,
            n = const N,
            options(pure, nomem, nostack),
        );
    }
    out
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

impl Lanes {
    /// `k`'s constants in every lane.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn new(k: &Coefs) -> Self {
        Self {
            straight: _mm512_set1_ps(k.straight),
            diagonal: _mm512_set1_ps(k.diagonal),
            momentum: _mm512_set1_ps(k.momentum),
            threshold: _mm512_set1_ps(k.threshold),
        }
    }
}

/// One chunk of the rows above, here and below, as [`chunk_step`] reads it: with 8
/// neighbours, each row's values with NaN and everything below +0 made +0 (`max_ps(x, 0)`;
/// with 4, or where the values are clean already, `CLEAN`, as they are), and the row here as
/// it is, for its own value.
#[derive(Clone, Copy)]
struct Chunk {
    /// The rows above, here and below, made at least +0 with 8 neighbours.
    clean: [__m512; 3],
    /// The row here.
    own: __m512,
}

impl Chunk {
    /// The chunk of the rows `[above, here, below]`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn new<const EIGHT: bool, const CLEAN: bool>([a, h, b]: [__m512; 3]) -> Self {
        let clean = cleaned::<EIGHT, CLEAN>;
        Self { clean: [clean(a), clean(h), clean(b)], own: h }
    }

    /// The chunk beyond a row's ends: all +0.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn zero() -> Self {
        let zero = _mm512_setzero_ps();
        Self { clean: [zero; 3], own: zero }
    }
}

/// The larger of `x` and `y`, both at least +0 and not NaN: compared as integers, which is
/// the same order for such floats, on the integer units (AMD's Zen 5 runs a float maximum
/// on two of its four vector pipes, an integer one on all four).
#[inline]
#[target_feature(enable = "avx512f")]
fn imax(x: __m512, y: __m512) -> __m512 {
    _mm512_castsi512_ps(_mm512_max_epi32(_mm512_castps_si512(x), _mm512_castps_si512(y)))
}

/// The neighbours' maximum of one chunk ([`Pending`], for [`settle`]) from the chunks
/// before, at and after it ([`Chunk`]), its cells' free bits and (with 8 neighbours) the
/// open squares above and below it (see [`fill`]) as lane masks, and the chunk before's
/// diagonal sources (below; 0 before the row). `FLOOR` keeps the maximum with 0 after
/// carrying the straight neighbours' maximum. Returns the pending chunk, then this chunk's
/// diagonal sources, for the chunk after.
///
/// With `CLEAN` (see [`Coefs::clean`]), the values read are finite and at least +0: the
/// 4-neighbour chain starts at the first of them, which is what its maximum with +0 gives.
///
/// The portable rule's maxima are chains `fmax(acc, x)` from 0, which pass over NaN and end
/// at the largest of +0 and their other values, in any order (+0 on a tie of ±0: only a
/// value above the +0 a chain starts from replaces it). With 8 neighbours every value is
/// first made at least +0 and not NaN ([`Chunk`]), which changes no chain's end, and the
/// chains are then integer maxima ([`imax`]), with the same bits; the four diagonals are one
/// chain where the portable rule takes the larger of two chains of two. With 4 neighbours
/// each `fmax(acc, x)` is `max_ps(x, acc)`: both give `x` only when `x > acc`, and `acc` on
/// ties and NaN.
///
/// The diagonal up-right of cell `x` counts when square `x` above is open, the one up-left
/// when square `x − 1` is: for the up-right (down-right) ones, a masked maximum; for the
/// up-left and down-left ones, the rows above and below masked by their squares (a closed
/// one gives +0, which the chain passes over like a gated value), their maximum (the
/// diagonal sources), then shifted a lane right.
#[inline]
#[target_feature(enable = "avx512f")]
fn chunk_step<R: Rule, const EIGHT: bool, const FLOOR: bool, const CLEAN: bool>(
    [before, now, after]: [Chunk; 3],
    own: u16,
    [above, below]: [u16; 2],
    sources_before: __m512,
    k: Lanes,
) -> (Pending, __m512) {
    let zero = _mm512_setzero_ps();
    let [a, h, b] = now.clean;
    let c = now.own;
    let (l, r) = (left(h, before.clean[1]), right(after.clean[1], h));
    let straight = if EIGHT {
        imax(imax(a, b), imax(l, r))
    } else {
        // With 4 neighbours the values are as they are, and the chain from 0 is the float
        // one: sanitising first costs more than the integer maxima save.
        _mm512_max_ps(r, _mm512_max_ps(l, _mm512_max_ps(b, start::<CLEAN>(a))))
    };
    let mut m = carry::<R>(straight, k.straight);
    if FLOOR {
        m = _mm512_max_ps(m, zero);
    }
    let mut sources = zero;
    if EIGHT {
        let below_open = _mm512_maskz_mov_ps(below, b);
        sources = _mm512_castsi512_ps(_mm512_mask_max_epi32(
            _mm512_castps_si512(below_open),
            above,
            _mm512_castps_si512(a),
            _mm512_castps_si512(below_open),
        ));
        let diagonal = _mm512_maskz_mov_ps(above, right(after.clean[0], a));
        let down = right(after.clean[2], b);
        let diagonal = _mm512_castsi512_ps(_mm512_mask_max_epi32(
            _mm512_castps_si512(diagonal),
            below,
            _mm512_castps_si512(down),
            _mm512_castps_si512(diagonal),
        ));
        let diagonal = imax(left(sources, sources_before), diagonal);
        m = _mm512_max_ps(carry::<R>(diagonal, k.diagonal), m);
    }
    (Pending { m, old: c, own }, sources)
}

/// A chunk's neighbours' maximum `m`, its old values and its free cells, before [`settle`].
#[derive(Clone, Copy)]
struct Pending {
    m: __m512,
    old: __m512,
    own: u16,
}

/// A value as the maxima read it: with 8 neighbours, made at least +0 and not NaN
/// (`max_ps(x, 0)`) for the integer maxima, unless the values are clean already (`CLEAN`);
/// with 4, as it is.
#[inline]
#[target_feature(enable = "avx512f")]
fn cleaned<const EIGHT: bool, const CLEAN: bool>(x: __m512) -> __m512 {
    if EIGHT && !CLEAN {
        _mm512_max_ps(x, _mm512_setzero_ps())
    } else {
        x
    }
}

/// The start of a 4-neighbour maximum's chain from +0 with `x`: `max(x, +0)`, which is `x`
/// itself where the values are clean (`CLEAN`: finite and at least +0, never −0).
#[inline]
#[target_feature(enable = "avx512f")]
fn start<const CLEAN: bool>(x: __m512) -> __m512 {
    if CLEAN {
        x
    } else {
        _mm512_max_ps(x, _mm512_setzero_ps())
    }
}

/// The chunk's new values: old + momentum · (m − old), 0 below the threshold, and 0 in walls.
/// With `CLEAN` the values are at least +0 (old and m are, and the lerp with a momentum in
/// \[0, 1\] stays between them), so the threshold is compared with them, not their
/// magnitudes.
#[inline]
#[target_feature(enable = "avx512f")]
fn settle<const CLEAN: bool>(Pending { m, old, own }: Pending, k: Lanes) -> Settled {
    let new = _mm512_add_ps(old, _mm512_mul_ps(k.momentum, _mm512_sub_ps(m, old)));
    let size = if CLEAN { new } else { _mm512_abs_ps(new) };
    Settled { new, keep: _mm512_mask_cmp_ps_mask::<_CMP_NLT_UQ>(own, size, k.threshold) }
}

/// A chunk's new values before the cut: the lanes `keep` hold `new`, the others +0 (below
/// the threshold, or walls).
#[derive(Clone, Copy)]
struct Settled {
    new: __m512,
    keep: u16,
}

impl Settled {
    /// The values, the cut lanes +0: one masked move.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn value(self) -> __m512 {
        _mm512_maskz_mov_ps(self.keep, self.new)
    }

    /// Writes the values to the 16 cells at `at`. With 8 neighbours, zeros and then the kept
    /// lanes over them: the second store takes the place of [`value`](Self::value)'s masked
    /// move, and stores are not the vector units that bind an 8-neighbour step in the
    /// caches (at 256², 0.193–0.200 ns a cell against 0.200–0.208 on an Intel Xeon core;
    /// level on Zen 5). With 4, the masked move and one store: Zen 5 stores one 512-bit
    /// vector a cycle, and a 4-neighbour step at 256² took 0.069–0.072 ns a cell against
    /// 0.074–0.076 with two stores (not measured on the Xeon).
    ///
    /// # Safety
    /// The CPU has AVX-512 F; `at` is valid for 16 writes.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn store<const EIGHT: bool>(self, at: *mut f32) {
        // SAFETY: the caller promised the 16 cells.
        unsafe {
            if EIGHT {
                _mm512_storeu_ps(at, _mm512_setzero_ps());
                _mm512_mask_storeu_ps(at, self.keep, self.new);
            } else {
                _mm512_storeu_ps(at, self.value());
            }
        }
    }
}

/// The chunks `0..chunks` of a row (or a pair of rows) in order, for [`row`] and the
/// streamed rows alike: each chunk's maxima (`step`) from the chunks before, at and after it
/// (`none` beyond the row's ends) and the diagonal sources of the chunk before (`start`
/// before the first), and each chunk settled and stored (`put`) after the next one's maxima
/// are found, so that its last, dependent operations find their inputs ready.
#[inline(always)]
fn in_order<C: Copy, P: Copy, S: Copy>(
    chunks: usize,
    none: C,
    start: S,
    load: impl Fn(usize, bool) -> C,
    mut step: impl FnMut(usize, [C; 3], S) -> (P, S),
    mut put: impl FnMut(usize, P, bool),
) {
    // `load` and `put` learn whether the chunk is the row's last, the only one that may lie
    // partly past its end: a literal at each call, so the loop below has no test of it.
    let last = chunks - 1;
    let mut now = load(0, last == 0);
    if last == 0 {
        put(0, step(0, [none, now, none], start).0, true);
        return;
    }
    let after = load(1, last == 1);
    let (mut pending, mut sources) = step(0, [none, now, after], start);
    let mut before = now;
    now = after;
    // Chunks 1 .. last − 1, each reading a whole chunk after it but the last of them.
    let mut middle = |j: usize, after: C| {
        let next;
        (next, sources) = step(j, [before, now, after], sources);
        put(j - 1, pending, false);
        pending = next;
        (before, now) = (now, after);
    };
    // Three chunks a turn: the three chunks held (before, now, after) rotate through the
    // same registers every three, so no register is copied from chunk to chunk. 8
    // neighbours at 256², single steps: 0.198–0.202 ns a cell against 0.201–0.211; at
    // 1024² 0.218–0.220 against 0.221–0.227 (an Intel Xeon core).
    let stop = last.saturating_sub(1);
    let mut j = 1;
    while j + 3 <= stop {
        middle(j, load(j + 1, false));
        middle(j + 1, load(j + 2, false));
        middle(j + 2, load(j + 3, false));
        j += 3;
    }
    while j < stop {
        middle(j, load(j + 1, false));
        j += 1;
    }
    if last >= 2 {
        middle(last - 1, load(last, true));
    }
    let (next, _) = step(last, [before, now, none], sources);
    put(last - 1, pending, false);
    put(last, next, true);
}

/// One row: [`portable::row`](super::portable) on 16 lanes, in chunks starting `q` cells
/// before each multiple of 16 (see the module docs), with the wall data [`fill`] wrote for
/// it; `read` is a row to prefetch (or null). With `STREAM`, the chunks between the row's
/// ends are written with non-temporal stores where the output's chunks lie on 64-byte
/// boundaries (ordinary stores elsewhere), then fenced, so that they are ordered before any
/// later store as ordinary stores are.
///
/// # Safety
/// The CPU has AVX-512 F and BW, and both `walls` (the rows above and here) hold at least
/// the words [`fill`] writes for `q` and `out.len()` (any words: what they hold decides the
/// results, not their safety).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn row<R: Rule, const EIGHT: bool, const FLOOR: bool, const STREAM: bool, const PREFETCH: bool>(
    v: [&[f32]; 3],
    walls: [&[u32]; 2],
    out: &mut [f32],
    k: &Coefs,
    q: usize,
    read: *const f32,
) {
    let w = out.len();
    // (Arrays built element by element here and below: `array::map` is not always inlined.)
    let rows = [&v[0][..w], &v[1][..w], &v[2][..w]];
    // Chunk j covers cells 16j − q ..= 16j − q + 15; the first and last are partly outside.
    let chunks = (w + q).div_ceil(16);
    let tail = u16::MAX >> (16 * chunks - w - q);
    let head = (u16::MAX << q) & if chunks == 1 { tail } else { u16::MAX };
    let k = Lanes::new(k);
    // Where chunk 0 would start, were the row there: only lanes inside the row are read.
    let base = [
        rows[0].as_ptr().wrapping_sub(q),
        rows[1].as_ptr().wrapping_sub(q),
        rows[2].as_ptr().wrapping_sub(q),
    ];
    let dst = out.as_mut_ptr().wrapping_sub(q);
    let len = gate_len(w, q);
    let (above, here) = (walls[0].as_ptr().cast::<u16>(), walls[1].as_ptr().cast::<u16>());
    // The bits of chunk j < `chunks`: its free cells, and the open squares above and below
    // it (or 0).
    let bits = |j: usize| -> (u16, [u16; 2]) {
        // SAFETY: chunk j reads bits 16j ..= 16j + 15 of each bit row, all within the `len`
        // cells (a multiple of 64, at least w + q) that `fill` wrote, and the caller
        // promised `walls` holds.
        let read = |at: *const u16, row: usize| unsafe { at.add(row * len / 16 + j).read() };
        (read(here, 0), if EIGHT { [read(above, 1), read(here, 1)] } else { [0; 2] })
    };
    let stream = STREAM && (dst as usize).is_multiple_of(64);
    // Chunk `j` of each row: whole, or the lanes `lanes` selects (the rest 0).
    // SAFETY: whole chunks are those strictly between the first and the last, which lie
    // inside the rows.
    let whole = |j: usize| unsafe {
        Chunk::new::<EIGHT, false>([
            _mm512_loadu_ps(base[0].add(16 * j)),
            _mm512_loadu_ps(base[1].add(16 * j)),
            _mm512_loadu_ps(base[2].add(16 * j)),
        ])
    };
    // SAFETY: the masks of the end chunks select cells inside the rows only.
    let part = |j: usize, lanes: u16| unsafe {
        Chunk::new::<EIGHT, false>([
            _mm512_maskz_loadu_ps(lanes, base[0].wrapping_add(16 * j)),
            _mm512_maskz_loadu_ps(lanes, base[1].wrapping_add(16 * j)),
            _mm512_maskz_loadu_ps(lanes, base[2].wrapping_add(16 * j)),
        ])
    };
    let step = |j: usize, chunks: [Chunk; 3], sources: __m512| {
        if PREFETCH {
            // A prefetch is only a hint: it reads nothing and cannot fault.
            _mm_prefetch::<_MM_HINT_T0>(read.wrapping_add(16 * j).cast());
        }
        let (own, squares) = bits(j);
        chunk_step::<R, EIGHT, FLOOR, false>(chunks, own, squares, sources, k)
    };
    // The first chunk and the last are partly outside the row (`head`, `tail`).
    let load = |j: usize, end: bool| match (j, end) {
        (0, _) => part(0, head),
        (_, true) => part(j, tail),
        _ => whole(j),
    };
    let at = |j: usize| dst.wrapping_add(16 * j);
    let put = |j: usize, pending: Pending, end: bool| {
        let new = settle::<false>(pending, k);
        // SAFETY: the masks of the end chunks select cells inside `out` only; chunks
        // strictly between the ends lie inside it, and streamed ones start on 64-byte
        // boundaries (`dst` does, checked above).
        unsafe {
            match (j, end) {
                (0, _) => _mm512_mask_storeu_ps(at(0), head, new.value()),
                (_, true) => _mm512_mask_storeu_ps(at(j), tail, new.value()),
                _ if stream => _mm512_stream_ps(at(j), new.value()),
                _ => new.store::<EIGHT>(at(j)),
            }
        }
    };
    in_order(chunks, Chunk::zero(), _mm512_setzero_ps(), load, step, put);
    if stream {
        _mm_sfence();
    }
}

#[cfg(test)]
mod tests {
    use super::super::diffuse::{DecayKind, Diffusion, Exp, Lin};
    use super::super::fused::whole_band;
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
        let mut next = crate::test_rng::xorshift(seed);
        for i in 0..3 * w {
            grid.set_blocked(Cell::new(i % w, i / w), next().is_multiple_of(4)).unwrap();
        }
        // Blocked cells hold at most 0, as a pass's input does (`fused::Pass`).
        let specials = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, -0.0, 0.0, 1e-5];
        let in_walls = [0.0, -0.0, -1.0, f32::NEG_INFINITY];
        let values: Vec<Vec<f32>> = (0..3)
            .map(|y| {
                (0..w)
                    .map(|x| match next() % 8 {
                        _ if grid.is_blocked(Cell::new(x, y)) => in_walls[(next() % 4) as usize],
                        0 => specials[(next() % specials.len() as u64) as usize],
                        _ => (next() % 1000) as f32 / 100.0,
                    })
                    .collect()
            })
            .collect();
        let k = Coefs::new::<R>(&grid, d, false);
        let portable = Portable::<R, EIGHT>::new();
        let mut lanes = vec![vec![0; w]; 3];
        for (y, lanes) in lanes.iter_mut().enumerate() {
            portable.fill(&grid, y, lanes);
        }
        let v = [&values[0][..], &values[1], &values[2]];
        let mut want = vec![9.0; w];
        let hints = |stream| Hints { ahead: values[0].as_ptr(), stream };
        portable.row(v, [&lanes[0], &lanes[1], &lanes[2]], &mut want, &k, hints(false));
        let as_bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        // Chunks at three offsets, streamed rows at every offset from a 64-byte boundary, and
        // cells beside the row left alone.
        let skew = (seed % 16) as usize;
        for q in [0, (seed % 16) as usize, (seed * 7 % 16) as usize] {
            let fast = Avx512::<R, EIGHT>::new().unwrap().with_offset(q);
            let mut bits = vec![vec![7; fast.mask_len(w)]; 3];
            for (y, bits) in bits.iter_mut().enumerate() {
                fast.fill(&grid, y, bits);
            }
            for stream in [false, true] {
                let mut got = vec![9.0; w + 32];
                let row = &mut got[skew..][..w];
                fast.row(v, [&bits[0], &bits[1], &bits[2]], row, &k, hints(stream));
                assert_eq!(
                    as_bits(row),
                    as_bits(&want),
                    "width {w}, seed {seed}, {d:?}, eight {EIGHT}, offset {q}, stream {stream}"
                );
                let beside = got[..skew].iter().chain(&got[skew + w..]);
                assert!(beside.clone().all(|&x| x == 9.0), "a store outside the row: width {w}, skew {skew}");
            }
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

    /// Two rows at once ([`RowKernel::pair`], the fused pipeline's turn) give the portable
    /// kernel's two rows: 8 neighbours and 4, chunks from the row's start and at an offset,
    /// written past the caches or not, with and without prefetching, at every width to 70 and
    /// a few wider, with walls and special values, or clean ones and the kernel told so
    /// ([`Coefs::clean`]), and constants the spans do not hold for ([`Coefs::spans_hold`]);
    /// nothing is written beside the rows.
    #[test]
    fn pairs_give_the_portable_kernels_bits() {
        if Avx512::<Exp, true>::new().is_none() {
            eprintln!("SKIP: this CPU has no AVX-512");
            return;
        }
        fn check<const EIGHT: bool>(w: usize, seed: u64, clean: bool, swapped: bool) {
            let conn = if EIGHT { Connectivity::Eight } else { Connectivity::Four };
            let mut grid = Grid::new(w, 4).unwrap().with_connectivity(conn);
            let mut next = crate::test_rng::xorshift(seed);
            for i in 0..4 * w {
                grid.set_blocked(Cell::new(i % w, i / w), next().is_multiple_of(4)).unwrap();
            }
            let specials = if clean {
                [0.0, 1e-40, 1e30, 1e-4, 1e-5]
            } else {
                [f32::NAN, f32::INFINITY, -1.0, -0.0, 1e-5]
            };
            // Rows on a cache line: a layer's, as the fused pipeline's rings are.
            let values: Vec<crate::Layer> = (0..4)
                .map(|y| {
                    let mut layer = crate::Layer::zeros(w);
                    for (x, v) in layer.values_mut().iter_mut().enumerate() {
                        *v = match next() % 8 {
                            _ if grid.is_blocked(Cell::new(x, y)) => 0.0,
                            0 => specials[(next() % specials.len() as u64) as usize],
                            _ => (next() % 1000) as f32 / 100.0,
                        };
                    }
                    layer
                })
                .collect();
            let v = [values[0].values(), values[1].values(), values[2].values(), values[3].values()];
            let d = Diffusion::new(0.3, 0.5).unwrap();
            let k = Coefs::new::<Exp>(&grid, &d, false);
            // A diagonal factor above the straight one: no `Diffusion` makes it, and the
            // spans do not hold for it.
            let k = if swapped { Coefs { straight: k.diagonal, diagonal: k.straight, ..k } } else { k };
            let portable = Portable::<Exp, EIGHT>::new();
            let walls = |kernel: &dyn Fn(usize, &mut [u32]), len: usize| -> Vec<Vec<u32>> {
                (0..4)
                    .map(|y| {
                        let mut m = vec![7; len];
                        kernel(y, &mut m);
                        m
                    })
                    .collect()
            };
            let lanes = walls(&|y, m| portable.fill(&grid, y, m), portable.mask_len(w));
            fn masks(m: &[Vec<u32>]) -> [&[u32]; 4] {
                [&m[0], &m[1], &m[2], &m[3]]
            }
            let mut want = [vec![9.0; w], vec![9.0; w]];
            let [one, two] = &mut want;
            let none = Hints { ahead: std::ptr::null(), stream: false };
            portable.pair(v, masks(&lanes), [one, two], None, &k, none);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            for q in [0, (seed % 16) as usize] {
                let fast = Avx512::<Exp, EIGHT>::new().unwrap().with_offset(q);
                let data = walls(&|y, m| fast.fill(&grid, y, m), fast.mask_len(w));
                for (stream, ahead) in
                    [(false, std::ptr::null()), (true, v[0].as_ptr()), (true, std::ptr::null())]
                {
                    let mut got = crate::Layer::zeros(2 * w + 32);
                    got.values_mut().fill(9.0);
                    let (rows, rest) = got.values_mut().split_at_mut(2 * w);
                    let (one, two) = rows.split_at_mut(w);
                    let k = Coefs { clean, ..k };
                    fast.pair(v, masks(&data), [one, two], None, &k, Hints { ahead, stream });
                    let what = format!(
                        "width {w}, seed {seed}, eight {EIGHT}, offset {q}, stream {stream}, {clean} {swapped}"
                    );
                    assert_eq!(bits(one), bits(&want[0]), "{what}: the first row");
                    assert_eq!(bits(two), bits(&want[1]), "{what}: the second row");
                    assert!(rest.iter().all(|&x| x == 9.0), "{what}: a store past the rows");
                }
            }
        }
        for w in (1..=70).chain([127, 128, 129, 256, 530]) {
            for (clean, swapped) in [(false, false), (true, false), (true, true)] {
                check::<true>(w, w as u64 * 7 + 1, clean, swapped);
                check::<false>(w, w as u64 * 7 + 2, clean, swapped);
            }
        }
    }

    /// A single step's band ([`stream`]'s pairs, which pass spans from each to the next)
    /// gives the portable kernel's bits, with the step's constants and with constants the
    /// spans do not hold for (a diagonal factor above the straight one), which it runs
    /// without pairs.
    #[test]
    fn bands_give_the_portable_kernels_bits_whether_the_spans_hold_or_not() {
        if Avx512::<Exp, true>::new().is_none() {
            eprintln!("SKIP: this CPU has no AVX-512");
            return;
        }
        for (w, h) in [(16, 6), (64, 9), (100, 7), (2048, 4), (2064, 5)] {
            let mut grid = Grid::new(w, h).unwrap().with_connectivity(Connectivity::Eight);
            let mut next = crate::test_rng::xorshift((w * 13 + h) as u64);
            for i in 0..w * h {
                grid.set_blocked(Cell::new(i % w, i / w), next().is_multiple_of(4)).unwrap();
            }
            let mut input = crate::Layer::zeros(w * h);
            for (i, v) in input.values_mut().iter_mut().enumerate() {
                let free = !grid.is_blocked(Cell::new(i % w, i / w));
                *v = if free { (next() % 1000) as f32 / 100.0 } else { 0.0 };
            }
            let k = Coefs::new::<Exp>(&grid, &Diffusion::new(0.3, 0.5).unwrap(), true);
            let swapped = Coefs { straight: k.diagonal, diagonal: k.straight, ..k };
            assert!(k.spans_hold::<Exp>() && !swapped.spans_hold::<Exp>());
            let (portable, fast) = (Portable::<Exp, true>::new(), Avx512::<Exp, true>::new().unwrap());
            for k in [k, swapped] {
                let (ours, theirs) =
                    (banded(fast, &grid, input.values(), &k), banded(portable, &grid, input.values(), &k));
                assert_eq!(ours, theirs, "{w}×{h}, {k:?}");
            }
        }
    }

    /// A single step of `input` on `grid` by `kernel`'s band, as bits.
    fn banded<K: RowKernel>(kernel: K, grid: &Grid, input: &[f32], k: &Coefs) -> Vec<u32> {
        whole_band(&kernel, grid, input, |band| {
            let mut out = vec![9.0; input.len()];
            kernel.band(band, &mut out, k);
            out.iter().map(|x| x.to_bits()).collect()
        })
    }

    #[test]
    fn wall_data_holds_free_cells_and_open_squares() {
        if Avx512::<Exp, true>::new().is_none() {
            eprintln!("SKIP: this CPU has no AVX-512");
            return;
        }
        for (w, q) in [(1, 0), (1, 15), (63, 1), (64, 0), (64, 9), (65, 3), (70, 0), (128, 5), (200, 13)] {
            let kernel = Avx512::<Exp, true>::new().unwrap().with_offset(q);
            let row = |k: usize| {
                (0..w).map(|x| (x + k).is_multiple_of(3) || (x * k) % 7 == 2).collect::<Vec<bool>>()
            };
            let rows = [row(2), row(5)];
            for below in [true, false] {
                // A grid of the rows present; the row under test is the first.
                let mut grid = Grid::new(w, 1 + usize::from(below)).unwrap();
                for (y, r) in rows.iter().take(grid.height()).enumerate() {
                    for (x, &b) in r.iter().enumerate() {
                        grid.set_blocked(Cell::new(x, y), b).unwrap();
                    }
                }
                let mut data = vec![u32::MAX; kernel.mask_len(w)];
                kernel.fill(&grid, 0, &mut data);
                let len = kernel.gate_len(w);
                let bytes: Vec<u8> = data.iter().flat_map(|word| word.to_le_bytes()).collect();
                let (own, squares) = bytes.split_at(len / 8);
                let free = |r: usize, x: Option<usize>| {
                    (r == 0 || below) && x.and_then(|x| rows[r].get(x)).is_some_and(|&b| !b)
                };
                for i in 0..len {
                    // Index i is cell i − q.
                    let x = i.checked_sub(q);
                    let next = x.map(|x| x + 1);
                    let bit = |bytes: &[u8]| bytes[i / 8] >> (i % 8) & 1 == 1;
                    assert_eq!(bit(own), free(0, x), "width {w}, offset {q}, index {i}");
                    let open = free(0, x) && free(0, next) && free(1, x) && free(1, next);
                    assert_eq!(bit(squares), open, "width {w}, offset {q}, index {i}, below {below}");
                }
            }
        }
    }
}
