//! `ludus sim`: run a game headless, optionally driven by scripted frames or per-tick input,
//! recording and tracing; print one JSON summary.

use crate::cli::common::{clock, load};
use crate::platform::SavePlace;
use crate::runtime::frames::{Format, Line};
use crate::runtime::project::Project;
use crate::runtime::saved;
use ludus_core::*;
use std::io::Write;
use std::path::PathBuf;

// Doc comments here are the command's help text: `[stress]` names the TOML table, no link.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(clap::Args, Debug)]
pub struct SimArgs {
    /// The game folder; the bundled example when omitted.
    pub game_dir: Option<PathBuf>,
    /// Stop after this many ticks, 1 to 1000000000 (default 600 without --frames; all frames
    /// with --frames).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=crate::cli::common::MAX_TICKS))]
    pub ticks: Option<u64>,
    /// Override the game's world seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Add this many entities of the game's [stress] archetype (0 to 1000000).
    #[arg(long, default_value_t = 0, value_parser = crate::cli::common::entities())]
    pub entities: u32,
    /// Per-tick input, JSON Lines keyed by "tick" (see docs/headless.md). With --frames, it
    /// replaces the input the frames pump, so the same ticks see the same input at any frame
    /// rate.
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// Presentation callbacks with their time deltas, JSON Lines (drives the real frame clock).
    #[arg(long)]
    pub frames: Option<PathBuf>,
    /// Write a recording for `ludus replay`.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Store every entity's values per tick in the recording, so a replay can name the entity
    /// and value that first differ (large for big games).
    #[arg(long, requires = "record")]
    pub record_detail: bool,
    /// Write a JSON Lines trace: one line per frame (with --frames) and per completed tick.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Run background work on this many worker threads, 1 to 64 (default: serially,
    /// deterministic).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    pub threads: Option<u64>,
    /// Check the world's invariants after every tick.
    #[arg(long)]
    pub check_invariants: bool,
    /// Run every pass of the tick on one thread (by default, passes over large archetypes
    /// split between two threads where the machine has them; the run is the same either way,
    /// state hash included).
    #[arg(long)]
    pub serial: bool,
    /// The game's saved data: read from FILE at the start if it exists (one that is damaged,
    /// too large or unreadable is a warning and no saved data), and written to it when the run
    /// ends. Without it a run starts with no saved data and writes none.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Measure every native system, Lua handler and phase per tick; print the table (count,
    /// total, mean, p99, share) on standard error after the summary.
    #[arg(long)]
    pub profile: bool,
    /// Write what the profiler measures as a Chrome trace event file (Perfetto,
    /// chrome://tracing): one event per tick, phase, system and handler call.
    #[arg(long, value_name = "FILE")]
    pub trace_events: Option<PathBuf>,
    /// Follow entity ID (its id as scripts see it) and end the summary with its record:
    /// `"inspect"`, null when it is not in the world at the end (see docs/headless.md).
    #[arg(long, value_name = "ID")]
    pub inspect: Option<u64>,
    #[command(flatten)]
    pub agent: AgentArgs,
}

/// The options of a run an agent plays (docs/agents.md).
#[derive(clap::Args, Debug, Default)]
pub struct AgentArgs {
    /// Drive the run with a Lua bot: its `decide(info)` returns each tick's input (see
    /// docs/agents.md).
    #[arg(long, value_name = "BOT.lua", conflicts_with_all = ["input", "frames", "agent_stdio"])]
    pub agent: Option<PathBuf>,
    /// Call the bot's `decide` before every Nth tick only (default 1); what it held goes on
    /// between.
    #[arg(long, value_name = "N", requires = "agent",
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub agent_every: Option<u64>,
    /// Let a program drive the run over JSON Lines on standard input and output (see
    /// docs/agents.md); the summary goes to standard error.
    #[arg(long, conflicts_with_all = ["input", "frames", "ticks"])]
    pub agent_stdio: bool,
    /// The tags whose entities observations list (`--agent-stdio`), comma-separated.
    #[arg(
        long,
        value_name = "TAG,...",
        requires = "agent_stdio",
        value_delimiter = ','
    )]
    pub observe: Vec<String>,
    /// Write the agent's input as an `--input` file that gives the same run without it.
    #[arg(long, value_name = "FILE")]
    pub write_input: Option<PathBuf>,
}

