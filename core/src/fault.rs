//! Simulation faults: the one way a tick fails.

use crate::phase::Phase;
use serde::{Deserialize, Deserializer, Serialize};
use std::borrow::Cow;
use std::fmt;

/// The longest fault message (and location), in bytes: the bound game-over messages have
/// ([`MAX_TEXT_BYTES`](crate::MAX_TEXT_BYTES)). A longer one is cut when the fault is made.
pub const MAX_FAULT_MESSAGE_BYTES: usize = 4096;

/// What kind of rule a fault broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FaultKind {
    /// A script raised an error, exceeded its budget or sent a malformed command.
    Script,
    /// A bounded queue or pool that must not drop anything was full.
    Capacity,
    /// A debug invariant check failed.
    Invariant,
    /// A counter or deadline would have overflowed (tick index, timer deadline).
    Exhausted,
    /// A level could not be built.
    Load,
}

/// A simulation fault. The tick it happened in is not published; the session stops ticking
/// and keeps the world for inspection until a restart.
///
/// Invariant: `message` and `location` hold at most [`MAX_FAULT_MESSAGE_BYTES`] bytes each.
/// [`Fault::new`], [`Fault::with_location`] and deserializing cut a longer text at a char
/// boundary and end it with a mark naming its full length (see `cut`), so a fault made from
/// a script's 10 MB error is 4 KiB wherever it goes (output, recordings). The text is kept as
/// it was made, control characters included; [`Display`](fmt::Display) shows them escaped
/// (see [`printable`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    pub kind: FaultKind,
    /// The tick that failed (0 when no tick was running).
    pub tick: u64,
    pub phase: Option<Phase>,
    #[serde(deserialize_with = "cut_string")]
    pub message: String,
    /// Where in content or scripts, as `file:line` when known.
    #[serde(deserialize_with = "cut_location")]
    pub location: Option<String>,
}

impl Fault {
    pub fn new(kind: FaultKind, message: impl Into<String>) -> Self {
        Fault {
            kind,
            tick: 0,
            phase: None,
            message: cut(message.into()),
            location: None,
        }
    }

    pub fn at(mut self, tick: u64, phase: Phase) -> Self {
        self.tick = tick;
        self.phase = Some(phase);
        self
    }

    pub fn with_location(mut self, location: impl Into<String>) -> Self {
        self.location = Some(cut(location.into()));
        self
    }
}

/// `text` within [`MAX_FAULT_MESSAGE_BYTES`]: unchanged when it fits, else its first bytes up
/// to a char boundary followed by `… [cut from N bytes]`, the whole at most the bound. Cutting
/// never allocates more than the text held: the mark is written into the room cut off.
pub fn cut(mut text: String) -> String {
    if text.len() <= MAX_FAULT_MESSAGE_BYTES {
        return text;
    }
    let mark = format!("… [cut from {} bytes]", text.len());
    let mut end = MAX_FAULT_MESSAGE_BYTES - mark.len();
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push_str(&mark);
    text.shrink_to_fit();
    text
}

fn cut_string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    String::deserialize(d).map(cut)
}

fn cut_location<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Option::<String>::deserialize(d).map(|l| l.map(cut))
}

/// Whether `c` must not reach a terminal as it is: control characters (C0, DEL, C1),
/// bidirectional overrides, embeddings, isolates and marks, and the Unicode line and paragraph
/// separators. Only a tab passes.
pub fn terminal_control(c: char) -> bool {
    unsafe_char(c, false)
}

fn unsafe_char(c: char, keep_newlines: bool) -> bool {
    match c {
        '\t' => false,
        '\n' => !keep_newlines,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}' => true,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        c => c.is_control(),
    }
}

