//! The AVX-512 single step's rows between the grid's first and last, as plain loops from
//! each row's start ([`stream`]), with 8 neighbours two rows at a time ([`pair`]): what
//! [`band`](super::band) runs where the input starts on a cache line. The arithmetic per
//! chunk is the parent module's ([`chunk_step`], [`settle`]); what differs is the work
//! around it (see the parent's docs).

use std::arch::x86_64::{__m512, _mm512_setzero_ps, _mm_prefetch, _MM_HINT_T0};

use super::super::diffuse::Rule;
use super::super::fused::{Band, Coefs, Parts, AHEAD};
use super::pair::{pair, Ends, Ring, Rows};
use super::{chunk_step, gate_len, in_order, settle, Chunk, Lanes, Settled};
use std::ops::Range;

/// Rows `rows` of a single step, each a plain loop over its chunks from the row's start
/// (`q` 0), without the work [`row`](super::row) does at each row's ends: the loads of the
/// rows above and below never leave the grid, and only a last chunk partly past the row's
/// end (on widths not a multiple of 16) is masked. When every row starts on a cache line (a
/// library's layer, a width a multiple of 16) no load or store straddles two. The chunks
/// beyond a row's ends count as zeros (a row's first chunk sees a zero chunk before it, its
/// last one after it), as in `row`; the diagonals across a row's ends are closed by the
/// wall data already (a square with a cell outside the row is never open). With 8
/// neighbours, the rows go two at a time ([`pair`]), sharing the rows between them. Same
/// operations per cell, same bits.
///
/// # Safety
/// The CPU has AVX-512 F and BW; `rows` are inside the grid with a row of it above and
/// below, `out` holds their cells, and `b.len` is the kernel's
/// [`mask_len`](super::super::fused::RowKernel::mask_len) of the width for `q` 0.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn stream<
    R: Rule,
    const EIGHT: bool,
    const FLOOR: bool,
    const PREFETCH: bool,
    const CLEAN: bool,
>(
    b: &Band<'_>,
    rows: std::ops::Range<usize>,
    out: &mut [f32],
    coefs: &Coefs,
) {
    let w = b.width;
    let ends = Ends::new(w);
    assert!(
        rows.start >= 1 && rows.end < b.height && out.len() == rows.len() * w,
        "rows inside the grid with a row either side"
    );
    assert!(rows.start > b.first && (rows.end + 1 - b.first) * b.len <= b.walls.len(), "the rows' wall data");
    let k = Lanes::new(coefs);
    // Wall data in 16-bit words: a row's is `2 × len` of them, its open squares `squares`
    // words after its free cells (see `fill`).
    let (stride, squares) = (2 * b.len, gate_len(w, 0) / 16);
    // Pointers from the whole input and wall data: the rows above the first are read too.
    let here = b.input.as_ptr().wrapping_add(rows.start * w);
    let bits = b.walls.as_ptr().cast::<u16>().wrapping_add((rows.start - b.first) * stride);
    let dst = out.as_mut_ptr();
    let zero = Chunk::zero();
    // The pairs' spans pass from each to the next through a ring on the stack.
    let pairs = EIGHT && coefs.spans_hold::<R>();
    let mut space = std::mem::MaybeUninit::uninit();
    let ring = if pairs { Ring::on(&mut space, ends) } else { None };
    let mut r = 0;
    // The pair of rows `r` and `r + 1` of the stream, as `pair` reads and writes them.
    let pair_rows = move |r: usize| {
        let (here, bits, dst) =
            (here.wrapping_add(r * w), bits.wrapping_add(r * stride), dst.wrapping_add(r * w));
        Rows {
            values: [here.wrapping_sub(w), here, here.wrapping_add(w), here.wrapping_add(2 * w)],
            walls: [bits.wrapping_sub(stride), bits, bits.wrapping_add(stride)],
            squares,
            out: [dst, dst.wrapping_add(w), std::ptr::null_mut()],
            ahead: here.wrapping_add(AHEAD * w),
            stride: w,
            ends,
        }
    };
    // On maps with runs of walls, pairs with 4 neighbours too: parts of rows, whose calls
    // a pair shares.
    if b.walled && (pairs || !EIGHT) {
        // SAFETY: the rows of the stream and the row either side are the grid's (asserted
        // above), with their wall data; `out` holds the stream's rows; with 8 neighbours
        // the spans hold (`pairs`); the ring, if any, was made for `ends`.
        r = unsafe { walled::<R, EIGHT, FLOOR, PREFETCH, CLEAN>(pair_rows, rows.len(), ring, b.zeroed, k) };
    }
    while r < rows.len() {
        // Two rows at a time with 8 neighbours; with 4, where a row shares less with the
        // next, a 256² step took 0.133 ns a cell in pairs against 0.129 one row at a time.
        if pairs && r + 1 < rows.len() {
            // SAFETY: rows `r` and `r + 1` of the stream are in `rows` (so the rows above
            // and below both are in the grid, asserted above), their wall data and the row
            // above's in `b.walls` (asserted above), and their cells in `out`; the spans
            // hold (just checked); after the first pair, the ring (made for `ends`) holds
            // the spans of the pair just above.
            unsafe { holding::<R, EIGHT, FLOOR, PREFETCH, false, CLEAN>(pair_rows(r), ring, r > 0, k) };
            r += 2;
            continue;
        }
        // SAFETY: chunk `j < ends.chunks` of row `rows.start + r` reads (the lanes of `ends`)
        // that row and the rows above and below, all inside the grid (asserted above).
        let load = |j: usize, end: bool| unsafe {
            let at = here.add(r * w);
            Chunk::new::<EIGHT, CLEAN>([
                ends.load(at.sub(w), j, end),
                ends.load(at, j, end),
                ends.load(at.add(w), j, end),
            ])
        };
        // SAFETY: its wall words, and with 8 neighbours the row above's, lie within the
        // wall data of rows `b.first..`, which holds those rows (asserted above).
        let walls = |j: usize| unsafe {
            let at = bits.add(r * stride + j);
            (
                at.read(),
                if EIGHT { [at.sub(stride).add(squares).read(), at.add(squares).read()] } else { [0; 2] },
            )
        };
        // SAFETY: chunk `j < ends.chunks` of row `r` of `out`, which holds `rows.len()` rows.
        let put =
            |j: usize, new: Settled, end: bool| unsafe { ends.put::<EIGHT>(dst.add(r * w), j, end, new) };
        let step = |j: usize, chunks: [Chunk; 3], sources: __m512| {
            if PREFETCH {
                // A prefetch is only a hint: it reads nothing and cannot fault.
                _mm_prefetch::<_MM_HINT_T0>(here.wrapping_add((r + AHEAD) * w + 16 * j).cast());
            }
            let (own, squares) = walls(j);
            chunk_step::<R, EIGHT, FLOOR, CLEAN>(chunks, own, squares, sources, k)
        };
        in_order(ends.chunks, zero, _mm512_setzero_ps(), load, step, |j, p, end| {
            put(j, settle::<CLEAN>(p, k), end);
        });
        r += 1;
    }
}

