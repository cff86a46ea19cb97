//! Where content bytes come from: a folder on disk, or files held in memory (tests, the browser).

use crate::disk::ReadError;
use std::collections::BTreeMap;

/// The largest content file (TOML, Lua or image) a game may contain, in bytes (8 MiB).
pub const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;

/// The most names [`FileSource::list`] reports for one folder.
const MAX_LISTED: usize = 2048;

/// Reads the files of one game folder.
///
/// Paths are relative to the game folder, separated by `/`, and have already been checked not to
/// leave it through `..`. An implementation on a real file system must still refuse what a
/// path can reach by other means: symbolic links out of the folder, named pipes, devices (see
/// [`crate::read_inside`]).
pub trait FileSource {
    /// The bytes of the file at `path`, or why it cannot be read. An implementation may refuse
    /// a file larger than [`MAX_FILE_BYTES`] with [`ReadError::TooLarge`] instead of reading
    /// it; the loader refuses any longer file either way.
    fn read(&self, path: &str) -> Result<Vec<u8>, ReadError>;

    /// The files in folder `dir` (`""` is the game folder), as paths relative to the game
    /// folder. Used only to suggest the intended name when a file is missing; the default knows
    /// none.
    fn list(&self, dir: &str) -> Vec<String> {
        let _ = dir;
        Vec::new()
    }
}

/// A game folder held in memory: relative path to bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemorySource {
    files: BTreeMap<String, Vec<u8>>,
}

impl MemorySource {
    pub fn new() -> Self {
        MemorySource::default()
    }

    /// Adds or replaces the file at `path` (relative to the game folder, `/`-separated).
    pub fn insert(&mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.files.insert(path.into(), bytes.into());
    }

    /// The same source with one more file.
    pub fn with(mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        self.insert(path, bytes);
        self
    }

    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.files.get(path).map(Vec::as_slice)
    }

    pub fn remove(&mut self, path: &str) -> Option<Vec<u8>> {
        self.files.remove(path)
    }

    /// Every file, in path order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.files.iter().map(|(p, b)| (p.as_str(), b.as_slice()))
    }
}

impl FileSource for MemorySource {
    fn read(&self, path: &str) -> Result<Vec<u8>, ReadError> {
        self.files.get(path).cloned().ok_or(ReadError::NotFound)
    }

    fn list(&self, dir: &str) -> Vec<String> {
        self.files
            .keys()
            .filter(|p| crate::path::parent(p) == dir)
            .take(MAX_LISTED)
            .cloned()
            .collect()
    }
}

/// A game folder on disk.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirSource {
    pub root: std::path::PathBuf,
}

#[cfg(not(target_arch = "wasm32"))]
impl DirSource {
    pub fn new(root: impl Into<std::path::PathBuf>) -> Self {
        DirSource { root: root.into() }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl FileSource for DirSource {
    fn read(&self, path: &str) -> Result<Vec<u8>, ReadError> {
        crate::disk::read_inside(&self.root, path, MAX_FILE_BYTES as u64)
    }

    fn list(&self, dir: &str) -> Vec<String> {
        // Only folders inside the game folder are listed (a linked folder could lead out).
        let (Ok(root), Ok(real)) = (self.root.canonicalize(), self.root.join(dir).canonicalize())
        else {
            return Vec::new();
        };
        if !real.starts_with(&root) {
            return Vec::new();
        }
        let Ok(entries) = std::fs::read_dir(real) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| e.file_name().into_string().ok())
            .take(MAX_LISTED)
            .map(|name| {
                if dir.is_empty() {
                    name
                } else {
                    format!("{dir}/{name}")
                }
            })
            .collect();
        names.sort();
        names
    }
}
