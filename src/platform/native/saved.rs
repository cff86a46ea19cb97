//! Where the desktop keeps a game's saved data: `save.json` in the game's folder of the
//! platform's data folder, read within a bound and written whole, atomically.

use crate::platform::Kept;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// A file holding a game's saved data (see `platform/mod.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavePlace {
    path: PathBuf,
}

impl SavePlace {
    /// The saved data of the game named `name`: `ludus/GAME/save.json` in the platform's data
    /// folder ([`data_folder`]), GAME the name in lower case with every character but ASCII
    /// letters, digits, `-` and `_` made a `-`.
    pub fn of_game(name: &str) -> Result<SavePlace, String> {
        let folder = data_folder().ok_or_else(|| {
            "there is no folder for saved data (HOME, or the platform's equivalent, is not set)"
                .to_string()
        })?;
        Ok(SavePlace {
            path: folder
                .join("ludus")
                .join(folder_name(name))
                .join("save.json"),
        })
    }

    /// The saved data in the file `path` (`ludus sim --save`).
    pub fn file(path: PathBuf) -> SavePlace {
        SavePlace { path }
    }

    /// The file's bytes, refusing a file of more than `most` bytes without reading past them.
    pub fn read(&self, most: usize) -> Result<Kept, String> {
        let file = match std::fs::File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Kept::Nothing),
            Err(e) => return Err(format!("cannot read {}: {e}", self.path.display())),
        };
        if file.metadata().is_ok_and(|m| m.len() > most as u64) {
            return Ok(Kept::TooLarge);
        }
        let mut bytes = Vec::new();
        file.take(most as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read {}: {e}", self.path.display()))?;
        if bytes.len() > most {
            return Ok(Kept::TooLarge);
        }
        Ok(Kept::Bytes(bytes))
    }

    /// Renames the file to its name with `.damaged` after it (replacing a file of that name),
    /// so data the game cannot use is not lost when it writes its own; where it went.
    pub fn set_aside(&self) -> Result<String, String> {
        let mut name = self.path.file_name().unwrap_or_default().to_os_string();
        name.push(".damaged");
        let to = self.path.with_file_name(name);
        std::fs::rename(&self.path, &to)
            .map_err(|e| format!("cannot move {} aside: {e}", self.path.display()))?;
        Ok(to.display().to_string())
    }

    /// Replaces the file's content with `text`, atomically: written beside it, then renamed
    /// over it, so the file holds the old text or the new one, never a part.
    pub fn write(&self, text: &str) -> Result<(), String> {
        let failed = |e: std::io::Error| format!("cannot write {}: {e}", self.path.display());
        if let Some(folder) = self.path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(failed)?;
        }
        let mut name = self.path.file_name().unwrap_or_default().to_os_string();
        name.push(".tmp");
        let temporary = self.path.with_file_name(name);
        let written = std::fs::File::create(&temporary).and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_all()
        });
        if let Err(e) = written.and_then(|()| std::fs::rename(&temporary, &self.path)) {
            let _ = std::fs::remove_file(&temporary);
            return Err(failed(e));
        }
        Ok(())
    }
}

impl std::fmt::Display for SavePlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.path.display())
    }
}

/// The folder a game's name gives its saved data.
fn folder_name(name: &str) -> String {
    let slug: String = name
        .chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' | '-' | '_' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '-',
        })
        .collect();
    if slug.is_empty() { "game".into() } else { slug }
}

/// The platform's folder for programs' data: `$XDG_DATA_HOME` (an absolute path), else
/// `~/.local/share` on Linux and other Unix systems; `~/Library/Application Support` on
/// macOS; `%APPDATA%` on Windows.
fn data_folder() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    if cfg!(windows) {
        return var("APPDATA");
    }
    let home = var("HOME");
    if cfg!(target_os = "macos") {
        return home.map(|h| h.join("Library/Application Support"));
    }
    var("XDG_DATA_HOME").or_else(|| home.map(|h| Path::new(&h).join(".local/share")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_name_gives_a_folder_name() {
        let cases = [
            ("Breakout", "breakout"),
            ("My Game: II", "my-game--ii"),
            ("../x", "---x"),
            ("café_2", "caf-_2"),
            ("", "game"),
        ];
        for (name, want) in cases {
            assert_eq!(folder_name(name), want, "{name:?}");
        }
    }

    #[test]
    fn a_file_is_read_within_its_bound_and_replaced_whole() {
        // Removed when the test ends, passed or failed.
        let tmp = tempfile::Builder::new()
            .prefix("ludus-saved-")
            .tempdir()
            .unwrap();
        let dir = tmp.path();
        let place = SavePlace::file(dir.join("deep/save.json"));
        assert_eq!(place.read(10), Ok(Kept::Nothing), "no file yet");
        place.write("{\"a\":1}").unwrap();
        assert_eq!(place.read(7), Ok(Kept::Bytes(b"{\"a\":1}".to_vec())));
        assert_eq!(place.read(6), Ok(Kept::TooLarge));
        place.write("{}").unwrap();
        assert_eq!(place.read(7), Ok(Kept::Bytes(b"{}".to_vec())), "replaced");
        let aside = place.set_aside().unwrap();
        assert!(aside.ends_with("save.json.damaged"), "{aside}");
        assert_eq!(place.read(7), Ok(Kept::Nothing), "moved");
        let damaged = SavePlace::file(dir.join("deep/save.json.damaged"));
        assert_eq!(
            damaged.read(7),
            Ok(Kept::Bytes(b"{}".to_vec())),
            "kept aside"
        );
        let left: Vec<_> = std::fs::read_dir(dir.join("deep")).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left");
    }
}
