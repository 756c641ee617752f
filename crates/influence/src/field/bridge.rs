//! Bridges between fields and grids: a field sampled at a grid's cell centres becomes a
//! [`Layer`] (so layer algebra, analysis, queries and pictures apply), and grid [`Source`]s
//! whose falloff has a differentiable counterpart become a field.

use super::falloff::Curve;
use super::point::Point;
use super::source::PointSource;
use super::Field;
use crate::error::Error;
use crate::falloff::Falloff;
use crate::layer::Layer;
use crate::source::{Metric, Mode, Source};
use crate::space::{Cell, Grid, Space};

impl<P: Point> Field<P> {
    /// Writes the field's value at each cell centre of `grid` into `layer`, at height `z` for
    /// a 3D field (one floor of a building; a 2D field ignores `z`); blocked cells get 0, as
    /// stamping leaves them.
    ///
    /// ```
    /// use influence::field::{Curve, Field, PointSource};
    /// use influence::{Cell, Grid, Layer, glam::{Vec2, Vec3}};
    /// let grid = Grid::new(8, 8)?;
    /// let field = Field::new(vec![PointSource::new(Vec2::new(4.0, 4.0), 1.0, 3.0, Curve::Smooth)?]);
    /// let mut layer = Layer::for_space(&grid);
    /// field.sample_onto(&grid, 0.0, &mut layer);
    /// assert_eq!(layer[grid.index(Cell::new(3, 3)).unwrap()], field.value(grid.center(Cell::new(3, 3))));
    /// assert_eq!(layer[grid.index(Cell::new(0, 7)).unwrap()], 0.0);
    /// // A drone hovering 2 units above the floor, seen from the floor and from its height.
    /// let drone = Field::new(vec![PointSource::new(Vec3::new(4.0, 4.0, 2.0), 1.0, 3.0, Curve::Linear)?]);
    /// let (mut floor, mut air) = (Layer::for_space(&grid), Layer::for_space(&grid));
    /// drone.sample_onto(&grid, 0.0, &mut floor);
    /// drone.sample_onto(&grid, 2.0, &mut air);
    /// assert!(floor.values().iter().sum::<f32>() < air.values().iter().sum::<f32>());
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Panics
    /// If `layer` was not made for `grid` (different lengths).
    pub fn sample_onto(&self, grid: &Grid, z: f32, layer: &mut Layer) {
        assert_eq!(layer.len(), grid.len(), "layer not made for this grid");
        let blocked = grid.blocked();
        for (i, v) in layer.values_mut().iter_mut().enumerate() {
            let Cell { x, y } = grid.cell(i);
            *v = if blocked[i] { 0.0 } else { self.value(P::lift(grid.center(Cell::new(x, y)), z)) };
        }
    }

    /// A field of grid sources (in the plane `z = 0` for a 3D field), each with the field
    /// curve of its falloff (see [`Curve::from_falloff`]).
    ///
    /// ```
    /// use influence::field::Field;
    /// use influence::{Cell, Falloff, Grid, Layer, Source, Stamper, glam::Vec2};
    /// let grid = Grid::new(16, 16)?;
    /// let sources = [Source::new(grid.center(Cell::new(5, 5)), 3.0, Falloff::Linear, 6.0)?];
    /// let (mut stamped, mut sampled) = (Layer::for_space(&grid), Layer::for_space(&grid));
    /// Stamper::new().stamp_all(&grid, &mut stamped, &sources)?;
    /// Field::<Vec2>::from_sources(&sources)?.sample_onto(&grid, 0.0, &mut sampled);
    /// let worst = stamped.values().iter().zip(sampled.values()).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
    /// assert!(worst < 1e-5);
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Unsupported`] naming the source for a falloff with no field curve, a metric
    /// other than Euclidean (fields have no walls to walk around) or a mode other than
    /// `Add` (field sources add up); [`Error::BadNumber`] as [`PointSource::new`].
    pub fn from_sources(sources: &[Source]) -> Result<Self, Error> {
        let points = sources.iter().enumerate().map(|(i, s)| {
            let unsupported =
                |what: &str, reason| Error::Unsupported { what: format!("source {i}: {what}"), reason };
            if s.metric() != Metric::Euclidean {
                return Err(unsupported("metric", "field distances are straight lines"));
            }
            if s.mode() != Mode::Add {
                return Err(unsupported("mode", "field sources always add up"));
            }
            let curve = Curve::from_falloff(s.falloff()).map_err(|e| match e {
                Error::Unsupported { what, reason } => unsupported(&what, reason),
                other => other,
            })?;
            PointSource::new(P::lift(s.position(), 0.0), s.strength(), s.radius(), curve)
        });
        Ok(Self::new(points.collect::<Result<_, _>>()?))
    }
}

impl Curve {
    /// The field curve of a grid falloff: linear, polynomial, Gaussian and exponential map
    /// to themselves, halving to exponential at `ln 2 / step`.
    ///
    /// ```
    /// use influence::{Falloff, field::Curve};
    /// assert_eq!(Curve::from_falloff(&Falloff::Linear)?, Curve::Linear);
    /// assert!(Curve::from_falloff(&Falloff::Constant).is_err());
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Unsupported`] for constant, point, band and custom falloffs, which have no
    /// derivative to climb (a custom field curve can be made with [`Curve::Custom`]).
    pub fn from_falloff(falloff: &Falloff) -> Result<Self, Error> {
        let unsupported = |name: &str| Error::Unsupported {
            what: format!("falloff {name}"),
            reason: "it has no usable derivative",
        };
        Ok(match *falloff {
            Falloff::Linear => Self::Linear,
            Falloff::Polynomial { power } => Self::Polynomial { power },
            Falloff::Gaussian { sigma } => Self::Gaussian { sigma },
            Falloff::Exponential { rate } => Self::Exponential { rate },
            Falloff::Halving { step } => Self::Exponential { rate: std::f32::consts::LN_2 / step },
            Falloff::Constant => return Err(unsupported("constant")),
            Falloff::Point => return Err(unsupported("point")),
            Falloff::Band(_) => return Err(unsupported("band")),
            Falloff::Custom(_) => return Err(unsupported("custom")),
        })
    }
}
