//! `ludus check` over scripts and modules built to break its linter: nested a hundred thousand
//! deep, a million operators long. Each run is a fresh process under a 2 GB address-space
//! limit and ends within a minute with the file and line: an error where Lua refuses the file,
//! a warning that it was not linted where Lua accepts it. A stack overflow would end the
//! process with a signal, which fails the test instead of the test binary.

mod support;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use support::{Scratch, ended_with, limited, ludus, scratch};

/// A case: its name, `scripts/main.lua`, more files (path, text), the places expected.
type Case<'a> = (&'a str, String, &'a [(&'a str, &'a str)], &'a [&'a str]);

/// A new game (`ludus new`) whose `scripts/main.lua` is `main`, with more files `extra`: its
/// scratch folder (removed when the guard drops) and the game's folder in it.
fn game(name: &str, main: &str, extra: &[(&str, &str)]) -> (Scratch, PathBuf) {
    let tmp = scratch("check", name);
    let dir = tmp.join("game");
    let o = ludus().arg("new").arg(&dir).output().unwrap();
    assert!(o.status.success(), "{o:?}");
    std::fs::write(dir.join("scripts/main.lua"), main).unwrap();
    for (path, text) in extra {
        std::fs::write(dir.join(path), text).unwrap();
    }
    (tmp, dir)
}

/// `ludus check DIR` within 60 s: its exit code and its stderr's lines that name a place.
fn check(dir: &Path) -> (i32, Vec<String>, String) {
    let o = limited(&[OsStr::new("check"), dir.as_os_str()], 60);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let code = o.status.code().unwrap_or(-1);
    ended_with(&o, code);
    let prefix = format!("{}/", dir.display());
    let places = err
        .lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .map(str::to_string)
        .collect();
    (
        code,
        places,
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// Lua refuses code nested past its C-stack limit as a syntax error at the line; the linter's
/// parser is never reached.
const PARENS: &str = "scripts/main.lua:1:1: error: the script does not compile: code nested too deeply (Lua allows about 200 levels of blocks, brackets and calls) near '('";
const BRACES: &str = "scripts/deep.lua:2:1: error: the script does not compile: code nested too deeply (Lua allows about 200 levels of blocks, brackets and calls) near '{'";
const INDEX: &str = "scripts/main.lua:1:1: error: the script does not compile: code nested too deeply (Lua allows about 200 levels of blocks, brackets and calls) near 'a'";

#[test]
fn deep_nesting_that_lua_refuses_is_its_error_at_its_place() {
    let deep_parens = format!("x = {}1{}\n", "(".repeat(100_000), ")".repeat(100_000));
    let deep_braces = format!(
        "local n = 1\nreturn {}{}\n",
        "{".repeat(100_000),
        "}".repeat(100_000)
    );
    let deep_index = format!("x = {}1{}\n", "a[".repeat(50_000), "]".repeat(50_000));
    let cases: [Case; 3] = [
        ("parens", deep_parens, &[], &[PARENS]),
        (
            "module",
            "local deep = require('deep')\n".into(),
            &[("scripts/deep.lua", &deep_braces)],
            &[BRACES],
        ),
        ("index", deep_index, &[], &[INDEX]),
    ];
    for (name, main, extra, expect) in cases {
        let (_tmp, dir) = game(name, &main, extra);
        let (code, places, _) = check(&dir);
        assert_eq!(code, 1, "{name}");
        assert_eq!(places, expect, "{name}");
    }
}

#[test]
fn code_lua_accepts_and_the_linter_cannot_read_is_a_warning_at_its_line() {
    // 1,000,000 additions: past 200,000 tokens at the 99,999th `+` (byte 400,004).
    let long = format!("local x = 1{}\n", " + 1".repeat(1_000_000));
    // 2,100 `- -1`: the 2,017th unary minus passes the nesting bound (byte 10,091).
    let nested = format!("return 1{}\n", " - -1".repeat(2100));
    let cases: [Case; 2] = [
        (
            "long",
            long,
            &[],
            &[
                "scripts/main.lua:1:400005: warning: this file is too long for the script \
                 linter, so it was not linted",
            ],
        ),
        (
            "nested",
            "local n = require('chain')\n".into(),
            &[("scripts/chain.lua", &nested)],
            &[
                "scripts/chain.lua:1:10092: warning: the script linter cannot read code nested \
                 this deep, so the file was not linted",
            ],
        ),
    ];
    for (name, main, extra, expect) in cases {
        let (_tmp, dir) = game(name, &main, extra);
        let (code, places, out) = check(&dir);
        assert_eq!(code, 0, "{name}: a warning, not an error");
        assert_eq!(places, expect, "{name}");
        assert!(out.contains("1 warning"), "{name}: {out}");
    }
}

/// Long chains of `or`, `and` and `elseif` (each adds a jump to a list Lua's compiler keeps)
/// compile in time linear in their length: `check` of each ends, and `sim` runs the chain.
#[test]
fn long_jump_chains_compile_in_linear_time() {
    let or = format!("x = false{}\n", " or false".repeat(300_000));
    let and = format!("y = true{}\n", " and true".repeat(300_000));
    let mut elseif = String::from("local v = 7\nif v == 0 then z = 0\n");
    for i in 1..40_000 {
        elseif.push_str(&format!("elseif v == {i} then z = {i}\n"));
    }
    elseif.push_str("end\n");
    for (name, main) in [("or", or), ("and", and), ("elseif", elseif)] {
        let (_tmp, dir) = game(name, &main, &[]);
        let (code, places, _) = check(&dir);
        assert_eq!(code, 0, "{name}: {places:?}");
        let o = limited(
            &[
                OsStr::new("sim"),
                dir.as_os_str(),
                OsStr::new("--ticks"),
                OsStr::new("2"),
            ],
            60,
        );
        ended_with(&o, 0);
    }
}
