//! The desktop's side of the platform seam (see `platform/mod.rs`).

#[cfg(target_os = "linux")]
pub(crate) mod alsa;
pub(crate) mod folder;
pub(crate) mod watch;

use std::sync::OnceLock;
use std::time::Instant;

/// Monotonic nanoseconds since the first call.
pub fn clock_ns() -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

pub fn log(text: &str) {
    eprintln!("{text}");
}

pub fn error(text: &str) {
    eprintln!("{text}");
}

pub fn wait_ns(ns: u64) {
    std::thread::sleep(std::time::Duration::from_nanos(ns));
}

pub fn worker_pool(workers: usize) -> Option<Box<dyn ludus_core::Executor>> {
    Some(Box::new(ludus_core::ThreadPool::new(workers)))
}
