//! Every key's documented default is what loading a game without the key gives.
//!
//! Each table of the schema is loaded in a small game (its context) without the key, and
//! again with the key written as the reference documents its default (`rate = 60`,
//! `color = "white"`, `mass = 1`, `{}` for a table of defaults, `[]` or `{}` for an empty
//! one); the two definitions must be equal. A required key must be reported missing. A
//! default the reference describes in words is written as the value it names in that
//! context ([`DOC_VALUES`]), or listed with the reason it cannot be ([`NOT_WRITTEN`]).

use super::*;
use crate::{MemorySource, load_game};
use ludus_core::GameDef;

/// A game that holds one table: `@` marks the line the key is written on; the lines after it,
/// up to the next blank line, are the table's other keys (its required ones).
struct Context {
    table: &'static str,
    /// The keys tested here; empty: every key no other context of the table names.
    keys: &'static [&'static str],
    game: &'static str,
    /// Another file the context needs, holding `@` instead of game.toml.
    file: Option<(&'static str, &'static str)>,
}

const fn game(table: &'static str, game: &'static str) -> Context {
    Context {
        table,
        keys: &[],
        game,
        file: None,
    }
}

const fn only(table: &'static str, keys: &'static [&'static str], game: &'static str) -> Context {
    Context {
        table,
        keys,
        game,
        file: None,
    }
}

const LEVEL_FILE: &str = "one.toml";

#[rustfmt::skip]
const CONTEXTS: &[Context] = &[
    game("game.toml", "@\nname = \"T\"\nlevel_files = [\"one.toml\"]\n"),
    only("game.toml", &["level_files"], "@\nname = \"T\"\n\n[levels.one]\n"),
    game("hud lines", "name = \"T\"\n[[hud]]\n@\ntext = \"x\"\n\n[levels.one]\n"),
    game("hud images", "name = \"T\"\n[images.i]\nfile = \"i.png\"\n[[hud]]\n@\nimage = \"i\"\n\n[levels.one]\n"),
    game("hud icons", "name = \"T\"\n[images.i]\nfile = \"i.png\"\n[[hud]]\n@\nicons = \"n\"\nimage = \"i\"\nmax = 3\n\n[levels.one]\n"),
    game("hud bars", "name = \"T\"\n[[hud]]\n@\nbar = \"n\"\nmax = 3\n\n[levels.one]\n"),
    game("[tick]", "name = \"T\"\n[tick]\n@\n\n[levels.one]\n"),
    game("[ai]", "name = \"T\"\n[ai]\n@\n\n[levels.one]\n"),
    game("[limits]", "name = \"T\"\n[limits]\n@\n\n[levels.one]\n"),
    game("[window]", "name = \"T\"\n[window]\n@\n\n[levels.one]\n"),
    game("[export]", "name = \"T\"\n[export]\n@\n\n[levels.one]\n"),
    game("[flow]", "name = \"T\"\n[input.actions.pause]\nkind = \"button\"\n[input.actions.restart]\nkind = \"button\"\n[flow]\n@\n\n[levels.one]\n"),
    game("[scripts]", "name = \"T\"\n[scripts]\n@\n\n[levels.one]\n"),
    game("[physics]", "name = \"T\"\n[physics]\n@\n\n[levels.one]\n"),
    game("[input]", "name = \"T\"\n[input]\n@\n\n[levels.one]\n"),
    game("[touch]", "name = \"T\"\n[touch]\n@\n\n[levels.one]\n"),
    game("[[touch.controls]]", "name = \"T\"\n[input.actions.fire]\nkind = \"button\"\n[[touch.controls]]\n@\nkind = \"button\"\nat = \"bottom_right\"\naction = \"fire\"\n\n[levels.one]\n"),
    game("[input.actions.NAME]", "name = \"T\"\n[input.actions.fire]\n@\nkind = \"button\"\n\n[levels.one]\n"),
    game("[images.NAME]", "name = \"T\"\n[images.i]\n@\nfile = \"i.png\"\n\n[levels.one]\n"),
    game("[fonts.NAME]", "name = \"T\"\n[fonts.f]\n@\nfile = \"f.ttf\"\n\n[levels.one]\n"),
    game("[effects.NAME]", "name = \"T\"\n[effects.e]\n@\n\n[levels.one]\n"),
    game("[sounds.NAME]", "name = \"T\"\n[sounds.s]\n@\n\n[levels.one]\n"),
    game("[music.NAME]", "name = \"T\"\n[music.m]\n@\nfile = \"s.wav\"\n\n[levels.one]\n"),
    game("[stress]", "name = \"T\"\n[stress]\n@\narchetype = \"a\"\n\n[archetypes.a]\n[levels.one]\n"),
    Context {
        table: "archetype files",
        keys: &[],
        game: "name = \"T\"\narchetype_files = [\"a.toml\"]\n[levels.one]\n",
        file: Some(("a.toml", "@\n[archetypes.a]\n")),
    },
    game("[archetypes.NAME]", "name = \"T\"\n[archetypes.a]\n@\n\n[levels.one]\n"),
    game("[archetypes.NAME.bounds]", "name = \"T\"\n[archetypes.a.bounds]\n@\nrule = \"destroy\"\n\n[levels.one]\n"),
    game("[archetypes.NAME.sprite]", "name = \"T\"\n[archetypes.a.sprite]\n@\n\n[levels.one]\n"),
    only("[archetypes.NAME.sprite]", &["frame", "flip_x", "flip_y"], "name = \"T\"\n[images.i]\nfile = \"i.png\"\nframe = [8, 8]\n[archetypes.a.sprite]\n@\nimage = \"i\"\n\n[levels.one]\n"),
    game("[archetypes.NAME.label]", "name = \"T\"\n[archetypes.a.label]\n@\n\n[levels.one]\n"),
    game("[archetypes.NAME.animations.NAME]", "name = \"T\"\n[images.i]\nfile = \"i.png\"\nframe = [8, 8]\n[archetypes.a]\nsprite = { image = \"i\" }\n[archetypes.a.animations.run]\n@\nframes = [0]\n\n[levels.one]\n"),
    game("[archetypes.NAME.collider]", "name = \"T\"\nlayers = [\"l\"]\n[archetypes.a]\nsprite = { size = 8 }\n[archetypes.a.collider]\n@\nlayer = \"l\"\n\n[levels.one]\n"),
    only("[archetypes.NAME.collider]", &["size"], "name = \"T\"\nlayers = [\"l\"]\n[archetypes.a]\nsprite = { size = 8 }\n[archetypes.a.collider]\n@\nlayer = \"l\"\nshape = \"box\"\n\n[levels.one]\n"),
    game("[archetypes.NAME.health]", "name = \"T\"\n[archetypes.a.health]\n@\nmax = 3\n\n[levels.one]\n"),
    game("[archetypes.NAME.contact_damage]", "name = \"T\"\ntags = [\"t\"]\nlayers = [\"l\"]\n[archetypes.a]\ntags = [\"t\"]\ncollider = { radius = 4, layer = \"l\", mask = [\"l\"] }\nhealth = { max = 3 }\n[archetypes.a.contact_damage]\n@\nto = [\"t\"]\n\n[levels.one]\n"),
    game("[archetypes.NAME.behaviour]", "name = \"T\"\ntags = [\"t\"]\n[archetypes.a.behaviour]\n@\nkind = \"chase\"\ntarget = [\"t\"]\n\n[levels.one]\n"),
    only("[archetypes.NAME.behaviour]", &["idle"], "name = \"T\"\ntags = [\"t\"]\n[archetypes.a.behaviour]\n@\nkind = \"chase\"\ntarget = [\"t\"]\nrange = 100\n\n[levels.one]\n"),
    game("[archetypes.NAME.attach]", "name = \"T\"\ntags = [\"t\"]\n[archetypes.a.attach]\n@\nto = \"t\"\n\n[levels.one]\n"),
    game("[archetypes.NAME.control]", "name = \"T\"\n[archetypes.a.control]\n@\n\n[levels.one]\n"),
    only("[archetypes.NAME.control]", &["turn_speed", "accel"], "name = \"T\"\n[archetypes.a.control]\n@\nkind = \"thrust\"\n\n[levels.one]\n"),
    only("[archetypes.NAME.control]", &["jump_speed", "coyote", "buffer", "cut"], "name = \"T\"\n[archetypes.a.control]\n@\nkind = \"platformer\"\n\n[levels.one]\n"),
    game("[[archetypes.NAME.control.triggers]]", "name = \"T\"\n[input.actions.fire]\nkind = \"button\"\n[archetypes.a.control]\n[[archetypes.a.control.triggers]]\n@\naction = \"fire\"\n\n[levels.one]\n"),
    game("level files", "name = \"T\"\n[levels.one]\n@\n"),
    game("[tilemap]", "name = \"T\"\n[images.i]\nfile = \"i.png\"\nframe = [8, 8]\n[levels.one.tilemap]\n@\nimage = \"i\"\nrows = [\" \"]\n"),
    game("[tilemap.legend]", "name = \"T\"\n[images.i]\nfile = \"i.png\"\nframe = [8, 8]\n[levels.one.tilemap]\nimage = \"i\"\nrows = [\"#\"]\n[levels.one.tilemap.legend.\"#\"]\n@\n"),
    game("[camera]", "name = \"T\"\n[levels.one.camera]\n@\n"),
    game("[nav]", "name = \"T\"\ntags = [\"t\"]\nlayers = [\"l\"]\n[levels.one.nav]\n@\nblocking = [\"l\"]\ngoal = [\"t\"]\n"),
    game("[[place]]", "name = \"T\"\n[archetypes.a]\n[levels.one]\n[[levels.one.place]]\n@\narchetype = \"a\"\nat = [0, 0]\n"),
    game("[[spawner]]", "name = \"T\"\n[archetypes.a]\n[levels.one]\n[[levels.one.spawner]]\n@\narchetype = \"a\"\nevery = 10\n"),
    game("rect", "name = \"T\"\n[levels.one.bounds]\n@\nsize = [100, 100]\n"),
];

/// Defaults described in words, written as the value they name in the key's context.
#[rustfmt::skip]
const DOC_VALUES: &[(&str, &str, &str)] = &[
    ("game.toml", "entry", "\"one\""),
    ("[window]", "title", "\"T\""),
    ("[images.NAME]", "frame", "[32, 32]"),
    ("hud images", "size", "[32, 32]"),
    ("hud icons", "size", "[32, 32]"),
    ("[sounds.NAME]", "freq_end", "440"),
    ("[archetypes.NAME.sprite]", "shape", "\"circle\""),
    ("[archetypes.NAME.sprite]", "size", "16"),
    ("[archetypes.NAME.collider]", "radius", "4"),
    ("[archetypes.NAME.collider]", "size", "[8, 8]"),
    ("[archetypes.NAME.control]", "accel", "300"),
    ("level files", "bounds", "{ size = [800, 600] }"),
    ("[tilemap]", "tile", "[8, 8]"),
    ("[tilemap]", "origin", "[-400, -300]"),
    ("[[spawner]]", "area", "{ size = [800, 600] }"),
    ("[[spawner]]", "start", "10"),
];

/// Keys whose default is not checked by writing it, and why.
#[rustfmt::skip]
const NOT_WRITTEN: &[(&str, &str, &str)] = &[
    ("game.toml", "font", "the bundled font has no name"),
    ("hud lines", "font", "the game's font: none here, and a name needs a declared font"),
    ("[physics]", "cell", "computed when the world is built: the definition keeps `None`"),
    ("[stress]", "area", "the level's bounds are read when the level is filled: the definition keeps `None`"),
    ("archetype files", "archetypes", "the key is how a file declares archetypes: a file without it declares none and is refused"),
    ("[archetypes.NAME]", "gravity_scale", "decided by the collider when spawned: the definition keeps `None`"),
    ("[archetypes.NAME]", "angle", "writing any of `angle`, `spin`, `rotate` gives the entity a rotation (the same motion, not the same definition)"),
    ("[archetypes.NAME]", "spin", "as `angle`"),
    ("[archetypes.NAME]", "rotate", "as `angle`"),
    ("[archetypes.NAME.sprite]", "image", "required for an image sprite; no default"),
    ("[archetypes.NAME.label]", "font", "the game's font: none here, and a name needs a declared font"),
    ("[archetypes.NAME.behaviour]", "target", "required for chase and flee; no default"),
    ("[archetypes.NAME.behaviour]", "cadence", "`ai.cadence` is read at each decision: the definition keeps `None`"),
    ("level files", "name", "an inline level takes its name from its table key"),
    ("[[place]]", "velocity", "an override: absent means none, so the archetype's applies"),
    ("[[place]]", "speed", "as `velocity`"),
    ("[[place]]", "health", "as `velocity`"),
    ("[[place]]", "color", "as `velocity`"),
    ("[[place]]", "lifetime", "as `velocity`"),
    ("[[place]]", "size", "as `velocity`"),
    ("[[place]]", "text", "as `velocity`"),
    ("[[place]]", "scale", "an override: written, it gives the entity a look of that scale, drawn as one without"),
    ("[[place]]", "angle", "as `velocity`"),
    ("rect", "min", "a rect is `min` and `max`, or `size`"),
    ("rect", "max", "as `min`"),
    ("rect", "size", "as `min`"),
];

/// The value as TOML: a documented value (`` `"white"` `` shows as `"white"`), or the empty
/// array or table.
fn written(k: &KeySchema) -> Option<String> {
    match k.default {
        Dflt::Int(_)
        | Dflt::Num(_)
        | Dflt::Bool(_)
        | Dflt::Str(_)
        | Dflt::Color(_)
        | Dflt::Pair(..) => Some(k.default.describe().replace('`', "")),
        Dflt::Defaults => Some("{}".into()),
        Dflt::Empty => Some(match k.ty {
            Ty::Named(_) | Ty::Counts { .. } | Ty::Constants | Ty::Variables | Ty::Legend(_) => {
                "{}".into()
            }
            _ => "[]".into(),
        }),
        Dflt::Required | Dflt::Unset | Dflt::Doc(_) => None,
    }
}

/// The 32 x 32 PNG header content reads of an image.
fn png() -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
    b.extend_from_slice(&32u32.to_be_bytes());
    b.extend_from_slice(&32u32.to_be_bytes());
    b.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
    b
}

