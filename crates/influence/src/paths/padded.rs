//! The grid as the searches expand it: one padded array of entry penalties.
//!
//! A route or a flow field over a [`Grid`] reads, for every neighbour of every cell it
//! expands, whether the neighbour is inside the map, whether it is a wall, and what entering
//! it costs. [`Padded`] answers all three from one `f32` per cell, filled once per search
//! (its buffer reused from call to call; a route fills only the rows it reaches): the grid with a border of walls one cell wide, each
//! open cell holding `weight · max(0, layer[j])` (0 without a layer or at weight 0), each
//! wall (and the border) NaN. A neighbour is open when its entry is not NaN, so expansion
//! needs no coordinates, bounds checks or wall flags; an infinite penalty stays a walkable
//! cell, as [`Cost::step`](crate::route::Cost::step) makes it. The step into an open cell
//! costs `d + penalty`, the same operations on the same numbers as `Cost::step`, so the same
//! bits.
//!
//! Cell `(x, y)` of the grid is entry `(y + 1) · stride + x + 1`, with `stride = width + 2`:
//! padded indices order as the grid's do, so keys that break ties on the cell break them the
//! same way on either.
//!
//! [`Padded::offers`] is the one expansion of a padded cell, for the grid A* (`Router`) and
//! the flow field alike: the neighbours of [`Space::for_each_neighbour`] on a grid
//! (`grid_neighbours!`), in the same order with the same lengths (a unit test checks it),
//! as bits chosen without a branch per neighbour. The flow field's queue search takes its
//! bits a row of neighbours at a time ([`Padded::cheaper`], `paths/rows.rs`), the same bits;
//! for those loads the penalties end with [`SLACK`] entries past the map.

use crate::space::{Connectivity, Grid, Space};

/// What [`Padded::census`] counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Census {
    /// Open cells.
    pub(crate) open: usize,
    /// Open cells whose penalty is at least the bound `census` was given.
    pub(crate) heavy: usize,
}

/// Entries past the last (NaN, a wall), so that each row of a cell's neighbours, and the
/// entry after it, is one vector load (`paths/rows.rs`).
pub(crate) const SLACK: usize = 1;

/// Rows apart that [`Padded::census`] samples.
const CENSUS_EVERY: usize = 8;

/// A grid's entry penalties with a border of walls (see the module docs).
#[derive(Debug, Clone, Default)]
pub(crate) struct Padded {
    /// `(width + 2) · (height + 2)` entries; NaN for walls and the border.
    pub(crate) penalty: Vec<f32>,
    /// Entries per padded row: `width + 2`.
    pub(crate) stride: usize,
    width: usize,
    height: usize,
    /// Per padded row, the search ([`generation`](Self::generation)) that last filled it.
    filled: Vec<u32>,
    /// The current search, counted from 1.
    generation: u32,
    /// The straight and diagonal step lengths.
    pub(crate) straight: f32,
    pub(crate) diagonal: f32,
    /// Whether diagonal steps are taken (8-connectivity).
    pub(crate) eight: bool,
}

impl Padded {
    /// Fills the penalties of `grid` entering cell `j` at `weight · max(0, layer[j])`
    /// (`layer` a layer's values; none, or weight 0: 0), reusing the buffer: every row, for
    /// a search that reaches the whole map (the flow field).
    ///
    /// # Panics
    /// If `layer` does not have one value per cell.
    pub(crate) fn fill(&mut self, grid: &Grid, layer: Option<&[f32]>, weight: f32) {
        let layer = self.begin(grid, layer, weight);
        for y in 1..=grid.height() {
            self.fill_row(y, grid.blocked(), layer, weight);
        }
    }

