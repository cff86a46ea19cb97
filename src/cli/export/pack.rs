//! A game folder packed as a [`Bundle`]: which of its files go in, and which are left out.
//!
//! Every regular file under the folder goes in, by its path relative to it, except:
//!
//! - hidden names (a `.` first) and everything under them, without a word;
//! - what the game's `[export] exclude` patterns and [`ExportDef::ALWAYS`] match (the window's
//!   `recordings/`, a failed test's files), listed as left out; a file the game reads may not
//!   be left out (its bundle would not load);
//! - with a warning naming it: a name that is not UTF-8 or holds a `\` (no game file can name
//!   it, and a bundle's paths are `/`-separated text), a link to a folder (folders are never
//!   followed through links) or to anything outside the game folder, anything that is not a
//!   regular file (a pipe, a device), a file over the content size limit (the loader would
//!   refuse it), and a file that cannot be read.
//!
//! So one odd file never stops an export: `ludus check` has already loaded every file the
//! game uses.

use crate::cli::carried::MAX_BUNDLE_BYTES;
use crate::runtime::bundle::{Bundle, MAX_FILES, relative};
use crate::runtime::project::LOAD_OPTIONS;
use ludus_content::Glob;
use ludus_core::ExportDef;
use std::path::Path;

/// The files of a game folder that go in its bundle, and what is left out.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Listing {
    /// Paths relative to the folder, `/`-separated, sorted.
    pub files: Vec<String>,
    /// What is left out (its path as shown, lossily where it is not UTF-8) and why.
    pub left_out: Vec<(String, String)>,
}

/// A packed game folder.
pub(crate) struct Packed {
    pub bundle: Bundle,
    /// The files the patterns left out, with their sizes in bytes, sorted.
    pub excluded: Vec<(String, u64)>,
}

/// The game folder's files: all but hidden ones and those left out (see the module
/// documentation), with the content hash they load as (0 when they do not load: the runtime
/// then reports why, as `ludus serve` wants). Each file left out for its name or kind is a
/// warning on stderr; a pattern leaving out a file the game reads is an error.
pub(crate) fn pack(dir: &Path) -> Result<Packed, String> {
    let loaded = crate::platform::load_folder(dir, &LOAD_OPTIONS).ok();
    let content_hash = loaded.as_ref().map_or(0, |f| f.loaded.def.content_hash);
    let patterns = loaded
        .as_ref()
        .map_or(&[][..], |f| &f.loaded.def.export.exclude[..]);
    let globs: Vec<Glob> = ExportDef::ALWAYS
        .iter()
        .map(|p| p.to_string())
        .chain(patterns.iter().cloned())
        .filter_map(|p| Glob::parse(&p).ok())
        .collect();
    let Listing {
        files: all,
        mut left_out,
    } = list(dir)?;
    let (excluded, paths): (Vec<String>, Vec<String>) = all
        .into_iter()
        .partition(|path| globs.iter().any(|g| g.matches(path)));
    if let Some(used) = loaded.as_ref().and_then(|f| {
        let files = &f.loaded.files;
        excluded.iter().find(|p| files.contains(p))
    }) {
        return Err(format!(
            "{}: `[export] exclude` leaves out {used}, which the game reads",
            dir.display()
        ));
    }
    // Modules are found when a script runs `require`, so every Lua file may be read.
    if let Some(module) = excluded.iter().find(|p| p.ends_with(".lua")) {
        return Err(format!(
            "{}: `[export] exclude` leaves out {module}, a Lua file a script may `require`",
            dir.display()
        ));
    }
    let excluded = excluded
        .into_iter()
        .map(|p| {
            let size = std::fs::symlink_metadata(dir.join(&p)).map_or(0, |m| m.len());
            (p, size)
        })
        .collect();
    let limit = ludus_content::MAX_FILE_BYTES as u64;
    let mut files = std::collections::BTreeMap::new();
    let mut total = 0u64;
    for rel in paths {
        let bytes = match ludus_content::read_inside(dir, &rel, limit) {
            Ok(bytes) => bytes,
            Err(e) => {
                left_out.push((rel, e.to_string()));
                continue;
            }
        };
        total += bytes.len() as u64;
        if total > MAX_BUNDLE_BYTES {
            return Err(format!(
                "{}: the game's files exceed {} MiB",
                dir.display(),
                MAX_BUNDLE_BYTES >> 20
            ));
        }
        files.insert(rel, bytes);
    }
    left_out.sort();
    for (rel, why) in &left_out {
        eprintln!("warning: {} left out: {why}", dir.join(rel).display());
    }
    Ok(Packed {
        bundle: Bundle {
            name: bundle_name(dir),
            content_hash,
            dev: false,
            files,
        },
        excluded,
    })
}

