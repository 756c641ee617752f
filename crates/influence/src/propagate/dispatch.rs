//! Choosing, at run time, the widest instructions the CPU has for the grid kernels. The
//! crate is built for the baseline of its target (SSE2 on x86-64), as users get it. Where
//! the CPU has AVX-512, the hand-written [`Avx512`] kernel runs; else, where it has AVX2,
//! the hand-written [`Avx2`] kernel; else the portable kernel as built. All evaluate the
//! same float operations in the same order (Rust never contracts them into fused
//! multiply-adds), so they give the same bits.
//!
//! The environment variable `INFLUENCE_KERNEL` caps the choice, to compare kernels or test
//! the narrower ones on a wide CPU: `avx2` (no AVX-512) or `portable` (the kernel as built).
//! It is read once per process; any other value leaves the choice to the CPU.
#![allow(unsafe_code)]

use super::diffuse::{DecayKind, Exp, Lin, Rule};
use super::fused::{fused, max_fused, Pass, RowKernel, Scratch};
use super::in_place::{in_place, InPlace};
use super::portable::Portable;
use super::single::{single, KEEP_CELLS};
use crate::simd::allowed;
use crate::space::{Connectivity, Grid};

#[cfg(target_arch = "x86_64")]
use super::avx2::Avx2;
#[cfg(target_arch = "x86_64")]
use super::avx512::Avx512;

/// `$f::<R, EIGHT>(args)` for the decay kind of the diffusion `$d` and the connectivity of
/// `$grid`: the one table from these run-time choices to the kernels compiled for them.
macro_rules! by_rule {
    ($d:expr, $grid:expr, $f:ident($($arg:expr),*)) => {
        match ($d.kind(), $grid.connectivity()) {
            (DecayKind::Exponential, Connectivity::Four) => $f::<Exp, false>($($arg),*),
            (DecayKind::Exponential, Connectivity::Eight) => $f::<Exp, true>($($arg),*),
            (DecayKind::Linear, Connectivity::Four) => $f::<Lin, false>($($arg),*),
            (DecayKind::Linear, Connectivity::Eight) => $f::<Lin, true>($($arg),*),
        }
    };
}

/// Runs `pass` into `out` with the kernel for its decay kind and connectivity.
pub(super) fn run(pass: &Pass<'_>, out: &mut [f32], scratch: &mut Scratch) {
    by_rule!(pass.diffusion, pass.grid, widest(pass, out, scratch));
}

/// Whether a pass of one step on `grid` runs in place ([`in_place`]): on the AVX-512 and
/// AVX2 kernels, whose wall data is kept, on maps whose two layers fill the core's L2 cache
/// ([`l2_bytes`](crate::simd::l2_bytes)) or more. With AVX2 (the same Xeon, capped), 1024²
/// took 0.256–0.262 ns a cell in place against 0.375 between two buffers (4 neighbours). On an Intel Xeon core (2 MiB L2),
/// 4-neighbour steps of 512² took 0.144–0.146 ns a cell in place against 0.177–0.182
/// between two buffers, of 1024² 0.164 against 0.308, of 2048² 0.224–0.240 against
/// 0.444–0.448 (with non-temporal stores), of 4096² 0.35–0.41 against 0.490–0.512; at 384²,
/// 0.147 against 0.136 (docs/PERFORMANCE.md).
pub(super) fn steps_in_place(grid: &Grid) -> bool {
    (crate::simd::avx512() || crate::simd::avx2())
        && 8 * grid.width() * grid.height() >= crate::simd::l2_bytes()
}

/// Runs `step` over its rows, held in `band`, in place, with the widest kernel for its decay
/// kind and connectivity. Only where [`steps_in_place`] says so.
pub(super) fn run_in_place(step: &InPlace<'_>, band: &mut [f32], scratch: &mut Scratch) {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::avx512() {
        by_rule!(step.diffusion, step.grid, avx512_in_place(step, band, scratch));
    } else {
        by_rule!(step.diffusion, step.grid, avx2_in_place(step, band, scratch));
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (step, band, scratch);
        unreachable!("steps run in place only on the AVX-512 and AVX2 kernels");
    }
}

