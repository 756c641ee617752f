//! A scenario's text as a `toml_edit` document, kept for its spans: key paths such as
//! `source[2].strength` are turned into line numbers so that every error, whether from TOML
//! syntax, from serde or from validation, points at the line and key it is about.

use std::fmt;
use std::ops::Range;

use toml_edit::{ArrayOfTables, Document, Item, Table, Value};

use crate::error::{Invalid, Located, Problem};
use crate::key::{KeyPath, Seg};

/// A node of the document that can have children.
#[derive(Clone, Copy)]
pub(crate) enum Node<'a> {
    Table(&'a Table),
    Tables(&'a ArrayOfTables),
    Value(&'a Value),
}

/// A child: its path step, the span of its key (or of the element), and the node itself.
pub(crate) type Child<'a> = (Seg, Option<Range<usize>>, Option<Node<'a>>);

impl<'a> Node<'a> {
    fn of(item: &'a Item) -> Option<Self> {
        match item {
            Item::Table(t) => Some(Self::Table(t)),
            Item::ArrayOfTables(a) => Some(Self::Tables(a)),
            Item::Value(v) => Some(Self::Value(v)),
            Item::None => None,
        }
    }

    fn span(self) -> Option<Range<usize>> {
        match self {
            Self::Table(t) => t.span(),
            Self::Tables(a) => a.span(),
            Self::Value(v) => v.span(),
        }
    }

    pub(crate) fn children(self) -> Vec<Child<'a>> {
        match self {
            Self::Table(t) => t
                .iter()
                .map(|(k, item)| {
                    (Seg::Key(k.into()), t.key(k).and_then(toml_edit::Key::span), Self::of(item))
                })
                .collect(),
            Self::Tables(a) => {
                a.iter().enumerate().map(|(i, t)| (Seg::Index(i), t.span(), Some(Self::Table(t)))).collect()
            }
            Self::Value(Value::InlineTable(t)) => t
                .iter()
                .map(|(k, v)| {
                    (Seg::Key(k.into()), t.key(k).and_then(toml_edit::Key::span), Some(Self::Value(v)))
                })
                .collect(),
            Self::Value(Value::Array(a)) => {
                a.iter().enumerate().map(|(i, v)| (Seg::Index(i), v.span(), Some(Self::Value(v)))).collect()
            }
            Self::Value(_) => Vec::new(),
        }
    }

    pub(crate) fn child(self, seg: &Seg) -> Option<(Option<Range<usize>>, Option<Node<'a>>)> {
        self.children().into_iter().find(|(s, ..)| s == seg).map(|(_, span, node)| (span, node))
    }
}

/// A parsed scenario file: its name for messages, its text and its spans.
pub struct Doc {
    file: String,
    doc: Document<String>,
}

impl Doc {
    /// Parses `text`; a syntax error names the file and line.
    ///
    /// # Errors
    /// [`Located`] at the line of malformed TOML.
    pub fn parse(file: &str, text: &str) -> Result<Self, Located> {
        // `toml` checks the syntax first: toml_edit 0.23 panics ("all items have spans") on
        // some malformed documents (found by the `scenario` fuzz target), never on valid ones.
        let syntax = |span: Option<Range<usize>>, message: &str| {
            let (line, column) = span.clone().map(|s| position(text, s.start)).unzip();
            let message = crate::vocab::in_words(message.trim_end(), None);
            let message = match span.and_then(|s| quoted_line(text, s.start)) {
                Some(quote) => format!("{message}: {quote}"),
                None => message,
            };
            Located::new(file, Problem::Syntax, message).at(line, column)
        };
        if let Err(e) = toml::from_str::<toml::Table>(text) {
            return Err(syntax(e.span(), e.message()));
        }
        match Document::parse(text.to_owned()) {
            Ok(doc) => Ok(Self { file: file.to_owned(), doc }),
            Err(e) => Err(syntax(e.span(), e.message())),
        }
    }

    /// The file's name as shown in messages.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The text the document was parsed from.
    pub fn text(&self) -> &str {
        self.doc.raw()
    }

    /// An input error at `path`: the place is that of the key, or of the nearest enclosing
    /// table when the key is missing.
    pub fn error(&self, path: &KeyPath, problem: Problem, message: impl fmt::Display) -> Located {
        let (line, column) = self.position_of(path).unzip();
        Located::new(&self.file, problem, message).at(line, column).with_key(path.clone())
    }

    /// `invalid` placed in this file: a key's problem at the key's place; another file's as it is.
    pub fn place(&self, invalid: Invalid) -> Located {
        match invalid {
            Invalid::Key { key, problem, message } => self.error(&key, problem, message),
            Invalid::File(located) => located,
        }
    }

    /// An error from deserializing this document (a value of the wrong type), placed by its span.
    pub fn serde_error(&self, e: &toml::de::Error) -> Located {
        let span = e.span().filter(|s| !s.is_empty());
        let path = span.as_ref().and_then(|s| self.path_at(s.start));
        let message = crate::vocab::in_words(e.message(), path.as_ref());
        let located = Located::new(&self.file, Problem::Type, message);
        match span {
            Some(span) => {
                let (line, column) = position(self.text(), span.start);
                let located = located.at(Some(line), Some(column));
                match path {
                    Some(path) => located.with_key(path),
                    None => located,
                }
            }
            None => located,
        }
    }