/// A 16-bit mono WAV file of four samples.
fn wav() -> Vec<u8> {
    let mut b = b"RIFF\0\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x22\x56\0\0\x44\xac\0\0\x02\0\x10\0data\x08\0\0\0".to_vec();
    b.extend_from_slice(&[0; 8]);
    b
}

/// Loads `c` with `line` at `@` (and without the line `drop` of the table's keys).
fn load(c: &Context, line: &str, drop: Option<&str>) -> Result<GameDef, String> {
    let fill = |text: &str| {
        let mut out = Vec::new();
        let mut after = false;
        for l in text.lines() {
            if l == "@" {
                after = true;
                out.push(line.to_string());
                continue;
            }
            after &= !l.is_empty();
            let dropped = drop.is_some_and(|k| l.starts_with(&format!("{k} =")));
            if !(after && dropped) {
                out.push(l.to_string());
            }
        }
        out.join("\n") + "\n"
    };
    let mut source = MemorySource::new()
        .with(LEVEL_FILE, b"name = \"one\"\n".to_vec())
        .with("i.png", png())
        .with("s.wav", wav())
        .with(
            "f.ttf",
            include_bytes!("../../../assets/fonts/DejaVuSansMono.ttf").to_vec(),
        );
    source.insert("game.toml", fill(c.game));
    if let Some((path, text)) = c.file {
        source.insert(path, fill(text));
    }
    match load_game(&source) {
        Ok(g) => Ok(GameDef {
            content_hash: 0,
            ..g.def
        }),
        Err(d) => Err(d.render()),
    }
}

