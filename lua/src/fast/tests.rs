//! The fast entries as Lua calls them: what the host sees of each call, what comes back.

use super::*;
use std::cell::{Cell, RefCell};

/// An argument as the host saw it, owned.
#[derive(Clone, Debug, PartialEq)]
enum Saw {
    Nil,
    Bool(bool),
    Int(i64),
    Num(f64),
    Str(Vec<u8>),
    /// A table's entries, by key.
    Table(Vec<(Vec<u8>, Saw)>),
}

impl Saw {
    fn of(a: FastArg<'_>) -> Saw {
        match a {
            FastArg::Nil => Saw::Nil,
            FastArg::Bool(b) => Saw::Bool(b),
            FastArg::Int(n) => Saw::Int(n),
            FastArg::Num(x) => Saw::Num(x),
            FastArg::Str(s) => Saw::Str(s.to_vec()),
            FastArg::Table(t) => {
                assert_eq!(t.get(t.len()), None, "no entry past the last");
                let mut e: Vec<_> = t.iter().map(|(k, v)| (k.to_vec(), Saw::of(v))).collect();
                e.sort_by(|a, b| a.0.cmp(&b.0));
                Saw::Table(e)
            }
        }
    }
}

#[derive(Default)]
struct Recorder {
    calls: RefCell<Vec<(usize, Vec<Saw>)>>,
    refuse: Cell<bool>,
}

impl FastCall for Recorder {
    /// Entry 8 returns its first argument (nil when absent or not a number) and then what
    /// its second says: 1 a boolean, 2 a number, 3 two more values (only one fits).
    fn call(&self, which: usize, args: &Args<'_>, out: &mut Results<'_>) -> bool {
        let saw = (0..args.len()).map(|i| Saw::of(args.get(i))).collect();
        self.calls.borrow_mut().push((which, saw));
        assert_eq!(args.get(args.len()), FastArg::Nil, "nil past the arguments");
        if which == 8 {
            assert!(out.is_empty());
            let first = match args.get(0) {
                FastArg::Int(n) => FastValue::Int(n),
                _ => FastValue::Nil,
            };
            assert!(out.push(first));
            match args.get(1) {
                FastArg::Int(1) => assert!(out.push(FastValue::Bool(true))),
                FastArg::Int(2) => assert!(out.push(FastValue::Num(-0.25))),
                FastArg::Int(3) => {
                    assert!(out.push(FastValue::Bool(false)));
                    assert!(!out.push(FastValue::Int(9)), "two at most");
                }
                _ => {}
            }
        }
        !self.refuse.get()
    }
}

/// Returns its arguments' whole numbers as a list (at most one list a call).
struct Lister;

impl FastCall for Lister {
    fn call(&self, _: usize, args: &Args<'_>, out: &mut Results<'_>) -> bool {
        let ids = (0..args.len()).filter_map(|i| match args.get(i) {
            FastArg::Int(n) => Some(n),
            _ => None,
        });
        assert!(out.push_ids(ids));
        assert!(!out.push_ids([1]), "one list a call");
        assert!(out.push(FastValue::Bool(true)));
        true
    }
}

#[test]
fn a_list_comes_back_as_a_new_table() {
    let lua = Lua::new();
    let generic = lua.create_function(|_, ()| Ok(())).expect("a function");
    let f = fast_entry(&lua, &Rc::new(Lister), generic, 0).expect("an entry");
    lua.globals().set("f", f).expect("f");
    let table: &[(&str, &str)] = &[
        ("f(3, 1, 2)", "3 1 2 true 3"),
        ("f()", " true 0"),
        ("f(-7, 'x', 9007199254740993)", "-7 9007199254740993 true 2"),
    ];
    for (call, want) in table {
        let got: String = lua
            .load(format!(
                "local t, b = {call}; local u = {call}; assert(t ~= u, 'a new table'); \
                 return table.concat(t, ' ') .. ' ' .. tostring(b) .. ' ' .. #t"
            ))
            .eval()
            .expect(call);
        assert_eq!(got, *want, "{call}");
    }
}

#[test]
fn a_taken_call_returns_the_values_the_host_hands_back() {
    let lua = Lua::new();
    let host = Rc::new(Recorder::default());
    let generic = lua
        .create_function(|_, ()| Ok("generic"))
        .expect("a function");
    let f = fast_entry(&lua, &host, generic, 8).expect("an entry");
    lua.globals().set("f", f).expect("f");
    let table: &[(&str, &str)] = &[
        ("f(5)", "1 integer 5"),
        ("f()", "1 nil nil"),
        ("f(-7, 1)", "2 integer -7 boolean true"),
        ("f(4, 2)", "2 integer 4 float -0.25"),
        ("f(nil, 3)", "2 nil nil boolean false"),
        ("f(print)", "1 string generic"),
    ];
    let show = "local function show(...) local out = { select('#', ...) } \
        for i = 1, select('#', ...) do local v = select(i, ...) \
        out[#out + 1] = math.type(v) or type(v); out[#out + 1] = tostring(v) end \
        return table.concat(out, ' ') end ";
    for (call, want) in table {
        let got: String = lua
            .load(format!("{show} return show({call})"))
            .eval()
            .expect(call);
        assert_eq!(got, *want, "{call}");
    }
    // Refused, what the host pushed is dropped: the generic function answers.
    host.refuse.set(true);
    let got: String = lua.load("return f(1, 1)").eval().expect("f(1, 1)");
    assert_eq!(got, "generic");
}

