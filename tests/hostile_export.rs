//! `ludus export` pointed at its own game and at links: an export never writes into the game
//! folder (an output there, or reached through a link, is refused before anything is done),
//! never writes through a link at its destination (the link is replaced), never reads through
//! a link out of the folder, and leaves out, with a warning naming it, a file it cannot pack
//! (a name that is not UTF-8, a link to a folder, a pipe) instead of failing.
#![cfg(unix)]

mod support;

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Output;
use support::{Scratch, bounded, ended_with, ludus, scratch};

/// A new game (`ludus new`) in a fresh folder for test `name`: (the folder, removed when its
/// guard drops; the game).
fn game(name: &str) -> (Scratch, PathBuf) {
    let dir = scratch("hostile-export", name);
    let game = dir.join("game");
    let o = ludus().arg("new").arg(&game).output().unwrap();
    assert!(o.status.success(), "{o:?}");
    (dir, game)
}

/// A browser runtime as `web/build.sh` leaves one (its files' contents made up).
fn runtime(dir: &Path) -> PathBuf {
    let runtime = dir.join("runtime");
    std::fs::create_dir_all(&runtime).unwrap();
    let page = "<script>load(\"ludus.wasm\");</script>";
    std::fs::write(runtime.join("index.html"), page).unwrap();
    for name in ["ludus.wasm", "gl.js", "audio.js", "ludus.js"] {
        std::fs::write(runtime.join(name), name).unwrap();
    }
    runtime
}

fn export(args: &[&Path]) -> Output {
    let mut cmd = ludus();
    cmd.arg("export");
    for a in args {
        cmd.arg(a);
    }
    bounded(&mut cmd, 120)
}

