//! The kernels issue's goals, each as a ratio of a [`kernels`](mod@crate::kernels) record's
//! times and the bound it must meet, so that `influence bench --json` says which are met.
//!
//! | kernel | sizes | ratio | bound |
//! | --- | --- | --- | --- |
//! | `diffuse4`, `diffuse8` (one thread) | 256², 1024², 4096² | baseline ÷ ours | at least 1.2 |
//! | `fused4`, `fused8` | 4096² | ours ÷ copy, per step | at most 0.5 |
//! | `stamp_centred` | 1024² | baseline ÷ ours | at least 1.5 |
//! | `stamp`, `stamp_anywhere` (exact positions) | 1024² | baseline ÷ ours | at least 1 |
//! | `steady`, `steady_far` | every size | baseline ÷ ours | at least 1 |
//! | `field_index` queries (`--field`) | | uniform bins ÷ index | at least 1.5 |
//! | `field_index` build (`--field`) | | index ÷ kiddo | at most 1 |
//!
//! The diffusion's baseline runs on one thread, so only the one-thread records carry its
//! goal; the copy runs on as many threads as the kernel, so both fused records do.

use serde::Serialize;

/// One goal on one record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Goal {
    /// The ratio's terms: `"baseline ÷ ours"` or `"ours ÷ copy"`.
    pub ratio_of: &'static str,
    /// The ratio.
    pub ratio: f64,
    /// The least ratio that meets the goal, for goals of speed against a baseline.
    pub at_least: Option<f64>,
    /// The largest ratio that meets the goal, for goals against a copy.
    pub at_most: Option<f64>,
    /// Whether the ratio meets the bound.
    pub met: bool,
}

impl Goal {
    /// A goal met when `ratio` is at least `bound`.
    fn at_least(ratio_of: &'static str, ratio: f64, bound: f64) -> Self {
        Self { ratio_of, ratio, at_least: Some(bound), at_most: None, met: ratio >= bound }
    }

    /// A goal met when `ratio` is at most `bound`.
    fn at_most(ratio_of: &'static str, ratio: f64, bound: f64) -> Self {
        Self { ratio_of, ratio, at_least: None, at_most: Some(bound), met: ratio <= bound }
    }
}

/// The goal of `kernel` at `size` on `threads` threads, from its time, its baseline's
/// (if any) and the copy's, all in ns per cell; `None` where the issue sets none.
pub fn goal(
    kernel: &str,
    size: usize,
    threads: usize,
    ours: f64,
    baseline: Option<f64>,
    copy: f64,
) -> Option<Goal> {
    let faster = |least: f64| Some(Goal::at_least("baseline ÷ ours", baseline? / ours, least));
    match kernel {
        "diffuse4" | "diffuse8" if threads == 1 && [256, 1024, 4096].contains(&size) => faster(1.2),
        "fused4" | "fused8" if size == 4096 => Some(Goal::at_most("ours ÷ copy", ours / copy, 0.5)),
        "stamp_centred" if size == 1024 => faster(1.5),
        "stamp" | "stamp_anywhere" if size == 1024 => faster(1.0),
        "steady" | "steady_far" => faster(1.0),
        _ => None,
    }
}

/// The field index's goals ([`field`](crate::field)`::IndexReport`): its queries at least
/// 1.5 times as fast as the uniform bins', and its build no slower than kiddo's k-d tree.
/// Times in ns, any unit as long as each pair shares it.
pub fn field_goals(index_query: f64, bins_query: f64, index_build: f64, kiddo_build: f64) -> Vec<Goal> {
    vec![
        Goal::at_least("uniform bins ÷ index, per query", bins_query / index_query, 1.5),
        Goal::at_most("index ÷ kiddo, build", index_build / kiddo_build, 1.0),
    ]
}

/// The goal said in a few words for the table: "goal ≥ 1.2: met" or "goal ≤ 0.5: missed".
pub fn said(goal: &Goal) -> String {
    let bound = match (goal.at_least, goal.at_most) {
        (Some(least), _) => format!("≥ {least}"),
        (_, Some(most)) => format!("≤ {most}"),
        _ => String::new(),
    };
    format!("goal {bound}: {}", if goal.met { "met" } else { "missed" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_follow_the_issue() {
        let g = goal("diffuse8", 256, 1, 0.1, Some(0.13), 0.03).unwrap();
        assert_eq!((g.ratio_of, g.at_least, g.met), ("baseline ÷ ours", Some(1.2), true));
        assert!((g.ratio - 1.3).abs() < 1e-9);
        assert!(!goal("diffuse4", 1024, 1, 0.1, Some(0.11), 0.03).unwrap().met);
        // Two threads against a one-thread baseline, and sizes the issue does not name: none.
        assert_eq!(goal("diffuse8", 256, 2, 0.1, Some(0.13), 0.03), None);
        assert_eq!(goal("diffuse8", 64, 1, 0.1, Some(0.13), 0.03), None);
        let fused = goal("fused8", 4096, 2, 0.1, Some(0.4), 0.19).unwrap();
        assert_eq!((fused.ratio_of, fused.at_most, fused.met), ("ours ÷ copy", Some(0.5), false));
        assert!(goal("fused4", 4096, 1, 0.09, None, 0.2).unwrap().met);
        assert_eq!(goal("fused4", 1024, 1, 0.09, None, 0.2), None);
        assert!(!goal("stamp_centred", 1024, 1, 1.0, Some(1.4), 0.1).unwrap().met);
        assert!(goal("stamp_anywhere", 1024, 1, 1.0, Some(1.0), 0.1).unwrap().met);
        assert!(goal("steady_far", 64, 1, 2.0, Some(3.0), 0.1).unwrap().met);
        assert_eq!(goal("frame", 256, 1, 2.0, None, 0.1), None);
        assert_eq!(goal("algebra", 1024, 1, 2.0, None, 0.1), None);
        assert_eq!(said(&goal("fused4", 4096, 1, 0.12, None, 0.2).unwrap()), "goal ≤ 0.5: missed");
        assert_eq!(said(&goal("diffuse4", 256, 1, 0.1, Some(0.13), 0.03).unwrap()), "goal ≥ 1.2: met");
    }
}
