//! The grid step's row kernel written for AVX2, 8 cells at a time, for CPUs without
//! AVX-512 (AMD's before Zen 4, Intel's client cores), where the portable kernel compiled
//! for AVX2 ran at 0.43–0.75 of a hand-written flat loop's speed (docs/PERFORMANCE.md).
//!
//! It evaluates the same float operations per cell as the portable row, so it gives the same
//! bits (its tests compare the two on walls, edges, NaN, infinities and negatives). What it
//! changes is everything around them:
//!
//! * Walls are bytes, not a 32-bit word a cell: a row of free cells (all bits set, or none)
//!   and, with 8 neighbours, a row of open squares (2 × 2 cells of this row and the next, all
//!   free; see [`fill`]). One `vpmovsxbd` makes eight of them lane masks, on the shuffle
//!   pipe, which the step's maxima and products leave idle. AVX2 has no mask registers, and
//!   bits widened to lanes took two operations on the busy pipes instead.
//! * The wall data is kept from step to step ([`single`](super::single)), so a step reads
//!   one or two bytes a cell of it, not four, and never makes it; maps beyond the L2 step
//!   in place ([`in_place`](super::in_place)), as with AVX-512. A pair stepped in place
//!   reads its own rows and writes over them: each chunk's results wait until the next
//!   chunk has read its cells (whose left neighbours they would overwrite), and the second
//!   row's old values are saved as they are read, for the pair below.
//! * The hints are taken: rows asked for ahead are prefetched (a step in place, a fused
//!   pass's first step) and rows to write past the caches are (a fused pass's last step on
//!   the largest maps). Neither is tested for where there are none (`HINTED`). At 4096²,
//!   single steps went from 0.61–0.64 ns a cell to 0.49–0.50 with 4 neighbours and from
//!   0.77 to 0.60–0.61 with 8 (docs/PERFORMANCE.md).
//! * A row's left and right neighbours are unaligned loads; only the chunks at a row's
//!   ends shift the row's own chunk by a lane, with a zero shifted in.
//! * Where the propagator knows every value is finite and at least +0 ([`Coefs::clean`]), the
//!   guards against other values are skipped, and two rows go at a time ([`pair`]). With 8
//!   neighbours, the diagonals two rows share come from their *boundary*: for each column
//!   beside a cell, the larger of the two rows' values there, gated by the open square
//!   between them. It gives the upper row its lower diagonals and the lower row its upper
//!   ones at once, so a diagonal costs half a gate; the straight neighbour it lets in never
//!   wins ([`Coefs::spans_hold`]). Each pair passes its lower boundary down to the next
//!   through a row kept for it ([`Carry`]): a stack row in a single step ([`band`]), the
//!   pipeline's row for each step of a fused pass, the ring's in a step in place. One row
//!   serves for the boundaries read and written: a row's last chunk, which may overlap the
//!   one before, reads its boundary above before any chunk writes. At 4096², 16 fused
//!   steps took 0.38–0.42 ns a cell and step against 0.41–0.44 computing it again. The
//!   clean maxima are taken as integers ([`imax`]), which AMD's cores run on all four
//!   vector pipes, not two.
//! * Elsewhere (values that may be negative, −0, infinite or NaN) each chunk is the portable
//!   cell rule written out ([`guarded`]).
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m128i, __m256, _mm256_add_ps, _mm256_and_ps, _mm256_andnot_ps, _mm256_blend_ps, _mm256_castps_si256,
    _mm256_castsi256_ps, _mm256_cmp_ps, _mm256_cvtepi8_epi32, _mm256_loadu_ps, _mm256_max_epi32,
    _mm256_max_ps, _mm256_mul_ps, _mm256_permutevar8x32_ps, _mm256_set1_ps, _mm256_setr_epi32,
    _mm256_setzero_ps, _mm256_storeu_ps, _mm256_stream_ps, _mm256_sub_ps, _mm_loadl_epi64, _mm_prefetch,
    _mm_sfence, _CMP_NLT_UQ, _MM_HINT_T0,
};
use std::marker::PhantomData;

use super::diffuse::Rule;
use super::fused::{
    self, prefetched, saved_pair, two_rows, Band, Carry, Coefs, Hints, Parts, RowKernel, Saved,
};
use crate::space::Grid;
use std::ops::Range;

/// The AVX2 kernel for decay kind `R` and 8 neighbours or 4. A value of it is the proof
/// that the CPU has AVX2: [`new`](Self::new) is the only way to make one.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx2<R, const EIGHT: bool>(PhantomData<R>);

impl<R, const EIGHT: bool> Avx2<R, EIGHT> {
    /// The kernel, if this CPU runs it.
    pub(super) fn new() -> Option<Self> {
        std::arch::is_x86_feature_detected!("avx2").then_some(Self(PhantomData))
    }
}

impl<R: Rule, const EIGHT: bool> Avx2<R, EIGHT> {
    /// Whether a step with constants `k` takes the clean path: the values are clean
    /// ([`Coefs::clean`]) and, with 8 neighbours, the boundaries give the rule's bits
    /// ([`Coefs::spans_hold`]). Else each chunk is [`guarded`].
    fn clean(k: &Coefs) -> bool {
        k.clean && (!EIGHT || k.spans_hold::<R>())
    }
}

/// Bytes of wall data before a row's first cell (and at least as many after its last): a
/// chunk reads the bytes one cell either side of its own, eight at a time.
const PAD: usize = 8;

/// Bytes of one row of wall data (free cells, or open squares) for a row `width` cells wide,
/// in whole words: cell `x` is byte `PAD + x`, and the pads are 0 (blocked, closed).
fn row_bytes(width: usize) -> usize {
    (width + 2 * PAD).next_multiple_of(4)
}

impl<R: Rule, const EIGHT: bool> RowKernel for Avx2<R, EIGHT> {
    type Rule = R;

    /// The free cells' bytes, then with 8 neighbours the open squares' (see [`fill`]).
    #[inline(always)]
    fn mask_len(&self, width: usize) -> usize {
        row_bytes(width) / 4 * if EIGHT { 2 } else { 1 }
    }

    /// A byte a cell (two with 8 neighbours).
    #[inline(always)]
    fn layout(&self) -> Option<usize> {
        Some(64 + usize::from(EIGHT))
    }

    #[inline(always)]
    fn fill(&self, grid: &Grid, y: usize, out: &mut [u32]) {
        assert_eq!(out.len(), self.mask_len(grid.width()), "wall data of another width");
        fill::<EIGHT>(grid, y, out);
    }

    #[inline(always)]
    fn row(&self, values: [&[f32]; 3], masks: [&[u32]; 3], out: &mut [f32], k: &Coefs, _: Hints) {
        let w = out.len();
        let rows = Rows::one(values, masks, w, self.mask_len(w));
        let (lanes, clean) = (Lanes::new(k), Self::clean(k));
        // SAFETY: the kernel exists only on CPUs with AVX2; the rows are `w` cells with
        // their wall data (checked by `Rows::one`); with `clean`, the values are and the
        // spans hold.
        unsafe {
            if clean {
                one::<R, EIGHT, true>(rows, out, lanes);
            } else {
                one::<R, EIGHT, false>(rows, out, lanes);
            }
        }
    }

