//! The page's test API: headless runs and replays of the embedded game, as the browser build
//! exports them to the page (`web/api.rs`; web/ludus.js wraps them as `window.ludus`). They go through the same code as
//! `ludus sim --input` and `ludus replay` ([`crate::runtime::headless`], [`crate::runtime::verify`]), so a run in
//! the browser can be compared tick for tick with a native one.
//!
//! The C ABI (wasm32 only): `ludus_alloc(len)` / `ludus_free(ptr, len)` manage byte buffers in
//! wasm memory; `ludus_sim(input, input_len, ticks, flags)` and `ludus_replay(bytes, len)` return
//! a result buffer: a little-endian `u32` length `n`, then `n` bytes of parts, each a `u32`
//! length and its bytes. The caller frees it with `ludus_free(ptr, 4 + n)`.
//!
//! - `ludus_sim` parts: the summary JSON (the line `ludus sim` prints, or `{"error": ...}`),
//!   the trace (JSON Lines, one per tick, as `ludus sim --trace` writes; empty unless flag bit 1),
//!   the recording (the `Recording::to_bytes` file format; empty unless flag bit 0).
//! - `ludus_replay` parts: one JSON object, `{"outcome": "identical", "ticks": n}`,
//!   `{"outcome": "diverged", "segment", "tick", "report"}` or `{"outcome": "error", "error"}`.

use crate::runtime::frames::Format;
use crate::runtime::headless::RunFigures;
use crate::runtime::project::Project;
use crate::runtime::verify::Outcome;
use ludus_core::Recording;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

/// Flag bit of `ludus_sim`: return a recording.
pub const RECORD: u32 = 1;
/// Flag bit of `ludus_sim`: return the per-tick trace.
pub const TRACE: u32 = 2;

/// What a headless run returns.
#[derive(Debug, Default, PartialEq)]
pub struct SimOutput {
    pub summary: String,
    pub trace: Vec<u8>,
    pub recording: Vec<u8>,
}

/// A writer whose bytes the caller keeps a handle to (the driver owns its trace writer).
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub(crate) fn error_json(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
}

/// `ludus sim --input` of `project` for `ticks` ticks, `input` in the `--input` format.
pub fn sim(
    project: &Project,
    input: &str,
    ticks: u64,
    flags: u32,
    clock: fn() -> u64,
) -> SimOutput {
    let lines = match crate::runtime::frames::parse("input", input, Format::Input, &project.def) {
        Ok(l) => l,
        Err(e) => {
            return SimOutput {
                summary: error_json(&e),
                ..SimOutput::default()
            };
        }
    };
    let mut d = match crate::runtime::headless::headless_run(project, 0) {
        Ok(d) => d,
        Err(f) => {
            return SimOutput {
                summary: error_json(&format!("the game could not start: {f}")),
                ..SimOutput::default()
            };
        }
    };
    if flags & RECORD != 0 {
        d.start_recording(crate::runtime::headless::header(project, None, 0), false);
    }
    let trace = Shared::default();
    if flags & TRACE != 0 {
        d.trace = Some(Box::new(trace.clone()));
    }
    d.hash_as_needed();
    let start = clock();
    let fault = d.run_input(lines, ticks);
    let elapsed_ns = clock().saturating_sub(start);
    let summary = d.summary(&RunFigures {
        fault,
        elapsed_ns,
        ..RunFigures::default()
    });
    let recording = d.recording().map(Recording::to_bytes).unwrap_or_default();
    drop(d);
    let trace = std::mem::take(&mut *trace.0.borrow_mut());
    SimOutput {
        summary,
        trace,
        recording,
    }
}

/// `ludus replay` of a recording's bytes against `project`; one JSON object.
pub fn replay(project: &Project, bytes: &[u8]) -> String {
    let outcome = Recording::from_bytes(bytes)
        .map_err(|e| e.to_string())
        .and_then(
            |rec| match crate::runtime::verify::mismatch(&rec, project) {
                Some(why) => Err(format!("refusing to replay: {why}")),
                None => crate::runtime::verify::replay(&rec, project, None),
            },
        );
    match outcome {
        Ok(Outcome::Identical { ticks }) => {
            serde_json::json!({ "outcome": "identical", "ticks": ticks }).to_string()
        }
        Ok(Outcome::Faulted {
            ticks,
            tick,
            message,
        }) => serde_json::json!({
            "outcome": "faulted",
            "ticks": ticks,
            "tick": tick,
            "message": message,
        })
        .to_string(),
        Ok(Outcome::Diverged {
            segment,
            tick,
            report,
        }) => serde_json::json!({
            "outcome": "diverged",
            "segment": segment,
            "tick": tick,
            "report": report,
        })
        .to_string(),
        Err(e) => serde_json::json!({ "outcome": "error", "error": e }).to_string(),
    }
}