impl AgentArgs {
    /// Whether an agent drives the run.
    pub fn any(&self) -> bool {
        self.agent.is_some() || self.agent_stdio
    }
}

use crate::runtime::headless::RunFigures;
pub use crate::runtime::headless::{HeadlessRun, PerTick, run_frames};

/// The most worker threads `--threads` may ask for.
pub const MAX_THREADS: usize = 64;

/// Builds a driver for a project (shared with tests and `ludus bench`); `threads` runs
/// background work on a worker pool instead of serially.
pub fn driver(
    project: &Project,
    entities: u32,
    threads: Option<u64>,
) -> Result<HeadlessRun, String> {
    let mut d = crate::runtime::headless::headless_run(project, entities)
        .map_err(|f| format!("the game could not start: {f}"))?;
    workers(&mut d.game, project.def.limits.jobs, threads)?;
    Ok(d)
}

/// Runs `game`'s background work (at most `cap` jobs) on `threads` worker threads, where
/// given.
pub fn workers(game: &mut Game, cap: u32, threads: Option<u64>) -> Result<(), String> {
    if let Some(n) = threads {
        let n = usize::try_from(n)
            .unwrap_or(MAX_THREADS)
            .clamp(1, MAX_THREADS);
        let pool = ThreadPool::try_new(n)
            .map_err(|e| format!("cannot start {n} worker threads (--threads): {e}"))?;
        game.set_completions(Completions::with_executor(cap, Box::new(pool)));
    }
    Ok(())
}

