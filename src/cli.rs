//! The command line: `ludus run | check | new | sim | replay | bench | web`.
//!
//! Every failure is one clear line (plus the diagnostics it concerns) and an exit code: 0 on
//! success, 1 when the game or a file is at fault, 2 on a usage error.

use crate::app::{App, RunOptions};
use crate::project::Project;
use crate::runner::Runner;
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};

#[derive(Parser)]
#[command(
    name = "ludus",
    version,
    about = "Ludus: a data-driven ECS game framework. Games are folders of TOML content and Lua scripts.",
    after_help = "With no command, `ludus` plays the bundled example game (like `ludus run`)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in a window.
    Run {
        /// The game folder; the bundled example (swarm) when omitted.
        game_dir: Option<PathBuf>,
        /// Add this many entities of the game's [stress] archetype to the level (0 to 1000000).
        #[arg(long, default_value_t = 0, value_parser = entities())]
        entities: u32,
        /// Scripted input: a JSON Lines file, one line per frame (see docs/headless.md).
        #[arg(long)]
        script: Option<PathBuf>,
        /// Quit after this many frames (1 or more).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        frames_max: Option<u64>,
        /// Write the last frame's pixels to this PNG file when quitting (with --frames-max).
        #[arg(long)]
        screenshot: Option<PathBuf>,
        /// Cap presented frames per second, 0 to 1000 (0: only vsync paces).
        #[arg(long, default_value_t = 240, value_parser = clap::value_parser!(u32).range(0..=1000))]
        fps_cap: u32,
        /// Do not reload content and scripts when their files change.
        #[arg(long)]
        no_watch: bool,
        /// Start with the debug overlay shown (F3 toggles it).
        #[arg(long)]
        overlay: bool,
    },
    /// Validate a game's content and scripts; print diagnostics as file:line:col.
    Check {
        /// The game folder.
        game_dir: PathBuf,
    },
    /// Create a new game folder from a small, commented template.
    New {
        /// Name of the folder to create.
        name: PathBuf,
    },
    /// Run a game headless and print a JSON summary.
    Sim(crate::sim::SimArgs),
    /// Re-run a recording and compare per-tick state hashes.
    Replay(crate::replay::ReplayArgs),
    /// Measure tick cost at a ladder of entity counts next to a raw hecs loop.
    Bench(crate::bench::BenchArgs),
    /// Serve a web build (web/build.sh) on 127.0.0.1 to open in a browser.
    Serve(crate::serve::ServeArgs),
}

/// The most ticks one headless run may ask for (`--ticks`).
pub const MAX_TICKS: u64 = 1_000_000_000;

/// The most stress entities `--entities` may add (the game's `limits.entities` may be lower).
pub const MAX_ENTITIES: u32 = 1_000_000;

/// The parser of `--entities`: 0 to [`MAX_ENTITIES`].
pub fn entities() -> impl clap::builder::TypedValueParser<Value = u32> {
    clap::value_parser!(u32).range(0..=i64::from(MAX_ENTITIES))
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
        None => run(
            None,
            0,
            RunOptions {
                fps_cap: 240,
                ..RunOptions::default()
            },
        ),
        Some(Command::Run {
            game_dir,
            entities,
            script,
            frames_max,
            screenshot,
            fps_cap,
            no_watch,
            overlay,
        }) => {
            let mut options = RunOptions {
                overlay,
                max_frames: frames_max,
                screenshot,
                fps_cap,
                watch: if no_watch { None } else { game_dir.clone() },
                ..RunOptions::default()
            };
            if let Some(path) = script {
                let project = match load(game_dir.as_deref()) {
                    Ok(p) => p,
                    Err(code) => return code,
                };
                match crate::files::read_lines(&path, crate::frames::Format::Script, &project.def) {
                    Ok(lines) => options.script = lines,
                    Err(e) => {
                        eprintln!("ludus: {e}");
                        return 1;
                    }
                }
            }
            run(game_dir, entities, options)
        }
        Some(Command::Check { game_dir }) => check(&game_dir),
        Some(Command::New { name }) => crate::template::create(&name),
        Some(Command::Sim(args)) => crate::sim::main(args),
        Some(Command::Replay(args)) => crate::replay::main(args),
        Some(Command::Bench(args)) => crate::bench::main(args),
        Some(Command::Serve(args)) => crate::serve::main(args),
    }
}

