//! Stamping: writing sources into a layer of any space, which finds cells from world
//! points ([`Space::locate`]: grids and graphs) with one [`Stamper`]. On a grid it
//! takes the fast path described below for straight-line curves; points, walking distance
//! ([`Metric::Path`]), other spaces and sources lifted above a grid
//! ([`Source::set_height`]) take the generic one (`stamp/space.rs`: one cell, a path sweep,
//! or straight-line distance in 3D), which serves grids and graphs alike.
//!
//! Each source covers the cells within its radius; each covered, walkable cell combines the
//! source's value with what it holds, per the source's [`Mode`]. Blocked cells never receive
//! influence. Distances run from the source's position to cell centres.
//!
//! Repeated (curve, radius, metric) triples reuse a precomputed kernel — the stamps or
//! templates of modular tactical influence maps — when the source sits at a cell centre, or
//! at an offset from it that has come back (sources on a lattice finer than the cells, or
//! at the cells' corners: see `Stamper::kernel_for`). Other sources are evaluated directly.
//! Kernels are built row by row by `footprint_row`; direct evaluation (`direct_rows`)
//! covers the same cells with the same operations per cell, in one pass per row, so all give
//! bit-identical results. `tests::templates_equal_direct_evaluation` and
//! `tests::kernels_off_the_centres_equal_direct_evaluation` check kernels against direct
//! evaluation, and `tests::direct_rows_equal_footprint_rows` direct evaluation against
//! `footprint_row`.
//!
//! Where the CPU has AVX-512 (and `INFLUENCE_KERNEL` allows it), `stamp/x86.rs` adds a
//! kernel's rows 16 cells a vector, the walls, the grid's edges and the row's length in one
//! lane mask, and evaluates linear and constant curves directly on 16 lanes: footprints up
//! to 64 columns wide with vectors laid over each row's covered columns (found exactly from
//! the squared distances), wider ones over the whole width with the division done as an
//! `f64` product that rounds to the same `f32`; other modes and curves take the
//! paths below. On grids of 2²² cells or more, `Stamper::stamp_all` asks for the cells of the
//! footprint two sources ahead while it stamps.
//!
//! Where the CPU has AVX2 but not AVX-512 (or `INFLUENCE_KERNEL=avx2`), `stamp/avx2.rs` does
//! the same jobs 8 cells a vector, with the same bits of walls, edges and row length made the
//! sign bits of a lane mask for masked loads and stores: kernel rows as above, and linear and
//! constant curves over the columns that any row of the footprint covers (found from the row
//! nearest the source), each footprint's rows asked for from memory before they are
//! computed. One `Vector` value, detected once per stamper, picks between the two for every
//! caller, and one walk over a kernel's rows (`stamp/kernel_rows.rs`) serves both adders,
//! each bringing only its chunk of 16 or 8 cells.
//!
//! ## Speed
//!
//! Direct evaluation prepares a source's columns once (their `x²` or `|x|`), then gives
//! every row one loop over the footprint's whole width in chunks of 4 cells: distance,
//! falloff, mode and the exact test `distance <= radius` as a select, compiled once per
//! metric, mode and common curve. The same trip count in every row keeps the branch
//! predictor right, and with no span to fit per row what is left is the arithmetic —
//! chiefly the square root and, for linear falloff, the division of each cell (SSE2, the
//! x86-64 baseline the crate is built for). Covering the whole width costs at most
//! 4/π as many cells as the disc (2 for the Manhattan diamond), but measured faster than
//! fitting a span to each row at every radius tried, up to 64 cells (Euclidean).
//!
//! Before, each row fitted its span (an estimate, a trim with a memmove, an extension) and
//! made three passes — distances, factors, the write — with the per-row work as large as
//! the per-cell work: off-centre sources were no faster than the naive
//! `influence_bench::reference::stamp`. Best of four runs each of
//! `cargo run --release -p influence-cli -- bench --sizes 256,1024 --kernels stamp` (one
//! linear source of radius 8 per 256 cells, at cell corners, into a zeroed map), on a shared
//! 2-core AMD EPYC; each line beside the reference of its own run — read the ratios:
//!
//! | ns per map cell                  |  256² | 1024² |
//! |----------------------------------|------:|------:|
//! | before: `Stamper`                |  2.61 |  2.81 |
//! | before: `reference::stamp`       |  2.58 |  2.65 |
//! | now: `Stamper`                   |  0.91 |  0.96 |
//! | now: `reference::stamp`          |  2.44 |  2.56 |
//!
//! So 2.7 times faster than the reference, from 0.94–0.99. `cargo bench -p influence-bench
//! --bench stamp` (1,000 linear sources of radius 8 into 1024²; the map's refill included): off
//! their cell centres 0.32 ms against the reference's 0.79 (before: 0.74 against 0.69); at
//! the centres, kernels 0.31 ms, direct evaluation (`Stamper::direct`) 0.33 (before: 0.76)
//! and the reference 0.80. Direct evaluation now costs about what a kernel does.
//!
//! Those figures are of the SSE2 paths, before the AVX-512 ones; `docs/PERFORMANCE.md` has
//! the current ratios against a template stamper.

use std::collections::HashMap;

use crate::error::Error;
use crate::falloff::{Falloff, FalloffKey};
use crate::layer::Layer;
use crate::paths::PathScratch;
use crate::source::{Metric, Mode, Source};
use crate::space::{Grid, Space};

#[cfg(target_arch = "x86_64")]
mod avx2;
mod direct;
#[cfg(target_arch = "x86_64")]
mod kernel_rows;
mod space;
#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(target_arch = "x86_64")]
use direct::Curve;
use direct::{direct_rows, walled, Add, Combine, Euclidean, Frame, Manhattan, Max, Octile, Set};
/// A straight-line metric on x86-64's lanes: 16 at a time (AVX-512) and 8 (AVX2).
#[cfg(target_arch = "x86_64")]
trait Lanes: x86::Lanes + avx2::Lanes {}
#[cfg(target_arch = "x86_64")]
impl<M: x86::Lanes + avx2::Lanes> Lanes for M {}
/// Without x86-64's lanes, any straight-line metric.
#[cfg(not(target_arch = "x86_64"))]
trait Lanes: direct::Straight {}
#[cfg(not(target_arch = "x86_64"))]
impl<M: direct::Straight> Lanes for M {}

/// Positions within this fraction of a cell of a cell centre count as the centre, so a
/// source placed with [`Grid::center`] uses a kernel despite float rounding.
pub const CENTRE_SNAP: f32 = 1e-4;

/// The largest kernel half-width (in cells) that is cached; wider sources are evaluated
/// directly, clipped to the grid.
const MAX_KERNEL_REACH: isize = 128;
/// At most this many kernels are cached; further triples are evaluated directly.
const MAX_KERNELS: usize = 256;

