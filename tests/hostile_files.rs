//! Hostile files and arguments, end to end: each case ends within a bounded time as one clear
//! error and a usage (2) or failure (1) exit code, never a panic, a hang, an abort or a
//! file outside the game folder shown. Every test runs the real binary in a fresh process.

mod support;

use ludus_core::*;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use support::scratch;

fn ludus() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/swarm")
}

/// Runs `cmd` to its end, which must come within `secs` seconds.
fn bounded(cmd: &mut Command, secs: u64) -> Output {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let read_out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let read_err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let deadline = Instant::now() + Duration::from_secs(secs);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} did not end within {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: read_out.join().unwrap(),
        stderr: read_err.join().unwrap(),
    }
}

/// The process ended by itself with `code`, printed `expect` on stderr, and nothing of a panic.
#[track_caller]
fn fails(o: &Output, code: i32, expect: &str) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(o.status.signal(), None, "killed by a signal: {err}");
    }
    assert_eq!(o.status.code(), Some(code), "{err}");
    assert!(err.contains(expect), "expected `{expect}` in: {err}");
    for bad in [
        "internal error",
        "panicked",
        "memory allocation",
        "TOP-SECRET",
    ] {
        assert!(!err.contains(bad), "{bad}: {err}");
    }
    assert!(err.len() < 4000, "one clear message, not a flood: {err}");
    err
}

fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// A file outside every game folder, holding a line that must never be shown.
fn secret(dir: &Path) -> PathBuf {
    let path = dir.join("outside-secret.toml");
    std::fs::write(&path, "TOP-SECRET = 1\n").unwrap();
    path
}

/// A game whose one script requires module `util` (`util.lua` at the top of the folder).
fn module_game(dir: &Path) -> PathBuf {
    let game = dir.join("game");
    std::fs::create_dir_all(game.join("scripts")).unwrap();
    std::fs::write(
        game.join("game.toml"),
        "name = \"x\"\n[scripts]\nfiles = [\"scripts/main.lua\"]\n[levels.main]\n",
    )
    .unwrap();
    std::fs::write(
        game.join("scripts/main.lua"),
        "local util = require(\"util\")\n",
    )
    .unwrap();
    game
}

