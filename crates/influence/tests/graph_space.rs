//! The graph space: nearest-node lookup against brute force, the text (and JSON, petgraph)
//! forms round-tripping, and the documented size limit.

use influence::glam::Vec3;
use influence::space::{Graph, MAX_NODES};
use influence::{Error, Space};
use proptest::prelude::*;

fn point() -> impl Strategy<Value = Vec3> {
    (-50.0f32..50.0, -50.0f32..50.0, prop_oneof![Just(0.0f32), Just(3.0), -5.0f32..5.0])
        .prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// A random graph: 1..40 nodes, some blocked, random edges (some one-way, some with lengths).
fn graph() -> impl Strategy<Value = Graph> {
    prop::collection::vec((point(), prop::bool::weighted(0.2)), 1..40).prop_flat_map(|nodes| {
        let n = nodes.len();
        let edge = (0..n, 0..n, prop::option::of(0.0f32..20.0), prop::bool::weighted(0.2));
        (Just(nodes), prop::collection::vec(edge, 0..3 * n)).prop_map(|(nodes, edges)| {
            let positions: Vec<Vec3> = nodes.iter().map(|n| n.0).collect();
            // An undirected edge is two opposite arcs; no length: the straight line.
            let arcs = edges.into_iter().flat_map(|(a, b, length, directed)| {
                let l = length.unwrap_or_else(|| positions[a].distance(positions[b]));
                std::iter::once((a, b, l)).chain((!directed).then_some((b, a, l)))
            });
            let arcs: Vec<_> = arcs.collect();
            let mut g = Graph::from_arcs(positions, arcs).unwrap();
            for i in nodes.iter().enumerate().filter(|(_, n)| n.1).map(|(i, _)| i) {
                g.set_blocked(i, true).unwrap();
            }
            g
        })
    })
}

fn brute_nearest(g: &Graph, p: Vec3) -> Option<(f32, usize)> {
    (0..g.len())
        .filter(|&i| g.is_walkable(i))
        .map(|i| (g.position(i).distance_squared(p), i))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
}

proptest! {
    #[test]
    fn nearest_equals_brute_force(g in graph(), queries in prop::collection::vec(point(), 1..20), r in 0.0f32..30.0) {
        for p in queries {
            let want = brute_nearest(&g, p);
            prop_assert_eq!(g.nearest(p, f32::INFINITY), want.map(|w| w.1));
            prop_assert_eq!(g.locate(p), want.map(|w| w.1));
            let within = g.nearest(p, r);
            prop_assert_eq!(within, want.filter(|w| w.0 <= r * r).map(|w| w.1));
            let mut found = Vec::new();
            g.for_each_within(p, r, |i| found.push(i));
            found.sort_unstable();
            let brute: Vec<usize> = (0..g.len())
                .filter(|&i| g.is_walkable(i) && g.position(i).distance_squared(p) <= r * r)
                .collect();
            prop_assert_eq!(found, brute);
        }
    }

    #[test]
    fn text_and_edge_lists_round_trip(g in graph()) {
        prop_assert_eq!(&Graph::from_text(&g.to_text()).unwrap(), &g);
        let blocked = |mut graph: Graph, flags: &mut dyn Iterator<Item = bool>| {
            for (i, b) in flags.enumerate() {
                graph.set_blocked(i, b).unwrap();
            }
            graph
        };
        let rebuilt = Graph::from_arcs(g.positions().to_vec(), g.arcs()).unwrap();
        let rebuilt = blocked(rebuilt, &mut g.blocked().iter().copied());
        prop_assert_eq!(&rebuilt, &g);
        #[cfg(feature = "serde")]
        prop_assert_eq!(&Graph::from_json(&g.to_json()).unwrap(), &g);
        #[cfg(feature = "petgraph")]
        {
            let pg = g.to_petgraph();
            let back = Graph::from_petgraph(&pg, |n| n.0, |&l| Some(l)).unwrap();
            let back = blocked(back, &mut pg.node_weights().map(|n| n.1));
            prop_assert_eq!(&back, &g);
        }
    }

    #[test]
    fn neighbours_are_the_arcs_to_walkable_heads(g in graph()) {
        for i in 0..g.len() {
            let mut listed = Vec::new();
            g.for_each_neighbour(i, |j, d| listed.push((j, d)));
            let arcs: Vec<(usize, f32)> = g.arcs_from(i).filter(|&(j, _)| g.is_walkable(j)).collect();
            prop_assert_eq!(listed, arcs);
        }
    }
}

/// A space that claims more cells than a graph may hold, to test the limit without
/// allocating them.
struct Huge;

impl Space for Huge {
    fn len(&self) -> usize {
        MAX_NODES + 1
    }
    fn is_walkable(&self, _: usize) -> bool {
        true
    }
    fn for_each_neighbour(&self, _: usize, _: impl FnMut(usize, f32)) {}
    fn position(&self, _: usize) -> Vec3 {
        Vec3::ZERO
    }
}

#[test]
fn too_many_nodes_is_refused_before_allocating() {
    assert_eq!(
        Graph::from_space(&Huge),
        Err(Error::TooMany { what: "nodes", count: MAX_NODES + 1, max: MAX_NODES })
    );
}

#[test]
fn a_text_file_loads_with_its_path_in_errors() {
    let dir = std::env::temp_dir().join(format!("influence-graph-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, "n 0 0 0\nn 0 0 3\ne 0 1 5\n").unwrap();
    let g = Graph::load_text(&good).unwrap();
    assert_eq!(g.arcs().collect::<Vec<_>>(), vec![(0, 1, 5.0), (1, 0, 5.0)]);
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "n 0 0 0\n\nd 0 1\n").unwrap();
    match Graph::load_text(&bad) {
        Err(Error::FileFormat { path, line, message }) => {
            assert_eq!((path, line), (bad.display().to_string(), 3));
            assert!(message.contains("node 1"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
