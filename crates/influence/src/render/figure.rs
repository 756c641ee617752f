//! Figures that explain themselves (feature `figure`): the layer drawn as [`render_rgb`]
//! draws it, framed by a title (and a step counter), a colour bar with tick values and the
//! unit, and a legend naming each team in its colour beside its marker shape, the front line,
//! routes and the chase's marks. The text is drawn with `ab_glyph` in the embedded font
//! (`DejaVu` Sans Mono).
//!
//! The front line has a colour of its own, [`FRONT_COLOR`], which neither colour map, the
//! walls, the routes nor the chase marks use; over a [`Figure::faint`] background it is the
//! picture's one strong colour.
//!
//! ```
//! use influence::render::figure::{render_figure, Figure, Key, Shape, FRONT_COLOR};
//! use influence::{glam::Vec2, Grid, Layer};
//! let grid = Grid::new(40, 20)?;
//! let layer = Layer::from_vec((0..800).map(|i| (i % 40) as f32 - 20.0).collect());
//! let figure = Figure {
//!     title: "demo: influence".to_owned(),
//!     unit: "influence".to_owned(),
//!     teams: vec![Key { name: "red".to_owned(), color: [230, 159, 0], shape: Shape::of_team(0) }],
//!     markers: vec![(Vec2::new(10.5, 10.5), 0)],
//!     front: Some((0..800).map(|i| i % 40 == 20).collect()),
//!     upscale: 8,
//!     ..Figure::default()
//! };
//! let image = render_figure(&grid, &layer, &figure)?;
//! assert!(image.width() >= 320 && image.height() > 160);
//! assert!(image.pixels().chunks(3).any(|p| p == FRONT_COLOR));
//! # Ok::<(), influence::Error>(())
//! ```
//!
//! [`render_rgb`]: super::render_rgb

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use glam::Vec2;

pub use super::image::faded;
use super::image::{check_map, paint_map, Paint};
use super::{prepare, RgbImage, Scale};
use crate::error::finite;
use crate::{Cell, Error, Grid, Layer, MAX_CELLS};

/// `DejaVu` Sans Mono 2.37 (Bitstream Vera licence: `fonts/LICENSE` in the crate).
static FONT: &[u8] = include_bytes!("../../fonts/DejaVuSansMono.ttf");

/// The frame around the map: a dark grey on which light text and every team colour read.
pub const BACKGROUND: [u8; 3] = [28, 28, 32];
/// Titles, tick values and the legend's words.
pub const TEXT_COLOR: [u8; 3] = [236, 236, 236];
/// The front line: a pure green that neither colour map, the walls, the routes, the chase
/// marks nor the team palette of the scenario format use.
pub const FRONT_COLOR: [u8; 3] = [0, 230, 0];
/// The ring round the chase's last-seen cell.
pub const LAST_SEEN_COLOR: [u8; 3] = [255, 255, 255];
/// The cross-hair on the chase's predicted cell.
pub const PREDICTED_COLOR: [u8; 3] = [255, 40, 150];
/// Outlines of markers and marks, and routes.
const INK: [u8; 3] = [0, 0, 0];

/// Padding round the figure's parts, in pixels.
const PAD: i64 = 8;
/// The narrowest figure: room for the colour bar's values and a few legend entries.
const MIN_WIDTH: i64 = 440;
/// Text sizes in pixels.
const TITLE_PX: f32 = 17.0;
const LABEL_PX: f32 = 13.0;
/// Heights of the bands above and below the map.
const TITLE_BAND: i64 = 28;
const BAR_HEIGHT: i64 = 12;
const BAR_BAND: i64 = 8 + BAR_HEIGHT + 4 + 15 + 16;
const LEGEND_ROW: i64 = 20;

/// A marker's shape: teams are told apart by shape as well as colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A disc.
    Circle,
    /// A square.
    Square,
    /// A triangle pointing up.
    Triangle,
    /// A diamond.
    Diamond,
    /// A triangle pointing down.
    TriangleDown,
    /// A plus sign.
    Plus,
}

impl Shape {
    /// Every shape, in the order teams take them.
    pub const ALL: [Self; 6] =
        [Self::Circle, Self::Square, Self::Triangle, Self::Diamond, Self::TriangleDown, Self::Plus];

