//! The authoring reference, generated from the schema: `docs/content.md`.

use crate::key::{Key, PadControl, PadSlot};
use crate::schema::{self, KeySchema, TableSchema, Ty};
use ludus_core::Color;

/// A complete small game: the reference shows it, and a test loads it.
pub(crate) const EXAMPLE: &[(&str, &str)] = &[
    (
        "game.toml",
        r##"name = "Dodge"
seed = 42
tags = ["player", "enemy", "shot"]
layers = ["ships", "shots"]
level_files = ["levels/arena.toml"]
hud = ["score {score}"]

[tick]
rate = 60

[scripts]
files = ["scripts/main.lua"]

[constants]
lives = 3

[input.actions.move_x]
kind = "axis"
keys = { a = -1, d = 1, left = -1, right = 1 }

[input.actions.move_y]
kind = "axis"
keys = { w = -1, s = 1, up = -1, down = 1 }

[input.actions.fire]
kind = "button"
keys = ["space"]

[effects.pop]
color = "#ffd166"
particles = 16

[sounds.shoot]
wave = "square"
freq = 880
freq_end = 440

[archetypes.player]
tags = ["player"]
speed = 220
camera = true
bounds = "confine"
cooldowns = { shoot = 10 }
sprite = { shape = "circle", size = 20, color = "#4cc9f0" }
collider = { layer = "ships", mask = ["ships"] }
health = { max = 3, invulnerable = 60 }

[archetypes.player.control]
move_x = "move_x"
move_y = "move_y"
triggers = [{ action = "fire", on = "hold", cooldown = "shoot" }]

[archetypes.shot]
tags = ["shot"]
velocity = [0, -400]
lifetime = 90
bounds = "destroy"
sprite = { shape = "rect", size = [4, 10], color = "white" }
collider = { layer = "shots", mask = ["ships"], trigger = true }

[archetypes.drone]
tags = ["enemy"]
speed = 90
sprite = { size = 16, color = "red" }
collider = { layer = "ships", push = ["ships"] }
health = { max = 1 }
behaviour = { kind = "chase", target = ["player"], cadence = 5 }
"##,
    ),
    (
        "levels/arena.toml",
        r##"name = "arena"
bounds = { size = [800, 600] }
background = "#101018"

[[place]]
archetype = "player"
at = [0, 200]

[[spawner]]
archetype = "drone"
every = 120
count = 3
area = { min = [-400, -300], max = [400, -250] }
"##,
    ),
    (
        "scripts/main.lua",
        r##"-- Handlers receive every event of their kind at once and answer with commands.
function on_collision_enter(events)
  for _, e in ipairs(events) do
    if e.a_kind == "drone" and e.b_kind == "player" then
      ludus.damage(e.b, 1)
      ludus.destroy(e.a)
    end
  end
end
"##,
    ),
];

/// The authoring reference in Markdown: every table and key with its type, default, allowed
/// values and an example, after a complete small game. `docs/content.md` is this text.
pub fn reference_markdown() -> String {
    let mut out = String::new();
    out.push_str(INTRO);
    out.push_str("\n## A complete small game\n\n");
    for (path, text) in EXAMPLE {
        let lang = if path.ends_with(".lua") {
            "lua"
        } else {
            "toml"
        };
        out.push_str(&format!("`{path}`:\n\n```{lang}\n{text}```\n\n"));
    }
    out.push_str(CONVENTIONS);
    out.push_str(&colours());
    out.push_str(CONVENTIONS_AFTER_COLOURS);
    out.push('\n');
    out.push_str(&file_limits());
    out.push('\n');
    table(&mut out, &schema::RECT, 3);

    // Archetypes and levels have sections of their own.
    let mut seen: Vec<&str> = vec![schema::ARCHETYPE.title, schema::LEVEL.title];
    out.push_str("## game.toml\n\n");
    body(&mut out, &schema::GAME, 3, &mut seen);

    out.push_str("## Archetypes\n\n");
    out.push_str(schema::ARCHETYPE_FILE.doc);
    out.push_str("\n\n");
    section(&mut out, &schema::ARCHETYPE, 3, &mut seen);

    out.push_str("## Levels\n\n");
    body(&mut out, &schema::LEVEL, 3, &mut seen);

    out.push_str("## Key names\n\n");
    out.push_str("The names `keys` of an action may use:\n\n");
    let names: Vec<String> = Key::board()
        .iter()
        .map(|k| format!("`{}`", k.name()))
        .collect();
    out.push_str(&names.join(" "));
    out.push_str("\n\n");
    out.push_str(&pad_keys());
    let shown: Vec<String> = [
        "a",
        "f3",
        "left_shift",
        "up",
        "mouse_left",
        "pad_a",
        "pad2_start",
    ]
    .iter()
    .filter_map(|n| Key::from_name(n))
    .map(|k| format!("`{}` as {}", k.name(), k.shown()))
    .collect();
    out.push_str(&format!(
        "\nThe window's help line and banners (\"... to restart\") write keys as a player reads \
         them: {}.\n",
        shown.join(", ")
    ));
    out
}

