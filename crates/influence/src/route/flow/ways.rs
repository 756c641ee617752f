//! The flow field's ways, read off its final costs in one pass over the map.
//!
//! The search writes costs only: keeping a way beside each cost would cost every one of
//! its offers a load, a choice and a store more (about a third of the search). Once the
//! costs are final, a cell's way is the neighbour whose offer is lowest, the same sum the
//! search made (`cost + (step + penalty)`, in the same order, so the same bits), and a pass
//! row by row finds it for every cell with no branch, several cells at a time.

use crate::paths::Padded;

use super::{GOAL, UNREACHED};

/// Writes the way of every cell of `grid` into `ways` (padded, as `costs`, and
/// [`UNREACHED`] throughout on entry): the neighbour bit of `Padded::steps` from the next
/// step to the cell, [`GOAL`] where the cost is 0 and [`UNREACHED`] on walls (`−∞`) and
/// cells no goal reaches (`+∞`). Among neighbours whose offers tie, the first in that
/// order wins. With the widest vectors the CPU has (as `crate::simd` allows): the same
/// operations, so the same ways.
pub(super) fn write(grid: &Padded, costs: &[f32], ways: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::simd::avx512() {
            // SAFETY: the CPU has AVX-512 F and BW (just checked).
            #[allow(unsafe_code)]
            return unsafe { avx512(grid, costs, ways) };
        }
        if crate::simd::avx2() {
            // SAFETY: the CPU has AVX2 (just checked).
            #[allow(unsafe_code)]
            return unsafe { avx2(grid, costs, ways) };
        }
    }
    every_row(grid, costs, ways);
}

/// [`every_row`] compiled for AVX2 (the same operations, eight cells at a time).
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[target_feature(enable = "avx2")]
unsafe fn avx2(grid: &Padded, costs: &[f32], ways: &mut [u8]) {
    every_row(grid, costs, ways);
}

/// [`every_row`] compiled for AVX-512 (sixteen cells at a time).
///
/// # Safety
/// The CPU must have AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn avx512(grid: &Padded, costs: &[f32], ways: &mut [u8]) {
    every_row(grid, costs, ways);
}

/// Cells of a row whose ways are found together, or skipped together when none of them
/// was reached (on a map mostly of walls, most of its bounding rectangle).
const BLOCK: usize = 64;

/// [`write()`], row by row and block by block.
#[inline(always)]
fn every_row(grid: &Padded, costs: &[f32], ways: &mut [u8]) {
    let (s, w) = (grid.stride, grid.stride - 2);
    let height = grid.len() / s;
    for y in 1..height - 1 {
        let ([cu, cm, cd], [pu, pm, pd]) = (rows(costs, y, s), rows(&grid.penalty, y, s));
        let out = &mut ways[y * s + 1..][..w];
        for (b, out) in out.chunks_mut(BLOCK).enumerate() {
            // Padded columns b · BLOCK ..= b · BLOCK + n + 1: the block and one cell each side.
            let (from, n) = (b * BLOCK, out.len());
            let [cu, cm, cd, pu, pm, pd] = [cu, cm, cd, pu, pm, pd].map(|row| &row[from..from + n + 2]);
            // Reached cells cost a finite amount; walls −∞, the rest +∞.
            if !cm[1..=n].iter().fold(false, |any, c| any | c.is_finite()) {
                continue; // the ways stay UNREACHED
            }
            if grid.eight {
                eight(out, [cu, cm, cd], [pu, pm, pd], grid.straight, grid.diagonal);
            } else {
                four(out, [cu, cm, cd], [pu, pm, pd], grid.straight);
            }
        }
    }
}

/// Padded rows `y − 1`, `y` and `y + 1` of `a` (`s` cells each).
#[inline(always)]
fn rows(a: &[f32], y: usize, s: usize) -> [&[f32]; 3] {
    [y - 1, y, y + 1].map(|r| &a[r * s..(r + 1) * s])
}

/// The three windows of a stretch of a padded row that covers `w` cells and one each
/// side: for each of the `w` cells, its left neighbour, itself and its right neighbour
/// (`w` cells each, so that the loops below index them without checks and run several
/// cells at a time).
#[inline(always)]
fn windows(row: &[f32], w: usize) -> [&[f32]; 3] {
    [&row[..w], &row[1..=w], &row[2..w + 2]]
}

