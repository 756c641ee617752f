//! Sources: what puts influence on a map — a unit, a turret, a grenade — and how.

use glam::Vec2;

use crate::error::{finite, positive, Error};
use crate::falloff::Falloff;
use crate::space::{Grid, Space};

/// How distance from a source to a cell is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Metric {
    /// Straight line from the source to the cell centre: the "true distance" of World in
    /// Conflict; walls do not stop it.
    #[default]
    Euclidean,
    /// `|dx| + |dy|`: tiles crossed without diagonal moves.
    Manhattan,
    /// Diagonal steps cost √2, straight steps 1: the grid-move distance with no walls.
    Octile,
    /// Shortest walkable distance around walls along the space's neighbour steps (bounded by
    /// the radius): a unit behind a wall does not influence the far side.
    Path,
}

impl Metric {
    /// Length of the offset `(dx, dy)` under a straight-line metric (`Path` measures like
    /// `Octile` here; it only differs once walls are taken into account).
    #[inline]
    pub(crate) fn length(self, dx: f32, dy: f32) -> f32 {
        let (ax, ay) = (dx.abs(), dy.abs());
        match self {
            Self::Euclidean => (dx * dx + dy * dy).sqrt(),
            Self::Manhattan => ax + ay,
            Self::Octile | Self::Path => ax.max(ay) + (std::f32::consts::SQRT_2 - 1.0) * ax.min(ay),
        }
    }
}

impl Metric {
    /// Whether [`half_width`](Self::half_width) is a number (the row is within reach),
    /// without computing it: for Euclidean distance, whether the square root's argument is
    /// at least 0 (the root of −0 is −0, a number; of a negative or NaN, NaN).
    #[inline]
    pub(crate) fn reaches(self, reach: f32, dy: f32) -> bool {
        match self {
            Self::Euclidean => squared_half_width(reach, dy) >= 0.0,
            _ => self.half_width(reach, dy) >= 0.0,
        }
    }

    /// Half the width, in cells, of the row `dy` cells from the source within `reach` cells:
    /// `|dx| <= half_width` ⇔ `length(dx, dy) <= reach`, up to rounding. NaN when the row
    /// is out of reach. (For `Path`, the octile answer.)
    pub(crate) fn half_width(self, reach: f32, dy: f32) -> f32 {
        let ay = dy.abs();
        let k = std::f32::consts::SQRT_2 - 1.0;
        let w = match self {
            Self::Euclidean => squared_half_width(reach, dy).sqrt(),
            Self::Manhattan => reach - ay,
            // Beyond the diagonal |dx| + k·|dy|, inside it |dy| + k·|dx|.
            Self::Octile | Self::Path if reach - k * ay >= ay => reach - k * ay,
            Self::Octile | Self::Path => (reach - ay) / k,
        };
        if w >= 0.0 {
            w
        } else {
            f32::NAN
        }
    }

    /// Writes the world distance of column `first + k` into `out[k]`, as
    /// `length((first + k) − fx, dy) · cell_size`: bit-identical to `Metric::length` per
    /// cell, with the metric chosen once so each arm is a loop the compiler can vectorise.
    pub(crate) fn distances_along_row(self, out: &mut [f32], first: isize, fx: f32, dy: f32, cell_size: f32) {
        macro_rules! per_cell {
            ($m:expr) => {
                for (k, d) in out.iter_mut().enumerate() {
                    // Through i32: SSE2 converts i32 lanes to f32, not 64-bit integers.
                    *d = $m.length((first as i32 + k as i32) as f32 - fx, dy) * cell_size;
                }
            };
        }
        match self {
            Self::Euclidean => per_cell!(Self::Euclidean),
            Self::Manhattan => per_cell!(Self::Manhattan),
            Self::Octile | Self::Path => per_cell!(Self::Octile),
        }
    }
}

/// The square of the Euclidean half-width of the row `dy` cells from a source within
/// `reach` cells, before its root: one expression for [`Metric::half_width`] and
/// [`Metric::reaches`], which must agree on which rows are within reach.
#[inline]
fn squared_half_width(reach: f32, dy: f32) -> f32 {
    let ay = dy.abs();
    reach * reach - ay * ay
}

/// How a source's value combines with what a cell already holds ("The Core Mechanics of
/// Influence Mapping": additive vs reference sources).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Mode {
    /// Layered on top: `cell += value`.
    #[default]
    Add,
    /// Reference: the source sets the cells of its footprint, `cell = value`.
    Set,
    /// Keeps the stronger: `cell = max(cell, value)`.
    Max,
}

