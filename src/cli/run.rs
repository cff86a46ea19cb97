//! `ludus run`: play a game in a window, with the keyboard, or with an input file played by
//! tick (`--input`); `ludus replay --window` opens a recording the same way ([`window`]).

use crate::app::{App, RunOptions};
use crate::cli::common::{clock, load};
use crate::runtime::Runner;
use crate::runtime::frames::Format;
use crate::runtime::playback::Playback;
use crate::runtime::project::Project;
use crate::runtime::trace::TickTrace;
use ludus_core::SaveStore;
use std::path::{Path, PathBuf};

/// Presented frames per second when `--fps-cap` is not given.
pub const FPS_CAP: u32 = 240;

// Doc comments here are the command's help text: `[stress]` names the TOML table, no link.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The game folder; the bundled example (swarm) when omitted.
    pub game_dir: Option<PathBuf>,
    /// Add this many entities of the game's [stress] archetype to the level (0 to 1000000).
    #[arg(long, default_value_t = 0, value_parser = crate::cli::common::entities())]
    pub entities: u32,
    /// Per-tick input, JSON Lines keyed by "tick" as `ludus sim --input` reads it, played tick
    /// by tick at the game's tick rate; the game's keys are off meanwhile (see docs/headless.md).
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// Scripted window frames: JSON Lines, one line per frame, with UI signals (pause, step,
    /// rewind) and input; not tick-exact (see docs/headless.md).
    #[arg(long)]
    pub script: Option<PathBuf>,
    /// Quit after this many frames (1 or more).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub frames_max: Option<u64>,
    /// Write the window's pixels to this PNG file when quitting (with --frames-max or
    /// --screenshot-at).
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// With --input: quit once the TICK-th tick has run, writing the world exactly at that
    /// tick to --screenshot (ticks count from 1 across levels, as `ludus sim` counts them).
    #[arg(long, value_name = "TICK", requires_all = ["input", "screenshot"],
          value_parser = clap::value_parser!(u64).range(1..))]
    pub screenshot_at: Option<u64>,
    /// Write a JSON Lines trace: one line per completed tick, as `ludus sim --trace` does.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Cap presented frames per second, 0 to 1000 (0: only vsync paces).
    #[arg(long, default_value_t = FPS_CAP, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub fps_cap: u32,
    /// Do not reload content and scripts when their files change (with --input they are not
    /// watched).
    #[arg(long)]
    pub no_watch: bool,
    /// How a reload meets the running game: `resimulate` (the level's kept input runs
    /// again on the new content, up to now) or `keep` (a new Lua VM for the running
    /// world; a TOML change restarts the level).
    #[arg(long, value_enum, default_value_t = crate::runtime::Reload::Resimulate)]
    pub reload: crate::runtime::Reload,
    /// Start with the debug overlay shown (F3 toggles it).
    #[arg(long)]
    pub overlay: bool,
    /// Start with the overlay's profiler page shown (F3 pages through the overlay).
    #[arg(long)]
    pub profiler: bool,
}

/// Input a window plays by tick: the playback and the saved data the game starts from.
pub struct Played {
    pub playback: Playback,
    pub saved: SaveStore,
}

/// `ludus run ARGS`.
pub fn main(args: RunArgs) -> i32 {
    let mut options = RunOptions {
        overlay: args.overlay,
        profiler: args.profiler,
        reload: args.reload,
        max_frames: args.frames_max,
        screenshot: args.screenshot.clone(),
        fps_cap: args.fps_cap,
        watch: (!args.no_watch && args.input.is_none())
            .then(|| args.game_dir.clone())
            .flatten(),
        ..RunOptions::default()
    };
    let project = match load(args.game_dir.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    match files(&args, &project, &mut options) {
        Ok((played, trace)) => window(project, args.entities, options, played, trace),
        Err(e) => {
            eprintln!("ludus: {}", ludus_core::printable_line(&e));
            1
        }
    }
}

/// The files `args` name, read: the `--script` lines into `options`, the `--input` file's
/// playback, and the `--trace` file created.
fn files(
    args: &RunArgs,
    project: &Project,
    options: &mut RunOptions,
) -> Result<(Option<Played>, Option<TickTrace>), String> {
    let read = |path: &Path, format| crate::cli::files::read_lines(path, format, &project.def);
    if let Some(path) = &args.script {
        options.script = read(path, Format::Script)?;
    }
    let played = match &args.input {
        Some(path) => {
            let mut playback = Playback::input(read(path, Format::Input)?, &project.def.tick);
            if let Some(tick) = args.screenshot_at {
                playback = playback.stop_at(tick);
            }
            Some(Played {
                playback,
                saved: SaveStore::default(),
            })
        }
        None => None,
    };
    let trace = args.trace.as_deref().map(trace).transpose()?;
    Ok((played, trace))
}

/// A trace written to the file `path`.
pub fn trace(path: &Path) -> Result<TickTrace, String> {
    let file = std::fs::File::create(path)
        .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    let out = Box::new(std::io::BufWriter::new(file));
    Ok(TickTrace::new(out, path.display().to_string()))
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

/// Plays the game folder `dir` (the bundled example, or the game this executable carries,
/// without one) in a window.
pub fn run(dir: Option<PathBuf>, entities: u32, options: RunOptions) -> i32 {
    match load(dir.as_deref()) {
        Ok(project) => window(project, entities, options, None, None),
        Err(code) => code,
    }
}

/// Plays `project` in a window: with the keyboard, or `played` by tick (whose saved data it
/// starts from; otherwise the player's, kept between runs), writing `trace`. Returns the exit
/// code.
pub fn window(
    project: Project,
    entities: u32,
    options: RunOptions,
    played: Option<Played>,
    trace: Option<TickTrace>,
) -> i32 {
    if let Err(msg) = display_available() {
        eprintln!("ludus: {msg}");
        return 1;
    }
    let dir = project.dir.clone().map(PathBuf::from);
    let _editor =
        crate::cli::editor::keep_fresh(dir.as_deref(), &project.def, options.watch.is_some());
    let mut runner = match Runner::new(project, entities, clock) {
        Ok(r) => r,
        Err(fault) => {
            eprintln!("ludus: the game could not start: {fault}");
            return 1;
        }
    };
    runner.set_stress(entities);
    match played {
        Some(Played { playback, saved }) => {
            if let Err(e) = runner.play_back(playback, saved) {
                eprintln!("ludus: {}", ludus_core::printable_line(&e));
                return 1;
            }
        }
        None => match crate::platform::SavePlace::of_game(&runner.def().name) {
            Ok(place) => runner.keep_saved(place),
            Err(e) => eprintln!("ludus: the saved data is not kept: {e}"),
        },
    }
    if let Some(t) = trace {
        runner.trace_to(t);
    }
    let def = runner.def().clone();
    let conf = miniquad::conf::Conf {
        // A control character (a line break, a NUL written as `\u0000`) has no place in a
        // title bar, and the window system refuses a NUL.
        window_title: def
            .window
            .title
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect(),
        window_width: def.window.width as i32,
        window_height: def.window.height as i32,
        high_dpi: true,
        window_resizable: true,
        ..Default::default()
    };
    let status = options.status.clone();
    let started = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        miniquad::start(conf, move || Box::new(App::new(runner, options)));
    }));
    match started {
        Ok(()) => status.get(),
        Err(_) if crate::app::opened() => {
            eprintln!("ludus: the app stopped on an internal error (see above): a bug in ludus");
            1
        }
        Err(_) => {
            eprintln!(
                "ludus: the window could not be opened (see the error above); use `ludus sim` to run headless"
            );
            1
        }
    }
}
