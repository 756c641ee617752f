//! Reading and writing graphs: the line-based text format (always), JSON (feature `serde`)
//! and `petgraph` graphs (feature `petgraph`). The formats are described in the
//! documentation of [`Graph`].

use std::fmt::Write as _;
use std::path::Path;

use glam::Vec3;

use super::graph::{Edge, Graph};
use crate::error::Error;

/// Where each node and edge of a text graph was declared, to put line numbers on the typed
/// errors of [`Graph::from_arcs`].
struct Lines {
    nodes: Vec<usize>,
    edges: Vec<usize>,
    last: usize,
}

impl Lines {
    fn locate(&self, e: &Error) -> Error {
        let line = match *e {
            Error::UnknownNode { edge, .. } | Error::BadEdgeLength { edge, .. } => self.edges[edge],
            Error::BadPosition { node, .. } => self.nodes[node],
            _ => self.last,
        };
        Error::MapFormat { line, message: e.to_string() }
    }
}

fn syntax(line: usize, message: impl Into<String>) -> Error {
    Error::MapFormat { line, message: message.into() }
}

fn number<T: std::str::FromStr>(line: usize, what: &str, word: Option<&str>) -> Result<T, Error> {
    let word = word.ok_or_else(|| syntax(line, format!("missing {what}")))?;
    word.parse().map_err(|_| syntax(line, format!("{what} must be a number, got {word:?}")))
}

impl Graph {
    /// Parses the text format: `n x y z [blocked]` per node, `e a b [length]` per
    /// undirected edge, `d a b [length]` per one-way arc, `#` comments.
    ///
    /// ```
    /// use influence::{space::Graph, Space};
    /// let graph = Graph::from_text("n 0 0 0\nn 3 4 0  # a waypoint\ne 0 1\n")?;
    /// assert_eq!(graph.len(), 2);
    /// let err = Graph::from_text("n 0 0 0\ne 0 7\n").unwrap_err().to_string();
    /// assert_eq!(err, "line 2: edge 0 joins node 7, but the graph has 1 nodes");
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::MapFormat`] naming the line: an unknown item, a missing or malformed number,
    /// extra words, and every check of [`Graph::from_arcs`] (edges to missing nodes, bad
    /// lengths, non-finite positions, too many nodes).
    pub fn from_text(text: &str) -> Result<Self, Error> {
        let mut positions = Vec::new();
        let mut blocked = Vec::new();
        let mut edges = Vec::new();
        let mut lines = Lines { nodes: Vec::new(), edges: Vec::new(), last: 0 };
        for (n, raw) in text.lines().enumerate() {
            let line = n + 1;
            lines.last = line;
            let content = raw.split('#').next().unwrap_or("");
            let mut words = content.split_whitespace();
            let Some(kind) = words.next() else { continue };
            match kind {
                "n" => {
                    let x = number(line, "x", words.next())?;
                    let y = number(line, "y", words.next())?;
                    let z = number(line, "z", words.next())?;
                    match words.next() {
                        None => {}
                        Some("blocked") => blocked.push(positions.len()),
                        Some(w) => {
                            return Err(syntax(line, format!("expected `blocked` or the end, got {w:?}")))
                        }
                    }
                    positions.push(Vec3::new(x, y, z));
                    lines.nodes.push(line);
                }
                "e" | "d" => {
                    let a = number(line, "node a", words.next())?;
                    let b = number(line, "node b", words.next())?;
                    let length = match words.next() {
                        Some(w) => Some(number(line, "length", Some(w))?),
                        None => None,
                    };
                    edges.push(Edge { a, b, length, directed: kind == "d" });
                    lines.edges.push(line);
                }
                other => {
                    return Err(syntax(
                        line,
                        format!("expected `n`, `e`, `d` or a `#` comment, got {other:?}"),
                    ))
                }
            }
            if let Some(w) = words.next() {
                return Err(syntax(line, format!("unexpected {w:?} at the end of the line")));
            }
        }
        Graph::build(positions, edges).and_then(|g| g.with_blocked(blocked)).map_err(|e| lines.locate(&e))
    }

    /// Reads and parses a text graph file (see [`Graph::from_text`]).
    ///
    /// # Errors
    /// [`Error::Io`] if the file cannot be read, [`Error::FileFormat`] with the path and line
    /// if it is malformed.
    pub fn load_text(path: impl AsRef<Path>) -> Result<Self, Error> {
        let path = path.as_ref();
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::Io { path: shown.clone(), message: e.to_string() })?;
        Self::from_text(&text).map_err(|e| match e {
            Error::MapFormat { line, message } => Error::FileFormat { path: shown, line, message },
            other => other,
        })
    }

    /// The graph in the text format; [`Graph::from_text`] reads it back equal. Numbers are
    /// written in Rust's shortest round-tripping form; a pair of opposite arcs of equal length
    /// as one undirected edge, every other arc as a one-way arc, lengths always given.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ =
            writeln!(out, "# influence graph: {} nodes, {} arcs", self.positions().len(), self.arc_count());
        for (p, &b) in self.positions().iter().zip(self.blocked()) {
            let _ = writeln!(out, "n {} {} {}{}", p.x, p.y, p.z, if b { " blocked" } else { "" });
        }
        for e in self.edges() {
            let kind = if e.directed { 'd' } else { 'e' };
            let _ = writeln!(out, "{kind} {} {} {}", e.a, e.b, e.length.unwrap_or_default());
        }
        out
    }

    /// The graph with the given nodes blocked.
    fn with_blocked(mut self, nodes: impl IntoIterator<Item = usize>) -> Result<Self, Error> {
        for i in nodes {
            self.set_blocked(i, true)?;
        }
        Ok(self)
    }
}

