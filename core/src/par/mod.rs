//! Two things at once where the platform has threads: the one place the tick's passes (and the
//! presentation's extraction and batching) split work across cores. Results are joined in a
//! fixed order by the caller, so a split pass gives exactly what the serial one does.

#[cfg(not(target_arch = "wasm32"))]
mod worker;

/// Rows of one archetype from which a pass splits them between two threads (below, handing
/// half to the other core costs more than it saves).
pub const SPLIT_MIN: usize = 8_192;

/// Whether this machine can run two passes at once.
pub fn available() -> bool {
    #[cfg(not(target_arch = "wasm32"))]
    {
        static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get())) > 1
    }
    #[cfg(target_arch = "wasm32")]
    {
        false
    }
}

/// Runs `a` and `b` and returns both results: `b` on the process's one worker thread where the
/// platform has threads and the worker is free (it is started on first use and kept), else
/// after `a` on this thread. A panic in either is resumed here after both have finished.
pub fn join<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        worker::join(a, b)
    }
    #[cfg(target_arch = "wasm32")]
    {
        (a(), b())
    }
}
