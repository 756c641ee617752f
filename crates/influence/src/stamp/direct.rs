//! Direct evaluation of a source's footprint, one pass per row over the footprint's whole
//! width, compiled per metric, mode and common curve: what a source off the cell centres
//! (or beyond the kernel cache) costs. It covers the cells [`footprint_row`](super::footprint_row)
//! covers with the same operations per cell, so it gives the same bits.

use super::Placement;
use crate::source::{Metric, Source};
use crate::space::Grid;

/// A straight-line metric split into a per-column and a per-row term, so that a source's
/// columns are prepared once and each cell costs one [`Straight::distance`]: bit-identical
/// to [`Metric::length`] (the same operations on the same values).
pub(super) trait Straight {
    /// The metric, for its [`Metric::half_width`].
    const METRIC: Metric;
    /// The term of a column `x` cells across from the source.
    fn term(x: f32) -> f32;
    /// `Metric::length(x, y)` from the terms of `x` and of `y`.
    fn distance(column: f32, row: f32) -> f32;
}

/// [`Metric::Euclidean`]: `sqrt(x² + y²)`.
pub(super) struct Euclidean;
/// [`Metric::Manhattan`]: `|x| + |y|`.
pub(super) struct Manhattan;
/// [`Metric::Octile`]: `max(|x|, |y|) + (√2 − 1)·min(|x|, |y|)`.
pub(super) struct Octile;

impl Straight for Euclidean {
    const METRIC: Metric = Metric::Euclidean;
    #[inline(always)]
    fn term(x: f32) -> f32 {
        x * x
    }
    #[inline(always)]
    fn distance(column: f32, row: f32) -> f32 {
        (column + row).sqrt()
    }
}

impl Straight for Manhattan {
    const METRIC: Metric = Metric::Manhattan;
    #[inline(always)]
    fn term(x: f32) -> f32 {
        x.abs()
    }
    #[inline(always)]
    fn distance(column: f32, row: f32) -> f32 {
        column + row
    }
}

impl Straight for Octile {
    const METRIC: Metric = Metric::Octile;
    #[inline(always)]
    fn term(x: f32) -> f32 {
        x.abs()
    }
    #[inline(always)]
    fn distance(column: f32, row: f32) -> f32 {
        column.max(row) + (std::f32::consts::SQRT_2 - 1.0) * column.min(row)
    }
}

/// A [`Mode`](crate::Mode) fixed at compile time: `combine(cell, value)` is `Mode::apply`.
pub(super) trait Combine {
    fn combine(cell: f32, value: f32) -> f32;
}

pub(super) struct Add;
pub(super) struct Set;
pub(super) struct Max;

impl Combine for Add {
    #[inline(always)]
    fn combine(cell: f32, value: f32) -> f32 {
        cell + value
    }
}

impl Combine for Set {
    #[inline(always)]
    fn combine(_: f32, value: f32) -> f32 {
        value
    }
}

impl Combine for Max {
    #[inline(always)]
    fn combine(cell: f32, value: f32) -> f32 {
        cell.max(value)
    }
}

/// Cells evaluated together: one SSE register of `f32`.
const LANES: isize = 4;

/// What [`direct_rows`] needs of one source on one grid.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    pub(super) radius: f32,
    /// The radius in cells.
    reach_cells: f32,
    pub(super) cell_size: f32,
    pub(super) strength: f32,
    /// The source's cell, and its position relative to that cell's centre (in cells).
    pub(super) cx: isize,
    pub(super) cy: isize,
    pub(super) fx: f32,
    pub(super) fy: f32,
    pub(super) width: isize,
    height: isize,
    reach: isize,
    /// The footprint's columns within the grid, relative to `cx`.
    pub(super) dx_lo: isize,
    pub(super) dx_hi: isize,
    /// The columns every row evaluates: `dx_lo..=dx_hi`, widened to whole chunks of
    /// [`LANES`] cells as far as the grid allows.
    pub(super) span: (isize, isize),
}

impl Frame {
    /// `None` when the source's columns lie wholly beside the grid.
    pub(super) fn new(grid: &Grid, source: &Source, at: Placement, reach: isize) -> Option<Self> {
        let (width, height) = (grid.width() as isize, grid.height() as isize);
        let (cx, cy) = at.cell;
        let (dx_lo, dx_hi) = ((-reach).max(-cx), reach.min(width - 1 - cx));
        if dx_lo > dx_hi {
            return None;
        }
        // To the right while the grid allows, then to the left.
        let short = |lo: isize, hi: isize| (LANES - (hi - lo + 1) % LANES) % LANES;
        let hi = (dx_hi + short(dx_lo, dx_hi)).min(width - 1 - cx);
        let span = ((dx_lo - short(dx_lo, hi)).max(-cx), hi);
        Some(Self {
            radius: source.radius(),
            reach_cells: source.radius() / grid.cell_size(),
            cell_size: grid.cell_size(),
            strength: source.strength(),
            cx,
            cy,
            fx: at.offset.0,
            fy: at.offset.1,
            width,
            height,
            reach,
            dx_lo,
            dx_hi,
            span,
        })
    }
}

