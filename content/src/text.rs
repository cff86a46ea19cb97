//! The text of one content file: byte offsets to 1-based lines and character columns, and the
//! bracket pre-scan that keeps pathological nesting away from the TOML parser.

use std::rc::Rc;

/// The deepest `[`/`{` nesting the raw text may have before it reaches the TOML parser.
pub(crate) const MAX_BRACKET_DEPTH: usize = 64;

/// One file's text with an index of its line starts.
#[derive(Clone, Debug)]
pub(crate) struct SourceText {
    pub path: String,
    pub text: Rc<str>,
    line_starts: Vec<usize>,
}

impl SourceText {
    pub fn new(path: String, text: Rc<str>) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        SourceText {
            path,
            text,
            line_starts,
        }
    }

    /// Clamps `offset` into the text and back onto a character boundary.
    fn boundary(&self, offset: usize) -> usize {
        let mut at = offset.min(self.text.len());
        while at > 0 && !self.text.is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    /// 1-based line and character column of byte `offset`.
    pub fn position(&self, offset: usize) -> (u32, u32) {
        let at = self.boundary(offset);
        let index = self
            .line_starts
            .partition_point(|start| *start <= at)
            .saturating_sub(1);
        let start = self.line_starts.get(index).copied().unwrap_or(0);
        let col = self.text.get(start..at).map_or(0, |s| s.chars().count());
        let line = to_u32(index + 1);
        // The `\r` of a `\r\n` break is not part of the line: an offset on the break is at the
        // line's end.
        let end = self.line(line).chars().count();
        (line, to_u32(col.min(end) + 1))
    }

    /// The text of 1-based `line`, without its line break.
    pub fn line(&self, line: u32) -> &str {
        let index = (line as usize).saturating_sub(1);
        let Some(start) = self.line_starts.get(index).copied() else {
            return "";
        };
        let end = self
            .line_starts
            .get(index + 1)
            .copied()
            .unwrap_or(self.text.len());
        let text = self.text.get(start..end).unwrap_or("");
        // A line break is `\n` or `\r\n`; a lone `\r` is part of the line.
        match text.strip_suffix('\n') {
            Some(line) => line.strip_suffix('\r').unwrap_or(line),
            None => text,
        }
    }

    /// The characters from byte `start` to byte `end`, limited to the line `start` is on.
    pub fn chars_on_line(&self, start: usize, end: usize) -> u32 {
        let (a, b) = (self.boundary(start), self.boundary(end.max(start)));
        let text = self.text.get(a..b).unwrap_or("");
        let text = text.split('\n').next().unwrap_or("");
        to_u32(text.trim_end_matches('\r').chars().count())
    }

    /// The source text of a span, on one line and at most `max` characters.
    pub fn excerpt(&self, start: usize, end: usize, max: usize) -> String {
        let (a, b) = (self.boundary(start), self.boundary(end.max(start)));
        let text = self.text.get(a..b).unwrap_or("");
        let line = text.split('\n').next().unwrap_or("").trim_end_matches('\r');
        if line.chars().count() > max {
            let cut: String = line.chars().take(max).collect();
            format!("{cut}…")
        } else {
            line.to_string()
        }
    }
}

