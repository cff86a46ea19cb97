//! Two things at once where the platform has threads: the one place the tick's passes (and the
//! presentation's extraction and batching) split work across cores. Results are joined in a fixed order by the caller, so a split pass gives
//! exactly what the serial one does.

/// Rows of one archetype from which a pass splits them between two threads (below, the cost
/// of starting a thread outweighs the gain).
pub const SPLIT_MIN: usize = 16_384;

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

/// Runs `a` and `b`, on two threads where the platform has them (one after the other where
/// it has not, or where the system refuses a thread), and returns both results.
pub fn join<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        // `b` goes to the thread through a slot, so it is still here when no thread starts.
        let slot = std::sync::Mutex::new(Some(b));
        std::thread::scope(|s| {
            let other = std::thread::Builder::new().spawn_scoped(s, || {
                let b = slot.lock().ok().and_then(|mut b| b.take());
                b.map(|b| b())
            });
            let first = a();
            let second = match other {
                Ok(handle) => match handle.join() {
                    Ok(v) => v,
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                Err(_) => None,
            };
            let second = match second {
                Some(v) => v,
                None => match slot.lock().ok().and_then(|mut b| b.take()) {
                    Some(b) => b(),
                    None => unreachable!("the other half ran or is still here"),
                },
            };
            (first, second)
        })
    }
    #[cfg(target_arch = "wasm32")]
    {
        (a(), b())
    }
}
