//! Finding cells from world points, for any space that can: the cell a point stands on and
//! the cells within a straight-line radius of it. [`Stamper`](crate::Stamper)
//! places sources through it, so one stamping function serves grids and graphs.

use glam::Vec3;

use super::{Graph, Grid, Space};

/// A [`Space`] whose cells can be found from world points.
pub trait Locate: Space {
    /// The walkable cell a world point belongs to: on a [`Grid`] the cell containing it (its
    /// `z` ignored), `None` outside the grid or on a wall; on a [`Graph`] the nearest
    /// walkable node in 3D ([`Graph::nearest`]).
    fn locate(&self, p: Vec3) -> Option<usize>;

    /// Calls `visit(i)` for every walkable cell whose position lies within straight-line
    /// (3D) `radius` of `p`, inclusive, in no particular order. The default scans every cell.
    fn for_each_within(&self, p: Vec3, radius: f32, mut visit: impl FnMut(usize)) {
        let r2 = radius * radius;
        for i in (0..self.len()).filter(|&i| self.is_walkable(i)) {
            if self.position(i).distance_squared(p) <= r2 {
                visit(i);
            }
        }
    }
}

impl Locate for Grid {
    fn locate(&self, p: Vec3) -> Option<usize> {
        self.index_at(p.truncate()).filter(|&i| self.is_walkable(i))
    }

    /// Scans only the square of cells around `p` that can hold the disc.
    fn for_each_within(&self, p: Vec3, radius: f32, mut visit: impl FnMut(usize)) {
        if !p.is_finite() || radius.is_nan() || radius < 0.0 {
            return;
        }
        let (lo, hi) = (self.to_cell_space(p.truncate() - radius), self.to_cell_space(p.truncate() + radius));
        let span = |a: f32, b: f32, n: usize| {
            let first = a.floor().clamp(0.0, n as f32) as usize;
            let end = (b.floor() + 1.0).clamp(0.0, n as f32) as usize;
            first..end
        };
        let r2 = radius * radius;
        for y in span(lo.y, hi.y, self.height()) {
            for x in span(lo.x, hi.x, self.width()) {
                let i = y * self.width() + x;
                if self.is_walkable(i) && self.position(i).distance_squared(p) <= r2 {
                    visit(i);
                }
            }
        }
    }
}

impl Locate for Graph {
    fn locate(&self, p: Vec3) -> Option<usize> {
        self.nearest(p)
    }

    /// An R*-tree range query ([`Graph::for_each_within`]).
    fn for_each_within(&self, p: Vec3, radius: f32, visit: impl FnMut(usize)) {
        Graph::for_each_within(self, p, radius, visit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn within<L: Locate>(space: &L, p: Vec3, r: f32) -> Vec<usize> {
        let mut out = Vec::new();
        space.for_each_within(p, r, |i| out.push(i));
        out.sort_unstable();
        out
    }

    #[test]
    fn grid_window_equals_the_full_scan() {
        let grid =
            Grid::from_rows(&["......", "..@...", "......", "....@."]).unwrap().with_cell_size(1.5).unwrap();
        for (p, r) in [
            (Vec3::new(3.0, 2.0, 0.0), 2.2),
            (Vec3::new(-1.0, 0.0, 0.0), 3.0),
            (Vec3::new(8.9, 5.9, 0.0), 0.1),
        ] {
            let mut scan = Vec::new();
            for i in (0..grid.len()).filter(|&i| grid.is_walkable(i)) {
                if grid.position(i).distance_squared(p) <= r * r {
                    scan.push(i);
                }
            }
            assert_eq!(within(&grid, p, r), scan, "{p} {r}");
        }
        assert_eq!(grid.locate(Vec3::new(5.0, 2.0, 7.0)), grid.index(3, 1));
        assert_eq!(grid.locate(Vec3::new(3.5, 2.0, 0.0)), None); // the wall at (2, 1)
    }
}
