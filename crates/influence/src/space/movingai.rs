//! The MovingAI benchmark map format (Sturtevant, "Benchmarks for Grid-Based Pathfinding",
//! 2012): a `type`/`height`/`width` header, the word `map`, then `height` rows of `width`
//! characters. Written here rather than taken from the `movingai` crate so that every error
//! names its line and sizes are checked before anything is allocated; the crate's parser is
//! used in the tests as a cross-check.

use std::path::Path;

use super::Grid;
use crate::error::Error;

impl Grid {
    /// Parses a MovingAI `.map` text: `.`/`G`/`S`/`W` walkable, `@`/`O`/`T` blocked.
    /// Cell size 1, origin (0, 0), 8-connected (the format's `octile` movement).
    ///
    /// ```
    /// let text = "type octile\nheight 2\nwidth 3\nmap\n..@\n.T.\n";
    /// let grid = influence::Grid::from_movingai(text)?;
    /// let blocked = |x, y| grid.is_blocked(influence::Cell::new(x, y));
    /// assert!(blocked(2, 0) && blocked(1, 1) && !blocked(0, 1));
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::MapFormat`] naming the line: a missing or malformed header field, too few or
    /// too many rows, a row of the wrong length, an unknown character.
    pub fn from_movingai(text: &str) -> Result<Self, Error> {
        let mut lines = text.lines().map(|l| l.trim_end_matches('\r')).enumerate();
        let (mut width, mut height) = (None, None);
        let mut map_line = None;
        for (n, line) in lines.by_ref() {
            let line_no = n + 1;
            let mut words = line.split_whitespace();
            match (words.next(), words.next(), words.next()) {
                (None, ..) => {}
                (Some("map"), None, _) => {
                    map_line = Some(line_no);
                    break;
                }
                (Some("type"), Some(_), None) => {}
                (Some(key @ ("width" | "height")), Some(value), None) => {
                    let parsed = value.parse::<usize>().map_err(|_| Error::MapFormat {
                        line: line_no,
                        message: format!("{key} must be a whole number, got {value:?}"),
                    })?;
                    *(if key == "width" { &mut width } else { &mut height }) = Some(parsed);
                }
                _ => {
                    return Err(Error::MapFormat {
                        line: line_no,
                        message: format!("expected `type`, `height`, `width` or `map`, got {line:?}"),
                    })
                }
            }
        }
        let header_end = map_line.ok_or_else(|| Error::MapFormat {
            line: text.lines().count().max(1),
            message: "no `map` line: the header ended without the map".into(),
        })?;
        let missing = |field: &str| Error::MapFormat {
            line: header_end,
            message: format!("header has no `{field}` line before `map`"),
        };
        let width = width.ok_or_else(|| missing("width"))?;
        let height = height.ok_or_else(|| missing("height"))?;
        let mut grid = Grid::new(width, height)
            .map_err(|e| Error::MapFormat { line: header_end, message: e.to_string() })?;
        let mut rows = 0;
        for (n, line) in lines {
            if rows == height {
                if line.trim().is_empty() {
                    continue;
                }
                return Err(Error::MapFormat {
                    line: n + 1,
                    message: format!("more than the {height} rows the header declares"),
                });
            }
            grid.fill_row(rows, line, n + 1)?;
            rows += 1;
        }
        if rows < height {
            return Err(Error::MapFormat {
                line: header_end + rows + 1,
                message: format!("the header declares {height} rows, the map has {rows}"),
            });
        }
        Ok(grid)
    }

    /// Reads and parses a MovingAI `.map` file (see [`Grid::from_movingai`]).
    ///
    /// # Errors
    /// [`Error::Io`] if the file cannot be read, [`Error::FileFormat`] with the path and line
    /// if it is malformed.
    pub fn load_movingai(path: impl AsRef<Path>) -> Result<Self, Error> {
        let path = path.as_ref();
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::Io { path: shown.clone(), message: e.to_string() })?;
        Self::from_movingai(&text).map_err(|e| match e {
            Error::MapFormat { line, message } => Error::FileFormat { path: shown, line, message },
            other => other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err_line(text: &str) -> (usize, String) {
        match Grid::from_movingai(text) {
            Err(Error::MapFormat { line, message }) => (line, message),
            other => panic!("expected a format error, got {other:?}"),
        }
    }

    #[test]
    fn parses_header_in_any_order_and_crlf() {
        let g = Grid::from_movingai("width 2\r\ntype octile\r\nheight 1\r\nmap\r\n.@\r\n\r\n").unwrap();
        assert_eq!((g.width(), g.height()), (2, 1));
        assert!(g.is_blocked(super::super::Cell::new(1, 0)));
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(err_line("type octile\nheight x\nwidth 2\nmap\n..\n").0, 2);
        assert_eq!(
            err_line("type octile\nheight 2\nwidth 2\nmap\n..\n.\n"),
            (6, "row has 1 cells, expected 2".into())
        );
        assert_eq!(err_line("type octile\nheight 1\nwidth 2\nmap\n..\n..\n").0, 6);
        assert_eq!(err_line("type octile\nheight 3\nwidth 2\nmap\n..\n").0, 6);
        assert_eq!(err_line("type octile\nheight 1\nwidth 2\nmap\n.%\n").0, 5);
        assert_eq!(err_line("type octile\nwidth 2\nmap\n..\n").0, 3);
        assert_eq!(err_line("type octile\nheight 1\nwidth 1\n").0, 3);
        assert_eq!(err_line("bogus line here\n").0, 1);
    }

    #[test]
    fn refuses_huge_headers_before_allocating() {
        let (line, msg) = err_line("type octile\nheight 100000000\nwidth 100000000\nmap\n");
        assert_eq!(line, 4);
        assert!(msg.contains("more than 268,435,456 (2^28) cells"), "{msg}");
    }

    #[test]
    fn load_reports_path() {
        let err = Grid::load_movingai("/no/such/file.map").unwrap_err();
        assert!(matches!(err, Error::Io { ref path, .. } if path == "/no/such/file.map"));
    }
}
