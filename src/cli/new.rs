//! `ludus new NAME`: a new game folder from a small template that teaches by its comments.
//!
//! The folder's name is the game's `name` in game.toml, written as a TOML string with every
//! character that needs it escaped (quotes, backslashes, line breaks, control characters), so
//! any name a folder can have gives a game that checks and runs. A name with no character but
//! spaces is refused (a game's name must show), and so is a path that names no new folder
//! (`.`, `..`, `/`).
//!
//! The folder comes with its editor set-up (`cli/editor`): the Lua stubs with the template's
//! names, the TOML schemas, and a `#:schema` line at the top of each TOML file that names its
//! schema.

use crate::cli::editor;
use ludus_content::SchemaFile;
use std::io::Write;
use std::path::Path;

const GAME: &str = r##"# A Ludus game is a folder: this file declares it, levels place things, scripts react.
# Every key is documented in docs/content.md; `ludus check .` validates the folder.
name = {name}
seed = 1                               # the world's random generator starts here
tags = ["player", "gem"]               # labels scripts can test with ludus.has(tags, "gem")
layers = ["body"]                      # collision layers
level_files = ["levels/main.toml"]
hud = ["score {score}"]                # {score}, {tick} and {any_variable} are filled in

[tick]
rate = 60                              # simulation ticks per second

[scripts]
files = ["scripts/main.lua"]

# Input: actions, and the keys that drive them. An axis sums its keys' values.
[input.actions.move_x]
kind = "axis"
keys = { a = -1, d = 1, left = -1, right = 1 }

[input.actions.move_y]
kind = "axis"
keys = { w = -1, s = 1, up = -1, down = 1 }

[effects.sparkle]
color = "#ffd166"
particles = 14

[sounds.ding]
wave = "sine"
freq = 660
freq_end = 990

# An archetype is a kind of entity: the components it starts with.
[archetypes.player]
tags = ["player"]
speed = 200                            # units per second when a move axis is fully on
camera = true                          # the camera follows it
bounds = "confine"                     # stays inside the level
sprite = { shape = "circle", size = 24, color = "#4cc9f0" }
collider = { layer = "body", mask = ["body"] }   # reports contacts with other bodies

[archetypes.player.control]
move_x = "move_x"
move_y = "move_y"

[archetypes.gem]
tags = ["gem"]
sprite = { shape = "rect", size = 14, color = "#ffd166" }
collider = { layer = "body", trigger = true }    # a trigger: overlapping it raises on_trigger_enter
"##;

const LEVEL: &str = r##"# A level: its bounds, what is placed, what spawns.
name = "main"
bounds = { size = [800, 600] }
background = "#141824"

[[place]]
archetype = "player"
at = [0, 0]

[[place]]
archetype = "gem"
at = [150, -80]

[[spawner]]
archetype = "gem"        # a new gem somewhere in the level every two seconds
every = 120
count = 1
"##;

const SCRIPT: &str = r##"-- Scripts react to events with commands; they never touch the world directly.
-- Every handler gets all events of its kind for the tick (see docs/scripting.md).

function on_start(info)
  ludus.log("welcome to " .. info.level)
end

-- A trigger was entered: `a` is the trigger (the gem), `b` what entered it.
function on_trigger_enter(events)
  for _, e in ipairs(events) do
    if e.a_kind == "gem" and e.b_kind == "player" then
      ludus.add_score(1)
      ludus.effect("sparkle", e.ax, e.ay)
      ludus.sound("ding")
      ludus.destroy(e.a)
    end
  end
end
"##;

const TEST: &str = r##"# A test: `ludus test .` plays the input below headless and checks how the run ends
# (see docs/headless.md). `ludus test --bless .` writes the run's `tick` and state `hash` here,
# pinning the run down exactly.
input = "tests/gem.jsonl"   # per-tick input, as `ludus sim --input` reads it
ticks = 600                 # at most this many ticks

[expect]
game_over = false           # the game is still on
score = 1                   # the first gem was picked up
count.player = 1
"##;

/// The test's input: from the first tick the player heads up and right, to the first gem.
const TEST_INPUT: &str = r#"{"tick":1,"axis":{"move_x":1,"move_y":-0.5}}
"#;

