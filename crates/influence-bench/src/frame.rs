//! `influence bench --frame`: one game frame, part by part, each part beside the plain code
//! a good engineer would write for the same job, timed in turns in the same run.
//!
//! The frame, on a map with 500 units per team per 65,536 cells (linear, radius 8,
//! strength 1–5, anywhere in their cells):
//!
//! | part | ours | plain baseline | also timed |
//! | --- | --- | --- | --- |
//! | `stamp` | `Stamper::stamp_all`, both teams | [`TemplateStamper`] (nearest centres) | — |
//! | `analysis` | `Analysis::update` | [`plain_analysis`]: one loop into reused buffers | — |
//! | `diffuse` | 50 fused `Propagator` steps of red's map | 50 [`FlatStep`]s (no walls) | — |
//! | `spots` | a `SpotIndex` built, then 10 top-5 spot queries (spacing 1–10) on the diffused map | [`PlainTopN`] | `query::top_n`, the call before the index |
//! | `flow` | 10 units to one goal: one `FlowField`, 10 routes read off it | 10 [`PlainAstar`] routes | 10 routes of today's router |
//! | `routes` | 10 units to 10 goals: `Router::find_into` | 10 [`PlainAstar`] routes | 10 routes of today's router |
//!
//! Routes avoid blue's stamped map (weight 1, octile estimate): red's units run from the
//! west third of the map to the east third, through blue's. "Today's router" is
//! `Router::find_into` through [`GenericSpace`], which hides that the map is a grid: the way
//! every route was searched before the grid search.
//!
//! The goals of the issue that asked for this frame, each a ratio in the report:
//! * `route`: one route across the map (corner to corner) at least 2× faster than today's;
//! * `flow_field`: one whole flow field at most 0.3× the time of that route today;
//! * `spots_vs_today`: the 10 spot queries at most 0.05× of `query::top_n`'s time;
//! * `spots_vs_plain`: and at least 10× faster than [`PlainTopN`].
//!
//! Maps: a 256² map with 10 % walls, and the real maps of the tests (`data/maps`, embedded);
//! or any map given as a grid ([`FrameMap::new`]; the command reads MovingAI files). The
//! routes keep to the map's largest connected region.

use std::hint::black_box;
use std::time::Duration;

use influence::glam::Vec2;
use influence::propagate::{Diffusion, Propagator, Steps};
use influence::query::{self, Extreme, SpotIndex};
use influence::route::{Cost, FlowField, Heuristic, Route, Router};
use influence::{Analysis, Falloff, Grid, Layer, Source, Space, Stamper};
use serde::Serialize;

use crate::baseline::{plain_analysis, FlatStep, TemplateStamper};
use crate::kernels::best_times;
use crate::plain_astar::PlainAstar;
use crate::plain_top_n::PlainTopN;
use crate::reference::GenericSpace;
use crate::rng::{open_near, walled_grid, Rng};

/// Diffusion steps in a frame.
const STEPS: usize = 50;
/// Spot queries, units routed to one goal, and units routed to their own goals per frame.
const QUERIES: usize = 10;
/// Spots per query.
const SPOTS: usize = 5;

/// The maps a frame runs on: a 256² map with 10 % walls, and the real maps of the tests.
pub const MAPS: [&str; 5] = ["walled256", "london512", "brc202d", "den012d", "maze512"];

/// A map to run the frame on, with its scene ready: a name and a grid.
pub struct FrameMap {
    name: String,
    scene: Scene,
}

impl FrameMap {
    /// One of [`MAPS`], by name; `None` for another name.
    pub fn named(name: &str) -> Option<Self> {
        let text = match name {
            "walled256" => return Self::new(name, walled_grid(256, 0x9E37_79B9_7F4A_7C15)).ok(),
            "london512" => include_str!("../../../data/maps/London_0_512.map"),
            "brc202d" => include_str!("../../../data/maps/brc202d.map"),
            "den012d" => include_str!("../../../data/maps/den012d.map"),
            "maze512" => include_str!("../../../data/maps/maze512-8-6.map"),
            _ => return None,
        };
        Self::new(name, Grid::from_movingai(text).expect("the embedded maps parse")).ok()
    }