impl Mode {
    /// Combines a cell's current value with a source's value.
    #[inline]
    pub(crate) fn apply(self, cell: f32, value: f32) -> f32 {
        match self {
            Self::Add => cell + value,
            Self::Set => value,
            Self::Max => cell.max(value),
        }
    }
}

/// A source of influence: a world position (with a height, 0 unless set, for spaces with
/// floors), a strength (negative allowed), a falloff curve with a radius, a distance metric
/// and a mode.
///
/// ```
/// use influence::{Falloff, Metric, Mode, Source, glam::Vec2};
/// let tank = Source::new(Vec2::new(40.0, 12.5), 5.0, Falloff::Linear, 16.0)?
///     .with_metric(Metric::Path)
///     .with_mode(Mode::Add);
/// assert_eq!(tank.strength(), 5.0);
/// assert!(Source::new(Vec2::new(f32::NAN, 0.0), 1.0, Falloff::Linear, 1.0).is_err());
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Source {
    position: Vec2,
    height: f32,
    strength: f32,
    falloff: Falloff,
    radius: f32,
    metric: Metric,
    /// `None`: not chosen, which [`mode`](Source::mode) and
    /// [`seed_mode`](Source::seed_mode) read differently.
    mode: Option<Mode>,
}

impl Source {
    /// A source with Euclidean distance and no mode chosen (see [`mode`](Self::mode)).
    ///
    /// # Errors
    /// [`Error::BadNumber`] for a non-finite position or strength, a radius that is not
    /// finite and positive, or bad falloff parameters.
    pub fn new(position: Vec2, strength: f32, falloff: Falloff, radius: f32) -> Result<Self, Error> {
        falloff.validate()?;
        let mut source = Self {
            position: Vec2::ZERO,
            height: 0.0,
            strength: 0.0,
            falloff,
            radius: positive("radius", radius)?,
            metric: Metric::default(),
            mode: None,
        };
        source.set_position(position)?;
        source.set_strength(strength)?;
        Ok(source)
    }

    /// Sets the distance metric.
    #[must_use]
    pub fn with_metric(mut self, metric: Metric) -> Self {
        self.metric = metric;
        self
    }

    /// Sets the mode.
    #[must_use]
    pub fn with_mode(mut self, mode: Mode) -> Self {
        self.mode = Some(mode);
        self
    }

    /// Moves the source (a unit moved this frame).
    ///
    /// # Errors
    /// [`Error::BadNumber`] for a non-finite coordinate; the source is unchanged then.
    pub fn set_position(&mut self, position: Vec2) -> Result<(), Error> {
        finite("source position x", position.x)?;
        finite("source position y", position.y)?;
        self.position = position;
        Ok(())
    }

    /// Lifts the source to height `z` (world units; 0 at first): the floor of a building a
    /// unit stands on, for [`Stamper`](crate::Stamper) on a graph with floors. Distances are
    /// then measured in 3D from `(position, z)`; on a grid, a source above the grid's plane
    /// reaches it by the straight 3D distance.
    ///
    /// ```
    /// # use influence::{Falloff, Source, glam::Vec2};
    /// let mut guard = Source::new(Vec2::new(4.0, 2.0), 1.0, Falloff::Linear, 6.0)?;
    /// guard.set_height(3.0)?; // upstairs
    /// assert_eq!(guard.height(), 3.0);
    /// assert!(guard.set_height(f32::NAN).is_err());
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::BadNumber`] unless finite; the source is unchanged then.
    pub fn set_height(&mut self, z: f32) -> Result<(), Error> {
        self.height = finite("source height", z)?;
        Ok(())
    }

    /// Changes the strength.
    ///
    /// # Errors
    /// [`Error::BadNumber`] unless finite; the source is unchanged then.
    pub fn set_strength(&mut self, strength: f32) -> Result<(), Error> {
        self.strength = finite("source strength", strength)?;
        Ok(())
    }

    /// World position.
    pub fn position(&self) -> Vec2 {
        self.position
    }
    /// Height ([`set_height`](Self::set_height)); 0 unless set.
    pub fn height(&self) -> f32 {
        self.height
    }
    /// Strength at distance 0 (times the falloff's factor elsewhere).
    pub fn strength(&self) -> f32 {
        self.strength
    }
    /// The falloff curve.
    pub fn falloff(&self) -> &Falloff {
        &self.falloff
    }
    /// Radius in world units: nothing beyond it is touched.
    pub fn radius(&self) -> f32 {
        self.radius
    }
    /// The distance metric.
    pub fn metric(&self) -> Metric {
        self.metric
    }
    /// The mode chosen by [`with_mode`](Self::with_mode), else the default of where it is
    /// used: stamped ([`Stamper`](crate::Stamper)), [`Mode::Add`], so that units' influence
    /// sums; as the seed of a propagation
    /// ([`seeds_from_sources`](crate::propagate::seeds_from_sources)), [`Mode::Set`] — the
    /// reference source of "Influence Maps: Part 1", which holds its cell at its strength
    /// while influence spreads. (An additive seed adds itself to what spread back into its
    /// cell at every step, and piles up.) Scenarios choose the same defaults.
    ///
    /// ```
    /// use influence::{propagate::seeds_from_sources, Falloff, Grid, Mode, Source, Stamper, glam::Vec2};
    /// let grid = Grid::new(4, 4)?;
    /// let unit = Source::new(Vec2::splat(2.0), 5.0, Falloff::Linear, 1.0)?;
    /// assert_eq!(unit.mode(), Mode::Add);
    /// let mut seeds = Vec::new();
    /// seeds_from_sources(&grid, &mut Stamper::new(), &[unit.clone()], &mut seeds)?;
    /// assert!(seeds.iter().all(|s| s.mode == Mode::Set));
    /// seeds.clear();
    /// seeds_from_sources(&grid, &mut Stamper::new(), &[unit.with_mode(Mode::Add)], &mut seeds)?;
    /// assert!(seeds.iter().all(|s| s.mode == Mode::Add));
    /// # Ok::<(), influence::Error>(())
    /// ```
    pub fn mode(&self) -> Mode {
        self.mode.unwrap_or(Mode::Add)
    }

