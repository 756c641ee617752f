//! Graphs derived from a grid: see [`DerivedGraph`]. The type, its cell↔node maps and the
//! coarse grid live here; the area graph, which sweeps walking distances, is built beside
//! the sweeps (`paths/areas.rs`), and moving layers between grid and graph
//! ([`summarise_into`](DerivedGraph::summarise_into), [`expand_into`](DerivedGraph::expand_into)) sits with
//! the layers (`layer/derived.rs`), so this module needs nothing above `space`.

use std::collections::VecDeque;

use glam::Vec3;

use super::{Graph, Grid, Space};
use crate::error::Error;

/// No node: the label of blocked cells.
pub(crate) const NONE: u32 = u32::MAX;

/// How [`DerivedGraph::summarise_into`] folds the values of a node's cells into one.
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
/// use influence::{space::{DerivedGraph, Reduce}, Cell, Grid, Layer, Space};
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
/// let mut summary = Layer::for_space(coarse.graph());
/// coarse.summarise_into(&layer, Reduce::Max, &mut summary);
/// assert_eq!(summary.values(), &[8.0, 0.0]);
/// let mut back = Layer::for_space(&grid);
/// coarse.expand_into(&summary, &mut back);
/// assert_eq!(back[grid.index(Cell::new(2, 3)).unwrap()], 8.0);
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

    /// Builds the graph from a label per cell (`NONE` for blocked), `count` labels in all,
    /// each non-empty; `place` gives a node's position from its ascending cells.
    pub(crate) fn from_labels(
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

    /// The node of every grid cell, in cell order: `None` for blocked cells.
    pub(crate) fn cell_nodes(&self) -> impl ExactSizeIterator<Item = Option<usize>> + '_ {
        self.cell_node.iter().map(|&l| (l != NONE).then_some(l as usize))
    }
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
        assert!(DerivedGraph::coarse(&grid, 0).is_err());
    }
}
