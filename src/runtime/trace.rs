//! The per-tick trace: one JSON line per completed tick, `{"tick":T,"hash":"..","entities":N}`,
//! written by `ludus sim --trace` and, as ticks complete in the window, `ludus run --trace`.

use ludus_core::StateHash;
use std::io::Write;

/// The trace line of tick `tick` (the world's tick number), whose state hash is `hash`.
pub fn tick_line(tick: u64, hash: StateHash, entities: usize) -> String {
    format!(
        "{{\"tick\":{tick},\"hash\":\"{}\",\"entities\":{entities}}}\n",
        hash.hex()
    )
}

/// A trace the window writes (`ludus run --trace FILE`).
///
/// Invariants: a line is written per completed tick, in order, and after a rewind one line
/// `{"rewound":N,"tick":T,"hash":".."}` (the ticks run again then get their lines again). The
/// first write that fails stops the trace: nothing more is written, and [`TickTrace::error`]
/// says so until taken.
pub struct TickTrace {
    out: Option<Box<dyn Write>>,
    path: String,
    error: Option<String>,
}

impl TickTrace {
    /// A trace into `out`, named `path` in messages.
    #[cfg_attr(
        target_arch = "wasm32",
        allow(dead_code, reason = "`ludus run` traces")
    )]
    pub fn new(out: Box<dyn Write>, path: String) -> TickTrace {
        TickTrace {
            out: Some(out),
            path,
            error: None,
        }
    }

    fn write(&mut self, text: &str) {
        if let Some(out) = &mut self.out
            && let Err(e) = out.write_all(text.as_bytes())
        {
            self.fail(e);
        }
    }

    fn fail(&mut self, e: std::io::Error) {
        self.out = None;
        self.error = Some(format!("cannot write the trace {}: {e}", self.path));
    }

    /// Tick `tick` completed with state hash `hash` and `entities` entities.
    pub fn tick(&mut self, tick: u64, hash: StateHash, entities: usize) {
        self.write(&tick_line(tick, hash, entities));
    }

    /// A rewind of `n` ticks left the world at tick `tick`, whose state hash is `hash`.
    pub fn rewound(&mut self, n: u64, tick: u64, hash: StateHash) {
        let line = format!(
            "{{\"rewound\":{n},\"tick\":{tick},\"hash\":\"{}\"}}\n",
            hash.hex()
        );
        self.write(&line);
    }

    /// Writes out what is buffered (after each frame).
    pub fn flush(&mut self) {
        if let Some(out) = &mut self.out
            && let Err(e) = out.flush()
        {
            self.fail(e);
        }
    }

    /// Why the trace stopped, once.
    pub fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }
}
