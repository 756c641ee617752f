//! The 2D grid: `width × height` cells, row-major, square cells of `cell_size` world units
//! with the corner of cell (0, 0) at the world `origin`.

use std::sync::atomic::{AtomicU64, Ordering};

use glam::{Vec2, Vec3};

use super::Space;
use crate::error::{finite, positive, Error};

/// The walkable neighbours of cell `$i` of grid `$grid`, each as `$body` with `$j` the
/// neighbour and `$d` the step's length: right, left, down, up, then (8-connected)
/// down-right, down-left, up-right, up-left, a diagonal only when both orthogonal cells
/// beside it are free. The definition of a grid's neighbours, behind
/// [`Space::for_each_neighbour`]; the searches that expand a grid cell per iteration (A* on
/// a grid, the flow field) expand it on a padded penalty array instead
/// (`paths::Padded::offers`, checked against this one by a unit test).
macro_rules! grid_neighbours {
    ($grid:expr, $i:expr, |$j:ident, $d:ident| $body:expr) => {{
        let grid: &$crate::space::Grid = $grid;
        let i: usize = $i;
        let (w, blocked) = (grid.width(), grid.blocked());
        let (x, y) = (i % w, i / w);
        let right = x + 1 < w && !blocked[i + 1];
        let left = x > 0 && !blocked[i - 1];
        let down = y + 1 < grid.height() && !blocked[i + w];
        let up = y > 0 && !blocked[i - w];
        let straight = grid.cell_size();
        // Plain branches, each guarding its own index: nothing wraps, no bound is checked
        // twice, and the body is written out once per direction.
        if right {
            let ($j, $d) = (i + 1, straight);
            $body;
        }
        if left {
            let ($j, $d) = (i - 1, straight);
            $body;
        }
        if down {
            let ($j, $d) = (i + w, straight);
            $body;
        }
        if up {
            let ($j, $d) = (i - w, straight);
            $body;
        }
        if grid.connectivity() == $crate::space::Connectivity::Eight {
            let diagonal = straight * std::f32::consts::SQRT_2;
            if right && down && !blocked[i + w + 1] {
                let ($j, $d) = (i + w + 1, diagonal);
                $body;
            }
            if left && down && !blocked[i + w - 1] {
                let ($j, $d) = (i + w - 1, diagonal);
                $body;
            }
            if right && up && !blocked[i - w + 1] {
                let ($j, $d) = (i - w + 1, diagonal);
                $body;
            }
            if left && up && !blocked[i - w - 1] {
                let ($j, $d) = (i - w - 1, diagonal);
                $body;
            }
        }
    }};
}

/// The largest number of cells a grid may have: 2²⁸ (a 16384 × 16384 map), 1 GiB per `f32` layer.
/// Larger requests get [`Error::BadSize`] instead of an allocation failure.
pub const MAX_CELLS: usize = 1 << 28;

/// How far from the world's origin a grid may reach, in world units: 10¹⁸, so that the
/// squared distance between any two of its points stays within `f32`.
const MAX_WORLD: f32 = 1e18;

/// Which cells count as neighbours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Connectivity {
    /// Up, down, left, right, each one `cell_size` away.
    Four,
    /// The four above plus diagonals at `√2 · cell_size`; a diagonal step is allowed only
    /// when both orthogonal cells beside it are walkable (no corner cutting).
    #[default]
    Eight,
}

/// A cell of a [`Grid`] by its column `x` and row `y`; row-major index `y · width + x`
/// ([`Grid::index`], [`Grid::cell`]).
///
/// ```
/// use influence::{Cell, Grid};
/// let grid = Grid::new(4, 3)?;
/// let cell = Cell::new(3, 1);
/// assert_eq!(grid.index(cell), Some(7));
/// assert_eq!(grid.cell(7), cell);
/// assert_eq!(grid.index(Cell { x: 4, y: 0 }), None); // outside
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Cell {
    /// Column, from 0 on the left (`origin.x`).
    pub x: usize,
    /// Row, from 0 at the top (`origin.y`, the first row of a map file).
    pub y: usize,
}

