//! The AVX-512 single step's rows between the grid's first and last, as plain loops from
//! each row's start ([`stream`]), with 8 neighbours two rows at a time ([`pair`]): what
//! [`band`](super::band) runs where the input starts on a cache line. The fused pipeline
//! runs its pairs of rows ([`RowKernel::pair`](super::super::fused::RowKernel::pair)) with
//! [`pair`] too, with 4 neighbours as well. The arithmetic per
//! chunk is the parent module's ([`chunk_step`], [`settle`]); what differs is the work
//! around it (see the parent's docs).

use std::arch::x86_64::{
    __m512, _mm512_castps_si512, _mm512_castsi512_ps, _mm512_loadu_ps, _mm512_mask_max_epi32,
    _mm512_mask_storeu_ps, _mm512_maskz_loadu_ps, _mm512_maskz_mov_ps, _mm512_max_ps, _mm512_setzero_ps,
    _mm512_storeu_ps, _mm512_stream_ps, _mm_prefetch, _mm_sfence, _MM_HINT_T0,
};

use super::super::diffuse::Rule;
use super::super::fused::{Band, Coefs, AHEAD};
use super::{
    carry, chunk_step, cleaned, gate_len, imax, in_order, left, right, settle, start, Chunk, Lanes, Pending,
    Settled,
};

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
    k: &Coefs,
) {
    let w = b.width;
    let ends = Ends::new(w);
    assert!(
        rows.start >= 1 && rows.end < b.height && out.len() == rows.len() * w,
        "rows inside the grid with a row either side"
    );
    assert!(rows.start > b.first && (rows.end + 1 - b.first) * b.len <= b.walls.len(), "the rows' wall data");
    let k = Lanes::new(k);
    // Wall data in 16-bit words: a row's is `2 × len` of them, its open squares `squares`
    // words after its free cells (see `fill`).
    let (stride, squares) = (2 * b.len, gate_len(w, 0) / 16);
    // Pointers from the whole input and wall data: the rows above the first are read too.
    let here = b.input.as_ptr().wrapping_add(rows.start * w);
    let bits = b.walls.as_ptr().cast::<u16>().wrapping_add((rows.start - b.first) * stride);
    let dst = out.as_mut_ptr();
    let zero = Chunk::zero();
    let mut r = 0;
    while r < rows.len() {
        // Two rows at a time with 8 neighbours; with 4, where a row shares less with the
        // next, a 256² step took 0.133 ns a cell in pairs against 0.129 one row at a time.
        if EIGHT && r + 1 < rows.len() {
            // SAFETY: rows `r` and `r + 1` of the stream are in `rows` (so the rows above
            // and below both are in the grid, asserted above), their wall data and the row
            // above's in `b.walls` (asserted above), and their cells in `out`.
            unsafe {
                let (here, bits, dst) = (here.add(r * w), bits.add(r * stride), dst.add(r * w));
                pair::<R, EIGHT, FLOOR, PREFETCH, false, false, CLEAN>(
                    [here.sub(w), here, here.add(w), here.add(2 * w)],
                    [bits.sub(stride), bits, bits.add(stride)],
                    [dst, dst.add(w), std::ptr::null_mut()],
                    ends,
                    squares,
                    here.wrapping_add(AHEAD * w),
                    k,
                );
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

/// A row's chunks from its start: `whole` of 16 cells, then, where the width is not a
/// multiple of 16, one more of which `lanes` lie inside the row.
#[derive(Clone, Copy)]
pub(super) struct Ends {
    w: usize,
    whole: usize,
    chunks: usize,
    lanes: u16,
}

impl Ends {
    pub(super) fn new(w: usize) -> Self {
        let (whole, rest) = (w / 16, w % 16);
        Self { w, whole, chunks: whole + usize::from(rest > 0), lanes: (1u16 << rest).wrapping_sub(1) }
    }

    /// Chunk `j` of the row at `row`: the lanes inside the row, the rest 0; only the row's
    /// last chunk (`end`) may be partly past it.
    ///
    /// # Safety
    /// The CPU has AVX-512 F and BW; `row` holds `self.w` cells, `j < self.chunks`, and
    /// `end` when `j` is the last.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load(self, row: *const f32, j: usize, end: bool) -> __m512 {
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
    unsafe fn put(self, row: *mut f32, j: usize, end: bool, new: Settled) {
        // SAFETY: as in `load`.
        unsafe {
            if !end || j < self.whole {
                new.store(row.add(16 * j));
            } else {
                _mm512_mask_storeu_ps(row.add(16 * j), self.lanes, new.value());
            }
        }
    }

    /// Writes the lanes of chunk `j` inside the row at `row`.
    ///
    /// # Safety
    /// As [`load`](Self::load), `row` writable.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn store(self, row: *mut f32, j: usize, end: bool, new: __m512) {
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

#[derive(Clone, Copy)]
struct Quad {
    clean: [__m512; 4],
    own: [__m512; 2],
}

/// Two output rows, `first` and `second`, from the four rows `rows` around them (the one
/// above the first, the two, the one below the second; `ends.w` cells each, starting a
/// chunk), as [`chunk_step`] computes each, sharing what the two have in common: the loads
/// of the middle rows and, with 8 neighbours, their cleaning and shifts (the row between
/// them is one row's straight neighbours and the other's diagonals). With `PREFETCH`, the
/// chunks of `ahead` and the row after it are asked for; with `STREAM`, the two rows are
/// written past the caches where they start on 64-byte boundaries. [`stream`]'s rows and
/// the fused pipeline's ([`Avx512`](super::Avx512)'s `RowKernel::pair`) both run it. With
/// `SAVE`, the second middle row's values are also copied into the row `save` as they are
/// read (for the pair below), so that the output may be the two middle rows themselves (a
/// step in place, [`in_place`](super::super::in_place)): each chunk is read before the
/// chunk before it is written. With `CLEAN`, the values read are clean already
/// ([`Coefs::clean`](super::super::fused::Coefs)), and neither cleaned nor taken as magnitudes.
///
/// # Safety
/// The CPU has AVX-512 F and BW; the four rows hold `ends.w` cells; `walls` is the wall
/// data [`fill`](super::fill) wrote for `q` 0 for the row above, the first and the second,
/// in 16-bit words (the open squares `squares` words in); `first` and `second` are rows,
/// which overlap none of the four except as the two middle rows themselves; with `SAVE`,
/// `save` is a row too, which overlaps nothing else.
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
>(
    rows: [*const f32; 4],
    walls: [*const u16; 3],
    [first, second, save]: [*mut f32; 3],
    ends: Ends,
    squares: usize,
    ahead: *const f32,
    k: Lanes,
) {
    let (w, dst) = (ends.w, [first, second]);
    let zero = _mm512_setzero_ps();
    let clean = cleaned::<EIGHT, CLEAN>;
    // SAFETY: the caller promised the four rows, and with `SAVE` the row to save into.
    let load = |j: usize, end: bool| unsafe {
        let rows = [
            ends.load(rows[0], j, end),
            ends.load(rows[1], j, end),
            ends.load(rows[2], j, end),
            ends.load(rows[3], j, end),
        ];
        if SAVE {
            ends.store(save, j, end, rows[2]);
        }
        Quad {
            clean: [clean(rows[0]), clean(rows[1]), clean(rows[2]), clean(rows[3])],
            own: [rows[1], rows[2]],
        }
    };
    let none = Quad { clean: [zero; 4], own: [zero; 2] };
    // SAFETY: the caller promised the wall data of the two rows and the row above.
    let bits = |j: usize| unsafe {
        (
            [walls[1].add(j).read(), walls[2].add(j).read()],
            [
                walls[0].add(squares + j).read(),
                walls[1].add(squares + j).read(),
                walls[2].add(squares + j).read(),
            ],
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
            ends.put(dst[0], j, end, new[0]);
            ends.put(dst[1], j, end, new[1]);
        }
    };
    let step = |j: usize, chunks: [Quad; 3], sources: [__m512; 2]| {
        if PREFETCH {
            // A prefetch is only a hint: it reads nothing and cannot fault.
            _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(16 * j).cast());
            _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(16 * j + w).cast());
        }
        let (own, squares) = bits(j);
        pair_step::<R, EIGHT, FLOOR, CLEAN>(chunks, own, squares, sources, k)
    };
    in_order(ends.chunks, none, [zero; 2], load, step, |j, p: [Pending; 2], end| {
        put(j, end, [settle::<CLEAN>(p[0], k), settle::<CLEAN>(p[1], k)]);
    });
    if stream {
        _mm_sfence();
    }
}

/// [`chunk_step`] for two rows (see [`pair`]): the rows of `Quad` are the one above the
/// first, the two, and the one below the second; with 8 neighbours, `squares` the open
/// squares above the first, between the two and below the second.
#[inline]
#[target_feature(enable = "avx512f")]
fn pair_step<R: Rule, const EIGHT: bool, const FLOOR: bool, const CLEAN: bool>(
    [before, now, after]: [Quad; 3],
    own: [u16; 2],
    [above, between, below]: [u16; 3],
    sources_before: [__m512; 2],
    k: Lanes,
) -> ([Pending; 2], [__m512; 2]) {
    let zero = _mm512_setzero_ps();
    let [a, h, b, c] = now.clean;
    let (lh, rh) = (left(h, before.clean[1]), right(after.clean[1], h));
    let (lb, rb) = (left(b, before.clean[2]), right(after.clean[2], b));
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
        return (pending([straight(a, b, lh, rh), straight(h, c, lb, rb)]), [zero; 2]);
    }
    let imask = |src: __m512, m: u16, x: __m512, y: __m512| {
        _mm512_castsi512_ps(_mm512_mask_max_epi32(
            _mm512_castps_si512(src),
            m,
            _mm512_castps_si512(x),
            _mm512_castps_si512(y),
        ))
    };
    // One row from its straight neighbours' maximum, the rows above and below `(up, down)`,
    // their squares, the shifted right neighbours above and below, and the sources before.
    let row = |straight: __m512,
               (up, down): (__m512, __m512),
               (sq_up, sq_down): (u16, u16),
               (up_right, down_right): (__m512, __m512),
               before: __m512| {
        let mut m = carry::<R>(straight, k.straight);
        if FLOOR {
            m = _mm512_max_ps(m, zero);
        }
        let below_open = _mm512_maskz_mov_ps(sq_down, down);
        let sources = imask(below_open, sq_up, up, below_open);
        let diagonal = _mm512_maskz_mov_ps(sq_up, up_right);
        let diagonal = imask(diagonal, sq_down, down_right, diagonal);
        let diagonal = imax(left(sources, before), diagonal);
        (_mm512_max_ps(carry::<R>(diagonal, k.diagonal), m), sources)
    };
    let (m0, s0) = row(
        imax(imax(a, b), imax(lh, rh)),
        (a, b),
        (above, between),
        (right(after.clean[0], a), rb),
        sources_before[0],
    );
    let (m1, s1) = row(
        imax(imax(h, c), imax(lb, rb)),
        (h, c),
        (between, below),
        (rh, right(after.clean[3], c)),
        sources_before[1],
    );
    (pending([m0, m1]), [s0, s1])
}
