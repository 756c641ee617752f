//! Hostile scenarios by the thousand: every value line of the small example scenarios
//! replaced by each of a list of bad values, and every line deleted or doubled. Each input
//! must give a located error (the file, and a line or a key) or a run whose every output
//! layer and summary number is finite. Never a panic, never a silent NaN or infinity.

use std::panic::{catch_unwind, AssertUnwindSafe};

use influence_scenario::engine::Run;
use influence_scenario::map::MapFiles;
use influence_scenario::scenario;

/// The examples small enough to run thousands of times (london's city map is left out).
const EXAMPLES: [&str; 4] = ["ambush.toml", "chase.toml", "outpost.toml", "spread.toml"];

/// Values put in place of a line's value.
const BAD_VALUES: [&str; 16] = [
    "nan",
    "inf",
    "-inf",
    "1e39",
    "-1",
    "0",
    "3e38",
    "4294967296",
    "9223372036854775807",
    "99999999999999999999",
    "\"\"",
    "\"#zz\"",
    "true",
    "[]",
    "[1e30, -1e30]",
    "{ a = 1 }",
];

/// What became of the inputs.
#[derive(Debug, Default)]
struct Tally {
    errors: usize,
    accepted: usize,
}

fn check(file: &str, text: &str, maps: &MapFiles<'_>, tally: &mut Tally) {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let scenario = scenario::parse("scenario.toml", text, maps)?;
        let layers = scenario.layers.clone();
        let mut run = Run::new(scenario)?;
        run.finish(&mut |_| ())?;
        let view = run.view();
        for (name, layer) in &layers {
            let values = view.layer(*layer);
            assert!(values.values().iter().all(|v| v.is_finite()), "a value of {name} is not finite");
        }
        // JSON has no NaN or infinity: serde_json writes `null` for them, and the summary
        // leaves out what it has no number for.
        let summary = serde_json::to_value(view.summary()).unwrap();
        assert!(numbers_are_plain(&summary), "summary: {summary}");
        Ok::<(), influence_scenario::Located>(())
    }));
    match outcome {
        Ok(Ok(())) => tally.accepted += 1,
        Ok(Err(e)) => {
            let message = e.to_string();
            assert!(message.starts_with("scenario.toml"), "{file}: unplaced error {message:?} for:\n{text}");
            assert!(
                e.line.is_some() || e.key.is_some(),
                "{file}: no line nor key in {message:?} for:\n{text}"
            );
            assert!(message.chars().count() < 600, "{file}: a message of {} characters", message.len());
            tally.errors += 1;
        }
        Err(_) => panic!("{file}: panicked on:\n{text}"),
    }
}

/// No `null` (serde_json's NaN and infinity) and no negative zero anywhere in `v`.
fn numbers_are_plain(v: &serde_json::Value) -> bool {
    use serde_json::Value;
    match v {
        Value::Null => false,
        Value::Number(n) => n.as_f64().is_some_and(|f| f.is_finite() && !(f == 0.0 && f.is_sign_negative())),
        Value::Array(a) => a.iter().all(numbers_are_plain),
        Value::Object(o) => o.values().all(numbers_are_plain),
        _ => true,
    }
}

#[test]
fn hostile_edits_of_the_examples_give_errors_or_finite_outputs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenarios");
    let maps = MapFiles::Dir(dir.clone());
    let mut tally = Tally::default();
    for file in EXAMPLES {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let edited = |new: &[&str]| {
                let mut all: Vec<&str> = lines[..i].to_vec();
                all.extend_from_slice(new);
                all.extend_from_slice(&lines[i + 1..]);
                all.join("\n")
            };
            // A long diffusion is a valid scenario that only takes time: not edited.
            let is_steps =
                line.trim_start().starts_with("steps") || line.trim_start().starts_with("max_steps");
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            check(file, &edited(&[]), &maps, &mut tally);
            check(file, &edited(&[line, line]), &maps, &mut tally);
            let Some((key, _)) = line.split_once('=') else { continue };
            if line.trim_start().starts_with('[') {
                continue;
            }
            for value in BAD_VALUES {
                if is_steps && value.parse::<u64>().is_ok_and(|n| n > 0) {
                    continue;
                }
                check(file, &edited(&[&format!("{key}= {value}")]), &maps, &mut tally);
            }
        }
    }
    println!("{tally:?}");
    assert!(tally.errors + tally.accepted > 1000, "{tally:?}");
    assert!(tally.errors > tally.accepted, "most of these edits are errors: {tally:?}");
}
