//! The one place with `unsafe` code: choosing, at run time, the widest instructions the CPU
//! has for the grid kernels. The crate is built for the baseline of its target (SSE2 on
//! x86-64), as users get it; where AVX2 is present, the same code compiled with AVX2 runs
//! instead, about twice as fast. Both compile the same float operations in the same order
//! (Rust never contracts them into fused multiply-adds), so they give the same bits.
#![allow(unsafe_code)]

use super::blocked::{fused, Pass, Scratch};
use super::diffuse::{DecayKind, Exp, Lin, Rule};
use crate::space::Connectivity;

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
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: `avx2` requires a CPU with AVX2, and this one has it (detected just above).
        return unsafe { avx2::<R, EIGHT>(pass, out, scratch) };
    }
    fused::<R, EIGHT>(pass, out, scratch);
}

/// [`fused`], compiled for AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[target_feature(enable = "avx2")]
unsafe fn avx2<R: Rule, const EIGHT: bool>(pass: &Pass<'_>, out: &mut [f32], scratch: &mut Scratch) {
    fused::<R, EIGHT>(pass, out, scratch);
}
