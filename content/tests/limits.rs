//! Hostile and oversized input: every limit of the loader, each refused with one clear
//! diagnostic and without exhausting the stack or the screen.

use ludus_content::{Diagnostics, MAX_FILE_BYTES, MemorySource, load_game};

const LEVEL: &str = "[levels.main]\n";

fn refused(source: &MemorySource) -> Diagnostics {
    match load_game(source) {
        Ok(_) => panic!("the game must be refused"),
        Err(d) => d,
    }
}

fn game(text: &str) -> MemorySource {
    MemorySource::new().with("game.toml", text.as_bytes())
}

#[test]
fn no_game_toml() {
    let d = refused(&MemorySource::new());
    assert_eq!(d.len(), 1);
    assert_eq!(d.0[0].line, 0);
    assert_eq!(d.0[0].message, "cannot read game.toml: file not found");
}

#[test]
fn huge_game_toml_is_refused_before_parsing() {
    let mut text = "name = \"Big\"\n".to_string();
    text.push_str(&"# padding\n".repeat(MAX_FILE_BYTES / 10 + 1));
    let d = refused(&game(&text));
    assert_eq!(d.len(), 1);
    assert_eq!(d.0[0].file, "game.toml");
    assert!(
        d.0[0].message.contains("may be at most 8 MiB"),
        "{}",
        d.render()
    );
}

#[test]
fn huge_level_file_is_reported_where_it_is_listed() {
    let source = game("name = \"Big\"\nlevel_files = [\"big.toml\"]\n")
        .with("big.toml", vec![b'#'; MAX_FILE_BYTES + 1]);
    let d = refused(&source);
    assert_eq!(d.len(), 1, "{}", d.render());
    assert_eq!(
        (d.0[0].file.as_str(), d.0[0].line, d.0[0].col),
        ("game.toml", 2, 16)
    );
    assert!(
        d.0[0]
            .message
            .starts_with("`big.toml` is too large (more than 8 MiB)"),
        "{}",
        d.render()
    );
}

#[test]
fn a_hundred_thousand_brackets_do_not_reach_the_parser() {
    for open in ["[", "{", "[{"] {
        let text = format!("name = \"Deep\"\nx = {}\n", open.repeat(100_000));
        let d = refused(&game(&text));
        assert_eq!(d.len(), 1, "{}", d.render());
        assert_eq!(d.0[0].line, 2);
        assert!(
            d.0[0].message.contains("nested more than 64 levels"),
            "{}",
            d.render()
        );
    }
}

#[test]
fn long_dotted_keys_are_refused() {
    for depth in [40, 79, 500] {
        let key = vec!["a"; depth].join(".");
        let text = format!("name = \"Deep\"\n{key} = 1\n{LEVEL}");
        let d = refused(&game(&text));
        assert_eq!(d.len(), 1, "{depth}: {}", d.render());
        assert_eq!(d.0[0].line, 2, "{depth}");
    }
}

#[test]
fn declaration_counts_are_capped() {
    let tags: Vec<String> = (0..65).map(|i| format!("\"t{i}\"")).collect();
    let layers: Vec<String> = (0..33).map(|i| format!("\"l{i}\"")).collect();
    let mut text = format!(
        "name = \"Many\"\ntags = [{}]\nlayers = [{}]\n",
        tags.join(", "),
        layers.join(", ")
    );
    for i in 0..65 {
        text.push_str(&format!("[input.actions.a{i}]\nkind = \"button\"\n"));
    }
    text.push_str(LEVEL);
    let d = refused(&game(&text));
    let messages: Vec<&str> = d.iter().map(|x| x.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`tags` may hold at most 64 names",
            "`layers` may hold at most 32 names",
            "action `a64` cannot be declared: a game may declare at most 64 actions",
        ]
    );
}

#[test]
fn a_flood_of_errors_is_cut_short() {
    let mut text = "name = \"Noisy\"\n".to_string();
    for i in 0..1000 {
        text.push_str(&format!("unknown{i} = 1\n"));
    }
    text.push_str(LEVEL);
    let d = refused(&game(&text));
    assert_eq!(d.len(), 201);
    assert_eq!(
        d.0[200].message,
        "800 more errors not shown (only the first 200 are reported)"
    );
}

