//! Two rows of a single step at a time ([`pair`]), sharing what they have in common: what
//! [`stream`](super::streamed::stream) runs with 8 neighbours, and the fused pipeline and
//! the steps in place ([`RowKernel::pair`](super::super::fused::RowKernel::pair)) with 4
//! and 8, on rows that start a chunk ([`Ends`]).
//!
//! With 8 neighbours, the diagonals come from spans: a row's span at `x` is the larger of
//! its values at `x` and `x + 1`. A cell's diagonals above it are the row above's span at
//! `x` where square `x` above is open, and at `x − 1` where square `x − 1` is; below
//! alike. Gating the spans by their squares and taking the larger of the result at `x` and
//! `x − 1` reads the four diagonals and, through an open square, the straight neighbours
//! above and below as well. Those never win: the straight neighbours' maximum holds them
//! too, and carries them further (a factor at least the diagonal's, or a smaller
//! subtraction), so the larger of the two carried maxima keeps its bits
//! ([`Coefs::spans_hold`](super::super::fused::Coefs::spans_hold) checks the constants; the pairs are not run where it fails). Each
//! row's span then serves the rows above and below it, and a pair of rows passes to the
//! next ([`Ring`]) the second row's span gated by the squares below (the next pair's first
//! row's diagonals from above) and the row below's span (the next pair's first row). An
//! 8-neighbour pair of chunks then takes 35 vector operations and 4 mask loads where it
//! took 40 and 5 (each a pipe's operation on the Intel core measured); at 256² a step took
//! 0.175–0.177 ns a cell against 0.188–0.193 (in the faster of the two states that core's
//! runs fall into, where the flat loop takes 0.217; 0.193–0.197 in the other, 0.242).
//!
//! Where the values are clean ([`Coefs::clean`](super::super::fused::Coefs)), the middle
//! rows' right neighbours are loaded a cell on, rather than shifted from two chunks: a load
//! is not a vector operation. Left neighbours loaded too were slower (0.193–0.222): a
//! load across two cache lines takes two of the load units' turns.

use std::arch::x86_64::{
    __m512, _mm512_castps_si512, _mm512_castsi512_ps, _mm512_loadu_ps, _mm512_mask_max_epi32,
    _mm512_mask_storeu_ps, _mm512_maskz_loadu_ps, _mm512_maskz_mov_ps, _mm512_max_ps, _mm512_setzero_ps,
    _mm512_storeu_ps, _mm512_stream_ps, _mm_prefetch, _mm_sfence, _MM_HINT_T0,
};

use super::super::diffuse::Rule;
use super::{carry, cleaned, imax, in_order, left, right, settle, start, Lanes, Pending, Settled};

/// The chunks of a row (or of a part of one) `w` cells wide ([`Ends::new`]) from its start:
/// `whole` of 16 cells, then, where the width is not a multiple of 16, one more of which
/// `lanes` lie inside the row.
#[derive(Clone, Copy)]
pub(super) struct Ends {
    whole: usize,
    pub(super) chunks: usize,
    lanes: u16,
}

impl Ends {
    pub(super) fn new(w: usize) -> Self {
        let (whole, rest) = (w / 16, w % 16);
        Self { whole, chunks: whole + usize::from(rest > 0), lanes: (1u16 << rest).wrapping_sub(1) }
    }

    /// Chunk `j` of the row at `row`: the lanes inside the row, the rest 0; only the row's
    /// last chunk (`end`) may be partly past it.
    ///
    /// # Safety
    /// The CPU has AVX-512 F and BW; `row` holds the cells `self` was made for, `j < self.chunks`, and
    /// `end` when `j` is the last.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn load(self, row: *const f32, j: usize, end: bool) -> __m512 {
        // SAFETY: the caller promised the row; a whole chunk lies inside it, and of the last
        // one only the lanes inside are read.
        unsafe {
            if !end || j < self.whole {
                _mm512_loadu_ps(row.add(16 * j))
            } else {
                _mm512_maskz_loadu_ps(self.lanes, row.add(16 * j))
            }
        }
    }

    /// Writes chunk `j` of the row at `row`: its new values where they are kept, +0 in the
    /// rest (see [`Settled::store`]), the lanes inside the row only.
    ///
    /// # Safety
    /// As [`load`](Self::load), `row` writable.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn put<const EIGHT: bool>(self, row: *mut f32, j: usize, end: bool, new: Settled) {
        // SAFETY: as in `load`; a whole chunk lies inside the row.
        unsafe {
            if !end || j < self.whole {
                new.store::<EIGHT>(row.add(16 * j));
            } else {
                self.store(row, j, end, new.value());
            }
        }
    }

    /// Writes the lanes of chunk `j` inside the row at `row`.
    ///
    /// # Safety
    /// As [`load`](Self::load), `row` writable.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn store(self, row: *mut f32, j: usize, end: bool, new: __m512) {
        // SAFETY: as in `load`.
        unsafe {
            if !end || j < self.whole {
                _mm512_storeu_ps(row.add(16 * j), new);
            } else {
                _mm512_mask_storeu_ps(row.add(16 * j), self.lanes, new);
            }
        }
    }
}

