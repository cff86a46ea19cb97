//! `ludus sim --agent-stdio`: a client drives the run over JSON Lines on stdin and stdout.
//!
//! Ludus writes one observation at the start, then answers every line it reads with exactly
//! one line: an input line runs its ticks and answers the observation after them; a
//! `snapshot` or `restore` answers `{"ok": ..., "name", "tick", "hash"}`; `quit` ends the run
//! (the usual summary goes to standard error). Anything else (not JSON, an unknown key, a line
//! too long, a restore of an unknown name, a snapshot past the bounds) is answered
//! `{"error": "..."}` and the session goes on. End of input is a quit. See docs/agents.md.

use crate::cli::agent::drive::Driven;
use crate::cli::agent::snapshot::{MAX_NAME_BYTES, Snapshots};
use crate::runtime::frames::{Format, MAX_LINE_BYTES};
use crate::runtime::headless::{json_string, vars_json};
use crate::runtime::project::Project;
use ludus_core::*;
use serde_json::Value;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};

/// The keys of an input line.
const LINE_KEYS: &[&str] = &[
    "press", "release", "tap", "cancel", "axis", "pointer", "touches", "ticks",
];

/// The most ticks one input line may run.
pub const MAX_LINE_TICKS: u64 = 1_000_000;

/// What the session needs besides the run: the game, its folder (for recordings' headers),
/// the observed tags' bits, and how to set up a restored run (worker threads).
pub struct Session<'a> {
    pub project: &'a Project,
    pub dir: Option<String>,
    pub observe: u64,
    pub snapshots: Snapshots,
    pub restored: &'a dyn Fn(&mut Driven) -> Result<(), String>,
}

/// Runs the session over `input` and `output` until `quit` or end of input. Answers are
/// flushed whenever no further line is waiting in `input`'s buffer: a client that waits for
/// its answer gets it at once, one that sends many lines gets them in large writes.
pub fn serve<R: Read>(
    s: &mut Session<'_>,
    d: &mut Driven,
    mut input: BufReader<R>,
    mut output: impl Write,
) -> std::io::Result<()> {
    writeln!(output, "{}", observation(d, s.observe))?;
    output.flush()?;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = (&mut input)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf)?;
        if read == 0 {
            return Ok(());
        }
        let answer = if buf.len() > MAX_LINE_BYTES && !buf.ends_with(b"\n") {
            // The rest of the line is read and dropped, a bounded piece at a time.
            loop {
                buf.clear();
                let n = (&mut input)
                    .take(MAX_LINE_BYTES as u64)
                    .read_until(b'\n', &mut buf)?;
                if n == 0 || buf.ends_with(b"\n") {
                    break;
                }
            }
            error(&format!(
                "the line is longer than {} KiB (each line is one JSON object)",
                MAX_LINE_BYTES / 1024
            ))
        } else {
            match command(s, d, &buf) {
                Ok(Some(answer)) => answer,
                Ok(None) => return Ok(()),
                Err(e) => error(&e),
            }
        };
        writeln!(output, "{answer}")?;
        if input.buffer().is_empty() {
            output.flush()?;
        }
    }
}

fn error(message: &str) -> String {
    format!("{{\"error\":{}}}", json_string(&printable_line(message)))
}