pub(crate) fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The byte offset of the first `[` or `{` outside strings and comments that opens a level
/// deeper than [`MAX_BRACKET_DEPTH`], or of the first `.` of a dotted key with more than that
/// many parts, if any. A linear scan with no recursion.
pub(crate) fn too_deep(text: &str) -> Option<usize> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Code,
        Comment,
        Basic,
        Literal,
        MultiBasic,
        MultiLiteral,
    }
    let bytes = text.as_bytes();
    let starts = |at: usize, pat: &[u8]| bytes.get(at..at + pat.len()) == Some(pat);
    let mut state = State::Code;
    let mut depth = 0usize;
    // Dots since the last `=`, `,`, bracket or line break: the parts of a dotted key.
    let mut dots = 0usize;
    let mut i = 0usize;
    while let Some(&b) = bytes.get(i) {
        match state {
            State::Code => match b {
                b'#' => state = State::Comment,
                b'"' if starts(i, b"\"\"\"") => {
                    state = State::MultiBasic;
                    i += 2;
                }
                b'"' => state = State::Basic,
                b'\'' if starts(i, b"'''") => {
                    state = State::MultiLiteral;
                    i += 2;
                }
                b'\'' => state = State::Literal,
                b'[' | b'{' => {
                    depth += 1;
                    dots = 0;
                    if depth > MAX_BRACKET_DEPTH {
                        return Some(i);
                    }
                }
                b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    dots = 0;
                }
                b'.' => {
                    dots += 1;
                    if dots >= MAX_BRACKET_DEPTH {
                        return Some(i);
                    }
                }
                b'=' | b',' | b'\n' => dots = 0,
                _ => {}
            },
            State::Comment => {
                if b == b'\n' {
                    state = State::Code;
                }
            }
            State::Basic => match b {
                b'\\' => i += 1,
                b'"' | b'\n' => state = State::Code,
                _ => {}
            },
            State::Literal => {
                if b == b'\'' || b == b'\n' {
                    state = State::Code;
                }
            }
            State::MultiBasic => {
                if b == b'\\' {
                    i += 1;
                } else if starts(i, b"\"\"\"") {
                    state = State::Code;
                    i += 2;
                }
            }
            State::MultiLiteral => {
                if starts(i, b"'''") {
                    state = State::Code;
                    i += 2;
                }
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> SourceText {
        SourceText::new("t.toml".into(), Rc::from(s))
    }

    #[test]
    fn positions_count_characters_from_one() {
        let t = text("ab\nçé = 1\r\nlast\r");
        assert_eq!(t.position(0), (1, 1));
        assert_eq!(t.position(2), (1, 3));
        assert_eq!(t.position(3), (2, 1));
        // `ç` and `é` are two bytes each: byte 7 is the third character.
        assert_eq!(t.position(7), (2, 3));
        // On the `\r` and on the `\n` of a `\r\n` break: the end of the line.
        assert_eq!(t.position(11), (2, 7));
        assert_eq!(t.position(12), (2, 7));
        assert_eq!(t.position(13), (3, 1));
        assert_eq!(t.position(100), (3, 6));
        assert_eq!(t.line(3), "last\r");
        assert_eq!(t.line(2), "çé = 1");
        assert_eq!(t.line(9), "");
    }

    #[test]
    fn offsets_inside_a_character_round_down() {
        let t = text("é");
        assert_eq!(t.position(1), (1, 1));
    }

    #[test]
    fn nesting_outside_strings_and_comments_only() {
        let deep = "[".repeat(MAX_BRACKET_DEPTH + 1);
        assert_eq!(
            too_deep(&format!("a = {deep}")),
            Some(4 + MAX_BRACKET_DEPTH)
        );
        assert_eq!(too_deep(&format!("a = \"{deep}\"")), None);
        assert_eq!(too_deep(&format!("a = '{deep}'")), None);
        assert_eq!(too_deep(&format!("# {deep}\na = 1")), None);
        assert_eq!(too_deep(&format!("a = \"\"\"\n{deep}\n\"\"\"")), None);
        assert_eq!(too_deep(&format!("a = '''{deep}'''")), None);
        assert_eq!(too_deep("a = \"\\\"[\""), None);
        assert_eq!(too_deep(&"[a]\n".repeat(1000)), None);
        let dotted = vec!["a"; MAX_BRACKET_DEPTH + 1].join(".");
        assert_eq!(
            too_deep(&format!("{dotted} = 1")),
            Some(2 * MAX_BRACKET_DEPTH - 1)
        );
        assert_eq!(
            too_deep(&format!("[{dotted}]")),
            Some(2 * MAX_BRACKET_DEPTH)
        );
        assert_eq!(too_deep(&format!("a = \"{dotted}\"")), None);
        assert_eq!(too_deep(&"x = 1.5\n".repeat(100)), None);
    }
}
