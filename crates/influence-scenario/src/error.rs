//! The two errors of the scenario model: [`Invalid`], a value refused at its key path (what
//! checking one table gives), and [`Located`], a message placed in a file at its line and
//! column — shown as `file:line:column: key: message` — what reading a whole scenario gives. Both
//! carry a [`Problem`], the kind of fault, so that a front end chooses how to answer (an
//! exit code, an HTTP status) without reading the message.

use std::fmt;

use crate::key::KeyPath;

/// The kind of a fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Problem {
    /// Not TOML (or not UTF-8).
    Syntax,
    /// A key that the table does not take.
    UnknownKey,
    /// A value of the wrong type, or a name that is not one of those allowed.
    Type,
    /// A required key is missing.
    Missing,
    /// A value out of range, or one that does not fit the rest of the scenario.
    Value,
    /// A file the scenario names (or the scenario itself) cannot be read, or is malformed.
    File,
    /// The library refused the scenario while running it.
    Run,
}

/// A message pinned to a place: `file:line:column: key: message`, leaving out what is unknown.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    /// The file as shown to the user.
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column (in characters), when known.
    pub column: Option<usize>,
    /// The key path (`source[2].strength`), when the problem has one.
    pub key: Option<KeyPath>,
    /// The kind of fault.
    pub problem: Problem,
    /// What is wrong.
    pub message: String,
}

impl Located {
    /// A problem in `file`, at no particular place.
    pub fn new(file: &str, problem: Problem, message: impl fmt::Display) -> Self {
        Self {
            file: file.to_owned(),
            line: None,
            column: None,
            key: None,
            problem,
            message: message.to_string(),
        }
    }

    /// The same, at `line` and `column`.
    #[must_use]
    pub fn at(mut self, line: Option<usize>, column: Option<usize>) -> Self {
        (self.line, self.column) = (line, column);
        self
    }

    /// The same, about `key`.
    #[must_use]
    pub fn with_key(mut self, key: KeyPath) -> Self {
        self.key = (!key.is_empty()).then_some(key);
        self
    }
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        if let Some(key) = &self.key {
            write!(f, ": {key}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for Located {}

/// A table refused: the key at fault, or a line of another file the scenario names. A
/// [`Doc`](crate::doc::Doc) places it in the scenario file ([`Doc::place`](crate::doc::Doc::place)).
#[derive(Debug, Clone, PartialEq)]
pub enum Invalid {
    /// A value of the scenario: the key path it is about, and what is wrong.
    Key {
        /// Where, as `source[2].strength`.
        key: KeyPath,
        /// The kind of fault.
        problem: Problem,
        /// What is wrong.
        message: String,
    },
    /// A line of a file the scenario names: a malformed map file.
    File(Located),
}

impl Invalid {
    /// The value at `key` is refused because of `message` (out of range, or not fitting).
    pub fn at(key: &KeyPath, message: impl fmt::Display) -> Self {
        Self::Key { key: key.clone(), problem: Problem::Value, message: message.to_string() }
    }

    /// The required `key` is missing: `message` says what it is for.
    pub fn missing(key: &KeyPath, message: impl fmt::Display) -> Self {
        Self::Key { key: key.clone(), problem: Problem::Missing, message: message.to_string() }
    }

    /// The kind of fault.
    pub fn problem(&self) -> Problem {
        match self {
            Self::Key { problem, .. } => *problem,
            Self::File(located) => located.problem,
        }
    }
}

/// `key: message` (just the message for the empty path), or the other file's place.
impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Key { key, message, .. } if key.is_empty() => f.write_str(message),
            Self::Key { key, message, .. } => write!(f, "{key}: {message}"),
            Self::File(located) => located.fmt(f),
        }
    }
}

impl std::error::Error for Invalid {}
