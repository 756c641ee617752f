//! `influence`: renders influence-map scenarios (TOML) to PNG pictures, NumPy `.npy` arrays
//! and a JSON summary. `influence demo` renders the built-in two-army scenario;
//! `influence render SCENARIO.toml --out DIR` renders yours (see `docs/scenario.md`);
//! `influence animate SCENARIO.toml --out DIR` writes its `[propagation]` as a GIF or PNG
//! frames; `influence bench` measures the kernels against naive references.
//!
//! Exit codes: 0 on success, 2 for bad input (the message names file, line and key),
//! 1 when the output cannot be written.

#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod animate;
mod error;
mod frames;
mod gif_writer;
mod npy;
mod output;
mod progress;

use error::CliError;
use influence_scenario::engine::Run;
use influence_scenario::error::{Located, Problem};
use influence_scenario::scenario;

/// Influence maps for game AI: scenarios in, heatmaps, arrays and a summary out.
#[derive(Debug, Parser)]
#[command(name = "influence", version, about)]
struct Cli {
    /// No progress bars (they are drawn only on a terminal, for work over a second).
    #[arg(long, short, global = true)]
    quiet: bool,
    /// The most memory a scenario may need (estimated before its layers are allocated):
    /// bytes, or a size such as 8G or 512M. The default is half the machine's memory.
    #[arg(long, global = true, value_name = "SIZE", value_parser = influence_scenario::memory::parse_size)]
    memory_budget: Option<u64>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Render a scenario file: LAYER.png and LAYER.npy per layer, and summary.json.
    Render {
        /// The scenario (TOML; see docs/scenario.md).
        scenario: PathBuf,
        /// The folder to write into (created if missing).
        #[arg(long, short)]
        out: PathBuf,
        /// Bare heatmaps, for scripts: no title, colour bar or legend; markers in two colours
        /// (the perspective team's and the others'), the front line black.
        #[arg(long)]
        plain: bool,
    },
    /// Animate a scenario's propagation table: an animated GIF and/or numbered PNG frames.
    ///
    /// Frame i shows the layer after i × EVERY steps, drawn as `render` draws it, on one
    /// colour scale for all frames. Diffusion runs to its `steps`, a flood until the fill
    /// stops, a steady state until a step changes nothing.
    Animate {
        /// The scenario (TOML with a propagation table; see docs/scenario.md).
        scenario: PathBuf,
        /// The folder to write into (created if missing).
        #[arg(long, short)]
        out: PathBuf,
        /// At most this many frames [default: until the propagation ends; 200 for steady].
        #[arg(long)]
        frames: Option<usize>,
        /// Steps between frames.
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// The layer to show: a team, a compound layer, `frontline` or `heat`
        /// [default: heat for a flood, influence otherwise].
        #[arg(long)]
        layer: Option<String>,
        /// Write LAYER.gif (the default when neither --gif nor --png is given).
        #[arg(long)]
        gif: bool,
        /// Write frame-0000.png, frame-0001.png, ...
        #[arg(long)]
        png: bool,
        /// GIF frames per second (1 to 100).
        #[arg(long, default_value_t = 10)]
        fps: u16,
        /// Bare frames, for scripts: no title, step counter, colour bar or legend, as
        /// `render --plain` draws them.
        #[arg(long)]
        plain: bool,
    },
    /// Measure each kernel in ns per cell beside a naive reference and a plain copy.
    ///
    /// Kernels: stamp, stamp_centred and stamp_anywhere (sources at cell corners, centres or
    /// anywhere), algebra, diffuse4 and diffuse8 (one diffusion step on a 4- or 8-connected
    /// map with ~10 % walls), edited8 (diffuse8's step after a cell is written by hand, as a
    /// stamper writes), fused4 and fused8 (16 steps fused in one pass, per step), steady
    /// and steady_far (the steady state per solve, against the step iterated until nothing
    /// changes), flood (the chase flood fill, per cell it heats, against a plain whole-map
    /// version), frame (one frame of a game). Each is measured beside its reference, careful
    /// hand-written code for the same job where there is one (the baseline), and a plain copy
    /// of the map's bytes in the same run; the best of repeated runs is reported. The diffusion
    /// kernels run on 1 and 2 threads, the others on 1; the copy runs on as many threads.
    /// `INFLUENCE_KERNEL=avx2` or `=portable` measures the library's narrower kernels, and
    /// the baselines built no wider, as a CPU without the wider instructions runs both. The
    /// JSON records are
    /// {"kernel","size","threads","ns_per_cell","reference_ns_per_cell","baseline_ns_per_cell",
    /// "copy_ns_per_cell","goal"} (the baseline null where there is none). The goal, where the
    /// kernels' goals name the record (the one-thread steps at 256², 1024² and 4096², fused
    /// steps at 4096², stamping at 1024², the steady state), is
    /// {"ratio_of","ratio","at_least","at_most","met"}: baseline ÷ ours at least a bound, or
    /// ours ÷ copy at most one; else null.
    Bench {
        /// Map sides to measure (square maps) [default: 64,256,1024,4096; with --quick 64,256].
        #[arg(long, value_delimiter = ',')]
        sizes: Option<Vec<usize>>,
        /// Only these kernels (comma-separated); all by default.
        #[arg(long, value_delimiter = ',')]
        kernels: Vec<String>,
        /// Seconds spent on each measurement (the best run is reported) [default: 0.3; with
        /// --quick 0.05].
        #[arg(long)]
        seconds: Option<f64>,
        /// A short run for a first look: small maps, short measurements (with --field: 1,000
        /// sources and 10,000 queries, and a 256² world).
        #[arg(long)]
        quick: bool,
        /// Instead of the kernels, compare the grid-free field: index-backed queries against
        /// brute force (field_index: 10,000 sources, 100,000 queries), and the field against
        /// grids of several cell sizes in memory, time and accuracy (field_vs_grid). With
        /// --json, one JSON object {"field_index": {...}, "field_vs_grid": {...}}.
        #[arg(long, conflicts_with_all = ["sizes", "kernels"])]
        field: bool,
        /// Instead of the kernels, one game frame part by part (stamping, analysis, 50
        /// diffusion steps, 10 spot queries, 10 units to one goal through a flow field, 10
        /// units to 10 goals), each part beside its plain baseline, with the frame's goals as
        /// ratios. With --json, an array of {"map","walkable","units","parts","frame_ms",
        /// "baseline_frame_ms","ratio","goals"}.
        #[arg(long, conflicts_with_all = ["sizes", "kernels", "field"])]
        frame: bool,
        /// With --frame, the maps (comma-separated): the frame's own by name, or MovingAI .map
        /// files [default: all of walled256, london512, brc202d, den012d, maze512; with
        /// --quick walled256].
        #[arg(long, value_delimiter = ',', requires = "frame")]
        maps: Option<Vec<String>>,
        /// Print a JSON array of records instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Serve the sandbox: a local web page to place sources, paint walls, watch propagation
    /// live and export scenarios for `render` (see docs/sandbox-api.md).
    Serve {
        /// A scenario to start from (TOML; see docs/scenario.md).
        scenario: Option<PathBuf>,
        /// The port to listen on (0 picks a free one).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on; anything but loopback is reachable from other machines
        /// (a warning says so).
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
    },
    /// Render the built-in demo: two armies on a Dragon Age map.
    Demo {
        /// The folder to write into (created if missing).
        #[arg(long, short, default_value = "out/demo")]
        out: PathBuf,
        /// Bare heatmaps, as `render --plain` draws them.
        #[arg(long)]
        plain: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    progress::set_quiet(cli.quiet);
    influence_scenario::memory::set_budget(cli.memory_budget.unwrap_or(0));
    match execute(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// Writes `text` to standard output. A reader that has gone away (`influence bench | head`)
/// is not an error worth a message, and the output files are already written by then.
fn say(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

fn execute(command: Command) -> Result<(), CliError> {
    let look = |plain: bool| if plain { output::Look::Plain } else { output::Look::Figure };
    let (scenario, out, look) = match command {
        Command::Serve { scenario, port, host } => {
            use influence_sandbox::{serve, SandboxError, ServeConfig};
            let config = ServeConfig { host, port, scenario, ..ServeConfig::default() };
            return serve(config).map_err(|e| match e {
                SandboxError::Scenario { path, message } => {
                    CliError::Input(Located::new(&path.display().to_string(), Problem::Value, message))
                }
                other => CliError::Usage(other.to_string()), // e.g. the port is taken
            });
        }
        Command::Render { scenario, out, plain } => (scenario::load(&scenario)?, out, look(plain)),
        Command::Demo { out, plain } => (influence_scenario::demo::scenario()?, out, look(plain)),
        Command::Bench { sizes, kernels, seconds, quick, field, frame, maps, json } => {
            if frame {
                let maps = maps.unwrap_or_else(|| {
                    let all = influence_bench::frame::MAPS;
                    all[..if quick { 1 } else { all.len() }].iter().map(ToString::to_string).collect()
                });
                return frame_benchmark(&maps, seconds.unwrap_or(if quick { 0.05 } else { 0.3 }), json);
            }
            if field {
                return field_benchmark(quick, seconds.unwrap_or(if quick { 0.05 } else { 0.3 }), json);
            }
            let sizes =
                sizes.unwrap_or_else(|| if quick { vec![64, 256] } else { vec![64, 256, 1024, 4096] });
            let seconds = seconds.unwrap_or(if quick { 0.05 } else { 0.3 });
            return benchmark(&sizes, &kernels, seconds, json);
        }
        Command::Animate { scenario, out, frames, every, layer, gif, png, fps, plain } => {
            let scenario = scenario::load(&scenario)?;
            let options = animate::Options { frames, every, layer, gif, png, fps, look: look(plain) };
            let animation = animate::animate(&scenario, &out, &options)?;
            say(&format!("{}\n", animate::describe(&animation, &out)));
            return Ok(());
        }
    };
    let mut run = Run::new(scenario)?;
    let bar = progress::bar(None, "running the propagation", "steps");
    run.finish(&mut |p| {
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
    })?;
    bar.finish_and_clear();
    let view = run.view();
    let summary = view.summary();
    let written = output::write(&view, &summary, &out, look)?;
    say(&format!("{summary}wrote {} to {}\n", animate::count(written.len(), "file"), out.display()));
    Ok(())
}

fn field_benchmark(quick: bool, seconds: f64, json: bool) -> Result<(), CliError> {
    if !(seconds.is_finite() && (0.0..=60.0).contains(&seconds)) {
        return Err(CliError::Usage(format!("--seconds must be within 0..=60, got {seconds}")));
    }
    let report = influence_bench::field::run(quick, std::time::Duration::from_secs_f64(seconds));
    if json {
        say(&format!("{}\n", serde_json::to_string_pretty(&report).expect("the report serialises")));
    } else {
        say(&influence_bench::field::table(&report));
    }
    Ok(())
}

fn frame_benchmark(maps: &[String], seconds: f64, json: bool) -> Result<(), CliError> {
    if !(seconds.is_finite() && (0.0..=60.0).contains(&seconds)) {
        return Err(CliError::Usage(format!("--seconds must be within 0..=60, got {seconds}")));
    }
    let maps = maps.iter().map(|m| frame_map(m)).collect::<Result<Vec<_>, _>>()?;
    let budget = std::time::Duration::from_secs_f64(seconds);
    let reports = influence_bench::frame::run(&maps, budget, |r| {
        if !json {
            say(&influence_bench::frame::table(r));
        }
    });
    if json {
        say(&format!("{}\n", serde_json::to_string_pretty(&reports).expect("reports serialise")));
    }
    Ok(())
}

/// A map of `bench --frame --maps`: one of the frame's own by name, or a MovingAI map file
/// (named in the report by its file name).
fn frame_map(name: &str) -> Result<influence_bench::frame::FrameMap, CliError> {
    use influence_bench::frame::{FrameMap, MAPS};
    if let Some(map) = FrameMap::named(name) {
        return Ok(map);
    }
    let path = std::path::Path::new(name);
    if !(name.ends_with(".map") || path.is_file()) {
        return Err(CliError::Usage(format!(
            "unknown map {name:?}: give one of {} or a MovingAI .map file",
            MAPS.join(", ")
        )));
    }
    let grid = influence_scenario::read_movingai(path)?;
    let shown = path.file_name().map_or_else(|| name.to_owned(), |f| f.to_string_lossy().into_owned());
    FrameMap::new(&shown, grid).map_err(|message| {
        influence_scenario::Located::new(name, influence_scenario::error::Problem::File, message).into()
    })
}

fn benchmark(sizes: &[usize], kernels: &[String], seconds: f64, json: bool) -> Result<(), CliError> {
    let known = influence_bench::kernels::kernel_names();
    if let Some(bad) = kernels.iter().find(|k| !known.contains(&k.as_str())) {
        return Err(CliError::Usage(format!("unknown kernel {bad:?}; known: {}", known.join(", "))));
    }
    if let Some(bad) = sizes.iter().find(|&&s| !(8..=8192).contains(&s)) {
        return Err(CliError::Usage(format!("size {bad} is outside 8..=8192")));
    }
    if !(seconds.is_finite() && (0.0..=60.0).contains(&seconds)) {
        return Err(CliError::Usage(format!("--seconds must be within 0..=60, got {seconds}")));
    }
    let budget = std::time::Duration::from_secs_f64(seconds);
    let records = influence_bench::kernels::run(sizes, kernels, budget, |r| {
        if !json {
            say(&format!("{}\n", influence_bench::kernels::line(r)));
        }
    });
    if json {
        say(&format!("{}\n", serde_json::to_string_pretty(&records).expect("records serialise")));
    }
    Ok(())
}
