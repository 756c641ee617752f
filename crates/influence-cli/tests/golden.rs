//! Before/after check: the bytes `influence render` and `influence animate` write for every
//! example scenario, the demo and the fixtures in `tests/golden/` (real maps, every
//! propagation kind, grid-free fields), as figures and as bare pictures (`--plain`), against
//! the SHA-256 sums recorded in `tests/golden/outputs.sha256`. A restructuring must keep them; a deliberate change of the
//! outputs re-records them with `INFLUENCE_BLESS=1 cargo test -p influence-cli --test golden`
//! and says why in its commit.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use sha2::{Digest, Sha256};

/// The recorded sums: one `name sha256` line per output file.
const RECORD: &str = "crates/influence-cli/tests/golden/outputs.sha256";

/// Scenario files (relative to the repository root) rendered, and animated when they have a
/// `[propagation]` table.
fn scenarios() -> Vec<String> {
    let mut files = Vec::new();
    for dir in ["examples/scenarios", "crates/influence-cli/tests/golden"] {
        let mut found: Vec<String> = std::fs::read_dir(common::repo(dir))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".toml"))
            .map(|n| format!("{dir}/{n}"))
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

/// Runs `influence` from the repository root (so the scenario paths in `summary.json` are
/// the same on every machine) and asserts it succeeded.
fn run(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_influence"))
        .current_dir(common::repo(""))
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "influence {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// `prefix/file` → SHA-256 of every file in `dir`.
fn sums(prefix: &str, dir: &Path, into: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let digest = Sha256::digest(std::fs::read(&path).unwrap());
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        let name = path.file_name().unwrap().to_string_lossy();
        into.insert(format!("{prefix}/{name}"), hex);
    }
}

#[test]
fn outputs_are_the_recorded_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let mut got = BTreeMap::new();
    let out = |what: &str| tmp.path().join(what.replace('/', "_"));
    // The bare pictures (`--plain`) keep the names they had before figures, so their sums
    // show they are the bytes of old; figures are the entries named `figure ...`.
    for (look, flag) in [("", "--plain"), ("figure ", "")] {
        let flags: &[&str] = if flag.is_empty() { &[] } else { &[flag] };
        for scenario in scenarios() {
            let dir = out(&format!("{look}render-{scenario}"));
            run(&[&["render", &scenario, "--out", dir.to_str().unwrap()], flags].concat());
            sums(&format!("{look}render {scenario}"), &dir, &mut got);
            let text = std::fs::read_to_string(common::repo(&scenario)).unwrap();
            if text.contains("\n[propagation]") {
                let dir = out(&format!("{look}animate-{scenario}"));
                let args =
                    ["animate", &scenario, "--out", dir.to_str().unwrap(), "--gif", "--png", "--every", "3"];
                run(&[&args[..], flags].concat());
                sums(&format!("{look}animate {scenario}"), &dir, &mut got);
            }
        }
        let dir = out(&format!("{look}demo"));
        run(&[&["demo", "--out", dir.to_str().unwrap()], flags].concat());
        sums(&format!("{look}demo"), &dir, &mut got);
    }

    let text: String = got.iter().map(|(name, sum)| format!("{name} {sum}\n")).collect();
    let record = common::repo(RECORD);
    if std::env::var_os("INFLUENCE_BLESS").is_some() {
        std::fs::write(&record, &text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&record).expect("the recorded sums (INFLUENCE_BLESS=1 writes them)");
    let changed: Vec<&str> = want
        .lines()
        .zip(text.lines())
        .filter(|(w, g)| w != g)
        .map(|(w, _)| w.split(' ').next().unwrap_or(w))
        .collect();
    assert!(
        want == text,
        "outputs differ from {RECORD}: {} files recorded, {} written; first changed: {:?}",
        want.lines().count(),
        text.lines().count(),
        &changed[..changed.len().min(10)]
    );
}
