//! Lossy simplification ("Escaping the Grid", §29.6): tight clusters of sources are replaced
//! by one source at their strength-weighted centroid carrying their total strength.
//!
//! Sources are taken strongest first; each one not yet merged gathers the unmerged sources
//! within `merge_distance` of it that share its radius, curve and sign. If there are at least
//! `min_cluster` of them, they become one source. Only curves with a known slope bound merge
//! (not custom curves, nor polynomials with power < 1).
//!
//! # Error bounds
//!
//! * **Total strength** is kept: each merged source carries its cluster's sum, added in
//!   `f64` and rounded once to `f32`, so `|Σ after − Σ before| ≤ 2⁻²⁴ · Σ|strength|`.
//! * **Values**: a member `j` that moves `δⱼ` to the centroid changes the field anywhere by at
//!   most `|sⱼ| · min(Lⱼ · δⱼ + Jⱼ, 1)`, where `L` is the curve's largest slope and `J` its jump
//!   to zero at the radius (0 for linear, smooth and polynomial curves). The sum over all
//!   members is returned as [`Simplified::value_error_bound`]: for every point `x`,
//!   `|value_after(x) − value_before(x)| ≤ value_error_bound` (plus `f32` evaluation rounding).
//!   Members lie within `merge_distance` of the cluster's first source and the centroid in
//!   their convex hull (same-sign weights), so `δⱼ ≤ 2 · merge_distance`.

use super::index::PositionIndex;
use super::point::{length, Point};
use super::source::PointSource;
use super::Field;
use crate::error::{non_negative, Error};

/// Parameters of [`Field::simplify`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Simplify {
    /// Sources within this distance of a cluster's first source join it (world units, ≥ 0).
    pub merge_distance: f32,
    /// Clusters smaller than this are left alone (≥ 2).
    pub min_cluster: usize,
}

impl Default for Simplify {
    /// Merge distance 0.5, clusters of 3 or more.
    fn default() -> Self {
        Self { merge_distance: 0.5, min_cluster: 3 }
    }
}

impl Simplify {
    /// Checks the parameters.
    ///
    /// # Errors
    /// [`Error::BadNumber`] for a negative or non-finite merge distance or `min_cluster < 2`.
    pub fn validate(&self) -> Result<(), Error> {
        non_negative("simplify merge_distance", self.merge_distance)?;
        if self.min_cluster < 2 {
            return Err(Error::BadNumber {
                what: "simplify min_cluster",
                expected: "at least 2",
                value: self.min_cluster as f64,
            });
        }
        Ok(())
    }
}

/// What a simplification did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Simplified {
    /// Clusters merged.
    pub clusters: usize,
    /// Sources removed (members merged minus the clusters that replaced them).
    pub removed: usize,
    /// Largest possible change of the field's value at any point (see the module docs).
    pub value_error_bound: f32,
}

impl<P: Point> Field<P> {
    /// Merges tight clusters of sources, then rebuilds the index.
    ///
    /// ```
    /// use influence::field::{Curve, Field2, PointSource, Simplify};
    /// use influence::glam::Vec2;
    /// let near = |x: f32, s: f32| PointSource::new(Vec2::new(x, 0.0), s, 5.0, Curve::Linear);
    /// let mut field = Field2::new(vec![near(0.0, 1.0)?, near(0.2, 1.0)?, near(0.4, 2.0)?, near(9.0, 1.0)?]);
    /// let report = field.simplify(&Simplify { merge_distance: 0.5, min_cluster: 2 })?;
    /// assert_eq!((field.len(), report.removed), (2, 2));
    /// // At the strength-weighted centroid (0·1 + 0.2·1 + 0.4·2) / 4.
    /// assert!(field.sources()[0].position().abs_diff_eq(Vec2::new(0.25, 0.0), 1e-6));
    /// assert_eq!(field.total_strength(), 5.0);
    /// assert!(report.value_error_bound <= 4.0 * 0.4 / 5.0);
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::BadNumber`] for bad [`Simplify`] parameters; the field is unchanged then.
    pub fn simplify(&mut self, params: &Simplify) -> Result<Simplified, Error> {
        params.validate()?;
        let sources = &self.sources;
        let positions = PositionIndex::build(sources);
        let mut order: Vec<usize> = (0..sources.len()).collect();
        order.sort_by(|&a, &b| sources[b].strength().abs().total_cmp(&sources[a].strength().abs()));
        let (mut taken, mut members) = (vec![false; sources.len()], Vec::new());
        let (mut next, mut report) = (Vec::with_capacity(sources.len()), Simplified::default());
        for &seed in &order {
            if taken[seed] {
                continue;
            }
            let s = &sources[seed];
            members.clear();
            if s.curve().change_bound(s.radius(), 1.0).is_some() {
                positions.for_each_within(s.position(), params.merge_distance, |j| {
                    if !taken[j] && mergeable(s, &sources[j]) {
                        members.push(j);
                    }
                });
            }
            if members.len() < params.min_cluster {
                taken[seed] = true;
                next.push(s.clone());
                continue;
            }
            for &j in &members {
                taken[j] = true;
            }
            if let Some((merged, bound)) = merge(sources, &members) {
                next.push(merged);
                report.clusters += 1;
                report.removed += members.len() - 1;
                report.value_error_bound += bound;
            } else {
                next.extend(members.iter().map(|&j| sources[j].clone()));
            }
        }
        self.update(|s| *s = next);
        Ok(report)
    }
}

/// Whether `b` may join a cluster started by `a`: same radius, curve and sign.
fn mergeable<P: Point>(a: &PointSource<P>, b: &PointSource<P>) -> bool {
    a.radius() == b.radius()
        && a.curve() == b.curve()
        && a.strength().is_sign_negative() == b.strength().is_sign_negative()
}

/// One source for the `members` of a cluster and the bound on the value change it causes;
/// `None` if the centroid or the total leaves the `f32` range.
fn merge<P: Point>(sources: &[PointSource<P>], members: &[usize]) -> Option<(PointSource<P>, f32)> {
    let first = &sources[members[0]];
    let total: f64 = members.iter().map(|&j| f64::from(sources[j].strength())).sum();
    let centroid = if total == 0.0 {
        first.position()
    } else {
        let weighted = members.iter().fold(P::ZERO, |acc, &j| {
            acc + (sources[j].position() - first.position())
                * (f64::from(sources[j].strength()) / total) as f32
        });
        first.position() + weighted
    };
    let bound = members
        .iter()
        .map(|&j| {
            let (s, moved) = (&sources[j], length(sources[j].position() - centroid));
            s.strength().abs() * s.curve().change_bound(s.radius(), moved).unwrap_or(1.0)
        })
        .sum();
    Some((first.moved(centroid, total as f32)?, bound))
}
