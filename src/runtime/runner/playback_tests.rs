//! Input played by tick in the window (`playback.rs`), end to end without a window: the world
//! at every tick is `ludus sim`'s with the same input, at any frame rate, through pauses,
//! steps, ignored keys, rewinds, turns, a recording's levels and restarts, and its fault.

use super::*;
use crate::runtime::frames::{Format, parse};
use crate::runtime::headless::{HeadlessRun, header, headless_run};
use crate::runtime::playback::Playback;
use crate::runtime::trace::TickTrace;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::Write;
use std::rc::Rc;

/// A trace written into memory.
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn lines(&self) -> Vec<String> {
        let text = String::from_utf8(self.0.borrow().clone()).unwrap();
        text.lines().map(str::to_string).collect()
    }
}

fn example(name: &str) -> Project {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    Project::from_folder(&dir.join(name)).unwrap()
}

/// The example's test input file `file`, parsed.
fn input(project: &Project, example: &str, file: &str) -> Vec<crate::runtime::frames::Line> {
    let path = format!(
        "{}/examples/{example}/tests/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    parse(&path, &text, Format::Input, &project.def).unwrap()
}

/// `ludus sim --input --trace` of `steps` steps: its trace lines.
fn sim_trace(
    project: &Project,
    lines: Vec<crate::runtime::frames::Line>,
    steps: u64,
) -> Vec<String> {
    let trace = Shared::default();
    let mut d: HeadlessRun = headless_run(project, 0).unwrap();
    d.trace = Some(Box::new(trace.clone()));
    assert!(d.run_input(lines, steps).is_none());
    trace.lines()
}

/// A runner playing `playback`, and its trace.
fn playing(project: &Project, playback: Playback, saved: SaveStore) -> (Runner, Shared) {
    let mut runner = Runner::new(project.clone(), 0, crate::platform::clock_ns).unwrap();
    runner.use_threads(2);
    runner.play_back(playback, saved).unwrap();
    let trace = Shared::default();
    runner.trace_to(TickTrace::new(Box::new(trace.clone()), "trace".into()));
    (runner, trace)
}

fn ran(runner: &Runner) -> u64 {
    runner.play.timed.playback.as_ref().unwrap().ran()
}

/// Frames `deltas` apart (cycling) from `now` until `until` says stop (at most 100000).
fn frames(runner: &mut Runner, now: &mut u64, deltas_ms: &[f64], until: impl Fn(&Runner) -> bool) {
    for f in 0..100_000 {
        if until(runner) {
            return;
        }
        *now += (deltas_ms[f % deltas_ms.len()] * 1e6) as u64;
        runner.frame(*now, 0.016);
    }
    panic!("the frames never got there");
}

/// Runs a rewind's re-simulation to its end.
fn finish(runner: &mut Runner, now: &mut u64) {
    frames(runner, now, &[16.667], |r| r.resim.is_none());
}

/// The trace as tick -> hash, each tick's last line winning (ticks run again after a rewind).
fn by_tick(lines: &[String]) -> BTreeMap<u64, String> {
    lines
        .iter()
        .filter(|l| !l.contains("rewound"))
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (v["tick"].as_u64().unwrap(), l.clone())
        })
        .collect()
}

#[test]
fn every_tick_gets_the_input_sim_gives_it_whatever_the_frame_rate() {
    let project = example("dungeon");
    let lines = input(&project, "dungeon", "clear.jsonl");
    let expected = sim_trace(&project, lines.clone(), 200);
    // (frame deltas in ms): steady 60 Hz, fast frames, slow frames that catch up, a mix.
    let rates: [&[f64]; 4] = [
        &[16.667],
        &[4.0],
        &[45.0],
        &[16.667, 2.0, 70.0, 9.0, 0.0, 33.0],
    ];
    for deltas in rates {
        let (mut runner, trace) = playing(
            &project,
            Playback::input(lines.clone(), &project.def.tick),
            SaveStore::default(),
        );
        let mut now = 1;
        frames(&mut runner, &mut now, deltas, |r| ran(r) >= 200);
        let got = trace.lines();
        assert_eq!(got[..200], expected[..], "frames {deltas:?} apart");
    }
}