    /// The frame's scene on `grid`, named `name` in the report.
    ///
    /// # Errors
    /// A message when no two walkable cells of `grid` are connected: no route to time.
    pub fn new(name: &str, grid: Grid) -> Result<Self, String> {
        Ok(Self { name: name.to_owned(), scene: Scene::new(grid)? })
    }
}

/// One part of the frame on one map.
#[derive(Debug, Serialize)]
pub struct Part {
    /// The part's name (see the module docs).
    pub part: &'static str,
    /// Our code, in ms.
    pub ms: f64,
    /// The plain baseline, in ms.
    pub baseline_ms: f64,
    /// ours ÷ baseline: below 1 is faster.
    pub ratio: f64,
    /// The code this part replaced (today's router, `query::top_n`), in ms, where timed.
    pub today_ms: Option<f64>,
}

/// A goal of the issue: ours ÷ what it is measured against, and the bound it must meet.
#[derive(Debug, Serialize)]
pub struct Goal {
    /// The goal's name (see the module docs).
    pub goal: &'static str,
    /// Our time, in ms.
    pub ms: f64,
    /// What ours is measured against.
    pub against: &'static str,
    /// Its time, in ms.
    pub against_ms: f64,
    /// ms ÷ against_ms.
    pub ratio: f64,
    /// The largest ratio that meets the goal.
    pub at_most: f64,
    /// Whether it does.
    pub met: bool,
}

/// The frame on one map.
#[derive(Debug, Serialize)]
pub struct MapReport {
    /// The map's name.
    pub map: String,
    /// Its walkable cells.
    pub walkable: usize,
    /// Units per team.
    pub units: usize,
    /// The parts, in frame order.
    pub parts: Vec<Part>,
    /// The whole frame (the parts' sum), in ms.
    pub frame_ms: f64,
    /// The baselines' sum, in ms.
    pub baseline_frame_ms: f64,
    /// frame ÷ baseline frame.
    pub ratio: f64,
    /// The goals on this map.
    pub goals: Vec<Goal>,
}

/// Runs the frame on each of `maps`, spending about `budget` on each measurement.
pub fn run(maps: &[FrameMap], budget: Duration, mut progress: impl FnMut(&MapReport)) -> Vec<MapReport> {
    maps.iter()
        .map(|map| {
            let report = measure(&map.name, &map.scene, budget);
            progress(&report);
            report
        })
        .collect()
}

/// Two teams of 500 units per 65,536 cells of `grid` (linear, radius 8, strength 1–5),
/// each anywhere in a walkable cell, as a game's units stand (stamping refuses one on a
/// wall): the units of a frame, here and in the `frame` kernel.
pub(crate) fn teams(grid: &Grid, rng: &mut Rng) -> [Vec<Source>; 2] {
    let units = (grid.len() * 500 / 65_536).max(1);
    let mut team = || {
        let mut team = Vec::with_capacity(units);
        while team.len() < units {
            let at = Vec2::new(rng.range(0.0, grid.width() as f32), rng.range(0.0, grid.height() as f32));
            if grid.cell_at(at).is_some_and(|c| !grid.is_blocked(c)) {
                team.push(Source::new(at, rng.range(1.0, 5.0), Falloff::Linear, 8.0).expect("finite"));
            }
        }
        team
    };
    [team(), team()]
}

/// The scene of one frame: the map, both teams, and the cells units route between.
struct Scene {
    grid: Grid,
    red: Vec<Source>,
    blue: Vec<Source>,
    /// Blue's stamped map: the danger routes avoid.
    danger: Layer,
    /// `QUERIES` starts in the west third, and their goals in the east third.
    starts: Vec<usize>,
    goals: Vec<usize>,
    /// The goal all the flow part's units walk to, and a route corner to corner.
    rally: usize,
    across: (usize, usize),
}

