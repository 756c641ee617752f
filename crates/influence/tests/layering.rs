//! The library's modules import one way (ARCHITECTURE.md, "Data flows one way"): each
//! top-level module only from the modules ranked below it, and no two files of a module
//! directory from each other. Read from the source text: every `crate::…` and `super::…`
//! path outside comments and `#[cfg(test)]` modules, with the crate root's re-exports
//! (`crate::Layer`) taken back to the module that defines them.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, lowest first: a module may import from modules of a lower rank only.
const RANKS: &[(&str, u32)] = &[
    ("error", 0),
    ("simd", 0),
    ("test_rng", 0),
    ("space", 1),
    ("falloff", 2),
    ("source", 3),
    ("paths", 4),
    ("layer", 5),
    ("registry", 6),
    ("analysis", 6),
    ("stamp", 7),
    ("field", 7),
    ("propagate", 8),
    ("query", 9),
    ("route", 9),
    ("render", 9),
    ("reference", 10),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, as its module path (`["propagate", "fused"]`) and its code:
/// comment lines and the `#[cfg(test)]` module at the end dropped.
fn modules(dir: &Path, prefix: &[String], out: &mut Vec<(Vec<String>, String)>) {
    let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        if path.is_dir() {
            modules(&path, &[prefix, &[name]].concat(), out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = fs::read_to_string(&path).unwrap();
            let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
            let code: String = text
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .map(|l| l.split(" // ").next().unwrap())
                .collect::<Vec<_>>()
                .join("\n");
            let module = if matches!(name.as_str(), "mod" | "lib") {
                prefix.to_vec()
            } else {
                [prefix, &[name]].concat()
            };
            out.push((module, code));
        }
    }
}

/// The first segment of each path that follows `head::` in `code`, through `{…}` groups:
/// `crate::{layer::Layer, space::Space}` gives `layer` and `space`.
fn first_segments(code: &str, head: &str) -> Vec<String> {
    let mut found = Vec::new();
    let pattern = format!("{head}::");
    let mut rest = code;
    while let Some(at) = rest.find(&pattern) {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + pattern.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue; // `super::super::x` is read from its first `super`
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let end = group
                .find(|c| {
                    depth += i32::from(c == '{') - i32::from(c == '}');
                    depth < 0
                })
                .unwrap();
            let mut depth = 0;
            let mut item = String::new();
            for c in group[..end].chars().chain([',']) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        let ident: String =
                            item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        found.push(ident);
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
        } else {
            found.push(rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect());
        }
    }
    found.retain(|s| !s.is_empty() && s != "self");
    found
}

/// The crate root's re-exports: name → the module it comes from.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for line in lib.lines().filter_map(|l| l.strip_prefix("pub use ")) {
        let Some((module, items)) = line.trim_end_matches(';').split_once("::") else { continue };
        for item in items.trim_matches(|c| c == '{' || c == '}').split(',') {
            names.insert(item.trim().to_owned(), module.to_owned());
        }
    }
    names
}

#[test]
fn modules_import_only_from_the_layers_below() {
    let ranks: BTreeMap<&str, u32> = RANKS.iter().copied().collect();
    let mut files = Vec::new();
    modules(&src(), &[], &mut files);
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let roots = reexports(&lib);
    let mut wrong = Vec::new();
    for (module, code) in files.iter().filter(|(m, _)| !m.is_empty()) {
        let top = module[0].as_str();
        let Some(&rank) = ranks.get(top) else {
            wrong.push(format!("`{top}` has no rank: place it in RANKS (and ARCHITECTURE.md)"));
            continue;
        };
        for name in first_segments(code, "crate") {
            let dep = roots.get(&name).cloned().unwrap_or(name);
            if dep == top {
                continue;
            }
            match ranks.get(dep.as_str()) {
                Some(&r) if r < rank => {}
                _ => wrong.push(format!("{} imports from `{dep}`", module.join("::"))),
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layering:\n{}", wrong.join("\n"));
}

#[test]
fn files_of_a_module_import_without_cycles() {
    let mut files = Vec::new();
    modules(&src(), &[], &mut files);
    let names: BTreeSet<Vec<String>> = files.iter().map(|(m, _)| m.clone()).collect();
    // Edges between sibling files: `super::x` from a file, `crate::m::x` from anywhere in m.
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, code) in files.iter().filter(|(m, _)| m.len() >= 2) {
        let parent = &module[..module.len() - 1];
        let crate_paths: Vec<String> = code
            .split(&format!("crate::{}::", parent.join("::")))
            .skip(1)
            .map(|s| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect())
            .collect();
        for name in first_segments(code, "super").into_iter().chain(crate_paths) {
            let sibling = [parent, &[name]].concat();
            if sibling != *module && names.contains(&sibling) {
                edges.entry(module.clone()).or_default().insert(sibling);
            }
        }
    }
    for (from, tos) in &edges {
        for to in tos {
            // A cycle through `to` back to `from`?
            let mut stack = vec![to.clone()];
            let mut seen = BTreeSet::new();
            while let Some(m) = stack.pop() {
                assert!(
                    &m != from,
                    "{} and {} import each other (through a cycle)",
                    from.join("::"),
                    to.join("::")
                );
                if seen.insert(m.clone()) {
                    stack.extend(edges.get(&m).into_iter().flatten().cloned());
                }
            }
        }
    }
}