impl Cell {
    /// Cell (x, y).
    pub const fn new(x: usize, y: usize) -> Self {
        Self { x, y }
    }
}

impl From<[usize; 2]> for Cell {
    /// Cell `[x, y]`, as an error or a JSON document gives one.
    fn from([x, y]: [usize; 2]) -> Self {
        Self { x, y }
    }
}

impl From<Cell> for [usize; 2] {
    /// `[x, y]`, as a JSON document or a report writes a cell.
    fn from(cell: Cell) -> Self {
        [cell.x, cell.y]
    }
}

/// A rectangular grid of square cells, some of them blocked.
///
/// ```
/// use influence::{Cell, Grid, glam::Vec2};
/// // World in Conflict: a 200 × 200 influence map over a 512 × 512 world.
/// let grid = Grid::new(200, 200)?.with_cell_size(512.0 / 200.0)?;
/// assert_eq!(grid.cell_at(Vec2::new(511.9, 0.5)), Some(Cell::new(199, 0)));
/// assert_eq!(grid.center(Cell::new(0, 0)), Vec2::splat(1.28));
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug)]
pub struct Grid {
    width: usize,
    height: usize,
    cell_size: f32,
    origin: Vec2,
    connectivity: Connectivity,
    blocked: Vec<bool>,
    /// The walkable cells again, a bit each, rows padded to whole words (`Grid::free_bits`).
    free: Vec<u64>,
    /// Names these walls ([`Grid::walls_tag`]).
    tag: WallsTag,
}

/// A name for a grid's walls: two grids with the same tag have the same walls, so what
/// was made from one grid's walls serves the other without comparing them (a step's kept
/// wall data). A grid made or cloned takes a tag no other has had; each change of a cell
/// counts one more edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WallsTag {
    grid: u64,
    edits: u64,
}

impl WallsTag {
    /// A tag no grid has had.
    fn fresh() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Self { grid: NEXT.fetch_add(1, Ordering::Relaxed), edits: 0 }
    }
}

impl Clone for Grid {
    fn clone(&self) -> Self {
        Self {
            blocked: self.blocked.clone(),
            free: self.free.clone(),
            // The clone's walls change apart from these.
            tag: WallsTag::fresh(),
            ..*self
        }
    }
}

/// Grids are equal when their sizes, placement, connectivity and walls are; their tags
/// may differ.
impl PartialEq for Grid {
    fn eq(&self, other: &Self) -> bool {
        let Self { width, height, cell_size, origin, connectivity, blocked, free: _, tag: _ } = self;
        (*width, *height, *cell_size, *origin, *connectivity, blocked)
            == (other.width, other.height, other.cell_size, other.origin, other.connectivity, &other.blocked)
    }
}

impl Grid {
    /// An open grid (nothing blocked), cell size 1, origin at (0, 0), 8-connected.
    ///
    /// # Errors
    /// [`Error::BadSize`] if a side is zero or the cell count exceeds [`MAX_CELLS`].
    pub fn new(width: usize, height: usize) -> Result<Self, Error> {
        let bad = |reason| Error::BadSize { width, height, reason };
        if width == 0 || height == 0 {
            return Err(bad("both sides must be at least 1 cell"));
        }
        match width.checked_mul(height) {
            Some(n) if n <= MAX_CELLS => {}
            _ => return Err(bad("more than 268,435,456 (2^28) cells")),
        }
        Ok(Self {
            width,
            height,
            cell_size: 1.0,
            origin: Vec2::ZERO,
            connectivity: Connectivity::Eight,
            blocked: vec![false; width * height],
            free: (0..height * width.div_ceil(64))
                .map(|i| {
                    let left = width - (i % width.div_ceil(64)) * 64; // cells from this word on
                    u64::MAX >> 64usize.saturating_sub(left)
                })
                .collect(),
            tag: WallsTag::fresh(),
        })
    }