/// Creates the folder; returns the exit code: 1 when it exists or cannot be written, 2 when
/// its name cannot name a game.
pub fn create(dir: &Path) -> i32 {
    let name = match game_name(dir) {
        Ok(name) => name,
        Err(e) => {
            eprintln!("ludus: {e}");
            return 2;
        }
    };
    if let Err(e) = make_folder(dir) {
        eprintln!("ludus: {e}");
        return 1;
    }
    let game = GAME.replace("{name}", &toml_string(&name));
    let level = LEVEL.to_string();
    let files = [
        ("game.toml", with_schema(SchemaFile::Game, 0, &game)),
        (
            "levels/main.toml",
            with_schema(SchemaFile::Level, 1, &level),
        ),
        ("scripts/main.lua", SCRIPT.to_string()),
        ("tests/gem.toml", TEST.to_string()),
        ("tests/gem.jsonl", TEST_INPUT.to_string()),
    ];
    for (path, text) in files {
        let full = dir.join(path);
        // The folder is new: nothing in it is replaced.
        let made = full
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|_| {
                std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&full)
            })
            .and_then(|mut f| f.write_all(text.as_bytes()));
        if let Err(e) = made {
            eprintln!("ludus: cannot write {}: {e}", full.display());
            return 1;
        }
    }
    if let Err(e) = editor_files(dir) {
        eprintln!("ludus: {e}");
        return 1;
    }
    let shown = shell_word(dir);
    println!(
        "created {}: play it with `ludus run {shown}`, validate it with `ludus check {shown}`, test it with `ludus test {shown}`",
        dir.display(),
    );
    0
}

/// A TOML file's text after the `#:schema` line of its kind (it is `depth` folders below the
/// game folder).
fn with_schema(file: SchemaFile, depth: usize, text: &str) -> String {
    format!("{}\n{text}", editor::schema_line(file, depth))
}

/// Writes the editor set-up of the new game, with its names.
fn editor_files(dir: &Path) -> Result<(), String> {
    let loaded = ludus_content::load_dir(dir).map_err(|d| {
        format!("the template does not load, so its editor files are not written:\n{d}")
    })?;
    editor::write(dir, &loaded.def).map(|_| ())
}

/// The game's name: the folder's, as text (a name that is not UTF-8 with `U+FFFD` for what is
/// not); an error a person can act on when it cannot name a game.
fn game_name(dir: &Path) -> Result<String, String> {
    let Some(name) = dir.file_name() else {
        return Err(format!(
            "`{}` names no new folder: give the new game's folder a name, such as `my_game`",
            dir.display()
        ));
    };
    let name = name.to_string_lossy().into_owned();
    if name.trim().is_empty() {
        return Err(format!(
            "{name:?} is only spaces; a game's name (its folder's) must show: choose a name \
             with a letter or digit, such as `my_game`"
        ));
    }
    Ok(name)
}

/// Creates `dir`'s parents and `dir` itself, which must not exist (not even as a link).
fn make_folder(dir: &Path) -> Result<(), String> {
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::create_dir(dir).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => {
            format!("{} already exists; choose a new folder name", dir.display())
        }
        _ => format!("cannot create {}: {e}", dir.display()),
    })
}

