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

/// Five more arguments than any function takes: nil, which every function ignores past its
/// own, and too many for a fast entry, so the call takes the generic function.
const GENERIC: &str = ", nil, nil, nil, nil, nil";

/// `pcall` of `call` (`ludus.f(args)`), with `pad` after its arguments.
fn pcall_of(call: &str, pad: &str) -> String {
    let args = call.replacen('(', ", ", 1);
    format!("pcall({}{pad})", args.trim_end_matches(')'))
}

/// Each of `calls`, made in `pcall` on the first tick, is the same fault by either entry,
/// located at the call's line.
fn faults_alike(calls: &[&str]) {
    for call in calls {
        let fault = |pad: &str| {
            let src = format!("function on_start()\n  {}\nend", pcall_of(call, pad));
            let f = game(&src).and_then(|mut g| run(&mut g, 1)).unwrap_err();
            (f.message, f.location)
        };
        let f = fault("");
        assert_eq!(f, fault(GENERIC), "{call}");
        assert_eq!(f.1.as_deref(), Some("scripts/main.lua:2"), "{call}");
    }
}

/// The commands with a fast entry (`damage`, `heal`, `destroy`, `add_score`, `set`, `sound`,
/// `effect`, `velocity`, `teleport`, `spawn`...) called with plain values (and at most one
/// table of named plain values, as `spawn`'s options) take it; with a table of tables or more
/// than four arguments, the generic one. Both give the same world, and the same faults with the same lines.
#[test]
fn hot_commands_act_the_same_by_either_entry() {
    let script = |pad: &str| {
        format!(
            "function on_start()\n  ludus.damage(2, 2, 1{pad})\n  ludus.damage(1, 2.0, nil{pad})\n  \
             ludus.heal(1, 1{pad})\n  ludus.add_score(2{pad})\n  ludus.destroy(3{pad})\n  \
             ludus.set('n', 2.5{pad})\n  ludus.set('t', 'text'{pad})\n  \
             ludus.sound('hit', 0.5{pad})\n  ludus.effect('spark', 1, 2.5{pad})\n  \
             ludus.velocity(1, 3, 4.5{pad})\n  ludus.teleport(2, 10, 20{pad})\n  \
             ludus.set_speed(1, 50{pad})\n  ludus.set_state(1, 'k', 2{pad})\n  \
             ludus.camera_shake(3, 10{pad})\n  ludus.set(\"c\", tostring(ludus.cancel(12345{pad})))\n  \
             ludus.damage(2, 1, nil, 'ignored'{pad})\n  \
             ludus.set('s1', ludus.spawn('enemy', 5, 6{pad}))\n  \
             ludus.set('s2', ludus.spawn('enemy', 7, 8.5, {{ vx = 1, vy = -2.5, speed = 4, \
             health = 3, lifetime = 30, angle = 0.5 }}{pad}))\n  \
             ludus.set('s3', ludus.spawn('enemy', 1, 1, {{ size = {{ 4, 6 }} }}{pad}))\n  \
             ludus.set('s4', ludus.spawn('enemy', 2, 2, {{}}{pad}))\nend"
        )
    };
    let world = |src: String| {
        let mut g = game(&src).unwrap();
        run(&mut g, 2).unwrap();
        let requests: Vec<String> = g
            .outbox()
            .drain()
            .map(|r| format!("{:?}", r.what))
            .collect();
        let health = |seq| {
            let e = g.world().entity(seq)?;
            g.world().ecs().get::<&Health>(e).ok().map(|h| h.current)
        };
        (
            StateHash::of(g.world()),
            g.world().score(),
            [health(1), health(2), health(3)],
            format!("{:?}", g.world().vars()),
            requests,
        )
    };
    let (fast, generic) = (world(script("")), world(script(GENERIC)));
    assert_eq!(fast, generic);
    assert_eq!((fast.1, fast.2), (2, [Some(9), Some(0), None]));
    assert_eq!(fast.4.len(), 2, "{:?}", fast.4);
    // The spawns' ids, in the order sent, after the level's three entities.
    for (k, id) in [("s1", 4), ("s2", 5), ("s3", 6), ("s4", 7)] {
        assert!(
            fast.3.contains(&format!("\"{k}\": Num({id}.0)")),
            "{}",
            fast.3
        );
    }

    faults_alike(&[
        "ludus.damage(1, -1)",
        "ludus.damage(0, 1)",
        "ludus.damage(1.5, 1)",
        "ludus.destroy(-5)",
        "ludus.destroy('x')",
        "ludus.heal(1, 1 << 40)",
        "ludus.damage(nil, 1)",
        "ludus.set(1, 2)",
        "ludus.set('v', true)",
        "ludus.sound('nope')",
        "ludus.sound('hit', 9)",
        "ludus.effect('spark', 1)",
        "ludus.effect('spark', 1, 2, 'no colour')",
        "ludus.velocity(1, 'x', 0)",
        "ludus.game_over(5)",
        "ludus.set_state(1, 'k', 'v')",
        "ludus.use_cooldown(1, 'nope')",
        "ludus.animate(1, 'nope')",
        "ludus.load_level('nope')",
        "ludus.set_tile(0, 0, 'xx')",
        "ludus.music('nope')",
        "ludus.camera_zoom(-1)",
        "ludus.cancel(1.5)",
        "ludus.spawn('nope', 0, 0)",
        "ludus.spawn('enemy', 0, 0, 5)",
        "ludus.spawn('enemy', 0, 0, { vx = 'x' })",
        "ludus.spawn('enemy', 0, 0, { nope = 1 })",
        "ludus.spawn('enemy', 0, 0, { health = 0 })",
        "ludus.spawn('enemy', 0, 0, { [true] = 1 })",
        "ludus.spawn('enemy', 0, 0, { size = 'big' })",
        "ludus.spawn('enemy', 0, 0, { color = '#ff0000' })",
    ]);
}

