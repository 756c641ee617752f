//! The memory budget: a scenario whose layers would not fit is refused before they are
//! allocated, with a message naming both sizes. (A test binary of its own: the budget is
//! set for the whole process.)

use influence_scenario::map::MapFiles;
use influence_scenario::{memory, scenario};

const SCENARIO: &str = r#"[map]
width = 2048
height = 1024

[[source]]
team = "red"
at = [1, 1]
strength = 5
falloff = "point"

[[source]]
team = "blue"
at = [9, 9]
strength = 5
falloff = "point"
"#;

#[test]
fn a_map_past_the_budget_is_an_error_naming_its_size() {
    memory::set_budget(64 << 20);
    let message = scenario::parse("s.toml", SCENARIO, &MapFiles::Embedded(&[])).unwrap_err().to_string();
    assert_eq!(
        message,
        "s.toml:2:1: map.width: the map's 2,097,152 cells with 2 teams need about 176.0 MiB, more than \
         the memory budget of 64.0 MiB (as set); use a smaller map, or raise the budget with --memory-budget"
    );

    // A propagation needs more, per team.
    let diffuse = format!("{SCENARIO}\n[propagation]\nkind = \"diffuse\"\ndecay = 0.1\nsteps = 2\n");
    let message = scenario::parse("s.toml", &diffuse, &MapFiles::Embedded(&[])).unwrap_err().to_string();
    assert!(
        message.contains("2,097,152 cells with 2 teams and a propagation need about 224.0 MiB"),
        "{message}"
    );

    // Within the budget, the same map is read.
    memory::set_budget(1 << 30);
    let s = scenario::parse("s.toml", SCENARIO, &MapFiles::Embedded(&[])).unwrap();
    assert_eq!(s.grid.width() * s.grid.height(), 2048 * 1024);

    // The largest map the library allows, against a budget that cannot hold it: refused
    // before a byte of it is allocated.
    memory::set_budget(1 << 30);
    let largest = SCENARIO.replace("width = 2048\nheight = 1024", "width = 16384\nheight = 16384");
    let message = scenario::parse("s.toml", &largest, &MapFiles::Embedded(&[])).unwrap_err().to_string();
    assert!(message.contains("the map's 268,435,456 cells with 2 teams need about 22.0 GiB"), "{message}");
}
