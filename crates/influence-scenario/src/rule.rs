//! The ranges the scenario's numbers must lie in, checked at their keys before the library
//! sees them: a bad value is named by its key without reading the library's error.

use crate::error::Invalid;
use crate::key::KeyPath;

/// A range a number must lie in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rule {
    /// Finite.
    Finite,
    /// Finite and > 0.
    Positive,
    /// Finite and >= 0.
    NonNegative,
    /// Within [0, 1].
    Unit,
    /// Within [-1, 1].
    Factor,
}

impl Rule {
    /// What the rule asks, for messages.
    fn words(self) -> &'static str {
        match self {
            Self::Finite => "a finite number",
            Self::Positive => "a finite number greater than 0",
            Self::NonNegative => "a finite number, 0 or more",
            Self::Unit => "a number from 0 to 1",
            Self::Factor => "a number from -1 to 1",
        }
    }

    fn holds(self, v: f32) -> bool {
        match self {
            Self::Finite => v.is_finite(),
            Self::Positive => v.is_finite() && v > 0.0,
            Self::NonNegative => v.is_finite() && v >= 0.0,
            Self::Unit => (0.0..=1.0).contains(&v),
            Self::Factor => (-1.0..=1.0).contains(&v),
        }
    }
}

/// `value` at `key`, if it keeps `rule`.
///
/// # Errors
/// [`Invalid`] at `key`: "`<key name>` must be ..., got ...".
pub(crate) fn check(key: &KeyPath, value: f32, rule: Rule) -> Result<f32, Invalid> {
    if rule.holds(value) {
        Ok(value)
    } else {
        let name = key.last_key().unwrap_or_default();
        Err(Invalid::at(key, format!("{name} must be {}, got {value}", rule.words())))
    }
}

/// The same for an optional value: `None` passes.
///
/// # Errors
/// As [`check`].
pub(crate) fn check_opt(key: &KeyPath, value: Option<f32>, rule: Rule) -> Result<Option<f32>, Invalid> {
    value.map(|v| check(key, v, rule)).transpose()
}