/// Lowers `(best, way)` to `(offer, i)` where `offer` is lower (a NaN offer never is).
#[inline(always)]
fn keep_lower(best: &mut f32, way: &mut u8, offer: f32, i: u8) {
    let lower = offer < *best;
    *best = if lower { offer } else { *best };
    *way = if lower { i } else { *way };
}

/// The way of a cell from the neighbour whose offer was lowest (`way`) and its own cost:
/// [`GOAL`] at cost 0, [`UNREACHED`] at `±∞` (never reached, or a wall).
#[inline(always)]
fn settle(here: f32, way: u8) -> u8 {
    let reached = here > f32::NEG_INFINITY && here < f32::INFINITY;
    let way = if reached { way } else { UNREACHED };
    if here == 0.0 {
        GOAL
    } else {
        way
    }
}

/// [`write()`] for one row of an 8-connected grid, from the rows of costs and penalties up,
/// at and down from it. A wall's offer is NaN (`−∞ + NaN`); a diagonal offer adds `0 · p`
/// of the two cells beside the step, which is 0 where both are open and NaN where either is
/// a wall (no corner cutting), and adding 0 changes no bits.
#[inline(always)]
fn eight(out: &mut [u8], [cu, cm, cd]: [&[f32]; 3], [pu, pm, pd]: [&[f32]; 3], straight: f32, diagonal: f32) {
    let w = out.len();
    let ([cul, cux, cur], [cml, cmx, cmr], [cdl, cdx, cdr]) =
        (windows(cu, w), windows(cm, w), windows(cd, w));
    let ([pul, pux, pur], [pml, _, pmr], [pdl, pdx, pdr]) = (windows(pu, w), windows(pm, w), windows(pd, w));
    for j in 0..w {
        let (zl, zr, zu, zd) = (pml[j] * 0.0, pmr[j] * 0.0, pux[j] * 0.0, pdx[j] * 0.0);
        let (mut best, mut way) = (f32::INFINITY, UNREACHED);
        // From the neighbour at p − steps[i], whose step to this cell is steps[i].
        keep_lower(&mut best, &mut way, cml[j] + (straight + pml[j]), 0);
        keep_lower(&mut best, &mut way, cmr[j] + (straight + pmr[j]), 1);
        keep_lower(&mut best, &mut way, cux[j] + (straight + pux[j]), 2);
        keep_lower(&mut best, &mut way, cdx[j] + (straight + pdx[j]), 3);
        keep_lower(&mut best, &mut way, cul[j] + (diagonal + pul[j]) + (zl + zu), 4);
        keep_lower(&mut best, &mut way, cur[j] + (diagonal + pur[j]) + (zr + zu), 5);
        keep_lower(&mut best, &mut way, cdl[j] + (diagonal + pdl[j]) + (zl + zd), 6);
        keep_lower(&mut best, &mut way, cdr[j] + (diagonal + pdr[j]) + (zr + zd), 7);
        out[j] = settle(cmx[j], way);
    }
}

/// [`eight`] for a 4-connected grid. Kept apart from it: one row function with the
/// diagonals behind a const parameter measured 15 % slower under AVX-512.
#[inline(always)]
fn four(out: &mut [u8], [cu, cm, cd]: [&[f32]; 3], [pu, pm, pd]: [&[f32]; 3], straight: f32) {
    let w = out.len();
    let ([_, cux, _], [cml, cmx, cmr], [_, cdx, _]) = (windows(cu, w), windows(cm, w), windows(cd, w));
    let ([_, pux, _], [pml, _, pmr], [_, pdx, _]) = (windows(pu, w), windows(pm, w), windows(pd, w));
    for j in 0..w {
        let (mut best, mut way) = (f32::INFINITY, UNREACHED);
        keep_lower(&mut best, &mut way, cml[j] + (straight + pml[j]), 0);
        keep_lower(&mut best, &mut way, cmr[j] + (straight + pmr[j]), 1);
        keep_lower(&mut best, &mut way, cux[j] + (straight + pux[j]), 2);
        keep_lower(&mut best, &mut way, cdx[j] + (straight + pdx[j]), 3);
        out[j] = settle(cmx[j], way);
    }
}
