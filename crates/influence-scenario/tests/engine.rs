//! The engine: fused steps give the bits of single ones, budgeted calls catch up to the same
//! state, and every edit leaves the run exactly where a fresh run of the edited scenario is.

use influence::glam::Vec2;
use influence::{Falloff, Layer, Source};
use influence_scenario::engine::Run;
use influence_scenario::map::MapFiles;
use influence_scenario::scenario::{self, Scenario};

const TEXT: &str = r#"
perspective = "blue"

[map]
width = 40
height = 24
cell_size = 2
rows = [
EOF_ROWS
]

[propagation]
kind = "diffuse"
decay = 0.08
momentum = 0.7
steps = 45

[[source]]
team = "red"
at = [6, 6]
strength = 5
falloff = "linear"
radius = 8

[[source]]
team = "blue"
at = [70, 40]
strength = 4
falloff = "point"

[[path]]
from = [1, 45]
to = [77, 1]
layer = "red"
weight = 2
"#;

fn text() -> String {
    let rows: String = (0..24)
        .map(|y| {
            let row: String = (0..40)
                .map(|x| if (x == 20 && y > 4) || (y == 12 && (5..15).contains(&x)) { '@' } else { '.' })
                .collect();
            format!("  \"{row}\",\n")
        })
        .collect();
    TEXT.replace("EOF_ROWS\n", &rows)
}

fn parse(text: &str) -> Scenario {
    scenario::parse("engine.toml", text, &MapFiles::Embedded(&[])).unwrap()
}

/// Every team layer, the compound maps' influence and the routes' cells of a run.
fn state(run: &mut Run) -> (Vec<Layer>, Layer, Vec<Option<Vec<usize>>>) {
    let view = run.view();
    let teams = view.teams().into_iter().cloned().collect();
    let routes = view.routes().iter().map(|r| r.as_ref().map(|r| r.cells.clone())).collect();
    (teams, view.analysis().influence.clone(), routes)
}

fn bits(layers: &[Layer]) -> Vec<Vec<u32>> {
    layers.iter().map(|l| l.values().iter().map(|v| v.to_bits()).collect()).collect()
}

#[test]
fn fused_steps_equal_single_steps_and_budgets_catch_up() {
    let s = parse(&text());
    let mut exact = Run::new(s.clone()).unwrap();
    exact.step_to(45, usize::MAX, true);
    let mut fused = Run::new(s.clone()).unwrap();
    fused.step_to(45, usize::MAX, false);
    let mut budgeted = Run::new(s).unwrap();
    let mut calls = 0;
    while budgeted.steps_done() < 45 {
        budgeted.step_to(45, 7, false);
        calls += 1;
    }
    assert!(calls >= 7, "a budget of 7 steps a call needs 7 calls for 45 steps, took {calls}");
    let want = bits(&state(&mut exact).0);
    assert_eq!(bits(&state(&mut fused).0), want);
    assert_eq!(bits(&state(&mut budgeted).0), want);
    assert!(want[0].iter().filter(|&&b| b != 0).count() > 20, "the layer spread");
}

#[test]
fn a_fixed_point_ends_stepping_at_its_step() {
    let s = parse(&text().replace("momentum = 0.7", "momentum = 1.0"));
    let mut run = Run::new(s).unwrap();
    run.step_to(10_000, usize::MAX, true);
    let at = run.fixed_at().expect("momentum 1 reaches a fixed point");
    assert!(at < 200, "{at}");
    assert_eq!(run.steps_done(), 10_000);
    let mut again = Run::new(parse(&text().replace("momentum = 0.7", "momentum = 1.0"))).unwrap();
    again.step_to(at, usize::MAX, true);
    assert_eq!(bits(&state(&mut again).0), bits(&state(&mut run).0));
}

