//! Tick-exact playback in a real window under Xvfb: `ludus run --input` gives every tick the
//! hash `ludus sim` gives it, and its frame at a tick (`--screenshot-at`) is the same pixels at
//! any frame rate; `ludus replay --window` opens a failed test's recording at the same world.
//! Then what the options refuse, without a window.

mod support;

use std::ffi::OsStr;
use std::path::Path;
use std::process::Output;
use support::{bounded, ended_with, example, ludus, scratch, xvfb, xvfb_available};

/// The tick the screenshots show (a second and a half of the dungeon at 60 Hz).
const TICK: &str = "90";

/// `ludus ARGS` in a window under Xvfb, with `dir` as the data folder, within a minute: it
/// ends with `code`.
fn window_ending(dir: &Path, args: &[&OsStr], code: i32) -> Output {
    let mut cmd = xvfb("1024x768", dir);
    cmd.arg(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .env("LUDUS_NO_AUDIO", "1")
        .env("XDG_DATA_HOME", dir);
    let o = bounded(&mut cmd, 60);
    ended_with(&o, code);
    o
}

/// [`window_ending`] with exit code 0.
fn window(dir: &Path, args: &[&OsStr]) -> Output {
    window_ending(dir, args, 0)
}

/// A PNG's size and RGBA pixels.
fn pixels(path: &Path) -> (u32, u32, Vec<u8>) {
    let bytes = std::fs::read(path).expect("the screenshot was written");
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut px = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut px).unwrap();
    px.truncate(info.buffer_size());
    (info.width, info.height, px)
}

/// Pixels of the slimes' green and of the HUD's white text: the frame shows the game.
fn shows_the_dungeon(px: &[u8]) -> bool {
    let count = |f: &dyn Fn(&[u8]) -> bool| px.chunks(4).filter(|p| f(p)).count();
    let green = count(&|p| p[1] > 180 && p[0] < 160 && p[2] < 100);
    let white = count(&|p| p[0] > 200 && p[1] > 200 && p[2] > 200);
    green > 300 && white > 200
}

/// `ludus sim GAME --input FILE --ticks TICK --trace`: its trace.
fn sim_trace(game: &Path, input: &Path, dir: &Path) -> String {
    let trace = dir.join("sim.jsonl");
    let o = ludus()
        .arg("sim")
        .arg(game)
        .arg("--input")
        .arg(input)
        .args(["--ticks", TICK, "--trace"])
        .arg(&trace)
        .output()
        .unwrap();
    ended_with(&o, 0);
    std::fs::read_to_string(trace).unwrap()
}

/// `ludus run GAME --input FILE` at `fps` frames a second, stopped at [`TICK`]: its trace and
/// screenshot.
fn run_input(game: &Path, input: &Path, dir: &Path, fps: &str) -> (String, (u32, u32, Vec<u8>)) {
    let (trace, shot) = (
        dir.join(format!("{fps}.jsonl")),
        dir.join(format!("{fps}.png")),
    );
    let args: Vec<&OsStr> = vec![
        "run".as_ref(),
        game.as_os_str(),
        "--input".as_ref(),
        input.as_os_str(),
        "--fps-cap".as_ref(),
        fps.as_ref(),
        "--screenshot-at".as_ref(),
        TICK.as_ref(),
        "--screenshot".as_ref(),
        shot.as_os_str(),
        "--trace".as_ref(),
        trace.as_os_str(),
    ];
    window(dir, &args);
    (std::fs::read_to_string(trace).unwrap(), pixels(&shot))
}

#[test]
fn a_window_playing_input_has_sims_hash_at_every_tick_and_a_ticks_frame_at_any_frame_rate() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch("dungeon", "playback");
    let game = example("dungeon");
    let input = game.join("tests/clear.jsonl");
    let expected = sim_trace(&game, &input, &dir);
    assert_eq!(expected.lines().count(), 90);
    // 240 frames a second (four a tick), and 15 (four ticks a frame): both at once.
    let fast = std::thread::scope(|s| {
        let slow = s.spawn(|| run_input(&game, &input, &dir, "15"));
        let fast = run_input(&game, &input, &dir, "240");
        let slow = slow.join().unwrap();
        assert_eq!(slow.0, expected, "every tick's hash at 15 frames a second");
        assert!(
            slow.1 == fast.1,
            "the same pixels at tick {TICK} at 15 and 240 frames a second"
        );
        fast
    });
    assert_eq!(fast.0, expected, "every tick's hash at 240 frames a second");
    let (w, h, px) = fast.1;
    assert_eq!((w, h), (800, 480), "the game's window size");
    assert!(shows_the_dungeon(&px), "the frame shows the dungeon");
}

