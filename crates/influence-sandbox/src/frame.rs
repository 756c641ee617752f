//! Layers on the wire: a binary frame (a fixed header, the values as little-endian `f32`,
//! one flag byte per cell) and the colour tables the page draws them with — sampled from
//! `influence::render`'s own colour maps, so the page shows what `influence render` writes.
//!
//! ```text
//! offset  type     field
//!  0      [u8; 4]  magic "INFL"
//!  4      u32      format version (1)
//!  8      u32      width
//! 12      u32      height
//! 16      u32      scene version (low 32 bits; changes with every edit)
//! 20      u32      steps done
//! 24      u32      steps asked for
//! 28      u8       scale: 0 diverging, 1 sequential (render::Scale::auto of the layer)
//! 29      u8       1 when the page should draw the front line (the influence layer)
//! 30      u16      0
//! 32      f32      scale low  (−max_abs, or min)
//! 36      f32      scale high (max_abs, or max)
//! 40      u32      the flood's predicted cell index, or 0xFFFFFFFF
//! 44      u32      the flood's last-seen cell index, or 0xFFFFFFFF
//! 48      f32 × n  values, row y = 0 first
//! 48+4n   u8 × n   flags: bit 0 blocked, bit 1 front line
//! 48+5n   u32      number of routes, then per route: u32 cell count, u32 × count cells
//! ```

use influence::render::figure::{self, Shape};
use influence::render::{self, Scale};
use influence::{Grid, Layer, Space};
use serde::Serialize;

/// Bytes before the values.
pub const HEADER: usize = 48;
/// Entries in each colour table.
pub const LUT_SIZE: usize = 1024;

/// What a frame carries besides the layer.
#[derive(Debug, Clone, Copy)]
pub struct FrameInfo {
    /// The scene's edit counter.
    pub version: u64,
    /// Steps computed.
    pub done: u64,
    /// Steps asked for.
    pub target: u64,
    /// Draw the front line over this layer.
    pub draw_front: bool,
    /// The flood's predicted cell.
    pub predicted: Option<usize>,
    /// The flood's last-seen cell.
    pub last_seen: Option<usize>,
}

fn u32_of(v: impl TryInto<u32>) -> u32 {
    v.try_into().unwrap_or(u32::MAX)
}

