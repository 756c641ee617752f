//! Pictures that explain themselves: each part of a figure is checked on the pixels the
//! command writes — the title and step counter, the colour bar, the legend with each team's
//! colour, team colours from `color` or the palette (the same in every picture), marker
//! shapes, the front line in a colour nothing else uses, the chase's marks — and `--plain`
//! gives the bare map.

mod common;

use std::path::Path;

use common::{influence_ok, read_npy, repo};
use influence::render::figure::{BACKGROUND, FRONT_COLOR, LAST_SEEN_COLOR, PREDICTED_COLOR};
use influence_scenario::color::PALETTE;

/// The figure's layout, as `render::figure` draws it: the title band above the map, the
/// colour bar's band below it.
const TITLE_BAND: u32 = 28;
const BAR_BAND: u32 = 55;

struct Picture {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Picture {
    fn read(path: &Path) -> Self {
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb, "{}", path.display());
        pixels.truncate(info.buffer_size());
        Self { width: info.width, height: info.height, pixels }
    }

    fn at(&self, x: u32, y: u32) -> [u8; 3] {
        let i = 3 * (y * self.width + x) as usize;
        [self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]]
    }

    /// Pixels of colour `c` in rows `rows`.
    fn count(&self, rows: std::ops::Range<u32>, c: [u8; 3]) -> usize {
        rows.flat_map(|y| (0..self.width).map(move |x| (x, y))).filter(|&(x, y)| self.at(x, y) == c).count()
    }
}

/// Renders `scenario` (a path from the repository root, or TOML text written to a file in
/// `dir`) into `dir/<name>`, with `extra` flags.
fn render(dir: &Path, scenario: &str, name: &str, extra: &[&str]) -> std::path::PathBuf {
    let file = if scenario.contains('\n') {
        let f = dir.join(format!("{name}.toml"));
        std::fs::write(&f, scenario).unwrap();
        f
    } else {
        repo(scenario)
    };
    let out = dir.join(name);
    let mut args = vec!["render", file.to_str().unwrap(), "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    influence_ok(&args);
    out
}

/// Two teams without colours, facing each other across an open map, markers on.
const TWO_TEAMS: &str = r#"[map]
width = 40
height = 20

[[source]]
team = "north"
at = [8, 10]
strength = 5
falloff = "linear"
radius = 30

[[source]]
team = "south"
at = [32, 10]
strength = 5
falloff = "linear"
radius = 30

[output]
upscale = 8
markers = MARKERS
"#;

/// Where the map lies in a figure whose bare picture is `plain`: its left, top, width and
/// height.
fn map_box(figure: &Picture, plain: &Picture) -> (u32, u32, u32, u32) {
    ((figure.width - plain.width) / 2, TITLE_BAND, plain.width, plain.height)
}

#[test]
fn plain_is_the_bare_map_and_a_figure_frames_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = TWO_TEAMS.replace("MARKERS", "false");
    let plain = Picture::read(&render(dir.path(), &text, "plain", &["--plain"]).join("north.png"));
    assert_eq!((plain.width, plain.height), (40 * 8, 20 * 8));
    let fig = Picture::read(&render(dir.path(), &text, "fig", &[]).join("north.png"));
    let (x0, y0, w, h) = map_box(&fig, &plain);
    assert!(fig.width >= w && fig.height > h + TITLE_BAND + BAR_BAND);
    // The map is the bare picture's, pixel for pixel, when nothing is drawn over it.
    for (x, y) in [(0, 0), (w / 2, h / 2), (w - 1, h - 1), (37, 101)] {
        assert_eq!(fig.at(x0 + x, y0 + y), plain.at(x, y), "({x}, {y})");
    }
    // The title band and the colour bar's band hold more than the frame's background.
    assert!(fig.count(0..TITLE_BAND, BACKGROUND) < (fig.width * TITLE_BAND) as usize - 100);
    let bar = y0 + h..y0 + h + BAR_BAND;
    assert!(fig.count(bar.clone(), BACKGROUND) < (fig.width * BAR_BAND) as usize - 2000);
}

