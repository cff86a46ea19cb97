//! The `ludus` table holds exactly the functions of the API list, and a name outside it is a
//! fault naming the closest function.

mod support;

use ludus_core::{Health, StateHash};
use support::*;

#[test]
fn the_ludus_table_is_the_api_list() {
    let mut g = game(
        "function on_start() \
           local names = {} \
           for k in pairs(ludus) do names[#names + 1] = k end \
           table.sort(names) \
           print(table.concat(names, ',')) \
         end",
    )
    .unwrap();
    run(&mut g, 1).unwrap();
    let lines = g.consequences_mut().drain_log();
    let mut listed: Vec<&str> = ludus_script::API.iter().map(|f| f.name).collect();
    listed.sort();
    assert_eq!(
        lines,
        vec![format!("[tick 1] scripts/main.lua:1: {}", listed.join(","))]
    );
}

#[test]
fn a_misspelt_function_names_the_closest() {
    let f = game("function on_start()\n  ludus.destory(1)\nend")
        .and_then(|mut g| run(&mut g, 1))
        .unwrap_err();
    assert_eq!(
        f.message,
        "ludus.destory does not exist (did you mean ludus.destroy?)"
    );
    assert_eq!(f.location.as_deref(), Some("scripts/main.lua:2"));
    let f = game("x = ludus.nothing_like_it")
        .and_then(|mut g| run(&mut g, 1))
        .unwrap_err();
    assert!(
        f.message
            .starts_with("ludus.nothing_like_it does not exist"),
        "{f}"
    );
    assert_eq!(f.location.as_deref(), Some("scripts/main.lua:1"));
}

/// `damage`, `heal`, `destroy` and `add_score` called with whole numbers (or nil) take their
/// fast entry; with anything else, the generic one. Both give the same world, and the same
/// faults with the same lines.
#[test]
fn hot_commands_act_the_same_by_either_entry() {
    let script = |one: &str, two: &str| {
        format!(
            "function on_start()\n  ludus.damage(2, {two}, 1)\n  ludus.damage(1, {two}, nil)\n  \
             ludus.heal(1, {one})\n  ludus.add_score({two})\n  ludus.destroy(3)\n  \
             ludus.damage(2, {one}, nil, 'ignored')\nend"
        )
    };
    let world = |src: String| {
        let mut g = game(&src).unwrap();
        run(&mut g, 2).unwrap();
        let health = |seq| {
            let e = g.world().entity(seq)?;
            g.world().ecs().get::<&Health>(e).ok().map(|h| h.current)
        };
        (
            StateHash::of(g.world()),
            g.world().score(),
            [health(1), health(2), health(3)],
        )
    };
    let (fast, generic) = (world(script("1", "2")), world(script("1.0", "2.0")));
    assert_eq!(fast, generic);
    assert_eq!((fast.1, fast.2), (2, [Some(9), Some(0), None]));

    for (fast, generic) in [
        ("ludus.damage(1, -1)", "ludus.damage(1.0, -1)"),
        ("ludus.damage(0, 1)", "ludus.damage(0.0, 1)"),
        ("ludus.destroy(-5)", "ludus.destroy(-5.0)"),
        ("ludus.heal(1, 1 << 40)", "ludus.heal(1.0, 1 << 40)"),
        ("ludus.damage(nil, 1)", "ludus.damage(nil, 1.0)"),
    ] {
        let fault = |call: &str| {
            let args = call.replacen('(', ", ", 1);
            let src = format!(
                "function on_start()\n  pcall({})\nend",
                args.trim_end_matches(')')
            );
            let f = game(&src).and_then(|mut g| run(&mut g, 1)).unwrap_err();
            (f.message, f.location)
        };
        let f = fault(fast);
        assert_eq!(f, fault(generic), "{fast}");
        assert_eq!(f.1.as_deref(), Some("scripts/main.lua:2"), "{fast}");
    }
}

