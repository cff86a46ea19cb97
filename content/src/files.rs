//! Reading the files a game names: size, emptiness and encoding checks, the record of what was
//! read (in order) and the content hash over it.
//!
//! Each distinct file is read and checked once, however many declarations name it: later
//! declarations share its bytes and its check (a refusal is reported at the first). The
//! distinct files' bytes together are bounded by [`MAX_GAME_BYTES`], and what the game's
//! images, sounds and tile maps take once decoded by [`MAX_DECODED_BYTES`]
//! ([`Files::charge`]); each refusal names the file that crossed the bound.

use crate::disk::{ReadError, size_over, size_text};
use crate::path;
use crate::report::{Loc, Report};
use crate::source::{FileSource, MAX_FILE_BYTES};
use crate::suggest;
use crate::value::Named;
use ludus_decode::{PngError, SoundInfo};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::sync::Arc;
use xxhash_rust::xxh3::Xxh3Default;

/// The most bytes a game's content files may hold together, each distinct file counted once
/// however many declarations name it (256 MiB).
pub const MAX_GAME_BYTES: u64 = 256 * 1024 * 1024;

/// The most bytes a game's decoded images, sounds, fonts and tile maps may take together (256
/// MiB): each image file 4 bytes a texel of its pixels and the one-texel border it is packed
/// with, once per filter it is drawn with; each `[sounds]` entry with a file 2 bytes a sample
/// of every channel, for as long as the file declares (the player keeps one copy per entry);
/// each font file what the rasteriser keeps of its glyphs and their outlines' lines; each tile
/// map 6 bytes a cell (2 kept, 4 while its solid tiles are merged) plus its CSV file's size.
pub const MAX_DECODED_BYTES: u64 = 256 * 1024 * 1024;

/// What a listed file is expected to hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum FileKind {
    Archetypes,
    Level,
    Script,
    Image,
    Sound,
    Font,
    /// A tile map's CSV file (text).
    Map,
}

impl FileKind {
    fn noun(self) -> &'static str {
        match self {
            FileKind::Archetypes => "archetype file",
            FileKind::Level => "level file",
            FileKind::Script => "script",
            FileKind::Image => "image",
            FileKind::Sound => "sound file",
            FileKind::Font => "font file",
            FileKind::Map => "tile map",
        }
    }

    fn empty_help(self) -> &'static str {
        match self {
            FileKind::Archetypes => {
                "an archetype file holds `[archetypes.NAME]` tables; write some, or remove the file from `archetype_files`"
            }
            FileKind::Level => {
                "a level file needs at least `name = \"...\"`; write it, or remove the file from `level_files`"
            }
            FileKind::Script => "write the script, or remove it from `files` in `[scripts]`",
            FileKind::Image => "export the image again",
            FileKind::Sound => "export the sound again",
            FileKind::Font => "copy the font file again",
            FileKind::Map => "export the map again, or write its rows in `rows`",
        }
    }
}

/// A file that was read and passed its checks.
#[derive(Clone)]
pub(crate) enum Read {
    /// A text file, registered with the report under this index.
    Text(usize, Rc<str>),
    /// A PNG image of `width` x `height` pixels (from its header; the bytes are only hashed).
    Image { width: u32, height: u32 },
    /// A WAV or OGG Vorbis file whose headers read (the samples are not decoded).
    Sound(SoundInfo),
    /// A TrueType or OpenType font that loads, and the bytes the loaded font holds.
    Font(u64),
}

/// The files read so far, in order, for [`crate::LoadedGame::files`] and the content hash.
pub(crate) struct Files<'s> {
    source: &'s dyn FileSource,
    /// Every read in order, repeats included (the content hash covers them so); repeats share
    /// their bytes.
    read: Vec<(String, Arc<[u8]>)>,
    /// Each distinct path's bytes, or why it could not be read.
    fetched: HashMap<String, Result<Arc<[u8]>, Refused>>,
    /// Each distinct path's check as a kind of file (`None`: refused, already reported).
    checked: HashMap<(String, FileKind), Option<Read>>,
    /// The distinct files' bytes so far.
    bytes: u64,
    /// What [`Files::charge`] counted so far.
    decoded: u64,
}

