//! Golden diagnostics. Every folder in `tests/bad/` is a small game with one kind of mistake
//! (a few with several), and its `expected.txt` is exactly what `Diagnostics::render` prints
//! for it, with paths relative to the game folder.
//!
//! After an intended change to the messages, rewrite every `expected.txt` from the current
//! output with `LUDUS_BLESS=1 cargo test -p ludus-content --test golden` and review the diff.

use ludus_content::{DirSource, load_game};
use std::fs;
use std::path::{Path, PathBuf};

/// Kinds of error that must each have a folder.
const REQUIRED: &[&str] = &[
    "tilemap_csv",
    "contact_damage",
    "font_errors",
    "syntax_error",
    "missing_value",
    "unknown_key_suggestion",
    "wrong_type",
    "rate_zero",
    "rate_negative",
    "rate_nan",
    "rate_inf",
    "catch_up_zero",
    "catch_up_absurd",
    "cadence_zero",
    "negative_size",
    "bad_colour",
    "hud_lines",
    "hud_items",
    "control_kinds",
    "variables_values",
    "unknown_archetype",
    "unknown_tag",
    "unknown_layer",
    "unknown_action",
    "unknown_pad_key",
    "axis_action_for_trigger",
    "unknown_cooldown",
    "unknown_level_entry",
    "unknown_script",
    "duplicate_tag",
    "duplicate_archetype_across_files",
    "duplicate_level",
    "path_escape",
    "absolute_path",
    "missing_file",
    "empty_file",
    "empty_game_toml",
    "non_utf8",
    "deep_nesting",
    "image_missing",
    "image_sheets",
    "tilemap_errors",
    "sound_files",
    "tilemap_limit",
    "several_errors_in_one_file",
    "limits_values",
    "export_exclude",
    "flow_actions",
    "touch_controls",
    "touch_too_many",
    "behaviour_range",
    "attach_errors",
    "tilemap_spawns",
    "bounds_rules",
    "nav_too_fine",
    "sizeless_collider",
];

fn bad_games() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad");
    let mut dirs: Vec<PathBuf> = fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", root.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

fn render(dir: &Path) -> String {
    match load_game(&DirSource::new(dir)) {
        Ok(_) => "the game loaded without errors\n".to_string(),
        Err(d) => d.render(),
    }
}

#[test]
fn every_required_kind_of_error_has_a_golden_folder() {
    let names: Vec<String> = bad_games()
        .iter()
        .filter_map(|p| p.file_name()?.to_str().map(str::to_string))
        .collect();
    for kind in REQUIRED {
        assert!(
            names.iter().any(|n| n == kind),
            "tests/bad/{kind} is missing"
        );
    }
}

#[test]
fn bad_games_render_exactly_their_expected_diagnostics() {
    let bless = std::env::var("LUDUS_BLESS").is_ok_and(|v| v == "1");
    let mut failures = Vec::new();
    for dir in bad_games() {
        let got = render(&dir);
        let expected_path = dir.join("expected.txt");
        if bless {
            fs::write(&expected_path, &got)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", expected_path.display()));
            continue;
        }
        let expected = fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            failures.push(format!(
                "== {}\n-- expected:\n{expected}-- got:\n{got}",
                dir.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden folder(s) differ (LUDUS_BLESS=1 rewrites them):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_bad_game_is_refused() {
    for dir in bad_games() {
        assert!(
            load_game(&DirSource::new(&dir)).is_err(),
            "{} loaded without errors",
            dir.display()
        );
    }
}

#[test]
fn several_errors_in_one_file_are_reported_together() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad/several_errors_in_one_file");
    let Err(d) = load_game(&DirSource::new(&dir)) else {
        panic!("the game must be refused");
    };
    assert!(
        d.len() >= 3,
        "only {} diagnostics:\n{}",
        d.len(),
        d.render()
    );
    assert!(d.iter().all(|x| x.file == "game.toml"));
}
