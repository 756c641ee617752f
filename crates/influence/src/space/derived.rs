//! Graphs derived from a grid: see [`DerivedGraph`].

use std::collections::VecDeque;

use glam::Vec3;

use super::{Connectivity, Graph, Grid, Space};
use crate::error::{positive, Error};
use crate::layer::Layer;
use crate::paths::{self, BestFirst, PathScratch};

/// No node: the label of blocked cells.
const NONE: u32 = u32::MAX;

/// How [`DerivedGraph::summarise`] folds the values of a node's cells into one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Reduce {
    /// The average: expanding it back keeps the layer's sum over walkable cells.
    #[default]
    Mean,
    /// The largest value (the strongest threat in the area).
    Max,
    /// The smallest value.
    Min,
    /// The total (how much is in the area).
    Sum,
}

/// Graphs derived from a grid, each keeping the map from grid cells to graph nodes so grid
/// layers can be summarised onto the graph and graph layers spread back over the grid.
///
/// "The Core Mechanics of Influence Mapping" (Champandard) weighs two of the representations
/// built here. A *coarse grid* lowers the resolution, but "causes certain grid cells to span
/// over obstacles": a block cut in two by a wall would join the rooms on both sides if it
/// were one node. [`DerivedGraph::coarse`] therefore makes one node per *connected part* of
/// a block's walkable cells, so a split block becomes several nodes and influence crosses
/// the wall only where the grid does. An *area graph* clusters rooms and corridors into
/// areas, the navigation hierarchy the article suggests reusing; [`DerivedGraph::areas`]
/// grows areas from seeds placed where the map is most open.
///
/// ```
/// use influence::{space::{DerivedGraph, Reduce}, Grid, Layer, Space};
/// // Two 4 × 4 blocks, each in one piece: the wall ends above row 3.
/// let grid = Grid::from_rows(&[
///     "...@....",
///     "...@....",
///     "...@....",
///     "........",
/// ])?;
/// let coarse = DerivedGraph::coarse(&grid, 4)?;
/// assert_eq!(coarse.graph().len(), 2);
/// let mut layer = Layer::for_space(&grid);
/// layer[0] = 8.0;
/// let summary = coarse.summarise(&layer, Reduce::Max);
/// assert_eq!(summary.values(), &[8.0, 0.0]);
/// assert_eq!(coarse.expand(&summary)[grid.index(2, 3).unwrap()], 8.0);
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct DerivedGraph {
    graph: Graph,
    /// The node of each grid cell; [`NONE`] for blocked cells.
    cell_node: Vec<u32>,
    /// Cells of node `n` are `node_cells[node_offsets[n]..node_offsets[n + 1]]`, ascending.
    node_offsets: Vec<u32>,
    node_cells: Vec<u32>,
}

impl DerivedGraph {
    /// The coarse grid of `block × block` cells: one node per connected part of a block's
    /// walkable cells (connected through the grid's own neighbour steps inside the block),
    /// placed at the centroid of the part's cell centres; two nodes are joined when a cell
    /// of one is the grid neighbour of a cell of the other, with the distance between their
    /// positions as length. A block holding no walkable cell has no node. Nodes are
    /// numbered block by block, row-major, parts in the order of their first cell.
    ///
    /// # Errors
    /// [`Error::BadNumber`] for a block of 0 cells.
    pub fn coarse(grid: &Grid, block: usize) -> Result<Self, Error> {
        if block == 0 {
            return Err(Error::BadNumber { what: "block", expected: "at least 1 cell", value: 0.0 });
        }
        let (w, h) = (grid.width(), grid.height());
        let block_of = |i: usize| (i % w / block, i / w / block);
        let mut labels = vec![NONE; grid.len()];
        let mut count = 0u32;
        let mut queue = VecDeque::new();
        for by in 0..h.div_ceil(block) {
            for bx in 0..w.div_ceil(block) {
                for y in by * block..((by + 1) * block).min(h) {
                    for x in bx * block..((bx + 1) * block).min(w) {
                        let start = y * w + x;
                        if labels[start] != NONE || !grid.is_walkable(start) {
                            continue;
                        }
                        labels[start] = count;
                        queue.push_back(start);
                        while let Some(c) = queue.pop_front() {
                            grid.for_each_neighbour(c, |j, _| {
                                if labels[j] == NONE && block_of(j) == (bx, by) {
                                    labels[j] = count;
                                    queue.push_back(j);
                                }
                            });
                        }
                        count += 1;
                    }
                }
            }
        }
        Self::from_labels(grid, labels, count as usize, |cells| {
            let sum: Vec3 = cells.iter().map(|&c| grid.position(c as usize)).sum();
            sum / cells.len() as f32
        })
    }

