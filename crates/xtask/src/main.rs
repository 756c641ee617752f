//! `cargo xtask`: project chores.
//!
//! * `cargo xtask api-surface [--max-types N] [--max-functions N]` documents the library
//!   (default features, hidden items included) as rustdoc JSON and counts its public types
//!   (structs, enums, traits, type aliases) and public functions (free functions and
//!   inherent methods; trait implementations are not counted), then lists the types with
//!   their method counts. With a maximum it fails when the count is over it.
//!
//! rustdoc's JSON output is unstable, so the command sets `RUSTC_BOOTSTRAP=1` for that one
//! rustdoc run on the stable toolchain.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

use serde_json::Value;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("api-surface") => match api_surface(&args[1..]) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(e) => {
                eprintln!("xtask: {e}");
                ExitCode::from(2)
            }
        },
        _ => {
            eprintln!("usage: cargo xtask api-surface [--max-types N] [--max-functions N]");
            ExitCode::from(2)
        }
    }
}

/// The value after `flag`, if given.
fn limit(args: &[String], flag: &str) -> Result<Option<usize>, String> {
    match args.iter().position(|a| a == flag) {
        None => Ok(None),
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .map(Some)
            .ok_or_else(|| format!("{flag} takes a whole number")),
    }
}

/// Counts the library's public surface; `Ok(false)` when over a maximum.
fn api_surface(args: &[String]) -> Result<bool, String> {
    let (max_types, max_functions) = (limit(args, "--max-types")?, limit(args, "--max-functions")?);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(&root)
        .env("RUSTC_BOOTSTRAP", "1")
        .args(["rustdoc", "-q", "-p", "influence", "--lib", "--"])
        .args(["-Z", "unstable-options", "--output-format", "json", "--document-hidden-items"])
        .status()
        .map_err(|e| format!("cannot run cargo rustdoc: {e}"))?;
    if !status.success() {
        return Err("cargo rustdoc failed".into());
    }
    let target = std::env::var("CARGO_TARGET_DIR").map_or_else(|_| root.join("target"), PathBuf::from);
    let path = target.join("doc/influence.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let (types, functions) = count(&doc);
    let total: usize = functions.values().sum();
    println!("public types: {}", types.len());
    println!("public functions: {total}");
    for ty in &types {
        println!("  {ty}: {}", functions.get(ty.rsplit("::").next().unwrap_or(ty)).copied().unwrap_or(0));
    }
    println!("  (free functions): {}", functions.get("").copied().unwrap_or(0));
    let over = max_types.is_some_and(|m| types.len() > m) || max_functions.is_some_and(|m| total > m);
    if over {
        eprintln!("over the maximum: {max_types:?} types, {max_functions:?} functions");
    }
    Ok(!over)
}

/// The public types by path, and the public functions per owning type name ("" for free
/// functions).
fn count(doc: &Value) -> (Vec<String>, BTreeMap<String, usize>) {
    let empty = serde_json::Map::new();
    let index = doc["index"].as_object().unwrap_or(&empty);
    let paths = doc["paths"].as_object().unwrap_or(&empty);
    let ours = |item: &Value| item["crate_id"].as_u64() == Some(0);
    let public = |item: &Value| item["visibility"].as_str() == Some("public");
    let kind =
        |item: &Value| item["inner"].as_object().and_then(|o| o.keys().next().cloned()).unwrap_or_default();
    let mut types = Vec::new();
    let mut functions = BTreeMap::new();
    for (id, item) in index {
        if !ours(item) {
            continue;
        }
        match kind(item).as_str() {
            "struct" | "enum" | "trait" | "type_alias" | "union" if public(item) => {
                let path = paths[id]["path"].as_array().map_or_else(
                    || item["name"].as_str().unwrap_or("?").to_owned(),
                    |p| p.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("::"),
                );
                types.push(path);
            }
            "function" if public(item) && paths.contains_key(id) => {
                *functions.entry(String::new()).or_insert(0) += 1;
            }
            "impl" => {
                let imp = &item["inner"]["impl"];
                if !imp["trait"].is_null() {
                    continue;
                }
                let owner = imp["for"]["resolved_path"]["path"].as_str().unwrap_or("?");
                let owner = owner.rsplit("::").next().unwrap_or(owner).to_owned();
                for method in imp["items"].as_array().into_iter().flatten() {
                    let m = &index[&method.to_string()];
                    if kind(m) == "function" && public(m) {
                        *functions.entry(owner.clone()).or_insert(0) += 1;
                    }
                }
            }
            _ => {}
        }
    }
    types.sort();
    (types, functions)
}