/// What an export packed, for its output: each file with its size, then the total, then what
/// the patterns left out.
pub(crate) fn packed_list(packed: &Packed) -> String {
    let mut out = String::new();
    let files = &packed.bundle.files;
    let total: u64 = files.values().map(|b| b.len() as u64).sum();
    for (path, bytes) in files {
        out.push_str(&format!("  {:>10}  {path}\n", size(bytes.len() as u64)));
    }
    out.push_str(&format!(
        "  {:>10}  in {} file{}\n",
        size(total),
        files.len(),
        if files.len() == 1 { "" } else { "s" }
    ));
    for (path, bytes) in &packed.excluded {
        out.push_str(&format!("  left out: {path} ({})\n", size(*bytes)));
    }
    out
}

/// A size as people read it: bytes below a KiB, else KiB or MiB with one decimal.
fn size(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} B"),
        1024..1_048_576 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
    }
}

/// The game's name in its bundle (and its executable's file name): its folder's, lossily
/// where it is not UTF-8; `game` for a folder without one (`/`).
pub(crate) fn bundle_name(dir: &Path) -> String {
    let folder = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "game".into())
}

/// Every file under `dir` that a bundle may hold, and the entries left out by their names or
/// kinds (reading them may leave out more). Folders are listed one at a time from a stack,
/// not by recursion; more than [`MAX_FILES`] files is an error.
pub(crate) fn list(dir: &Path) -> Result<Listing, String> {
    let mut listing = Listing::default();
    let mut folders = vec![String::new()];
    while let Some(rel) = folders.pop() {
        let here = dir.join(&rel);
        let entries =
            std::fs::read_dir(&here).map_err(|e| format!("cannot list {}: {e}", here.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot list {}: {e}", here.display()))?;
            let raw = entry.file_name();
            let lossy = raw.to_string_lossy();
            if lossy.starts_with('.') {
                continue;
            }
            let path = if rel.is_empty() {
                lossy.to_string()
            } else {
                format!("{rel}/{lossy}")
            };
            if raw.to_str().is_none() {
                listing
                    .left_out
                    .push((path, "its name is not UTF-8 text".into()));
                continue;
            }
            if !relative(&path) {
                let why = "its name holds `\\`, which no game path can".to_string();
                listing.left_out.push((path, why));
                continue;
            }
            let kind = entry.file_type();
            if kind.as_ref().is_ok_and(|t| t.is_dir()) {
                folders.push(path);
            } else if kind.as_ref().is_ok_and(|t| t.is_symlink()) && entry.path().is_dir() {
                let why = "it is a link to a folder, and an export does not follow those";
                listing.left_out.push((path, why.into()));
            } else {
                listing.files.push(path);
                if listing.files.len() > MAX_FILES {
                    return Err(format!(
                        "{}: more than {MAX_FILES} files in the game folder",
                        dir.display()
                    ));
                }
            }
        }
    }
    listing.files.sort();
    Ok(listing)
}

/// Every file under folder `rel` of `dir` (all of it when empty) that a bundle may hold,
/// sorted, into `out` as paths relative to `dir` (see [`list`]).
pub(crate) fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) -> Result<(), String> {
    let files = list(&dir.join(rel))?.files;
    match rel {
        "" => out.extend(files),
        _ => out.extend(files.into_iter().map(|f| format!("{rel}/{f}"))),
    }
    Ok(())
}
