//! `influence bench --json`: every kernel reports finite, positive numbers in the documented
//! record shape. Speed itself is not asserted: tests run unoptimised, on shared machines.

mod common;

use common::{influence, influence_ok};

/// Each kernel with the thread counts it is measured at, in the documented order.
const KERNELS: [(&str, u64); 17] = [
    ("stamp", 1),
    ("stamp_centred", 1),
    ("stamp_anywhere", 1),
    ("algebra", 1),
    ("diffuse4", 1),
    ("diffuse4", 2),
    ("diffuse8", 1),
    ("diffuse8", 2),
    ("edited8", 1),
    ("fused4", 1),
    ("fused4", 2),
    ("fused8", 1),
    ("fused8", 2),
    ("steady", 1),
    ("steady_far", 1),
    ("flood", 1),
    ("frame", 1),
];

#[test]
fn json_records_name_every_kernel_with_positive_numbers() {
    let stdout = influence_ok(&["bench", "--sizes", "64", "--seconds", "0.01", "--json"]);
    let records: Vec<serde_json::Value> = serde_json::from_str(&stdout).unwrap();
    let names: Vec<(&str, u64)> =
        records.iter().map(|r| (r["kernel"].as_str().unwrap(), r["threads"].as_u64().unwrap())).collect();
    assert_eq!(names, KERNELS);
    for r in &records {
        let keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys.len(), 8, "{r}");
        assert_eq!(r["size"], 64);
        for key in ["ns_per_cell", "reference_ns_per_cell", "copy_ns_per_cell"] {
            let v = r[key].as_f64().unwrap();
            assert!(v.is_finite() && v > 0.0, "{key} of {r}");
        }
        // A baseline wherever careful hand-written code does the same job.
        let kernel = r["kernel"].as_str().unwrap();
        let baseline = &r["baseline_ns_per_cell"];
        if ["algebra", "flood", "frame"].contains(&kernel) {
            assert!(baseline.is_null(), "{r}");
        } else {
            let v = baseline.as_f64().unwrap();
            assert!(v.is_finite() && v > 0.0, "baseline of {r}");
        }
        // At 64² only the steady state has a goal of the kernels issue: never slower than
        // iterating the step.
        if kernel.starts_with("steady") {
            check_goal(r, "baseline ÷ ours", (Some(1.0), None));
        } else {
            assert!(r["goal"].is_null(), "{r}");
        }
    }
}

/// `r`'s goal: the ratio of its times named by `ratio_of`, the bound, and whether it is met.
fn check_goal(r: &serde_json::Value, ratio_of: &str, bounds: (Option<f64>, Option<f64>)) {
    let (ours, copy) = (r["ns_per_cell"].as_f64().unwrap(), r["copy_ns_per_cell"].as_f64().unwrap());
    let want = match ratio_of {
        "baseline ÷ ours" => r["baseline_ns_per_cell"].as_f64().unwrap() / ours,
        _ => ours / copy,
    };
    check_verdict(&r["goal"], ratio_of, want, bounds);
}

/// A goal `g`: its terms, its ratio (`want`, to rounding), its bounds, and its verdict.
fn check_verdict(
    g: &serde_json::Value,
    ratio_of: &str,
    want: f64,
    (at_least, at_most): (Option<f64>, Option<f64>),
) {
    assert_eq!(g["ratio_of"], ratio_of, "{g}");
    let ratio = g["ratio"].as_f64().unwrap();
    assert!((ratio - want).abs() <= 1e-9 * want, "{g}: want {want}");
    assert_eq!((g["at_least"].as_f64(), g["at_most"].as_f64()), (at_least, at_most), "{g}");
    let met = at_least.is_none_or(|b| ratio >= b) && at_most.is_none_or(|b| ratio <= b);
    assert_eq!(g["met"].as_bool(), Some(met), "{g}");
}

#[test]
fn the_diffusion_records_carry_the_issues_goals_where_it_sets_them() {
    let stdout =
        influence_ok(&["bench", "--sizes", "256", "--kernels", "diffuse4", "--seconds", "0.01", "--json"]);
    let records: Vec<serde_json::Value> = serde_json::from_str(&stdout).unwrap();
    assert_eq!(records.len(), 2);
    // One thread against the one-thread flat loop; two threads carry no goal.
    check_goal(&records[0], "baseline ÷ ours", (Some(1.2), None));
    assert_eq!(records[1]["threads"], 2);
    assert!(records[1]["goal"].is_null(), "{}", records[1]);
}

