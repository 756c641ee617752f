//! The frontier's split in vectors: a step's cells' costs gathered, compared with the
//! round's two bounds, and each list's cells packed in order, sixteen cells a step with
//! AVX-512 (a compress) or eight with AVX2 (a permute from a table of packings). The same
//! comparisons on the same costs as the scalar [`split`](super::frontier), so the same
//! lists.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m256i, _mm256_cmp_ps, _mm256_cmpgt_epi32, _mm256_i32gather_ps, _mm256_maskload_epi32, _mm256_min_epu32,
    _mm256_movemask_ps, _mm256_permutevar8x32_epi32, _mm256_set1_epi32, _mm256_set1_ps, _mm256_setr_epi32,
    _mm256_srlv_epi32, _mm256_storeu_si256, _mm512_cmp_ps_mask, _mm512_i32gather_ps,
    _mm512_maskz_compress_epi32, _mm512_maskz_loadu_epi32, _mm512_min_epu32, _mm512_set1_epi32,
    _mm512_set1_ps, _mm512_storeu_si512, _CMP_GE_OQ, _CMP_LT_OQ,
};

/// A vector split. A value of it is the proof that the CPU has what its kind needs:
/// [`new`](Self::new) is the only way to make one.
#[derive(Debug, Clone, Copy)]
pub(super) enum Wide {
    /// AVX-512 F: 16 cells a step.
    Avx512,
    /// AVX2: 8 cells a step.
    Avx2,
}

/// Cells a step may store past a list's end: each step stores a whole vector.
pub(super) const SLACK: usize = 16;

impl Wide {
    /// The widest split this CPU runs (and `INFLUENCE_KERNEL` allows), if any, for `costs`
    /// of `len` cells (the gathers' indices are signed 32-bit).
    pub(super) fn new(len: usize) -> Option<Self> {
        if len == 0 || i32::try_from(len).is_err() {
            return None;
        }
        if crate::simd::avx512() {
            return Some(Self::Avx512);
        }
        crate::simd::avx2().then_some(Self::Avx2)
    }

    /// [`split`](super::frontier) of `near` by the costs in `costs`: the cells below
    /// `bounds[0]` into `lists[0]`, the others at or past `bounds[1]` into `lists[2]` and the
    /// rest into `lists[1]`, each in order; returns how many went to each.
    ///
    /// # Panics
    /// If a list is shorter than `near` plus [`SLACK`], or `costs` is empty or longer than
    /// the gathers' signed 32-bit indices reach.
    pub(super) fn split(
        self,
        near: &[u32],
        costs: &[f32],
        bounds: [f32; 2],
        lists: [&mut [u32]; 3],
    ) -> [usize; 3] {
        assert!(lists.iter().all(|list| list.len() >= near.len() + SLACK), "a list without room for a step");
        assert!(!costs.is_empty() && i32::try_from(costs.len()).is_ok(), "costs the gathers cannot index");
        match self {
            // SAFETY: the value proves the CPU has AVX-512 F; the lengths were checked.
            Self::Avx512 => unsafe { avx512(near, costs, bounds, lists) },
            // SAFETY: the value proves the CPU has AVX2; the lengths were checked.
            Self::Avx2 => unsafe { avx2(near, costs, bounds, lists) },
        }
    }
}

