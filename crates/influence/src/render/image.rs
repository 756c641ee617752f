//! The RGB picture: one colour per cell, blown up by an integer factor, with walls, a
//! front-line mask and markers drawn over the colour map.

use glam::Vec2;

use super::{prepare, Scale, FRONTLINE_COLOR, OBSTACLE_COLOR};
use crate::error::finite;
use crate::{Cell, Error, Grid, Layer, Space, MAX_CELLS};

/// The largest [`RenderOptions::upscale`].
pub const MAX_UPSCALE: u32 = 64;

/// An RGB8 image, row-major, row 0 at the top.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RgbImage {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl RgbImage {
    /// Wraps `width × height` RGB pixels (three bytes each, rows top to bottom) drawn by
    /// another renderer of this module.
    pub(crate) fn from_pixels(width: u32, height: u32, pixels: Vec<u8>) -> Self {
        debug_assert_eq!(pixels.len(), 3 * width as usize * height as usize);
        Self { width, height, pixels }
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }
    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }
    /// Three bytes (R, G, B) per pixel, rows top to bottom.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }
    /// Gives the pixel bytes back.
    pub fn into_pixels(self) -> Vec<u8> {
        self.pixels
    }
    /// The colour at (x, y), or `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 3]> {
        (x < self.width && y < self.height).then(|| {
            let i = 3 * (y as usize * self.width as usize + x as usize);
            [self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]]
        })
    }

    /// A `width × height` image filled with `color`.
    pub(crate) fn filled(width: u32, height: u32, color: [u8; 3]) -> Self {
        Self::from_pixels(width, height, color.repeat(width as usize * height as usize))
    }

    /// Sets pixel (x, y) if it lies in the image: every drawing primitive clips here.
    pub(crate) fn put(&mut self, x: i64, y: i64, c: [u8; 3]) {
        if (0..i64::from(self.width)).contains(&x) && (0..i64::from(self.height)).contains(&y) {
            let i = 3 * (y * i64::from(self.width) + x) as usize;
            self.pixels[i..i + 3].copy_from_slice(&c);
        }
    }

    /// A line from `a` to `b` (Bresenham), `thick` pixels wide (1 or more), clipped.
    pub(crate) fn line(&mut self, a: (i64, i64), b: (i64, i64), thick: i64, c: [u8; 3]) {
        let (mut x, mut y) = a;
        let (dx, dy) = ((b.0 - a.0).abs(), -(b.1 - a.1).abs());
        let (sx, sy) = (if a.0 < b.0 { 1 } else { -1 }, if a.1 < b.1 { 1 } else { -1 });
        let mut err = dx + dy;
        let half = thick / 2;
        loop {
            for oy in -half..thick - half {
                for ox in -half..thick - half {
                    self.put(x + ox, y + oy, c);
                }
            }
            if (x, y) == b {
                break;
            }
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }

    /// A filled diamond of `radius` pixels around `centre` with a one-pixel black outline,
    /// clipped to the image.
    fn draw_marker(&mut self, centre: Vec2, radius: i64, color: [u8; 3]) {
        let (w, h) = (i64::from(self.width), i64::from(self.height));
        let outer = radius + 1;
        // Clamping just outside the image keeps far-away markers invisible and the sums small.
        let cx = centre.x.floor().clamp(-outer as f32, (w + outer) as f32) as i64;
        let cy = centre.y.floor().clamp(-outer as f32, (h + outer) as f32) as i64;
        for y in (cy - outer).max(0)..(cy + outer + 1).min(h) {
            for x in (cx - outer).max(0)..(cx + outer + 1).min(w) {
                let d = (x - cx).abs() + (y - cy).abs();
                if d <= outer {
                    let i = 3 * (y * w + x) as usize;
                    let c = if d < outer { color } else { FRONTLINE_COLOR };
                    self.pixels[i..i + 3].copy_from_slice(&c);
                }
            }
        }
    }
}

