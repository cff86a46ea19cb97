//! `ludus export desktop`: one executable that carries a game. Exported from the breakout
//! example, it simulates its recorded win exactly as the folder does, records what
//! `ludus replay` replays against the folder, draws the game in a window under Xvfb with no
//! folder named, and refuses a damaged copy of itself; a game with errors is not exported.
//! `ludus export web` writes a runtime, a page that starts the bundle, and the bundle.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::{Scratch, example, ludus, program_frame, scratch, xvfb_available};

/// Exports the breakout example into a fresh folder; returns the folder (removed when its guard
/// drops) and the executable.
fn exported(name: &str) -> (Scratch, PathBuf) {
    let dir = scratch("export", name);
    let o = ludus()
        .args(["export", "desktop"])
        .arg(example("breakout"))
        .arg(&dir)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    let exe = dir.join("breakout");
    assert!(out.contains("exported to"), "{out}");
    assert!(exe.is_file(), "the executable is named after the game");
    (dir, exe)
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `sim --ticks 20000 --input win.jsonl` of `program` (`game`: a folder, or its own game).
fn win(program: &Path, game: Option<&Path>, extra: &[&str]) -> serde_json::Value {
    let o = Command::new(program)
        .arg("sim")
        .args(game)
        .args(["--ticks", "20000", "--input"])
        .arg(example("breakout").join("tests/win.jsonl"))
        .args(extra)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    serde_json::from_str(out.trim()).unwrap()
}

#[test]
fn an_exported_game_plays_its_recorded_win_like_its_folder() {
    let (dir, exe) = exported("win");
    let folder = win(
        Path::new(env!("CARGO_BIN_EXE_ludus")),
        Some(&example("breakout")),
        &[],
    );
    let rec = dir.join("win.ludusrec");
    let carried = win(&exe, None, &["--record", rec.to_str().unwrap()]);
    assert_eq!(carried["hash"], folder["hash"]);
    assert_eq!(carried["ticks"], folder["ticks"]);
    assert_eq!(carried["vars"], folder["vars"]);
    assert_eq!(carried["score"], folder["score"]);
    assert_eq!(carried["game_over"]["message"], "YOU WIN", "{carried}");
    // What the exported game recorded replays, tick by tick, against the game folder.
    let o = ludus()
        .arg("replay")
        .arg(&rec)
        .arg("--game")
        .arg(example("breakout"))
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(
        out.contains("replayed 5314 ticks of Breakout: every state hash matches"),
        "{out}"
    );
}

#[test]
fn a_damaged_export_is_refused_with_a_reason() {
    let (dir, exe) = exported("damaged");
    let mut bytes = std::fs::read(&exe).unwrap();
    // A byte of the last file packed (inside the bundle, before the checksum and trailer).
    let at = bytes.len() - 16 - 8 - 4;
    bytes[at] ^= 0x55;
    let bad = dir.join("damaged");
    std::fs::write(&bad, &bytes).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&bad, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let o = Command::new(&bad)
        .args(["sim", "--ticks", "5"])
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        err.contains("the game bundle is damaged (its checksum does not match)"),
        "{err}"
    );
    // Exporting from an exported game packs the new game only.
    let again = dir.join("again");
    let o = Command::new(&exe)
        .args(["export", "desktop"])
        .arg(example("swarm"))
        .arg(&again)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let o = Command::new(&again)
        .args(["sim", "--ticks", "30"])
        .output()
        .unwrap();
    let o2 = ludus()
        .arg("sim")
        .arg(example("swarm"))
        .args(["--ticks", "30"])
        .output()
        .unwrap();
    let hash = |o: &Output| {
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["hash"].clone()
    };
    assert_eq!(hash(&o), hash(&o2));
    // As large as the same game exported by `ludus` itself: the breakout is not carried along.
    let fresh = dir.join("fresh");
    let o = ludus()
        .args(["export", "desktop"])
        .arg(example("swarm"))
        .arg(&fresh)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let size = |p: &Path| std::fs::metadata(p).unwrap().len();
    assert_eq!(size(&again), size(&fresh));
}

