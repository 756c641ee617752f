//! From values to colours: the [`Scale`] that maps a value into the unit range, and the two
//! colour maps it feeds, each a small table of stops interpolated linearly.

use std::fmt;

use crate::error::{finite, non_negative, Error};
use crate::Layer;

/// Blocked cells: a neutral dark grey, darker than every colour of either map except the
/// darkest viridis purple, from which its lack of hue sets it apart.
pub const OBSTACLE_COLOR: [u8; 3] = [64, 64, 64];
/// Front-line cells and the outline of markers: black.
pub const FRONTLINE_COLOR: [u8; 3] = [0, 0, 0];
/// Cells whose value is NaN: magenta, which neither map contains.
pub const NAN_COLOR: [u8; 3] = [255, 0, 255];

/// ColorBrewer `RdBu`, 9 classes (Cynthia Brewer, Apache-2.0), reversed: blue for negative,
/// near-white at zero, red for positive, lightness falling symmetrically towards both ends.
const DIVERGING: [[u8; 3]; 9] = [
    [0x21, 0x66, 0xac],
    [0x43, 0x93, 0xc3],
    [0x92, 0xc5, 0xde],
    [0xd1, 0xe5, 0xf0],
    [0xf7, 0xf7, 0xf7],
    [0xfd, 0xdb, 0xc7],
    [0xf4, 0xa5, 0x82],
    [0xd6, 0x60, 0x4d],
    [0xb2, 0x18, 0x2b],
];

/// Viridis (van der Walt and Smith, CC0) sampled at 11 evenly spaced points: dark purple to
/// yellow with lightness rising steadily.
const SEQUENTIAL: [[u8; 3]; 11] = [
    [0x44, 0x01, 0x54],
    [0x48, 0x24, 0x75],
    [0x41, 0x44, 0x87],
    [0x35, 0x5f, 0x8d],
    [0x2a, 0x78, 0x8e],
    [0x21, 0x91, 0x8c],
    [0x22, 0xa8, 0x84],
    [0x44, 0xbf, 0x70],
    [0x7a, 0xd1, 0x51],
    [0xbd, 0xdf, 0x26],
    [0xfd, 0xe7, 0x25],
];

/// Interpolates evenly spaced `stops` at `t` in `[0, 1]`.
fn lerp_stops(stops: &[[u8; 3]], t: f32) -> [u8; 3] {
    let pos = t.clamp(0.0, 1.0) * (stops.len() - 1) as f32;
    let i = (pos as usize).min(stops.len() - 2);
    let f = pos - i as f32;
    let (a, b) = (stops[i], stops[i + 1]);
    std::array::from_fn(|c| (f32::from(a[c]) + (f32::from(b[c]) - f32::from(a[c])) * f).round() as u8)
}

/// The diverging map at `t` in `[-1, 1]` (clamped): −1 blue, 0 near-white, +1 red.
pub(crate) fn diverging(t: f32) -> [u8; 3] {
    lerp_stops(&DIVERGING, (t + 1.0) / 2.0)
}

/// The sequential (viridis) map at `t` in `[0, 1]` (clamped): dark purple to yellow.
pub(crate) fn sequential(t: f32) -> [u8; 3] {
    lerp_stops(&SEQUENTIAL, t)
}

/// How values map to colours (and to the characters of [`super::render_text`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    /// Signed values: `[-max_abs, max_abs]` onto the diverging map (ColorBrewer `RdBu`):
    /// blue below zero, near-white at zero, red above.
    Diverging {
        /// The magnitude shown at full strength; larger ones saturate.
        max_abs: f32,
    },
    /// One-signed values: `[min, max]` onto the sequential map (viridis): dark purple to
    /// yellow.
    Sequential {
        /// The value shown darkest; smaller ones saturate.
        min: f32,
        /// The value shown brightest; larger ones saturate.
        max: f32,
    },
}

