//! Several steps in one pass over memory (temporal blocking), as a pipeline of rows.
//!
//! Step 1 computes rows `t` and `t + 1` while step 2 computes rows `t − 1` and `t` from the
//! four newest rows of step 1, step 3 rows `t − 2` and `t − 1`, and so on, two rows a turn
//! ([`RowKernel::pair`], which lets a kernel share the work two rows have in common): each
//! intermediate step keeps only a ring of four rows, which stays in cache, so `n` steps
//! read the map and write it once instead of `n` times. (One row a turn with a ring of
//! three until the seventh round of the step: docs/PERFORMANCE.md.) The rows of every step
//! are computed by the same [`RowKernel`] as a single step,
//! in the same order per cell, so the result is bit-identical to `n` single steps. The
//! pipeline is written once for every kernel (portable, AVX-512): each brings its own row
//! function and form of wall data through [`RowKernel`], defined here with the per-step
//! constants ([`Coefs`]) it reads, so the kernels depend on the pipeline and not the other
//! way round. A single step is a pass of one step (except on the AVX-512 kernel, which
//! runs it without rings, [`single`](super::single), or on maps beyond the L2 in place,
//! [`in_place`](super::in_place)); it too goes two rows at a time, which on maps beyond the
//! caches keeps more of memory's requests in flight.
//!
//! A band of output rows (for a thread) computes, for step `l` of `n`, `n − l` more rows on
//! each side (its halo, recomputed by its neighbours too), so bands need nothing from each
//! other and their results do not depend on where the bands are cut.
//!
//! Seeds: the caller writes them into the input before step 1; before each later step they
//! are written into the previous step's ring row as it is completed — exactly what
//! `write_seeds` then a single step, `n` times, does.

use std::ops::Range;

use super::apart;
use super::diffuse::{Diffusion, Rule};
use super::seed::Seed;
use crate::space::{Grid, WallsTag};

/// A row function and the form of wall data it reads, so that one pipeline serves every
/// instruction set. Each keeps, per row in flight, `mask_len(width)` words made from the
/// row's walls by `fill`; a row of zero words stands for blocked cells beyond the
/// grid. A kernel that needs CPU features is a value only when the CPU has them.
pub(super) trait RowKernel: Copy {
    /// The decay kind the kernel steps by.
    type Rule: Rule;
    /// The per-step constants, the values `clean` or not.
    #[inline(always)]
    fn coefs(&self, grid: &Grid, d: &Diffusion, clean: bool) -> Coefs {
        Coefs::new::<Self::Rule>(grid, d, clean)
    }
    /// Words of wall data per row.
    fn mask_len(&self, width: usize) -> usize;
    /// Which form of wall data `fill` writes, if it is compact enough (a few bits a cell) to
    /// keep for a whole band of rows from step to step ([`single`](super::single)): kernels
    /// with the same layout write the same words, from the walls of the row and the row below
    /// only (what the kept data is checked against). `None` when it is as large as the map.
    fn layout(&self) -> Option<usize>;
    /// The wall data of row `y` (inside the grid), from the grid's walls in whichever form
    /// suits the kernel.
    fn fill(&self, grid: &Grid, y: usize, out: &mut [u32]);
    /// One row of a step into `out`, from the rows of values and of wall data above, here
    /// and below.
    fn row(&self, values: [&[f32]; 3], masks: [&[u32]; 3], out: &mut [f32], k: &Coefs, hints: Hints);
    /// Two rows of a step into `out`, from the rows of values and of wall data above the
    /// first, the two, and below the second: the two [`row`](Self::row)s, unless the kernel
    /// shares the work the two have in common. `kept`, if any, is a row the kernel keeps
    /// from each pair of a step to the pair below it (see [`Carry`]).
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
        let _ = kept;
        two_rows(self, values, masks, out, k, hints);
    }
    /// Two rows of a step written over themselves ([`in_place`](super::in_place)): `rows`
    /// from their own values and the rows `around` them (above the first, below the
    /// second), the second row's old values left in `saved.second` for the pair below.
    /// [`pair`](Self::pair) from copies ([`saved_pair`]), unless the kernel saves the values
    /// as it reads them.
    #[inline(always)]
    fn pair_in_place(
        &self,
        around: [&[f32]; 2],
        rows: [&mut [f32]; 2],
        saved: Saved<'_>,
        masks: [&[u32]; 4],
        k: &Coefs,
        hints: Hints,
    ) {
        saved_pair(self, around, rows, saved, masks, k, hints);
    }
    /// The rows of a single step ([`single`](super::single)) into `out`, one after another
    /// with [`row`](Self::row) unless the kernel runs them in one loop of its own.
    #[inline(always)]
    fn band(&self, band: &Band<'_>, out: &mut [f32], k: &Coefs) {
        band.each(out, |values, masks, out, hints| self.row(values, masks, out, k, hints));
    }
}

