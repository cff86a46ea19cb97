//! Hostile game folders on disk: a level or script that is a symbolic link out of the folder, a
//! named pipe, a folder, or a sparse file far past the size limit. Each is one diagnostic at
//! the string that names it, reached without opening (or waiting on) the file, and nothing of
//! a file outside the folder ever appears in a message.
#![cfg(unix)]

use ludus_content::{Diagnostics, DirSource, MAX_FILE_BYTES, ReadError, load_game, read_inside};
use std::path::Path;
use std::time::{Duration, Instant};
use tempfile::{NamedTempFile, TempDir};

/// A fresh folder `ludus-disk-NAME-…` with `levels` and `scripts` in it, removed when the
/// returned guard drops (at the test's end, passed or failed).
fn scratch(name: &str) -> TempDir {
    let dir = tempfile::Builder::new()
        .prefix(&format!("ludus-disk-{name}-"))
        .tempdir()
        .unwrap();
    std::fs::create_dir_all(dir.path().join("levels")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    dir
}

/// A game whose level is `levels/main.toml` and whose script is `scripts/main.lua`.
fn game(dir: &Path) {
    std::fs::write(
        dir.join("game.toml"),
        "name = \"Hostile\"\nlevel_files = [\"levels/main.toml\"]\n[scripts]\nfiles = [\"scripts/main.lua\"]\n",
    )
    .unwrap();
    std::fs::write(dir.join("levels/main.toml"), "name = \"main\"\n").unwrap();
    std::fs::write(dir.join("scripts/main.lua"), "-- nothing\n").unwrap();
}

/// A file outside every game folder holding a line that must never be shown, removed when the
/// returned guard drops.
fn secret(name: &str) -> NamedTempFile {
    let file = tempfile::Builder::new()
        .prefix(&format!("ludus-disk-secret-{name}-"))
        .tempfile()
        .unwrap();
    std::fs::write(file.path(), "TOP-SECRET-LINE = 1\n").unwrap();
    file
}

fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap()
        .success();
    assert!(ok, "mkfifo {}", path.display());
}

/// Loads `dir` within a few seconds (a blocking open of a pipe would hang here).
fn refused(dir: &Path) -> Diagnostics {
    let start = Instant::now();
    let result = load_game(&DirSource::new(dir));
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "took {:?}",
        start.elapsed()
    );
    match result {
        Ok(_) => panic!("{} must be refused", dir.display()),
        Err(d) => d,
    }
}

fn one(d: &Diagnostics, expect: &str) {
    let text = d.render();
    assert_eq!(d.len(), 1, "{text}");
    assert!(d.0[0].message.contains(expect), "{expect}: {text}");
    assert!(
        !text.contains("TOP-SECRET"),
        "a file outside the folder leaked: {text}"
    );
}

#[test]
fn a_level_linked_out_of_the_folder_is_refused_unread() {
    let tmp = scratch("link-level");
    let dir = tmp.path();
    game(dir);
    let secret = secret("level");
    let outside = secret.path();
    std::fs::remove_file(dir.join("levels/main.toml")).unwrap();
    std::os::unix::fs::symlink(outside, dir.join("levels/main.toml")).unwrap();
    let d = refused(dir);
    one(
        &d,
        "cannot read level file `levels/main.toml`: it is a symbolic link to a file outside the game folder",
    );
    assert_eq!((d.0[0].file.as_str(), d.0[0].line), ("game.toml", 2));
    assert!(
        d.0[0]
            .help
            .as_deref()
            .unwrap_or("")
            .contains("copy the file")
    );

    // A link through a linked folder is refused the same way; a link inside the folder is fine.
    std::fs::remove_file(dir.join("levels/main.toml")).unwrap();
    std::fs::write(dir.join("real.toml"), "name = \"main\"\n").unwrap();
    std::os::unix::fs::symlink(dir.join("real.toml"), dir.join("levels/main.toml")).unwrap();
    assert!(
        load_game(&DirSource::new(dir)).is_ok(),
        "a link that stays inside is followed"
    );
}

#[test]
fn game_toml_and_scripts_linked_out_are_refused() {
    let script = scratch("link-script");
    game(script.path());
    let secret = secret("script");
    let outside = secret.path();
    std::fs::remove_file(script.path().join("scripts/main.lua")).unwrap();
    std::os::unix::fs::symlink(outside, script.path().join("scripts/main.lua")).unwrap();
    one(
        &refused(script.path()),
        "script `scripts/main.lua`: it is a symbolic link",
    );

    let linked = scratch("link-game");
    std::os::unix::fs::symlink(outside, linked.path().join("game.toml")).unwrap();
    one(
        &refused(linked.path()),
        "cannot read game.toml: it is a symbolic link",
    );
    // Through a linked folder.
    let folder = scratch("link-folder");
    let dir = folder.path();
    game(dir);
    std::fs::remove_dir_all(dir.join("levels")).unwrap();
    let elsewhere = tempfile::Builder::new()
        .prefix("ludus-disk-elsewhere-")
        .tempdir()
        .unwrap();
    std::fs::copy(outside, elsewhere.path().join("main.toml")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), dir.join("levels")).unwrap();
    one(
        &refused(dir),
        "level file `levels/main.toml`: it is a symbolic link",
    );
}

