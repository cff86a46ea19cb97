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

/// A fresh, empty folder for one command-line test, removed when the guard drops (see
/// [`super::scratch`]).
pub fn scratch(name: &str) -> super::Scratch {
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

/// Runs `cmd` to its end, failing the test if it takes more than `secs` seconds (a generous
/// hang bound, not a timing). With `mib`, the run's address space is limited to that many MiB
/// (Linux: the shell's `ulimit -v`), so a run that would allocate past it aborts visibly.
pub fn within(cmd: &mut Command, secs: u64, mib: Option<u64>) -> Output {
    use std::process::Stdio;
    let mut sh = Command::new("sh");
    let cmd = match mib {
        Some(mib) if cfg!(target_os = "linux") => {
            sh.arg("-c")
                .arg(format!("ulimit -v {}; exec \"$0\" \"$@\"", mib * 1024))
                .arg(cmd.get_program())
                .args(cmd.get_args());
            if let Some(dir) = cmd.get_current_dir() {
                sh.current_dir(dir);
            }
            &mut sh
        }
        _ => cmd,
    };
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let id = child.id();
    let (done, wait) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    match wait.recv_timeout(std::time::Duration::from_secs(secs)) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(id.to_string()).status();
            panic!("the run did not end within {secs} s: {cmd:?}");
        }
    }
}

/// The characters of `text` a terminal would act on (escape, bell, carriage return, other C0
/// and C1 controls, bidirectional overrides): what `ludus` must never print raw.
pub fn raw_controls(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            (c.is_control() && c != '\n' && c != '\t')
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        })
        .collect()
}