    /// Where the values are clean, the two rows in one loop ([`pair`]); else two
    /// [`row`](Self::row)s. With 8 neighbours and a kept row of the map's width, the
    /// boundary below the pair is left there for the pair below, and the one above taken
    /// from there where the pair above left it.
    #[inline(always)]
    fn pair(
        &self,
        values: [&[f32]; 4],
        masks: [&[u32]; 4],
        out: [&mut [f32]; 2],
        kept: Option<Carry<'_>>,
        k: &Coefs,
        hints: Hints,
    ) {
        let w = out[0].len();
        assert_eq!(out[1].len(), w, "rows of one width");
        if !Self::clean(k) {
            return two_rows(self, values, masks, out, k, hints);
        }
        let rows = Rows::two(values, masks, w, self.mask_len(w));
        let [first, second] = out;
        let dst = [first.as_mut_ptr(), second.as_mut_ptr()];
        let extra = Extra { hints, ..Extra::none() };
        // SAFETY: the kernel exists only on CPUs with AVX2; the rows are `w` cells with
        // their wall data (checked by `Rows::two`), the two written (`w` cells) borrowed
        // apart from them; the values are clean and the spans hold (checked above); the
        // kept row, if any, is `w` cells (checked by `pair`) borrowed apart from them,
        // and read only where the pair above wrote it; nothing saved.
        unsafe {
            pair::<R, EIGHT, false>(rows, dst, kept, extra, Lanes::new(k));
        }
    }

    /// Where the values are clean, [`pair`] reading the two rows it writes and saving the
    /// second as it goes; else (or on rows under 8 cells) [`saved_pair`]. With 8
    /// neighbours, the boundary below the pair is left in the kept row for the pair below,
    /// and the one above taken from there where the pair above left it.
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
        if !Self::clean(k) || w < 8 {
            return saved_pair(self, [above, below], rows, saved, masks, k, hints);
        }
        let Saved { kept, second, walled, zeroed } = saved;
        assert!(rows[1].len() == w && second.len() == w, "rows of one width");
        let [one, two] = rows;
        let mut rows_in = Rows::two([above, one, two, below], masks, w, self.mask_len(w));
        // The two middle rows are read and written through the same pointers.
        let dst = [one.as_mut_ptr(), two.as_mut_ptr()];
        rows_in.values[1] = dst[0].cast_const();
        rows_in.values[2] = dst[1].cast_const();
        // Written over its input: never past the caches.
        let hints = Hints { stream: false, ..hints };
        let extra = Extra { save: second.as_mut_ptr(), hints };
        let lanes = Lanes::new(k);
        if walled {
            // With 8 neighbours the boundaries pass down the kept row, which must hold 0
            // where no pair above ran (see `parts`): it holds 0 before a band's first
            // pair ([`in_place`](super::in_place) places its rows in zeroed scratch).
            let ring = if EIGHT { kept.row.as_mut_ptr() } else { std::ptr::null_mut() };
            assert_eq!(kept.row.len(), w, "a kept row of the rows' width");
            // SAFETY: as below; the kept row is `w` cells (asserted above), 0 before the
            // band's first pair and left by the pair above after it.
            unsafe { saved_parts::<R, EIGHT>(rows_in, dst, ring, kept.carried, zeroed, extra.save, lanes) };
            return;
        }
        // SAFETY: the kernel exists only on CPUs with AVX2; the rows are `w ≥ 8` cells with
        // their wall data (checked by `Rows::two` and above), the two written being the
        // two middle ones read, and the saved row, borrowed apart from them, `w` cells too;
        // the values are clean and the spans hold (checked above); the kept row, if used,
        // is `w` cells (checked by `pair`) borrowed apart from the others, and read only
        // where the pair above wrote it.
        unsafe {
            pair::<R, EIGHT, true>(rows_in, dst, Some(kept), extra, lanes);
        }
    }

    /// The rows of a single step in one function ([`band`]).
    #[inline(always)]
    fn band(&self, b: &Band<'_>, out: &mut [f32], k: &Coefs) {
        assert_eq!(b.len, self.mask_len(b.width), "wall data of another width");
        let clean = Self::clean(k);
        // SAFETY: the kernel exists only on CPUs with AVX2; each row's wall data is
        // `mask_len` words (asserted above; `Band::around` cuts rows of it).
        unsafe {
            if clean && b.walled {
                band::<R, EIGHT, true, true>(b, out, k);
            } else if clean {
                band::<R, EIGHT, true, false>(b, out, k);
            } else {
                band::<R, EIGHT, false, false>(b, out, k);
            }
        }
    }
}

/// Writes the wall data of row `y` into `out` ([`RowKernel::mask_len`] words): a byte a
/// cell, 0xFF for a free cell and 0 for a blocked one, `PAD` zero bytes either side; then
/// with 8 neighbours the open squares alike, cell `x` standing for the square of cells `x`
/// and `x + 1` in this row and the row below, open when all four are free (none beyond the
/// grid).
///
/// A diagonal between two cells of a square counts when the other two are free (no corner
/// cutting); asking the whole square to be free adds the diagonal's ends, which change
/// nothing: a blocked cell's own value is cleared, and a blocked neighbour holds at most 0,
/// which no maximum (from 0) picks.
fn fill<const EIGHT: bool>(grid: &Grid, y: usize, out: &mut [u32]) {
    let w = grid.width();
    let (cells, squares) = out.split_at_mut(row_bytes(w) / 4);
    // Rows beyond the grid have no free cells.
    let (here, below) = (grid.free_bits(y), grid.free_bits(y + 1));
    let word = |row: &[u64], i: usize| row.get(i).copied().unwrap_or(0);
    spread(cells, w, |i| word(here, i));
    if EIGHT {
        // Cell x and x + 1 free, in a row's bits: the bits, and the bits shifted down one.
        let pairs = |row: &[u64], i: usize| word(row, i) & (word(row, i) >> 1 | word(row, i + 1) << 63);
        spread(squares, w, |i| pairs(here, i) & pairs(below, i));
    }
}

/// Writes a row of wall data's bytes into `out`: 0xFF for each set bit of `bits` (word `i`
/// holding cells `64 i ..`) among the row's `w` cells, 0 elsewhere and in the pads. Each
/// word of bits is asked for once (a fused pass makes every row's wall data, and asking
/// for each byte's word made a tenth of 16 fused steps' time at 4096²).
fn spread(out: &mut [u32], w: usize, bits: impl Fn(usize) -> u64) {
    // Cells x .. x + 8 are bytes PAD + x .. + 8: words (PAD + x) / 4 and the next.
    let (head, rest) = out.split_at_mut(PAD / 4);
    let (cells, tail) = rest.split_at_mut(2 * w.div_ceil(8));
    head.fill(0);
    tail.fill(0);
    for (i, words) in cells.chunks_mut(16).enumerate() {
        // Cells 64 i .. 64 i + 64, those past the row cleared.
        let past = (64 * (i + 1)).saturating_sub(w);
        let word = bits(i) & u64::MAX >> past;
        for (j, pair) in words.chunks_exact_mut(2).enumerate() {
            let bytes = SPREAD[usize::from((word >> (8 * j)) as u8)];
            pair[0] = bytes as u32;
            pair[1] = (bytes >> 32) as u32;
        }
    }
}