    /// The node at `path`, if the document has one there.
    pub(crate) fn node(&self, path: &KeyPath) -> Option<Node<'_>> {
        let mut node = Node::of(self.doc.as_item());
        for seg in &path.0 {
            node = node?.child(seg)?.1;
        }
        node
    }

    /// Every float finite and within `f32`: the scenario's numbers are 32-bit.
    ///
    /// # Errors
    /// [`Located`] at the first float that is not.
    pub fn check_numbers(&self) -> Result<(), Located> {
        match self.first_non_finite() {
            Some((path, value)) => {
                let value = if value.is_finite() { format!("{value:e}") } else { value.to_string() };
                let message = format!("expected a finite number within ±3.4e38 (32 bits), got {value}");
                Err(self.error(&path, Problem::Value, message))
            }
            None => Ok(()),
        }
    }

    /// The first float that is NaN, infinite or too large for `f32`, and its value.
    pub fn first_non_finite(&self) -> Option<(KeyPath, f64)> {
        fn walk(node: Node<'_>, path: &KeyPath) -> Option<(KeyPath, f64)> {
            if let Node::Value(Value::Float(f)) = node {
                let v = *f.value();
                return (!v.is_finite() || v.abs() > f64::from(f32::MAX)).then(|| (path.clone(), v));
            }
            node.children().into_iter().find_map(|(seg, _, child)| walk(child?, &path.with(seg)))
        }
        walk(Node::of(self.doc.as_item())?, &KeyPath::default())
    }

    /// The line and column of `path`'s key, or of the nearest enclosing table's.
    fn position_of(&self, path: &KeyPath) -> Option<(usize, usize)> {
        let mut node = Node::of(self.doc.as_item());
        let mut at = None;
        for seg in &path.0 {
            let Some((span, child)) = node.and_then(|n| n.child(seg)) else {
                // A missing key: the start of the line of the table that lacks it.
                return at.map(|(line, _)| (line, 1));
            };
            at = span.or_else(|| child.and_then(Node::span)).map(|s| position(self.text(), s.start)).or(at);
            node = child;
        }
        at
    }

    #[cfg(test)]
    fn line_of(&self, path: &KeyPath) -> Option<usize> {
        self.position_of(path).map(|(line, _)| line)
    }

    /// The deepest key or element whose key or value covers byte `offset`.
    fn path_at(&self, offset: usize) -> Option<KeyPath> {
        fn find(node: Node<'_>, offset: usize, path: &KeyPath) -> Option<KeyPath> {
            node.children().into_iter().find_map(|(seg, span, child)| {
                let path = path.with(seg);
                let covers = |s: Option<Range<usize>>| s.is_some_and(|s| s.contains(&offset));
                child
                    .and_then(|c| find(c, offset, &path))
                    .or_else(|| (covers(span) || covers(child.and_then(Node::span))).then_some(path))
            })
        }
        find(Node::of(self.doc.as_item())?, offset, &KeyPath::default())
    }
}

/// The line of `text` holding byte `offset`, trimmed, cut to 80 characters and quoted in
/// backticks; `None` for a blank line.
fn quoted_line(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let bytes = text.as_bytes();
    let start = bytes[..offset].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let end = bytes[start..].iter().position(|&b| b == b'\n').map_or(text.len(), |i| start + i);
    let line = text.get(start..end)?.trim();
    (!line.is_empty()).then(|| format!("`{}`", crate::known::shorten(line)))
}

/// The 1-based line and column (in characters) of byte `offset` of `text`.
pub fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
    (before.iter().filter(|&&b| b == b'\n').count() + 1, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "a = 1\n\n[[source]]\nx = 2\n\n[[source]]\nat = [1, nan]\nt = { k = 3 }\n";

    #[test]
    fn paths_find_their_lines() {
        let doc = Doc::parse("s.toml", TEXT).unwrap();
        let src = KeyPath::root("source");
        assert_eq!(doc.line_of(&KeyPath::root("a")), Some(1));
        assert_eq!(doc.line_of(&src.index(0).key("x")), Some(4));
        assert_eq!(doc.line_of(&src.index(1)), Some(6));
        assert_eq!(doc.line_of(&src.index(1).key("missing")), Some(6), "falls back to the table");
        assert_eq!(doc.line_of(&src.index(1).key("t").key("k")), Some(8));
        assert_eq!(src.index(1).key("at").index(1).to_string(), "source[1].at[1]");
    }

    #[test]
    fn offsets_find_their_paths() {
        let doc = Doc::parse("s.toml", TEXT).unwrap();
        let offset = TEXT.find("nan").unwrap();
        assert_eq!(doc.path_at(offset).unwrap().to_string(), "source[1].at[1]");
        assert_eq!(doc.path_at(TEXT.find("k =").unwrap()).unwrap().to_string(), "source[1].t.k");
        let (path, v) = doc.first_non_finite().unwrap();
        assert_eq!(path.to_string(), "source[1].at[1]");
        assert!(v.is_nan());
    }

    #[test]
    fn syntax_errors_name_the_line_and_column_and_quote_it() {
        let err = Doc::parse("s.toml", "a = 1\nb = = 2\n").err().unwrap().to_string();
        assert_eq!(err, "s.toml:2:5: extra `=`, expected nothing: `b = = 2`");
    }
}
