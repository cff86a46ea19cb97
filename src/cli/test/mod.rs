//! `ludus test [GAME_DIR...]`: runs every `tests/*.toml` of each game folder through the
//! headless runner `ludus sim` uses ([`crate::cli::sim::simulate`]) and checks its
//! expectations. One line per test (`ok   FILE` or `FAIL FILE` with a line per expectation
//! missed, and where the run's recording was written), then `N passed, N failed`; exit code 1
//! when a test failed or none was found.

mod bless;
mod expect;

use crate::cli::sim::{SimArgs, simulate};
use crate::runtime::project::Project;
use expect::Seen;
use ludus_content::{MAX_FILE_BYTES, Place, TestSpec, Want, read_limited, read_test};
use ludus_core::{GameDef, closest, printable_line};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct TestArgs {
    /// Game folders whose tests/*.toml to run (default: the current folder). A path that is
    /// not a game folder (no game.toml) is skipped.
    pub game_dirs: Vec<PathBuf>,
    /// Write the observed `tick` and `hash` into the `[expect]` of each test that meets its
    /// other expectations.
    #[arg(long)]
    pub bless: bool,
}

/// The most test files one game folder may hold.
const MAX_TESTS: usize = 10_000;

/// Tests run so far.
#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
}

/// Prints a line, its control characters escaped.
fn say(line: &str) {
    println!("{}", printable_line(line));
}

pub fn main(args: TestArgs) -> i32 {
    let dirs = if args.game_dirs.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.game_dirs
    };
    let mut tally = Tally::default();
    for dir in &dirs {
        game(dir, args.bless, &mut tally);
    }
    say(&format!("{} passed, {} failed", tally.passed, tally.failed));
    if tally.failed == 0 && tally.passed == 0 {
        eprintln!("ludus: no tests found (a test is a tests/*.toml file of a game folder)");
        return 1;
    }
    i32::from(tally.failed > 0)
}

/// Runs the tests of one game folder.
fn game(dir: &Path, bless: bool, tally: &mut Tally) {
    let shown = dir.display().to_string();
    if !dir.exists() {
        say(&format!("FAIL {shown}: no such file or folder"));
        tally.failed += 1;
        return;
    }
    if !dir.join("game.toml").is_file() {
        say(&format!("skip {shown}: not a game folder (no game.toml)"));
        return;
    }
    let names = match test_files(dir) {
        Ok(n) if n.is_empty() => {
            say(&format!("skip {shown}: no tests (tests/*.toml)"));
            return;
        }
        Ok(n) => n,
        Err(e) => {
            say(&format!("FAIL {shown}: {e}"));
            tally.failed += 1;
            return;
        }
    };
    let project = crate::cli::common::load(Some(dir)).ok();
    for name in names {
        let file = dir.join("tests").join(&name).display().to_string();
        let failures = match &project {
            Some(p) => test(dir, p, &name, bless),
            None => vec![format!("{shown}: the game does not load (see above)")],
        };
        if failures.is_empty() {
            tally.passed += 1;
        } else {
            say(&format!("FAIL {file}"));
            for f in failures {
                for line in f.lines() {
                    match line {
                        "" => say(""),
                        line => say(&format!("  {line}")),
                    }
                }
            }
            tally.failed += 1;
        }
    }
}