fn escape(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    if !text.chars().any(|c| unsafe_char(c, keep_newlines)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if unsafe_char(c, keep_newlines) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` safe to print on a terminal: every character that could move the cursor, change
/// colours, ring the bell, rename the window or reorder what follows (see `unsafe_char`) is
/// written as `\u{..}`; tabs and line feeds are kept. Text that games, scripts and recordings
/// supply passes through it on its way to a terminal.
pub fn printable(text: &str) -> Cow<'_, str> {
    escape(text, true)
}

/// [`printable`], and line feeds escaped too: for text shown inside one line of output.
pub fn printable_line(text: &str) -> Cow<'_, str> {
    escape(text, false)
}

impl fmt::Display for Fault {
    /// `location: message (tick T, Phase)`, with control characters escaped (see
    /// [`printable`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.location {
            write!(f, "{}: ", printable(loc))?;
        }
        write!(f, "{}", printable(&self.message))?;
        if self.tick > 0 {
            write!(f, " (tick {}", self.tick)?;
            if let Some(p) = self.phase {
                write!(f, ", {}", p.name())?;
            }
            write!(f, ")")?;
        }
        Ok(())
    }
}

impl std::error::Error for Fault {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_are_cut_at_a_char_boundary_and_marked() {
        let ten_mb = "x".repeat(10 << 20);
        // 6000 bytes of two-byte chars: the cut falls inside one and moves back a byte.
        let wide = "é".repeat(3000);
        let mark = |n: usize| format!("… [cut from {n} bytes]");
        // (message, what it becomes)
        let cases: [(&str, String); 5] = [
            ("short", "short".into()),
            (&ten_mb[..4096], ten_mb[..4096].into()),
            (
                &ten_mb[..4097],
                format!("{}{}", &ten_mb[..4096 - mark(4097).len()], mark(4097)),
            ),
            (
                &ten_mb,
                format!(
                    "{}{}",
                    &ten_mb[..4096 - mark(10 << 20).len()],
                    mark(10 << 20)
                ),
            ),
            (
                &wide,
                format!(
                    "{}{}",
                    "é".repeat((4096 - mark(6000).len()) / 2),
                    mark(6000)
                ),
            ),
        ];
        for (message, expected) in cases {
            let f = Fault::new(FaultKind::Script, message);
            assert_eq!(f.message, expected, "a {}-byte message", message.len());
            assert!(
                f.message.len() <= MAX_FAULT_MESSAGE_BYTES,
                "{}",
                message.len()
            );
            let l = Fault::new(FaultKind::Load, "m").with_location(message);
            assert_eq!(
                l.location,
                Some(expected),
                "a {}-byte location",
                message.len()
            );
        }
    }

    #[test]
    fn a_decoded_fault_is_cut_too() {
        #[derive(Serialize)]
        struct Raw<'a> {
            kind: FaultKind,
            tick: u64,
            phase: Option<Phase>,
            message: &'a str,
            location: Option<&'a str>,
        }
        let big = "y".repeat(9000);
        let raw = Raw {
            kind: FaultKind::Script,
            tick: 1,
            phase: None,
            message: &big,
            location: Some(&big),
        };
        let f: Fault = postcard::from_bytes(&postcard::to_allocvec(&raw).unwrap()).unwrap();
        assert_eq!(f.message, cut(big.clone()), "message");
        assert_eq!(f.location, Some(cut(big)), "location");
        assert!(
            f.message.ends_with("… [cut from 9000 bytes]"),
            "{}",
            &f.message[4000..]
        );
    }

    #[test]
    fn control_and_bidi_characters_are_escaped_for_terminals() {
        // (text, printable, printable_line)
        let cases = [
            ("plain text", "plain text", "plain text"),
            ("tab\tand\nline", "tab\tand\nline", "tab\tand\\u{a}line"),
            ("\u{1b}[2J\u{7}", "\\u{1b}[2J\\u{7}", "\\u{1b}[2J\\u{7}"),
            (
                "a\rb\u{7f}c\u{9b}d",
                "a\\u{d}b\\u{7f}c\\u{9b}d",
                "a\\u{d}b\\u{7f}c\\u{9b}d",
            ),
            (
                "\u{202e}evil\u{2066}\u{2069}\u{200f}",
                "\\u{202e}evil\\u{2066}\\u{2069}\\u{200f}",
                "\\u{202e}evil\\u{2066}\\u{2069}\\u{200f}",
            ),
            ("é ü 日本 ✓", "é ü 日本 ✓", "é ü 日本 ✓"),
        ];
        for (text, shown, line) in cases {
            assert_eq!(printable(text), shown, "printable({text:?})");
            assert_eq!(printable_line(text), line, "printable_line({text:?})");
        }
        let f = Fault::new(FaultKind::Script, "boom\u{1b}]0;pwned\u{7}")
            .with_location("a\u{1b}.lua:1")
            .at(3, Phase::Gameplay);
        assert_eq!(
            f.to_string(),
            "a\\u{1b}.lua:1: boom\\u{1b}]0;pwned\\u{7} (tick 3, Gameplay)"
        );
        assert_eq!(
            f.message, "boom\u{1b}]0;pwned\u{7}",
            "the message itself is kept"
        );
    }
}
