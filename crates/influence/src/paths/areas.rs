//! Area graphs: a [`DerivedGraph`] grown from seeds by walking distance. Built here, beside
//! the best-first sweeps it runs, so that `space` (which holds the type and the coarse grid)
//! needs nothing from `paths`.

use super::{distance_sweep, BestFirst, PathScratch};
use crate::error::{positive, Error};
use crate::space::derived::NONE;
use crate::space::{Connectivity, DerivedGraph, Grid, Space};

impl DerivedGraph {
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
}

/// Labels each walkable cell with the index of the seed nearest by walking distance, ties to
/// the earlier seed. The best-first engine carries each seed's index along as it settles
/// cells, so a cell takes the label of the neighbour it is reached from and each label's
/// cells are connected to its seed.
fn nearest_seed(grid: &Grid, seeds: &[usize]) -> Vec<u32> {
    let mut label = vec![NONE; grid.len()];
    let starts = seeds.iter().enumerate().map(|(k, &s)| (s, 0.0, k as u32));
    distance_sweep(&mut BestFirst::default(), grid, starts, f32::INFINITY, |c, _, k| label[c] = k);
    label
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_labelled_by_the_nearest_seed_ties_to_the_earlier() {
        let rows = ["..........", "...@@@....", "......@...", ".@....@...", ".@........", "....@@@@.."];
        for connectivity in [Connectivity::Four, Connectivity::Eight] {
            let grid = Grid::from_rows(&rows).unwrap().with_connectivity(connectivity);
            let at = |x, y| grid.index(crate::Cell::new(x, y)).unwrap();
            let seeds = [at(9, 5), 0, at(5, 2), at(2, 4)];
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
