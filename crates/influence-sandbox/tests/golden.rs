//! Before/after check: what the sandbox serves for every example scenario and the command's
//! golden fixtures (those without `[field]`, which the sandbox does not show) — the export and
//! every layer's frame — against the SHA-256 sums in `tests/golden/sandbox.sha256`. A
//! deliberate change re-records them with
//! `INFLUENCE_BLESS=1 cargo test -p influence-sandbox --test golden`.

mod common;

use std::path::Path;

use common::get;
use influence_sandbox::{start, ServeConfig};
use sha2::{Digest, Sha256};

const RECORD: &str = "tests/golden/sandbox.sha256";

fn sha(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn exports_and_frames_are_the_recorded_bytes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut lines = Vec::new();
    for dir in ["examples/scenarios", "crates/influence-cli/tests/golden"] {
        let mut files: Vec<_> =
            std::fs::read_dir(root.join(dir)).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for path in files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "toml")) {
            if std::fs::read_to_string(&path).unwrap().contains("\n[field]") {
                continue;
            }
            let name = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
            let handle = start(ServeConfig { scenario: Some(path), ..ServeConfig::default() }).unwrap();
            let a = handle.addr();
            let export = get(a, "/api/export");
            assert_eq!(export.status, 200, "{name}: {}", export.text());
            lines.push(format!("{name} export {}", sha(&export.body)));
            let scene = get(a, "/api/scene").json();
            for layer in scene["layers"].as_array().unwrap() {
                let layer = layer.as_str().unwrap();
                let frame = get(a, &format!("/api/layer/{layer}"));
                assert_eq!(frame.status, 200, "{name} {layer}");
                lines.push(format!("{name} layer {layer} {}", sha(&frame.body)));
            }
            handle.stop();
        }
    }
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let record = Path::new(env!("CARGO_MANIFEST_DIR")).join(RECORD);
    if std::env::var_os("INFLUENCE_BLESS").is_some() {
        std::fs::create_dir_all(record.parent().unwrap()).unwrap();
        std::fs::write(&record, &text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&record).expect("the recorded sums (INFLUENCE_BLESS=1 writes them)");
    let changed: Vec<&str> = want.lines().zip(text.lines()).filter(|(w, g)| w != g).map(|(w, _)| w).collect();
    assert!(
        want == text,
        "the sandbox's outputs differ from {RECORD}; first changed: {:?}",
        &changed[..changed.len().min(10)]
    );
}