/// [`Wide::split`] with AVX-512, 16 cells a step.
///
/// # Safety
/// The CPU must have AVX-512 F; each list must be at least [`SLACK`] longer than `near`,
/// and `costs` non-empty with at most `i32::MAX` cells.
#[target_feature(enable = "avx512f")]
unsafe fn avx512(near: &[u32], costs: &[f32], bounds: [f32; 2], lists: [&mut [u32]; 3]) -> [usize; 3] {
    let (below, from) = (_mm512_set1_ps(bounds[0]), _mm512_set1_ps(bounds[1]));
    // The frontier only holds cells of `costs`; clamped all the same, so that no gather can
    // read outside it.
    let last = _mm512_set1_epi32((costs.len() - 1) as i32);
    let mut counts = [0usize; 3];
    let [settle, keep, far] = lists;
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
            if mask == 0 {
                continue; // a list no cell of this step goes to, such as the far one mostly
            }
            debug_assert!(*count + 16 <= list.len());
            // SAFETY: no list holds more cells than came before this chunk, so the 16 lanes
            // stored at its end stay within the first `near.len() + SLACK` slots.
            unsafe {
                let packed = _mm512_maskz_compress_epi32(mask, cells);
                _mm512_storeu_si512(list.as_mut_ptr().add(*count).cast(), packed);
            }
            *count += mask.count_ones() as usize;
        }
    }
    counts
}

/// For each 8-bit mask, the lanes it selects, in order, three bits a lane (the lanes after
/// them 0): the permutation that packs the selected lanes of a vector at its start.
const PACKINGS: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut packed, mut at, mut lane) = (0u32, 0, 0);
        while lane < 8 {
            if mask >> lane & 1 == 1 {
                packed |= lane << (3 * at);
                at += 1;
            }
            lane += 1;
        }
        table[mask as usize] = packed;
        mask += 1;
    }
    table
};

/// [`Wide::split`] with AVX2, 8 cells a step.
///
/// # Safety
/// The CPU must have AVX2; each list must be at least [`SLACK`] longer than `near`, and
/// `costs` non-empty with at most `i32::MAX` cells.
#[target_feature(enable = "avx2")]
unsafe fn avx2(near: &[u32], costs: &[f32], bounds: [f32; 2], lists: [&mut [u32]; 3]) -> [usize; 3] {
    let (below, from) = (_mm256_set1_ps(bounds[0]), _mm256_set1_ps(bounds[1]));
    let last = _mm256_set1_epi32((costs.len() - 1) as i32);
    let (lane, shifts) =
        (_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21));
    let mut counts = [0usize; 3];
    let [settle, keep, far] = lists;
    for chunk in near.chunks(8) {
        let lanes = u8::MAX >> (8 - chunk.len());
        // Lanes past a short last chunk load as cell 0 and are masked out of every list.
        let load = _mm256_cmpgt_epi32(_mm256_set1_epi32(chunk.len() as i32), lane);
        // SAFETY: the masked load reads the chunk's cells only; the gather reads 8 costs at
        // indices clamped to the last cell (non-negative: at most i32::MAX cells).
        let (cells, cost) = unsafe {
            let cells = _mm256_maskload_epi32(chunk.as_ptr().cast(), load);
            (cells, _mm256_i32gather_ps::<4>(costs.as_ptr(), _mm256_min_epu32(cells, last)))
        };
        let now = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_LT_OQ>(cost, below)) as u8 & lanes;
        let away = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_GE_OQ>(cost, from)) as u8 & lanes;
        let masks = [now, lanes & !(now | away), away];
        for ((list, count), mask) in
            [&mut *settle, &mut *keep, &mut *far].into_iter().zip(&mut counts).zip(masks)
        {
            if mask == 0 {
                continue; // a list no cell of this step goes to, such as the far one mostly
            }
            debug_assert!(*count + 8 <= list.len());
            // Lane i of the packing is the i-th selected lane: three bits each, shifted out.
            let order = _mm256_srlv_epi32(_mm256_set1_epi32(PACKINGS[usize::from(mask)] as i32), shifts);
            let packed = _mm256_permutevar8x32_epi32(cells, order);
            // SAFETY: no list holds more cells than came before this chunk, so the 8 lanes
            // stored at its end stay within the first `near.len() + SLACK` slots.
            unsafe { _mm256_storeu_si256(list.as_mut_ptr().add(*count).cast::<__m256i>(), packed) };
            *count += mask.count_ones() as usize;
        }
    }
    counts
}
