//! Memory: layers that remember where things were and forget at their own pace.
//!
//! Breadcrumbing ("Escaping the Grid"; the historical statistics of "The Core Mechanics of
//! Influence Mapping"): each update the old values decay by a proportion and new placements
//! add on top, so a trail of recent positions fades behind a moving unit. Tayebi
//! ("Influence Maps in Game AI") registers layer types as dynamic — their influence decays
//! by itself — or static — it persists until changed.

use super::diffuse::Diffusion;
use super::seed::{self, Seed};
use crate::error::{finite, non_negative, Error};
use crate::layer::Layer;
use crate::space::Space;

/// A layer with memory: placements add on top, and old values fade.
///
/// ```
/// use influence::{propagate::{MemoryLayer, Seed}, Grid, Mode};
/// let grid = Grid::new(4, 1)?;
/// let mut trail = MemoryLayer::new(&grid, Some(std::f32::consts::LN_2))?; // half-life 1 s
/// for x in 0..4 {
///     trail.deposit(&grid, &[Seed::new(x, 1.0).with_mode(Mode::Add)])?; // the unit walks right
///     trail.update(1.0)?; // one second: everything halves
/// }
/// let v = trail.layer().values();
/// assert!(v[0] < v[1] && v[1] < v[2] && v[2] < v[3]); // older crumbs are fainter
/// assert!((v[3] - 0.5).abs() < 1e-6 && (v[0] - 0.0625).abs() < 1e-6);
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryLayer {
    values: Layer,
    /// Decay per second of a dynamic layer; `None` for a static one.
    rate: Option<f32>,
    threshold: f32,
}

impl MemoryLayer {
    /// A zeroed layer for `space`, static or dynamic (Tayebi's two kinds of layer): with
    /// `decay_rate` `None` values stay until changed; with `Some(rate)` every
    /// [`update`](Self::update) of `dt` seconds multiplies them by `exp(−rate · dt)` — the
    /// same decay whatever the update rate (the half-life is `ln 2 / rate` seconds).
    /// Magnitudes below [`Diffusion::DEFAULT_THRESHOLD`] become 0 when fading.
    ///
    /// # Errors
    /// [`Error::BadNumber`] for a dynamic rate that is negative or not finite.
    pub fn new(space: &impl Space, decay_rate: Option<f32>) -> Result<Self, Error> {
        if let Some(rate) = decay_rate {
            non_negative("dynamic layer rate", rate)?;
        }
        Ok(Self {
            values: Layer::for_space(space),
            rate: decay_rate,
            threshold: Diffusion::DEFAULT_THRESHOLD,
        })
    }

    /// Sets the magnitude below which faded values become 0.
    ///
    /// # Errors
    /// [`Error::BadNumber`] unless finite and ≥ 0.
    pub fn with_threshold(mut self, threshold: f32) -> Result<Self, Error> {
        self.threshold = non_negative("threshold", threshold)?;
        Ok(self)
    }

    /// The values.
    pub fn layer(&self) -> &Layer {
        &self.values
    }

    /// The values, to stamp into or edit.
    pub fn layer_mut(&mut self) -> &mut Layer {
        &mut self.values
    }

    /// Writes placements (use [`Mode::Add`](crate::Mode::Add) to add on top).
    ///
    /// # Errors
    /// [`Error::OutOfBounds`] or [`Error::BadNumber`] for a bad seed; nothing is written.
    ///
    /// # Panics
    /// If the layer was made for a space of another size.
    pub fn deposit<S: Space>(&mut self, space: &S, seeds: &[Seed]) -> Result<(), Error> {
        assert_eq!(space.len(), self.values.len(), "memory layer was not made for this space");
        seed::check(space.len(), seeds)?;
        seed::apply(space, self.values.values_mut(), seeds, |_| {});
        Ok(())
    }

    /// Breadcrumb decay: every value loses `proportion` of itself.
    ///
    /// # Errors
    /// [`Error::BadNumber`] unless `proportion` lies in `[0, 1]`.
    pub fn fade(&mut self, proportion: f32) -> Result<(), Error> {
        if !(0.0..=1.0).contains(&proportion) {
            return Err(Error::BadNumber {
                what: "fade proportion",
                expected: "a number from 0 to 1",
                value: proportion.into(),
            });
        }
        self.scale(1.0 - proportion);
        Ok(())
    }

    /// Advances time by `dt` seconds: a dynamic layer decays, a static one is unchanged.
    ///
    /// # Errors
    /// [`Error::BadNumber`] unless `dt` is finite and ≥ 0.
    pub fn update(&mut self, dt: f32) -> Result<(), Error> {
        non_negative("dt", finite("dt", dt)?)?;
        if let Some(rate) = self.rate {
            self.scale((-(rate * dt)).exp());
        }
        Ok(())
    }

    fn scale(&mut self, keep: f32) {
        let t = self.threshold;
        self.values.map(|v| {
            let v = v * keep;
            if v.abs() < t {
                0.0
            } else {
                v
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::Grid;
    use crate::Mode;

    #[test]
    fn static_layers_persist_and_dynamic_ones_fade_at_their_rate() {
        let grid = Grid::new(2, 1).unwrap();
        let mut fixed = MemoryLayer::new(&grid, None).unwrap();
        let mut fading = MemoryLayer::new(&grid, Some(0.5)).unwrap();
        for l in [&mut fixed, &mut fading] {
            l.deposit(&grid, &[Seed::new(0, 2.0)]).unwrap();
            for _ in 0..4 {
                l.update(0.5).unwrap();
            }
        }
        assert_eq!(fixed.layer().values(), &[2.0, 0.0]);
        assert!((fading.layer()[0] - 2.0 * (-1.0f32).exp()).abs() < 1e-6);
        assert!(MemoryLayer::new(&grid, Some(-1.0)).is_err());
        assert!(fading.update(-1.0).is_err() && fading.update(f32::NAN).is_err());
    }

    #[test]
    fn breadcrumbs_fade_by_a_proportion_and_vanish_below_the_threshold() {
        let grid = Grid::new(3, 1).unwrap();
        let mut m = MemoryLayer::new(&grid, None).unwrap().with_threshold(0.1).unwrap();
        m.deposit(&grid, &[Seed::new(0, 1.0).with_mode(Mode::Add)]).unwrap();
        m.fade(0.5).unwrap();
        m.deposit(&grid, &[Seed::new(0, 1.0).with_mode(Mode::Add), Seed::new(1, 0.15)]).unwrap();
        assert_eq!(m.layer().values(), &[1.5, 0.15, 0.0]);
        m.fade(0.5).unwrap();
        assert_eq!(m.layer().values(), &[0.75, 0.0, 0.0]);
        assert!(m.fade(1.5).is_err());
    }
}
