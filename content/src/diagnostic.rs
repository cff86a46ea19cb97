//! What a game author reads when content is wrong: one diagnostic per problem, with the file,
//! the 1-based line and character column, the offending source line and a caret marker.

use std::fmt;

/// Characters of a source line a snippet shows at most.
const SNIPPET_WIDTH: usize = 120;
/// Characters kept before the column when a long line is cut to fit.
const SNIPPET_LEAD: usize = 40;

/// How bad a problem is: an error stops `ludus check` (exit code 1); a warning is shown and the
/// check still passes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Severity {
    #[default]
    Error,
    Warning,
}

impl Severity {
    /// `error` or `warning`, as the rendered line says it.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One problem in a game's content (or, from `ludus check`, its scripts).
///
/// `line` and `col` are 1-based; `col` counts characters, not bytes. A `line` of 0 means the
/// problem concerns the whole file (it cannot be read, it is empty...), and `col`, `snippet` and
/// `span_len` are then unused. `snippet` is the offending source line (cut to about 120
/// characters around the column when longer, with `…` where it was cut) and `span_len` the number
/// of characters the caret marker underlines (at least 1). Every diagnostic is an error unless
/// made a warning with [`Diagnostic::warning`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
    pub help: Option<String>,
    pub snippet: Option<String>,
    pub span_len: u32,
    /// What kind of problem it is, for tools (`ludus check --format json`): one of [`CODES`],
    /// or empty when the maker gave none (see [`Diagnostic::code`]).
    pub code: &'static str,
}

/// The kinds of problem a diagnostic names, with what each means (docs/editors.md lists them).
pub const CODES: &[(&str, &str)] = &[
    ("toml-syntax", "the file is not valid TOML"),
    ("unknown-key", "a key the table does not take"),
    ("missing-key", "a key the table needs is not there"),
    ("wrong-type", "a value of the wrong type"),
    ("out-of-range", "a number outside the range its key allows"),
    ("not-allowed", "a text that is none of those its key allows"),
    (
        "unknown-name",
        "a name of something the game does not declare",
    ),
    (
        "invalid-name",
        "a name that is not 1 to 64 letters, digits, `_` and `-`",
    ),
    ("file", "a file that cannot be read, is empty or too large"),
    ("content", "any other problem in the game's content"),
    ("lua-syntax", "a script that does not compile"),
    ("lua-load", "a script whose top level fails when it runs"),
    ("unknown-function", "a `ludus.X` the API does not have"),
    (
        "not-a-handler",
        "a global function that looks like an event handler and is not one",
    ),
    (
        "undeclared",
        "a literal name (archetype, action, sound...) the game does not declare",
    ),
    (
        "argument-type",
        "a literal argument of a kind the `ludus` function refuses, or a required one left out",
    ),
    (
        "module",
        "a `require` of a module that cannot be found or read",
    ),
    ("hud", "a HUD field no script sets"),
    (
        "not-linted",
        "a script the linter could not read (a warning)",
    ),
    ("script", "any other problem in a script"),
];

/// Where the window of a long line starts, as a character index: a function of the column alone,
/// so that [`Diagnostic::render`] can place the caret inside a cut snippet.
fn window_start(col: u32) -> usize {
    let at = usize::try_from(col.saturating_sub(1)).unwrap_or(usize::MAX);
    if at > SNIPPET_WIDTH - SNIPPET_LEAD {
        at - SNIPPET_LEAD
    } else {
        0
    }
}

