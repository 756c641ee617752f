//! Straightforward implementations, written the way the articles' sample code is: per-cell
//! loops with bounds-checked indexing, values recomputed, fresh buffers. They are the
//! baselines that benchmarks (`cargo bench`, `influence bench`) measure the real kernels
//! against in the same run, and oracles for tests. Not for production use.

use crate::{Grid, Layer, Source};

/// Stamps `sources` (Euclidean distance, additive) the naive way: every cell of each
/// source's bounding box, distance and falloff computed from scratch, checked indexing.
pub fn stamp(grid: &Grid, layer: &mut Layer, sources: &[Source]) {
    let (w, h) = (grid.width() as isize, grid.height() as isize);
    for s in sources {
        let c = grid.to_cell_space(s.position());
        let reach = (s.radius() / grid.cell_size()).ceil() as isize + 1;
        let (cx, cy) = (c.x.floor() as isize, c.y.floor() as isize);
        for y in (cy - reach).max(0)..=(cy + reach).min(h - 1) {
            for x in (cx - reach).max(0)..=(cx + reach).min(w - 1) {
                let centre = grid.cell_center(x as usize, y as usize);
                let d = centre.distance(s.position());
                let i = grid.index(x as usize, y as usize).unwrap();
                if d <= s.radius() && !grid.is_blocked(x as usize, y as usize) {
                    layer[i] += s.strength() * s.falloff().factor(d, s.radius());
                }
            }
        }
    }
}

/// The five compound maps of two teams, each built as a fresh vector with checked indexing:
/// influence, tension, tension product, vulnerability, directed vulnerability.
pub fn analysis(mine: &[f32], theirs: &[f32]) -> [Vec<f32>; 5] {
    let mut influence = Vec::new();
    let mut tension = Vec::new();
    let mut product = Vec::new();
    for i in 0..mine.len() {
        influence.push(mine[i] - theirs[i]);
        tension.push(mine[i] + theirs[i]);
        product.push(mine[i] * theirs[i]);
    }
    let mut vulnerability = Vec::new();
    let mut directed = Vec::new();
    for i in 0..mine.len() {
        vulnerability.push(tension[i] - influence[i].abs());
        directed.push(tension[i] + influence[i]);
    }
    [influence, tension, product, vulnerability, directed]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Analysis, Falloff, Stamper};

    #[test]
    fn naive_stamping_agrees_with_the_stamper() {
        let grid = Grid::from_rows(&["........", "..@@....", "........", "......@."]).unwrap();
        let sources: Vec<Source> = [(1.3, 0.7, 2.0), (5.5, 2.5, -1.0), (7.9, 3.9, 3.0)]
            .iter()
            .map(|&(x, y, s)| Source::new(glam::Vec2::new(x, y), s, Falloff::Linear, 3.0).unwrap())
            .collect();
        let (mut naive, mut fast) = (Layer::for_space(&grid), Layer::for_space(&grid));
        stamp(&grid, &mut naive, &sources);
        Stamper::new().stamp_all(&grid, &mut fast, &sources);
        for (a, b) in naive.values().iter().zip(fast.values()) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
    }

    #[test]
    fn naive_analysis_agrees() {
        let (m, t) = (Layer::from_vec(vec![1.0, 4.0, 0.0]), Layer::from_vec(vec![3.0, 1.0, 2.0]));
        let a = Analysis::from_teams(&[&m, &t], 0);
        let [inf, ten, prod, vul, dir] = analysis(m.values(), t.values());
        assert_eq!(
            (inf.as_slice(), ten.as_slice(), prod.as_slice()),
            (a.influence.values(), a.tension.values(), a.tension_product.values())
        );
        assert_eq!(
            (vul.as_slice(), dir.as_slice()),
            (a.vulnerability.values(), a.directed_vulnerability.values())
        );
    }
}
