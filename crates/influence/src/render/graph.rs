//! Pictures of graph layers: nodes as discs coloured by value, edges as lines, and each
//! floor (a distinct height) as its own panel, side by side, lowest floor on the left.

use glam::Vec3;

use super::{RenderOptions, RgbImage, Scale, FRONTLINE_COLOR, OBSTACLE_COLOR};
use crate::space::Graph;
use crate::{Error, Layer, Space, MAX_CELLS};

/// The background of graph pictures: a light grey, so that the near-white middle of the
/// diverging map stays visible inside each node's black outline.
pub const GRAPH_BACKGROUND: [u8; 3] = [214, 214, 214];
/// Edges: a mid grey.
pub const EDGE_COLOR: [u8; 3] = [150, 150, 150];
/// The largest side of a floor panel in pixels.
pub const MAX_PANEL: u32 = 4096;

/// Groups heights into floors: sorted, a new floor wherever the gap to the previous height
/// exceeds `tolerance`. Returns each floor's lowest height, ascending.
fn floor_levels(graph: &Graph, tolerance: f32) -> Vec<f32> {
    let mut zs: Vec<f32> = graph.positions().iter().map(|p| p.z).collect();
    zs.sort_by(f32::total_cmp);
    let mut floors: Vec<f32> = Vec::new();
    let mut last = f32::NEG_INFINITY;
    for z in zs {
        if z - last > tolerance {
            floors.push(z);
        }
        last = z;
    }
    floors
}

/// The floor holding height `z`: the last floor starting at or below it.
fn floor_of(floors: &[f32], z: f32) -> usize {
    floors.partition_point(|&f| f <= z).saturating_sub(1)
}

/// A filled disc with a one-pixel black outline.
fn disc(image: &mut RgbImage, (cx, cy): (i64, i64), r: i64, c: [u8; 3]) {
    let outer = r + 1;
    for y in -outer..=outer {
        for x in -outer..=outer {
            let d2 = x * x + y * y;
            if d2 <= r * r {
                image.put(cx + x, cy + y, c);
            } else if d2 <= outer * outer + outer {
                image.put(cx + x, cy + y, FRONTLINE_COLOR);
            }
        }
    }
}

/// A square outline `r` pixels from the centre.
fn square(image: &mut RgbImage, (cx, cy): (i64, i64), r: i64, c: [u8; 3]) {
    for k in -r..=r {
        for (x, y) in [(cx + k, cy - r), (cx + k, cy + r), (cx - r, cy + k), (cx + r, cy + k)] {
            image.put(x, y, c);
        }
    }
}

