//! Helpers shared by the command's tests: running the binary, reading its `.npy` files.

#![allow(dead_code)] // Each test file uses a different subset.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A path relative to the repository root.
pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

/// Runs `influence` with `args`.
pub fn influence(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_influence")).args(args).output().expect("the binary runs")
}

/// Runs `influence` and asserts it succeeded; returns its standard output.
pub fn influence_ok(args: &[&str]) -> String {
    let out = influence(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "influence {args:?} failed: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// Reads an `.npy` file written by the command: checks the v1.0 header (magic, 64-byte
/// alignment, trailing newline, little-endian f32, C order) and returns (height, width)
/// and the values.
pub fn read_npy(path: &Path) -> ((usize, usize), Vec<f32>) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00", "{}", path.display());
    let start = 10 + usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    assert_eq!(start % 64, 0, "header of {} not aligned", path.display());
    let header = std::str::from_utf8(&bytes[10..start]).unwrap();
    assert!(header.ends_with('\n'));
    assert!(header.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': ("), "{header}");
    let shape = header.split("'shape': (").nth(1).unwrap().split(')').next().unwrap();
    let dims: Vec<usize> = shape.split(',').map(|d| d.trim().parse().unwrap()).collect();
    let values: Vec<f32> =
        bytes[start..].chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(values.len(), dims[0] * dims[1]);
    ((dims[0], dims[1]), values)
}

/// Reads `summary.json` from `dir`.
pub fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
}
