//! A game bundle: a game folder's files packed into one byte string, with the name, the Ludus
//! version that packed it, the content hash that recordings carry, and a checksum.
//!
//! Layout (integers little-endian):
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | [`MAGIC`] |
//! | 4 | format ([`FORMAT`]) |
//! | 2 + n | the Ludus version that packed it (length, UTF-8) |
//! | 2 + n | the game's name |
//! | 8 | the content hash of the game the files load as |
//! | 1 | flags: bit 0 set: exported with `--dev` (the developer's view); other bits 0 |
//! | 4 | file count |
//! | per file: 2 + n, 8 + n | path relative to the game folder (`/`-separated), bytes |
//! | 8 | xxh3 of everything before it |
//!
//! Decoding checks the length and checksum before reading anything else, then every count and
//! length against the bytes left before taking room for it, so a truncated, corrupt or hostile
//! bundle is a clear error in time and memory linear in its size.

use std::collections::BTreeMap;

/// The first bytes of every bundle.
pub const MAGIC: &[u8; 8] = b"LUDUSBUN";
/// The layout's version.
pub const FORMAT: u32 = 2;
/// The Ludus version that packs and reads bundles: a bundle from another one is refused (its
/// content hash and rules may differ).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The most files one bundle may hold.
pub const MAX_FILES: usize = 65_536;

/// A game packed for shipping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bundle {
    pub name: String,
    pub content_hash: u64,
    /// Exported with `--dev`: played with the developer's view (help line, developer keys),
    /// not in release mode.
    pub dev: bool,
    /// By path relative to the game folder.
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Bundle {
    /// The bundle's bytes (packing is the command line's; the browser only reads bundles).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT.to_le_bytes());
        let text = |out: &mut Vec<u8>, s: &str| {
            let bytes = &s.as_bytes()[..s.len().min(u16::MAX as usize)];
            out.extend_from_slice(&(bytes.len() as u16).to_le_bytes());
            out.extend_from_slice(bytes);
        };
        text(&mut out, VERSION);
        text(&mut out, &self.name);
        out.extend_from_slice(&self.content_hash.to_le_bytes());
        out.push(u8::from(self.dev));
        out.extend_from_slice(&(self.files.len() as u32).to_le_bytes());
        for (path, bytes) in &self.files {
            text(&mut out, path);
            out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            out.extend_from_slice(bytes);
        }
        let sum = xxhash_rust::xxh3::xxh3_64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a bundle, refusing one that is truncated, damaged, from another Ludus version, or
    /// holds a path that leaves the game folder; the error is one line for a person.
    pub fn decode(bytes: &[u8]) -> Result<Bundle, String> {
        let fixed = MAGIC.len() + 4;
        if bytes.len() < fixed || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a Ludus game bundle (it does not start with LUDUSBUN)".into());
        }
        let (body, sum) = bytes
            .split_last_chunk::<8>()
            .filter(|(body, _)| body.len() >= fixed)
            .ok_or("the game bundle is truncated")?;
        let mut r = Reader {
            bytes: &body[MAGIC.len()..],
        };
        let format = r.u32()?;
        if format != FORMAT {
            return Err(format!(
                "the game bundle has format {format}; this Ludus {VERSION} reads format {FORMAT}: \
                 export the game again with this version"
            ));
        }
        // The version comes before the checksum test: a bundle from another version may have
        // been summed differently.
        let version = r.text()?;
        if version != VERSION {
            return Err(format!(
                "the game bundle was made by Ludus {version}; this is Ludus {VERSION}: \
                 export the game again with this version"
            ));
        }
        if xxhash_rust::xxh3::xxh3_64(body) != u64::from_le_bytes(*sum) {
            return Err("the game bundle is damaged (its checksum does not match)".into());
        }
        let name = r.text()?;
        let content_hash = r.u64()?;
        let dev = match r.take(1)?[0] {
            0 => false,
            1 => true,
            flags => return Err(format!("the game bundle has unknown flags {flags:#04x}")),
        };
        let count = r.u32()? as usize;
        if count > MAX_FILES {
            return Err(format!(
                "the game bundle lists {count} files; at most {MAX_FILES} are allowed"
            ));
        }
        let mut files = BTreeMap::new();
        for _ in 0..count {
            let path = r.text()?;
            if !relative(&path) {
                return Err(format!(
                    "the game bundle holds {path:?}, a path outside the game folder"
                ));
            }
            let len = r.u64()?;
            let data = r.take(usize::try_from(len).map_err(|_| truncated())?)?;
            if files.insert(path.clone(), data.to_vec()).is_some() {
                return Err(format!("the game bundle holds {path:?} twice"));
            }
        }
        if !r.bytes.is_empty() {
            return Err("the game bundle has bytes after its last file".into());
        }
        Ok(Bundle {
            name,
            content_hash,
            dev,
            files,
        })
    }
}

