//! The graph space: see [`Graph`].

use glam::Vec3;
use rstar::primitives::GeomWithData;
use rstar::RTree;

use super::Space;
use crate::error::Error;

/// The most nodes a graph may have: 2²⁸, as many as a grid's cells ([`crate::MAX_CELLS`]).
pub const MAX_NODES: usize = 1 << 28;
/// The most arcs (an undirected edge is two arcs) a graph may have: 2³¹.
pub const MAX_ARCS: usize = 1 << 31;

/// An edge of a graph under construction: two node indices, an optional length (the
/// distance between the nodes' positions when `None`), and whether it is one-way. The text
/// and JSON forms read into it; [`Graph::from_edges`] and [`Graph::from_arcs`] take plain
/// pairs and triples.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub(super) struct Edge {
    /// One end (the tail of a one-way arc).
    pub(super) a: usize,
    /// The other end (the head of a one-way arc).
    pub(super) b: usize,
    /// Length in world units; `None` for the distance between the ends' positions.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub(super) length: Option<f32>,
    /// `true` for a one-way arc from `a` to `b`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_false"))]
    pub(super) directed: bool,
}

#[cfg(feature = "serde")]
#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
pub(super) fn is_false(b: &bool) -> bool {
    !*b
}

type Entry = GeomWithData<[f32; 3], u32>;

/// Nodes at 3D positions joined by edges with lengths, stored as CSR; a [`Space`]:
/// waypoint networks, navmesh polygons, area graphs.
///
/// "The Core Mechanics of Influence Mapping" (Champandard) lists the representations an
/// influence map can live on — a 2D grid, an area graph, a waypoint network (which "you can
/// easily wrap over multiple levels of a building"), a coarse grid — and runs the same
/// propagation over each; Tayebi ("Influence Maps in Game AI") builds his on a waypoint
/// graph. A [`Graph`] is such a representation: nodes at 3D positions (so floors stack),
/// some blocked, joined by undirected edges or one-way arcs. It implements [`Space`], so the
/// diffusion step, steady state, sparse diffusion, memory layers, flood fill, queries,
/// analysis and path search run on it unchanged.
///
/// Arcs are stored compressed (CSR: an offset per node into one array of targets and one of
/// lengths), so a sweep over a node's neighbours reads two contiguous slices; each node's
/// arcs are sorted by length, so the diffusion step's exponentials are computed once per
/// distinct length rather than once per arc. Positions are indexed by an R*-tree
/// ([`rstar`]) for [`Graph::nearest`] and [`Space::for_each_within`].
///
/// ## The text format
///
/// One item per line; `#` starts a comment; blank lines are ignored; numbers are separated
/// by white space. Nodes are numbered from 0 in the order their lines appear.
///
/// ```text
/// # two floors, 3 m apart, joined by a stair
/// n 0 0 0            # node 0 at (0, 0, 0)
/// n 4 0 0
/// n 4 0 3
/// n 0 0 3 blocked    # a node units cannot use (yet)
/// e 0 1              # an undirected edge; its length is the distance between the nodes
/// e 1 2 5.0          # ... or the length given (a stair is longer than the drop)
/// d 2 3              # a one-way arc from node 2 to node 3, optionally with a length
/// ```
///
/// [`Graph::from_text`] reads it; errors name the line ([`Error::MapFormat`]), including the
/// checks of [`Graph::from_arcs`]. With the `serde` feature the same graph reads and writes
/// as JSON (`Graph::from_json`, `Graph::to_json`).
///
/// ## Directed graphs and diffusion
///
/// [`Space::for_each_neighbour`] lists the arcs *leaving* a node, which is what path search
/// and path-distance stamping follow. The diffusion step *pulls*: a node takes the best of
/// its neighbours' values, so on a graph with one-way arcs influence spreads against the
/// arcs. Diffuse over [`Graph::reversed`] to spread it along them (on undirected graphs the
/// two are the same).
///
/// ## Example
///
/// ```
/// use influence::{space::Graph, glam::Vec3, Space};
/// // A corridor bending round a corner: 0 — 1 — 2.
/// let graph = Graph::from_edges(
///     vec![Vec3::ZERO, Vec3::new(3.0, 0.0, 0.0), Vec3::new(3.0, 4.0, 0.0)],
///     [(0, 1), (1, 2)],
/// )?;
/// let mut around = Vec::new();
/// graph.for_each_neighbour(1, |j, d| around.push((j, d)));
/// assert_eq!(around, vec![(0, 3.0), (2, 4.0)]);
/// assert_eq!(graph.nearest(Vec3::new(2.9, 3.5, 0.0), f32::INFINITY), Some(2));
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Graph {
    positions: Vec<Vec3>,
    blocked: Vec<bool>,
    /// Arcs of node `i` are `offsets[i]..offsets[i + 1]`.
    offsets: Vec<u32>,
    targets: Vec<u32>,
    lengths: Vec<f32>,
    /// Every node's position, blocked or not (blocking changes nothing here).
    index: RTree<Entry>,
}

