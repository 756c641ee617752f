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
const PAGE: usize = 4096;
/// [`PAGE`] and [`LINE`] as signed numbers, for offsets either way.
const SPAN: isize = PAGE as isize;
const NEAR_END: isize = SPAN - LINE as isize;
/// The unit of offsets: a cache line.
const LINE: usize = 64;
/// How far, in bytes, a store may sit after the rows read and still hold their loads back:
/// the loads run several chunks of 32 bytes ahead of the stores still in flight. (At 256²,
/// where rows are 1 KiB long, writing rows 512 bytes after the rows read was as fast as
/// 1536, and 2.5 % faster than 0 or 2048.)
const REACH: isize = 256;
/// Rows read and rows written at the same time lie within this many rows of each other (a
/// pair reads the row above it, its own two and the row below).
const ROWS: isize = 3;

/// How far rows written `at` bytes (mod 4 KiB) after rows read keep from holding their
/// loads back, when the rows of each are `row` bytes apart: the least distance over the
/// rows in flight from the span `[−LINE, REACH]` after a row read, negative inside it.
fn clearance(at: isize, row: isize) -> isize {
    (-ROWS..=ROWS)
        .map(|k| {
            let t = (at + k * row) & (SPAN - 1);
            if t <= REACH || t >= NEAR_END {
                -1
            } else {
                (t - REACH).min(NEAR_END - t)
            }
        })
        .min()
        .unwrap_or(-1)
}

/// The offset (mod 4 KiB, whole lines) for rows `width` cells long that are written and read
/// while each of the rows at `taken` may be read or written: clear of all of them both ways,
/// as far as it can be.
pub(super) fn clear_of(taken: &[usize], width: usize) -> usize {
    let row = row(width);
    farthest(|c| {
        taken
            .iter()
            .map(|&t| clearance(c - t as isize, row).min(clearance(t as isize - c, row)))
            .min()
            .unwrap_or(0)
    })
}

/// A row's length in bytes, modulo 4 KiB.
fn row(width: usize) -> isize {
    (4 * width % PAGE) as isize
}