#[test]
fn pause_step_ignored_keys_and_a_rewind_keep_every_tick_on_the_input() {
    let project = example("dungeon");
    let lines = input(&project, "dungeon", "clear.jsonl");
    let expected = by_tick(&sim_trace(&project, lines.clone(), 300));
    let (mut runner, trace) = playing(
        &project,
        Playback::input(lines, &project.def.tick),
        SaveStore::default(),
    );
    let mut now = 1;
    frames(&mut runner, &mut now, &[16.667], |r| ran(r) >= 100);
    runner.key_down(Key::P);
    let at = ran(&runner);
    // The game's keys do nothing while input plays; N steps one tick each.
    runner.key_down(Key::D);
    runner.key_down(Key::Space);
    for _ in 0..3 {
        for _ in 0..3 {
            now += 16_666_667;
            runner.frame(now, 0.016);
        }
        runner.key_down(Key::N);
        now += 16_666_667;
        runner.frame(now, 0.016);
    }
    assert_eq!(ran(&runner), at + 3, "three steps, three ticks");
    assert_eq!(runner.play.session.mode(), Mode::Paused);
    let said = runner.ui.take_fresh_log();
    assert_eq!(
        said.iter()
            .filter(|l| l.starts_with("input plays back"))
            .count(),
        1,
        "said once: {said:?}"
    );
    runner.key_up(Key::D);
    runner.key_down(Key::P);
    frames(&mut runner, &mut now, &[16.667], |r| ran(r) >= 180);
    let before = runner.play.session.tick();
    runner.rewind(40);
    finish(&mut runner, &mut now);
    assert_eq!(runner.play.session.tick(), before - 40, "rewound 40 ticks");
    assert_eq!(ran(&runner), before - 40);
    frames(&mut runner, &mut now, &[16.667], |r| ran(r) >= 300);
    let lines = trace.lines();
    let rewound: Vec<&String> = lines.iter().filter(|l| l.contains("rewound")).collect();
    let tick = before - 40;
    let hash = &expected[&tick];
    let hash = &hash[hash.find("\"hash\"").unwrap()..hash.find(",\"entities").unwrap()];
    assert_eq!(
        rewound,
        [&format!("{{\"rewound\":40,\"tick\":{tick},{hash}}}")],
        "one line for the rewind, with the state's hash there"
    );
    let got = by_tick(&lines);
    let first: BTreeMap<u64, String> = got.into_iter().filter(|(t, _)| *t <= 300).collect();
    assert_eq!(first, expected, "every tick as sim has it");
}

#[test]
fn a_turn_based_game_takes_a_step_per_tick_period_and_rewinds_to_its_step() {
    let project = example("rogue");
    let lines = input(&project, "rogue", "escape.jsonl");
    let expected = sim_trace(&project, lines.clone(), 1000);
    assert_eq!(expected.len(), 101, "the escape's ticks");
    let (mut runner, trace) = playing(
        &project,
        Playback::input(lines, &project.def.tick),
        SaveStore::default(),
    );
    let mut now = 1;
    // Frames at 240 Hz: a step every fourth (the game's rate is 60 Hz).
    frames(&mut runner, &mut now, &[4.1667], |r| ran(r) >= 20);
    assert!(ran(&runner) == 20, "one tick at a time");
    runner.rewind(7);
    finish(&mut runner, &mut now);
    frames(&mut runner, &mut now, &[4.1667], |r| {
        r.play.session.mode() == Mode::Over
    });
    assert_eq!(
        by_tick(&trace.lines()).len(),
        by_tick(&expected).len(),
        "as many ticks in each level"
    );
    let lines = trace.lines();
    assert!(lines[20].starts_with("{\"rewound\":7,"), "{}", lines[20]);
    let got: Vec<String> = lines
        .into_iter()
        .filter(|l| !l.contains("rewound"))
        .collect();
    let (kept, after) = got.split_at(20);
    assert_eq!(kept, &expected[..20]);
    assert_eq!(
        after,
        &expected[13..],
        "from the tick rewound to, the same ticks again"
    );
}

/// A recording of the tiny game: 5 ticks of level a, a switch to b for 4, then a restart
/// (level a afresh) for 3.
fn levels_recording() -> (Project, Recording) {
    let project = crate::runtime::fuzz::tiny();
    let mut d = headless_run(&project, 0).unwrap();
    d.start_recording(header(&project, None, 0), false);
    assert!(d.run_input(Vec::new(), 5).is_none());
    d.switch(1).unwrap();
    assert!(d.run_input(Vec::new(), 4).is_none());
    d.build(&LoadRequest::Restart).unwrap();
    d.restarted();
    assert!(d.run_input(Vec::new(), 3).is_none());
    let rec = d.recording().unwrap().clone();
    (project, rec)
}