/// Every file under `dir` (following no link) with its bytes, sorted.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                folders.push(entry.path());
            } else if kind.is_file() {
                out.push((entry.path(), std::fs::read(entry.path()).unwrap()));
            } else {
                out.push((entry.path(), Vec::new()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn an_output_in_the_game_folder_is_refused_and_nothing_is_written() {
    let (dir, game) = game("inside");
    symlink(game.join("levels"), dir.join("into-levels")).unwrap();
    symlink(&game, dir.join("into-game")).unwrap();
    let before = snapshot(&game);
    let desktop = Path::new("desktop");
    let web = Path::new("web");
    let runtime = runtime(&dir);
    let refused: Vec<(&str, Vec<PathBuf>)> = vec![
        ("the game's own file", vec![game.join("game.toml")]),
        ("the game folder", vec![game.clone()]),
        ("a new file in it", vec![game.join("levels/game")]),
        ("through `..`", vec![game.join("scripts/../game.toml")]),
        ("a link to a folder in it", vec![dir.join("into-levels/x")]),
        ("a link to it", vec![dir.join("into-game")]),
    ];
    for (what, outs) in &refused {
        for out in outs {
            let o = export(&[desktop, &game, out]);
            ended_with(&o, 1);
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                err.contains("is inside the game folder") && err.contains("not exported"),
                "desktop, {what}: {err}"
            );
        }
    }
    for (what, out) in [
        ("the game folder", game.clone()),
        ("a new folder in it", game.join("site/deeper")),
        ("a link to it", dir.join("into-game")),
        ("through a link and `..`", dir.join("into-levels/../site")),
    ] {
        let o = export(&[web, &game, &out, Path::new("--runtime"), &runtime]);
        ended_with(&o, 1);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("is inside the game folder"),
            "web, {what}: {err}"
        );
    }
    let o = export(&[
        desktop,
        &game,
        Path::new(&format!("{}/", dir.join("nowhere").display())),
    ]);
    ended_with(&o, 1);
    assert!(String::from_utf8_lossy(&o.stderr).contains("nowhere/ is not a folder"));
    assert!(
        !dir.join("nowhere").exists(),
        "a path ending in `/` names a folder, not a file"
    );
    assert_eq!(snapshot(&game), before, "the game folder is as it was");
    // The runtime's own folder is not a site either: its page would be replaced.
    let o = export(&[web, &game, &runtime, Path::new("--runtime"), &runtime]);
    ended_with(&o, 1);
    assert!(String::from_utf8_lossy(&o.stderr).contains("the browser runtime's own folder"));
}

#[test]
fn a_link_at_the_destination_is_replaced_not_followed() {
    let (dir, game) = game("links-out");
    let toml = std::fs::read(game.join("game.toml")).unwrap();
    // Links outside the game folder that point at its files.
    let exe = dir.join("game.exe");
    symlink(game.join("game.toml"), &exe).unwrap();
    let site = dir.join("site");
    std::fs::create_dir_all(&site).unwrap();
    symlink(game.join("game.toml"), site.join("ludus.js")).unwrap();
    let runtime = runtime(&dir);
    let o = export(&[Path::new("desktop"), &game, &exe]);
    ended_with(&o, 0);
    let o = export(&[
        Path::new("web"),
        &game,
        &site,
        Path::new("--runtime"),
        &runtime,
    ]);
    ended_with(&o, 0);
    assert_eq!(std::fs::read(game.join("game.toml")).unwrap(), toml);
    for (path, len) in [(&exe, None), (&site.join("ludus.js"), Some(8))] {
        let meta = std::fs::symlink_metadata(path).unwrap();
        assert!(meta.is_file(), "{path:?} is a file now, not a link");
        if let Some(len) = len {
            assert_eq!(meta.len(), len, "{path:?} holds the runtime's file");
        }
    }
    let leftovers: Vec<_> = snapshot(&dir)
        .into_iter()
        .filter(|(p, _)| p.to_string_lossy().ends_with(".part"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "no temporary file is left: {leftovers:?}"
    );
    // A destination that cannot be replaced (a folder) is an error, and is left as it was.
    let blocked = dir.join("blocked");
    std::fs::create_dir_all(blocked.join("game/inside")).unwrap();
    let o = export(&[Path::new("desktop"), &game, &blocked]);
    ended_with(&o, 1);
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot write"));
    assert_eq!(
        snapshot(&blocked),
        Vec::<(PathBuf, Vec<u8>)>::new(),
        "nothing is left in it"
    );
    assert!(blocked.join("game/inside").is_dir());
}

#[test]
fn files_an_export_cannot_pack_are_left_out_with_a_warning() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let (dir, game) = game("odd-files");
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, "SECRET-OUTSIDE").unwrap();
    std::fs::write(game.join(OsStr::from_bytes(b"bad\xffname.txt")), "x").unwrap();
    std::fs::create_dir_all(game.join(OsStr::from_bytes(b"dir\xfe"))).unwrap();
    std::fs::write(game.join("back\\slash.txt"), "x").unwrap();
    symlink(&secret, game.join("secret-link.txt")).unwrap();
    symlink(&dir, game.join("folder-link")).unwrap();
    symlink(game.join("game.toml"), game.join("inside-link.toml")).unwrap();
    let fifo = game.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let site = dir.join("site");
    let runtime = runtime(&dir);
    let o = export(&[
        Path::new("web"),
        &game,
        &site,
        Path::new("--runtime"),
        &runtime,
    ]);
    ended_with(&o, 0);
    let err = String::from_utf8_lossy(&o.stderr);
    let shown = game.display();
    let mut expect = vec![
        format!("warning: {shown}/back\\slash.txt left out: its name holds `\\`"),
        format!("warning: {shown}/bad\u{FFFD}name.txt left out: its name is not UTF-8 text"),
        format!("warning: {shown}/dir\u{FFFD} left out: its name is not UTF-8 text"),
        format!("warning: {shown}/folder-link left out: it is a link to a folder"),
        format!(
            "warning: {shown}/secret-link.txt left out: it is a symbolic link to a file outside"
        ),
    ];
    if made {
        let pipe = format!("warning: {shown}/pipe left out: it is a named pipe (FIFO)");
        expect.insert(4, pipe);
    }
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(warnings.len(), expect.len(), "{err}");
    for (line, start) in warnings.iter().zip(&expect) {
        assert!(
            line.starts_with(start.as_str()),
            "{line:?} starts {start:?}"
        );
    }
    let bundle = std::fs::read(site.join("game.ludus")).unwrap();
    let holds = |s: &[u8]| bundle.windows(s.len()).any(|w| w == s);
    assert!(
        holds(b"game.toml") && holds(b"inside-link.toml"),
        "the game's files"
    );
    assert!(!holds(b"SECRET-OUTSIDE"), "nothing read through a link out");
}