impl Scale {
    /// The scale for a layer's finite values: diverging over the largest magnitude when any
    /// value is negative, sequential from the smallest to the largest value otherwise.
    /// A layer without finite values gets `Sequential { min: 0, max: 0 }`.
    ///
    /// ```
    /// use influence::{render::Scale, Layer};
    /// let signed = Layer::from_vec(vec![-2.0, 0.5, f32::NAN]);
    /// assert_eq!(Scale::auto(&signed), Scale::Diverging { max_abs: 2.0 });
    /// let tension = Layer::from_vec(vec![1.0, 3.0]);
    /// assert_eq!(Scale::auto(&tension), Scale::Sequential { min: 1.0, max: 3.0 });
    /// ```
    pub fn auto(layer: &Layer) -> Self {
        let (lo, hi) = layer
            .values()
            .iter()
            .filter(|v| v.is_finite())
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        if lo < 0.0 {
            Self::Diverging { max_abs: hi.max(-lo) }
        } else if lo <= hi {
            Self::Sequential { min: lo, max: hi }
        } else {
            Self::Sequential { min: 0.0, max: 0.0 }
        }
    }

    /// Checks the bounds: finite, `max_abs >= 0`, `min <= max`.
    ///
    /// # Errors
    /// [`Error::BadNumber`] naming the bound at fault.
    pub fn validate(self) -> Result<Self, Error> {
        match self {
            Self::Diverging { max_abs } => {
                non_negative("Scale::Diverging max_abs", max_abs)?;
            }
            Self::Sequential { min, max } => {
                finite("Scale::Sequential min", min)?;
                if finite("Scale::Sequential max", max)? < min {
                    return Err(Error::BadNumber {
                        what: "Scale::Sequential max",
                        expected: "a finite number no smaller than min",
                        value: f64::from(max),
                    });
                }
            }
        }
        Ok(self)
    }

    /// Where `v` falls: in `[-1, 1]` for a diverging scale, `[0, 1]` for a sequential one,
    /// saturating outside the bounds; NaN for NaN. A zero-width scale puts every value at 0.
    ///
    /// ```
    /// use influence::render::Scale;
    /// assert_eq!(Scale::Diverging { max_abs: 4.0 }.unit(-1.0), -0.25);
    /// assert_eq!(Scale::Sequential { min: 1.0, max: 3.0 }.unit(9.0), 1.0);
    /// assert_eq!(Scale::Sequential { min: 2.0, max: 2.0 }.unit(2.0), 0.0);
    /// ```
    pub fn unit(&self, v: f32) -> f32 {
        if v.is_nan() {
            return f32::NAN;
        }
        match *self {
            Self::Diverging { max_abs } if max_abs > 0.0 => (v / max_abs).clamp(-1.0, 1.0),
            // In f64 so that `max - min` cannot overflow.
            Self::Sequential { min, max } if max > min => {
                let (v, min, max) = (f64::from(v), f64::from(min), f64::from(max));
                ((v - min) / (max - min)).clamp(0.0, 1.0) as f32
            }
            _ => 0.0,
        }
    }

    /// The colour of value `v`: [`NAN_COLOR`] for NaN. The scales of unit width are the
    /// bare colour maps.
    ///
    /// ```
    /// use influence::render::{Scale, NAN_COLOR};
    /// let diverging = Scale::Diverging { max_abs: 1.0 }; // the map over [-1, 1]
    /// assert_eq!(diverging.color(0.0), [247, 247, 247]);
    /// let (blue, red) = (diverging.color(-1.0), diverging.color(1.0));
    /// assert!(blue[2] > blue[0] && red[0] > red[2]);
    /// assert_eq!(diverging.color(f32::NAN), NAN_COLOR);
    /// let viridis = Scale::Sequential { min: 0.0, max: 1.0 }; // the map over [0, 1]
    /// assert_eq!((viridis.color(0.0), viridis.color(1.0)), ([68, 1, 84], [253, 231, 37]));
    /// ```
    pub fn color(&self, v: f32) -> [u8; 3] {
        let t = self.unit(v);
        match self {
            _ if t.is_nan() => NAN_COLOR,
            Self::Diverging { .. } => diverging(t),
            Self::Sequential { .. } => sequential(t),
        }
    }
}