/// What the renderers draw: one set of options for [`render_rgb`], [`render_text`] and
/// [`render_graph`]. Each reads the fields that mean something for its picture, as each
/// field says; the others are left alone, so one value can drive every view of a scene.
///
/// ```
/// use influence::{render::RenderOptions, glam::Vec2};
/// let opts = RenderOptions {
///     upscale: 8,
///     markers: vec![(Vec2::new(3.5, 2.5), [0, 200, 0])],
///     ..Default::default()
/// };
/// assert!(opts.obstacles && opts.scale.is_none() && !opts.legend);
/// ```
///
/// [`render_text`]: super::render_text
/// [`render_graph`]: super::render_graph
#[derive(Debug, Clone, PartialEq)]
pub struct RenderOptions {
    /// The value-to-colour (or -character) mapping; `None` picks [`Scale::auto`]. All.
    pub scale: Option<Scale>,
    /// Blocked cells drawn as walls — [`OBSTACLE_COLOR`], `#` in text — (default) instead
    /// of by their value. All.
    pub obstacles: bool,
    /// One flag per cell; flagged cells are drawn in [`FRONTLINE_COLOR`] (`|` in text, black
    /// nodes on graphs). All.
    pub frontline: Option<Vec<bool>>,
    /// Routes as lists of cells (e.g. [`Route::cells`](crate::route::Route::cells)): on
    /// grids each a black line with a white casing through its cells' centres, under the
    /// markers; on graphs a thick black line over the edges. Pictures.
    pub routes: Vec<Vec<usize>>,
    /// Pixels per cell side of a grid picture, `1..=`[`MAX_UPSCALE`]; default 1.
    pub upscale: u32,
    /// Points of interest on a grid picture — a unit, an objective, a query's answer — at
    /// world positions (converted through the grid's origin and cell size), with their fill
    /// colour: diamonds about two cells across, outlined black, drawn last.
    pub markers: Vec<(Vec2, [u8; 3])>,
    /// Text: append a line explaining the characters and the scale's bounds.
    pub legend: bool,
    /// Graph pictures: the longer side of each floor's panel in pixels,
    /// `16..=`[`MAX_PANEL`](super::MAX_PANEL); default 256.
    pub panel: u32,
    /// Graph pictures: radius of a node's disc in pixels (`1..=32`); default 3.
    pub node_radius: u32,
    /// Graph pictures: draw the edges (default); edges between floors are shown by a square
    /// outline round both ends instead of a line.
    pub edges: bool,
    /// Graph pictures: heights closer than this (after sorting) belong to one floor;
    /// default 0.5 world units.
    pub floor_tolerance: f32,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            scale: None,
            obstacles: true,
            frontline: None,
            routes: Vec::new(),
            upscale: 1,
            markers: Vec::new(),
            legend: false,
            panel: 256,
            node_radius: 3,
            edges: true,
            floor_tolerance: 0.5,
        }
    }
}

/// Draws `layer` on `grid`: `upscale × upscale` pixels per cell, then the markers.
///
/// ```
/// use influence::{render::{render_rgb, RenderOptions}, Grid, Layer};
/// let grid = Grid::new(3, 2)?;
/// let layer = Layer::from_vec(vec![-1.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
/// let image = render_rgb(&grid, &layer, &RenderOptions::default())?;
/// let (blue, white, red) = (image.pixel(0, 0).unwrap(), image.pixel(1, 0).unwrap(), image.pixel(2, 0).unwrap());
/// assert!(blue[2] > blue[0] && red[0] > red[2] && white == [247, 247, 247]);
/// # Ok::<(), influence::Error>(())
/// ```
///
/// # Errors
/// [`Error::BadSize`] if the layer or front-line mask does not have one entry per cell, or the
/// image would exceed [`MAX_CELLS`] pixels; [`Error::BadNumber`] for an upscale outside
/// `1..=64`, invalid scale bounds or a marker position that is not finite.
pub fn render_rgb(grid: &Grid, layer: &Layer, opts: &RenderOptions) -> Result<RgbImage, Error> {
    let scale = prepare(grid, layer, opts.scale, opts.frontline.as_deref())?;
    let (w, h) = check_map(grid, opts.upscale, opts.routes.iter().flatten())?;
    for (at, _) in &opts.markers {
        finite("marker x", at.x)?;
        finite("marker y", at.y)?;
    }
    // Both sides are at most MAX_CELLS, which fits in u32.
    let mut image = RgbImage::from_pixels(w as u32, h as u32, vec![0; 3 * w * h]);
    let paint = Paint {
        scale,
        upscale: opts.upscale,
        obstacles: opts.obstacles,
        front: opts.frontline.as_deref(),
        front_color: FRONTLINE_COLOR,
        faint: false,
        routes: &opts.routes,
    };
    paint_map(&mut image, (0, 0), grid, layer, &paint);
    let s = i64::from(opts.upscale);
    for &(at, color) in &opts.markers {
        image.draw_marker(grid.to_cell_space(at) * s as f32, s, color);
    }
    Ok(image)
}

/// How a grid picture paints its cells and routes ([`paint_map`]): [`render_rgb`]'s map and
/// the figure's.
pub(super) struct Paint<'a> {
    /// The checked scale.
    pub(super) scale: Scale,
    /// Pixels per cell side, checked by [`check_map`].
    pub(super) upscale: u32,
    /// Blocked cells drawn as walls.
    pub(super) obstacles: bool,
    /// Front-line cells, drawn in `front_color`.
    pub(super) front: Option<&'a [bool]>,
    /// The front line's colour.
    pub(super) front_color: [u8; 3],
    /// The layer's colours washed out ([`faded`]).
    pub(super) faint: bool,
    /// Routes as lists of cells, checked by [`check_map`].
    pub(super) routes: &'a [Vec<usize>],
}

