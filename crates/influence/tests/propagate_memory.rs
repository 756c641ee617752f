//! Layers on a schedule: a diffusing layer whose steps are sliced over frames, a fading
//! memory of where units were, and timed events — driven by one frame clock.

use influence::propagate::{Diffusion, Events, MemoryLayer, Propagator, Schedule, Seed, Steps};
use influence::Cell;
use influence::{Falloff, Grid, Layer, Mode, Source, Stamper};

#[test]
fn a_scheduled_sliced_layer_matches_stepping_at_once() {
    let grid = Grid::from_rows(&[
        "................",
        "....@@@@........",
        "..........@.....",
        "..........@.....",
        "................",
        "..@@@...........",
    ])
    .unwrap();
    let d = Diffusion::new(0.3, 0.5).unwrap();
    let seeds = [Seed::new(0, 3.0), Seed::new(grid.index(Cell::new(12, 4)).unwrap(), 2.0)];
    let mut schedule = Schedule::default();
    let threat = schedule.add(5.0).unwrap();
    let trail = schedule.add(2.0).unwrap();

    let mut sliced = Propagator::new(&grid, d);
    let mut at_once = Propagator::new(&grid, d);
    let mut memory = MemoryLayer::new(&grid, Some(0.5)).unwrap();
    let mut events = Events::default();
    let mut stamper = Stamper::new();
    let mut danger = Layer::for_space(&grid);
    let (mut pending, mut finished, mut trail_runs) = (0, 0, 0);

    for frame in 0..600 {
        let dt = 1.0 / 60.0;
        if frame == 30 {
            let bang = Source::new(grid.center(Cell::new(8, 3)), 4.0, Falloff::Linear, 3.0)
                .unwrap()
                .with_mode(Mode::Add);
            events.add(bang, 1.5, None).unwrap();
        }
        schedule
            .update(dt, |layer, elapsed| {
                if layer == threat {
                    pending += 1;
                } else if layer == trail {
                    trail_runs += 1;
                    memory.update(elapsed).unwrap();
                    let x = (frame / 20) % 16;
                    memory
                        .deposit(
                            &grid,
                            &[Seed::new(grid.index(Cell::new(x, 4)).unwrap(), 1.0).with_mode(Mode::Add)],
                        )
                        .unwrap();
                }
            })
            .unwrap();
        events.advance(dt).unwrap();
        danger.fill(0.0);
        events.stamp(&grid, &mut stamper, &mut danger).unwrap();
        if frame == 60 {
            // 31 frames after the grenade: 4 × remaining / lifetime at its cell.
            let remaining = 1.5 - 31.0 / 60.0;
            assert!((danger[grid.index(Cell::new(8, 3)).unwrap()] - 4.0 * remaining / 1.5).abs() < 1e-4);
        }
        // A due threat step is spread over frames, two rows per frame.
        let slice = Steps { seeds: &seeds, budget: 2 * grid.width(), ..Steps::default() };
        if pending > 0 && sliced.step(&grid, slice).unwrap() {
            pending -= 1;
            finished += 1;
            at_once.write_seeds(&grid, &seeds).unwrap();
            at_once.step(&grid, Steps::default()).unwrap();
            let bits = |l: &Layer| l.values().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(sliced.values()), bits(at_once.values()), "step {finished}");
        }
    }
    assert_eq!(trail_runs, 20);
    assert!(finished >= 45, "{finished} of 50 scheduled steps done");
    // The trail is freshest where the unit is now and has faded where it started.
    let row = |x| memory.layer()[grid.index(Cell::new(x, 4)).unwrap()];
    assert!(row(13) > row(1) && row(1) > 0.0);
    // The grenade was heard for 1.5 s and is gone.
    assert!(events.iter().next().is_none() && danger.max_abs() == 0.0);
}
