//! One step written over the map it reads, where the map is beyond the core's L2 cache.
//!
//! A step from one buffer into another reads the input, and its stores read each line of
//! the output before writing it: three lines move per line of the map. Stepping in place
//! moves two, the line read and the same line written back. The rows go two at a time
//! ([`RowKernel::pair_in_place`]), each pair from its own values, the map's row below it and
//! the old values of the row above it, which the pair above saved as it read them into a
//! ring of a few rows that stays in the L1 cache. The ring holds one more row, the kernel's
//! own from pair to pair ([`Carry`]): the AVX2 kernel leaves there the boundary below
//! a pair, the 8-neighbour diagonals it shares with the pair below (at 512², 0.309–0.316
//! ns a cell against 0.345 computing it again). Each cell sees the same values and
//! operations as in a step between two buffers, so the bits are the same.
//!
//! A band of rows (for a thread) reads the row above its first and the row below its last,
//! which its neighbours overwrite: [`Scratch::save_halo`] copies them for every band before
//! any band starts.
//!
//! On an Intel Xeon core (2 MiB L2), where a 1024² map (two 4 MiB layers) streams from the
//! L3 at about a copy's speed, a 4-neighbour step took 0.164 ns a cell in place against
//! 0.308 between two buffers, and an 8-neighbour one 0.246–0.251 against 0.314; the flat
//! loop between two buffers took 0.27–0.29 (docs/PERFORMANCE.md). Copying each pair's rows
//! first, rather than saving the second as the kernel reads it, took 0.174–0.179 and 0.264.
//! Beyond the last-level cache a step between two buffers writes past the caches
//! (non-temporal stores), which moves two lines too; in place was faster there as well:
//! 0.35–0.41 ns a cell against 0.49–0.51 at 4096² with 4 neighbours, 0.38–0.42 against 0.56
//! with 8, and at 2048² 0.22–0.24 against 0.44–0.45 (the two 16 MiB layers fit this
//! machine's L3, which the non-temporal stores pass by). The wall data of a whole band is
//! kept from step to step then too (a quarter of a byte a cell with 8 neighbours).

use std::ops::Range;

use super::apart;
use super::diffuse::Diffusion;
use super::fused::{prefetched, Carry, Hints, RowKernel, Saved, Scratch, AHEAD};
use crate::space::Grid;

impl Scratch {
    /// Saves the rows above and below `rows` of `values` (a map `width` cells wide and
    /// `height` high), zeros beyond the grid, for [`in_place`].
    pub(super) fn save_halo(&mut self, values: &[f32], width: usize, height: usize, rows: &Range<usize>) {
        let row = |y: usize| &values[y * width..][..width];
        self.halo.clear();
        match rows.start.checked_sub(1) {
            Some(y) => self.halo.extend_from_slice(row(y)),
            None => self.halo.resize(width, 0.0),
        }
        match Some(rows.end).filter(|&y| y < height) {
            Some(y) => self.halo.extend_from_slice(row(y)),
            None => self.halo.resize(2 * width, 0.0),
        }
    }
}

/// One step of a band of rows written over them ([`in_place`]): what a
/// [`Pass`](super::fused::Pass) is for a step between two buffers.
#[derive(Debug, Clone)]
pub(super) struct InPlace<'a> {
    pub grid: &'a Grid,
    pub diffusion: &'a Diffusion,
    /// The band's rows.
    pub rows: Range<usize>,
    /// Every value of the map is finite and at least +0 (see
    /// [`Coefs::clean`](super::fused::Coefs::clean)).
    pub clean: bool,
    /// Every blocked cell of the map holds +0.
    pub zeroed: bool,
}

