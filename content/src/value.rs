//! Typed reading of TOML values: numbers in ranges, names, paths, colours, pairs, sizes and
//! rects. Every reader reports what is wrong at the exact span of the value at fault and
//! returns `None`, so the caller carries on and one run finds every error of a file. Nothing
//! here recurses: the schema is finite and unknown values are never entered.

use crate::path::{self, PathError};
use crate::report::{Loc, Report};
use crate::suggest;
use ludus_core::{Color, Vec2};
use toml::Spanned;
use toml::de::{DeString, DeValue};

pub(crate) type Node<'i> = Spanned<DeValue<'i>>;
pub(crate) type Key<'i> = Spanned<DeString<'i>>;

/// The longest a name may be, in characters.
const NAME_MAX: usize = 64;

/// A name or path written in content, and where.
#[derive(Clone, Debug)]
pub(crate) struct Named {
    pub name: String,
    pub loc: Loc,
}

/// The id `named` names in `declared` (`None` for a name declared but unusable); an unknown
/// name is reported at its place as "no WHAT is named `x`", with the nearest declared name,
/// or else `declare` as the help.
pub(crate) fn look_up<T: Copy>(
    r: &mut Report,
    named: &Named,
    declared: &std::collections::HashMap<String, Option<T>>,
    what: &str,
    declare: impl FnOnce() -> String,
) -> Option<T> {
    if let Some(id) = declared.get(&named.name) {
        return *id;
    }
    let n = r.error_as(
        "unknown-name",
        named.loc,
        format!("no {what} is named `{}`", named.name),
    );
    let mut names: Vec<&str> = declared.keys().map(String::as_str).collect();
    names.sort_unstable();
    match suggest::did_you_mean(&named.name, names.iter().copied()) {
        Some(hint) => n.help(hint),
        None => n.help(declare()),
    };
    None
}