/// For each byte of bits, the eight bytes (little-endian) that are 0xFF where its bits are
/// set.
const SPREAD: [u64; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        let mut bit = 0;
        while bit < 8 {
            if b >> bit & 1 == 1 {
                table[b] |= 0xFF << (8 * bit);
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// The rows one or two output rows are computed from, as pointers to their first cells,
/// `w` cells each (`w ≥ 8`): the values and free cells' bytes of the rows above the first,
/// the first, the second (or the row below the one) and the row below the second (or that
/// row again), and the open squares' bytes of the first three (each between it and the
/// next). Made from checked slices by [`Rows::one`] and [`Rows::two`].
#[derive(Clone, Copy)]
struct Rows {
    values: [*const f32; 4],
    free: [*const u8; 4],
    squares: [*const u8; 3],
    w: usize,
}

/// The wall data of a row as bytes: its free cells' (from cell `−PAD`) and, with 8
/// neighbours, its open squares' (empty with 4).
///
/// # Panics
/// If the data is shorter than a row of free cells' bytes for a row `w` wide.
fn bytes(m: &[u32], w: usize) -> (&[u8], &[u8]) {
    // SAFETY: any four bytes are a valid `u32` and any `u32` four valid bytes; the slice
    // covers exactly the words' memory, borrowed for as long.
    let all = unsafe { std::slice::from_raw_parts(m.as_ptr().cast::<u8>(), 4 * m.len()) };
    all.split_at(row_bytes(w))
}

impl Rows {
    /// The rows around one output row `w` cells wide.
    ///
    /// # Panics
    /// If the rows are not `w` cells, or their wall data is not `len` words.
    fn one(values: [&[f32]; 3], masks: [&[u32]; 3], w: usize, len: usize) -> Self {
        let [a, h, b] = values;
        let [ma, mh, mb] = masks;
        Self::two([a, h, b, b], [ma, mh, mb, mb], w, len)
    }

    /// The rows around two output rows `w` cells wide, one above the other.
    ///
    /// # Panics
    /// If the rows are not `w` cells, or their wall data is not `len` words.
    fn two(values: [&[f32]; 4], masks: [&[u32]; 4], w: usize, len: usize) -> Self {
        assert!(values.iter().all(|v| v.len() == w), "rows of one width");
        assert!(masks.iter().all(|m| m.len() == len), "wall data of the rows' width");
        let data = masks.map(|m| bytes(m, w));
        let squares = |i: usize| {
            let squares: &[u8] = data[i].1;
            // With 4 neighbours there are none, and none are read.
            assert!(squares.is_empty() || squares.len() == row_bytes(w), "wall data of the rows' width");
            squares.as_ptr().wrapping_add(PAD)
        };
        Self {
            values: values.map(<[f32]>::as_ptr),
            free: data.map(|(free, _)| free[PAD..].as_ptr()),
            squares: [squares(0), squares(1), squares(2)],
            w,
        }
    }
}

/// The per-step constants, in every lane.
#[derive(Clone, Copy)]
struct Lanes {
    straight: __m256,
    diagonal: __m256,
    momentum: __m256,
    threshold: __m256,
}

impl Lanes {
    #[inline(always)]
    fn new(k: &Coefs) -> Self {
        // SAFETY: `_mm256_set1_ps` is AVX; every caller runs on a CPU with AVX2.
        unsafe {
            Self {
                straight: _mm256_set1_ps(k.straight),
                diagonal: _mm256_set1_ps(k.diagonal),
                momentum: _mm256_set1_ps(k.momentum),
                threshold: _mm256_set1_ps(k.threshold),
            }
        }
    }
}

/// A row's values at a chunk: left of, at and right of its cells.
#[derive(Clone, Copy)]
struct Three {
    l: __m256,
    c: __m256,
    r: __m256,
}

/// The values of the row starting at `row` at the chunk starting at cell `x`, beside it
/// left and right: from the chunk's own values with a zero shifted in where the chunk is
/// the row's `FIRST` (on the left) or `LAST` (on the right).
///
/// # Safety
/// Cells `x .. x + 8` are in the row, and so are cell `x − 1` unless `FIRST` and cell
/// `x + 8` unless `LAST`; the CPU has AVX2.
#[inline(always)]
unsafe fn three<const FIRST: bool, const LAST: bool>(row: *const f32, x: usize) -> Three {
    // SAFETY: as the caller promised.
    unsafe {
        let c = _mm256_loadu_ps(row.add(x));
        let zero = _mm256_setzero_ps();
        let l = if FIRST {
            _mm256_blend_ps::<1>(_mm256_permutevar8x32_ps(c, _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6)), zero)
        } else {
            _mm256_loadu_ps(row.add(x - 1))
        };
        let r = if LAST {
            _mm256_blend_ps::<0x80>(
                _mm256_permutevar8x32_ps(c, _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 7)),
                zero,
            )
        } else {
            _mm256_loadu_ps(row.add(x + 1))
        };
        Three { l, c, r }
    }
}

/// Eight lane masks from the wall data's bytes of cells `x + dx ..` (from the row's byte of
/// cell 0, `row`): all bits for a byte of 0xFF, none for 0.
///
/// # Safety
/// The eight bytes are in the row's wall data (`dx ≥ −PAD`, `x + dx + 8 ≤ w + PAD`); the
/// CPU has AVX2.
#[inline(always)]
unsafe fn lanes(row: *const u8, x: usize, dx: isize) -> __m256 {
    // SAFETY: as the caller promised.
    unsafe {
        _mm256_castsi256_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64(row.add(x).offset(dx).cast::<__m128i>())))
    }
}

/// `fmax(acc, x)` of the portable rule in each lane: `x` where it is larger, else `acc`
/// (so a NaN `x` leaves `acc`).
#[inline(always)]
fn fmax(acc: __m256, x: __m256) -> __m256 {
    // SAFETY: AVX, which the callers' CPUs have.
    unsafe { _mm256_max_ps(x, acc) }
}

/// The larger of `a` and `b` in each lane, compared as integers: the same as floats where
/// both are at least +0 and not NaN (clean values, [`Coefs::clean`]), and an integer
/// maximum runs on more of a core's vector pipes than a float one (all four on AMD's Zen
/// cores, against two).
#[inline(always)]
fn imax(a: __m256, b: __m256) -> __m256 {
    // SAFETY: AVX2, which the callers' CPUs have.
    unsafe { _mm256_castsi256_ps(_mm256_max_epi32(_mm256_castps_si256(a), _mm256_castps_si256(b))) }
}

/// `R::carry` in each lane.
#[inline(always)]
fn carry<R: Rule>(v: __m256, c: __m256) -> __m256 {
    // SAFETY: AVX, which the callers' CPUs have.
    unsafe {
        if R::LINEAR {
            _mm256_sub_ps(v, c)
        } else {
            _mm256_mul_ps(v, c)
        }
    }
}

/// `a & b`, bitwise.
#[inline(always)]
fn and(a: __m256, b: __m256) -> __m256 {
    // SAFETY: AVX, which the callers' CPUs have.
    unsafe { _mm256_and_ps(a, b) }
}

/// The new value of the chunk's cells from their strongest carried neighbour `m`: the lerp
/// from `old`, 0 where it falls below the threshold (by magnitude unless `CLEAN`, where it
/// is at least +0), and 0 in walls (`own` clear).
#[inline(always)]
fn settle<const CLEAN: bool>(old: __m256, m: __m256, own: __m256, k: Lanes) -> __m256 {
    // SAFETY: AVX, which the callers' CPUs have.
    unsafe {
        let new = _mm256_add_ps(old, _mm256_mul_ps(k.momentum, _mm256_sub_ps(m, old)));
        let size = if CLEAN { new } else { _mm256_andnot_ps(_mm256_set1_ps(-0.0), new) };
        and(and(new, _mm256_cmp_ps::<_CMP_NLT_UQ>(size, k.threshold)), own)
    }
}

