//! Patterns of game files, as `[export] exclude` writes them: which files of the game folder
//! an export leaves out.
//!
//! | pattern | matches |
//! | --- | --- |
//! | `*` | any run of characters within one name (no `/`) |
//! | `?` | one character other than `/` |
//! | `**` | any run of characters, `/` included (any depth of folders) |
//! | a `/` at the end | a folder: every file under it |
//! | no other `/` | a name at any depth (`*.bak`, `shots/`) |
//! | a `/` inside | a path from the game folder (`tests/*.failed.*`) |
//!
//! Everything else is itself. Matching walks the pattern and the path once each, going back at
//! most to the last star, so it takes time in proportion to their lengths' product at worst,
//! and patterns are short ([`Glob::MAX_LEN`]).

/// A checked pattern (see the module documentation).
///
/// Invariant: `pattern` is 1 to [`Glob::MAX_LEN`] bytes, relative (no leading `/`), without
/// `\`, and no part of it is `..` or empty (no `//`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob {
    /// The pattern without its trailing `/`.
    pattern: String,
    /// It named a folder (a trailing `/`).
    folder: bool,
    /// It holds a `/` (after the trailing one is taken off): it is matched from the game
    /// folder, not against names at any depth.
    anchored: bool,
}

impl Glob {
    /// The longest pattern, in bytes.
    pub const MAX_LEN: usize = 256;

    /// Checks a pattern; the error says what is wrong with it.
    pub fn parse(text: &str) -> Result<Glob, String> {
        if text.is_empty() {
            return Err("an empty pattern matches nothing".into());
        }
        if text.len() > Self::MAX_LEN {
            return Err(format!(
                "a pattern is at most {} bytes, this one is {}",
                Self::MAX_LEN,
                text.len()
            ));
        }
        if text.starts_with('/') {
            return Err(
                "patterns are relative to the game folder: leave out the leading `/`".into(),
            );
        }
        if text.contains('\\') {
            return Err("paths are written with `/`, never `\\`".into());
        }
        let (pattern, folder) = match text.strip_suffix('/') {
            Some(p) => (p, true),
            None => (text, false),
        };
        if pattern
            .split('/')
            .any(|part| part.is_empty() || part == "..")
        {
            return Err("a pattern's parts between `/` must not be empty or `..`".into());
        }
        Ok(Glob {
            pattern: pattern.to_string(),
            folder,
            anchored: pattern.contains('/'),
        })
    }

    /// Whether the file at `path` (relative to the game folder, `/`-separated) is matched.
    pub fn matches(&self, path: &str) -> bool {
        let parts: Vec<&str> = path.split('/').collect();
        // The candidates: the whole path or its folders (a folder pattern), each from the
        // game folder (anchored) or from any depth (a name).
        let ends = if self.folder {
            1..parts.len()
        } else {
            parts.len()..parts.len() + 1
        };
        for end in ends {
            let starts = if self.anchored { 0..1 } else { 0..end };
            for start in starts {
                if self.anchored || end - start == 1 {
                    let candidate = parts[start..end].join("/");
                    if wild(self.pattern.as_bytes(), candidate.as_bytes()) {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// Whether `text` matches all of `pattern` (`*`, `**`, `?`). Iterative: on a mismatch it goes
/// back to the last star and lets it take one more character; a `*` cannot take a `/`, and
/// then the last `**` before it takes one more instead.
fn wild(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    // The last star and the last `**`: where the pattern goes on after it, and where in the
    // text it stopped taking characters.
    let mut star: Option<(usize, usize)> = None;
    let mut deep: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') if pattern.get(p + 1) == Some(&b'*') => {
                deep = Some((p + 2, t));
                star = None;
                p += 2;
                continue;
            }
            Some(b'*') => {
                star = Some((p + 1, t));
                p += 1;
                continue;
            }
            Some(b'?') if text[t] != b'/' => {
                p += 1;
                t += 1;
                continue;
            }
            Some(&c) if c != b'?' && c == text[t] => {
                p += 1;
                t += 1;
                continue;
            }
            _ => {}
        }
        if let Some((after, from)) = star
            && text[from] != b'/'
        {
            star = Some((after, from + 1));
            (p, t) = (after, from + 1);
        } else if let Some((after, from)) = deep {
            deep = Some((after, from + 1));
            star = None;
            (p, t) = (after, from + 1);
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_the_files_they_name() {
        // (pattern, path, matched)
        let cases = [
            ("*.png.bak", "hero.png.bak", true),
            ("*.png.bak", "images/hero.png.bak", true),
            ("*.png.bak", "images/hero.png", false),
            ("shots/", "shots/a.png", true),
            ("shots/", "shots/deep/a.png", true),
            ("shots/", "art/shots/a.png", true),
            ("shots/", "shots", false),
            ("shots/", "screenshots/a.png", false),
            ("recordings/", "recordings/x.ludusrec", true),
            ("tests/*.failed.*", "tests/win.failed.ludusrec", true),
            ("tests/*.failed.*", "tests/win.jsonl", false),
            ("tests/*.failed.*", "tests/deep/win.failed.x", false),
            ("tests/*.failed.*", "more/tests/win.failed.x", false),
            ("tests/**", "tests/deep/win.failed.x", true),
            ("**/*.psd", "art/raw/a.psd", true),
            ("**/*.psd", "a.psd", false),
            ("notes.txt", "notes.txt", true),
            ("notes.txt", "docs/notes.txt", true),
            ("docs/notes.txt", "notes.txt", false),
            ("?.txt", "a.txt", true),
            ("?.txt", "ab.txt", false),
            ("a*", "a/b", false),
            ("*", "anything/at/all", true),
            ("a*b*c", "axxbyyc", true),
            ("a*b*c", "axxbyy", false),
            ("**/x*", "a/xb/xc", true),
            ("**/x*", "a/xb/yc", false),
            ("a/**/b", "a/x/y/b", true),
            ("a/**/b", "a/b", false),
        ];
        for (pattern, path, expect) in cases {
            let glob = Glob::parse(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
            assert_eq!(glob.matches(path), expect, "`{pattern}` against `{path}`");
        }
    }

    #[test]
    fn bad_patterns_say_why() {
        let long = "a".repeat(Glob::MAX_LEN + 1);
        let cases = [
            ("", "an empty pattern matches nothing"),
            (
                "/abs",
                "patterns are relative to the game folder: leave out the leading `/`",
            ),
            ("a\\b", "paths are written with `/`, never `\\`"),
            (
                "../up",
                "a pattern's parts between `/` must not be empty or `..`",
            ),
            (
                "a//b",
                "a pattern's parts between `/` must not be empty or `..`",
            ),
            (
                "/",
                "patterns are relative to the game folder: leave out the leading `/`",
            ),
            (
                long.as_str(),
                "a pattern is at most 256 bytes, this one is 257",
            ),
        ];
        for (pattern, why) in cases {
            assert_eq!(Glob::parse(pattern), Err(why.to_string()), "{pattern:?}");
        }
    }

    #[test]
    fn matching_a_long_path_against_many_stars_ends() {
        let glob = Glob::parse(&"*a".repeat(100)).unwrap();
        let path = "a".repeat(99) + "b";
        assert!(!glob.matches(&path), "no match, found without blowing up");
    }
}
