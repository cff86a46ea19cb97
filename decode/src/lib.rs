//! Ludus asset decoding: the game's binary files read under limits. PNG images, WAV and OGG
//! Vorbis sounds, TrueType and OpenType fonts. `ludus-content` checks a game's files with
//! these functions when it loads them, and the app decodes them with the same ones, so what
//! `ludus check` accepts is what the app can decode.
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
//!
//! - [`png_size`] and [`decode_png`]: an image's header, and its pixels (`image.rs`);
//! - [`sound_info`], [`decode_sound`] and [`SoundStream`]: a sound's header, its samples at
//!   once, or a piece at a time while it plays (`sound/`: WAV, and OGG pages and Vorbis
//!   headers);
//! - [`load_font`] and [`load_font_measured`]: a font for the characters Ludus draws (`font/`:
//!   the `glyf` and CFF outlines measured).

mod font;
mod image;
mod sound;

pub use font::{
    FONT_CHARS, MAX_EMS, MAX_GLYPH_POINTS, MAX_LINES, MAX_OUTLINE_POINTS, MAX_SUBTABLES, load_font,
    load_font_measured,
};
pub use image::{MAX_IMAGE_SIDE, PngError, decode_png, png_size};
pub use sound::{
    MAX_CODEBOOK_ENTRIES, MAX_SAMPLES, MAX_SECONDS, MAX_VQ_VALUES, Pcm, SoundInfo,
    Stream as SoundStream, decode as decode_sound, info as sound_info,
};