    /// Readies the buffer for `grid` without filling its rows: a search that may touch a
    /// few rows of a big map (a short route) fills them as it reaches them
    /// ([`ensure_rows`](Self::ensure_rows)), so it never pays for the whole map. Returns the
    /// layer to fill rows from (none at weight 0).
    ///
    /// # Panics
    /// If `layer` does not have one value per cell.
    pub(crate) fn begin<'l>(
        &mut self,
        grid: &Grid,
        layer: Option<&'l [f32]>,
        weight: f32,
    ) -> Option<&'l [f32]> {
        let (w, h) = (grid.width(), grid.height());
        let stride = w + 2;
        let layer = layer.filter(|_| weight > 0.0);
        if let Some(values) = layer {
            assert_eq!(values.len(), grid.len(), "cost layer was not made for this grid");
        }
        if (self.stride, self.height) != (stride, h) || self.penalty.len() != stride * (h + 2) + SLACK {
            // New dimensions: the border (and everything else) NaN; rows are filled below
            // or on demand, and the border is never written again.
            self.penalty.clear();
            self.penalty.resize(stride * (h + 2) + SLACK, f32::NAN);
            self.filled.clear();
            self.filled.resize(h + 2, 0);
            self.generation = 0;
        }
        if self.generation == u32::MAX {
            self.filled.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
        // The border rows count as filled: they are walls for good.
        self.filled[0] = self.generation;
        self.filled[h + 1] = self.generation;
        self.stride = stride;
        self.width = w;
        self.height = h;
        self.straight = grid.cell_size();
        self.diagonal = grid.cell_size() * std::f32::consts::SQRT_2;
        self.eight = grid.connectivity() == Connectivity::Eight;
        layer
    }

    /// Fills padded rows `y − 1`, `y`, `y + 1` where this search has not yet: the rows a
    /// cell of padded row `y` reads its neighbours from. `blocked`, `layer` and `weight` as
    /// given to [`begin`](Self::begin) (its return value for `layer`).
    #[inline]
    pub(crate) fn ensure_rows(&mut self, y: usize, blocked: &[bool], layer: Option<&[f32]>, weight: f32) {
        let g = self.generation;
        if self.filled[y - 1] != g || self.filled[y] != g || self.filled[y + 1] != g {
            for r in y - 1..=y + 1 {
                if self.filled[r] != g {
                    self.fill_row(r, blocked, layer, weight);
                }
            }
        }
    }

    /// Fills padded row `y` (`1..=height`) and marks it filled this search.
    fn fill_row(&mut self, y: usize, blocked: &[bool], layer: Option<&[f32]>, weight: f32) {
        let w = self.width;
        let row = &mut self.penalty[y * self.stride + 1..][..w];
        let walls = &blocked[(y - 1) * w..][..w];
        // Branch-free per cell, so each row vectorises: a wall ORs a quiet NaN's bits into
        // its penalty (never negative, so the result is a NaN whatever the penalty).
        match layer {
            Some(values) => {
                for ((p, &wall), &v) in row.iter_mut().zip(walls).zip(&values[(y - 1) * w..][..w]) {
                    let nan = 0u32.wrapping_sub(u32::from(wall)) & 0x7fc0_0000;
                    *p = f32::from_bits((weight * v.max(0.0)).to_bits() | nan);
                }
            }
            None => {
                for (p, &wall) in row.iter_mut().zip(walls) {
                    *p = if wall { f32::NAN } else { 0.0 };
                }
            }
        }
        self.filled[y] = self.generation;
    }

    /// The open cells of one filled row in every [`CENSUS_EVERY`] (the first row always),
    /// and how many of them cost at least `heavy_from` to enter: a sample of the map's
    /// penalties, for the flow field to choose its search, that costs a few percent of a fill.
    pub(crate) fn census(&self, heavy_from: f32) -> Census {
        let (mut open, mut heavy) = (0u32, 0u32);
        for y in (1..=self.height).step_by(CENSUS_EVERY) {
            for &p in &self.penalty[y * self.stride + 1..][..self.width] {
                open += u32::from(!p.is_nan());
                heavy += u32::from(p >= heavy_from);
            }
        }
        Census { open: open as usize, heavy: heavy as usize }
    }

    /// Entries in all, border included.
    pub(crate) fn len(&self) -> usize {
        self.penalty.len() - SLACK
    }

    /// The padded index of grid cell `i`.
    #[inline]
    pub(crate) fn pad(&self, i: usize) -> usize {
        i + self.stride + 1 + 2 * (i / self.width)
    }

    /// The grid cell of padded index `p` (not on the border).
    #[inline]
    pub(crate) fn unpad(&self, p: usize) -> usize {
        let (x, y) = (p % self.stride, p / self.stride);
        (y - 1) * self.width + x - 1
    }
}

/// The offsets `(dx, dy)` of a cell's neighbours in the order of [`Padded::offers`]'s bits:
/// right, left, down, up, down-right, down-left, up-right, up-left (`grid_neighbours!`'s
/// order).
pub(crate) const OFFSETS: [(i32, i32); 8] =
    [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)];

