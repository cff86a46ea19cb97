//! Ludus content: a game folder of TOML files (and the Lua scripts and images they name) loaded
//! into a [`ludus_core::GameDef`], or refused with [`Diagnostics`] that say exactly where and
//! what is wrong.
//!
//! - [`load_game`] reads through a [`FileSource`]: [`MemorySource`] (tests, the browser) or
//!   [`DirSource`] (a folder on disk); [`load_dir`] is the desktop shortcut.
//! - Every error of a file is reported in one run, each at the exact key or value at fault,
//!   with a suggestion where one helps; references across files are checked once everything is
//!   read. [`Diagnostics::render`] is what `ludus check` prints.
//! - Nothing panics on any input: oversized files, deep nesting, bad encodings and numbers out of
//!   any range are all diagnostics.
//! - [`LoadedGame::files`] lists every file read, and [`ludus_core::GameDef::content_hash`] is an
//!   xxh3-64 over them, so any change to content, scripts or images changes it. Each distinct
//!   file is read and checked once however many declarations name it
//!   ([`LoadedGame::assets`] holds the binary ones' bytes once), and the game's files and
//!   decoded assets are bounded in total ([`MAX_GAME_BYTES`], [`MAX_DECODED_BYTES`]).
//! - Images, sounds and fonts are checked with `ludus-decode`, the decoders the app draws
//!   and plays them with, so what loads is what the app can decode (`docs/content.md`, File
//!   limits).
//! - [`Key`] lists the keys a game can bind; a program keeping some for itself says so in
//!   [`LoadOptions`], and content binding one of them is refused.
//! - [`read_test`] reads a game's test file (`tests/*.toml`, run by `ludus test`) with the same
//!   diagnostics.
//! - [`reference_markdown`] is the authoring reference, generated from the same schema that
//!   drives validation (`docs/content.md`); [`json_schema()`] gives the JSON Schemas of the TOML
//!   files (`ludus schema`), which editors complete and check keys with.

mod actions;
mod archetype;
mod control;
mod diagnostic;
mod disk;
mod export;
mod files;
mod fonts;
mod game;
mod glob;
mod hud;
mod images;
mod json_schema;
mod key;
mod level;
mod parse;
mod path;
mod presentation;
mod reference;
mod report;
mod schema;
mod settings;
mod source;
mod suggest;
mod symbols;
mod table;
mod test_file;
mod text;
mod tilemap;
mod touch;
mod value;

pub use diagnostic::{CODES, Diagnostic, Diagnostics, Severity};
pub use disk::{
    Limited, ReadError, open_limited, read_inside, read_limited, read_regular, size_over, size_text,
};
pub use files::{MAX_DECODED_BYTES, MAX_GAME_BYTES};
pub use game::{LoadOptions, LoadedGame, load_game, load_game_with};
#[cfg(not(target_arch = "wasm32"))]
pub use game::{load_dir, load_dir_with};
pub use glob::Glob;
pub use hud::HudName;
pub use json_schema::{DIALECT, SchemaFile, json_schema};
pub use key::{Key, PadControl, PadSlot};
pub use reference::reference_markdown;
#[cfg(not(target_arch = "wasm32"))]
pub use source::DirSource;
pub use source::{FileSource, MAX_FILE_BYTES, MemorySource};
pub use test_file::{Expectation, Outcome, Place, TestSpec, Value, Want, read_test};