/// The most steps one pass fuses on `grid`. Where a single step runs without rings
/// ([`single`]: the AVX-512 and AVX2 kernels, on maps of at most [`KEEP_CELLS`] cells) and
/// the map is in a cache that streams faster than memory ([`IN_CACHE_AMD`], [`IN_CACHE`]),
/// it is one: fusing saves little memory traffic there, and single steps beat the
/// pipeline's rings. Elsewhere, as many as [`max_fused`] allows.
pub(super) fn most_fused(grid: &Grid) -> usize {
    let in_cache = if crate::simd::amd() { IN_CACHE_AMD } else { IN_CACHE };
    let kept = crate::simd::avx512() || crate::simd::avx2();
    if grid.width() * grid.height() <= in_cache.min(KEEP_CELLS) && kept {
        1
    } else {
        max_fused(grid.width())
    }
}

/// The most cells of a map whose steps are not fused on AMD's CPUs: 2²⁰ (two 4 MiB layers),
/// within the last-level cache. On a Zen 5 core, 16 steps of 256² took 0.153 ns a cell and
/// step with 8 neighbours, single, against 0.188 fused, and with 4 neighbours at 1024²
/// 0.089 against 0.114 (docs/PERFORMANCE.md).
const IN_CACHE_AMD: usize = 1 << 20;

/// The most cells of a map whose steps are not fused elsewhere: 2¹⁸ (512², two 1 MiB layers),
/// within a 2 MiB L2. On an Intel Xeon core (Sapphire Rapids class) beyond that, a single
/// step streams from the L3 about as fast as a copy, and fusing wins: 16 steps of 1024²
/// took 0.160 ns a cell and step with 4 neighbours fused, against 0.309 single, and 0.270
/// against 0.315 with 8; at 512² the two were alike, and at 256² single steps won (0.140
/// against 0.178).
const IN_CACHE: usize = 1 << 18;

fn widest<R: Rule, const EIGHT: bool>(pass: &Pass<'_>, out: &mut [f32], scratch: &mut Scratch) {
    #[cfg(target_arch = "x86_64")]
    if let Some(kernel) = Avx512::<R, EIGHT>::new().filter(|_| allowed() >= 2) {
        let kernel = kernel.for_rows(pass.input, pass.grid.width());
        if single(kernel, pass, out, &mut scratch.kept) {
            return;
        }
        // SAFETY: the kernel exists only on CPUs with AVX-512 F and BW.
        return unsafe { avx512(kernel, pass, out, scratch) };
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(kernel) = Avx2::<R, EIGHT>::new().filter(|_| allowed() >= 1) {
        if single(kernel, pass, out, &mut scratch.kept) {
            return;
        }
        // SAFETY: the kernel exists only on CPUs with AVX2.
        return unsafe { avx2(kernel, pass, out, scratch) };
    }
    fused(Portable::<R, EIGHT>::new(), pass, out, scratch);
}

/// [`fused`] with the AVX2 kernel, with the pipeline around it compiled for AVX2 too.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn avx2<K: RowKernel>(kernel: K, pass: &Pass<'_>, out: &mut [f32], scratch: &mut Scratch) {
    fused(kernel, pass, out, scratch);
}

/// [`in_place`] with the AVX-512 kernel for decay kind `R` and 8 neighbours or 4, the loop
/// over the pairs compiled for AVX-512 too, so that each pair's loop is inlined into it.
///
/// # Panics
/// Without AVX-512 F and BW ([`steps_in_place`] asks for them first).
#[cfg(target_arch = "x86_64")]
fn avx512_in_place<R: Rule, const EIGHT: bool>(step: &InPlace<'_>, band: &mut [f32], scratch: &mut Scratch) {
    /// # Safety
    /// The CPU must support AVX-512 F and BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn run<K: RowKernel>(kernel: K, step: &InPlace<'_>, band: &mut [f32], scratch: &mut Scratch) {
        in_place(kernel, step, band, scratch);
    }
    let kernel = Avx512::<R, EIGHT>::new().expect("AVX-512").for_rows(band, step.grid.width());
    // SAFETY: the kernel exists only on CPUs with AVX-512 F and BW.
    unsafe { run(kernel, step, band, scratch) }
}

