//! Front-line cells: where control passes from one side to the other.

use super::check_len;
use crate::{layer::Layer, space::Space};

/// Marks the front line of a signed influence map ("Influence Maps I": the front is where
/// influence goes from positive to negative), one flag per cell, into `out`, which is resized
/// to the space; no allocation once it has the capacity, so a per-frame caller keeps one `Vec`.
///
/// A walkable cell is on the front when some walkable neighbour has the strictly opposite
/// sign and the cell is the nearer of the two to zero (|value| ≤ the neighbour's; equal:
/// both), so the line is one cell thick on the zero crossing. A cell holding exactly zero
/// is on the front when it has neighbours of both signs: it *is* the crossing. Zero cells
/// between a positive and a negative region that do not touch are no front: no contact.
///
/// ```
/// use influence::{query, Grid, Layer};
/// let grid = Grid::new(5, 1)?;
/// let influence = Layer::from_vec(vec![3.0, 1.0, -0.5, -2.0, -4.0]);
/// let mut front = Vec::new();
/// query::frontline_into(&grid, &influence, &mut front);
/// assert_eq!(front, vec![false, false, true, false, false]);
/// # Ok::<(), influence::Error>(())
/// ```
pub fn frontline_into<S: Space>(space: &S, layer: &Layer, out: &mut Vec<bool>) {
    check_len(space, layer);
    out.clear();
    out.resize(space.len(), false);
    for i in (0..space.len()).filter(|&i| space.is_walkable(i)) {
        let v = layer[i];
        let (mut pos, mut neg, mut nearer) = (false, false, false);
        space.for_each_neighbour(i, |j, _| {
            let w = layer[j];
            pos |= w > 0.0;
            neg |= w < 0.0;
            // Compare signs, not the product: tiny values could underflow to -0.
            nearer |= ((v > 0.0 && w < 0.0) || (v < 0.0 && w > 0.0)) && v.abs() <= w.abs();
        });
        out[i] = nearer || (v == 0.0 && pos && neg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Connectivity, Grid};

    fn marked(g: &Grid, l: &Layer) -> Vec<String> {
        let mut front = Vec::new();
        frontline_into(g, l, &mut front);
        front.chunks(g.width()).map(|r| r.iter().map(|&f| if f { 'F' } else { '.' }).collect()).collect()
    }

    #[test]
    fn one_cell_thick_on_the_smaller_side() {
        let g = Grid::new(6, 2).unwrap();
        let row = [5.0, 3.0, 1.0, -2.0, -4.0, -6.0];
        let l = Layer::from_vec(row.iter().chain(&row).copied().collect());
        assert_eq!(marked(&g, &l), vec!["..F...", "..F..."]);
        let l = Layer::from_vec([1.0, -1.0, -3.0].repeat(4));
        let g = Grid::new(3, 4).unwrap();
        assert_eq!(marked(&g, &l), vec!["FF.", "FF.", "FF.", "FF."]); // ties: both sides
    }

    #[test]
    fn zeros_on_the_crossing_count_and_empty_gaps_do_not() {
        let g = Grid::new(5, 1).unwrap();
        assert_eq!(marked(&g, &Layer::from_vec(vec![2.0, 1.0, 0.0, -1.0, -2.0])), vec!["..F.."]);
        assert_eq!(marked(&g, &Layer::from_vec(vec![2.0, 0.0, 0.0, 0.0, -2.0])), vec!["....."]);
        assert_eq!(marked(&g, &Layer::from_vec(vec![0.0, 0.0, 1.0, 1.0, f32::NAN])), vec!["....."]);
    }

    #[test]
    fn walls_separate_sides_and_reuse_keeps_the_buffer() {
        // Facing each other across a wall: no contact, no front.
        let g = Grid::from_rows(&[".@.", ".@.", ".@."]).unwrap();
        let l = Layer::from_vec([1.0, 0.0, -1.0].repeat(3));
        let mut out = vec![true; 2];
        frontline_into(&g, &l, &mut out);
        assert_eq!(out, vec![false; 9]);
        // Diagonal contact counts only where the space connects diagonally.
        let l = Layer::from_vec(vec![1.0, 2.0, 2.0, -1.0]);
        let g8 = Grid::from_rows(&["..", ".."]).unwrap();
        assert_eq!(marked(&g8, &l), vec!["F.", ".F"]);
        let g4 = g8.with_connectivity(Connectivity::Four);
        assert_eq!(marked(&g4, &l), vec!["..", ".F"]);
    }
}
