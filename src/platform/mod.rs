//! What differs between the desktop and the browser, one item per capability, each chosen by
//! one `cfg` here; the rest of the program uses these names and never tests the target.
//!
//! The floor of the program: it knows nothing of `runtime` or `app`. It returns plain data
//! (a loaded game folder, a recording's place) and takes what it plays as sample sources
//! ([`Track`]).
//!
//! | capability | desktop | browser |
//! | --- | --- | --- |
//! | [`clock_ns`] | `std::time::Instant` (monotonic) | `performance.now()` |
//! | [`log`], [`error`] | standard error | the console |
//! | [`SoundOutput`] | ALSA loaded at run time (Linux), quad-snd elsewhere | WebAudio through quad-snd, opened by the first gesture |
//! | [`Watcher`] | `notify` on the game folder | none (the game is compiled in) |
//! | [`wait_ns`] | sleeps | returns (the browser paces frames) |
//! | [`load_folder`] | reads the game folder ([`GameFolder`]) | none (the game is compiled in) |
//! | [`worker_pool`] | threads | none (background work runs in the tick's thread) |
//! | [`QUIT_ON_ESCAPE`] | Escape quits | a page does not close itself |
//! | [`save_recording`] | a file in the game folder's `recordings/` | a download link on the page |
//! | [`SavePlace`] | `ludus/GAME/save.json` in the data folder (`$XDG_DATA_HOME`, else `~/.local/share`; macOS `~/Library/Application Support`; Windows `%APPDATA%`), replaced by a rename | `localStorage` under the game's name |
//! | [`PadSource`] | gilrs with SDL's mapping database (libudev loaded at run time on Linux) | the Gamepad API, read by web/ludus.js (`pad_snapshot.rs`) |

#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(any(target_arch = "wasm32", test))]
mod pad_snapshot;
#[cfg(not(target_os = "linux"))]
mod quad;
#[cfg(target_arch = "wasm32")]
mod web;

/// Monotonic nanoseconds since an arbitrary start.
#[cfg(not(target_arch = "wasm32"))]
pub use native::clock_ns;
#[cfg(target_arch = "wasm32")]
pub use web::clock_ns;

/// A line of diagnostics for the person running the game.
#[cfg(not(target_arch = "wasm32"))]
pub use native::{error, log};
#[cfg(target_arch = "wasm32")]
pub use web::{error, log};

/// Sound output: `open()` (None when there is no device), `prepare`, `play`.
#[cfg(target_os = "linux")]
pub use native::alsa::Output as SoundOutput;
#[cfg(not(target_os = "linux"))]
pub use quad::Output as SoundOutput;

/// A looping music track a [`SoundOutput`] plays, made by its owner (the app decodes a sound
/// file while it plays): the output only asks it for samples.
pub trait Track: Send {
    /// The volume the track plays at (0 to 1).
    #[cfg_attr(
        target_os = "linux",
        allow(dead_code, reason = "quad-snd's outputs use it")
    )]
    fn volume(&self) -> f32;

    /// Adds the next `out.len()` samples (mono, at [`SAMPLE_RATE`]) at the track's volume to
    /// `out`, starting over at its end. `Err` when it cannot go on (it is then over; what was
    /// added stays).
    #[cfg_attr(
        not(target_os = "linux"),
        allow(dead_code, reason = "ALSA's mixer streams")
    )]
    fn fill(&mut self, out: &mut [f32]) -> Result<(), String>;

    /// The whole track, once, without the volume, for an output that loops a buffer itself.
    #[cfg_attr(
        target_os = "linux",
        allow(dead_code, reason = "quad-snd's outputs use it")
    )]
    fn whole(self: Box<Self>) -> Result<Vec<i16>, String>;
}

/// Browsers let a page make sound only after a user gesture: the output is opened by the first
/// key or button press, and cues before it are dropped.
pub const OPEN_SOUND_ON_GESTURE: bool = cfg!(target_arch = "wasm32");

