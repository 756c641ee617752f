//! Keys and names a scenario must use, checked on the document before its tables are read,
//! so that a misspelling is named at its line with the closest known key or name — both
//! lists read off the tables' own serde definitions (`vocab.rs`).

use toml_edit::Value;

use crate::doc::{Doc, Node};
use crate::error::{Located, Problem};
use crate::falloff::FalloffKind;
use crate::field::{CurveName, FieldSourceSpec, FieldSpec};
use crate::file::{OutputSpec, ScenarioFile};
use crate::key::{KeyPath, Seg};
use crate::map::MapSpec;
use crate::propagation::{DecayName, Kind, PropagationSpec};
use crate::route::PathSpec;
use crate::source::{OnBlocked, SourceSpec};
use crate::vocab::{self, names};

/// A table kind: where such tables stand (`[[...]]` arrays by `*`), and its keys.
type Table = (&'static [&'static str], fn() -> &'static [&'static str]);

/// Every table of a scenario file and where it stands.
const TABLES: [Table; 8] = [
    (&[], names::<ScenarioFile>),
    (&["map"], names::<MapSpec>),
    (&["source", "*"], names::<SourceSpec>),
    (&["propagation"], names::<PropagationSpec>),
    (&["field"], names::<FieldSpec>),
    (&["field", "source", "*"], names::<FieldSourceSpec>),
    (&["path", "*"], names::<PathSpec>),
    (&["output"], names::<OutputSpec>),
];

/// A key whose value is a name: where it stands, and the names it takes.
type Named = (&'static [&'static str], &'static str, fn() -> &'static [&'static str]);

/// Every key that takes a name.
const NAMED: [Named; 8] = [
    (&[], "on_blocked", names::<OnBlocked>),
    (&["source", "*"], "on_blocked", names::<OnBlocked>),
    (&["source", "*"], "falloff", names::<FalloffKind>),
    (&["source", "*"], "distance", names::<influence::Metric>),
    (&["source", "*"], "mode", names::<influence::Mode>),
    (&["propagation"], "kind", names::<Kind>),
    (&["propagation"], "decay_kind", names::<DecayName>),
    (&["field", "source", "*"], "falloff", names::<CurveName>),
];

/// Checks every table's keys and every name-valued key of `doc`.
///
/// # Errors
/// [`Located`] at the first unknown key ([`Problem::UnknownKey`]) or name ([`Problem::Type`]).
pub fn check(doc: &Doc) -> Result<(), Located> {
    for (at, known) in TABLES {
        for (path, node) in tables(doc, at) {
            for (seg, _, _) in node.children() {
                let Seg::Key(key) = &seg else { continue };
                if !known().contains(&key.as_str()) {
                    let message = match vocab::suggest(key, known().iter().copied()) {
                        Some(s) => format!("unknown key `{key}`; did you mean `{s}`?"),
                        None => format!("unknown key `{key}`; this table takes {}", vocab::list(known())),
                    };
                    return Err(doc.error(&path.with(seg.clone()), Problem::UnknownKey, message));
                }
            }
        }
    }
    for (at, key, known) in NAMED {
        for (path, node) in tables(doc, at) {
            let Some((_, Some(Node::Value(Value::String(s))))) = node.child(&Seg::Key(key.to_owned())) else {
                continue;
            };
            let got = s.value();
            if !known().contains(&got.as_str()) {
                let hint = match vocab::suggest(got, known().iter().copied()) {
                    Some(s) => format!("did you mean \"{s}\"?"),
                    None => format!("one of {}", vocab::list(known())),
                };
                let message = format!("unknown {key} {:?}; {hint}", shorten(got));
                return Err(doc.error(&path.key(key), Problem::Type, message));
            }
        }
    }
    Ok(())
}

/// `s`, cut to 80 characters with an ellipsis, for a message.
pub fn shorten(s: &str) -> String {
    match s.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// The tables standing at `at` (each `*` any element of an array of tables).
fn tables<'a>(doc: &'a Doc, at: &[&str]) -> Vec<(KeyPath, Node<'a>)> {
    let mut found = vec![(KeyPath::default(), doc.node(&KeyPath::default()))];
    for step in at {
        let mut next = Vec::new();
        for (path, node) in found {
            let Some(node) = node else { continue };
            if *step == "*" {
                if matches!(node, Node::Tables(_) | Node::Value(Value::Array(_))) {
                    for (seg, _, child) in node.children() {
                        next.push((path.with(seg), child));
                    }
                }
            } else if let Some((_, child)) = node.child(&Seg::Key((*step).to_owned())) {
                next.push((path.key(step), child));
            }
        }
        found = next;
    }
    found
        .into_iter()
        .filter_map(|(p, n)| match n {
            Some(n @ (Node::Table(_) | Node::Value(Value::InlineTable(_)))) => Some((p, n)),
            _ => None,
        })
        .collect()
}