#[test]
fn kernels_can_be_chosen_and_bad_arguments_are_refused() {
    let stdout = influence_ok(&["bench", "--quick", "--sizes", "32", "--kernels", "flood,steady", "--json"]);
    let records: Vec<serde_json::Value> = serde_json::from_str(&stdout).unwrap();
    let names: Vec<&str> = records.iter().map(|r| r["kernel"].as_str().unwrap()).collect();
    assert_eq!(names, ["steady", "flood"], "in the documented order");
    for bad in [&["--kernels", "warp"][..], &["--sizes", "4"], &["--seconds", "-1"]] {
        let mut args = vec!["bench"];
        args.extend_from_slice(bad);
        let out = influence(&args);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn field_comparisons_report_agreement_memory_and_error() {
    let stdout = influence_ok(&["bench", "--field", "--quick", "--seconds", "0.01", "--json"]);
    let r: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let index = &r["field_index"];
    assert_eq!((index["sources"].as_u64(), index["queries"].as_u64()), (Some(1_000), Some(10_000)));
    for key in [
        "index_build_ns",
        "index_ns_per_query",
        "brute_ns_per_query",
        "baseline_build_ns",
        "baseline_ns_per_query",
        "kiddo_build_ns",
    ] {
        let v = index[key].as_f64().unwrap();
        assert!(v.is_finite() && v > 0.0, "{key}: {v}");
    }
    assert!(index["max_difference"].as_f64().unwrap() < 1e-4, "the index answers as brute force does");
    // The issue's two goals for the index, as ratios of the times beside them.
    let time = |key: &str| index[key].as_f64().unwrap();
    let goals = index["goals"].as_array().unwrap();
    let want = [
        (
            "uniform bins ÷ index, per query",
            time("baseline_ns_per_query") / time("index_ns_per_query"),
            Some(1.5),
            None,
        ),
        ("index ÷ kiddo, build", time("index_build_ns") / time("kiddo_build_ns"), None, Some(1.0)),
    ];
    assert_eq!(goals.len(), want.len());
    for (g, (ratio_of, ratio, at_least, at_most)) in goals.iter().zip(want) {
        check_verdict(g, ratio_of, ratio, (at_least, at_most));
    }
    let vs = &r["field_vs_grid"];
    assert_eq!(vs["field"]["max_error"], 0.0);
    let grids = vs["grids"].as_array().unwrap();
    assert!(grids.len() >= 3);
    for pair in grids.windows(2) {
        let (coarse, fine) = (&pair[0], &pair[1]);
        assert!(fine["bytes"].as_u64() > coarse["bytes"].as_u64(), "finer grids take more memory");
        assert!(fine["max_error"].as_f64() < coarse["max_error"].as_f64(), "and err less");
    }
    for m in grids.iter().chain([&vs["field"]]) {
        assert!(m["ns_per_query"].as_f64().unwrap() > 0.0 && m["build_ns"].as_f64().unwrap() > 0.0, "{m}");
    }
    // The field bench is its own report: no kernel options with it.
    assert_eq!(influence(&["bench", "--field", "--kernels", "stamp"]).status.code(), Some(2));
}

/// A MovingAI map of `rows`.
fn movingai(rows: &[String]) -> String {
    format!("type octile\nheight {}\nwidth {}\nmap\n{}\n", rows.len(), rows[0].len(), rows.join("\n"))
}

/// `bench --frame` runs on a MovingAI file: the report names the file and gives every part
/// and goal a finite, positive time. The map's corners are sealed pockets, so the frame
/// keeps to the largest region. A map with no route to time, a malformed one and an
/// unknown name are refused with exit code 2, naming what is wrong.
#[test]
fn the_frame_runs_on_a_map_file_and_refuses_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    // 48 × 40: open but for a wall across the middle with a gap, and a 1-cell pocket
    // walled off in each corner.
    let rows = influence_bench::frame::sealed_corners(48, 40, |x, y| y == 20 && !(10..14).contains(&x));
    let walkable = rows.iter().flat_map(|r| r.chars()).filter(|&c| c == '.').count();
    let path = dir.path().join("pockets.map");
    std::fs::write(&path, movingai(&rows)).unwrap();
    let args = ["bench", "--frame", "--maps", path.to_str().unwrap(), "--seconds", "0.001", "--json"];
    let reports: Vec<serde_json::Value> = serde_json::from_str(&influence_ok(&args)).unwrap();
    assert_eq!(reports.len(), 1);
    let report = &reports[0];
    assert_eq!(report["map"], "pockets.map");
    assert_eq!(report["walkable"].as_u64(), Some(walkable as u64));
    let positive = |v: &serde_json::Value| v.as_f64().is_some_and(|x| x.is_finite() && x > 0.0);
    let parts = report["parts"].as_array().unwrap();
    let names: Vec<&str> = parts.iter().map(|p| p["part"].as_str().unwrap()).collect();
    assert_eq!(names, ["stamp", "analysis", "diffuse", "spots", "flow", "routes"]);
    for part in parts {
        assert!(positive(&part["ms"]) && positive(&part["baseline_ms"]), "{part}");
    }
    let goals = report["goals"].as_array().unwrap();
    assert_eq!(goals.len(), 4);
    for goal in goals {
        assert!(positive(&goal["ms"]) && positive(&goal["against_ms"]) && positive(&goal["ratio"]), "{goal}");
    }

    // No two walkable cells connected: a checkerboard of single open cells.
    let lonely: Vec<String> = (0..8)
        .map(|y| (0..8).map(|x| if (x + y) % 2 == 0 && x % 2 == 0 { '.' } else { '@' }).collect())
        .collect();
    let lonely_path = dir.path().join("lonely.map");
    std::fs::write(&lonely_path, movingai(&lonely)).unwrap();
    let malformed_path = dir.path().join("short.map");
    std::fs::write(&malformed_path, "type octile\nheight 2\nwidth 3\nmap\n...\n..\n").unwrap();
    let cases = [
        (lonely_path.to_str().unwrap(), "connected"),
        (malformed_path.to_str().unwrap(), "short.map:6"),
        ("nowhere", "unknown map"),
        ("missing.map", "cannot read"),
    ];
    for (map, says) in cases {
        let out = influence(&["bench", "--frame", "--maps", map, "--seconds", "0.001"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{map}: {stderr}");
        assert!(stderr.contains(says), "{map}: {stderr}");
    }
}
