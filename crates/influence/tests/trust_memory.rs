//! `heap_bytes` of the map types on a 256 × 256 grid: a layer is exactly 4 bytes a cell, a
//! grid 1⅛ (its flags and its bits), a propagator two layers plus bounded scratch rows, a
//! graph a stated bound per node and arc (see the table in the `space` module docs).

use influence::propagate::{Diffusion, Propagator, Seed, Steps};
use influence::Cell;
use influence::{Graph, Grid, Layer};

const SIDE: usize = 256;
const CELLS: usize = SIDE * SIDE;

fn walled() -> Grid {
    let mut grid = Grid::new(SIDE, SIDE).unwrap();
    for y in (0..SIDE).step_by(7) {
        for x in 0..SIDE / 2 {
            grid.set_blocked(Cell::new(x, y), true).unwrap();
        }
    }
    grid
}

/// The padding that puts a layer's first value on a cache line: at most 15 cells.
const ALIGN: usize = 4 * 15;
/// The padding that places a row buffer at an offset within 4 KiB from another (a
/// propagator's second buffer, each scratch row of a fused pass): at most 1023 cells.
const PLACE: usize = 4 * 1023;

#[test]
fn a_layer_is_four_bytes_a_cell() {
    let grid = walled();
    let layer = Layer::for_space(&grid);
    assert!((4 * CELLS..=4 * CELLS + ALIGN).contains(&layer.heap_bytes()), "{} bytes", layer.heap_bytes());
    assert_eq!(layer.values().as_ptr() as usize % 64, 0, "the first value on a cache line");
    assert_eq!(Layer::zeros(0).heap_bytes(), 0);
    let wrapped = Layer::from_vec(vec![1.0; CELLS]);
    assert_eq!(wrapped.heap_bytes(), 4 * CELLS, "wrapped values are kept where they are");
}

#[test]
fn a_grid_is_one_byte_and_one_bit_a_cell() {
    let grid = walled();
    assert_eq!(grid.heap_bytes(), CELLS + CELLS / 8);
}

#[test]
fn a_propagator_is_two_layers_plus_bounded_scratch() {
    let grid = walled();
    let d = Diffusion::new(0.3, 0.9).unwrap();
    let mut p = Propagator::new(&grid, d);
    let buffers = p.heap_bytes();
    assert!(
        (2 * 4 * CELLS..=2 * 4 * CELLS + ALIGN + PLACE).contains(&buffers),
        "nothing but the two buffers before a step: {buffers} bytes"
    );
    p.step(&grid, Steps::default()).unwrap();
    let one = p.heap_bytes();
    p.step(
        &grid,
        Steps { count: 20, seeds: &[Seed::new(0, 1.0), Seed::new(CELLS - 1, 2.0)], ..Steps::default() },
    )
    .unwrap();
    let fused = p.heap_bytes();
    assert!(one > buffers && fused >= one);
    // Ring rows: at most 16 bytes a cell of width per fused step, at most 16 steps, and the
    // carried rows and the row of zeros, each placed (33 rows of scratch); the wall data of
    // at most 33 rows in flight, at most 4 bytes a cell; the seed buffer and the scratch
    // vector itself; the wall data single steps keep, at most 2 bytes a cell (the AVX2
    // kernel's with 8 neighbours) and the free-cell bits it was made from.
    let rings = 16 * 16 * SIDE + 33 * (4 * SIDE + PLACE) + 33 * 4 * SIDE;
    let kept = 2 * CELLS + CELLS / 8;
    assert!(fused - buffers <= rings + kept + 32 * SIDE + 1024, "scratch {} bytes", fused - buffers);
    // Repeating the work allocates nothing more.
    p.step(
        &grid,
        Steps { count: 20, seeds: &[Seed::new(0, 1.0), Seed::new(CELLS - 1, 2.0)], ..Steps::default() },
    )
    .unwrap();
    assert_eq!(p.heap_bytes(), fused);
}

#[test]
fn a_graph_from_a_grid_stays_within_its_stated_bound() {
    let grid = walled();
    let graph = Graph::from_space(&grid).unwrap();
    let (nodes, arcs) = (graph.positions().len(), graph.arc_count());
    let bytes = graph.heap_bytes();
    // Exact part: 12 (position) + 1 (flag) + 4 (offset) a node, 8 an arc; the R*-tree
    // estimate adds 2 entries a node.
    let entry = std::mem::size_of::<rstar::RTreeNode<rstar::primitives::GeomWithData<[f32; 3], u32>>>();
    assert!(bytes >= 17 * nodes + 8 * arcs);
    assert!(bytes <= (17 + 2 * entry + 8) * nodes + 8 * arcs, "{bytes} bytes for {nodes} nodes, {arcs} arcs");
    // The stated bound of the space docs: at most 128 bytes a node plus 8 an arc.
    assert!(bytes <= 128 * nodes + 8 * arcs);
    println!("graph: {nodes} nodes, {arcs} arcs, {bytes} bytes, entry {entry}");
}