impl Scene {
    /// The scene on `grid`: units anywhere walkable; the routes kept to the map's largest
    /// connected region, so that every one exists: across the map from the region's cell
    /// nearest the top-left corner to the one nearest the bottom-right, and from starts in
    /// the west third to goals in the east third (anywhere in the region where a third
    /// holds none of it).
    fn new(grid: Grid) -> Result<Self, String> {
        let region = largest_region(&grid);
        let cells: Vec<usize> = (0..grid.len()).filter(|&i| region[i]).collect();
        if cells.len() < 2 {
            return Err("no two walkable cells are connected: the frame has no route to time".into());
        }
        let mut rng = Rng::new(0x0123_4567_89AB_CDEF);
        let [red, blue] = teams(&grid, &mut rng);
        let mut danger = Layer::for_space(&grid);
        Stamper::new().stamp_all(&grid, &mut danger, &blue).expect("units stand on walkable cells");
        let (w, h) = (grid.width(), grid.height());
        let corner =
            |x, y| open_near(&grid, x, y).filter(|&c| region[c]).unwrap_or_else(|| nearest(w, &cells, x, y));
        let across = (corner(0, 0), corner(w - 1, h - 1));
        let band = (w / 3).max(1);
        let mut pick = |x0: usize| {
            if !cells.iter().any(|&i| (x0..x0 + band).contains(&(i % w))) {
                return cells[rng.below(cells.len())];
            }
            loop {
                let cell = (rng.range(0.0, h as f32) as usize).min(h - 1) * w
                    + (x0 + rng.range(0.0, (w / 3) as f32) as usize).min(w - 1);
                if region[cell] {
                    break cell;
                }
            }
        };
        let starts = (0..QUERIES).map(|_| pick(0)).collect();
        let goals = (0..QUERIES).map(|_| pick(w - w / 3)).collect();
        Ok(Self { red, blue, danger, starts, goals, rally: across.1, across, grid })
    }
}

/// The rows (for `Grid::from_rows`, or a MovingAI file) of a `width × height` map, at least
/// 3 × 3, with the cells `blocked(x, y)` walled, and a one-cell pocket sealed off in its
/// top-left and bottom-right corners: a map whose corners the frame cannot route from,
/// which the tests of its largest region run on.
pub fn sealed_corners(width: usize, height: usize, blocked: impl Fn(usize, usize) -> bool) -> Vec<String> {
    let ring = |x: usize, y: usize, (cx, cy): (usize, usize)| {
        x.abs_diff(cx) <= 1 && y.abs_diff(cy) <= 1 && (x, y) != (cx, cy)
    };
    let corners = [(0, 0), (width - 1, height - 1)];
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| if blocked(x, y) || corners.iter().any(|&c| ring(x, y, c)) { '@' } else { '.' })
                .collect()
        })
        .collect()
}

/// Of `cells` of a map `w` cells wide, the one nearest cell `(x, y)` (the first of equals).
fn nearest(w: usize, cells: &[usize], x: usize, y: usize) -> usize {
    let far = |&i: &usize| (i % w).abs_diff(x).pow(2) + (i / w).abs_diff(y).pow(2);
    *cells.iter().min_by_key(|i| far(i)).expect("some cells")
}

/// Per cell of `grid`, whether it is in the largest connected region of walkable cells
/// (the first found of equals; none on a map without walkable cells).
fn largest_region(grid: &Grid) -> Vec<bool> {
    let mut region = vec![u32::MAX; grid.len()];
    let (mut biggest, mut most, mut queue) = (u32::MAX, 0, Vec::new());
    for start in (0..grid.len()).filter(|&i| grid.is_walkable(i)) {
        if region[start] != u32::MAX {
            continue;
        }
        let id = start as u32;
        region[start] = id;
        queue.push(start);
        let mut size = 0;
        while let Some(c) = queue.pop() {
            size += 1;
            grid.for_each_neighbour(c, |n, _| {
                if region[n] == u32::MAX {
                    region[n] = id;
                    queue.push(n);
                }
            });
        }
        if size > most {
            (biggest, most) = (id, size);
        }
    }
    region.into_iter().map(|r| r == biggest && r != u32::MAX).collect()
}

