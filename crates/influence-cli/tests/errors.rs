//! Bad input: every class of mistake exits with code 2 and a message naming the file, the
//! line and the key — never a panic. Each case is a scenario, the line and key the message
//! must name, and a fragment of the explanation.

mod common;

use std::path::Path;

use common::{influence, summary};

/// A valid scenario; the cases below change one thing in it.
const BASE: &str = r#"[map]
width = 8
height = 4

[[source]]
team = "red"
at = [1, 1]
strength = 5
falloff = "linear"
radius = 4
"#;

/// `BASE` with `from` replaced by `to` (which must occur).
fn edit(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "{from:?}");
    BASE.replacen(from, to, 1)
}

/// Renders `text` as `scenario.toml` in `dir`; returns the exit code and standard error.
fn render_in(dir: &Path, text: &str) -> (Option<i32>, String) {
    let file = dir.join("scenario.toml");
    std::fs::write(&file, text).unwrap();
    let out = influence(&["render", file.to_str().unwrap(), "--out", dir.join("out").to_str().unwrap()]);
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

/// Asserts that each scenario fails with code 2 and `scenario.toml:<line>: <key>: ...<fragment>...`.
fn check(cases: &[(&str, usize, &str, &str)]) {
    for (text, line, key, fragment) in cases {
        let dir = tempfile::tempdir().unwrap();
        let (code, stderr) = render_in(dir.path(), text);
        assert_eq!(code, Some(2), "{key}: {stderr}");
        let place = if key.is_empty() {
            format!("scenario.toml:{line}: ")
        } else {
            format!("scenario.toml:{line}: {key}: ")
        };
        assert!(stderr.contains(&place), "expected {place:?} in:\n{stderr}");
        assert!(stderr.contains(fragment), "expected {fragment:?} in:\n{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn syntax_and_unknown_keys() {
    check(&[
        (&edit("strength = 5", "strength = = 5"), 8, "", "expected"),
        (
            &format!("colour = \"red\"\n{BASE}"),
            1,
            "colour",
            "unknown key `colour`; this table takes `map`, `perspective`, `on_blocked`, `source`",
        ),
        (&edit("width = 8", "widht = 8"), 2, "map.widht", "unknown key `widht`; did you mean `width`?"),
        (&edit("strength = 5", "strenght = 5"), 8, "source[0].strenght", "did you mean `strength`?"),
        (&format!("{BASE}\n[output]\nlayer = [\"red\"]\n"), 13, "output.layer", "did you mean `layers`?"),
        (&edit("strength = 5", "strength = \"strong\""), 8, "source[0].strength", "invalid type"),
        (
            &edit("falloff = \"linear\"", "falloff = \"cubic\""),
            9,
            "source[0].falloff",
            "unknown falloff \"cubic\"",
        ),
        (
            &format!("{BASE}distance = \"taxicab\"\n"),
            11,
            "source[0].distance",
            "unknown distance \"taxicab\"; one of `euclidean`, `manhattan`, `octile` or `path`",
        ),
        (
            &format!("{BASE}mode = \"multiply\"\n"),
            11,
            "source[0].mode",
            "unknown mode \"multiply\"; one of `add`, `set` or `max`",
        ),
        (&edit("at = [1, 1]", "at = [1, 1, 1]"), 7, "source[0].at", "expected 2 numbers, got 3"),
    ]);
}

#[test]
fn numbers_must_be_finite() {
    check(&[
        (&edit("strength = 5", "strength = nan"), 8, "source[0].strength", "finite"),
        (&edit("at = [1, 1]", "at = [1, -inf]"), 7, "source[0].at[1]", "finite"),
        (&edit("radius = 4", "radius = 1e39"), 10, "source[0].radius", "finite 32-bit"),
        (&edit("height = 4", "height = 4\ncell_size = inf"), 4, "map.cell_size", "finite"),
        (&edit("radius = 4", "radius = 0"), 10, "source[0].radius", "radius must be finite and > 0"),
        (&edit("height = 4", "height = 4\ncell_size = -1"), 4, "map.cell_size", "> 0"),
    ]);
}

#[test]
fn maps() {
    let rows = "height = 4\nrows = [\"........\", \"...@...\", \"........\", \"........\"]";
    let bad_char = "height = 4\nrows = [\"........\", \"...%....\", \"........\", \"........\"]";
    check(&[
        (&edit("width = 8", "width = 0"), 2, "map.width", "both sides must be at least 1 cell"),
        (&edit("width = 8\nheight = 4", "width = 20000\nheight = 20000"), 2, "map.width", "MAX_CELLS"),
        (&edit("height = 4", rows), 4, "map.rows[1]", "row has 7 cells, but width is 8"),
        (&edit("height = 4", bad_char), 4, "map.rows[1]", "unknown map character '%'"),
        (
            &edit("height = 4", "height = 4\nrows = [\"........\"]"),
            4,
            "map.rows",
            "has 1 rows, but height is 4",
        ),
        (&edit("height = 4", "height = 4\nneighbours = 6"), 4, "map.neighbours", "must be 4 or 8"),
        (&edit("height = 4", ""), 1, "map.height", "needs `height`"),
        (&edit("width = 8", "file = \"x.map\"\nwidth = 8"), 2, "map.file", "not both"),
        (&edit("width = 8\nheight = 4", "file = \"missing.map\""), 2, "map.file", "cannot read"),
    ]);
}

#[test]
fn malformed_map_files_name_their_own_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.map"), "type octile\nheight 3\nwidth 4\nmap\n....\n..\n....\n")
        .unwrap();
    let (code, stderr) = render_in(dir.path(), &edit("width = 8\nheight = 4", "file = \"bad.map\""));
    assert_eq!(code, Some(2));
    assert!(stderr.contains("bad.map:6: row has 2 cells, expected 4"), "{stderr}");
    assert!(stderr.contains("map.file"), "{stderr}");
}

#[test]
fn falloff_parameters() {
    let gaussian = "falloff = \"gaussian\"";
    check(&[
        (&edit("falloff = \"linear\"", gaussian), 5, "source[0].sigma", "falloff \"gaussian\" needs `sigma`"),
        (
            &edit("falloff = \"linear\"", &format!("{gaussian}\nsigma = -1")),
            10,
            "source[0].sigma",
            "sigma must be finite and > 0, got",
        ),
        (&format!("{BASE}power = 2\n"), 11, "source[0].power", "not a parameter of falloff \"linear\""),
        (
            &edit("falloff = \"linear\"", "falloff = \"exponential\"\nrate = -0.5"),
            10,
            "source[0].rate",
            ">= 0",
        ),
        (&edit("radius = 4", ""), 5, "source[0].radius", "required for falloff \"linear\""),
        (&edit("falloff = \"linear\"", "falloff = \"band\""), 9, "source[0].falloff", "exactly one of"),
        (
            &edit("falloff = \"linear\"", "falloff = \"band\"\nring = [1, 2, 3, 4]\npoints = [[0, 1]]"),
            9,
            "source[0].falloff",
            "exactly one of",
        ),
        (
            &edit("falloff = \"linear\"", "falloff = \"band\"\nring = [4, 3, 2, 1]"),
            10,
            "source[0].ring[1]",
            "ring distances must not decrease: 4 then 3",
        ),
        (
            &edit("falloff = \"linear\"", "falloff = \"band\"\nring = [1, 2, 3]"),
            10,
            "source[0].ring",
            "expected 4 numbers",
        ),
        (
            &edit("falloff = \"linear\"", "falloff = \"band\"\nfull = 1\naccuracy = 0.5"),
            5,
            "source[0].accuracy_end",
            "all four",
        ),
        (
            &edit(
                "falloff = \"linear\"",
                "falloff = \"band\"\nfull = 5\naccuracy_end = 3\naccuracy = 0.5\nmovement_end = 9",
            ),
            11,
            "source[0].accuracy_end",
            "accuracy_end must be >= full (5), got 3",
        ),
        (
            &edit(
                "falloff = \"linear\"",
                "falloff = \"band\"\nfull = 1\naccuracy_end = 3\naccuracy = 1.5\nmovement_end = 9",
            ),
            12,
            "source[0].accuracy",
            "accuracy must be within [-1, 1], got 1.5",
        ),
        (
            &edit("falloff = \"linear\"", "falloff = \"band\"\npoints = [[2, 1], [1, 0]]"),
            10,
            "source[0].points",
            "must not decrease",
        ),
    ]);
}

#[test]
fn teams_perspective_and_output() {
    check(&[
        (&format!("perspective = \"blue\"\n{BASE}"), 1, "perspective", "no source has team \"blue\""),
        (&edit("team = \"red\"", "team = \"red team\""), 6, "source[0].team", "letters, digits"),
        (&edit("team = \"red\"", "team = \"tension\""), 6, "source[0].team", "compound layer"),
        (
            &format!("{BASE}\n[output]\nlayers = [\"red\", \"heat\"]\n"),
            13,
            "output.layers[1]",
            "unknown layer \"heat\"",
        ),
        (&format!("{BASE}\n[output]\nlayers = [\"red\", \"red\"]\n"), 13, "output.layers[1]", "listed twice"),
        (&format!("{BASE}\n[output]\nupscale = 0\n"), 13, "output.upscale", "must be 1 to 64"),
    ]);
}

#[test]
fn scenarios_without_sources_or_file_fail_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr) = render_in(dir.path(), "[map]\nwidth = 3\nheight = 3\n");
    assert_eq!(code, Some(2));
    assert!(stderr.contains("scenario.toml: no [[source]] tables"), "{stderr}");

    let out = influence(&["render", dir.path().join("nope.toml").to_str().unwrap(), "--out", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nope.toml: "));
}

#[test]
fn a_source_off_the_map_is_a_note_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr) = render_in(dir.path(), &edit("at = [1, 1]", "at = [-3, 1]"));
    assert_eq!(code, Some(0), "{stderr}");
    let notes = summary(&dir.path().join("out"))["notes"].clone();
    assert!(notes[0].as_str().unwrap().contains("source[0] at [-3, 1] is outside the map"), "{notes}");
}