/// The names of `dir/tests/*.toml`, sorted.
fn test_files(dir: &Path) -> Result<Vec<String>, String> {
    let tests = dir.join("tests");
    if !tests.is_dir() {
        return Ok(Vec::new());
    }
    let entries =
        std::fs::read_dir(&tests).map_err(|e| format!("cannot read {}: {e}", tests.display()))?;
    let mut names = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".toml") && entry.path().is_file() {
            if names.len() == MAX_TESTS {
                return Err(format!(
                    "more than {MAX_TESTS} test files in {}",
                    tests.display()
                ));
            }
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// Runs one test: the expectations it missed (empty: it passed; the `ok` line is printed
/// here).
fn test(dir: &Path, project: &Project, name: &str, bless: bool) -> Vec<String> {
    let path = dir.join("tests").join(name);
    let shown = path.display().to_string();
    let bytes = match read_limited(&path, MAX_FILE_BYTES as u64) {
        Ok(b) => b,
        Err(e) => return vec![format!("cannot read {shown}: {e}")],
    };
    let spec = match read_test(&dir.display().to_string(), &format!("tests/{name}"), &bytes) {
        Ok(s) => s,
        Err(d) => return vec![d.render().trim_end().to_string()],
    };
    let problems = unmet_references(dir, &spec, &project.def, &shown);
    if !problems.is_empty() {
        return problems;
    }
    let seeded;
    let project = match spec.seed {
        Some(seed) => {
            seeded = project.clone().with_seed(seed);
            &seeded
        }
        None => project,
    };
    let (run, figures) = match simulate(&sim_args(dir, &spec), project, None, true) {
        Ok(r) => r,
        Err(e) => return vec![e],
    };
    let seen = Seen {
        run: &run,
        figures: &figures,
    };
    let mut failures = Vec::new();
    if let Some(e) = &run.error {
        failures.push(format!("the run stopped: {e}"));
    }
    for e in &spec.expect {
        if let Some((expected, got)) = seen.miss(&e.want, &project.def, bless) {
            let at = match e.place.line {
                0 => shown.clone(),
                line => format!("{shown}:{line}:{}", e.place.col),
            };
            failures.push(format!(
                "{at}: expect.{}: expected {expected}, seen {got}",
                e.name
            ));
        }
    }
    let stem = name.strip_suffix(".toml").unwrap_or(name);
    let rec_path = dir.join("tests").join(format!("{stem}.failed.ludusrec"));
    if !failures.is_empty() {
        let written = run
            .recording()
            .map(|rec| std::fs::write(&rec_path, rec.to_bytes()));
        failures.push(match written {
            Some(Ok(())) => format!(
                "recording: {} (`ludus replay` runs it again)",
                rec_path.display()
            ),
            Some(Err(e)) => format!("cannot write {}: {e}", rec_path.display()),
            None => "no recording of the run was kept".into(),
        });
        return failures;
    }
    let _ = std::fs::remove_file(&rec_path);
    let mut note = String::new();
    if bless {
        let text = String::from_utf8_lossy(&bytes);
        match bless::blessed(&text, seen.ticks(), seen.hash()) {
            Ok(None) => {}
            Ok(Some(new)) => {
                if let Err(e) = std::fs::write(&path, new) {
                    return vec![format!("cannot write {shown}: {e}")];
                }
                note = format!(
                    " (blessed: tick {}, hash {:016x})",
                    seen.ticks(),
                    seen.hash()
                );
            }
            Err(e) => return vec![format!("{shown}: cannot bless: {e}")],
        }
    }
    say(&format!("ok   {shown}{note}"));
    Vec::new()
}

/// What a test names that is not there, each at its place: a file (`input`, `frames`,
/// `save`) missing from the game folder, a tag (`count.TAG`) the game does not declare. Such
/// a test cannot pass, so it is not run.
fn unmet_references(dir: &Path, spec: &TestSpec, def: &GameDef, shown: &str) -> Vec<String> {
    let at = |p: &Place| format!("{shown}:{}:{}", p.line, p.col);
    let files = [
        ("input", &spec.input),
        ("frames", &spec.frames),
        ("save", &spec.save),
    ];
    let mut out: Vec<String> = files
        .into_iter()
        .filter_map(|(key, p)| p.as_ref().map(|(path, place)| (key, path, place)))
        .filter(|(_, path, _)| !dir.join(path).is_file())
        .map(|(key, path, place)| {
            format!("{}: {key}: no file {}", at(place), dir.join(path).display())
        })
        .collect();
    for e in &spec.expect {
        if let Want::Count(tag, _) = &e.want
            && def.tag_bit(tag).is_none()
        {
            let hint = closest(tag, def.tags.iter().map(String::as_str))
                .map(|t| format!(" (did you mean `{t}`?)"))
                .unwrap_or_default();
            out.push(format!(
                "{}: expect.{}: the game has no tag `{}`{hint}",
                at(&e.place),
                e.name,
                printable_line(tag)
            ));
        }
    }
    out
}

/// The `ludus sim` options a test stands for.
fn sim_args(dir: &Path, spec: &TestSpec) -> SimArgs {
    let at = |p: &Option<(String, ludus_content::Place)>| p.as_ref().map(|(p, _)| dir.join(p));
    SimArgs {
        game_dir: Some(dir.to_path_buf()),
        ticks: Some(spec.ticks),
        seed: spec.seed,
        entities: 0,
        input: at(&spec.input),
        frames: at(&spec.frames),
        record: None,
        record_detail: false,
        trace: None,
        threads: None,
        check_invariants: false,
        serial: false,
        save: at(&spec.save),
        profile: false,
        trace_events: None,
        inspect: None,
        agent: Default::default(),
    }
}