/// [`RowKernel::pair`] as two [`RowKernel::row`]s.
#[inline(always)]
pub(super) fn two_rows<K: RowKernel>(
    kernel: &K,
    values: [&[f32]; 4],
    masks: [&[u32]; 4],
    [first, second]: [&mut [f32]; 2],
    k: &Coefs,
    hints: Hints,
) {
    kernel.row([values[0], values[1], values[2]], [masks[0], masks[1], masks[2]], first, k, hints);
    // The row to prefetch for the second is the one after the first's (none stays none).
    let ahead = if hints.ahead.is_null() { hints.ahead } else { hints.ahead.wrapping_add(first.len()) };
    let hints = Hints { ahead, ..hints };
    kernel.row([values[1], values[2], values[3]], [masks[1], masks[2], masks[3]], second, k, hints);
}

/// A row, as wide as the map, that a kernel keeps from each pair of rows of a step to the
/// pair below it ([`RowKernel::pair`], [`RowKernel::pair_in_place`]): what the pair leaves
/// there for the next (the AVX2 kernel's boundary: the 8-neighbour diagonals two pairs
/// share), or scratch.
#[derive(Debug)]
pub(super) struct Carry<'a> {
    pub row: &'a mut [f32],
    /// Whether `row` holds what the pair just above (in the same step) left there: not for
    /// a step's first pair in a band or a pass.
    pub carried: bool,
}

/// The rows a pair stepped in place keeps for the pair below it
/// ([`RowKernel::pair_in_place`]).
#[derive(Debug)]
pub(super) struct Saved<'a> {
    /// The kernel's own row.
    pub kept: Carry<'a>,
    /// The second row's old values, left for the pair below.
    pub second: &'a mut [f32],
    /// Whether the band has runs of walls ([`runs_of_walls`]), which a kernel may skip.
    pub walled: bool,
    /// Whether every blocked cell of the two rows holds +0 already, so that a kernel
    /// skipping walls need not write them.
    pub zeroed: bool,
}

/// [`RowKernel::pair_in_place`] as copies of the two rows (into the kept row and
/// `saved.second`), then [`RowKernel::pair`] from them.
#[inline(always)]
pub(super) fn saved_pair<K: RowKernel>(
    kernel: &K,
    [above, below]: [&[f32]; 2],
    [one, two]: [&mut [f32]; 2],
    saved: Saved<'_>,
    masks: [&[u32]; 4],
    k: &Coefs,
    hints: Hints,
) {
    let Saved { kept: Carry { row: first, .. }, second, .. } = saved;
    first.copy_from_slice(one);
    second.copy_from_slice(two);
    kernel.pair([above, first, second, below], masks, [one, two], None, k, hints);
}

/// The constants of one step on one grid.
#[derive(Debug, Clone, Copy)]
pub(super) struct Coefs {
    pub(super) straight: f32,
    pub(super) diagonal: f32,
    pub(super) momentum: f32,
    pub(super) threshold: f32,
    /// Every value the step reads is finite and at least +0, never −0 (a propagator knows
    /// when, see [`Bound`](super::bound::Bound)). The step's guards against other values
    /// then change nothing, and a kernel may skip them; its outputs are clean too.
    pub(super) clean: bool,
}