/// The rows a [`pair`] reads and writes, each as many cells as `ends` was made for, starting
/// a chunk.
#[derive(Clone, Copy)]
pub(super) struct Rows {
    /// The row above the first, the first, the second and the row below it.
    pub(super) values: [*const f32; 4],
    /// The wall data [`fill`](super::fill) wrote for `q` 0 for the row above, the first
    /// and the second, in 16-bit words, the open squares `squares` words in.
    pub(super) walls: [*const u16; 3],
    pub(super) squares: usize,
    /// The first and second rows written, and with `SAVE` the row the second's values are
    /// saved to.
    pub(super) out: [*mut f32; 3],
    /// A row asked for ahead with `PREFETCH`, and the row `stride` cells after it.
    pub(super) ahead: *const f32,
    pub(super) stride: usize,
    pub(super) ends: Ends,
}

impl Rows {
    /// The part of these rows (whole rows, `ends` their chunks) that chunks `chunks`
    /// cover, as rows of their own: from the part's first cell, its chunks their `ends`.
    #[inline(always)]
    pub(super) fn part(self, chunks: std::ops::Range<usize>) -> Self {
        let (from, x0) = (chunks.start, 16 * chunks.start);
        let x1 = (16 * chunks.end).min(self.stride);
        Self {
            values: self.values.map(|row| row.wrapping_add(x0)),
            walls: self.walls.map(|row| row.wrapping_add(from)),
            out: self.out.map(|row| if row.is_null() { row } else { row.wrapping_add(x0) }),
            ahead: self.ahead.wrapping_add(x0),
            ends: Ends::new(x1 - x0),
            ..self
        }
    }
}

/// Rows of spans passed from one pair to the next (see the module docs): two rows of
/// `span` cells, the second row's span gated by the squares below it and the row below's
/// span. They live on the stack of [`stream`](super::streamed::stream), which runs pairs
/// one after another.
#[derive(Clone, Copy)]
pub(super) struct Ring {
    at: *mut f32,
    span: usize,
}

/// Room for a [`Ring`]: two rows of 2048 cells (16 KiB), on a cache line, as the rows
/// are (a load or store across two lines takes two turns). Wider maps run their pairs
/// without a ring (5 more vector operations a pair of chunks, in a step bound by memory at
/// that size).
#[repr(C, align(64))]
pub(super) struct RingSpace([f32; 4096]);

impl Ring {
    /// A ring in `space` for rows of `ends`' chunks, if they fit.
    pub(super) fn on(space: &mut std::mem::MaybeUninit<RingSpace>, ends: Ends) -> Option<Self> {
        let span = 16 * ends.chunks;
        let cells = std::mem::size_of::<RingSpace>() / 4;
        (2 * span <= cells).then(|| Self { at: space.as_mut_ptr().cast(), span })
    }

    /// The same ring from chunk `j` on: for rows that start `16 j` cells into the rows it
    /// was made for, and lie within them.
    pub(super) fn from(self, j: usize) -> Self {
        Self { at: self.at.wrapping_add(16 * j), ..self }
    }

    /// Chunk `j` of both rows, as the last pair wrote them.
    ///
    /// # Safety
    /// The CPU has AVX-512 F; `j` is a chunk of the rows, and a pair wrote it.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn load(self, j: usize) -> [__m512; 2] {
        // SAFETY: the caller promised a chunk of the rows, written: the ring holds both.
        unsafe { [_mm512_loadu_ps(self.at.add(16 * j)), _mm512_loadu_ps(self.at.add(self.span + 16 * j))] }
    }

    /// Writes chunk `j` of both rows.
    ///
    /// # Safety
    /// The CPU has AVX-512 F; `j` is a chunk of the rows.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn store(self, j: usize, [gated, span]: [__m512; 2]) {
        // SAFETY: the caller promised a chunk of the rows: the ring holds both.
        unsafe {
            _mm512_storeu_ps(self.at.add(16 * j), gated);
            _mm512_storeu_ps(self.at.add(self.span + 16 * j), span);
        }
    }
}

/// One chunk of a pair's four rows, as [`pair_step`] reads it.
#[derive(Clone, Copy)]
struct Quad {
    /// The four rows as the maxima read them ([`cleaned`]).
    clean: [__m512; 4],
    /// The two middle rows as they are, for their own values.
    own: [__m512; 2],
    /// The middle rows' right neighbours, loaded where the values are clean (else unused).
    right: [__m512; 2],
    /// With `HELD`, the ring's chunk: the first row's diagonals from above, and its span.
    held: [__m512; 2],
}