/// Writes sources into layers of any [`Space`] space (grids with cached kernels, graphs
/// with walking or straight-line distance), keeping kernels and path scratch between calls
/// so that a per-frame caller allocates only while warming up.
///
/// One stamper serves every space: [`stamp`](Self::stamp) recognises a [`Grid`] by its type
/// and takes the grid path there, so one vocabulary covers grids and graphs and a grid never
/// loses its kernels.
///
/// ```
/// use influence::{Cell, Falloff, Grid, Layer, Source, Stamper};
/// let grid = Grid::new(9, 9)?;
/// let mut layer = Layer::for_space(&grid);
/// let mut stamper = Stamper::new();
/// let unit = Source::new(grid.center(Cell::new(4, 4)), 4.0, Falloff::Linear, 4.0)?;
/// stamper.stamp(&grid, &mut layer, &unit)?;
/// assert_eq!(layer[grid.index(Cell::new(4, 4)).unwrap()], 4.0);
/// assert_eq!(layer[grid.index(Cell::new(5, 4)).unwrap()], 3.0);
/// assert_eq!(layer[grid.index(Cell::new(8, 4)).unwrap()], 0.0);
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Stamper {
    /// The cached kernels, found by their key through `index`.
    kernels: Vec<Kernel>,
    index: HashMap<KernelKey, usize>,
    /// The key and index of the kernel used last.
    last: Option<(KernelKey, usize)>,
    /// Off-centre placements seen lately, in slots by a hash of their key: one gets a kernel
    /// only when it comes back (see [`Stamper::kernel_for`]).
    seen: Vec<Option<KernelKey>>,
    paths: PathScratch,
    /// The metric terms of a directly evaluated source's columns.
    cols: Vec<f32>,
    direct_only: bool,
    /// The vector paths, where the CPU has them.
    #[cfg(target_arch = "x86_64")]
    vector: Detected,
}

/// The widest vector paths this CPU runs (and `INFLUENCE_KERNEL` allows): each holds its
/// own proof that the CPU has what it needs. The callers ask this one value, so the choice
/// is made in one place.
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone, Copy)]
enum Vector {
    /// 16 cells a vector, masked by mask registers.
    Avx512(x86::Avx512),
    /// 8 cells a vector, masked by the sign bits of lane masks.
    Avx2(avx2::Avx2),
}

/// [`Vector`], asked once (for a [`Stamper`]).
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone, Copy)]
struct Detected(Option<Vector>);

#[cfg(target_arch = "x86_64")]
impl Default for Detected {
    fn default() -> Self {
        Self(x86::Avx512::new().map(Vector::Avx512).or_else(|| avx2::Avx2::new().map(Vector::Avx2)))
    }
}

#[cfg(target_arch = "x86_64")]
impl Vector {
    /// Adds `strength · factor` of each of the placed kernel's rows to the walkable cells of
    /// `values` (a layer of `grid`) under it: what [`apply_row`] does for each row in
    /// [`Mode::Add`], with the same bits.
    fn add_rows(self, grid: &Grid, values: &mut [f32], placed: kernel_rows::Placed<'_>) {
        match self {
            Self::Avx512(v) => v.add_rows(grid, values, placed),
            Self::Avx2(v) => v.add_rows(grid, values, placed),
        }
    }

