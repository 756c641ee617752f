//! Temporal propagation ("Escaping the Grid", §29.6–29.7): each step, every source splits
//! into a ring (a sphere in 3D) of children around it. Decay takes its share, the rest is
//! spread evenly over the children that could be placed — a child landing in an obstacle is
//! not placed and its share goes to the others, so influence flows around walls and through
//! corridors. A source whose children would be weaker than a threshold expires instead.
//!
//! Energy is conserved: after a step, the children's strengths plus what expired equal
//! `(1 − decay)` times the strengths before, up to `f32` rounding — three roundings per
//! source (`1 − decay`, its energy, its share), so the difference is at most
//! `3 · 2⁻²⁴ · Σ|strength|`.

use super::point::{is_finite, Point};
use super::Field;
use crate::error::{non_negative, positive, Error};

/// Ring propagation: how [`Field::propagate`] splits each source into a ring (a sphere in
/// 3D) of children per step.
///
/// ```
/// use influence::field::Rings;
/// // Twelve children half a unit out, losing nothing, expiring below 0.001.
/// let fine = Rings { children: 12, spread: 0.5, decay: 0.0, threshold: 1e-3 };
/// assert_eq!(Rings::default().children, 6);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rings {
    /// Children per source (≥ 1), evenly spaced on the ring or sphere.
    pub children: usize,
    /// Distance from a source to its children (world units, > 0). Keep it below the
    /// thickness of the thinnest wall: only the landing point is tested, not the path.
    pub spread: f32,
    /// Fraction of the strength lost per step (in `[0, 1]`).
    pub decay: f32,
    /// A source whose children would each have `|strength|` below this expires (≥ 0).
    pub threshold: f32,
}

impl Default for Rings {
    /// Six children one unit away, 10 % decay, expiring below 0.01.
    fn default() -> Self {
        Self { children: 6, spread: 1.0, decay: 0.1, threshold: 0.01 }
    }
}

impl Rings {
    /// Checks the parameters.
    ///
    /// # Errors
    /// [`Error::BadNumber`] naming the field that is out of range.
    pub(crate) fn validate(&self) -> Result<(), Error> {
        if self.children == 0 {
            return Err(Error::BadNumber {
                what: "propagation children",
                expected: "at least 1",
                value: 0.0,
            });
        }
        positive("propagation spread", self.spread)?;
        non_negative("propagation threshold", self.threshold)?;
        match non_negative("propagation decay", self.decay)? {
            d if d <= 1.0 => Ok(()),
            d => Err(Error::BadNumber {
                what: "propagation decay",
                expected: "a number from 0 to 1",
                value: f64::from(d),
            }),
        }
    }
}

impl<P: Point> Field<P> {
    /// One propagation step: every source is replaced by its children (or, when all of them
    /// are blocked, by itself decayed in place, so no energy vanishes into walls). A child is
    /// not placed where `blocked` holds (see [`Polygon`](super::Polygon) for walls as
    /// polygons; `|_| false` for open space).
    ///
    /// Returns what the step did: `(expired, expired_sources, blocked_children)` — the total
    /// strength (after decay, in `f64`) of the sources that expired, how many expired, and
    /// how many children were not placed because they landed in an obstacle (or out of `f32`
    /// range).
    ///
    /// ```
    /// use influence::field::{Curve, Field, PointSource, Rings};
    /// use influence::glam::Vec2;
    /// use influence::{Cell, Grid};
    /// let mut field = Field::new(vec![PointSource::new(Vec2::ZERO, 9.0, 3.0, Curve::Linear)?]);
    /// let step = Rings { children: 6, spread: 1.0, decay: 0.1, threshold: 0.01 };
    /// field.propagate(&step, |_| false)?;
    /// assert_eq!(field.sources().len(), 6);
    /// assert!((field.total_strength() - 8.1).abs() < 1e-5);
    /// // A wall to the east: the children that would land in it are not placed.
    /// let mut field = Field::new(vec![PointSource::new(Vec2::ZERO, 9.0, 3.0, Curve::Linear)?]);
    /// let (_, _, blocked) = field.propagate(&step, |p: Vec2| p.x > 0.5)?;
    /// assert_eq!((field.sources().len(), blocked), (4, 2));
    /// assert!((field.total_strength() - 8.1).abs() < 1e-5);
    /// // A grid's walls: its blocked cells and everything outside it.
    /// let grid = Grid::from_rows(&["...", ".@.", "..."])?;
    /// let mut field = Field::new(vec![PointSource::new(Vec2::new(0.5, 1.5), 1.0, 3.0, Curve::Linear)?]);
    /// field.propagate(&step, |p: Vec2| grid.cell_at(p).is_none_or(|c| grid.is_blocked(c)))?;
    /// assert!(field.sources().iter().all(|s| grid.cell_at(s.position()) != Some(Cell::new(1, 1))));
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::BadNumber`] for bad [`Rings`] parameters; the field is unchanged then.
    pub fn propagate(
        &mut self,
        step: &Rings,
        blocked: impl Fn(P) -> bool,
    ) -> Result<(f64, usize, usize), Error> {
        step.validate()?;
        let offsets: Vec<P> =
            (0..step.children).map(|i| P::direction(i, step.children) * step.spread).collect();
        let (mut expired, mut expired_sources, mut blocked_children) = (0.0, 0, 0);
        let mut next = Vec::with_capacity(self.sources.len() * step.children);
        let mut placed: Vec<P> = Vec::with_capacity(step.children);
        for source in &self.sources {
            let energy = source.strength() * (1.0 - step.decay);
            placed.clear();
            placed.extend(
                offsets.iter().map(|&o| source.position() + o).filter(|&p| is_finite(p) && !blocked(p)),
            );
            blocked_children += step.children - placed.len();
            if placed.is_empty() {
                placed.push(source.position());
            }
            let share = energy / placed.len() as f32;
            if share.abs() < step.threshold {
                expired += f64::from(energy);
                expired_sources += 1;
            } else {
                // Positions and share are finite, so every child is made.
                next.extend(placed.iter().filter_map(|&p| source.moved(p, share)));
            }
        }
        self.update(|sources| *sources = next);
        Ok((expired, expired_sources, blocked_children))
    }
}
