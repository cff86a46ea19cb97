//! Reading the files a game names: size, emptiness and encoding checks, the record of what was
//! read (in order) and the content hash over it.

use crate::disk::{ReadError, size_over, size_text};
use crate::path;
use crate::report::Report;
use crate::source::{FileSource, MAX_FILE_BYTES};
use crate::suggest;
use crate::value::Named;
use std::rc::Rc;
use xxhash_rust::xxh3::Xxh3Default;

/// The first bytes of every PNG file.
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// The largest image side, in pixels: with a one-texel border it fills a 4096 texture page.
pub(crate) const MAX_IMAGE_SIDE: u32 = 4094;

/// Width and height from a PNG's IHDR chunk (which must come first), both at least 1.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let header = bytes.get(8..24)?;
    if &header[4..8] != b"IHDR" {
        return None;
    }
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    let (w, h) = (be(&header[8..12]), be(&header[12..16]));
    (w > 0 && h > 0).then_some((w, h))
}

/// What a listed file is expected to hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
pub(crate) enum Read {
    /// A text file, registered with the report under this index.
    Text(usize, Rc<str>),
    /// A PNG image of `width` x `height` pixels (from its header; the bytes are only hashed).
    Image { width: u32, height: u32 },
    /// A WAV or OGG Vorbis file whose header reads (the bytes are only hashed).
    Sound,
    /// A TrueType or OpenType font that parses (the bytes are only hashed).
    Font,
}

/// The files read so far, in order, for [`crate::LoadedGame::files`] and the content hash.
pub(crate) struct Files<'s> {
    source: &'s dyn FileSource,
    read: Vec<(String, Vec<u8>)>,
}

impl<'s> Files<'s> {
    pub fn new(source: &'s dyn FileSource) -> Self {
        Files {
            source,
            read: Vec::new(),
        }
    }

    /// Reads `game.toml`. Problems concern the whole file, except bad encoding, which is shown
    /// where it is.
    pub fn read_game(&mut self, r: &mut Report) -> Option<(usize, Rc<str>)> {
        let path = "game.toml";
        let bytes = match self.fetch(path) {
            Ok(bytes) => bytes,
            Err(ReadError::TooLarge { size, .. }) => {
                r.file_error(path, too_large(path, size));
                return None;
            }
            Err(reason) => {
                let help = refused_help(&reason).unwrap_or(
                    "a game folder has a `game.toml` at its top; check that this is the game folder",
                );
                r.file_error(path, format!("cannot read game.toml: {reason}"))
                    .help(help);
                return None;
            }
        };
        self.read.push((path.to_string(), bytes));
        let bytes = self.read.last().map_or(&[][..], |(_, b)| b.as_slice());
        let (file, text) = register_text(r, path, bytes)?;
        if text.trim().is_empty() {
            r.file_error(path, "game.toml is empty")
                .help("a game needs at least `name = \"...\"` and one level (`level_files` or a `[levels.NAME]` table)");
            return None;
        }
        Some((file, text))
    }

