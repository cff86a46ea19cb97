//! Agents: `ludus sim --agent bot.lua` (a Lua bot decides each tick's input) and `ludus sim
//! --agent-stdio` (a program drives the run over JSON Lines, with snapshots). Either way the
//! agent's input is the run's input: `--record` records it and `--write-input` writes it as an
//! input file that gives the same run without the agent. See docs/agents.md.

mod drive;
mod snapshot;
mod stdio;

use crate::cli::sim::{SimArgs, prepare, workers};
use crate::runtime::frames::Line;
use crate::runtime::headless::RunFigures;
use crate::runtime::project::Project;
use drive::Driven;
use ludus_core::*;
use ludus_script::{Bot, Decision, Script};
use std::io::Write;

/// The largest bot script, in bytes.
const MAX_BOT_BYTES: u64 = 4 << 20;

/// Runs `ludus sim` with an agent; returns the exit code.
pub fn main(args: &SimArgs) -> i32 {
    let mut project = match crate::cli::common::load(args.game_dir.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Some(seed) = args.seed {
        project = project.with_seed(seed);
    }
    match run(args, &project) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("ludus: {}", printable_line(&e));
            1
        }
    }
}

fn run(args: &SimArgs, project: &Project) -> Result<i32, String> {
    let a = &args.agent;
    let observe = tag_bits(&a.observe, &project.def)?;
    let mut bot = match &a.agent {
        Some(path) => Some(load_bot(path, project)?),
        None => None,
    };
    // Snapshots restore from the recording: the stdio session always keeps one.
    let mut run = prepare(args, project, None, args.record.is_some() || a.agent_stdio)?;
    run.log = Some(Box::new(std::io::stderr()));
    let dir = args.game_dir.as_ref().map(|d| d.display().to_string());
    let mut d = Driven::new(run, a.write_input.is_some());
    let start = crate::cli::common::clock();
    if let Some(bot) = &mut bot {
        let steps = args.ticks.unwrap_or(600);
        drive_bot(&mut d, bot, steps, a.agent_every.unwrap_or(1));
    } else {
        let threads = args.threads;
        let cap = project.def.limits.jobs;
        let restored = move |d: &mut Driven| workers(&mut d.run.game, cap, threads);
        let mut session = stdio::Session {
            project,
            dir,
            observe,
            snapshots: snapshot::Snapshots::default(),
            restored: &restored,
        };
        let stdin = std::io::BufReader::with_capacity(1 << 16, std::io::stdin().lock());
        let stdout = std::io::BufWriter::new(std::io::stdout().lock());
        if let Err(e) = stdio::serve(&mut session, &mut d, stdin, stdout) {
            // The client went away: the run ends as a quit would.
            eprintln!("ludus: the agent's connection ended: {e}");
        }
    }
    let figures = RunFigures {
        fault: d.fault.clone(),
        discarded: 0,
        frames: 0,
        elapsed_ns: crate::cli::common::clock().saturating_sub(start),
    };
    finish(args, &mut d, &figures, a.agent_stdio)
}

/// Writes the input file, then what `ludus sim` writes, and prints the summary (to standard
/// error when standard output is the protocol's).
fn finish(
    args: &SimArgs,
    d: &mut Driven,
    figures: &RunFigures,
    stdio: bool,
) -> Result<i32, String> {
    if let (Some(path), Some(log)) = (&args.agent.write_input, &d.input) {
        std::fs::write(path, &log.text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(crate::cli::sim::finish(args, &mut d.run, figures, stdio))
}

/// The bits of the tags named by `--observe`.
fn tag_bits(names: &[String], def: &GameDef) -> Result<u64, String> {
    let mut bits = 0;
    for name in names.iter().filter(|n| !n.is_empty()) {
        bits |= def.tag_bit(name).ok_or_else(|| {
            let hint = closest(name, def.tags.iter().map(String::as_str))
                .map(|t| format!(" (did you mean `{t}`?)"))
                .unwrap_or_default();
            format!("--observe: the game has no tag `{name}`{hint}")
        })?;
    }
    Ok(bits)
}

fn load_bot(path: &std::path::Path, project: &Project) -> Result<Bot, String> {
    let bytes = ludus_content::read_regular(path, MAX_BOT_BYTES)
        .map_err(|e| format!("cannot read the bot {}: {e}", path.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("the bot {} is not UTF-8 text", path.display()))?;
    let script = Script {
        path: path.display().to_string(),
        text,
    };
    Bot::new(project.def.clone(), script).map_err(|f| format!("the bot could not start: {f}"))
}

/// Runs up to `steps` steps, asking the bot before every `every`th.
fn drive_bot(d: &mut Driven, bot: &mut Bot, steps: u64, every: u64) {
    for step in 0..steps {
        let decided = if step % every == 0 {
            let tick = d.run.game.world().tick() + 1;
            let decided = d.run.game.observe(|g| bot.decide(g));
            if let Some(w) = &mut d.run.log {
                for line in bot.take_log() {
                    let _ = writeln!(w, "{}", printable_line(&line));
                }
            }
            match decided {
                Ok(decision) => decision.map(to_line),
                Err(f) => {
                    d.fault = Some(Fault { tick, ..f });
                    return;
                }
            }
        } else {
            None
        };
        if !d.step(decided.as_ref()) {
            return;
        }
    }
}

/// A decision as an input line.
fn to_line(d: Decision) -> Line {
    Line {
        press: d.press,
        release: d.release,
        tap: d.tap,
        axis: d.axis,
        pointer: d.pointer,
        touches: d.touches,
        ..Line::default()
    }
}