/// Watches the game folder for changed content (`ludus run`'s hot reload).
#[cfg(not(target_arch = "wasm32"))]
pub use native::watch::Watcher;
#[cfg(target_arch = "wasm32")]
pub use web::Watcher;

/// Waits before the next frame (the desktop paces its own frames; a browser frame never
/// waits, the page's animation frames pace it).
#[cfg(not(target_arch = "wasm32"))]
pub use native::wait_ns;
#[cfg(target_arch = "wasm32")]
pub use web::wait_ns;

/// A game folder loaded from disk: the game, and the modules its scripts `require` (read
/// under the content's rules).
pub struct GameFolder {
    pub loaded: ludus_content::LoadedGame,
    pub modules: std::rc::Rc<dyn ludus_script::ModuleSource>,
}

/// Loads a game folder from disk with the loader's `options` (`ludus run`, `check`, `sim`...;
/// hot reload); the error is the rendered diagnostics.
#[cfg(not(target_arch = "wasm32"))]
pub use native::folder::load_folder;
#[cfg(target_arch = "wasm32")]
pub use web::load_folder;

/// A pool of worker threads for background work, where the platform has threads.
#[cfg(not(target_arch = "wasm32"))]
pub use native::worker_pool;
#[cfg(target_arch = "wasm32")]
pub use web::worker_pool;

/// Keeps a recording the person asked for (F8) or a fault left: where it went.
#[cfg(not(target_arch = "wasm32"))]
pub use native::save_recording;
#[cfg(target_arch = "wasm32")]
pub use web::save_recording;

/// Where a game's saved data is kept between runs: `of_game(name)`, then `read(most)` (at
/// most `most` bytes: a [`Kept`]), `write(text)` (whole, atomically) and `set_aside()` (moved
/// to a name of its own, `.damaged` after the place's, when it cannot be used).
#[cfg(not(target_arch = "wasm32"))]
pub use native::saved::SavePlace;
#[cfg(target_arch = "wasm32")]
pub use web::SavePlace;

/// What [`SavePlace::read`] finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kept {
    /// Nothing is kept there.
    Nothing,
    /// What is kept, within the bound asked.
    Bytes(Vec<u8>),
    /// More than the bound asked is kept (none of it read).
    TooLarge,
}

/// What a gamepad did, as a [`PadSource`] reports it; `runtime/pads.rs` numbers the pads and
/// turns their controls into the keys games bind.
///
/// `pad` is the platform's id of one pad: the same for all its events while it is connected,
/// and again when it reconnects where the platform can tell. `uuid` names its model (pads of
/// one model share it). A button is down or up; an axis value is the control's position
/// before any deadzone: sticks -1 to 1, right and down positive; triggers 0 to 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PadEvent {
    Connected {
        pad: u64,
        uuid: [u8; 16],
    },
    Disconnected {
        pad: u64,
    },
    Button {
        pad: u64,
        control: ludus_content::PadControl,
        down: bool,
    },
    Axis {
        pad: u64,
        control: ludus_content::PadControl,
        value: f32,
    },
}

/// The most pad events one poll of a [`PadSource`] returns; the rest wait for the next.
pub const MAX_PAD_EVENTS: usize = 256;

/// Gamepads: `PadSource::open()` (a source without pads where the platform has none), then
/// `poll(&mut events)` once a frame, which appends the pad events since the last poll (at most
/// [`MAX_PAD_EVENTS`]); the first poll connects the pads already there.
#[cfg(not(target_arch = "wasm32"))]
pub use native::pads::PadSource;
#[cfg(target_arch = "wasm32")]
pub use web::PadSource;

/// Whether Escape quits the program.
pub const QUIT_ON_ESCAPE: bool = cfg!(not(target_arch = "wasm32"));

/// The sample rate of every [`SoundOutput`] (16-bit mono).
pub const SAMPLE_RATE: u32 = 44_100;
