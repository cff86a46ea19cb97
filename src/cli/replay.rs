//! `ludus replay`: feed a recording's inputs and background completions into the same tick
//! function and compare the state hash after every tick; report the first divergence. On
//! content that differs from the recorded one (`--game DIR` after a rule change), the input is
//! rerun instead (`runtime/rerun.rs`): the summary, and the first tick whose state differs.
//! With `--window`, the recording plays in the window instead, tick by tick.

use crate::app::RunOptions;
use crate::cli::common::load;
use crate::cli::run::Played;
use crate::runtime::playback::Playback;
use std::path::PathBuf;

use crate::runtime::headless::RunFigures;
use crate::runtime::project::Project;
use crate::runtime::rerun::Rerun;
use ludus_core::{Recording, printable_line};

use crate::runtime::verify::replay_timed;
pub use crate::runtime::verify::{Outcome, mismatch, unfit};
use crate::runtime::work::Work;

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// The recording written by `ludus sim --record`.
    pub recording: PathBuf,
    /// The game folder (default: the folder named in the recording, or the bundled example).
    #[arg(long)]
    pub game: Option<PathBuf>,
    /// Debugging aid: change the score just before this tick, to see a divergence reported.
    #[arg(long, hide = true)]
    pub perturb_tick: Option<u64>,
    /// Play the recording in the window, tick by tick at the game's tick rate, instead of
    /// checking it (pause, step, rewind and the overlay work; the game's keys are off).
    #[arg(long)]
    pub window: bool,
    /// With --window: quit once the TICK-th tick has run, writing the world exactly at that
    /// tick to --screenshot (ticks count from 1 across the recording's levels).
    #[arg(long, value_name = "TICK", requires_all = ["window", "screenshot"],
          value_parser = clap::value_parser!(u64).range(1..))]
    pub screenshot_at: Option<u64>,
    /// With --window: the PNG file --screenshot-at writes.
    #[arg(long, requires = "window")]
    pub screenshot: Option<PathBuf>,
    /// With --window: write a JSON Lines trace, one line per completed tick (as `ludus sim
    /// --trace`).
    #[arg(long, requires = "window")]
    pub trace: Option<PathBuf>,
    /// With --window: cap presented frames per second, 0 to 1000 (0: only vsync paces).
    #[arg(long, requires = "window", default_value_t = crate::cli::run::FPS_CAP,
          value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub fps_cap: u32,
}

/// Prints one line of output: what a recording or a game's scripts wrote (names, fault
/// messages) reaches the terminal with its control characters escaped.
fn say(line: &str) {
    println!("{}", printable_line(line));
}

/// [`say`], on standard error.
fn complain(line: &str) {
    eprintln!("{}", printable_line(line));
}

