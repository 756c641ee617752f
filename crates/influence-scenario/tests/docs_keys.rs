//! docs/scenario.md documents exactly the keys the scenario model takes: each table's keys
//! are read off its serde definition (the one place a key is written) and compared, both
//! ways, with the section of the docs that describes that table.

use std::collections::BTreeSet;

use influence_scenario::field::{FieldSourceSpec, FieldSpec};
use influence_scenario::file::{OutputSpec, ScenarioFile};
use influence_scenario::map::MapSpec;
use influence_scenario::propagation::PropagationSpec;
use influence_scenario::route::PathSpec;
use influence_scenario::source::SourceSpec;
use serde_aux::serde_introspection::serde_introspect;

/// The section of the docs under the `## ` heading that starts with `heading`.
fn section<'a>(docs: &'a str, heading: &str) -> &'a str {
    let start = docs.find(&format!("\n## {heading}")).unwrap_or_else(|| panic!("no section {heading}"));
    let rest = &docs[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 3);
    &rest[..end]
}

/// The keys in the first column of the section's `| key | ...` tables.
fn table_keys(section: &str) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    let mut in_table = false;
    for line in section.lines() {
        if line.starts_with("| key |") {
            in_table = true;
            continue;
        }
        if !line.starts_with('|') {
            in_table = false;
        }
        if in_table && !line.starts_with("|---") {
            let first = line.split('|').nth(1).unwrap_or_default();
            keys.extend(first.split('`').skip(1).step_by(2).map(str::to_owned));
        }
    }
    keys
}

#[test]
fn every_key_is_documented_and_every_documented_key_exists() {
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/scenario.md")).unwrap();
    let tables: [(&str, Vec<&str>); 7] = [
        ("`[map]`", serde_introspect::<MapSpec>().to_vec()),
        ("`[[source]]`", serde_introspect::<SourceSpec>().to_vec()),
        ("`[field]`", [serde_introspect::<FieldSpec>(), serde_introspect::<FieldSourceSpec>()].concat()),
        ("`[propagation]`", serde_introspect::<PropagationSpec>().to_vec()),
        ("`[[path]]`", serde_introspect::<PathSpec>().to_vec()),
        ("`[output]`", serde_introspect::<OutputSpec>().to_vec()),
        ("Top level", {
            let tables = ["map", "source", "field", "propagation", "path", "output"];
            serde_introspect::<ScenarioFile>().iter().copied().filter(|k| !tables.contains(k)).collect()
        }),
    ];
    for (heading, keys) in tables {
        let text = section(&docs, heading);
        let keys: BTreeSet<String> = keys.iter().map(|k| (*k).to_owned()).collect();
        for key in &keys {
            // [field]'s `source` is the [[field.source]] array, documented under that name.
            let shown = if heading == "`[field]`" && key == "source" { "[[field.source]]" } else { key };
            assert!(text.contains(&format!("`{shown}`")), "{heading}: key `{key}` is not documented");
        }
        // `source` in [field] is the [[field.source]] array, documented as its own table.
        let documented: BTreeSet<String> = table_keys(text).into_iter().filter(|k| k != "source").collect();
        let unknown: Vec<_> = documented.difference(&keys).collect();
        assert!(unknown.is_empty(), "{heading}: documented keys the model does not take: {unknown:?}");
        assert!(!documented.is_empty(), "{heading}: no key table found");
    }
}
