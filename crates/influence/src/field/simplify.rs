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
//!   members is returned by [`Field::simplify`] as its value error bound: for every point `x`,
//!   `|value_after(x) − value_before(x)| ≤ value_error_bound` (plus `f32` evaluation rounding).
//!   Members lie within `merge_distance` of the cluster's first source and the centroid in
//!   their convex hull (same-sign weights), so `δⱼ ≤ 2 · merge_distance`.

use super::index::PositionIndex;
use super::point::{length, Point};
use super::source::PointSource;
use super::Field;
use crate::error::{non_negative, Error};

/// Checks the parameters of [`Field::simplify`].
fn validate(merge_distance: f32, min_cluster: usize) -> Result<(), Error> {
    non_negative("simplify merge_distance", merge_distance)?;
    if min_cluster < 2 {
        return Err(Error::BadNumber {
            what: "simplify min_cluster",
            expected: "at least 2",
            value: min_cluster as f64,
        });
    }
    Ok(())
}

impl<P: Point> Field<P> {
    /// Merges tight clusters of sources, then rebuilds the index: sources within
    /// `merge_distance` (world units, ≥ 0) of a cluster's first source join it, and clusters
    /// of fewer than `min_cluster` (≥ 2) sources are left alone (0.5 and 3 are a fair start).
    ///
    /// Returns `(clusters, value_error_bound)`: how many clusters were merged, and the largest
    /// possible change of the field's value at any point — the sum over merged sources of
    /// `|strength| · min(L · moved + J, 1)`, with `L` the curve's largest slope and `J` its jump
    /// to 0 at the radius. The total strength is kept up to one `f32` rounding. The sources
    /// removed are the difference in [`Field::sources`]' length. Only sources of the same
    /// radius, curve and sign merge, and not custom curves nor polynomials with power < 1.
    ///
    /// ```
    /// use influence::field::{Curve, Field, PointSource};
    /// use influence::glam::Vec2;
    /// let near = |x: f32, s: f32| PointSource::new(Vec2::new(x, 0.0), s, 5.0, Curve::Linear);
    /// let mut field = Field::new(vec![near(0.0, 1.0)?, near(0.2, 1.0)?, near(0.4, 2.0)?, near(9.0, 1.0)?]);
    /// let (clusters, value_error_bound) = field.simplify(0.5, 2)?;
    /// assert_eq!((field.sources().len(), clusters), (2, 1));
    /// // At the strength-weighted centroid (0·1 + 0.2·1 + 0.4·2) / 4.
    /// assert!(field.sources()[0].position().abs_diff_eq(Vec2::new(0.25, 0.0), 1e-6));
    /// assert_eq!(field.total_strength(), 5.0);
    /// assert!(value_error_bound <= 4.0 * 0.4 / 5.0);
    /// # Ok::<(), influence::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::BadNumber`] for a negative or non-finite merge distance or `min_cluster < 2`
    /// (`"simplify merge_distance"`, `"simplify min_cluster"`); the field is unchanged then.
    pub fn simplify(&mut self, merge_distance: f32, min_cluster: usize) -> Result<(usize, f32), Error> {
        validate(merge_distance, min_cluster)?;
        let sources = &self.sources;
        let positions = PositionIndex::build(sources);
        let mut order: Vec<usize> = (0..sources.len()).collect();
        order.sort_by(|&a, &b| sources[b].strength().abs().total_cmp(&sources[a].strength().abs()));
        let (mut taken, mut members) = (vec![false; sources.len()], Vec::new());
        let (mut next, mut clusters, mut value_error_bound) = (Vec::with_capacity(sources.len()), 0, 0.0);
        for &seed in &order {
            if taken[seed] {
                continue;
            }
            let s = &sources[seed];
            members.clear();
            if s.curve().change_bound(s.radius(), 1.0).is_some() {
                positions.for_each_within(s.position(), merge_distance, |j| {
                    if !taken[j] && mergeable(s, &sources[j]) {
                        members.push(j);
                    }
                });
            }
            if members.len() < min_cluster {
                taken[seed] = true;
                next.push(s.clone());
                continue;
            }
            for &j in &members {
                taken[j] = true;
            }
            if let Some((merged, bound)) = merge(sources, &members) {
                next.push(merged);
                clusters += 1;
                value_error_bound += bound;
            } else {
                next.extend(members.iter().map(|&j| sources[j].clone()));
            }
        }
        self.update(|s| *s = next);
        Ok((clusters, value_error_bound))
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