impl<'s> Files<'s> {
    pub fn new(source: &'s dyn FileSource) -> Self {
        Files {
            source,
            read: Vec::new(),
            fetched: HashMap::new(),
            checked: HashMap::new(),
            bytes: 0,
            decoded: 0,
        }
    }

    /// Counts `bytes` of decoded `what` (an image, a sound, a font, a tile map) declared at `loc`
    /// against [`MAX_DECODED_BYTES`]; past it, reports the declaration that crossed it and
    /// returns false (nothing is counted then).
    pub fn charge(&mut self, r: &mut Report, loc: Loc, what: &str, bytes: u64) -> bool {
        let total = self.decoded.saturating_add(bytes);
        if total > MAX_DECODED_BYTES {
            r.error_as("file", 
                loc,
                format!(
                    "{what} takes {} once decoded, which would bring the game's decoded images, sounds, fonts and tile maps to {}; they may take at most {} together",
                    size_text(bytes),
                    size_text(total),
                    size_text(MAX_DECODED_BYTES)
                ),
            )
            .help("use fewer or smaller images, shorter sounds (music streams and does not count), fewer fonts or smaller tile maps");
            return false;
        }
        self.decoded = total;
        true
    }

    /// Reads `game.toml`. Problems concern the whole file, except bad encoding, which is shown
    /// where it is.
    pub fn read_game(&mut self, r: &mut Report) -> Option<(usize, Rc<str>)> {
        let path = "game.toml";
        let bytes = match self.fetch(path) {
            Ok(bytes) => bytes,
            Err((Refused::Read(ReadError::TooLarge { size, .. }), _)) => {
                r.file_error(path, too_large(path, size));
                return None;
            }
            Err((Refused::GameFull, _)) => return None,
            Err((Refused::Read(reason), _)) => {
                let help = refused_help(&reason).unwrap_or(
                    "a game folder has a `game.toml` at its top; check that this is the game folder",
                );
                r.file_error(path, format!("cannot read game.toml: {reason}"))
                    .help(help);
                return None;
            }
        };
        self.read.push((path.to_string(), bytes.clone()));
        let (file, text) = register_text(r, path, &bytes)?;
        if text.trim().is_empty() {
            r.file_error(path, "game.toml is empty")
                .help("a game needs at least `name = \"...\"` and one level (`level_files` or a `[levels.NAME]` table)");
            return None;
        }
        Some((file, text))
    }

    /// Reads a file named in content at `named` (its path already in normal form). Problems
    /// are reported at the string that names the file, except bad encoding, which is shown
    /// where it is. A file read before as the same kind gives the same answer, and a refusal
    /// is reported only the first time.
    pub fn read_listed(&mut self, r: &mut Report, named: &Named, kind: FileKind) -> Option<Read> {
        let path = named.name.as_str();
        let bytes = match self.fetch(path) {
            Ok(bytes) => bytes,
            Err((reason, first)) => {
                if first {
                    self.refused(r, named, kind, &reason);
                }
                return None;
            }
        };
        self.read.push((path.to_string(), bytes.clone()));
        let key = (path.to_string(), kind);
        if let Some(done) = self.checked.get(&key) {
            return done.clone();
        }
        let read = check(r, named, kind, &bytes);
        self.checked.insert(key, read.clone());
        read
    }