    /// Sets the side of a cell in world units.
    ///
    /// # Errors
    /// [`Error::BadNumber`] unless `cell_size` is finite and positive.
    pub fn with_cell_size(mut self, cell_size: f32) -> Result<Self, Error> {
        self.cell_size = positive("cell_size", cell_size)?;
        self.check_extent("cell_size", cell_size)?;
        Ok(self)
    }

    /// The map's corners within ±[`MAX_WORLD`] world units, so that distances between any
    /// two points of it (and their squares) stay finite.
    fn check_extent(&self, what: &'static str, value: f32) -> Result<(), Error> {
        let far = |o: f32, n: usize| f64::from(o) + n as f64 * f64::from(self.cell_size);
        let corners = [
            self.origin.x,
            self.origin.y,
            far(self.origin.x, self.width) as f32,
            far(self.origin.y, self.height) as f32,
        ];
        if corners.iter().all(|c| c.abs() <= MAX_WORLD) {
            Ok(())
        } else {
            Err(Error::BadNumber {
                what,
                expected: "a number that keeps the map within ±1e18 world units",
                value: f64::from(value),
            })
        }
    }

    /// Sets the world position of the corner of cell (0, 0).
    ///
    /// # Errors
    /// [`Error::BadNumber`] if a coordinate is not finite.
    pub fn with_origin(mut self, origin: Vec2) -> Result<Self, Error> {
        finite("origin.x", origin.x)?;
        finite("origin.y", origin.y)?;
        self.origin = origin;
        match origin.x.abs() >= origin.y.abs() {
            true => self.check_extent("origin.x", origin.x)?,
            false => self.check_extent("origin.y", origin.y)?,
        }
        Ok(self)
    }

    /// Sets 4- or 8-connectivity.
    #[must_use]
    pub fn with_connectivity(mut self, connectivity: Connectivity) -> Self {
        self.connectivity = connectivity;
        self
    }

