//! Rust source as the import reader sees it: tokens that matter to paths, and `use` trees.

/// One token of Rust source: an identifier (`$crate` included), `::`, or one other
/// character; with its line.
#[derive(Clone, Debug, PartialEq)]
pub struct Tok {
    pub text: String,
    pub line: u32,
}

/// The tokens of `src` that matter to paths: comments, strings, characters, lifetimes and
/// numbers are dropped.
pub fn tokens(src: &str) -> Vec<Tok> {
    let b = src.as_bytes();
    let (mut i, mut line, mut out) = (0usize, 1u32, Vec::new());
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let count = |from: usize, to: usize, line: &mut u32| {
        *line += b[from..to].iter().filter(|&&c| c == b'\n').count() as u32;
    };
    while i < b.len() {
        let c = b[i];
        let rest = &src[i..];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            let (mut depth, mut j) = (0, i);
            while j < b.len() {
                if src[j..].starts_with("/*") {
                    depth += 1;
                    j += 2;
                } else if src[j..].starts_with("*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            count(i, j.min(b.len()), &mut line);
            i = j;
        } else if let Some(end) = raw_string(rest) {
            count(i, i + end, &mut line);
            i += end;
        } else if c == b'"' || rest.starts_with("b\"") || rest.starts_with("c\"") {
            let mut j = i + if c == b'"' { 1 } else { 2 };
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            count(i, j.min(b.len()), &mut line);
            i = j + 1;
        } else if c == b'\'' || rest.starts_with("b'") {
            // A character literal, or a lifetime (`'a`), whose name is dropped too.
            let j = i + if c == b'\'' { 1 } else { 2 };
            let lit = src[j..].chars().next().map_or(0, char::len_utf8);
            if b.get(j) == Some(&b'\\') {
                let close = src[j + 1..].find('\'').map_or(b.len(), |k| j + 1 + k);
                i = close + 1;
            } else if b.get(j + lit) == Some(&b'\'') {
                i = j + lit + 1;
            } else {
                i = j;
                while i < b.len() && ident(b[i]) {
                    i += 1;
                }
            }
        } else if c.is_ascii_digit() {
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
        } else if ident(c) || (c == b'$' && rest[1..].starts_with("crate")) {
            let start = if rest.starts_with("r#") { i + 2 } else { i };
            let mut j = start + usize::from(c == b'$');
            while j < b.len() && ident(b[j]) {
                j += 1;
            }
            out.push(Tok {
                text: src[start..j].to_string(),
                line,
            });
            i = j;
        } else if rest.starts_with("::") {
            out.push(Tok {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            let len = rest.chars().next().map_or(1, char::len_utf8);
            out.push(Tok {
                text: rest[..len].to_string(),
                line,
            });
            i += len;
        }
    }
    out
}

/// The length of a raw string (`r"…"`, `r#"…"#`, `br#"…"#`) at the start of `s`.
fn raw_string(s: &str) -> Option<usize> {
    let after = s.strip_prefix("br").or_else(|| s.strip_prefix('r'))?;
    let hashes = after.len() - after.trim_start_matches('#').len();
    let body = after[hashes..].strip_prefix('"')?;
    let close = format!("\"{}", "#".repeat(hashes));
    let end = body.find(&close)?;
    Some(s.len() - body.len() + end + close.len())
}

pub fn is_ident(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$')
}

/// One `use` tree's leaf: its path, the name it binds (none for a glob) and whether it is
/// a glob.
pub struct UseLeaf {
    pub path: Vec<String>,
    pub name: Option<String>,
    pub glob: bool,
}

/// Parses a `use` tree at `toks[i]`; returns its leaves and where it ends.
pub fn use_tree(toks: &[Tok], mut i: usize, prefix: &[String], out: &mut Vec<UseLeaf>) -> usize {
    let mut path = prefix.to_vec();
    while i < toks.len() {
        let t = toks[i].text.as_str();
        if t == "{" {
            i += 1;
            while i < toks.len() && toks[i].text != "}" {
                i = use_tree(toks, i, &path, out);
                if toks.get(i).is_some_and(|t| t.text == ",") {
                    i += 1;
                }
            }
            return i + 1;
        }
        if t == "*" {
            out.push(UseLeaf {
                path,
                name: None,
                glob: true,
            });
            return i + 1;
        }
        if t == "::" {
            i += 1;
            continue;
        }
        if !is_ident(t) {
            break;
        }
        path.push(t.to_string());
        i += 1;
        if toks.get(i).is_some_and(|t| t.text == "::") {
            continue;
        }
        let mut name = path.last().cloned();
        if toks.get(i).is_some_and(|t| t.text == "as") {
            name = toks.get(i + 1).map(|t| t.text.clone());
            i += 2;
        }
        if path.last().is_some_and(|s| s == "self") {
            path.pop();
            if name.as_deref() == Some("self") {
                name = path.last().cloned();
            }
        }
        out.push(UseLeaf {
            path,
            name,
            glob: false,
        });
        return i;
    }
    i
}