    /// Reports why a listed file could not be read.
    fn refused(&self, r: &mut Report, named: &Named, kind: FileKind, reason: &Refused) {
        let path = named.name.as_str();
        let noun = kind.noun();
        match reason {
            Refused::Read(ReadError::TooLarge { size, .. }) => {
                r.error_as("file", named.loc, too_large(path, *size));
            }
            Refused::GameFull => {
                r.error_as("file", 
                    named.loc,
                    format!(
                        "{noun} `{path}` would bring the game's files to more than {}; they may hold at most that together (each file counted once)",
                        size_text(MAX_GAME_BYTES)
                    ),
                )
                .help("use fewer or smaller files");
            }
            Refused::Read(reason) => {
                if let Some(help) = refused_help(reason) {
                    r.error_as(
                        "file",
                        named.loc,
                        format!("cannot read {noun} `{path}`: {reason}"),
                    )
                    .help(help);
                    return;
                }
                let siblings = self.source.list(path::parent(path));
                let n = r.error_as(
                    "file",
                    named.loc,
                    format!("cannot read {noun} `{path}`: {reason}"),
                );
                match suggest::did_you_mean(path, siblings.iter().map(String::as_str)) {
                    Some(hint) => n.help(hint),
                    None => n.help(
                        "paths are relative to the game folder, not to the file that names them",
                    ),
                }
            }
        }
    }

    /// The bytes of `path`, read once: refused past [`MAX_FILE_BYTES`] whatever the source
    /// does, and past [`MAX_GAME_BYTES`] with the distinct files read before. An error says
    /// whether this is the first time it is refused.
    fn fetch(&mut self, path: &str) -> Result<Arc<[u8]>, (Refused, bool)> {
        if let Some(done) = self.fetched.get(path) {
            return done.clone().map_err(|e| (e, false));
        }
        let fetched = self
            .source
            .read(path)
            .map_err(Refused::Read)
            .and_then(|bytes| {
                if bytes.len() > MAX_FILE_BYTES {
                    return Err(Refused::Read(ReadError::TooLarge {
                        size: u64::try_from(bytes.len()).ok(),
                        limit: MAX_FILE_BYTES as u64,
                    }));
                }
                let total = self.bytes.saturating_add(bytes.len() as u64);
                if total > MAX_GAME_BYTES {
                    return Err(Refused::GameFull);
                }
                self.bytes = total;
                Ok(Arc::from(bytes))
            });
        self.fetched.insert(path.to_string(), fetched.clone());
        fetched.map_err(|e| (e, true))
    }

    /// The bytes of every image, sound and font file that passed its checks, by path.
    pub fn binary(&self) -> BTreeMap<String, Arc<[u8]>> {
        let binary = |k: &FileKind| matches!(k, FileKind::Image | FileKind::Sound | FileKind::Font);
        self.checked
            .iter()
            .filter(|((_, kind), read)| binary(kind) && read.is_some())
            .filter_map(|((path, _), _)| {
                let bytes = self.fetched.get(path)?.as_ref().ok()?;
                Some((path.clone(), bytes.clone()))
            })
            .collect()
    }

    /// Every file read, in order.
    pub fn paths(&self) -> Vec<String> {
        self.read.iter().map(|(p, _)| p.clone()).collect()
    }

    /// xxh3-64 over every file read, in reading order: path, a zero byte, the length as 8
    /// little-endian bytes, then the bytes; a file read again adds its path and length only
    /// (its bytes are covered once, so many declarations of one file cost no more time).
    pub fn hash(&self) -> u64 {
        let mut h = Xxh3Default::new();
        let mut seen = std::collections::HashSet::new();
        for (path, bytes) in &self.read {
            h.update(path.as_bytes());
            h.update(&[0]);
            h.update(&u64::try_from(bytes.len()).unwrap_or(u64::MAX).to_le_bytes());
            if seen.insert(path.as_str()) {
                h.update(bytes);
            }
        }
        h.digest()
    }
}

