//! What the end-to-end tests share: the binary, the bundled examples, scratch folders, and a
//! window run under Xvfb with its screenshot; `cli` holds what the command-line tests add.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::Command;

pub mod cli;

pub fn ludus() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
}

/// The bundled example `name`.
pub fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
}

/// A fresh, empty folder `ludus-EXAMPLE-NAME-…` for one test of one example, removed with all
/// it holds when the returned guard drops: at the end of the test, passed or failed (a panic
/// unwinds through it), so repeated runs do not fill the disk. Keep the guard in a named
/// variable (`let dir = …`, never `let _ = …`) while the folder is used, by this test or by a
/// program it started; a path taken from a temporary (`scratch(…).join(…)`) outlives its
/// folder. Only a run killed outright (SIGKILL) can leave one behind.
pub fn scratch(example: &str, name: &str) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix(&format!("ludus-{example}-{name}-"))
        .tempdir()
        .unwrap();
    Scratch(dir)
}

/// A scratch folder, removed when dropped. It derefs to its path, so `dir.join(…)` and `&dir`
/// read as they did when scratch folders were plain paths.
pub struct Scratch(tempfile::TempDir);

impl Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self
    }
}

/// For `Command::arg(&dir)`.
impl AsRef<OsStr> for Scratch {
    fn as_ref(&self) -> &OsStr {
        self.0.path().as_os_str()
    }
}

/// Copies the folder `from` (an example) to `to`, subfolders included.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let (path, target) = (entry.path(), to.join(entry.file_name()));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// Whether xvfb-run is here; where CI requires window tests (`LUDUS_REQUIRE_WINDOW_TESTS`),
/// its absence fails the test.
pub fn xvfb_available() -> bool {
    let found = Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success());
    let required = std::env::var_os("LUDUS_REQUIRE_WINDOW_TESTS").is_some();
    assert!(
        found || !required,
        "xvfb-run is required (LUDUS_REQUIRE_WINDOW_TESTS is set)"
    );
    if !found {
        eprintln!("window test skipped: xvfb-run is not installed (apt-get install xvfb xauth)");
    }
    found
}

/// `xvfb-run` on a screen of `screen` (`WIDTHxHEIGHT`), its X authority file in `dir`: with
/// its own temporary folder, xvfb-run now and then failed to remove that folder after the
/// program had ended and exited 5 in place of the program's code.
pub fn xvfb(screen: &str, dir: &Path) -> Command {
    let mut cmd = Command::new("xvfb-run");
    cmd.arg("-a")
        .arg("-f")
        .arg(dir.join("Xauthority"))
        .args(["-s", &format!("-screen 0 {screen}x24")]);
    cmd
}

/// Counts RGBA pixels within `tol` of a colour.
pub fn count(px: &[u8], rgb: [u8; 3], tol: i32) -> usize {
    px.chunks(4)
        .filter(|p| (0..3).all(|i| (p[i] as i32 - rgb[i] as i32).abs() <= tol))
        .count()
}

/// The last frame of a window run: RGBA pixels, row by row.
pub struct Frame {
    pub px: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// Plays `game` in a real 1024 x 768 window under Xvfb, one frame per line of `script` (the
/// `--script` format), at most `fps_cap` frames a second when given, without sound or file
/// watching, and returns its last frame. The files go in `dir`, which is also the data folder
/// (`XDG_DATA_HOME`) where the game's saved data is kept.
pub fn window_frame(game: &Path, dir: &Path, script: &str, fps_cap: Option<u32>) -> Frame {
    let ludus = Path::new(env!("CARGO_BIN_EXE_ludus"));
    program_frame(ludus, Some(game), dir, script, fps_cap)
}

/// As [`window_frame`], with `program` as the `ludus` binary (an exported game's executable)
/// and its own game when `game` is `None`.
pub fn program_frame(
    program: &Path,
    game: Option<&Path>,
    dir: &Path,
    script: &str,
    fps_cap: Option<u32>,
) -> Frame {
    let frame = sized_frame(program, game, dir, script, fps_cap);
    assert_eq!((frame.width, frame.height), (1024, 768));
    frame
}

/// As [`program_frame`], for a game whose window is not 1024 x 768: the frame is the size the
/// game's `[window]` asks for.
pub fn sized_frame(
    program: &Path,
    game: Option<&Path>,
    dir: &Path,
    script: &str,
    fps_cap: Option<u32>,
) -> Frame {
    let (shot, path) = (dir.join("shot.png"), dir.join("script.jsonl"));
    std::fs::write(&path, script).unwrap();
    let frames = script.lines().count().to_string();
    let mut cmd = xvfb("1024x768", dir);
    cmd.arg(program)
        .arg("run")
        .args(game)
        .args(["--frames-max", &frames]);
    if let Some(fps) = fps_cap {
        cmd.args(["--fps-cap", &fps.to_string()]);
    }
    let o = cmd
        .args(["--no-watch", "--script"])
        .arg(&path)
        .arg("--screenshot")
        .arg(&shot)
        .env("LUDUS_NO_AUDIO", "1")
        .env("XDG_DATA_HOME", dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "the app exits cleanly: {err}");
    let bytes = std::fs::read(&shot).expect("the app wrote its frame");
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut px = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut px).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba, "4 bytes a pixel");
    px.truncate(info.buffer_size());
    Frame {
        px,
        width: info.width,
        height: info.height,
    }
}

/// `ludus replay RECORDING` succeeds and says `expected` (its summary line).
pub fn assert_replays(recording: &Path, expected: &str) {
    let o = ludus().arg("replay").arg(recording).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains(expected), "{out}");
}

/// Runs `cmd` to its end, which must come within `secs` seconds, with stdin empty; fails the
/// test (killing the process) otherwise.
pub fn bounded(cmd: &mut Command, secs: u64) -> std::process::Output {
    use std::io::Read;
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
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
    std::process::Output {
        status,
        stdout: read_out.join().unwrap(),
        stderr: read_err.join().unwrap(),
    }
}

/// `ludus ARGS` under a 2 GB address-space limit (where the shell can set one), within
/// `secs` seconds.
pub fn limited(args: &[&std::ffi::OsStr], secs: u64) -> std::process::Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -v 2000000 2>/dev/null; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_ludus"))
        .args(args);
    bounded(&mut cmd, secs)
}

/// The process ended by itself (not by a signal such as an abort), with `code`.
#[track_caller]
pub fn ended_with(o: &std::process::Output, code: i32) {
    let err = String::from_utf8_lossy(&o.stderr);
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(o.status.signal(), None, "killed by a signal: {err}");
    }
    assert!(!err.contains("panicked"), "a panic: {err}");
    assert_eq!(o.status.code(), Some(code), "{err}");
}
