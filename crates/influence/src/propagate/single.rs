//! One step in a pass with no rings: each output row straight from three input rows, with
//! the wall data of every row kept from step to step.
//!
//! A fused pipeline ([`fused`](super::fused)) of one step spends, per row, as long on its
//! bookkeeping and on making the row's wall data as a 256-cell row spends on its cells. A
//! single step needs no rings, and its wall data changes only with the walls: kernels whose
//! wall data is compact (a few bits a cell, [`RowKernel::layout`]) make it once for the rows
//! of a band and keep it ([`KeptWalls`]) with the tag of the walls it was made from
//! ([`Grid::walls_tag`]), and make it again only when the grid's tag differs (its walls
//! changed, or it is another grid), or when the kernel or the band changed. Comparing the
//! grid's free-cell bits instead (an eighth of a byte a cell) took 2–3 % of an 8-neighbour
//! step at 1024². The rows are handed to the kernel as one [`Band`], which the AVX-512 and
//! AVX2 kernels each run in one function of their own ([`RowKernel::band`]), a row or pair
//! inlined: a call per row cost about a tenth of a 256-cell row's time.

use std::ops::Range;

use super::fused::{Band, KeptWalls, Pass, RowKernel};
use crate::space::Grid;

/// Maps of more cells than this (a 4 MiB layer) step through the pipeline: beyond the
/// second-level cache, kept wall data is one more stream from memory, and the pipeline's
/// work per row is small beside the row's.
pub(super) const KEEP_CELLS: usize = 1 << 20;

impl KeptWalls {
    /// The wall data of `rows` for `kernel` (made of `layout`), made anew unless kept; then
    /// a row of zeros and one of blocked cells' wall data.
    #[inline(always)]
    pub(super) fn get<K: RowKernel>(
        &mut self,
        kernel: K,
        layout: usize,
        grid: &Grid,
        rows: Range<usize>,
    ) -> (&[u32], &[f32], &[u32], bool) {
        let w = grid.width();
        // The tag names the grid's walls, and with them its size.
        let key = Some(([layout, rows.start, rows.end], grid.walls_tag()));
        let i = self.slots.iter().position(|s| s.key == key).unwrap_or_else(|| {
            self.next ^= 1;
            self.next ^ 1
        });
        let slot = &mut self.slots[i];
        if slot.key != key {
            let len = kernel.mask_len(w);
            slot.data.clear();
            slot.data.resize(rows.len() * len, 0);
            for (y, out) in rows.clone().zip(slot.data.chunks_exact_mut(len)) {
                kernel.fill(grid, y, out);
            }
            slot.key = key;
            slot.zeros.clear();
            slot.zeros.resize(w, 0.0);
            slot.none.clear();
            slot.none.resize(len, 0);
            slot.walled = super::fused::runs_of_walls(grid, rows);
        }
        (&slot.data, &slot.zeros, &slot.none, slot.walled)
    }
}

/// Runs `pass`, of one step, into `out` with `kernel` and the wall data kept in `kept`, if
/// the kernel's wall data is compact and the map small enough to keep it; else returns
/// `false` and does nothing.
#[inline(always)]
pub(super) fn single<K: RowKernel>(
    kernel: K,
    pass: &Pass<'_>,
    out: &mut [f32],
    kept: &mut KeptWalls,
) -> bool {
    let Pass { grid, diffusion, input, ref rows, steps, seeds: _, clean, zeroed } = *pass;
    let Some(layout) = kernel.layout() else { return false };
    if steps != 1 || input.len() > KEEP_CELLS || rows.is_empty() {
        return false;
    }
    let (w, h) = (grid.width(), grid.height());
    let k = &kernel.coefs(grid, diffusion, clean);
    // Wall data of the output rows and the row either side (within the grid).
    let first = rows.start.saturating_sub(1);
    let (walls, zeros, none, walled) = kept.get(kernel, layout, grid, first..(rows.end + 1).min(h));
    let len = kernel.mask_len(w);
    let band = Band {
        input,
        width: w,
        height: h,
        rows: (rows.start, rows.end),
        walls,
        first,
        len,
        zeros,
        none,
        walled,
        zeroed,
    };
    kernel.band(&band, out, k);
    true
}