/// Checks what a grid picture needs beyond [`prepare`]: an upscale in `1..=`[`MAX_UPSCALE`],
/// every listed cell on the grid, and at most [`MAX_CELLS`] pixels; returns the map's size
/// in pixels.
pub(super) fn check_map<'a>(
    grid: &Grid,
    upscale: u32,
    mut cells: impl Iterator<Item = &'a usize>,
) -> Result<(usize, usize), Error> {
    if !(1..=MAX_UPSCALE).contains(&upscale) {
        return Err(Error::BadNumber {
            what: "upscale",
            expected: "an integer in 1..=64",
            value: f64::from(upscale),
        });
    }
    if let Some(&bad) = cells.find(|&&i| i >= grid.len()) {
        return Err(Error::OutOfBounds { index: bad, len: grid.len() });
    }
    let (w, h) = (grid.width() * upscale as usize, grid.height() * upscale as usize);
    if w.checked_mul(h).is_none_or(|n| n > MAX_CELLS) {
        return Err(Error::BadSize {
            width: w,
            height: h,
            reason: "the image would have more than 2^28 pixels",
        });
    }
    Ok((w, h))
}

/// A colour washed out towards white: a faint background under a front line (public as
/// `render::figure::faded`).
#[cfg_attr(not(feature = "figure"), allow(unreachable_pub))]
pub fn faded(c: [u8; 3]) -> [u8; 3] {
    c.map(|v| 255 - ((255 - u16::from(v)) * 3 / 10) as u8)
}