/// Encodes `layer` on `grid` with the front-line mask `front`.
pub fn encode(grid: &Grid, layer: &Layer, front: &[bool], routes: &[&[usize]], info: FrameInfo) -> Vec<u8> {
    let n = grid.len();
    let mut out = Vec::with_capacity(HEADER + 5 * n);
    let (kind, lo, hi) = match Scale::auto(layer) {
        Scale::Diverging { max_abs } => (0u8, -max_abs, max_abs),
        Scale::Sequential { min, max } => (1u8, min, max),
    };
    out.extend_from_slice(b"INFL");
    for v in [
        1,
        u32_of(grid.width()),
        u32_of(grid.height()),
        info.version as u32, // the low bits: clients only compare it
        u32_of(info.done),
        u32_of(info.target),
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&[kind, u8::from(info.draw_front), 0, 0]);
    out.extend_from_slice(&lo.to_le_bytes());
    out.extend_from_slice(&hi.to_le_bytes());
    out.extend_from_slice(&info.predicted.map_or(u32::MAX, u32_of).to_le_bytes());
    out.extend_from_slice(&info.last_seen.map_or(u32::MAX, u32_of).to_le_bytes());
    for v in layer.values() {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend(grid.blocked().iter().zip(front).map(|(&b, &f)| u8::from(b) | u8::from(f) << 1));
    out.extend_from_slice(&u32_of(routes.len()).to_le_bytes());
    for route in routes {
        out.extend_from_slice(&u32_of(route.len()).to_le_bytes());
        route.iter().for_each(|&c| out.extend_from_slice(&u32_of(c).to_le_bytes()));
    }
    out
}

/// `GET /api/colormap`.
#[derive(Debug, Serialize)]
pub struct Colormap {
    /// Entries per table.
    pub size: usize,
    /// [`DIVERGING`]'s colour at `−1 + 2i/(size−1)`: index `round((t + 1)/2 · (size−1))` for a
    /// value at `t = v / max_abs` clamped to `[−1, 1]`.
    pub diverging: Vec<[u8; 3]>,
    /// [`SEQUENTIAL`]'s colour at `i/(size−1)`: index `round(t · (size−1))` for
    /// `t = (v − min)/(max − min)` clamped to `[0, 1]` (0 when `max = min`).
    pub sequential: Vec<[u8; 3]>,
    /// Blocked cells.
    pub obstacle: [u8; 3],
    /// Front-line cells: a colour nothing else on the page uses (the figures' front line).
    pub frontline: [u8; 3],
    /// NaN values.
    pub nan: [u8; 3],
    /// The ring round a flood's last-seen cell.
    pub last_seen: [u8; 3],
    /// The cross-hair on a flood's predicted cell.
    pub predicted: [u8; 3],
    /// Marker shapes by team index (cycling): `circle`, `square`, `triangle`, `diamond`,
    /// `triangle-down`, `plus`, as in pictures `influence render` draws.
    pub shapes: Vec<&'static str>,
}

/// The renderers' diverging colour map over `[-1, 1]`.
const DIVERGING: Scale = Scale::Diverging { max_abs: 1.0 };
/// The renderers' sequential colour map over `[0, 1]`.
const SEQUENTIAL: Scale = Scale::Sequential { min: 0.0, max: 1.0 };

/// The colour tables.
pub fn colormap() -> Colormap {
    let at = |i: usize| i as f32 / (LUT_SIZE - 1) as f32;
    Colormap {
        size: LUT_SIZE,
        diverging: (0..LUT_SIZE).map(|i| DIVERGING.color(2.0 * at(i) - 1.0)).collect(),
        sequential: (0..LUT_SIZE).map(|i| SEQUENTIAL.color(at(i))).collect(),
        obstacle: render::OBSTACLE_COLOR,
        frontline: figure::FRONT_COLOR,
        nan: render::NAN_COLOR,
        last_seen: figure::LAST_SEEN_COLOR,
        predicted: figure::PREDICTED_COLOR,
        shapes: Shape::ALL.iter().map(|s| s.name()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_carry_scale_values_and_flags() {
        let grid = Grid::from_rows(&[".@."]).unwrap();
        let layer = Layer::from_vec(vec![-2.0, 0.0, 1.0]);
        let info = FrameInfo {
            version: 7,
            done: 3,
            target: 4,
            draw_front: true,
            predicted: Some(2),
            last_seen: None,
        };
        let f = encode(&grid, &layer, &[true, false, false], &[&[0, 2]], info);
        assert_eq!(f.len(), HEADER + 3 * 5 + 4 + 4 + 8);
        let word = |o: usize| u32::from_le_bytes(f[o..o + 4].try_into().unwrap());
        assert_eq!(&f[..4], b"INFL");
        assert_eq!([word(8), word(12), word(16), word(20), word(24)], [3, 1, 7, 3, 4]);
        assert_eq!((f[28], f[29]), (0, 1));
        assert_eq!([f32::from_bits(word(32)), f32::from_bits(word(36))], [-2.0, 2.0]);
        assert_eq!([word(40), word(44)], [2, u32::MAX]);
        assert_eq!(f32::from_bits(word(HEADER + 8)), 1.0);
        assert_eq!(&f[HEADER + 12..HEADER + 15], &[2, 1, 0]);
        assert_eq!(
            [word(HEADER + 15), word(HEADER + 19), word(HEADER + 23), word(HEADER + 27)],
            [1, 2, 0, 2]
        );
    }

    #[test]
    fn colormap_ends_are_the_renderers() {
        let c = colormap();
        assert_eq!(c.diverging[0], DIVERGING.color(-1.0));
        assert_eq!(c.diverging[LUT_SIZE - 1], DIVERGING.color(1.0));
        assert_eq!(c.sequential[0], SEQUENTIAL.color(0.0));
    }
}
