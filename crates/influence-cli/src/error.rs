//! The command's error type. Bad input (exit code 2) names the file, the line and the key;
//! failing to write the output (exit code 1) names the path.

pub use influence_scenario::Located;
use thiserror::Error;

/// Everything that can stop a run.
#[derive(Debug, Error)]
pub enum CliError {
    /// Something is wrong in the scenario or in a file it names.
    #[error("{0}")]
    Input(Located),
    /// A command-line argument is out of range.
    #[error("{0}")]
    Usage(String),
    /// An output file or folder could not be written.
    #[error("cannot write {path}: {message}")]
    Output {
        /// The path as shown to the user.
        path: String,
        /// The operating system's message.
        message: String,
    },
}

impl CliError {
    /// The process exit code: 2 for bad input, 1 for output failures.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Input(_) | Self::Usage(_) => 2,
            Self::Output { .. } => 1,
        }
    }

    /// An output error at `path`.
    pub fn output(path: &std::path::Path, err: &std::io::Error) -> Self {
        Self::Output { path: path.display().to_string(), message: err.to_string() }
    }
}

impl From<Located> for CliError {
    fn from(located: Located) -> Self {
        Self::Input(located)
    }
}
