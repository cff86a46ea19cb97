//! Saved data: the one store per game that outlives a run (best scores, unlocked levels).
//!
//! Scripts send `ludus.save(key, value)` (a command, applied after the stage) and read
//! `ludus.saved(key)` (the value as of the start of the stage). The store lives in the world,
//! so ticks change it, rewinds restore it and the state hash covers it (only once it holds
//! something: a game that never saves hashes as it always did); a restart and a level switch
//! carry it into the new world. What it held when a run began is part of the run's recording.
//! Writing it to disk (or to the browser's storage) is the program's business, not the tick's.
//!
//! Invariants of [`SaveStore`]: every key has 1 to [`MAX_SAVE_KEY_BYTES`] bytes, every number
//! is finite, and [`SaveStore::bytes`] is the size of its [`SaveStore::to_json`] text plus one
//! (a comma counted after every entry): the measure `[limits] save_bytes` bounds, checked
//! before each entry is added, so the text a program writes, and reads back, is never larger
//! than the bound.
//!
//! The text is a JSON object of the keys in byte order, numbers as numbers and texts as
//! strings: `{"best":1200,"name":"Ann"}`. [`SaveStore::from_json`] reads it back, refusing
//! anything else with the line and column of the first fault.

use crate::fault::Fault;
use crate::limits::Limit;
use crate::var::Var;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// The longest key of saved data, in bytes.
pub const MAX_SAVE_KEY_BYTES: usize = 64;

/// What an empty store's text (`{}`) takes.
const EMPTY_BYTES: usize = 2;

/// A game's saved data (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct SaveStore {
    entries: BTreeMap<String, Var>,
    bytes: usize,
}

impl Default for SaveStore {
    fn default() -> Self {
        SaveStore {
            entries: BTreeMap::new(),
            bytes: EMPTY_BYTES,
        }
    }
}

impl SaveStore {
    /// The value saved under `key`.
    pub fn get(&self, key: &str) -> Option<&Var> {
        self.entries.get(key)
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entries, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Var)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The store's size as `[limits] save_bytes` counts it: its text's bytes, plus one.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// What the entry under `key` costs now (0: there is none).
    pub fn cost_of(&self, key: &str) -> usize {
        self.entries.get(key).map_or(0, |v| entry_bytes(key, v))
    }

    /// Saves `value` under `key` (`None`: deletes it), unless the store would then take more
    /// than `bound` bytes: `Err` with what it would take, the store unchanged. The key and
    /// value must be valid ([`check_key`], `check_value`); a delete never fails.
    pub fn set(&mut self, key: &str, value: Option<Var>, bound: usize) -> Result<(), usize> {
        let old = self.cost_of(key);
        match value {
            None => {
                self.entries.remove(key);
                self.bytes -= old;
            }
            Some(v) => {
                let after = self.bytes - old + entry_bytes(key, &v);
                if after > bound {
                    return Err(after);
                }
                self.entries.insert(key.to_string(), v);
                self.bytes = after;
            }
        }
        Ok(())
    }

    /// The store as the text a program keeps (see the module documentation).
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(self.bytes);
        out.push('{');
        for (i, (k, v)) in self.entries.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write_entry(&mut out, k, v);
        }
        out.push('}');
        out
    }

    /// Reads a store's text, refusing a text that is not one (the error says where), a key
    /// saved twice or not of 1 to [`MAX_SAVE_KEY_BYTES`] bytes, a value that is not a finite
    /// number or a string, or a store past `bound` bytes. Reads the text once, in order.
    pub fn from_json(text: &str, bound: usize) -> Result<SaveStore, String> {
        let mut p = Parser { text, at: 0 };
        let mut store = SaveStore::default();
        p.expect(b'{')?;
        if p.peek() == Some(b'}') {
            p.at += 1;
        } else {
            loop {
                p.skip_space();
                let at = p.at;
                let key = p.string()?;
                check_key(key.as_bytes()).map_err(|e| p.error_at(at, &e))?;
                if store.entries.contains_key(&key) {
                    return Err(p.error_at(at, &format!("`{key}` is saved twice")));
                }
                p.expect(b':')?;
                let value = p.value()?;
                store.set(&key, Some(value), bound).map_err(|after| {
                    p.error_at(
                        at,
                        &format!("the store would take {after} bytes, more than {bound}"),
                    )
                })?;
                match p.next_byte()? {
                    b',' => continue,
                    b'}' => break,
                    _ => return Err(p.error_at(p.at - 1, "expected `,` or `}`")),
                }
            }
        }
        if p.peek().is_some() {
            return Err(p.error_at(p.at, "text after the store's closing `}`"));
        }
        Ok(store)
    }
}