    /// Its name: `circle`, `square`, `triangle`, `diamond`, `triangle-down` or `plus`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Circle => "circle",
            Self::Square => "square",
            Self::Triangle => "triangle",
            Self::Diamond => "diamond",
            Self::TriangleDown => "triangle-down",
            Self::Plus => "plus",
        }
    }

    /// The shape of the team at index `team` (in the scenario's team order), cycling.
    pub fn of_team(team: usize) -> Self {
        Self::ALL[team % Self::ALL.len()]
    }

    /// Whether the offset `(dx, dy)` from the centre lies in this shape of radius `r`.
    fn contains(self, dx: f32, dy: f32, r: f32) -> bool {
        let (ax, ay) = (dx.abs(), dy.abs());
        match self {
            Self::Circle => dx * dx + dy * dy <= r * r,
            Self::Square => ax <= 0.82 * r && ay <= 0.82 * r,
            Self::Diamond => ax + ay <= 1.1 * r,
            Self::Triangle => dy <= 0.75 * r && ax <= (dy + r) * 0.66,
            Self::TriangleDown => -dy <= 0.75 * r && ax <= (r - dy) * 0.66,
            Self::Plus => (ax <= r / 2.6 && ay <= r) || (ay <= r / 2.6 && ax <= r),
        }
    }
}

/// A legend entry for a team: its name, drawn in its colour beside its marker shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    /// The team's name.
    pub name: String,
    /// Its colour: the markers' fill and the name's.
    pub color: [u8; 3],
    /// Its markers' shape.
    pub shape: Shape,
}

/// What a figure shows besides the layer.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// The line at the top: the scenario and the layer.
    pub title: String,
    /// Text at the top right, such as `step 12 / 40`.
    pub counter: Option<String>,
    /// The value-to-colour mapping; `None` picks [`Scale::auto`].
    pub scale: Option<Scale>,
    /// What the values measure, written under the colour bar.
    pub unit: String,
    /// Words under the low and high ends of the colour bar (who is ahead there).
    pub ends: Option<(String, String)>,
    /// The teams, in order: the legend, and what [`markers`](Self::markers) index.
    pub teams: Vec<Key>,
    /// Markers at world positions, each with its team's index into [`teams`](Self::teams).
    pub markers: Vec<(Vec2, usize)>,
    /// One flag per cell: the front line, drawn in [`FRONT_COLOR`].
    pub front: Option<Vec<bool>>,
    /// Wash the layer's colours out (and the colour bar's), so the front line stands out.
    pub faint: bool,
    /// Routes as lists of cells: a black line with a white casing.
    pub routes: Vec<Vec<usize>>,
    /// The chase's last-seen cell: a white ring.
    pub last_seen: Option<usize>,
    /// The chase's predicted cell: a pink cross-hair.
    pub predicted: Option<usize>,
    /// Pixels per cell side, `1..=`[`MAX_UPSCALE`](super::MAX_UPSCALE).
    pub upscale: u32,
}

impl Default for Figure {
    fn default() -> Self {
        Self {
            title: String::new(),
            counter: None,
            scale: None,
            unit: String::new(),
            ends: None,
            teams: Vec::new(),
            markers: Vec::new(),
            front: None,
            faint: false,
            routes: Vec::new(),
            last_seen: None,
            predicted: None,
            upscale: 1,
        }
    }
}

/// Where the parts of a figure lie, from its map's size and legend.
struct Layout {
    width: i64,
    map: (i64, i64),
    bar_top: i64,
    legend_top: i64,
}

