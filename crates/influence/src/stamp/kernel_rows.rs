//! The walk over a cached kernel's rows, written once for both vector adders (AVX-512 in
//! `stamp/x86.rs`, AVX2 in `stamp/avx2.rs`): which cells of which rows take which factors,
//! clipped to the grid and its walkable cells. Each adder brings only its chunk ([`Adder`]):
//! `LANES` cells whose bits say which lanes to touch, each getting
//! `cell + strength · factor`, the same operations as [`apply_row`](super::apply_row), so
//! the results are the same bits.
//!
//! The walk is inlined into each adder's function compiled for its instructions, so the
//! chunk's vector code is inlined into the walk.

#![allow(unsafe_code)]

use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};

use super::direct::walkable64;
use super::{Kernel, KernelRow};
use crate::space::Grid;

/// A vector adder's chunk of `LANES` cells. A value of it is the proof that the CPU runs it.
pub(super) trait Adder: Copy {
    /// Cells a chunk (at most 64).
    const LANES: usize;
    /// Whether a kernel inside the grid asks for its rows' cells from memory before adding
    /// any. The AVX2 adder does: at 1024², where the layer is beyond the L2, about 6 % less
    /// time for a kernel 17 cells across. The AVX-512 adder does not: on an Intel Xeon core
    /// it made sources at cell corners faster (0.611–0.614 ns a cell against 0.634–0.647)
    /// but centred ones slower (0.668–0.685 against 0.654–0.666), the goal with the thinner
    /// margin.
    const PREFETCH: bool;
    /// Whether a kernel inside the grid is added in chunks from its square's first column
    /// (else from each row's first cell to add). With a chunk of 16 lanes, most rows of a
    /// kernel 17 cells across take one chunk either way, and from the first column the
    /// stamps at 1024² took 6 % less time (an Intel Xeon core; the chunks' start, the same
    /// column in every row, is the one thing that changed). With 8 lanes, a chunk from the
    /// first column leaves more rows two chunks, and the stamps took 5 % more.
    const FROM_EDGE: bool;
    /// The strength, as the chunk reads it.
    type Strength: Copy;

    /// `strength` as [`add`](Self::add) reads it.
    fn splat(self, strength: f32) -> Self::Strength;

    /// Adds `s · factor` to each cell at `at + i` whose bit `i` of `bits` is set (bits from
    /// `LANES` on ignored), the factors read from `factors + i`.
    ///
    /// # Safety
    /// For each lane `i` set, `at + i` is a cell of a layer no one else is using and
    /// `factors + i` a readable factor; the CPU runs the adder (its value proves it), and
    /// the caller is compiled for its instructions.
    unsafe fn add(self, at: *mut f32, factors: *const f32, s: Self::Strength, bits: u64);
}

/// A cached kernel placed on a grid: its centre `cell`, the `strength` its factors are
/// scaled by, and `reach`, the most cells its rows lie from the centre each way.
#[derive(Debug, Clone, Copy)]
pub(super) struct Placed<'a> {
    pub kernel: &'a Kernel,
    pub cell: (isize, isize),
    pub strength: f32,
    pub reach: isize,
}

/// Adds `strength · factor` of each of the placed kernel's rows to the walkable cells of
/// `values` (a layer of `grid`) under it, `A::LANES` cells a chunk.
///
/// # Safety
/// The caller is compiled for `adder`'s instructions, and `values` holds a value per cell of
/// `grid`.
///
/// # Panics
/// If a row's factors are not in `kernel`'s factors.
#[inline(always)]
pub(super) unsafe fn add_rows<A: Adder>(adder: A, grid: &Grid, values: &mut [f32], placed: Placed<'_>) {
    let Placed { kernel, cell: (cx, cy), strength, reach } = placed;
    let (w, h) = (grid.width(), grid.height());
    let (free, words) = grid.free_words();
    let (rows, factors) = (&kernel.rows[..], &kernel.factors[..]);
    let s = adder.splat(strength);
    // A kernel with a square (at most 63 columns wide) that lies wholly inside the grid
    // (most sources on a large map) needs no clipping: see `add_inside`.
    let inside = |c: isize, n: usize| c >= reach && c + reach < n as isize;
    if let Some(square) = kernel.square.as_ref().filter(|_| inside(cx, w) && inside(cy, h)) {
        // SAFETY: the caller promised the instructions and the layer; the kernel's square
        // (its rows lie within `-reach ..= reach` each way, as `Stamper::kernel_for` builds
        // kernels) is inside the grid.
        return unsafe { add_inside(adder, grid, values, square, (cx, cy), s, reach) };
    }
    for row in rows {
        let Some(y) = usize::try_from(cy + row.dy).ok().filter(|&y| y < h) else { continue };
        let factors = &factors[row.start..][..row.len];
        let free = &free[y * words..][..words];
        // Where the row's first factor lands, were it inside the grid.
        let first = cx + row.dx0;
        let at = values.as_mut_ptr().wrapping_add(y * w).wrapping_offset(first);
        for k in (0..factors.len()).step_by(A::LANES) {
            // The chunk's factors, the cells inside the grid and walkable.
            let count = (factors.len() - k).min(A::LANES);
            let bits = u64::MAX >> (64 - count) & walkable64(free, first + k as isize);
            // SAFETY: the lanes taken are cells of row y between columns 0 and w − 1,
            // inside `values` (w · h long, borrowed mutably), and factors k .. k + count;
            // the caller promised the instructions.
            unsafe { adder.add(at.wrapping_add(k), factors.as_ptr().add(k), s, bits) };
        }
    }
}

