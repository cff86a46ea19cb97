//! The browser's side of the platform seam (see `platform/mod.rs`).

use crate::platform::Kept;
use std::ffi::{CString, c_char};

// gl.js supplies the console functions; web/ludus.js the rest.
#[link(wasm_import_module = "env")]
unsafe extern "C" {
    fn console_log(msg: *const c_char);
    fn console_error(msg: *const c_char);
    fn ludus_now_ms() -> f64;
    fn ludus_audio_available() -> bool;
    fn ludus_offer_recording(bytes: *const u8, len: usize, name: *const u8, name_len: usize);
    fn ludus_saved_len(key: *const u8, key_len: usize) -> f64;
    fn ludus_saved_read(key: *const u8, key_len: usize, out: *mut u8, cap: usize) -> f64;
    fn ludus_saved_write(key: *const u8, key_len: usize, text: *const u8, len: usize) -> bool;
    fn ludus_saved_move(key: *const u8, key_len: usize, to: *const u8, to_len: usize) -> bool;
    fn ludus_pads_read(out: *mut f64, cap: usize);
}

fn c_string(text: &str) -> CString {
    CString::new(text.replace('\0', " ")).unwrap_or_default()
}

/// Writes a line to the browser console.
pub fn log(text: &str) {
    let msg = c_string(text);
    // SAFETY: gl.js reads the NUL-terminated string at `msg` before returning; it lives until
    // the end of this function.
    unsafe { console_log(msg.as_ptr()) }
}

/// Writes an error to the browser console.
pub fn error(text: &str) {
    let msg = c_string(text);
    // SAFETY: as in `log`.
    unsafe { console_error(msg.as_ptr()) }
}

/// Monotonic nanoseconds (`performance.now()`; `std::time::Instant` does not exist here).
pub fn clock_ns() -> u64 {
    // SAFETY: a plain import without arguments.
    let ms = unsafe { ludus_now_ms() };
    (ms.max(0.0) * 1e6) as u64
}

/// Whether the page can play sound at all (a WebAudio context exists and audio.js is loaded).
pub fn audio_available() -> bool {
    // SAFETY: a plain import without arguments.
    unsafe { ludus_audio_available() }
}

/// No file watching in the browser: the game is compiled into the module.
pub struct Watcher;

impl Watcher {
    pub fn new(_dir: &std::path::Path) -> Result<Watcher, String> {
        Err("the browser cannot watch files".into())
    }

    pub fn changed(&mut self) -> bool {
        false
    }
}

pub fn wait_ns(_ns: u64) {}

/// The browser has no game folders: its game is compiled into the module.
pub fn load_folder(
    dir: &std::path::Path,
    _options: &ludus_content::LoadOptions<'_>,
) -> Result<super::GameFolder, String> {
    Err(format!(
        "{}: the browser cannot read game folders",
        dir.display()
    ))
}

pub fn worker_pool(_workers: usize) -> Option<Box<dyn ludus_core::Executor>> {
    None
}

/// Offers a recording of game `name` as a download on the page.
pub fn save_recording(_dir: Option<&str>, name: &str, bytes: &[u8]) -> Result<String, String> {
    let file = format!(
        "{}.ludusrec",
        name.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    );
    // SAFETY: ludus.js copies both byte ranges out of wasm memory before returning.
    unsafe { ludus_offer_recording(bytes.as_ptr(), bytes.len(), file.as_ptr(), file.len()) };
    Ok(format!("{file}, offered as a download on the page"))
}

/// A game's saved data in the page's `localStorage`, under the game's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavePlace {
    key: String,
}

impl SavePlace {
    pub fn of_game(name: &str) -> Result<SavePlace, String> {
        Ok(SavePlace { key: name.into() })
    }

    /// The stored text's UTF-8 bytes, refusing more than `most` bytes before any is copied
    /// into the module.
    pub fn read(&self, most: usize) -> Result<Kept, String> {
        let key = self.key.as_bytes();
        // SAFETY: ludus.js reads the key's bytes before returning.
        let len = unsafe { ludus_saved_len(key.as_ptr(), key.len()) };
        if len == -1.0 {
            return Ok(Kept::Nothing);
        }
        if len < 0.0 {
            return Err(format!("cannot read {self}: the page's storage refused"));
        }
        if len > most as f64 {
            return Ok(Kept::TooLarge);
        }
        let mut out = vec![0u8; len as usize];
        // SAFETY: ludus.js writes at most `out.len()` bytes at `out` before returning.
        let n = unsafe { ludus_saved_read(key.as_ptr(), key.len(), out.as_mut_ptr(), out.len()) };
        if n != len {
            return Err(format!("cannot read {self}: it changed while it was read"));
        }
        Ok(Kept::Bytes(out))
    }

    /// Moves what is stored to the key with `.damaged` after it (replacing what was there),
    /// so data the game cannot use is not lost when it writes its own; where it went.
    pub fn set_aside(&self) -> Result<String, String> {
        let to = format!("{}.damaged", self.key);
        let (key, to_bytes) = (self.key.as_bytes(), to.as_bytes());
        // SAFETY: ludus.js reads both byte ranges before returning.
        let ok = unsafe { ludus_saved_move(key.as_ptr(), key.len(), to_bytes.as_ptr(), to.len()) };
        if ok {
            Ok(to)
        } else {
            Err(format!(
                "cannot move {self} aside: the page's storage refused"
            ))
        }
    }

    /// Replaces the stored text (`localStorage.setItem` replaces it whole).
    pub fn write(&self, text: &str) -> Result<(), String> {
        let key = self.key.as_bytes();
        // SAFETY: ludus.js copies both byte ranges out of wasm memory before returning.
        let ok = unsafe { ludus_saved_write(key.as_ptr(), key.len(), text.as_ptr(), text.len()) };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "cannot write {self}: the page's storage refused (full, or off)"
            ))
        }
    }
}

impl std::fmt::Display for SavePlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "localStorage[{:?}]", self.key)
    }
}

/// The page's pads: the Gamepad API, read once a frame by web/ludus.js into a snapshot
/// (`pad_snapshot.rs`); the events are the changes since the last one.
pub struct PadSource {
    before: super::pad_snapshot::Snapshot,
}

impl PadSource {
    pub fn open() -> PadSource {
        PadSource {
            before: super::pad_snapshot::Snapshot::default(),
        }
    }

    /// Appends the events since the last poll (at most 24 a slot, within
    /// [`super::MAX_PAD_EVENTS`]).
    pub fn poll(&mut self, out: &mut Vec<super::PadEvent>) {
        let mut raw = [0.0f64; super::pad_snapshot::LEN];
        // SAFETY: ludus.js writes at most `raw.len()` numbers at `raw` before returning.
        unsafe { ludus_pads_read(raw.as_mut_ptr(), raw.len()) };
        let now = super::pad_snapshot::Snapshot::read(&raw);
        self.before.changes(&now, out);
        self.before = now;
    }
}
