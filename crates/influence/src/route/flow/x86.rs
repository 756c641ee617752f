//! The frontier's split with AVX-512, sixteen cells a step: their costs gathered, compared
//! with the round's two bounds, and each list's cells packed in order by a compress. The
//! same comparisons on the same costs as [`split`](super::frontier), so the same lists.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m512i, _mm512_cmp_ps_mask, _mm512_i32gather_ps, _mm512_maskz_compress_epi32, _mm512_maskz_loadu_epi32,
    _mm512_min_epu32, _mm512_set1_epi32, _mm512_set1_ps, _mm512_storeu_si512, _CMP_GE_OQ, _CMP_LT_OQ,
};

/// The AVX-512 split. A value of it is the proof that the CPU has AVX-512 F: [`new`](Self::new)
/// is the only way to make one.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx512(());

impl Avx512 {
    /// The split, if this CPU runs it (and `INFLUENCE_KERNEL` allows it).
    pub(super) fn new() -> Option<Self> {
        crate::simd::avx512().then_some(Self(()))
    }

    /// [`split`](super::frontier) of `near` by the costs in `costs`: the cells below
    /// `bounds[0]` into `lists[0]`, the rest below `bounds[1]` into `lists[1]` and the
    /// others into `lists[2]`, each in order; returns how many went to each.
    ///
    /// # Panics
    /// If a list is shorter than `near` plus 16 (a step stores 16 lanes), or `costs` is
    /// empty or holds more than `i32::MAX` cells (the gather's indices are signed).
    pub(super) fn split(
        self,
        near: &[u32],
        costs: &[f32],
        bounds: [f32; 2],
        lists: [&mut [u32]; 3],
    ) -> [usize; 3] {
        let Self(()) = self;
        assert!(lists.iter().all(|list| list.len() >= near.len() + 16), "a list without room for a step");
        assert!(!costs.is_empty() && i32::try_from(costs.len()).is_ok(), "costs the gather cannot index");
        // SAFETY: the value proves the CPU has AVX-512 F, and the lengths were checked.
        unsafe { split(near, costs, bounds, lists) }
    }
}

/// [`Avx512::split`].
///
/// # Safety
/// The CPU must have AVX-512 F; each list must be at least 16 longer than `near`, and
/// `costs` non-empty with at most `i32::MAX` cells.
#[target_feature(enable = "avx512f")]
unsafe fn split(near: &[u32], costs: &[f32], bounds: [f32; 2], lists: [&mut [u32]; 3]) -> [usize; 3] {
    let [settle, keep, far] = lists;
    let (below, from) = (_mm512_set1_ps(bounds[0]), _mm512_set1_ps(bounds[1]));
    // The frontier only holds cells of `costs`; clamped all the same, so that no gather can
    // read outside it.
    let last = _mm512_set1_epi32((costs.len() - 1) as i32);
    let mut counts = [0usize; 3];
    for chunk in near.chunks(16) {
        // The last chunk may hold fewer than 16 cells: its other lanes load as cell 0 and
        // are masked out of every list.
        let lanes = u16::MAX >> (16 - chunk.len());
        // SAFETY: the masked load reads the chunk's cells only; the gather reads 16 costs
        // at indices clamped to the last cell (non-negative: `costs` has at most i32::MAX
        // cells).
        let (cells, cost) = unsafe {
            let cells = _mm512_maskz_loadu_epi32(lanes, chunk.as_ptr().cast());
            (cells, _mm512_i32gather_ps::<4>(_mm512_min_epu32(cells, last), costs.as_ptr()))
        };
        let now = _mm512_cmp_ps_mask::<_CMP_LT_OQ>(cost, below) & lanes;
        let away = _mm512_cmp_ps_mask::<_CMP_GE_OQ>(cost, from) & lanes;
        let masks = [now, lanes & !(now | away), away];
        for ((list, count), mask) in
            [&mut *settle, &mut *keep, &mut *far].into_iter().zip(&mut counts).zip(masks)
        {
            // SAFETY: no list holds more cells than came before this chunk, so the 16 lanes
            // stored at its end stay within the first `near.len()` slots of the list, or
            // within the list's 16 slots of slack past them.
            unsafe { append(list, count, mask, cells) };
        }
    }
    counts
}

/// Stores the lanes of `cells` that `mask` selects, in order, at `list[*len..]` (16 lanes
/// written, the selected ones first), and counts them into `len`.
///
/// # Safety
/// The CPU must have AVX-512 F, and `*len + 16 <= list.len()`.
#[inline(always)]
unsafe fn append(list: &mut [u32], len: &mut usize, mask: u16, cells: __m512i) {
    debug_assert!(*len + 16 <= list.len());
    // SAFETY: the caller keeps the 16 lanes inside the list.
    unsafe {
        let packed = _mm512_maskz_compress_epi32(mask, cells);
        _mm512_storeu_si512(list.as_mut_ptr().add(*len).cast(), packed);
    }
    *len += mask.count_ones() as usize;
}
