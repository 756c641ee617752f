//! Replays the committed inputs (and local corpora and artifacts, when present) through the
//! checks of `src/lib.rs` on stable `cargo test`, and decodes a `falloff_stamp` input.

use std::path::{Path, PathBuf};

use arbitrary::{Arbitrary, Unstructured};

type Check = fn(&[u8]);

const TARGETS: [(&str, Check); 5] = [
    ("movingai", influence_fuzz::check_movingai),
    ("graph_text", influence_fuzz::check_graph_text),
    ("graph_json", influence_fuzz::check_graph_json),
    ("falloff_stamp", influence_fuzz::check_falloff_stamp),
    ("scenario", influence_fuzz::check_scenario),
];

fn files(kind: &str, target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(kind).join(target);
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != ".keep"))
        .collect();
    files.sort();
    files
}

fn replay(kinds: &[&str]) {
    for (target, check) in TARGETS {
        for kind in kinds {
            for path in files(kind, target) {
                let data = std::fs::read(&path).unwrap();
                let run = std::panic::catch_unwind(|| check(&data));
                assert!(run.is_ok(), "{target}: {} panics", path.display());
            }
        }
    }
}

#[test]
fn seeds_and_local_corpora() {
    replay(&["seeds", "corpus", "artifacts"]);
}

/// The saved crashes: each is a known bug in `influence` until fixed (see README.md).
#[test]
fn regressions() {
    replay(&["regressions"]);
}

/// `INPUT=path cargo test --test replay -- --ignored decode --nocapture` prints what a
/// `falloff_stamp` input decodes to.
#[test]
#[ignore = "a tool, needs INPUT"]
fn decode() {
    let data = std::fs::read(std::env::var("INPUT").unwrap()).unwrap();
    println!("{:?}", influence_fuzz::StampSpec::arbitrary(&mut Unstructured::new(&data)));
}