/// Draws `layer` on `graph`: one panel per floor, left to right from the lowest, all sharing
/// the graph's x–y extent (image row 0 is the smallest y, as for grids); edges as grey
/// lines, then the routes, then nodes as discs in the scale's colours with black outlines
/// (blocked nodes in [`OBSTACLE_COLOR`], front-line nodes black). Of the [`RenderOptions`],
/// graphs read `scale`, `obstacles`, `frontline`, `routes`, `panel`, `node_radius`, `edges`
/// and `floor_tolerance`.
///
/// ```
/// use influence::{render::{render_graph, RenderOptions}, space::Graph, Layer};
/// let graph = Graph::from_text("n 0 0 0\nn 10 0 0\nn 10 0 3\ne 0 1\ne 1 2 4\n")?;
/// let layer = Layer::from_vec(vec![1.0, 0.5, 0.0]);
/// let image = render_graph(&graph, &layer, &RenderOptions { panel: 64, ..Default::default() })?;
/// // Two floors (z = 0 and z = 3), side by side.
/// assert!(image.width() > 2 * image.height());
/// # Ok::<(), influence::Error>(())
/// ```
///
/// # Errors
/// [`Error::BadSize`] if the layer or the front-line mask does not have one entry per node
/// or the graph has no nodes; [`Error::BadNumber`] for a panel size, node radius or floor tolerance out of range
/// or invalid scale bounds; [`Error::OutOfBounds`] for a route node outside the graph.
pub fn render_graph(graph: &Graph, layer: &Layer, opts: &RenderOptions) -> Result<RgbImage, Error> {
    if layer.len() != graph.len() || graph.is_empty() {
        return Err(Error::BadSize {
            width: graph.len(),
            height: 1,
            reason: "the graph has no nodes or the layer's length differs from its node count",
        });
    }
    if opts.frontline.as_ref().is_some_and(|f| f.len() != graph.len()) {
        return Err(Error::BadSize {
            width: graph.len(),
            height: 1,
            reason: "the front-line mask's length differs from the graph's node count",
        });
    }
    let range = |what, expected, ok: bool, value: f64| {
        if ok {
            Ok(())
        } else {
            Err(Error::BadNumber { what, expected, value })
        }
    };
    range("panel", "an integer in 16..=4096", (16..=MAX_PANEL).contains(&opts.panel), opts.panel.into())?;
    range(
        "node_radius",
        "an integer in 1..=32",
        (1..=32).contains(&opts.node_radius),
        opts.node_radius.into(),
    )?;
    let tol = opts.floor_tolerance;
    range("floor_tolerance", "a finite number, 0 or more", tol.is_finite() && tol >= 0.0, tol.into())?;
    if let Some(&bad) = opts.routes.iter().flatten().find(|&&i| i >= graph.len()) {
        return Err(Error::OutOfBounds { index: bad, len: graph.len() });
    }
    let scale = opts.scale.map_or_else(|| Ok(Scale::auto(layer)), Scale::validate)?;

    let floors = floor_levels(graph, tol);
    let (lo, hi) = graph
        .positions()
        .iter()
        .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let extent = (hi - lo).truncate();
    let r = i64::from(opts.node_radius);
    let margin = r + 3;
    let inner = (i64::from(opts.panel) - 2 * margin - 1).max(1) as f32;
    let ppu = inner / extent.max_element().max(f32::MIN_POSITIVE);
    let panel_w = (extent.x * ppu).round() as i64 + 2 * margin + 1;
    let panel_h = (extent.y * ppu).round() as i64 + 2 * margin + 1;
    let gap = 6;
    let n = floors.len() as i64;
    let (width, height) = (n * panel_w + (n - 1) * gap, panel_h);
    if (width as u128) * (height as u128) > MAX_CELLS as u128 {
        return Err(Error::BadSize {
            width: width as usize,
            height: height as usize,
            reason: "the image would have more than 2^28 pixels (too many floors?)",
        });
    }
    // Both sides fit in u32: the pixel count is at most MAX_CELLS.
    let mut canvas = RgbImage::filled(width as u32, height as u32, GRAPH_BACKGROUND);
    for k in 1..n {
        let x = k * (panel_w + gap) - gap;
        for y in 0..height {
            for dx in 0..gap {
                canvas.put(x + dx, y, [255, 255, 255]);
            }
        }
    }
    let floor = |i: usize| floor_of(&floors, graph.position(i).z);
    let pixel = |i: usize| {
        let p = graph.position(i);
        let x = ((p.x - lo.x) * ppu).round() as i64 + margin + floor(i) as i64 * (panel_w + gap);
        (x, ((p.y - lo.y) * ppu).round() as i64 + margin)
    };

    let mut stairs = Vec::new();
    if opts.edges {
        for (a, b, _) in graph.arcs() {
            if floor(a) != floor(b) {
                stairs.push(a);
            } else if a < b || !graph.arcs_from(b).any(|(t, _)| t == a) {
                canvas.line(pixel(a), pixel(b), 1, EDGE_COLOR);
            }
        }
    }
    for w in opts.routes.iter().flat_map(|r| r.windows(2)) {
        if floor(w[0]) == floor(w[1]) {
            canvas.line(pixel(w[0]), pixel(w[1]), 3, FRONTLINE_COLOR);
        }
    }
    for i in 0..graph.len() {
        let c = if opts.obstacles && !graph.is_walkable(i) {
            OBSTACLE_COLOR
        } else if opts.frontline.as_ref().is_some_and(|f| f[i]) {
            FRONTLINE_COLOR
        } else {
            scale.color(layer[i])
        };
        disc(&mut canvas, pixel(i), r, c);
    }
    for &i in &stairs {
        square(&mut canvas, pixel(i), r + 2, FRONTLINE_COLOR);
    }
    Ok(canvas)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floors_group_nearby_heights() {
        let g = Graph::from_text("n 0 0 0\nn 1 0 0.2\nn 0 0 3\nn 0 0 3.4\nn 0 0 9\n").unwrap();
        assert_eq!(floor_levels(&g, 0.5), vec![0.0, 3.0, 9.0]);
        assert_eq!(floor_levels(&g, 10.0), vec![0.0]);
        assert_eq!(floor_of(&[0.0, 3.0, 9.0], 3.4), 1);
    }

    #[test]
    fn nodes_take_their_colours_and_panels_sit_side_by_side() {
        let g = Graph::from_text("n 0 0 0\nn 10 10 0\nn 0 0 5 blocked\nn 10 10 5\ne 0 1\ne 1 3 6\ne 2 3\n")
            .unwrap();
        let layer = Layer::from_vec(vec![1.0, 0.0, 0.5, 0.25]);
        let scale = Scale::Sequential { min: 0.0, max: 1.0 };
        let opts = RenderOptions { scale: Some(scale), panel: 40, ..Default::default() };
        let img = render_graph(&g, &layer, &opts).unwrap();
        // Margin 6, so node 0 sits at (6, 6) and node 1 at (33, 33); panels 40 wide, gap 6.
        assert_eq!((img.width(), img.height()), (40 * 2 + 6, 40));
        assert_eq!(img.pixel(6, 6), Some(scale.color(1.0)));
        assert_eq!(img.pixel(33, 33), Some(scale.color(0.0)));
        assert_eq!(img.pixel(46 + 6, 6), Some(OBSTACLE_COLOR));
        assert_eq!(img.pixel(46 + 33, 33), Some(scale.color(0.25)));
        assert_eq!(img.pixel(20, 20), Some(EDGE_COLOR)); // on the diagonal edge 0–1
        assert_eq!(img.pixel(33 + 5, 33), Some(FRONTLINE_COLOR)); // the stair's square
        assert_eq!(img.pixel(20, 5), Some(GRAPH_BACKGROUND));
    }

    #[test]
    fn bad_options_are_typed_errors() {
        let g = Graph::from_text("n 0 0 0\nn 1 0 0\ne 0 1\n").unwrap();
        let l = Layer::zeros(2);
        let with = |f: fn(&mut RenderOptions)| {
            let mut o = RenderOptions::default();
            f(&mut o);
            render_graph(&g, &l, &o)
        };
        assert!(matches!(with(|o| o.panel = 8), Err(Error::BadNumber { what: "panel", .. })));
        assert!(matches!(with(|o| o.node_radius = 0), Err(Error::BadNumber { .. })));
        assert!(matches!(with(|o| o.floor_tolerance = f32::NAN), Err(Error::BadNumber { .. })));
        assert!(matches!(
            with(|o| o.routes = vec![vec![0, 5]]),
            Err(Error::OutOfBounds { index: 5, len: 2 })
        ));
        assert!(matches!(
            render_graph(&g, &Layer::zeros(3), &RenderOptions::default()),
            Err(Error::BadSize { .. })
        ));
        assert!(with(|_| {}).is_ok());
    }
}
