//! State the host shares with the API's Rust functions.

use crate::budget::Budget;
use crate::stage::StageSlot;
use ludus_core::Fault;
use std::cell::RefCell;
use std::rc::Rc;

/// Lines scripts print, bounded while filling: a line longer than [`ScriptLog::LINE_BYTES`]
/// is cut (saying how much), and once [`ScriptLog::LINES`] lines or [`ScriptLog::BYTES`] bytes
/// wait to be read, further lines are dropped and counted; the count is reported as a line of
/// its own when the log is next read.
#[derive(Debug, Default)]
pub(crate) struct ScriptLog {
    lines: Vec<String>,
    bytes: usize,
    dropped: u64,
}

impl ScriptLog {
    pub const LINE_BYTES: usize = 1024;
    pub const LINES: usize = 1000;
    pub const BYTES: usize = 256 * 1024;

    pub fn push(&mut self, line: &[u8]) {
        if self.lines.len() >= Self::LINES || self.bytes >= Self::BYTES {
            self.dropped += 1;
            return;
        }
        let mut text = if line.len() > Self::LINE_BYTES {
            let mut cut = Self::LINE_BYTES;
            while cut > 0 && (line[cut] & 0xC0) == 0x80 {
                cut -= 1;
            }
            let mut t = String::from_utf8_lossy(&line[..cut]).into_owned();
            t.push_str(&format!(" ... ({} more bytes)", line.len() - cut));
            t
        } else {
            String::from_utf8_lossy(line).into_owned()
        };
        text.shrink_to_fit();
        self.bytes += text.len();
        self.lines.push(text);
    }

    /// The lines since the last call, then a line counting the dropped ones, if any.
    pub fn take(&mut self) -> Vec<String> {
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
}
