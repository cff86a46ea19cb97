//! `ludus sim --agent bot.lua`: a Lua bot decides each tick's input with the game scripts'
//! reads; its input is the run's (recorded, and written as an input file that plays the same
//! run without it); it cannot change the game (a command is a fault, its random draws are
//! its own); what goes wrong in it is a fault with its file and line.

mod support;

use std::path::{Path, PathBuf};
use support::cli::{ludus, scratch, summary, text, within};

fn example(name: &str) -> PathBuf {
    support::example(name)
}

fn bot_file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The bundled bot clears Breakout's wall; the input file it writes and the recording both
/// give the same run without it.
#[test]
fn the_bundled_bot_wins_breakout_and_its_input_plays_the_same_run() {
    let dir = scratch("agent-breakout");
    let (input, rec) = (dir.join("won.jsonl"), dir.join("won.ludusrec"));
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agents/breakout_bot.lua");
    let o = within(
        ludus()
            .args(["sim", "--ticks", "20000", "--agent"])
            .arg(&bot)
            .arg(example("breakout"))
            .arg("--write-input")
            .arg(&input)
            .arg("--record")
            .arg(&rec),
        120,
        None,
    );
    let s = summary(&o);
    assert_eq!(s["game_over"]["message"], "YOU WIN", "{s}");
    assert_eq!(s["vars"]["lives"], 3, "{s}");
    let ticks = s["ticks"].as_u64().unwrap();
    let again = summary(
        &ludus()
            .args(["sim", "--ticks", "20000", "--input"])
            .arg(&input)
            .arg(example("breakout"))
            .output()
            .unwrap(),
    );
    assert_eq!(
        (&again["hash"], again["ticks"].as_u64()),
        (&s["hash"], Some(ticks))
    );
    support::assert_replays(
        &rec,
        &format!("replayed {ticks} ticks of Breakout: every state hash matches"),
    );
}

/// `decide` runs before every tick, or every Nth with `--agent-every N`, with `info.tick` the
/// tick about to run; what it prints reaches standard error; held input goes on between.
#[test]
fn decide_runs_before_each_tick_or_every_nth() {
    let dir = scratch("agent-every");
    let bot = bot_file(
        &dir,
        "bot.lua",
        "function decide(info)\n  print('decide', info.tick, ludus.tick())\n  \
         return { axis = { move_x = 1 } }\nend\n",
    );
    for (every, ticks) in [
        (None, vec![1, 2, 3, 4, 5, 6, 7]),
        (Some("3"), vec![1, 4, 7]),
    ] {
        let mut cmd = ludus();
        cmd.args(["sim", "--ticks", "7", "--agent"])
            .arg(&bot)
            .arg(example("breakout"));
        if let Some(n) = every {
            cmd.args(["--agent-every", n]);
        }
        let o = cmd.output().unwrap();
        let (_, err) = text(&o);
        let seen: Vec<u64> = err
            .lines()
            .filter_map(|l| l.split("decide\t").nth(1))
            .map(|rest| {
                let mut f = rest.split('\t');
                let (a, b) = (f.next().unwrap(), f.next().unwrap());
                assert_eq!(a, b, "info.tick is ludus.tick(): {err}");
                a.parse().unwrap()
            })
            .collect();
        assert_eq!(seen, ticks, "--agent-every {every:?}: {err}");
        // The paddle moved right all along: the held axis went on between decisions.
        assert_eq!(summary(&o)["ticks"], 7);
    }
}

/// A bot that draws random numbers and returns nothing leaves the run exactly as a run with
/// no input: its draws come from a copy of the world's generator.
#[test]
fn a_bot_cannot_change_the_game() {
    let dir = scratch("agent-reads");
    let bot = bot_file(
        &dir,
        "bot.lua",
        "function decide(info)\n  local r = math.random() + ludus.random(1, 6)\n  \
         local n = #ludus.find('brick')\n  return nil\nend\n",
    );
    let plain = summary(
        &ludus()
            .args(["sim", "--ticks", "120"])
            .arg(example("breakout"))
            .output()
            .unwrap(),
    );
    let botted = summary(
        &ludus()
            .args(["sim", "--ticks", "120", "--agent"])
            .arg(&bot)
            .arg(example("breakout"))
            .output()
            .unwrap(),
    );
    assert_eq!(botted["hash"], plain["hash"]);
    assert_eq!(botted["ticks"], 120);
}