/// The pads' part of the key names: their buttons and axes, and how a key names one pad.
fn pad_keys() -> String {
    let of = |axis: bool| {
        let names: Vec<String> = PadControl::ALL
            .iter()
            .filter(|c| c.is_axis() == axis)
            .map(|c| format!("`{}`", Key::Pad(PadSlot::Any, *c).name()))
            .collect();
        names.join(" ")
    };
    format!(
        "Gamepads, in the standard layout (`pad_a` is the bottom button of the four, `pad_b` the \
         right, `pad_x` the left, `pad_y` the top; `lb`/`rb` the bumpers, `lt`/`rt` the \
         triggers pressed as buttons, `up`/`down`/`left`/`right` the d-pad, `lstick`/`rstick` \
         the sticks pressed in):\n\n{}\n\nTheir axes, for axis actions, with a scale as keys \
         have (`keys = {{ pad_lx = 1 }}`): the sticks from -1 to 1, right and down positive as \
         in the world; the triggers from 0 to 1. A value nearer rest than `[input] deadzone` \
         reads 0. Bound to a button action, an axis holds it while off rest.\n\n{}\n\n\
         `pad_NAME` is any pad (of several, the axis farthest from rest); `pad1_NAME` to \
         `pad{}_NAME` one pad, numbered in the order pads connect: a pad that reconnects keeps \
         its number, and a fifth has none (it drives `pad_NAME`). A pad that disconnects \
         cancels what it held, as focus loss does for keys.\n",
        of(false),
        of(true),
        PadSlot::NUMBERED
    )
}

/// A table under a heading of `level`, then every table below it not shown yet.
fn section(out: &mut String, t: &'static TableSchema, level: usize, seen: &mut Vec<&'static str>) {
    seen.push(t.title);
    table(out, t, level);
    children(out, t, level + 1, seen);
}

/// A table's description and keys without a heading (the section's own), then the tables below
/// it under headings of `level`.
fn body(out: &mut String, t: &'static TableSchema, level: usize, seen: &mut Vec<&'static str>) {
    seen.push(t.title);
    out.push_str(t.doc);
    out.push_str("\n\n");
    keys(out, t);
    children(out, t, level, seen);
}

fn children(out: &mut String, t: &'static TableSchema, level: usize, seen: &mut Vec<&'static str>) {
    for k in t.keys {
        let below: &[&'static TableSchema] = match &k.ty {
            Ty::Table(c) | Ty::Named(c) | Ty::Tables(c) | Ty::Legend(c) | Ty::ChoiceOr(_, c) => {
                std::slice::from_ref(c)
            }
            Ty::TextsOr(cs) => cs,
            _ => &[],
        };
        for c in below {
            if !seen.contains(&c.title) {
                section(out, c, level, seen);
            }
        }
    }
}

/// A heading, the table's description and its keys.
fn table(out: &mut String, t: &TableSchema, depth: usize) {
    out.push_str(&format!("{} `{}`\n\n", "#".repeat(depth.min(6)), t.title));
    out.push_str(t.doc);
    out.push_str("\n\n");
    keys(out, t);
}

