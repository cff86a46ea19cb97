//! Where an export writes, and how: never into the game folder, never through a link, never
//! losing a file.
//!
//! - The output is refused when it is the game folder or inside it, judged on the path as the
//!   file system resolves it (links and `..` followed, and on Unix by device and inode, so a
//!   second mount of the same folder is the same folder).
//! - A file is written whole to a new temporary file beside its destination, then renamed over
//!   it: the destination is either as it was or the new file, never half written, and a link
//!   at the destination is replaced, not followed (what it pointed to is untouched).

use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// A folder an export must not write into (the game's), as the file system knows it.
pub(crate) struct Guarded {
    shown: PathBuf,
    real: PathBuf,
    #[cfg(unix)]
    id: (u64, u64),
}

impl Guarded {
    pub fn new(dir: &Path) -> Result<Guarded, String> {
        let real = dir
            .canonicalize()
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        #[cfg(unix)]
        let id = {
            use std::os::unix::fs::MetadataExt;
            let meta = std::fs::metadata(&real)
                .map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
            (meta.dev(), meta.ino())
        };
        Ok(Guarded {
            shown: dir.to_path_buf(),
            real,
            #[cfg(unix)]
            id,
        })
    }

    /// Whether resolved path `path` is this folder or inside it.
    fn holds(&self, path: &Path) -> bool {
        if path.starts_with(&self.real) {
            return true;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let same = |p: &Path| std::fs::metadata(p).is_ok_and(|m| (m.dev(), m.ino()) == self.id);
            if path.ancestors().any(same) {
                return true;
            }
        }
        false
    }

    /// `resolved` (what `out` resolves to) unless it is this folder or inside it.
    pub fn refuse_inside(&self, out: &Path, resolved: PathBuf) -> Result<PathBuf, String> {
        if self.holds(&resolved) {
            return Err(format!(
                "{} is inside the game folder {}: an export never writes into the game it \
                 exports; choose an output outside it",
                out.display(),
                self.shown.display()
            ));
        }
        Ok(resolved)
    }
}

/// Where the file `out` is: its folder resolved (links and `..` followed; it must exist) and
/// its own name as it is (a link there is replaced, not followed).
pub(crate) fn file_place(out: &Path) -> Result<PathBuf, String> {
    let name = match out.components().next_back() {
        Some(Component::Normal(name)) => name,
        _ => {
            return Err(format!(
                "{} names no file to write: name the executable, such as `out/my_game`",
                out.display()
            ));
        }
    };
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let folder = parent
        .canonicalize()
        .map_err(|e| format!("cannot write {}: {}: {e}", out.display(), parent.display()))?;
    Ok(folder.join(name))
}

/// Where the folder `out` is, resolved as far as it exists (links and `..` followed), the rest
/// (to be created) appended with `.` and `..` taken as written.
pub(crate) fn folder_place(out: &Path) -> Result<PathBuf, String> {
    let absolute = if out.is_absolute() {
        out.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| format!("cannot find the current folder: {e}"))?
            .join(out)
    };
    let existing = absolute
        .ancestors()
        .find(|a| a.exists())
        .unwrap_or(Path::new("/"));
    let mut place = existing
        .canonicalize()
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let rest = absolute.strip_prefix(existing).unwrap_or(Path::new(""));
    for part in rest.components() {
        match part {
            Component::ParentDir => {
                place.pop();
            }
            Component::Normal(name) => place.push(name),
            _ => {}
        }
    }
    Ok(place)
}

/// Writes `bytes` to `dest` through a new temporary file in the same folder renamed over it
/// (see the module documentation); `executable` makes it so (Unix: mode 755).
pub(crate) fn write_whole(dest: &Path, bytes: &[u8], executable: bool) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", dest.display());
    let folder = dest.parent().unwrap_or(Path::new("."));
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (temp, mut file) = (0..100)
        .find_map(|n| {
            let temp = folder.join(format!(".{name}.{}-{n}.part", std::process::id()));
            let opened = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temp);
            match opened {
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => None,
                opened => Some(opened.map(|f| (temp, f))),
            }
        })
        .unwrap_or_else(|| Err(std::io::Error::other("no free temporary name beside it")))
        .map_err(cannot)?;
    let mut written = file.write_all(bytes).and_then(|()| file.sync_all());
    drop(file);
    written = written
        .and_then(|()| executable_mode(&temp, executable))
        .and_then(|()| std::fs::rename(&temp, dest));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(cannot(e));
    }
    Ok(())
}

fn executable_mode(path: &Path, executable: bool) -> std::io::Result<()> {
    #[cfg(unix)]
    if executable {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    }
    #[cfg(not(unix))]
    let _ = (path, executable);
    Ok(())
}