/// Checks a key of saved data (given as bytes, so a long one is refused before it is copied):
/// 1 to [`MAX_SAVE_KEY_BYTES`] bytes. The error names the key (its beginning, when long).
pub fn check_key(key: &[u8]) -> Result<(), String> {
    if !key.is_empty() && key.len() <= MAX_SAVE_KEY_BYTES {
        return Ok(());
    }
    let shown = String::from_utf8_lossy(&key[..key.len().min(MAX_SAVE_KEY_BYTES)]);
    let more = if key.len() > MAX_SAVE_KEY_BYTES {
        "…"
    } else {
        ""
    };
    Err(format!(
        "a saved key must have 1 to {MAX_SAVE_KEY_BYTES} bytes; `{shown}{more}` has {}",
        key.len()
    ))
}

/// The fault of a save that would take the store to `after` bytes, past `bound`
/// (`[limits] save_bytes`).
pub(crate) fn past_bound(bound: u32, key: &str, after: usize) -> Fault {
    Limit::SaveBytes.exceeded(
        bound,
        format_args!("bytes of saved data: saving `{key}` would take the store to {after}"),
    )
}

/// Checks a value of saved data: a number must be finite.
pub fn check_value(value: &Var) -> Result<(), String> {
    match value {
        Var::Num(n) if !n.is_finite() => Err(format!("a saved number must be finite, got {n}")),
        _ => Ok(()),
    }
}

/// What saving `value` under `key` costs: its `"key":value` in the text, and a comma.
pub fn entry_bytes(key: &str, value: &Var) -> usize {
    let mut n = Count(1);
    let _ = write_entry(&mut n, key, value);
    n.0
}

/// Counts what is written.
struct Count(usize);

impl fmt::Write for Count {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

fn write_entry(out: &mut impl fmt::Write, key: &str, value: &Var) -> fmt::Result {
    write_string(out, key)?;
    out.write_char(':')?;
    match value {
        Var::Num(n) => write_number(out, *n),
        Var::Text(t) => write_string(out, t),
    }
}

/// A number as JSON: whole numbers without a fraction, others as Rust's shortest form that
/// reads back to the same number (`0.1`, `1e300`).
fn write_number(out: &mut impl fmt::Write, n: f64) -> fmt::Result {
    if n.fract() == 0.0 && n.abs() < 1e15 && !(n == 0.0 && n.is_sign_negative()) {
        write!(out, "{}", n as i64)
    } else {
        write!(out, "{n:?}")
    }
}

fn write_string(out: &mut impl fmt::Write, s: &str) -> fmt::Result {
    out.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            '\u{8}' => out.write_str("\\b")?,
            '\u{c}' => out.write_str("\\f")?,
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32)?,
            c => out.write_char(c)?,
        }
    }
    out.write_char('"')
}

/// A reader of one store's text.
struct Parser<'t> {
    text: &'t str,
    at: usize,
}