fn keys(out: &mut String, t: &TableSchema) {
    out.push_str("| Key | Type | Default | Allowed | Meaning | Example |\n");
    out.push_str("| --- | --- | --- | --- | --- | --- |\n");
    for k in t.keys {
        out.push_str(&row(k));
    }
    out.push('\n');
}

fn row(k: &KeySchema) -> String {
    let ty = if k.unit.is_empty() {
        k.ty.describe()
    } else {
        format!("{} ({})", k.ty.describe(), k.unit)
    };
    format!(
        "| `{}` | {} | {} | {} | {} | `{}` |\n",
        k.name,
        ty,
        k.default.describe(),
        k.ty.range(),
        k.doc,
        k.example
    )
}

/// What is bounded in the files a game names, from the limits the loader and the decoders
/// enforce.
/// The colours bullet of the conventions: the grammar of `ludus_core::Color`, with its names
/// (a second name of the same colour in parentheses).
fn colours() -> String {
    let mut names = String::new();
    let mut previous: Option<Color> = None;
    for (name, colour) in Color::NAMES {
        if previous == Some(colour) {
            names.push_str(&format!(" (`{name}`)"));
        } else {
            let comma = if previous.is_some() { ", " } else { "" };
            names.push_str(&format!("{comma}`{name}`"));
        }
        previous = Some(colour);
    }
    format!(
        "- **Colours** are `\"#rgb\"`, `\"#rrggbb\"` or `\"#rrggbbaa\"` (hexadecimal digits; the `#` may \
         be left out),\n  or a name, in any case: {names}.\n"
    )
}

fn file_limits() -> String {
    use crate::disk::size_text;
    use crate::files::{MAX_DECODED_BYTES, MAX_GAME_BYTES};
    use ludus_decode::*;
    let mib = |b: u64| size_text(b);
    format!(
        "## File limits

Every bound on a game's files is checked before anything of the size a file declares is
allocated or decoded: a file past one is an error naming the file, the limit and what the file
declares, never a crash, a hang or memory without bound (`ludus check` reports them all).

- **Each file** is at most {file}, and **all the game's files** together at most {game}. Each
  file is read and checked **once**, however many declarations name it: they share its bytes,
  and a file refused is reported at the first declaration.
- **Images** (PNG) are at most {side} x {side} pixels, read from the file's header before any
  pixel is decoded.
- **Sounds** (WAV, OGG Vorbis) are mono or stereo, from 8000 to 192000 Hz, and at most
  {seconds} seconds: a WAV file's data chunk is its length; an OGG file plays at most the length
  its last page declares (the longest is cut at {seconds} seconds). An OGG file is whole pages
  with correct checksums holding one stream at a time (a chain of streams of the same rate and
  channels is allowed); its comment header is not read, and its setup headers' codebooks may
  declare at most {entries} entries and {values} vector values in all.
- **Fonts** (TrueType, OpenType) are loaded for the characters Ludus draws (printable ASCII and
  Latin-1); their kerning and glyph substitution tables are not read, and at most {subtables}
  character map subtables are. The outline of each of those glyphs may visit at most {points}
  points (composite parts count once per use) or take as many charstring steps (subroutine
  calls count each time), all of them together {outline}; they may make at most {lines} lines
  once curves are flattened, and reach at most {ems} ems from a glyph's origin. Variable fonts
  with CFF2 outlines are not supported.
- **Tile maps** hold at most {tiles} cells (4096 x 4096).
- **Decoded total**: the game's images, sounds, fonts and tile maps together take at most
  {decoded} once decoded. Each image file counts 4 bytes a texel of its pixels and of the
  one-texel border it is packed with, once per filter it is drawn with; each `[sounds]` entry
  with a file 2 bytes a sample of each channel for the length the file declares (the player
  keeps a copy per entry; `[music]` streams and does not count); each font file what the
  rasteriser keeps of it (96 bytes a glyph, 64 a line of the outlines it draws), once whatever
  sizes it is declared at; each tile map 6 bytes a cell, plus its CSV file's size. The
  declaration that would pass the total is the error.
",
        file = mib(crate::MAX_FILE_BYTES as u64),
        game = mib(MAX_GAME_BYTES),
        side = MAX_IMAGE_SIDE,
        seconds = MAX_SECONDS,
        entries = MAX_CODEBOOK_ENTRIES,
        values = MAX_VQ_VALUES,
        subtables = MAX_SUBTABLES,
        points = MAX_GLYPH_POINTS,
        outline = MAX_OUTLINE_POINTS,
        lines = MAX_LINES,
        ems = MAX_EMS,
        tiles = crate::tilemap::MAX_TILES,
        decoded = mib(MAX_DECODED_BYTES),
    )
}

