//! Hostile scripts: each snippet tries to hang, exhaust or crash the host, to see an address,
//! or to reach another script. Each must end within a wall-time bound (a hang is a failure,
//! not a slow test) in a clean fault that names the script's file and line, or run with the
//! fence holding. The tests are one per case, in a file per fence: budget.rs, memory.rs,
//! sandbox.rs, determinism.rs.

use super::*;
use std::sync::mpsc;
use std::time::Duration;

/// How long one case may take before it counts as a hang (debug builds, a busy machine).
pub const HANG: Duration = Duration::from_secs(60);

pub const BUDGET: &str = "instruction budget exceeded";
pub const COMPILE: &str = "compiling this file took more than the instruction budget";

/// A snippet run as the body of `on_start`, whose first line is line 1 of scripts/main.lua,
/// for two ticks.
pub struct Case {
    src: String,
    modules: Vec<(&'static str, String)>,
    /// Script memory in MiB; `None`: the test definition's (8 MiB).
    memory: Option<usize>,
}

/// How a case ended: the game variable `ok`, or the fault.
pub type Outcome = Result<Option<f64>, Fault>;

impl Case {
    pub fn on_start(src: impl Into<String>) -> Case {
        Case {
            src: src.into(),
            modules: Vec::new(),
            memory: None,
        }
    }

    /// With a module file in the game folder.
    pub fn module(mut self, path: &'static str, text: impl Into<String>) -> Case {
        self.modules.push((path, text.into()));
        self
    }

    /// With `mib` MiB of script memory.
    pub fn memory(mut self, mib: usize) -> Case {
        self.memory = Some(mib);
        self
    }

    /// Runs the case in its own thread; `Err` if it did not end within [`HANG`].
    pub fn outcome(self) -> Result<Outcome, String> {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let src = format!("function on_start() {}\nend", self.src);
            let mut d = def();
            if let Some(mib) = self.memory {
                d.scripts.memory_limit = mib * 1024 * 1024;
            }
            let modules: Vec<(&str, &str)> =
                self.modules.iter().map(|(p, t)| (*p, t.as_str())).collect();
            let result = game_with(d, &[("scripts/main.lua", &src)], &modules).and_then(|mut g| {
                run(&mut g, 2)?;
                Ok(var(&g, "ok"))
            });
            let _ = tx.send(result);
        });
        rx.recv_timeout(HANG)
            .map_err(|_| format!("did not end within {HANG:?}"))
    }

    /// `Err` unless the case ends in a fault whose message contains `text`, at `location`.
    pub fn check_fault_at(self, text: &str, location: &str) -> Result<(), String> {
        match self.outcome()? {
            Err(f) if f.message.contains(text) && f.location.as_deref() == Some(location) => Ok(()),
            other => Err(format!(
                "expected a fault containing {text:?} at {location}, got {other:?}"
            )),
        }
    }

    /// Expects a fault whose message contains `text`, at `location`.
    pub fn faults_at(self, text: &str, location: &str) {
        if let Err(e) = self.check_fault_at(text, location) {
            panic!("{e}");
        }
    }

    /// Expects a fault whose message contains `text`, at `scripts/main.lua:LINE`.
    pub fn faults(self, text: &str, line: u32) {
        self.faults_at(text, &format!("scripts/main.lua:{line}"));
    }

    /// Expects no fault, and the game variable `ok` set to 1 (the fence held).
    pub fn runs(self) {
        match self.outcome() {
            Ok(Ok(Some(1.0))) => {}
            other => panic!("expected success (ok = 1), got {other:?}"),
        }
    }
}

/// Runs `cases` (`(name, case, text)`: a fault containing `text` at line 1) in a child
/// process of this test binary (`child`: the test that runs them when `LUDUS_HOSTILE_CHILD`
/// is set) limited to `kib` KiB of address space, and checks that it exits normally: an
/// allocation the system refused would abort it.
pub fn in_a_child_under_ulimit(child: &str, kib: u64) {
    if !cfg!(target_os = "linux") {
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {kib} && exec '{}' --exact {child} --nocapture --test-threads=1",
            exe.display()
        ))
        .env("LUDUS_HOSTILE_CHILD", "1")
        .status()
        .expect("sh runs");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        status.signal(),
        None,
        "the child was killed by a signal: {status}"
    );
    assert!(status.success(), "the child failed: {status}");
}

/// Whether this process is the child [`in_a_child_under_ulimit`] started.
pub fn is_child() -> bool {
    std::env::var_os("LUDUS_HOSTILE_CHILD").is_some()
}

// The cases run twice: once as tests of their own, and again in a child process under
// `ulimit -v` (memory.rs).

pub const REP_IN_PCALL_LOOP: &str = "for i = 1, 1e9 do pcall(string.rep, 'ab', 1e6) end";
pub const MEMORY_BOMB_IN_PCALL: &str = "local t = {} while true do pcall(function() for i = 1, 1e9 do t[#t + 1] = coroutine.create(print) end end) end";
pub const GSUB_EXPLODES: &str = "string.gsub(string.rep('a', 1e5), '', string.rep('b', 1000))";
pub const PRINT_BIG_STRINGS: &str = "local s = string.rep('x', 2e6) for i = 1, 1e9 do print(s) end";
pub const VARARGS: &str = "local t = {} for i = 1, 2e5 do t[i] = i end local function f(...) return ... end local u = { f(table.unpack(t)) } while true do local _ = { f(table.unpack(u)) } end";
pub const FORMAT_BIG_STRINGS: &str =
    "local s = string.rep('a', 2e6) while true do local _ = string.format('%s%s', s, s) end";

/// Buffers grow only as far as the budget pays for, whatever memory allows.
pub const CONCAT_WITH_A_HUGE_SEPARATOR: &str = "local sep = 'x' for i = 1, 20 do sep = sep .. sep end local t = {} for i = 1, 3000 do t[i] = '' end \
     local _ = table.concat(t, sep) ludus.set('ok', 1)";
pub const PACK_WITH_HUGE_PADDING: &str =
    "local _ = string.pack('c2000000000', 'a') ludus.set('ok', 1)";