#[test]
fn a_recording_plays_its_levels_and_restarts_where_it_changes_them() {
    let (project, rec) = levels_recording();
    let expected: Vec<String> = rec
        .segments
        .iter()
        .flat_map(|s| s.ticks.iter())
        .map(|t| {
            crate::runtime::trace::tick_line(t.tick, t.hash, 1)
                .trim_end()
                .to_string()
        })
        .collect();
    let playback = Playback::recording(rec.clone(), &project.def, true).unwrap();
    let (mut runner, trace) = playing(&project, playback, rec.saved.clone());
    let mut now = 1;
    frames(&mut runner, &mut now, &[16.667], |r| ran(r) >= 12);
    assert_eq!(trace.lines()[..12], expected[..], "ticks a1-5, b1-4, a1-3");
    // A rewind goes back no further than the restart, where the history began.
    runner.rewind(100);
    finish(&mut runner, &mut now);
    assert_eq!(ran(&runner), 9, "back to the restart");
    assert_eq!(runner.play.session.tick(), 0);
    frames(&mut runner, &mut now, &[16.667], |r| ran(r) >= 14);
    let lines: Vec<String> = trace
        .lines()
        .into_iter()
        .filter(|l| !l.contains("rewound"))
        .collect();
    assert_eq!(lines[12..15], expected[9..12], "the restart's ticks again");
    // Past the end the game goes on, in the level the recording left it in.
    assert_eq!(lines.len(), 17);
    let level = crate::runtime::builds::level_name(&runner.play.timed.game);
    assert_eq!(level, "a");
}

#[test]
fn a_recorded_fault_happens_again_at_its_tick_and_a_later_stop_tick_is_missed() {
    let toml = "name = \"F\"\n[scripts]\nfiles = [\"main.lua\"]\n[levels.one]\n\
                [input.actions.go]\nkind = \"button\"\nkeys = [\"space\"]\n";
    let script = "function on_tick(t) if t.tick == 5 then error('boom') end end";
    let files = [("game.toml", toml), ("main.lua", script)]
        .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
        .into();
    let project = Project::from_files("f", files).unwrap();
    let mut d = headless_run(&project, 0).unwrap();
    d.start_recording(header(&project, None, 0), false);
    let fault = d.run_input(Vec::new(), 10).expect("it faults");
    let rec = d.recording().unwrap().clone();
    assert_eq!(rec.fault.as_ref().map(|f| f.tick), Some(5));
    let playback = Playback::recording(rec, &project.def, true)
        .unwrap()
        .stop_at(8);
    let (mut runner, _) = playing(&project, playback, SaveStore::default());
    let mut now = 1;
    frames(&mut runner, &mut now, &[16.667], |r| {
        r.play.session.mode() == Mode::Faulted
    });
    let faulted = runner.play.session.fault().unwrap();
    assert_eq!((faulted.tick, &faulted.message), (5, &fault.message));
    assert_eq!(
        runner.stop(),
        Some(Stop::Missed(format!(
            "the game faulted after tick 4, before tick 8: {}",
            fault.message
        )))
    );
    assert_eq!(runner.ui.saved, None, "no recording written: it plays one");
}

#[test]
fn a_stop_tick_pauses_right_after_it_with_the_world_there() {
    let project = example("dungeon");
    let lines = input(&project, "dungeon", "clear.jsonl");
    let expected = sim_trace(&project, lines.clone(), 77);
    let playback = Playback::input(lines, &project.def.tick).stop_at(77);
    let (mut runner, trace) = playing(&project, playback, SaveStore::default());
    let mut now = 1;
    // Slow frames: several ticks each, the stop tick among them.
    frames(&mut runner, &mut now, &[45.0], |r| {
        r.stop() != Some(Stop::Waiting)
    });
    assert_eq!(runner.stop(), Some(Stop::Reached));
    assert_eq!(runner.play.session.tick(), 77);
    assert_eq!(trace.lines(), expected);
    assert_eq!(runner.banner(), None, "no pause banner: the tick is shown");
    assert_eq!(
        runner.help_line().as_deref(),
        Some(
            "input plays back (game keys off)  P pause  N step  F3 overlay  F4 console  \
             F6 inspect  F8 record  Backspace rewind"
        )
    );
}
