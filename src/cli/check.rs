//! `ludus check`: every problem in a game's content and scripts, as file:line:col.

use crate::cli::common::load;
use crate::cli::lint;
use ludus_content::Severity;
use std::path::Path;

/// `ludus check`: content diagnostics; then every script and module compiled and linted (see
/// [`lint`]); then, if none has an error, every script loaded under the sandbox (its top-level
/// code run). Exits 1 when there is an error, 0 when there are only warnings.
pub fn check(dir: &Path) -> i32 {
    let project = match load(Some(dir)) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let shown = |path: &str| dir.join(path).display().to_string();
    let found = lint::lint_game(
        &project.def,
        &project.scripts,
        project.modules.as_ref(),
        &project.hud_names,
        &shown,
    );
    for d in &found {
        eprintln!("{d}");
    }
    let warnings = found
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let mut errors = found.len() - warnings;
    if errors == 0
        && let Err(f) = project.host()
    {
        let loc = f.location.clone().unwrap_or_else(|| "game.toml:1".into());
        let (file, line) = loc.rsplit_once(':').unwrap_or((&loc, "1"));
        eprintln!(
            "{}:{line}:1: error: while loading scripts: {}",
            shown(file),
            f.message.lines().next().unwrap_or("")
        );
        errors += 1;
    }
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    if errors > 0 {
        let mut summary = count(errors, "error");
        if warnings > 0 {
            summary.push_str(&format!(" and {}", count(warnings, "warning")));
        }
        eprintln!("{summary} found");
        return 1;
    }
    // Orders of the tick's systems that hold only by registration order (none for the native
    // systems; a program that adds its own is told by `Game::add_system`).
    for w in ludus_core::native_systems().warnings() {
        eprintln!("warning: {w}");
    }
    let def = &project.def;
    let warned = if warnings > 0 {
        format!(", {}", count(warnings, "warning"))
    } else {
        String::new()
    };
    println!(
        "{}: ok ({}, {}, {}{warned}, content hash {:016x})",
        dir.display(),
        // The game's own: not the built-in `text` added after them.
        count(
            def.archetypes.len()
                - usize::from(
                    def.archetypes.last() == Some(&ludus_core::LabelDef::text_archetype())
                ),
            "archetype",
        ),
        count(def.levels.len(), "level"),
        count(project.scripts.len(), "script"),
        def.content_hash
    );
    0
}