/// What goes wrong in a bot: a fault naming its file and line, with the tick it was deciding
/// for; the run stops there and exits 1. A bot without `decide` cannot start.
#[test]
fn what_goes_wrong_in_a_bot_is_a_fault_with_its_line() {
    let dir = scratch("agent-faults");
    #[rustfmt::skip]
    let cases: &[(&str, &str, &str)] = &[
        ("function decide(i)\n  ludus.spawn('ball', 0, 0)\nend\n", ":2",
         "ludus.spawn: an agent only reads the game"),
        ("function decide(i)\n  ludus.after(3, 'x')\nend\n", ":2",
         "ludus.after: an agent only reads the game"),
        ("function decide(i)\n  while true do end\nend\n", ":2", "instruction budget exceeded"),
        ("function decide(i)\n  return 5\nend\n", ":1",
         "decide returned an integer; it returns a table of input"),
        ("function decide(i)\n  return { press = { 'jmup' } }\nend\n", ":1",
         "decide returned an unknown action `jmup`"),
        ("function decide(i)\n  return { axis = { move_x = 2 } }\nend\n", ":1",
         "decide returned axis `move_x` = 2 (expected a number in [-1, 1])"),
        ("function decide(i)\n  return { tap = { 'move_x' } }\nend\n", ":1",
         "decide returned action `move_x` where it is an axis"),
        ("function decide(i)\n  return { jump = true }\nend\n", ":1",
         "decide returned an unknown key `jump` (expected one of: press, release, tap, axis, pointer, touches)"),
        ("function decide(i)\n  return { touches = { { id = 1, x = 0 } } }\nend\n", ":1",
         "decide returned `touches` entry 1 without numbers `x` and `y`"),
        ("function decide(i)\n  return { touches = { { id = 1.5, x = 0, y = 0 } } }\nend\n", ":1",
         "decide returned `touches` entry 1 without a whole `id`"),
        ("function decide(i)\n  local t = {}\n  for k = 1, 11 do t[k] = { id = k, x = 0, y = 0 } end\n  \
          return { touches = t }\nend\n", ":1",
         "decide returned `touches` with 11 fingers (at most 10 are down at once)"),
        ("function decide(i)\n  return { touches = { { id = 1, x = 0, y = 0 }, { id = 1, x = 1, y = 1 } } }\nend\n",
         ":1", "decide returned `touches`: touch id 1 twice"),
        ("function decide(i)\n  return { touches = { { id = 1, x = 2e9, y = 0 } } }\nend\n", ":1",
         "decide returned `touches`: touch 1 at"),
        ("function decide(i)\n  return { pointer = 'here' }\nend\n", ":1",
         "decide returned `pointer` as `here`"),
        ("function decide(i)\n  if i.tick == 3 then error('no plan') end\nend\n", ":2", "no plan"),
    ];
    for (i, (source, line, message)) in cases.iter().enumerate() {
        let bot = bot_file(&dir, &format!("bot{i}.lua"), source);
        let o = within(
            ludus()
                .args(["sim", "--ticks", "10", "--agent"])
                .arg(&bot)
                .arg(example("breakout")),
            60,
            None,
        );
        assert_eq!(o.status.code(), Some(1), "{source}");
        let s = summary(&o);
        let fault = &s["fault"];
        assert!(
            fault["message"].as_str().unwrap().contains(message),
            "{source}: {fault}"
        );
        let at = format!("bot{i}.lua{line}");
        assert!(
            fault["location"].as_str().unwrap().ends_with(&at),
            "{source}: {fault}"
        );
        let tick = if source.contains("i.tick == 3") { 3 } else { 1 };
        assert_eq!(fault["tick"], tick, "{source}");
        assert_eq!(s["ticks"], tick - 1, "{source}");
    }
    let bot = bot_file(&dir, "none.lua", "x = 1\n");
    let o = ludus()
        .args(["sim", "--agent"])
        .arg(&bot)
        .arg(example("breakout"))
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err.contains("none.lua: a bot defines `function decide(info)`"),
        "{err}"
    );
}

