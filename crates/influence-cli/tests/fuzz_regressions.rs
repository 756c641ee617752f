//! Regressions for the scenario loader found while fuzzing (see `fuzz/README.md`), run
//! through the `influence` binary: bad input must exit with code 2 and a message, never
//! panic. Every file in `fuzz/regressions/scenario/` is rendered the same way.

mod common;

use std::path::Path;

use common::influence;

/// Renders `text` as a scenario in a fresh folder; panics name the input.
fn render_must_not_panic(name: &str, text: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("scenario.toml");
    std::fs::write(&file, text).unwrap();
    let out = dir.path().join("out");
    let run = influence(&["render", file.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        matches!(run.status.code(), Some(0 | 2)) && !stderr.contains("panicked"),
        "{name}: exit {:?}, stderr:\n{stderr}",
        run.status.code()
    );
}

#[test]
fn regression_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/scenario");
    let Ok(entries) = std::fs::read_dir(&dir) else { return };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        render_must_not_panic(&path.display().to_string(), &text);
    }
}

/// Fixed bug (found by the `falloff_stamp` fuzz target; same bug as
/// `crates/influence/tests/fuzz_regressions.rs::stamp_source_beside_the_grid`): a source
/// outside the map, beyond its radius to the side but level with its rows, panics in
/// `influence::Stamper` (src/stamp.rs `footprint_row`, `f32::clamp` with min > max) and the
/// command exits 101: "min > max, or either was NaN. min = -6.0, max = -92.0". Expected:
/// either exit 2 naming `source[0].at` as outside the map, or a render where it adds nothing.
#[test]
fn source_beside_the_map() {
    let text = "[map]\nwidth = 8\nheight = 4\n\n[[source]]\nteam = \"red\"\nat = [100, 1]\n\
                strength = 5\nfalloff = \"linear\"\nradius = 4\n";
    render_must_not_panic("source_beside_the_map", text);
}
