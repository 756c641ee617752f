//! Bad scenarios, each with the exact message it must give: the file, line and column, the
//! key path, what was expected in words, and a "did you mean" where a name is misspelt.
//! Every case is a small edit of one valid scenario, so each says what it breaks. The
//! messages are the contract: a change to one is a change to what users read, made here on
//! purpose.
//!
//! `INFLUENCE_BLESS=1 cargo test -p influence-scenario --test bad_inputs -- --nocapture`
//! prints each case's message instead of comparing it, to review a deliberate change.

use influence_scenario::engine::Run;
use influence_scenario::map::MapFiles;
use influence_scenario::{scenario, Located};

/// A valid scenario: an 8 × 4 map with a wall at cells (2, 1) and (3, 1), one red unit.
const BASE: &str = r#"[map]
width = 8
height = 4
rows = ["........", "..@@....", "........", "........"]

[[source]]
team = "red"
at = [1, 1]
strength = 5
falloff = "linear"
radius = 4
"#;

/// How a case changes [`BASE`].
#[derive(Debug, Clone, Copy)]
enum Input {
    /// Replaces the first occurrence of the first text (which must occur) with the second.
    Edit(&'static str, &'static str),
    /// Adds text at the end (inside the last `[[source]]` unless it opens a table).
    Append(&'static str),
    /// Adds text at the start, at the top level.
    Prepend(&'static str),
    /// A whole scenario of its own.
    Whole(&'static str),
}

use Input::{Append, Edit, Prepend, Whole};

impl Input {
    fn text(self) -> String {
        match self {
            Self::Edit(from, to) => {
                assert!(BASE.contains(from), "{from:?} is not in the base scenario");
                BASE.replacen(from, to, 1)
            }
            Self::Append(text) => format!("{BASE}{text}"),
            Self::Prepend(text) => format!("{text}{BASE}"),
            Self::Whole(text) => text.to_owned(),
        }
    }
}

/// The scenario read, checked and run: the first error on the way.
fn first_error(text: &str) -> Option<Located> {
    let scenario = match scenario::parse("scenario.toml", text, &MapFiles::Embedded(&[])) {
        Ok(s) => s,
        Err(e) => return Some(e),
    };
    let mut run = match Run::new(scenario) {
        Ok(run) => run,
        Err(e) => return Some(e),
    };
    run.finish(&mut |_| ()).err()
}

/// What is wrong, the scenario, and the message it must give.
const CASES: &[(&str, Input, &str)] = &[
    (
        "syntax: double equals",
        Edit("strength = 5", "strength = = 5"),
        "scenario.toml:9:12: extra `=`, expected nothing: `strength = = 5`",
    ),
    (
        "syntax: unclosed string",
        Edit(r#"team = "red""#, r#"team = "red"#),
        r#"scenario.toml:7:12: invalid basic string, expected `"`: `team = "red`"#,
    ),
    (
        "syntax: unclosed array",
        Edit("at = [1, 1]", "at = [1, 1"),
        "scenario.toml:9:1: missing comma between array elements, expected `,`: `strength = 5`",
    ),
    (
        "syntax: key without value",
        Prepend(r#"perspective
"#),
        "scenario.toml:1:12: key with no value, expected `=`: `perspective`",
    ),
    (
        "syntax: duplicate key",
        Append(r#"radius = 5
"#),
        "scenario.toml:12:1: duplicate key: `radius = 5`",
    ),
    (
        "syntax: table defined twice",
        Append(r#"[map]
width = 3
"#),
        "scenario.toml:12:2: duplicate key: `[map]`",
    ),
    (
        "empty file",
        Whole(""),
        "scenario.toml: missing the required table [map] (a map `file`, or `width` and `height`)",
    ),
    (
        "no sources",
        Whole(r#"[map]
width = 8
height = 4
"#),
        "scenario.toml: no [[source]] tables (nor [[field.source]]): a scenario needs at least one",
    ),
    (
        "unknown top-level key",
        Prepend(r#"colour = "red"
"#),
        "scenario.toml:1:1: colour: unknown key `colour`; this table takes `map`, `perspective`, `on_blocked`, `source`, `output`, `propagation`, `field` or `path`",
    ),
    (
        "misspelt map key",
        Edit("width = 8", "widht = 8"),
        "scenario.toml:2:1: map.widht: unknown key `widht`; did you mean `width`?",
    ),
    (
        "misspelt source key",
        Edit("strength = 5", "strenght = 5"),
        "scenario.toml:9:1: source[0].strenght: unknown key `strenght`; did you mean `strength`?",
    ),
    (
        "misspelt output key",
        Append(r#"
[output]
layer = ["red"]
"#),
        "scenario.toml:14:1: output.layer: unknown key `layer`; did you mean `layers`?",
    ),
    (
        "unknown table",
        Append(r#"
[outputs]
layers = ["red"]
"#),
        "scenario.toml:13:2: outputs: unknown key `outputs`; did you mean `output`?",
    ),
    (
        "misspelt propagation key",
        Append(r#"
[propagation]
kind = "diffuse"
decay = 0.1
step = 4
"#),
        "scenario.toml:16:1: propagation.step: unknown key `step`; did you mean `steps`?",
    ),
    (
        "misspelt path key",
        Append(r#"
[[path]]
form = [0.5, 0.5]
to = [7.5, 3.5]
"#),
        "scenario.toml:14:1: path[0].form: unknown key `form`; did you mean `from`?",
    ),
    (
        "strength as a word",
        Edit("strength = 5", r#"strength = "strong""#),
        r#"scenario.toml:9:12: source[0].strength: expected a number, got the string "strong""#,
    ),
    (
        "radius as a boolean",
        Edit("radius = 4", "radius = true"),
        "scenario.toml:11:10: source[0].radius: expected a number, got true",
    ),
    (
        "width as a float",
        Edit("width = 8", "width = 8.5"),
        "scenario.toml:2:9: map.width: expected a whole number from 1 to 268,435,456, got 8.5",
    ),
    (
        "width negative",
        Edit("width = 8", "width = -8"),
        "scenario.toml:2:9: map.width: expected a whole number from 1 to 268,435,456, got -8",
    ),
    (
        "height as a string",
        Edit("height = 4", r#"height = "4""#),
        r#"scenario.toml:3:10: map.height: expected a whole number from 1 to 268,435,456, got the string "4""#,
    ),
    (
        "at with one number",
        Edit("at = [1, 1]", "at = [1]"),
        "scenario.toml:8:6: source[0].at: expected 2 numbers, got 1",
    ),
    (
        "at with three numbers",
        Edit("at = [1, 1]", "at = [1, 1, 1]"),
        "scenario.toml:8:6: source[0].at: expected 2 numbers, got 3",
    ),
    (
        "at as a string",
        Edit("at = [1, 1]", r#"at = "1,1""#),
        r#"scenario.toml:8:6: source[0].at: expected an array of numbers such as [10, 20], got the string "1,1""#,
    ),
    (
        "team as a number",
        Edit(r#"team = "red""#, "team = 7"),
        r#"scenario.toml:7:8: source[0].team: expected a team name in quotes, such as "red", got 7"#,
    ),
    (
        "rows as a string",
        Edit(r#"rows = ["........", "..@@....", "........", "........"]"#, r#"rows = "........""#),
        r#"scenario.toml:4:8: map.rows: expected an array of strings, one per row of the map, got the string "........""#,
    ),
    (
        "unknown falloff",
        Edit(r#"falloff = "linear""#, r#"falloff = "cubic""#),
        r#"scenario.toml:10:1: source[0].falloff: unknown falloff "cubic"; one of `linear`, `exponential`, `halving`, `polynomial`, `gaussian`, `constant`, `point` or `band`"#,
    ),
    (
        "misspelt falloff",
        Edit(r#"falloff = "linear""#, r#"falloff = "lienar""#),
        r#"scenario.toml:10:1: source[0].falloff: unknown falloff "lienar"; did you mean "linear"?"#,
    ),
    (
        "unknown distance",
        Append(r#"distance = "taxicab"
"#),
        r#"scenario.toml:12:1: source[0].distance: unknown distance "taxicab"; one of `euclidean`, `manhattan`, `octile` or `path`"#,
    ),
    (
        "unknown mode",
        Append(r#"mode = "sum"
"#),
        r#"scenario.toml:12:1: source[0].mode: unknown mode "sum"; one of `add`, `set` or `max`"#,
    ),
    (
        "unknown on_blocked",
        Append(r#"on_blocked = "skip"
"#),
        r#"scenario.toml:12:1: source[0].on_blocked: unknown on_blocked "skip"; one of `error` or `snap`"#,
    ),
    (
        "unknown propagation kind",
        Append(r#"
[propagation]
kind = "spread"
"#),
        r#"scenario.toml:14:1: propagation.kind: unknown kind "spread"; one of `diffuse`, `steady` or `flood`"#,
    ),
    (
        "unknown decay kind",
        Append(r#"
[propagation]
kind = "diffuse"
decay = 0.1
steps = 3
decay_kind = "quadratic"
"#),
        r#"scenario.toml:17:1: propagation.decay_kind: unknown decay_kind "quadratic"; one of `exponential` or `linear`"#,
    ),
    (
        "unknown output layer",
        Append(r#"
[output]
layers = ["red", "heat"]
"#),
        r#"scenario.toml:14:18: output.layers[1]: unknown layer "heat" (it comes with [propagation] kind = "flood"); known: red, mine, theirs, influence, tension, tension_product, vulnerability, directed_vulnerability, frontline"#,
    ),
    (
        "misspelt output layer",
        Append(r#"
[output]
layers = ["tenson"]
"#),
        r#"scenario.toml:14:11: output.layers[0]: unknown layer "tenson"; did you mean "tension"?"#,
    ),
    (
        "output layer twice",
        Append(r#"
[output]
layers = ["red", "red"]
"#),
        r#"scenario.toml:14:18: output.layers[1]: layer "red" is listed twice"#,
    ),
    (
        "unknown perspective",
        Prepend(r#"perspective = "blue"
"#),
        r#"scenario.toml:1:1: perspective: no source has team "blue"; the teams are red"#,
    ),
    (
        "colour without #",
        Append(r#"color = "ff0000"
"#),
        "scenario.toml:12:1: source[0].color: expected a colour like \"#ff8800\" (# and six hex digits), got \"ff0000\"",
    ),
    (
        "colour with bad digits",
        Append("color = \"#ff00zz\"\n"),
        "scenario.toml:12:1: source[0].color: expected a colour like \"#ff8800\" (# and six hex digits), got \"#ff00zz\"",
    ),
    (
        "radius zero",
        Edit("radius = 4", "radius = 0"),
        "scenario.toml:11:1: source[0].radius: radius must be a finite number greater than 0, got 0",
    ),
    (
        "radius negative",
        Edit("radius = 4", "radius = -4"),
        "scenario.toml:11:1: source[0].radius: radius must be a finite number greater than 0, got -4",
    ),
    (
        "strength nan",
        Edit("strength = 5", "strength = nan"),
        "scenario.toml:9:1: source[0].strength: expected a finite number within ±3.4e38 (32 bits), got NaN",
    ),
    (
        "strength inf",
        Edit("strength = 5", "strength = inf"),
        "scenario.toml:9:1: source[0].strength: expected a finite number within ±3.4e38 (32 bits), got inf",
    ),
    (
        "strength beyond f32",
        Edit("strength = 5", "strength = 1e39"),
        "scenario.toml:9:1: source[0].strength: expected a finite number within ±3.4e38 (32 bits), got 1e39",
    ),
    (
        "width zero",
        Edit("width = 8", "width = 0"),
        "scenario.toml:2:1: map.width: map size 0×4 is not allowed: both sides must be at least 1 cell",
    ),
    (
        "cell_size zero",
        Edit("height = 4", r#"height = 4
cell_size = 0"#),
        "scenario.toml:4:1: map.cell_size: cell_size must be a finite number greater than 0, got 0",
    ),
    (
        "cell_size negative",
        Edit("height = 4", r#"height = 4
cell_size = -1"#),
        "scenario.toml:4:1: map.cell_size: cell_size must be a finite number greater than 0, got -1",
    ),
    (
        "cell_size too large for the world",
        Edit("height = 4", r#"height = 4
cell_size = 3e38"#),
        "scenario.toml:4:1: map.cell_size: cell_size must be a number that keeps the map within ±1e18 world units, got 3e38",
    ),
    (
        "origin too far",
        Edit("height = 4", r#"height = 4
origin = [0, -2e18]"#),
        "scenario.toml:4:1: map.origin: origin.y must be a number that keeps the map within ±1e18 world units, got -2e18",
    ),
    (
        "neighbours six",
        Edit("height = 4", r#"height = 4
neighbours = 6"#),
        "scenario.toml:4:1: map.neighbours: must be 4 or 8, got 6",
    ),
    (
        "too many cells",
        Whole(r#"[map]
width = 65536
height = 65536

[[source]]
team = "red"
at = [1, 1]
strength = 5
falloff = "point"
"#),
        "scenario.toml:2:1: map.width: map size 65536×65536 is not allowed: more than 268,435,456 (2^28) cells",
    ),
    (
        "width beyond 64 bits",
        Whole(r#"[map]
width = 99999999999999999999
height = 4

[[source]]
team = "red"
at = [1, 1]
strength = 5
falloff = "point"
"#),
        "scenario.toml:2:9: the integer 99999999999999999999 is too large: TOML integers go up to 9,223,372,036,854,775,807: `width = 99999999999999999999`",
    ),
    (
        "steps zero",
        Append(r#"
[propagation]
kind = "diffuse"
decay = 0.1
steps = 0
"#),
        "scenario.toml:16:1: propagation.steps: must be a whole number from 1 to 1,000,000, got 0",
    ),
    (
        "steps 2^32",
        Append(r#"
[propagation]
kind = "diffuse"
decay = 0.1
steps = 4294967296
"#),
        "scenario.toml:16:1: propagation.steps: must be a whole number from 1 to 1,000,000, got 4294967296",
    ),
    (
        "steps 2^63",
        Append(r#"
[propagation]
kind = "diffuse"
decay = 0.1
steps = 9223372036854775807
"#),
        "scenario.toml:16:1: propagation.steps: must be a whole number from 1 to 1,000,000, got 9223372036854775807",
    ),
    (
        "steps negative",
        Append(r#"
[propagation]
kind = "diffuse"
decay = 0.1
steps = -3
"#),
        "scenario.toml:16:9: propagation.steps: expected a whole number from 1 to 1,000,000, got -3",
    ),
    (
        "decay negative",
        Append(r#"
[propagation]
kind = "diffuse"
decay = -0.1
steps = 3
"#),
        "scenario.toml:15:1: propagation.decay: decay must be a finite number, 0 or more, got -0.1",
    ),
    (
        "momentum above one",
        Append(r#"
[propagation]
kind = "diffuse"
decay = 0.1
steps = 3
momentum = 1.5
"#),
        "scenario.toml:17:1: propagation.momentum: momentum must be a number from 0 to 1, got 1.5",
    ),
    (
        "max_steps too many",
        Append(r#"
[propagation]
kind = "flood"
last_seen = [4.5, 2.5]
max_steps = 2000000
"#),
        "scenario.toml:16:1: propagation.max_steps: must be a whole number from 1 to 1,000,000, got 2000000",
    ),
    (
        "upscale zero",
        Append(r#"
[output]
upscale = 0
"#),
        "scenario.toml:14:1: output.upscale: must be 1 to 64 and keep the picture within 2^28 pixels, got 0",
    ),
    (
        "upscale 65",
        Append(r#"
[output]
upscale = 65
"#),
        "scenario.toml:14:1: output.upscale: must be 1 to 64 and keep the picture within 2^28 pixels, got 65",
    ),
    (
        "path weight negative",
        Append(r#"
[[path]]
from = [0.5, 0.5]
to = [7.5, 3.5]
weight = -1
"#),
        "scenario.toml:16:1: path[0].weight: must be a number, 0 or more, got -1",
    ),
    (
        "source without team",
        Edit(r#"team = "red"
"#, ""),
        "scenario.toml:6:1: source[0]: missing the required key `team`",
    ),
    (
        "source without at",
        Edit(r#"at = [1, 1]
"#, ""),
        "scenario.toml:6:1: source[0]: missing the required key `at`",
    ),
    (
        "source without strength",
        Edit(r#"strength = 5
"#, ""),
        "scenario.toml:6:1: source[0]: missing the required key `strength`",
    ),
    (
        "source without falloff",
        Edit(r#"falloff = "linear"
"#, ""),
        "scenario.toml:6:1: source[0]: missing the required key `falloff`",
    ),
    (
        "linear without radius",
        Edit(r#"radius = 4
"#, ""),
        r#"scenario.toml:6:1: source[0].radius: required for falloff "linear""#,
    ),
    (
        "map without height",
        Edit(r#"height = 4
"#, ""),
        "scenario.toml:1:1: map.height: the map needs `height` with `width`",
    ),
    (
        "map without size",
        Whole(r#"[map]
cell_size = 1

[[source]]
team = "red"
at = [1, 1]
strength = 5
falloff = "point"
"#),
        "scenario.toml:1:1: map.width: the map needs `file`, or `width` and `height`",
    ),
    (
        "diffuse without decay",
        Append(r#"
[propagation]
kind = "diffuse"
steps = 3
"#),
        r#"scenario.toml:13:1: propagation.decay: kind "diffuse" needs `decay`"#,
    ),
    (
        "diffuse without steps",
        Append(r#"
[propagation]
kind = "diffuse"
decay = 0.1
"#),
        r#"scenario.toml:13:1: propagation.steps: kind "diffuse" needs `steps`"#,
    ),
    (
        "flood without last_seen",
        Append(r#"
[propagation]
kind = "flood"
"#),
        r#"scenario.toml:13:1: propagation.last_seen: kind "flood" needs `last_seen = [x, y]`"#,
    ),
    (
        "path without to",
        Append(r#"
[[path]]
from = [0.5, 0.5]
"#),
        "scenario.toml:13:1: path[0]: missing the required key `to`",
    ),
    (
        "gaussian without sigma",
        Edit(r#"falloff = "linear""#, r#"falloff = "gaussian""#),
        r#"scenario.toml:6:1: source[0].sigma: falloff "gaussian" needs `sigma`"#,
    ),
    (
        "linear with sigma",
        Append(r#"sigma = 2
"#),
        r#"scenario.toml:12:1: source[0].sigma: is not a parameter of falloff "linear", which takes no parameters"#,
    ),
    (
        "band with only full",
        Edit(r#"falloff = "linear"
radius = 4"#, r#"falloff = "band"
full = 2"#),
        "scenario.toml:6:1: source[0].accuracy_end: band areas need all four of `full`, `accuracy_end`, `accuracy`, `movement_end`",
    ),
    (
        "band areas out of order",
        Edit(r#"falloff = "linear"
radius = 4"#, r#"falloff = "band"
full = 5
accuracy_end = 3
accuracy = 0.5
movement_end = 8"#),
        "scenario.toml:12:1: source[0].accuracy_end: accuracy_end must be at least full (5), got 3",
    ),
    (
        "band accuracy beyond 1",
        Edit(r#"falloff = "linear"
radius = 4"#, r#"falloff = "band"
full = 1
accuracy_end = 3
accuracy = 1.5
movement_end = 8"#),
        "scenario.toml:13:1: source[0].accuracy: accuracy must be a number from -1 to 1, got 1.5",
    ),
    (
        "band two forms",
        Edit(r#"falloff = "linear"
radius = 4"#, r#"falloff = "band"
ring = [1, 2, 3, 4]
points = [[0, 1], [4, 0]]"#),
        r#"scenario.toml:10:1: source[0].falloff: falloff "band" takes exactly one of `points`, the areas (`full`, `accuracy_end`, `accuracy`, `movement_end`) or `ring`"#,
    ),
    (
        "band points decreasing",
        Edit(r#"falloff = "linear"
radius = 4"#, r#"falloff = "band"
points = [[0, 1], [4, 0.5], [2, 0]]"#),
        "scenario.toml:11:1: source[0].points: band falloff: distances must not decrease",
    ),
    (
        "ring out of order",
        Edit(r#"falloff = "linear"
radius = 4"#, r#"falloff = "band"
ring = [4, 3, 2, 1]"#),
        "scenario.toml:11:12: source[0].ring[1]: ring distances must not decrease: 4 then 3",
    ),
    (
        "exponential negative rate",
        Edit(r#"falloff = "linear""#, r#"falloff = "exponential"
rate = -1"#),
        "scenario.toml:11:1: source[0].rate: rate must be a finite number, 0 or more, got -1",
    ),
    (
        "polynomial zero power",
        Edit(r#"falloff = "linear""#, r#"falloff = "polynomial"
power = 0"#),
        "scenario.toml:11:1: source[0].power: power must be a finite number greater than 0, got 0",
    ),
    (
        "source on a wall",
        Edit("at = [1, 1]", "at = [2.5, 1.5]"),
        r#"scenario.toml:8:1: source[0].at: source[0] (team "red") at [2.5, 1.5] is on blocked cell (2, 1); the nearest walkable cell is (2, 0), centre [2.5, 0.5]: move it there, or set on_blocked = "snap""#,
    ),
    (
        "steady with add",
        Edit("radius = 4", r#"radius = 4
mode = "add"

[propagation]
kind = "steady"
decay = 0.1"#),
        r#"scenario.toml:12:1: source[0].mode: an "add" source has no steady state (it adds to what spreads back into its cell at every step); use "set" or "max", or propagation kind "diffuse""#,
    ),
    (
        "flood last_seen on a wall",
        Append(r#"
[propagation]
kind = "flood"
last_seen = [2.5, 1.5]
"#),
        "scenario.toml:15:1: propagation.last_seen: [2.5, 1.5] is in cell (2, 1), which is blocked",
    ),
    (
        "flood last_seen off the map",
        Append(r#"
[propagation]
kind = "flood"
last_seen = [40, 40]
"#),
        "scenario.toml:15:1: propagation.last_seen: [40.0, 40.0] is outside the map, which covers x 0–8, y 0–4",
    ),
    (
        "path from a wall",
        Append(r#"
[[path]]
from = [3.5, 1.5]
to = [7.5, 3.5]
"#),
        "scenario.toml:14:1: path[0].from: [3.5, 1.5] is in cell (3, 1), which is blocked",
    ),
    (
        "path to off the map",
        Append(r#"
[[path]]
from = [0.5, 0.5]
to = [70.5, 3.5]
"#),
        "scenario.toml:15:1: path[0].to: [70.5, 3.5] is outside the map, which covers x 0–8, y 0–4",
    ),
    (
        "path unknown layer",
        Append(r#"
[[path]]
from = [0.5, 0.5]
to = [7.5, 3.5]
layer = "blue"
"#),
        r#"scenario.toml:16:1: path[0].layer: unknown layer "blue"; known: red, mine, theirs, influence, tension, tension_product, vulnerability, directed_vulnerability, frontline"#,
    ),
    (
        "rows too few",
        Edit(r#"rows = ["........", "..@@....", "........", "........"]"#, r#"rows = ["........", "........"]"#),
        "scenario.toml:4:1: map.rows: has 2 rows, but height is 4",
    ),
    (
        "row too short",
        Edit(r#"rows = ["........", "..@@....", "........", "........"]"#, r#"rows = ["........", "..@@...", "........", "........"]"#),
        "scenario.toml:4:21: map.rows[1]: row has 7 cells, but width is 8",
    ),
    (
        "row with unknown character",
        Edit(r#"rows = ["........", "..@@....", "........", "........"]"#, r#"rows = ["........", "..@@..x.", "........", "........"]"#),
        "scenario.toml:4:21: map.rows[1]: unknown map character 'x' at column 7",
    ),
    (
        "file and width",
        Edit("width = 8", r#"file = "m.map"
width = 8"#),
        "scenario.toml:2:1: map.file: give either `file` or `width`/`height`/`rows`, not both",
    ),
    (
        "team with a space",
        Edit(r#"team = "red""#, r#"team = "red team""#),
        r#"scenario.toml:7:1: source[0].team: expected a team name of letters, digits, '_' and '-', got "red team""#,
    ),
    (
        "team named like a layer",
        Edit(r#"team = "red""#, r#"team = "tension""#),
        r#"scenario.toml:7:1: source[0].team: "tension" is the name of a compound layer; pick another team name"#,
    ),
    (
        "team empty",
        Edit(r#"team = "red""#, r#"team = """#),
        r#"scenario.toml:7:1: source[0].team: expected a team name of letters, digits, '_' and '-', got """#,
    ),
    (
        "teams differing in case",
        Append(r#"
[[source]]
team = "Red"
at = [5, 2]
strength = 3
falloff = "point"
"#),
        r#"scenario.toml:14:1: source[1].team: team "Red" differs from team "red" only in letter case; use one spelling"#,
    ),
    (
        "two colours for one team",
        Append("color = \"#ff0000\"\n\n[[source]]\nteam = \"red\"\nat = [5, 2]\nstrength = 3\nfalloff = \"point\"\ncolor = \"#00ff00\"\n"),
        "scenario.toml:19:1: source[1].color: team \"red\" already has colour \"#ff0000\" (source[0].color); a team has one colour: give it once, or the same on every source",
    ),
    (
        "sums overflow",
        Edit(r#"strength = 5
falloff = "linear"
radius = 4
"#, r#"strength = 3e38
falloff = "linear"
radius = 4

[[source]]
team = "red"
at = [1.5, 1.5]
strength = 3e38
falloff = "point"
"#),
        r#"scenario.toml: source[0].strength: layer "red" is inf at cell (1, 1): the sources' values overflow 32-bit floats; use smaller strengths (this source's, 3e38, is the largest)"#,
    ),
    (
        "very long falloff name",
        Edit(r#"falloff = "linear""#, r#"falloff = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx""#),
        r#"scenario.toml:10:1: source[0].falloff: unknown falloff "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"; one of `linear`, `exponential`, `halving`, `polynomial`, `gaussian`, `constant`, `point` or `band`"#,
    ),
    (
        "very long team",
        Edit(r#"team = "red""#, r#"team = "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr""#),
        r#"scenario.toml:7:1: source[0].team: a team name has at most 64 characters (it names files), got 300 in "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr…""#,
    ),
    (
        "very long string for a number",
        Edit("strength = 5", r#"strength = "999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999""#),
        r#"scenario.toml:9:12: source[0].strength: expected a number, got the string "99999999999999999999999999999999999999999999999999999999999999999999999999999999…""#,
    ),
    (
        "very long perspective",
        Prepend(r#"perspective = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
"#),
        r#"scenario.toml:1:1: perspective: no source has team "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb…"; the teams are red"#,
    ),
    (
        "perspective misspelt",
        Edit("[map]", r#"perspective = "rde"

[map]"#),
        r#"scenario.toml:1:1: perspective: no source has team "rde"; the teams are red"#,
    ),
    (
        "field without sources",
        Append(r#"
[field]
dimensions = 2
"#),
        "scenario.toml:13:2: field: [field] has no [[field.source]] tables",
    ),
    (
        "field three dims with two numbers",
        Append(r#"
[field]
dimensions = 3

[[field.source]]
team = "red"
at = [1, 1]
strength = 2
radius = 3
falloff = "linear"
"#),
        "scenario.toml:18:1: field.source[0].at: expected 3 numbers for dimensions = 3, got 2",
    ),
    (
        "field band falloff",
        Append(r#"
[[field.source]]
team = "red"
at = [1, 1]
strength = 2
radius = 3
falloff = "band"
"#),
        r#"scenario.toml:18:1: field.source[0].falloff: unknown falloff "band"; one of `linear`, `smooth`, `polynomial`, `gaussian` or `exponential`"#,
    ),
    (
        "field dimensions 4",
        Append(r#"
[field]
dimensions = 4
"#),
        "scenario.toml:14:1: field.dimensions: must be 2 or 3, got 4",
    ),
];

#[test]
fn every_bad_input_gives_its_exact_message() {
    assert!(CASES.len() >= 60, "the table keeps at least 60 cases");
    let bless = std::env::var_os("INFLUENCE_BLESS").is_some();
    let mut failures = Vec::new();
    for (what, input, expected) in CASES {
        let got = match first_error(&input.text()) {
            Some(e) => e.to_string(),
            None => "(accepted)".to_owned(),
        };
        if bless {
            println!("CASE\t{what}\t{}", serde_json_string(&got));
        } else if got != *expected {
            failures.push(format!("{what}:\n  expected: {expected}\n  got:      {got}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} messages differ:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

/// `s` as a JSON string, for the blessing output.
fn serde_json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Files that cannot be read as they should, each with its exact message (the folder they
/// stand in shown as `DIR`).
#[test]
fn unreadable_files_give_their_exact_messages() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let scenario_with_map = |map: &str| {
        BASE.replacen("width = 8\nheight = 4\n", &format!("file = {map:?}\n"), 1).replacen(
            "rows = [\"........\", \"..@@....\", \"........\", \"........\"]\n",
            "",
            1,
        )
    };
    std::fs::write(at("broken.map"), "type octile\nheight 2\nwidth 3\nmap\n...\n..\n").unwrap();
    std::fs::write(at("not-utf8.map"), b"type octile\nheight 1\nwidth 3\nmap\n.\xff.\n").unwrap();
    std::fs::create_dir(at("folder.map")).unwrap();
    // Sparse: as large as the cap allows and one byte more, without writing it.
    let huge = std::fs::File::create(at("huge.map")).unwrap();
    huge.set_len(influence_scenario::map::MAX_MAP_FILE + 1).unwrap();
    let mut bad_utf8 = BASE.as_bytes().to_vec();
    bad_utf8.splice(8..8, [0xc3, 0x28]);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "a map file that is missing",
            scenario_with_map("missing.map").into_bytes(),
            "DIR/scenario.toml:2:1: map.file: cannot read DIR/missing.map: No such file or directory (os error 2)",
        ),
        (
            "a map file that is a folder",
            scenario_with_map("folder.map").into_bytes(),
            "DIR/scenario.toml:2:1: map.file: cannot read DIR/folder.map: not a regular file (a map file must be one)",
        ),
        (
            "a map file past the size cap",
            scenario_with_map("huge.map").into_bytes(),
            "DIR/scenario.toml:2:1: map.file: cannot read DIR/huge.map: 268,455,937 bytes, more than a map file may have (268,455,936)",
        ),
        (
            "a map file with a short row",
            scenario_with_map("broken.map").into_bytes(),
            "DIR/broken.map:6: row has 2 cells, expected 3 (read for map.file of DIR/scenario.toml)",
        ),
        (
            "a map file that is not UTF-8",
            scenario_with_map("not-utf8.map").into_bytes(),
            "DIR/scenario.toml:2:1: map.file: cannot read DIR/not-utf8.map: not UTF-8 text: invalid byte at offset 34",
        ),
        (
            "a scenario that is not UTF-8",
            bad_utf8,
            "DIR/scenario.toml:2:3: not UTF-8 text: invalid byte at offset 8",
        ),
    ];
    let shown = dir.path().display().to_string();
    let bless = std::env::var_os("INFLUENCE_BLESS").is_some();
    let mut failures = Vec::new();
    for (what, bytes, expected) in cases {
        std::fs::write(at("scenario.toml"), bytes).unwrap();
        let got = match scenario::load(&at("scenario.toml")) {
            Ok(_) => "(accepted)".to_owned(),
            Err(e) => e.to_string().replace(&shown, "DIR"),
        };
        if bless {
            println!("FILE\t{what}\t{got}");
        } else if got != expected {
            failures.push(format!("{what}:\n  expected: {expected}\n  got:      {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A scenario file that is a device, or past its cap, is refused before it is read.
#[test]
fn scenario_files_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge.toml");
    std::fs::File::create(&huge).unwrap().set_len(influence_scenario::map::MAX_SCENARIO_FILE + 1).unwrap();
    let message = scenario::load(&huge).unwrap_err().to_string();
    assert!(message.ends_with("bytes, more than a scenario file may have (536,911,872)"), "{message}");
    let message = scenario::load(dir.path()).unwrap_err().to_string();
    assert!(message.ends_with(": not a regular file (a scenario file must be one)"), "{message}");
}