/// `a string`, `an integer`...: what a value is, for messages.
pub(crate) fn kind_of(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

/// How a found value is shown: scalars as written, containers by kind.
pub(crate) fn found(r: &Report, file: usize, node: &Node<'_>) -> String {
    match node.get_ref() {
        DeValue::Integer(_) | DeValue::Float(_) | DeValue::Boolean(_) => {
            format!("`{}`", r.excerpt(Loc::new(file, node.span()), 40))
        }
        DeValue::String(s) => {
            let shown: String = s.chars().take(40).collect();
            let cut = if s.chars().count() > 40 { "…" } else { "" };
            format!("the string `\"{shown}{cut}\"`")
        }
        other => kind_of(other).to_string(),
    }
}

/// The number a node holds: integers exactly (`None` if beyond 128 bits), floats as written.
enum Numeric {
    Int(Option<i128>),
    Float(f64),
}

fn numeric(v: &DeValue<'_>) -> Option<Numeric> {
    match v {
        DeValue::Integer(i) => Some(Numeric::Int(
            i128::from_str_radix(i.as_str(), i.radix()).ok(),
        )),
        DeValue::Float(f) => Some(Numeric::Float(f.as_str().parse().unwrap_or(f64::NAN))),
        _ => None,
    }
}

fn int_expect(min: i64, max: i64) -> String {
    if max == i64::MAX {
        format!("an integer of at least {min}")
    } else {
        format!("an integer from {min} to {max}")
    }
}

fn number_expect(min: f64, max: f64, above_min: bool) -> String {
    // The widest bounds say "finite" rather than print 309 digits.
    match (min <= f64::MIN, max >= f64::MAX, above_min) {
        (true, true, _) => "a finite number".into(),
        (false, true, true) => format!("a finite number above {min}"),
        (false, true, false) => format!("a finite number of at least {min}"),
        (true, false, _) => format!("a number of at most {max}"),
        (false, false, true) => format!("a number above {min} and at most {max}"),
        (false, false, false) => format!("a number from {min} to {max}"),
    }
}

/// Reads an integer from `min` to `max`.
pub(crate) fn read_int(
    r: &mut Report,
    file: usize,
    node: &Node<'_>,
    what: &str,
    (min, max): (i64, i64),
    hint: &str,
) -> Option<i64> {
    let loc = Loc::new(file, node.span());
    let expect = int_expect(min, max);
    match numeric(node.get_ref()) {
        Some(Numeric::Int(v)) => {
            let value = v.and_then(|v| i64::try_from(v).ok());
            match value {
                Some(v) if v >= min && v <= max => Some(v),
                _ => {
                    let msg = format!("`{what}` must be {expect}, found {}", found(r, file, node));
                    note(r.error_as("out-of-range", loc, msg), hint);
                    None
                }
            }
        }
        Some(Numeric::Float(f)) => {
            let msg = format!("`{what}` must be {expect}, found {}", found(r, file, node));
            let whole = f.is_finite() && f.fract() == 0.0 && f.abs() < 1e15;
            if whole {
                r.error_as("wrong-type", loc, msg)
                    .help(format!("write it as an integer: `{f:.0}`"));
            } else {
                note(r.error_as("wrong-type", loc, msg), hint);
            }
            None
        }
        None => {
            let msg = format!("`{what}` must be {expect}, found {}", found(r, file, node));
            note(r.error_as("wrong-type", loc, msg), hint);
            None
        }
    }
}

fn note(n: crate::report::Note<'_>, hint: &str) {
    if !hint.is_empty() {
        n.help(hint);
    }
}

/// Reads a finite number (integer or float) in a range.
pub(crate) fn read_number(
    r: &mut Report,
    file: usize,
    node: &Node<'_>,
    what: &str,
    range: (f64, f64, bool),
    hint: &str,
) -> Option<f64> {
    check_number(r, file, node, &format!("`{what}`"), range, hint)
}

/// [`read_number`] for a subject already worded for messages (`the x of `at``).
fn check_number(
    r: &mut Report,
    file: usize,
    node: &Node<'_>,
    subject: &str,
    (min, max, above_min): (f64, f64, bool),
    hint: &str,
) -> Option<f64> {
    let loc = Loc::new(file, node.span());
    let expect = number_expect(min, max, above_min);
    let value = match numeric(node.get_ref()) {
        Some(Numeric::Int(v)) => v.map(|v| v as f64),
        Some(Numeric::Float(f)) => Some(f),
        None => {
            let msg = format!("{subject} must be {expect}, found {}", found(r, file, node));
            note(r.error_as("wrong-type", loc, msg), hint);
            return None;
        }
    };
    match value {
        Some(v) if v.is_nan() || v.is_infinite() => {
            let msg = format!("{subject} must be {expect}, found {}", found(r, file, node));
            r.error_as("out-of-range", loc, msg)
                .help("`nan` and `inf` are not numbers a game can use; write a finite number");
            None
        }
        Some(v) if (if above_min { v > min } else { v >= min }) && v <= max => Some(v),
        _ => {
            let msg = format!("{subject} must be {expect}, found {}", found(r, file, node));
            note(r.error_as("out-of-range", loc, msg), hint);
            None
        }
    }
}

pub(crate) fn read_bool(r: &mut Report, file: usize, node: &Node<'_>, what: &str) -> Option<bool> {
    if let DeValue::Boolean(b) = node.get_ref() {
        return Some(*b);
    }
    let msg = format!(
        "`{what}` must be `true` or `false`, found {}",
        found(r, file, node)
    );
    r.error_as("wrong-type", Loc::new(file, node.span()), msg);
    None
}

pub(crate) fn read_str<'n>(
    r: &mut Report,
    file: usize,
    node: &'n Node<'_>,
    what: &str,
    expect: &str,
) -> Option<&'n str> {
    if let DeValue::String(s) = node.get_ref() {
        return Some(s.as_ref());
    }
    let msg = format!("`{what}` must be {expect}, found {}", found(r, file, node));
    r.error_as("wrong-type", Loc::new(file, node.span()), msg);
    None
}

/// Whether `name` is 1 to 64 ASCII letters, digits, `_` or `-`.
pub(crate) fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= NAME_MAX
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Reports a name that is not a valid name (of a `kind` of thing); returns whether it is valid.
pub(crate) fn check_name(r: &mut Report, loc: Loc, kind: &str, name: &str) -> bool {
    if is_name(name) {
        return true;
    }
    let msg = if name.is_empty() {
        format!("a {kind} name must not be empty")
    } else {
        let shown: String = name.chars().take(40).collect();
        format!("`{shown}` is not a valid {kind} name")
    };
    r.error_as("invalid-name", loc, msg)
        .help("names are 1 to 64 characters long and use only ASCII letters, digits, `_` and `-`");
    false
}

pub(crate) fn read_name(
    r: &mut Report,
    file: usize,
    node: &Node<'_>,
    what: &str,
    kind: &str,
) -> Option<Named> {
    let s = read_str(r, file, node, what, &format!("a {kind} name (a string)"))?;
    let loc = Loc::new(file, node.span());
    check_name(r, loc, kind, s).then(|| Named {
        name: s.to_string(),
        loc,
    })
}