impl PartialEq for Graph {
    /// Same nodes (positions and flags) and same arcs; the index follows from the positions.
    fn eq(&self, other: &Self) -> bool {
        self.positions == other.positions
            && self.blocked == other.blocked
            && self.offsets == other.offsets
            && self.targets == other.targets
            && self.lengths == other.lengths
    }
}

/// A node position that is finite, or the typed error naming the node.
fn check_position(node: usize, p: Vec3) -> Result<(), Error> {
    if p.is_finite() {
        Ok(())
    } else {
        Err(Error::BadPosition { node, x: p.x.into(), y: p.y.into(), z: p.z.into() })
    }
}

impl Graph {
    /// A graph of open nodes at `positions` joined by undirected `edges` `(a, b)`, each as
    /// long as the straight line between its nodes. Self-loops are dropped (a node is not its
    /// own neighbour); parallel edges are kept. Edges of other lengths and one-way arcs:
    /// [`Graph::from_arcs`].
    ///
    /// # Errors
    /// [`Error::BadPosition`] for a coordinate that is not finite, [`Error::UnknownNode`] for
    /// an edge to a node index ≥ `positions.len()`, [`Error::TooMany`] for more than
    /// [`MAX_NODES`] nodes or [`MAX_ARCS`] arcs. Edges are numbered from 0 in the errors.
    pub fn from_edges(
        positions: Vec<Vec3>,
        edges: impl IntoIterator<Item = (usize, usize)>,
    ) -> Result<Self, Error> {
        let edges = edges.into_iter().map(|(a, b)| Edge { a, b, length: None, directed: false });
        Self::build(positions, edges)
    }