/// The offset (whole lines, below 4 KiB) with the highest score, the first of several.
fn farthest(score: impl Fn(isize) -> isize) -> usize {
    // The last maximum in reverse order is the first in order.
    (0..SPAN).step_by(LINE).rev().max_by_key(|&c| score(c)).unwrap_or(0) as usize
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

/// Spare cells a row may need before it to be placed: 4 KiB less one cell.
pub(super) const ROOM: usize = PAGE / 4 - 1;

/// Rows placed one after another in a buffer of zeros, each at its offset from `origin`
/// ([`Placer::place`]). Holds the buffer's address only, to find indices; it reads nothing.
pub(super) struct Placer {
    base: *const f32,
    origin: *const f32,
    next: usize,
}

impl Placer {
    /// `buffer` cleared and zeroed for `rows` rows of `cells` cells in all, each with the room
    /// to be placed, to be placed from `origin`.
    pub(super) fn new(buffer: &mut Vec<f32>, cells: usize, rows: usize, origin: *const f32) -> Self {
        buffer.clear();
        buffer.resize(cells + rows * ROOM, 0.0);
        Self { base: buffer.as_ptr(), origin, next: 0 }
    }

    /// Where the next row, `len` cells, starts: the first index after the rows placed before
    /// it whose cell lies `at` bytes (mod 4 KiB) after the origin.
    pub(super) fn place(&mut self, at: usize, len: usize) -> usize {
        let i = index_at(self.base, self.next, self.origin, at);
        self.next = i + len;
        i
    }
}

/// The last two values worked out, by what they were worked out for: the offsets a search
/// here finds cost a few thousand operations, as much as a small map's step, so a step's
/// scratch keeps them (a propagator's buffers swap each step: two keys take turns).
#[derive(Debug, Clone, Default)]
pub(super) struct Memo<K, V>([Option<(K, V)>; 2]);

impl<K: PartialEq + Copy, V: Copy> Memo<K, V> {
    /// The value for `key`, made by `make` unless it is one of the last two.
    pub(super) fn get(&mut self, key: K, make: impl FnOnce() -> V) -> V {
        if let Some(&(_, value)) = self.0.iter().flatten().find(|(k, _)| *k == key) {
            return value;
        }
        // The newer of the two moves to the second slot; the older gives way.
        self.0.swap(0, 1);
        let value = make();
        self.0[0] = Some((key, value));
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The offset chosen is clear of both neighbours both ways wherever one is, for row
    /// lengths of every kind: the powers of two where rows repeat within 4 KiB, and others.
    #[test]
    fn offsets_between_are_clear_of_both_sides() {
        for width in [64, 100, 256, 333, 512, 1000, 1024, 2048, 4096, 5000] {
            let row = row(width);
            let clear = |c: usize, t: usize| {
                let (c, t) = (c as isize, t as isize);
                clearance(c - t, row) >= 0 && clearance(t - c, row) >= 0
            };
            for (read, written) in [(0, 0), (0, 2048), (1024, 64), (4032, 512)] {
                let c = clear_of(&[read, written], width);
                assert_eq!(c % LINE, 0);
                if (0..PAGE).step_by(LINE).any(|c| clear(c, read) && clear(c, written)) {
                    assert!(clear(c, read) && clear(c, written), "{width} {read} {written}: {c}");
                }
            }
        }
        // Rows a multiple of 4 KiB long: half a page from rows at 0 both ways.
        assert_eq!(clear_of(&[0, 0], 1024), 2048);
    }

    /// Rows placed one after another lie at their offsets, in order, apart.
    #[test]
    fn placed_rows_lie_at_their_offsets_in_order() {
        let origin = [0.0f32; 3];
        let mut buffer = Vec::new();
        let mut placer = Placer::new(&mut buffer, 3 * 100, 3, origin.as_ptr());
        let rows = [2048, 64, 2048].map(|at| (placer.place(at, 100), at));
        assert!(rows[0].0 + 100 <= rows[1].0 && rows[1].0 + 100 <= rows[2].0);
        assert!(rows[2].0 + 100 <= buffer.len());
        for (i, at) in rows {
            assert_eq!(offset(buffer[i..].as_ptr(), origin.as_ptr()), at);
        }
    }

    /// Offsets clear of several rows: for rows a multiple of 4 KiB long, half a page from one
    /// row, then a quarter from both; every offset chosen is clear of each row both ways
    /// where such an offset exists.
    #[test]
    fn offsets_clear_of_several_rows_keep_from_all() {
        assert_eq!(clear_of(&[0], 4096), 2048);
        assert_eq!(clear_of(&[0, 2048], 1024), 1024);
        let clear = |c: usize, taken: &[usize], width: usize| {
            let (c, row) = (c as isize, row(width));
            taken.iter().all(|&t| clearance(c - t as isize, row).min(clearance(t as isize - c, row)) >= 0)
        };
        for width in [256, 512, 1000, 2048, 4096, 5000] {
            let first = clear_of(&[0], width);
            let taken = [0, first];
            let second = clear_of(&taken, width);
            if (0..PAGE).step_by(LINE).any(|c| clear(c, &taken, width)) {
                assert!(clear(second, &taken, width), "{width}: {second} by {taken:?}");
            }
        }
        // Rows 1 KiB long leave no offset clear of two others: the search still ends.
        assert!(!(0..PAGE).step_by(LINE).any(|c| clear(c, &[0, clear_of(&[0], 256)], 256)));
    }

    /// A memo makes a value once per key while the key is one of the last two asked for.
    #[test]
    fn a_memo_keeps_the_last_two_keys() {
        let mut memo = Memo::default();
        let mut made = 0;
        let mut get = |memo: &mut Memo<u32, u32>, key: u32| {
            memo.get(key, || {
                made += 1;
                key * 10
            })
        };
        assert_eq!(
            [get(&mut memo, 1), get(&mut memo, 2), get(&mut memo, 1), get(&mut memo, 2)],
            [10, 20, 10, 20]
        );
        assert_eq!(get(&mut memo, 3), 30); // 1 gives way, 2 stays
        assert_eq!(get(&mut memo, 2), 20);
        assert_eq!(get(&mut memo, 1), 10);
        assert_eq!(made, 4);
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