    /// A grid from ASCII rows, first row y = 0: `.`, `G`, `S`, `W` and space are walkable;
    /// `@`, `O`, `T` and `#` are blocked (the MovingAI convention plus `#`).
    ///
    /// ```
    /// let grid = influence::Grid::from_rows(&["..@", "..@"])?;
    /// assert_eq!((grid.width(), grid.height()), (3, 2));
    /// assert!(grid.is_blocked(influence::Cell::new(2, 1)));
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::MapFormat`] for ragged rows or unknown characters (naming the 1-based row),
    /// [`Error::BadSize`] for no rows.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Self, Error> {
        let width = rows.first().map_or(0, |r| r.as_ref().chars().count());
        let mut grid = Self::new(width, rows.len())?;
        for (y, row) in rows.iter().enumerate() {
            grid.fill_row(y, row.as_ref(), y + 1)?;
        }
        Ok(grid)
    }

    /// Sets row `y` from its characters; `line` is reported in errors.
    pub(super) fn fill_row(&mut self, y: usize, row: &str, line: usize) -> Result<(), Error> {
        let count = row.chars().count();
        if count != self.width {
            return Err(Error::MapFormat {
                line,
                message: format!("row has {count} cells, expected {}", self.width),
            });
        }
        for (x, c) in row.chars().enumerate() {
            let blocked = match c {
                '.' | 'G' | 'S' | 'W' | ' ' => false,
                '@' | 'O' | 'T' | '#' => true,
                other => {
                    return Err(Error::MapFormat {
                        line,
                        message: format!("unknown map character {other:?} at column {}", x + 1),
                    })
                }
            };
            self.set(y * self.width + x, blocked);
        }
        Ok(())
    }

    /// Blocks or frees cell `i`, in both forms.
    fn set(&mut self, i: usize, blocked: bool) {
        self.blocked[i] = blocked;
        self.tag.edits += 1;
        let (x, y) = (i % self.width, i / self.width);
        let word = &mut self.free[y * self.width.div_ceil(64) + x / 64];
        *word = (*word & !(1 << (x % 64))) | (u64::from(!blocked) << (x % 64));
    }

    /// Width in cells.
    pub fn width(&self) -> usize {
        self.width
    }
    /// Height in cells.
    pub fn height(&self) -> usize {
        self.height
    }
    /// Side of a cell in world units.
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }
    /// World position of the corner of cell (0, 0).
    pub fn origin(&self) -> Vec2 {
        self.origin
    }
    /// 4- or 8-connectivity.
    pub fn connectivity(&self) -> Connectivity {
        self.connectivity
    }
    /// Size of the covered world rectangle.
    pub fn world_size(&self) -> Vec2 {
        Vec2::new(self.width as f32, self.height as f32) * self.cell_size
    }

    /// Row-major index of `cell`, or `None` outside the grid.
    #[inline]
    pub fn index(&self, cell: Cell) -> Option<usize> {
        (cell.x < self.width && cell.y < self.height).then(|| cell.y * self.width + cell.x)
    }

    /// The cell of index `i` (which must be `< len()`).
    pub fn cell(&self, i: usize) -> Cell {
        debug_assert!(i < self.blocked.len(), "cell index {i} outside the grid");
        Cell { x: i % self.width, y: i / self.width }
    }

    /// World position of the centre of `cell`: `origin + (x + 0.5, y + 0.5) · cell_size`.
    pub fn center(&self, cell: Cell) -> Vec2 {
        self.origin + (Vec2::new(cell.x as f32, cell.y as f32) + 0.5) * self.cell_size
    }

    /// A world point in continuous cell units: cell (x, y) spans `[x, x+1) × [y, y+1)`.
    #[inline]
    pub(crate) fn to_cell_space(&self, p: Vec2) -> Vec2 {
        // Dividing by 1 changes nothing, and the division is the costly part.
        if self.cell_size == 1.0 {
            p - self.origin
        } else {
            (p - self.origin) / self.cell_size
        }
    }

    /// The cell containing world point `p`, or `None` outside the grid (or for NaN). Its
    /// index is [`index`](Self::index) of it.
    #[inline]
    pub fn cell_at(&self, p: Vec2) -> Option<Cell> {
        let c = self.to_cell_space(p);
        let inside = c.x >= 0.0 && c.y >= 0.0 && c.x < self.width as f32 && c.y < self.height as f32;
        // The float comparison can round up to `width` for points a hair inside the edge.
        inside.then(|| Cell { x: (c.x as usize).min(self.width - 1), y: (c.y as usize).min(self.height - 1) })
    }

    /// The walkable cell whose centre is nearest to world point `p` (ties to the lower row,
    /// then the lower column), or `None` if every cell is blocked or `p` is not finite: where
    /// a source refused on a wall could stand ([`Source::check_placement`](crate::Source::check_placement)).
    /// It searches outwards in square rings from the cell nearest `p`, so it costs about the
    /// number of cells closer than the answer.
    pub(crate) fn nearest_walkable(&self, p: Vec2) -> Option<Cell> {
        if !p.is_finite() {
            return None;
        }
        let u = self.to_cell_space(p);
        let clamp = |v: f32, n: usize| (v.floor().max(0.0) as usize).min(n - 1);
        let (cx, cy) = (clamp(u.x, self.width), clamp(u.y, self.height));
        let d2 = |x: usize, y: usize| {
            let (dx, dy) = (f64::from(u.x) - (x as f64 + 0.5), f64::from(u.y) - (y as f64 + 0.5));
            dx * dx + dy * dy
        };
        let mut best: Option<(f64, usize, usize)> = None;
        let limit = self.width.max(self.height);
        for ring in 0..=limit {
            // Every cell of this ring lies at least `ring - 1` cells from `p` on one axis
            // (`p` is within the start cell or clamped towards the grid).
            if let Some((b, ..)) = best {
                let near = ring.saturating_sub(1) as f64;
                if near * near > b {
                    break;
                }
            }
            let (x0, x1) = (cx.saturating_sub(ring), (cx + ring).min(self.width - 1));
            let (y0, y1) = (cy.saturating_sub(ring), (cy + ring).min(self.height - 1));
            let mut consider = |x: usize, y: usize| {
                if !self.blocked[y * self.width + x] {
                    let d = d2(x, y);
                    if best.is_none_or(|(b, by, bx)| (d, y, x) < (b, by, bx)) {
                        best = Some((d, y, x));
                    }
                }
            };
            for y in y0..=y1 {
                if y + ring == cy || y == cy + ring {
                    (x0..=x1).for_each(|x| consider(x, y));
                } else {
                    // Between its top and bottom rows a ring has only its two side columns.
                    if cx >= ring {
                        consider(cx - ring, y);
                    }
                    if ring > 0 && cx + ring < self.width {
                        consider(cx + ring, y);
                    }
                }
            }
        }
        best.map(|(_, y, x)| Cell { x, y })
    }

    /// Index of the cell containing `p`, or `None` outside the grid.
    pub(crate) fn index_at(&self, p: Vec2) -> Option<usize> {
        self.cell_at(p).map(|c| c.y * self.width + c.x)
    }

    /// Whether `cell` is blocked; cells outside the grid count as blocked.
    #[inline]
    pub fn is_blocked(&self, cell: Cell) -> bool {
        self.index(cell).is_none_or(|i| self.blocked[i])
    }

    /// Blocks or frees `cell`.
    ///
    /// # Errors
    /// [`Error::OutOfBounds`] outside the grid.
    pub fn set_blocked(&mut self, cell: Cell, blocked: bool) -> Result<(), Error> {
        let i = self.index(cell).ok_or(Error::OutOfBounds {
            index: cell.y.saturating_mul(self.width).saturating_add(cell.x),
            len: self.blocked.len(),
        })?;
        self.set(i, blocked);
        Ok(())
    }

    /// One flag per cell, row-major: `true` = blocked.
    pub fn blocked(&self) -> &[bool] {
        &self.blocked
    }

    /// The walkable cells of every row as bits, rows of whole words one after another (row
    /// `y` is [`free_bits`](Self::free_bits)`(y)`), and the words per row.
    #[inline]
    pub(crate) fn free_words(&self) -> (&[u64], usize) {
        (&self.free, self.width.div_ceil(64))
    }

    /// Row `y`'s walkable cells as bits: bit `x % 64` of word `x / 64` is set when cell
    /// (x, y) is walkable; bits past the row's end are clear. Empty beyond the grid. Kept
    /// beside [`blocked`](Self::blocked) for code that reads walls 64 cells at a time (the
    /// grid step reads an eighth of the bytes that way).
    #[inline]
    pub(crate) fn free_bits(&self, y: usize) -> &[u64] {
        let words = self.width.div_ceil(64);
        self.free.get(y.saturating_mul(words)..).and_then(|f| f.get(..words)).unwrap_or(&[])
    }

    /// The name of this grid's walls as they are now ([`WallsTag`]).
    pub(crate) fn walls_tag(&self) -> WallsTag {
        self.tag
    }

    /// Bytes this grid holds on the heap: per cell of capacity one `bool` (the blocked
    /// flags) and one bit (the walkable cells again as bits, rows padded to 64 cells, for the
    /// grid step to read walls 64 cells at a time).
    ///
    /// ```
    /// assert_eq!(influence::Grid::new(256, 256)?.heap_bytes(), 256 * 256 + 256 * 256 / 8);
    /// # Ok::<(), influence::Error>(())
    /// ```
    pub fn heap_bytes(&self) -> usize {
        self.blocked.capacity() * std::mem::size_of::<bool>()
            + self.free.capacity() * std::mem::size_of::<u64>()
    }

