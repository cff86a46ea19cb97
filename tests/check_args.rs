//! `ludus check` judges the literal arguments of `ludus.*` calls against the types the API
//! declares, and only where the runtime agrees: every call it reports faults when it runs
//! (at that line), and every call it leaves alone runs.

mod support;

use support::cli::{ludus, scratch, summary, text};

const GAME: &str = r#"name = "Arguments"
tags = ["foe"]
[scripts]
files = ["scripts/s.lua"]
[archetypes.foe]
tags = ["foe"]
health = { max = 1000 }
[levels.main]
[[levels.main.place]]
archetype = "foe"
at = [0, 0]
"#;

/// A handler that runs `line` on tick 2, which is the script's line 4.
fn script(line: &str) -> String {
    format!(
        "function on_tick(e)\n  local foe = ludus.find(\"foe\")[1]\n  if e.tick == 2 then\n    {line}\n  end\nend\n"
    )
}

#[test]
fn reported_arguments_fault_and_the_rest_run() {
    // (the line, what `ludus check` says of it at line 4, or `None`)
    let cases: &[(&str, Option<&str>)] = &[
        (
            r#"ludus.damage(foe, "2")"#,
            Some("4:23: error: `ludus.damage`'s `amount` must be an integer, and this is a string"),
        ),
        (
            "ludus.damage(foe, 2.5)",
            Some(
                "4:23: error: `ludus.damage`'s `amount` must be an integer, and this is a number with a fraction",
            ),
        ),
        (
            "ludus.damage(foe)",
            Some(
                "4:11: error: `ludus.damage` needs `amount` (an integer), and this call gives 1 argument",
            ),
        ),
        (
            "ludus.spawn(3, 10, 0)",
            Some(
                "4:17: error: `ludus.spawn`'s `kind` must be the name of an archetype, and this is a whole number",
            ),
        ),
        (
            r#"ludus.spawn("foe", nil, 0)"#,
            Some("4:24: error: `ludus.spawn`'s `x` must be a number, and this is nil"),
        ),
        (
            r#"ludus.spawn("foe", 1, {})"#,
            Some("4:27: error: `ludus.spawn`'s `y` must be a number, and this is a table"),
        ),
        (
            "ludus.destroy()",
            Some(
                "4:11: error: `ludus.destroy` needs `id` (an entity id), and this call gives none",
            ),
        ),
        (
            "ludus.destroy(true)",
            Some("4:19: error: `ludus.destroy`'s `id` must be an entity id, and this is a boolean"),
        ),
        (
            r#"ludus.set("x", true)"#,
            Some(
                "4:20: error: `ludus.set`'s `value` must be a number or a string, and this is a boolean",
            ),
        ),
        (
            "ludus.set(function() end, 1)",
            Some(
                "4:15: error: `ludus.set`'s `name` must be a variable's name, and this is a function",
            ),
        ),
        // Whole values written as floats, hexadecimal, negative; an optional argument given
        // nil; a last argument that may be several values; a string call.
        ("ludus.damage(foe, 2.0)", None),
        ("ludus.heal(foe, 0x2)", None),
        (r#"ludus.spawn("foe", -0x10, 0)"#, None),
        ("ludus.damage(foe, 1, nil)", None),
        ("ludus.damage(foe, ludus.health(foe))", None),
        (r#"ludus.spawn("foe", 1e2, -2.5, nil)"#, None),
        (r#"ludus.set("x", "text")"#, None),
        (r#"ludus.log "text""#, None),
        // A function the script puts in `ludus` itself.
        (r#"ludus.destroy = function() end ludus.destroy("x")"#, None),
    ];
    let dir = scratch("check-args");
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(dir.join("game.toml"), GAME).unwrap();
    for (line, want) in cases {
        std::fs::write(dir.join("scripts/s.lua"), script(line)).unwrap();
        let o = ludus().arg("check").arg(&dir).output().unwrap();
        let (_, err) = text(&o);
        let prefix = format!("{}/scripts/s.lua:", dir.display());
        let said: Vec<&str> = err
            .lines()
            .filter_map(|l| l.strip_prefix(&prefix))
            .collect();
        assert_eq!(
            said,
            want.iter().copied().collect::<Vec<_>>(),
            "{line}: {err}"
        );
        let o = ludus()
            .args(["sim", "--ticks", "3"])
            .arg(&dir)
            .output()
            .unwrap();
        let s = summary(&o);
        if want.is_some() {
            assert_eq!(s["fault"]["location"], "scripts/s.lua:4", "{line}: {s}");
        } else {
            assert_eq!(s["faulted"], false, "{line}: {s}");
        }
    }
}
