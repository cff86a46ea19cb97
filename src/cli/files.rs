//! Files a person names on the command line (`--input`, `--frames`, `--script`, recordings):
//! each read through a size limit, JSON Lines files parsed line by line as they are read.
//!
//! A folder is refused, a regular file over its limit is refused by its size before anything is
//! read, and anything else (a pipe such as `<(...)`, a device) is read only up to the limit
//! (see [`ludus_content::open_limited`]).

use crate::runtime::frames::{Format, Line};
use ludus_core::{GameDef, MAGIC, MAX_RECORDING_BYTES, Recording};
use std::io::{BufReader, Read};
use std::path::Path;

pub use crate::runtime::frames::MAX_INPUT_BYTES;

/// Reads and parses a JSON Lines file of `format`; the error is one line for a person.
pub fn read_lines(path: &Path, format: Format, def: &GameDef) -> Result<Vec<Line>, String> {
    let shown = path.display().to_string();
    let file = ludus_content::open_limited(path, MAX_INPUT_BYTES)
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    crate::runtime::frames::parse_reader(&shown, BufReader::new(file), format, def)
}

/// Reads and decodes a recording, refusing anything damaged, oversized or out of range. A file
/// that does not start with the magic bytes is refused before the rest is read.
pub fn read_recording(path: &Path) -> Result<Recording, String> {
    let cannot = |e: ludus_content::ReadError| format!("cannot read {}: {e}", path.display());
    let io = |e: std::io::Error| cannot(ludus_content::ReadError::from_io(&e, MAX_RECORDING_BYTES));
    let mut reader = ludus_content::open_limited(path, MAX_RECORDING_BYTES).map_err(cannot)?;
    let mut bytes = Vec::new();
    (&mut reader)
        .take(MAGIC.len() as u64)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes == MAGIC {
        reader.read_to_end(&mut bytes).map_err(io)?;
    }
    Recording::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}