    /// A graph of open nodes at `positions` joined by one-way arcs `(tail, head, length)`:
    /// the general form, which [`Graph::arcs`] gives back (`Graph::from_arcs(positions,
    /// graph.arcs())` rebuilds a graph's arcs exactly). An undirected edge is two opposite
    /// arcs. Self-loops are dropped; parallel arcs are kept.
    ///
    /// ```
    /// use influence::{space::Graph, glam::Vec3, Space};
    /// // A ledge: a drop from node 0 down to node 1, 3 units long, and no way back up.
    /// let graph = Graph::from_arcs(vec![Vec3::new(0.0, 0.0, 3.0), Vec3::ZERO], [(0, 1, 3.0)])?;
    /// let mut down = Vec::new();
    /// graph.for_each_neighbour(0, |j, d| down.push((j, d)));
    /// assert_eq!(down, vec![(1, 3.0)]);
    /// assert_eq!(graph.arcs().collect::<Vec<_>>(), vec![(0, 1, 3.0)]);
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Graph::from_edges`] (arcs numbered from 0), and [`Error::BadEdgeLength`] for a
    /// length that is negative or not finite.
    pub fn from_arcs(
        positions: Vec<Vec3>,
        arcs: impl IntoIterator<Item = (usize, usize, f32)>,
    ) -> Result<Self, Error> {
        let arcs = arcs.into_iter().map(|(a, b, l)| Edge { a, b, length: Some(l), directed: true });
        Self::build(positions, arcs)
    }

    /// A graph of open nodes from checked edges (see [`Graph::from_edges`]).
    pub(super) fn build(positions: Vec<Vec3>, edges: impl IntoIterator<Item = Edge>) -> Result<Self, Error> {
        let n = positions.len();
        if n > MAX_NODES {
            return Err(Error::TooMany { what: "nodes", count: n, max: MAX_NODES });
        }
        for (i, &p) in positions.iter().enumerate() {
            check_position(i, p)?;
        }
        let mut arcs: Vec<(u32, u32, f32)> = Vec::new();
        for (k, edge) in edges.into_iter().enumerate() {
            let Edge { a, b, length, directed } = edge;
            for node in [a, b] {
                if node >= n {
                    return Err(Error::UnknownNode { edge: k, node, nodes: n });
                }
            }
            let length = length.unwrap_or_else(|| positions[a].distance(positions[b]));
            if !(length.is_finite() && length >= 0.0) {
                return Err(Error::BadEdgeLength { edge: k, length: length.into() });
            }
            if a == b {
                continue;
            }
            let added = if directed { 1 } else { 2 };
            if arcs.len() + added > MAX_ARCS {
                return Err(Error::TooMany { what: "arcs", count: arcs.len() + added, max: MAX_ARCS });
            }
            // Both fit in u32: n ≤ MAX_NODES = 2^28.
            arcs.push((a as u32, b as u32, length));
            if !directed {
                arcs.push((b as u32, a as u32, length));
            }
        }
        Ok(Self::assemble(positions, vec![false; n], arcs))
    }

    /// Builds the CSR from checked arcs, sorted by tail, then length, then head, so equal
    /// inputs in any order give equal graphs. Length before head puts equal lengths side by
    /// side: the diffusion step computes one exponential per run of equal lengths (its
    /// coefficient cache holds the last one), not one per arc.
    fn assemble(positions: Vec<Vec3>, blocked: Vec<bool>, mut arcs: Vec<(u32, u32, f32)>) -> Self {
        let n = positions.len();
        arcs.sort_unstable_by(|x, y| x.0.cmp(&y.0).then(x.2.total_cmp(&y.2)).then(x.1.cmp(&y.1)));
        let mut offsets = vec![0u32; n + 1];
        for &(a, _, _) in &arcs {
            offsets[a as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let targets = arcs.iter().map(|a| a.1).collect();
        let lengths = arcs.iter().map(|a| a.2).collect();
        let entries = positions.iter().enumerate().map(|(i, p)| GeomWithData::new(p.to_array(), i as u32));
        let index = RTree::bulk_load(entries.collect());
        Self { positions, blocked, offsets, targets, lengths, index }
    }

    /// A graph with one node per cell of `space` (same indices, positions and blocked flags)
    /// and one arc per neighbour step the space lists from each walkable cell, with its
    /// distance. Every algorithm then gives the same answer on the graph as on the space:
    /// a grid turned into a graph diffuses, stamps by path and finds paths exactly as the grid.
    ///
    /// ```
    /// use influence::{space::Graph, Grid, Space};
    /// let grid = Grid::from_rows(&["..", ".@"])?;
    /// let graph = Graph::from_space(&grid)?;
    /// assert_eq!((graph.len(), graph.arc_count()), (4, 4)); // no diagonal past the wall
    /// assert!(!graph.is_walkable(3) && graph.position(1) == grid.position(1));
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::TooMany`] beyond [`MAX_NODES`] cells or [`MAX_ARCS`] arcs, and the typed
    /// errors of [`Graph::from_arcs`] for a space that reports non-finite positions or
    /// distances or neighbours outside itself.
    pub fn from_space<S: Space>(space: &S) -> Result<Self, Error> {
        let n = space.len();
        if n > MAX_NODES {
            return Err(Error::TooMany { what: "nodes", count: n, max: MAX_NODES });
        }
        let positions: Vec<Vec3> = (0..n).map(|i| space.position(i)).collect();
        for (i, &p) in positions.iter().enumerate() {
            check_position(i, p)?;
        }
        let blocked = (0..n).map(|i| !space.is_walkable(i)).collect();
        let mut arcs = Vec::new();
        let mut bad = None;
        for i in (0..n).filter(|&i| space.is_walkable(i)) {
            space.for_each_neighbour(i, |j, d| {
                let k = arcs.len();
                if j >= n {
                    bad.get_or_insert(Error::UnknownNode { edge: k, node: j, nodes: n });
                } else if !(d.is_finite() && d >= 0.0) {
                    bad.get_or_insert(Error::BadEdgeLength { edge: k, length: d.into() });
                } else if i != j {
                    arcs.push((i as u32, j as u32, d));
                }
            });
            if let Some(e) = bad {
                return Err(e);
            }
            if arcs.len() > MAX_ARCS {
                return Err(Error::TooMany { what: "arcs", count: arcs.len(), max: MAX_ARCS });
            }
        }
        Ok(Self::assemble(positions, blocked, arcs))
    }

    /// The same graph with every arc turned round (`a → b` becomes `b → a`): diffuse over it
    /// to spread influence *along* one-way arcs (see [`Graph`]).
    #[must_use]
    pub fn reversed(&self) -> Self {
        let arcs = self.arcs().map(|(a, b, l)| (b as u32, a as u32, l)).collect();
        Self::assemble(self.positions.clone(), self.blocked.clone(), arcs)
    }

    /// Blocks or frees node `i`: a blocked node keeps its arcs but is never a neighbour,
    /// so nothing passes through it until it is freed.
    ///
    /// # Errors
    /// [`Error::OutOfBounds`] for a node outside the graph.
    pub fn set_blocked(&mut self, i: usize, blocked: bool) -> Result<(), Error> {
        let len = self.len();
        *self.blocked.get_mut(i).ok_or(Error::OutOfBounds { index: i, len })? = blocked;
        Ok(())
    }

    /// One flag per node: `true` = blocked.
    pub fn blocked(&self) -> &[bool] {
        &self.blocked
    }

    /// Every node's position.
    pub fn positions(&self) -> &[Vec3] {
        &self.positions
    }

    /// Number of arcs (an undirected edge counts twice).
    pub fn arc_count(&self) -> usize {
        self.targets.len()
    }

    /// Bytes this graph holds on the heap: the capacities of its node arrays (position, flag,
    /// arc offset: 17 bytes a node) and arc arrays (target, length: 8 bytes an arc), exactly,
    /// plus an *estimate* for the R*-tree index, whose allocations `rstar` does not report:
    /// two tree entries per node (`size_of::<rstar::RTreeNode<_>>()` is 48 bytes on 64-bit
    /// targets), one for the node's leaf and about one more for the inner nodes and the spare
    /// capacity of their child vectors.
    ///
    /// ```
    /// let graph = influence::Graph::from_space(&influence::Grid::new(8, 8)?)?;
    /// assert!(graph.heap_bytes() >= 64 * 17 + graph.arc_count() * 8);
    /// # Ok::<(), influence::Error>(())
    /// ```
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let index = 2 * self.index.size() * size_of::<rstar::RTreeNode<Entry>>();
        self.positions.capacity() * size_of::<Vec3>()
            + self.blocked.capacity() * size_of::<bool>()
            + self.offsets.capacity() * size_of::<u32>()
            + self.targets.capacity() * size_of::<u32>()
            + self.lengths.capacity() * size_of::<f32>()
            + index
    }

    /// The arcs leaving node `i` as `(head, length)`, by length then head, including arcs to
    /// blocked nodes (which [`Space::for_each_neighbour`] skips).
    ///
    /// # Panics
    /// If `i` is not a node.
    pub fn arcs_from(&self, i: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let range = self.offsets[i] as usize..self.offsets[i + 1] as usize;
        self.targets[range.clone()].iter().map(|&t| t as usize).zip(self.lengths[range].iter().copied())
    }

    /// Every arc as `(tail, head, length)`, by tail, then length, then head.
    pub fn arcs(&self) -> impl Iterator<Item = (usize, usize, f32)> + '_ {
        (0..self.len()).flat_map(move |a| self.arcs_from(a).map(move |(b, l)| (a, b, l)))
    }

    /// An edge list that rebuilds this graph: each pair of opposite arcs of equal length
    /// becomes one undirected edge, every other arc a one-way edge; lengths are always
    /// given. The text and JSON forms write it.
    pub(super) fn edges(&self) -> Vec<Edge> {
        // Each arc keyed by its unordered pair and direction, then merged pair by pair: a
        // forward and a backward arc of equal length make one undirected edge.
        let mut keyed: Vec<(usize, usize, bool, u32)> =
            self.arcs().map(|(a, b, l)| (a.min(b), a.max(b), a > b, l.to_bits())).collect();
        keyed.sort_unstable_by(|x, y| {
            (x.0, x.1, x.2).cmp(&(y.0, y.1, y.2)).then(f32::from_bits(x.3).total_cmp(&f32::from_bits(y.3)))
        });
        let mut out = Vec::new();
        let mut k = 0;
        while k < keyed.len() {
            let (lo, hi) = (keyed[k].0, keyed[k].1);
            let end = k + keyed[k..].iter().take_while(|e| (e.0, e.1) == (lo, hi)).count();
            let split = k + keyed[k..end].iter().take_while(|e| !e.2).count();
            let (forward, back) = (&keyed[k..split], &keyed[split..end]);
            let (mut i, mut j) = (0, 0);
            while i < forward.len() || j < back.len() {
                let f = forward.get(i).map(|e| f32::from_bits(e.3));
                let r = back.get(j).map(|e| f32::from_bits(e.3));
                match (f, r) {
                    (Some(f), Some(r)) if f.to_bits() == r.to_bits() => {
                        out.push(Edge { a: lo, b: hi, length: Some(f), directed: false });
                        (i, j) = (i + 1, j + 1);
                    }
                    (Some(f), r) if r.is_none_or(|r| f.total_cmp(&r).is_lt()) => {
                        out.push(Edge { a: lo, b: hi, length: Some(f), directed: true });
                        i += 1;
                    }
                    (_, Some(r)) => {
                        out.push(Edge { a: hi, b: lo, length: Some(r), directed: true });
                        j += 1;
                    }
                    (_, None) => unreachable!("the loop runs while a list has lengths left"),
                }
            }
            k = end;
        }
        out
    }

    /// The walkable node nearest to `p` in a straight line (3D) among those within
    /// `max_distance` of it (inclusive; `f32::INFINITY` for any), ties to the lower index;
    /// `None` when there is none or `p` is not finite. An R*-tree search, not a scan:
    /// O(log n) when few nodes near `p` are blocked. [`Space::locate`] is the unbounded one.
    pub fn nearest(&self, p: Vec3, max_distance: f32) -> Option<usize> {
        if !p.is_finite() || max_distance.is_nan() || max_distance < 0.0 {
            return None;
        }
        let limit = max_distance * max_distance;
        let mut best: Option<(f32, u32)> = None;
        for entry in self.index.nearest_neighbor_iter_with_distance_2(p.to_array()) {
            let (e, d2) = entry;
            if d2 > limit || best.is_some_and(|(b, _)| d2 > b) {
                break;
            }
            if !self.blocked[e.data as usize] && best.is_none_or(|(b, i)| d2 < b || e.data < i) {
                best = Some((d2, e.data));
            }
        }
        best.map(|(_, i)| i as usize)
    }
}

