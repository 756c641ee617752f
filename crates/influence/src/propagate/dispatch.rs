//! Choosing, at run time, the widest instructions the CPU has for the grid kernels. The
//! crate is built for the baseline of its target (SSE2 on x86-64), as users get it. Where
//! the CPU has AVX-512, the hand-written [`Avx512`] kernel runs; else, where it has AVX2,
//! the portable kernel compiled for AVX2; else the portable kernel as built. All evaluate the
//! same float operations in the same order (Rust never contracts them into fused
//! multiply-adds), so they give the same bits.
//!
//! The environment variable `INFLUENCE_KERNEL` caps the choice, to compare kernels or test
//! the narrower ones on a wide CPU: `avx2` (no AVX-512) or `portable` (the kernel as built).
//! It is read once per process; any other value leaves the choice to the CPU.
#![allow(unsafe_code)]

use super::diffuse::{DecayKind, Exp, Lin, Rule};
use super::fused::{fused, Pass, RowKernel, Scratch};
use super::portable::Portable;
use super::single::single;
use crate::simd::allowed;
use crate::space::Connectivity;

#[cfg(target_arch = "x86_64")]
use super::avx512::Avx512;

/// Runs `pass` into `out` with the kernel for its decay kind and connectivity.
pub(super) fn run(pass: &Pass<'_>, out: &mut [f32], scratch: &mut Scratch) {
    match (pass.diffusion.kind(), pass.grid.connectivity()) {
        (DecayKind::Exponential, Connectivity::Four) => widest::<Exp, false>(pass, out, scratch),
        (DecayKind::Exponential, Connectivity::Eight) => widest::<Exp, true>(pass, out, scratch),
        (DecayKind::Linear, Connectivity::Four) => widest::<Lin, false>(pass, out, scratch),
        (DecayKind::Linear, Connectivity::Eight) => widest::<Lin, true>(pass, out, scratch),
    }
}

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
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if crate::simd::avx2() {
        // SAFETY: `avx2` requires a CPU with AVX2, and this one has it (detected just above).
        return unsafe { avx2(Portable::<R, EIGHT>::new(), pass, out, scratch) };
    }
    fused(Portable::<R, EIGHT>::new(), pass, out, scratch);
}

/// [`fused`] with the portable kernel, compiled for AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[target_feature(enable = "avx2")]
unsafe fn avx2<K: RowKernel>(kernel: K, pass: &Pass<'_>, out: &mut [f32], scratch: &mut Scratch) {
    fused(kernel, pass, out, scratch);
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