#[test]
fn unwritable_output_exits_with_1() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "").unwrap();
    let file = dir.path().join("scenario.toml");
    std::fs::write(&file, BASE).unwrap();
    let out = influence(&["render", file.to_str().unwrap(), "--out", blocker.join("sub").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
}

/// `BASE` followed by a `[propagation]` table of `keys` (its first key is on line 13).
fn propagation(keys: &str) -> String {
    format!("{BASE}\n[propagation]\n{keys}\n")
}

#[test]
fn propagation_parameters() {
    let diffuse = "kind = \"diffuse\"\ndecay = 0.5\nsteps = 3";
    let blocked = BASE
        .replace("height = 4", "height = 4\nrows = [\"........\", \"...@....\", \"........\", \"........\"]");
    check(&[
        (
            &propagation("kind = \"spread\""),
            13,
            "propagation.kind",
            "unknown kind \"spread\"; one of `diffuse`, `steady` or `flood`",
        ),
        (&propagation(&format!("{diffuse}\nmomentum = 1.5")), 16, "propagation.momentum", "in [0, 1]"),
        (&propagation(&format!("{diffuse}\nmomentum = -0.1")), 16, "propagation.momentum", "in [0, 1]"),
        (
            &propagation("kind = \"diffuse\"\ndecay = -0.5\nsteps = 3"),
            14,
            "propagation.decay",
            "decay must be",
        ),
        (
            &propagation("kind = \"diffuse\"\ndecay = 0.5\nsteps = 0"),
            15,
            "propagation.steps",
            "must be a whole number from 1 to 1,000,000, got 0",
        ),
        (
            &propagation("kind = \"diffuse\"\ndecay = 0.5\nsteps = 4294967296"),
            15,
            "propagation.steps",
            "must be a whole number from 1 to 1,000,000, got 4294967296",
        ),
        (
            &propagation("kind = \"flood\"\nlast_seen = [1, 1]\nmax_steps = 9223372036854775807"),
            15,
            "propagation.max_steps",
            "from 1 to 1,000,000",
        ),
        (
            &propagation("kind = \"diffuse\"\ndecay = 0.5\nsteps = -2"),
            15,
            "propagation.steps",
            "invalid value",
        ),
        (&propagation("kind = \"diffuse\"\ndecay = 0.5"), 12, "propagation.steps", "needs `steps`"),
        (
            &propagation("kind = \"steady\"\nsteps = 3"),
            14,
            "propagation.steps",
            "not a key of kind \"steady\"",
        ),
        (&propagation("kind = \"steady\""), 12, "propagation.decay", "needs `decay`"),
        (
            &propagation(&format!("{diffuse}\nthreshold = -1")),
            16,
            "propagation.threshold",
            "threshold must be",
        ),
        (&propagation(&format!("{diffuse}\nneighbours = 6")), 16, "propagation.neighbours", "must be 4 or 8"),
        (
            &propagation(&format!("{diffuse}\nheat = 2")),
            16,
            "propagation.heat",
            "is not a key of kind \"diffuse\"",
        ),
        (&propagation(&format!("{diffuse}\nlast_seen = [1, 1]")), 16, "propagation.last_seen", "not a key"),
        (&propagation("kind = \"flood\""), 12, "propagation.last_seen", "needs `last_seen"),
        (
            &propagation("kind = \"flood\"\nlast_seen = [9, 1]"),
            14,
            "propagation.last_seen",
            "outside the map",
        ),
        (
            &propagation("kind = \"flood\"\nlast_seen = [1, -0.5]"),
            14,
            "propagation.last_seen",
            "outside the map",
        ),
        (
            &format!("{blocked}\n[propagation]\nkind = \"flood\"\nlast_seen = [3.5, 1.5]\n"),
            15,
            "propagation.last_seen",
            "cell (3, 1), which is blocked",
        ),
        (
            &propagation("kind = \"flood\"\nlast_seen = [1, 1, 1]"),
            14,
            "propagation.last_seen",
            "expected 2 numbers",
        ),
        (
            &propagation("kind = \"flood\"\nlast_seen = [1, 1]\ncooling = -1"),
            15,
            "propagation.cooling",
            "cooling",
        ),
        (&propagation("kind = \"flood\"\nlast_seen = [1, 1]\nheat = 0"), 15, "propagation.heat", "heat"),
        (
            &propagation("kind = \"flood\"\nlast_seen = [1, 1]\nbarrier_radius = -2"),
            15,
            "propagation.barrier_radius",
            "barrier_radius",
        ),
        (
            &propagation("kind = \"flood\"\nlast_seen = [1, 1]\nmax_steps = 0"),
            15,
            "propagation.max_steps",
            "must be a whole number from 1 to 1,000,000, got 0",
        ),
        (
            &propagation("kind = \"flood\"\nlast_seen = [1, 1]\nvelocity = [nan, 0]"),
            15,
            "propagation.velocity[0]",
            "finite",
        ),
        (
            &propagation("kind = \"flood\"\nlast_seen = [1, 1]\ndecay = 1"),
            15,
            "propagation.decay",
            "not a key of kind \"flood\"",
        ),
    ]);
}

#[test]
fn additive_sources_have_no_steady_state_and_heat_needs_a_flood() {
    check(&[
        (
            &propagation("kind = \"steady\"\ndecay = 0.5")
                .replace("radius = 4", "radius = 4\nmode = \"add\""),
            11,
            "source[0].mode",
            "no steady state",
        ),
        (
            &format!("{BASE}\n[output]\nlayers = [\"heat\"]\n"),
            13,
            "output.layers[0]",
            "comes with [propagation]",
        ),
        (
            &propagation("kind = \"flood\"\nlast_seen = [1, 1]").replace("team = \"red\"", "team = \"heat\""),
            6,
            "source[0].team",
            "compound layer",
        ),
    ]);
}

/// `BASE` followed by a `[field]` table and one field source of `keys` (line 14 on).
fn field(table: &str, keys: &str) -> String {
    format!("{BASE}\n[field]\n{table}\n[[field.source]]\n{keys}\n")
}

#[test]
fn field_sources() {
    let ok = "team = \"blue\"\nat = [1, 2]\nstrength = 1\nradius = 3\nfalloff = \"linear\"";
    check(&[
        (&field("dimensions = 4", ok), 13, "field.dimensions", "must be 2 or 3"),
        (&field("z = 1", ok), 13, "field.z", "only to dimensions = 3"),
        (
            &field("", &ok.replace("[1, 2]", "[1, 2, 3]")),
            16,
            "field.source[0].at",
            "expected 2 numbers for dimensions = 2, got 3",
        ),
        (
            &field("dimensions = 3", ok),
            16,
            "field.source[0].at",
            "expected 3 numbers for dimensions = 3, got 2",
        ),
        (&field("", &ok.replace("[1, 2]", "[1, nan]")), 16, "field.source[0].at[1]", "finite"),
        (&field("", &ok.replace("strength = 1", "strength = inf")), 17, "field.source[0].strength", "finite"),
        (
            &field("", &ok.replace("\"linear\"", "\"cubic\"")),
            19,
            "field.source[0].falloff",
            "unknown falloff \"cubic\"",
        ),
        (
            &field("", &ok.replace("\"linear\"", "\"band\"")),
            19,
            "field.source[0].falloff",
            "unknown falloff \"band\"",
        ),
        (&field("", &ok.replace("\"linear\"", "\"gaussian\"")), 14, "field.source[0].sigma", "needs `sigma`"),
        (
            &field("", &format!("{ok}\nsigma = 2")),
            20,
            "field.source[0].sigma",
            "not a parameter of falloff \"linear\"",
        ),
        (
            &field("", &ok.replace("\"linear\"", "\"gaussian\"\nsigma = -2")),
            20,
            "field.source[0].sigma",
            "sigma must be finite and > 0, got",
        ),
        (&field("", &ok.replace("radius = 3", "radius = 0")), 18, "field.source[0].radius", "radius"),
        (&field("", &ok.replace("radius = 3\n", "")), 14, "field.source[0]", "missing field `radius`"),
        (&field("", &ok.replace("\"blue\"", "\"tension\"")), 15, "field.source[0].team", "compound layer"),
        (&field("", &format!("{ok}\nmode = \"set\"")), 20, "field.source[0].mode", "unknown key `mode`"),
        (&format!("{BASE}\n[field]\ndimensions = 2\n"), 12, "field", "no [[field.source]] tables"),
    ]);
}

/// `BASE` with a blocked cell at (3, 2) and one `[[path]]` of the given keys.
fn path(keys: &str) -> String {
    format!(
        "{}\n[[path]]\n{keys}\n",
        BASE.replace(
            "height = 4",
            "height = 4\nrows = [\"........\", \"........\", \"...@....\", \"........\"]"
        )
    )
}

#[test]
fn path_tables() {
    let line = path("").lines().count(); // the first key of the [[path]] table
    check(&[
        (&path("from = [3.5, 2.5]\nto = [7, 1]"), line, "path[0].from", "blocked"),
        (&path("from = [1, 1]\nto = [70, 1]"), line + 1, "path[0].to", "outside the map"),
        (&path("from = [1, 1]\nto = [7, 1]\nlayer = \"water\""), line + 2, "path[0].layer", "water"),
        (&path("from = [1, 1]\nto = [7, 1]\nweight = -1"), line + 2, "path[0].weight", ">= 0"),
        (&path("from = [1, 1, 1]\nto = [7, 1]"), line, "path[0].from", "expected 2 numbers"),
        (
            &path("from = [1, 1]\nto = [7, 1]\nspeed = 3"),
            line + 2,
            "path[0].speed",
            "unknown key `speed`; this table takes `from`, `to`, `layer` or `weight`",
        ),
    ]);
}

#[test]
fn misspelt_names_get_a_suggestion() {
    check(&[
        (
            &edit("falloff = \"linear\"", "falloff = \"lineer\""),
            9,
            "source[0].falloff",
            "did you mean \"linear\"?",
        ),
        (
            &format!("{BASE}distance = \"eucldean\"\n"),
            11,
            "source[0].distance",
            "did you mean \"euclidean\"?",
        ),
        (
            &edit("radius = 4", "raduis = 4"),
            10,
            "source[0].raduis",
            "unknown key `raduis`; did you mean `radius`?",
        ),
    ]);
}

#[test]
fn invalid_utf8_names_its_byte_offset() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("scenario.toml");
    let mut bytes = BASE.as_bytes().to_vec();
    bytes.splice(30..30, [0xff, 0xfe]);
    std::fs::write(&file, &bytes).unwrap();
    let out = influence(&["render", file.to_str().unwrap(), "--out", dir.path().join("o").to_str().unwrap()]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("scenario.toml:5: not UTF-8 text: invalid byte at offset 30"), "{stderr}");
}

