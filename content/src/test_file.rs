//! A game's test file (`tests/NAME.toml`, run by `ludus test`): the input a run plays, its tick
//! limit, its saved data and seed, and the expectations its end must meet, read against the
//! schema (`schema/test.rs`) with the same diagnostics as content.

use crate::diagnostic::Diagnostics;
use crate::files::register_text;
use crate::parse::parse_toml;
use crate::report::{Loc, Report};
use crate::schema::{EXPECT, RANGE, TEST};
use crate::table::Table;
use crate::value::{Node, check_name, found, read_number};
use toml::de::DeValue;

/// Where something is written in a test file: 1-based line and character column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub line: u32,
    pub col: u32,
}

/// A test file as read. Paths are relative to the game folder, inside it.
#[derive(Clone, Debug, PartialEq)]
pub struct TestSpec {
    /// The file as diagnostics name it (`examples/breakout/tests/win.toml`).
    pub file: String,
    pub input: Option<(String, Place)>,
    pub frames: Option<(String, Place)>,
    pub ticks: u64,
    pub save: Option<(String, Place)>,
    pub seed: Option<u64>,
    /// Every expectation, in the order written; `faulted` is always among them (default
    /// `false`, placed at line 0 when not written).
    pub expect: Vec<Expectation>,
}

/// One expectation of `[expect]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Expectation {
    /// As the file names it: `game_over`, `vars.lives`, `count.brick`...
    pub name: String,
    pub place: Place,
    pub want: Want,
}

/// What an expectation asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Want {
    GameOver(Outcome),
    Tick(u64),
    Score(Value),
    Var(String, Value),
    Count(String, u64),
    Faulted(Outcome),
    Hash(u64),
}

/// A game over or a fault: none, any, or one whose message is (game over) or contains
/// (fault) the text.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    No,
    Any,
    Text(String),
}

/// The value of a score or variable.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Num(f64),
    Text(String),
    /// Bounds, both included.
    Range {
        min: Option<f64>,
        max: Option<f64>,
    },
}

/// Reads a test file: `root` is the game folder as given (shown in front of `path`, the file
/// relative to it), `bytes` its contents. Every problem is reported, at its line and column.
pub fn read_test(root: &str, path: &str, bytes: &[u8]) -> Result<TestSpec, Diagnostics> {
    let mut r = Report::new(root);
    let Some((file, text)) = register_text(&mut r, path, bytes) else {
        return Err(r.finish());
    };
    let Some(tree) = parse_toml(&mut r, file, &text) else {
        return Err(r.finish());
    };
    let t = Table::root(&mut r, file, &tree, &TEST);
    let placed = |r: &mut Report, key: &str| {
        let n = t.path(r, key)?;
        let (line, col) = r.position(n.loc);
        Some((n.name, Place { line, col }))
    };
    let input = placed(&mut r, "input");
    let frames = placed(&mut r, "frames");
    let save = placed(&mut r, "save");
    let ticks = t.int(&mut r, "ticks").and_then(|v| u64::try_from(v).ok());
    let seed = t.int(&mut r, "seed").and_then(|v| u64::try_from(v).ok());
    let mut expect = Vec::new();
    let top = Some((&TEST, "the top level of a test file"));
    if let Some(node) = t.get("expect")
        && let Some(e) = Table::open(&mut r, file, node, "expect", &EXPECT, top)
    {
        read_expect(&mut r, &e, &mut expect);
    }
    expect.sort_by_key(|e| (e.place.line == 0, e.place.line, e.place.col));
    if !expect.iter().any(|e| matches!(e.want, Want::Faulted(_))) {
        expect.push(Expectation {
            name: "faulted".into(),
            place: Place::default(),
            want: Want::Faulted(Outcome::No),
        });
    }
    let shown = r.shown(path);
    if r.count() > 0 {
        return Err(r.finish());
    }
    Ok(TestSpec {
        file: shown,
        input,
        frames,
        ticks: ticks.unwrap_or(1),
        save,
        seed,
        expect,
    })
}

