//! Time travel in the window, end to end on a copy of the swarm: hot reload by
//! re-simulation (new rules, a fault and its fix, in place with `--reload keep`), rewinds and
//! holding Backspace.

use super::*;
use crate::runtime::rerun::{CHECK_EVERY, Checks, Rerun};
use std::cell::Cell;
use std::path::Path;
use tempfile::TempDir;

thread_local! {
    /// Frame time, advanced by each test on its own thread.
    static NOW: Cell<u64> = const { Cell::new(1) };
}

fn clock() -> u64 {
    NOW.get()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// A fresh folder `ludus-NAME-…`, removed when the returned guard drops (at the test's end,
/// passed or failed).
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("ludus-{name}-"))
        .tempdir()
        .unwrap()
}

/// A copy of the bundled swarm to edit.
fn swarm(name: &str) -> TempDir {
    let dir = scratch(&format!("resim-{name}"));
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/swarm"),
        dir.path(),
    );
    dir
}

/// A runner of a fresh copy of the swarm, and the copy's folder.
fn start(name: &str) -> (TempDir, Runner) {
    let dir = swarm(name);
    let project = Project::from_folder(dir.path()).unwrap();
    let runner = Runner::new(project, 0, clock).unwrap();
    (dir, runner)
}

/// Plays `frames` frames at 60 Hz: `keys(frame)` says which keys go down and up.
fn play(runner: &mut Runner, frames: u64, keys: impl Fn(u64) -> (&'static [Key], &'static [Key])) {
    for f in 0..frames {
        let (down, up) = keys(f);
        down.iter().for_each(|k| runner.key_down(*k));
        up.iter().for_each(|k| runner.key_up(*k));
        let now = NOW.get() + 16_666_667;
        NOW.set(now);
        runner.frame(now, 1.0 / 60.0);
    }
}

fn finish(runner: &mut Runner) {
    let mut frames = 0;
    while runner.resim.is_some() {
        runner.frame(clock(), 0.0);
        frames += 1;
        assert!(frames < 10_000, "the re-simulation ends");
    }
}

fn edit(dir: &Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} holds {from}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// What `ludus replay --game DIR` makes of `rec` on the folder's content.
fn rerun_of(rec: &Recording, dir: &Path) -> Rerun {
    let fresh = Project::from_folder(dir).unwrap();
    let mut rerun = Rerun::new(rec.clone(), &fresh, None).unwrap();
    rerun.advance(u64::MAX).unwrap();
    rerun
}

