//! The command line: `ludus run | check | new | sim | test | replay | bench | serve | export |
//! stubs | schema`.
//!
//! Every failure is one clear line (plus the diagnostics it concerns) and an exit code: 0 on
//! success, 1 when the game or a file is at fault, 2 on a usage error.

mod agent;
mod bench;
mod carried;
mod check;
mod common;
mod editor;
mod export;
mod files;
mod lint;
mod new;
mod replay;
mod run;
mod serve;
mod sim;
mod test;

use crate::app::RunOptions;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "ludus",
    version,
    about = "Ludus: a data-driven ECS game framework. Games are folders of TOML content and Lua scripts.",
    after_help = "With no command, `ludus` plays the bundled example game (like `ludus run`), or the game an exported executable carries."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in a window.
    Run(crate::cli::run::RunArgs),
    /// Validate a game's content and scripts; print diagnostics as file:line:col.
    Check {
        /// The game folder.
        game_dir: PathBuf,
        /// `text` (file:line:col, for people) or `json` (one object per diagnostic, for
        /// editors: docs/editors.md).
        #[arg(long, value_enum, default_value_t = check::Format::Text)]
        format: check::Format,
    },
    /// Create a new game folder from a small, commented template.
    New {
        /// Name of the folder to create.
        name: PathBuf,
    },
    /// Run a game headless and print a JSON summary.
    Sim(crate::cli::sim::SimArgs),
    /// Run each game's tests (tests/*.toml) headless and check their expectations.
    Test(crate::cli::test::TestArgs),
    /// Re-run a recording and compare per-tick state hashes.
    Replay(crate::cli::replay::ReplayArgs),
    /// Measure tick cost at a ladder of entity counts next to a raw hecs loop.
    Bench(crate::cli::bench::BenchArgs),
    /// Serve a web build or export on 127.0.0.1 to open in a browser, or a game folder live.
    Serve(crate::cli::serve::ServeArgs),
    /// Pack a game for players: `ludus export desktop GAME_DIR OUT` writes one executable.
    Export(crate::cli::export::ExportArgs),
    /// Write a game's editor files: Lua stubs with its names, TOML schemas (docs/editors.md).
    Stubs {
        /// The game folder.
        game_dir: PathBuf,
    },
    /// Print the JSON Schema of game.toml, of a level file or of an archetype file.
    Schema {
        /// Which file's schema.
        #[arg(default_value = "game", value_parser = crate::cli::editor::schema_names())]
        file: String,
    },
}

/// Parses the command line and runs; returns the exit code.
pub fn main() -> i32 {
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        // The reader of our output went away (`ludus bench | head`): stop quietly, as Unix
        // tools do, instead of reporting a bug.
        if msg.starts_with("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        let at = info
            .location()
            .map(|l| format!(" ({}:{})", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("ludus: internal error: {msg}{at}");
    }));
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        None => run::run(
            None,
            0,
            RunOptions {
                fps_cap: run::FPS_CAP,
                ..RunOptions::default()
            },
        ),
        Some(Command::Run(args)) => run::main(args),
        Some(Command::Check { game_dir, format }) => check::check(&game_dir, format),
        Some(Command::New { name }) => crate::cli::new::create(&name),
        Some(Command::Sim(args)) if args.agent.any() => crate::cli::agent::main(&args),
        Some(Command::Sim(args)) => crate::cli::sim::main(args),
        Some(Command::Test(args)) => crate::cli::test::main(args),
        Some(Command::Replay(args)) => crate::cli::replay::main(args),
        Some(Command::Bench(args)) => crate::cli::bench::main(args),
        Some(Command::Serve(args)) => crate::cli::serve::main(args),
        Some(Command::Export(args)) => crate::cli::export::main(args),
        Some(Command::Stubs { game_dir }) => crate::cli::editor::stubs(&game_dir),
        Some(Command::Schema { file }) => crate::cli::editor::schema(&file),
    }
}