#[cfg(feature = "serde")]
mod json {
    use glam::Vec3;

    use super::super::graph::{is_false, Edge, Graph};
    use crate::error::Error;

    /// A node as the JSON form carries it.
    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Node {
        position: Vec3,
        #[serde(default, skip_serializing_if = "is_false")]
        blocked: bool,
    }

    /// The JSON document: `{"nodes": [{"position": [x, y, z], "blocked": true}, …],
    /// "edges": [{"a": 0, "b": 1, "length": 2.5, "directed": true}, …]}`, with `blocked`,
    /// `length` and `directed` optional.
    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Document {
        nodes: Vec<Node>,
        #[serde(default)]
        edges: Vec<Edge>,
    }

    impl Graph {
        /// Parses the JSON form (feature `serde`):
        ///
        /// ```
        /// use influence::{space::Graph, Space};
        /// let json = r#"{"nodes": [{"position": [0, 0, 0]}, {"position": [0, 0, 3], "blocked": true}],
        ///                "edges": [{"a": 0, "b": 1, "length": 5}]}"#;
        /// let graph = Graph::from_json(json)?;
        /// assert!(graph.is_walkable(0) && !graph.is_walkable(1));
        /// assert_eq!(Graph::from_json(&graph.to_json())?, graph);
        /// # Ok::<(), influence::Error>(())
        /// ```
        ///
        /// # Errors
        /// [`Error::MapFormat`] with serde's line for malformed JSON or unknown fields; the
        /// typed errors of [`Graph::from_arcs`] (naming the edge or node index) otherwise.
        pub fn from_json(text: &str) -> Result<Self, Error> {
            let doc: Document = serde_json::from_str(text).map_err(|e| {
                let message = e.to_string();
                // serde_json appends " at line L column C"; the line goes in its own field.
                let message = match message.rfind(" at line ") {
                    Some(k) => format!("{} (column {})", &message[..k], e.column()),
                    None => message,
                };
                Error::MapFormat { line: e.line().max(1), message }
            })?;
            let blocked: Vec<usize> =
                doc.nodes.iter().enumerate().filter(|(_, n)| n.blocked).map(|(i, _)| i).collect();
            let positions = doc.nodes.into_iter().map(|n| n.position).collect();
            Graph::build(positions, doc.edges)?.with_blocked(blocked)
        }

        /// The graph as compact JSON; [`Graph::from_json`] reads it back equal.
        pub fn to_json(&self) -> String {
            let nodes = self.positions().iter().zip(self.blocked());
            let nodes = nodes.map(|(&position, &blocked)| Node { position, blocked }).collect();
            let doc = Document { nodes, edges: self.edges() };
            // Serialising plain structs of numbers to a string cannot fail.
            serde_json::to_string(&doc).unwrap_or_default()
        }
    }
}

#[cfg(feature = "petgraph")]
mod petgraph_io {
    use glam::Vec3;
    use petgraph::graph::{DiGraph, IndexType};
    use petgraph::visit::EdgeRef;
    use petgraph::EdgeType;

    use super::super::graph::{Edge, Graph};
    use crate::error::Error;

    impl Graph {
        /// A graph from a `petgraph` graph (feature `petgraph`), with node indices kept:
        /// `position` gives each node's position, `length` each edge's length (`None` for
        /// the distance between its ends). Edges of an undirected `petgraph` graph become
        /// undirected edges, those of a directed one one-way arcs.
        ///
        /// ```
        /// use influence::{space::Graph, glam::Vec3, Space};
        /// let mut pg = petgraph::graph::UnGraph::<Vec3, ()>::new_undirected();
        /// let a = pg.add_node(Vec3::ZERO);
        /// let b = pg.add_node(Vec3::new(0.0, 2.0, 0.0));
        /// pg.add_edge(a, b, ());
        /// let graph = Graph::from_petgraph(&pg, |&p| p, |_| None)?;
        /// assert_eq!(graph.arc_count(), 2);
        /// let back = graph.to_petgraph();
        /// assert_eq!(Graph::from_petgraph(&back, |&(position, _)| position, |&l| Some(l))?, graph);
        /// # Ok::<(), influence::Error>(())
        /// ```
        ///
        /// # Errors
        /// The typed errors of [`Graph::from_arcs`] (edges numbered by `petgraph` edge index).
        pub fn from_petgraph<N, E, Ty: EdgeType, Ix: IndexType>(
            graph: &petgraph::Graph<N, E, Ty, Ix>,
            mut position: impl FnMut(&N) -> Vec3,
            mut length: impl FnMut(&E) -> Option<f32>,
        ) -> Result<Self, Error> {
            let positions = graph.node_weights().map(&mut position).collect();
            let edges: Vec<Edge> = graph
                .edge_references()
                .map(|e| Edge {
                    a: e.source().index(),
                    b: e.target().index(),
                    length: length(e.weight()),
                    directed: Ty::is_directed(),
                })
                .collect();
            Graph::build(positions, edges)
        }

