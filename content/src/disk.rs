//! Reading files from disk without trusting them, shared by the content loader, `require` and
//! the command line's input files.
//!
//! Guarantees:
//! - [`read_inside`] reads only a regular file whose real path (every symbolic link resolved)
//!   lies inside the given folder. Folders, named pipes, devices and sockets are refused from
//!   their metadata, before anything is opened: opening a named pipe for reading would block.
//! - No read allocates past its limit: a regular file's size is checked before it is opened,
//!   and every read goes through [`Limited`], which fails on the first byte past the limit, so a
//!   file that grows while it is read (or a device that never ends) cannot exceed it either.
//! - [`open_limited`] is for files a person names on the command line: a folder is refused, a
//!   regular file larger than the limit is refused by its size, and anything else (a pipe from
//!   `<(...)`, `/dev/stdin`) is read through the same limit.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Why a file was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    NotFound,
    PermissionDenied,
    /// The path resolves, through a symbolic link, to something outside the folder it must stay
    /// in.
    Outside,
    /// Not a regular file; what it is (`a folder`, `a named pipe (FIFO)`, ...).
    NotAFile(&'static str),
    /// Larger than `limit` bytes; `size` when the file system said so, `None` when more than
    /// `limit` bytes arrived while reading.
    TooLarge {
        size: Option<u64>,
        limit: u64,
    },
    Other(String),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotFound => f.write_str("file not found"),
            ReadError::PermissionDenied => f.write_str("permission denied"),
            ReadError::Outside => {
                f.write_str("it is a symbolic link to a file outside the game folder")
            }
            ReadError::NotAFile(what) => write!(f, "it is {what}, not a regular file"),
            ReadError::TooLarge { size, limit } => write!(
                f,
                "it is too large ({}); the limit is {}",
                size_over(*size, *limit),
                size_text(*limit)
            ),
            ReadError::Other(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for ReadError {}

impl ReadError {
    /// An I/O error as a reason a person can act on; `limit` names the bound a [`Limited`]
    /// reader reported.
    pub fn from_io(e: &io::Error, limit: u64) -> ReadError {
        match e.kind() {
            io::ErrorKind::NotFound => ReadError::NotFound,
            io::ErrorKind::PermissionDenied => ReadError::PermissionDenied,
            io::ErrorKind::FileTooLarge => ReadError::TooLarge { size: None, limit },
            io::ErrorKind::IsADirectory => ReadError::NotAFile("a folder"),
            io::ErrorKind::InvalidData => ReadError::Other("it is not valid UTF-8 text".into()),
            _ => ReadError::Other(e.to_string()),
        }
    }
}

/// A byte count for a person: `8 MiB`, `50.0 MiB`, `12 KiB`, `300 bytes`.
pub fn size_text(bytes: u64) -> String {
    let (unit, name) = unit_of(bytes);
    if unit == 1 {
        format!("{bytes} bytes")
    } else if bytes.is_multiple_of(unit) {
        format!("{} {name}", bytes / unit)
    } else {
        format!("{:.1} {name}", bytes as f64 / unit as f64)
    }
}

fn unit_of(bytes: u64) -> (u64, &'static str) {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * 1024;
    const GIB: u64 = 1024 * MIB;
    match bytes {
        b if b >= GIB => (GIB, "GiB"),
        b if b >= MIB => (MIB, "MiB"),
        b if b >= KIB => (KIB, "KiB"),
        _ => (1, "bytes"),
    }
}

/// The size of something larger than `limit`: its real size when known and visibly larger
/// than the limit once rounded, else `more than LIMIT`.
pub fn size_over(size: Option<u64>, limit: u64) -> String {
    let rounded = |b: u64, unit: u64| format!("{:.1}", b as f64 / unit as f64);
    match size {
        Some(s) if s > limit && rounded(s, unit_of(s).0) != rounded(limit, unit_of(s).0) => {
            size_text(s)
        }
        _ => format!("more than {}", size_text(limit)),
    }
}

/// What a file that is not a regular file is, for messages.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// A reader that fails with [`io::ErrorKind::FileTooLarge`] on the first byte past its limit.
pub struct Limited<R> {
    inner: io::Take<R>,
    limit: u64,
}

impl<R: Read> Limited<R> {
    pub fn new(inner: R, limit: u64) -> Self {
        Limited {
            inner: inner.take(limit.saturating_add(1)),
            limit,
        }
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        // `Take` was given one byte more than the limit: that byte arriving means too large.
        if n > 0 && self.inner.limit() == 0 {
            return Err(io::Error::new(
                io::ErrorKind::FileTooLarge,
                format!("more than {}", size_text(self.limit)),
            ));
        }
        Ok(n)
    }
}

/// Reads the regular file at `relative` (`/`-separated) inside folder `root`, at most `limit`
/// bytes. Symbolic links are followed only while they stay inside `root`.
pub fn read_inside(root: &Path, relative: &str, limit: u64) -> Result<Vec<u8>, ReadError> {
    let root = root
        .canonicalize()
        .map_err(|e| ReadError::from_io(&e, limit))?;
    let real = root
        .join(relative)
        .canonicalize()
        .map_err(|e| ReadError::from_io(&e, limit))?;
    if !real.starts_with(&root) {
        return Err(ReadError::Outside);
    }
    read_regular(&real, limit)
}

/// Reads the regular file at `path`, at most `limit` bytes; anything else is refused without
/// being opened.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let io = |e: io::Error| ReadError::from_io(&e, limit);
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind_of(&meta)));
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            size: Some(meta.len()),
            limit,
        });
    }
    let file = File::open(path).map_err(io)?;
    // The file may have been replaced between the two looks; the open one is what counts.
    let opened = file.metadata().map_err(io)?;
    if !opened.is_file() {
        return Err(ReadError::NotAFile(kind_of(&opened)));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(opened.len().min(limit)).unwrap_or(0));
    Limited::new(file, limit)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    Ok(bytes)
}

