//! The editor files: the stubs parse as Lua 5.4 (with the parser `ludus check`'s lints use)
//! and declare every function of the API, every handler and every event field, with the
//! game's names; files are written only when their text changed.

use super::*;
use full_moon::ast::FunctionDeclaration;
use full_moon::tokenizer::{Token, TokenType};
use full_moon::visitors::Visitor;
use ludus_core::EVENT_KINDS;
use ludus_script::{API, TYPES};

fn example(name: &str) -> GameDef {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name);
    ludus_content::load_dir(&dir)
        .unwrap_or_else(|d| panic!("{name} loads: {d}"))
        .def
}

/// What a parsed chunk declares: `function ludus.NAME(PARAMS)`, and its `--` comments.
#[derive(Default)]
struct Declared {
    functions: Vec<(String, Vec<String>)>,
    comments: Vec<String>,
}

impl Visitor for Declared {
    fn visit_function_declaration(&mut self, node: &FunctionDeclaration) {
        let names: Vec<String> = node
            .name()
            .names()
            .iter()
            .map(|t| t.token().to_string())
            .collect();
        let params = node
            .body()
            .parameters()
            .iter()
            .map(|p| p.to_string().trim().to_string())
            .collect();
        self.functions.push((names.join("."), params));
    }

    fn visit_single_line_comment(&mut self, token: &Token) {
        if let TokenType::SingleLineComment { comment } = token.token_type() {
            self.comments.push(format!("--{comment}"));
        }
    }
}

fn declared(text: &str) -> Declared {
    let ast = full_moon::parse_fallible(text, full_moon::LuaVersion::lua54())
        .into_result()
        .unwrap_or_else(|e| panic!("the stubs parse: {e:?}"));
    let mut d = Declared::default();
    d.visit_ast(&ast);
    d
}

/// The `---@field` names of a `---@class`, in order.
fn fields(comments: &[String], class: &str) -> Vec<String> {
    let head = format!("---@class {class}");
    let Some(start) = comments.iter().position(|c| c.trim_end() == head) else {
        return Vec::new();
    };
    comments[start + 1..]
        .iter()
        .map_while(|c| c.strip_prefix("---@field "))
        .map(|f| f.split_whitespace().next().unwrap_or("").to_string())
        .collect()
}