/// `text` as a TOML basic string, quotes included: `"`, `\` and every control character
/// escaped.
fn toml_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `path` as one word a POSIX shell reads back as the same path (for the hint printed): as it
/// is when it has only plain characters, else in single quotes; `./` before a leading `-` so
/// that it is not read as an option.
fn shell_word(path: &Path) -> String {
    let text = path.display().to_string();
    let text = if text.starts_with('-') {
        format!("./{text}")
    } else {
        text
    };
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./+,:@%".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        return text;
    }
    format!("'{}'", text.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use tempfile::TempDir;

    /// A fresh folder `ludus-NAME-…`, removed when the returned guard drops (at the test's end,
    /// passed or failed).
    fn scratch(name: &str) -> TempDir {
        tempfile::Builder::new()
            .prefix(&format!("ludus-{name}-"))
            .tempdir()
            .unwrap()
    }

    #[test]
    fn the_template_passes_validation_and_runs() {
        let tmp = scratch("new");
        let dir = tmp.path().join("my_game");
        assert_eq!(create(&dir), 0);
        assert_eq!(create(&dir), 1, "an existing folder is refused");
        let project = crate::runtime::project::Project::from_folder(&dir)
            .expect("the template is valid content");
        let mut game = project.start(0).expect("the template's scripts load");
        for _ in 0..600 {
            game.step(&ludus_core::TickInput::neutral())
                .expect("the template runs");
        }
        assert!(game.world().entity_count() >= 2);
    }

    /// The new game has its editor set-up, and each TOML file's `#:schema` line names a schema
    /// file there, from the file's own folder.
    #[test]
    fn the_template_comes_with_its_editor_files() {
        let tmp = scratch("new-editor");
        let dir = tmp.path().join("my_game");
        assert_eq!(create(&dir), 0);
        assert!(editor::kept(&dir), "the stubs are written");
        let project = crate::runtime::project::Project::from_folder(&dir).expect("valid");
        for (path, text) in editor::files(&project.def) {
            let written = std::fs::read_to_string(dir.join(&path)).unwrap_or_default();
            assert!(written == text, "{} is written as made", path.display());
        }
        // (file, its schema line, the schema it names)
        let cases = [
            (
                "game.toml",
                "#:schema .ludus/game.schema.json",
                SchemaFile::Game,
            ),
            (
                "levels/main.toml",
                "#:schema ../.ludus/level.schema.json",
                SchemaFile::Level,
            ),
        ];
        for (file, line, schema) in cases {
            let text = std::fs::read_to_string(dir.join(file)).unwrap();
            assert_eq!(
                text.lines().next(),
                Some(line),
                "{file} starts with its schema"
            );
            let named = dir
                .join(file)
                .parent()
                .unwrap()
                .join(&line["#:schema ".len()..]);
            let named: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&named).unwrap()).unwrap();
            assert_eq!(named, ludus_content::json_schema(schema), "{file}'s schema");
        }
    }

    /// Every name a folder can have makes a game that checks and runs, named exactly so in
    /// game.toml; a name that is only spaces or names no folder is refused.
    #[test]
    fn any_folder_name_makes_a_game_that_checks_and_runs() {
        let tmp = scratch("new-names");
        let root = tmp.path();
        let long = "n".repeat(255);
        let names = [
            "two\nlines",
            "say \"hi\"",
            "back\\slash\\",
            "tab\tand\rreturn",
            "bell\u{7}escape\u{1b}[31mdel\u{7f}c1\u{85}",
            "-dash",
            "--",
            "it's",
            "{name} {score}",
            "'''triple'''",
            "\"\"\"",
            " spaced ",
            "ünïcödé 名前 🎮",
            "#comment = 1",
            long.as_str(),
        ];
        for name in names {
            let dir = root.join(name);
            assert_eq!(create(&dir), 0, "{name:?} is created");
            assert_eq!(
                crate::cli::check::check(&dir, crate::cli::check::Format::Text),
                0,
                "{name:?} checks"
            );
            let project =
                crate::runtime::project::Project::from_folder(&dir).expect("valid content");
            assert_eq!(project.def.name, name, "game.toml names the game {name:?}");
            let mut game = project.start(0).expect("its scripts load");
            for _ in 0..60 {
                game.step(&ludus_core::TickInput::neutral())
                    .unwrap_or_else(|f| panic!("{name:?} runs: {f}"));
            }
        }
        let refused = [
            (root.join("   "), "is only spaces"),
            (root.join("\t"), "is only spaces"),
            (root.join(".."), "names no new folder"),
            (PathBuf::from("."), "names no new folder"),
            (PathBuf::from("/"), "names no new folder"),
        ];
        for (dir, says) in refused {
            assert_eq!(create(&dir), 2, "{dir:?} is refused");
            let e = game_name(&dir).expect_err("refused");
            assert!(e.contains(says), "{dir:?}: {e}");
        }
        assert_eq!(
            create(&root.join(&long)),
            1,
            "an existing folder is refused"
        );
        let too_long = root.join("n".repeat(256));
        assert_eq!(create(&too_long), 1, "a name the file system refuses");
    }

    #[test]
    fn names_are_written_as_toml_strings_and_shell_words() {
        let strings = [
            ("plain", r#""plain""#),
            ("a\"b\\c", r#""a\"b\\c""#),
            ("two\nlines\r\t", r#""two\nlines\r\t""#),
            ("\u{0}\u{1b}\u{7f}\u{85}", r#""\u0000\u001B\u007F\u0085""#),
            ("é 名", r#""é 名""#),
        ];
        for (text, toml) in strings {
            assert_eq!(toml_string(text), toml, "{text:?}");
        }
        let words = [
            ("my_game", "my_game"),
            ("games/my-game.v2", "games/my-game.v2"),
            ("-dash", "./-dash"),
            ("two words", "'two words'"),
            ("it's", r"'it'\''s'"),
            ("two\nlines", "'two\nlines'"),
            ("$HOME", "'$HOME'"),
        ];
        for (path, word) in words {
            assert_eq!(shell_word(Path::new(path)), word, "{path:?}");
        }
    }
}
