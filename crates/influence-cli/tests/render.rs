//! `influence render` end to end on the example scenarios: the files appear, the arrays
//! equal what the library computes directly, and `summary.json` tells the truth.

mod common;

use influence::Cell;
use std::path::Path;

use common::{influence_ok, read_npy, repo, summary};
use influence::{glam::Vec2, Falloff, Grid, Layer, Metric, Source, Stamper};

fn render(scenario: &str, out: &Path) -> String {
    influence_ok(&["render", repo(scenario).to_str().unwrap(), "--out", out.to_str().unwrap()])
}

/// The layer names of `summary.json`, and each written as `.png` and `.npy`.
fn layers_written(out: &Path) -> Vec<String> {
    let names: Vec<String> =
        summary(out)["layers"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_owned()).collect();
    for name in &names {
        for ext in ["png", "npy"] {
            let file = out.join(format!("{name}.{ext}"));
            assert!(file.metadata().is_ok_and(|m| m.len() > 0), "{} missing", file.display());
        }
    }
    names
}

#[test]
fn london_example_equals_the_library() {
    let out = tempfile::tempdir().unwrap();
    let stdout = render("examples/scenarios/london.toml", out.path());
    assert!(stdout.contains("front length"), "{stdout}");
    let names = layers_written(out.path());
    assert_eq!(
        names,
        ["north", "south", "influence", "tension", "tension_product", "vulnerability", "frontline"]
    );

    // The north squad, straight from the library.
    let grid = Grid::load_movingai(repo("data/maps/London_0_512.map")).unwrap().with_cell_size(2.0).unwrap();
    let north = [
        Source::new(Vec2::new(121.0, 501.0), 8.0, Falloff::Linear, 120.0).unwrap(),
        Source::new(Vec2::new(301.0, 461.0), 8.0, Falloff::Exponential { rate: 0.02 }, 150.0).unwrap(),
        Source::new(Vec2::new(521.0, 481.0), 6.0, Falloff::Halving { step: 40.0 }, 160.0).unwrap(),
        Source::new(Vec2::new(661.0, 461.0), 5.0, Falloff::Polynomial { power: 2.0 }, 200.0)
            .unwrap()
            .with_metric(Metric::Path),
    ];
    let mut expected = Layer::for_space(&grid);
    Stamper::new().stamp_all(&grid, &mut expected, &north).unwrap();
    let (shape, values) = read_npy(&out.path().join("north.npy"));
    assert_eq!(shape, (512, 512));
    assert_eq!(values, expected.values());

    // influence = north − south, cell by cell; the front is a 0/1 mask that is not empty.
    let (_, south) = read_npy(&out.path().join("south.npy"));
    let (_, influence) = read_npy(&out.path().join("influence.npy"));
    for i in [grid.index(Cell::new(60, 250)).unwrap(), grid.index(Cell::new(200, 420)).unwrap(), 0] {
        assert_eq!(influence[i], values[i] - south[i]);
    }
    let (_, front) = read_npy(&out.path().join("frontline.npy"));
    assert!(front.iter().all(|&f| f == 0.0 || f == 1.0));
    assert!(front.contains(&1.0));

    let s = summary(out.path());
    assert_eq!(s["map"]["width"], 512);
    assert_eq!(s["map"]["height"], 512);
    assert_eq!(s["map"]["cell_size"], 2.0);
    assert_eq!(s["perspective"], "north");
    assert_eq!(s["teams"][0]["name"], "north");
    assert_eq!(s["teams"][0]["sources"], 4);
    assert_eq!(s["teams"][1]["sources"], 5);
    assert!((s["teams"][0]["total"].as_f64().unwrap() - expected.sum()).abs() < 1e-6);
    assert!(s["front_length"].as_f64().unwrap() > 0.0);
    // The hottest tension is the largest tension over walkable cells, and sits where it says.
    let (_, tension) = read_npy(&out.path().join("tension.npy"));
    let walkable = |i: &usize| !grid.blocked()[*i];
    let hottest = (0..tension.len()).filter(walkable).map(|i| tension[i]).fold(f32::MIN, f32::max);
    let spot = &s["hottest_tension"];
    assert_eq!(spot["value"].as_f64().unwrap() as f32, hottest);
    let (x, y) = (spot["cell"][0].as_u64().unwrap() as usize, spot["cell"][1].as_u64().unwrap() as usize);
    assert_eq!(tension[grid.index(Cell::new(x, y)).unwrap()], hottest);
    assert_eq!(spot["world"][0].as_f64().unwrap() as f32, grid.center(Cell::new(x, y)).x);
}