/// One chunk of a row by the portable rule as written (any values): `a`, `h`, `b` are the
/// rows above, here and below at the chunk, whose lanes beyond the row are 0.
///
/// # Safety
/// As [`lanes`] for the first three rows' free cells at `x`, `x − 1` and `x + 1`.
#[inline(always)]
unsafe fn guarded<R: Rule, const EIGHT: bool>(
    rows: &Rows,
    x: usize,
    [a, h, b]: [Three; 3],
    k: Lanes,
) -> __m256 {
    // SAFETY: AVX, which the callers' CPUs have.
    let zero = unsafe { _mm256_setzero_ps() };
    let [fa, fh, fb, _] = rows.free;
    let straight = fmax(fmax(fmax(fmax(zero, a.c), b.c), h.l), h.r);
    let mut m = fmax(zero, carry::<R>(straight, k.straight));
    // SAFETY: as the caller promised.
    unsafe {
        if EIGHT {
            let (ml, mr) = (lanes(fh, x, -1), lanes(fh, x, 1));
            let up = and(fmax(fmax(zero, and(a.l, ml)), and(a.r, mr)), lanes(fa, x, 0));
            let down = and(fmax(fmax(zero, and(b.l, ml)), and(b.r, mr)), lanes(fb, x, 0));
            m = fmax(m, carry::<R>(fmax(up, down), k.diagonal));
        }
        settle::<false>(h.c, m, lanes(fh, x, 0), k)
    }
}

/// The strongest carried neighbour of a chunk whose values are clean, from the maximum of
/// its straight neighbours and, with 8 neighbours, the maximum of its diagonals (or of its
/// two boundaries, [`boundary`]).
#[inline(always)]
fn strongest<R: Rule, const EIGHT: bool>(straight: __m256, diagonal: __m256, k: Lanes) -> __m256 {
    // SAFETY: AVX, which the callers' CPUs have.
    let zero = unsafe { _mm256_setzero_ps() };
    // A product of clean values is clean; a difference may fall below 0.
    let s = carry::<R>(straight, k.straight);
    let m = if R::LINEAR { fmax(zero, s) } else { s };
    if EIGHT {
        fmax(m, carry::<R>(diagonal, k.diagonal))
    } else {
        m
    }
}

/// The boundary between two rows at a chunk (clean values): in each lane, the larger of the
/// two rows' values in the column left of the cell, if the square they share with the
/// cell's column is open, and likewise on the right. It holds the lower row's diagonals
/// for the upper row's cells and the upper row's for the lower row's, with the cells' own
/// straight neighbours beside them, which never win ([`Coefs::spans_hold`]).
///
/// # Safety
/// As [`lanes`] for the squares at `x − 1` and `x`.
#[inline(always)]
unsafe fn boundary(top: Three, bottom: Three, squares: *const u8, x: usize) -> __m256 {
    // SAFETY: as the caller promised.
    unsafe {
        let left = and(imax(top.l, bottom.l), lanes(squares, x, -1));
        let right = and(imax(top.r, bottom.r), lanes(squares, x, 0));
        imax(left, right)
    }
}

/// Work done a chunk at a time along a row ([`sweep`]).
trait Sweep {
    /// The chunk starting at cell `x`, the row's first and last as the flags say.
    ///
    /// # Safety
    /// As the implementation says of the rows it reads; `x + 8 ≤ w`.
    unsafe fn chunk<const FIRST: bool, const LAST: bool>(&mut self, x: usize);
}

/// `s`'s chunks along a row `w ≥ 8` cells wide: every 8 cells, and where `w` is not a
/// multiple of 8, the last at `w − 8`, overlapping the one before (its cells computed again,
/// to the same values). Only the first and last are flagged, so the chunks between have no
/// branch for the row's ends.
///
/// # Safety
/// As `s`'s [`Sweep::chunk`] asks, for a row `w` cells wide.
#[inline(always)]
unsafe fn sweep<S: Sweep>(w: usize, s: &mut S) {
    debug_assert!(w >= 8);
    // SAFETY: every chunk is inside the row; the caller promised the rest.
    unsafe {
        if w == 8 {
            return s.chunk::<true, true>(0);
        }
        s.chunk::<true, false>(0);
        let mut x = 8;
        while x + 8 < w {
            s.chunk::<false, false>(x);
            x += 8;
        }
        s.chunk::<false, true>(w - 8);
    }
}

/// One output row ([`one`]).
struct One<'a, R, const EIGHT: bool, const CLEAN: bool> {
    rows: Rows,
    out: &'a mut [f32],
    k: Lanes,
    rule: PhantomData<R>,
}

impl<R: Rule, const EIGHT: bool, const CLEAN: bool> Sweep for One<'_, R, EIGHT, CLEAN> {
    /// # Safety
    /// The rows are as [`Rows`] says, `w` cells with their wall data; the CPU has AVX2;
    /// with `CLEAN` the values are clean and, with 8 neighbours, the spans hold.
    #[inline(always)]
    unsafe fn chunk<const FIRST: bool, const LAST: bool>(&mut self, x: usize) {
        let [va, vh, vb, _] = self.rows.values;
        // SAFETY: as the caller promised; `out` is `w` cells.
        unsafe {
            let (a, h, b) =
                (three::<FIRST, LAST>(va, x), three::<FIRST, LAST>(vh, x), three::<FIRST, LAST>(vb, x));
            let new = if CLEAN {
                let straight = imax(imax(a.c, b.c), imax(h.l, h.r));
                let diagonal = if EIGHT {
                    imax(boundary(a, h, self.rows.squares[0], x), boundary(h, b, self.rows.squares[1], x))
                } else {
                    h.c
                };
                settle::<true>(
                    h.c,
                    strongest::<R, EIGHT>(straight, diagonal, self.k),
                    lanes(self.rows.free[1], x, 0),
                    self.k,
                )
            } else {
                guarded::<R, EIGHT>(&self.rows, x, [a, h, b], self.k)
            };
            _mm256_storeu_ps(self.out.as_mut_ptr().add(x), new);
        }
    }
}

/// One row into `out`, clean or guarded.
///
/// # Safety
/// The CPU has AVX2; the rows are as [`Rows`] says, `out.len()` cells; with `CLEAN`, the
/// values are clean ([`Coefs::clean`]) and, with 8 neighbours, the spans hold.
#[target_feature(enable = "avx2")]
unsafe fn one<R: Rule, const EIGHT: bool, const CLEAN: bool>(rows: Rows, out: &mut [f32], k: Lanes) {
    let w = out.len();
    debug_assert_eq!(w, rows.w);
    if w < 8 {
        // SAFETY: as the caller promised.
        return unsafe { narrow::<R, EIGHT>(rows, out, k) };
    }
    // SAFETY: as the caller promised.
    unsafe { sweep(w, &mut One::<R, EIGHT, CLEAN> { rows, out, k, rule: PhantomData }) };
}

