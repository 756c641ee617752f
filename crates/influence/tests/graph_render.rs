//! Pictures of graph layers: a two-floor waypoint graph with a route, and the area graph of
//! a real map, rendered and (with the `png` feature) encoded. Set `INFLUENCE_PICTURES` to a
//! directory to keep the PNG files for a look.

use influence::glam::Vec3;
use influence::propagate::{Diffusion, Seed, SteadyState};
use influence::render::{render_graph, RenderOptions, Scale, GRAPH_BACKGROUND};
use influence::route::{Cost, Heuristic, Router};
use influence::space::{DerivedGraph, Graph, Reduce};
use influence::{Grid, Layer, Space};

fn two_floors() -> Graph {
    let (w, h) = (8usize, 5usize);
    let mut positions = Vec::new();
    let mut edges = Vec::new();
    for floor in 0..2 {
        for i in 0..w * h {
            positions.push(Vec3::new((i % w) as f32 * 2.0, (i / w) as f32 * 2.0, floor as f32 * 4.0));
            let j = floor * w * h + i;
            if i % w + 1 < w {
                edges.push((j, j + 1));
            }
            if i / w + 1 < h {
                edges.push((j, j + w));
            }
        }
    }
    // Straight-line lengths, and a 6-unit stair: as arcs both ways.
    let mut arcs: Vec<(usize, usize, f32)> = Vec::new();
    for (a, b) in edges {
        let l: f32 = positions[a].distance(positions[b]);
        arcs.extend([(a, b, l), (b, a, l)]);
    }
    arcs.extend([(w * h - 1, 2 * w * h - 1, 6.0), (2 * w * h - 1, w * h - 1, 6.0)]);
    let mut g = Graph::from_arcs(positions, arcs).unwrap();
    for i in [10, 18, 26] {
        g.set_blocked(i, true).unwrap();
    }
    g
}

#[allow(unused_variables)]
fn keep(name: &str, image: &influence::render::RgbImage) {
    #[cfg(feature = "png")]
    {
        let bytes = influence::render::encode_png(image).unwrap();
        assert!(bytes.starts_with(b"\x89PNG"));
        if let Some(dir) = std::env::var_os("INFLUENCE_PICTURES") {
            influence::render::write_png(image, std::path::Path::new(&dir).join(name)).unwrap();
        }
    }
}

#[test]
fn two_floors_render_side_by_side_with_a_route() {
    let g = two_floors();
    let mut layer = Layer::for_space(&g);
    let d = Diffusion::new(0.08, 1.0).unwrap();
    SteadyState::default().solve(&g, &d, &[Seed::new(0, 1.0)], &mut layer).unwrap();
    let route = Router::new().find(&g, 0, 40, &Cost::distance(), Heuristic::Euclidean).unwrap().unwrap();
    let opts =
        RenderOptions { panel: 200, node_radius: 5, routes: vec![route.cells.clone()], ..Default::default() };
    let image = render_graph(&g, &layer, &opts).unwrap();
    // Two panels of equal size with a gap between them.
    assert!(image.width() > 2 * image.height());
    let scale = Scale::auto(&layer);
    assert_eq!(image.pixel(8, 8), Some(scale.color(1.0))); // node 0 at the top left, margin 8
    keep("graph_two_floors.png", &image);
}

#[test]
fn the_area_graph_of_a_real_map_renders() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/maps/den012d.map");
    let grid = Grid::load_movingai(path).unwrap();
    let areas = DerivedGraph::areas(&grid, 12.0).unwrap();
    let g = areas.graph();
    let mut on_grid = Layer::for_space(&grid);
    let start = (0..grid.len()).find(|&i| grid.is_walkable(i)).unwrap();
    let d = Diffusion::new(0.03, 1.0).unwrap();
    SteadyState::default().solve(&grid, &d, &[Seed::new(start, 1.0)], &mut on_grid).unwrap();
    let mut layer = Layer::for_space(g);
    areas.summarise_into(&on_grid, Reduce::Max, &mut layer);
    let image = render_graph(g, &layer, &RenderOptions { panel: 400, ..Default::default() }).unwrap();
    assert!(image.width() <= 400 && image.height() <= 400);
    let painted = image.pixels().chunks(3).filter(|p| *p != GRAPH_BACKGROUND).count();
    assert!(painted > g.len() * 9, "{painted} pixels for {} nodes", g.len());
    keep("graph_areas_den012d.png", &image);
}