/// Loads a game folder (or the bundled example), printing diagnostics on failure.
pub fn load(dir: Option<&Path>) -> Result<Project, i32> {
    let loaded = match dir {
        Some(d) => {
            if !d.is_dir() {
                eprintln!(
                    "ludus: {} is not a folder (a game is a folder with a game.toml)",
                    d.display()
                );
                return Err(1);
            }
            Project::load(d)
        }
        None => crate::bundled::project(),
    };
    loaded.map_err(|diagnostics| {
        eprint!("{diagnostics}");
        if !diagnostics.ends_with('\n') {
            eprintln!();
        }
        1
    })
}

/// Monotonic nanoseconds for measurements.
pub fn clock() -> u64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

fn display_available() -> Result<(), String> {
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty())
        && std::env::var_os("WAYLAND_DISPLAY").is_none_or(|d| d.is_empty())
    {
        return Err(
            "no display found (neither DISPLAY nor WAYLAND_DISPLAY is set); \
                    to run a game headless use `ludus sim GAME_DIR`"
                .into(),
        );
    }
    Ok(())
}

fn run(dir: Option<PathBuf>, entities: u32, options: RunOptions) -> i32 {
    let project = match load(dir.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Err(msg) = display_available() {
        eprintln!("ludus: {msg}");
        return 1;
    }
    let mut runner = match Runner::new(project, entities, clock) {
        Ok(r) => r,
        Err(fault) => {
            eprintln!("ludus: the game could not start: {fault}");
            return 1;
        }
    };
    runner.set_stress(entities);
    // Background work (flow fields) runs on worker threads in the window; headless runs keep
    // the serial executor, whose timing is reproducible.
    let jobs = runner.def().limits.jobs;
    runner
        .driven
        .game
        .set_completions(ludus_core::Completions::with_executor(
            jobs,
            Box::new(ludus_core::ThreadPool::new(2)),
        ));
    runner.session = runner.session.clone().with_pacer(ludus_core::PacerPolicy {
        frame_cap_hz: (options.fps_cap > 0).then_some(options.fps_cap),
        ..ludus_core::PacerPolicy::default()
    });
    let def = runner.def().clone();
    let images = runner.project.images();
    let conf = miniquad::conf::Conf {
        window_title: def.window.title.clone(),
        window_width: def.window.width as i32,
        window_height: def.window.height as i32,
        high_dpi: true,
        window_resizable: true,
        ..Default::default()
    };
    let started = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        miniquad::start(conf, move || Box::new(App::new(runner, &images, options)));
    }));
    match started {
        Ok(()) => 0,
        Err(_) => {
            eprintln!(
                "ludus: the window could not be opened (see the error above); use `ludus sim` to run headless"
            );
            1
        }
    }
}

/// `ludus check`: content diagnostics, then every script compiled and loaded under the sandbox.
fn check(dir: &Path) -> i32 {
    let project = match load(Some(dir)) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let shown = |loc: &str| -> String {
        let (file, line) = loc.rsplit_once(':').unwrap_or((loc, "1"));
        format!("{}:{line}:1", dir.join(file).display())
    };
    let mut errors = 0;
    for script in &project.scripts {
        if let Err(f) = ludus_script::compile_check(&script.path, &script.text) {
            let loc = f
                .location
                .clone()
                .unwrap_or_else(|| format!("{}:1", script.path));
            eprintln!(
                "{}: error: {}",
                shown(&loc),
                f.message.lines().next().unwrap_or("")
            );
            errors += 1;
        }
    }
    if errors == 0
        && let Err(f) = project.host()
    {
        let loc = f.location.clone().unwrap_or_else(|| "game.toml:1".into());
        eprintln!(
            "{}: error: while loading scripts: {}",
            shown(&loc),
            f.message.lines().next().unwrap_or("")
        );
        errors += 1;
    }
    if errors > 0 {
        eprintln!("{errors} error{} found", if errors == 1 { "" } else { "s" });
        return 1;
    }
    let def = &project.def;
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    println!(
        "{}: ok ({}, {}, {}, content hash {:016x})",
        dir.display(),
        count(def.archetypes.len(), "archetype"),
        count(def.levels.len(), "level"),
        count(project.scripts.len(), "script"),
        def.content_hash
    );
    0
}
