//! What the scene refuses, by kind, and the one place a kind becomes an HTTP status.

use influence_scenario::error::{Invalid, Located, Problem};

use crate::api::ApiError;

/// A refused edit or lookup.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SceneError {
    /// No such thing: a source id, a bundled map, a layer.
    #[error("{0}")]
    NotFound(String),
    /// The scenario model refused a table or value; `problem` says what kind of fault.
    #[error("{message}")]
    Scenario {
        /// The kind of fault.
        problem: Problem,
        /// What is wrong, with the key at fault.
        message: String,
    },
    /// Over one of the sandbox's caps (`caps::limits`).
    #[error("{0}")]
    Limit(String),
    /// The server's own failure (an export that does not serialise).
    #[error("{0}")]
    Internal(String),
}

impl SceneError {
    /// A value out of range or not fitting the scene.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::Scenario { problem: Problem::Value, message: message.into() }
    }

    /// The same error with `prefix: ` before its message.
    #[must_use]
    pub fn within(self, prefix: &str) -> Self {
        match self {
            Self::NotFound(m) => Self::NotFound(format!("{prefix}: {m}")),
            Self::Scenario { problem, message } => {
                Self::Scenario { problem, message: format!("{prefix}: {message}") }
            }
            Self::Limit(m) => Self::Limit(format!("{prefix}: {m}")),
            Self::Internal(m) => Self::Internal(format!("{prefix}: {m}")),
        }
    }
}

impl From<Invalid> for SceneError {
    fn from(e: Invalid) -> Self {
        Self::Scenario { problem: e.problem(), message: e.to_string() }
    }
}

impl From<Located> for SceneError {
    fn from(e: Located) -> Self {
        Self::Scenario { problem: e.problem, message: e.to_string() }
    }
}

/// The status for what the scene refused: the one place kinds of fault become HTTP statuses.
impl From<SceneError> for ApiError {
    fn from(e: SceneError) -> Self {
        let status = match &e {
            SceneError::NotFound(_) => 404,
            SceneError::Scenario {
                problem: Problem::Syntax | Problem::UnknownKey | Problem::Type, ..
            } => 400,
            SceneError::Scenario { .. } | SceneError::Limit(_) => 422,
            SceneError::Internal(_) => 500,
        };
        Self::new(status, e.to_string())
    }
}
