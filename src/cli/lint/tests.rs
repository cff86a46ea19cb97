//! The lints over small scripts, each with every diagnostic it must give, exactly:
//! `line:col+width severity: message | help`.

use super::source::Source;
use super::{Names, Role, lint_file, lint_game};
use crate::runtime::project::MemoryModules;
use ludus_core::{EVENT_KINDS, GameDef};
use ludus_script::Script;
use std::collections::BTreeMap;

fn names() -> Names {
    let v = |names: &[&str]| names.iter().map(|n| n.to_string()).collect();
    Names {
        archetypes: v(&["bullet", "enemy"]),
        effects: v(&["boom"]),
        sounds: v(&["shoot"]),
        levels: v(&["main", "boss"]),
        cooldowns: v(&["fire"]),
        animations: v(&["idle", "run"]),
        actions: v(&["jump", "move_x"]),
        tags: v(&["player", "enemy"]),
        constants: v(&["speed"]),
        ..Names::default()
    }
}

fn lint(role: Role, names: &Names, text: &str) -> Vec<String> {
    let source = Source::new("main.lua", text);
    let mut found = lint_file(&source, "main.lua", role, names).diagnostics;
    found.sort_by_key(|d| (d.line, d.col));
    found
        .iter()
        .map(|d| {
            let help = d
                .help
                .as_deref()
                .map(|h| format!(" | {h}"))
                .unwrap_or_default();
            let severity = d.severity.word();
            format!(
                "{}:{}+{} {severity}: {}{help}",
                d.line, d.col, d.span_len, d.message
            )
        })
        .collect()
}

fn check(role: Role, names: &Names, cases: &[(&str, &[&str])]) {
    for (text, expect) in cases {
        assert_eq!(lint(role, names, text), *expect, "lints of {text:?}");
    }
}

#[test]
fn global_functions_named_like_handlers_that_are_not_handlers() {
    let handlers: Vec<String> = EVENT_KINDS
        .iter()
        .map(|k| format!("`{}`", k.handler))
        .collect();
    let on_hit = format!(
        "1:10+6 warning: `on_hit` is not an event handler | nothing in this file calls it, and \
         the host calls only {}",
        handlers.join(", ")
    );
    check(
        Role::Script,
        &names(),
        &[
            (
                "function on_strat()\nend\n",
                &["1:10+8 error: `on_strat` is not an event handler | did you mean `on_start`?"],
            ),
            (
                "on_tik = function(t) end",
                &["1:1+6 error: `on_tik` is not an event handler | did you mean `on_tick`?"],
            ),
            (
                "if debug then\n  function on_colision_enter(list) end\nend",
                &[
                    "2:12+17 error: `on_colision_enter` is not an event handler | did you mean \
                     `on_collision_enter`?",
                ],
            ),
            (
                "function onstart() end",
                &["1:10+7 error: `onstart` is not an event handler | did you mean `on_start`?"],
            ),
            ("function on_hit(e) end", &[on_hit.as_str()]),
            // Called by the script itself: a function of its own.
            (
                "function on_hit(e) end\nfunction on_tick() on_hit(1) end",
                &[],
            ),
            ("function on_strat() end\nlocal f = on_strat", &[]),
            // Handlers, locals, fields and names far from any handler are not looked at.
            ("function on_start() end\non_tick = function() end", &[]),
            ("local function on_strat() end", &[]),
            ("local on_strat\non_strat = function() end", &[]),
            (
                "function on_tick(on_strat) on_strat = function() end end",
                &[],
            ),
            (
                "local M = {}\nfunction M.on_strat() end\nfunction M:on_tik() end",
                &[],
            ),
            (
                "function collision_enter() end\nfunction spawn_wave() end",
                &[],
            ),
            ("on_strat = 1", &[]),
        ],
    );
}

#[test]
fn handlers_in_modules_are_never_called() {
    check(
        Role::Module,
        &names(),
        &[
            (
                "function on_start() end\nreturn {}",
                &[
                    "1:10+8 warning: `on_start` is defined in a module, where handlers are not \
                     called | handlers are called only in the files of `[scripts] files`: \
                     define it there (a module can return a function for a script to call)",
                ],
            ),
            (
                "function on_start() end\nreturn { on_start = on_start }",
                &[],
            ),
            ("function on_strat() end\nfunction on_hit() end", &[]),
        ],
    );
}