#[test]
fn a_failed_tests_recording_opens_in_the_window_at_the_world_of_its_tick() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch("dungeon", "replay-window");
    let game = dir.join("dungeon");
    support::copy_dir(&example("dungeon"), &game);
    // The clear, cut at tick 90: no game over yet, so the test fails and keeps its recording.
    std::fs::write(
        game.join("tests/short.toml"),
        format!("input = \"tests/clear.jsonl\"\nticks = {TICK}\n[expect]\ngame_over = true\n"),
    )
    .unwrap();
    let o = ludus().arg("test").arg(&game).output().unwrap();
    ended_with(&o, 1);
    let rec = game.join("tests/short.failed.ludusrec");
    assert!(rec.is_file(), "{}", String::from_utf8_lossy(&o.stdout));
    let input = game.join("tests/clear.jsonl");
    let expected = sim_trace(&game, &input, &dir);
    let (trace, shot) = (dir.join("replay.jsonl"), dir.join("replay.png"));
    std::thread::scope(|s| {
        let run = s.spawn(|| run_input(&game, &input, &dir, "240"));
        let args: Vec<&OsStr> = vec![
            "replay".as_ref(),
            rec.as_os_str(),
            "--window".as_ref(),
            "--screenshot-at".as_ref(),
            TICK.as_ref(),
            "--screenshot".as_ref(),
            shot.as_os_str(),
            "--trace".as_ref(),
            trace.as_os_str(),
        ];
        window(&dir, &args);
        let replayed = pixels(&shot);
        assert_eq!(std::fs::read_to_string(&trace).unwrap(), expected);
        let (_, ran) = run.join().unwrap();
        assert!(
            shows_the_dungeon(&replayed.2),
            "the frame shows the dungeon"
        );
        assert!(
            replayed == ran,
            "the recording's tick {TICK} looks as the input's does"
        );
    });
}

#[test]
fn a_window_that_cannot_reach_its_tick_or_write_its_trace_quits_saying_so() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch("dungeon", "playback-fails");
    let game = example("dungeon");
    let input = game.join("tests/clear.jsonl");
    let shot = dir.join("shot.png");
    let run = |extra: &[&str]| -> Vec<std::ffi::OsString> {
        let mut args: Vec<std::ffi::OsString> = vec!["run".into(), game.clone().into()];
        args.extend([
            "--input".into(),
            input.clone().into(),
            "--screenshot".into(),
        ]);
        args.push(shot.clone().into());
        args.extend(extra.iter().map(|a| a.into()));
        args
    };
    // (extra arguments, what standard error ends with)
    let cases = [
        (
            run(&["--screenshot-at", "90", "--frames-max", "3"]),
            "ludus: no screenshot written: quit after 3 frames (--frames-max), before the tick asked for\n",
        ),
        (
            run(&["--screenshot-at", "90", "--trace", "/dev/full"]),
            "ludus: cannot write the trace /dev/full: No space left on device (os error 28)\n",
        ),
    ];
    for (args, said) in cases {
        let args: Vec<&OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        let o = window_ending(&dir, &args, 1);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.ends_with(said), "{args:?}: {err}");
        assert!(!shot.exists(), "{args:?}: no screenshot");
    }
}

#[test]
fn what_playback_options_refuse_is_said_before_a_window_opens() {
    let dir = scratch("dungeon", "playback-refused");
    let game = example("dungeon");
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"tick\":1,\"press\":[\"attack\"]}\n{\"tick\":0}\n").unwrap();
    let rec = dir.join("clear.ludusrec");
    let o = ludus()
        .arg("sim")
        .arg(&game)
        .args(["--ticks", "5", "--record"])
        .arg(&rec)
        .output()
        .unwrap();
    ended_with(&o, 0);
    let (bad, rec, game) = (bad.display(), rec.display(), game.display());
    let no_dir = dir.join("none/trace.jsonl");
    let no_dir = no_dir.display();
    // (arguments, exit code, what standard error says)
    let cases = [
        (
            format!("run {game} --input {bad}"),
            1,
            format!("ludus: {bad}:2: `tick` must be a whole number >= 1\n"),
        ),
        (
            format!("run {game} --input {game}/tests/clear.jsonl --trace {no_dir}"),
            1,
            format!("ludus: cannot create {no_dir}: No such file or directory (os error 2)\n"),
        ),
        (
            format!("replay {rec} --window --game examples/swarm"),
            1,
            format!(
                "ludus: refusing to play {rec}: segment 1 is level `keep`, which the game does \
                 not declare (its levels: arena)\n"
            ),
        ),
        (
            format!("run {game} --screenshot-at 5 --screenshot x.png"),
            2,
            "the following required arguments were not provided:\n  --input <INPUT>".into(),
        ),
        (
            format!("replay {rec} --screenshot-at 5 --screenshot x.png"),
            2,
            "the following required arguments were not provided:\n  --window".into(),
        ),
        (
            format!("run {game} --input {bad} --screenshot-at 0 --screenshot x.png"),
            2,
            "invalid value '0' for '--screenshot-at <TICK>'".into(),
        ),
    ];
    for (args, code, said) in cases {
        let o = ludus()
            .args(args.split(' '))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .unwrap();
        ended_with(&o, code);
        let err = String::from_utf8_lossy(&o.stderr);
        if code == 1 {
            assert_eq!(err, said, "{args}");
        } else {
            assert!(err.contains(&said), "{args}: {err}");
        }
    }
}
