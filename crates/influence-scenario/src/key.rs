//! Key paths such as `source[2].strength`: where in a scenario a value stands, the same for
//! a TOML file and the sandbox's JSON.

use std::fmt;

/// One step of a key path.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Seg {
    Key(String),
    Index(usize),
}

/// A path to a key or array element, shown as `source[2].strength`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeyPath(pub(crate) Vec<Seg>);

impl KeyPath {
    /// A one-key path.
    pub fn root(key: &str) -> Self {
        Self::default().key(key)
    }

    /// This path followed by `key`.
    #[must_use]
    pub fn key(&self, key: &str) -> Self {
        self.with(Seg::Key(key.to_owned()))
    }

    /// This path followed by array index `i`.
    #[must_use]
    pub fn index(&self, i: usize) -> Self {
        self.with(Seg::Index(i))
    }

    /// Whether this is the empty path (the whole document, or a table sent alone).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The last key name of the path (`strength` of `source[2].strength`).
    pub fn last_key(&self) -> Option<&str> {
        self.0.iter().rev().find_map(|s| match s {
            Seg::Key(k) => Some(k.as_str()),
            Seg::Index(_) => None,
        })
    }

    pub(crate) fn with(&self, seg: Seg) -> Self {
        let mut segs = self.0.clone();
        segs.push(seg);
        Self(segs)
    }
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(k) if n == 0 => write!(f, "{k}")?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}
