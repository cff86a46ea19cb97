//! The browser's side of the platform seam (see `platform/mod.rs`).

use std::ffi::{CString, c_char};

// gl.js supplies the console functions; web/ludus.js the rest.
#[link(wasm_import_module = "env")]
unsafe extern "C" {
    fn console_log(msg: *const c_char);
    fn console_error(msg: *const c_char);
    fn ludus_now_ms() -> f64;
    fn ludus_audio_available() -> bool;
    fn ludus_offer_recording(bytes: *const u8, len: usize, name: *const u8, name_len: usize);
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
