//! The sum of one bin of linear sources in the plane at a point, by the widest summer the
//! CPU runs and `INFLUENCE_KERNEL` allows — AVX-512, AVX2 or the scalar loop — chosen once
//! when the bins are built. Every summer adds the same contributions in the same order, so
//! they give the same bits.

use super::falloff::Curve;

/// Which code sums a bin: a vector summer's value is the proof the CPU runs it.
#[derive(Debug, Clone, Copy, Default)]
pub(super) enum Summer {
    /// [`scalar`], on any CPU.
    #[default]
    Scalar,
    /// 8 entries a vector.
    #[cfg(target_arch = "x86_64")]
    Avx2(super::avx2::Avx2),
    /// 16 entries a vector.
    #[cfg(target_arch = "x86_64")]
    Avx512(super::x86::Avx512),
}

impl Summer {
    /// The widest summer this CPU runs and `INFLUENCE_KERNEL` allows.
    pub(super) fn widest() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(avx512) = super::x86::Avx512::new() {
                return Self::Avx512(avx512);
            }
            if let Some(avx2) = super::avx2::Avx2::new() {
                return Self::Avx2(avx2);
            }
        }
        Self::Scalar
    }

    /// The sum over `entries` (`[x, y, strength, radius]` each) of the linear sources'
    /// values at `p`, for those whose box holds `p`.
    #[inline]
    pub(super) fn linear_sum(self, entries: &[[f32; 4]], p: [f32; 2]) -> f32 {
        match self {
            Self::Scalar => scalar(entries, p),
            #[cfg(target_arch = "x86_64")]
            Self::Avx2(avx2) => avx2.linear_sum(entries, p),
            #[cfg(target_arch = "x86_64")]
            Self::Avx512(avx512) => avx512.linear_sum(entries, p),
        }
    }
}

/// [`Summer::linear_sum`] one entry at a time: `PointSource::value_at` of each source whose
/// box holds `p`, summed in order — the same operations as summing the sources.
fn scalar(entries: &[[f32; 4]], [px, py]: [f32; 2]) -> f32 {
    // Each entry's value computed and kept or not without a branch (one per entry would be
    // mispredicted a third of the time); adding +0 leaves the sum as it is.
    let mut sum = 0.0;
    for &[x, y, s, r] in entries {
        let (dx, dy) = (px - x, py - y);
        let d2 = dx * dx + dy * dy;
        let holds = (x - r <= px) & (px <= x + r) & (y - r <= py) & (py <= y + r);
        let value = s * Curve::Linear.value(d2.sqrt(), r);
        sum += if (d2 <= r * r) & holds { value } else { 0.0 };
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every vector summer this CPU runs and `INFLUENCE_KERNEL` allows (none on others).
    fn vector_summers() -> Vec<Summer> {
        let mut summers = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            summers.extend(super::super::avx2::Avx2::new().map(Summer::Avx2));
            summers.extend(super::super::x86::Avx512::new().map(Summer::Avx512));
        }
        summers
    }

    /// An entry about `p` of one of the kinds a bin can hold, picked by `kind`: anywhere near
    /// (in or out of reach), exactly on the edge of reach or of the box, at a box's corner,
    /// with a radius whose square is 0 or subnormal, or with values near the largest float.
    fn entry(kind: u64, [px, py]: [f32; 2], unit: &mut impl FnMut() -> f32) -> [f32; 4] {
        let s = unit() * 10.0 - 4.0;
        // Small whole numbers: the distances below are exact.
        let k = (1.0 + unit() * 4.0).floor();
        match kind % 10 {
            0..=2 => [px + unit() * 60.0 - 30.0, py + unit() * 60.0 - 30.0, s, 1.0 + unit() * 20.0],
            3 => [px + 3.0 * k, py - 4.0 * k, s, 5.0 * k],
            4 => [px - k, py, s, k],
            5 => [px + k, py - k, s, k],
            6 => {
                [px, py, s, if unit() < 0.5 { 1e-20 } else { f32::from_bits(1 + (kind >> 8) as u32 % 1000) }]
            }
            // Squares that vanish: in reach by `d2 <= r * r`, out of the box near (0, 0).
            7 => [px + 1e-25 * (k - 2.0), py - 1e-25 * (3.0 - k), s, 1e-30],
            8 => [px, py, [0.0, -0.0, 3e38, -3e38][(kind >> 8) as usize % 4], 1.0 + unit()],
            _ => [
                [3e38, -3e38, px][(kind >> 8) as usize % 3],
                py,
                s,
                [3e38, f32::MAX, 2.0][(kind >> 16) as usize % 3],
            ],
        }
    }

    #[test]
    fn vector_summers_give_the_scalar_loops_bits() {
        let mut bits = crate::test_rng::xorshift(0x5EED);
        let mut unit = {
            let mut bits = crate::test_rng::xorshift(0xB175);
            move || (bits() >> 40) as f32 / (1u64 << 24) as f32
        };
        let lengths = (0..=40).chain([63, 64, 65, 71, 72, 150]);
        for len in lengths {
            for round in 0..300 {
                // Whole-number points (exact edges), others, and points no bin holds.
                let p = match round % 10 {
                    0..=5 => [(unit() * 40.0).floor() - 20.0, (unit() * 40.0).floor() - 20.0],
                    6 | 7 => [unit() * 40.0 - 20.0, unit() * 40.0 - 20.0],
                    _ => [[f32::NAN, f32::INFINITY, -f32::INFINITY, 0.0, 0.0, 0.0][round % 6], 0.0],
                };
                // Mostly one kind a bin, so that many lanes of a vector are in reach at once.
                let main = bits();
                let entries: Vec<[f32; 4]> = (0..len)
                    .map(|_| {
                        let kind = if unit() < 0.7 { main } else { bits() };
                        entry(kind, p, &mut unit)
                    })
                    .collect();
                let expected = scalar(&entries, p);
                for summer in vector_summers() {
                    let got = summer.linear_sum(&entries, p);
                    assert_eq!(
                        got.to_bits(),
                        expected.to_bits(),
                        "{summer:?}: {got} against {expected} at {p:?} over {entries:?}"
                    );
                }
            }
        }
    }
}