/// A bot's `touches` are the tick's fingers, as an input line's: the game reads them with
/// `ludus.touches()`, and the input file the bot writes holds them.
#[test]
fn a_bot_touches_the_screen() {
    let dir = scratch("agent-touches");
    let game = dir.join("g");
    let o = ludus().arg("new").arg(&game).output().unwrap();
    assert!(o.status.success(), "{}", text(&o).1);
    let toml = std::fs::read_to_string(game.join("game.toml")).unwrap();
    let toml = toml.replace(
        "files = [\"scripts/main.lua\"]",
        "files = [\"scripts/main.lua\", \"scripts/touches.lua\"]",
    );
    std::fs::write(game.join("game.toml"), toml).unwrap();
    std::fs::write(
        game.join("scripts/touches.lua"),
        "function on_tick()\n  local t = ludus.touches()\n  ludus.set('fingers', #t)\n  \
         if #t > 0 then ludus.set('first_x', t[1].x) end\nend\n",
    )
    .unwrap();
    let bot = bot_file(
        &dir,
        "bot.lua",
        "function decide(info)\n  if info.tick == 2 then\n    \
         return { touches = { { id = 7, x = 12, y = -3 }, { id = 9, x = 1, y = 1 } } }\n  \
         elseif info.tick == 5 then\n    return { touches = { { id = 9, x = 2, y = 2 } } }\n  end\nend\n",
    );
    let input = dir.join("written.jsonl");
    let o = ludus()
        .args(["sim", "--ticks", "4", "--agent"])
        .arg(&bot)
        .arg("--write-input")
        .arg(&input)
        .arg(&game)
        .output()
        .unwrap();
    let s = summary(&o);
    assert_eq!(s["faulted"], false, "{s} {}", text(&o).1);
    assert_eq!(
        (s["vars"]["fingers"].as_f64(), s["vars"]["first_x"].as_f64()),
        (Some(2.0), Some(12.0)),
        "{s}"
    );
    let o = ludus()
        .args(["sim", "--ticks", "6", "--agent"])
        .arg(&bot)
        .arg(&game)
        .output()
        .unwrap();
    let s = summary(&o);
    assert_eq!(
        (s["vars"]["fingers"].as_f64(), s["vars"]["first_x"].as_f64()),
        (Some(1.0), Some(2.0)),
        "{s}"
    );
    let written = std::fs::read_to_string(&input).unwrap();
    assert!(
        written.contains("\"touches\":[{\"id\":7,\"x\":12"),
        "{written}"
    );
}

/// The options that go with an agent are refused without one, and an agent with input files.
#[test]
fn agent_options_are_checked() {
    #[rustfmt::skip]
    let cases: &[(&[&str], i32, &str)] = &[
        (&["--write-input", "x.jsonl"], 2, "--write-input writes an agent's input"),
        (&["--agent-every", "3"], 2, "--agent"),
        (&["--observe", "ball"], 2, "--agent-stdio"),
        (&["--agent", "bot.lua", "--input", "x.jsonl"], 2, "cannot be used with"),
        (&["--agent-stdio", "--observe", "bal"], 1, "the game has no tag `bal` (did you mean `ball`?)"),
    ];
    for (args, code, message) in cases {
        let o = ludus()
            .arg("sim")
            .arg(example("breakout"))
            .args(*args)
            .output()
            .unwrap();
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(*code), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}
