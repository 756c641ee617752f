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
    // A kernel at most 64 columns wide whose square lies wholly inside the grid (most
    // sources on a large map) needs no clipping: see `add_inside`.
    let inside = |c: isize, n: usize| c >= reach && c + reach < n as isize;
    if 2 * reach < 64 && inside(cx, w) && inside(cy, h) {
        // SAFETY: the caller promised the instructions and the layer; the kernel's square
        // (its rows lie within `-reach ..= reach` each way) is inside the grid and at most
        // 64 columns wide, and every row holds at least one factor, stored at
        // `start .. start + len` of `factors` (as `Stamper::kernel_for` builds kernels).
        return unsafe { add_inside(adder, grid, values, rows, factors, (cx, cy), s, reach) };
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

/// [`add_rows`] for a kernel whose square, `-reach ..= reach` about `(cx, cy)` each way, lies
/// inside the grid and is at most 64 columns wide: no row is clipped, and each row's walkable
/// cells are read from the free-cell bits with the square's first column fixed for the whole
/// kernel (one or two words and a shift a row).
///
/// # Safety
/// The caller is compiled for `adder`'s instructions, `values` holds a value per cell of
/// `grid`, every row of the kernel lies within `-reach ..= reach` of `(cx, cy)` each way
/// (`dy`, and `dx0 .. dx0 + len`) and has its factors, at least one, at
/// `start .. start + len` of `factors`, that square lies inside the grid, and
/// `2 · reach < 64`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn add_inside<A: Adder>(
    adder: A,
    grid: &Grid,
    values: &mut [f32],
    rows: &[KernelRow],
    factors: &[f32],
    (cx, cy): (isize, isize),
    s: A::Strength,
    reach: isize,
) {
    let w = grid.width();
    let (free, words) = grid.free_words();
    // The square's first column, in the grid: its walkable cells are bits from `shift` on of
    // word `word` of each row, and of the next word if the row has one.
    let x0 = (cx - reach) as usize;
    let (word, shift) = (x0 / 64, x0 % 64);
    let next = word + 1 < words;
    let centre = values.as_mut_ptr().wrapping_add(cy as usize * w + cx as usize);
    if A::PREFETCH {
        // Each row's first and last cells, asked for before any row is added, so that the
        // core waits on the cache once for the kernel rather than row by row.
        for row in rows {
            let line = centre.wrapping_offset(row.dy * w as isize + row.dx0);
            // SAFETY: SSE is part of x86-64; a prefetch dereferences nothing.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(line.cast());
                _mm_prefetch::<_MM_HINT_T0>(line.wrapping_add(row.len - 1).cast());
            }
        }
    }
    for row in rows {
        debug_assert!(row.len > 0 && row.start + row.len <= factors.len());
        let y = (cy + row.dy) as usize;
        let at = y * words + word;
        // SAFETY: row y is in the grid (the contract), so its words `at` and, when the row
        // has it, `at + 1` are in `free` (`words` a row).
        let walls = unsafe {
            *free.get_unchecked(at) >> shift
                | if next { *free.get_unchecked(at + 1) << 1 << (63 - shift) } else { 0 }
        };
        // The row's walkable cells among its factors, from its first factor's column on
        // (dx0 + reach < 64, and 1 ≤ len < 64: the kernel is at most 63 columns wide).
        let bits = walls >> (row.dx0 + reach) as u32 & u64::MAX >> (64 - row.len);
        let line = centre.wrapping_offset(row.dy * w as isize + row.dx0);
        let factors = factors.as_ptr().wrapping_add(row.start);
        for k in (0..row.len).step_by(A::LANES) {
            // SAFETY: the row's cells lie inside the grid (the contract), so the lanes taken
            // (bits of the row's `len` cells) are cells of `values`, borrowed mutably, and
            // their factors lie in `start .. start + len` of `factors`; the caller promised
            // the instructions.
            unsafe { adder.add(line.wrapping_add(k), factors.wrapping_add(k), s, bits >> k) };
        }
    }
}