/// A row under 8 cells wide: its three rows copied into chunks of 8 with zeros beyond
/// their ends, then [`guarded`] (the walls' bytes beyond the row are 0).
///
/// # Safety
/// The CPU has AVX2; the rows are as [`Rows`] says, `out.len()` cells.
#[inline(always)]
unsafe fn narrow<R: Rule, const EIGHT: bool>(rows: Rows, out: &mut [f32], k: Lanes) {
    let w = out.len();
    let padded = [0, 1, 2].map(|i| {
        let mut row = [0.0; 8];
        // SAFETY: the row is `w` cells (as the caller promised).
        row[..w].copy_from_slice(unsafe { std::slice::from_raw_parts(rows.values[i], w) });
        row
    });
    let mut new = [0.0; 8];
    // SAFETY: the padded rows are 8 cells; the wall data reads at most `PAD` bytes past the
    // row's end; the CPU has AVX2.
    unsafe {
        let [a, h, b] = padded.map(|row| three::<true, true>(row.as_ptr(), 0));
        _mm256_storeu_ps(new.as_mut_ptr(), guarded::<R, EIGHT>(&rows, 0, [a, h, b], k));
    }
    out.copy_from_slice(&new[..w]);
}

/// Two output rows of clean values ([`pair`]). With `READ`, the boundary above the first
/// row comes from `ring` (the pair above wrote it); with `WRITE`, the one below the second
/// goes there. The row's last chunk, which may overlap the one before, takes its boundary
/// above from `last_above`, read before any chunk writes the ring. With `SAVE`, the two
/// rows written are the two middle rows read (a step in place): the second's old values
/// are copied to `save` as they are read, and each chunk's results wait until the next
/// chunk has read its cells, so that no chunk reads a cell already written. Only with
/// `HINTED` are the hints (`ahead`, `stream`) looked at, so that the pairs of a fused
/// pass's middle steps test nothing for them.
struct Pair<R, const EIGHT: bool, const READ: bool, const WRITE: bool, const SAVE: bool, const HINTED: bool> {
    rows: Rows,
    out: [*mut f32; 2],
    ring: *mut f32,
    save: *mut f32,
    /// A row to prefetch, and the row after it (null: none).
    ahead: *const f32,
    /// Whether the rows' chunks (all but the last) are written past the caches.
    stream: bool,
    /// With `SAVE`, the last chunk's results, not yet written, and where they go.
    pending: ([__m256; 2], usize),
    /// With `READ`, the boundary above the row's last chunk.
    last_above: __m256,
    k: Lanes,
    rule: PhantomData<R>,
}

impl<
        R: Rule,
        const EIGHT: bool,
        const READ: bool,
        const WRITE: bool,
        const SAVE: bool,
        const HINTED: bool,
    > Pair<R, EIGHT, READ, WRITE, SAVE, HINTED>
{
    /// [`pair`], looking at the hints or not (`HINTED`).
    ///
    /// # Safety
    /// As [`pair`].
    #[inline(always)]
    unsafe fn run(rows: Rows, out: [*mut f32; 2], ring: *mut f32, extra: Extra, k: Lanes) {
        let w = rows.w;
        // SAFETY: as the caller promised.
        unsafe {
            if w < 8 {
                debug_assert!(!SAVE, "rows under 8 cells are not stepped in place here");
                let [a, h1, h2, b] = rows.values;
                let [fa, f1, f2, fb] = rows.free;
                let [sa, s1, s2] = rows.squares;
                let top = Rows { values: [a, h1, h2, h2], free: [fa, f1, f2, f2], squares: [sa, s1, s1], w };
                let bottom =
                    Rows { values: [h1, h2, b, b], free: [f1, f2, fb, fb], squares: [s1, s2, s2], w };
                narrow::<R, EIGHT>(top, std::slice::from_raw_parts_mut(out[0], w), k);
                return narrow::<R, EIGHT>(bottom, std::slice::from_raw_parts_mut(out[1], w), k);
            }
            let Extra { save, hints } = extra;
            let stream = HINTED && hints.stream && out.iter().all(|row| (*row as usize).is_multiple_of(32));
            let zero = _mm256_setzero_ps();
            // Read before any chunk writes the ring (`w ≥ 8` here).
            let last_above = if EIGHT && READ { _mm256_loadu_ps(ring.add(w - 8)) } else { zero };
            let mut p = Self {
                rows,
                out,
                ring,
                save,
                ahead: hints.ahead,
                stream,
                pending: ([zero; 2], 0),
                last_above,
                k,
                rule: PhantomData,
            };
            sweep(w, &mut p);
            if stream {
                _mm_sfence();
            }
        }
    }

    /// Writes the two rows' chunk at `x`, the row's last or not.
    ///
    /// # Safety
    /// As [`pair`]; with `stream`, the rows start on 32-byte boundaries.
    #[inline(always)]
    unsafe fn put<const LAST: bool>(&self, x: usize, [n1, n2]: [__m256; 2]) {
        // SAFETY: as the caller promised; a chunk before the last starts at a multiple of 8
        // cells, so on a 32-byte boundary where the row does.
        unsafe {
            if HINTED && self.stream && !LAST {
                _mm256_stream_ps(self.out[0].add(x), n1);
                _mm256_stream_ps(self.out[1].add(x), n2);
            } else {
                _mm256_storeu_ps(self.out[0].add(x), n1);
                _mm256_storeu_ps(self.out[1].add(x), n2);
            }
        }
    }
}

impl<
        R: Rule,
        const EIGHT: bool,
        const READ: bool,
        const WRITE: bool,
        const SAVE: bool,
        const HINTED: bool,
    > Sweep for Pair<R, EIGHT, READ, WRITE, SAVE, HINTED>
{
    /// # Safety
    /// As [`pair`].
    #[inline(always)]
    unsafe fn chunk<const FIRST: bool, const LAST: bool>(&mut self, x: usize) {
        let Rows { values: [va, v1, v2, vb], free, squares, w } = self.rows;
        let k = self.k;
        // SAFETY: as the caller promised.
        unsafe {
            if HINTED && !self.ahead.is_null() && x.is_multiple_of(16) {
                // A prefetch is only a hint: it reads nothing and cannot fault.
                _mm_prefetch::<_MM_HINT_T0>(self.ahead.wrapping_add(x).cast());
                _mm_prefetch::<_MM_HINT_T0>(self.ahead.wrapping_add(w + x).cast());
            }
            let (h1, h2) = (three::<FIRST, LAST>(v1, x), three::<FIRST, LAST>(v2, x));
            let (a, b) = if EIGHT {
                (three::<FIRST, LAST>(va, x), three::<FIRST, LAST>(vb, x))
            } else {
                // With 4 neighbours only the cells straight above and below count.
                let only = |c| Three { l: c, c, r: c };
                (only(_mm256_loadu_ps(va.add(x))), only(_mm256_loadu_ps(vb.add(x))))
            };
            if SAVE {
                // Every cell this chunk reads is read: the chunk before may be written.
                _mm256_storeu_ps(self.save.add(x), h2.c);
                if !FIRST {
                    self.put::<false>(self.pending.1, self.pending.0);
                }
            }
            let (d1, d2) = if EIGHT {
                let above = match (READ, LAST) {
                    (true, true) => self.last_above,
                    (true, false) => _mm256_loadu_ps(self.ring.add(x)),
                    (false, _) => boundary(a, h1, squares[0], x),
                };
                let middle = boundary(h1, h2, squares[1], x);
                let below = boundary(h2, b, squares[2], x);
                if WRITE {
                    _mm256_storeu_ps(self.ring.add(x), below);
                }
                (imax(above, middle), imax(middle, below))
            } else {
                (h1.c, h2.c)
            };
            let s1 = imax(imax(a.c, h2.c), imax(h1.l, h1.r));
            let s2 = imax(imax(h1.c, b.c), imax(h2.l, h2.r));
            let n1 = settle::<true>(h1.c, strongest::<R, EIGHT>(s1, d1, k), lanes(free[1], x, 0), k);
            let n2 = settle::<true>(h2.c, strongest::<R, EIGHT>(s2, d2, k), lanes(free[2], x, 0), k);
            if SAVE && !LAST {
                self.pending = ([n1, n2], x);
            } else {
                self.put::<LAST>(x, [n1, n2]);
            }
        }
    }
}