/// The step `step` of its rows, held in `band`, written over them with `kernel`, whose wall
/// data must be compact ([`RowKernel::layout`]), from the rows around the band saved in
/// `scratch` ([`Scratch::save_halo`]).
///
/// # Panics
/// If the kernel's wall data is not compact, or `band` does not hold the rows.
#[inline(always)]
pub(super) fn in_place<K: RowKernel>(kernel: K, step: &InPlace<'_>, band: &mut [f32], scratch: &mut Scratch) {
    let InPlace { grid, diffusion, ref rows, clean, zeroed } = *step;
    let (w, h) = (grid.width(), grid.height());
    assert!(rows.end <= h && band.len() == rows.len() * w && scratch.halo.len() == 2 * w, "a band's rows");
    let layout = kernel.layout().expect("compact wall data");
    let k = &kernel.coefs(grid, diffusion, clean);
    let Scratch { values, kept, halo, kept_at, .. } = scratch;
    // Wall data of the rows and the row either side (within the grid).
    let first = rows.start.saturating_sub(1);
    let (walls, _, none, walled) = kept.get(kernel, layout, grid, first..(rows.end + 1).min(h));
    let len = kernel.mask_len(w);
    let mask = |y: Option<usize>| y.filter(|&y| y < h).map_or(none, |y| &walls[(y - first) * len..][..len]);
    let (above, below) = halo.split_at(w);
    // The ring's three slots, each apart from the map's rows and from each other
    // ([`apart`]): the pair's rows are written while the slots are read, and the slots
    // written while the rows are read.
    let at = kept_at.get(w, || {
        let first = apart::clear_of(&[0], w);
        let second = apart::clear_of(&[0, first], w);
        [first, second, apart::clear_of(&[0, first, second], w)]
    });
    let mut placer = apart::Placer::new(values, 3 * w, 3, band.as_ptr());
    let slots = at.map(|at| {
        let i = placer.place(at, w);
        i..i + w
    });
    // Zeroed by the placer: a kernel passing boundaries down the kept row over runs of walls
    // relies on its 0s before the band's first pair.
    let ring = values.as_mut_slice();
    // Where the rows to prefetch are (a hint only: never read through this pointer).
    let (start, prefetch) = (band.as_ptr(), prefetched(w * h));
    for y in rows.clone().step_by(2) {
        let (i, n) = (y - rows.start, (rows.end - y).min(2));
        let (done, rest) = band.split_at_mut((i + n) * w);
        let lower: &[f32] = if y + n < rows.end { &rest[..w] } else { below };
        let ahead = if prefetch && i + AHEAD < rows.len() {
            start.wrapping_add((i + AHEAD) * w)
        } else {
            std::ptr::null()
        };
        let hints = Hints { ahead, stream: false };
        let out = &mut done[i * w..];
        // The ring's slots: the row above, saved by the pair before (unless this is the
        // band's first); the kernel's own, kept from pair to pair (a copy of the row for a
        // band's last single row, after which no pair comes); and the second row, saved now
        // for the pair below.
        let pair = i / 2;
        let [upper, kept, second] = ring
            .get_disjoint_mut([(pair + 1) % 2, 2, pair % 2].map(|s| slots[s].clone()))
            .expect("three slots of the ring");
        let upper: &[f32] = if i == 0 { above } else { upper };
        if n == 2 {
            let (one, two) = out.split_at_mut(w);
            let masks = [mask(y.checked_sub(1)), mask(Some(y)), mask(Some(y + 1)), mask(Some(y + 2))];
            let saved = Saved { kept: Carry { row: kept, carried: i > 0 }, second, walled, zeroed };
            kernel.pair_in_place([upper, lower], [one, two], saved, masks, k, hints);
        } else {
            kept.copy_from_slice(out);
            let masks = [mask(y.checked_sub(1)), mask(Some(y)), mask(Some(y + 1))];
            kernel.row([upper, kept, lower], masks, out, k, hints);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::diffuse::{generic_step as generic, Diffusion};
    use super::super::{dispatch, Propagator, Steps};
    use super::*;
    use crate::space::{Connectivity, Space};
    use crate::test_rng::xorshift;
    use crate::Cell;

    fn bits(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// A grid with about one cell in five blocked, one in two at the rows' ends.
    fn walled(w: usize, h: usize, conn: Connectivity, next: &mut impl FnMut() -> u64) -> Grid {
        let mut grid = Grid::new(w, h).unwrap().with_connectivity(conn);
        for i in 0..w * h {
            let end = i % w == 0 || i % w == w - 1;
            grid.set_blocked(Cell::new(i % w, i / w), next().is_multiple_of(if end { 2 } else { 5 }))
                .unwrap();
        }
        grid
    }

    /// Bands of every height (one row, an odd number, the whole map), each stepped in place
    /// after all their halos are saved, give the generic rule's bits: on widths a multiple
    /// of 16 and others, maps at any offset from a cache line, with special values, or with
    /// clean ones (finite, at least +0) and the kernel told so.
    #[test]
    fn bands_stepped_in_place_give_the_generic_bits() {
        if !(crate::simd::avx512() || crate::simd::avx2()) {
            return; // only the AVX-512 and AVX2 kernels step in place
        }
        let any = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, -0.0, 0.0, 1e-5];
        let clean_ones = [0.0, 1e-5, 1e-40, 1e30, 0.0, 1e-4, 2.0];
        for ((w, h), clean) in
            [(1, 1), (16, 1), (7, 4), (8, 3), (16, 5), (17, 4), (33, 6), (64, 9), (100, 8), (128, 13)]
                .into_iter()
                .flat_map(|size| [(size, false), (size, true)])
        {
            let specials = if clean { clean_ones } else { any };
            for conn in [Connectivity::Four, Connectivity::Eight] {
                for d in [Diffusion::new(0.3, 0.5).unwrap(), Diffusion::linear(0.2, 0.8).unwrap()] {
                    let mut next = xorshift((w * 131 + h) as u64);
                    let grid = walled(w, h, conn, &mut next);
                    for (band, offset) in [(h, 0), (1, 3), (2, 0), (3, 5), (h.div_ceil(2).max(1), 11)] {
                        let mut buffer = vec![0.0; w * h + 16];
                        let values = &mut buffer[offset..][..w * h];
                        for (i, v) in values.iter_mut().enumerate() {
                            *v = match next() % 6 {
                                0 if grid.is_walkable(i) => {
                                    specials[(next() % specials.len() as u64) as usize]
                                }
                                _ if grid.is_walkable(i) => (next() % 1000) as f32 / 100.0,
                                _ => 0.0,
                            };
                        }
                        let want = generic(&grid, values, &d);
                        let bands = h.div_ceil(band);
                        let mut scratch = vec![Scratch::default(); bands];
                        for (i, s) in scratch.iter_mut().enumerate() {
                            s.save_halo(values, w, h, &(i * band..((i + 1) * band).min(h)));
                        }
                        for (i, (rows, s)) in values.chunks_mut(band * w).zip(&mut scratch).enumerate() {
                            let r = i * band..i * band + rows.len() / w;
                            let step = InPlace { grid: &grid, diffusion: &d, rows: r, clean, zeroed: false };
                            dispatch::run_in_place(&step, rows, s);
                        }
                        let what = format!("{w}×{h}, {conn:?}, {d:?}, bands of {band}, clean {clean}");
                        assert_eq!(bits(values), bits(&want), "{what}");
                    }
                }
            }
        }
    }

    /// A propagator on a map beyond the L2 steps in place, alone and in bands for threads,
    /// with seeds, and gives the generic rule's bits.
    #[test]
    fn a_propagator_steps_large_maps_in_place() {
        let mut next = xorshift(0x1a9e);
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let grid = walled(1024, 520, conn, &mut next);
            let vectors = crate::simd::avx512() || crate::simd::avx2();
            assert_eq!(dispatch::steps_in_place(&grid), vectors, "in place with AVX-512 or AVX2");
            let d = Diffusion::new(0.3, 0.5).unwrap();
            let mut p = Propagator::new(&grid, d);
            for v in p.values_mut().values_mut() {
                *v = (next() % 1000) as f32 / 100.0;
            }
            let seeds = [super::super::Seed::new(5000, 20.0), super::super::Seed::new(400_000, 30.0)];
            for parallel in [false, true, false] {
                let mut want = p.values().values().to_vec();
                for s in &seeds {
                    want[s.cell] = s.strength;
                }
                let want = generic(&grid, &want, &d);
                p.step(&grid, Steps { seeds: &seeds, parallel, ..Steps::default() }).unwrap();
                assert_eq!(bits(p.values().values()), bits(&want), "{conn:?}, parallel {parallel}");
            }
            // A map no longer clean (a large negative value, a −0 and a NaN written by hand)
            // steps with the kernel's guards again, as after a negative seed.
            let edits = [(7000, -1e6), (7001, -0.0), (300_000, f32::NAN)];
            let negative = [super::super::Seed::new(9000, -2.0)];
            for round in 0..3 {
                let mut want = p.values().values().to_vec();
                if round == 0 {
                    for (cell, v) in edits {
                        p.values_mut().values_mut()[cell] = v;
                        want[cell] = v;
                    }
                }
                let seeds: &[_] = if round == 1 { &negative } else { &seeds };
                for s in seeds {
                    want[s.cell] = s.strength;
                }
                let want = generic(&grid, &want, &d);
                p.step(&grid, Steps { seeds, ..Steps::default() }).unwrap();
                assert_eq!(bits(p.values().values()), bits(&want), "{conn:?}, round {round}");
            }
        }
    }
}