/// The rows of a direct evaluation: exactly the cells, factors and values that
/// [`footprint_row`](super::footprint_row) and [`apply_row`](super::apply_row) give, computed in one pass per row. `cols` holds the
/// metric terms of the columns `f.span`.
///
/// A row is skipped where `footprint_row` skips it: its span estimate is NaN, or (for a
/// source beside the grid) misses the grid. Otherwise `footprint_row` yields every column
/// of the grid within reach whose `distance <= radius`. Those columns are contiguous — each
/// metric is monotone in `|x|`, rounding included — so they hold the column within reach
/// nearest the source if any does; the estimate holds that column, and `footprint_row`
/// follows the run past the estimate's ends.
///
/// So every row here evaluates the same columns, the footprint's whole width: the same trip
/// count row after row, which the branch predictor follows, and no span to work out per
/// row. Widened to whole chunks of [`LANES`] cells (by columns beyond reach, whose terms are
/// infinite), the span is one loop the compiler vectorises with no scalar tail: per cell it
/// computes distance, factor and combined value, and keeps the value where
/// `distance <= radius` and the cell is walkable — a select, not a branch. Rows without
/// walls take a loop that does not read them.
#[inline(never)]
pub(super) fn direct_rows<M: Straight, W: Combine>(
    values: &mut [f32],
    blocked: &[bool],
    cols: &[f32],
    f: &Frame,
    factor: impl Fn(f32) -> f32,
) {
    let Frame { radius, cell_size, strength: s, cx, cy, width, span, .. } = *f;
    let value = |c: f32, d: f32| W::combine(c, s * factor(d));
    for dy in rows(f) {
        let Some(row) = covered_row::<M>(f, dy) else { continue };
        let start = ((cy + dy) * width + cx + span.0) as usize;
        let cells = start..start + cols.len();
        let (values, blocked) = (&mut values[cells.clone()], &blocked[cells]);
        if walled(blocked) {
            for ((c, &b), &column) in values.iter_mut().zip(blocked).zip(cols) {
                let d = M::distance(column, row) * cell_size;
                let v = value(*c, d);
                *c = if (d <= radius) & !b { v } else { *c };
            }
        } else {
            for (c, &column) in values.iter_mut().zip(cols) {
                let d = M::distance(column, row) * cell_size;
                let v = value(*c, d);
                *c = if d <= radius { v } else { *c };
            }
        }
    }
}

/// The rows `dy` (relative to the source's cell) that direct evaluation may cover: those
/// within the grid. [`covered_row`] says which of them it does.
#[inline(always)]
pub(super) fn rows(f: &Frame) -> std::ops::RangeInclusive<isize> {
    (-f.reach).max(-f.cy)..=f.reach.min(f.height - 1 - f.cy)
}

/// Whether direct evaluation covers row `dy` of [`rows`] (where `footprint_row` does: see
/// [`direct_rows`]): if so, the row's metric term.
///
/// A row is covered when the metric's half-width estimate for it is a number and, for a
/// source beside the grid, the columns it bounds meet the grid's. With the source's own
/// column in the grid (nearly always) only the first test counts, and it is made without
/// the estimate's square root ([`Metric::reaches`](crate::source::Metric::reaches)): one
/// fewer trip through the divider a row, which the rows' own roots and quotients keep busy.
#[inline(always)]
pub(super) fn covered_row<M: Straight>(f: &Frame, dy: isize) -> Option<f32> {
    let Frame { reach_cells, fx, fy, dx_lo, dx_hi, .. } = *f;
    let dy_cells = dy as f32 - fy;
    if (dx_lo..=dx_hi).contains(&0) {
        return M::METRIC.reaches(reach_cells, dy_cells).then(|| M::term(dy_cells));
    }
    let half = M::METRIC.half_width(reach_cells, dy_cells);
    // The estimate always holds the source's own column; only a source beside the grid
    // can have it miss the grid.
    let bound = |v: f32| v.clamp(dx_lo as f32 - 1.0, dx_hi as f32 + 1.0) as isize;
    if half.is_nan() || bound(fx - half - 2.0).max(dx_lo) > bound(fx + half + 2.0).min(dx_hi) {
        return None;
    }
    Some(M::term(dy_cells))
}

/// Whether any of `blocked` is: a chunk's flags at a time, as one 32-bit load each.
#[inline(always)]
pub(super) fn walled(blocked: &[bool]) -> bool {
    let (chunks, rest) = blocked.as_chunks::<{ LANES as usize }>();
    let any = chunks.iter().fold(0, |any, chunk| any | u32::from_ne_bytes(chunk.map(u8::from)));
    any != 0 || rest.contains(&true)
}

/// The curves the vector paths evaluate on lanes (`stamp/x86.rs`, `stamp/avx2.rs`).
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Curve {
    /// `1 − d / r`.
    Linear,
    /// 1.
    Constant,
}

/// The walkable cells among `x .. x + 64` of a row with free-cell bits `free` (bit `i` of
/// word `i / 64` for cell `i`; bits past the row's end clear), as bit `i` for cell `x + i`;
/// cells outside the row are not walkable.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn walkable64(free: &[u64], x: isize) -> u64 {
    let word = |i: usize| free.get(i).copied().unwrap_or(0);
    if let Ok(x) = usize::try_from(x) {
        let (i, shift) = (x / 64, x % 64);
        // `<< 1 << (63 − shift)` is `<< (64 − shift)`, and 0 when the shift is 0.
        word(i) >> shift | word(i + 1) << 1 << (63 - shift)
    } else if x > -64 {
        word(0) << x.unsigned_abs()
    } else {
        0
    }
}