impl Padded {
    /// The index offsets of a padded cell's neighbours, wrapping (add them with
    /// `wrapping_add`), in the order of [`OFFSETS`] and of [`offers`](Self::offers)'s bits.
    pub(crate) fn steps(&self) -> [usize; 8] {
        let s = self.stride as isize;
        OFFSETS.map(|(dx, dy)| (dy as isize * s + dx as isize) as usize)
    }

    /// The neighbours of padded cell `p` (an inner cell) that are open and pass `test`, as
    /// bits in the order of [`steps`](Self::steps): bit `i` is set when neighbour `q` is not
    /// a wall (nor the border), for a diagonal (bits 4 to 7, 8-connected grids only) both
    /// orthogonal cells beside it are open, and `test(i, q)` holds. `test` is called for
    /// every neighbour, open or not (a wall is still a valid index), and nothing branches
    /// on it: a search visits the set bits, the neighbours of
    /// [`Space::for_each_neighbour`] on the grid in its order.
    #[inline(always)]
    pub(crate) fn offers(&self, p: usize, mut test: impl FnMut(u32, usize) -> bool) -> u32 {
        let (s, pen) = (self.stride, &self.penalty[..]);
        let open = |q: usize| !pen[q].is_nan();
        let (r, l, d, u) = (open(p + 1), open(p - 1), open(p + s), open(p - s));
        let straight = u32::from(r & test(0, p + 1))
            | u32::from(l & test(1, p - 1)) << 1
            | u32::from(d & test(2, p + s)) << 2
            | u32::from(u & test(3, p - s)) << 3;
        if !self.eight {
            return straight;
        }
        straight
            | u32::from(r & d & open(p + s + 1) & test(4, p + s + 1)) << 4
            | u32::from(l & d & open(p + s - 1) & test(5, p + s - 1)) << 5
            | u32::from(r & u & open(p - s + 1) & test(6, p - s + 1)) << 6
            | u32::from(l & u & open(p - s - 1) & test(7, p - s - 1)) << 7
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layer::Layer;

    /// `offers` gives every cell the neighbours `Space::for_each_neighbour` gives it, in the
    /// same order, with the same lengths and the offsets of their cells, and each open
    /// neighbour's penalty as `Cost::step` adds it; it tests every neighbour and keeps only
    /// those its test passes.
    #[test]
    fn padded_offers_are_the_grids_neighbours() {
        let rows = ["..@...", ".@..@.", "......", "@..@.."];
        for connectivity in [Connectivity::Eight, Connectivity::Four] {
            let grid =
                Grid::from_rows(&rows).unwrap().with_cell_size(1.5).unwrap().with_connectivity(connectivity);
            let mut layer = Layer::for_space(&grid);
            for (i, v) in layer.values_mut().iter_mut().enumerate() {
                *v = [2.0, -1.0, f32::NAN, 0.5, f32::INFINITY][i % 5];
            }
            let cost = crate::route::Cost::avoiding(&layer, 0.75).unwrap();
            let mut padded = Padded::default();
            padded.fill(&grid, Some(layer.values()), 0.75);
            for i in (0..grid.len()).filter(|&i| grid.is_walkable(i)) {
                let mut want = Vec::new();
                grid.for_each_neighbour(i, |j, d| want.push((j, d.to_bits(), cost.step(d, j).to_bits())));
                let mut got = Vec::new();
                let p = padded.pad(i);
                assert_eq!(padded.unpad(p), i);
                let (mut tested, steps) = (0u32, padded.steps());
                let mut bits = padded.offers(p, |b, q| {
                    assert_eq!(q, p.wrapping_add(steps[b as usize]));
                    tested |= 1 << b;
                    true
                });
                let every = if connectivity == Connectivity::Eight { 0xff } else { 0x0f };
                assert_eq!(tested, every, "cell {i}: every neighbour is tested");
                while bits != 0 {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    let q = p.wrapping_add(steps[b as usize]);
                    let j = padded.unpad(q);
                    let (x, y) = (
                        (j % grid.width()) as i32 - (i % grid.width()) as i32,
                        (j / grid.width()) as i32 - (i / grid.width()) as i32,
                    );
                    assert_eq!((x, y), OFFSETS[b as usize]);
                    let d = if b < 4 { padded.straight } else { padded.diagonal };
                    got.push((j, d.to_bits(), (d + padded.penalty[q]).to_bits()));
                }
                // A test that fails clears its bit.
                if connectivity == Connectivity::Eight {
                    assert_eq!(padded.offers(p, |b, _| b != 4) & 1 << 4, 0);
                }
                assert_eq!(got, want, "cell {i}, {connectivity:?}");
            }
        }
    }
}