/// Times every part and goal of the frame on `grid`.
fn measure(map: &str, scene: &Scene, budget: Duration) -> MapReport {
    let grid = &scene.grid;
    let n = grid.len();
    let ms = |ns: f64| ns / 1e6;
    let part = |part, [ours, plain]: [f64; 2], today: Option<f64>| Part {
        part,
        ms: ms(ours),
        baseline_ms: ms(plain),
        ratio: ours / plain,
        today_ms: today.map(ms),
    };
    let mut parts = Vec::new();

    // Stamping both teams: each map cleared and stamped.
    let mut layers = [Layer::for_space(grid), Layer::for_space(grid)];
    let mut plain_layers = layers.clone();
    let (mut stamper, mut template) = (Stamper::new(), TemplateStamper::default());
    let teams = [&scene.red, &scene.blue];
    let times = best_times(
        [
            &mut || {
                for (layer, team) in layers.iter_mut().zip(teams) {
                    layer.fill(0.0);
                    stamper.stamp_all(grid, layer, team).expect("units stand on walkable cells");
                }
                black_box(&layers);
            },
            &mut || {
                for (layer, team) in plain_layers.iter_mut().zip(teams) {
                    layer.fill(0.0);
                    template.stamp_all(grid, layer, team);
                }
                black_box(&plain_layers);
            },
        ],
        budget,
    );
    parts.push(part("stamp", times, None));

    // The compound maps of red's view.
    let mut maps = Analysis::new(n);
    let mut plain_maps: [Vec<f32>; 5] = Default::default();
    let times = best_times(
        [
            &mut || {
                maps.update(&layers[0], &[&layers[1]]);
                black_box(&maps);
            },
            &mut || {
                plain_analysis(layers[0].values(), layers[1].values(), &mut plain_maps);
                black_box(&plain_maps);
            },
        ],
        budget,
    );
    parts.push(part("analysis", times, None));

    // 50 steps of red's map.
    let d = Diffusion::new(0.3, 0.5).expect("valid");
    let mut p = Propagator::new(grid, d);
    let mut flat = FlatStep::new(grid.width(), grid.height(), layers[0].values().to_vec(), &d, true);
    let times = best_times(
        [
            &mut || {
                p.values_mut().values_mut().copy_from_slice(layers[0].values());
                drop(p.step(grid, Steps { count: STEPS, ..Steps::default() }));
                black_box(p.values());
            },
            &mut || {
                for _ in 0..STEPS {
                    flat.step();
                }
                black_box(flat.values());
            },
        ],
        budget,
    );
    parts.push(part("diffuse", times, None));

    // Ten spot queries on the diffused map: the index built once, then queried.
    let diffused = p.values().clone();
    let (mut index, mut plain_top) = (SpotIndex::new(), PlainTopN::new());
    let (mut out, mut plain_out) = (Vec::new(), Vec::new());
    let spacing = |q: usize| (q + 1) as f32;
    let [ours, plain, today] = best_times(
        [
            &mut || {
                index.build(grid, &diffused);
                for q in 0..QUERIES {
                    index.top_n_into(grid, &diffused, SPOTS, spacing(q), Extreme::Highest, &mut out);
                    black_box(&out);
                }
            },
            &mut || {
                for q in 0..QUERIES {
                    plain_top.top_n_into(
                        grid,
                        &diffused,
                        SPOTS,
                        spacing(q),
                        Extreme::Highest,
                        &mut plain_out,
                    );
                    black_box(&plain_out);
                }
            },
            &mut || {
                for q in 0..QUERIES {
                    black_box(query::top_n(grid, &diffused, SPOTS, spacing(q), Extreme::Highest));
                }
            },
        ],
        budget,
    );
    parts.push(part("spots", [ours, plain], Some(today)));
    let spots = (ours, plain, today);

    // Ten units to one rally point, and ten to goals of their own.
    let cost = Cost::avoiding(&scene.danger, 1.0).expect("a finite weight");
    let (mut router, mut route, mut plain_astar, mut field) =
        (Router::new(), Route::default(), PlainAstar::new(), FlowField::new());
    let generic = GenericSpace(grid);
    let mut read = Route::default();
    let [ours, plain, today] = best_times(
        [
            &mut || {
                field.compute(grid, &[scene.rally], &cost).expect("the rally point is open");
                for &s in &scene.starts {
                    black_box(field.route_into(grid, s, &cost, &mut read));
                }
            },
            &mut || {
                for &s in &scene.starts {
                    black_box(plain_astar.find(grid, s, scene.rally, &scene.danger, 1.0));
                }
            },
            &mut || {
                for &s in &scene.starts {
                    black_box(router.find_into(
                        &generic,
                        s,
                        scene.rally,
                        &cost,
                        Heuristic::Octile,
                        &mut route,
                    ))
                    .expect("the rally point is reachable");
                }
            },
        ],
        budget,
    );
    parts.push(part("flow", [ours, plain], Some(today)));
    let [ours, plain, today] = {
        let (mut generic_router, mut generic_route) = (Router::new(), Route::default());
        best_times(
            [
                &mut || {
                    for (&s, &g) in scene.starts.iter().zip(&scene.goals) {
                        black_box(router.find_into(grid, s, g, &cost, Heuristic::Octile, &mut route))
                            .expect("the goal is reachable");
                    }
                },
                &mut || {
                    for (&s, &g) in scene.starts.iter().zip(&scene.goals) {
                        black_box(plain_astar.find(grid, s, g, &scene.danger, 1.0));
                    }
                },
                &mut || {
                    for (&s, &g) in scene.starts.iter().zip(&scene.goals) {
                        black_box(generic_router.find_into(
                            &generic,
                            s,
                            g,
                            &cost,
                            Heuristic::Octile,
                            &mut generic_route,
                        ))
                        .expect("the goal is reachable");
                    }
                },
            ],
            budget,
        )
    };
    parts.push(part("routes", [ours, plain], Some(today)));

    // The goals: one route across the map, and one field, against today's route.
    let (from, to) = scene.across;
    let (mut today_router, mut today_route) = (Router::new(), Route::default());
    let [route_ours, field_ours, route_today] = best_times(
        [
            &mut || {
                black_box(router.find_into(grid, from, to, &cost, Heuristic::Octile, &mut route))
                    .expect("the corners are connected");
            },
            &mut || {
                field.compute(grid, &[to], &cost).expect("the corner is open");
                black_box(&field);
            },
            &mut || {
                black_box(today_router.find_into(
                    &generic,
                    from,
                    to,
                    &cost,
                    Heuristic::Octile,
                    &mut today_route,
                ))
                .expect("the corners are connected");
            },
        ],
        budget,
    );
    let goal = |goal, ours: f64, against, theirs: f64, at_most: f64| Goal {
        goal,
        ms: ms(ours),
        against,
        against_ms: ms(theirs),
        ratio: ours / theirs,
        at_most,
        met: ours / theirs <= at_most,
    };
    let goals = vec![
        goal("route", route_ours, "today's router, one route across the map", route_today, 0.5),
        goal("flow_field", field_ours, "today's router, one route across the map", route_today, 0.3),
        goal("spots_vs_today", spots.0, "query::top_n", spots.2, 0.05),
        goal("spots_vs_plain", spots.0, "the plain partial-selection top-N", spots.1, 0.1),
    ];

    let frame_ms: f64 = parts.iter().map(|p| p.ms).sum();
    let baseline_frame_ms: f64 = parts.iter().map(|p| p.baseline_ms).sum();
    MapReport {
        map: map.to_owned(),
        walkable: (0..n).filter(|&i| grid.is_walkable(i)).count(),
        units: scene.red.len(),
        frame_ms,
        baseline_frame_ms,
        ratio: frame_ms / baseline_frame_ms,
        parts,
        goals,
    }
}

