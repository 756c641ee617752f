//! `[propagation]` end to end: diffusion, its steady state and the chase flood fill give
//! exactly what the library computes directly, and the summary reports the chase's guess.

mod common;

use influence::Cell;
use std::path::Path;

use common::{influence_ok, read_npy, summary};
use influence::glam::{Vec2, Vec3};
use influence::propagate::{seeds_from_sources, Chase, Diffusion, FloodFill, Propagator, SteadyState, Steps};
use influence::{Connectivity, Falloff, Grid, Layer, Mode, Source, Stamper};

const ROWS: [&str; 6] =
    ["............", "..@@@@......", "..@.........", "..@...@@@@..", "......@.....", "............"];

/// A two-team scenario on `ROWS` with the given `[propagation]` keys.
fn scenario(propagation: &str) -> String {
    let rows: Vec<String> = ROWS.iter().map(|r| format!("\"{r}\"")).collect();
    format!(
        "[map]\nwidth = 12\nheight = 6\ncell_size = 2\nrows = [{}]\n\n\
         [[source]]\nteam = \"red\"\nat = [1, 1]\nstrength = 4\nfalloff = \"point\"\n\n\
         [[source]]\nteam = \"red\"\nat = [9, 9]\nstrength = 2\nfalloff = \"linear\"\nradius = 3\nmode = \"max\"\n\n\
         [[source]]\nteam = \"blue\"\nat = [23, 11]\nstrength = 3\nfalloff = \"point\"\n\n\
         [propagation]\n{propagation}\n",
        rows.join(", ")
    )
}

fn grid() -> Grid {
    Grid::from_rows(&ROWS).unwrap().with_cell_size(2.0).unwrap()
}

/// The scenario's sources per team, as the library sees them (modes as the scenario
/// resolves them: `set` by default under diffusion).
fn sources(grid: &Grid) -> [Vec<Source>; 2] {
    let red = vec![
        Source::new(Vec2::new(1.0, 1.0), 4.0, Falloff::Point, grid.cell_size()).unwrap().with_mode(Mode::Set),
        Source::new(Vec2::new(9.0, 9.0), 2.0, Falloff::Linear, 3.0).unwrap().with_mode(Mode::Max),
    ];
    let blue = vec![Source::new(Vec2::new(23.0, 11.0), 3.0, Falloff::Point, grid.cell_size())
        .unwrap()
        .with_mode(Mode::Set)];
    [red, blue]
}

fn render(text: &str, dir: &Path) -> String {
    let file = dir.join("scenario.toml");
    std::fs::write(&file, text).unwrap();
    influence_ok(&["render", file.to_str().unwrap(), "--out", dir.join("out").to_str().unwrap()])
}

fn layer(dir: &Path, name: &str) -> Vec<f32> {
    let (shape, values) = read_npy(&dir.join("out").join(format!("{name}.npy")));
    assert_eq!(shape, (6, 12));
    values
}

#[test]
fn diffusion_equals_the_propagator_stepped_directly() {
    let dir = tempfile::tempdir().unwrap();
    let stdout = render(
        &scenario("kind = \"diffuse\"\ndecay = 0.3\nmomentum = 0.7\nsteps = 9\nneighbours = 4"),
        dir.path(),
    );
    assert!(stdout.contains("propagation: diffuse, 4 neighbours, 9 steps"), "{stdout}");

    let grid = grid();
    let walk = grid.clone().with_connectivity(Connectivity::Four);
    let d = Diffusion::new(0.3, 0.7).unwrap();
    for (name, team) in ["red", "blue"].iter().zip(sources(&grid)) {
        let mut seeds = Vec::new();
        seeds_from_sources(&grid, &mut Stamper::new(), &team, &mut seeds).unwrap();
        let mut p = Propagator::new(&walk, d);
        for _ in 0..9 {
            p.write_seeds(&walk, &seeds).unwrap();
            p.step(&walk, Steps::default()).unwrap();
        }
        p.write_seeds(&walk, &seeds).unwrap();
        assert_eq!(layer(dir.path(), name), p.values().values(), "{name}");
    }
    // The compound maps are built from the diffused layers.
    let (red, blue, influence) =
        (layer(dir.path(), "red"), layer(dir.path(), "blue"), layer(dir.path(), "influence"));
    assert!(red.iter().zip(&blue).zip(&influence).all(|((r, b), i)| *i == r - b));
    let s = summary(&dir.path().join("out"));
    assert_eq!(s["map"]["neighbours"], 8, "the map keeps its own connectivity");
    assert_eq!(s["propagation"]["neighbours"], 4);
    assert_eq!(s["propagation"]["steps"], 9);
}