/// The reads with a fast entry (`pos`, `vel`, `angle`, `facing`, `tags`, `alive`, `health`,
/// `random`, `tick`, `score`) give by it what the generic entry gives: the same values of the
/// same types, the same draws from the generator, the same faults.
#[test]
fn hot_reads_answer_the_same_by_either_entry() {
    // `one` is 1 (whole numbers: the fast entry) or 1.0 (the generic one); `extra` an
    // argument a read without arguments ignores (a table: the generic entry).
    let script = |one: &str, extra: &str| {
        format!(
            "local function show(...)\n  local out = {{ select('#', ...) }}\n  \
             for i = 1, select('#', ...) do\n    local v = select(i, ...)\n    \
             out[#out + 1] = (math.type(v) or type(v)) .. ' ' .. tostring(v)\n  end\n  \
             return table.concat(out, ', ')\nend\n\
             function on_tick()\n  ludus.destroy(3)\n  ludus.damage(2, 1)\n  \
             for id = 1, 5 do\n    local i = id * {one}\n    \
             print(show(ludus.pos(i)), show(ludus.vel(i)), show(ludus.angle(i)), \
             show(ludus.facing(i)), show(ludus.tags(i)), show(ludus.alive(i)), \
             show(ludus.health(i)))\n  end\n  \
             print(show(ludus.random()), show(ludus.random(6 * {one})), \
             show(math.random(-3 * {one}, 3 * {one})), show(ludus.random(nil, nil)), \
             show(ludus.tick({extra})), show(ludus.score({extra})))\nend"
        )
    };
    let lines = |src: String| {
        let mut g = game(&src).unwrap();
        run(&mut g, 3).unwrap();
        (g.consequences_mut().drain_log(), StateHash::of(g.world()))
    };
    let (fast, generic) = (lines(script("1", "")), lines(script("1.0", "{}")));
    assert_eq!(fast, generic);
    assert_eq!(fast.0.len(), 18, "{:#?}", fast.0);
    // The player (1) as it stands, an enemy destroyed this stage (3), none (4), the draws.
    let want = [
        (
            0,
            "2, float 0.0, float 0.0\t2, float 0.0, float 0.0\t1, float 0.0\t2, float 1.0, float 0.0\t1, integer 1\t1, boolean true\t2, integer 10, integer 10",
        ),
        (
            2,
            "2, float 300.0, float 0.0\t2, float 0.0, float 0.0\t1, float 0.0\t2, float 0.0, float 0.0\t1, integer 2\t1, boolean false\t2, integer 3, integer 3",
        ),
        (
            3,
            "2, nil nil, nil nil\t2, nil nil, nil nil\t1, nil nil\t2, nil nil, nil nil\t1, nil nil\t1, boolean false\t2, nil nil, nil nil",
        ),
        (
            5,
            "1, float 0.79079964674619\t1, integer 3\t1, integer 2\t1, float 0.039919237943787\t1, integer 1\t1, integer 0",
        ),
    ];
    for (line, text) in want {
        let got = fast.0[line].split_once(": ").map(|(_, t)| t);
        assert_eq!(got, Some(text), "line {line}");
    }

    for (fast, generic) in [
        ("ludus.pos(0)", "ludus.pos(0.0)"),
        ("ludus.health(-2)", "ludus.health(-2.0)"),
        ("ludus.alive(nil)", "ludus.alive(nil, 1.5)"),
        ("ludus.random(0)", "ludus.random(0.0)"),
        ("ludus.random(3, 1)", "ludus.random(3.0, 1)"),
    ] {
        let fault = |call: &str| {
            let args = call.replacen('(', ", ", 1);
            let src = format!(
                "function on_start()\n  pcall({})\nend",
                args.trim_end_matches(')')
            );
            let f = game(&src).and_then(|mut g| run(&mut g, 1)).unwrap_err();
            (f.message, f.location)
        };
        let f = fault(fast);
        assert_eq!(f, fault(generic), "{fast}");
        assert_eq!(f.1.as_deref(), Some("scripts/main.lua:2"), "{fast}");
    }
}