/// Where [`pair`] writes besides its two rows, and what it is told of them.
#[derive(Clone, Copy)]
struct Extra {
    /// With `SAVE`, the row the second row's old values go to.
    save: *mut f32,
    hints: Hints,
}

impl Extra {
    /// No saving, no hints.
    fn none() -> Self {
        Self { save: std::ptr::null_mut(), hints: Hints { ahead: std::ptr::null(), stream: false } }
    }
}

/// Two rows of clean values into `out`, from `rows` ([`Rows::two`]), with `SAVE` written
/// over the two middle rows read. With 8 neighbours and a carried row, the boundary above
/// the pair is read from it where the pair above left it, and the one below left there.
/// With a row `ahead` in the hints, it and the row after it are prefetched; with `stream`,
/// rows on 32-byte boundaries are written past the caches.
///
/// # Safety
/// The CPU has AVX2; the rows are as [`Rows`] says, `w` cells (at least 8 with `SAVE`; a
/// narrower pair ignores the carried row), and so are the two rows written: apart from the
/// rows read and each other, or with `SAVE`, the two middle rows read themselves; the
/// values are clean ([`Coefs::clean`]) and, with 8 neighbours, the spans hold; with `SAVE`,
/// `save` is a row of `w` cells apart from every other.
///
/// # Panics
/// If a carried row (with 8 neighbours) is not `w` cells.
#[inline(always)]
unsafe fn pair<R: Rule, const EIGHT: bool, const SAVE: bool>(
    rows: Rows,
    out: [*mut f32; 2],
    carry: Option<Carry<'_>>,
    extra: Extra,
    k: Lanes,
) {
    let carried = carry.filter(|_| EIGHT).map(|Carry { row, carried }| {
        assert_eq!(row.len(), rows.w, "a carried row of the rows' width");
        (row.as_mut_ptr(), carried)
    });
    // SAFETY: as the caller promised; the carried row is `w` cells (asserted above), borrowed
    // apart from every other row, and read only where the pair above wrote it.
    unsafe {
        match carried {
            Some((ring, true)) => hinted::<R, EIGHT, true, true, SAVE>(rows, out, ring, extra, k),
            Some((ring, false)) => hinted::<R, EIGHT, false, true, SAVE>(rows, out, ring, extra, k),
            None => hinted::<R, EIGHT, false, false, SAVE>(rows, out, std::ptr::null_mut(), extra, k),
        }
    }
}

/// [`pair`] reading its boundary above from `ring` (`READ`) and writing the one below there
/// (`WRITE`), compiled to look at the hints only where there are any: a function of its
/// own for each choice of `READ`, `WRITE` and `SAVE` (one function holding all of them,
/// 8 neighbours at 256² took 0.317–0.324 ns a cell against 0.291–0.300).
///
/// # Safety
/// As [`pair`]; with `READ` or `WRITE`, `ring` is a row of `w` cells apart from every other.
#[target_feature(enable = "avx2")]
unsafe fn hinted<R: Rule, const EIGHT: bool, const READ: bool, const WRITE: bool, const SAVE: bool>(
    rows: Rows,
    out: [*mut f32; 2],
    ring: *mut f32,
    extra: Extra,
    k: Lanes,
) {
    if extra.hints.ahead.is_null() && !extra.hints.stream {
        // SAFETY: as the caller promised.
        unsafe { Pair::<R, EIGHT, READ, WRITE, SAVE, false>::run(rows, out, ring, extra, k) }
    } else {
        // SAFETY: as the caller promised.
        unsafe { Pair::<R, EIGHT, READ, WRITE, SAVE, true>::run(rows, out, ring, extra, k) }
    }
}

/// The rows of a single step ([`Band`]) in one function: with `CLEAN`, two at a time
/// ([`pairs`]), and with `WALLED` (a map with runs of walls, [`Band::walled`]) only the
/// parts of each pair with free cells ([`parts`]); else, and for a last odd row, one at a
/// time. Each choice is a function of its own: the loop over the pairs of other maps keeps
/// its registers (with both in one, the 4-neighbour step at 256² took 0.163 ns a cell
/// against 0.149).
///
/// # Safety
/// The CPU has AVX2; `b.len` is [`Avx2::mask_len`] of the width; with `CLEAN`, the
/// values are clean and, with 8 neighbours, the spans hold.
#[target_feature(enable = "avx2")]
unsafe fn band<R: Rule, const EIGHT: bool, const CLEAN: bool, const WALLED: bool>(
    b: &Band<'_>,
    out: &mut [f32],
    k: &Coefs,
) {
    let lanes_k = Lanes::new(k);
    let (w, (start, end)) = (b.width, b.rows);
    let mut y = start;
    if CLEAN && w >= 8 {
        // SAFETY: as the caller promised.
        y = unsafe {
            if WALLED {
                pairs::<R, EIGHT, false, true>(b, out, lanes_k)
            } else if prefetched(b.input.len()) {
                pairs::<R, EIGHT, true, false>(b, out, lanes_k)
            } else {
                pairs::<R, EIGHT, false, false>(b, out, lanes_k)
            }
        };
    }
    for (y, row) in (y..end).zip(out[(y - start) * w..].chunks_exact_mut(w)) {
        let (v, m, _) = b.around(y);
        // SAFETY: the caller promised the CPU and, with `CLEAN`, the values and spans;
        // the rows are `w` cells (checked by `Rows::one`).
        unsafe { one::<R, EIGHT, CLEAN>(Rows::one(v, m, w, b.len), row, lanes_k) };
    }
}

