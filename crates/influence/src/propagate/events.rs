//! Timed events: a grenade, gunfire, a noise — influence that fades over a lifetime.
//!
//! "The Core Mechanics of Influence Mapping" lists events (explosions, bullet fire, taking
//! damage) among influence sources, additive ones in particular. An event here is a
//! [`Source`] with a lifetime; while it lives it is stamped with its strength scaled by a
//! fade factor, and when its age reaches the lifetime it is dropped.

use crate::error::{non_negative, positive, Error};
use crate::layer::Layer;
use crate::source::Source;
use crate::space::Grid;
use crate::stamp::Stamper;

/// How an event's strength fades with its age.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Fade {
    /// `strength × remaining / lifetime`: a straight ramp to 0 at the end of its life.
    Linear,
    /// `strength × exp(−rate · age)`, dropped at the end of its life all the same.
    Exponential { rate: f32 },
}

/// A live event.
#[derive(Debug, Clone)]
struct TimedEvent {
    source: Source,
    strength: f32,
    lifetime: f32,
    age: f32,
    fade: Fade,
}

impl TimedEvent {
    /// The factor its strength is scaled by now, in `[0, 1]`.
    fn factor(&self) -> f32 {
        match self.fade {
            Fade::Linear => ((self.lifetime - self.age) / self.lifetime).clamp(0.0, 1.0),
            Fade::Exponential { rate } => (-(rate * self.age)).exp(),
        }
    }
}

/// The live events of one layer; none by default.
///
/// ```
/// use influence::{propagate::Events, Cell, Falloff, Grid, Layer, Mode, Source, Stamper};
/// let grid = Grid::new(5, 5)?;
/// let mut events = Events::default();
/// let bang = Source::new(grid.center(Cell::new(2, 2)), 4.0, Falloff::Linear, 2.0)?.with_mode(Mode::Add);
/// events.add(bang, 2.0, None)?; // a grenade heard for two seconds, fading linearly
/// events.advance(0.5)?;
/// let mut danger = Layer::for_space(&grid);
/// events.stamp(&grid, &mut Stamper::new(), &mut danger)?;
/// assert_eq!(danger[grid.index(Cell::new(2, 2)).unwrap()], 3.0); // 4 × 1.5 s left / 2 s
/// events.advance(1.5)?;
/// assert_eq!(events.iter().count(), 0);
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Events {
    events: Vec<TimedEvent>,
}

impl Events {
    /// Starts an event now, living `lifetime` seconds. With `exponential_rate` `None` its
    /// strength falls in a straight ramp, `strength × remaining / lifetime`, to 0 at the end
    /// of its life; with `Some(rate)` it is `strength × exp(−rate · age)` (rate per second),
    /// and the event is dropped at the end of its life all the same.
    ///
    /// # Errors
    /// [`Error::BadNumber`] for a lifetime that is not finite and positive, or an
    /// exponential rate that is negative or not finite.
    pub fn add(&mut self, source: Source, lifetime: f32, exponential_rate: Option<f32>) -> Result<(), Error> {
        positive("event lifetime", lifetime)?;
        let fade = match exponential_rate {
            None => Fade::Linear,
            Some(rate) => Fade::Exponential { rate: non_negative("event fade rate", rate)? },
        };
        let strength = source.strength();
        self.events.push(TimedEvent { source, strength, lifetime, age: 0.0, fade });
        Ok(())
    }

    /// Ages every event by `dt` seconds and drops those whose lifetime is over.
    ///
    /// # Errors
    /// [`Error::BadNumber`] unless `dt` is finite and ≥ 0.
    pub fn advance(&mut self, dt: f32) -> Result<(), Error> {
        non_negative("dt", dt)?;
        for e in &mut self.events {
            e.age += dt;
        }
        self.events.retain(|e| e.age < e.lifetime);
        Ok(())
    }

    /// Stamps every live event into `layer` at its faded strength (per each source's mode;
    /// events are usually additive), as [`Stamper::stamp_all`] does: an event that cannot
    /// be placed is skipped, the others are stamped, and the first refusal is returned.
    ///
    /// # Errors
    /// [`Error::Unplaced`] for the first event on a blocked cell.
    pub fn stamp(&mut self, grid: &Grid, stamper: &mut Stamper, layer: &mut Layer) -> Result<(), Error> {
        let mut first = Ok(());
        for e in &mut self.events {
            // Finite strength × a factor in [0, 1] is finite, so neither can fail; the
            // source is left at full strength.
            if e.source.set_strength(e.strength * e.factor()).is_ok() {
                let placed = stamper.stamp(grid, layer, &e.source);
                if first.is_ok() {
                    first = placed;
                }
            }
            let _ = e.source.set_strength(e.strength);
        }
        first
    }

    /// The live events, oldest first, each as `(source, age, lifetime, factor)`: its source
    /// at full strength, the seconds since it happened, the seconds it lives, and the factor
    /// in `[0, 1]` its strength is scaled by now.
    ///
    /// ```
    /// use influence::{propagate::Events, Cell, Falloff, Grid, Source};
    /// let grid = Grid::new(3, 1)?;
    /// let shot = Source::new(grid.center(Cell::new(0, 0)), 2.0, Falloff::Point, 1.0)?;
    /// let mut events = Events::default();
    /// events.add(shot, 4.0, None)?;
    /// events.advance(1.0)?;
    /// let (source, age, lifetime, factor) = events.iter().next().unwrap();
    /// assert_eq!((source.strength(), age, lifetime, factor), (2.0, 1.0, 4.0, 0.75));
    /// # Ok::<(), influence::Error>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&Source, f32, f32, f32)> {
        self.events.iter().map(|e| (&e.source, e.age, e.lifetime, e.factor()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::falloff::Falloff;
    use crate::Cell;

    #[test]
    fn exponential_fade_and_expiry() {
        let grid = Grid::new(3, 1).unwrap();
        let shot = Source::new(grid.center(Cell::new(0, 0)), 2.0, Falloff::Point, 1.0).unwrap();
        let mut events = Events::default();
        events.add(shot.clone(), 3.0, Some(1.0)).unwrap();
        events.add(shot, 1.0, None).unwrap();
        events.advance(1.0).unwrap();
        assert_eq!(events.iter().count(), 1);
        assert!((events.iter().next().unwrap().3 - (-1.0f32).exp()).abs() < 1e-7);
        let mut layer = Layer::for_space(&grid);
        events.stamp(&grid, &mut Stamper::new(), &mut layer).unwrap();
        assert!((layer[0] - 2.0 * (-1.0f32).exp()).abs() < 1e-6);
        assert!(events
            .add(Source::new(grid.center(Cell::new(0, 0)), 1.0, Falloff::Point, 1.0).unwrap(), 0.0, None)
            .is_err());
        assert!(events.advance(f32::NAN).is_err());
    }
}