/// The most entities a page's bench rung adds, and the most ticks it times (as `ludus bench`).
pub const BENCH_MAX_ENTITIES: u32 = 1_000_000;
pub const BENCH_MAX_TICKS: u32 = 100_000;

/// One rung of the page's bench ladder: the game with `entities` more of its `[stress]`
/// archetype, `warmup` unmeasured then `ticks` measured ticks with neutral input, as `ludus
/// bench --serial` runs them (the page has one thread), up to the tick in which the game
/// ends if it does. One JSON object: `entities` (live after the last tick), `ticks` (those
/// measured), `ended_at` (the tick the game ended in, or null), `median_ms`, `mean_ms`,
/// `p99_ms`, `in_scripts` (the share of tick time), `hash` (the state hash after the last
/// tick: `ludus sim --entities N --ticks warmup+ticks` prints the same); or `{ "error" }`.
pub fn bench(
    project: &Project,
    entities: u32,
    (ticks, warmup): (u32, u32),
    clock: fn() -> u64,
) -> String {
    if project.def.stress.is_none() {
        return error_json(&project.def.no_stress("the bench"));
    }
    if entities > BENCH_MAX_ENTITIES
        || !(1..=BENCH_MAX_TICKS).contains(&ticks)
        || warmup > BENCH_MAX_TICKS
    {
        return error_json(&format!(
            "a bench rung takes at most {BENCH_MAX_ENTITIES} entities, 1 to {BENCH_MAX_TICKS} \
             ticks and at most {BENCH_MAX_TICKS} warm-up ticks"
        ));
    }
    let project = crate::runtime::bench::with_room(project, entities);
    let run = project.host().and_then(|host| {
        let host = host.with_clock(Box::new(clock));
        let mut game =
            ludus_core::Game::with_entities(project.def.clone(), Box::new(host), entities)?;
        let times = crate::runtime::bench::time_ticks(&mut game, (ticks, warmup), clock)?;
        Ok((times, ludus_core::StateHash::of(game.world())))
    });
    match run {
        Ok((t, hash)) => match t.none_measured(warmup) {
            Some(why) => error_json(&why),
            None => serde_json::json!({
                "entities": t.entities,
                "ticks": t.sorted_ms.len(),
                "ended_at": t.ended.as_ref().map(|(tick, _)| *tick),
                "median_ms": t.median_ms(),
                "mean_ms": t.mean_ms(),
                "p99_ms": t.percentile(0.99),
                "in_scripts": t.script_ns as f64 / (t.total_ms * 1e6).max(1.0),
                "hash": hash.hex(),
            })
            .to_string(),
        },
        Err(f) => error_json(&format!("the game faulted at {entities} entities: {f}")),
    }
}