/// The human-readable table of one map's frame.
pub fn table(r: &MapReport) -> String {
    let mut out = format!(
        "{} ({} walkable cells, {} units a team): frame {:.3} ms, plain {:.3} ms ({:.2}×)\n",
        r.map, r.walkable, r.units, r.frame_ms, r.baseline_frame_ms, r.ratio
    );
    for p in &r.parts {
        let today = p.today_ms.map_or(String::new(), |t| format!("   before {t:>8.3} ms"));
        out += &format!(
            "  {:<9} {:>8.3} ms   plain {:>8.3} ms   {:>5.2}× plain's time{today}\n",
            p.part, p.ms, p.baseline_ms, p.ratio
        );
    }
    for g in &r.goals {
        out += &format!(
            "  goal {:<15} {:.3} ÷ {:.3} ms = {:.3} (at most {}): {}\n",
            g.goal,
            g.ms,
            g.against_ms,
            g.ratio,
            g.at_most,
            if g.met { "met" } else { "NOT met" }
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frame's searches answer alike: the field, the router and today's router all find
    /// the plain A*'s costs, so the parts time the same work.
    #[test]
    fn every_route_of_the_frame_costs_what_the_plain_search_finds() {
        for name in ["walled256", "den012d"] {
            let scene = &FrameMap::named(name).unwrap().scene;
            let grid = &scene.grid;
            let cost = Cost::avoiding(&scene.danger, 1.0).unwrap();
            let (mut field, mut plain, mut router, mut route) =
                (FlowField::new(), PlainAstar::new(), Router::new(), Route::default());
            field.compute(grid, &[scene.rally], &cost).unwrap();
            let close = |a: f32, b: f32| (a - b).abs() <= 1e-5 * b.max(1.0);
            for (&s, &g) in scene.starts.iter().zip(&scene.goals) {
                let want = plain.find(grid, s, scene.rally, &scene.danger, 1.0).unwrap();
                let got = field.cost_to_goal(s).unwrap();
                assert!(close(got, want), "{name}: field {got} vs plain {want}");
                let want = plain.find(grid, s, g, &scene.danger, 1.0).unwrap();
                router.find_into(grid, s, g, &cost, Heuristic::Octile, &mut route).unwrap();
                assert!(close(route.cost, want), "{name}: router {} vs plain {want}", route.cost);
                router.find_into(&GenericSpace(grid), s, g, &cost, Heuristic::Octile, &mut route).unwrap();
                assert!(close(route.cost, want), "{name}: today {} vs plain {want}", route.cost);
            }
        }
    }

    #[test]
    fn every_map_builds_and_has_room_for_the_frame() {
        for name in MAPS {
            let scene = &FrameMap::named(name).unwrap().scene;
            assert_eq!(scene.red.len(), scene.blue.len());
            assert!(scene.danger.values().iter().any(|&v| v > 0.0), "{name}");
            assert_ne!(scene.across.0, scene.across.1, "{name}");
        }
    }

    /// On a map whose corners are sealed pockets, the scene keeps to the largest region:
    /// every start, goal and corner of the route reaches the rally point. A map of lone
    /// walkable cells has no route and is refused.
    #[test]
    fn a_map_with_sealed_corners_keeps_to_its_largest_region() {
        // 30 × 20 open, a one-cell pocket in two corners, a smaller region cut off on the left.
        let rows = sealed_corners(30, 20, |x, _| x == 5);
        let grid = Grid::from_rows(&rows).unwrap();
        let scene = FrameMap::new("pockets", grid).unwrap().scene;
        let mut field = FlowField::new();
        field.compute(&scene.grid, &[scene.rally], &Cost::distance()).unwrap();
        let at = |i: usize| (i % 30, i / 30);
        for &c in scene.starts.iter().chain(&scene.goals).chain([&scene.across.0, &scene.across.1]) {
            assert!(field.cost_to_goal(c).is_some(), "{:?} is cut off from the rally point", at(c));
            assert!(at(c).0 > 5, "{:?} is not in the largest region", at(c));
        }
        assert_ne!(scene.across.0, scene.across.1);
        let lonely = Grid::from_rows(&[".@.@", "@@@@", ".@.@"]).unwrap();
        assert!(FrameMap::new("lonely", lonely).is_err());
    }
}