/// Answers one line; `Ok(None)`: quit.
fn command(s: &mut Session<'_>, d: &mut Driven, raw: &[u8]) -> Result<Option<String>, String> {
    let text = std::str::from_utf8(raw).map_err(|_| "the line is not UTF-8 text")?;
    let text = text.trim();
    if text.is_empty() {
        return Err("an empty line (send one JSON object per line)".into());
    }
    let value =
        crate::runtime::strict_json::parse(text).map_err(|e| format!("not valid JSON ({e})"))?;
    let Value::Object(mut obj) = value else {
        return Err("each line must be a JSON object".into());
    };
    for key in ["snapshot", "restore", "quit"] {
        let Some(v) = obj.get(key) else { continue };
        if obj.len() != 1 {
            return Err(format!("`{key}` goes alone on its line"));
        }
        if key == "quit" {
            return match v {
                Value::Bool(true) => Ok(None),
                _ => Err("`quit` takes true".into()),
            };
        }
        let name = v
            .as_str()
            .filter(|n| !n.is_empty() && n.len() <= MAX_NAME_BYTES)
            .ok_or_else(|| {
                format!("`{key}` takes a name: a string of 1 to {MAX_NAME_BYTES} bytes")
            })?;
        let (tick, hash) = if key == "snapshot" {
            s.snapshots.take(name, d)?
        } else {
            let dir = s.dir.clone();
            let answer = s.snapshots.restore(name, d, s.project, dir.as_deref())?;
            (s.restored)(d)?;
            answer
        };
        return Ok(Some(format!(
            "{{\"ok\":\"{key}\",\"name\":{},\"tick\":{tick},\"hash\":\"{}\"}}",
            json_string(name),
            hash.hex()
        )));
    }
    if let Some(k) = obj.keys().find(|k| !LINE_KEYS.contains(&k.as_str())) {
        return Err(format!(
            "unknown key `{}` (expected one of: {}; or snapshot, restore, quit alone)",
            printable_line(k),
            LINE_KEYS.join(", ")
        ));
    }
    let ticks = match obj.remove("ticks") {
        None => 1,
        Some(v) => v
            .as_u64()
            .filter(|t| (1..=MAX_LINE_TICKS).contains(t))
            .ok_or_else(|| format!("`ticks` must be a whole number from 1 to {MAX_LINE_TICKS}"))?,
    };
    let line = crate::runtime::frames::parse_line(
        &Value::Object(obj),
        Format::Agent,
        &d.run.game.def_arc().clone(),
    )?;
    if let Some(f) = &d.fault {
        return Err(format!(
            "the run faulted at tick {} ({}): restore a snapshot, or quit",
            f.tick, f.message
        ));
    }
    if let Some((tick, _)) = d.over() {
        return Err(format!(
            "the game is over (tick {tick}): restore a snapshot, or quit"
        ));
    }
    if let Some(e) = &d.run.error {
        return Err(format!("the run stopped: {e}"));
    }
    let mut first = Some(&line);
    for _ in 0..ticks {
        if !d.step(first.take()) {
            break;
        }
    }
    Ok(Some(observation(d, s.observe)))
}

/// The observation: `{"tick", "hash", "score", "vars", "game_over", "level", "fault",
/// "entities"}`, the entities those with a tag in `observe`, in creation order.
pub fn observation(d: &Driven, observe: u64) -> String {
    let game = &d.run.game;
    let world = game.world();
    let hash = d.run.last_hash.unwrap_or_else(|| StateHash::of(world));
    let game_over = match world.game_over() {
        None => "null".to_string(),
        Some((tick, message)) => {
            format!("{{\"tick\":{tick},\"message\":{}}}", json_string(message))
        }
    };
    let fault = match &d.fault {
        None => "null".to_string(),
        Some(f) => format!(
            "{{\"message\":{},\"location\":{},\"tick\":{}}}",
            json_string(&f.message),
            f.location.as_deref().map_or("null".into(), json_string),
            f.tick
        ),
    };
    let level = world
        .level_def(game.def())
        .map_or("null".to_string(), |l| json_string(&l.name));
    let mut out = format!(
        "{{\"tick\":{},\"hash\":\"{}\",\"score\":{},\"vars\":{},\"game_over\":{game_over},\"level\":{level},\"fault\":{fault},\"entities\":[",
        world.tick(),
        hash.hex(),
        world.score(),
        vars_json(world),
    );
    if observe != 0 {
        let mut seen: Vec<(u64, &str, Vec2, Vec2)> = world
            .ecs()
            .query::<(&Identity, &Position, Option<&Velocity>)>()
            .iter()
            .filter(|(id, _, _)| game.def().tags_of(id.archetype) & observe != 0)
            .map(|(id, p, v)| {
                let kind = game
                    .def()
                    .archetypes
                    .get(id.archetype.0 as usize)
                    .map_or("?", |a| a.name.as_str());
                (id.seq(), kind, p.0, v.map_or(Vec2::ZERO, |v| v.0))
            })
            .collect();
        seen.sort_by_key(|e| e.0);
        for (i, (id, kind, p, v)) in seen.iter().enumerate() {
            let _ = write!(
                out,
                "{}{{\"id\":{id},\"kind\":{},\"x\":{},\"y\":{},\"vx\":{},\"vy\":{}}}",
                if i == 0 { "" } else { "," },
                json_string(kind),
                num(p.x),
                num(p.y),
                num(v.x),
                num(v.y)
            );
        }
    }
    out.push_str("]}");
    out
}

fn num(v: f32) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        "null".into()
    }
}
