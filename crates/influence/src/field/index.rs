//! The spatial index over sources, chosen when it is built: a uniform grid of bins, or an
//! `rstar` R*-tree of each source's bounding box (its position ± radius). Either way a point
//! query visits exactly the sources whose box holds the point, however different their radii
//! ("Escaping the Grid", §29.5: reject the sources that cannot reach a query). Why these and
//! not a k-d tree is argued, with measurements, in the [module documentation](super).
//!
//! The bins are the default: a query reads one bin, its sources' data side by side in the
//! order of the sources, and the sum comes out as the sum over every source in their order
//! (the sources out of reach add nothing). The tree takes over where bins would hold too
//! many entries — sources far wider than their bin (the bins are sized to the typical
//! radius) or spread thinly over a world with few sources in it — which the tree handles
//! in O(log n) whatever the spread.

use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{RTree, RTreeNode};

use super::bin_sum::Summer;
use super::falloff::Curve;
use super::point::Point;
use super::source::PointSource;

type Array<P> = <P as super::point::sealed::Coords>::Array;
type Entry<P> = GeomWithData<Rectangle<Array<P>>, u32>;

/// The index over a field's sources: [`Bins`] or an R*-tree.
#[derive(Debug, Clone)]
pub(crate) enum SourceIndex<P: Point> {
    Bins(Bins),
    Tree(RTree<Entry<P>>),
}

/// At most this many bin entries per source (plus a constant) before the tree takes over.
const ENTRIES_PER_SOURCE: usize = 32;
/// At most this many bins per source (plus a constant): the bins of a sparse world grow.
const BINS_PER_SOURCE: usize = 4;
/// At most this many entries in the bin of an entry, on average, before the tree takes over.
const MAX_READ: f64 = 64.0;

impl<P: Point> SourceIndex<P> {
    /// Indexes `sources`: uniform bins where they hold at most [`ENTRIES_PER_SOURCE`] entries
    /// a source, else an R*-tree (bulk-loaded, O(n log n)).
    ///
    /// # Panics
    /// With more than `u32::MAX` sources.
    pub(crate) fn build(sources: &[PointSource<P>]) -> Self {
        Bins::build(sources, Bins::default()).map_or_else(|| Self::tree(sources), Self::Bins)
    }

    /// [`build`](Self::build) again, over `sources`, reusing this index's memory where it
    /// can: a field updated each frame allocates nothing once its bins have grown.
    ///
    /// # Panics
    /// With more than `u32::MAX` sources.
    pub(crate) fn rebuild(&mut self, sources: &[PointSource<P>]) {
        let old = match std::mem::replace(self, Self::Bins(Bins::default())) {
            Self::Bins(bins) => bins,
            Self::Tree(_) => Bins::default(),
        };
        *self = Bins::build(sources, old).map_or_else(|| Self::tree(sources), Self::Bins);
    }

    /// The R*-tree over `sources`.
    pub(crate) fn tree(sources: &[PointSource<P>]) -> Self {
        let entries = sources
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (lo, hi) = (s.position() - P::splat(s.radius()), s.position() + P::splat(s.radius()));
                GeomWithData::new(Rectangle::from_corners(lo.array(), hi.array()), id(i))
            })
            .collect();
        Self::Tree(RTree::bulk_load(entries))
    }

    /// Calls `visit(i)` for every source `i` whose box holds `p`: a superset of the sources
    /// within their radius of `p` (with bins, in the order of the sources). Allocates nothing.
    #[inline]
    pub(crate) fn for_each_near(&self, p: P, mut visit: impl FnMut(usize)) {
        match self {
            Self::Bins(bins) => bins.for_each_near(p.array().as_ref(), visit),
            Self::Tree(tree) => {
                for entry in tree.locate_all_at_point(p.array()) {
                    visit(entry.data as usize);
                }
            }
        }
    }

    /// The sum of the sources' values at `p`, where the index can give it faster than
    /// visiting them one by one: bins over linear sources in the plane.
    #[inline]
    pub(crate) fn linear_value(&self, p: P) -> Option<f32> {
        match self {
            Self::Bins(bins) if bins.linear && bins.dims == 2 => Some(bins.linear_value(p.array().as_ref())),
            _ => None,
        }
    }

    /// Bytes the index occupies (the tree's nodes walked exactly, allocator overhead aside).
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
        match self {
            Self::Bins(bins) => bins.heap_bytes(),
            Self::Tree(tree) => walk(tree.root().children()),
        }
    }
}

