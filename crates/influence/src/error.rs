//! Typed errors. Every fallible entry point that takes outside data returns one of these,
//! naming what was wrong and where; nothing in the library panics on input.

use thiserror::Error;

/// The library's error type.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A map dimension was zero, or the cell count exceeds [`crate::MAX_CELLS`].
    #[error("map size {width}×{height} is not allowed: {reason}")]
    BadSize {
        /// Width in cells.
        width: usize,
        /// Height in cells.
        height: usize,
        /// Why it was refused.
        reason: &'static str,
    },
    /// A number that must be finite (and sometimes positive) was not.
    #[error("{what} must be {expected}, got {value}")]
    BadNumber {
        /// The parameter's name.
        what: &'static str,
        /// What was expected, e.g. "finite and > 0".
        expected: &'static str,
        /// The value received.
        value: f64,
    },
    /// A text map (MovingAI `.map` or ASCII rows) was malformed.
    #[error("line {line}: {message}")]
    MapFormat {
        /// 1-based line number in the text.
        line: usize,
        /// What was wrong on that line.
        message: String,
    },
    /// A band falloff's points were empty, unsorted or not finite.
    #[error("band falloff: {0}")]
    BadBand(&'static str),
    /// A file could not be read.
    #[error("{path}: {message}")]
    Io {
        /// The file's path as given.
        path: String,
        /// The operating system's message.
        message: String,
    },
    /// A text map read from a file was malformed.
    #[error("{path}: line {line}: {message}")]
    FileFormat {
        /// The file's path as given.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What was wrong on that line.
        message: String,
    },
    /// A cell or node index outside the space.
    #[error("index {index} is outside the space of {len} cells")]
    OutOfBounds {
        /// The index given.
        index: usize,
        /// The number of cells.
        len: usize,
    },
    /// An additive seed on a cell that no reference (`Set`) seed pins: it adds to the
    /// cell's own diffused value every step, so the steady state has no one-sweep solution.
    #[error("additive seed at cell {index} has no steady state: pin the cell with a Set seed or use Max")]
    NoSteadyState {
        /// The seed's cell.
        index: usize,
    },
    /// A cell that must be walkable (a flood fill's last-seen cell) is blocked.
    #[error("cell {index} is blocked")]
    Blocked {
        /// The cell's index.
        index: usize,
    },
    /// A source that could not be placed, so nothing was stamped
    /// ([`Source::check_placement`](crate::Source::check_placement)): it stands on a blocked
    /// cell, or (a point, or walking distance, which start from the source's own cell) on
    /// no walkable cell at all. On a grid `cell` is the blocked cell `[x, y]` (`None` outside
    /// the grid) and `nearest` the walkable cell nearest to the source, where it could stand
    /// instead; each converts into a [`Cell`](crate::Cell).
    #[error("the source at ({x}, {y}) {}{}", on_cell(*.cell), nearest_cell(*.nearest))]
    Unplaced {
        /// The source's world x.
        x: f32,
        /// The source's world y.
        y: f32,
        /// The blocked grid cell it stands on, `[x, y]`.
        cell: Option<[usize; 2]>,
        /// The walkable grid cell nearest to it, `[x, y]`.
        nearest: Option<[usize; 2]>,
    },
    /// A valid value with no counterpart where it was used, e.g. a grid falloff that has no
    /// differentiable field curve.
    #[error("{what} is not supported: {reason}")]
    Unsupported {
        /// What was given, e.g. "source 3: falloff Band".
        what: String,
        /// Why it cannot be used.
        reason: &'static str,
    },
    /// A graph edge names a node the graph does not have.
    #[error("edge {edge} joins node {node}, but the graph has {nodes} nodes")]
    UnknownNode {
        /// The edge's position in the edge list (0-based).
        edge: usize,
        /// The missing node.
        node: usize,
        /// How many nodes the graph has.
        nodes: usize,
    },
    /// A graph edge length that is negative or not finite.
    #[error("edge {edge} has length {length}: lengths must be finite and >= 0")]
    BadEdgeLength {
        /// The edge's position in the edge list (0-based).
        edge: usize,
        /// The length given.
        length: f64,
    },
    /// A graph node position with a coordinate that is not finite.
    #[error("node {node} has position ({x}, {y}, {z}): coordinates must be finite")]
    BadPosition {
        /// The node.
        node: usize,
        /// The x coordinate given.
        x: f64,
        /// The y coordinate given.
        y: f64,
        /// The z coordinate given.
        z: f64,
    },
    /// More graph nodes or edges than the documented limit
    /// ([`space::MAX_NODES`](crate::space::MAX_NODES), [`space::MAX_ARCS`](crate::space::MAX_ARCS)).
    #[error("{count} {what} exceed the limit of {max}")]
    TooMany {
        /// "nodes" or "arcs".
        what: &'static str,
        /// How many were given.
        count: usize,
        /// The limit.
        max: usize,
    },
}

/// Checks that `value` is finite.
pub(crate) fn finite(what: &'static str, value: f32) -> Result<f32, Error> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(Error::BadNumber { what, expected: "finite", value: f64::from(value) })
    }
}

/// Checks that `value` is finite and strictly positive.
pub(crate) fn positive(what: &'static str, value: f32) -> Result<f32, Error> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(Error::BadNumber { what, expected: "finite and > 0", value: f64::from(value) })
    }
}

/// Checks that `value` is finite and not negative.
pub(crate) fn non_negative(what: &'static str, value: f32) -> Result<f32, Error> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(Error::BadNumber { what, expected: "finite and >= 0", value: f64::from(value) })
    }
}

/// The middle of [`Error::Unplaced`]'s message.
fn on_cell(cell: Option<[usize; 2]>) -> String {
    match cell {
        Some([x, y]) => format!("is on blocked cell ({x}, {y})"),
        None => "is on no walkable cell (outside the map)".to_owned(),
    }
}

/// The end of [`Error::Unplaced`]'s message.
fn nearest_cell(cell: Option<[usize; 2]>) -> String {
    cell.map_or_else(String::new, |[x, y]| format!("; the nearest walkable cell is ({x}, {y})"))
}