pub fn main(args: SimArgs) -> i32 {
    let mut project = match load(args.game_dir.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Some(seed) = args.seed {
        project = project.with_seed(seed);
    }
    if args.agent.write_input.is_some() && !args.agent.any() {
        eprintln!("ludus: --write-input writes an agent's input: give --agent or --agent-stdio");
        return 2;
    }
    let log: Box<dyn Write> = Box::new(std::io::stderr());
    match simulate(&args, &project, Some(log), args.record.is_some()) {
        Ok((mut d, figures)) => finish(&args, &mut d, &figures, false),
        Err(e) => {
            eprintln!("ludus: {}", printable_line(&e));
            1
        }
    }
}

/// One headless run as `args` ask for it, on `project` (its seed already set): the one path
/// `ludus sim` and `ludus test` share. `log` takes what scripts print; `record` keeps a
/// recording of the run. Writes nothing: the caller writes the trace, saved data and
/// recording out (see [`finish`]).
pub fn simulate(
    args: &SimArgs,
    project: &Project,
    log: Option<Box<dyn Write>>,
    record: bool,
) -> Result<(HeadlessRun, RunFigures), String> {
    let (input, frames) = read_files(args, project)?;
    let mut d = prepare(args, project, frames.as_deref(), record)?;
    d.log = log;
    let start = clock();
    let fault: Option<Fault>;
    let (mut discarded, mut frames_run) = (0u64, 0usize);
    match &frames {
        None => {
            let ticks = args.ticks.unwrap_or(600);
            fault = d.run_input(input.unwrap_or_default(), ticks);
        }
        Some(lines) => {
            d.per_tick = input.map(PerTick::new);
            let path = args.frames.as_ref().map(|p| p.display().to_string());
            let path = path.as_deref().unwrap_or("--frames");
            (fault, discarded, frames_run) =
                run_frames(&mut d, project, (path, lines), args.ticks)?;
        }
    }
    let figures = RunFigures {
        fault,
        discarded,
        frames: frames_run,
        elapsed_ns: clock().saturating_sub(start),
    };
    Ok((d, figures))
}

/// The `--input` and `--frames` files' lines, where they are given.
#[allow(clippy::type_complexity)]
fn read_files(
    args: &SimArgs,
    project: &Project,
) -> Result<(Option<Vec<Line>>, Option<Vec<Line>>), String> {
    let parse = |path: &PathBuf, format| -> Result<Vec<Line>, String> {
        crate::cli::files::read_lines(path, format, &project.def)
    };
    let input = args
        .input
        .as_ref()
        .map(|p| parse(p, Format::Input))
        .transpose()?;
    let frames = args
        .frames
        .as_ref()
        .map(|p| parse(p, Format::Frames))
        .transpose()?;
    Ok((input, frames))
}

/// The driver, with the checks, saved data, recording and trace the options ask for.
pub fn prepare(
    args: &SimArgs,
    project: &Project,
    frames: Option<&[Line]>,
    record: bool,
) -> Result<HeadlessRun, String> {
    let mut d = driver(project, args.entities, args.threads)?;
    d.game.options_mut().check_invariants = args.check_invariants;
    d.game.options_mut().serial = args.serial;
    d.watch = args
        .inspect
        .map(|id| crate::runtime::inspect::Watch::new(id, &d.game));
    if let Some(path) = &args.save {
        let place = SavePlace::file(path.clone());
        let (store, warning) = saved::load(&place, project.def.limits.save_bytes);
        if let Some(w) = warning {
            eprintln!("ludus: warning: {}", printable_line(&w));
        }
        // What `load` gives is within the bound `set_saved` checks.
        d.game.set_saved(store).map_err(|f| f.to_string())?;
    }
    // A rewind runs the recording so far again: keep one when the frames ask for it.
    let rewinds = frames.is_some_and(|f| f.iter().any(|l| l.rewind.is_some()));
    if record || rewinds {
        let dir = args.game_dir.as_ref().map(|d| d.display().to_string());
        let header = crate::runtime::headless::header(project, dir.as_deref(), args.entities);
        d.start_recording(header, args.record_detail);
    }
    if let Some(path) = &args.trace {
        let f = std::fs::File::create(path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        d.trace = Some(Box::new(std::io::BufWriter::new(f)));
    }
    d.hash_as_needed();
    if args.profile || args.trace_events.is_some() {
        use crate::runtime::profiling::{Profiling, TraceEvents};
        let events = match &args.trace_events {
            Some(path) => {
                let f = std::fs::File::create(path)
                    .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
                let out = Box::new(std::io::BufWriter::new(f));
                Some(TraceEvents::new(out, path.display().to_string())?)
            }
            None => None,
        };
        d.game.set_profiling(Some(clock));
        d.profiling = Some(Profiling::new(events));
    }
    Ok(d)
}

/// Writes the trace and the recording out and prints the run's summary (to standard error
/// when standard output is an agent's protocol): the exit code.
pub fn finish(args: &SimArgs, d: &mut HeadlessRun, figures: &RunFigures, to_stderr: bool) -> i32 {
    if let Some(t) = &mut d.trace
        && t.flush().is_err()
    {
        d.error = Some("cannot write the trace file".into());
    }
    if let Some(p) = &mut d.profiling
        && let Err(e) = p.finish()
    {
        d.error = Some(e);
    }
    if let Some(path) = &args.save
        && let Err(e) = saved::keep(&SavePlace::file(path.clone()), d.game.world().saved())
    {
        d.error = Some(e);
    }
    if let (Some(path), Some(rec)) = (&args.record, d.recording())
        && let Err(e) = std::fs::write(path, rec.to_bytes())
    {
        d.error = Some(format!("cannot write {}: {e}", path.display()));
    }
    if let Some(e) = &d.error {
        eprintln!("ludus: {}", printable_line(e));
        return 1;
    }
    if to_stderr {
        eprintln!("{}", d.summary(figures));
    } else {
        println!("{}", d.summary(figures));
    }
    if let (true, Some(p)) = (args.profile, &d.profiling) {
        eprint!("{}", p.table.render());
    }
    if figures.fault.is_some() { 1 } else { 0 }
}