impl Parser<'_> {
    /// "line L, column C: why", for the byte at `at`.
    fn error_at(&self, at: usize, why: &str) -> String {
        let before = &self.text.as_bytes()[..at.min(self.text.len())];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
        format!("line {line}, column {column}: {why}")
    }

    fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        while self.at < bytes.len() && matches!(bytes[self.at], b' ' | b'\t' | b'\n' | b'\r') {
            self.at += 1;
        }
    }

    /// The next byte that is not white space, not taken.
    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.as_bytes().get(self.at).copied()
    }

    /// The next byte that is not white space, taken.
    fn next_byte(&mut self) -> Result<u8, String> {
        let b = self
            .peek()
            .ok_or_else(|| self.error_at(self.at, "the text ends inside the store"))?;
        self.at += 1;
        Ok(b)
    }

    fn expect(&mut self, want: u8) -> Result<(), String> {
        let at = self.at;
        match self.next_byte()? {
            b if b == want => Ok(()),
            _ => Err(self.error_at(at.max(self.at - 1), &format!("expected `{}`", want as char))),
        }
    }

    fn value(&mut self) -> Result<Var, String> {
        match self.peek() {
            Some(b'"') => Ok(Var::Text(Arc::from(self.string()?))),
            Some(b'-' | b'0'..=b'9') => self.number().map(Var::Num),
            _ => Err(self.error_at(self.at, "expected a number or a string")),
        }
    }

    /// A JSON number (its grammar checked), finite.
    fn number(&mut self) -> Result<f64, String> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        let digits = |at: &mut usize| {
            let from = *at;
            while *at < bytes.len() && bytes[*at].is_ascii_digit() {
                *at += 1;
            }
            *at - from
        };
        let mut at = start;
        if bytes.get(at) == Some(&b'-') {
            at += 1;
        }
        let whole = digits(&mut at);
        let mut ok = whole > 0 && !(whole > 1 && bytes[at - whole] == b'0');
        if bytes.get(at) == Some(&b'.') {
            at += 1;
            ok &= digits(&mut at) > 0;
        }
        if matches!(bytes.get(at), Some(b'e' | b'E')) {
            at += 1;
            if matches!(bytes.get(at), Some(b'+' | b'-')) {
                at += 1;
            }
            ok &= digits(&mut at) > 0;
        }
        self.at = at;
        let n: f64 = match self.text[start..at].parse() {
            Ok(n) if ok => n,
            _ => return Err(self.error_at(start, "a malformed number")),
        };
        if !n.is_finite() {
            return Err(self.error_at(start, "a number too large to save"));
        }
        Ok(n)
    }

    /// A JSON string, its escapes resolved.
    fn string(&mut self) -> Result<String, String> {
        let start = self.at;
        if self.next_byte()? != b'"' {
            return Err(self.error_at(start, "expected a string"));
        }
        let mut out = String::new();
        let text = self.text;
        let mut chars = text[self.at..].char_indices();
        while let Some((i, c)) = chars.next() {
            let here = self.at + i;
            match c {
                '"' => {
                    self.at = here + 1;
                    return Ok(out);
                }
                '\\' => {
                    let escaped = match chars.next().map(|(_, e)| e) {
                        Some('"') => '"',
                        Some('\\') => '\\',
                        Some('/') => '/',
                        Some('b') => '\u{8}',
                        Some('f') => '\u{c}',
                        Some('n') => '\n',
                        Some('r') => '\r',
                        Some('t') => '\t',
                        Some('u') => self.unicode(&mut chars, here)?,
                        _ => return Err(self.error_at(here, "an unknown escape")),
                    };
                    out.push(escaped);
                }
                c if (c as u32) < 0x20 => {
                    return Err(self.error_at(here, "a control character inside a string"));
                }
                c => out.push(c),
            }
        }
        Err(self.error_at(self.text.len(), "the text ends inside a string"))
    }

    /// The character of a `\u` escape (a surrogate pair takes two), after the `u`.
    fn unicode(&self, chars: &mut std::str::CharIndices<'_>, at: usize) -> Result<char, String> {
        fn hex(chars: &mut std::str::CharIndices<'_>) -> Option<u32> {
            let mut v = 0;
            for _ in 0..4 {
                v = v * 16 + chars.next()?.1.to_digit(16)?;
            }
            Some(v)
        }
        let bad = || self.error_at(at, "a malformed \\u escape");
        let first = hex(chars).ok_or_else(bad)?;
        let code = if (0xD800..0xDC00).contains(&first) {
            let (Some((_, '\\')), Some((_, 'u'))) = (chars.next(), chars.next()) else {
                return Err(bad());
            };
            let low = hex(chars).ok_or_else(bad)?;
            if !(0xDC00..0xE000).contains(&low) {
                return Err(bad());
            }
            0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00)
        } else {
            first
        };
        char::from_u32(code).ok_or_else(bad)
    }
}

/// In a recording: the entries as a list of pairs, decoded under the recording's memory
/// budget and checked as [`SaveStore::from_json`] checks a text (a recording's store is
/// bounded by its header's limits, which `Recording::validate` checks).
impl Serialize for SaveStore {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.entries.iter())
    }
}

impl<'de> Deserialize<'de> for SaveStore {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let pairs: Vec<(String, Var)> = crate::budget::vec(d)?;
        let mut store = SaveStore::default();
        for (key, value) in pairs {
            check_key(key.as_bytes()).map_err(D::Error::custom)?;
            check_value(&value).map_err(D::Error::custom)?;
            if store.entries.contains_key(&key) {
                return Err(D::Error::custom(format!(
                    "the saved key `{key}` appears twice"
                )));
            }
            let _ = store.set(&key, Some(value), usize::MAX);
        }
        Ok(store)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(entries: &[(&str, Var)]) -> SaveStore {
        let mut s = SaveStore::default();
        for (k, v) in entries {
            s.set(k, Some(v.clone()), usize::MAX).unwrap();
        }
        s
    }