#[test]
fn a_reload_re_simulates_the_level_with_the_new_rules_up_to_the_tick_shown() {
    let (tmp, mut runner) = start("rules");
    let dir = tmp.path();
    // Right and firing, a restart at frame 60 (a fresh history; keys held through it
    // must be pressed again), then on.
    play(&mut runner, 300, |f| match f {
        0 => (&[Key::D, Key::Space], &[]),
        60 => (&[Key::R], &[]),
        61 => (&[], &[Key::D, Key::Space]),
        62 => (&[Key::D, Key::Space], &[]),
        150 => (&[], &[Key::D]),
        _ => (&[], &[]),
    });
    let tick = runner.play.session.tick();
    assert!(tick > 200, "{tick}");
    let kept = runner.play.timed.history.recording().unwrap().clone();
    assert_eq!(
        kept.total_ticks() as u64,
        tick,
        "the history holds the level's ticks"
    );
    // Faster enemies.
    edit(dir, "enemies.toml", "speed = 115", "speed = 300");
    runner.reload();
    assert!(runner.resim.is_some());
    finish(&mut runner);
    assert_eq!(runner.ui.reload_error(), None);
    assert_eq!(
        runner.play.session.tick(),
        tick,
        "play goes on from the same tick"
    );
    assert_eq!(runner.play.session.mode(), Mode::Playing);
    let rerun = rerun_of(&kept, dir);
    let Some((_, differs)) = rerun.first_difference else {
        panic!("the new rules changed the play");
    };
    // It hashed every tick up to that one, then every sixteenth and the last.
    let ticks = hashes(rerun.run.recording().unwrap());
    let last = ticks.last().unwrap().0;
    for (t, h) in ticks {
        let hashed = t <= differs || t.is_multiple_of(CHECK_EVERY) || t == last;
        assert_eq!(h != StateHash::default(), hashed, "tick {t}");
    }
    // A rerun that checks every sixteenth tick finds it within sixteen ticks.
    let fresh = Project::from_folder(dir).unwrap();
    let mut sampled = Rerun::new(kept.clone(), &fresh, None).unwrap();
    sampled = sampled.checking(Checks::Sampled);
    sampled.advance(u64::MAX).unwrap();
    let (_, found) = sampled.first_difference.unwrap();
    assert!((differs..differs + CHECK_EVERY).contains(&found), "{found}");
    assert!(found.is_multiple_of(CHECK_EVERY), "{found}");
    let world = runner.play.timed.game.world();
    assert_eq!(world.tick(), rerun.run.game.world().tick());
    assert_eq!(StateHash::of(world), StateHash::of(rerun.run.game.world()));
    // The history now holds the new rules' hashes of every sixteenth tick and the last (a
    // rerun of it on them finds no difference), and play goes on.
    let now = runner.play.timed.history.recording().unwrap().clone();
    assert_eq!(now.total_ticks(), kept.total_ticks());
    let ticks = hashes(&now);
    let last = ticks.last().unwrap().0;
    for (t, h) in ticks {
        let sampled = t.is_multiple_of(CHECK_EVERY) || t == last;
        assert_eq!(h != StateHash::default(), sampled, "tick {t}");
    }
    assert_eq!(rerun_of(&now, dir).first_difference, None);
    play(&mut runner, 10, |_| (&[], &[]));
    assert_eq!(runner.play.session.tick(), tick + 10);
    // A script edit: every shot scores. Again what a rerun of the kept input makes.
    let kept = runner.play.timed.history.recording().unwrap().clone();
    let shoot = "ludus.sound(\"shoot\")";
    edit(
        dir,
        "scripts/combat.lua",
        shoot,
        "ludus.sound(\"shoot\") ludus.add_score(1)",
    );
    runner.reload();
    finish(&mut runner);
    assert_eq!(runner.play.session.tick(), tick + 10);
    let rerun = rerun_of(&kept, dir);
    assert!(rerun.first_difference.is_some(), "shots score now");
    assert!(runner.play.timed.game.world().score() > 0);
    assert_eq!(
        StateHash::of(runner.play.timed.game.world()),
        StateHash::of(rerun.run.game.world())
    );
}

#[test]
fn a_re_simulation_that_faults_shows_it_and_a_fix_re_simulates_again() {
    let (tmp, mut runner) = start("fault");
    let dir = tmp.path();
    play(&mut runner, 120, |f| {
        if f == 0 {
            (&[Key::Space], &[])
        } else {
            (&[], &[])
        }
    });
    let tick = runner.play.session.tick();
    let kept = runner.play.timed.history.recording().unwrap().total_ticks();
    // Every shot fired now faults.
    let combat = "scripts/combat.lua";
    edit(
        dir,
        combat,
        "ludus.sound(\"shoot\")",
        "error(\"no more shots\")",
    );
    runner.reload();
    finish(&mut runner);
    assert_eq!(runner.play.session.mode(), Mode::Faulted);
    let fault = runner.play.session.fault().unwrap().clone();
    assert!(fault.message.contains("no more shots"), "{fault}");
    assert!(fault.tick < tick, "it faulted on the way: {}", fault.tick);
    assert_eq!(
        runner.play.timed.history.recording().unwrap().total_ticks(),
        kept,
        "the old history is kept whole"
    );
    // The fix: the whole history again, to the tick shown before.
    edit(
        dir,
        combat,
        "error(\"no more shots\")",
        "ludus.sound(\"shoot\")",
    );
    runner.reload();
    finish(&mut runner);
    assert_eq!(runner.play.session.mode(), Mode::Playing);
    assert_eq!(runner.play.session.tick(), tick);
}

#[test]
fn reload_keep_swaps_the_scripts_under_the_running_world() {
    let (tmp, mut runner) = start("keep");
    let dir = tmp.path();
    runner.set_reload(Reload::Keep);
    play(&mut runner, 60, |_| (&[], &[]));
    let before = StateHash::of(runner.play.timed.game.world());
    edit(
        dir,
        "scripts/combat.lua",
        "ludus.sound(\"shoot\")",
        "ludus.sound(\"hit\")",
    );
    runner.reload();
    assert!(runner.resim.is_none());
    assert_eq!(
        StateHash::of(runner.play.timed.game.world()),
        before,
        "the world is kept"
    );
}