#[cfg(test)]
mod tests {
    use super::super::diffuse::{generic_step as generic, Diffusion};
    use super::super::dispatch;
    use super::super::fused::{Pass, Scratch};
    use super::super::in_place::InPlace;
    use super::super::{Propagator, Seed, Steps};
    use crate::space::{Connectivity, Grid, Space};
    use crate::test_rng::xorshift;
    use crate::Cell;

    fn bits(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// Single steps on grids whose walls change between steps (or that are swapped for
    /// another grid of the same size) give the generic rule's bits: kept wall data is made
    /// again whenever the walls it was made from differ.
    #[test]
    fn kept_walls_follow_every_change_of_the_grid() {
        let specials = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, -0.0, 0.0, 1e-5];
        for (w, h) in [(1, 1), (2, 3), (17, 5), (63, 4), (64, 40), (65, 3), (130, 7)] {
            for conn in [Connectivity::Four, Connectivity::Eight] {
                for d in [Diffusion::new(0.3, 0.5).unwrap(), Diffusion::linear(0.2, 0.8).unwrap()] {
                    let mut next = xorshift((w * 1000 + h) as u64);
                    let mut grids = [0, 1].map(|_| Grid::new(w, h).unwrap().with_connectivity(conn));
                    for grid in &mut grids {
                        for i in 0..w * h {
                            grid.set_blocked(Cell::new(i % w, i / w), next().is_multiple_of(5)).unwrap();
                        }
                    }
                    let mut p = Propagator::new(&grids[0], d);
                    for round in 0..12 {
                        let which = usize::from(round % 5 == 4);
                        if round % 3 == 1 {
                            // A few walls move.
                            for _ in 0..3 {
                                let i = (next() % (w * h) as u64) as usize;
                                let blocked = grids[which].is_blocked(Cell::new(i % w, i / w));
                                grids[which].set_blocked(Cell::new(i % w, i / w), !blocked).unwrap();
                            }
                        }
                        let grid = &grids[which];
                        for v in p.values_mut().values_mut() {
                            *v = match next() % 6 {
                                0 => specials[(next() % specials.len() as u64) as usize],
                                _ => (next() % 1000) as f32 / 100.0,
                            };
                        }
                        let want = generic(grid, p.values().values(), &d);
                        let parallel = round % 2 == 1;
                        p.step(grid, Steps { parallel, ..Steps::default() }).unwrap();
                        assert_eq!(
                            bits(p.values().values()),
                            bits(&want),
                            "{w}×{h}, {conn:?}, {d:?}, round {round}"
                        );
                    }
                }
            }
        }
    }