/// Checks a listed file's bytes as `kind`; a problem is reported at `named`.
fn check(r: &mut Report, named: &Named, kind: FileKind, bytes: &[u8]) -> Option<Read> {
    let path = named.name.as_str();
    let noun = kind.noun();
    let binary = matches!(kind, FileKind::Image | FileKind::Sound | FileKind::Font);
    if binary && bytes.is_empty() {
        r.error_as("file", named.loc, format!("{noun} `{path}` is empty"))
            .help(kind.empty_help());
        return None;
    }
    if kind == FileKind::Image {
        let (why, help) = match ludus_decode::png_size(bytes) {
            Ok((width, height)) => return Some(Read::Image { width, height }),
            Err(PngError::NotPng) => (
                "is not a PNG file".to_string(),
                "images must be PNG files; the file does not start with the PNG signature",
            ),
            Err(PngError::NoHeader) => (
                "has no valid PNG header (IHDR)".to_string(),
                "the file is damaged or truncated; export the image again",
            ),
            Err(PngError::TooLarge { width, height }) => (
                format!(
                    "is {width}x{height} pixels, larger than {m}x{m}",
                    m = ludus_decode::MAX_IMAGE_SIDE
                ),
                "scale it down, or split it into several images",
            ),
        };
        r.error_as("file", named.loc, format!("{noun} `{path}` {why}"))
            .help(help);
        return None;
    }
    if kind == FileKind::Sound {
        return match ludus_decode::sound_info(bytes) {
            Ok(info) => Some(Read::Sound(info)),
            Err(why) => {
                r.error_as(
                    "file",
                    named.loc,
                    format!("{noun} `{path}` cannot be played: {why}"),
                )
                .help("sounds are WAV (PCM or float) or OGG Vorbis files, mono or stereo");
                None
            }
        };
    }
    if kind == FileKind::Font {
        return match ludus_decode::load_font_measured(bytes) {
            Ok((_, held)) => Some(Read::Font(held)),
            Err(why) => {
                r.error_as("file", named.loc, format!("{noun} `{path}` cannot be read as a font: {why}"))
                    .help("fonts are TrueType (.ttf) or OpenType (.otf) files; for a pixel font cut from an image, use `image` and `glyphs` instead of `file`");
                None
            }
        };
    }
    let (file, text) = register_text(r, path, bytes)?;
    if text.trim().is_empty() {
        r.error_as("file", named.loc, format!("{noun} `{path}` is empty"))
            .help(kind.empty_help());
        return None;
    }
    Some(Read::Text(file, text))
}

/// Why a file's bytes were not taken.
#[derive(Clone)]
enum Refused {
    Read(ReadError),
    /// With the distinct files read before, it would pass [`MAX_GAME_BYTES`].
    GameFull,
}

/// `size`: the real size when known (a source may stop reading at the limit).
fn too_large(path: &str, size: Option<u64>) -> String {
    let limit = MAX_FILE_BYTES as u64;
    format!(
        "`{path}` is too large ({}); content files may be at most {}",
        size_over(size, limit),
        size_text(limit)
    )
}

/// Help for a file that exists but is refused as it is (not for one that is missing).
fn refused_help(reason: &ReadError) -> Option<&'static str> {
    match reason {
        ReadError::Outside => Some(
            "content is read only from inside the game folder; copy the file into it instead of linking to it",
        ),
        ReadError::NotAFile(_) => Some("name a regular file (a text or PNG file) here"),
        _ => None,
    }
}

/// Registers a file's text; bad UTF-8 is reported at its first invalid byte.
pub(crate) fn register_text(r: &mut Report, path: &str, bytes: &[u8]) -> Option<(usize, Rc<str>)> {
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            let text: Rc<str> = Rc::from(text);
            Some((r.add_file(path, text.clone()), text))
        }
        Err(e) => {
            let at = e.valid_up_to();
            let lossy: Rc<str> = Rc::from(String::from_utf8_lossy(bytes).as_ref());
            let file = r.add_file(path, lossy);
            let byte = bytes.get(at).copied().unwrap_or(0);
            let loc = crate::report::Loc {
                file,
                start: at,
                end: at + '\u{fffd}'.len_utf8(),
            };
            r.error_as(
                "file",
                loc,
                format!("`{path}` is not valid UTF-8 (byte 0x{byte:02x})"),
            )
            .help("content files must be UTF-8 text; save the file as UTF-8");
            None
        }
    }
}