/// The hash the history recorded for its `n`-th tick (1-based, across segments).
/// Each recorded tick's number and hash.
fn hashes(rec: &Recording) -> Vec<(u64, StateHash)> {
    let ticks = rec.segments.iter().flat_map(|s| &s.ticks);
    ticks.map(|t| (t.tick, t.hash)).collect()
}

fn recorded_hash(rec: &Recording, n: u64) -> StateHash {
    let ticks: Vec<&TickRecord> = rec.segments.iter().flat_map(|s| &s.ticks).collect();
    ticks[n as usize - 1].hash
}

#[test]
fn a_rewind_returns_exactly_to_the_tick_and_new_input_goes_on_from_there() {
    let (tmp, mut runner) = start("rewind");
    let dir = tmp.path();
    play(&mut runner, 240, |f| match f {
        0 => (&[Key::D, Key::Space], &[]),
        120 => (&[Key::S], &[Key::D]),
        _ => (&[], &[]),
    });
    let tick = runner.play.session.tick();
    let before = runner.play.timed.history.recording().unwrap().clone();
    runner.rewind(90);
    finish(&mut runner);
    assert_eq!(runner.play.session.tick(), tick - 90);
    assert_eq!(
        StateHash::of(runner.play.timed.game.world()),
        recorded_hash(&before, tick - 90),
        "the state is the one that tick had"
    );
    // Every tick keeps its hash: those not checked, the recorded one.
    let now = runner.play.timed.history.recording().unwrap();
    assert_eq!(hashes(now)[..], hashes(&before)[..(tick - 90) as usize]);
    // Other input from there on.
    play(&mut runner, 60, |f| match f {
        0 => (&[Key::A], &[Key::S]),
        _ => (&[], &[]),
    });
    assert_eq!(runner.play.session.tick(), tick - 30);
    // A fresh run of the kept input, then the new, reaches the same state.
    let after = runner.play.timed.history.recording().unwrap().clone();
    assert_eq!(after.total_ticks() as u64, tick - 30);
    let fresh = rerun_of(&after, dir);
    assert_eq!(fresh.first_difference, None);
    assert_eq!(
        StateHash::of(fresh.run.game.world()),
        StateHash::of(runner.play.timed.game.world())
    );
}

#[test]
fn holding_backspace_runs_back_through_kept_frames_and_release_resumes_there() {
    let (_tmp, mut runner) = start("scrub");
    play(&mut runner, 200, |f| {
        if f == 0 { (&[Key::D], &[]) } else { (&[], &[]) }
    });
    let tick = runner.play.session.tick();
    let before = runner.play.timed.history.recording().unwrap().clone();
    let overlay = runner.play.past.timeline(tick);
    assert!(overlay.starts_with("rewind ["), "{overlay}");
    // Held for 50 frames: the view runs back 50 kept frames; no tick runs.
    play(&mut runner, 50, |f| {
        if f == 0 {
            (&[Key::Backspace], &[])
        } else {
            (&[], &[])
        }
    });
    assert_eq!(
        runner.play.session.tick(),
        tick,
        "time does not run forward"
    );
    let shown = runner.play.drawn().tick;
    assert!(shown < tick, "an older frame is shown: {shown}");
    play(&mut runner, 1, |_| (&[], &[Key::Backspace]));
    finish(&mut runner);
    let now = runner.play.session.tick();
    assert!(now < tick && now + 60 >= tick - 50, "resumed at {now}");
    assert_eq!(
        StateHash::of(runner.play.timed.game.world()),
        recorded_hash(&before, now)
    );
}

/// A game that counts, in its saved data, how many times its tick 30 was played.
const COUNTER: &str = "name = \"Counter\"\n[scripts]\nfiles = [\"main.lua\"]\n[levels.main]\n";
const COUNTER_LUA: &str = "function on_tick(t)\n  if t.tick == 30 then\n    \
                           ludus.save('seen', (ludus.saved('seen') or 0) + 1)\n  end\nend\n";