pub fn main(args: ReplayArgs) -> i32 {
    let rec = match crate::cli::files::read_recording(&args.recording) {
        Ok(r) => r,
        Err(e) => {
            complain(&format!("ludus: {e}"));
            return 1;
        }
    };
    let dir = args
        .game
        .clone()
        .or_else(|| rec.header.game_dir.as_ref().map(PathBuf::from));
    // The folder the recording names is as it was given where the recording was made.
    if args.game.is_none()
        && let Some(d) = dir.as_deref().filter(|d| !d.is_dir())
    {
        complain(&format!(
            "ludus: the recording names its game folder {}, which is not a folder here (a relative \
             folder is taken from where the recording was made): give the game with --game DIR",
            d.display()
        ));
        return 1;
    }
    let project = match load(dir.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if args.window {
        return window(rec, project, &args);
    }
    if rec.header.content_hash != project.def.content_hash {
        return rerun(rec, &project, dir.as_deref());
    }
    if let Some(why) = mismatch(&rec, &project) {
        complain(&format!(
            "ludus: refusing to replay {}: {why}",
            args.recording.display()
        ));
        return 1;
    }
    let begun = crate::platform::clock_ns();
    let outcome = replay_timed(&rec, &project, args.perturb_tick, &mut Work::default());
    let elapsed = crate::platform::clock_ns().saturating_sub(begun);
    match outcome {
        Ok((Outcome::Identical { ticks }, started)) => {
            say(&format!(
                "replayed {ticks} ticks of {}: every state hash matches",
                rec.header.game
            ));
            print_speed(ticks as u64, started, elapsed);
            0
        }
        Ok((
            Outcome::Faulted {
                ticks,
                tick,
                message,
            },
            started,
        )) => {
            say(&format!(
                "replayed {ticks} ticks of {}: every state hash matches, and tick {tick} faults as recorded: {message}",
                rec.header.game
            ));
            print_speed(ticks as u64, started, elapsed);
            0
        }
        Ok((
            Outcome::Diverged {
                segment,
                tick,
                report,
            },
            _,
        )) => {
            say(&format!(
                "diverged at tick {tick} (segment {segment}): {report}"
            ));
            1
        }
        Err(e) => {
            complain(&format!("ludus: {e}"));
            1
        }
    }
}

/// Prints how long the game's start took (`started_ns` of `elapsed_ns`: its first level
/// built, its scripts started), then how fast the rest re-simulated (see [`speed`]).
fn print_speed(ticks: u64, started_ns: u64, elapsed_ns: u64) {
    println!(
        "the game started in {:.2} ms (its first level built, its scripts started)",
        started_ns as f64 / 1e6
    );
    println!("{}", speed(ticks, elapsed_ns.saturating_sub(started_ns)));
}

/// How fast a replay re-simulated: `ticks` in `elapsed_ns` (whatever level builds they
/// asked for included).
fn speed(ticks: u64, elapsed_ns: u64) -> String {
    let seconds = elapsed_ns as f64 / 1e9;
    format!(
        "re-simulated {ticks} ticks in {seconds:.5} s: {:.0} ticks per second",
        ticks as f64 / seconds.max(1e-9)
    )
}

/// Reruns `rec`'s input on `project`'s different content: prints the run's summary (as `ludus
/// sim` does) and where its state first differs from the recording's.
fn rerun(rec: Recording, project: &Project, dir: Option<&std::path::Path>) -> i32 {
    let cannot =
        "the recording was made with different content, and its input cannot run on this game";
    if let Some(why) = unfit(&rec, project) {
        complain(&format!("ludus: {cannot}: {why}"));
        return 1;
    }
    let game = rec.header.game.clone();
    let dir = dir.map(|d| d.display().to_string());
    let start = crate::platform::clock_ns();
    let mut run = match Rerun::new(rec, project, dir.as_deref()) {
        Ok(r) => r,
        Err(e) => {
            complain(&format!("ludus: {cannot}: {e}"));
            return 1;
        }
    };
    let started = crate::platform::clock_ns().saturating_sub(start);
    if let Err(e) = run.advance(u64::MAX) {
        complain(&format!("ludus: {cannot}: {e}"));
        return 1;
    }
    let (ticks, total) = run.progress();
    let elapsed_ns = crate::platform::clock_ns().saturating_sub(start);
    let figures = RunFigures {
        fault: run.fault.clone(),
        elapsed_ns,
        ..RunFigures::default()
    };
    println!("{}", run.run.summary(&figures));
    say(&format!(
        "the content differs from the recording's ({game}): its input was rerun on this game"
    ));
    match run.first_difference {
        Some((segment, tick)) => {
            println!(
                "the state first differs from the recording at tick {tick} (segment {segment})"
            )
        }
        None => {
            println!("the state equals the recording's at every tick rerun ({ticks} of {total})")
        }
    }
    if run.over {
        println!("the game ended after {ticks} of the recording's {total} ticks");
    }
    print_speed(ticks, started, elapsed_ns);
    if run.fault.is_some() { 1 } else { 0 }
}

/// Plays `rec` in the window (`--window`): on the content recorded, with its background
/// results; on other content, its input on the new rules, as a rerun plays it.
fn window(rec: Recording, project: Project, args: &ReplayArgs) -> i32 {
    let exact = rec.header.content_hash == project.def.content_hash;
    let refused = if exact {
        mismatch(&rec, &project)
    } else {
        unfit(&rec, &project)
    };
    if let Some(why) = refused {
        complain(&format!(
            "ludus: refusing to play {}: {why}",
            args.recording.display()
        ));
        return 1;
    }
    if !exact {
        say(&format!(
            "the content differs from the recording's ({}): its input plays on this game",
            rec.header.game
        ));
    }
    let project = project.with_seed(rec.header.seed);
    let (entities, saved) = (rec.header.entities, rec.saved.clone());
    let mut playback = match Playback::recording(rec, &project.def, exact) {
        Ok(p) => p,
        Err(e) => {
            complain(&format!(
                "ludus: refusing to play {}: {e}",
                args.recording.display()
            ));
            return 1;
        }
    };
    if let Some(tick) = args.screenshot_at {
        playback = playback.stop_at(tick);
    }
    let trace = match args
        .trace
        .as_deref()
        .map(crate::cli::run::trace)
        .transpose()
    {
        Ok(t) => t,
        Err(e) => {
            complain(&format!("ludus: {e}"));
            return 1;
        }
    };
    let options = RunOptions {
        screenshot: args.screenshot.clone(),
        fps_cap: args.fps_cap,
        ..RunOptions::default()
    };
    let played = Played { playback, saved };
    crate::cli::run::window(project, entities, options, Some(played), trace)
}
