//! Game folders on disk: content and modules read under the same rules (only regular files
//! inside the folder, size-checked before reading).

use crate::platform::GameFolder;
use ludus_content::LoadOptions;
use ludus_script::ModuleSource;
use std::rc::Rc;

/// Modules from the game folder on disk, under the same rules as content files: only regular
/// files inside the folder (symbolic links out of it, pipes and devices are refused before
/// anything is opened), at most [`ludus_content::MAX_FILE_BYTES`], UTF-8.
pub struct DirModules(pub std::path::PathBuf);

impl ModuleSource for DirModules {
    fn read(&self, path: &str) -> Result<String, String> {
        use ludus_content::{MAX_FILE_BYTES, ReadError, size_over, size_text};
        if path.is_empty()
            || path
                .split('/')
                .any(|c| c == ".." || c == "." || c.is_empty())
        {
            return Err("it is outside the game folder".into());
        }
        let limit = MAX_FILE_BYTES as u64;
        let bytes = ludus_content::read_inside(&self.0, path, limit).map_err(|e| match e {
            ReadError::TooLarge { size, .. } => format!(
                "it is too large ({}); modules may be at most {}",
                size_over(size, limit),
                size_text(limit)
            ),
            other => other.to_string(),
        })?;
        String::from_utf8(bytes).map_err(|e| {
            format!(
                "it is not valid UTF-8 (byte {} is 0x{:02x})",
                e.utf8_error().valid_up_to(),
                e.as_bytes()
                    .get(e.utf8_error().valid_up_to())
                    .copied()
                    .unwrap_or(0)
            )
        })
    }
}

/// Loads and validates a game folder; the error is the rendered diagnostics.
pub fn load_folder(dir: &std::path::Path, options: &LoadOptions<'_>) -> Result<GameFolder, String> {
    let loaded = ludus_content::load_dir_with(dir, options).map_err(|d| d.render())?;
    let modules: Rc<dyn ModuleSource> = Rc::new(DirModules(dir.to_path_buf()));
    Ok(GameFolder { loaded, modules })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn modules_are_read_under_the_content_rules_with_a_clear_reason() {
        // Removed when the test ends, passed or failed.
        let tmp = tempfile::Builder::new()
            .prefix("ludus-modules-")
            .tempdir()
            .unwrap();
        let dir = tmp.path();
        std::fs::create_dir_all(dir.join("game/scripts")).unwrap();
        let game = dir.join("game");
        std::fs::write(dir.join("outside.lua"), "return 'TOP-SECRET'\n").unwrap();
        std::fs::write(game.join("ok.lua"), "return {}\n").unwrap();
        std::os::unix::fs::symlink(dir.join("outside.lua"), game.join("linked.lua")).unwrap();
        let fifo = game.join("pipe.lua");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        std::fs::File::create(game.join("huge.lua"))
            .unwrap()
            .set_len(50 << 20)
            .unwrap();
        std::fs::write(game.join("latin1.lua"), b"-- caf\xe9\n").unwrap();
        let modules = DirModules(game.clone());
        assert_eq!(modules.read("ok.lua").as_deref(), Ok("return {}\n"));
        let cases = [
            (
                "linked.lua",
                "it is a symbolic link to a file outside the game folder",
            ),
            ("pipe.lua", "it is a named pipe (FIFO), not a regular file"),
            (
                "huge.lua",
                "it is too large (50 MiB); modules may be at most 8 MiB",
            ),
            ("latin1.lua", "it is not valid UTF-8 (byte 6 is 0xe9)"),
            ("missing.lua", "file not found"),
            ("../outside.lua", "it is outside the game folder"),
            ("scripts", "it is a folder, not a regular file"),
        ];
        for (path, expect) in cases {
            assert_eq!(modules.read(path), Err(expect.to_string()), "{path}");
        }
    }
}