#[test]
fn steady_state_equals_the_solver_and_long_diffusion() {
    let dir = tempfile::tempdir().unwrap();
    render(&scenario("kind = \"steady\"\ndecay = 0.25"), dir.path());
    let grid = grid();
    let d = Diffusion::new(0.25, 1.0).unwrap();
    for (name, team) in ["red", "blue"].iter().zip(sources(&grid)) {
        let mut seeds = Vec::new();
        seeds_from_sources(&grid, &mut Stamper::new(), &team, &mut seeds).unwrap();
        let mut expected = Layer::for_space(&grid);
        SteadyState::default().solve(&grid, &d, &seeds, &mut expected).unwrap();
        assert_eq!(layer(dir.path(), name), expected.values(), "{name}");
    }
    // With momentum 1, enough diffusion steps reach the steady state bit for bit.
    let long = tempfile::tempdir().unwrap();
    render(&scenario("kind = \"diffuse\"\ndecay = 0.25\nsteps = 60"), long.path());
    for name in ["red", "blue", "influence"] {
        assert_eq!(layer(dir.path(), name), layer(long.path(), name), "{name}");
    }
    assert!(summary(&dir.path().join("out"))["propagation"]["steps"].is_null());
}

#[test]
fn flood_writes_heat_and_reports_its_guess() {
    let dir = tempfile::tempdir().unwrap();
    let keys = "kind = \"flood\"\nlast_seen = [9, 5]\nvelocity = [1, 0]\ncooling = 0.2\nmax_steps = 4\nbarrier_radius = 4";
    let stdout = render(&scenario(keys), dir.path());
    let grid = grid();
    let mut fill = FloodFill::default();
    let start = grid.index(Cell::new(4, 2)).unwrap();
    let p = fill.predict(&grid, start, Vec3::X, &Chase::new(0.2, usize::MAX, 4, 4.0).unwrap()).unwrap();
    assert_eq!(layer(dir.path(), "heat"), fill.heat());
    // The team layers are stamped as usual: `add` by default, `max` as written.
    let [mut red, _] = sources(&grid);
    red[0] = red[0].clone().with_mode(Mode::Add);
    let mut expected = Layer::for_space(&grid);
    Stamper::new().stamp_all(&grid, &mut expected, &red).unwrap();
    assert_eq!(layer(dir.path(), "red"), expected.values());

    let s = summary(&dir.path().join("out"));
    let pr = &s["propagation"]["prediction"];
    let Cell { x, y } = grid.cell(p.cell);
    assert_eq!(pr["cell"], serde_json::json!([x, y]));
    assert_eq!(pr["last_seen"], serde_json::json!([4, 2]));
    assert_eq!(
        pr["world"],
        serde_json::json!([grid.center(Cell::new(x, y)).x, grid.center(Cell::new(x, y)).y])
    );
    assert_eq!(pr["steps"], 4);
    assert_eq!(pr["stop"], "max_steps");
    assert_eq!(pr["warm"], p.warm);
    assert!(x > 4, "running right: the guess lies ahead");
    assert!(stdout.contains(&format!("predicted cell ({x}, {y})")), "{stdout}");
    assert!(s["layers"].as_array().unwrap().iter().any(|l| l == "heat"));
}
