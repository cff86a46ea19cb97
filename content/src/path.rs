//! Paths named inside content: relative to the game folder, `/`-separated, never leaving it.

use std::fmt;

/// Why a path written in content was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PathError {
    Empty,
    Backslash,
    Absolute,
    Escapes,
    Control,
    Folder,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PathError::Empty => "a path must not be empty",
            PathError::Backslash => "paths separate folders with `/`, not `\\`",
            PathError::Absolute => "paths must be relative to the game folder, not absolute",
            PathError::Escapes => "the path leaves the game folder through `..`",
            PathError::Control => "paths must not contain control characters",
            PathError::Folder => "the path names the game folder itself, not a file",
        })
    }
}

/// Checks a content path and returns its normal form: `.` and empty components dropped, `..`
/// resolved. A `..` that would leave the game folder is refused, as are absolute paths
/// (`/x`, `C:x`), backslashes and control characters.
pub(crate) fn normalize(raw: &str) -> Result<String, PathError> {
    if raw.trim().is_empty() {
        return Err(PathError::Empty);
    }
    if raw.chars().any(char::is_control) {
        return Err(PathError::Control);
    }
    if raw.contains('\\') {
        return Err(PathError::Backslash);
    }
    let mut chars = raw.chars();
    let drive =
        matches!((chars.next(), chars.next()), (Some(c), Some(':')) if c.is_ascii_alphabetic());
    if raw.starts_with('/') || drive {
        return Err(PathError::Absolute);
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in raw.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(PathError::Escapes);
                }
            }
            other => parts.push(other),
        }
    }
    if parts.is_empty() {
        return Err(PathError::Folder);
    }
    Ok(parts.join("/"))
}

/// The folder part of a normal path (`""` for a file at the top).
pub(crate) fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_forms() {
        assert_eq!(normalize("a/b.toml"), Ok("a/b.toml".into()));
        assert_eq!(normalize("./a//b.toml"), Ok("a/b.toml".into()));
        assert_eq!(normalize("a/../b.toml"), Ok("b.toml".into()));
    }

    #[test]
    fn refusals() {
        assert_eq!(normalize(""), Err(PathError::Empty));
        assert_eq!(normalize("  "), Err(PathError::Empty));
        assert_eq!(normalize("../x"), Err(PathError::Escapes));
        assert_eq!(normalize("a/../../x"), Err(PathError::Escapes));
        assert_eq!(normalize("/etc/passwd"), Err(PathError::Absolute));
        assert_eq!(normalize("C:/x"), Err(PathError::Absolute));
        assert_eq!(normalize("a\\b"), Err(PathError::Backslash));
        assert_eq!(normalize("a\0b"), Err(PathError::Control));
        assert_eq!(normalize("a/.."), Err(PathError::Folder));
    }

    #[test]
    fn parents() {
        assert_eq!(parent("a/b/c.lua"), "a/b");
        assert_eq!(parent("c.lua"), "");
    }
}