/// The pairs of `n` rows (pair `r` of them, whole rows, as `pair_rows(r)` gives them) on a
/// map with runs of walls ([`Band::walled`]): each
/// pair runs only its parts with free cells in either row ([`parts`]), and writes +0 in
/// the rest unless they hold +0 already (`zeroed`, [`Band::zeroed`]). Returns the first
/// row not written (`n`, or `n − 1` when `n` is odd). On an Intel Xeon core (AVX-512),
/// single steps of brc202d took 0.080 ns a cell instead of 0.197, and 0.147 writing the
/// zeros (the map's two buffers spill from the L2; written, every line of the output is
/// read from further out).
///
/// A part's neighbours past its ends are walls in both its rows, which hold at most 0: the
/// zeros the part reads there give the same maxima (after cleaning, or as clean values),
/// and no square past it is open. A part may take the spans the pair above left in the
/// ring ([`Ring`]) only where that pair ran every chunk of it: the last span of a part
/// read the zero past it, not the row below's cell there, but that cell is free only if
/// the part below runs further (so does not take the spans), and a span counts only
/// through an open square, which the cell closes otherwise.
///
/// # Safety
/// The CPU has AVX-512 F and BW; `pair_rows(r)` for every even `r` with `r + 1 < n` are
/// rows as [`pair`] asks, whole rows of the grid, with a row of it either side and the same
/// `ends`; with 8 neighbours the spans hold; the ring, if any, was made for those `ends`;
/// with `zeroed`, every blocked cell of the rows written holds +0.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn walled<R: Rule, const EIGHT: bool, const FLOOR: bool, const PREFETCH: bool, const CLEAN: bool>(
    pair_rows: impl Fn(usize) -> Rows,
    n: usize,
    ring: Option<Ring>,
    zeroed: bool,
    k: Lanes,
) -> usize {
    // The chunks the pair above ran, where the ring holds its spans (a ring's rows are at
    // most 2048 cells, 128 chunks).
    let mut held = 0u128;
    let mut r = 0;
    while r + 1 < n {
        // SAFETY: as the caller promised.
        let ran =
            unsafe { parts::<R, EIGHT, FLOOR, PREFETCH, false, CLEAN>(pair_rows(r), ring, held, zeroed, k) };
        held = if ring.is_some() { ran } else { 0 };
        r += 2;
    }
    r
}