/// Two output rows, `out[0]` and `out[1]`, from the four rows around them (see [`Rows`]),
/// as [`chunk_step`](super::chunk_step) computes each, sharing what the two have in common:
/// the loads of the middle rows and, with 8 neighbours, their cleaning, shifts and spans
/// (see the module docs). With `PREFETCH`, the chunks of `ahead` and the row after it are
/// asked for; with `STREAM`, the two rows are written past the caches where they start on
/// 64-byte boundaries. With `SAVE`, the second middle row's values are also copied into the
/// row `out[2]` as they are read (for the pair below), so that the output may be the two
/// middle rows themselves (a step in place, [`in_place`](super::super::in_place)): each
/// chunk is read (and with `CLEAN` the first cell of the next) before the chunk before it
/// is written. With `CLEAN`, the values read are clean already
/// ([`Coefs::clean`](super::super::fused::Coefs)), and neither cleaned nor taken as
/// magnitudes. With 8 neighbours the pair writes its spans to `ring`, if any, and with
/// `HELD` takes the first row's from it, where the pair before (the two rows above) left
/// them.
///
/// # Safety
/// The CPU has AVX-512 F and BW; the rows are as [`Rows`] says; the two written overlap
/// none of the four except as the two middle rows themselves; with `SAVE` the row saved to
/// is a row too, which overlaps nothing else; with 8 neighbours, [`Coefs::spans_hold`](super::super::fused::Coefs::spans_hold) for the
/// step's constants; with `HELD`, `ring` holds the spans of the pair of rows just above,
/// run with the same `ends`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn pair<
    R: Rule,
    const EIGHT: bool,
    const FLOOR: bool,
    const PREFETCH: bool,
    const STREAM: bool,
    const SAVE: bool,
    const CLEAN: bool,
    const HELD: bool,
>(
    p: Rows,
    ring: Option<Ring>,
    k: Lanes,
) {
    let Rows { values, walls, squares, out: [first, second, save], ahead, stride, ends } = p;
    debug_assert!(!HELD || ring.is_some(), "spans held in a ring");
    let dst = [first, second];
    let zero = _mm512_setzero_ps();
    let clean = cleaned::<EIGHT, CLEAN>;
    let load = |j: usize, end: bool| {
        // SAFETY: the caller promised the four rows, and with `SAVE` the row to save into.
        let rows = unsafe {
            [
                ends.load(values[0], j, end),
                ends.load(values[1], j, end),
                ends.load(values[2], j, end),
                ends.load(values[3], j, end),
            ]
        };
        if SAVE {
            // SAFETY: as above.
            unsafe { ends.store(save, j, end, rows[2]) };
        }
        let right_of = |r: usize| {
            if !(EIGHT && CLEAN) {
                zero
            } else if end {
                right(zero, rows[r])
            } else {
                // SAFETY: chunk `j` is not the row's last, so cell `16j + 16` is in the row.
                unsafe { _mm512_loadu_ps(values[r].add(16 * j + 1)) }
            }
        };
        Quad {
            clean: [clean(rows[0]), clean(rows[1]), clean(rows[2]), clean(rows[3])],
            own: [rows[1], rows[2]],
            right: [right_of(1), right_of(2)],
            held: match ring {
                // SAFETY: the caller promised a ring holding the pair above's spans.
                Some(ring) if HELD && EIGHT => unsafe { ring.load(j) },
                _ => [zero; 2],
            },
        }
    };
    let none = Quad { clean: [zero; 4], own: [zero; 2], right: [zero; 2], held: [zero; 2] };
    // SAFETY: the caller promised the wall data of the two rows and the row above; only
    // with 8 neighbours does it hold open squares (with 4 a read `squares` words in would
    // leave a row's data, and past the last row's, its buffer).
    let bits = |j: usize| unsafe {
        let square = |row: *const u16| if EIGHT { row.add(squares + j).read() } else { 0 };
        (
            [walls[1].add(j).read(), walls[2].add(j).read()],
            [if HELD { 0 } else { square(walls[0]) }, square(walls[1]), square(walls[2])],
        )
    };
    let stream = STREAM && dst.iter().all(|d| (*d as usize).is_multiple_of(64));
    // SAFETY: the caller promised the two rows `dst`; streamed ones start on 64-byte
    // boundaries (checked just above).
    let put = |j: usize, end: bool, new: [Settled; 2]| unsafe {
        if stream && (!end || j < ends.whole) {
            _mm512_stream_ps(dst[0].add(16 * j), new[0].value());
            _mm512_stream_ps(dst[1].add(16 * j), new[1].value());
        } else {
            ends.put::<EIGHT>(dst[0], j, end, new[0]);
            ends.put::<EIGHT>(dst[1], j, end, new[1]);
        }
    };
    let step = |j: usize, chunks: [Quad; 3], sources: [__m512; 2]| {
        if PREFETCH {
            // A prefetch is only a hint: it reads nothing and cannot fault.
            _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(16 * j).cast());
            _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(16 * j + stride).cast());
        }
        let (own, squares) = bits(j);
        let (pending, sources, passed) =
            pair_step::<R, EIGHT, FLOOR, CLEAN, HELD>(chunks, own, squares, sources, k);
        if let (true, Some(ring)) = (EIGHT, ring) {
            // SAFETY: `j` is a chunk of the rows, which the ring was made for.
            unsafe { ring.store(j, passed) };
        }
        (pending, sources)
    };
    in_order(ends.chunks, none, [zero; 2], load, step, |j, p: [Pending; 2], end| {
        put(j, end, [settle::<CLEAN>(p[0], k), settle::<CLEAN>(p[1], k)]);
    });
    if stream {
        _mm_sfence();
    }
}

