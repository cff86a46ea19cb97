//! The schemas against the content schema they come from: each is a valid 2020-12 schema,
//! the reference's example game and every key's example and default validate against them,
//! and names follow the loader's rule.

use super::*;
use crate::reference::EXAMPLE;
use std::collections::HashMap;

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::validator_for(schema).unwrap_or_else(|e| panic!("a usable schema: {e}"))
}

/// The instance's errors, as `path: keyword` lines.
fn errors(v: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    v.iter_errors(instance)
        .map(|e| format!("{}: {}", e.instance_path(), e.kind().keyword()))
        .collect()
}

fn json_of(toml_text: &str) -> Value {
    let v: toml::Value = toml::from_str(toml_text).expect("valid TOML");
    serde_json::to_value(v).expect("TOML values are JSON values")
}

/// Every table reachable from the roots, each once.
fn tables() -> Vec<&'static TableSchema> {
    fn walk(t: &'static TableSchema, out: &mut Vec<&'static TableSchema>) {
        if out.iter().any(|s| std::ptr::eq(*s, t)) {
            return;
        }
        out.push(t);
        for k in t.keys {
            match k.ty {
                Ty::Table(c)
                | Ty::Named(c)
                | Ty::Tables(c)
                | Ty::ChoiceOr(_, c)
                | Ty::Legend(c) => walk(c, out),
                Ty::TextsOr(cs) => cs.iter().for_each(|c| walk(c, out)),
                Ty::Rect => walk(&schema::RECT, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for file in SchemaFile::ALL {
        walk(file.root(), &mut out);
    }
    out
}

/// The schema of every table, by slug: each file's `$defs`, and its root (a level file's
/// root, which takes `name`, in place of the inline level).
fn definitions() -> (HashMap<String, Value>, Map<String, Value>) {
    let mut by_slug = HashMap::new();
    let mut all_defs = Map::new();
    for file in SchemaFile::ALL {
        let s = json_schema(file);
        if let Some(Value::Object(defs)) = s.get("$defs") {
            for (slug, def) in defs {
                by_slug.insert(slug.clone(), def.clone());
                all_defs.insert(slug.clone(), def.clone());
            }
        }
    }
    for file in SchemaFile::ALL {
        let mut s = json_schema(file);
        s.as_object_mut().unwrap().remove("$defs");
        by_slug.insert(slug(file.root().title), s);
    }
    (by_slug, all_defs)
}

/// A schema checking one value against a key's schema, `$defs` included.
fn key_schema(property: &Value, defs: &Map<String, Value>) -> Value {
    let mut s = property.clone();
    s["$schema"] = json!(DIALECT);
    s["$defs"] = Value::Object(defs.clone());
    s
}

#[test]
fn every_schema_is_a_valid_2020_12_schema() {
    for file in SchemaFile::ALL {
        let s = json_schema(file);
        assert_eq!(
            s["$schema"],
            json!(DIALECT),
            "{} declares its dialect",
            file.name()
        );
        if let Err(e) = jsonschema::meta::validate(&s) {
            panic!("the {} schema is not a valid schema: {e}", file.name());
        }
        assert_eq!(
            s["additionalProperties"],
            json!(false),
            "the {} schema refuses unknown keys",
            file.name()
        );
    }
}

#[test]
fn the_reference_example_game_validates() {
    let game = validator(&json_schema(SchemaFile::Game));
    let level = validator(&json_schema(SchemaFile::Level));
    let mut checked = 0;
    for (path, text) in EXAMPLE {
        let v = match *path {
            "game.toml" => &game,
            p if p.starts_with("levels/") => &level,
            _ => continue,
        };
        assert_eq!(errors(v, &json_of(text)), Vec::<String>::new(), "{path}");
        checked += 1;
    }
    assert_eq!(checked, 2, "the example's game.toml and its level");
}

/// Each table's keys, their examples and their defaults, against the table's own schema:
/// every key is a property with a description, the schema of every table refuses other keys,
/// and each example (but a `[header]`) and each default written as a value validates.
#[test]
fn every_key_example_and_default_validates_against_its_key() {
    let (by_slug, defs) = definitions();
    let mut examples = 0;
    let mut defaults = 0;
    for t in tables() {
        let def = by_slug
            .get(&slug(t.title))
            .unwrap_or_else(|| panic!("{} has a schema", t.title));
        assert_eq!(def["additionalProperties"], json!(false), "{}", t.title);
        for k in t.keys {
            let Some(property) = def["properties"].get(k.name) else {
                // The one key a table of the format does not take in every place.
                assert!(
                    std::ptr::eq(t, &schema::LEVEL) && k.name == "name",
                    "{} has `{}`",
                    t.title,
                    k.name
                );
                continue;
            };
            let described = property["description"].as_str().unwrap_or("");
            assert!(
                described.starts_with(k.doc.trim()),
                "{}.{}",
                t.title,
                k.name
            );
            let v = validator(&key_schema(property, &defs));
            if let Some(d) = default(k) {
                assert_eq!(
                    errors(&v, &d),
                    Vec::<String>::new(),
                    "default of {}.{}",
                    t.title,
                    k.name
                );
                defaults += 1;
            }
            if k.example.starts_with('[') {
                continue;
            }
            let doc = json_of(k.example);
            let value = doc
                .get(k.name)
                .unwrap_or_else(|| panic!("the example of {}.{} sets it", t.title, k.name));
            assert_eq!(
                errors(&v, value),
                Vec::<String>::new(),
                "example `{}` of {}",
                k.example,
                t.title
            );
            examples += 1;
        }
    }
    assert!(
        examples > 150 && defaults > 80,
        "{examples} examples, {defaults} defaults"
    );
}

#[test]
fn every_table_has_its_own_slug() {
    let all = tables();
    let mut slugs: Vec<String> = all.iter().map(|t| slug(t.title)).collect();
    slugs.sort();
    slugs.dedup();
    assert_eq!(
        slugs.len(),
        all.len(),
        "distinct titles make distinct slugs"
    );
    assert_eq!(slug("[archetypes.NAME.sprite]"), "archetypes_name_sprite");
    assert_eq!(slug("[[place]]"), "place");
    assert_eq!(slug("game.toml"), "game_toml");
}

/// The pattern a name is checked with in the schema accepts exactly what the loader does.
#[test]
fn the_name_pattern_is_the_loaders_rule() {
    let v = validator(&json!({ "$schema": DIALECT, "type": "string", "pattern": NAME_PATTERN }));
    let long = "n".repeat(64);
    let too_long = "n".repeat(65);
    let cases = [
        "a", "player", "move_x", "boss-2", "ABC_09", &long, "", &too_long, "a b", "é", "a.b",
        "a/b", "\n", "tab\t",
    ];
    for name in cases {
        assert_eq!(
            v.is_valid(&json!(name)),
            crate::value::is_name(name),
            "{name:?}"
        );
    }
}

/// What each kind of value accepts and refuses, beside the loader's word for it.
#[test]
fn values_are_checked_as_the_loader_checks_them() {
    let check = |ty: Ty, value: Value| {
        let s = key_schema(&Defs::default().ty(ty), &definitions().1);
        validator(&s).is_valid(&value)
    };
    let path = Ty::Path { ext: ".toml" };
    let size = Ty::Size { max: 100.0 };
    // (type, value, accepted)
    let cases = [
        (Ty::Color, json!("red"), true),
        (Ty::Color, json!("Red"), true),
        (Ty::Color, json!("#f80"), true),
        (Ty::Color, json!("ff8800"), true),
        (Ty::Color, json!("#ff880080"), true),
        (Ty::Color, json!("#ff00zz"), false),
        (Ty::Color, json!("#ff88"), false),
        (Ty::Color, json!("reddish"), false),
        (path, json!("levels/a.toml"), true),
        (path, json!("./levels/../a.toml"), true),
        (path, json!("/home/me/a.toml"), false),
        (path, json!("C:/games/a.toml"), false),
        (path, json!("../a.toml"), false),
        (path, json!("levels\\a.toml"), false),
        (path, json!("levels/a.txt"), false),
        (size, json!(16), true),
        (size, json!([16, 8.5]), true),
        (size, json!(0), false),
        (size, json!([16]), false),
        (size, json!([16, 101]), false),
        (Ty::Rect, json!({ "size": [800, 600] }), true),
        (Ty::Rect, json!({ "min": [0, 0], "max": [8, 6] }), true),
        (Ty::Rect, json!({ "min": [0, 0] }), false),
        (
            Ty::Rect,
            json!({ "min": [0, 0], "max": [8, 6], "size": [8, 6] }),
            false,
        ),
        (Ty::Keys, json!(["space", "a"]), true),
        (Ty::Keys, json!({ "a": -1, "d": 1 }), true),
        (Ty::Keys, json!(["spcae"]), false),
        (Ty::Keys, json!({ "a": -2 }), false),
        (Ty::Names { max: 2 }, json!(["a", "b"]), true),
        (Ty::Names { max: 2 }, json!(["a", "a"]), false),
        (Ty::Names { max: 2 }, json!(["a", "b", "c"]), false),
        (
            Ty::Constants,
            json!({ "lives": 3, "name": "x", "on": true, "g": 9.8 }),
            true,
        ),
        (Ty::Constants, json!({ "table": { "a": 1 } }), false),
        (Ty::Constants, json!({ "bad name": 1 }), false),
    ];
    for (ty, value, accepted) in cases {
        assert_eq!(
            check(ty, value.clone()),
            accepted,
            "{} {value}",
            ty.describe()
        );
    }
}

/// A HUD item is read by the first schema whose first key it has, as the loader reads it.
#[test]
fn a_hud_item_is_read_by_its_first_key() {
    let v = validator(&json_schema(SchemaFile::Game));
    let game = |hud: Value| json!({ "name": "x", "hud": [hud] });
    let cases = [
        (json!("score {score}"), true),
        (json!({ "text": "a", "at": "top" }), true),
        (
            json!({ "icons": "lives", "image": "heart", "max": 3 }),
            true,
        ),
        (json!({ "bar": "hp", "max": 100, "color": "red" }), true),
        (json!({ "image": "key", "frame": 2 }), true),
        // A row of icons takes no `color`, though a bar would.
        (
            json!({ "icons": "lives", "image": "heart", "max": 3, "color": "red" }),
            false,
        ),
        (json!({ "text": "a", "at": "middle" }), false),
        (json!({ "at": "top" }), false),
    ];
    for (hud, accepted) in cases {
        assert_eq!(v.is_valid(&game(hud.clone())), accepted, "{hud}");
    }
}

/// A level file names its level; a `[levels.NAME]` table in game.toml takes no `name`.
#[test]
fn a_level_is_named_in_its_file_and_by_its_key_inline() {
    let level = validator(&json_schema(SchemaFile::Level));
    let game = validator(&json_schema(SchemaFile::Game));
    assert!(
        level.is_valid(&json!({ "name": "arena" })),
        "a named level file"
    );
    assert_eq!(
        errors(&level, &json!({ "mode": "paused" })),
        [": required"],
        "a level file without a name"
    );
    let inline = |level: Value| json!({ "name": "x", "levels": { "arena": level } });
    assert!(
        game.is_valid(&inline(json!({ "mode": "paused" }))),
        "an inline level"
    );
    assert_eq!(
        errors(&game, &inline(json!({ "name": "arena" }))),
        ["/levels/arena: additionalProperties"],
        "an inline level with a name"
    );
}