#[test]
fn a_game_with_errors_is_not_exported() {
    let dir = scratch("export", "broken");
    let game = dir.join("broken");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(game.join("game.toml"), "[game\nname = \"x\"\n").unwrap();
    let out = dir.join("out");
    let o = ludus()
        .args(["export", "desktop"])
        .arg(&game)
        .arg(&out)
        .output()
        .unwrap();
    let (stdout, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{stdout}{err}");
    assert!(err.contains("game.toml:1:"), "a located diagnostic: {err}");
    assert!(err.contains("not exported"), "{err}");
    assert!(!out.exists(), "nothing written");
}

/// The exported breakout, with no folder named, opens its window and draws its court: the
/// frame after 30 frames shows the four rows of bricks.
#[test]
fn an_exported_game_draws_its_own_window_under_xvfb() {
    if !xvfb_available() {
        return;
    }
    let (dir, exe) = exported("window");
    let lines = "{}\n".repeat(30);
    let frame = program_frame(&exe, None, &dir, &lines, Some(60));
    let near = |rgb: [u8; 3]| support::count(&frame.px, rgb, 3);
    for (name, rgb) in [
        ("red", [0xef, 0x47, 0x6f]),
        ("orange", [0xf7, 0x8c, 0x6b]),
        ("green", [0x06, 0xd6, 0xa0]),
        ("yellow", [0xff, 0xd1, 0x66]),
    ] {
        let n = near(rgb);
        assert!((12_000..16_500).contains(&n), "a row of {name} bricks: {n}");
    }
}

/// `ludus export web` writes the runtime it is given, a page that starts the bundle, and the
/// bundle; without a runtime it says how to make one. (The browser test runs such sites.)
#[test]
fn a_web_export_is_the_runtime_a_page_and_the_bundle() {
    let dir = scratch("export", "web");
    let runtime = dir.join("runtime");
    std::fs::create_dir_all(&runtime).unwrap();
    let page = "<body><script src=\"ludus.js\"></script><script>load(\"ludus.wasm\");</script>";
    std::fs::write(runtime.join("index.html"), page).unwrap();
    for name in ["ludus.wasm", "gl.js", "audio.js", "ludus.js"] {
        std::fs::write(runtime.join(name), format!("{name} of the runtime")).unwrap();
    }
    let site = dir.join("site");
    let o = ludus()
        .args(["export", "web"])
        .arg(example("breakout"))
        .arg(&site)
        .arg("--runtime")
        .arg(&runtime)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    for name in ["ludus.wasm", "gl.js", "audio.js", "ludus.js"] {
        let copied = std::fs::read_to_string(site.join(name)).unwrap();
        assert_eq!(copied, format!("{name} of the runtime"));
    }
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("ludus_start(\"ludus.wasm\", \"game.ludus\");") && !index.contains("load("),
        "{index}"
    );
    let bundle = std::fs::read(site.join("game.ludus")).unwrap();
    assert!(bundle.starts_with(b"LUDUSBUN"), "the bundle");
    assert!(bundle.windows(9).any(|w| w == b"game.toml"));

    // No runtime where it looks: what to do instead.
    let o = ludus()
        .args(["export", "web"])
        .arg(example("breakout"))
        .arg(dir.join("site2"))
        .env("LUDUS_WEB_RUNTIME", dir.join("nowhere"))
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        err.contains("no browser runtime for Ludus")
            && err.contains("web/build.sh examples/swarm")
            && err.contains("--runtime"),
        "{err}"
    );
    assert!(!dir.join("site2").exists(), "nothing written");
}

/// `ludus serve GAME_DIR` needs a browser runtime; without one it says how to make one. (The
/// browser test serves a game folder live and edits it.)
#[test]
fn serving_a_game_folder_without_a_runtime_says_what_to_do() {
    let dir = scratch("export", "serve");
    let o = ludus()
        .arg("serve")
        .arg(example("breakout"))
        .args(["--port", "0", "--runtime"])
        .arg(dir.join("nowhere"))
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        err.contains("no browser runtime for Ludus") && err.contains("web/build.sh examples/swarm"),
        "{err}"
    );
}

