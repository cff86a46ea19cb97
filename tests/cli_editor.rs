//! `ludus schema` and `ludus stubs` end to end: what they print, write and refuse, with their
//! exit codes.

mod support;

use support::cli::{example, ludus, scratch, text};

/// Copies a game folder (its files, one level of folders deep as the examples are).
fn copy_game(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_game(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn schema_prints_each_files_json_schema() {
    // (argument, the schema's title, a key of its top level)
    let cases = [
        (None, "game.toml", "tick"),
        (Some("game"), "game.toml", "archetype_files"),
        (Some("level"), "level files", "place"),
        (Some("archetypes"), "archetype files", "archetypes"),
    ];
    for (arg, title, key) in cases {
        let o = ludus().arg("schema").args(arg).output().unwrap();
        let (out, err) = text(&o);
        assert!(o.status.success(), "{arg:?}: {err}");
        let schema: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert_eq!(schema["title"], title, "{arg:?}");
        assert_eq!(
            schema["additionalProperties"], false,
            "{arg:?}: unknown keys refused"
        );
        assert!(schema["properties"][key].is_object(), "{arg:?} has `{key}`");
    }
    let o = ludus().args(["schema", "levels"]).output().unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "a usage error");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("[possible values: game, level, archetypes]"),
        "{err}"
    );
}

#[test]
fn stubs_writes_the_editor_files_once_and_refuses_a_broken_game() {
    let tmp = scratch("stubs");
    let dir = tmp.join("swarm");
    copy_game(&example(), &dir);
    let o = ludus().arg("stubs").arg(&dir).output().unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let written: Vec<&str> = out.lines().collect();
    let expected: Vec<String> = [
        ".luarc.json",
        ".ludus/ludus.d.lua",
        ".ludus/game.schema.json",
        ".ludus/level.schema.json",
        ".ludus/archetypes.schema.json",
    ]
    .iter()
    .map(|f| format!("wrote {}", dir.join(f).display()))
    .collect();
    assert_eq!(written, expected, "each file, new");
    let stubs = std::fs::read_to_string(dir.join(".ludus/ludus.d.lua")).unwrap();
    assert!(
        stubs.starts_with("---@meta"),
        "lua-language-server annotations"
    );
    assert!(stubs.contains("---| \"drone\""), "the game's archetypes");

    let o = ludus().arg("stubs").arg(&dir).output().unwrap();
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert_eq!(
        out.trim(),
        format!("the editor files of {} are up to date", dir.display()),
        "nothing changed, nothing written"
    );

    std::fs::write(dir.join("game.toml"), "name = \"Broken\"\nsped = 1\n").unwrap();
    let o = ludus().arg("stubs").arg(&dir).output().unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("game.toml:2:1: error: unknown key `sped`"),
        "{err}"
    );
    assert!(err.contains("run `ludus stubs` again"), "{err}");

    let o = ludus()
        .arg("stubs")
        .arg(dir.join("missing"))
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("is not a folder"), "{err}");
}
