//! README.md's library example, run as written: the block under "## The library" must be
//! the lines between the markers below, line for line, so the README cannot drift from code
//! that compiles and runs. It runs from the workspace root, where its map path points.

use std::path::Path;

#[test]
#[rustfmt::skip] // the README's layout, aligned comments included
fn the_library_example_runs() -> Result<(), influence::Error> {
    std::env::set_current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")).unwrap();
    // README: start
    use influence::{query, Analysis, Cell, Extreme, Falloff, Grid, Layer, Metric, Source, Stamper};

    let grid = Grid::load_movingai("data/maps/den012d.map")?;            // or Grid::new(200, 200)?.with_cell_size(2.56)?
    let mut stamper = Stamper::new();                                     // keeps kernels between frames
    let (mut red, mut blue) = (Layer::for_space(&grid), Layer::for_space(&grid));
    let tank = Source::new(grid.center(Cell::new(60, 200)), 5.0, Falloff::Linear, 24.0)?;
    let scout = Source::new(grid.center(Cell::new(250, 150)), 2.0, Falloff::Linear, 40.0)?.with_metric(Metric::Path);
    stamper.stamp(&grid, &mut red, &tank);                                // any space: grids, graphs
    stamper.stamp(&grid, &mut blue, &scout);
    let maps = Analysis::from_teams(&red, &[&blue]);                      // red's view: influence, tension, vulnerability, …
    let safest = query::extreme(&grid, &maps.influence, Extreme::Highest);
    // README: end
    assert!(safest.is_some());
    Ok(())
}

#[test]
fn the_readme_shows_the_example_as_tested() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).unwrap();
    let section = &readme[readme.find("## The library").expect("README has \"## The library\"")..];
    let block = section.split("```rust\n").nth(1).and_then(|b| b.split("```").next()).expect("a rust block");
    let here = include_str!("readme.rs");
    let tested: String = here
        .split("// README: start\n")
        .nth(1)
        .and_then(|t| t.split("    // README: end").next())
        .unwrap()
        .lines()
        .map(|l| format!("{}\n", l.strip_prefix("    ").unwrap_or(l)))
        .collect();
    assert_eq!(block, tested, "README.md's library example differs from the code this test runs");
}
