//! Snapshots of small rendered maps: a 12 × 6 grid with a wall between two teams.

use influence::render::{render_rgb, render_text, RenderOptions, Scale};
use influence::{glam::Vec2, Grid, Layer};
use influence::{Cell, Space};

fn grid() -> Grid {
    Grid::from_rows(&[
        "............",
        ".....#......",
        ".....#......",
        ".....##.....",
        "............",
        "............",
    ])
    .unwrap()
}

/// Red (positive) around cell (2, 2), blue (negative) around cell (9, 3), each falling off
/// linearly to zero at 6 cells, as a stamped influence map would.
fn two_teams(grid: &Grid) -> Layer {
    let team = |x: usize, y: usize, at: Vec2| (6.0 - grid.center(Cell::new(x, y)).distance(at)).max(0.0);
    let mut layer = Layer::for_space(grid);
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            if !grid.is_blocked(Cell::new(x, y)) {
                let i = grid.index(Cell::new(x, y)).unwrap();
                layer[i] =
                    team(x, y, grid.center(Cell::new(2, 2))) - team(x, y, grid.center(Cell::new(9, 3)));
            }
        }
    }
    layer
}

/// Walkable cells whose sign differs from their right-hand neighbour's.
fn sign_changes(grid: &Grid, layer: &Layer) -> Vec<bool> {
    (0..grid.len())
        .map(|i| {
            let Cell { x, y } = grid.cell(i);
            grid.index(Cell::new(x + 1, y))
                .is_some_and(|j| !grid.blocked()[j] && (layer[i] > 0.0) != (layer[j] > 0.0))
        })
        .collect()
}

#[test]
fn influence_text_with_legend() {
    let grid = grid();
    let opts = RenderOptions { legend: true, ..Default::default() };
    insta::assert_snapshot!(render_text(&grid, &two_teams(&grid), &opts).unwrap());
}

#[test]
fn influence_text_with_front_line() {
    let grid = grid();
    let layer = two_teams(&grid);
    let opts = RenderOptions { frontline: Some(sign_changes(&grid, &layer)), ..Default::default() };
    insta::assert_snapshot!(render_text(&grid, &layer, &opts).unwrap());
}

#[test]
fn tension_text_sequential() {
    let grid = grid();
    let mut tension = two_teams(&grid);
    tension.map(f32::abs);
    let opts = RenderOptions { legend: true, ..Default::default() };
    insta::assert_snapshot!(render_text(&grid, &tension, &opts).unwrap());
}

#[test]
fn hand_set_values_on_a_fixed_scale() {
    let grid = grid();
    let mut layer = Layer::for_space(&grid);
    layer[grid.index(Cell::new(1, 1)).unwrap()] = 3.0;
    layer[grid.index(Cell::new(10, 4)).unwrap()] = -1.5;
    layer[grid.index(Cell::new(6, 0)).unwrap()] = f32::NAN;
    let opts =
        RenderOptions { scale: Some(Scale::Diverging { max_abs: 3.0 }), legend: true, ..Default::default() };
    insta::assert_snapshot!(render_text(&grid, &layer, &opts).unwrap());
}

/// The colours themselves, as hex per pixel, of a 3 × 2 corner of signed values at 2× size.
#[test]
fn rgb_pixels_upscaled() {
    let grid = Grid::from_rows(&["..#", "..."]).unwrap();
    let layer = Layer::from_vec(vec![-2.0, 0.0, 0.0, -1.0, 1.0, 2.0]);
    let image = render_rgb(&grid, &layer, &RenderOptions { upscale: 2, ..Default::default() }).unwrap();
    let rows: Vec<String> = image
        .pixels()
        .chunks(3 * image.width() as usize)
        .map(|row| {
            row.chunks(3)
                .map(|p| format!("{:02x}{:02x}{:02x}", p[0], p[1], p[2]))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    insta::assert_snapshot!(rows.join("\n"));
}
