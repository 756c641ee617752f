//! Where a scenario's `map.file` names are read from: the scenario's folder, or maps built
//! into the program.

use std::borrow::Cow;
use std::path::PathBuf;

use influence::{Error, Grid};

use crate::error::{Invalid, Located, Problem};
use crate::key::KeyPath;

/// Where `map.file` names are read from.
#[derive(Debug)]
pub enum MapFiles<'a> {
    /// From disk; relative names resolve against this folder (the scenario's).
    Dir(PathBuf),
    /// Built into the program: `(name, text)` pairs.
    Embedded(&'a [(&'a str, &'a str)]),
}

impl MapFiles<'_> {
    /// The map's path as shown in messages, and its text.
    fn read(&self, name: &str) -> Result<(String, Cow<'_, str>), String> {
        match self {
            Self::Dir(dir) => {
                let path = dir.join(name);
                let shown = path.display().to_string();
                match std::fs::read_to_string(&path) {
                    Ok(text) => Ok((shown, Cow::Owned(text))),
                    Err(e) => Err(format!("cannot read {shown}: {e}")),
                }
            }
            Self::Embedded(maps) => maps
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(n, text)| ((*n).to_owned(), Cow::Borrowed(*text)))
                .ok_or_else(|| format!("no embedded map named {name:?}")),
        }
    }

    /// The MovingAI map `name`, for `map.file` of the scenario shown as `scenario`.
    ///
    /// # Errors
    /// [`Invalid`] at `map.file` for a map that cannot be read; a malformed one is named by
    /// its own path and line.
    pub fn grid(&self, name: &str, scenario: &str) -> Result<Grid, Invalid> {
        let key = KeyPath::root("map").key("file");
        let (shown, text) = self.read(name).map_err(|m| Invalid::at(&key, m))?;
        Grid::from_movingai(&text).map_err(|e| match e {
            Error::MapFormat { line, message } => {
                let context = format!("{message} (read for map.file of {scenario})");
                Invalid::File(Located::new(&shown, Problem::File, context).at(Some(line), None))
            }
            other => Invalid::at(&key, other),
        })
    }
}
