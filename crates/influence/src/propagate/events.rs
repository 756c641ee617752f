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
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Fade {
    /// `strength × remaining / lifetime`: a straight ramp to 0 at the end of its life.
    #[default]
    Linear,
    /// `strength × exp(−rate · age)`, dropped at the end of its life all the same.
    Exponential {
        /// Decay per second (≥ 0).
        rate: f32,
    },
}

/// A live event.
#[derive(Debug, Clone)]
pub struct TimedEvent {
    source: Source,
    strength: f32,
    lifetime: f32,
    age: f32,
    fade: Fade,
}

impl TimedEvent {
    /// The factor its strength is scaled by now, in `[0, 1]`.
    pub fn factor(&self) -> f32 {
        match self.fade {
            Fade::Linear => ((self.lifetime - self.age) / self.lifetime).clamp(0.0, 1.0),
            Fade::Exponential { rate } => (-(rate * self.age)).exp(),
        }
    }
    /// Seconds since it happened.
    pub fn age(&self) -> f32 {
        self.age
    }
    /// Seconds it lives.
    pub fn lifetime(&self) -> f32 {
        self.lifetime
    }
    /// Its source, at full strength.
    pub fn source(&self) -> &Source {
        &self.source
    }
}

/// The live events of one layer.
///
/// ```
/// use influence::{propagate::{Events, Fade}, Cell, Falloff, Grid, Layer, Mode, Source, Stamper};
/// let grid = Grid::new(5, 5)?;
/// let mut events = Events::new();
/// let bang = Source::new(grid.center(Cell::new(2, 2)), 4.0, Falloff::Linear, 2.0)?.with_mode(Mode::Add);
/// events.add(bang, 2.0, Fade::Linear)?; // a grenade heard for two seconds
/// events.advance(0.5)?;
/// let mut danger = Layer::for_space(&grid);
/// events.stamp(&grid, &mut Stamper::new(), &mut danger);
/// assert_eq!(danger[grid.index(Cell::new(2, 2)).unwrap()], 3.0); // 4 × 1.5 s left / 2 s
/// events.advance(1.5)?;
/// assert!(events.is_empty());
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Events {
    events: Vec<TimedEvent>,
}

impl Events {
    /// No events.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts an event now.
    ///
    /// # Errors
    /// [`Error::BadNumber`] for a lifetime that is not finite and positive, or an
    /// exponential rate that is negative or not finite.
    pub fn add(&mut self, source: Source, lifetime: f32, fade: Fade) -> Result<(), Error> {
        positive("event lifetime", lifetime)?;
        if let Fade::Exponential { rate } = fade {
            non_negative("event fade rate", rate)?;
        }
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
    /// events are usually additive).
    pub fn stamp(&mut self, grid: &Grid, stamper: &mut Stamper, layer: &mut Layer) {
        for e in &mut self.events {
            // Finite strength × a factor in [0, 1] is finite, so this cannot fail.
            if e.source.set_strength(e.strength * e.factor()).is_ok() {
                stamper.stamp(grid, layer, &e.source);
            }
        }
    }

    /// The live events, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &TimedEvent> {
        self.events.iter()
    }

    /// Number of live events.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// `true` when no event is live.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
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
        let mut events = Events::new();
        events.add(shot.clone(), 3.0, Fade::Exponential { rate: 1.0 }).unwrap();
        events.add(shot, 1.0, Fade::Linear).unwrap();
        events.advance(1.0).unwrap();
        assert_eq!(events.len(), 1);
        assert!((events.iter().next().unwrap().factor() - (-1.0f32).exp()).abs() < 1e-7);
        let mut layer = Layer::for_space(&grid);
        events.stamp(&grid, &mut Stamper::new(), &mut layer);
        assert!((layer[0] - 2.0 * (-1.0f32).exp()).abs() < 1e-6);
        assert!(events
            .add(
                Source::new(grid.center(Cell::new(0, 0)), 1.0, Falloff::Point, 1.0).unwrap(),
                0.0,
                Fade::Linear
            )
            .is_err());
        assert!(events.advance(f32::NAN).is_err());
    }
}