/// Draws `layer` on `grid` as a figure: the title band, the map (walls, the front line,
/// routes, chase marks, markers), the colour bar and the legend.
///
/// # Errors
/// As [`render_rgb`](super::render_rgb): [`Error::BadSize`] for a layer or front-line mask
/// without one entry per cell or an image over [`MAX_CELLS`] pixels, [`Error::BadNumber`]
/// for an upscale outside `1..=64`, bad scale bounds or a marker position that is not
/// finite; [`Error::OutOfBounds`] for a route cell, chase cell or marker team that does not
/// exist.
pub fn render_figure(grid: &Grid, layer: &Layer, figure: &Figure) -> Result<RgbImage, Error> {
    let scale = prepare(grid, layer, figure.scale, figure.front.as_deref())?;
    let cells = figure.routes.iter().flatten().chain(&figure.last_seen).chain(&figure.predicted);
    let (mw, mh) = check_map(grid, figure.upscale, cells)?;
    for (at, team) in &figure.markers {
        finite("marker x", at.x)?;
        finite("marker y", at.y)?;
        if *team >= figure.teams.len() {
            return Err(Error::OutOfBounds { index: *team, len: figure.teams.len() });
        }
    }
    let font = FontRef::try_from_slice(FONT).map_err(|_| Error::BadSize {
        width: 0,
        height: 0,
        reason: "the embedded font does not parse",
    })?;
    // Both sides are at most MAX_CELLS, which fits in i64 and u32.
    let (mw, mh) = (mw as i64, mh as i64);
    let width = (mw + 2 * PAD).max(MIN_WIDTH);
    let entries = legend_entries(figure);
    let rows = legend_rows(&font, &entries, width);
    let map = ((width - mw) / 2, TITLE_BAND);
    let bar_top = map.1 + mh;
    let legend_top = bar_top + BAR_BAND;
    let height = legend_top + rows.len() as i64 * LEGEND_ROW + PAD / 2;
    let layout = Layout { width, map, bar_top, legend_top };
    if width.checked_mul(height).is_none_or(|n| n > MAX_CELLS as i64) {
        return Err(Error::BadSize {
            width: width as usize,
            height: height as usize,
            reason: "the image would have more than 2^28 pixels",
        });
    }

    let mut image = RgbImage::filled(width as u32, height as u32, BACKGROUND);
    draw_map(&mut image, grid, layer, scale, figure, layout.map);
    draw_title(&mut image, &font, figure, &layout);
    draw_bar(&mut image, &font, scale, figure, &layout);
    draw_legend(&mut image, &font, &rows, &layout);
    Ok(image)
}

/// The map at `(ox, oy)`: cells, the front line, routes, chase marks, then markers.
fn draw_map(
    image: &mut RgbImage,
    grid: &Grid,
    layer: &Layer,
    scale: Scale,
    f: &Figure,
    (ox, oy): (i64, i64),
) {
    let paint = Paint {
        scale,
        upscale: f.upscale,
        obstacles: true,
        front: f.front.as_deref(),
        front_color: FRONT_COLOR,
        faint: f.faint,
        routes: &f.routes,
    };
    paint_map(image, (ox, oy), grid, layer, &paint);
    let s = i64::from(f.upscale);
    let centre = |i: usize| {
        let Cell { x, y } = grid.cell(i);
        (ox + x as i64 * s + s / 2, oy + y as i64 * s + s / 2)
    };
    let mark_r = (1.5 * s as f32).clamp(7.0, 14.0);
    if let Some(i) = f.last_seen {
        let (cx, cy) = centre(i);
        // Wider than the predicted mark, so both show when they fall on one cell.
        draw_last_seen(image, (cx as f32 + 0.5, cy as f32 + 0.5), mark_r + 4.0);
    }
    if let Some(i) = f.predicted {
        let (cx, cy) = centre(i);
        draw_predicted(image, (cx as f32 + 0.5, cy as f32 + 0.5), mark_r);
    }
    let r = (0.75 * s as f32).clamp(4.5, 10.0);
    for &(at, team) in &f.markers {
        let p = grid.to_cell_space(at) * s as f32 + Vec2::new(ox as f32, oy as f32);
        let key = &f.teams[team];
        draw_shape(image, key.shape, (p.x, p.y), r, key.color);
    }
}

/// Pixels within `reach` of `(cx, cy)`, each with its offset from the centre of the pixel.
fn around(image: &RgbImage, (cx, cy): (f32, f32), reach: f32) -> Vec<(i64, i64, f32, f32)> {
    let (w, h) = (image.width() as f32, image.height() as f32);
    if !(cx > -reach && cy > -reach && cx < w + reach && cy < h + reach) {
        return Vec::new();
    }
    let (x0, x1) = ((cx - reach).floor() as i64, (cx + reach).ceil() as i64);
    let (y0, y1) = ((cy - reach).floor() as i64, (cy + reach).ceil() as i64);
    let mut out = Vec::new();
    for y in y0..=y1 {
        for x in x0..=x1 {
            out.push((x, y, x as f32 + 0.5 - cx, y as f32 + 0.5 - cy));
        }
    }
    out
}