/// The rows of a clean band `w ≥ 8` cells wide, two at a time ([`Pair`]) in one loop, each
/// pair passing the boundary below it to the next through a row of scratch on the stack
/// (rows up to [`RING`] cells; wider ones compute it again). The band's rows are checked
/// once and each pair's found by adding to pointers, where cutting and checking them for
/// each pair ([`Band::around`], [`Rows::two`]) took a sixth of a 256-cell pair's time.
/// With `PREFETCH`, each pair prefetches the input's rows [`AHEAD`](super::fused::AHEAD)
/// below its first. Returns the first row not written: the band's end, or its last row
/// where the band has an odd number of rows.
///
/// # Safety
/// The CPU has AVX2; the values are clean and, with 8 neighbours, the spans hold.
///
/// # Panics
/// If the band's rows or wall data are not the grid's, or `out` not its rows.
#[inline(always)]
unsafe fn pairs<R: Rule, const EIGHT: bool, const PREFETCH: bool, const WALLED: bool>(
    b: &Band<'_>,
    out: &mut [f32],
    k: Lanes,
) -> usize {
    let Band { input, width: w, height: h, rows: (start, end), walls, first, len, zeros, none, .. } = *b;
    // What `Band::around` and `Rows::two` check of each row, for all the rows read.
    assert!(w >= 8 && start <= end && end <= h && input.len() == w * h, "rows of the grid");
    assert!(out.len() == (end - start) * w && zeros.len() == w, "rows of the grid's width");
    let read = start.saturating_sub(1)..(end + 1).min(h);
    assert!(first <= read.start && walls.len() >= (read.end - first) * len, "wall data of every row read");
    assert!(none.len() == len && 4 * len >= row_bytes(w) * if EIGHT { 2 } else { 1 }, "wall data's width");
    let mut carried = [0.0f32; RING];
    let ring = if EIGHT && w <= RING { carried.as_mut_ptr() } else { std::ptr::null_mut() };
    // Row `y` of values and of wall bytes (from cell 0), or the row beyond the grid.
    let values = |y: usize| if y < h { input[y * w..].as_ptr() } else { zeros.as_ptr() };
    let data = |y: usize| if y < h { walls[(y - first) * len..].as_ptr() } else { none.as_ptr() };
    let squares =
        |d: *const u32| if EIGHT { d.cast::<u8>().wrapping_add(row_bytes(w) + PAD) } else { d.cast() };
    let free = |d: *const u32| d.cast::<u8>().wrapping_add(PAD);
    let (mut above, mut above_data) =
        if start > 0 { (values(start - 1), data(start - 1)) } else { (zeros.as_ptr(), none.as_ptr()) };
    let mut y = start;
    while y + 1 < end {
        let (one, two, below) = (values(y), values(y + 1), values(y + 2));
        let (d1, d2, d3) = (data(y), data(y + 1), data(y + 2));
        let rows = Rows {
            values: [above, one, two, below],
            free: [free(above_data), free(d1), free(d2), free(d3)],
            squares: [squares(above_data), squares(d1), squares(d2)],
            w,
        };
        let dst = out[(y - start) * w..].as_mut_ptr();
        let dst = [dst, dst.wrapping_add(w)];
        let ahead =
            if PREFETCH && y + fused::AHEAD < h { values(y + fused::AHEAD) } else { std::ptr::null() };
        let extra = Extra { hints: Hints { ahead, stream: false }, ..Extra::none() };
        // SAFETY: the caller promised the CPU, the values and the spans; every row is `w`
        // cells of the input, of zeros or of `out` (whose rows are apart from the others),
        // with its wall data (checked above); the ring, if any, is `w` cells of the stack,
        // read only where the pair above wrote it.
        unsafe {
            if WALLED {
                parts::<R, EIGHT, false>(rows, dst, ring, y > start, b.zeroed, std::ptr::null_mut(), k);
            } else {
                carrying::<R, EIGHT, PREFETCH, false>(rows, dst, ring, y > start, extra, k);
            }
        }
        (above, above_data) = (two, d2);
        y += 2;
    }
    y
}

/// The widest row whose boundaries a single step passes down (a row, 8 KiB of stack).
const RING: usize = 2048;

/// [`Pair::run`] of a single step's pair, passing boundaries down `ring` unless it is null:
/// the pair reads the one above from it where the pair above left it (`held`), and leaves
/// its own below.
///
/// # Safety
/// As [`Pair::run`]; `ring` is null or a row of `rows.w` cells apart from every other, and
/// with `held` holds the boundary above the pair.
#[inline(always)]
unsafe fn carrying<R: Rule, const EIGHT: bool, const PREFETCH: bool, const SAVE: bool>(
    rows: Rows,
    dst: [*mut f32; 2],
    ring: *mut f32,
    held: bool,
    extra: Extra,
    k: Lanes,
) {
    // SAFETY: as the caller promised.
    unsafe {
        if ring.is_null() {
            Pair::<R, EIGHT, false, false, SAVE, PREFETCH>::run(rows, dst, ring, extra, k);
        } else if held {
            Pair::<R, EIGHT, true, true, SAVE, PREFETCH>::run(rows, dst, ring, extra, k);
        } else {
            Pair::<R, EIGHT, false, true, SAVE, PREFETCH>::run(rows, dst, ring, extra, k);
        }
    }
}

/// [`parts`] of a pair stepped in place (`SAVE`), in a function of its own, as the pair in
/// place is ([`hinted`]).
///
/// # Safety
/// As [`parts`] with `SAVE`.
#[target_feature(enable = "avx2")]
unsafe fn saved_parts<R: Rule, const EIGHT: bool>(
    rows: Rows,
    dst: [*mut f32; 2],
    ring: *mut f32,
    held: bool,
    zeroed: bool,
    save: *mut f32,
    k: Lanes,
) {
    // SAFETY: as the caller promised.
    unsafe { parts::<R, EIGHT, true>(rows, dst, ring, held, zeroed, save, k) }
}