#[test]
fn crlf_files_report_the_same_positions() {
    let text = "name = \"Windows\"\r\n\r\n[tick]\r\nrate = 0\r\n[levels.main]\r\n";
    let d = refused(&game(text));
    assert_eq!((d.0[0].line, d.0[0].col, d.0[0].span_len), (4, 8, 1));
    assert_eq!(d.0[0].snippet.as_deref(), Some("rate = 0"));
}

#[test]
fn columns_count_characters() {
    let text = "name = \"Ünïcödé\"\n[constants]\n\"ключ\" = 1\n[levels.main]\nbackground = \"ñ\"\n";
    let d = refused(&game(text));
    assert_eq!((d.0[0].line, d.0[0].col, d.0[0].span_len), (3, 1, 6));
    assert_eq!((d.0[1].line, d.0[1].col, d.0[1].span_len), (5, 14, 3));
}

#[test]
fn long_lines_are_shown_around_the_column() {
    let list: Vec<String> = (0..2000).map(|i| format!("\"line {i}\"")).collect();
    let text = format!("name = \"Long\"\nhud = [{}, 5]\n{LEVEL}", list.join(", "));
    let d = refused(&game(&text));
    let first = &d.0[0];
    assert!(first.col > 10_000);
    let snippet = first.snippet.as_deref().unwrap_or("");
    assert!(snippet.chars().count() <= 122, "{snippet}");
    let rendered = first.render();
    let lines: Vec<&str> = rendered.lines().collect();
    let caret = lines[2].find('^').unwrap_or(0);
    let shown: Vec<char> = lines[1].chars().collect();
    let marker_chars = lines[2][..caret].chars().count();
    assert_eq!(shown.get(marker_chars), Some(&'5'), "{rendered}");
}

#[test]
fn numbers_beyond_every_integer_type() {
    let text = format!(
        "name = \"Huge\"\nseed = 99999999999999999999999999999999999999999999\n[archetypes.a]\nlifetime = 4294967296\n{LEVEL}"
    );
    let d = refused(&game(&text));
    let messages: Vec<&str> = d.iter().map(|x| x.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`seed` must be an integer of at least 0, found `9999999999999999999999999999999999999999…`",
            "`archetypes.a.lifetime` must be an integer from 1 to 4294967295, found `4294967296`",
        ]
    );
}

#[test]
fn scripts_must_be_utf8_and_are_reported_in_place() {
    let source = game("name = \"S\"\n[scripts]\nfiles = [\"a.lua\"]\n[levels.main]\n")
        .with("a.lua", b"-- ok\nprint('\xff')\n".to_vec());
    let d = refused(&source);
    assert_eq!(
        (d.0[0].file.as_str(), d.0[0].line, d.0[0].col),
        ("a.lua", 2, 8)
    );
}

#[test]
fn missing_files_suggest_their_neighbours_in_memory_too() {
    let source = game("name = \"S\"\nlevel_files = [\"levels/Arena.toml\"]\n")
        .with("levels/arena.toml", "name = \"arena\"\n");
    let d = refused(&source);
    assert_eq!(
        d.0[0].help.as_deref(),
        Some("did you mean `levels/arena.toml`?")
    );
}

#[test]
fn images_stay_inside_the_folder() {
    let source = game(
        "name = \"S\"\n[archetypes.a.sprite]\nshape = \"image\"\nimage = \"../secret.png\"\n[levels.main]\n",
    );
    let d = refused(&source);
    assert_eq!(d.len(), 1);
    assert!(d.0[0].message.contains("leaves the game folder"));
}

#[test]
fn a_minimal_game_loads_with_every_default() {
    let loaded = match load_game(&game("name = \"Tiny\"\n[levels.main]\n")) {
        Ok(g) => g,
        Err(d) => panic!("{}", d.render()),
    };
    let def = loaded.def;
    let defaults = ludus_core::GameDef::default();
    assert_eq!(def.tick, defaults.tick);
    assert_eq!(def.ai, defaults.ai);
    assert_eq!(def.limits, defaults.limits);
    assert_eq!(def.scripts, defaults.scripts);
    assert_eq!(def.window.title, "Tiny");
    assert_eq!(def.levels, [ludus_core::LevelDef::default()]);
    assert_eq!(loaded.files, ["game.toml"]);
}