#[test]
fn edits_leave_the_run_where_a_fresh_run_of_the_edited_scenario_is() {
    let base = text();
    let scout = Source::new(Vec2::new(30.0, 30.0), 3.0, Falloff::Linear, 10.0).unwrap();
    let scout_table =
        "\n[[source]]\nteam = \"blue\"\nat = [30, 30]\nstrength = 3\nfalloff = \"linear\"\nradius = 10\nmode = \"add\"\n";
    let fresh = |text: &str| {
        let mut run = Run::new(parse(text)).unwrap();
        run.step_to(45, usize::MAX, false);
        state(&mut run)
    };
    let mut run = Run::new(parse(&base)).unwrap();
    run.step_to(45, usize::MAX, false);
    let red_before = bits(&state(&mut run).0[..1]);

    // A source of blue: red's layer is kept, blue restarts and catches up.
    run.add_source("blue", scout.clone().with_mode(influence::Mode::Add));
    run.step_to(45, usize::MAX, false);
    let edited = state(&mut run);
    assert_eq!(bits(&edited.0[..1]), red_before, "red was not touched");
    let want = fresh(&format!("{base}{scout_table}"));
    assert_eq!(bits(&edited.0), bits(&want.0));
    assert_eq!(edited.1, want.1);
    assert_eq!(edited.2, want.2);

    // Removing it again gives the original run.
    run.remove_source(2);
    run.step_to(45, usize::MAX, false);
    let back = state(&mut run);
    let original = fresh(&base);
    assert_eq!(bits(&back.0), bits(&original.0));
    assert_eq!(back.2, original.2);

    // Walls: every team restarts on the new map.
    run.set_walls(&[(10, 3), (11, 3), (12, 3)], true).unwrap();
    run.step_to(45, usize::MAX, false);
    let mut lines: Vec<String> = base.lines().map(str::to_owned).collect();
    let row = lines.iter().position(|l| l.starts_with("  \"")).unwrap() + 3;
    lines[row].replace_range(3 + 10..3 + 13, "@@@");
    let want = fresh(&(lines.join("\n") + "\n"));
    assert_eq!(bits(&state(&mut run).0), bits(&want.0));

    // A perspective changes the compound maps, not the teams.
    let teams = bits(&state(&mut run).0);
    run.set_perspective(Some("red".to_owned()));
    let red_view = state(&mut run);
    assert_eq!(bits(&red_view.0), teams);
    let flipped: Vec<f32> = want.1.values().iter().map(|v| -v).collect();
    assert_eq!(red_view.1.values(), &flipped[..], "influence is seen from the other side");
    assert!(flipped.iter().any(|&v| v != 0.0));
}

#[test]
fn a_field_follows_its_team_when_an_edit_reorders_the_teams() {
    let field = "\n[field]\n\n[[field.source]]\nteam = \"blue\"\nat = [30, 20]\nstrength = 4\nradius = 12\nfalloff = \"linear\"\n";
    let red = "\n[[source]]\nteam = \"red\"\nat = [6, 6]\nstrength = 5\nfalloff = \"point\"\n";
    let map = "[map]\nwidth = 24\nheight = 16\ncell_size = 2\n";
    let mut run = Run::new(parse(&format!("{map}{red}{field}"))).unwrap();
    assert_eq!(run.view().scenario().teams, ["red", "blue"]);
    run.remove_source(0); // blue, the field's team, is now team 0
    let mut fresh = Run::new(parse(&format!("{map}{field}"))).unwrap();
    let (edited, want) = (state(&mut run), state(&mut fresh));
    assert_eq!(run.view().scenario().teams, ["blue"]);
    assert!(want.0[0].values().iter().any(|&v| v > 0.0));
    assert_eq!(bits(&edited.0), bits(&want.0), "the field stays with blue");
}

#[test]
fn walls_never_close_over_a_source_a_route_end_or_a_flood_start() {
    let mut run = Run::new(parse(&text())).unwrap();
    // red's cell (3, 3), blue's (35, 20), the route's ends (0, 22) and (38, 0), and one free cell.
    let cells = [(3, 3), (35, 20), (0, 22), (38, 0), (10, 10)];
    assert!(run.set_walls(&cells, true).unwrap());
    let grid = &run.scenario().grid;
    for (x, y) in &cells[..4] {
        assert!(!grid.is_blocked(influence::Cell::new(*x, *y)), "({x}, {y}) stays open");
    }
    assert!(grid.is_blocked(influence::Cell::new(10, 10)));
    assert!(run.view().error().is_none());
}