/// A filled shape of radius `r` with a black outline.
fn draw_shape(image: &mut RgbImage, shape: Shape, centre: (f32, f32), r: f32, color: [u8; 3]) {
    for (x, y, dx, dy) in around(image, centre, r + 3.0) {
        if shape.contains(dx, dy, r) {
            image.put(x, y, color);
        } else if shape.contains(dx, dy, r + 1.6) {
            image.put(x, y, INK);
        }
    }
}

/// The last-seen mark: a white ring of radius `r` between two black ones.
fn draw_last_seen(image: &mut RgbImage, centre: (f32, f32), r: f32) {
    for (x, y, dx, dy) in around(image, centre, r + 3.0) {
        let d = (dx * dx + dy * dy).sqrt();
        if (d - r).abs() <= 1.0 {
            image.put(x, y, LAST_SEEN_COLOR);
        } else if (d - r).abs() <= 2.2 {
            image.put(x, y, INK);
        }
    }
}

/// The predicted mark: a pink ring with a cross-hair through it, outlined black.
fn draw_predicted(image: &mut RgbImage, centre: (f32, f32), r: f32) {
    let arm = r + 4.0;
    let inside = |dx: f32, dy: f32, grow: f32| {
        let d = (dx * dx + dy * dy).sqrt();
        (d - r).abs() <= 1.0 + grow
            || (dx.abs() <= 1.0 + grow && dy.abs() <= arm + grow && dy.abs() >= r / 2.0 - grow)
            || (dy.abs() <= 1.0 + grow && dx.abs() <= arm + grow && dx.abs() >= r / 2.0 - grow)
    };
    for (x, y, dx, dy) in around(image, centre, arm + 2.0) {
        if inside(dx, dy, 0.0) {
            image.put(x, y, PREDICTED_COLOR);
        } else if inside(dx, dy, 1.2) {
            image.put(x, y, INK);
        }
    }
}

/// Text in the embedded font, `px` high, with its baseline at `y` and its left at `x`;
/// blended onto what is there. Returns its width.
fn draw_text(
    image: &mut RgbImage,
    font: &FontRef<'_>,
    px: f32,
    (x, y): (f32, f32),
    text: &str,
    color: [u8; 3],
) -> f32 {
    let scaled = font.as_scaled(PxScale::from(px));
    let mut caret = x;
    let mut last = None;
    for ch in text.chars() {
        let id = scaled.glyph_id(ch);
        if let Some(prev) = last {
            caret += scaled.kern(prev, id);
        }
        let glyph = id.with_scale_and_position(PxScale::from(px), point(caret, y));
        caret += scaled.h_advance(id);
        last = Some(id);
        let Some(outline) = font.outline_glyph(glyph) else { continue };
        let bounds = outline.px_bounds();
        outline.draw(|gx, gy, coverage| {
            let (px_, py_) = (bounds.min.x as i64 + i64::from(gx), bounds.min.y as i64 + i64::from(gy));
            if let (Ok(ux), Ok(uy)) = (u32::try_from(px_), u32::try_from(py_)) {
                if let Some(under) = image.pixel(ux, uy) {
                    let a = coverage.clamp(0.0, 1.0);
                    let mix: [u8; 3] = std::array::from_fn(|k| {
                        (f32::from(under[k]) * (1.0 - a) + f32::from(color[k]) * a).round() as u8
                    });
                    image.put(px_, py_, mix);
                }
            }
        });
    }
    caret - x
}

/// The width of `text` in the embedded font at `px`.
fn text_width(font: &FontRef<'_>, px: f32, text: &str) -> f32 {
    let scaled = font.as_scaled(PxScale::from(px));
    let mut last = None;
    let mut width = 0.0;
    for ch in text.chars() {
        let id = scaled.glyph_id(ch);
        if let Some(prev) = last {
            width += scaled.kern(prev, id);
        }
        width += scaled.h_advance(id);
        last = Some(id);
    }
    width
}