#[test]
fn a_named_pipe_as_a_level_is_refused_without_waiting() {
    let tmp = scratch("fifo");
    let dir = tmp.path();
    game(dir);
    mkfifo(&dir.join("levels/main.toml"));
    let d = refused(dir);
    one(&d, "it is a named pipe (FIFO), not a regular file");
    assert_eq!(d.0[0].line, 2);
    mkfifo(&dir.join("game.toml"));
    one(
        &refused(dir),
        "cannot read game.toml: it is a named pipe (FIFO)",
    );
}

#[test]
fn devices_and_folders_are_refused() {
    let tmp = scratch("folder");
    let dir = tmp.path();
    game(dir);
    std::fs::remove_file(dir.join("levels/main.toml")).unwrap();
    std::fs::create_dir(dir.join("levels/main.toml")).unwrap();
    one(&refused(dir), "it is a folder, not a regular file");
    // A device, as a reader would see /dev/zero: refused before a byte is read.
    assert_eq!(
        read_inside(Path::new("/dev"), "zero", 100),
        Err(ReadError::NotAFile("a device"))
    );
}

#[test]
fn a_sparse_file_far_past_the_limit_reports_its_real_size_unread() {
    let tmp = scratch("sparse");
    let dir = tmp.path();
    game(dir);
    let f = std::fs::File::create(dir.join("levels/main.toml")).unwrap();
    f.set_len(50 * 1024 * 1024).unwrap();
    let d = refused(dir);
    one(
        &d,
        "`levels/main.toml` is too large (50 MiB); content files may be at most 8 MiB",
    );
    f.set_len(MAX_FILE_BYTES as u64 + 1).unwrap();
    one(&refused(dir), "is too large (more than 8 MiB)");
    f.set_len(5 << 30).unwrap();
    let start = Instant::now();
    let e = read_inside(dir, "levels/main.toml", MAX_FILE_BYTES as u64).unwrap_err();
    assert_eq!(e.to_string(), "it is too large (5 GiB); the limit is 8 MiB");
    assert!(start.elapsed() < Duration::from_secs(1));
}

#[test]
fn missing_files_still_get_suggestions() {
    let tmp = scratch("missing");
    let dir = tmp.path();
    game(dir);
    std::fs::rename(dir.join("levels/main.toml"), dir.join("levels/mian.toml")).unwrap();
    let d = refused(dir);
    assert!(d.0[0].message.contains("file not found"), "{}", d.render());
    assert!(
        d.0[0]
            .help
            .as_deref()
            .unwrap_or("")
            .contains("levels/mian.toml"),
        "{}",
        d.render()
    );
}

mod paths {
    use super::*;
    use proptest::prelude::*;

    /// A folder holding a link out, a linked folder, a pipe and a real level, and a game.toml
    /// rewritten per case; with the file and the folder outside it that the links reach.
    struct Folder {
        dir: TempDir,
        _out: TempDir,
        _secret: NamedTempFile,
    }

    fn folder() -> Folder {
        let dir = scratch("paths");
        game(dir.path());
        let secret = secret("paths");
        std::os::unix::fs::symlink(secret.path(), dir.path().join("link.toml")).unwrap();
        let out = tempfile::Builder::new()
            .prefix("ludus-disk-out-")
            .tempdir()
            .unwrap();
        std::fs::create_dir_all(out.path().join("levels")).unwrap();
        for name in ["main.toml", "levels/main.toml", "game.toml"] {
            std::fs::copy(secret.path(), out.path().join(name)).unwrap();
        }
        std::os::unix::fs::symlink(out.path(), dir.path().join("up")).unwrap();
        mkfifo(&dir.path().join("pipe.toml"));
        Folder {
            dir,
            _out: out,
            _secret: secret,
        }
    }

    fn part() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "..",
            ".",
            "",
            "levels",
            "main.toml",
            "link.toml",
            "up",
            "pipe.toml",
            "scripts",
            "game.toml",
            "/",
            "\\",
            "%2e%2e",
            "\u{0}",
            "~",
            "/etc/passwd",
            "C:",
            "tmp",
        ])
    }

    /// Any path a level list can name is read from inside the folder or refused, quickly, and
    /// nothing outside it is ever shown. The folder is made once for all cases (the closure
    /// form of `proptest!`) and removed when the test ends.
    #[test]
    fn any_listed_path_stays_inside_and_never_blocks() {
        let folder = folder();
        let dir = folder.dir.path();
        let config = ProptestConfig {
            cases: 200,
            ..ProptestConfig::default()
        };
        proptest!(config, |(parts in proptest::collection::vec(part(), 1..5))| {
            let path = parts.join("/");
            let escaped = path.replace('\\', "\\\\").replace('"', "\\\"").replace('\u{0}', "\\u0000");
            std::fs::write(
                dir.join("game.toml"),
                format!("name = \"Paths\"\nlevel_files = [\"{escaped}\"]\n"),
            )
            .unwrap();
            let start = Instant::now();
            let result = load_game(&DirSource::new(dir));
            prop_assert!(start.elapsed() < Duration::from_secs(5));
            if let Err(d) = result {
                prop_assert!(!d.render().contains("TOP-SECRET"), "{}", d.render());
            }
        });
    }
}
