//! Saved data through scripts: `ludus.save` is a command applied after its stage,
//! `ludus.saved` reads the store as the stage began, the store outlives a restart, and every
//! way past its bounds is a fault naming the key and the script's line.

mod support;

use ludus_core::*;
use support::*;

fn text(t: &str) -> Var {
    Var::Text(t.into())
}

#[test]
fn saves_are_read_from_the_next_stage_and_outlive_a_restart() {
    let src = "function on_tick(t)\n\
                 if t.tick == 1 then\n\
                   ludus.set('before', ludus.saved('best') or -1)\n\
                   ludus.save('best', 1200)\n\
                   ludus.save('name', 'Ann')\n\
                   ludus.save('gone', 0.5)\n\
                   ludus.set('same_stage', ludus.saved('best') or -1)\n\
                 elseif t.tick == 2 then\n\
                   ludus.set('next_tick', ludus.saved('best'))\n\
                   ludus.set('kind', math.type(ludus.saved('best')))\n\
                   ludus.save('gone', nil)\n\
                 end\n\
               end";
    let mut g = game(src).expect("starts");
    run(&mut g, 3).expect("runs");
    let vars = g.world().vars();
    let got: Vec<(&str, Option<&Var>)> = ["before", "same_stage", "next_tick", "kind"]
        .iter()
        .map(|k| (*k, vars.get(*k)))
        .collect();
    assert_eq!(
        got,
        [
            ("before", Some(&Var::Num(-1.0))),
            ("same_stage", Some(&Var::Num(-1.0))),
            ("next_tick", Some(&Var::Num(1200.0))),
            ("kind", Some(&text("integer"))),
        ],
        "what each stage read"
    );
    let saved: Vec<(&str, &Var)> = g.world().saved().iter().collect();
    let want = [("best", &Var::Num(1200.0)), ("name", &text("Ann"))];
    assert_eq!(saved, want, "the store after tick 3");
    assert!(matches!(
        g.load(&LoadRequest::Restart),
        LoadStatus::Ready(_)
    ));
    assert_eq!(g.world().tick(), 0, "a new world");
    let saved: Vec<(&str, &Var)> = g.world().saved().iter().collect();
    assert_eq!(saved, want, "a restart keeps the store");
    run(&mut g, 1).expect("runs again");
    assert_eq!(
        var(&g, "before"),
        Some(1200.0),
        "tick 1 reads the kept store"
    );
}

#[test]
fn a_store_set_before_the_first_tick_is_read_and_one_past_the_bound_is_refused() {
    let mut g = game("function on_start() ludus.set('best', ludus.saved('best')) end").unwrap();
    let mut store = SaveStore::from_json(r#"{"best":77}"#, 100).unwrap();
    g.set_saved(store.clone()).expect("within the bound");
    run(&mut g, 1).expect("runs");
    assert_eq!(var(&g, "best"), Some(77.0));
    store
        .set("pad", Some(text(&"x".repeat(70_000))), usize::MAX)
        .unwrap();
    let f = g.set_saved(store).expect_err("past save_bytes");
    assert_eq!(
        f.message,
        "more than 65536 bytes of saved data: the store takes 70021 (raise [limits] save_bytes)"
    );
}

#[test]
fn the_store_enters_the_hash_only_once_it_holds_something() {
    let hash = |src: &str| {
        let mut g = game(src).unwrap();
        run(&mut g, 3).unwrap();
        g.last_report().and_then(|r| r.hash).unwrap()
    };
    let none = hash("function on_tick() end");
    let deleted = hash("function on_tick(t) if t.tick == 1 then ludus.save('a', nil) end end");
    let emptied = hash("function on_tick(t) ludus.save('a', t.tick < 3 and 1 or nil) end");
    let saved = hash("function on_tick(t) ludus.save('a', 1) end");
    let other = hash("function on_tick(t) ludus.save('a', 2) end");
    assert_eq!(
        (deleted, emptied),
        (none, none),
        "an empty store hashes as none"
    );
    assert_ne!(saved, none, "a saved value is hashed");
    assert_ne!(saved, other, "and its value");
}

#[test]
fn saves_past_their_bounds_fault_naming_the_key_and_line() {
    // (case, script, save_bytes, message, location)
    let long = "k".repeat(64);
    let cases: [(&str, &str, u32, String, &str); 7] = [
        (
            "a key over 64 bytes",
            "function on_start()\n  ludus.save(string.rep('k', 70), 1)\nend",
            65_536,
            format!("ludus.save: a saved key must have 1 to 64 bytes; `{long}…` has 70"),
            "scripts/main.lua:2",
        ),
        (
            "an empty key, read",
            "function on_start()\n  local v = ludus.saved('')\nend",
            65_536,
            "ludus.saved: a saved key must have 1 to 64 bytes; `` has 0".into(),
            "scripts/main.lua:2",
        ),
        (
            "the store past save_bytes in one stage",
            "function on_start()\n  for i = 1, 100 do\n    ludus.save('k' .. i, i)\n  end\nend",
            64,
            // {} and "k1":1, to "k8":8, take 2 + 8 * 7 = 58; "k9":9, takes them to 65.
            "ludus.save: more than 64 bytes of saved data: saving `k9` would take the store to 65 (raise [limits] save_bytes)".into(),
            "scripts/main.lua:3",
        ),
        (
            "the store past save_bytes over ticks, a value replaced",
            "function on_tick(t)\n  ludus.save('a', string.rep('x', t.tick * 10))\nend",
            64,
            // {"a":"…", takes 9 bytes and the text's: 69 at tick 6.
            "ludus.save: more than 64 bytes of saved data: saving `a` would take the store to 69 (raise [limits] save_bytes)".into(),
            "scripts/main.lua:2",
        ),
        (
            "a text longer than the whole store",
            "function on_start()\n  ludus.save('big', string.rep('x', 100000))\nend",
            65_536,
            "ludus.save: more than 65536 bytes of saved data: saving `big` would take the store past it (its text alone has 100000 bytes)".into(),
            "scripts/main.lua:2",
        ),
        (
            "a number that is not finite",
            "function on_start()\n  ludus.save('a', 1/0)\nend",
            65_536,
            "ludus.save: a saved value must be a finite number, got inf".into(),
            "scripts/main.lua:2",
        ),
        (
            "a value that is neither",
            "function on_start()\n  ludus.save('a', {})\nend",
            65_536,
            "ludus.save: a saved value must be a number or a string, got table".into(),
            "scripts/main.lua:2",
        ),
    ];
    let mut failures = Vec::new();
    for (name, src, bound, message, location) in cases {
        let mut d = def();
        d.limits.save_bytes = bound;
        let mut g = game_with(d, &[("scripts/main.lua", src)], &[]).expect("starts");
        match run(&mut g, 20) {
            Err(f) if f.message.contains(&message) && f.location.as_deref() == Some(location) => {}
            Err(f) => failures.push(format!("{name}: {f} at {:?}", f.location)),
            Ok(()) => failures.push(format!("{name}: no fault")),
        }
        assert!(
            g.world().saved().bytes() <= bound as usize,
            "{name}: the store stayed within its bound"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
