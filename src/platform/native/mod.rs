//! The desktop's side of the platform seam (see `platform/mod.rs`).

#[cfg(target_os = "linux")]
pub(crate) mod alsa;
pub(crate) mod folder;
pub(crate) mod pads;
pub(crate) mod saved;
pub(crate) mod watch;

use std::sync::OnceLock;
use std::time::Instant;

/// Monotonic nanoseconds since the first call.
pub fn clock_ns() -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// A line for the terminal (what scripts print, the runner's messages), control characters
/// escaped (see [`ludus_core::printable`]).
pub fn log(text: &str) {
    eprintln!("{}", ludus_core::printable(text));
}

pub fn error(text: &str) {
    eprintln!("{}", ludus_core::printable(text));
}

pub fn wait_ns(ns: u64) {
    std::thread::sleep(std::time::Duration::from_nanos(ns));
}

pub fn worker_pool(workers: usize) -> Option<Box<dyn ludus_core::Executor>> {
    Some(Box::new(ludus_core::ThreadPool::new(workers)))
}

/// Writes a recording of game `name` into the `recordings` folder of the game folder `dir`
/// (of the working directory for the bundled game); returns the file's path.
pub fn save_recording(dir: Option<&str>, name: &str, bytes: &[u8]) -> Result<String, String> {
    let folder = std::path::Path::new(dir.unwrap_or(".")).join("recordings");
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    let slug: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // A new name each time: a second recording in the same second gets a number.
    let path = (0..1000)
        .map(|n| {
            let suffix = if n == 0 {
                String::new()
            } else {
                format!("-{n}")
            };
            folder.join(format!("{slug}-{secs}{suffix}.ludusrec"))
        })
        .find(|p| !p.exists())
        .ok_or_else(|| {
            format!(
                "{} holds too many recordings of this second",
                folder.display()
            )
        })?;
    std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path.display().to_string())
}
