//! `influence bench --json`: every kernel reports finite, positive numbers in the documented
//! record shape. Speed itself is not asserted: tests run unoptimised, on shared machines.

mod common;

use common::{influence, influence_ok};

const KERNELS: [&str; 6] = ["stamp", "algebra", "diffuse4", "diffuse8", "steady", "flood"];

#[test]
fn json_records_name_every_kernel_with_positive_numbers() {
    let stdout = influence_ok(&["bench", "--sizes", "64", "--seconds", "0.01", "--json"]);
    let records: Vec<serde_json::Value> = serde_json::from_str(&stdout).unwrap();
    let names: Vec<&str> = records.iter().map(|r| r["kernel"].as_str().unwrap()).collect();
    assert_eq!(names, KERNELS);
    for r in &records {
        let keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys.len(), 6, "{r}");
        assert_eq!(r["size"], 64);
        assert_eq!(r["threads"], 1);
        for key in ["ns_per_cell", "reference_ns_per_cell", "copy_ns_per_cell"] {
            let v = r[key].as_f64().unwrap();
            assert!(v.is_finite() && v > 0.0, "{key} of {r}");
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
