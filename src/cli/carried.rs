//! The game an executable carries (`ludus export desktop`): a [`Bundle`] appended to a copy of
//! the `ludus` binary, then a trailer (the bundle's length and [`TRAILER`]). At start, `ludus`
//! looks for a trailer at the end of its own file ([`embedded`]); with one, the game in it
//! replaces the bundled example: no arguments play it, and `sim`, `replay`, `run` without a
//! folder use it.

use crate::runtime::bundle::Bundle;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// The last 8 bytes of an executable that carries a game.
pub const TRAILER: &[u8; 8] = b"LUDUSEXE";
/// The largest game an executable may carry (1 GiB).
pub const MAX_BUNDLE_BYTES: u64 = 1 << 30;

/// The bytes a game adds at the end of `program` (bundle and trailer), if it carries one.
pub fn carried_len(program: &[u8]) -> Option<usize> {
    let (rest, trailer) = program.split_last_chunk::<16>()?;
    let (len, magic) = trailer.split_at(8);
    let len = u64::from_le_bytes(len.try_into().ok()?);
    (magic == TRAILER && len <= rest.len() as u64).then_some(len as usize + 16)
}

/// The game this executable carries, if it carries one (see the module documentation).
pub fn embedded() -> Option<Result<Bundle, String>> {
    static FOUND: std::sync::OnceLock<Option<Result<Bundle, String>>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let exe = std::env::current_exe().ok()?;
            read_carried(&exe).transpose()
        })
        .clone()
}

/// The bundle at the end of file `path`: `Ok(None)` when it carries none.
fn read_carried(path: &Path) -> Result<Option<Bundle>, String> {
    let shown = path.display();
    let mut file = std::fs::File::open(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let size = file
        .metadata()
        .map_err(|e| format!("cannot read {shown}: {e}"))?
        .len();
    if size < 16 {
        return Ok(None);
    }
    let mut trailer = [0u8; 16];
    file.seek(SeekFrom::Start(size - 16))
        .and_then(|_| file.read_exact(&mut trailer))
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    if &trailer[8..] != TRAILER {
        return Ok(None);
    }
    let len = u64::from_le_bytes(trailer[..8].try_into().expect("8 bytes"));
    if len > size - 16 || len > MAX_BUNDLE_BYTES {
        return Err(format!(
            "{shown}: the game it carries is damaged (it claims {len} bytes)"
        ));
    }
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(size - 16 - len))
        .and_then(|_| (&mut file).take(len).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    Bundle::decode(&bytes)
        .map(Some)
        .map_err(|e| format!("{shown}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_carried_game_is_found_and_a_plain_file_carries_none() {
        // Removed when the test ends, passed or failed.
        let tmp = tempfile::Builder::new()
            .prefix("ludus-carried-")
            .tempdir()
            .unwrap();
        let dir = tmp.path();
        let plain = dir.join("plain");
        std::fs::write(&plain, b"\x7fELF not a game at all").unwrap();
        assert_eq!(read_carried(&plain), Ok(None));
        let bundle = Bundle {
            name: "g".into(),
            content_hash: 7,
            dev: false,
            files: [("game.toml".to_string(), b"x".to_vec())]
                .into_iter()
                .collect(),
        };
        let mut bytes = b"program bytes".to_vec();
        let packed = bundle.encode();
        bytes.extend_from_slice(&packed);
        bytes.extend_from_slice(&(packed.len() as u64).to_le_bytes());
        bytes.extend_from_slice(TRAILER);
        let carrier = dir.join("carrier");
        std::fs::write(&carrier, &bytes).unwrap();
        assert_eq!(read_carried(&carrier), Ok(Some(bundle)));
        assert_eq!(carried_len(&bytes), Some(packed.len() + 16));
        // A length past the file's start is damage, not a game.
        let n = bytes.len();
        bytes[n - 16..n - 8].copy_from_slice(&(n as u64).to_le_bytes());
        std::fs::write(&carrier, &bytes).unwrap();
        assert!(read_carried(&carrier).unwrap_err().contains("damaged"));
    }
}