impl Coefs {
    /// The constants of a step of `d` on `grid` by rule `R`, the values `clean` or not.
    pub(super) fn new<R: Rule>(grid: &Grid, d: &Diffusion, clean: bool) -> Self {
        Self {
            straight: R::coef(d.decay(), grid.cell_size()),
            diagonal: R::coef(d.decay(), grid.cell_size() * std::f32::consts::SQRT_2),
            momentum: d.momentum(),
            threshold: d.threshold(),
            clean,
        }
    }

    /// Whether a diagonal's carry of a value at least +0 is never above the straight one's,
    /// so that a kernel may let a straight neighbour into a maximum of diagonals (the
    /// AVX-512 kernel's spans, the AVX2 kernel's boundaries) without changing the rule's
    /// bits. A step's constants always hold it (the diagonal is the longer distance), but
    /// they come from `exp`, whose monotony no standard promises, so the kernels ask.
    pub(super) fn spans_hold<R: Rule>(&self) -> bool {
        if R::LINEAR {
            self.diagonal >= self.straight
        } else {
            self.diagonal <= self.straight
        }
    }
}

/// What a kernel may do about memory beyond computing a row.
#[derive(Debug, Clone, Copy)]
pub(super) struct Hints {
    /// A row to be read soon (or null), which the kernel may prefetch.
    pub ahead: *const f32,
    /// The row written will not be read again before it has left the caches, so the kernel
    /// may write it past them.
    pub stream: bool,
}

/// The rows of one single step and what they are computed from: the whole map, and the
/// wall data of rows `first..` (`len` words a row) with a row of zeros and one of blocked
/// cells' wall data for the rows beyond the grid.
#[derive(Clone, Copy)]
pub(super) struct Band<'a> {
    /// The whole map read.
    pub input: &'a [f32],
    pub width: usize,
    pub height: usize,
    /// The output rows, first and end.
    pub rows: (usize, usize),
    /// The wall data of rows `first..`, `len` words a row.
    pub walls: &'a [u32],
    pub first: usize,
    pub len: usize,
    /// A row of zeros and a row of blocked cells' wall data.
    pub zeros: &'a [f32],
    pub none: &'a [u32],
    /// Whether the grid has runs of walls worth skipping ([`runs_of_walls`]).
    pub walled: bool,
    /// Whether every blocked cell of `out` holds +0 already ([`Pass::zeroed`]).
    pub zeroed: bool,
}

/// Whether at least an eighth of the runs of 16 cells (from each row's start) of `grid`'s
/// rows `rows` are walls throughout, as in game levels cut from rock (a fifth to three
/// quarters of them on the Dragon Age maps of `data/maps`, none on a map with a tenth of
/// its cells walled at random): a kernel may then skip such runs, and elsewhere not look
/// for them.
pub(super) fn runs_of_walls(grid: &Grid, rows: Range<usize>) -> bool {
    let w = grid.width();
    let mut walls = 0;
    for y in rows.clone() {
        for (i, &word) in grid.free_bits(y).iter().enumerate() {
            // The runs inside the row, 16 bits each.
            let runs = (w - 64 * i).min(64) / 16;
            walls += (0..runs).filter(|r| (word >> (16 * r)) as u16 == 0).count();
        }
    }
    8 * walls >= rows.len() * (w / 16) && walls > 0
}

/// The parts a pair of rows of `chunks` chunks runs on a map with runs of walls, in order:
/// each from a chunk with a free cell in either row to the next run of two chunks with
/// none, or the row's end (a run of one is run with the part, rather than ending it and
/// paying for another part's call and ends).
pub(super) struct Parts {
    chunks: usize,
    at: usize,
}

impl Parts {
    /// The parts of a row of `chunks` chunks.
    pub(super) fn new(chunks: usize) -> Self {
        Self { chunks, at: 0 }
    }

