//! `[field]`: grid-free sources sampled at the map's cell centres and added to their teams'
//! layers — equal to the library's `Field::sample_onto` computed directly.

mod common;

use std::path::Path;

use common::{influence_ok, read_npy, summary};
use influence::field::{Curve, Field, PointSource};
use influence::glam::{Vec2, Vec3};
use influence::{Falloff, Grid, Layer, Source, Stamper};

const MAP: &str = "[map]\nwidth = 16\nheight = 8\ncell_size = 2\norigin = [-4, 0]\n\
                   rows = [\"................\", \"....@@@@........\", \"................\", \"................\", \
                   \"................\", \"..........@.....\", \"................\", \"................\"]\n";

fn grid() -> Grid {
    let rows = [
        "................",
        "....@@@@........",
        "................",
        "................",
        "................",
        "..........@.....",
        "................",
        "................",
    ];
    Grid::from_rows(&rows).unwrap().with_cell_size(2.0).unwrap().with_origin(Vec2::new(-4.0, 0.0)).unwrap()
}

fn render(text: &str, dir: &Path) -> String {
    let file = dir.join("scenario.toml");
    std::fs::write(&file, text).unwrap();
    influence_ok(&["render", file.to_str().unwrap(), "--out", dir.join("out").to_str().unwrap()])
}

fn npy(dir: &Path, name: &str) -> Vec<f32> {
    let (shape, values) = read_npy(&dir.join("out").join(format!("{name}.npy")));
    assert_eq!(shape, (8, 16));
    values
}

#[test]
fn a_field_only_scenario_equals_sample_onto() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{MAP}\n[[field.source]]\nteam = \"red\"\nat = [6, 5]\nstrength = 3\nradius = 10\nfalloff = \"smooth\"\n\n\
         [[field.source]]\nteam = \"red\"\nat = [14.5, 9]\nstrength = -1.5\nradius = 7\nfalloff = \"polynomial\"\npower = 2\n\n\
         [[field.source]]\nteam = \"blue\"\nat = [20, 12]\nstrength = 4\nradius = 9\nfalloff = \"exponential\"\nrate = 0.2\n"
    );
    let stdout = render(&text, dir.path());
    assert!(stdout.contains("red (0 sources, 2 field sources)"), "{stdout}");
    let grid = grid();
    let red = Field::new(vec![
        PointSource::new(Vec2::new(6.0, 5.0), 3.0, 10.0, Curve::Smooth).unwrap(),
        PointSource::new(Vec2::new(14.5, 9.0), -1.5, 7.0, Curve::Polynomial { power: 2.0 }).unwrap(),
    ]);
    let blue =
        Field::new(vec![
            PointSource::new(Vec2::new(20.0, 12.0), 4.0, 9.0, Curve::Exponential { rate: 0.2 }).unwrap()
        ]);
    for (name, field) in [("red", red), ("blue", blue)] {
        let mut expected = Layer::for_space(&grid);
        field.sample_onto(&grid, 0.0, &mut expected);
        assert_eq!(npy(dir.path(), name), expected.values(), "{name}");
        assert!(expected.values().iter().any(|&v| v != 0.0));
    }
    let s = summary(&dir.path().join("out"));
    assert_eq!(s["teams"][0]["sources"], 0);
    assert_eq!(s["teams"][0]["field_sources"], 2);
}

#[test]
fn field_layers_add_to_stamped_ones_and_3d_fields_sample_at_z() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{MAP}\n[[source]]\nteam = \"blue\"\nat = [4, 4]\nstrength = 2\nfalloff = \"linear\"\nradius = 6\n\n\
         [field]\ndimensions = 3\nz = 2.5\n\n\
         [[field.source]]\nteam = \"blue\"\nat = [8, 6, 4]\nstrength = 5\nradius = 8\nfalloff = \"gaussian\"\nsigma = 3\n\n\
         [[field.source]]\nteam = \"green\"\nat = [18, 10, 0]\nstrength = 1\nradius = 5\nfalloff = \"linear\"\n"
    );
    render(&text, dir.path());
    let grid = grid();
    let mut stamped = Layer::for_space(&grid);
    let tank = Source::new(Vec2::new(4.0, 4.0), 2.0, Falloff::Linear, 6.0).unwrap();
    Stamper::new().stamp(&grid, &mut stamped, &tank).unwrap();
    let field = Field::new(vec![PointSource::new(
        Vec3::new(8.0, 6.0, 4.0),
        5.0,
        8.0,
        Curve::Gaussian { sigma: 3.0 },
    )
    .unwrap()]);
    let mut sampled = Layer::for_space(&grid);
    field.sample_onto(&grid, 2.5, &mut sampled);
    stamped.zip_map(&sampled, |a, b| a + b);
    assert_eq!(npy(dir.path(), "blue"), stamped.values());
    let s = summary(&dir.path().join("out"));
    let teams: Vec<&str> =
        s["teams"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(teams, ["blue", "green"], "grid sources' teams first, then the field's");
    // The compound maps see the field: influence = blue − green.
    let (blue, green, influence) =
        (npy(dir.path(), "blue"), npy(dir.path(), "green"), npy(dir.path(), "influence"));
    assert!(green.iter().any(|&v| v > 0.0));
    assert!(blue.iter().zip(&green).zip(&influence).all(|((b, g), i)| *i == b - g));
}
