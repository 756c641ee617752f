//! `influence bench --json`: every kernel reports finite, positive numbers in the documented
//! record shape. Speed itself is not asserted: tests run unoptimised, on shared machines.

mod common;

use common::{influence, influence_ok};

/// Each kernel with the thread counts it is measured at, in the documented order.
const KERNELS: [(&str, u64); 16] = [
    ("stamp", 1),
    ("stamp_centred", 1),
    ("stamp_anywhere", 1),
    ("algebra", 1),
    ("diffuse4", 1),
    ("diffuse4", 2),
    ("diffuse8", 1),
    ("diffuse8", 2),
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
        assert_eq!(keys.len(), 7, "{r}");
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
    }
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
