//! Runs the sandbox until interrupted, as `influence serve` will:
//!
//! ```sh
//! cargo run --release -p influence-sandbox --example serve -- [SCENARIO.toml] [--port N] [--host IP]
//! ```

use influence_sandbox::{serve, ServeConfig};

fn main() {
    let mut config = ServeConfig { port: 8080, ..ServeConfig::default() };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let ok = match arg.as_str() {
            "--port" => args.next().and_then(|v| v.parse().ok()).map(|p| config.port = p).is_some(),
            "--host" => args.next().and_then(|v| v.parse().ok()).map(|h| config.host = h).is_some(),
            _ if !arg.starts_with('-') => {
                config.scenario = Some(arg.into());
                true
            }
            _ => false,
        };
        if !ok {
            eprintln!("usage: serve [SCENARIO.toml] [--port N] [--host IP]");
            std::process::exit(2);
        }
    }
    if let Err(e) = serve(config) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
