//! Rows written kept apart, within 4 KiB, from the rows read at the same time.
//!
//! A core tells a load that may read what an older store is writing by the low 12 bits of
//! their addresses first. When they match, Intel's cores hold the load back until the store
//! is done, whether or not the full addresses do ("4K aliasing"). The AVX2 kernel reads a
//! row's left and right neighbours with loads one cell off its chunks, so each chunk's left
//! load covers the last cell of the chunk before it. Wherever the rows a step writes sit at
//! the same offset within 4 KiB as the rows it reads, each chunk's loads wait for the stores
//! of the chunks before: the rings of a fused pass on a map 1024 or 4096 cells wide, where
//! every row is a multiple of 4 KiB long, did so throughout. Placing each ring half a page
//! from the one before took 16 fused 8-neighbour steps at 4096² from 0.365–0.38 ns a cell
//! and step to 0.335 on AVX2, and at 1024² from 0.335–0.36 to 0.31 (docs/PERFORMANCE.md).
//!
//! The offsets here are in bytes modulo 4 KiB, whole cache lines (64 bytes), so that every
//! buffer keeps the map's offset from a cache line (the AVX-512 kernel's vectors follow it).

/// The span, in bytes, that the low address bits a core compares cover.
pub(super) const PAGE: usize = 4096;
/// [`PAGE`] and [`LINE`] as signed numbers, for offsets either way.
const SPAN: isize = PAGE as isize;
const NEAR_END: isize = SPAN - LINE as isize;
/// The unit of offsets: a cache line.
pub(super) const LINE: usize = 64;
/// How far, in bytes, a store may sit after the rows read and still hold their loads back:
/// the loads run several chunks of 32 bytes ahead of the stores still in flight. (At 256²,
/// where rows are 1 KiB long, writing rows 512 bytes after the rows read was as fast as
/// 1536, and 2.5 % faster than 0 or 2048.)
const AHEAD: isize = 256;
/// Rows read and rows written at the same time lie within this many rows of each other (a
/// pair reads the row above it, its own two and the row below).
const ROWS: isize = 3;

/// How far rows written `at` bytes (mod 4 KiB) after rows read keep from holding their
/// loads back, when the rows of each are `row` bytes apart: the least distance over the
/// rows in flight from the span `[−LINE, AHEAD]` after a row read, negative inside it.
fn clearance(at: isize, row: isize) -> isize {
    (-ROWS..=ROWS)
        .map(|k| {
            let t = (at + k * row).rem_euclid(SPAN);
            if t <= AHEAD || t >= NEAR_END {
                -1
            } else {
                (t - AHEAD).min(NEAR_END - t)
            }
        })
        .min()
        .unwrap_or(-1)
}

/// The offset (mod 4 KiB, whole lines) for rows `width` cells long that are written while
/// the rows at `read` are read, and read while the rows at `written` are written: clear of
/// both, as far as it can be (the first such offset where several are as far).
pub(super) fn between(read: usize, written: usize, width: usize) -> usize {
    let row = (4 * width) as isize % SPAN;
    let score = |c: usize| {
        let c = c as isize;
        clearance(c - read as isize, row).min(clearance(written as isize - c, row))
    };
    (0..PAGE).step_by(LINE).fold(0, |best, c| if score(c) > score(best) { c } else { best })
}

/// The offset (mod 4 KiB) of `at` from `from`, in bytes.
pub(super) fn offset(at: *const f32, from: *const f32) -> usize {
    (at as usize).wrapping_sub(from as usize) % PAGE
}

/// The first index from `from` in a buffer starting at `base` whose cell lies `at` bytes
/// (mod 4 KiB) after `origin`; both pointers to `f32`s, so 4-byte aligned.
pub(super) fn index_at(base: *const f32, from: usize, origin: *const f32, at: usize) -> usize {
    let cells = PAGE / 4;
    let want = (origin as usize).wrapping_add(at).wrapping_sub(base as usize) % PAGE / 4;
    from + (want + cells - from % cells) % cells
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The offset chosen is clear of both neighbours wherever one is, for row lengths of
    /// every kind: the powers of two where rows repeat within 4 KiB, and others.
    #[test]
    fn offsets_between_are_clear_of_both_sides() {
        for width in [64, 100, 256, 333, 512, 1000, 1024, 2048, 4096, 5000] {
            let row = (4 * width) as isize % SPAN;
            for (read, written) in [(0, 0), (0, 2048), (1024, 64), (4032, 512)] {
                let c = between(read, written, width);
                assert_eq!(c % LINE, 0);
                let any = (0..PAGE).step_by(LINE).any(|c| {
                    clearance(c as isize - read as isize, row) >= 0
                        && clearance(written as isize - c as isize, row) >= 0
                });
                if any {
                    assert!(clearance(c as isize - read as isize, row) >= 0, "{width} {read} {written}: {c}");
                    assert!(
                        clearance(written as isize - c as isize, row) >= 0,
                        "{width} {read} {written}: {c}"
                    );
                }
            }
        }
        // Rows a multiple of 4 KiB long: half a page from rows at 0 both ways.
        assert_eq!(between(0, 0, 1024), 2048);
    }

    #[test]
    fn an_index_lands_at_the_offset_asked_for() {
        let buffer = vec![0.0f32; 4096];
        let origin = [0.0f32; 3];
        for at in [0, 64, 2048, 4032] {
            for from in [0, 5, 1023, 1024] {
                let i = index_at(buffer.as_ptr(), from, origin.as_ptr(), at);
                assert!(i >= from && i < from + 1024);
                assert_eq!(offset(buffer[i..].as_ptr(), origin.as_ptr()), at);
            }
        }
    }
}
