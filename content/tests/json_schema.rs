//! The JSON Schemas `ludus schema` prints, against real content: every bundled example's
//! game.toml, archetype files and level files validate (and those of `tests/good`), and the golden bad-content cases
//! whose mistakes a file's keys alone show fail at exactly those keys. The TOML is checked
//! as the JSON its values make, as an editor checks it.

use ludus_content::{SchemaFile, json_schema};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn json_of(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: toml::Value =
        toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::to_value(v).expect("TOML values are JSON values")
}

fn validators() -> [(SchemaFile, jsonschema::Validator); 3] {
    SchemaFile::ALL.map(|file| {
        let v = jsonschema::validator_for(&json_schema(file))
            .unwrap_or_else(|e| panic!("the {} schema compiles: {e}", file.name()));
        (file, v)
    })
}

/// The instance's errors as `path keyword`, sorted.
fn errors(
    validators: &[(SchemaFile, jsonschema::Validator)],
    file: SchemaFile,
    path: &Path,
) -> Vec<String> {
    let v = &validators
        .iter()
        .find(|(f, _)| *f == file)
        .expect("every kind")
        .1;
    let mut out: Vec<String> = v
        .iter_errors(&json_of(path))
        .map(|e| format!("{} {}", e.instance_path(), e.kind().keyword()))
        .collect();
    out.sort();
    out
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The files a game.toml lists under `key`.
fn listed(game: &Value, key: &str) -> Vec<String> {
    game.get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|p| p.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn every_bundled_example_validates() {
    let validators = validators();
    let mut games = Vec::new();
    for entry in std::fs::read_dir(root().join("examples")).unwrap() {
        let dir = entry.unwrap().path();
        if dir.join("game.toml").is_file() {
            games.push(dir);
        }
    }
    games.sort();
    games.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/good"));
    let mut files = 0;
    for dir in &games {
        let game_toml = dir.join("game.toml");
        let mut checks = vec![(SchemaFile::Game, game_toml.clone())];
        let game = json_of(&game_toml);
        for path in listed(&game, "archetype_files") {
            checks.push((SchemaFile::Archetypes, dir.join(path)));
        }
        for path in listed(&game, "level_files") {
            checks.push((SchemaFile::Level, dir.join(path)));
        }
        for (file, path) in checks {
            let errs = errors(&validators, file, &path);
            assert_eq!(
                errs,
                Vec::<String>::new(),
                "{} against the {} schema",
                path.display(),
                file.name()
            );
            files += 1;
        }
    }
    assert!(
        games.len() >= 9,
        "the bundled examples and the good game: {games:?}"
    );
    assert!(files >= 20, "{files} files");
}

/// Golden bad-content cases (`tests/bad/CASE/FILE`) and what the schema says of each: the
/// key at fault and the JSON Schema keyword that refuses it. The loader reports each of
/// these too; cases whose mistakes only show across keys or files (an unknown archetype, a
/// missing file, a duplicate declared in another file) are not here.
#[rustfmt::skip]
const BAD: &[(&str, &str, &[&str])] = &[
    // Unknown keys.
    ("unknown_key_suggestion", "game.toml", &["/tick additionalProperties"]),
    ("key_in_wrong_table", "game.toml", &[" additionalProperties", "/archetypes/ship additionalProperties"]),
    ("key_after_header", "game.toml", &["/archetypes/ship/sprite additionalProperties", "/window additionalProperties"]),
    ("archetype_file_layout", "ships.toml", &[" additionalProperties", "/archetypes/drone additionalProperties"]),
    ("inline_level_name", "game.toml", &["/levels/main additionalProperties", "/levels/main/mode enum"]),
    // Wrong types.
    ("wrong_type", "game.toml", &["/seed type", "/window/width type"]),
    ("flow_actions", "game.toml", &["/flow/banner type"]),
    ("attach_errors", "game.toml", &["/archetypes/cape/attach/offset minItems", "/archetypes/shield/attach required", "/archetypes/shield/attach/angle type"]),
    ("look_values", "game.toml", &["/archetypes/ball/sprite/alpha maximum", "/levels/main/place/0/scale anyOf", "/levels/main/place/1/angle type"]),
    // Out of range, and numbers that are not finite (no JSON number: null).
    ("rate_zero", "game.toml", &["/tick/rate minimum"]),
    ("rate_negative", "game.toml", &["/tick/rate minimum"]),
    ("rate_nan", "game.toml", &["/tick/max_frame_delta type"]),
    ("rate_inf", "game.toml", &["/tick/max_frame_delta type", "/tick/rate type"]),
    ("catch_up_zero", "game.toml", &["/tick/catch_up minimum"]),
    ("catch_up_absurd", "game.toml", &["/tick/catch_up maximum"]),
    ("cadence_zero", "game.toml", &["/ai/cadence minimum", "/archetypes/drone/behaviour/cadence minimum"]),
    ("limits_values", "game.toml", &["/limits/contacts minimum", "/limits/events type", "/limits/state_keys maximum", "/limits/variables minimum"]),
    ("negative_size", "game.toml", &["/archetypes/ship/collider/radius exclusiveMinimum", "/archetypes/ship/sprite/size anyOf"]),
    ("behaviour_range", "game.toml", &["/archetypes/bat/behaviour/idle enum", "/archetypes/bat/behaviour/range exclusiveMinimum", "/archetypes/owl/behaviour/range type"]),
    ("sound_files", "game.toml", &["/music/loop/volume maximum"]),
    ("image_sheets", "game.toml", &["/archetypes/d/animations/idle required", "/archetypes/d/animations/spin/fps exclusiveMinimum"]),
    // Not one of the allowed strings.
    ("archetype_file_layout", "levels/one.toml", &["/mode enum"]),
    ("hud_lines", "game.toml", &["/hud/1 anyOf", "/hud/2 anyOf", "/hud/3 anyOf", "/hud/4 anyOf", "/hud/5 anyOf", "/tick/mode enum"]),
    ("bounds_rules", "game.toml", &["/archetypes/a/bounds anyOf", "/archetypes/b/bounds anyOf", "/archetypes/c/bounds anyOf", "/archetypes/d/bounds anyOf", "/archetypes/e/bounds anyOf", "/archetypes/f/bounds anyOf", "/archetypes/f/offscreen enum"]),
    ("control_kinds", "game.toml", &["/archetypes/hero/collider/body enum", "/archetypes/hero/collider/bounce maximum", "/archetypes/hero/collider/mass exclusiveMinimum", "/archetypes/hero/control/coyote minimum", "/archetypes/hero/max_speed exclusiveMinimum", "/archetypes/hero/rotate enum", "/physics/gravity/1 type"]),
    ("unknown_input_key", "game.toml", &["/input/actions/fire/keys anyOf", "/input/actions/steer/keys anyOf"]),
    ("bad_colour", "game.toml", &["/archetypes/ship/sprite/color anyOf", "/effects/spark/color anyOf", "/levels/main/background anyOf"]),
    // Missing required keys.
    ("missing_required", "game.toml", &[" required", "/archetypes/ship/health required"]),
    ("missing_required", "levels/one.toml", &[" required", "/place/0 required"]),
    ("empty_game_toml", "game.toml", &[" required"]),
    // Paths, names, lists and tables of names.
    ("absolute_path", "game.toml", &["/level_files/0 pattern", "/scripts/files/0 not"]),
    ("path_escape", "game.toml", &["/level_files/0 not", "/scripts/files/0 pattern"]),
    ("duplicate_tag", "game.toml", &["/layers uniqueItems", "/tags uniqueItems"]),
    ("export_exclude", "game.toml", &["/export/exclude/4 minLength", "/export/exclude/5 type"]),
    ("constants_values", "game.toml", &["/constants propertyNames", "/constants/list type", "/constants/speed type", "/constants/table type"]),
    ("variables_values", "game.toml", &["/variables propertyNames", "/variables/flags anyOf", "/variables/ratio anyOf"]),
    ("hud_items", "game.toml", &["/hud/4 anyOf", "/hud/5 anyOf", "/hud/6 anyOf", "/hud/7 anyOf", "/hud/8 anyOf", "/hud/9 anyOf"]),
    ("tilemap_errors", "game.toml", &["/levels/main/tilemap/legend propertyNames"]),
    ("rect_errors", "game.toml", &["/levels/main/camera/bounds anyOf", "/levels/main/spawner/0/area anyOf"]),
    ("several_errors_in_one_file", "game.toml", &["/archetypes/ship/camera type", "/seed minimum", "/sounds/hit/volume maximum", "/sounds/hit/wave enum", "/tick/catch_up type", "/tick/rate minimum", "/window additionalProperties"]),
];

#[test]
fn known_bad_content_fails_at_the_key_at_fault() {
    let validators = validators();
    let bad = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad");
    assert!(BAD.len() >= 20, "at least 20 cases");
    for (case, file, expected) in BAD {
        let path = bad.join(case).join(file);
        assert!(
            bad.join(case).join("expected.txt").is_file(),
            "{case} is a golden case: the loader refuses it"
        );
        let kind = match *file {
            "game.toml" => SchemaFile::Game,
            f if f.starts_with("levels/") => SchemaFile::Level,
            _ => SchemaFile::Archetypes,
        };
        assert_eq!(errors(&validators, kind, &path), *expected, "{case}/{file}");
    }
}
