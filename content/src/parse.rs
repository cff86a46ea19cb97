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
        r.error_as("toml-syntax", 
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
            if let Some(key) = missing_value(text, span.start) {
                let at = span.start.min(text.len());
                r.error_as("toml-syntax", 
                    Loc::new(file, at..at),
                    format!("invalid TOML: the value of `{key}` is missing"),
                )
                .help(format!(
                    "write a value after `=`, e.g. `{key} = 1`, `{key} = \"text\"` or `{key} = true`, or remove the key"
                ));
                return None;
            }
            let message = e.message().trim().to_string();
            let n = r.error_as(
                "toml-syntax",
                Loc::new(file, span),
                format!("invalid TOML: {message}"),
            );
            if message.starts_with("duplicate key") {
                n.help("a key, and a `[table]` header, may appear only once in a table");
            } else if message.contains("quoted") {
                n.help("strings are written in double quotes, e.g. `name = \"Swarm\"`");
            }
            return None;
        }
    };
    if let Some(loc) = deepest(file, &tree) {
        r.error_as(
            "toml-syntax",
            loc,
            format!("values are nested more than {MAX_DEPTH} levels deep"),
        )
        .help("content never needs more than a few levels of tables and arrays");
        return None;
    }
    Some(tree)
}

/// The key whose value is missing when the parser stopped at byte `at`: the line before it
/// ends in `KEY =` and nothing but blanks, a comment or the end of an inline table or array
/// follows (`oops = `, `{ a = }`). `None` for any other error.
fn missing_value(text: &str, at: usize) -> Option<&str> {
    let at = at.min(text.len());
    let (before, after) = (text.get(..at)?, text.get(at..)?);
    let line = before.rsplit('\n').next().unwrap_or(before);
    let key = line.trim_end().strip_suffix('=')?.trim_end();
    let rest = after.split('\n').next().unwrap_or("").trim_start();
    if !(rest.is_empty() || rest.starts_with(['#', '}', ',', ']', '\r'])) {
        return None;
    }
    // The key is the last bare, quoted or dotted key on the line (after `{` or `,` in an
    // inline table).
    let key = key.rsplit(['{', ',']).next().unwrap_or(key).trim();
    (!key.is_empty()).then_some(key)
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

#[cfg(test)]
mod tests {
    use super::missing_value;
    use toml::de::DeTable;

    #[test]
    fn a_key_without_a_value_is_named_where_the_parser_stops() {
        // (text, the key named missing)
        let cases = [
            ("oops = \nx = 1\n", Some("oops")),
            ("oops =", Some("oops")),
            ("oops =\r\n", Some("oops")),
            ("oops =   # why\n", Some("oops")),
            ("a.b = \n", Some("a.b")),
            ("[t]\nwidth =\n", Some("width")),
            ("t = { a = 1, b = }\n", Some("b")),
            ("t = { b = }\n", Some("b")),
            ("t = [1, ,]\n", None),
            ("name = Swarm\n", None),
            ("name = \"x\" y\n", None),
            ("= 1\n", None),
        ];
        for (text, key) in cases {
            let at = DeTable::parse(text)
                .err()
                .and_then(|e| e.span())
                .unwrap_or_else(|| panic!("{text:?} is refused with a place"))
                .start;
            assert_eq!(missing_value(text, at), key, "{text:?} stopped at {at}");
        }
    }
}
