//! The game's binary files, decoded under limits: PNG images, WAV and OGG Vorbis sounds,
//! TrueType and OpenType fonts. The loader checks them with these functions and the app
//! decodes them with the same ones, so what `ludus check` accepts is what the app can decode.
//!
//! Guarantees, whatever the bytes:
//! - Every size a file declares (an image's width and height, a sound's length, channels and
//!   codebooks, the comment and setup headers of an OGG file, a font's tables and glyph
//!   outlines) is checked against the limits below before anything of that size is allocated
//!   or any work in proportion to it is done.
//! - Nothing panics and nothing aborts: every refusal is an error that says what the file
//!   declares and which limit it passes. Third-party decoders only see input that passed these
//!   checks; a panic in one is still caught where unwinding exists (not in the browser, which
//!   is why the checks come first).
//! - The loader reads and checks each distinct file once however many declarations name it,
//!   and bounds the game's total (see [`MAX_GAME_BYTES`] and [`MAX_DECODED_BYTES`]).

mod cff;
mod charstring;
mod font;
mod glyf;
mod image;
mod ogg;
mod sound;
mod vorbis;

pub(crate) use font::load as load_font_measured;
pub use font::{FONT_CHARS, load_font};
pub(crate) use font::{MAX_EMS, MAX_GLYPH_POINTS, MAX_LINES, MAX_OUTLINE_POINTS, MAX_SUBTABLES};
pub use image::{MAX_IMAGE_SIDE, PngError, decode_png, png_size};
pub use sound::{MAX_SAMPLES, MAX_SECONDS, Pcm, SoundInfo, Stream, decode, info};
pub(crate) use vorbis::{MAX_CODEBOOK_ENTRIES, MAX_VQ_VALUES};

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

/// What every sound must be, WAV or OGG Vorbis: mono or stereo, at 8000 to 192000 Hz.
pub(crate) fn check_sound(rate: u32, channels: u16) -> Result<(), String> {
    if !(1..=2).contains(&channels) {
        return Err(format!("{channels} channels; sounds are mono or stereo"));
    }
    if !(8_000..=192_000).contains(&rate) {
        return Err(format!(
            "a sample rate of {rate} Hz; from 8000 to 192000 Hz is supported"
        ));
    }
    Ok(())
}