    fn text(t: &str) -> Var {
        Var::Text(Arc::from(t))
    }

    #[test]
    fn the_text_is_what_bytes_counts_and_reads_back_as_written() {
        let cases: &[(&[(&str, Var)], &str)] = &[
            (&[], "{}"),
            (&[("best", Var::Num(1200.0))], r#"{"best":1200}"#),
            (
                &[
                    ("b", Var::Num(-0.5)),
                    ("a", text("Ann \"the\" \\ \n\u{1}é")),
                ],
                r#"{"a":"Ann \"the\" \\ \n\u0001é","b":-0.5}"#,
            ),
            (
                &[
                    ("big", Var::Num(1e300)),
                    ("z", Var::Num(-0.0)),
                    ("w", Var::Num(1e15)),
                ],
                r#"{"big":1e300,"w":1000000000000000.0,"z":-0.0}"#,
            ),
        ];
        for (entries, want) in cases {
            let s = store(entries);
            let json = s.to_json();
            assert_eq!(json, *want, "the text of {entries:?}");
            let extra = usize::from(!s.is_empty());
            assert_eq!(s.bytes(), json.len() + extra, "bytes of {want}");
            let back = SaveStore::from_json(&json, json.len() + 1).unwrap();
            assert_eq!(back, s, "{want} reads back");
            for (k, v) in back.iter() {
                if let (Var::Num(a), Some(Var::Num(b))) = (v, s.get(k)) {
                    assert_eq!(a.to_bits(), b.to_bits(), "{k} keeps its bits");
                }
            }
        }
    }

    #[test]
    fn set_refuses_past_the_bound_and_deletes_always() {
        let mut s = SaveStore::default();
        assert_eq!(
            s.set("a", Some(Var::Num(1.0)), 8),
            Ok(()),
            "{{\"a\":1, is 8"
        );
        assert_eq!(s.bytes(), 8);
        assert_eq!(s.set("b", Some(Var::Num(1.0)), 8), Err(14));
        assert_eq!(s.set("a", Some(Var::Num(10.0)), 8), Err(9));
        assert_eq!(s.get("a"), Some(&Var::Num(1.0)), "unchanged by a refusal");
        assert_eq!(s.set("a", None, 0), Ok(()));
        assert_eq!((s.bytes(), s.is_empty()), (EMPTY_BYTES, true));
    }

    #[test]
    fn damaged_texts_are_refused_saying_where() {
        let long = format!(r#"{{"{}":1}}"#, "k".repeat(65));
        let cases: &[(&str, &str)] = &[
            ("", "line 1, column 1: the text ends inside the store"),
            ("[]", "line 1, column 1: expected `{`"),
            (
                "{\"a\":1",
                "line 1, column 7: the text ends inside the store",
            ),
            (
                "{\"a\":1}x",
                "line 1, column 8: text after the store's closing `}`",
            ),
            (
                "{\n \"a\": true}",
                "line 2, column 7: expected a number or a string",
            ),
            ("{\"a\":01}", "line 1, column 6: a malformed number"),
            (
                "{\"a\":1e999}",
                "line 1, column 6: a number too large to save",
            ),
            ("{\"a\":1,\"a\":2}", "line 1, column 8: `a` is saved twice"),
            (
                "{\"\":1}",
                "line 1, column 2: a saved key must have 1 to 64 bytes; `` has 0",
            ),
            ("{\"a\":\"\\q\"}", "line 1, column 7: an unknown escape"),
            (
                "{\"a\":\"\\ud800\"}",
                "line 1, column 7: a malformed \\u escape",
            ),
            (
                "{\"a\":\"x\ty\"}",
                "line 1, column 8: a control character inside a string",
            ),
            ("{\"a\":1 \"b\":2}", "line 1, column 8: expected `,` or `}`"),
            (
                "{\"abcd\":123456}",
                "line 1, column 2: the store would take 16 bytes, more than 15",
            ),
        ];
        for (t, want) in cases {
            assert_eq!(SaveStore::from_json(t, 15).unwrap_err(), *want, "{t:?}");
        }
        let err = SaveStore::from_json(&long, 1000).unwrap_err();
        assert!(
            err.contains(&format!("`{}…` has 65", "k".repeat(64))),
            "the long key is named: {err}"
        );
        let ok = SaveStore::from_json(" {\r\n\"a\" : \"\\u00e9\\ud83d\\ude00\\/\" } \n", 100);
        assert_eq!(ok, Ok(store(&[("a", text("é😀/"))])), "space and escapes");
    }
}
