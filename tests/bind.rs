//! `ludus.bind(action, keys)` and `ludus.bindings(action)`: what a script binds is what it
//! reads back (nil restores the declared keys), and a bad bind is a fault naming the script's
//! line and what is wrong.

mod support;

use support::Scratch;
use support::cli::{ludus, scratch, summary};

/// A new game whose script runs `body` in `on_tick` at tick 2: its scratch folder (removed when
/// dropped) and the game's folder in it.
fn game(name: &str, body: &str) -> (Scratch, std::path::PathBuf) {
    let tmp = scratch(&format!("bind-{name}"));
    let dir = tmp.join("g");
    assert!(ludus().arg("new").arg(&dir).status().unwrap().success());
    let script = dir.join("scripts/main.lua");
    let mut text = std::fs::read_to_string(&script).unwrap();
    text.push_str(&format!(
        "\nfunction on_tick(t)\n  if t.tick == 2 then\n{body}\n  end\nend\n"
    ));
    std::fs::write(&script, text).unwrap();
    (tmp, dir)
}

fn sim(dir: &std::path::Path) -> serde_json::Value {
    summary(
        &ludus()
            .args(["sim", "--ticks", "5"])
            .arg(dir)
            .output()
            .unwrap(),
    )
}

#[test]
fn what_a_script_binds_it_reads_back() {
    let (_tmp, dir) = game(
        "reads",
        "    local before = table.concat((function() local t = {} for k, v in pairs(ludus.bindings('move_x')) do t[#t + 1] = k .. '=' .. v end table.sort(t) return t end)(), ' ')\n\
         ludus.set('before', before)\n\
         ludus.bind('move_x', { j = -1, l = 1 })\n",
    );
    let script = dir.join("scripts/main.lua");
    let mut text = std::fs::read_to_string(&script).unwrap();
    text.push_str(
        "\nfunction on_timer() end\nlocal function keys(a)\n  local t = {}\n  for k, v in pairs(ludus.bindings(a)) do t[#t + 1] = k .. '=' .. v end\n  table.sort(t)\n  return table.concat(t, ' ')\nend\n\
         local old_tick = on_tick\nfunction on_tick(t)\n  old_tick(t)\n  if t.tick == 3 then ludus.set('after', keys('move_x')) ludus.bind('move_x', nil) end\n  if t.tick == 4 then ludus.set('restored', keys('move_x')) end\nend\n",
    );
    std::fs::write(&script, text).unwrap();
    let s = sim(&dir);
    assert_eq!(s["faulted"], false, "{s}");
    let declared = "a=-1 d=1 left=-1 right=1";
    assert_eq!(s["vars"]["before"], declared);
    assert_eq!(s["vars"]["after"], "j=-1 l=1");
    assert_eq!(s["vars"]["restored"], declared);
}

#[test]
fn a_bad_bind_is_a_fault_with_the_line() {
    #[rustfmt::skip]
    let cases: &[(&str, &str)] = &[
        ("ludus.bind('move_x', { a = -1, dd = 1 })", "`dd` is not a key a game can bind (did you mean `d`?)"),
        ("ludus.bind('move_x', 'a')", "an axis's keys are a table of key = scale"),
        ("ludus.bind('move_x', { a = -2 })", "the scale of `a` must be a number from -1 to 1"),
        ("ludus.bind('move_x', { f3 = 1 })", "`f3` is not a key a game can bind"),
        ("ludus.bind('jump', 'space')", "unknown action `jump`"),
    ];
    for (i, (call, message)) in cases.iter().enumerate() {
        let (_tmp, dir) = game(&format!("bad{i}"), &format!("    {call}"));
        let s = sim(&dir);
        let fault = &s["fault"];
        assert!(
            fault["message"].as_str().unwrap().contains(message),
            "{call}: {fault}"
        );
        assert!(
            fault["location"]
                .as_str()
                .unwrap()
                .starts_with("scripts/main.lua:"),
            "{fault}"
        );
    }
}