    /// The area graph: rooms and corridors clustered into areas at most `spacing` world
    /// units of walking from their centre. Seeds are placed greedily where the map is most
    /// open — cells in order of clearance (walking distance to the nearest wall or map
    /// edge), largest first, each cell not yet within `spacing` of a seed becoming one — so
    /// they sit in the middle of rooms and on the mid-line of corridors. Every walkable cell
    /// then joins the seed nearest by walking distance (ties to the earlier seed), which
    /// makes each area connected. A node sits at its seed's cell centre, a walkable spot;
    /// areas that touch (a cell of one is the grid neighbour of a cell of the other) are
    /// joined, with the distance between their seeds as length.
    ///
    /// ```
    /// use influence::{space::DerivedGraph, Grid, Space};
    /// // Two rooms and the corridor between them.
    /// let grid = Grid::from_rows(&[
    ///     ".....@@@@@.....",
    ///     "...............",
    ///     ".....@@@@@.....",
    /// ])?;
    /// let areas = DerivedGraph::areas(&grid, 4.0)?;
    /// assert!(areas.graph().len() >= 3);
    /// // The two ends land in different areas joined through the corridor.
    /// assert_ne!(areas.node_of(0), areas.node_of(14));
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::BadNumber`] unless `spacing` is finite and positive.
    pub fn areas(grid: &Grid, spacing: f32) -> Result<Self, Error> {
        let spacing = positive("spacing", spacing)?;
        let n = grid.len();
        // Clearance: walking distance to the nearest walkable cell that touches a wall or
        // the map's edge (fewer than the full set of grid neighbours).
        let full = if grid.connectivity() == Connectivity::Four { 4 } else { 8 };
        let mut clearance = vec![f32::INFINITY; n];
        let edge_cells: Vec<(usize, f32)> = (0..n)
            .filter(|&i| grid.is_walkable(i))
            .filter(|&i| {
                let mut k = 0;
                grid.for_each_neighbour(i, |_, _| k += 1);
                k < full
            })
            .map(|i| (i, 0.0))
            .collect();
        let mut scratch = PathScratch::new();
        scratch.sweep(grid, &edge_cells, f32::INFINITY, |c, d| clearance[c] = d);
        let mut order: Vec<usize> = (0..n).filter(|&i| grid.is_walkable(i)).collect();
        order.sort_by(|&a, &b| clearance[b].total_cmp(&clearance[a]).then(a.cmp(&b)));

        let mut covered = vec![false; n];
        let mut seeds = Vec::new();
        for &c in &order {
            if !covered[c] {
                seeds.push(c);
                scratch.sweep(grid, &[(c, 0.0)], spacing, |j, _| covered[j] = true);
            }
        }
        let labels = nearest_seed(grid, &seeds);
        // Labels are seed indices, and nodes are placed in label order.
        let mut next = 0;
        Self::from_labels(grid, labels, seeds.len(), |_| {
            next += 1;
            grid.position(seeds[next - 1])
        })
    }

    /// Builds the graph from a label per cell (`NONE` for blocked), `count` labels in all,
    /// each non-empty; `place` gives a node's position from its ascending cells.
    fn from_labels(
        grid: &Grid,
        cell_node: Vec<u32>,
        count: usize,
        mut place: impl FnMut(&[u32]) -> Vec3,
    ) -> Result<Self, Error> {
        let mut node_offsets = vec![0u32; count + 1];
        for &l in cell_node.iter().filter(|&&l| l != NONE) {
            node_offsets[l as usize + 1] += 1;
        }
        for k in 0..count {
            node_offsets[k + 1] += node_offsets[k];
        }
        let mut next = node_offsets.clone();
        let mut node_cells = vec![0u32; node_offsets[count] as usize];
        for (c, &l) in cell_node.iter().enumerate().filter(|(_, &l)| l != NONE) {
            node_cells[next[l as usize] as usize] = c as u32;
            next[l as usize] += 1;
        }
        let positions = (0..count)
            .map(|k| place(&node_cells[node_offsets[k] as usize..node_offsets[k + 1] as usize]))
            .collect();
        let mut pairs = Vec::new();
        for (c, &l) in cell_node.iter().enumerate().filter(|(_, &l)| l != NONE) {
            grid.for_each_neighbour(c, |j, _| {
                let m = cell_node[j];
                if m != l {
                    pairs.push((l.min(m) as usize, l.max(m) as usize));
                }
            });
        }
        pairs.sort_unstable();
        pairs.dedup();
        let graph = Graph::from_edges(positions, pairs)?;
        Ok(Self { graph, cell_node, node_offsets, node_cells })
    }

    /// The graph.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// Gives the graph back, dropping the cell map.
    pub fn into_graph(self) -> Graph {
        self.graph
    }

    /// The node grid cell `cell` belongs to; `None` for blocked cells (or outside the grid).
    pub fn node_of(&self, cell: usize) -> Option<usize> {
        self.cell_node.get(cell).filter(|&&l| l != NONE).map(|&l| l as usize)
    }

    /// The grid cells of `node`, ascending.
    ///
    /// # Panics
    /// If `node` is not a node of the graph.
    pub fn cells_of(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        let range = self.node_offsets[node] as usize..self.node_offsets[node + 1] as usize;
        self.node_cells[range].iter().map(|&c| c as usize)
    }

    /// One value per node from a grid layer: each node's cells folded by `reduce`.
    ///
    /// # Panics
    /// If `grid_layer` was not made for the grid, or `out` for the graph.
    pub fn summarise_into(&self, grid_layer: &Layer, reduce: Reduce, out: &mut Layer) {
        assert_eq!(grid_layer.len(), self.cell_node.len(), "layer was not made for this grid");
        assert_eq!(out.len(), self.graph.len(), "layer was not made for this graph");
        for node in 0..self.graph.len() {
            let values = self.cells_of(node).map(|c| grid_layer[c]);
            out[node] = match reduce {
                Reduce::Mean => {
                    let (sum, k) = values.fold((0f64, 0usize), |(s, k), v| (s + f64::from(v), k + 1));
                    (sum / k as f64) as f32
                }
                Reduce::Sum => values.map(f64::from).sum::<f64>() as f32,
                Reduce::Max => values.fold(f32::NEG_INFINITY, f32::max),
                Reduce::Min => values.fold(f32::INFINITY, f32::min),
            };
        }
    }

    /// [`summarise_into`](Self::summarise_into) a new layer.
    ///
    /// # Panics
    /// If `grid_layer` was not made for the grid.
    pub fn summarise(&self, grid_layer: &Layer, reduce: Reduce) -> Layer {
        let mut out = Layer::for_space(&self.graph);
        self.summarise_into(grid_layer, reduce, &mut out);
        out
    }

    /// A grid layer from a graph layer: every walkable cell takes its node's value, blocked
    /// cells 0.
    ///
    /// # Panics
    /// If `graph_layer` was not made for the graph, or `out` for the grid.
    pub fn expand_into(&self, graph_layer: &Layer, out: &mut Layer) {
        assert_eq!(graph_layer.len(), self.graph.len(), "layer was not made for this graph");
        assert_eq!(out.len(), self.cell_node.len(), "layer was not made for this grid");
        for (v, &l) in out.values_mut().iter_mut().zip(&self.cell_node) {
            *v = if l == NONE { 0.0 } else { graph_layer[l as usize] };
        }
    }

    /// [`expand_into`](Self::expand_into) a new layer.
    ///
    /// # Panics
    /// If `graph_layer` was not made for the graph.
    pub fn expand(&self, graph_layer: &Layer) -> Layer {
        let mut out = Layer::zeros(self.cell_node.len());
        self.expand_into(graph_layer, &mut out);
        out
    }
}

/// Labels each walkable cell with the index of the seed nearest by walking distance, ties to
/// the earlier seed. The best-first engine carries each seed's index along as it settles
/// cells, so a cell takes the label of the neighbour it is reached from and each label's
/// cells are connected to its seed.
fn nearest_seed(grid: &Grid, seeds: &[usize]) -> Vec<u32> {
    let mut label = vec![NONE; grid.len()];
    let starts = seeds.iter().enumerate().map(|(k, &s)| (s, 0.0, k as u32));
    paths::distance_sweep(&mut BestFirst::default(), grid, starts, f32::INFINITY, |c, _, k| label[c] = k);
    label
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_split_by_a_wall_becomes_two_nodes() {
        // The 4 × 4 block is cut by the wall at x = 2; the parts meet nowhere inside it.
        let grid = Grid::from_rows(&["..@.", "..@.", "..@.", "..@."]).unwrap();
        let d = DerivedGraph::coarse(&grid, 4).unwrap();
        assert_eq!(d.graph().len(), 2);
        assert_eq!(d.graph().arc_count(), 0); // no way round: influence must not cross
        assert_eq!(d.graph().position(0), Vec3::new(1.0, 2.0, 0.0));
        assert_eq!(d.graph().position(1), Vec3::new(3.5, 2.0, 0.0));
        assert_eq!(d.node_of(2), None);
        assert_eq!(d.cells_of(1).collect::<Vec<_>>(), vec![3, 7, 11, 15]);
    }

    #[test]
    fn blocks_join_where_their_cells_are_neighbours() {
        let grid = Grid::from_rows(&["....", "....", "@@@.", "...."]).unwrap();
        let d = DerivedGraph::coarse(&grid, 2).unwrap();
        // Blocks: (0,0) (1,0) (0,1) (1,1); all have walkable cells.
        assert_eq!(d.graph().len(), 4);
        let mut arcs: Vec<(usize, usize)> =
            d.graph().arcs().map(|(a, b, _)| (a, b)).filter(|(a, b)| a < b).collect();
        arcs.sort_unstable();
        // Block (0, 1) touches (1, 1) along row 3; the wall keeps it from (0, 0), and (0, 0)
        // from (1, 1): the only diagonal, (1, 1)–(2, 2), ends in the wall.
        assert_eq!(arcs, vec![(0, 1), (1, 3), (2, 3)]);
    }

    #[test]
    fn summarise_and_expand() {
        let grid = Grid::from_rows(&["..@.", "...."]).unwrap();
        let d = DerivedGraph::coarse(&grid, 2).unwrap();
        let layer = Layer::from_vec(vec![1.0, 2.0, 99.0, 4.0, 3.0, 6.0, 5.0, 0.0]);
        assert_eq!(d.summarise(&layer, Reduce::Mean).values(), &[3.0, 3.0]);
        assert_eq!(d.summarise(&layer, Reduce::Max).values(), &[6.0, 5.0]);
        assert_eq!(d.summarise(&layer, Reduce::Min).values(), &[1.0, 0.0]);
        assert_eq!(d.summarise(&layer, Reduce::Sum).values(), &[12.0, 9.0]);
        let back = d.expand(&Layer::from_vec(vec![7.0, 8.0]));
        assert_eq!(back.values(), &[7.0, 7.0, 0.0, 8.0, 7.0, 7.0, 8.0, 8.0]);
        assert!(DerivedGraph::coarse(&grid, 0).is_err());
    }

    #[test]
    fn cells_are_labelled_by_the_nearest_seed_ties_to_the_earlier() {
        let rows = ["..........", "...@@@....", "......@...", ".@....@...", ".@........", "....@@@@.."];
        for connectivity in [Connectivity::Four, Connectivity::Eight] {
            let grid = Grid::from_rows(&rows).unwrap().with_connectivity(connectivity);
            let seeds = [grid.index(9, 5).unwrap(), 0, grid.index(5, 2).unwrap(), grid.index(2, 4).unwrap()];
            // Each seed's own distances; a cell's label is the seed with the smallest (distance, index).
            let mut best = vec![(f32::INFINITY, NONE); grid.len()];
            let mut scratch = PathScratch::new();
            for (k, &s) in seeds.iter().enumerate() {
                scratch.sweep(&grid, &[(s, 0.0)], f32::INFINITY, |c, d| {
                    if d < best[c].0 {
                        best[c] = (d, k as u32);
                    }
                });
            }
            let expected: Vec<u32> = best.iter().map(|&(_, k)| k).collect();
            assert_eq!(nearest_seed(&grid, &seeds), expected, "{connectivity:?}");
        }
    }

    #[test]
    fn areas_are_connected_bounded_and_seeded_in_the_open() {
        let grid = Grid::from_rows(&[
            "..........@@@@@@@@@@..........",
            "..............................",
            "..........@@@@@@@@@@..........",
            "..........@@@@@@@@@@..........",
        ])
        .unwrap();
        let spacing = 4.0;
        let d = DerivedGraph::areas(&grid, spacing).unwrap();
        let g = d.graph();
        let mut scratch = PathScratch::new();
        for node in 0..g.len() {
            let cells: Vec<usize> = d.cells_of(node).collect();
            let seed = grid.index_at(g.position(node).truncate()).unwrap();
            assert!(cells.contains(&seed));
            // Connected: a walk inside the area from the seed reaches all its cells.
            let mut seen = vec![seed];
            let mut k = 0;
            while k < seen.len() {
                grid.for_each_neighbour(seen[k], |j, _| {
                    if d.node_of(j) == Some(node) && !seen.contains(&j) {
                        seen.push(j);
                    }
                });
                k += 1;
            }
            assert_eq!(seen.len(), cells.len());
            // Within `spacing` of the seed.
            let mut far = 0.0f32;
            scratch.sweep(&grid, &[(seed, 0.0)], f32::INFINITY, |c, dist| {
                if d.node_of(c) == Some(node) {
                    far = far.max(dist);
                }
            });
            assert!(far <= spacing + 1e-4, "node {node}: {far}");
        }
        assert!(DerivedGraph::areas(&grid, 0.0).is_err());
        assert!(DerivedGraph::areas(&grid, f32::NAN).is_err());
    }
}
