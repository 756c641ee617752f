//! `influence`: renders influence-map scenarios (TOML) to PNG pictures, NumPy `.npy` arrays
//! and a JSON summary. `influence demo` renders the built-in two-army scenario;
//! `influence render SCENARIO.toml --out DIR` renders yours (see `docs/scenario.md`).
//!
//! Exit codes: 0 on success, 2 for bad input (the message names file, line and key),
//! 1 when the output cannot be written.

mod demo;
mod doc;
mod error;
mod falloff;
mod map;
mod npy;
mod output;
mod run;
mod scenario;
mod summary;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::CliError;

/// Influence maps for game AI: scenarios in, heatmaps, arrays and a summary out.
#[derive(Debug, Parser)]
#[command(name = "influence", version, about)]
struct Cli {
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
    },
    /// Render the built-in demo: two armies on a Dragon Age map.
    Demo {
        /// The folder to write into (created if missing).
        #[arg(long, short, default_value = "out/demo")]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    match execute(Cli::parse().command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn execute(command: Command) -> Result<(), CliError> {
    let (scenario, out) = match command {
        Command::Render { scenario, out } => (scenario::load(&scenario)?, out),
        Command::Demo { out } => (demo::scenario()?, out),
    };
    let run = run::Run::new(scenario);
    let summary = summary::Summary::new(&run);
    let written = output::write(&run, &summary, &out)?;
    print!("{summary}");
    println!("wrote {} files to {}", written.len(), out.display());
    Ok(())
}