    /// The next part and the chunks of walls before it, by whether a chunk has a free cell
    /// (`free`); at the row's end, the walls after the last part and an empty part; then
    /// `None`.
    #[inline(always)]
    pub(super) fn next(&mut self, free: impl Fn(usize) -> bool) -> Option<(Range<usize>, Range<usize>)> {
        let (at, chunks) = (self.at, self.chunks);
        if at >= chunks {
            return None;
        }
        let from = (at..chunks).find(|&c| free(c)).unwrap_or(chunks);
        let mut to = from;
        while to < chunks && (free(to) || (to + 1 < chunks && free(to + 1))) {
            to += 1;
        }
        self.at = to;
        Some((at..from, from..to))
    }
}

impl<'a> Band<'a> {
    /// The rows of values and of wall data above, at and below row `y`, and the hints for it.
    #[inline(always)]
    pub(super) fn around(&self, y: usize) -> ([&'a [f32]; 3], [&'a [u32]; 3], Hints) {
        let (w, h, input, walls, len) = (self.width, self.height, self.input, self.walls, self.len);
        let row = |y: usize| &input[y * w..][..w];
        let data = |y: usize| &walls[(y - self.first) * len..][..len];
        let (above, below) = (y.checked_sub(1), Some(y + 1).filter(|&y| y < h));
        // Rows beyond the grid hold zeros in blocked cells.
        let values = [above.map_or(self.zeros, row), row(y), below.map_or(self.zeros, row)];
        let masks = [above.map_or(self.none, data), data(y), below.map_or(self.none, data)];
        (values, masks, Hints { ahead: ahead(input, w, y), stream: input.len() >= STREAM_CELLS })
    }

    /// `row(values, masks, out, hints)` for each output row, with `out`'s row for it and the
    /// rows [`around`](Self::around) it: the one loop over a band's rows, inlined into each
    /// kernel's [`RowKernel::band`].
    #[inline(always)]
    pub(super) fn each(
        &self,
        out: &mut [f32],
        mut row: impl FnMut([&[f32]; 3], [&[u32]; 3], &mut [f32], Hints),
    ) {
        for (y, out) in (self.rows.0..self.rows.1).zip(out.chunks_exact_mut(self.width)) {
            let (values, masks, hints) = self.around(y);
            row(values, masks, out, hints);
        }
    }
}