    /// Direct evaluation of a source with metric `M` and a linear or constant `curve`,
    /// adding (or with `set`, setting) its values: what [`direct_rows`] gives, with the same
    /// bits. `scratch` is room the AVX2 path may use for the columns' terms.
    fn direct<M: Lanes>(
        self,
        grid: &Grid,
        values: &mut [f32],
        f: &Frame,
        curve: Curve,
        set: bool,
        scratch: &mut Vec<f32>,
    ) {
        match self {
            Self::Avx512(v) => v.direct::<M>(grid, values, f, curve, set),
            Self::Avx2(v) => v.direct::<M>(grid, values, f, curve, set, scratch),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct KernelKey {
    falloff: FalloffKey,
    radius: u32,
    cell_size: u32,
    metric: Metric,
    /// The half-width the kernel covers, which a small grid can clamp.
    reach: isize,
    /// The source's offset from its cell's centre, in cells (bits; 0 at the centre).
    offset: (u32, u32),
}

/// Slots of [`Stamper::seen`].
const SEEN: usize = 16;

/// Factors for a source at a cell centre, row by row over relative offsets.
#[derive(Debug)]
struct Kernel {
    rows: Vec<KernelRow>,
    factors: Vec<f32>,
    /// The factors as the vector adders read them inside the grid ([`kernel_rows::Square`]),
    /// for kernels up to 63 columns wide.
    #[cfg(target_arch = "x86_64")]
    square: Option<kernel_rows::Square>,
}

#[derive(Debug)]
struct KernelRow {
    dy: isize,
    dx0: isize,
    start: usize,
    len: usize,
}

/// Where a source stands: its cell (possibly outside the grid) and its offset from that
/// cell's centre, in cells, snapped to 0 within [`CENTRE_SNAP`].
#[derive(Debug, Clone, Copy)]
struct Placement {
    cell: (isize, isize),
    offset: (f32, f32),
}

impl Placement {
    #[inline]
    fn of(grid: &Grid, source: &Source) -> Self {
        let u = grid.to_cell_space(source.position());
        let (fx, fy) = (floor(u.x), floor(u.y));
        let snap = |f: f32| if f.abs() < CENTRE_SNAP { 0.0 } else { f };
        // Clamped so that far-away sources stay far outside without overflowing offset sums.
        let far = (1u64 << 40) as f32;
        let cell = |f: f32| f.clamp(-far, far) as isize;
        Self { cell: (cell(fx), cell(fy)), offset: (snap(u.x - fx - 0.5), snap(u.y - fy - 0.5)) }
    }

    fn centred(self) -> bool {
        self.offset == (0.0, 0.0)
    }

    /// Whether the source's cell lies in the grid (it is the cell [`Grid::cell_at`] finds)
    /// and is blocked: read from the walkable cells' bits, an eighth of the flags' bytes.
    #[inline]
    fn blocked(self, grid: &Grid) -> bool {
        let (Ok(x), Ok(y)) = (usize::try_from(self.cell.0), usize::try_from(self.cell.1)) else {
            return false;
        };
        let (free, words) = grid.free_words();
        x < grid.width() && y < grid.height() && free[y * words + x / 64] >> (x % 64) & 1 == 0
    }
}

/// `x.floor()` for a finite `x` or ±∞, without the library call that floor is on the SSE2
/// baseline (a 0 may lose its sign: `−0.0` gives `+0.0`).
#[inline]
fn floor(x: f32) -> f32 {
    // From 2²³ on every `f32` is a whole number.
    if x.abs() < 8_388_608.0 {
        let t = x as i32 as f32;
        if t > x {
            t - 1.0
        } else {
            t
        }
    } else {
        x
    }
}

/// A world distance in cells (without the division where the cells are 1 wide).
#[inline]
fn in_cells(grid: &Grid, distance: f32) -> f32 {
    if grid.cell_size() == 1.0 {
        distance
    } else {
        distance / grid.cell_size()
    }
}

/// `x.ceil()`, as [`floor`].
#[inline]
fn ceil(x: f32) -> f32 {
    -floor(-x)
}

impl Stamper {
    /// A stamper that caches kernels.
    pub fn new() -> Self {
        Self::default()
    }

    /// A stamper that evaluates every source directly (the reference the kernels are
    /// tested against; a little slower for many equal sources).
    pub fn direct() -> Self {
        Self { direct_only: true, ..Self::default() }
    }

    /// Stamps every source into `layer`, in order, except those that cannot be placed (see
    /// [`stamp`](Self::stamp)): every other source is still stamped, and the first refusal
    /// is returned.
    ///
    /// # Errors
    /// [`Error::Unplaced`] for the first source that could not be placed.
    ///
    /// # Panics
    /// If `layer` was not made for `space` (different length).
    pub fn stamp_all<'a, S: Space>(
        &mut self,
        space: &S,
        layer: &mut Layer,
        sources: impl IntoIterator<Item = &'a Source>,
    ) -> Result<(), Error> {
        let mut first = Ok(());
        // On a grid too large for the caches, the cells of the source two places on are
        // asked for from memory while this one is stamped, rather than waited on row by row.
        // (Within the caches the requests cost more than the waits.)
        let far = space.as_grid().filter(|g| g.len() >= PREFETCH_CELLS);
        let mut sources = sources.into_iter();
        let (mut next, mut after) = (sources.next(), sources.next());
        while let Some(source) = next {
            (next, after) = (after, sources.next());
            if let (Some(grid), Some(ahead)) = (far, after) {
                prefetch_footprint(grid, layer, ahead);
            }
            // (Only a refusal is moved: the error is large, and copying every `Ok` cost.)
            if let Err(refused) = self.stamp(space, layer, source) {
                if first.is_ok() {
                    first = Err(refused);
                }
            }
        }
        first
    }

    /// Stamps one source into `layer` of `space`: on a [`Grid`], a source at height 0 by the
    /// grid path (kernels, row loops); anywhere else as `stamp/space.rs` describes, with
    /// distances from the source's position lifted to its [height](Source::height).
    ///
    /// A source is never dropped silently: one that [`Source::check_placement`] refuses — on
    /// a blocked grid cell, or a point or walking-distance source with no walkable cell
    /// under it — is refused here with the same [`Error::Unplaced`], which names the
    /// walkable cell nearest to it.
    ///
    /// ```
    /// use influence::{space::Graph, Falloff, Layer, Metric, Source, Stamper, glam::{Vec2, Vec3}};
    /// // A corridor of waypoints 2 apart.
    /// let positions = (0..5).map(|i| Vec3::new(2.0 * i as f32, 0.0, 0.0)).collect();
    /// let graph = Graph::from_edges(positions, (1..5).map(|i| (i - 1, i)))?;
    /// let mut layer = Layer::for_space(&graph);
    /// let unit = Source::new(Vec2::new(0.0, 0.0), 8.0, Falloff::Linear, 8.0)?.with_metric(Metric::Path);
    /// Stamper::new().stamp(&graph, &mut layer, &unit)?;
    /// assert_eq!(layer.values(), &[8.0, 6.0, 4.0, 2.0, 0.0]);
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// ```
    /// use influence::{Cell, Error, Falloff, Grid, Layer, Source, Stamper};
    /// let grid = Grid::from_rows(&["..@@", "...."])?;
    /// let mut layer = Layer::for_space(&grid);
    /// let in_wall = Source::new(grid.center(Cell::new(3, 0)), 1.0, Falloff::Linear, 3.0)?;
    /// let refused = Stamper::new().stamp(&grid, &mut layer, &in_wall);
    /// assert!(matches!(refused, Err(Error::Unplaced { nearest: Some([3, 1]), .. })));
    /// assert!(layer.values().iter().all(|&v| v == 0.0)); // nothing written
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Unplaced`], as above; nothing is written then.
    ///
    /// # Panics
    /// If `layer` was not made for `space` (different length).
    pub fn stamp<S: Space>(&mut self, space: &S, layer: &mut Layer, source: &Source) -> Result<(), Error> {
        assert_eq!(layer.len(), space.len(), "layer was not made for this space");
        let straight = !(matches!(source.falloff(), Falloff::Point) || source.metric() == Metric::Path);
        if let Some(grid) = space.as_grid().filter(|_| straight && source.height() == 0.0) {
            // The grid path, with `Source::start_cell`'s rule read off the placement: a
            // straight-line source is refused on a blocked cell, and needs no start cell.
            let at = Placement::of(grid, source);
            if at.blocked(grid) {
                return Err(source.unplaced(Some(grid)));
            }
            self.stamp_grid(grid, layer, source, at);
            return Ok(());
        }
        let start = source.start_cell(space)?;
        self.stamp_located(space, layer, source, start);
        Ok(())
    }

    /// The grid path for a straight-line source: a cached kernel or direct evaluation, row
    /// by row. (A point and a path sweep are the same on a grid as on any space:
    /// `stamp_located`.)
    fn stamp_grid(&mut self, grid: &Grid, layer: &mut Layer, source: &Source, at: Placement) {
        #[cfg(target_arch = "x86_64")]
        let vector = self.vector.0.filter(|_| source.mode() == Mode::Add);
        let reach = reach(grid, source);
        if let Some(kernel) = self.kernel_for(grid, source, at, reach) {
            #[cfg(target_arch = "x86_64")]
            if let Some(vector) = vector {
                let placed =
                    kernel_rows::Placed { kernel, cell: at.cell, strength: source.strength(), reach };
                return vector.add_rows(grid, layer.values_mut(), placed);
            }
            for row in &kernel.rows {
                let factors = &kernel.factors[row.start..row.start + row.len];
                apply_row(grid, layer, source, at.cell.1 + row.dy, at.cell.0 + row.dx0, factors);
            }
        } else {
            self.stamp_direct(grid, layer, source, at, reach);
        }
    }

    /// Evaluates a source cell by cell, with the metric, the mode and (for the common
    /// curves) the falloff fixed at compile time, so that each row is one loop the compiler
    /// vectorises: see [`direct_rows`].
    fn stamp_direct(&mut self, grid: &Grid, layer: &mut Layer, source: &Source, at: Placement, reach: isize) {
        match source.metric() {
            Metric::Euclidean => self.direct_metric::<Euclidean>(grid, layer, source, at, reach),
            Metric::Manhattan => self.direct_metric::<Manhattan>(grid, layer, source, at, reach),
            Metric::Octile | Metric::Path => self.direct_metric::<Octile>(grid, layer, source, at, reach),
        }
    }

    fn direct_metric<M: Lanes>(
        &mut self,
        grid: &Grid,
        layer: &mut Layer,
        source: &Source,
        at: Placement,
        reach: isize,
    ) {
        match source.mode() {
            Mode::Add => self.direct_mode::<M, Add>(grid, layer, source, at, reach),
            Mode::Set => self.direct_mode::<M, Set>(grid, layer, source, at, reach),
            Mode::Max => self.direct_mode::<M, Max>(grid, layer, source, at, reach),
        }
    }

    /// The source's [`Frame`] and its columns' metric terms, then the rows per curve.
    fn direct_mode<M: Lanes, W: Combine>(
        &mut self,
        grid: &Grid,
        layer: &mut Layer,
        source: &Source,
        at: Placement,
        reach: isize,
    ) {
        let Some(frame) = Frame::new(grid, source, at, reach) else { return };
        #[cfg(target_arch = "x86_64")]
        if let Some(vector) = self.vector.0 {
            let curve = match source.falloff() {
                Falloff::Linear => Some(Curve::Linear),
                Falloff::Constant => Some(Curve::Constant),
                _ => None,
            };
            if let (Some(curve), Mode::Add | Mode::Set) = (curve, source.mode()) {
                let set = source.mode() == Mode::Set;
                return vector.direct::<M>(grid, layer.values_mut(), &frame, curve, set, &mut self.cols);
            }
        }
        let (lo, hi, (fx, _)) = (frame.dx_lo, frame.dx_hi, at.offset);
        self.cols.clear();
        self.cols.extend((frame.span.0..=frame.span.1).map(|dx| {
            if (lo..=hi).contains(&dx) {
                // Through i32, as `Metric::distances_along_row` converts columns.
                M::term(dx as i32 as f32 - fx)
            } else {
                f32::INFINITY // a column beyond reach, there to fill a chunk: never covered
            }
        }));
        let (values, blocked, cols, r) =
            (layer.values_mut(), grid.blocked(), &self.cols[..], source.radius());
        // The curve rebuilt in the closure, where the compiler sees its variant, so the inlined
        // `Falloff::factor` folds to that curve alone: no per-cell dispatch.
        macro_rules! curve {
            ($f:expr) => {
                direct_rows::<M, W>(values, blocked, cols, &frame, move |d| $f.factor(d, r))
            };
        }
        match *source.falloff() {
            Falloff::Linear => curve!(Falloff::Linear),
            Falloff::Constant => curve!(Falloff::Constant),
            Falloff::Exponential { rate } => curve!(Falloff::Exponential { rate }),
            Falloff::Halving { step } => curve!(Falloff::Halving { step }),
            Falloff::Polynomial { power } => curve!(Falloff::Polynomial { power }),
            Falloff::Gaussian { sigma } => curve!(Falloff::Gaussian { sigma }),
            ref other => direct_rows::<M, W>(values, blocked, cols, &frame, |d| other.factor(d, r)),
        }
    }

    /// The cached kernel for this source, building it on first use; `None` when the source
    /// is too wide, the cache is full, or it stands off its cell's centre at an offset not
    /// seen lately.
    ///
    /// A kernel holds the factors of a source at one offset from its cell's centre, exactly
    /// as direct evaluation computes them. Sources at the centres share one per curve,
    /// radius and metric. Off the centres, sources on a lattice finer than the cells (or all
    /// at cell corners) come back to a few offsets, and get one per offset the second time
    /// one is seen; sources anywhere else (nearly every offset new) are evaluated directly,
    /// at the price of a slot in `seen` compared.
    fn kernel_for(&mut self, grid: &Grid, source: &Source, at: Placement, reach: isize) -> Option<&Kernel> {
        if self.direct_only || reach > MAX_KERNEL_REACH {
            return None;
        }
        let key = KernelKey {
            falloff: source.falloff().key(),
            radius: source.radius().to_bits(),
            cell_size: grid.cell_size().to_bits(),
            metric: source.metric(),
            reach,
            offset: (at.offset.0.to_bits(), at.offset.1.to_bits()),
        };
        // A run of sources with one curve, radius and offset (the common case) skips the hash.
        if let Some((last, i)) = &self.last {
            if *last == key {
                return Some(&self.kernels[*i]);
            }
        }
        if !at.centred() {
            // A cheap hash of what tells offsets apart, to a slot.
            let (x, y) = key.offset;
            let mixed = (x.wrapping_mul(0x9E37_79B9) ^ y.wrapping_mul(0x85EB_CA6B) ^ key.radius) >> 16;
            if self.seen.len() < SEEN {
                self.seen.resize(SEEN, None);
            }
            let slot = &mut self.seen[mixed as usize % SEEN];
            if slot.as_ref() != Some(&key) {
                *slot = Some(key);
                return None;
            }
        }
        let i = match self.index.get(&key) {
            Some(&i) => i,
            None if self.kernels.len() >= MAX_KERNELS => return None,
            None => {
                let (mut rows, mut factors) = (Vec::new(), Vec::new());
                let (mut row, (fx, fy)) = (Vec::new(), at.offset);
                for dy in -reach..=reach {
                    let dy_cells = dy as f32 - fy;
                    if let Some(dx0) =
                        footprint_row(source, grid.cell_size(), -reach, reach, fx, dy_cells, &mut row)
                    {
                        rows.push(KernelRow { dy, dx0, start: factors.len(), len: row.len() });
                        factors.extend_from_slice(&row);
                    }
                }
                #[cfg(target_arch = "x86_64")]
                let square = kernel_rows::Square::new(&rows, &factors, reach);
                self.kernels.push(Kernel {
                    rows,
                    factors,
                    #[cfg(target_arch = "x86_64")]
                    square,
                });
                self.index.insert(key.clone(), self.kernels.len() - 1);
                self.kernels.len() - 1
            }
        };
        self.last = Some((key, i));
        Some(&self.kernels[i])
    }
}

/// Grids of at least this many cells (a 16 MiB layer) have footprints fetched ahead.
const PREFETCH_CELLS: usize = 1 << 22;

/// Asks for the rows of `source`'s footprint on `grid` in `layer` to be brought into the
/// cache (a hint: nothing is read, nothing can fault). Footprints wider than a few cache
/// lines a row, and sources off the grid, are left alone.
fn prefetch_footprint(grid: &Grid, layer: &Layer, source: &Source) {
    let u = grid.to_cell_space(source.position());
    let reach = ceil(in_cells(grid, source.radius())) + 1.0;
    let (w, h) = (grid.width() as f32, grid.height() as f32);
    // Wider footprints span many lines a row, on which the hardware's own prefetch does well.
    if !(reach <= 16.0 && u.x >= 0.0 && u.y >= 0.0 && u.x < w && u.y < h) {
        return;
    }
    let (reach, cx, cy) = (reach as usize, u.x as usize, u.y as usize);
    let w = grid.width();
    let (x0, x1) = (cx.saturating_sub(reach), (cx + reach).min(w - 1));
    let (y0, y1) = (cy.saturating_sub(reach), (cy + reach).min(grid.height() - 1));
    // The first and last cell of each row: at most 33 cells, so at most 3 lines, and the
    // middle one is fetched by the hardware when its neighbours are.
    let values = layer.values();
    let (first, last) = (&values[y0 * w + x0..=y1 * w + x1], x1 - x0);
    #[cfg(target_arch = "x86_64")]
    for row in 0..=y1 - y0 {
        x86::prefetch_pair(first, row * w, row * w + last);
    }
}

/// Half-width in cells of the square that holds a source's footprint, clamped to the grid.
fn reach(grid: &Grid, source: &Source) -> isize {
    let cells = ceil(in_cells(grid, source.radius())) + 1.0;
    let cap = grid.width().max(grid.height()) as f32 + 1.0;
    cells.min(cap) as isize
}

/// The falloff factors of one row of a footprint, for relative columns `dx_lo..=dx_hi`
/// measured from the source's cell, with the source `fx` cells right of that cell's centre
/// and the row `dy_cells` below it. Fills `out` with the contiguous run of columns within
/// the radius and returns the first one's offset, or `None` if the row misses the radius.
///
/// Every metric here is a convex norm, so the covered columns of a row are contiguous. The
/// metric's half-width estimates them; distances are computed over the estimate widened by
/// a column each side in one pass the compiler vectorises, and the ends are trimmed to the
/// exact test `distance <= radius`, which alone decides membership.
///
/// It builds the kernels' rows, and is what direct evaluation ([`direct_rows`]) must match.
fn footprint_row(
    source: &Source,
    cell_size: f32,
    dx_lo: isize,
    dx_hi: isize,
    fx: f32,
    dy_cells: f32,
    out: &mut Vec<f32>,
) -> Option<isize> {
    out.clear();
    if dx_lo > dx_hi {
        return None; // the source's columns lie wholly beside the grid
    }
    let (metric, radius) = (source.metric(), source.radius());
    let half = metric.half_width(radius / cell_size, dy_cells);
    let bound = |v: f32| v.clamp(dx_lo as f32 - 1.0, dx_hi as f32 + 1.0) as isize;
    // Truncation instead of floor/ceil (library calls without SSE4.1): a wider margin
    // absorbs it, and the trim below makes the ends exact.
    let mut first = bound(fx - half - 2.0).max(dx_lo);
    let last = bound(fx + half + 2.0).min(dx_hi);
    if half.is_nan() || first > last {
        return None;
    }
    out.resize((last - first + 1) as usize, 0.0);
    metric.distances_along_row(out, first, fx, dy_cells, cell_size);
    let inside = |d: &f32| *d <= radius;
    let (head, tail) = (out.iter().position(inside)?, out.iter().rposition(inside)?);
    let ends_inside = tail + 1 == out.len();
    out.truncate(tail + 1);
    out.drain(..head);
    first += head as isize;
    // Rounding can leave the estimate a column short: extend while the exact test holds.
    let distance = |dx: isize| metric.length(dx as f32 - fx, dy_cells) * cell_size;
    while head == 0 && first > dx_lo && distance(first - 1) <= radius {
        first -= 1;
        out.insert(0, distance(first));
    }
    let mut next = first + out.len() as isize;
    while ends_inside && next <= dx_hi && distance(next) <= radius {
        out.push(distance(next));
        next += 1;
    }
    source.falloff().factors_in_place(out, radius);
    Some(first)
}

/// Applies `strength · factor` to the walkable cells of row `y` from column `x0` on,
/// clipping to the grid.
fn apply_row(grid: &Grid, layer: &mut Layer, source: &Source, y: isize, x0: isize, factors: &[f32]) {
    let (w, h) = (grid.width() as isize, grid.height() as isize);
    if y < 0 || y >= h {
        return;
    }
    let skip = (-x0).max(0);
    let end = (x0 + factors.len() as isize).min(w);
    if skip as usize >= factors.len() || x0 + skip >= end {
        return;
    }
    let (a, b) = ((y * w + x0 + skip) as usize, (y * w + end) as usize);
    let factors = &factors[skip as usize..];
    let (values, blocked) = (&mut layer.values_mut()[a..b], &grid.blocked()[a..b]);
    let s = source.strength();
    // One loop per mode, each tight. A row without walls (`walled`, a word of flags at a
    // time) takes loops that do not read them, which the compiler vectorises; a row with
    // walls keeps each blocked cell's value (the compiler makes that a branch per cell).
    if !walled(blocked) {
        let cells = values.iter_mut().zip(factors);
        match source.mode() {
            Mode::Add => cells.for_each(|(c, &k)| *c += s * k),
            Mode::Set => cells.for_each(|(c, &k)| *c = s * k),
            Mode::Max => cells.for_each(|(c, &k)| *c = c.max(s * k)),
        }
        return;
    }
    let cells = values.iter_mut().zip(blocked).zip(factors);
    match source.mode() {
        Mode::Add => cells.for_each(|((c, &blocked), &k)| *c = if blocked { *c } else { *c + s * k }),
        Mode::Set => cells.for_each(|((c, &blocked), &k)| *c = if blocked { *c } else { s * k }),
        Mode::Max => cells.for_each(|((c, &blocked), &k)| *c = if blocked { *c } else { c.max(s * k) }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::falloff::Band;
    use crate::space::Cell;
    use glam::Vec2;
    use proptest::prelude::*;

    fn all_falloffs() -> Vec<Falloff> {
        vec![
            Falloff::Linear,
            Falloff::Exponential { rate: 0.3 },
            Falloff::Halving { step: 1.0 },
            Falloff::Polynomial { power: 3.0 },
            Falloff::Gaussian { sigma: 2.0 },
            Falloff::Constant,
            Falloff::Band(Band::ring(1.0, 2.0, 3.0, 5.0).unwrap()),
            Falloff::custom(|d, r| (r - d).sqrt()),
        ]
    }

    #[test]
    fn templates_equal_direct_evaluation() {
        let grid = Grid::from_rows(&["..........", "...@......", "...@......", "..........", "......@@.."])
            .unwrap()
            .with_cell_size(1.5)
            .unwrap()
            .with_origin(Vec2::new(-3.0, 7.0))
            .unwrap();
        for falloff in all_falloffs() {
            for metric in [Metric::Euclidean, Metric::Manhattan, Metric::Octile] {
                for mode in [Mode::Add, Mode::Set, Mode::Max] {
                    let (mut cached, mut direct) = (Stamper::new(), Stamper::direct());
                    let (mut a, mut b) =
                        (Layer::from_vec(vec![0.5; grid.len()]), Layer::from_vec(vec![0.5; grid.len()]));
                    for (x, y, s) in [(0, 0, 2.0), (4, 2, -1.5), (9, 4, 3.0), (4, 2, 1.0)] {
                        let src = Source::new(grid.center(Cell::new(x, y)), s, falloff.clone(), 4.5)
                            .unwrap()
                            .with_metric(metric)
                            .with_mode(mode);
                        cached.stamp(&grid, &mut a, &src).unwrap();
                        direct.stamp(&grid, &mut b, &src).unwrap();
                    }
                    assert!(!cached.kernels.is_empty());
                    let same = a.values().iter().zip(b.values()).all(|(p, q)| p.to_bits() == q.to_bits());
                    assert!(same, "{falloff:?} {metric:?} {mode:?}\n{a:?}\n{b:?}");
                }
            }
        }
    }

    #[test]
    fn kernels_inside_wide_grids_equal_direct_evaluation() {
        // Rows of more than two words of wall bits, so that footprints wholly inside the grid
        // start at every column modulo 64 and straddle the words' boundaries; kernels up to
        // 63 columns wide and a little wider, centred and at corners, adding and setting.
        let rows: Vec<String> = (0..70)
            .map(|y| (0..150).map(|x| if (x * 5 + y * 11) % 13 == 0 { '@' } else { '.' }).collect())
            .collect();
        let grid = Grid::from_rows(&rows).unwrap();
        for falloff in [Falloff::Linear, Falloff::Exponential { rate: 0.3 }, Falloff::Constant] {
            for mode in [Mode::Add, Mode::Set] {
                for radius in [0.5, 2.0, 8.0, 13.5, 30.0, 30.5] {
                    let (mut cached, mut direct) = (Stamper::new(), Stamper::direct());
                    let start: Vec<f32> = (0..grid.len()).map(|i| [0.5, -1.0, -0.0, 2.0][i % 4]).collect();
                    let (mut a, mut b) = (Layer::from_vec(start.clone()), Layer::from_vec(start));
                    for k in 0..300 {
                        let cell = Cell::new(k % 150, (k * 7 + k / 150 * 31) % 70);
                        let corner = if k % 3 == 2 { Vec2::splat(0.5) } else { Vec2::ZERO };
                        let at = grid.center(cell) - corner;
                        let src = Source::new(at, 1.0 + (k % 5) as f32 * 0.5, falloff.clone(), radius)
                            .unwrap()
                            .with_mode(mode);
                        let (p, q) = (cached.stamp(&grid, &mut a, &src), direct.stamp(&grid, &mut b, &src));
                        assert_eq!(p.is_ok(), q.is_ok());
                    }
                    assert!(!cached.kernels.is_empty());
                    let diff =
                        a.values().iter().zip(b.values()).position(|(p, q)| p.to_bits() != q.to_bits());
                    assert!(diff.is_none(), "{falloff:?} {mode:?} radius {radius}: cell {diff:?} differs");
                }
            }
        }
    }

    #[test]
    fn kernels_off_the_centres_equal_direct_evaluation() {
        // Walls scattered over a grid wider than a few vectors, sources near every edge, at
        // offsets that come back (corners, quarters) and ones that do not, radii whose rows
        // span one, two and three vectors of 16 cells.
        let rows: Vec<String> = (0..23)
            .map(|y| (0..53).map(|x| if (x * 7 + y * 13) % 11 == 0 { '@' } else { '.' }).collect())
            .collect();
        let grid = Grid::from_rows(&rows).unwrap().with_cell_size(0.75).unwrap();
        let size = grid.world_size();
        let offsets = [(0.0, 0.0), (0.25, 0.75), (0.0, 0.0), (0.25, 0.75), (0.125, 0.3), (0.6, 0.01)];
        for falloff in [Falloff::Linear, Falloff::Exponential { rate: 0.3 }, Falloff::Constant] {
            for mode in [Mode::Add, Mode::Set, Mode::Max] {
                for radius in [1.0, 5.0, 11.0, 19.0] {
                    let (mut cached, mut direct) = (Stamper::new(), Stamper::direct());
                    let start: Vec<f32> = (0..grid.len()).map(|i| [0.5, -1.0, 0.0, 2.0][i % 4]).collect();
                    let (mut a, mut b) = (Layer::from_vec(start.clone()), Layer::from_vec(start));
                    for (k, (ox, oy)) in offsets.iter().cycle().take(40).enumerate() {
                        let (x, y) = ((k * 17 % 53) as f32 - 2.0, (k * 5 % 23) as f32 - 1.0);
                        let at = Vec2::new((x + ox) * 0.75, (y + oy) * 0.75).min(size + 3.0);
                        let src = Source::new(at, 1.0 + k as f32 * 0.25, falloff.clone(), radius * 0.75)
                            .unwrap()
                            .with_mode(mode);
                        let (p, q) = (cached.stamp(&grid, &mut a, &src), direct.stamp(&grid, &mut b, &src));
                        assert_eq!(p, q);
                    }
                    let offsets_cached = cached.kernels.len();
                    assert!(
                        offsets_cached >= 2,
                        "{falloff:?} {mode:?} radius {radius}: {offsets_cached} kernels"
                    );
                    let same = a.values().iter().zip(b.values()).all(|(p, q)| p.to_bits() == q.to_bits());
                    assert!(same, "{falloff:?} {mode:?} radius {radius}\n{a:?}\n{b:?}");
                }
            }
        }
    }

    #[test]
    fn linear_euclidean_values_are_the_true_distance() {
        let grid = Grid::new(7, 7).unwrap();
        let mut layer = Layer::for_space(&grid);
        let src = Source::new(Vec2::new(3.5, 3.5), 6.0, Falloff::Linear, 3.0).unwrap();
        Stamper::new().stamp(&grid, &mut layer, &src).unwrap();
        let at = |x, y| layer[grid.index(Cell::new(x, y)).unwrap()];
        assert_eq!(at(3, 3), 6.0);
        assert!((at(4, 4) - 6.0 * (1.0 - 2f32.sqrt() / 3.0)).abs() < 1e-6);
        assert_eq!(at(6, 3), 0.0);
        assert_eq!(at(0, 0), 0.0);
    }

    #[test]
    fn off_centre_sources_measure_from_their_position() {
        let grid = Grid::new(4, 1).unwrap();
        let mut layer = Layer::for_space(&grid);
        Stamper::new()
            .stamp(&grid, &mut layer, &Source::new(Vec2::new(1.0, 0.5), 1.0, Falloff::Linear, 2.0).unwrap())
            .unwrap();
        // Cell centres at 0.5, 1.5, 2.5, 3.5: distances 0.5, 0.5, 1.5, 2.5.
        assert_eq!(layer.values(), &[0.75, 0.75, 0.25, 0.0]);
    }

    #[test]
    fn blocked_cells_never_receive_influence() {
        let grid = Grid::from_rows(&["...", ".@.", "..."]).unwrap();
        let mut layer = Layer::for_space(&grid);
        let beside = Source::new(grid.center(Cell::new(0, 1)), 5.0, Falloff::Constant, 3.0).unwrap();
        Stamper::new().stamp(&grid, &mut layer, &beside).unwrap();
        assert_eq!(layer[4], 0.0);
        assert_eq!(layer.values().iter().filter(|&&v| v == 5.0).count(), 8);
    }

    #[test]
    fn sources_on_blocked_cells_are_refused_with_the_nearest_walkable_cell() {
        let grid = Grid::from_rows(&["@@@@", "@@@.", "...."]).unwrap();
        for metric in [Metric::Euclidean, Metric::Octile, Metric::Path] {
            for falloff in [Falloff::Constant, Falloff::Point] {
                let src =
                    Source::new(grid.center(Cell::new(1, 0)), 5.0, falloff, 3.0).unwrap().with_metric(metric);
                let mut layer = Layer::for_space(&grid);
                let refused = Stamper::new().stamp(&grid, &mut layer, &src);
                assert_eq!(
                    refused,
                    Err(Error::Unplaced { x: 1.5, y: 0.5, cell: Some([1, 0]), nearest: Some([1, 2]) })
                );
                assert_eq!(layer.sum(), 0.0, "nothing is written");
            }
        }
        let message = Stamper::new()
            .stamp(
                &grid,
                &mut Layer::for_space(&grid),
                &Source::new(Vec2::new(1.5, 0.5), 1.0, Falloff::Point, 1.0).unwrap(),
            )
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            "the source at (1.5, 0.5) is on blocked cell (1, 0); the nearest walkable cell is (1, 2)"
        );
        // Off the grid: a walking-distance source has nowhere to start; a straight one reaches in.
        let outside = Source::new(Vec2::new(-0.5, 2.5), 5.0, Falloff::Linear, 2.0).unwrap();
        let mut layer = Layer::for_space(&grid);
        assert!(Stamper::new().stamp(&grid, &mut layer, &outside).is_ok());
        assert!(layer.sum() > 0.0);
        let walking = outside.with_metric(Metric::Path);
        assert!(matches!(
            Stamper::new().stamp(&grid, &mut layer, &walking),
            Err(Error::Unplaced { cell: None, nearest: Some([0, 2]), .. })
        ));
    }

    #[test]
    fn stamp_all_stamps_every_placed_source_and_returns_the_first_refusal() {
        let grid = Grid::from_rows(&["..@", "..@"]).unwrap();
        let at = |x, y| Source::new(grid.center(Cell::new(x, y)), 1.0, Falloff::Point, 1.0).unwrap();
        let mut layer = Layer::for_space(&grid);
        let refused = Stamper::new().stamp_all(&grid, &mut layer, &[at(0, 0), at(2, 0), at(1, 1), at(2, 1)]);
        assert!(matches!(refused, Err(Error::Unplaced { cell: Some([2, 0]), .. })));
        assert_eq!(layer.values(), &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    }

    #[test]
    fn path_metric_does_not_pass_walls() {
        let grid = Grid::from_rows(&["..@..", "..@..", "..@.."]).unwrap();
        let mut path = Layer::for_space(&grid);
        let mut straight = Layer::for_space(&grid);
        let src = Source::new(grid.center(Cell::new(1, 1)), 1.0, Falloff::Linear, 4.0).unwrap();
        Stamper::new().stamp(&grid, &mut straight, &src).unwrap();
        Stamper::new().stamp(&grid, &mut path, &src.clone().with_metric(Metric::Path)).unwrap();
        assert!(straight[grid.index(Cell::new(3, 1)).unwrap()] > 0.0);
        assert_eq!(path[grid.index(Cell::new(3, 1)).unwrap()], 0.0);
        assert_eq!(path[grid.index(Cell::new(1, 1)).unwrap()], 1.0);
        assert!((path[grid.index(Cell::new(0, 0)).unwrap()] - (1.0 - 2f32.sqrt() / 4.0)).abs() < 1e-6);
    }

    #[test]
    fn point_sources_touch_one_cell_and_modes_combine() {
        let grid = Grid::new(3, 1).unwrap();
        let mut layer = Layer::from_vec(vec![1.0, 1.0, 1.0]);
        let mut st = Stamper::new();
        let p =
            |x, s, m| Source::new(grid.center(Cell::new(x, 0)), s, Falloff::Point, 1.0).unwrap().with_mode(m);
        st.stamp(&grid, &mut layer, &p(0, 2.0, Mode::Add)).unwrap();
        st.stamp(&grid, &mut layer, &p(1, -4.0, Mode::Set)).unwrap();
        st.stamp(&grid, &mut layer, &p(2, 0.5, Mode::Max)).unwrap();
        assert_eq!(layer.values(), &[3.0, -4.0, 1.0]);
    }

    #[test]
    fn sources_off_the_map_and_huge_radii_are_clipped() {
        let grid = Grid::new(5, 5).unwrap();
        let mut layer = Layer::for_space(&grid);
        let mut st = Stamper::new();
        st.stamp(&grid, &mut layer, &Source::new(Vec2::new(-1.5, 2.5), 1.0, Falloff::Linear, 3.0).unwrap())
            .unwrap();
        assert!(
            layer[grid.index(Cell::new(0, 2)).unwrap()] > 0.0
                && layer[grid.index(Cell::new(4, 2)).unwrap()] == 0.0
        );
        st.stamp(
            &grid,
            &mut layer,
            &Source::new(Vec2::new(1e30, -1e30), 1.0, Falloff::Constant, 1e30).unwrap(),
        )
        .unwrap();
        st.stamp(&grid, &mut layer, &Source::new(Vec2::new(2.5, 2.5), 1.0, Falloff::Constant, 1e30).unwrap())
            .unwrap();
        assert!(layer.values().iter().all(|v| v.is_finite() && *v >= 1.0));
    }

    /// Direct evaluation as it was written before [`direct_rows`]: [`footprint_row`], then
    /// [`apply_row`], row by row. Kernels are still built from `footprint_row`.
    fn by_footprint_rows(grid: &Grid, layer: &mut Layer, source: &Source) {
        let at = Placement::of(grid, source);
        let reach = reach(grid, source);
        let (w, h) = (grid.width() as isize, grid.height() as isize);
        let (cx, cy) = at.cell;
        let (dx_lo, dx_hi) = ((-reach).max(-cx), reach.min(w - 1 - cx));
        let mut row = Vec::new();
        for dy in (-reach).max(-cy)..=reach.min(h - 1 - cy) {
            let dy_cells = dy as f32 - at.offset.1;
            if let Some(dx0) =
                footprint_row(source, grid.cell_size(), dx_lo, dx_hi, at.offset.0, dy_cells, &mut row)
            {
                apply_row(grid, layer, source, cy + dy, cx + dx0, &row);
            }
        }
    }

    /// Stamps `sources` one at a time both ways into copies of `start`, asserting equal bits
    /// after each.
    fn assert_direct_rows_equal_footprint_rows(grid: &Grid, start: &[f32], sources: &[Source]) {
        let (mut fast, mut rows) = (Layer::from_vec(start.to_vec()), Layer::from_vec(start.to_vec()));
        let mut stamper = Stamper::direct();
        for src in sources {
            assert!(!matches!(src.falloff(), Falloff::Point) && src.metric() != Metric::Path);
            if stamper.stamp(grid, &mut fast, src).is_err() {
                // Refused whole, as it stands on a wall: the rows are not compared.
                assert!(grid.cell_at(src.position()).is_some_and(|c| grid.is_blocked(c)));
                continue;
            }
            by_footprint_rows(grid, &mut rows, src);
            let diff = fast.values().iter().zip(rows.values()).position(|(p, q)| p.to_bits() != q.to_bits());
            assert!(
                diff.is_none(),
                "cell {diff:?} differs after {src:?}\n{:?}\n{:?}",
                fast.values(),
                rows.values()
            );
        }
    }

    fn grid_of(w: usize, h: usize, cell_size: f32, origin: Vec2, walls: &[bool]) -> Grid {
        let mut grid =
            Grid::new(w, h).unwrap().with_cell_size(cell_size).unwrap().with_origin(origin).unwrap();
        for (i, &wall) in walls.iter().enumerate().take(w * h) {
            grid.set_blocked(Cell::new(i % w, i / w), wall).unwrap();
        }
        grid
    }

    #[test]
    fn direct_rows_equal_footprint_rows_at_edges_and_extremes() {
        let layer_of = |n: usize| -> Vec<f32> {
            (0..n).map(|i| [0.0, -0.0, 1.5, -2.25, f32::NAN, f32::INFINITY][i % 6]).collect()
        };
        // Grids narrower than a chunk, rows with and without walls, cell sizes that make the
        // radius in cells huge or tiny; sources inside, on corners, beside every edge, far off.
        for (w, h) in [(1, 1), (1, 7), (3, 2), (5, 5), (9, 4), (17, 3)] {
            for cell_size in [1.0, 0.37, 3.0, 1e-3, 1e-30] {
                let walls: Vec<bool> = (0..w * h).map(|i| i % 5 == 3).collect();
                for grid in
                    [grid_of(w, h, cell_size, Vec2::ZERO, &[]), grid_of(w, h, cell_size, Vec2::ZERO, &walls)]
                {
                    let size = grid.world_size();
                    let mut sources = Vec::new();
                    for (fx, fy) in [
                        (0.5, 0.5),
                        (0.0, 0.0),
                        (1.0, 1.0),
                        (-0.3, 0.5),
                        (1.4, 0.2),
                        (0.6, -2.0),
                        (0.31, 1.7),
                    ] {
                        for radius in [0.3, 1.0, 2.5, 8.0, 1e30] {
                            for (falloff, metric, mode) in [
                                (Falloff::Linear, Metric::Euclidean, Mode::Add),
                                (Falloff::Constant, Metric::Manhattan, Mode::Set),
                                (Falloff::Exponential { rate: 0.3 }, Metric::Octile, Mode::Max),
                                (Falloff::custom(|d, r| (r - d).sqrt()), Metric::Euclidean, Mode::Max),
                            ] {
                                let at = Vec2::new(fx * size.x, fy * size.y);
                                let src = Source::new(at, -1.25, falloff, radius * cell_size).unwrap();
                                sources.push(src.with_metric(metric).with_mode(mode));
                            }
                        }
                    }
                    assert_direct_rows_equal_footprint_rows(&grid, &layer_of(w * h), &sources);
                }
            }
        }
    }

    fn any_falloff() -> impl Strategy<Value = Falloff> {
        prop_oneof![
            Just(Falloff::Linear),
            Just(Falloff::Constant),
            (0.0f32..2.0).prop_map(|rate| Falloff::Exponential { rate }),
            (0.1f32..3.0).prop_map(|step| Falloff::Halving { step }),
            (0.2f32..4.0).prop_map(|power| Falloff::Polynomial { power }),
            (0.1f32..5.0).prop_map(|sigma| Falloff::Gaussian { sigma }),
            Just(Falloff::Band(Band::areas(1.0, 3.0, -0.5, 6.0).unwrap())),
            Just(Falloff::Band(Band::ring(1.0, 2.0, 4.0, 6.0).unwrap())),
            Just(Falloff::custom(|d, r| (r - d).sqrt() - 0.5)),
        ]
    }

    fn any_source() -> impl Strategy<Value = (f32, f32, u8, f32, f32, Falloff, Metric, Mode)> {
        (
            -0.4f32..1.4,
            -0.4f32..1.4,
            0u8..4,
            prop_oneof![Just(0.0f32), Just(-0.0), -5.0f32..5.0],
            // Half-integer radii put cells exactly on the radius.
            prop_oneof![0.05f32..1.5, 1.5f32..24.0, (1u8..24).prop_map(|n| f32::from(n) / 2.0), Just(1e30)],
            any_falloff(),
            prop_oneof![Just(Metric::Euclidean), Just(Metric::Manhattan), Just(Metric::Octile)],
            prop_oneof![Just(Mode::Add), Just(Mode::Set), Just(Mode::Max)],
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Off-centre and centred sources, anywhere on or off a walled grid of any cell size,
        /// into layers holding signed zeros, NaN and infinities: every curve, metric and mode.
        #[test]
        fn direct_rows_equal_footprint_rows(
            (w, h) in (1usize..30, 1usize..30),
            cell_size in prop_oneof![Just(1.0f32), Just(0.5), Just(2.56), Just(0.37), Just(7.0), Just(1e-3)],
            origin in (-10.0f32..10.0, -10.0f32..10.0),
            walls in prop::collection::vec(prop::bool::weighted(0.15), 900),
            start in prop::collection::vec(
                prop_oneof![4 => -5.0f32..5.0, 1 => Just(0.0), 1 => Just(-0.0), 1 => Just(f32::NAN), 1 => Just(f32::NEG_INFINITY)],
                900,
            ),
            sources in prop::collection::vec(any_source(), 1..6),
        ) {
            let walls = if walls[0] { &walls[..] } else { &[][..] };
            let grid = grid_of(w, h, cell_size, Vec2::new(origin.0, origin.1), walls);
            let sources: Vec<Source> = sources
                .into_iter()
                .map(|(fx, fy, place, strength, radius, falloff, metric, mode)| {
                    let (x, y) = (((fx.clamp(0.0, 0.999) * w as f32) as usize), (fy.clamp(0.0, 0.999) * h as f32) as usize);
                    let at = match place {
                        0 => grid.center(Cell::new(x, y)),
                        1 => grid.center(Cell::new(x, y)) - Vec2::splat(0.5 * cell_size), // a corner
                        _ => grid.origin() + Vec2::new(fx, fy) * grid.world_size(),
                    };
                    Source::new(at, strength, falloff, radius * cell_size).unwrap().with_metric(metric).with_mode(mode)
                })
                .collect();
            assert_direct_rows_equal_footprint_rows(&grid, &start[..w * h], &sources);
        }
    }
}