#[test]
fn team_names_that_differ_only_in_case_are_refused() {
    let second = "\n[[source]]\nteam = \"Red\"\nat = [2, 2]\nstrength = 1\nfalloff = \"point\"\n";
    check(&[(
        &format!("{BASE}{second}"),
        13,
        "source[1].team",
        "team \"Red\" differs from team \"red\" only in letter case",
    )]);
}

#[test]
fn map_files_must_be_regular_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("folder.map")).unwrap();
    for (name, fragment) in [("folder.map", "not a regular file"), ("/dev/zero", "not a regular file")] {
        let text = format!("[map]\nfile = {name:?}\n\n[[source]]\nteam = \"red\"\nat = [1, 1]\nstrength = 5\nfalloff = \"point\"\n");
        let (code, stderr) = render_in(dir.path(), &text);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(
            stderr.contains("scenario.toml:2: map.file: cannot read") && stderr.contains(fragment),
            "{stderr}"
        );
    }
}

#[test]
fn overflowing_sums_are_an_error_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let two = format!(
        "{}\n[[source]]\nteam = \"red\"\nat = [2, 1]\nstrength = 3e38\nfalloff = \"linear\"\nradius = 4\n",
        edit("strength = 5", "strength = 3e38")
    );
    let (code, stderr) = render_in(dir.path(), &two);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "scenario.toml: source: layer \"red\" is inf at cell (0, 0): the sources' values overflow 32-bit \
             floats; use smaller strengths (the strongest: source[0], 3e38)"
        ),
        "{stderr}"
    );
    assert!(!dir.path().join("out").exists(), "nothing is written");
}

#[test]
fn summaries_never_hold_null() {
    // An unreachable route and a steady state: the fields that have no number are left out.
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{}\n[propagation]\nkind = \"steady\"\ndecay = 0.1\n\n[[path]]\nfrom = [0, 0]\nto = [7, 3]\nlayer = \"red\"\n",
        edit("height = 4", "height = 4\nrows = [\"....@...\", \"....@...\", \"....@...\", \"....@...\"]")
    );
    let (code, stderr) = render_in(dir.path(), &text);
    assert_eq!(code, Some(0), "{stderr}");
    let json = std::fs::read_to_string(dir.path().join("out/summary.json")).unwrap();
    assert!(!json.contains("null"), "{json}");
    let s = summary(&dir.path().join("out"));
    assert_eq!(s["paths"][0]["reachable"], false);
    assert!(s["paths"][0].get("length").is_none());
}