/// A fake browser runtime in `dir/runtime` (the export copies it; nothing runs it).
fn fake_runtime(dir: &Path) -> PathBuf {
    let runtime = dir.join("runtime");
    std::fs::create_dir_all(&runtime).unwrap();
    let page = "<body><script>load(\"ludus.wasm\");</script>";
    std::fs::write(runtime.join("index.html"), page).unwrap();
    for name in ["ludus.wasm", "gl.js", "audio.js", "ludus.js"] {
        std::fs::write(runtime.join(name), name).unwrap();
    }
    runtime
}

/// `[export] exclude` and the defaults (hidden files, `recordings/`, a failed test's files)
/// leave files out of the bundle; the export lists each file packed with its size, and what
/// was left out; a pattern that leaves out a file the game reads stops the export.
#[test]
fn an_export_leaves_out_what_it_excludes_and_lists_what_it_packed() {
    let dir = scratch("export", "exclude");
    let game = dir.join("game");
    let o = ludus().arg("new").arg(&game).output().unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let toml = std::fs::read_to_string(game.join("game.toml")).unwrap();
    let with = |exclude: &str| format!("{toml}\n[export]\nexclude = [{exclude}]\n");
    std::fs::write(game.join("game.toml"), with("\"*.png.bak\", \"shots/\"")).unwrap();
    // (path, bytes, packed)
    let files = [
        ("shots/big.png", 2048, false),
        ("shots/deep/more.png", 10, false),
        ("hero.png.bak", 300, false),
        ("recordings/run.ludusrec", 5, false),
        ("tests/win.failed.ludusrec", 7, false),
        (".notes", 3, false),
        ("tests/win.jsonl", 12, true),
        ("README.txt", 1500, true),
    ];
    for (path, len, _) in files {
        let path = game.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, vec![b'x'; len]).unwrap();
    }
    let runtime = fake_runtime(&dir);
    let export = |site: &str| {
        ludus()
            .args(["export", "web"])
            .arg(&game)
            .arg(dir.join(site))
            .arg("--runtime")
            .arg(&runtime)
            .output()
            .unwrap()
    };
    let o = export("site");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    let left_out: Vec<&str> = out.lines().filter(|l| l.contains("left out:")).collect();
    assert_eq!(
        left_out,
        [
            "  left out: hero.png.bak (300 B)",
            "  left out: recordings/run.ludusrec (5 B)",
            "  left out: shots/big.png (2.0 KiB)",
            "  left out: shots/deep/more.png (10 B)",
            "  left out: tests/win.failed.ludusrec (7 B)",
        ],
        "{out}"
    );
    let listed = |path: &str| out.lines().any(|l| l.ends_with(&format!("  {path}")));
    assert!(listed("game.toml") && listed("scripts/main.lua"), "{out}");
    assert!(
        out.contains("    1.5 KiB  README.txt\n") && out.contains("       12 B  tests/win.jsonl\n"),
        "each packed file with its size: {out}"
    );
    let bundle = std::fs::read(dir.join("site/game.ludus")).unwrap();
    let holds = |path: &str| bundle.windows(path.len()).any(|w| w == path.as_bytes());
    for (path, _, packed) in files {
        assert_eq!(holds(path), packed, "{path} in the bundle");
    }

    // Leaving out a file the game reads would make a bundle that does not load.
    std::fs::write(game.join("game.toml"), with("\"scripts/\"")).unwrap();
    let o = export("site2");
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        err.contains("`[export] exclude` leaves out scripts/main.lua, which the game reads"),
        "{err}"
    );

    // A module is read only when a script requires it: any Lua file counts as read.
    std::fs::create_dir_all(game.join("scripts/lib")).unwrap();
    std::fs::write(game.join("scripts/lib/util.lua"), "return {}\n").unwrap();
    std::fs::write(game.join("game.toml"), with("\"scripts/lib/\"")).unwrap();
    let o = export("site3");
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        err.contains(
            "`[export] exclude` leaves out scripts/lib/util.lua, a Lua file a script may `require`"
        ),
        "{err}"
    );
}