/// The expectations of `[expect]` (by key; the caller orders them as written).
fn read_expect(r: &mut Report, e: &Table<'_, '_>, out: &mut Vec<Expectation>) {
    let file = e.file;
    let place = |r: &Report, loc: Loc| {
        let (line, col) = r.position(loc);
        Place { line, col }
    };
    let at = |node: &Node<'_>| Loc::new(file, node.span());
    for key in [
        "game_over",
        "tick",
        "score",
        "vars",
        "count",
        "faulted",
        "hash",
    ] {
        let Some(node) = e.get(key) else { continue };
        let what = format!("expect.{key}");
        let mut add = |r: &Report, name: String, loc: Loc, want: Want| {
            out.push(Expectation {
                name,
                place: place(r, loc),
                want,
            })
        };
        match key {
            "game_over" | "faulted" => {
                let Some(o) = outcome(r, file, node, &what, key) else {
                    continue;
                };
                let want = if key == "faulted" {
                    Want::Faulted(o)
                } else {
                    Want::GameOver(o)
                };
                add(r, key.into(), at(node), want);
            }
            "tick" => {
                if let Some(v) = e.int(r, key).and_then(|v| u64::try_from(v).ok()) {
                    add(r, key.into(), at(node), Want::Tick(v));
                }
            }
            "score" => match value(r, file, node, &what, false) {
                // The score is a whole number (an i64): no other number can be seen.
                Some(Value::Num(n)) if n.fract() != 0.0 || !(-I64_EDGE..I64_EDGE).contains(&n) => {
                    let msg = format!(
                        "`{what}` must be a whole number, found {}",
                        found(r, file, node)
                    );
                    r.error(at(node), msg).help(
                        "the score is a whole number; for a range write `{ min = .., max = .. }`",
                    );
                }
                Some(v) => add(r, key.into(), at(node), Want::Score(v)),
                None => {}
            },
            "vars" => {
                for (name, v) in e.entries(r, key, "vars.lives = 2").unwrap_or_default() {
                    if !check_name(r, name.loc, "variable", &name.name) {
                        continue;
                    }
                    let item = format!("{what}.{}", name.name);
                    if let Some(value) = value(r, file, v, &item, true) {
                        let full = format!("vars.{}", name.name);
                        add(r, full, at(v), Want::Var(name.name, value));
                    }
                }
            }
            "count" => {
                for (name, n) in e.counts(r, key, "tag") {
                    let full = format!("count.{}", name.name);
                    let n = u64::try_from(n).unwrap_or(0);
                    add(r, full, name.loc, Want::Count(name.name, n));
                }
            }
            _ => {
                if let Some(h) = hash(r, file, node, &what) {
                    add(r, key.into(), at(node), Want::Hash(h));
                }
            }
        }
    }
}

/// `false`, `true` or a text (`game_over`, `faulted`).
fn outcome(r: &mut Report, file: usize, node: &Node<'_>, what: &str, key: &str) -> Option<Outcome> {
    match node.get_ref() {
        DeValue::Boolean(false) => Some(Outcome::No),
        DeValue::Boolean(true) => Some(Outcome::Any),
        DeValue::String(s) => Some(Outcome::Text(s.to_string())),
        _ => {
            let msg = format!(
                "`{what}` must be a string, `true` or `false`, found {}",
                found(r, file, node)
            );
            let example = EXPECT.key(key).map_or("", |k| k.example);
            r.error(Loc::new(file, node.span()), msg)
                .help(format!("e.g. `{example}`"));
            None
        }
    }
}

/// A state hash: 16 hex digits in a string.
fn hash(r: &mut Report, file: usize, node: &Node<'_>, what: &str) -> Option<u64> {
    let text = match node.get_ref() {
        DeValue::String(s) => Some(s.as_ref()),
        _ => None,
    };
    let parsed = text
        .filter(|s| s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit()))
        .and_then(|s| u64::from_str_radix(s, 16).ok());
    if parsed.is_none() {
        let msg = format!(
            "`{what}` must be a state hash of 16 hex digits, found {}",
            found(r, file, node)
        );
        r.error(Loc::new(file, node.span()), msg).help(
            "write the hash `ludus sim` prints, e.g. `hash = \"9b2c0e5d4f1a7c33\"`, or let `ludus test --bless` write it",
        );
    }
    parsed
}

/// 2^63: the scores an i64 holds are from its negative to below it.
const I64_EDGE: f64 = 9_223_372_036_854_775_808.0;