/// Reads a path inside the game folder, in normal form; `ext` (when not empty) is required.
pub(crate) fn read_path(
    r: &mut Report,
    file: usize,
    node: &Node<'_>,
    what: &str,
    ext: &str,
) -> Option<Named> {
    let raw = read_str(r, file, node, what, "a path (a string)")?;
    let loc = Loc::new(file, node.span());
    match path::normalize(raw) {
        Ok(p) if ext.is_empty() || p.ends_with(ext) => Some(Named { name: p, loc }),
        Ok(p) => {
            r.error(loc, format!("`{what}`: `{p}` must be a `{ext}` file"));
            None
        }
        Err(e) => {
            let help = match e {
                PathError::Absolute => "write the path relative to the game folder".to_string(),
                PathError::Escapes => {
                    "content may only use files inside the game folder".to_string()
                }
                PathError::Backslash => format!("write `{}`", raw.replace('\\', "/")),
                _ => "paths are relative to the game folder, e.g. `levels/arena.toml`".to_string(),
            };
            let shown: String = raw.chars().filter(|c| !c.is_control()).take(60).collect();
            r.error(loc, format!("`{what}`: `{shown}` is not allowed: {e}"))
                .help(help);
            None
        }
    }
}

pub(crate) fn read_color(
    r: &mut Report,
    file: usize,
    node: &Node<'_>,
    what: &str,
) -> Option<Color> {
    let expect = "a colour: `\"#rgb\"`, `\"#rrggbb\"`, `\"#rrggbbaa\"` or a colour name";
    let text = read_str(r, file, node, what, expect)?;
    if let Some(c) = Color::parse(text) {
        return Some(c);
    }
    let names = Color::NAMES.iter().map(|(name, _)| *name);
    let msg = format!("`{what}` must be {expect}, found {}", found(r, file, node));
    let help = match suggest::closest(text, names.clone()) {
        Some(n) => format!("did you mean `\"{n}\"`?"),
        None if text.starts_with('#') => {
            "after `#` write 3, 6 or 8 hexadecimal digits, e.g. `\"#f80\"`, `\"#ff8800\"` or `\"#ff880080\"`".to_string()
        }
        None => format!("colour names are {}", suggest::list(names)),
    };
    r.error(Loc::new(file, node.span()), msg).help(help);
    None
}

/// The names of a pair's two components.
fn components(form: &str) -> [&'static str; 2] {
    if form.contains('w') {
        ["width", "height"]
    } else {
        ["x", "y"]
    }
}

/// Reads `[a, b]`: exactly two finite numbers in a range.
pub(crate) fn read_pair(
    r: &mut Report,
    file: usize,
    node: &Node<'_>,
    what: &str,
    form: &str,
    range: (f64, f64, bool),
) -> Option<Vec2> {
    let loc = Loc::new(file, node.span());
    let DeValue::Array(items) = node.get_ref() else {
        let msg = format!(
            "`{what}` must be {form}: an array of two numbers, found {}",
            found(r, file, node)
        );
        r.error(loc, msg);
        return None;
    };
    if items.len() != 2 {
        let msg = format!(
            "`{what}` must be {form}: exactly two numbers, found {} item{}",
            items.len(),
            if items.len() == 1 { "" } else { "s" }
        );
        r.error(loc, msg);
        return None;
    }
    let names = components(form);
    let mut out = [0.0f32; 2];
    let mut ok = true;
    for ((item, name), slot) in items.iter().zip(names).zip(out.iter_mut()) {
        let subject = format!("the {name} of `{what}`");
        match check_number(r, file, item, &subject, range, "") {
            Some(v) => *slot = v as f32,
            None => ok = false,
        }
    }
    let [x, y] = out;
    ok.then_some(Vec2::new(x, y))
}

/// Reads a size: one positive number (a square) or `[w, h]`.
pub(crate) fn read_size(
    r: &mut Report,
    file: usize,
    node: &Node<'_>,
    what: &str,
    max: f64,
) -> Option<Vec2> {
    match node.get_ref() {
        DeValue::Array(_) => read_pair(r, file, node, what, "[w, h]", (0.0, max, true)),
        DeValue::Integer(_) | DeValue::Float(_) => {
            let v = read_number(r, file, node, what, (0.0, max, true), "")? as f32;
            Some(Vec2::new(v, v))
        }
        _ => {
            let msg = format!(
                "`{what}` must be a size: a number above 0 or [w, h], found {}",
                found(r, file, node)
            );
            r.error(Loc::new(file, node.span()), msg);
            None
        }
    }
}

/// Help naming what is declared, for a reference to something that is not.
pub(crate) fn declared_help(kind: &str, names: &[&str], declare: &str) -> String {
    if names.is_empty() {
        format!("no {kind} is declared yet; {declare}")
    } else {
        format!(
            "the declared {kind}s are {}; {declare}",
            suggest::list(names.iter().copied())
        )
    }
}
