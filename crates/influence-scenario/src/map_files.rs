//! Where a scenario's `map.file` names are read from: the scenario's folder, or maps built
//! into the program.

use std::borrow::Cow;
use std::path::PathBuf;

use influence::{Error, Grid};

use crate::error::{Invalid, Located, Problem};
use crate::key::KeyPath;

/// The largest map file read: a 16384 × 16384 map (the library's `MAX_CELLS`) with its
/// line ends and header.
pub const MAX_MAP_FILE: u64 = (1 << 28) + (1 << 14) + (1 << 12);

/// The largest scenario file read: room for `rows` as large as the largest map file.
pub const MAX_SCENARIO_FILE: u64 = 2 * MAX_MAP_FILE;

/// The bytes of the regular file at `path`, refused past `cap` bytes before they are read
/// (a device such as `/dev/zero` or a huge file never fills memory).
pub(crate) fn read_capped(path: &std::path::Path, cap: u64, what: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(format!("not a regular file (a {what} must be one)"));
    }
    let too_big =
        |size: &str| format!("{size} bytes, more than a {what} may have ({})", crate::memory::thousands(cap));
    if meta.len() > cap {
        return Err(too_big(&crate::memory::thousands(meta.len())));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(cap + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > cap {
        return Err(too_big("more than that many"));
    }
    Ok(bytes)
}

/// The text of the map file at `path`, capped at [`MAX_MAP_FILE`] bytes.
fn read_map(path: &std::path::Path) -> Result<String, String> {
    let bytes = read_capped(path, MAX_MAP_FILE, "map file")?;
    String::from_utf8(bytes)
        .map_err(|e| format!("not UTF-8 text: invalid byte at offset {}", e.utf8_error().valid_up_to()))
}

/// The MovingAI map file at `path` on its own, not named by a scenario: for commands that
/// take a map file directly (`influence bench --frame --maps`). Read as `map.file` is:
/// capped at [`MAX_MAP_FILE`] bytes, UTF-8, then parsed.
///
/// # Errors
/// A [`Located`] at the file: unreadable, too large, not UTF-8 text, or malformed (with the
/// line).
pub fn read_movingai(path: &std::path::Path) -> Result<Grid, Located> {
    let shown = path.display().to_string();
    let text =
        read_map(path).map_err(|e| Located::new(&shown, Problem::File, format!("cannot read it: {e}")))?;
    Grid::from_movingai(&text).map_err(|e| match e {
        Error::MapFormat { line, message } => {
            Located::new(&shown, Problem::File, message).at(Some(line), None)
        }
        other => Located::new(&shown, Problem::File, other),
    })
}

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
                read_map(&path)
                    .map(|text| (shown.clone(), Cow::Owned(text)))
                    .map_err(|e| format!("cannot read {shown}: {e}"))
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