#[test]
fn ludus_functions_that_do_not_exist() {
    check(
        Role::Script,
        &names(),
        &[
            (
                "ludus.destory(id)",
                &["1:7+7 error: `ludus.destory` does not exist | did you mean `ludus.destroy`?"],
            ),
            (
                "local spawn = ludus.spwan",
                &["1:21+5 error: `ludus.spwan` does not exist | did you mean `ludus.spawn`?"],
            ),
            (
                "function on_tick()\n\tludus.explode(1)\nend",
                &[
                    "2:8+7 error: `ludus.explode` does not exist | the `ludus` functions are \
                     listed in docs/scripting.md",
                ],
            ),
            (
                "ludus.__log('x')",
                &["1:7+5 error: `ludus.__log` does not exist | did you mean `ludus.log`?"],
            ),
            // Every function of the API, whether Rust or the prelude writes it.
            (
                "ludus.destroy(1) ludus.log(1) local c = ludus.const ludus.has(0, 'enemy')",
                &[],
            ),
            // What the script puts in its own `ludus` table, before or after using it.
            ("ludus.helper()\nfunction ludus.helper() end", &[]),
            (
                "ludus.extra = 1\nprint(ludus.extra)\nfunction ludus:method() end",
                &[],
            ),
            // A local or a parameter called `ludus` is not the API.
            ("local ludus = {}\nludus.anything()", &[]),
            ("function on_tick(ludus) ludus.anything() end", &[]),
            ("for _, ludus in ipairs(t) do ludus.x() end", &[]),
            ("local l = ludus\nl.destory(1)", &[]),
            (
                "ludus = { go = print }\nludus.go('bulet') ludus.spawn('bulet')",
                &[],
            ),
        ],
    );
}

#[test]
fn literal_names_the_game_does_not_declare() {
    check(
        Role::Script,
        &names(),
        &[
            (
                "ludus.spawn(\"bulet\", x, y)",
                &["1:13+7 error: unknown archetype `bulet` | did you mean `bullet`?"],
            ),
            (
                "ludus.sound 'shot'",
                &["1:13+6 error: unknown sound `shot` | did you mean `shoot`?"],
            ),
            (
                "ludus.load_level(\"lvl2\")",
                &["1:18+6 error: unknown level `lvl2` | the game's levels are `main`, `boss`"],
            ),
            (
                "ludus.use_cooldown(id, \"fier\")\nlocal t = ludus.cooldown(id, 'reload')",
                &[
                    "1:24+6 error: no archetype declares a cooldown `fier` | did you mean `fire`?",
                    "2:30+8 error: no archetype declares a cooldown `reload` | the game's \
                     cooldowns are `fire`",
                ],
            ),
            (
                "ludus.animate(id, \"idel\")\nludus.animate(id, 'run')\nludus.animate(id, 'fly')",
                &[
                    "1:19+6 error: no archetype declares an animation `idel` | did you mean `idle`?",
                    "3:19+5 error: no archetype declares an animation `fly` | the game's \
                     animations are `idle`, `run`",
                ],
            ),
            (
                "if ludus.pressed(\"jmp\") or ludus.held('jump') then x = ludus.axis('move_y') end",
                &[
                    "1:18+5 error: unknown action `jmp` | did you mean `jump`?",
                    "1:67+8 error: unknown action `move_y` | did you mean `move_x`?",
                ],
            ),
            (
                "ludus.find('enemy') ludus.count('enemies')\n\
                 ludus.nearest(x, y, 'playr', 50) ludus.within(x, y, 10, 'ennemy')\n\
                 if ludus.has(e.tags, 'enmy') then end",
                &[
                    "1:33+9 error: unknown tag `enemies` | the game's tags are `player`, `enemy`",
                    "2:21+7 error: unknown tag `playr` | did you mean `player`?",
                    "2:57+8 error: unknown tag `ennemy` | did you mean `enemy`?",
                    "3:22+6 error: unknown tag `enmy` | did you mean `enemy`?",
                ],
            ),
            (
                "ludus.effect('smoke', 0, 0) ludus.effect('boom', 0, 0)",
                &["1:14+7 error: unknown effect `smoke` | the game's effects are `boom`"],
            ),
            (
                "local v = ludus.const.sped * ludus.const.speed + ludus.const.zzz",
                &[
                    "1:23+4 error: `ludus.const.sped` is not declared | did you mean `speed`?",
                    "1:62+3 error: `ludus.const.zzz` is not declared | the game's constants \
                     are `speed`",
                ],
            ),
            // What is not a plain literal in the name's place is not looked at.
            (
                "ludus.spawn(kind, 0, 0) ludus.spawn('bul' .. 'let', 0, 0)",
                &[],
            ),
            (
                "ludus.spawn('bu\\x6clet', 0, 0) ludus.spawn([[bulet]], 0, 0)",
                &[],
            ),
            (
                "ludus.spawn(('bulet'), 0, 0) ludus.within(x, y, 'enmy')",
                // Not a tag where it stands, so not judged as one: a string where the
                // radius goes.
                &[
                    "1:49+6 error: `ludus.within`'s `radius` must be a number, and this is a string | the call is `ludus.within(x: number, y: number, radius: number [, tag: tag]) -> id[]`",
                ],
            ),
            ("ludus.set('anything', 1) ludus.after(10, 'whatever')", &[]),
        ],
    );
    let none = Names::default();
    check(
        Role::Script,
        &none,
        &[(
            "ludus.sound('shoot')",
            &["1:13+7 error: unknown sound `shoot` | the game declares no sounds"],
        )],
    );
}