/// The result buffer layout (see the module documentation).
pub fn envelope(parts: &[&[u8]]) -> Vec<u8> {
    let body: usize = parts.iter().map(|p| 4 + p.len()).sum();
    let mut out = Vec::with_capacity(4 + body);
    out.extend_from_slice(&(body as u32).to_le_bytes());
    for p in parts {
        out.extend_from_slice(&(p.len() as u32).to_le_bytes());
        out.extend_from_slice(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> u64 {
        0
    }

    const INPUT: &str = "{\"tick\":1,\"press\":[\"fire\"],\"axis\":{\"move_x\":1}}\n\
                         {\"tick\":60,\"axis\":{\"move_x\":-0.5,\"move_y\":1}}\n\
                         {\"tick\":130,\"release\":[\"fire\"]}\n";

    fn summary(out: &SimOutput) -> serde_json::Value {
        serde_json::from_str(&out.summary).expect("the summary is JSON")
    }

    #[test]
    fn a_bench_rung_ends_where_the_same_headless_run_does() {
        let project = crate::runtime::bundled::project().expect("the bundled game loads");
        let out: serde_json::Value =
            serde_json::from_str(&bench(&project, 300, (12, 3), clock)).unwrap();
        assert_eq!(out["ticks"], 12, "{out}");
        let mut d = crate::runtime::headless::headless_run(&project, 300).unwrap();
        assert!(d.run_input(Vec::new(), 15).is_none());
        let native: serde_json::Value =
            serde_json::from_str(&d.summary(&RunFigures::default())).unwrap();
        assert_eq!(out["hash"], native["hash"], "{out}");
        assert_eq!(out["entities"], native["entities"], "{out}");
        for bad in [
            bench(&project, BENCH_MAX_ENTITIES + 1, (1, 0), clock),
            bench(&project, 10, (0, 0), clock),
        ] {
            let v: serde_json::Value = serde_json::from_str(&bad).unwrap();
            assert!(v["error"].as_str().unwrap().contains("at most"), "{v}");
        }
    }

    /// A game that ends is timed up to its end, as `ludus bench` times it; one that ends in
    /// the warm-up is an error that says so.
    #[test]
    fn a_bench_rung_stops_where_the_game_ends() {
        let mut project = crate::runtime::bundled::project().expect("the bundled game loads");
        let mut def = (*project.def).clone();
        let player = def.archetype_id("player").expect("a player").0 as usize;
        let health = def.archetypes[player].health.as_mut().expect("health");
        health.max = 1;
        project.def = std::sync::Arc::new(def);
        // 9000 drones: several start on the player, whose one point goes in tick 1.
        let out: serde_json::Value =
            serde_json::from_str(&bench(&project, 9000, (50, 0), clock)).unwrap();
        assert_eq!(
            (&out["ticks"], &out["ended_at"]),
            (&1.into(), &1.into()),
            "{out}"
        );
        let out: serde_json::Value =
            serde_json::from_str(&bench(&project, 9000, (50, 40), clock)).unwrap();
        let error = out["error"].as_str().unwrap_or_default();
        assert!(
            error.contains("ended at tick 1") && error.contains("40 warm-up"),
            "{out}"
        );
    }

    #[test]
    fn sim_matches_the_native_driver_and_its_recording_replays() {
        let project = crate::runtime::bundled::project().expect("the bundled game loads");
        let out = sim(&project, INPUT, 200, RECORD | TRACE, clock);
        let s = summary(&out);
        assert_eq!(s["ticks"], 200, "{s}");
        assert_eq!(s["faulted"], false, "{s}");

        // The same run through the driver directly, as `ludus sim --input` does.
        let lines =
            crate::runtime::frames::parse("input", INPUT, Format::Input, &project.def).unwrap();
        let mut d = crate::runtime::headless::headless_run(&project, 0).unwrap();
        assert!(d.run_input(lines, 200).is_none());
        let native: serde_json::Value =
            serde_json::from_str(&d.summary(&RunFigures::default())).unwrap();
        for key in [
            "ticks",
            "hash",
            "entities",
            "score",
            "world_tick",
            "faulted",
        ] {
            assert_eq!(s[key], native[key], "{key}");
        }

        let trace = String::from_utf8(out.trace.clone()).unwrap();
        let lines: Vec<&str> = trace.lines().collect();
        assert_eq!(lines.len(), 200, "one trace line per tick");
        assert!(
            lines[199].contains(s["hash"].as_str().unwrap()),
            "the last line is the final hash"
        );

        let verdict: serde_json::Value =
            serde_json::from_str(&replay(&project, &out.recording)).unwrap();
        assert_eq!(verdict["outcome"], "identical", "{verdict}");
        assert_eq!(verdict["ticks"], 200, "{verdict}");
    }

    #[test]
    fn a_tampered_recording_diverges_at_its_tick_and_garbage_is_an_error() {
        let project = crate::runtime::bundled::project().unwrap();
        let out = sim(&project, INPUT, 80, RECORD, clock);
        assert!(out.trace.is_empty(), "no trace unless asked");
        let mut rec = Recording::from_bytes(&out.recording).unwrap();
        rec.segments[0].ticks[41].hash.total ^= 1;
        let verdict: serde_json::Value =
            serde_json::from_str(&replay(&project, &rec.to_bytes())).unwrap();
        assert_eq!(verdict["outcome"], "diverged", "{verdict}");
        assert_eq!(verdict["tick"], 42, "{verdict}");

        let verdict: serde_json::Value =
            serde_json::from_str(&replay(&project, b"nonsense")).unwrap();
        assert_eq!(verdict["outcome"], "error", "{verdict}");
        let bad = sim(&project, "{\"tick\":1,\"press\":[\"jump\"]}", 10, 0, clock);
        let s = summary(&bad);
        assert!(
            s["error"]
                .as_str()
                .unwrap()
                .contains("unknown action `jump`"),
            "{s}"
        );
    }

    #[test]
    fn envelope_layout() {
        let e = envelope(&[b"ab", b"", b"xyz"]);
        assert_eq!(
            e,
            [
                &[17u8, 0, 0, 0][..],
                &[2, 0, 0, 0],
                b"ab",
                &[0, 0, 0, 0],
                &[3, 0, 0, 0],
                b"xyz"
            ]
            .concat()
        );
    }
}