/// [`chunk_step`](super::chunk_step) for two rows (see [`pair`]): the rows of `Quad` are
/// the one above the first, the two, and the one below the second; with 8 neighbours,
/// `squares` the open squares above the first (unread with `HELD`), between the two and
/// below the second. Returns the two rows' pending chunks, their diagonal sources (for the
/// chunk after: each row's gated spans) and the spans for the [`Ring`].
#[inline]
#[target_feature(enable = "avx512f")]
fn pair_step<R: Rule, const EIGHT: bool, const FLOOR: bool, const CLEAN: bool, const HELD: bool>(
    [before, now, after]: [Quad; 3],
    own: [u16; 2],
    [above, between, below]: [u16; 3],
    sources_before: [__m512; 2],
    k: Lanes,
) -> ([Pending; 2], [__m512; 2], [__m512; 2]) {
    let zero = _mm512_setzero_ps();
    let [a, h, b, c] = now.clean;
    let (lh, lb) = (left(h, before.clean[1]), left(b, before.clean[2]));
    let (rh, rb) = if EIGHT && CLEAN {
        (now.right[0], now.right[1])
    } else {
        (right(after.clean[1], h), right(after.clean[2], b))
    };
    let pending = |m: [__m512; 2]| {
        [Pending { m: m[0], old: now.own[0], own: own[0] }, Pending { m: m[1], old: now.own[1], own: own[1] }]
    };
    if !EIGHT {
        // As `chunk_step` with 4 neighbours: the float chain from 0, as the values are.
        let straight = |up: __m512, down: __m512, l: __m512, r: __m512| {
            let m = carry::<R>(
                _mm512_max_ps(r, _mm512_max_ps(l, _mm512_max_ps(down, start::<CLEAN>(up)))),
                k.straight,
            );
            if FLOOR {
                _mm512_max_ps(m, zero)
            } else {
                m
            }
        };
        return (pending([straight(a, b, lh, rh), straight(h, c, lb, rb)]), [zero; 2], [zero; 2]);
    }
    // `src` with the lanes of `m` the larger of `x` and `y`, as integers (see `imax`).
    let imask = |src: __m512, m: u16, x: __m512, y: __m512| {
        _mm512_castsi512_ps(_mm512_mask_max_epi32(
            _mm512_castps_si512(src),
            m,
            _mm512_castps_si512(x),
            _mm512_castps_si512(y),
        ))
    };
    // The spans of the four rows; the first row's, and the row above's gated by the
    // squares above, held from the pair above.
    let [from_above, span_h] = if HELD {
        now.held
    } else {
        [_mm512_maskz_mov_ps(above, imax(a, right(after.clean[0], a))), imax(h, rh)]
    };
    let (span_b, span_c) = (imax(b, rb), imax(c, right(after.clean[3], c)));
    // Each row's gated spans: from above, and through the squares below.
    let gated_h = imask(from_above, between, span_b, from_above);
    let below_b = _mm512_maskz_mov_ps(below, span_c);
    let gated_b = imask(below_b, between, span_h, below_b);
    let row = |straight: __m512, gated: __m512, before: __m512| {
        let mut m = carry::<R>(straight, k.straight);
        if FLOOR {
            m = _mm512_max_ps(m, zero);
        }
        let diagonal = imax(gated, left(gated, before));
        _mm512_max_ps(carry::<R>(diagonal, k.diagonal), m)
    };
    let m = [
        row(imax(imax(a, b), imax(lh, rh)), gated_h, sources_before[0]),
        row(imax(imax(h, c), imax(lb, rb)), gated_b, sources_before[1]),
    ];
    (pending(m), [gated_h, gated_b], [_mm512_maskz_mov_ps(below, span_b), span_c])
}