/// [`parts`] of a pair stepped in place (`SAVE`), in a function of its own: inlined into
/// the in-place loop beside the whole pair, it made [`pair`] a call there too, and steps
/// of maps without runs of walls slower (maze512, Zen 5: 0.112 ns a cell against 0.107).
///
/// # Safety
/// As [`parts`] with `SAVE`.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn saved_parts<
    R: Rule,
    const EIGHT: bool,
    const FLOOR: bool,
    const PREFETCH: bool,
    const CLEAN: bool,
>(
    rows: Rows,
    zeroed: bool,
    k: Lanes,
) {
    // SAFETY: as the caller promised.
    unsafe { parts::<R, EIGHT, FLOOR, PREFETCH, true, CLEAN>(rows, None, 0, zeroed, k) };
}

/// One pair of rows of [`walled`] (with `SAVE`, of a step in place, [`pair`]'s `SAVE`):
/// only its parts with free cells in either row ([`Rows::part`]), +0 written in the rest
/// unless the rows hold +0 there already (`zeroed`), and with `SAVE` in the row saved to
/// (the pair below reads it; the second row's walls there held at most 0, which give the
/// same maxima). A part takes the ring's spans where `held` (the chunks the pair above ran)
/// covers it. Returns the chunks it ran (0 on rows of more than 128 chunks).
///
/// # Safety
/// As [`walled`] for the pair `rows`, with `SAVE` as [`pair`] asks.
#[inline(always)]
pub(super) unsafe fn parts<
    R: Rule,
    const EIGHT: bool,
    const FLOOR: bool,
    const PREFETCH: bool,
    const SAVE: bool,
    const CLEAN: bool,
>(
    rows: Rows,
    ring: Option<Ring>,
    held: u128,
    zeroed: bool,
    k: Lanes,
) -> u128 {
    let chunks = rows.ends.chunks;
    // SAFETY: as the caller promised, the two rows' wall data, `chunks` words of free
    // cells each.
    let free = |j: usize| unsafe { rows.walls[1].add(j).read() | rows.walls[2].add(j).read() } != 0;
    let mut ran = 0u128;
    let mut parts = Parts::new(chunks);
    while let Some((walls, Range { start: from, end: to })) = parts.next(free) {
        let written = if zeroed { 0 } else { 2 };
        for &row in rows.out[..written].iter().chain(if SAVE { &rows.out[2..] } else { &[] }) {
            // SAFETY: chunks of the rows written, as the caller promised.
            unsafe { zeros(rows.ends, row, walls.clone()) };
        }
        if from < to {
            let part = if chunks <= 128 { (u128::MAX >> (128 - (to - from))) << from } else { 0 };
            let take = ring.is_some() && part != 0 && held & part == part;
            // SAFETY: as the caller promised, for the part of the rows (its chunks hold free
            // cells and the chunks either side of it none, or are past the row); with
            // `take`, the pair above ran every chunk of it (see `walled`).
            unsafe {
                holding::<R, EIGHT, FLOOR, PREFETCH, SAVE, CLEAN>(
                    rows.part(from..to),
                    ring.map(|ring| ring.from(from)),
                    take,
                    k,
                );
            }
            ran |= part;
        }
    }
    ran
}

/// [`pair`] of a single step's pair, taking the spans the pair above left in the ring where
/// there is one and `held`.
///
/// # Safety
/// As [`pair`]; with a ring and `held`, it holds the spans of the pair just above for
/// every chunk of `rows`.
#[inline(always)]
unsafe fn holding<
    R: Rule,
    const EIGHT: bool,
    const FLOOR: bool,
    const PREFETCH: bool,
    const SAVE: bool,
    const CLEAN: bool,
>(
    rows: Rows,
    ring: Option<Ring>,
    held: bool,
    k: Lanes,
) {
    // SAFETY: as the caller promised.
    unsafe {
        if held && ring.is_some() {
            pair::<R, EIGHT, FLOOR, PREFETCH, false, SAVE, CLEAN, true>(rows, ring, k);
        } else {
            pair::<R, EIGHT, FLOOR, PREFETCH, false, SAVE, CLEAN, false>(rows, ring, k);
        }
    }
}

/// Writes +0 into chunks `chunks` of the row at `row`, whose chunks `ends` are.
///
/// # Safety
/// The CPU has AVX-512 F and BW; the row is writable and the chunks are in it.
#[inline(always)]
unsafe fn zeros(ends: Ends, row: *mut f32, chunks: std::ops::Range<usize>) {
    let last = ends.chunks - 1;
    for j in chunks {
        // SAFETY: as the caller promised.
        unsafe { ends.store(row, j, j == last, _mm512_setzero_ps()) };
    }
}
