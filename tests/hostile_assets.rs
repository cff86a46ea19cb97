//! Hostile images, sounds, fonts and tile maps in a game folder, end to end: `ludus check` and
//! `ludus sim` end each within a bounded time with one clear error naming the file, the limit
//! and what the file declares (exit 1), never a panic, an abort or memory without bound; one
//! 8 MiB file named by hundreds of declarations is read once. The worst cases run under a
//! memory limit. Every case runs the real binary in a fresh process.

#[path = "../decode/tests/support/files.rs"]
mod files;
#[path = "../decode/tests/support/fonts.rs"]
mod fonts;
mod support;

use files::*;
use fonts::*;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use support::Scratch;

/// A game folder `name` of `decls` (after its name) and `files`, removed when its guard drops.
fn game(name: &str, decls: &str, files: &[(&str, &[u8])]) -> Scratch {
    let dir = support::scratch("assets", name);
    let toml = format!("name = \"{name}\"\nlayers = [\"ground\"]\n{decls}\n[levels.main]\n");
    std::fs::write(dir.join("game.toml"), toml).unwrap();
    for (path, bytes) in files {
        std::fs::write(dir.join(path), bytes).unwrap();
    }
    dir
}

/// Runs `ludus ARGS GAME`, under `ulimit -v KB` when given; it must end within 120 s.
fn ludus(args: &[&str], game: &Path, ulimit_kb: Option<u64>) -> Output {
    let mut cmd = match ulimit_kb {
        Some(kb) => {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg(format!("ulimit -v {kb}; exec \"$0\" \"$@\""))
                .arg(env!("CARGO_BIN_EXE_ludus"));
            c
        }
        None => Command::new(env!("CARGO_BIN_EXE_ludus")),
    };
    cmd.args(args)
        .arg(game)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("ludus {args:?} {} did not end within 120 s", game.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// The process ended by itself with `code` and printed `expect` on stderr, nothing of a panic
/// or an abort, and not a flood.
#[track_caller]
fn ended(o: &Output, code: i32, expect: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(o.status.signal(), None, "killed by a signal: {err}");
    }
    assert_eq!(o.status.code(), Some(code), "{err}");
    assert!(err.contains(expect), "expected `{expect}` in: {err}");
    for bad in ["panicked", "memory allocation", "capacity overflow"] {
        assert!(!err.contains(bad), "{bad}: {err}");
    }
    assert!(err.len() < 4000, "one clear message, not a flood: {err}");
}

/// Each case: (name, declarations, files, the error `check` and `sim` give).
type Case = (
    &'static str,
    String,
    Vec<(&'static str, Vec<u8>)>,
    &'static str,
);

fn cases() -> Vec<Case> {
    let one = |decl: &str, file: &'static str, bytes: Vec<u8>| {
        (format!("{decl}\nfile = \"{file}\"\n"), vec![(file, bytes)])
    };
    let mut out: Vec<Case> = Vec::new();
    let mut add = |name, (decls, files): (String, Vec<(&'static str, Vec<u8>)>), expect| {
        out.push((name, decls, files, expect));
    };
    add(
        "png-30000",
        one("[images.big]", "big.png", png_declaring(30_000, 30_000)),
        "game.toml:4:8: error: image `big.png` is 30000x30000 pixels, larger than 4094x4094",
    );
    add(
        "ogg-first-report",
        one("[sounds.s]", "s.ogg", comment_bomb(false)),
        "error: sound file `s.ogg` cannot be played: its setup header is missing",
    );
    add(
        "ogg-codebooks",
        one("[sounds.s]", "s.ogg", codebook_bomb()),
        "its codebooks declare more than 262144 entries in all",
    );
    add(
        "wav-channels",
        one(
            "[sounds.s]",
            "s.wav",
            wav(1, 65_535, 44_100, 16, &[0; 8], Some(u32::MAX)),
        ),
        "65535 channels; sounds are mono or stereo",
    );
    add(
        "font-tower",
        one("[fonts.f]", "f.ttf", composite_tower()),
        "font file `f.ttf` cannot be read as a font: glyph 6 takes 72221 points to outline; at most 65536 are allowed",
    );
    add(
        "font-subroutines",
        one("[fonts.f]", "f.otf", cff_bomb()),
        "glyph 1 takes more than 65536 charstring steps to outline",
    );
    // Five different images declaring 4094 x 4094 pixels: 320 MiB decoded.
    let big = png_declaring(4094, 4094);
    let names = ["p0.png", "p1.png", "p2.png", "p3.png", "p4.png"];
    add(
        "images-total",
        (
            names
                .iter()
                .enumerate()
                .map(|(i, n)| format!("[images.i{i}]\nfile = \"{n}\"\n"))
                .collect(),
            names.iter().map(|n| (*n, big.clone())).collect(),
        ),
        "image `p4.png` (4094x4094 pixels) takes 64 MiB once decoded, which would bring the game's decoded images, sounds, fonts and tile maps to 320 MiB; they may take at most 256 MiB together",
    );
    // A CSV map of 4096 x 4096 cells in 12 KiB, used by three levels: 288 MiB decoded.
    let mut csv = ",".repeat(4095);
    csv.push('0');
    csv.push_str(&"\n0".repeat(4095));
    let mut decls = String::from(
        "[images.tiles]\nfile = \"t.png\"\n\
         [archetypes.wall]\ncollider = { shape = \"box\", size = 8, layer = \"ground\", body = \"static\" }\n",
    );
    for i in 0..3 {
        decls.push_str(&format!(
            "[levels.l{i}]\n[levels.l{i}.tilemap]\nimage = \"tiles\"\ncsv = \"map.csv\"\n"
        ));
    }
    add(
        "tilemap-total",
        (
            decls,
            vec![("map.csv", csv.into_bytes()), ("t.png", png(8, 8, 1))],
        ),
        "a tile map of 4096 x 4096 takes 96 MiB once decoded",
    );
    out
}

#[test]
fn files_declaring_huge_sizes_are_one_clear_error_in_check_and_sim() {
    for (name, decls, files, expect) in cases() {
        let files: Vec<(&str, &[u8])> = files.iter().map(|(p, b)| (*p, b.as_slice())).collect();
        let dir = game(name, &decls, &files);
        ended(&ludus(&["check"], &dir, None), 1, expect);
        ended(&ludus(&["sim", "--ticks", "2"], &dir, None), 1, expect);
    }
}

/// One file of 8 MiB of each kind named by hundreds of declarations, with an OGG file
/// declaring 2^32 comments: read once, well within the memory limit (each declaration read
/// anew took 2.4 GB of images alone).
fn many_declarations() -> Scratch {
    const MIB8: usize = 8 * 1024 * 1024;
    let mut decls = String::new();
    for i in 0..300 {
        decls.push_str(&format!("[images.i{i}]\nfile = \"big.png\"\n"));
        decls.push_str(&format!("[sounds.s{i}]\nfile = \"comments.ogg\"\n"));
        decls.push_str(&format!("[music.m{i}]\nfile = \"big.wav\"\n"));
        if i < 250 {
            decls.push_str(&format!(
                "[fonts.f{i}]\nfile = \"big.ttf\"\nsize = {}\n",
                8 + i % 40
            ));
        }
    }
    let wav_data = vec![0u8; MIB8 - 64];
    game(
        "many",
        &decls,
        &[
            ("big.png", &padded_png(MIB8)),
            ("big.ttf", &padded_font(MIB8)),
            ("big.wav", &wav(1, 2, 44_100, 16, &wav_data, None)),
            ("comments.ogg", &comment_bomb(true)),
        ],
    )
}

/// The worst cases under a 2 GB address-space limit: each ends cleanly, never in an abort.
#[cfg(target_os = "linux")]
#[test]
fn the_worst_cases_end_cleanly_under_a_memory_limit() {
    let limit = Some(2_000_000);
    let many = many_declarations();
    for args in [&["check"][..], &["sim", "--ticks", "30"]] {
        let o = ludus(args, &many, limit);
        ended(&o, 0, "");
    }
    for (name, decls, files, expect) in cases() {
        let files: Vec<(&str, &[u8])> = files.iter().map(|(p, b)| (*p, b.as_slice())).collect();
        let dir = game(&format!("limited-{name}"), &decls, &files);
        ended(&ludus(&["check"], &dir, limit), 1, expect);
    }
}