/// The reads with a fast entry (`pos`, `vel`, `angle`, `facing`, `tags`, `alive`, `health`,
/// `random`, `tick`, `score`, `nearest`, `cooldown`, `pressed`, `held`, `released`, `axis`,
/// `pointer`, `state`, `find`, `count`, `get`) give by it what the generic entry gives: the same values of the same types, the
/// same draws from the generator, the same faults.
#[test]
fn hot_reads_answer_the_same_by_either_entry() {
    let script = |pad: &str| {
        format!(
            "local function show(...)\n  local out = {{ select('#', ...) }}\n  \
             for i = 1, select('#', ...) do\n    local v = select(i, ...)\n    \
             out[#out + 1] = (math.type(v) or type(v)) .. ' ' .. tostring(v)\n  end\n  \
             return table.concat(out, ', ')\nend\n\
             function on_tick()\n  ludus.destroy(3)\n  ludus.damage(2, 1)\n  \
             for id = 1, 5 do\n    \
             print(show(ludus.pos(id{pad})), show(ludus.vel(id{pad})), show(ludus.angle(id{pad})), \
             show(ludus.facing(id{pad})), show(ludus.tags(id{pad})), show(ludus.alive(id{pad})), \
             show(ludus.health(id{pad})))\n  end\n  \
             print(show(ludus.random(nil{pad})), show(ludus.random(6{pad})), \
             show(math.random(-3, 3.0{pad})), show(ludus.random(nil, nil{pad})), \
             show(ludus.tick(nil{pad})), show(ludus.score(nil{pad})), show(math.random(0{pad})))\n  \
             print(show(ludus.nearest(0, 0, 'enemy'{pad})), show(ludus.nearest(0.5, 0, 'player'{pad})), \
             show(ludus.nearest(300, 0, 'enemy', 10{pad})), show(ludus.nearest(300, 0, 'enemy', 1000.0{pad})), \
             show(ludus.pressed('fire'{pad})), show(ludus.held('fire'{pad})), \
             show(ludus.released('fire'{pad})), show(ludus.axis('fire'{pad})), \
             show(ludus.pointer(nil{pad})), show(ludus.state(1, 'k'{pad})), \
             show(table.concat(ludus.find('enemy'{pad}), ' ')), show(#ludus.find('player'{pad})), \
             show(ludus.count('enemy'{pad})), show(ludus.count('player'{pad})), \
             show(ludus.get('v'{pad})), show(ludus.get('f'{pad})), show(ludus.get('t'{pad})))\n  \
             ludus.set('v', 2)\n  ludus.set('f', 2.5)\n  ludus.set('t', 'x')\nend"
        )
    };
    let lines = |src: String| {
        let mut g = game(&src).unwrap();
        run(&mut g, 3).unwrap();
        (g.consequences_mut().drain_log(), StateHash::of(g.world()))
    };
    let (fast, generic) = (lines(script("")), lines(script(GENERIC)));
    assert_eq!(fast, generic);
    assert_eq!(fast.0.len(), 21, "{:#?}", fast.0);
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
            "1, float 0.79079964674619\t1, integer 3\t1, integer 2\t1, float 0.039919237943787\t1, integer 1\t1, integer 0\t1, integer -8448561854939718615",
        ),
        // The nearest enemy (the one at 300 is being destroyed), a radius that leaves the
        // other out, then takes it in; no input, no pointer.
        (
            6,
            "1, integer 2\t1, integer 1\t1, nil nil\t1, integer 2\t1, boolean false\t1, boolean false\t1, boolean false\t1, float 0.0\t2, nil nil, nil nil\t1, nil nil\t1, string 2\t1, integer 1\t1, integer 1\t1, integer 1\t1, nil nil\t1, nil nil\t1, nil nil",
        ),
    ];
    for (line, text) in want {
        let got = fast.0[line].split_once(": ").map(|(_, t)| t);
        assert_eq!(got, Some(text), "line {line}");
    }
    // The next tick's reads of the variables the first set: a whole number as an integer,
    // a number, a text (which the fast entry leaves to the generic function).
    let vars = "\t1, integer 2\t1, float 2.5\t1, string x";
    assert!(fast.0[13].ends_with(vars), "{}", fast.0[13]);

    faults_alike(&[
        "ludus.pos(0)",
        "ludus.health(-2)",
        "ludus.alive(nil)",
        "ludus.random(-1)",
        "ludus.random(3, 1)",
        "ludus.get(1)",
        "ludus.get(nil)",
        "ludus.random(1.5)",
        "ludus.nearest(0, 0, 'nope')",
        "ludus.nearest(0, 0, 'enemy', -1)",
        "ludus.nearest(0, 'y', 'enemy')",
        "ludus.pressed('jump')",
        "ludus.cooldown(1, 'nope')",
        "ludus.state(1, 5)",
    ]);
}