fn draw_title(image: &mut RgbImage, font: &FontRef<'_>, f: &Figure, l: &Layout) {
    let baseline = (TITLE_BAND - 9) as f32;
    let mut room = (l.width - PAD) as f32;
    if let Some(counter) = &f.counter {
        let w = text_width(font, TITLE_PX, counter);
        room -= w + 12.0;
        draw_text(image, font, TITLE_PX, ((l.width - PAD) as f32 - w, baseline), counter, TEXT_COLOR);
    }
    // A title too long for its room is cut with an ellipsis rather than drawn under the counter.
    let mut title = f.title.clone();
    while !title.is_empty() && PAD as f32 + text_width(font, TITLE_PX, &title) > room {
        title.pop();
        while title.ends_with('…') || title.ends_with(' ') {
            title.pop();
        }
        title.push('…');
        if title == "…" {
            break;
        }
    }
    draw_text(image, font, TITLE_PX, (PAD as f32, baseline), &title, TEXT_COLOR);
}

/// A tick value: at most three significant digits, no trailing zeros, scientific notation
/// for very large or small magnitudes.
fn tick_label(v: f32) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v.is_nan() {
            "NaN".to_owned()
        } else if v == 0.0 {
            "0".to_owned()
        } else {
            format!("{v}")
        };
    }
    let a = v.abs();
    if !(1e-3..1e5).contains(&a) {
        return format!("{v:.1e}");
    }
    let decimals = (2 - a.log10().floor() as i32).clamp(0, 4) as usize;
    let text = format!("{v:.decimals$}");
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.') } else { &text };
    if text == "-0" {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

fn draw_bar(image: &mut RgbImage, font: &FontRef<'_>, scale: Scale, f: &Figure, l: &Layout) {
    let (lo, hi) = match scale {
        Scale::Diverging { max_abs } => (-max_abs, max_abs),
        Scale::Sequential { min, max } => (min, max),
    };
    let bw = (l.width - 2 * PAD - 40).min(520);
    let x0 = (l.width - bw) / 2;
    let top = l.bar_top + 8;
    for x in 0..bw {
        let t = x as f32 / (bw - 1).max(1) as f32;
        let v = lo + (hi - lo) * t;
        let c = if f.faint { faded(scale.color(v)) } else { scale.color(v) };
        for y in top..top + BAR_HEIGHT {
            image.put(x0 + x, y, c);
        }
    }
    let ticks = if hi > lo { 5 } else { 1 };
    for k in 0..ticks {
        let t = if ticks == 1 { 0.0 } else { k as f32 / (ticks - 1) as f32 };
        let x = x0 + ((bw - 1) as f32 * t).round() as i64;
        for y in top + BAR_HEIGHT..top + BAR_HEIGHT + 4 {
            image.put(x, y, TEXT_COLOR);
        }
        let label = tick_label(lo + (hi - lo) * t);
        let w = text_width(font, LABEL_PX, &label);
        let lx = (x as f32 - w / 2.0).clamp(2.0, l.width as f32 - w - 2.0);
        draw_text(image, font, LABEL_PX, (lx, (top + BAR_HEIGHT + 4 + 12) as f32), &label, TEXT_COLOR);
    }
    let line = (top + BAR_HEIGHT + 4 + 12 + 15) as f32;
    let unit = if f.faint { format!("{} (faded)", f.unit) } else { f.unit.clone() };
    let w = text_width(font, LABEL_PX, &unit);
    draw_text(image, font, LABEL_PX, ((l.width as f32 - w) / 2.0, line), &unit, TEXT_COLOR);
    if let Some((low, high)) = &f.ends {
        let low = format!("< {low}");
        let high = format!("{high} >");
        draw_text(image, font, LABEL_PX, (x0 as f32, line), &low, TEXT_COLOR);
        let w = text_width(font, LABEL_PX, &high);
        draw_text(image, font, LABEL_PX, ((x0 + bw) as f32 - w, line), &high, TEXT_COLOR);
    }
}

/// What the legend shows after the teams.
#[derive(Clone, Copy)]
enum Entry<'a> {
    Team(&'a Key),
    Front,
    Route,
    LastSeen,
    Predicted,
}

impl Entry<'_> {
    fn label(&self) -> &str {
        match self {
            Entry::Team(k) => &k.name,
            Entry::Front => "front line",
            Entry::Route => "route",
            Entry::LastSeen => "last seen",
            Entry::Predicted => "predicted",
        }
    }
}