/// A call's text, what it returns where the generic function answers, and what the host
/// saw where it took the call.
type Row = (&'static str, Option<&'static str>, Option<Vec<Saw>>);

fn s(t: &str) -> Saw {
    Saw::Str(t.as_bytes().to_vec())
}

/// Makes each call of `table` to a fast entry (number 7) whose generic function returns
/// `generic N` for N arguments, and checks what it returns and what the host saw.
fn calls_as_in(table: &[Row]) {
    let lua = Lua::new();
    let host = Rc::new(Recorder::default());
    let generic = lua
        .create_function(|_, args: mlua::MultiValue| Ok(format!("generic {}", args.len())))
        .expect("a function");
    let f = fast_entry(&lua, &host, generic, 7).expect("an entry");
    lua.globals().set("f", f).expect("f");
    for (call, returns, saw) in table {
        host.calls.borrow_mut().clear();
        let got: Option<String> = lua.load(format!("return {call}")).eval().expect(call);
        assert_eq!(got.as_deref(), *returns, "{call} returns");
        let calls = host.calls.borrow().clone();
        assert_eq!(
            calls,
            saw.clone().map(|a| (7, a)).into_iter().collect::<Vec<_>>(),
            "{call}"
        );
    }
    // A call the host refuses goes to the generic function.
    host.refuse.set(true);
    let got: String = lua.load("return f(1)").eval().expect("f(1)");
    assert_eq!(got, "generic 1");
}

#[test]
fn plain_calls_go_to_the_host_and_the_rest_to_the_generic_function() {
    calls_as_in(&[
        (
            "f(1, nil, 3)",
            None,
            Some(vec![Saw::Int(1), Saw::Nil, Saw::Int(3)]),
        ),
        ("f()", None, Some(vec![])),
        (
            "f(-9007199254740993)",
            None,
            Some(vec![Saw::Int(-9007199254740993)]),
        ),
        (
            "f(1.5, 2.0)",
            None,
            Some(vec![Saw::Num(1.5), Saw::Num(2.0)]),
        ),
        (
            "f('1', 'a\\0b', '')",
            None,
            Some(vec![s("1"), Saw::Str(b"a\0b".to_vec()), s("")]),
        ),
        (
            "f(true, false)",
            None,
            Some(vec![Saw::Bool(true), Saw::Bool(false)]),
        ),
        (
            "f(1, 2, 3, 'x')",
            None,
            Some(vec![Saw::Int(1), Saw::Int(2), Saw::Int(3), s("x")]),
        ),
        ("f(print)", Some("generic 1"), None),
        ("f(1, 2, 3, 4, 5)", Some("generic 5"), None),
    ]);
}

#[test]
fn a_table_of_named_plain_values_goes_to_the_host_and_any_other_to_the_generic_function() {
    calls_as_in(&[
        (
            "f(1, {})",
            None,
            Some(vec![Saw::Int(1), Saw::Table(vec![])]),
        ),
        (
            "f('a', { vx = 1, vy = -2.5, name = 'x', on = false })",
            None,
            Some(vec![
                s("a"),
                Saw::Table(vec![
                    (b"name".to_vec(), s("x")),
                    (b"on".to_vec(), Saw::Bool(false)),
                    (b"vx".to_vec(), Saw::Int(1)),
                    (b"vy".to_vec(), Saw::Num(-2.5)),
                ]),
            ]),
        ),
        (
            "f({ a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8 })",
            None,
            Some(vec![Saw::Table(
                (b'a'..=b'h')
                    .zip(1..)
                    .map(|(k, v)| (vec![k], Saw::Int(v)))
                    .collect(),
            )]),
        ),
        // A key of 40 bytes (a long string).
        (
            "f({ [string.rep('k', 40)] = 'v' })",
            None,
            Some(vec![Saw::Table(vec![(vec![b'k'; 40], s("v"))])]),
        ),
        // Nine entries, a key that is not a string, a value that is not plain, a second
        // table: the generic function's.
        (
            "f({ a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9 })",
            Some("generic 1"),
            None,
        ),
        ("f({ 1 })", Some("generic 1"), None),
        ("f({ x = 1, 2 })", Some("generic 1"), None),
        ("f({ [true] = 1 })", Some("generic 1"), None),
        ("f({ [0.5] = 1 })", Some("generic 1"), None),
        ("f({ size = { 1, 2 } })", Some("generic 1"), None),
        ("f({ f = print })", Some("generic 1"), None),
        ("f({}, {})", Some("generic 2"), None),
        // One entry left of a thousand: its empty slots are the generic function's to walk
        // (and charge).
        (
            "(function() local t = {} for i = 1, 1000 do t['k' .. i] = i end \
             for i = 2, 1000 do t['k' .. i] = nil end return f(t) end)()",
            Some("generic 1"),
            None,
        ),
    ]);
}
