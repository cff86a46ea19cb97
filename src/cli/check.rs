//! `ludus check`: every problem in a game's content and scripts, as file:line:col.

use crate::cli::common::load;
use std::path::Path;

/// `ludus check`: content diagnostics, then every script compiled and loaded under the sandbox.
pub fn check(dir: &Path) -> i32 {
    let project = match load(Some(dir)) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let shown = |loc: &str| -> String {
        let (file, line) = loc.rsplit_once(':').unwrap_or((loc, "1"));
        format!("{}:{line}:1", dir.join(file).display())
    };
    let mut errors = 0;
    for script in &project.scripts {
        if let Err(f) = ludus_script::compile_check(&script.path, &script.text) {
            let loc = f
                .location
                .clone()
                .unwrap_or_else(|| format!("{}:1", script.path));
            eprintln!(
                "{}: error: {}",
                shown(&loc),
                f.message.lines().next().unwrap_or("")
            );
            errors += 1;
        }
    }
    if errors == 0
        && let Err(f) = project.host()
    {
        let loc = f.location.clone().unwrap_or_else(|| "game.toml:1".into());
        eprintln!(
            "{}: error: while loading scripts: {}",
            shown(&loc),
            f.message.lines().next().unwrap_or("")
        );
        errors += 1;
    }
    if errors > 0 {
        eprintln!("{errors} error{} found", if errors == 1 { "" } else { "s" });
        return 1;
    }
    // Orders of the tick's systems that hold only by registration order (none for the native
    // systems; a program that adds its own is told by `Game::add_system`).
    for w in ludus_core::native_systems().warnings() {
        eprintln!("warning: {w}");
    }
    let def = &project.def;
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    println!(
        "{}: ok ({}, {}, {}, content hash {:016x})",
        dir.display(),
        count(def.archetypes.len(), "archetype"),
        count(def.levels.len(), "level"),
        count(project.scripts.len(), "script"),
        def.content_hash
    );
    0
}