    /// Number of walkable cells.
    pub fn walkable_count(&self) -> usize {
        self.blocked.iter().filter(|b| !**b).count()
    }

    /// The grid as ASCII rows (`.` walkable, `@` blocked), the inverse of [`Grid::from_rows`].
    pub fn to_rows(&self) -> Vec<String> {
        self.blocked
            .chunks(self.width)
            .map(|row| row.iter().map(|&b| if b { '@' } else { '.' }).collect())
            .collect()
    }
}

impl Space for Grid {
    fn len(&self) -> usize {
        self.blocked.len()
    }

    fn is_walkable(&self, i: usize) -> bool {
        !self.blocked[i]
    }

    /// Right, left, down, up, then (8-connected) down-right, down-left, up-right, up-left:
    /// the order every generic algorithm sees, so it is kept. Each flag is read once.
    fn for_each_neighbour(&self, i: usize, mut visit: impl FnMut(usize, f32)) {
        grid_neighbours!(self, i, |j, d| visit(j, d));
    }

    fn position(&self, i: usize) -> Vec3 {
        self.center(self.cell(i)).extend(0.0)
    }

    fn locate(&self, p: Vec3) -> Option<usize> {
        self.index_at(p.truncate()).filter(|&i| self.is_walkable(i))
    }

    /// Scans only the square of cells around `p` that can hold the disc.
    fn for_each_within(&self, p: Vec3, radius: f32, visit: impl FnMut(usize)) {
        super::locate::grid_within(self, p, radius, visit);
    }