#[test]
fn the_legend_shows_every_team_in_the_same_colour_in_every_picture() {
    let dir = tempfile::tempdir().unwrap();
    let out = render(dir.path(), &TWO_TEAMS.replace("MARKERS", "true"), "two", &[]);
    let plain = render(dir.path(), &TWO_TEAMS.replace("MARKERS", "true"), "plain", &["--plain"]);
    let map_h = Picture::read(&plain.join("north.png")).height;
    let legend = TITLE_BAND + map_h + BAR_BAND;
    for layer in ["north", "south", "influence", "tension", "vulnerability", "frontline"] {
        let fig = Picture::read(&out.join(format!("{layer}.png")));
        for (team, color) in PALETTE[..2].iter().enumerate() {
            // The team's shape and its name, in its colour.
            assert!(fig.count(legend..fig.height, *color) > 40, "{layer}: team {team} in the legend");
            // Its markers on the map.
            assert!(fig.count(TITLE_BAND..TITLE_BAND + map_h, *color) > 20, "{layer}: team {team} markers");
        }
    }
    // The bare pictures keep the old marker colours, not the teams'.
    let bare = Picture::read(&plain.join("north.png"));
    assert_eq!(bare.count(0..bare.height, PALETTE[1]), 0);
}

#[test]
fn a_color_key_sets_the_teams_colour() {
    let dir = tempfile::tempdir().unwrap();
    let custom = [0x20, 0xc0, 0xc0];
    let text = TWO_TEAMS.replace("MARKERS", "true").replacen(
        "team = \"south\"",
        "team = \"south\"\ncolor = \"#20C0C0\"",
        1,
    );
    let fig = Picture::read(&render(dir.path(), &text, "custom", &[]).join("influence.png"));
    let bare = Picture::read(
        &render(dir.path(), &TWO_TEAMS.replace("MARKERS", "true"), "bare", &[]).join("influence.png"),
    );
    let all = |p: &Picture| p.height;
    assert!(fig.count(0..all(&fig), custom) > 60);
    assert_eq!(fig.count(0..all(&fig), PALETTE[1]), 0, "south no longer takes the palette");
    assert_eq!(bare.count(0..all(&bare), custom), 0);
}

#[test]
fn markers_of_two_teams_differ_in_shape() {
    let dir = tempfile::tempdir().unwrap();
    // Both teams the same colour: only the shape tells them apart.
    let text = TWO_TEAMS
        .replace("MARKERS", "true")
        .replacen("team = \"north\"", "team = \"north\"\ncolor = \"#20c0c0\"", 1)
        .replacen("team = \"south\"", "team = \"south\"\ncolor = \"#20c0c0\"", 1);
    let out = render(dir.path(), &text, "shapes", &[]);
    let fig = Picture::read(&out.join("tension.png"));
    let plain = Picture::read(&render(dir.path(), &text, "plain", &["--plain"]).join("tension.png"));
    let (x0, y0, ..) = map_box(&fig, &plain);
    // The sources are at world (8, 10) and (32, 10): 8 pixels per unit puts them at (64, 80)
    // and (256, 80) on the map.
    let shape = |cx: u32| -> Vec<bool> {
        let mut mask = Vec::new();
        for dy in 0..13 {
            for dx in 0..13 {
                mask.push(fig.at(x0 + cx + dx - 6, y0 + 80 + dy - 6) == [0x20, 0xc0, 0xc0]);
            }
        }
        mask
    };
    let (a, b) = (shape(64), shape(256));
    assert!(a.iter().filter(|&&m| m).count() > 20 && b.iter().filter(|&&m| m).count() > 20);
    assert_ne!(a, b, "the two teams' markers have the same shape");
}

#[test]
fn the_front_line_has_a_colour_of_its_own_over_a_faded_map() {
    let dir = tempfile::tempdir().unwrap();
    let text = TWO_TEAMS.replace("MARKERS", "false");
    let out = render(dir.path(), &text, "front", &[]);
    let plain = Picture::read(&render(dir.path(), &text, "plain", &["--plain"]).join("influence.png"));
    let (_, front) = read_npy(&out.join("frontline.npy"));
    assert!(front.iter().any(|&f| f > 0.0));
    for layer in ["influence", "frontline"] {
        let fig = Picture::read(&out.join(format!("{layer}.png")));
        let (x0, y0, w, h) = map_box(&fig, &plain);
        for y in 0..y0 + h + BAR_BAND {
            for x in 0..fig.width {
                let inside = (x0..x0 + w).contains(&x) && (y0..y0 + h).contains(&y);
                let on_front = inside && front[((y - y0) / 8 * 40 + (x - x0) / 8) as usize] > 0.0;
                assert_eq!(fig.at(x, y) == FRONT_COLOR, on_front, "{layer} ({x}, {y})");
            }
        }
        // And the legend names it.
        assert!(fig.count(y0 + h + BAR_BAND..fig.height, FRONT_COLOR) > 20);
    }
    // frontline.png shows the influence faded: lighter than influence.png away from the front.
    let (bold, faint) =
        (Picture::read(&out.join("influence.png")), Picture::read(&out.join("frontline.png")));
    let (x0, y0, ..) = map_box(&bold, &plain);
    let (b, f) = (bold.at(x0 + 60, y0 + 80), faint.at(x0 + 60, y0 + 80));
    assert!(f.iter().zip(&b).all(|(f, b)| f >= b) && f != b, "{b:?} {f:?}");
    // The bare picture draws the front line black, as before.
    assert_eq!(plain.count(0..plain.height, FRONT_COLOR), 0);
}