#[cfg(unix)]
#[test]
fn content_files_linked_out_of_the_folder_or_special_are_refused() {
    let dir = scratch("hostile", "content");
    let outside = secret(&dir);
    let game = dir.join("game");
    std::fs::create_dir_all(game.join("levels")).unwrap();
    std::fs::write(
        game.join("game.toml"),
        "name = \"x\"\nlevel_files = [\"levels/a.toml\"]\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(&outside, game.join("levels/a.toml")).unwrap();
    let o = bounded(ludus().arg("check").arg(&game), 30);
    fails(
        &o,
        1,
        "cannot read level file `levels/a.toml`: it is a symbolic link to a file outside the game folder",
    );

    std::fs::remove_file(game.join("levels/a.toml")).unwrap();
    mkfifo(&game.join("levels/a.toml"));
    let o = bounded(ludus().arg("check").arg(&game), 30);
    fails(&o, 1, "it is a named pipe (FIFO), not a regular file");

    std::fs::remove_file(game.join("levels/a.toml")).unwrap();
    let f = std::fs::File::create(game.join("levels/a.toml")).unwrap();
    f.set_len(50 * 1024 * 1024).unwrap();
    let o = bounded(ludus().arg("sim").arg(&game), 30);
    fails(
        &o,
        1,
        "`levels/a.toml` is too large (50 MiB); content files may be at most 8 MiB",
    );
}

#[cfg(unix)]
#[test]
fn required_modules_linked_out_special_or_oversized_are_refused() {
    let dir = scratch("hostile", "modules");
    let outside = dir.join("outside.lua");
    std::fs::write(&outside, "error(\"TOP-SECRET\")\n").unwrap();
    let game = module_game(&dir);
    // The working module loads.
    std::fs::write(game.join("util.lua"), "return {}\n").unwrap();
    let o = bounded(ludus().arg("check").arg(&game), 30);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    std::fs::remove_file(game.join("util.lua")).unwrap();
    std::os::unix::fs::symlink(&outside, game.join("util.lua")).unwrap();
    let o = bounded(ludus().arg("check").arg(&game), 30);
    fails(&o, 1, "no module `util` could be read\n");
    fails(
        &o,
        1,
        "`util.lua` (it is a symbolic link to a file outside the game folder)",
    );

    std::fs::remove_file(game.join("util.lua")).unwrap();
    mkfifo(&game.join("util.lua"));
    let o = bounded(ludus().arg("check").arg(&game), 30);
    fails(
        &o,
        1,
        "`util.lua` (it is a named pipe (FIFO), not a regular file)",
    );

    std::fs::remove_file(game.join("util.lua")).unwrap();
    std::fs::File::create(game.join("util.lua"))
        .unwrap()
        .set_len(1 << 32)
        .unwrap();
    let o = bounded(ludus().args(["sim", "--ticks", "5"]).arg(&game), 30);
    fails(
        &o,
        1,
        "util.lua: it is too large (4 GiB); modules may be at most 8 MiB",
    );
}

#[test]
fn oversized_and_endless_input_files_are_refused() {
    let dir = scratch("hostile", "inputs");
    let big = dir.join("big.jsonl");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(100 * 1024 * 1024)
        .unwrap();
    for option in ["--input", "--frames"] {
        let o = bounded(ludus().args(["sim", option]).arg(&big), 30);
        fails(&o, 1, "it is too large (100 MiB); the limit is 64 MiB");
    }
    let o = bounded(ludus().args(["sim", "--input", "/dev/zero"]), 30);
    fails(&o, 1, "/dev/zero:1: the line is longer than 64 KiB");
    let o = bounded(ludus().args(["sim", "--frames"]).arg(&dir), 30);
    fails(&o, 1, "it is a folder, not a regular file");
    let o = bounded(
        ludus()
            .args(["sim", "--input"])
            .arg(dir.join("missing.jsonl")),
        30,
    );
    fails(&o, 1, "file not found");
}

#[cfg(unix)]
#[test]
fn a_stream_of_input_stops_at_the_size_limit() {
    // Lines of 1000 spaces, forever, through a pipe: read as they come, up to 64 MiB.
    let o = bounded(
        Command::new("sh")
            .arg("-c")
            .arg("yes \"$(printf '%1000s' '')\" | exec \"$0\" sim --input /dev/stdin")
            .arg(env!("CARGO_BIN_EXE_ludus")),
        120,
    );
    fails(
        &o,
        1,
        "it is too large (more than 64 MiB); the limit is 64 MiB",
    );
}

#[test]
fn duplicate_keys_and_huge_numbers_in_frames_are_named() {
    let dir = scratch("hostile", "frames");
    let cases = [
        (
            "{\"dt_ms\":0}\n{\"dt_ms\":16,\"press\":[\"fire\"],\"press\":[]}\n",
            "frames.jsonl:2:",
            "duplicate key `press`",
        ),
        (
            "{\"dt_ms\":0,\"axis\":{\"move_x\":1,\"move_x\":-1}}\n",
            "frames.jsonl:1:",
            "duplicate key `move_x`",
        ),
        (
            "{\"dt_ms\":1e308}\n",
            "frames.jsonl:1:",
            "`dt_ms` 1e308 is more than an hour",
        ),
    ];
    for (text, at, expect) in cases {
        let path = dir.join("frames.jsonl");
        std::fs::write(&path, text).unwrap();
        let o = bounded(ludus().args(["sim", "--frames"]).arg(&path), 30);
        let err = fails(&o, 1, expect);
        assert!(err.contains(at), "{err}");
        assert!(!err.contains("0000000000"), "no 309-digit numbers: {err}");
    }
}

/// A short recording of the example with its decoded form.
fn recording(dir: &Path) -> (PathBuf, Recording) {
    let rec = dir.join("run.rec");
    let o = bounded(
        ludus()
            .args(["sim", "--ticks", "120", "--record"])
            .arg(&rec)
            .arg(example()),
        120,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let decoded = Recording::from_bytes(&std::fs::read(&rec).unwrap()).unwrap();
    (rec, decoded)
}

fn replay(path: &Path) -> Output {
    bounded(ludus().arg("replay").arg(path), 120)
}

#[test]
fn crafted_recordings_with_a_valid_checksum_are_refused_with_a_message() {
    let dir = scratch("hostile", "crafted");
    let (_, rec) = recording(&dir);
    let bad_field = FlowField {
        origin: Vec2::new(0.0, 0.0),
        cell: 32.0,
        cols: 40,
        rows: 30,
        goal: (1, 1),
        dirs: Vec::new(),
    };
    type Craft = Box<dyn Fn(&mut Recording)>;
    let cases: Vec<(&str, Craft, &str)> = vec![
        (
            "empty-field",
            Box::new(move |r: &mut Recording| {
                r.segments[0].ticks[4].completions = vec![Completion {
                    id: RequestId(1),
                    world: WorldId(1),
                    target: None,
                    revision: 1,
                    status: JobStatus::Done(JobOutput::FlowField(bad_field.clone())),
                }]
            }),
            "segment 1, tick 5: request 1: a flow field of 40 x 30 cells with 0 directions",
        ),
        (
            "nan-axis",
            Box::new(|r: &mut Recording| r.segments[0].ticks[2].input.axes = vec![f32::NAN]),
            "segment 1, tick 3: axis value NaN",
        ),
        (
            "undeclared-action",
            Box::new(|r: &mut Recording| r.segments[0].ticks[2].input.held = 1 << 40),
            "segment 1, tick 3: the input uses action number 41",
        ),
        (
            "entities",
            Box::new(|r: &mut Recording| r.header.entities = u32::MAX),
            "the recording adds 4294967295 stress entities, more than the game's limit",
        ),
        (
            "rebuilds",
            Box::new(|r: &mut Recording| {
                r.header.entities = 250_000;
                let first = r.segments[0].clone();
                r.segments = vec![first; 500];
            }),
            "its 500 level activations would build",
        ),
        (
            "level",
            Box::new(|r: &mut Recording| {
                r.segments.push(Segment {
                    level: "nowhere".into(),
                    switched: false,
                    ticks: Vec::new(),
                })
            }),
            "segment 2 is level `nowhere`, which the game does not declare",
        ),
    ];
    for (name, craft, expect) in cases {
        let mut r = rec.clone();
        craft(&mut r);
        let path = dir.join(format!("{name}.rec"));
        std::fs::write(&path, r.to_bytes()).unwrap();
        fails(&replay(&path), 1, expect);
    }
}

/// A recording of `segments` empty segments: three bytes each on disk (an empty level name,
/// not switched, no ticks), 56 once decoded.
fn amplifying(dir: &Path, segments: u64) -> PathBuf {
    let (_, rec) = recording(dir);
    let bare = Recording {
        header: rec.header,
        segments: Vec::new(),
        fault: None,
        saved: SaveStore::default(),
    };
    let bytes = bare.to_bytes();
    // Without the checksum, the segment count 0, the absent fault and the empty saved data.
    let mut payload = bytes[20..bytes.len() - 11].to_vec();
    let mut n = segments;
    while n >= 0x80 {
        payload.push((n & 0x7f) as u8 | 0x80);
        n >>= 7;
    }
    payload.push(n as u8);
    // The segments, then no fault and no saved data.
    payload.resize(payload.len() + 3 * segments as usize + 2, 0);
    let mut file = Vec::new();
    file.extend_from_slice(&MAGIC);
    file.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    file.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    file.extend_from_slice(&payload);
    file.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(&payload).to_le_bytes());
    let path = dir.join("amplifying.rec");
    std::fs::write(&path, file).unwrap();
    path
}

#[test]
fn oversized_recordings_are_refused() {
    let dir = scratch("hostile", "big-rec");
    let big = dir.join("big.rec");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(200 * 1024 * 1024)
        .unwrap();
    fails(
        &replay(&big),
        1,
        "it is too large (200 MiB); the limit is 128 MiB",
    );
    #[cfg(unix)]
    {
        fails(&replay(Path::new("/dev/zero")), 1, "not a Ludus recording");
        // The magic bytes, then zeros without end, through a pipe: read up to the limit.
        let o = bounded(
            Command::new("sh")
                .arg("-c")
                .arg("(printf LUDUSREC; cat /dev/zero) | exec \"$0\" replay /dev/stdin")
                .arg(env!("CARGO_BIN_EXE_ludus")),
            120,
        );
        fails(
            &o,
            1,
            "it is too large (more than 128 MiB); the limit is 128 MiB",
        );
    }
}

/// The worst cases under a 2 GB address-space limit: each is a clean error, never an abort.
#[cfg(target_os = "linux")]
#[test]
fn the_worst_cases_end_cleanly_under_a_memory_limit() {
    let dir = scratch("hostile", "ulimit");
    let amplifying = amplifying(&dir, 12_000_000);
    let limited = |args: &[&str]| {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg("ulimit -v 2000000; exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_ludus"))
            .args(args);
        bounded(&mut cmd, 300)
    };
    let rec = amplifying.display().to_string();
    fails(
        &limited(&["replay", &rec]),
        1,
        "it would take more than 512 MiB of memory once decoded",
    );
    let mut endless = Command::new("sh");
    endless
        .arg("-c")
        .arg("ulimit -v 2000000; (printf LUDUSREC; cat /dev/zero) | exec \"$0\" replay /dev/stdin")
        .arg(env!("CARGO_BIN_EXE_ludus"));
    fails(
        &bounded(&mut endless, 300),
        1,
        "it is too large (more than 128 MiB)",
    );
    fails(
        &limited(&["sim", "--input", "/dev/zero"]),
        1,
        "line is longer than 64 KiB",
    );
    fails(&limited(&["sim", "--threads", "100000"]), 2, "--threads");
    fails(&limited(&["bench", "--ticks", "4294967295"]), 2, "--ticks");
    fails(&limited(&["bench", "--budget-ms", "inf"]), 2, "--budget-ms");
}