/// [`in_place`] with the AVX2 kernel for decay kind `R` and 8 neighbours or 4, the loop
/// over the pairs compiled for AVX2 too.
///
/// # Panics
/// Without AVX2 ([`steps_in_place`] asks for it first).
#[cfg(target_arch = "x86_64")]
fn avx2_in_place<R: Rule, const EIGHT: bool>(step: &InPlace<'_>, band: &mut [f32], scratch: &mut Scratch) {
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    unsafe fn run<K: RowKernel>(kernel: K, step: &InPlace<'_>, band: &mut [f32], scratch: &mut Scratch) {
        in_place(kernel, step, band, scratch);
    }
    let kernel = Avx2::<R, EIGHT>::new().expect("AVX2");
    // SAFETY: the kernel exists only on CPUs with AVX2.
    unsafe { run(kernel, step, band, scratch) }
}

/// [`fused`] with the AVX-512 kernel, with the pipeline around it compiled for AVX-512 too.
///
/// # Safety
/// The CPU must support AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn avx512<K: RowKernel>(kernel: K, pass: &Pass<'_>, out: &mut [f32], scratch: &mut Scratch) {
    fused(kernel, pass, out, scratch);
}

#[cfg(test)]
mod tests {
    use super::super::seed;
    use super::*;
    use crate::propagate::{Diffusion, Seed};
    use crate::{Cell, Space};

    /// A pass of several fused steps gives the bits of as many passes of one step, with the
    /// seeds written before each, on the widest kernel this CPU runs (set by
    /// `INFLUENCE_KERNEL`). The propagator takes single steps where [`most_fused`] says so,
    /// so on small maps with AVX-512 or AVX2 only this test runs the fused pipeline with that
    /// kernel.
    #[test]
    fn fused_passes_equal_single_steps_on_the_widest_kernel() {
        let mut next = crate::test_rng::xorshift(0x00f0_5ed5);
        for case in 0..60 {
            let (w, h) = (1 + next() as usize % 70, 1 + next() as usize % 40);
            let connectivity = if case % 2 == 0 { Connectivity::Four } else { Connectivity::Eight };
            let mut grid = Grid::new(w, h).unwrap().with_connectivity(connectivity);
            for i in 0..w * h {
                grid.set_blocked(Cell::new(i % w, i / w), next().is_multiple_of(6)).unwrap();
            }
            let d = Diffusion::new([0.1, 0.4][case % 3 % 2], [0.5, 1.0][case % 5 % 2]).unwrap();
            let d = if case % 3 == 2 { Diffusion::linear(0.05, 0.7).unwrap() } else { d };
            let mut seeds: Vec<Seed> = (0..=next() % 4)
                .map(|_| Seed::new(next() as usize % (w * h), (next() % 500) as f32 / 100.0))
                .filter(|s| grid.is_walkable(s.cell))
                .collect();
            seeds.sort_by_key(|s| s.cell);
            let start: Vec<f32> = (0..w * h)
                .map(|i| if grid.is_walkable(i) { (next() % 300) as f32 / 100.0 } else { 0.0 })
                .collect();
            let steps = 2 + case % 15;
            let mut scratch = Scratch::default();
            let mut want = start.clone();
            for _ in 0..steps {
                seed::apply(&grid, &mut want, &seeds, |_| {});
                let mut out = vec![0.0; w * h];
                run(
                    &Pass {
                        grid: &grid,
                        diffusion: &d,
                        input: &want,
                        rows: 0..h,
                        steps: 1,
                        seeds: &[],
                        clean: false,
                        zeroed: false,
                    },
                    &mut out,
                    &mut scratch,
                );
                want = out;
            }
            let mut input = start.clone();
            seed::apply(&grid, &mut input, &seeds, |_| {});
            let mut got = vec![0.0; w * h];
            run(
                // The values and the seeds are clean: the kernel may be told so, or not.
                &Pass {
                    grid: &grid,
                    diffusion: &d,
                    input: &input,
                    rows: 0..h,
                    steps,
                    seeds: &seeds,
                    clean: case % 4 < 2,
                    zeroed: false,
                },
                &mut got,
                &mut scratch,
            );
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&got), bits(&want), "case {case}: {w}×{h}, {steps} steps");
        }
    }
}