#[test]
fn the_window_keeps_saved_data_through_restarts_rewinds_and_reloads() {
    let tmp = scratch("saved-window");
    let dir = tmp.path();
    std::fs::write(dir.join("game.toml"), COUNTER).unwrap();
    std::fs::write(dir.join("main.lua"), COUNTER_LUA).unwrap();
    let file = dir.join("save.json");
    std::fs::write(&file, r#"{"seen":5}"#).unwrap();
    let mut runner = Runner::new(Project::from_folder(dir).unwrap(), 0, clock).unwrap();
    runner.keep_saved(crate::platform::SavePlace::file(file.clone()));
    let kept = |runner: &Runner| {
        let world = runner.play.timed.game.world();
        let text = std::fs::read_to_string(&file).unwrap();
        (world.tick(), world.saved().to_json(), text)
    };
    let seen = |n: u32| format!(r#"{{"seen":{n}}}"#);
    play(&mut runner, 40, |_| (&[], &[]));
    assert_eq!(
        kept(&runner),
        (39, seen(6), seen(6)),
        "written after tick 30"
    );
    // R: a new world with the same store, whose tick 30 counts again.
    play(&mut runner, 40, |f| {
        if f == 0 { (&[Key::R], &[]) } else { (&[], &[]) }
    });
    let (tick, store, text) = kept(&runner);
    assert!((30..40).contains(&tick), "{tick}");
    assert_eq!(
        (store, text),
        (seen(7), seen(7)),
        "the restart kept the store"
    );
    // Back before tick 30: the store as the level began, written again.
    runner.rewind(tick - 20);
    finish(&mut runner);
    assert_eq!(
        kept(&runner),
        (20, seen(6), seen(6)),
        "the rewind restored it"
    );
    // A content change restarts the level with the same store.
    runner.set_reload(Reload::Keep);
    edit(
        dir,
        "game.toml",
        "[levels.main]",
        "[variables]\nx = 1\n[levels.main]",
    );
    runner.reload();
    assert_eq!(runner.ui.reload_error(), None);
    play(&mut runner, 40, |_| (&[], &[]));
    assert_eq!(kept(&runner), (39, seen(7), seen(7)), "the reload kept it");
}

/// The y of each paddle of the pong example: (left, right).
fn paddles(runner: &Runner) -> (f32, f32) {
    let world = runner.play().timed.game.world();
    let mut ys = (0.0, 0.0);
    for (id, p) in world.ecs().query::<(&Identity, &Position)>().iter() {
        let name = &runner.play().def().archetypes[id.archetype.0 as usize].name;
        match name.as_str() {
            "left_paddle" => ys.0 = p.0.y,
            "right_paddle" => ys.1 = p.0.y,
            _ => {}
        }
    }
    ys
}

/// A script's `ludus.bind` reaches the window's keys: in pong, K swaps the players' keys, so
/// Up then moves the left paddle instead of the right one, and the help line says so.
#[test]
fn a_scripts_bind_changes_the_keys_and_the_help_line() {
    let project =
        Project::from_folder(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/pong")).unwrap();
    let mut runner = Runner::new(project, 0, clock).unwrap();
    play(&mut runner, 3, |_| (&[], &[]));
    play(&mut runner, 20, |f| match f {
        0 => (&[Key::Up], &[]),
        19 => (&[], &[Key::Up]),
        _ => (&[], &[]),
    });
    let (left, right) = paddles(&runner);
    assert!(
        left == 0.0 && right < -50.0,
        "Up moves the right paddle: {left} {right}"
    );
    assert!(
        runner
            .help_line()
            .unwrap()
            .contains("Up/Down/Pad 2 left stick y p2_move")
    );
    play(&mut runner, 4, |f| match f {
        0 => (&[Key::K], &[]),
        1 => (&[], &[Key::K]),
        _ => (&[], &[]),
    });
    assert!(
        runner
            .help_line()
            .unwrap()
            .contains("Up/Down/Pad 1 left stick y p1_move"),
        "{:?}",
        runner.help_line()
    );
    play(&mut runner, 20, |f| match f {
        0 => (&[Key::Up], &[]),
        19 => (&[], &[Key::Up]),
        _ => (&[], &[]),
    });
    let (after, _) = paddles(&runner);
    assert!(
        after < -50.0,
        "after the swap Up moves the left paddle: {after}"
    );
}