/// A uniform grid of square (or cubic) bins over the sources' boxes, side about the mean
/// radius; each bin lists the sources whose box reaches into it, in the order of the
/// sources, each with what a query reads of it packed in 16 bytes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Bins {
    /// 2 or 3.
    dims: usize,
    /// The corner where bin 0 starts.
    origin: [f32; 3],
    /// Bins per world unit: `1 / side`.
    inverse: f32,
    /// Bins along each axis (1 along unused ones).
    counts: [usize; 3],
    /// Where each bin's entries start, and one more.
    starts: Vec<u32>,
    /// Each entry's source.
    sources: Vec<u32>,
    /// Each entry's position and radius: `[x, y, strength, radius]` in the plane,
    /// `[x, y, z, radius]` in space.
    packed: Vec<[f32; 4]>,
    /// Whether every source's curve is [`Curve::Linear`].
    linear: bool,
    /// What sums a bin of linear sources: the widest vector code the CPU runs.
    summer: Summer,
    /// The radii (for their median), the bins each source covers, and each bin's next
    /// entry, kept between builds.
    scratch: Scratch,
}

/// [`Bins::scratch`].
type Scratch = (Vec<f32>, Vec<[(u32, u32); 3]>, Vec<u32>);

impl Bins {
    /// Bins over `sources`, or `None` when the tree suits them better (see the module docs)
    /// or there are none.
    fn build<P: Point>(sources: &[PointSource<P>], old: Self) -> Option<Self> {
        let dims = P::ZERO.array().as_ref().len();
        let n = sources.len();
        if n == 0 {
            return None;
        }
        let Self {
            mut starts,
            sources: mut index,
            mut packed,
            scratch: (mut radii, mut ranges, mut fill),
            ..
        } = old;
        let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
        for s in sources {
            let (p, r) = (s.position().array(), s.radius());
            for d in 0..dims {
                lo[d] = lo[d].min(p.as_ref()[d] - r);
                hi[d] = hi[d].max(p.as_ref()[d] + r);
            }
        }
        // The side: twice the median radius (a source reaches into four bins or so), grown
        // until the bins are few enough.
        let cap = (BINS_PER_SOURCE * n + 1024) as f64;
        let bins_of =
            |side: f32| (0..dims).map(|d| f64::from((hi[d] - lo[d]) / side).floor() + 1.0).product::<f64>();
        radii.clear();
        radii.extend(sources.iter().map(PointSource::radius));
        let mut side = 2.0 * *radii.select_nth_unstable_by(n / 2, f32::total_cmp).1;
        while bins_of(side) > cap {
            side *= 2.0;
        }
        if !(side.is_finite() && side > 0.0) {
            return None;
        }
        let inverse = 1.0 / side;
        let mut counts = [1; 3];
        for d in 0..dims {
            counts[d] = ((hi[d] - lo[d]) * inverse) as usize + 1;
        }
        if counts.iter().product::<usize>() >= 1 << 31 {
            return None;
        }
        let origin = lo;
        // The bins a source's box covers, as an inclusive range per axis. Every corner lies
        // at or past `origin` (the least of them), and the bins number fewer than 2³¹: the
        // cell of one fits an `i32`, converted in one instruction.
        let last = counts.map(|c| c as u32 - 1);
        let cell = |v: f32, d: usize| (((v - origin[d]) * inverse) as i32 as u32).min(last[d]);
        ranges.clear();
        starts.clear();
        starts.resize(counts.iter().product::<usize>() + 1, 0);
        let mut entries = 0usize;
        for s in sources {
            let (p, r) = (s.position().array(), s.radius());
            let mut range = [(0, 0); 3];
            for (d, range) in range.iter_mut().enumerate().take(dims) {
                *range = (cell(p.as_ref()[d] - r, d), cell(p.as_ref()[d] + r, d));
            }
            entries += range.iter().map(|&(a, b)| (b - a + 1) as usize).product::<usize>();
            if entries > ENTRIES_PER_SOURCE * n + 1024 || entries > u32::MAX as usize {
                return None;
            }
            for_each_bin(range, counts, |b| starts[b + 1] += 1);
            ranges.push(range);
        }
        // What a query reads: the entries of the bin it falls in, on average over the
        // entries' bins (as queries fall where sources reach). Past a few vectors of them
        // the tree does better.
        let read = starts.iter().map(|&c| f64::from(c) * f64::from(c)).sum::<f64>() / entries as f64;
        if read > MAX_READ {
            return None;
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        fill.clear();
        fill.extend_from_slice(&starts);
        // Every entry is written below, once: what the buffers held before may stay.
        index.resize(entries, 0);
        packed.resize(entries, [0.0; 4]);
        for (i, (s, &range)) in sources.iter().zip(&ranges).enumerate() {
            let (p, r, i) = (s.position().array(), s.radius(), id(i));
            let p = p.as_ref();
            let data = if dims == 2 { [p[0], p[1], s.strength(), r] } else { [p[0], p[1], p[2], r] };
            for_each_bin(range, counts, |b| {
                let at = fill[b] as usize;
                (index[at], packed[at]) = (i, data);
                fill[b] += 1;
            });
        }
        let linear = sources.iter().all(|s| matches!(s.curve(), Curve::Linear));
        Some(Self {
            dims,
            origin,
            inverse,
            counts,
            starts,
            sources: index,
            packed,
            linear,
            summer: Summer::widest(),
            scratch: (radii, ranges, fill),
        })
    }

    /// The entries of the bin holding `p` (none outside the bins). `p` has `dims`
    /// coordinates: inlined where their number is known, the loop unrolls.
    #[inline]
    fn bin(&self, p: &[f32]) -> std::ops::Range<usize> {
        let mut bin = 0;
        let mut stride = 1;
        for ((&v, &origin), &count) in p.iter().zip(&self.origin).zip(&self.counts) {
            let u = (v - origin) * self.inverse;
            // The bins number fewer than 2³¹: a count and a cell fit a `u32`, converted
            // from and to a float in fewer instructions than a `usize` (the query's
            // critical path runs through them). Also false for NaN.
            let count = count as u32;
            if !(u >= 0.0 && u < count as f32) {
                return 0..0;
            }
            bin += (u as u32).min(count - 1) as usize * stride;
            stride *= count as usize;
        }
        self.starts[bin] as usize..self.starts[bin + 1] as usize
    }

    /// [`SourceIndex::for_each_near`]: the sources of `p`'s bin whose box holds it (as the
    /// tree stores the box: its corners `position ∓ radius`).
    #[inline]
    fn for_each_near(&self, p: &[f32], mut visit: impl FnMut(usize)) {
        let range = self.bin(p);
        for (&source, entry) in self.sources[range.clone()].iter().zip(&self.packed[range]) {
            let r = entry[3];
            if (0..self.dims).all(|d| entry[d] - r <= p[d] && p[d] <= entry[d] + r) {
                visit(source as usize);
            }
        }
    }

    /// The value at `p` (in the plane) of linear sources: `PointSource::value_at` of each
    /// source of `p`'s bin whose box holds `p`, summed in order — the same operations, so
    /// the same bits as [`for_each_near`](Self::for_each_near) and `value_at`.
    #[inline]
    fn linear_value(&self, p: &[f32]) -> f32 {
        self.summer.linear_sum(&self.packed[self.bin(p)], [p[0], p[1]])
    }

    fn heap_bytes(&self) -> usize {
        let (radii, ranges, fill) = &self.scratch;
        (self.starts.capacity() + self.sources.capacity() + radii.capacity() + fill.capacity()) * 4
            + self.packed.capacity() * 16
            + ranges.capacity() * std::mem::size_of::<[(u32, u32); 3]>()
    }
}

/// Calls `f` with each bin of the inclusive ranges `range` (per axis) of a grid of bins
/// `counts` along the axes.
#[inline]
fn for_each_bin(range: [(u32, u32); 3], counts: [usize; 3], mut f: impl FnMut(usize)) {
    for z in range[2].0 as usize..=range[2].1 as usize {
        for y in range[1].0 as usize..=range[1].1 as usize {
            for x in range[0].0 as usize..=range[0].1 as usize {
                f(x + counts[0] * (y + counts[1] * z));
            }
        }
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
#[inline]
fn id(i: usize) -> u32 {
    u32::try_from(i).expect("at most u32::MAX sources")
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Vec2, Vec3};

    /// A small deterministic stream in [0, 1).
    fn stream(seed: u64) -> impl FnMut() -> f32 {
        let mut bits = crate::test_rng::xorshift(seed);
        move || (bits() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Every source's `value_and_gradient_at`, summed in the sources' order.
    fn brute<P: Point>(sources: &[PointSource<P>], p: P) -> (f32, P) {
        sources.iter().fold((0.0, P::ZERO), |(v, g), s| {
            let (sv, sg) = s.value_and_gradient_at(p);
            (v + sv, g + sg)
        })
    }

    fn plane(
        n: usize,
        seed: u64,
        curve: impl Fn(usize) -> Curve,
        radius: impl Fn(f32) -> f32,
    ) -> Vec<PointSource<Vec2>> {
        let mut next = stream(seed);
        (0..n)
            .map(|i| {
                let at = Vec2::new(next() * 200.0 - 50.0, next() * 120.0);
                PointSource::new(at, next() * 6.0 - 2.0, radius(next()), curve(i)).unwrap()
            })
            .collect()
    }

    #[test]
    fn bins_sum_every_source_in_order() {
        let curves = |i: usize| if i.is_multiple_of(3) { Curve::Smooth } else { Curve::Linear };
        for (sources, linear) in [
            (plane(400, 7, |_| Curve::Linear, |u| 2.0 + 18.0 * u), true),
            (plane(300, 8, |_| Curve::Linear, |u| if u < 0.01 { 1e-20 } else { 0.5 + 3.0 * u }), true),
            (plane(300, 9, curves, |u| 1.0 + 9.0 * u), false),
        ] {
            let index = SourceIndex::build(&sources);
            let SourceIndex::Bins(bins) = &index else { panic!("bins expected") };
            assert_eq!(bins.linear, linear);
            let mut next = stream(3);
            // Random points, points on the sources and on the corners of their boxes, and
            // points outside every box.
            let mut points: Vec<Vec2> =
                (0..3000).map(|_| Vec2::new(next() * 260.0 - 80.0, next() * 180.0 - 30.0)).collect();
            points.extend(sources.iter().flat_map(|s| {
                let (p, r) = (s.position(), s.radius());
                [p, p + Vec2::splat(r), p - Vec2::new(r, 0.0), p + Vec2::new(0.3 * r, 0.9 * r)]
            }));
            points.extend([Vec2::splat(1e9), Vec2::splat(-1e9), Vec2::new(f32::NAN, 0.0)]);
            let field = super::super::Field::new(sources.clone());
            for p in points {
                let (value, gradient) = brute(&sources, p);
                let got = field.value(p);
                assert!(
                    got.to_bits() == value.to_bits() || got == value || p.x.is_nan(),
                    "{p}: {got} against {value}"
                );
                let (v, g) = field.value_and_gradient(p);
                assert!(v == value || p.x.is_nan(), "{p}: {v} against {value}");
                assert!(g == gradient || p.x.is_nan(), "{p}: {g} against {gradient}");
                if linear {
                    let scalar = Bins { summer: Summer::Scalar, ..bins.clone() }.linear_value(&p.to_array());
                    assert_eq!(scalar.to_bits(), got.to_bits(), "{p}");
                }
            }
        }
    }

    #[test]
    fn bins_in_space_and_the_tree_visit_the_same_sources() {
        let mut next = stream(11);
        let sources: Vec<PointSource<Vec3>> = (0..300)
            .map(|_| {
                let at = Vec3::new(next() * 60.0, next() * 60.0, next() * 20.0);
                PointSource::new(at, 1.0, 1.0 + 6.0 * next(), Curve::Linear).unwrap()
            })
            .collect();
        let (bins, tree) = (SourceIndex::build(&sources), SourceIndex::tree(&sources));
        assert!(matches!(bins, SourceIndex::Bins(_)));
        for _ in 0..2000 {
            let p = Vec3::new(next() * 70.0 - 5.0, next() * 70.0 - 5.0, next() * 30.0 - 5.0);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            bins.for_each_near(p, |i| a.push(i));
            tree.for_each_near(p, |i| b.push(i));
            assert!(a.windows(2).all(|w| w[0] < w[1]), "bins visit in order");
            b.sort_unstable();
            assert_eq!(a, b, "{p}");
        }
    }

    #[test]
    fn the_tree_takes_sources_far_wider_than_the_rest() {
        // One source covering the world many bins wide, among many small ones.
        let mut sources = plane(2000, 5, |_| Curve::Linear, |u| 0.5 + u);
        sources.push(PointSource::new(Vec2::ZERO, 1.0, 5000.0, Curve::Linear).unwrap());
        assert!(matches!(SourceIndex::build(&sources), SourceIndex::Tree(_)));
        assert!(SourceIndex::<Vec2>::build(&[]).heap_bytes() < 1024);
    }
}