impl Space for Graph {
    fn len(&self) -> usize {
        self.positions.len()
    }

    fn is_walkable(&self, i: usize) -> bool {
        !self.blocked[i]
    }

    #[inline]
    fn for_each_neighbour(&self, i: usize, mut visit: impl FnMut(usize, f32)) {
        let range = self.offsets[i] as usize..self.offsets[i + 1] as usize;
        for (&j, &d) in self.targets[range.clone()].iter().zip(&self.lengths[range]) {
            if !self.blocked[j as usize] {
                visit(j as usize, d);
            }
        }
    }

    fn position(&self, i: usize) -> Vec3 {
        self.positions[i]
    }

    /// The nearest walkable node ([`Graph::nearest`] at any distance).
    fn locate(&self, p: Vec3) -> Option<usize> {
        self.nearest(p, f32::INFINITY)
    }

    /// An R*-tree range query. Allocates nothing.
    fn for_each_within(&self, p: Vec3, radius: f32, mut visit: impl FnMut(usize)) {
        if !p.is_finite() || radius.is_nan() || radius < 0.0 {
            return;
        }
        for e in self.index.locate_within_distance(p.to_array(), radius * radius) {
            if !self.blocked[e.data as usize] {
                visit(e.data as usize);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: usize) -> Graph {
        let positions = (0..n).map(|i| Vec3::new(i as f32, 0.0, 0.0)).collect();
        Graph::from_edges(positions, (1..n).map(|i| (i - 1, i))).unwrap()
    }

    fn neighbours(g: &Graph, i: usize) -> Vec<(usize, f32)> {
        let mut out = Vec::new();
        g.for_each_neighbour(i, |j, d| out.push((j, d)));
        out
    }

    #[test]
    fn csr_lists_sorted_arcs_and_skips_blocked_heads() {
        let mut g = line(4);
        assert_eq!(g.arc_count(), 6);
        assert_eq!(neighbours(&g, 1), vec![(0, 1.0), (2, 1.0)]);
        g.set_blocked(2, true).unwrap();
        assert_eq!(neighbours(&g, 1), vec![(0, 1.0)]);
        assert_eq!(g.arcs_from(1).count(), 2);
        assert_eq!(g.set_blocked(4, true), Err(Error::OutOfBounds { index: 4, len: 4 }));
    }

    #[test]
    fn typed_errors_name_the_edge_or_node() {
        let p = vec![Vec3::ZERO, Vec3::X];
        assert_eq!(
            Graph::from_edges(p.clone(), [(0, 1), (1, 2)]),
            Err(Error::UnknownNode { edge: 1, node: 2, nodes: 2 })
        );
        assert!(matches!(
            Graph::from_arcs(p.clone(), [(0, 1, -1.0)]),
            Err(Error::BadEdgeLength { edge: 0, .. })
        ));
        assert!(matches!(
            Graph::from_arcs(p.clone(), [(0, 1, f32::NAN)]),
            Err(Error::BadEdgeLength { edge: 0, .. })
        ));
        let bad = vec![Vec3::ZERO, Vec3::new(0.0, f32::NAN, 0.0)];
        assert!(matches!(Graph::from_edges(bad, [(0, 1)]), Err(Error::BadPosition { node: 1, .. })));
        // A zero length is allowed (two nodes at one spot, e.g. a ladder's ends).
        assert!(Graph::from_arcs(p, [(0, 1, 0.0)]).is_ok());
    }

    #[test]
    fn one_way_arcs_and_reversal() {
        let p = vec![Vec3::ZERO, Vec3::X, Vec3::Y];
        let g = Graph::from_arcs(p, [(0, 1, 1.0), (1, 2, 2f32.sqrt()), (2, 1, 2f32.sqrt()), (2, 2, 0.0)])
            .unwrap();
        assert_eq!(neighbours(&g, 0), vec![(1, 1.0)]);
        assert_eq!(neighbours(&g, 1).len(), 1);
        let r = g.reversed();
        assert_eq!(neighbours(&r, 0), vec![]);
        assert_eq!(neighbours(&r, 1)[0], (0, 1.0));
        assert_eq!(r.reversed(), g);
        let rebuilt = Graph::build(g.positions().to_vec(), g.edges()).unwrap();
        assert_eq!(rebuilt, g);
        assert_eq!(Graph::from_arcs(g.positions().to_vec(), g.arcs()).unwrap(), g);
    }

    #[test]
    fn nearest_skips_blocked_nodes_and_breaks_ties_low() {
        let mut g = line(5);
        g.set_blocked(2, true).unwrap();
        assert_eq!(g.locate(Vec3::new(2.1, 0.0, 0.0)), Some(3));
        assert_eq!(g.locate(Vec3::new(2.0, 1.0, 0.0)), Some(1)); // 1 and 3 tie
        assert_eq!(g.nearest(Vec3::new(2.0, 5.0, 0.0), 1.0), None);
        assert_eq!(g.nearest(Vec3::NAN, f32::INFINITY), None);
        let mut within = Vec::new();
        g.for_each_within(Vec3::new(2.0, 0.0, 0.0), 1.0, |i| within.push(i));
        within.sort_unstable();
        assert_eq!(within, vec![1, 3]);
    }
}