/// The whole of `grid` as one [`Band`] for `kernel`, its wall data made for every row, read
/// by `f`: the kernels' tests ask a kernel for a step's rows through it.
#[cfg(test)]
pub(super) fn whole_band<K: RowKernel, T>(
    kernel: &K,
    grid: &Grid,
    input: &[f32],
    f: impl FnOnce(&Band<'_>) -> T,
) -> T {
    let (w, h) = (grid.width(), grid.height());
    let len = kernel.mask_len(w);
    let mut walls = vec![7; h * len];
    for (y, out) in walls.chunks_exact_mut(len).enumerate() {
        kernel.fill(grid, y, out);
    }
    let (zeros, none) = (vec![0.0; w], vec![0; len]);
    f(&Band {
        input,
        width: w,
        height: h,
        rows: (0, h),
        walls: &walls,
        first: 0,
        len,
        zeros: &zeros,
        none: &none,
        walled: runs_of_walls(grid, 0..h),
        zeroed: false,
    })
}

/// Ring rows reused from pass to pass (one per thread).
#[derive(Debug, Clone, Default)]
pub(super) struct Scratch {
    /// Four rows per intermediate step, then one row of zeros (or the rows an in-place step
    /// saves, [`in_place`](super::in_place)).
    pub(super) values: Vec<f32>,
    /// The masks of the rows in flight, then one row of zero masks (blocked).
    masks: Vec<u32>,
    /// The wall data a single step keeps.
    pub(super) kept: KeptWalls,
    /// The rows above and below a band stepped in place, saved before any band writes.
    pub(super) halo: Vec<f32>,
    /// The offsets a fused pass places its rows at ([`Places`]), by width, steps and the
    /// output's offset from the input.
    placed: apart::Memo<(usize, usize, usize), Offsets>,
    /// The offsets of the rows a step in place keeps, by width.
    pub(super) kept_at: apart::Memo<usize, [usize; 3]>,
}

impl Scratch {
    /// Bytes of ring rows held on the heap (for [`Propagator::heap_bytes`](super::Propagator::heap_bytes)).
    pub(super) fn heap_bytes(&self) -> usize {
        self.values.capacity() * std::mem::size_of::<f32>()
            + self.masks.capacity() * std::mem::size_of::<u32>()
            + self.halo.capacity() * std::mem::size_of::<f32>()
            + self.kept.heap_bytes()
    }
}

/// The wall data of a band's rows, kept from pass to pass (one per band of rows), in two
/// slots: a propagator's two buffers may sit at different offsets from a cache line, and the
/// AVX-512 kernel's wall data follows the offset of the buffer it reads, so steps alternate
/// between two forms of it.
#[derive(Debug, Clone, Default)]
pub(super) struct KeptWalls {
    pub(super) slots: [Kept; 2],
    /// The slot to make anew when neither matches.
    pub(super) next: usize,
}

/// One slot of [`KeptWalls`].
#[derive(Debug, Clone, Default)]
pub(super) struct Kept {
    /// What the data was made for: the kernel's layout, the first and end row of the data,
    /// and the walls (which name the grid's size too).
    pub(super) key: Option<([usize; 3], WallsTag)>,
    /// `mask_len(width)` words per row.
    pub(super) data: Vec<u32>,
    /// A row of zeros and a row of blocked cells' wall data, for the rows beyond the grid.
    pub(super) zeros: Vec<f32>,
    pub(super) none: Vec<u32>,
    /// Whether the grid has runs of walls worth skipping ([`runs_of_walls`]).
    pub(super) walled: bool,
}

impl KeptWalls {
    /// Bytes held on the heap.
    pub(super) fn heap_bytes(&self) -> usize {
        self.slots
            .iter()
            .map(|s| {
                (s.data.capacity() + s.none.capacity()) * std::mem::size_of::<u32>()
                    + s.zeros.capacity() * std::mem::size_of::<f32>()
            })
            .sum()
    }
}

/// The most steps [`fused`] takes in one pass.
pub(super) const MAX_FUSED: usize = 16;

/// The most steps fused in one pass over a grid `width` cells wide: enough to make the pass's
/// memory traffic small beside the arithmetic, few enough that the rings (four rows per
/// step) stay within half of the core's L2 cache ([`l2_bytes`](crate::simd::l2_bytes)),
/// beside the input's and output's rows: 16 steps at 4096 cells wide with a 2 MiB L2 (an
/// Intel Xeon core), 8 with 1 MiB (AMD's Zen 4 and 5). With rings of three rows, 8 steps
/// a pass at 4096² ran as fast as 16 on Zen 5 (docs/PERFORMANCE.md).
pub(super) fn max_fused(width: usize) -> usize {
    (crate::simd::l2_bytes() / 2 / (16 * width.max(1))).clamp(2, MAX_FUSED)
}

/// How many rows below the one it computes the first step asks for the input's rows (the
/// AVX-512 kernel's streamed rows too).
pub(super) const AHEAD: usize = 3;

/// Where a pass reading row `y` of `input` (`w` cells a row) asks for the input's rows
/// ahead ([`Hints::ahead`]): on maps larger than the caches, rows of the input come from
/// memory, so they are asked for a few rows early; null on smaller maps and past the end.
#[inline(always)]
fn ahead(input: &[f32], w: usize, y: usize) -> *const f32 {
    match input.get((y + AHEAD) * w..) {
        Some(row) if prefetched(input.len()) => row.as_ptr(),
        _ => std::ptr::null(),
    }
}

/// Whether a map of `cells` cells is prefetched: when its two layers (a step's input and
/// output) take more than half of the core's L2 cache ([`l2_bytes`](crate::simd::l2_bytes)).
/// Smaller maps stay in the L2 whole, where a prefetch per chunk only takes a load's place
/// (at 256² with Zen 5's 1 MiB L2); larger ones come partly from further out. On an Intel
/// Xeon core (2 MiB L2), from 384² to 530 × 481 single steps ran 12–16 % faster prefetched
/// (448², 4 neighbours: 0.140 ns a cell against 0.165), where a fixed 2¹⁸ cells (a 1 MiB
/// layer, from Zen 5) left them out.
pub(super) fn prefetched(cells: usize) -> bool {
    8 * cells > crate::simd::l2_bytes() / 2
}

/// Maps of at least this many cells (a 16 MiB layer, or 2048 × 2048) have their pass's
/// output written past the caches (non-temporal stores, where the kernel has them): the
/// input, the output and the walls no longer fit in a typical last-level cache, so the
/// output would only evict the input, and an ordinary store reads each line before writing
/// it — a third of a step's memory traffic, saved.
pub(super) const STREAM_CELLS: usize = 1 << 22;

/// Writes the wall data of row `y` (if in the grid) into its slot of a ring of `depth` rows
/// (a power of two) of `len` words. A function, not a closure, so that it is inlined and
/// compiled for the caller's target features.
#[inline(always)]
fn fill_masks<K: RowKernel>(kernel: K, ring: &mut [u32], grid: &Grid, y: usize, depth: usize, len: usize) {
    if y < grid.height() {
        kernel.fill(grid, y, &mut ring[(y & (depth - 1)) * len..][..len]);
    }
}

/// One pass: `steps` (≥ 1) steps of the output rows `rows`, from `input` (the whole map, with
/// the seeds of the first step written), writing the walkable `seeds` (sorted by cell)
/// before each later step. Blocked cells of `input` must hold values ≤ 0. With `clean`,
/// every value of `input` and every seed's strength is finite and at least +0 (not −0),
/// and their sums stay finite (see [`Coefs::clean`]). With `zeroed`, every blocked cell of
/// the output rows holds +0 already (a propagator knows when), so that a kernel may leave
/// runs of walls unwritten.
#[derive(Debug, Clone)]
pub(super) struct Pass<'a> {
    pub grid: &'a Grid,
    pub diffusion: &'a Diffusion,
    pub input: &'a [f32],
    pub rows: Range<usize>,
    pub steps: usize,
    pub seeds: &'a [Seed],
    pub clean: bool,
    pub zeroed: bool,
}