/// Paints `layer`'s cells, then the routes (a black line with a white casing through the
/// cells' centres), into `image` with the map's top-left corner at `at`; the map must fit.
pub(super) fn paint_map(image: &mut RgbImage, at: (i64, i64), grid: &Grid, layer: &Layer, p: &Paint<'_>) {
    let cell_color = |i: usize| {
        if p.obstacles && grid.blocked()[i] {
            OBSTACLE_COLOR
        } else if p.front.is_some_and(|f| f[i]) {
            p.front_color
        } else if p.faint {
            faded(p.scale.color(layer[i]))
        } else {
            p.scale.color(layer[i])
        }
    };
    let s = p.upscale as usize;
    let stride = 3 * image.width as usize;
    // The map lies inside the image, so its corner is not negative.
    let (x0, y0) = (at.0 as usize, at.1 as usize);
    let mut row = Vec::with_capacity(3 * grid.width() * s);
    for y in 0..grid.height() {
        row.clear();
        for i in y * grid.width()..(y + 1) * grid.width() {
            let c = cell_color(i);
            (0..s).for_each(|_| row.extend_from_slice(&c));
        }
        for py in y0 + y * s..y0 + (y + 1) * s {
            let start = py * stride + 3 * x0;
            image.pixels[start..start + row.len()].copy_from_slice(&row);
        }
    }
    let s = i64::from(p.upscale);
    let centre = |i: usize| {
        let Cell { x, y } = grid.cell(i);
        (at.0 + x as i64 * s + s / 2, at.1 + y as i64 * s + s / 2)
    };
    let thick = (s / 3).max(1);
    for (width, color) in [(thick + 2, [255, 255, 255]), (thick, FRONTLINE_COLOR)] {
        for step in p.routes.iter().flat_map(|r| r.windows(2)) {
            image.line(centre(step[0]), centre(step[1]), width, color);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{NAN_COLOR, OBSTACLE_COLOR};

    const GREEN: [u8; 3] = [0, 255, 0];

    fn ramp(grid: &Grid) -> Layer {
        Layer::from_vec((0..grid.width() * grid.height()).map(|i| i as f32).collect())
    }

    #[test]
    fn upscaling_multiplies_the_size_and_repeats_cells() {
        let grid = Grid::from_rows(&["..#", "..."]).unwrap();
        for s in [1, 2, 5] {
            let opts = RenderOptions { upscale: s, ..Default::default() };
            let image = render_rgb(&grid, &ramp(&grid), &opts).unwrap();
            assert_eq!((image.width(), image.height()), (3 * s, 2 * s));
            assert_eq!(image.pixels().len(), (18 * s * s) as usize);
            // Cell (2, 0) is the wall; cell (2, 1) holds the largest value, drawn yellow.
            assert_eq!(image.pixel(3 * s - 1, s - 1), Some(OBSTACLE_COLOR));
            assert_eq!(image.pixel(2 * s, s), Some([253, 231, 37]));
            assert_eq!(image.pixel(3 * s - 1, 2 * s - 1), Some([253, 231, 37]));
            assert_eq!(image.pixel(3 * s, 0), None);
        }
    }

    #[test]
    fn rejects_bad_upscale_sizes_and_markers() {
        let grid = Grid::new(4, 4).unwrap();
        let layer = Layer::for_space(&grid);
        for upscale in [0, MAX_UPSCALE + 1] {
            let opts = RenderOptions { upscale, ..Default::default() };
            assert!(matches!(
                render_rgb(&grid, &layer, &opts),
                Err(Error::BadNumber { what: "upscale", .. })
            ));
        }
        let big = Grid::new(4097, 16).unwrap(); // 64× larger on each side: just over 2^28 pixels
        let opts = RenderOptions { upscale: 64, ..Default::default() };
        assert!(matches!(render_rgb(&big, &Layer::for_space(&big), &opts), Err(Error::BadSize { .. })));
        assert!(matches!(render_rgb(&grid, &Layer::zeros(15), &opts), Err(Error::BadSize { .. })));
        let opts = RenderOptions { frontline: Some(vec![false; 3]), ..Default::default() };
        assert!(matches!(render_rgb(&grid, &layer, &opts), Err(Error::BadSize { .. })));
        let opts = RenderOptions { markers: vec![(Vec2::new(f32::NAN, 0.0), GREEN)], ..Default::default() };
        assert!(matches!(render_rgb(&grid, &layer, &opts), Err(Error::BadNumber { .. })));
    }

    #[test]
    fn markers_are_outlined_diamonds_clipped_at_the_edges() {
        let grid = Grid::new(4, 3).unwrap().with_cell_size(10.0).unwrap();
        let layer = Layer::for_space(&grid);
        let at = |x, y| (Vec2::new(x, y), GREEN);
        let opts = RenderOptions {
            upscale: 2,
            markers: vec![at(15.0, 15.0), at(0.0, 0.0), at(39.9, 29.9), at(-1e30, 1e30)],
            ..Default::default()
        };
        let image = render_rgb(&grid, &layer, &opts).unwrap();
        let background = Scale::auto(&layer).color(0.0);
        // (15, 15) is the centre of cell (1, 1): pixel (3, 3), radius 2, outline at 3.
        for (x, y, c) in
            [(3, 3, GREEN), (5, 3, GREEN), (3, 1, GREEN), (6, 3, FRONTLINE_COLOR), (3, 0, FRONTLINE_COLOR)]
        {
            assert_eq!(image.pixel(x, y), Some(c), "({x}, {y})");
        }
        assert_eq!(image.pixel(1, 5), Some(background)); // |-2| + |2| = 4 > 3: outside
                                                         // The corner markers are clipped, not wrapped or panicking.
        assert_eq!(image.pixel(0, 0), Some(GREEN));
        assert_eq!(image.pixel(7, 5), Some(GREEN));
        assert_eq!(image.pixel(7, 0), Some(background));
    }

    #[test]
    fn overlays_and_nan() {
        let grid = Grid::from_rows(&["#.."]).unwrap();
        let layer = Layer::from_vec(vec![1.0, f32::NAN, 2.0]);
        let opts = RenderOptions { frontline: Some(vec![false, false, true]), ..Default::default() };
        let image = render_rgb(&grid, &layer, &opts).unwrap();
        assert_eq!(image.pixels(), [OBSTACLE_COLOR, NAN_COLOR, FRONTLINE_COLOR].concat());
        let opts = RenderOptions { obstacles: false, ..Default::default() };
        let image = render_rgb(&grid, &layer, &opts).unwrap();
        assert_eq!(image.pixel(0, 0), Some(Scale::Sequential { min: 1.0, max: 2.0 }.color(1.0)));
    }

    #[test]
    fn routes_are_drawn_through_cell_centres_and_checked() {
        let grid = Grid::new(6, 3).unwrap();
        let layer = Layer::zeros(grid.len());
        let route = vec![0, 1, 2, 9, 16];
        let opts = RenderOptions { upscale: 9, routes: vec![route.clone()], ..Default::default() };
        let image = render_rgb(&grid, &layer, &opts).unwrap();
        for &i in &route {
            let Cell { x, y } = grid.cell(i);
            assert_eq!(image.pixel(x as u32 * 9 + 4, y as u32 * 9 + 4), Some(FRONTLINE_COLOR), "cell {i}");
        }
        // Off the route the neutral colour stays.
        assert_ne!(image.pixel(5 * 9 + 4, 4), Some(FRONTLINE_COLOR));
        let bad = RenderOptions { routes: vec![vec![0, 18]], ..Default::default() };
        assert!(matches!(render_rgb(&grid, &layer, &bad), Err(Error::OutOfBounds { index: 18, .. })));
    }
}