/// Opens a file a person named (an input file, a recording) for reading at most `limit`
/// bytes: folders are refused, and regular files larger than the limit are refused by their
/// size before anything is read. Pipes and devices are allowed and read through the limit.
pub fn open_limited(path: &Path, limit: u64) -> Result<Limited<File>, ReadError> {
    let io = |e: io::Error| ReadError::from_io(&e, limit);
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return Err(ReadError::NotAFile("a folder"));
    }
    if meta.is_file() && meta.len() > limit {
        return Err(ReadError::TooLarge {
            size: Some(meta.len()),
            limit,
        });
    }
    let file = File::open(path).map_err(io)?;
    Ok(Limited::new(file, limit))
}

/// Reads a whole file a person named, at most `limit` bytes (see [`open_limited`]).
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut reader = open_limited(path, limit)?;
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::from_io(&e, limit))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_for_people() {
        assert_eq!(size_text(300), "300 bytes");
        assert_eq!(size_text(8 * 1024 * 1024), "8 MiB");
        assert_eq!(size_text(50_000_000), "47.7 MiB");
        assert_eq!(size_text(3 << 30), "3 GiB");
        let limit = 8 * 1024 * 1024;
        assert_eq!(size_over(Some(limit + 1), limit), "more than 8 MiB");
        assert_eq!(size_over(None, limit), "more than 8 MiB");
        assert_eq!(size_over(Some(50 << 20), limit), "50 MiB");
    }

    #[test]
    fn the_limited_reader_stops_at_the_first_byte_past_the_limit() {
        let mut out = Vec::new();
        assert!(
            Limited::new(&[0u8; 10][..], 10)
                .read_to_end(&mut out)
                .is_ok()
        );
        assert_eq!(out.len(), 10);
        let mut out = Vec::new();
        let e = Limited::new(io::repeat(0), 1000)
            .read_to_end(&mut out)
            .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        assert!(out.len() <= 1001, "{}", out.len());
    }
}