#[test]
fn outpost_example_covers_teams_perspective_and_notes() {
    let out = tempfile::tempdir().unwrap();
    render("examples/scenarios/outpost.toml", out.path());
    assert_eq!(layers_written(out.path()).len(), 11);
    let layer = |name: &str| {
        let (shape, values) = read_npy(&out.path().join(format!("{name}.npy")));
        assert_eq!(shape, (10, 24), "{name}");
        values
    };
    let (red, blue, green) = (layer("red"), layer("blue"), layer("green"));
    // Seen from blue: mine is blue, theirs red + green, influence the difference.
    assert_eq!(layer("mine"), blue);
    let (theirs, influence) = (layer("theirs"), layer("influence"));
    for i in 0..blue.len() {
        assert_eq!(theirs[i], red[i] + green[i]);
        assert_eq!(influence[i], blue[i] - theirs[i]);
    }
    // Blocked cells hold nothing; the beacon set its own cell to at least 3.
    assert_eq!(red[3 * 24 + 8], 0.0, "cell (8, 3) is a tree");
    assert!(red[2 * 24 + 7] >= 3.0);

    let s = summary(out.path());
    assert_eq!(s["perspective"], "blue");
    assert_eq!(s["map"]["neighbours"], 4);
    assert_eq!(s["map"]["origin"], serde_json::json!([100.0, 200.0]));
    let teams: Vec<&str> =
        s["teams"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(teams, ["red", "blue", "green"]);
    // Blue's safest cell is where blue − the others is highest (positive, so no blocked
    // cell's zero can be the maximum).
    let best = influence.iter().copied().fold(f32::MIN, f32::max);
    assert!(best > 0.0);
    assert_eq!(s["teams"][1]["safest"]["value"].as_f64().unwrap() as f32, best);
    let notes = s["notes"].as_array().unwrap();
    assert!(notes.len() == 1 && notes[0].as_str().unwrap().contains("source[6]"), "{notes:?}");
    // The off-map source still reaches the corner of the map.
    assert!(green[9 * 24 + 23] > 0.0);
}

#[test]
fn npy_files_load_in_numpy_when_available() {
    let has_numpy = std::process::Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_numpy {
        eprintln!("skipped: python3 with numpy is not available");
        return;
    }
    let out = tempfile::tempdir().unwrap();
    render("examples/scenarios/outpost.toml", out.path());
    let script = "import numpy, sys\n\
                  a = numpy.load(sys.argv[1])\n\
                  assert a.dtype == numpy.float32 and a.shape == (10, 24), (a.dtype, a.shape)\n\
                  print(repr(float(a[4, 2])))";
    let path = out.path().join("red.npy");
    let result =
        std::process::Command::new("python3").args(["-c", script, path.to_str().unwrap()]).output().unwrap();
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
    let (_, red) = read_npy(&path);
    let printed: f32 = String::from_utf8(result.stdout).unwrap().trim().parse().unwrap();
    assert_eq!(printed, red[4 * 24 + 2]);
}

#[test]
fn scenario_docs_examples_are_valid() {
    let doc = std::fs::read_to_string(repo("docs/scenario.md")).unwrap();
    let blocks: Vec<&str> = doc.split("```toml\n").skip(1).map(|b| b.split("```").next().unwrap()).collect();
    assert!(blocks.len() >= 3);
    let maps = repo("data/maps/");
    for block in blocks {
        // Fragments get a map or a source to make them whole; the map path is made absolute.
        let mut text = block.replace("../data/maps/", &format!("{}/", maps.display()));
        if !text.contains("[map]") {
            text = format!("[map]\nwidth = 200\nheight = 300\n{text}");
        }
        if !text.contains("[[source]]") {
            text.push_str("\n[[source]]\nteam = \"red\"\nat = [1, 1]\nstrength = 1\nfalloff = \"point\"\n");
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("doc.toml");
        std::fs::write(&file, &text).unwrap();
        let out =
            common::influence(&["render", file.to_str().unwrap(), "--out", dir.path().to_str().unwrap()]);
        assert!(out.status.success(), "{}\n{text}", String::from_utf8_lossy(&out.stderr));
    }
}