/// A cached kernel's factors laid out for [`add_inside`]: the rows of its square
/// (`2 · reach + 1` columns from column `−reach`), each followed by zeros, `stride` floats
/// apart, with a bit for each column of a row that holds a factor (`cover`), from its first
/// row with a factor (`top`, its `dy`) to its last. A row is one loop over chunks of lanes
/// from the square's first column, with nothing of the row to look up but its bits.
#[derive(Debug)]
pub(super) struct Square {
    factors: Vec<f32>,
    cover: Vec<u64>,
    stride: usize,
    top: isize,
}

/// Zeros after each row of a [`Square`]: the most lanes a chunk may read past the row.
const TAIL: usize = 16;

impl Square {
    /// The square of a kernel with `rows` of `factors` within `reach` of its centre each
    /// way, if its rows' columns are bits of one word (at most 63 columns: the walkable
    /// cells' bits are read from the square's first column, one or two words and a shift).
    pub(super) fn new(rows: &[KernelRow], factors: &[f32], reach: isize) -> Option<Self> {
        let side = usize::try_from(2 * reach + 1).ok().filter(|&side| side < 64)?;
        let stride = (side + TAIL).next_multiple_of(TAIL);
        // The rows are in order of `dy`, each with at least one factor.
        let (top, bottom) = (rows.first()?.dy, rows.last()?.dy);
        let tall = (bottom - top + 1) as usize;
        let mut square = Self { factors: vec![0.0; tall * stride], cover: vec![0; tall], stride, top };
        for row in rows {
            let (r, c) = ((row.dy - top) as usize, (row.dx0 + reach) as usize);
            square.factors[r * stride + c..][..row.len].copy_from_slice(&factors[row.start..][..row.len]);
            square.cover[r] = u64::MAX >> (64 - row.len) << c;
        }
        Some(square)
    }
}

/// [`add_rows`] for a kernel whose square, `-reach ..= reach` about `(cx, cy)` each way, lies
/// inside the grid: no row is clipped, and each row's walkable cells are read from the
/// free-cell bits with the square's first column fixed for the whole kernel (one or two
/// words and a shift a row).
///
/// # Safety
/// The caller is compiled for `adder`'s instructions, `values` holds a value per cell of
/// `grid`, `square` is the square of a kernel within `reach` of its centre each way
/// ([`Square::new`]), and that square lies inside the grid (so its rows, from `top`, do).
#[inline(always)]
unsafe fn add_inside<A: Adder>(
    adder: A,
    grid: &Grid,
    values: &mut [f32],
    square: &Square,
    (cx, cy): (isize, isize),
    s: A::Strength,
    reach: isize,
) {
    let w = grid.width();
    let (free, words) = grid.free_words();
    // The square's first column and row, in the grid: its walkable cells are bits from
    // `shift` on of word `word` of each row, and of the next word if the row has one.
    let (x0, y0) = ((cx - reach) as usize, (cy + square.top) as usize);
    let (word, shift) = (x0 / 64, x0 % 64);
    let next = word + 1 < words;
    // Each row's first cell, and where its walkable cells' words are.
    let (mut line, mut at) = (values.as_mut_ptr().wrapping_add(y0 * w + x0), y0 * words + word);
    if A::PREFETCH {
        // Each row's first and last cells, asked for before any row is added, so that the
        // core waits on the cache once for the kernel rather than row by row.
        for (r, &cover) in square.cover.iter().enumerate().filter(|(_, &cover)| cover != 0) {
            let row = line.wrapping_add(r * w);
            let (first, last) = (cover.trailing_zeros() as usize, 63 - cover.leading_zeros() as usize);
            // SAFETY: SSE is part of x86-64; a prefetch dereferences nothing.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(row.wrapping_add(first).cast());
                _mm_prefetch::<_MM_HINT_T0>(row.wrapping_add(last).cast());
            }
        }
    }
    let mut factors = square.factors.as_ptr();
    let lanes = u64::MAX >> (64 - A::LANES);
    for &cover in &square.cover {
        // SAFETY: the row is in the grid (the contract), so its words `at` and, when the row
        // has it, `at + 1` are in `free` (`words` a row).
        let walls = unsafe {
            *free.get_unchecked(at) >> shift
                | if next { *free.get_unchecked(at + 1) << 1 << (63 - shift) } else { 0 }
        };
        // From the square's first column, or the row's first cell to add (none: 64, past
        // every bit).
        let first = if A::FROM_EDGE { 0 } else { (walls & cover).trailing_zeros() as usize };
        let mut bits = (walls & cover).checked_shr(first as u32).unwrap_or(0);
        let (mut chunk, mut f) = (line.wrapping_add(first), factors.wrapping_add(first));
        while bits != 0 {
            if bits & lanes != 0 {
                // SAFETY: the lanes taken are walkable cells of the square's row, inside the
                // grid (the contract) and so inside `values`, borrowed mutably; their factors,
                // and every factor the chunk may read, lie in the row's `stride` floats (a
                // chunk starts at a column of the square and reads `LANES ≤ TAIL` on); the
                // caller promised the instructions.
                unsafe { adder.add(chunk, f, s, bits) };
            }
            bits >>= A::LANES;
            (chunk, f) = (chunk.wrapping_add(A::LANES), f.wrapping_add(A::LANES));
        }
        line = line.wrapping_add(w);
        at += words;
        factors = factors.wrapping_add(square.stride);
    }
}