/// The members of a `---@alias` written one per line (`---| "name"`).
fn members(comments: &[String], alias: &str) -> Vec<String> {
    let head = format!("---@alias {alias}");
    let Some(start) = comments.iter().position(|c| c.trim_end() == head) else {
        return Vec::new();
    };
    comments[start + 1..]
        .iter()
        .map_while(|c| c.strip_prefix("---| "))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_stubs_declare_every_function_with_its_arguments() {
    let d = declared(&lua::stubs(&example("swarm")));
    let mut expected: Vec<(String, Vec<String>)> = Vec::new();
    for f in API {
        let call = f.signature();
        if call.field {
            continue;
        }
        let params = call.params.iter().map(|p| p.name.to_string()).collect();
        expected.push((format!("ludus.{}", f.name), params));
    }
    expected.push(("require".into(), vec!["name".into()]));
    assert_eq!(
        d.functions, expected,
        "one declaration per function, in the API's order"
    );
    assert!(
        d.comments.iter().any(|c| c == "---@type ludus.Constants"),
        "ludus.const is typed"
    );
    let spawn = d
        .comments
        .iter()
        .skip_while(|c| !c.starts_with("---create an entity"))
        .take(6)
        .cloned()
        .collect::<Vec<_>>();
    assert_eq!(
        spawn[1..],
        [
            "---@param kind ludus.Archetype",
            "---@param x number",
            "---@param y number",
            "---@param opts? ludus.SpawnOpts",
            "---@return ludus.Id",
        ],
        "ludus.spawn's arguments and result"
    );
}

#[test]
fn the_stubs_type_every_handler_and_event_field() {
    let d = declared(&lua::stubs(&example("swarm")));
    for spec in EVENT_KINDS {
        let class = lua::event_class(spec.layout);
        let names: Vec<&str> = spec.fields.iter().map(|f| f.name).collect();
        assert_eq!(
            fields(&d.comments, &class),
            names,
            "{class}: every field, in order"
        );
        let param = if spec.single {
            format!("info: {class}")
        } else {
            format!("events: {class}[]")
        };
        let alias = format!("---@alias ludus.{} fun({param})", spec.handler);
        assert!(d.comments.contains(&alias), "{alias}");
    }
    let contact = lua::event_class("contact");
    assert!(
        d.comments.contains(&format!("---@class {contact}"))
            && d.comments
                .iter()
                .any(|c| c.starts_with("---@field a_kind ludus.Archetype ")),
        "a contact's kinds are the game's archetypes"
    );
}

#[test]
fn the_stubs_list_the_games_names() {
    let def = example("swarm");
    let d = declared(&lua::stubs(&def));
    let quoted = |names: Vec<&str>| -> Vec<String> {
        names.into_iter().map(|n| format!("\"{n}\"")).collect()
    };
    let cases = [
        (
            "ludus.Archetype",
            quoted(def.archetypes.iter().map(|a| a.name.as_str()).collect()),
        ),
        (
            "ludus.Tag",
            quoted(def.tags.iter().map(String::as_str).collect()),
        ),
        (
            "ludus.Action",
            quoted(def.actions.iter().map(|(_, a)| a.name.as_str()).collect()),
        ),
        (
            "ludus.Sound",
            quoted(def.sounds.iter().map(|s| s.name.as_str()).collect()),
        ),
        (
            "ludus.Level",
            quoted(def.levels.iter().map(|l| l.name.as_str()).collect()),
        ),
    ];
    for (alias, names) in cases {
        assert!(!names.is_empty(), "swarm declares some of {alias}");
        assert_eq!(members(&d.comments, alias), names, "{alias}");
    }
    let constants: Vec<&String> = def.constants.keys().collect();
    let mut typed: Vec<String> = fields(&d.comments, "ludus.Constants");
    typed.sort();
    let mut expected: Vec<String> = constants.iter().map(|c| c.to_string()).collect();
    expected.sort();
    assert_eq!(typed, expected, "ludus.const's fields");
}

/// Every type of the API list has its own definition in the stubs (none falls back to `any`).
#[test]
fn every_type_of_the_api_is_defined() {
    let def = example("swarm");
    let names = crate::cli::lint::Names::of_game(&def);
    for (word, _) in TYPES {
        let text = lua::definition(word, &def, &names);
        assert!(!text.ends_with(" any\n"), "`{word}` is defined: {text}");
    }
    let cases = [
        ("id", "ludus.Id"),
        ("id[]", "ludus.Id[]"),
        ("number?", "number?"),
        ("archetype?", "ludus.Archetype?"),
        ("number|string|nil", "number|string|nil"),
        ("music|nil", "ludus.Music|nil"),
        ("tag|tag[]", "ludus.Tag|ludus.Tag[]"),
        ("spawn_opts", "ludus.SpawnOpts"),
    ];
    for (ty, lua) in cases {
        assert_eq!(lua::lua_type(ty), lua, "{ty}");
    }
}

#[test]
fn schema_lines_name_the_schema_from_the_files_folder() {
    let cases = [
        (SchemaFile::Game, 0, "#:schema .ludus/game.schema.json"),
        (SchemaFile::Level, 1, "#:schema ../.ludus/level.schema.json"),
        (
            SchemaFile::Archetypes,
            2,
            "#:schema ../../.ludus/archetypes.schema.json",
        ),
    ];
    for (file, depth, line) in cases {
        assert_eq!(schema_line(file, depth), line);
    }
}

/// The files are written when new or changed, and only then.
#[test]
fn editor_files_are_written_only_when_their_text_changes() {
    // Removed when the test ends, passed or failed.
    let tmp = tempfile::Builder::new()
        .prefix("ludus-editor-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    let mut def = example("swarm");
    let all: Vec<PathBuf> = files(&def).into_iter().map(|(p, _)| dir.join(p)).collect();
    assert_eq!(all.len(), 5, "luarc, stubs, three schemas");
    assert!(!kept(dir), "no set-up yet");
    assert_eq!(write(dir, &def), Ok(all.clone()), "all new");
    assert!(kept(dir));
    assert_eq!(write(dir, &def), Ok(vec![]), "nothing changed");
    def.tags.push("newcomer".into());
    let stubs = dir.join(FOLDER).join("ludus.d.lua");
    assert_eq!(write(dir, &def), Ok(vec![stubs.clone()]), "a new name");
    let text = std::fs::read_to_string(&stubs).unwrap();
    assert!(text.contains("---| \"newcomer\""), "the new tag is listed");
    std::fs::write(&stubs, "-- edited").unwrap();
    assert_eq!(write(dir, &def), Ok(vec![stubs]), "an edit is replaced");
    let written: Vec<PathBuf> = std::fs::read_dir(dir.join(FOLDER))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "part"))
        .collect();
    assert_eq!(written, Vec::<PathBuf>::new(), "no partial file is left");
}

/// Each schema file holds what `ludus schema` prints: JSON of the draft the schema names.
#[test]
fn schema_files_are_the_schemas() {
    let def = example("swarm");
    for (path, text) in files(&def) {
        let Some(file) = SchemaFile::ALL
            .into_iter()
            .find(|f| path.ends_with(f.file_name()))
        else {
            continue;
        };
        let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(value, json_schema(file), "{}", path.display());
    }
    let luarc: serde_json::Value = serde_json::from_str(&lua::luarc()).expect("JSON");
    assert_eq!(
        luarc["workspace"]["library"][0], FOLDER,
        ".luarc.json reads the stubs"
    );
}

/// While `ludus run` plays a game that keeps its editor files, a saved change of its content
/// reaches the stubs; once the refresher is dropped, nothing more is written.
#[test]
fn a_changed_game_gets_fresh_stubs_while_it_runs() {
    let tmp = tempfile::Builder::new()
        .prefix("ludus-editor-fresh-")
        .tempdir()
        .unwrap();
    let root = tmp.path();
    let dir = root.join("game");
    assert_eq!(crate::cli::new::create(&dir), 0);
    let def = ludus_content::load_dir(&dir)
        .expect("the template loads")
        .def;
    let refresher = keep_fresh(Some(&dir), &def, true).expect("a game with stubs is kept");
    let game = dir.join("game.toml");
    let mut text = std::fs::read_to_string(&game).unwrap();
    text.push_str("\n[archetypes.newcomer]\ntags = [\"gem\"]\n");
    std::fs::write(&game, &text).unwrap();
    let stubs = dir.join(FOLDER).join("ludus.d.lua");
    let started = std::time::Instant::now();
    // A generous bound against a hang; it takes a fraction of a second.
    while !std::fs::read_to_string(&stubs)
        .unwrap()
        .contains("---| \"newcomer\"")
    {
        assert!(
            started.elapsed().as_secs() < 60,
            "the stubs never named the new archetype"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    drop(refresher);
    assert!(
        keep_fresh(Some(root), &def, true).is_none(),
        "a folder without editor files is left alone"
    );
    assert!(!root.join(FOLDER).exists(), "and nothing is written there");
}
