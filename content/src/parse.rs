//! TOML text to a spanned tree, with guards against pathological nesting on both sides of the
//! parser: a linear bracket pre-scan before it, an iterative depth check after it.

use crate::report::{Loc, Report};
use crate::text::{MAX_BRACKET_DEPTH, too_deep};
use crate::value::Node;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// The deepest a parsed value may sit (tables and arrays around it, the file's top included).
pub(crate) const MAX_DEPTH: usize = 32;

/// Parses one file. A syntax error is one diagnostic at the position the parser reports.
pub(crate) fn parse_toml<'i>(
    r: &mut Report,
    file: usize,
    text: &'i str,
) -> Option<Spanned<DeTable<'i>>> {
    if let Some(at) = too_deep(text) {
        r.error(
            Loc::new(file, at..at + 1),
            format!("brackets or dotted keys are nested more than {MAX_BRACKET_DEPTH} levels deep here"),
        )
        .help("content never needs more than a few levels of `[`, `{` or dotted keys; look for brackets that are never closed");
        return None;
    }
    let tree = match DeTable::parse(text) {
        Ok(tree) => tree,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            let message = e.message().trim().to_string();
            let n = r.error(Loc::new(file, span), format!("invalid TOML: {message}"));
            if message.starts_with("duplicate key") {
                n.help("a key, and a `[table]` header, may appear only once in a table");
            } else if message.contains("quoted") {
                n.help("strings are written in double quotes, e.g. `name = \"Swarm\"`");
            }
            return None;
        }
    };
    if let Some(loc) = deepest(file, &tree) {
        r.error(
            loc,
            format!("values are nested more than {MAX_DEPTH} levels deep"),
        )
        .help("content never needs more than a few levels of tables and arrays");
        return None;
    }
    Some(tree)
}

/// The first value sitting deeper than [`MAX_DEPTH`], found without recursion.
fn deepest(file: usize, tree: &Spanned<DeTable<'_>>) -> Option<Loc> {
    let mut stack: Vec<(&Node<'_>, usize)> = tree.get_ref().values().map(|v| (v, 1)).collect();
    while let Some((node, depth)) = stack.pop() {
        if depth > MAX_DEPTH {
            return Some(Loc::new(file, node.span()));
        }
        match node.get_ref() {
            DeValue::Table(t) => stack.extend(t.values().map(|v| (v, depth + 1))),
            DeValue::Array(a) => stack.extend(a.iter().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    None
}