fn legend_entries(f: &Figure) -> Vec<Entry<'_>> {
    let mut entries: Vec<Entry<'_>> = f.teams.iter().map(Entry::Team).collect();
    // Named whenever the figure shows a front-line mask, so the frames of an animation keep
    // one legend while the front line comes and goes.
    if f.front.is_some() {
        entries.push(Entry::Front);
    }
    if f.routes.iter().any(|r| r.len() > 1) {
        entries.push(Entry::Route);
    }
    if f.last_seen.is_some() {
        entries.push(Entry::LastSeen);
    }
    if f.predicted.is_some() {
        entries.push(Entry::Predicted);
    }
    entries
}

/// Width of an entry's symbol and the gaps round it.
const SYMBOL: f32 = 22.0;
const GAP: f32 = 16.0;

/// The entries in rows that fit the figure's width.
fn legend_rows<'a>(font: &FontRef<'_>, entries: &[Entry<'a>], width: i64) -> Vec<Vec<(Entry<'a>, f32)>> {
    let room = (width - 2 * PAD) as f32;
    let mut rows: Vec<Vec<(Entry<'a>, f32)>> = Vec::new();
    let mut x = room;
    for e in entries {
        let w = SYMBOL + text_width(font, LABEL_PX, e.label());
        if x + w > room && x > 0.0 {
            rows.push(Vec::new());
            x = 0.0;
        }
        if let Some(row) = rows.last_mut() {
            row.push((*e, w));
        }
        x += w + GAP;
    }
    rows
}

fn draw_legend(image: &mut RgbImage, font: &FontRef<'_>, rows: &[Vec<(Entry<'_>, f32)>], l: &Layout) {
    for (r, row) in rows.iter().enumerate() {
        let mid = (l.legend_top + r as i64 * LEGEND_ROW + LEGEND_ROW / 2) as f32;
        let mut x = PAD as f32;
        for (entry, w) in row {
            let c = (x + 8.0, mid);
            let color = match entry {
                Entry::Team(k) => {
                    draw_shape(image, k.shape, c, 6.0, k.color);
                    k.color
                }
                Entry::Front => {
                    for dy in -2..=2 {
                        for dx in -8..=8 {
                            image.put(c.0 as i64 + dx, c.1 as i64 + dy, FRONT_COLOR);
                        }
                    }
                    TEXT_COLOR
                }
                Entry::Route => {
                    let (a, b) = ((c.0 as i64 - 8, c.1 as i64), (c.0 as i64 + 8, c.1 as i64));
                    image.line(a, b, 4, [255, 255, 255]);
                    image.line(a, b, 2, INK);
                    TEXT_COLOR
                }
                Entry::LastSeen => {
                    draw_last_seen(image, c, 5.0);
                    TEXT_COLOR
                }
                Entry::Predicted => {
                    draw_predicted(image, c, 4.0);
                    TEXT_COLOR
                }
            };
            draw_text(image, font, LABEL_PX, (x + SYMBOL, mid + 4.5), entry.label(), color);
            x += w + GAP;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid_and_layer() -> (Grid, Layer) {
        let grid = Grid::new(30, 20).unwrap();
        let layer = Layer::from_vec((0..600).map(|i| (i % 30) as f32 - 15.0).collect());
        (grid, layer)
    }

    #[test]
    fn tick_labels_are_short() {
        for (v, s) in
            [(0.0, "0"), (1.0, "1"), (-2.5, "-2.5"), (0.125, "0.125"), (12.34, "12.3"), (1234.0, "1234")]
        {
            assert_eq!(tick_label(v), s);
        }
        assert_eq!(tick_label(3e7), "3.0e7");
    }

    #[test]
    fn shapes_differ_by_team() {
        let shapes: Vec<Shape> = (0..6).map(Shape::of_team).collect();
        for (i, a) in shapes.iter().enumerate() {
            assert!(shapes[i + 1..].iter().all(|b| a != b));
        }
        assert_eq!(Shape::of_team(6), Shape::of_team(0));
    }

    #[test]
    fn the_front_line_colour_is_on_front_cells_only() {
        let (grid, layer) = grid_and_layer();
        let front: Vec<bool> = (0..600).map(|i| i % 30 == 15 && i / 30 > 3).collect();
        for faint in [false, true] {
            let f = Figure { front: Some(front.clone()), faint, upscale: 4, ..Figure::default() };
            let image = render_figure(&grid, &layer, &f).unwrap();
            let ox = (image.width() - 120) / 2;
            for y in 0..image.height() {
                for x in 0..image.width() {
                    let in_map = (ox..ox + 120).contains(&x) && (28..28 + 80).contains(&y);
                    let on_front = in_map && front[((y - 28) / 4 * 30 + (x - ox) / 4) as usize];
                    let legend = y >= 28 + 80 + BAR_BAND as u32;
                    if !legend {
                        assert_eq!(image.pixel(x, y) == Some(FRONT_COLOR), on_front, "({x}, {y})");
                    }
                }
            }
        }
    }

    #[test]
    fn faint_washes_the_background_out() {
        let (grid, layer) = grid_and_layer();
        let bold = render_figure(&grid, &layer, &Figure { upscale: 4, ..Figure::default() }).unwrap();
        let faint =
            render_figure(&grid, &layer, &Figure { upscale: 4, faint: true, ..Figure::default() }).unwrap();
        let ox = (bold.width() - 120) / 2;
        let (b, f) = (bold.pixel(ox, 30).unwrap(), faint.pixel(ox, 30).unwrap());
        assert!(f.iter().all(|&c| c > 180) && b[0] < 100, "{b:?} {f:?}");
    }

    #[test]
    fn title_counter_and_legend_are_drawn() {
        let (grid, layer) = grid_and_layer();
        let orange = [230, 159, 0];
        let key = Key { name: "north".to_owned(), color: orange, shape: Shape::Square };
        let f =
            Figure { title: "t: influence".to_owned(), teams: vec![key], upscale: 4, ..Figure::default() };
        let plain = render_figure(&grid, &layer, &Figure { upscale: 4, ..Figure::default() }).unwrap();
        let image = render_figure(&grid, &layer, &f).unwrap();
        let band = |img: &RgbImage, y0: u32, y1: u32, c: [u8; 3]| {
            (y0..y1)
                .flat_map(|y| (0..img.width()).map(move |x| (x, y)))
                .filter(|&(x, y)| img.pixel(x, y) == Some(c))
                .count()
        };
        let non_background = |img: &RgbImage| img.width() * 28 - band(img, 0, 28, BACKGROUND) as u32;
        assert_eq!(non_background(&plain), 0);
        assert!(non_background(&image) > 50);
        // The legend (below the bar) holds the team's colour: its square and its name.
        let legend_top = 28 + 80 + BAR_BAND as u32;
        assert!(band(&image, legend_top, image.height(), orange) > 60);
        assert_eq!(plain.height(), legend_top + 4);
        let counted = |n: u32| {
            let f = Figure { counter: Some(format!("step {n} / 40")), ..f.clone() };
            render_figure(&grid, &layer, &f).unwrap()
        };
        assert_ne!(counted(3).pixels(), counted(4).pixels());
        assert_eq!(counted(3).pixels()[3 * 30 * 400..], counted(4).pixels()[3 * 30 * 400..]);
    }

    #[test]
    fn chase_marks_and_bad_cells() {
        let (grid, layer) = grid_and_layer();
        let f = Figure {
            last_seen: Some(3 * 30 + 3),
            predicted: Some(15 * 30 + 25),
            upscale: 4,
            ..Figure::default()
        };
        let image = render_figure(&grid, &layer, &f).unwrap();
        let count = |c: [u8; 3]| image.pixels().chunks(3).filter(|p| *p == c).count();
        assert!(count(LAST_SEEN_COLOR) > 20 && count(PREDICTED_COLOR) > 20);
        let bad = Figure { predicted: Some(600), ..Figure::default() };
        assert!(matches!(render_figure(&grid, &layer, &bad), Err(Error::OutOfBounds { index: 600, .. })));
        let bad = Figure { markers: vec![(Vec2::ZERO, 0)], ..Figure::default() };
        assert!(matches!(render_figure(&grid, &layer, &bad), Err(Error::OutOfBounds { .. })));
    }
}