    fn as_grid(&self) -> Option<&Grid> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_nearest_walkable_cell_is_found_from_inside_and_outside_the_grid() {
        use super::{Cell, Grid};
        use glam::Vec2;
        let grid = Grid::from_rows(&["@@@@.", "@@@@@", "....."]).unwrap();
        assert_eq!(grid.nearest_walkable(grid.center(Cell::new(1, 0))), Some(Cell::new(1, 2)));
        assert_eq!(grid.nearest_walkable(Vec2::new(9.0, -3.0)), Some(Cell::new(4, 0)));
        assert_eq!(grid.nearest_walkable(grid.center(Cell::new(0, 2))), Some(Cell::new(0, 2)));
        // Equally near: the lower row wins, then the lower column.
        let tie = Grid::from_rows(&["@@@.", "@@@@", "...."]).unwrap();
        assert_eq!(tie.nearest_walkable(tie.center(Cell::new(1, 0))), Some(Cell::new(3, 0)));
        assert_eq!(Grid::from_rows(&["@@"]).unwrap().nearest_walkable(Vec2::ZERO), None);
        assert_eq!(grid.nearest_walkable(Vec2::NAN), None);
    }

    /// Grids share a walls tag only while their walls are the same: a clone edited one way
    /// and its original edited another, the same number of times, have different tags; a
    /// clone is still equal to its original, tag aside.
    #[test]
    fn walls_tags_part_with_the_walls() {
        let mut a = Grid::new(8, 8).unwrap();
        let mut b = a.clone();
        assert_eq!(a, b);
        let before = a.walls_tag();
        a.set_blocked(Cell::new(1, 1), true).unwrap();
        b.set_blocked(Cell::new(2, 2), true).unwrap();
        assert_ne!(a, b);
        assert_ne!(a.walls_tag(), b.walls_tag());
        let once = a.walls_tag();
        assert_ne!(once, before);
        a.set_blocked(Cell::new(1, 1), false).unwrap();
        assert_ne!(a.walls_tag(), once, "every edit counts, one that undoes another too");
    }

    #[test]
    fn free_bits_follow_every_change_of_the_flags() {
        for w in [1, 63, 64, 65, 130] {
            let mut grid = Grid::new(w, 3).unwrap();
            let mut next = crate::test_rng::xorshift(0x9E37_79B9_7F4A_7C15);
            for _ in 0..4 * w {
                let s = next();
                let i = (s % (3 * w) as u64) as usize;
                grid.set_blocked(Cell::new(i % w, i / w), s & 1 << 40 != 0).unwrap();
            }
            for y in 0..3 {
                let bits = grid.free_bits(y);
                assert_eq!(bits.len(), w.div_ceil(64));
                for x in 0..bits.len() * 64 {
                    let free = bits[x / 64] >> (x % 64) & 1 == 1;
                    assert_eq!(
                        free,
                        x < w && !grid.is_blocked(Cell::new(x, y)),
                        "width {w}, cell ({x}, {y})"
                    );
                }
            }
        }
    }