#[test]
fn scripts_that_do_not_compile_have_one_error_with_a_column() {
    check(
        Role::Script,
        &names(),
        &[
            (
                "local a = 1\nlocal b = = 2\nludus.destory(1)\n",
                &[
                    "2:9+1 error: the script does not compile: unexpected symbol near '=' | \
                     expected an expression",
                ],
            ),
            (
                "local s = \"abc\n",
                &[
                    "1:11+4 error: the script does not compile: unfinished string near '\"abc' \
                     | unclosed string (1:11 to 2:1)",
                ],
            ),
            // Lua refuses what the parser accepts: Lua's line.
            (
                "local x = 1\n  local y <fast> = 2\n",
                &["2:3+18 error: the script does not compile: unknown attribute 'fast'"],
            ),
            // The parser refuses what Lua accepts: not linted, and not an error.
            (
                "x = 1;;\nludus.destory(1)",
                &[
                    "1:7+1 warning: the script linter cannot parse this file, so it was not \
                     linted | unexpected token, this needs to be a statement (Lua itself \
                     accepts the file)",
                ],
            ),
        ],
    );
}

#[test]
fn required_modules_are_linted_once_and_missing_ones_reported() {
    let files: BTreeMap<String, Vec<u8>> = [
        (
            "scripts/util.lua",
            "local u = require('util')\nludus.spwan('bullet', 0, 0)\n",
        ),
        ("ai/steer.lua", "function on_start() end\nreturn {}\n"),
    ]
    .into_iter()
    .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
    .collect();
    let script = Script {
        path: "scripts/main.lua".into(),
        text: "local u = require('util')\nlocal s = require 'ai.steer'\n\
               local m = require('missing')\nlocal b = require('bad-name')\n\
               local d = require(name)\nfunction on_strat() end\n"
            .into(),
    };
    let modules = MemoryModules(files);
    let shown = |p: &str| format!("game/{p}");
    let found = lint_game(&GameDef::default(), &[script], &modules, &[], &shown);
    let rendered: Vec<String> = found.iter().map(|d| d.render()).collect();
    let expect = [
        "game/scripts/main.lua:3:19: error: no module `missing` could be read\n \
         3 | local m = require('missing')\n   |                   ^^^^^^^^^\n   \
         = help: `require` reads `missing.lua` (file not found) or `scripts/missing.lua` \
         (file not found)\n",
        "game/scripts/main.lua:4:19: error: `bad-name` is not a module name\n \
         4 | local b = require('bad-name')\n   |                   ^^^^^^^^^^\n   \
         = help: module names are dotted identifiers such as \"util\" or \"ai.steering\", \
         found in the game folder\n",
        "game/scripts/main.lua:6:10: error: `on_strat` is not an event handler\n \
         6 | function on_strat() end\n   |          ^^^^^^^^\n   \
         = help: did you mean `on_start`?\n",
        "game/scripts/util.lua:2:7: error: `ludus.spwan` does not exist\n \
         2 | ludus.spwan('bullet', 0, 0)\n   |       ^^^^^\n   \
         = help: did you mean `ludus.spawn`?\n",
        "game/ai/steer.lua:1:10: warning: `on_start` is defined in a module, where handlers are \
         not called\n 1 | function on_start() end\n   |          ^^^^^^^^\n   \
         = help: handlers are called only in the files of `[scripts] files`: define it there \
         (a module can return a function for a script to call)\n",
    ];
    assert_eq!(
        rendered, expect,
        "scripts first, then modules as first required"
    );
}