    /// Whether [`Stamper::stamp`](crate::Stamper::stamp) can place the source in `space`,
    /// without stamping it. It cannot — [`Error::Unplaced`] — when it stands on a blocked
    /// grid cell, or when it is a point or measures walking distance (which start from the
    /// source's own cell) and no walkable cell holds it: off a grid, or a graph with no
    /// walkable node. A straight-line source off a grid is placed: it reaches the cells
    /// within its radius. On a grid the error names the blocked cell and the walkable cell
    /// nearest to the source, where it could stand instead.
    ///
    /// ```
    /// use influence::{Cell, Error, Falloff, Grid, Metric, Source, glam::Vec2};
    /// let grid = Grid::from_rows(&["@@@@.", "@@@@@", "....."])?;
    /// let unit = Source::new(grid.center(Cell::new(1, 0)), 1.0, Falloff::Linear, 3.0)?;
    /// let refused = unit.check_placement(&grid);
    /// assert!(matches!(refused, Err(Error::Unplaced { cell: Some([1, 0]), nearest: Some([1, 2]), .. })));
    /// let off_map = Source::new(Vec2::new(9.0, -3.0), 1.0, Falloff::Linear, 3.0)?;
    /// assert!(off_map.check_placement(&grid).is_ok()); // it reaches in
    /// let walking = off_map.with_metric(Metric::Path);
    /// assert!(matches!(walking.check_placement(&grid), Err(Error::Unplaced { cell: None, nearest: Some([4, 0]), .. })));
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Unplaced`], as above.
    pub fn check_placement<S: Space>(&self, space: &S) -> Result<(), Error> {
        self.start_cell(space).map(|_| ())
    }

    /// The placement rule of [`check_placement`](Self::check_placement), which stamping
    /// follows too: the cell a point or walking-distance source starts from, or `None` for a
    /// straight-line source, which needs none.
    pub(crate) fn start_cell<S: Space>(&self, space: &S) -> Result<Option<usize>, Error> {
        let grid = space.as_grid();
        if grid.is_some_and(|g| g.cell_at(self.position).is_some_and(|c| g.is_blocked(c))) {
            return Err(self.unplaced(grid));
        }
        if !(matches!(self.falloff, Falloff::Point) || self.metric == Metric::Path) {
            return Ok(None);
        }
        space.locate(self.position.extend(self.height)).map(Some).ok_or_else(|| self.unplaced(grid))
    }

    /// Why the source has no place: on a grid, the blocked cell it stands on (if any) and
    /// the walkable cell nearest to it.
    pub(crate) fn unplaced(&self, grid: Option<&Grid>) -> Error {
        let p = self.position;
        Error::Unplaced {
            x: p.x,
            y: p.y,
            cell: grid.and_then(|g| g.cell_at(p)).map(Into::into),
            nearest: grid.and_then(|g| g.nearest_walkable(p)).map(Into::into),
        }
    }

    /// The mode it seeds a propagation with: see [`mode`](Self::mode).
    pub(crate) fn seed_mode(&self) -> Mode {
        self.mode.unwrap_or(Mode::Set)
    }

    /// The value this source gives at distance `d`: `strength · falloff.factor(d, radius)`.
    #[inline]
    pub(crate) fn value_at(&self, d: f32) -> f32 {
        self.strength * self.falloff.factor(d, self.radius)
    }
}
