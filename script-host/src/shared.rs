//! State the host shares with the API's Rust functions.

use crate::budget::Budget;
use crate::stage::StageSlot;
use ludus_core::Fault;
use std::cell::RefCell;
use std::rc::Rc;

/// Lines scripts print, each `[tick N] file:LINE: message` (`[load]` for top-level code),
/// bounded while filling:
/// - a line longer than [`ScriptLog::LINE_BYTES`] is cut, saying how much;
/// - at most [`ScriptLog::PER_TICK`] lines of one tick are kept; the rest are counted, and the
///   count is reported as a line of its own (`[tick N] 37 more lines ...`);
/// - once [`ScriptLog::LINES`] lines or [`ScriptLog::BYTES`] bytes wait to be read, further
///   lines are dropped and counted; the count is reported when the log is next read.
#[derive(Debug, Default)]
pub(crate) struct ScriptLog {
    lines: Vec<String>,
    bytes: usize,
    dropped: u64,
    /// The tick of the last line, the lines it kept and those over the per-tick limit.
    tick: Option<u64>,
    this_tick: usize,
    over: u64,
}

impl ScriptLog {
    pub const LINE_BYTES: usize = 1024;
    pub const PER_TICK: usize = 100;
    pub const LINES: usize = 1000;
    pub const BYTES: usize = 256 * 1024;

    /// Adds a line printed at `tick` (`None`: while the scripts load) by the script at
    /// `location`.
    pub fn push(&mut self, tick: Option<u64>, location: Option<&str>, message: &[u8]) {
        if tick != self.tick {
            self.report_over();
            self.tick = tick;
            self.this_tick = 0;
        }
        if self.this_tick >= Self::PER_TICK {
            self.over += 1;
            return;
        }
        self.this_tick += 1;
        let mut text = self.prefix();
        if let Some(l) = location {
            text.push_str(l);
            text.push_str(": ");
        }
        if message.len() > Self::LINE_BYTES {
            let mut cut = Self::LINE_BYTES;
            while cut > 0 && (message[cut] & 0xC0) == 0x80 {
                cut -= 1;
            }
            text.push_str(&String::from_utf8_lossy(&message[..cut]));
            text.push_str(&format!(" ... ({} more bytes)", message.len() - cut));
        } else {
            text.push_str(&String::from_utf8_lossy(message));
        }
        self.keep(text);
    }

    fn prefix(&self) -> String {
        match self.tick {
            Some(t) => format!("[tick {t}] "),
            None => "[load] ".to_string(),
        }
    }

    fn keep(&mut self, mut text: String) {
        if self.lines.len() >= Self::LINES || self.bytes >= Self::BYTES {
            self.dropped += 1;
            return;
        }
        text.shrink_to_fit();
        self.bytes += text.len();
        self.lines.push(text);
    }

    /// Reports the lines the current tick printed over its limit, if any.
    fn report_over(&mut self) {
        if self.over > 0 {
            let line = format!(
                "{}{} more lines were not shown (at most {} lines per tick)",
                self.prefix(),
                self.over,
                Self::PER_TICK
            );
            self.over = 0;
            self.keep(line);
        }
    }

    /// The lines since the last call, then lines counting those left out, if any.
    pub fn take(&mut self) -> Vec<String> {
        self.report_over();
        let mut lines = std::mem::take(&mut self.lines);
        self.bytes = 0;
        if self.dropped > 0 {
            lines.push(format!(
                "[{} more lines were dropped: scripts printed more than {} lines or {} KiB \
                 before they were shown]",
                self.dropped,
                Self::LINES,
                Self::BYTES / 1024
            ));
            self.dropped = 0;
        }
        lines
    }
}

/// State shared with the API callbacks of a VM.
pub(crate) struct Shared {
    pub log: RefCell<ScriptLog>,
    /// The budget of every VM this host boots (one at a time).
    pub budget: Rc<Budget>,
    /// The running stage, lent to the API while Lua runs.
    pub stage: StageSlot,
    /// The first malformed-command fault of the stage (kept even if a script catches the error).
    pub malformed: RefCell<Option<Fault>>,
    /// Handler calls measured while profiling.
    pub profile: RefCell<HandlerProfile>,
}

/// The clock handler calls are timed with while profiling, and the calls timed since the
/// host last handed them on: (script from 1, event kind from 1, start, duration).
#[derive(Debug, Default)]
pub(crate) struct HandlerProfile {
    pub clock: Option<ludus_core::profile::Clock>,
    pub calls: Vec<(u32, u32, u64, u64)>,
}