/// Whether `path` names a file inside the game folder: relative, `/`-separated, without empty,
/// `.` or `..` parts.
pub fn relative(path: &str) -> bool {
    !path.is_empty()
        && !path.contains('\\')
        && path
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != ".." && !part.contains(':'))
}

fn truncated() -> String {
    "the game bundle is truncated".into()
}

/// A cursor over a bundle's bytes; every read checks what is left first.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.bytes.len() < n {
            return Err(truncated());
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().expect("2 bytes"),
        ))
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }

    fn text(&mut self) -> Result<String, String> {
        let n = self.u16()? as usize;
        String::from_utf8(self.take(n)?.to_vec())
            .map_err(|_| "the game bundle holds a name that is not UTF-8".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Bundle {
        Bundle {
            name: "tiny".into(),
            content_hash: 0x1234_5678_9abc_def0,
            dev: false,
            files: [
                ("game.toml".to_string(), b"[game]\n".to_vec()),
                ("scripts/main.lua".to_string(), b"-- hi\n".to_vec()),
                ("images/empty.png".to_string(), Vec::new()),
            ]
            .into_iter()
            .collect(),
        }
    }

    #[test]
    fn a_bundle_reads_back_as_written() {
        for dev in [false, true] {
            let b = Bundle { dev, ..sample() };
            assert_eq!(Bundle::decode(&b.encode()), Ok(b), "dev {dev}");
        }
    }

    #[test]
    fn damaged_bundles_are_refused_with_a_reason() {
        let bytes = sample().encode();
        let err = |bytes: &[u8]| Bundle::decode(bytes).unwrap_err();
        // Every truncation and every flipped byte is an error, never a panic or a bundle.
        for cut in 0..bytes.len() {
            assert!(Bundle::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        for at in 0..bytes.len() {
            let mut b = bytes.clone();
            b[at] ^= 0x20;
            assert!(Bundle::decode(&b).is_err(), "flipped byte {at}");
        }
        let mut flipped = bytes.clone();
        let last_file = bytes.len() - 20;
        flipped[last_file] ^= 1;
        assert_eq!(
            err(&flipped),
            "the game bundle is damaged (its checksum does not match)"
        );
        assert!(err(&bytes[..bytes.len() - 3]).contains("damaged"));
        assert!(err(b"PK\x03\x04 a zip file").contains("not a Ludus game bundle"));
    }

    #[test]
    fn other_versions_and_formats_are_refused() {
        let mut bytes = sample().encode();
        let at = MAGIC.len() + 4 + 2;
        bytes[at] = b'9';
        let e = Bundle::decode(&bytes).unwrap_err();
        assert!(
            e.contains("made by Ludus 9") && e.contains("export the game again"),
            "{e}"
        );
        let mut bytes = sample().encode();
        bytes[MAGIC.len()] = 1;
        assert!(Bundle::decode(&bytes).unwrap_err().contains("format 1"));
    }

    #[test]
    fn paths_outside_the_game_folder_are_refused() {
        for bad in ["../x.lua", "/etc/passwd", "a//b", "./a", "C:/x", "a\\b", ""] {
            assert!(!relative(bad), "{bad}");
            let mut b = sample();
            b.files.insert(bad.to_string(), vec![1]);
            let e = Bundle::decode(&b.encode()).unwrap_err();
            assert!(e.contains("outside the game folder"), "{bad}: {e}");
        }
        assert!(relative("scripts/lib/util.lua"));
    }
}
