//! Layers between a grid and a graph derived from it ([`DerivedGraph`]): a grid layer
//! summarised onto the graph's nodes, a graph layer expanded back over the grid.

use super::Layer;
use crate::space::{DerivedGraph, Reduce, Space};

impl DerivedGraph {
    /// One value per node from a grid layer: each node's cells folded by `reduce`.
    ///
    /// # Panics
    /// If `grid_layer` was not made for the grid, or `out` for the graph.
    pub fn summarise_into(&self, grid_layer: &Layer, reduce: Reduce, out: &mut Layer) {
        assert_eq!(grid_layer.len(), self.cell_nodes().len(), "layer was not made for this grid");
        assert_eq!(out.len(), self.graph().len(), "layer was not made for this graph");
        for node in 0..self.graph().len() {
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

    /// A grid layer from a graph layer: every walkable cell takes its node's value, blocked
    /// cells 0.
    ///
    /// # Panics
    /// If `graph_layer` was not made for the graph, or `out` for the grid.
    pub fn expand_into(&self, graph_layer: &Layer, out: &mut Layer) {
        assert_eq!(graph_layer.len(), self.graph().len(), "layer was not made for this graph");
        assert_eq!(out.len(), self.cell_nodes().len(), "layer was not made for this grid");
        for (v, node) in out.values_mut().iter_mut().zip(self.cell_nodes()) {
            *v = node.map_or(0.0, |n| graph_layer[n]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Grid;

    #[test]
    fn summarise_and_expand() {
        let grid = Grid::from_rows(&["..@.", "...."]).unwrap();
        let d = DerivedGraph::coarse(&grid, 2).unwrap();
        let layer = Layer::from_vec(vec![1.0, 2.0, 99.0, 4.0, 3.0, 6.0, 5.0, 0.0]);
        let summarise = |reduce| {
            let mut out = Layer::zeros(2);
            d.summarise_into(&layer, reduce, &mut out);
            out
        };
        assert_eq!(summarise(Reduce::Mean).values(), &[3.0, 3.0]);
        assert_eq!(summarise(Reduce::Max).values(), &[6.0, 5.0]);
        assert_eq!(summarise(Reduce::Min).values(), &[1.0, 0.0]);
        assert_eq!(summarise(Reduce::Sum).values(), &[12.0, 9.0]);
        let mut back = Layer::zeros(8);
        d.expand_into(&Layer::from_vec(vec![7.0, 8.0]), &mut back);
        assert_eq!(back.values(), &[7.0, 7.0, 0.0, 8.0, 7.0, 7.0, 8.0, 8.0]);
    }
}