/// `diverging ±5` or `sequential 0..5`.
impl fmt::Display for Scale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Diverging { max_abs } => write!(f, "diverging ±{max_abs}"),
            Self::Sequential { min, max } => write!(f, "sequential {min}..{max}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Relative luminance (linearised sRGB), the "lightness" the maps must order.
    fn luminance(c: [u8; 3]) -> f32 {
        let lin = |u: u8| {
            let s = f32::from(u) / 255.0;
            if s <= 0.04045 {
                s / 12.92
            } else {
                ((s + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
    }

    fn samples(n: usize) -> impl Iterator<Item = f32> {
        (0..=n).map(move |i| i as f32 / n as f32)
    }

    #[test]
    fn diverging_is_neutral_at_zero_and_separates_signs() {
        let zero = diverging(0.0);
        assert!(zero.iter().all(|&c| c > 230) && zero[0] == zero[1] && zero[1] == zero[2]);
        for t in samples(50).skip(1) {
            let (neg, pos) = (diverging(-t), diverging(t));
            assert!(neg[2] > neg[0], "negative {t} is not blue: {neg:?}");
            assert!(pos[0] > pos[2], "positive {t} is not red: {pos:?}");
        }
        assert_eq!(diverging(-7.0), diverging(-1.0));
        assert_eq!(diverging(7.0), diverging(1.0));
    }

    #[test]
    fn lightness_is_monotone() {
        // Rounding to whole code values may wiggle the luminance by about one step of red.
        const ROUNDING: f32 = 0.003;
        let mut last = (luminance(diverging(0.0)), luminance(diverging(0.0)), 0.0);
        for t in samples(200) {
            let (neg, pos, seq) =
                (luminance(diverging(-t)), luminance(diverging(t)), luminance(sequential(t)));
            let ok = neg <= last.0 + ROUNDING && pos <= last.1 + ROUNDING && seq >= last.2 - ROUNDING;
            assert!(ok, "not monotone at {t}");
            last = (neg, pos, seq);
        }
        assert_eq!(sequential(0.5), [0x21, 0x91, 0x8c]);
        assert!(luminance(diverging(-1.0)) < 0.15 && luminance(diverging(1.0)) < 0.15);
        assert!(luminance(sequential(0.0)) < 0.05 && luminance(sequential(1.0)) > 0.7);
    }

    #[test]
    fn obstacle_and_nan_colours_stand_apart() {
        let dist =
            |a: [u8; 3], b: [u8; 3]| (0..3).map(|c| i32::from(a[c]).abs_diff(i32::from(b[c]))).sum::<u32>();
        for t in samples(200) {
            for c in [diverging(t), diverging(-t), sequential(t)] {
                assert!(dist(c, OBSTACLE_COLOR) >= 60, "{c:?} too close to the obstacle colour");
                assert!(dist(c, NAN_COLOR) >= 150, "{c:?} too close to the NaN colour");
            }
        }
    }

    #[test]
    fn auto_picks_the_map_by_sign_and_never_makes_nan() {
        let auto = |v: &[f32]| Scale::auto(&Layer::from_vec(v.to_vec()));
        assert_eq!(auto(&[-1.0, 3.0]), Scale::Diverging { max_abs: 3.0 });
        assert_eq!(auto(&[-4.0, -1.0]), Scale::Diverging { max_abs: 4.0 });
        assert_eq!(auto(&[0.0, 2.0, f32::INFINITY]), Scale::Sequential { min: 0.0, max: 2.0 });
        assert_eq!(auto(&[f32::NAN]), Scale::Sequential { min: 0.0, max: 0.0 });
        for scale in [auto(&[0.0, 0.0]), auto(&[5.0, 5.0]), auto(&[]), Scale::Diverging { max_abs: 0.0 }] {
            for v in [0.0, 5.0, -3.0, f32::INFINITY, f32::NEG_INFINITY] {
                assert_eq!(scale.unit(v), 0.0, "{scale} at {v}");
            }
        }
        let wide = Scale::Sequential { min: -f32::MAX, max: f32::MAX };
        assert_eq!((wide.unit(f32::MAX), wide.unit(f32::INFINITY)), (1.0, 1.0));
        assert_eq!(Scale::Diverging { max_abs: 1.0 }.unit(f32::NEG_INFINITY), -1.0);
    }

    #[test]
    fn validate_rejects_bad_bounds() {
        assert!(Scale::Diverging { max_abs: -1.0 }.validate().is_err());
        assert!(Scale::Diverging { max_abs: f32::NAN }.validate().is_err());
        assert!(Scale::Sequential { min: 2.0, max: 1.0 }.validate().is_err());
        assert!(Scale::Sequential { min: 0.0, max: f32::INFINITY }.validate().is_err());
        assert!(Scale::Sequential { min: 1.0, max: 1.0 }.validate().is_ok());
        assert_eq!(Scale::Diverging { max_abs: 2.5 }.to_string(), "diverging ±2.5");
    }
}