    /// Reads a file named in content at `named` (its path already in normal form). Problems
    /// are reported at the string that names the file, except bad encoding, which is shown
    /// where it is.
    pub fn read_listed(&mut self, r: &mut Report, named: &Named, kind: FileKind) -> Option<Read> {
        let path = named.name.as_str();
        let noun = kind.noun();
        let bytes = match self.fetch(path) {
            Ok(bytes) => bytes,
            Err(ReadError::TooLarge { size, .. }) => {
                r.error(named.loc, too_large(path, size));
                return None;
            }
            Err(reason) => {
                if let Some(help) = refused_help(&reason) {
                    r.error(named.loc, format!("cannot read {noun} `{path}`: {reason}"))
                        .help(help);
                    return None;
                }
                let siblings = self.source.list(path::parent(path));
                let n = r.error(named.loc, format!("cannot read {noun} `{path}`: {reason}"));
                match suggest::did_you_mean(path, siblings.iter().map(String::as_str)) {
                    Some(hint) => n.help(hint),
                    None => n.help(
                        "paths are relative to the game folder, not to the file that names them",
                    ),
                }
                return None;
            }
        };
        self.read.push((path.to_string(), bytes));
        let bytes = self.read.last().map_or(&[][..], |(_, b)| b.as_slice());
        let binary = matches!(kind, FileKind::Image | FileKind::Sound | FileKind::Font);
        if binary && bytes.is_empty() {
            r.error(named.loc, format!("{noun} `{path}` is empty"))
                .help(kind.empty_help());
            return None;
        }
        if kind == FileKind::Image {
            if !bytes.starts_with(PNG_SIGNATURE) {
                r.error(named.loc, format!("{noun} `{path}` is not a PNG file"))
                    .help(
                        "images must be PNG files; the file does not start with the PNG signature",
                    );
                return None;
            }
            let Some((width, height)) = png_size(bytes) else {
                r.error(
                    named.loc,
                    format!("{noun} `{path}` has no valid PNG header (IHDR)"),
                )
                .help("the file is damaged or truncated; export the image again");
                return None;
            };
            if width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE {
                r.error(
                    named.loc,
                    format!("{noun} `{path}` is {width}x{height} pixels, larger than {MAX_IMAGE_SIDE}x{MAX_IMAGE_SIDE}"),
                )
                .help("scale it down, or split it into several images");
                return None;
            }
            return Some(Read::Image { width, height });
        }
        if kind == FileKind::Sound {
            if let Err(why) = crate::sound::info(bytes) {
                r.error(
                    named.loc,
                    format!("{noun} `{path}` cannot be played: {why}"),
                )
                .help("sounds are WAV (PCM or float) or OGG Vorbis files, mono or stereo");
                return None;
            }
            return Some(Read::Sound);
        }
        if kind == FileKind::Font {
            if let Err(why) = crate::fonts::parse(bytes) {
                r.error(named.loc, format!("{noun} `{path}` cannot be read as a font: {why}"))
                    .help("fonts are TrueType (.ttf) or OpenType (.otf) files; for a pixel font cut from an image, use `image` and `glyphs` instead of `file`");
                return None;
            }
            return Some(Read::Font);
        }
        let (file, text) = register_text(r, path, bytes)?;
        if text.trim().is_empty() {
            r.error(named.loc, format!("{noun} `{path}` is empty"))
                .help(kind.empty_help());
            return None;
        }
        Some(Read::Text(file, text))
    }

    /// The bytes of `path`, refused past [`MAX_FILE_BYTES`] whatever the source does.
    fn fetch(&self, path: &str) -> Result<Vec<u8>, ReadError> {
        let bytes = self.source.read(path)?;
        if bytes.len() > MAX_FILE_BYTES {
            return Err(ReadError::TooLarge {
                size: u64::try_from(bytes.len()).ok(),
                limit: MAX_FILE_BYTES as u64,
            });
        }
        Ok(bytes)
    }

    /// Every file read, in order.
    pub fn paths(&self) -> Vec<String> {
        self.read.iter().map(|(p, _)| p.clone()).collect()
    }

    /// xxh3-64 over every file read, in reading order: path, a zero byte, the length as 8
    /// little-endian bytes, then the bytes.
    pub fn hash(&self) -> u64 {
        let mut h = Xxh3Default::new();
        for (path, bytes) in &self.read {
            h.update(path.as_bytes());
            h.update(&[0]);
            h.update(&u64::try_from(bytes.len()).unwrap_or(u64::MAX).to_le_bytes());
            h.update(bytes);
        }
        h.digest()
    }
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
fn register_text(r: &mut Report, path: &str, bytes: &[u8]) -> Option<(usize, Rc<str>)> {
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
            r.error(
                loc,
                format!("`{path}` is not valid UTF-8 (byte 0x{byte:02x})"),
            )
            .help("content files must be UTF-8 text; save the file as UTF-8");
            None
        }
    }
}