        /// The graph as a directed `petgraph` graph (feature `petgraph`): node `i` is node
        /// index `i` weighted by its position and blocked flag, and every arc an edge
        /// weighted by its length (an undirected edge is two opposite arcs).
        pub fn to_petgraph(&self) -> DiGraph<(Vec3, bool), f32> {
            let mut out = DiGraph::with_capacity(self.positions().len(), self.arc_count());
            let nodes = self.positions().iter().zip(self.blocked());
            let ids: Vec<_> = nodes.map(|(&p, &b)| out.add_node((p, b))).collect();
            for (a, b, l) in self.arcs() {
                out.add_edge(ids[a], ids[b], l);
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Space;

    fn err_line(text: &str) -> (usize, String) {
        match Graph::from_text(text) {
            Err(Error::MapFormat { line, message }) => (line, message),
            other => panic!("expected a format error, got {other:?}"),
        }
    }

    #[test]
    fn parses_comments_blocked_nodes_lengths_and_arcs() {
        let g = Graph::from_text(
            "# header\n\nn 0 0 0\nn 4 0 0 blocked # b\n  n 4 3 0\ne 0 1\ne 1 2 9.5\nd 2 0\n",
        )
        .unwrap();
        assert_eq!(g.len(), 3);
        assert!(!g.is_walkable(1));
        let arcs: Vec<_> = g.arcs().collect();
        assert_eq!(arcs, vec![(0, 1, 4.0), (1, 0, 4.0), (1, 2, 9.5), (2, 0, 5.0), (2, 1, 9.5)]);
        assert_eq!(Graph::from_text(&g.to_text()).unwrap(), g);
    }

    #[test]
    fn the_documented_example_parses() {
        let g = Graph::from_text(
            "# two floors, 3 m apart, joined by a stair
n 0 0 0            # node 0 at (0, 0, 0)
n 4 0 0
n 4 0 3
n 0 0 3 blocked    # a node units cannot use (yet)
e 0 1              # an undirected edge; its length is the distance between the nodes
e 1 2 5.0          # ... or the length given (a stair is longer than the drop)
d 2 3              # a one-way arc from node 2 to node 3, optionally with a length
",
        )
        .unwrap();
        assert_eq!(
            g.arcs().collect::<Vec<_>>(),
            vec![(0, 1, 4.0), (1, 0, 4.0), (1, 2, 5.0), (2, 3, 4.0), (2, 1, 5.0)]
        );
        assert!(!g.is_walkable(3));
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(err_line("n 0 0\n").0, 1);
        assert_eq!(err_line("n 0 0 0\nn 0 x 0\n"), (2, "y must be a number, got \"x\"".into()));
        assert_eq!(err_line("n 0 0 0 open\n").0, 1);
        assert_eq!(err_line("n 0 0 0\nn 1 0 0\ne 0 1 2 3\n").0, 3);
        assert_eq!(err_line("n 0 0 0\nq 1\n").0, 2);
        assert_eq!(err_line("n 0 0 0\n\ne 0 -1\n").0, 3);
        assert_eq!(err_line("n 0 0 0\nn 1 0 0\n# c\ne 0 1 -2\n").0, 4);
        assert_eq!(err_line("n 0 0 0\nn 1 NaN 0\ne 0 1\n").0, 2);
        assert_eq!(err_line("n 0 0 0\ne 0 1\nn 1 0 0\ne 1 2\n").0, 4);
        assert_eq!(err_line("n 0 0 0\nn 1 0 0\ne 0 1 inf\n").0, 3);
    }

    #[test]
    fn load_reports_the_path() {
        let err = Graph::load_text("/no/such/graph.txt").unwrap_err();
        assert!(matches!(err, Error::Io { ref path, .. } if path == "/no/such/graph.txt"));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn json_round_trips_and_reports_lines() {
        let g = Graph::from_text("n 0 0 0\nn 1 0 0 blocked\nn 1 1 2.5\ne 0 1\nd 1 2 7\n").unwrap();
        assert_eq!(Graph::from_json(&g.to_json()).unwrap(), g);
        match Graph::from_json("{\"nodes\": [\n{\"position\": [0, 0]}]}") {
            Err(Error::MapFormat { line: 2, message }) => assert!(!message.contains("at line"), "{message}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            Graph::from_json(r#"{"nodes": [{"position": [0, 0, 0]}], "edges": [{"a": 0, "b": 3}]}"#),
            Err(Error::UnknownNode { edge: 0, node: 3, nodes: 1 })
        ));
        assert!(matches!(Graph::from_json(r#"{"nodes": [], "wat": 1}"#), Err(Error::MapFormat { .. })));
    }
}
