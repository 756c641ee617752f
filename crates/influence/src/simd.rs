//! Which vector instructions the kernels may use, decided once per process: the widest the
//! CPU has, capped by the environment variable `INFLUENCE_KERNEL` — `avx2` (no AVX-512) or
//! `portable` (the code as built, SSE2 on x86-64) — to compare kernels, or to test the
//! narrower ones on a wide CPU. Any other value leaves the choice to the CPU.
//!
//! Each kernel that needs a feature checks for it itself (a kernel value is the proof that
//! the CPU has it); this only says how far the kernels may go.

use std::sync::OnceLock;

/// The widest kernels `INFLUENCE_KERNEL` allows: 2 for AVX-512, 1 for AVX2, 0 for portable.
pub(crate) fn allowed() -> u8 {
    static ALLOWED: OnceLock<u8> = OnceLock::new();
    *ALLOWED.get_or_init(|| match std::env::var("INFLUENCE_KERNEL").as_deref() {
        Ok("portable") => 0,
        Ok("avx2") => 1,
        _ => 2,
    })
}

/// Whether the AVX-512 kernels (F and BW) may run: allowed, and the CPU has them.
pub(crate) fn avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static HAS: OnceLock<bool> = OnceLock::new();
        allowed() >= 2
            && *HAS.get_or_init(|| {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
            })
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether the CPU is AMD's: its cores reach a large last-level cache fast (Zen 4 and 5: 32
/// MiB for 8 cores), where on Intel's server cores the cache beyond the 2 MiB L2 streams
/// to one core about as fast as memory does. Which maps count as in the caches, for
/// [`most_fused`](crate::propagate), depends on it. Only speed depends on the answer.
pub(crate) fn amd() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static AMD: OnceLock<bool> = OnceLock::new();
        *AMD.get_or_init(|| {
            // The vendor string, in EBX, EDX and ECX of leaf 0.
            let id = std::arch::x86_64::__cpuid(0);
            [id.ebx, id.edx, id.ecx].map(u32::to_le_bytes).concat() == *b"AuthenticAMD"
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The size of a core's L2 cache in bytes, as the CPU reports it (extended leaf
/// `0x8000_0006`, on AMD's and Intel's x86-64 CPUs alike), or 1 MiB where it does not. The
/// fused steps' rings are sized to it (`propagate::fused::max_fused`); only speed depends on
/// the answer.
pub(crate) fn l2_bytes() -> usize {
    const DEFAULT: usize = 1 << 20;
    #[cfg(target_arch = "x86_64")]
    {
        static L2: OnceLock<usize> = OnceLock::new();
        *L2.get_or_init(|| {
            use std::arch::x86_64::__cpuid;
            if __cpuid(0x8000_0000).eax < 0x8000_0006 {
                return DEFAULT;
            }
            // ECX bits 31..16: the L2's size in KiB.
            match (__cpuid(0x8000_0006).ecx >> 16) as usize {
                0 => DEFAULT,
                kib => (kib << 10).clamp(256 << 10, 64 << 20),
            }
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    DEFAULT
}

/// Whether the AVX2 kernels may run: allowed, and the CPU has AVX2.
pub(crate) fn avx2() -> bool {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        allowed() >= 1 && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    false
}
