//! The two errors of the scenario model: [`Invalid`], a value refused at its key path (what
//! checking one table gives), and [`Located`], a message placed in a file at its line —
//! `file:line: key: message` — what reading a whole scenario gives.

use std::fmt;

use crate::key::KeyPath;

/// A message pinned to a place: `file:line: key: message`, leaving out what is unknown.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    /// The file as shown to the user.
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// The key path (`source[2].strength`), when the problem has one.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl Located {
    /// A problem in `file`, optionally at a line and key.
    pub fn new(file: &str, line: Option<usize>, key: Option<String>, message: impl fmt::Display) -> Self {
        Self { file: file.to_owned(), line, key, message: message.to_string() }
    }
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
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
        /// What is wrong.
        message: String,
    },
    /// A line of a file the scenario names: a malformed map file.
    File(Located),
}

impl Invalid {
    /// The value at `key` is refused because of `message`.
    pub fn at(key: &KeyPath, message: impl fmt::Display) -> Self {
        Self::Key { key: key.clone(), message: message.to_string() }
    }
}

/// `key: message` (just the message for the empty path), or the other file's place.
impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Key { key, message } if key.is_empty() => f.write_str(message),
            Self::Key { key, message } => write!(f, "{key}: {message}"),
            Self::File(located) => located.fmt(f),
        }
    }
}

impl std::error::Error for Invalid {}