impl Diagnostic {
    /// A problem with a whole file.
    pub fn whole_file(file: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            file: file.into(),
            line: 0,
            col: 0,
            message: message.into(),
            help: None,
            snippet: None,
            span_len: 0,
            code: "",
        }
    }

    /// A problem at `line`:`col` of `file`, whose full text on that line is `line_text`.
    pub fn at(
        file: impl Into<String>,
        line_text: &str,
        line: u32,
        col: u32,
        span_len: u32,
        message: impl Into<String>,
    ) -> Self {
        let start = window_start(col);
        let mut snippet = String::new();
        if start > 0 {
            snippet.push('…');
        }
        // Control characters other than tabs would garble a terminal: one placeholder each, so
        // columns still line up.
        let mut chars = line_text.chars().skip(start).map(|c| {
            if c.is_control() && c != '\t' {
                '\u{fffd}'
            } else {
                c
            }
        });
        snippet.extend(chars.by_ref().take(SNIPPET_WIDTH));
        if chars.next().is_some() {
            snippet.push('…');
        }
        Diagnostic {
            severity: Severity::Error,
            file: file.into(),
            line,
            col,
            message: message.into(),
            help: None,
            snippet: Some(snippet),
            span_len: span_len.max(1),
            code: "",
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The same problem, with a kind from [`CODES`].
    pub fn with_code(mut self, code: &'static str) -> Self {
        self.code = code;
        self
    }

    /// The kind of problem: the one given, or `script` for a script and `content` for
    /// anything else.
    pub fn code(&self) -> &'static str {
        match self.code {
            "" if self.file.ends_with(".lua") => "script",
            "" => "content",
            c => c,
        }
    }

    /// The same problem, as a warning.
    pub fn warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    /// `path:line:col: error: message` (or `warning:`), the source line, a caret line under the
    /// span, and a `help:` line when there is help.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let severity = self.severity.word();
        if self.line == 0 {
            out.push_str(&format!("{}: {severity}: {}\n", self.file, self.message));
            if let Some(help) = &self.help {
                out.push_str(&format!("  = help: {help}\n"));
            }
            return out;
        }
        out.push_str(&format!(
            "{}:{}:{}: {severity}: {}\n",
            self.file, self.line, self.col, self.message
        ));
        let number = self.line.to_string();
        let pad = " ".repeat(number.len());
        if let Some(snippet) = &self.snippet {
            let start = window_start(self.col);
            let lead = usize::from(start > 0);
            let caret_at = usize::try_from(self.col.saturating_sub(1))
                .unwrap_or(usize::MAX)
                .saturating_sub(start)
                .saturating_add(lead);
            let mut marker: String = snippet
                .chars()
                .take(caret_at)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            let room = snippet.chars().count().saturating_sub(caret_at).max(1);
            let carets = usize::try_from(self.span_len)
                .unwrap_or(usize::MAX)
                .clamp(1, room);
            marker.push_str(&"^".repeat(carets));
            out.push_str(&format!(" {number} | {snippet}\n"));
            out.push_str(&format!(" {pad} | {marker}\n"));
        }
        if let Some(help) = &self.help {
            out.push_str(&format!(" {pad} = help: {help}\n"));
        }
        out
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

/// Every problem found in one load, ordered by file (in the order files were read), then line,
/// then column.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter()
    }

    /// Every diagnostic rendered, separated by blank lines, then a count: what `ludus check`
    /// prints.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for d in &self.0 {
            out.push_str(&d.render());
            out.push('\n');
        }
        let n = self.0.len();
        out.push_str(&format!(
            "{n} error{} found\n",
            if n == 1 { "" } else { "s" }
        ));
        out
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for Diagnostics {}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_caret_under_the_span() {
        let d = Diagnostic::at("game.toml", "rat = 60", 3, 1, 3, "unknown key `rat`")
            .with_help("did you mean `rate`?");
        assert_eq!(
            d.render(),
            "game.toml:3:1: error: unknown key `rat`\n 3 | rat = 60\n   | ^^^\n   = help: did you mean `rate`?\n"
        );
    }

    #[test]
    fn tabs_keep_the_caret_aligned() {
        let d = Diagnostic::at("a.toml", "\trate = x", 1, 9, 1, "bad");
        assert!(d.render().contains("\n   | \t       ^\n"), "{}", d.render());
    }

    #[test]
    fn long_lines_are_cut_around_the_column() {
        let line = format!("{}X{}", "a".repeat(500), "b".repeat(500));
        let d = Diagnostic::at("a.toml", &line, 1, 501, 1, "bad");
        let snippet = d.snippet.clone().unwrap_or_default();
        assert!(snippet.starts_with('…') && snippet.ends_with('…'));
        let caret_line = d.render().lines().nth(2).unwrap_or("").to_string();
        let caret = caret_line.find('^').unwrap_or(0);
        let shown = d.render().lines().nth(1).unwrap_or("").to_string();
        let x = shown.find('X').unwrap_or(usize::MAX);
        // `…` is three bytes in the snippet line and one space in the caret line.
        assert_eq!(caret + 2, x);
    }

    #[test]
    fn warnings_say_so() {
        let d =
            Diagnostic::at("a.lua", "function on_hit() end", 1, 10, 6, "not a handler").warning();
        assert_eq!(
            d.render(),
            "a.lua:1:10: warning: not a handler\n 1 | function on_hit() end\n   |          ^^^^^^\n"
        );
        let d = Diagnostic::whole_file("a.lua", "unread").warning();
        assert_eq!(d.render(), "a.lua: warning: unread\n");
    }

    #[test]
    fn whole_file_problems_have_no_position() {
        let d = Diagnostic::whole_file("game.toml", "game.toml is empty");
        assert_eq!(d.render(), "game.toml: error: game.toml is empty\n");
    }
}
