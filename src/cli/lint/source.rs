//! A script's text as a person finds a place in it: 1-based lines, columns in characters.

use ludus_content::Diagnostic;

/// A range of the source, in bytes: `start..end`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// A script's text, with where each line starts.
pub struct Source<'a> {
    /// The path as messages show it.
    pub shown: &'a str,
    text: &'a str,
    /// Byte offset of each line's first character; the first is 0.
    starts: Vec<usize>,
}

impl<'a> Source<'a> {
    pub fn new(shown: &'a str, text: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Source {
            shown,
            text,
            starts,
        }
    }

    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The text of 1-based `line`, without its line break (empty past the end).
    fn line(&self, line: usize) -> &'a str {
        let Some(&start) = self.starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self.starts.get(line).map_or(self.text.len(), |&e| e - 1);
        self.text
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches('\r')
    }

    /// A problem at `span`: its line, its column in characters, and the characters of the span
    /// on that line underlined.
    pub fn at(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        let start = span.start.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= start).max(1);
        let text = self.line(line);
        let from = self.starts.get(line - 1).copied().unwrap_or(0);
        let chars = |a: usize, b: usize| self.text.get(a..b).map_or(1, |s| s.chars().count());
        let col = chars(from, start) + 1;
        let width = chars(start, span.end.clamp(start, from + text.len()));
        Diagnostic::at(
            self.shown,
            text,
            to_u32(line),
            to_u32(col),
            to_u32(width),
            message,
        )
    }

    /// A problem on 1-based `line` as a whole: the caret under its text, from its first
    /// character that is not blank.
    pub fn at_line(&self, line: usize, message: impl Into<String>) -> Diagnostic {
        let text = self.line(line);
        let blank = text.len() - text.trim_start().len();
        let from = self.starts.get(line.wrapping_sub(1)).copied();
        match from {
            Some(from) => self.at(
                Span {
                    start: from + blank,
                    end: from + text.trim_end().len(),
                },
                message,
            ),
            None => Diagnostic::whole_file(self.shown, message),
        }
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