fn tables() -> Vec<&'static TableSchema> {
    fn walk(t: &'static TableSchema, out: &mut Vec<&'static TableSchema>) {
        if out.iter().any(|s| s.title == t.title) {
            return;
        }
        out.push(t);
        for k in t.keys {
            match k.ty {
                Ty::Table(c)
                | Ty::Named(c)
                | Ty::Tables(c)
                | Ty::Legend(c)
                | Ty::ChoiceOr(_, c) => walk(c, out),
                Ty::TextsOr(cs) => cs.iter().for_each(|c| walk(c, out)),
                Ty::Rect => walk(&RECT, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for root in [&GAME, &ARCHETYPE_FILE, &LEVEL, &RECT] {
        walk(root, &mut out);
    }
    out
}

/// The first key of each table of a [`Ty::TextsOr`] array of several kinds of table (the key
/// that says which kind an entry is): (table, key).
fn kind_keys() -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    for t in tables() {
        for k in t.keys {
            if let Ty::TextsOr(cs) = k.ty
                && cs.len() > 1
            {
                out.extend(
                    cs.iter()
                        .filter_map(|c| Some((c.title, c.keys.first()?.name))),
                );
            }
        }
    }
    out
}

/// The context `key` of `t` is tested in.
fn context(t: &TableSchema, key: &str) -> &'static Context {
    let of_table = || CONTEXTS.iter().filter(|c| c.table == t.title);
    of_table()
        .find(|c| c.keys.contains(&key))
        .or_else(|| of_table().find(|c| c.keys.is_empty()))
        .unwrap_or_else(|| panic!("no context for `{}` of {}", key, t.title))
}

#[test]
fn every_documented_default_is_what_an_absent_key_loads() {
    // Every key is checked, absent-means-none, or listed in `NOT_WRITTEN`.
    let (mut checked, mut unset) = (0, 0);
    let mut wrong = Vec::new();
    for t in tables() {
        for k in t.keys {
            let c = context(t, k.name);
            let base = match load(c, "", None) {
                Ok(def) => def,
                Err(e) => {
                    wrong.push(format!("{} without `{}` must load:\n{e}", t.title, k.name));
                    continue;
                }
            };
            let doc = DOC_VALUES
                .iter()
                .find(|(title, key, _)| *title == t.title && *key == k.name);
            let skipped = NOT_WRITTEN
                .iter()
                .any(|(title, key, _)| *title == t.title && *key == k.name);
            let value = match k.default {
                Dflt::Required => {
                    // The key that makes an entry of a mixed array one kind of table: without
                    // it, the entry is of another kind or none, and refused as such.
                    let missing = if kind_keys().contains(&(t.title, k.name)) {
                        "error".to_string()
                    } else {
                        format!("missing required key `{}`", k.name)
                    };
                    match load(c, "", Some(k.name)) {
                        Err(e) if e.contains(&missing) => checked += 1,
                        other => wrong.push(format!("{} without `{}`: {other:?}", t.title, k.name)),
                    }
                    continue;
                }
                Dflt::Doc(_) if doc.is_some() == skipped => {
                    wrong.push(format!(
                        "{}.{}: described in words; list it once, in DOC_VALUES or NOT_WRITTEN",
                        t.title, k.name
                    ));
                    continue;
                }
                Dflt::Doc(_) => doc.map(|(_, _, v)| v.to_string()),
                _ if skipped => None,
                _ => written(k),
            };
            let Some(value) = value else {
                unset += usize::from(matches!(k.default, Dflt::Unset));
                continue;
            };
            let line = format!("{} = {value}", k.name);
            match load(c, &line, None) {
                Ok(with) if with == base => checked += 1,
                Ok(_) => wrong.push(format!(
                    "{}: `{line}` (the documented default) loads differently from no `{}`",
                    t.title, k.name
                )),
                Err(e) => wrong.push(format!("{}: `{line}` must load:\n{e}", t.title)),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let keys: usize = tables().iter().map(|t| t.keys.len()).sum();
    assert_eq!(
        checked + unset + NOT_WRITTEN.len(),
        keys,
        "every key accounted for"
    );
    assert!(checked > 120, "{checked} of {keys} keys checked");
}

/// The lists above name only keys there are, so none outlives its key.
#[test]
fn the_exceptions_name_real_keys() {
    let tables = tables();
    let has = |title: &str, key: &str| {
        tables
            .iter()
            .any(|t| t.title == title && t.key(key).is_some())
    };
    for (title, key, _) in DOC_VALUES.iter().chain(NOT_WRITTEN) {
        assert!(has(title, key), "{title}.{key}");
    }
    for c in CONTEXTS {
        assert!(tables.iter().any(|t| t.title == c.table), "{}", c.table);
        for key in c.keys {
            assert!(has(c.table, key), "{}.{key}", c.table);
        }
    }
}