/// Runs `pass` into `out` (its output rows only) with `kernel`.
///
/// Each turn, every step computes two rows ([`RowKernel::pair`]): step `l` (1-based) the
/// rows `t + 1 − l` and `t + 2 − l` at turn `t`, from the rows of step `l − 1` around them,
/// the newer two of which step `l − 1` computed in the same turn. Each intermediate step
/// keeps a ring of four rows. A pair of which only one row is in its step's span (at a
/// span's ends) is one [`RowKernel::row`].
#[inline(always)]
pub(super) fn fused<K: RowKernel>(kernel: K, pass: &Pass<'_>, out: &mut [f32], scratch: &mut Scratch) {
    let Pass { grid, diffusion, input, ref rows, steps, seeds, clean, zeroed: _ } = *pass;
    let (w, h) = (grid.width(), grid.height());
    assert!((1..=MAX_FUSED).contains(&steps), "1 to {MAX_FUSED} steps per pass");
    debug_assert!(rows.end <= h && out.len() == rows.len() * w);
    let k = &kernel.coefs(grid, diffusion, clean);
    // Whether this pass's output goes past the caches (the intermediate rings never do).
    let stream = input.len() >= STREAM_CELLS;
    let len = kernel.mask_len(w);
    let ring = RING * w;
    // Mask rows in flight (step 1 needs t+2, step `steps` t−steps), rounded up to a power
    // of two: a row's slot is then a mask, not a division, several times a row.
    let depth = (steps + 3).next_power_of_two();
    scratch.masks.clear();
    scratch.masks.resize((depth + 1) * len, 0);
    let (mask_rings, no_masks) = scratch.masks.split_at_mut(depth * len);
    // Each intermediate step's ring, then a row of zeros, then each step's row carried from
    // pair to pair ([`Carry`]), each placed apart from the rows read and written beside it.
    let output = out.as_ptr().wrapping_sub(rows.start * w);
    let (places, values) = Places::carve(&mut scratch.values, &mut scratch.placed, w, steps, input, output);
    let (rings, rest) = values.split_at_mut(places.zeros);
    let (zeros, carries) = rest.split_at_mut(w);
    let (zeros, no_masks): (&[f32], &[u32]) = (zeros, no_masks);
    // The row after each step's last pair, whose carried row that pair filled.
    let mut filled_to = [None; MAX_FUSED + 1];

    // Step `l` (1-based) computes rows `span(l)`: the band plus its halo for the steps after.
    let span = |l: usize| rows.start.saturating_sub(steps - l)..(rows.end + steps - l).min(h);
    let first = span(1).start;
    if first > 0 {
        fill_masks(kernel, mask_rings, grid, first - 1, depth, len);
    }
    fill_masks(kernel, mask_rings, grid, first, depth, len);

    // Where each step's seeds for its next row start (the steps after the first).
    let mut next_seed = [0; MAX_FUSED + 1];
    // At turn t, step l computes rows t + 1 − l and t + 2 − l.
    for t in (first..rows.end + steps - 1).step_by(2) {
        fill_masks(kernel, mask_rings, grid, t + 1, depth, len);
        fill_masks(kernel, mask_rings, grid, t + 2, depth, len);
        for l in 1..=steps {
            // The rows of this step's pair inside its span, as (first row, how many).
            let span = span(l);
            let inside = |y: Option<usize>| y.filter(|y| span.contains(y));
            let (y, n) = match (inside((t + 1).checked_sub(l)), inside((t + 2).checked_sub(l))) {
                (Some(y), Some(_)) => (y, 2),
                (Some(y), None) | (None, Some(y)) => (y, 1),
                (None, None) => continue,
            };
            let m = |y: Option<usize>| {
                y.filter(|&y| y < h).map_or(no_masks, |y| &mask_rings[(y & (depth - 1)) * len..][..len])
            };
            let masks = [m(y.checked_sub(1)), m(Some(y)), m(Some(y + 1)), m(Some(y + 2))];
            // Step l reads the ring of step l − 1 (or the input) and writes its own ring.
            let (before, after) = rings.split_at_mut(places.rings[l - 1]);
            let before: &[f32] = before;
            let prev = |y: Option<usize>| match y.filter(|&y| y < h) {
                None => zeros,
                Some(y) if l == 1 => &input[y * w..][..w],
                Some(y) => &before[places.rings[l - 2] + (y % RING) * w..][..w],
            };
            let values = [prev(y.checked_sub(1)), prev(Some(y)), prev(Some(y + 1)), prev(Some(y + 2))];
            // Only the first step reads the input.
            let ahead = if l == 1 { ahead(input, w, y) } else { std::ptr::null() };
            let hints = Hints { ahead, stream: stream && l == steps };
            // The rows written: the output's in the last step, else this step's ring rows
            // (where a pair's second row may be the ring's first).
            let (target, base, slots) =
                if l == steps { (&mut *out, rows.start, usize::MAX) } else { (&mut after[..ring], 0, RING) };
            let row = |y: usize| (y - base) % slots * w..((y - base) % slots + 1) * w;
            if n == 2 {
                let [one, two] = target.get_disjoint_mut([row(y), row(y + 1)]).expect("two rows");
                let row = &mut carries[places.carries[l - 1]..][..w];
                let carry = Carry { row, carried: filled_to[l] == Some(y) };
                kernel.pair(values, masks, [one, two], Some(carry), k, hints);
                filled_to[l] = Some(y + 2);
            } else {
                filled_to[l] = None;
                let (values, masks) = ([values[0], values[1], values[2]], [masks[0], masks[1], masks[2]]);
                kernel.row(values, masks, &mut target[row(y)], k, hints);
            }
            if l < steps {
                // Each step meets its rows in order: its seeds are a moving window.
                for y in y..y + n {
                    let dst = &mut after[(y % RING) * w..][..w];
                    let next = &mut next_seed[l];
                    while seeds.get(*next).is_some_and(|s| s.cell < y * w) {
                        *next += 1;
                    }
                    for s in seeds[*next..].iter().take_while(|s| s.cell < (y + 1) * w) {
                        dst[s.cell - y * w] = s.mode.apply(dst[s.cell - y * w], s.strength);
                    }
                }
            }
        }
    }
}

