//! `influence demo`: the built-in scenario renders, says what it found, and is exactly the
//! scenario file `crates/influence-scenario/src/demo.toml` rendered with `influence render`.

mod common;

use std::process::Command;

use common::{influence_ok, read_npy, repo, summary};

const LAYERS: [&str; 6] = ["red", "blue", "influence", "tension", "vulnerability", "frontline"];

#[test]
fn demo_writes_its_files_and_a_readable_summary() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("demo");
    let stdout = influence_ok(&["demo", "--out", dir.to_str().unwrap()]);
    for needle in ["perspective: red", "safest", "hottest tension", "front length", dir.to_str().unwrap()] {
        assert!(stdout.contains(needle), "{needle:?} missing from:\n{stdout}");
    }
    for layer in LAYERS {
        assert!(dir.join(format!("{layer}.png")).is_file(), "{layer}.png");
        let (shape, values) = read_npy(&dir.join(format!("{layer}.npy")));
        assert_eq!(shape, (350, 310));
        assert!(values.iter().any(|&v| v != 0.0), "{layer} is empty");
    }
    let s = summary(&dir);
    assert_eq!(s["teams"].as_array().unwrap().len(), 2);
    assert!(s["front_length"].as_f64().unwrap() > 0.0);
    assert!(s["notes"].as_array().unwrap().is_empty());

    // The same scenario from its file on disk: same arrays, same findings.
    let again = out.path().join("again");
    let file = repo("crates/influence-scenario/src/demo.toml");
    influence_ok(&["render", file.to_str().unwrap(), "--out", again.to_str().unwrap()]);
    for layer in LAYERS {
        assert_eq!(
            read_npy(&dir.join(format!("{layer}.npy"))),
            read_npy(&again.join(format!("{layer}.npy")))
        );
    }
    let (mut a, mut b) = (summary(&dir), summary(&again));
    a["scenario"].take();
    b["scenario"].take();
    assert_eq!(a, b);
}

#[test]
fn demo_writes_to_out_demo_by_default() {
    let cwd = tempfile::tempdir().unwrap();
    let status =
        Command::new(env!("CARGO_BIN_EXE_influence")).arg("demo").current_dir(cwd.path()).output().unwrap();
    assert!(status.status.success());
    assert!(cwd.path().join("out/demo/summary.json").is_file());
}

#[test]
fn quiet_is_taken_before_or_after_the_subcommand_and_prints_no_bar() {
    for args in [["--quiet", "demo", "--out"], ["demo", "-q", "--out"]] {
        let dir = tempfile::tempdir().unwrap();
        let out = common::influence(&[args[0], args[1], args[2], dir.path().to_str().unwrap()]);
        assert!(out.status.success(), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
        assert!(dir.path().join("summary.json").exists());
    }
}
