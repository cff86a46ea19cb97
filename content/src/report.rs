//! The loader's notebook: the text of every file read so far and the problems found in them.

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::text::SourceText;
use std::ops::Range;
use std::rc::Rc;

/// The most diagnostics one load keeps; the rest are counted in a closing note.
const MAX_DIAGNOSTICS: usize = 200;

/// A byte span in one registered file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Loc {
    pub file: usize,
    pub start: usize,
    pub end: usize,
}

impl Loc {
    pub fn new(file: usize, span: Range<usize>) -> Self {
        Loc {
            file,
            start: span.start,
            end: span.end,
        }
    }
}

/// Registered files and the diagnostics found so far.
pub(crate) struct Report {
    root: String,
    files: Vec<SourceText>,
    found: Vec<(usize, Diagnostic)>,
    dropped: usize,
}

/// A just-recorded diagnostic, to attach help to.
pub(crate) struct Note<'r>(Option<&'r mut Diagnostic>);

impl Note<'_> {
    /// Names the kind of problem (one of [`CODES`](crate::diagnostic::CODES)).
    pub fn code(mut self, code: &'static str) -> Self {
        if let Some(d) = &mut self.0 {
            d.code = code;
        }
        self
    }

    pub fn help(self, text: impl Into<String>) {
        if let Some(d) = self.0 {
            d.help = Some(text.into());
        }
    }
}

impl Report {
    /// `root` is shown in front of every path (empty: paths relative to the game folder).
    pub fn new(root: &str) -> Self {
        Report {
            root: root.to_string(),
            files: Vec::new(),
            found: Vec::new(),
            dropped: 0,
        }
    }

    /// A content path as the author should see it.
    pub fn shown(&self, path: &str) -> String {
        if self.root.is_empty() {
            path.to_string()
        } else if self.root.ends_with('/') || self.root.ends_with('\\') {
            format!("{}{path}", self.root)
        } else {
            format!("{}/{path}", self.root)
        }
    }

    /// Registers a file's text; returns its index for [`Loc`]s.
    pub fn add_file(&mut self, path: &str, text: Rc<str>) -> usize {
        self.files.push(SourceText::new(path.to_string(), text));
        self.files.len() - 1
    }

    pub fn path(&self, file: usize) -> &str {
        self.files.get(file).map_or("", |f| f.path.as_str())
    }

    /// The source text at `loc`, on one line, at most `max` characters.
    pub fn excerpt(&self, loc: Loc, max: usize) -> String {
        self.files
            .get(loc.file)
            .map_or_else(String::new, |f| f.excerpt(loc.start, loc.end, max))
    }

    /// `path:line:col` of a location, for help that points at another place.
    pub fn describe(&self, loc: Loc) -> String {
        match self.files.get(loc.file) {
            Some(f) => {
                let (line, col) = f.position(loc.start);
                format!("{}:{line}:{col}", self.shown(&f.path))
            }
            None => String::new(),
        }
    }

    /// The 1-based line and character column of a location (0, 0 when unknown).
    pub fn position(&self, loc: Loc) -> (u32, u32) {
        self.files
            .get(loc.file)
            .map_or((0, 0), |f| f.position(loc.start))
    }

    fn push(&mut self, order: usize, d: Diagnostic) -> Note<'_> {
        if self.found.len() >= MAX_DIAGNOSTICS {
            self.dropped += 1;
            return Note(None);
        }
        self.found.push((order, d));
        Note(self.found.last_mut().map(|(_, d)| d))
    }

    /// A problem at a location in a registered file.
    pub fn error(&mut self, loc: Loc, message: impl Into<String>) -> Note<'_> {
        let order = if self.files.get(loc.file).is_some() {
            loc.file
        } else {
            usize::MAX
        };
        let d = self.diagnostic(loc, message);
        self.push(order, d)
    }

    /// [`error`](Self::error) of a kind from [`CODES`](crate::diagnostic::CODES).
    pub fn error_as(
        &mut self,
        code: &'static str,
        loc: Loc,
        message: impl Into<String>,
    ) -> Note<'_> {
        self.error(loc, message).code(code)
    }

    /// A problem at a location, not recorded: for a caller that decides later whether it is
    /// one (`ludus check`, which knows what scripts set).
    pub fn diagnostic(&self, loc: Loc, message: impl Into<String>) -> Diagnostic {
        let Some(f) = self.files.get(loc.file) else {
            return Diagnostic::whole_file("", message);
        };
        let (line, col) = f.position(loc.start);
        let span_len = f.chars_on_line(loc.start, loc.end);
        Diagnostic::at(
            self.shown(&f.path),
            f.line(line),
            line,
            col,
            span_len,
            message,
        )
    }

    /// The source text at `loc`, as written.
    pub fn source(&self, loc: Loc) -> Option<&str> {
        self.files.get(loc.file)?.text.get(loc.start..loc.end)
    }

    /// A problem with a whole file, registered or not.
    pub fn file_error(&mut self, path: &str, message: impl Into<String>) -> Note<'_> {
        let order = self
            .files
            .iter()
            .position(|f| f.path == path)
            .unwrap_or(self.files.len());
        let d = Diagnostic::whole_file(self.shown(path), message).with_code("file");
        self.push(order, d)
    }

    /// Problems recorded so far (kept or dropped).
    pub fn count(&self) -> usize {
        self.found.len() + self.dropped
    }

    /// Every diagnostic, by file in reading order, then line, then column.
    pub fn finish(self) -> Diagnostics {
        let first = self.files.first().map_or("game.toml", |f| f.path.as_str());
        let first = self.shown(first);
        let mut found = self.found;
        found.sort_by_key(|(order, d)| (*order, d.line, d.col));
        let mut list: Vec<Diagnostic> = found.into_iter().map(|(_, d)| d).collect();
        if self.dropped > 0 {
            list.push(Diagnostic::whole_file(
                first,
                format!(
                    "{} more errors not shown (only the first {MAX_DIAGNOSTICS} are reported)",
                    self.dropped
                ),
            ));
        }
        Diagnostics(list)
    }
}
