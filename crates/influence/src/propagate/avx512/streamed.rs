//! The AVX-512 single step's rows between the grid's first and last, as plain loops from
//! each row's start ([`stream`]), with 8 neighbours two rows at a time ([`pair`]): what
//! [`band`](super::band) runs where the input starts on a cache line. The arithmetic per
//! chunk is the parent module's ([`chunk_step`], [`settle`]); what differs is the work
//! around it (see the parent's docs).

use std::arch::x86_64::{__m512, _mm512_setzero_ps, _mm_prefetch, _MM_HINT_T0};

use super::super::diffuse::Rule;
use super::super::fused::{Band, Coefs, AHEAD};
use super::pair::{pair, Ends, Ring, Rows};
use super::{chunk_step, gate_len, in_order, settle, Chunk, Lanes, Settled};

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
    while r < rows.len() {
        // Two rows at a time with 8 neighbours; with 4, where a row shares less with the
        // next, a 256² step took 0.133 ns a cell in pairs against 0.129 one row at a time.
        if pairs && r + 1 < rows.len() {
            // SAFETY: rows `r` and `r + 1` of the stream are in `rows` (so the rows above
            // and below both are in the grid, asserted above), their wall data and the row
            // above's in `b.walls` (asserted above), and their cells in `out`; the spans
            // hold (just checked); after the first pair, the ring (made for `ends`) holds
            // the spans of the pair just above.
            unsafe {
                let (here, bits, dst) = (here.add(r * w), bits.add(r * stride), dst.add(r * w));
                let pair_rows = Rows {
                    values: [here.sub(w), here, here.add(w), here.add(2 * w)],
                    walls: [bits.sub(stride), bits, bits.add(stride)],
                    squares,
                    out: [dst, dst.add(w), std::ptr::null_mut()],
                    ahead: here.wrapping_add(AHEAD * w),
                    ends,
                };
                if r > 0 && ring.is_some() {
                    pair::<R, EIGHT, FLOOR, PREFETCH, false, false, CLEAN, true>(pair_rows, ring, k);
                } else {
                    pair::<R, EIGHT, FLOOR, PREFETCH, false, false, CLEAN, false>(pair_rows, ring, k);
                }
            }
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
        let put = |j: usize, new: Settled, end: bool| unsafe { ends.put(dst.add(r * w), j, end, new) };
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