/// The parser's bounds, read from tokens alone (nothing here is parsed, so no case can
/// overflow a stack): each case is within both bounds, or names the bound and the byte span
/// of the first token past it. `ludus check` over such files runs in tests/hostile_check.rs.
///
/// Long because it is one table of cases, each a text and what measuring it gives.
#[test]
fn files_past_the_parsers_bounds_are_found_before_parsing() {
    use super::shape::{Bound, TooLarge, measure};
    use super::walk::Span;
    let past = |why, start, len| {
        Err(TooLarge {
            span: Span {
                start,
                end: start + len,
            },
            why,
        })
    };
    let cases: Vec<(&str, String, Result<(), TooLarge>)> = vec![
        ("a statement", "x = 1".into(), Ok(())),
        // 1366 brackets of 24 KiB pass 32 MiB: the 1366th, after `x = ` and 1365.
        (
            "brackets",
            format!("x = {}1", "(".repeat(2000)),
            past(Bound::Depth, 4 + 1365, 1),
        ),
        (
            "braces",
            format!("x = {}", "{".repeat(2000)),
            past(Bound::Depth, 4 + 1365, 1),
        ),
        // 512 functions of 64 KiB fill 32 MiB exactly: the 512th's `(` passes it.
        (
            "functions",
            "function f() ".repeat(600),
            past(Bound::Depth, 13 * 511 + 10, 1),
        ),
        (
            "unary operators",
            format!("x = {}1", "not ".repeat(3000)),
            past(Bound::Depth, 4 + 4 * 2048, 3),
        ),
        // `..` is right-associative: 6 KiB each, the 5462nd passes.
        (
            "a concatenation",
            format!("x = 'a'{}", " .. 'a'".repeat(6000)),
            past(Bound::Depth, 7 + 7 * 5461 + 1, 2),
        ),
        // `- -1`: a binary minus (256 B) and a unary one (16 KiB); the 2017th unary passes.
        (
            "a chain of unary operands",
            format!("x = 1{}", " - -1".repeat(2100)),
            past(Bound::Depth, 5 + 5 * 2016 + 3, 1),
        ),
        // A function's `end` does not end the expression around it; its `function` and `(`
        // (88 KiB) pass the bound at the 2012th.
        (
            "functions inside one expression",
            format!("x = 1{}", " - -function() end".repeat(2100)),
            past(Bound::Depth, 5 + 18 * 2011 + 12, 1),
        ),
        // `a[a[...]]`: the tokens inside each index bracket count once per bracket, 1,000,000
        // in all: 816 levels take 999,192, 817 pass the bound at the last `]`; left open,
        // 1,000 take 1,000,000 and 1,001 pass it at the end.
        (
            "index brackets",
            format!("x = {}1{}", "a[".repeat(816), "]".repeat(816)),
            Ok(()),
        ),
        (
            "index brackets past the bound",
            format!("x = {}1{}", "a[".repeat(817), "]".repeat(817)),
            past(Bound::Depth, 4 + 2 * 817 + 1 + 816, 1),
        ),
        (
            "open index brackets",
            format!("x = {}1", "a[".repeat(1000)),
            Ok(()),
        ),
        (
            "open index brackets past the bound",
            format!("x = {}1", "a[".repeat(1001)),
            past(Bound::Depth, 4 + 2 * 1001, 1),
        ),
        ("indexes", "x = a[b[1]]\n".repeat(20_000), Ok(())),
        // A table's keys are not indexes.
        ("keys", format!("x = {}", "{[".repeat(600)), Ok(())),
        // 200,000 tokens pass; the 200,001st (`1` of line 66,667) does not.
        (
            "tokens",
            "x=1\n".repeat(66_667),
            past(Bound::Tokens, 4 * 66_666 + 2, 1),
        ),
        (
            "as many tokens as allowed",
            format!(
                "{}x= -- a comment, spaces and the end are not tokens\n",
                "x=1\n".repeat(66_666)
            ),
            Ok(()),
        ),
        // A statement ends its expression; a closed bracket takes its cost away.
        ("statements", "x = 1 + 1\n".repeat(30_000), Ok(())),
        ("calls", "f(-1 + -1)\n".repeat(20_000), Ok(())),
        ("conditions", "if not a then end\n".repeat(20_000), Ok(())),
        (
            "elseif",
            format!("if a then {}end", "elseif not b then ".repeat(20_000)),
            Ok(()),
        ),
        ("arguments", format!("f({})", "-1, ".repeat(40_000)), Ok(())),
        // Closings without openings, unknown characters, comments and strings.
        (
            "closings",
            format!("{}{}", ")end}]".repeat(1000), "(".repeat(10)),
            Ok(()),
        ),
        ("unknown characters", "x = $ 1 @ ! ?".into(), Ok(())),
        (
            "a long comment",
            format!("--[[{}]] x = 1", "(((( not ".repeat(10_000)),
            Ok(()),
        ),
        ("a string", format!("x = '{}'", "(".repeat(10_000)), Ok(())),
        (
            "an unfinished string",
            format!("x = '{}", "(".repeat(10_000)),
            Ok(()),
        ),
    ];
    for (what, text, expect) in cases {
        assert_eq!(measure(&text), expect, "{what}");
    }
}
