//! `ludus check`: every problem in a game's content and scripts, as file:line:col, or as
//! JSON Lines for editors (`--format json`, docs/editors.md).

use crate::cli::lint;
use crate::runtime::project::{LOAD_OPTIONS, Project};
use ludus_content::{Diagnostic, Severity};
use std::path::Path;

/// How `ludus check` prints its diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `file:line:col: error: message`, the source line and a caret, on standard error.
    #[default]
    Text,
    /// One JSON object per diagnostic and line, on standard output (see docs/editors.md).
    Json,
}

/// `ludus check`: content diagnostics; then every script and module compiled and linted (see
/// [`lint`]); then, if none has an error, every script loaded under the sandbox (its top-level
/// code run). Exits 1 when there is an error, 0 when there are only warnings.
pub fn check(dir: &Path, format: Format) -> i32 {
    let print = |d: &Diagnostic| match format {
        Format::Text => eprintln!("{d}"),
        Format::Json => println!("{}", json(d)),
    };
    let project = match project(dir, format) {
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
    found.iter().for_each(print);
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
        let line = line.parse().unwrap_or(1);
        let message = format!(
            "while loading scripts: {}",
            f.message.lines().next().unwrap_or("")
        );
        let d = Diagnostic::at(shown(file), "", line, 1, 1, message).with_code("lua-load");
        match format {
            // One line, as it always was: the source line is not at hand.
            Format::Text => eprintln!("{}:{line}:1: error: {}", d.file, d.message),
            Format::Json => print(&d),
        }
        errors += 1;
    }
    if format == Format::Json {
        return i32::from(errors > 0);
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

/// The game folder loaded, or its problems printed in `format` (and the exit code).
fn project(dir: &Path, format: Format) -> Result<Project, i32> {
    let print = |d: &Diagnostic| match format {
        Format::Text => eprintln!("{d}"),
        Format::Json => println!("{}", json(d)),
    };
    if !dir.is_dir() {
        let message = format!(
            "{} is not a folder (a game is a folder with a game.toml)",
            dir.display()
        );
        match format {
            Format::Text => eprintln!("ludus: {message}"),
            Format::Json => {
                print(&Diagnostic::whole_file(dir.display().to_string(), message).with_code("file"))
            }
        }
        return Err(1);
    }
    match Project::from_folder(dir) {
        Ok(p) => Ok(p),
        Err(text) => {
            match format {
                Format::Text => {
                    eprint!("{text}");
                    if !text.ends_with('\n') {
                        eprintln!();
                    }
                }
                // The same load again, for the diagnostics themselves (only when it failed).
                Format::Json => match ludus_content::load_dir_with(dir, &LOAD_OPTIONS) {
                    Err(found) => found.iter().for_each(print),
                    Ok(_) => print(&Diagnostic::whole_file(dir.display().to_string(), text)),
                },
            }
            Err(1)
        }
    }
}

/// One diagnostic as a JSON object: `file`, `line`, `column`, `end_line`, `end_column` (1-based;
/// the end column is just past the span), `severity`, `message`, `help` (or null), `code`. A
/// problem with a whole file is at line 1, column 1.
pub fn json(d: &Diagnostic) -> String {
    let (line, col) = if d.line == 0 { (1, 1) } else { (d.line, d.col) };
    let end = if d.line == 0 {
        col
    } else {
        col.saturating_add(d.span_len.max(1))
    };
    let s = |t: &str| crate::runtime::headless::json_string(t);
    format!(
        "{{\"file\":{},\"line\":{line},\"column\":{col},\"end_line\":{line},\"end_column\":{end},\"severity\":\"{}\",\"message\":{},\"help\":{},\"code\":\"{}\"}}",
        s(&d.file),
        d.severity.word(),
        s(&d.message),
        d.help.as_deref().map_or("null".into(), s),
        d.code()
    )
}