#[test]
fn a_chase_marks_its_last_seen_and_predicted_cells() {
    let dir = tempfile::tempdir().unwrap();
    let out = render(dir.path(), "examples/scenarios/chase.toml", "chase", &[]);
    let plain = Picture::read(
        &render(dir.path(), "examples/scenarios/chase.toml", "plain", &["--plain"]).join("heat.png"),
    );
    let fig = Picture::read(&out.join("heat.png"));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let prediction = &summary["propagation"]["prediction"];
    let cell = |key: &str| {
        (prediction[key][0].as_u64().unwrap() as u32, prediction[key][1].as_u64().unwrap() as u32)
    };
    let (x0, y0, w, h) = map_box(&fig, &plain);
    let s = w / 32;
    // The centre of mass of each mark's pixels in the map is its cell's centre.
    for (key, color) in [("last_seen", LAST_SEEN_COLOR), ("cell", PREDICTED_COLOR)] {
        let (cx, cy) = cell(key);
        let (mut n, mut sx, mut sy) = (0u32, 0u32, 0u32);
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                if fig.at(x, y) == color {
                    (n, sx, sy) = (n + 1, sx + x - x0, sy + y - y0);
                }
            }
        }
        assert!(n > 20, "{key}: {n} pixels");
        let (mx, my) = (sx / n, sy / n);
        assert!(
            mx.abs_diff(cx * s + s / 2) <= 2 && my.abs_diff(cy * s + s / 2) <= 2,
            "{key} at ({mx}, {my})"
        );
        assert_eq!(plain.count(0..plain.height, color), 0, "{key} in the bare picture");
    }
}

#[test]
fn animation_frames_count_their_steps() {
    let dir = tempfile::tempdir().unwrap();
    let spread = repo("examples/scenarios/spread.toml");
    let out = dir.path().join("fig");
    let o = out.to_str().unwrap();
    influence_ok(&[
        "animate",
        spread.to_str().unwrap(),
        "--out",
        o,
        "--png",
        "--gif",
        "--every",
        "5",
        "--frames",
        "3",
    ]);
    let frames: Vec<Picture> =
        (0..3).map(|i| Picture::read(&out.join(format!("frame-{i:04}.png")))).collect();
    // Only the counter changes in the title band; the colour bar stays (one scale).
    for pair in frames.windows(2) {
        let band = |p: &Picture| p.pixels[..(3 * p.width * TITLE_BAND) as usize].to_vec();
        assert!(band(&pair[0]) != band(&pair[1]), "the step counter is the same");
        // Below the map (16 rows of 8 pixels): the colour bar and the legend, the same.
        let below = |p: &Picture| p.pixels[(3 * p.width * (TITLE_BAND + 16 * 8)) as usize..].to_vec();
        assert!(below(&pair[0]) == below(&pair[1]), "the colour bar or legend changed");
    }
    let bare = dir.path().join("bare");
    influence_ok(&[
        "animate",
        spread.to_str().unwrap(),
        "--out",
        bare.to_str().unwrap(),
        "--png",
        "--frames",
        "1",
        "--plain",
    ]);
    let plain = Picture::read(&bare.join("frame-0000.png"));
    assert_eq!((plain.width, plain.height), (32 * 8, 16 * 8));
    // The GIF holds the figures too.
    let decoder =
        gif::DecodeOptions::new().read_info(std::fs::File::open(out.join("influence.gif")).unwrap()).unwrap();
    assert_eq!(
        (u32::from(decoder.width()), u32::from(decoder.height())),
        (frames[0].width, frames[0].height)
    );
}