/// A number, a text (when `text` allows it) or `{ min = .., max = .. }`.
fn value(r: &mut Report, file: usize, node: &Node<'_>, what: &str, text: bool) -> Option<Value> {
    let any = (f64::MIN, f64::MAX, false);
    match node.get_ref() {
        DeValue::String(s) if text => Some(Value::Text(s.to_string())),
        DeValue::Table(_) => {
            let t = Table::open(r, file, node, what, &RANGE, None)?;
            let (min, max) = (t.number(r, "min"), t.number(r, "max"));
            if !t.has("min") && !t.has("max") {
                r.error(t.loc, format!("`{what}` needs `min`, `max` or both"))
                    .help("e.g. `{ min = 1, max = 10 }`");
                return None;
            }
            if let (Some(lo), Some(hi)) = (min, max)
                && lo > hi
            {
                let loc = t.loc_of("max").unwrap_or(t.loc);
                r.error(loc, format!("`{what}`: `max` {hi} is below `min` {lo}"));
                return None;
            }
            Some(Value::Range { min, max })
        }
        DeValue::Integer(_) | DeValue::Float(_) => {
            read_number(r, file, node, what, any, "").map(Value::Num)
        }
        _ => {
            let expect = if text {
                "a number, a string or `{ min = .., max = .. }`"
            } else {
                "a number or `{ min = .., max = .. }`"
            };
            let msg = format!("`{what}` must be {expect}, found {}", found(r, file, node));
            r.error(Loc::new(file, node.span()), msg);
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32, col: u32) -> Place {
        Place { line, col }
    }

    fn expect(name: &str, place: Place, want: Want) -> Expectation {
        Expectation {
            name: name.into(),
            place,
            want,
        }
    }

    /// Every key read into its value and place, expectations in the order written, `faulted`
    /// added (unplaced) when not written.
    #[test]
    fn a_test_file_reads_into_its_spec() {
        let text = "input = \"tests/a.jsonl\"\nticks = 50\nseed = 3\nsave = \"tests/s.json\"\n\
                    [expect]\nhash = \"00000000000000ff\"\nvars.hp = { min = 1 }\n\
                    vars.who = \"x\"\ngame_over = false\ncount.foe = 2\nscore = 7\ntick = 9\n";
        let spec = read_test("g", "tests/a.toml", text.as_bytes()).unwrap();
        let want = TestSpec {
            file: "g/tests/a.toml".into(),
            input: Some(("tests/a.jsonl".into(), at(1, 9))),
            frames: None,
            ticks: 50,
            save: Some(("tests/s.json".into(), at(4, 8))),
            seed: Some(3),
            expect: vec![
                expect("hash", at(6, 8), Want::Hash(0xff)),
                expect(
                    "vars.hp",
                    at(7, 11),
                    Want::Var(
                        "hp".into(),
                        Value::Range {
                            min: Some(1.0),
                            max: None,
                        },
                    ),
                ),
                expect(
                    "vars.who",
                    at(8, 12),
                    Want::Var("who".into(), Value::Text("x".into())),
                ),
                expect("game_over", at(9, 13), Want::GameOver(Outcome::No)),
                expect("count.foe", at(10, 7), Want::Count("foe".into(), 2)),
                expect("score", at(11, 9), Want::Score(Value::Num(7.0))),
                expect("tick", at(12, 8), Want::Tick(9)),
                expect("faulted", Place::default(), Want::Faulted(Outcome::No)),
            ],
        };
        assert_eq!(spec, want);
    }

    /// A number the widest bounds refuse is described as finite, not by its 309 digits.
    #[test]
    fn a_number_that_is_not_finite_is_refused_in_a_line() {
        for (text, want) in [
            (
                "ticks = 5\n[expect]\nvars.x = nan\n",
                "`expect.vars.x` must be a finite number, found `nan`",
            ),
            (
                "ticks = 5\n[expect]\nscore = -inf\n",
                "`expect.score` must be a finite number, found `-inf`",
            ),
        ] {
            let err = read_test("g", "tests/a.toml", text.as_bytes()).unwrap_err();
            let messages: Vec<&str> = err.iter().map(|d| d.message.as_str()).collect();
            assert_eq!(messages, [want], "{text}");
        }
    }
}