/// One pair of clean rows (`rows`, into `dst`; with `ring` non-null, a row of at most
/// [`RING`] cells passing boundaries between pairs) on a map with runs of walls: only its
/// parts with free cells in either row, from chunks of 8 cells, a part ending at a run of
/// two chunks of walls or more; +0 in the rest, unless they hold it already (`zeroed`).
/// A part's neighbours past its ends are walls in both its rows, which hold +0 (clean
/// values): the zeros [`Pair`] shifts in there are those values, and the squares there are
/// closed, so its boundaries are exact too. With `held`, a part reads the boundary above
/// from the ring, which holds the pair above's: where that pair ran no part, its rows are
/// walls, which close every square the boundary there crosses, so that it is 0, and so is
/// what the ring holds there (0 from the start, and a pair that ran no part at a column
/// left 0 there too, as the row below it there is a wall).
///
/// With `SAVE` (a pair stepped in place), the second row's values go to `save` as the
/// parts read them, and +0 in its runs of walls, which held at most 0 (the same maxima for
/// the pair below).
///
/// # Safety
/// As [`Pair::run`] for `rows` and `dst` (`rows.w ≥ 8`, values clean, spans holding), with
/// `ring` null or a row of `rows.w` cells that held 0 in every cell before the first pair;
/// with `held`, the pair above ran and left its boundaries there; with `zeroed`, every
/// blocked cell of `dst` holds +0; with `SAVE`, `save` is a row of `rows.w` cells apart
/// from every other.
#[inline(always)]
unsafe fn parts<R: Rule, const EIGHT: bool, const SAVE: bool>(
    rows: Rows,
    dst: [*mut f32; 2],
    ring: *mut f32,
    held: bool,
    zeroed: bool,
    save: *mut f32,
    k: Lanes,
) {
    let w = rows.w;
    let chunks = w.div_ceil(8);
    // SAFETY: a chunk's 8 bytes of free cells lie within a row's wall data, whose pads
    // (`PAD` bytes) cover a last chunk past the row's end.
    let free = |c: usize| unsafe {
        let at = |row: *const u8| row.add(8 * c).cast::<u64>().read_unaligned();
        at(rows.free[1]) | at(rows.free[2]) != 0
    };
    let mut parts = Parts::new(chunks);
    while let Some((walls, Range { start: from, end: to })) = parts.next(free) {
        let (x0, x1) = (8 * walls.start, (8 * walls.end).min(w));
        let written = if zeroed { &dst[..0] } else { &dst[..] };
        for &row in written.iter().chain(if SAVE { std::slice::from_ref(&save) } else { &[] }) {
            // SAFETY: cells of the two rows written and of the saved row (`w` each).
            unsafe { std::slice::from_raw_parts_mut(row.add(x0), x1 - x0).fill(0.0) };
        }
        if from < to {
            // At least 8 cells, as `Pair` asks: a part of one last, short chunk starts
            // early, in the walls before it (a part starts the row or follows two chunks
            // of walls).
            let x1 = (8 * to).min(w);
            let x0 = (8 * from).min(x1 - 8);
            let part = Rows {
                values: rows.values.map(|row| row.wrapping_add(x0)),
                free: rows.free.map(|row| row.wrapping_add(x0)),
                squares: rows.squares.map(|row| row.wrapping_add(x0)),
                w: x1 - x0,
            };
            let out = dst.map(|row| row.wrapping_add(x0));
            let carried = if ring.is_null() { ring } else { ring.wrapping_add(x0) };
            let extra = Extra { save: if SAVE { save.wrapping_add(x0) } else { save }, ..Extra::none() };
            // SAFETY: as the caller promised, for the part's cells and the walls either
            // side of it (see above); with `held`, the ring holds the part's boundary above.
            unsafe { carrying::<R, EIGHT, false, SAVE>(part, out, carried, held, extra, k) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::diffuse::{generic_step, Diffusion, Exp, Lin};
    use super::super::fused::whole_band;
    use super::*;
    use crate::space::{Connectivity, Space};
    use crate::Cell;

    /// How the kernel is asked for a step's rows.
    #[derive(Debug, Clone, Copy)]
    enum Way {
        Rows,
        Pairs,
        /// Pairs passing their boundaries down through a carried row.
        Carried,
        /// Pairs asked to prefetch and to write past the caches, into rows on 32-byte
        /// boundaries where the width is a multiple of 8.
        Streamed,
        Band,
        /// Bands of a few rows, starting and ending at odd and even rows, each with wall
        /// data from the row above it, as threads are given.
        Bands,
        /// A band's pairs prefetching rows ahead, as on maps larger than these (clean
        /// values; else as `Band`).
        Prefetched,
    }

    /// A step of `values` on `grid` with the AVX2 kernel, asked `way`.
    fn step<R: Rule, const EIGHT: bool>(grid: &Grid, values: &[f32], k: &Coefs, way: Way) -> Vec<f32> {
        let kernel = Avx2::<R, EIGHT>::new().unwrap();
        let (w, h) = (grid.width(), grid.height());
        whole_band(&kernel, grid, values, |band| {
            let mut buffer = vec![9.0; values.len() + 8];
            let skew = buffer.as_ptr().align_offset(32);
            let out = &mut buffer[skew..][..values.len()];
            let hints = match way {
                Way::Streamed => Hints { ahead: values.as_ptr(), stream: true },
                _ => Hints { ahead: std::ptr::null(), stream: false },
            };
            match way {
                Way::Band => kernel.band(band, out, k),
                Way::Prefetched if Avx2::<R, EIGHT>::clean(k) && w >= 8 => {
                    // SAFETY: the kernel exists, so the CPU has AVX2; the values are clean
                    // and the spans hold (checked above).
                    let y = unsafe { pairs::<R, EIGHT, true, false>(band, out, Lanes::new(k)) };
                    if y < h {
                        let (v, m, _) = band.around(y);
                        kernel.row(v, m, &mut out[y * w..], k, hints);
                    }
                }
                Way::Prefetched => kernel.band(band, out, k),
                Way::Bands => {
                    let mut cuts = [0, 1, 2, 5, h / 2, h.saturating_sub(1), h].map(|c| c.min(h)).to_vec();
                    cuts.sort_unstable();
                    cuts.dedup();
                    for rows in cuts.windows(2) {
                        let (start, end) = (rows[0], rows[1]);
                        let first = start.saturating_sub(1);
                        let walls = &band.walls[first * band.len..];
                        let part = Band { rows: (start, end), walls, first, ..*band };
                        kernel.band(&part, &mut out[start * w..end * w], k);
                    }
                }
                Way::Rows => {
                    for (y, row) in out.chunks_exact_mut(w).enumerate() {
                        let (v, m, _) = band.around(y);
                        kernel.row(v, m, row, k, hints);
                    }
                }
                Way::Pairs | Way::Carried | Way::Streamed => {
                    let mut carried = vec![7.0; w];
                    for (i, rows) in out.chunks_mut(2 * w).enumerate() {
                        let y = 2 * i;
                        let (v, m, _) = band.around(y);
                        if rows.len() == w {
                            kernel.row(v, m, rows, k, hints);
                            continue;
                        }
                        let (v2, m2, _) = band.around(y + 1);
                        let (first, second) = rows.split_at_mut(w);
                        let carry =
                            matches!(way, Way::Carried).then(|| Carry { row: &mut carried, carried: i > 0 });
                        kernel.pair(
                            [v[0], v[1], v[2], v2[2]],
                            [m[0], m[1], m[2], m2[2]],
                            [first, second],
                            carry,
                            k,
                            hints,
                        );
                    }
                }
            }
            out.to_vec()
        })
    }

    /// Every way of asking gives the generic rule's bits, on random walls (often at the rows'
    /// ends) and widths under, at and past multiples of 8, with clean values (and the kernel
    /// told so, or not) and with NaN, infinities, negatives and −0.
    fn compare<R: Rule, const EIGHT: bool>(d: &Diffusion) {
        let connectivity = if EIGHT { Connectivity::Eight } else { Connectivity::Four };
        let specials = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, -0.0, 0.0, 1e-5];
        for (w, h) in [
            (1, 3),
            (3, 4),
            (7, 5),
            (8, 3),
            (9, 6),
            (10, 4),
            (15, 7),
            (16, 2),
            (17, 9),
            (33, 5),
            (64, 8),
            (70, 11),
        ] {
            let mut next = crate::test_rng::xorshift((w * 131 + h) as u64);
            let mut grid = Grid::new(w, h).unwrap().with_connectivity(connectivity);
            for i in 0..w * h {
                let end = i % w == 0 || i % w == w - 1;
                grid.set_blocked(Cell::new(i % w, i / w), next().is_multiple_of(if end { 2 } else { 5 }))
                    .unwrap();
            }
            for clean in [true, false] {
                let values: Vec<f32> = (0..w * h)
                    .map(|i| match next() % 6 {
                        _ if !grid.is_walkable(i) => 0.0,
                        0 if !clean => specials[(next() % specials.len() as u64) as usize],
                        _ => (next() % 1000) as f32 / 100.0,
                    })
                    .collect();
                let want: Vec<u32> = generic_step(&grid, &values, d).iter().map(|x| x.to_bits()).collect();
                for told in [clean, false] {
                    let k = Coefs::new::<R>(&grid, d, told);
                    for way in [
                        Way::Rows,
                        Way::Pairs,
                        Way::Carried,
                        Way::Streamed,
                        Way::Band,
                        Way::Bands,
                        Way::Prefetched,
                    ] {
                        let got: Vec<u32> =
                            step::<R, EIGHT>(&grid, &values, &k, way).iter().map(|x| x.to_bits()).collect();
                        assert_eq!(
                            got, want,
                            "{w}×{h}, {d:?}, eight {EIGHT}, clean {clean} told {told}, {way:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_way_gives_the_generic_bits() {
        if Avx2::<Exp, true>::new().is_none() {
            eprintln!("SKIP: this CPU has no AVX2");
            return;
        }
        for d in [Diffusion::new(0.3, 0.5).unwrap(), Diffusion::new(0.05, 1.0).unwrap()] {
            compare::<Exp, false>(&d);
            compare::<Exp, true>(&d);
        }
        let d = Diffusion::linear(0.4, 0.7).unwrap();
        compare::<Lin, false>(&d);
        compare::<Lin, true>(&d);
    }
}
