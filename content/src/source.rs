//! Where content bytes come from: a folder on disk, or files held in memory (tests, the browser).

use std::collections::BTreeMap;

/// The largest content file (TOML, Lua or image) a game may contain, in bytes (8 MiB).
pub const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;

/// The most names [`FileSource::list`] reports for one folder.
const MAX_LISTED: usize = 2048;

/// Reads the files of one game folder.
///
/// Paths are relative to the game folder, separated by `/`, and have already been checked not to
/// leave it. The loader never asks for anything else, so an implementation needs no checks of
/// its own.
pub trait FileSource {
    /// The bytes of the file at `path`, or a short reason it cannot be read (`file not found`).
    /// An implementation may stop after [`MAX_FILE_BYTES`] + 1 bytes: the loader refuses any
    /// file longer than the limit either way.
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;

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
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.files
            .get(path)
            .cloned()
            .ok_or_else(|| "file not found".to_string())
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
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        use std::io::Read;
        let full = self.root.join(path);
        let file = std::fs::File::open(&full).map_err(|e| describe(&e))?;
        let meta = file.metadata().map_err(|e| describe(&e))?;
        if meta.is_dir() {
            return Err("it is a folder, not a file".into());
        }
        let mut bytes = Vec::new();
        let limit = u64::try_from(MAX_FILE_BYTES)
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        file.take(limit)
            .read_to_end(&mut bytes)
            .map_err(|e| describe(&e))?;
        Ok(bytes)
    }

    fn list(&self, dir: &str) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.root.join(dir)) else {
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

#[cfg(not(target_arch = "wasm32"))]
fn describe(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "file not found".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}
