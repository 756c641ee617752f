//! The spatial index over sources: an `rstar` R*-tree of each source's bounding box (its
//! position ± radius), so a point query returns exactly the sources whose box holds the
//! point, however different their radii ("Escaping the Grid", §29.5: reject the sources
//! that cannot reach a query). Why an R-tree and not a k-d tree is argued, with measurements,
//! in the [module documentation](super).

use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{RTree, RTreeNode};

use super::point::Point;
use super::source::PointSource;

type Array<P> = <P as super::point::sealed::Coords>::Array;
type Entry<P> = GeomWithData<Rectangle<Array<P>>, u32>;

/// Bounding boxes of sources, bulk-loaded; entry data is the source's index.
#[derive(Debug, Clone)]
pub(crate) struct SourceIndex<P: Point> {
    tree: RTree<Entry<P>>,
}

impl<P: Point> SourceIndex<P> {
    /// Bulk-loads the boxes of `sources` (O(n log n)).
    ///
    /// # Panics
    /// With more than `u32::MAX` sources.
    pub(crate) fn build(sources: &[PointSource<P>]) -> Self {
        let entries = sources
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (lo, hi) = (s.position() - P::splat(s.radius()), s.position() + P::splat(s.radius()));
                GeomWithData::new(Rectangle::from_corners(lo.array(), hi.array()), id(i))
            })
            .collect();
        Self { tree: RTree::bulk_load(entries) }
    }

    /// Calls `visit(i)` for every source `i` whose box holds `p`: a superset of the sources
    /// within their radius of `p`. Allocates nothing.
    #[inline]
    pub(crate) fn for_each_near(&self, p: P, mut visit: impl FnMut(usize)) {
        for entry in self.tree.locate_all_at_point(p.array()) {
            visit(entry.data as usize);
        }
    }

    /// Bytes the tree's nodes occupy (walked exactly, allocator overhead aside).
    pub(crate) fn heap_bytes(&self) -> usize {
        fn walk<T: rstar::RTreeObject>(children: &[RTreeNode<T>]) -> usize {
            let own = std::mem::size_of_val(children);
            own + children
                .iter()
                .map(|c| match c {
                    RTreeNode::Parent(p) => walk(p.children()),
                    RTreeNode::Leaf(_) => 0,
                })
                .sum::<usize>()
        }
        walk(self.tree.root().children())
    }
}

/// Source positions alone, for neighbour searches between sources (simplification).
#[derive(Debug)]
pub(crate) struct PositionIndex<P: Point> {
    tree: RTree<GeomWithData<Array<P>, u32>>,
}

impl<P: Point> PositionIndex<P> {
    /// Bulk-loads the positions of `sources`.
    ///
    /// # Panics
    /// With more than `u32::MAX` sources.
    pub(crate) fn build(sources: &[PointSource<P>]) -> Self {
        let entries = sources.iter().enumerate().map(|(i, s)| GeomWithData::new(s.position().array(), id(i)));
        Self { tree: RTree::bulk_load(entries.collect()) }
    }

    /// Calls `visit(i)` for every source `i` within `distance` of `p`. Allocates nothing.
    pub(crate) fn for_each_within(&self, p: P, distance: f32, mut visit: impl FnMut(usize)) {
        for entry in self.tree.locate_within_distance(p.array(), distance * distance) {
            visit(entry.data as usize);
        }
    }
}

/// A source index as the trees store it.
fn id(i: usize) -> u32 {
    u32::try_from(i).expect("at most u32::MAX sources")
}
