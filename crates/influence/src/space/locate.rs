//! Finding grid cells from world points fast: the cells within a straight-line radius
//! ([`Space::for_each_within`]), without scanning the whole grid.

use glam::Vec3;

use super::{Grid, Space};

/// [`Space::for_each_within`] on a grid: scans only the square of cells around `p` that can
/// hold the disc.
pub(super) fn grid_within(grid: &Grid, p: Vec3, radius: f32, mut visit: impl FnMut(usize)) {
    if !p.is_finite() || radius.is_nan() || radius < 0.0 {
        return;
    }
    let (lo, hi) = (grid.to_cell_space(p.truncate() - radius), grid.to_cell_space(p.truncate() + radius));
    let span = |a: f32, b: f32, n: usize| {
        let first = a.floor().clamp(0.0, n as f32) as usize;
        let end = (b.floor() + 1.0).clamp(0.0, n as f32) as usize;
        first..end
    };
    let r2 = radius * radius;
    for y in span(lo.y, hi.y, grid.height()) {
        for x in span(lo.x, hi.x, grid.width()) {
            let i = y * grid.width() + x;
            if grid.is_walkable(i) && grid.position(i).distance_squared(p) <= r2 {
                visit(i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn within<S: Space>(space: &S, p: Vec3, r: f32) -> Vec<usize> {
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
        assert_eq!(grid.locate(Vec3::new(5.0, 2.0, 7.0)), grid.index(crate::Cell::new(3, 1)));
        assert_eq!(grid.locate(Vec3::new(3.5, 2.0, 0.0)), None); // the wall at (2, 1)
    }
}