    /// A propagator's layers (on cache lines), where the AVX-512 kernel runs the rows between
    /// the first and the last as plain loops from each row's start, two at a time with 8
    /// neighbours: the generic rule's bits, on one band and on several, on widths a multiple
    /// of 16 and others, with walls at the rows' ends and special values beside them.
    #[test]
    fn streamed_rows_give_the_generic_bits() {
        let specials = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, -0.0, 0.0, 1e-5];
        let even =
            [(16, 1), (16, 2), (16, 3), (32, 7), (48, 4), (64, 9), (80, 5), (128, 33), (256, 70), (512, 256)];
        let uneven = [(1, 5), (7, 4), (17, 6), (31, 3), (50, 9), (100, 8), (530, 12), (530, 260)];
        for (w, h) in even.into_iter().chain(uneven) {
            for conn in [Connectivity::Four, Connectivity::Eight] {
                for d in [Diffusion::new(0.3, 0.5).unwrap(), Diffusion::linear(0.2, 0.8).unwrap()] {
                    let mut next = xorshift((w * 31 + h) as u64);
                    let mut grid = Grid::new(w, h).unwrap().with_connectivity(conn);
                    for i in 0..w * h {
                        // Walls often at the rows' ends, where one row's chunks meet the next's.
                        let end = i % w == 0 || i % w == w - 1;
                        let blocked = next().is_multiple_of(if end { 2 } else { 5 });
                        grid.set_blocked(Cell::new(i % w, i / w), blocked).unwrap();
                    }
                    let mut p = Propagator::new(&grid, d);
                    for round in 0..4 {
                        assert_eq!(p.values().values().as_ptr() as usize % 64, 0, "a layer on a cache line");
                        for v in p.values_mut().values_mut() {
                            *v = match next() % 6 {
                                0 => specials[(next() % specials.len() as u64) as usize],
                                _ => (next() % 1000) as f32 / 100.0,
                            };
                        }
                        let want = generic(&grid, p.values().values(), &d);
                        p.step(&grid, Steps { parallel: round % 2 == 1, ..Steps::default() }).unwrap();
                        assert_eq!(
                            bits(p.values().values()),
                            bits(&want),
                            "{w}×{h}, {conn:?}, {d:?}, round {round}"
                        );
                    }
                }
            }
        }
    }

    /// Maps mostly of walls, as game levels are (rooms cut in rock): rows whose free cells
    /// start and end anywhere, rows of walls only, pairs of rows whose free parts differ
    /// from the pair above's. Random walls (the other tests) leave every chunk of 8 or 16
    /// cells mixed; these make runs of walls and of open cells, which the AVX-512 and AVX2
    /// single steps skip ([`runs_of_walls`](super::super::fused::runs_of_walls)). Steps of
    /// a propagator (whose buffers may hold values from before a room was walled up, by an
    /// edit or without one), passes into an output of garbage (told or not that its walls
    /// hold +0), and steps in place, in bands cut anywhere, give the generic rule's bits,
    /// clean values and not.
    #[test]
    fn maps_mostly_of_walls_give_the_generic_bits() {
        let specials = [f32::NAN, f32::INFINITY, -1.0, -0.0, 1e-5];
        for (w, h) in [(16, 6), (64, 40), (100, 37), (256, 64), (530, 21), (48, 300)] {
            for conn in [Connectivity::Eight, Connectivity::Four] {
                for d in [Diffusion::new(0.3, 0.5).unwrap(), Diffusion::linear(0.2, 0.8).unwrap()] {
                    let mut next = xorshift((w * 7919 + h) as u64);
                    let mut below = |n: usize| (next() % n as u64) as usize;
                    let mut grid = Grid::new(w, h).unwrap().with_connectivity(conn);
                    for i in 0..w * h {
                        grid.set_blocked(Cell::new(i % w, i / w), true).unwrap();
                    }
                    // Rooms of 1 to 40 cells by 1 to 6, anywhere, walled up or cut.
                    let mut room = |grid: &mut Grid, blocked: bool| {
                        let (x, y, rw, rh) = (below(w), below(h), 1 + below(40), 1 + below(6));
                        for cy in y..(y + rh).min(h) {
                            for cx in x..(x + rw).min(w) {
                                grid.set_blocked(Cell::new(cx, cy), blocked).unwrap();
                            }
                        }
                    };
                    for _ in 0..(w * h / 150).max(3) {
                        room(&mut grid, false);
                    }
                    let mut p = Propagator::new(&grid, d);
                    let mut scratch = Scratch::default();
                    // The in-place steps' scratch, kept from round to round as a
                    // propagator keeps it.
                    let mut in_place = [Scratch::default(), Scratch::default()];
                    for round in 0..9 {
                        let raw = round % 2 == 1;
                        if round % 3 == 0 {
                            room(&mut grid, round % 2 == 0);
                            // Fresh values, with specials among them every other time.
                            let mut fresh = xorshift(round as u64 + 1);
                            for v in p.values_mut().values_mut() {
                                *v = match fresh() % 8 {
                                    0 if raw => specials[(fresh() % specials.len() as u64) as usize],
                                    _ => (fresh() % 1000) as f32 / 100.0,
                                };
                            }
                        } else if round % 3 == 1 {
                            // A room walled up between steps, the map not touched: the step
                            // clears the new walls by itself.
                            room(&mut grid, true);
                        }
                        // What the step reads: walls cleared after an edit by hand or a
                        // change of walls.
                        let mut input = crate::Layer::zeros(w * h);
                        for (i, v) in input.values_mut().iter_mut().enumerate() {
                            *v = if grid.blocked()[i] { 0.0 } else { p.values().values()[i] };
                        }
                        let want = bits(&generic(&grid, input.values(), &d));
                        // A pass into garbage, in two bands cut at any row; every other
                        // time with +0 in the walls, which the pass is then told.
                        let cut = round * 7 % (h + 1);
                        let zeroed = round % 2 == 0;
                        let mut out: Vec<f32> =
                            (0..w * h).map(|i| if zeroed && grid.blocked()[i] { 0.0 } else { 9.0 }).collect();
                        let (top, bottom) = out.split_at_mut(cut * w);
                        for (rows, out) in [(0..cut, top), (cut..h, bottom)] {
                            let clean = input.values().iter().all(|v| v.is_finite() && v.is_sign_positive());
                            let pass = Pass {
                                grid: &grid,
                                diffusion: &d,
                                input: input.values(),
                                rows,
                                steps: 1,
                                seeds: &[],
                                clean,
                                zeroed,
                            };
                            dispatch::run(&pass, out, &mut scratch);
                        }
                        assert_eq!(bits(&out), want, "{w}×{h}, {conn:?}, {d:?}, round {round}, a pass");
                        // A step in place (where the kernels take one), in the same two
                        // bands, the map's walls +0 and told so, or −1.
                        if crate::simd::avx512() || crate::simd::avx2() {
                            // On a cache line, so that rows of widths a multiple of 16
                            // run in pairs too.
                            let mut layer = crate::Layer::zeros(w * h);
                            for (i, v) in layer.values_mut().iter_mut().enumerate() {
                                *v = if grid.blocked()[i] && !zeroed { -1.0 } else { input.values()[i] };
                            }
                            let map = layer.values_mut();
                            let clean = map.iter().all(|v| v.is_finite() && v.is_sign_positive());
                            let bands = [0..cut, cut..h];
                            for (rows, s) in bands.iter().zip(&mut in_place) {
                                s.save_halo(map, w, h, rows);
                            }
                            let (top, bottom) = map.split_at_mut(cut * w);
                            for ((rows, band), s) in bands.into_iter().zip([top, bottom]).zip(&mut in_place) {
                                let step = InPlace { grid: &grid, diffusion: &d, rows, clean, zeroed };
                                dispatch::run_in_place(&step, band, s);
                            }
                            assert_eq!(bits(map), want, "{w}×{h}, {conn:?}, {d:?}, round {round}, in place");
                        }
                        p.step(&grid, Steps { parallel: raw, ..Steps::default() }).unwrap();
                        assert_eq!(
                            bits(p.values().values()),
                            want,
                            "{w}×{h}, {conn:?}, {d:?}, round {round}"
                        );
                    }
                }
            }
        }
    }

    /// A step done in slices whose grid gains walls between two slices leaves the
    /// propagator knowing no walls of its map to hold +0: the cells of the first slice were
    /// computed with those walls open. The next step clears them, and every step after
    /// gives the generic rule's bits.
    #[test]
    fn walls_closed_between_slices_are_cleared_after() {
        for conn in [Connectivity::Eight, Connectivity::Four] {
            let (w, h) = (96, 40);
            let mut grid = Grid::new(w, h).unwrap().with_connectivity(conn);
            // Rock, with one wide room: runs of walls, which the kernels skip.
            for i in 0..w * h {
                let (x, y) = (i % w, i / w);
                let open = (8..72).contains(&x) && (4..36).contains(&y);
                grid.set_blocked(Cell::new(x, y), !open).unwrap();
            }
            let d = Diffusion::new(0.3, 0.5).unwrap();
            let mut p = Propagator::new(&grid, d);
            let seeds = [Seed::new(20 * w + 40, 5.0), Seed::new(10 * w + 12, 3.0)];
            for _ in 0..6 {
                p.step(&grid, Steps { seeds: &seeds, ..Steps::default() }).unwrap();
            }
            // Half a step, then a wall across the room's top half, then the rest.
            assert!(!p.step(&grid, Steps { budget: 20 * w, ..Steps::default() }).unwrap());
            for x in 8..72 {
                grid.set_blocked(Cell::new(x, 10), true).unwrap();
            }
            assert!(p.step(&grid, Steps { budget: usize::MAX, ..Steps::default() }).unwrap());
            assert!(p.values().values()[10 * w + 12] > 0.0, "the wall's cells hold values");
            for round in 0..3 {
                let mut input = p.values().values().to_vec();
                for (i, v) in input.iter_mut().enumerate() {
                    if grid.blocked()[i] {
                        *v = 0.0;
                    }
                }
                let want = bits(&generic(&grid, &input, &d));
                p.step(&grid, Steps::default()).unwrap();
                assert_eq!(bits(p.values().values()), want, "{conn:?}, round {round}");
            }
        }
    }

    /// Inputs at every offset from a cache line, alternating as a propagator's two buffers
    /// may, on walls that change now and then: each pass gives the generic rule's bits.
    #[test]
    fn kept_walls_serve_inputs_at_any_offset() {
        for (w, h) in [(16, 3), (48, 5), (64, 2), (96, 9), (37, 4)] {
            for conn in [Connectivity::Four, Connectivity::Eight] {
                let mut next = xorshift((w * 77 + h) as u64);
                let mut grid = Grid::new(w, h).unwrap().with_connectivity(conn);
                for i in 0..w * h {
                    grid.set_blocked(Cell::new(i % w, i / w), next().is_multiple_of(4)).unwrap();
                }
                let d = Diffusion::new(0.4, 0.6).unwrap();
                let mut scratch = Scratch::default();
                let mut buffer = vec![0.0; w * h + 16];
                for round in 0..24 {
                    if round % 7 == 6 {
                        let i = (next() % (w * h) as u64) as usize;
                        let blocked = grid.is_blocked(Cell::new(i % w, i / w));
                        grid.set_blocked(Cell::new(i % w, i / w), !blocked).unwrap();
                    }
                    let offset = [0, 5, 0, 5, 11, 3][round % 6];
                    let input = &mut buffer[offset..][..w * h];
                    for (i, v) in input.iter_mut().enumerate() {
                        *v = if grid.is_walkable(i) { (next() % 1000) as f32 / 100.0 } else { 0.0 };
                    }
                    let input = &buffer[offset..][..w * h];
                    // The values are clean: the kernel may be told so, or not.
                    let clean = round % 2 == 0;
                    let pass = Pass {
                        grid: &grid,
                        diffusion: &d,
                        input,
                        rows: 0..h,
                        steps: 1,
                        seeds: &[],
                        clean,
                        zeroed: false,
                    };
                    let mut out = vec![9.0; w * h];
                    dispatch::run(&pass, &mut out, &mut scratch);
                    assert_eq!(
                        bits(&out),
                        bits(&generic(&grid, input, &d)),
                        "{w}×{h}, {conn:?}, round {round}"
                    );
                }
            }
        }
    }
}
