//! What the command-line tests share: the swarm example, scratch folders, a run's output and
//! its JSON summary, and a scripted play session.

use std::path::PathBuf;
use std::process::{Command, Output};

pub fn ludus() -> Command {
    super::ludus()
}

/// The swarm example.
pub fn example() -> PathBuf {
    super::example("swarm")
}

/// A fresh, empty folder for one command-line test.
pub fn scratch(name: &str) -> PathBuf {
    super::scratch("cli", name)
}

/// A run's stdout and stderr as text.
pub fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A deterministic play session: fire held, the movement direction changing every 90 ticks.
pub fn input_lines(ticks: u64) -> String {
    let dirs = [
        (1.0, 0.0),
        (0.0, 1.0),
        (-1.0, 0.0),
        (0.0, -1.0),
        (0.7, 0.7),
        (-0.7, -0.7),
    ];
    let mut out =
        String::from("{\"tick\":1,\"press\":[\"fire\"],\"axis\":{\"move_x\":1,\"move_y\":0}}\n");
    let mut t = 90;
    let mut i = 1;
    while t <= ticks {
        let (x, y) = dirs[i % dirs.len()];
        out.push_str(&format!(
            "{{\"tick\":{t},\"axis\":{{\"move_x\":{x},\"move_y\":{y}}}}}\n"
        ));
        if i % 7 == 0 {
            out.push_str(&format!("{{\"tick\":{},\"release\":[\"fire\"]}}\n", t + 1));
            out.push_str(&format!("{{\"tick\":{},\"press\":[\"fire\"]}}\n", t + 20));
        }
        t += 90;
        i += 1;
    }
    out
}

/// The JSON summary a `ludus sim` run prints.
pub fn summary(o: &Output) -> serde_json::Value {
    let (out, err) = text(o);
    serde_json::from_str(out.trim())
        .unwrap_or_else(|e| panic!("sim printed one JSON object ({e}): {out} {err}"))
}
