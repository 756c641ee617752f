//! The one pseudo-random stream behind every benchmark input — walls, seeds, source
//! positions and strengths, layer values, query points: [`rand_xorshift::XorShiftRng`]
//! (Marsaglia's xorshift128), seeded by [`rand_core::SeedableRng::seed_from_u64`].
//!
//! The stream is documented and the same on every platform: the rand project tests the
//! generator against reference vectors and counts any change of its output, or of
//! `seed_from_u64`'s seed expansion, as a breaking change; and nothing below depends on the
//! width of `usize`. So a seed names the same inputs on every machine and in every run, and
//! numbers measured on two machines are measured on the same maps.

use influence::{Cell, Falloff, Grid, Layer, Source, Space, Stamper};
use rand_core::{Rng as _, SeedableRng};
use rand_xorshift::XorShiftRng;

/// A fixed pseudo-random stream: the same numbers for the same seed.
#[derive(Clone, Debug)]
pub struct Rng(XorShiftRng);

impl Rng {
    /// The stream of `seed`. Different seeds give unrelated streams, even neighbouring ones.
    pub fn new(seed: u64) -> Self {
        Self(XorShiftRng::seed_from_u64(seed))
    }

    /// The next 64 bits.
    pub fn u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `[0, 1)`: the top 24 bits of the next word, each value exact in `f32`.
    pub fn unit(&mut self) -> f32 {
        (self.0.next_u32() >> 8) as f32 / (1u32 << 24) as f32
    }

    /// A number from `lo` to `hi` (`hi` itself only by rounding).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// An integer in `0..n` (`n > 0`), computed in `u64` so that it is the same on every
    /// platform; the bias of the remainder is below `n / 2⁶⁴`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n as u64) as usize
    }

    /// `true` once in `n` draws on average.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.0.next_u64().is_multiple_of(n)
    }
}

/// A `side × side` map with about one cell in ten blocked, drawn from the stream of `seed`
/// row by row: the walled map the benchmarks step, stamp and route on.
pub fn walled_grid(side: usize, seed: u64) -> Grid {
    let mut grid = Grid::new(side, side).expect("bench sizes are valid");
    let mut rng = Rng::new(seed);
    for i in 0..side * side {
        if rng.one_in(10) {
            grid.set_blocked(Cell::new(i % side, i / side), true).expect("inside the map");
        }
    }
    grid
}

/// A unit's strength: with it, A* across the 256² map expands about 44,000 of its 59,000
/// walkable cells, as the frame the issue measured did (a weaker layer leaves the octile
/// estimate tight, and A* fast).
pub const STRENGTH: f32 = 4.0;

/// `units` enemies of radius 8 (linear falloff, strength [`STRENGTH`]) on random walkable
/// cells.
pub fn danger(grid: &Grid, units: usize, seed: u64) -> Layer {
    let open: Vec<usize> = (0..grid.len()).filter(|&i| grid.is_walkable(i)).collect();
    let mut rng = Rng::new(seed);
    let mut layer = Layer::for_space(grid);
    let mut stamper = Stamper::new();
    for _ in 0..units {
        let at = open[rng.below(open.len())];
        let unit = Source::new(grid.position(at).truncate(), STRENGTH, Falloff::Linear, 8.0).unwrap();
        stamper.stamp(grid, &mut layer, &unit).unwrap();
    }
    layer
}

/// The walkable cell nearest `(x, y)` along the diagonal towards the map's centre, if that
/// diagonal crosses one.
pub fn open_near(grid: &Grid, x: usize, y: usize) -> Option<usize> {
    let (cx, cy) = (grid.width() / 2, grid.height() / 2);
    (0..grid.width().max(grid.height()))
        .map(|k| {
            let step = |a: usize, c: usize| if a < c { (a + k).min(c) } else { a.saturating_sub(k).max(c) };
            Cell::new(step(x, cx), step(y, cy))
        })
        .find(|&c| !grid.is_blocked(c))
        .and_then(|c| grid.index(c))
}

#[cfg(test)]
mod tests {
    use super::Rng;

    /// The stream is part of what a benchmark measures: pin its first numbers, so that a
    /// change of generator or seeding shows here before it silently changes the inputs.
    #[test]
    fn the_stream_is_pinned() {
        let mut rng = Rng::new(7);
        let first: Vec<u64> = (0..3).map(|_| rng.u64()).collect();
        assert_eq!(first, PINNED);
    }

    const PINNED: [u64; 3] =
        [5_565_015_810_683_446_962, 14_694_241_966_208_775_659, 13_107_288_054_060_928_335];

    #[test]
    fn draws_stay_in_their_ranges() {
        let mut rng = Rng::new(1);
        for _ in 0..10_000 {
            assert!((0.0..1.0).contains(&rng.unit()));
            assert!((2.0..=5.0).contains(&rng.range(2.0, 5.0)));
            assert!(rng.below(7) < 7);
        }
        let walls = (0..100_000).filter(|_| rng.one_in(10)).count();
        assert!((9_000..11_000).contains(&walls), "{walls}");
    }
}