const INTRO: &str = "# Ludus content reference

<!-- Generated by `ludus_content::reference_markdown()` from the schema in
content/src/schema.rs; a test fails when this file differs. Regenerate it with
`LUDUS_BLESS=1 cargo test -p ludus-content --test reference`. -->

A Ludus game is a folder. `game.toml` at its top declares the game: its settings, tags,
collision layers, input actions, effects and sounds, and lists the other files: archetype
files (kinds of entity), level files and Lua scripts. `ludus check GAME_DIR` reads everything
and reports every problem it finds, each as `file:line:column` with the offending line.

`ludus schema` prints the JSON Schema of `game.toml` (`ludus schema level`, `ludus schema
archetypes`: of a level file, of an archetype file), made from the same schema as this
reference: an editor that reads it (Even Better TOML, through a `#:schema` line at the top of
the file) completes every key below with its documentation and flags unknown keys, wrong types
and values out of range as you type. See [editors.md](editors.md).
";

const CONVENTIONS: &str = "## Conventions

- **Every key is optional** unless its default says *required*; absent keys take the default
  shown. An unknown key is an error (with a suggestion when it looks like a typo), so a
  misspelt key never silently does nothing.
- **Top-level keys come first.** In TOML, every key after a `[table]` header belongs to that
  table.
- **Names** (of tags, layers, actions, archetypes, levels, cooldowns, effects, sounds and
  constants) are 1 to 64 characters: ASCII letters, digits, `_` and `-`. Each is declared once;
  a name used before it is declared anywhere is an error.
- **Paths** are relative to the game folder (not to the file that names them), use `/`, and
  may not leave the folder: no absolute paths, no `..` above the top, no `\\`. Every content
  file (and every module `require` loads) is a regular file at most 8 MiB, UTF-8, and not
  empty; a symbolic link is followed only while it stays inside the game folder, and named
  pipes, devices and folders are refused unread.
- **Numbers** may be written as integers or floats where a number is expected; an integer is
  required where the type says so. `nan` and `inf` are never accepted.
";

/// The conventions after [`colours`].
const CONVENTIONS_AFTER_COLOURS: &str = "- **Points and pairs** (`[x, y]`, `[w, h]`) are arrays of exactly two numbers. A **size** is one
  number (a square) or `[w, h]`.
- **Rects** are tables, either `{ min = [x, y], max = [x, y] }` (each coordinate of `min` below
  that of `max`) or `{ size = [w, h] }`, centred on the origin.
- **Diagnostics** give 1-based lines and columns; columns count characters, not bytes.
";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MemorySource, load_game};

    #[test]
    fn the_example_game_loads() {
        let mut source = MemorySource::new();
        for (path, text) in EXAMPLE {
            source.insert(*path, text.as_bytes());
        }
        if let Err(e) = load_game(&source) {
            panic!("the reference's example must load:\n{}", e.render());
        }
    }

    #[test]
    fn every_key_is_documented() {
        let doc = reference_markdown();
        for t in [
            &schema::GAME,
            &schema::ARCHETYPE,
            &schema::LEVEL,
            &schema::SPRITE,
            &schema::RECT,
        ] {
            for k in t.keys {
                assert!(
                    doc.contains(&format!("| `{}` |", k.name)),
                    "{} {}",
                    t.title,
                    k.name
                );
            }
        }
    }
}