/// Where a fused pass's scratch rows lie in [`Scratch::values`]: each intermediate step's
/// ring, then the row of zeros, then each step's carried row. Each ring lies apart
/// ([`apart`]) from the rows its step reads (the ring before, or the input) and the rows the
/// next step writes (the next ring, or the output); each carried row from the rows its step
/// reads and writes. For maps a multiple of 256 cells wide, where every fourth row of the
/// map starts at the same offset within 4 KiB, this keeps the input's and output's rows
/// apart from the rings' too; for others only the rings from each other.
struct Places {
    /// Where the ring of step `l` (from index 0) starts; for the last step, which writes
    /// none, the row of zeros, after the rings.
    rings: [usize; MAX_FUSED],
    /// Where the row of zeros starts, after the rings.
    zeros: usize,
    /// Where the carried row of step `l` (from index 0) starts, from the end of the row of
    /// zeros.
    carries: [usize; MAX_FUSED],
}

impl Places {
    /// The scratch rows of a pass of `steps` over rows `w` cells long, from the map `input`
    /// to the one whose row 0 is (or would be) at `output`, in `buffer`, zeroed, with the
    /// offsets found before in `placed`.
    fn carve<'a>(
        buffer: &'a mut Vec<f32>,
        placed: &mut apart::Memo<(usize, usize, usize), Offsets>,
        w: usize,
        steps: usize,
        input: &[f32],
        output: *const f32,
    ) -> (Self, &'a mut [f32]) {
        let origin = input.as_ptr();
        let to = apart::offset(output, origin);
        let (written, carried) = placed.get((w, steps, to), || Self::offsets(w, steps, to));
        // The rings, the row of zeros and the carried rows: 2 × steps rows to place.
        let cells = (steps - 1) * RING * w + w + steps * w;
        let mut placer = apart::Placer::new(buffer, cells, 2 * steps, origin);
        let mut places = Self { rings: [0; MAX_FUSED], zeros: 0, carries: [0; MAX_FUSED] };
        for (ring, &at) in places.rings.iter_mut().zip(&written[1..steps]) {
            *ring = placer.place(at, RING * w);
        }
        places.zeros = placer.place(0, w);
        // The last step writes no ring: the rings before it end by the row of zeros.
        places.rings[steps - 1] = places.zeros;
        for (row, &at) in places.carries.iter_mut().zip(&carried[..steps]) {
            *row = placer.place(at, w) - (places.zeros + w);
        }
        (places, buffer.as_mut_slice())
    }

    /// The offsets (mod 4 KiB from the input's) of the rows each step writes, from step 0
    /// (the input) to the last (the output, at `to`), and of each step's carried row: each
    /// ring clear of the rows before it (and the last of the output too), each carried row
    /// of the rows its step reads and writes.
    fn offsets(w: usize, steps: usize, to: usize) -> Offsets {
        let mut written = [to; MAX_FUSED + 1];
        written[0] = 0;
        for l in 1..steps {
            let next = if l + 1 == steps { to } else { written[l - 1] };
            written[l] = apart::clear_of(&[written[l - 1], next], w);
        }
        let mut carried = [0; MAX_FUSED];
        for (at, rows) in carried.iter_mut().zip(written[..=steps].windows(2)) {
            *at = apart::clear_of(rows, w);
        }
        (written, carried)
    }
}

/// The offsets of a fused pass's rows ([`Places::offsets`]).
type Offsets = ([usize; MAX_FUSED + 1], [usize; MAX_FUSED]);

/// Rows in each intermediate step's ring: the two a turn writes, and the two before them,
/// which the next step still reads.
const RING: usize = 4;