    use super::*;

    fn neighbours(g: &Grid, x: usize, y: usize) -> Vec<(usize, usize, f32)> {
        let mut out = Vec::new();
        g.for_each_neighbour(g.index(Cell::new(x, y)).unwrap(), |j, d| {
            let c = g.cell(j);
            out.push((c.x, c.y, d));
        });
        out.sort_by_key(|a| (a.0, a.1));
        out
    }

    #[test]
    fn rejects_empty_and_huge_sizes() {
        assert!(matches!(Grid::new(0, 5), Err(Error::BadSize { .. })));
        assert!(matches!(Grid::new(1 << 15, 1 << 14), Err(Error::BadSize { .. })));
        assert!(matches!(Grid::new(usize::MAX, 2), Err(Error::BadSize { .. })));
        assert!(Grid::new(1 << 14, 1 << 14).is_ok());
    }

    #[test]
    fn rejects_bad_cell_size_and_origin() {
        let g = Grid::new(2, 2).unwrap();
        assert!(g.clone().with_cell_size(0.0).is_err());
        assert!(g.clone().with_cell_size(f32::NAN).is_err());
        assert!(g.with_origin(Vec2::new(f32::INFINITY, 0.0)).is_err());
    }

    #[test]
    fn world_and_cell_round_trip() {
        let g = Grid::new(200, 200)
            .unwrap()
            .with_cell_size(2.56)
            .unwrap()
            .with_origin(Vec2::new(-10.0, 5.0))
            .unwrap();
        for (x, y) in [(0, 0), (199, 0), (17, 123), (199, 199)] {
            let cell = Cell::new(x, y);
            assert_eq!(g.cell_at(g.center(cell)), Some(cell));
        }
        assert_eq!(g.cell_at(Vec2::new(-10.01, 6.0)), None);
        assert_eq!(g.cell_at(Vec2::new(f32::NAN, 6.0)), None);
        assert_eq!(g.world_size(), Vec2::splat(512.0));
    }

    #[test]
    fn eight_connectivity_does_not_cut_corners() {
        let g = Grid::from_rows(&["...", ".@.", "..."]).unwrap();
        // From (0,0): right and down are free, the diagonal (1,1) is blocked.
        assert_eq!(neighbours(&g, 0, 0), vec![(0, 1, 1.0), (1, 0, 1.0)]);
        // From (1,0): the diagonals to (0,1) and (2,1) pass beside the wall at (1,1): cut.
        assert_eq!(neighbours(&g, 1, 0), vec![(0, 0, 1.0), (2, 0, 1.0)]);
        let open = Grid::new(3, 3).unwrap();
        let n = neighbours(&open, 1, 1);
        assert_eq!(n.len(), 8);
        assert!(n.iter().any(|&(x, y, d)| (x, y) == (0, 0) && (d - 2f32.sqrt()).abs() < 1e-6));
    }

    #[test]
    fn four_connectivity_has_four_neighbours() {
        let g = Grid::new(3, 3).unwrap().with_cell_size(2.0).unwrap().with_connectivity(Connectivity::Four);
        assert_eq!(neighbours(&g, 1, 1), vec![(0, 1, 2.0), (1, 0, 2.0), (1, 2, 2.0), (2, 1, 2.0)]);
    }

    #[test]
    fn ascii_rows_round_trip_and_errors_name_the_row() {
        let g = Grid::from_rows(&["..@", "T.."]).unwrap();
        assert_eq!(g.to_rows(), vec!["..@", "@.."]);
        assert_eq!(
            Grid::from_rows(&["...", ".."]),
            Err(Error::MapFormat { line: 2, message: "row has 2 cells, expected 3".into() })
        );
        let err = Grid::from_rows(&["..x"]).unwrap_err().to_string();
        assert!(err.contains("line 1") && err.contains("'x'") && err.contains("column 3"), "{err}");
        assert!(Grid::from_rows::<&str>(&[]).is_err());
    }
}