#[test]
fn numeric_options_out_of_range_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["sim", "--threads", "100000"], "1..=64"),
        (&["sim", "--threads", "0"], "--threads"),
        (&["sim", "--ticks", "0"], "--ticks"),
        (&["sim", "--ticks", "18446744073709551615"], "--ticks"),
        (&["sim", "--ticks=-5"], "--ticks"),
        (&["sim", "--entities", "4294967295"], "--entities"),
        (&["bench", "--ticks", "4294967295"], "--ticks"),
        (&["bench", "--ticks", "0"], "--ticks"),
        (&["bench", "--warmup", "1000000"], "--warmup"),
        (&["bench", "--from", "0"], "--from"),
        (&["bench", "--to", "5000000"], "--to"),
        (&["bench", "--budget-ms", "inf"], "--budget-ms"),
        (&["bench", "--budget-ms", "NaN"], "--budget-ms"),
        (&["bench", "--budget-ms=-1"], "--budget-ms"),
        (&["bench", "--budget-ms", "0"], "--budget-ms"),
        (&["bench", "--budget-ms", "1e308"], "--budget-ms"),
        (
            &["bench", "--from", "2000", "--to", "1000"],
            "--from (2000) <= --to (1000)",
        ),
        (&["run", "--fps-cap", "100000"], "--fps-cap"),
        (&["run", "--frames-max", "0"], "--frames-max"),
        (&["run", "--entities", "99999999"], "--entities"),
        (&["serve", ".", "--port", "70000"], "--port"),
    ];
    for (args, expect) in cases {
        let o = bounded(ludus().args(*args), 30);
        let err = fails(&o, 2, expect);
        assert!(
            err.starts_with("error: invalid value") || err.starts_with("ludus: "),
            "{args:?}: the message says what is wrong: {err}"
        );
    }
    // In range, the thread pool runs.
    let o = bounded(ludus().args(["sim", "--ticks", "60", "--threads", "4"]), 60);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
