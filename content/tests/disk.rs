//! Hostile game folders on disk: a level or script that is a symbolic link out of the folder, a
//! named pipe, a folder, or a sparse file far past the size limit. Each is one diagnostic at
//! the string that names it, reached without opening (or waiting on) the file, and nothing of
//! a file outside the folder ever appears in a message.
#![cfg(unix)]

use ludus_content::{Diagnostics, DirSource, MAX_FILE_BYTES, ReadError, load_game, read_inside};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-disk-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("levels")).unwrap();
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
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

/// A file outside every game folder holding a line that must never be shown.
fn secret(name: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("ludus-disk-secret-{}-{name}", std::process::id()));
    std::fs::write(&path, "TOP-SECRET-LINE = 1\n").unwrap();
    path
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
    let dir = scratch("link-level");
    game(&dir);
    let outside = secret("level");
    std::fs::remove_file(dir.join("levels/main.toml")).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("levels/main.toml")).unwrap();
    let d = refused(&dir);
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
        load_game(&DirSource::new(&dir)).is_ok(),
        "a link that stays inside is followed"
    );
    let _ = std::fs::remove_file(outside);
}

#[test]
fn game_toml_and_scripts_linked_out_are_refused() {
    let dir = scratch("link-script");
    game(&dir);
    let outside = secret("script");
    std::fs::remove_file(dir.join("scripts/main.lua")).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("scripts/main.lua")).unwrap();
    one(
        &refused(&dir),
        "script `scripts/main.lua`: it is a symbolic link",
    );

    let dir = scratch("link-game");
    std::os::unix::fs::symlink(&outside, dir.join("game.toml")).unwrap();
    one(
        &refused(&dir),
        "cannot read game.toml: it is a symbolic link",
    );
    // Through a linked folder.
    let dir = scratch("link-folder");
    game(&dir);
    std::fs::remove_dir_all(dir.join("levels")).unwrap();
    let elsewhere =
        std::env::temp_dir().join(format!("ludus-disk-elsewhere-{}", std::process::id()));
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::copy(&outside, elsewhere.join("main.toml")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, dir.join("levels")).unwrap();
    one(
        &refused(&dir),
        "level file `levels/main.toml`: it is a symbolic link",
    );
    let _ = std::fs::remove_file(outside);
    let _ = std::fs::remove_dir_all(elsewhere);
}

#[test]
fn a_named_pipe_as_a_level_is_refused_without_waiting() {
    let dir = scratch("fifo");
    game(&dir);
    mkfifo(&dir.join("levels/main.toml"));
    let d = refused(&dir);
    one(&d, "it is a named pipe (FIFO), not a regular file");
    assert_eq!(d.0[0].line, 2);
    mkfifo(&dir.join("game.toml"));
    one(
        &refused(&dir),
        "cannot read game.toml: it is a named pipe (FIFO)",
    );
}

#[test]
fn devices_and_folders_are_refused() {
    let dir = scratch("folder");
    game(&dir);
    std::fs::remove_file(dir.join("levels/main.toml")).unwrap();
    std::fs::create_dir(dir.join("levels/main.toml")).unwrap();
    one(&refused(&dir), "it is a folder, not a regular file");
    // A device, as a reader would see /dev/zero: refused before a byte is read.
    assert_eq!(
        read_inside(Path::new("/dev"), "zero", 100),
        Err(ReadError::NotAFile("a device"))
    );
}

#[test]
fn a_sparse_file_far_past_the_limit_reports_its_real_size_unread() {
    let dir = scratch("sparse");
    game(&dir);
    let f = std::fs::File::create(dir.join("levels/main.toml")).unwrap();
    f.set_len(50 * 1024 * 1024).unwrap();
    let d = refused(&dir);
    one(
        &d,
        "`levels/main.toml` is too large (50 MiB); content files may be at most 8 MiB",
    );
    f.set_len(MAX_FILE_BYTES as u64 + 1).unwrap();
    one(&refused(&dir), "is too large (more than 8 MiB)");
    f.set_len(5 << 30).unwrap();
    let start = Instant::now();
    let e = read_inside(&dir, "levels/main.toml", MAX_FILE_BYTES as u64).unwrap_err();
    assert_eq!(e.to_string(), "it is too large (5 GiB); the limit is 8 MiB");
    assert!(start.elapsed() < Duration::from_secs(1));
}

#[test]
fn missing_files_still_get_suggestions() {
    let dir = scratch("missing");
    game(&dir);
    std::fs::rename(dir.join("levels/main.toml"), dir.join("levels/mian.toml")).unwrap();
    let d = refused(&dir);
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
    use std::sync::OnceLock;

    /// A folder holding a link out, a linked folder, a pipe and a real level, and a game.toml
    /// rewritten per case.
    fn folder() -> &'static PathBuf {
        static DIR: OnceLock<PathBuf> = OnceLock::new();
        DIR.get_or_init(|| {
            let dir = scratch("paths");
            game(&dir);
            let outside = secret("paths");
            std::os::unix::fs::symlink(&outside, dir.join("link.toml")).unwrap();
            let out = std::env::temp_dir().join(format!("ludus-disk-out-{}", std::process::id()));
            std::fs::create_dir_all(out.join("levels")).unwrap();
            for name in ["main.toml", "levels/main.toml", "game.toml"] {
                std::fs::copy(&outside, out.join(name)).unwrap();
            }
            std::os::unix::fs::symlink(&out, dir.join("up")).unwrap();
            mkfifo(&dir.join("pipe.toml"));
            dir
        })
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

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// Any path a level list can name is read from inside the folder or refused, quickly,
        /// and nothing outside it is ever shown.
        #[test]
        fn any_listed_path_stays_inside_and_never_blocks(
            parts in proptest::collection::vec(part(), 1..5)
        ) {
            let dir = folder();
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
        }
    }
}
