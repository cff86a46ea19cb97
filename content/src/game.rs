//! Loading a game folder: game.toml first (settings, tags, layers, actions, effects, sounds,
//! inline archetypes and levels), then the archetype files, the level files and the scripts in
//! the order they are listed; names across files are resolved once everything is read.

use crate::actions;
use crate::archetype::{self, Scope};
use crate::diagnostic::Diagnostics;
use crate::files::{FileKind, Files, Read};
use crate::fonts::Fonts;
use crate::images::Images;
use crate::key::Key;
use crate::level::{self, RawLevel};
use crate::parse::parse_toml;
use crate::presentation;
use crate::report::{Loc, Report};
use crate::schema;
use crate::settings;
use crate::source::FileSource;
use crate::symbols::Symbols;
use crate::table::Table;
use crate::value::Named;
use ludus_core::{ArchetypeDef, GameDef, HudItem, MAX_LAYERS, MAX_TAGS, StressDef};
use std::collections::HashMap;

/// Archetype ids are `u16`.
const MAX_ARCHETYPES: usize = u16::MAX as usize;

/// A game definition and what it was built from.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedGame {
    pub def: GameDef,
    /// Every content file read (TOML, Lua, images), relative to the game folder, in reading
    /// order: the files [`GameDef::content_hash`] covers.
    pub files: Vec<String>,
    /// Every script, in load order: its path and its text.
    pub scripts: Vec<(String, String)>,
    /// The bytes of every image, sound and font file the game uses, by path, each once:
    /// exactly the bytes that were checked.
    pub assets: std::collections::BTreeMap<String, std::sync::Arc<[u8]>>,
    /// The names the HUD reads that the content does not declare, for `ludus check`.
    pub hud_names: Vec<crate::HudName>,
}

/// What the program loading a game keeps for itself, which the game may not use.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadOptions<'a> {
    /// Keys the program handles itself, each with what it does: they never reach the game, so
    /// binding one is an error that says what the key does.
    pub reserved_keys: &'a [(Key, &'a str)],
}

/// Loads the game whose folder `source` reads. Diagnostics name files relative to the game
/// folder.
pub fn load_game(source: &dyn FileSource) -> Result<LoadedGame, Diagnostics> {
    load_game_with(source, &LoadOptions::default())
}

/// [`load_game`] for a program that keeps what `options` say.
pub fn load_game_with(
    source: &dyn FileSource,
    options: &LoadOptions<'_>,
) -> Result<LoadedGame, Diagnostics> {
    load(source, "", options)
}

/// Loads the game in folder `path`. Diagnostics name files as `path` was given, e.g.
/// `examples/swarm/game.toml:3:7`.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_dir(path: &std::path::Path) -> Result<LoadedGame, Diagnostics> {
    load_dir_with(path, &LoadOptions::default())
}

/// [`load_dir`] for a program that keeps what `options` say.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_dir_with(
    path: &std::path::Path,
    options: &LoadOptions<'_>,
) -> Result<LoadedGame, Diagnostics> {
    let source = crate::source::DirSource::new(path);
    load(&source, &path.display().to_string(), options)
}

/// Archetypes as they are declared, in id order.
struct Archetypes {
    names: Symbols,
    defs: Vec<ArchetypeDef>,
    /// Archetypes whose static collider has no size (see
    /// [`ArchetypeDef::sized_by_tiles`]): by index, with where the collider is written.
    sizeless: Vec<(usize, Loc)>,
    /// Archetypes that do contact damage: by index, with where `contact_damage` is written.
    hurting: Vec<(usize, Loc)>,
}

/// Loads a game: game.toml's settings and declarations, then the listed archetype, level and
/// script files, then the names that cross files (levels, the entry level, the stress
/// archetype). Every problem is collected; nothing is returned unless there is none.
fn load(
    source: &dyn FileSource,
    root: &str,
    options: &LoadOptions<'_>,
) -> Result<LoadedGame, Diagnostics> {
    let mut r = Report::new(root);
    let mut files = Files::new(source);
    let Some((gfile, text)) = files.read_game(&mut r) else {
        return Err(r.finish());
    };
    let Some(tree) = parse_toml(&mut r, gfile, &text) else {
        return Err(r.finish());
    };
    let game = Table::root(&mut r, gfile, &tree, &schema::GAME);
    let mut def = GameDef::default();
    let script_paths = read_settings(&mut r, &game, &mut def);
    let tags = declare(
        &mut r,
        &game,
        "tags",
        "tag",
        MAX_TAGS,
        "add it to `tags` in game.toml",
    );
    let layers = declare(
        &mut r,
        &game,
        "layers",
        "layer",
        MAX_LAYERS,
        "add it to `layers` in game.toml",
    );
    let actions = actions::read(&mut r, &game, options.reserved_keys);
    def.flow = settings::flow(&mut r, &game, &actions);
    def.touch = crate::touch::read(&mut r, &game, &actions);
    def.effects = presentation::effects(&mut r, &game);
    def.sounds = presentation::sounds(&mut r, &game, &mut files);
    def.music = presentation::music(&mut r, &game, &mut files);
    let lists = FileLists::read(&mut r, &game, script_paths);
    let mut images = Images::read(&mut r, &game, &mut files);
    // Fonts may be cut from images, so they are read after them.
    let mut fonts = Fonts::read(&mut r, &game, &mut files, &images);
    let hud = crate::hud::read(&mut r, &game, &fonts, &images, &def);
    let hud_names = hud.names;
    def.hud = hud.items;
    def.export = crate::export::read(&mut r, &game);
    def.font = fonts.key(&mut r, &game);
    let scope = Scope {
        tags: &tags,
        layers: &layers,
        actions: &actions,
        fonts: &fonts,
    };
    let archetypes = read_archetypes(&mut r, &game, &lists, &scope, &mut files, &mut images);
    let (raw_levels, levels_complete) =
        read_levels(&mut r, &game, &lists, &tags, &layers, &mut files);
    let scripts = read_scripts(&mut r, &lists.scripts, &mut files, &mut def);
    unsized_colliders(&mut r, &archetypes, &raw_levels);
    untouched_contact_damage(&mut r, &archetypes);
    let level_names = resolve_levels(
        &mut r,
        raw_levels,
        levels_complete,
        &archetypes,
        &images,
        &mut def,
    );
    if !lists.declared_levels {
        r.error(game.loc, "the game has no levels")
            .help("list level files in `level_files = [\"levels/arena.toml\"]`, or add a `[levels.NAME]` table");
    }
    if let Some(entry) = game.name(&mut r, "entry", "level")
        && let Some(i) = level_names.resolve(&mut r, &entry)
    {
        def.entry_level = i;
    }
    def.images = images.list;
    def.fonts = std::mem::take(&mut fonts.list);
    def.stress = read_stress(&mut r, &game, &archetypes);
    def.archetypes = archetypes.defs;
    text_and_fonts(&mut def);
    def.actions = actions.set;
    def.bindings = actions.bindings;
    def.bindable_keys = bindable(options.reserved_keys);
    def.deadzone = actions.deadzone;
    def.tags = tags.names().map(str::to_string).collect();
    def.layers = layers.names().map(str::to_string).collect();

    if r.count() > 0 {
        return Err(r.finish());
    }
    def.content_hash = files.hash();
    Ok(LoadedGame {
        def,
        files: files.paths(),
        scripts,
        assets: files.binary(),
        hud_names,
    })
}

/// The levels read, their archetype names resolved, into `def.levels`; and their names, for
/// the entry level.
fn resolve_levels(
    r: &mut Report,
    raw_levels: Vec<RawLevel>,
    levels_complete: bool,
    archetypes: &Archetypes,
    images: &Images,
    def: &mut GameDef,
) -> Symbols {
    let mut level_names = Symbols::new(
        "level",
        "add a level file to `level_files` or a `[levels.NAME]` table to game.toml",
    );
    level_names.complete = levels_complete;
    for raw in raw_levels {
        if level_names.declare(r, raw.name.clone()).is_some() {
            def.levels.push(raw.resolve(
                r,
                &archetypes.names,
                &archetypes.defs,
                images,
                def.limits.max_entities,
            ));
        }
    }
    level_names
}

/// The built-in `text` archetype where the game has none of its own, and the game's font
/// for every label and HUD line that names none.
fn text_and_fonts(def: &mut GameDef) {
    // `ludus.text` spawns `text`: the game's own, or the built-in one after the game's.
    if def.archetype_id("text").is_none() {
        def.archetypes.push(ludus_core::LabelDef::text_archetype());
    }
    // The game's font is every label's and HUD line's that names none.
    if let Some(font) = def.font {
        let labels = def.archetypes.iter_mut().filter_map(|a| a.label.as_mut());
        labels.for_each(|l| _ = l.font.get_or_insert(font));
        for item in &mut def.hud {
            if let HudItem::Text(line) = item {
                _ = line.font.get_or_insert(font);
            }
        }
    }
}

/// game.toml's own settings; returns the listed script paths.
fn read_settings(r: &mut Report, game: &Table<'_, '_>, def: &mut GameDef) -> Vec<Named> {
    if let Some(name) = game.text(r, "name") {
        if name.trim().is_empty() {
            let loc = game.loc_of("name").unwrap_or(game.loc);
            r.error(loc, "`name` must not be empty")
                .help("e.g. `name = \"Swarm\"`");
        }
        def.name = name;
    }
    def.seed = game
        .int(r, "seed")
        .and_then(|v| u64::try_from(v).ok())
        .unwrap_or_default();
    def.tick = settings::tick(r, game);
    def.ai = settings::ai(r, game);
    def.limits = settings::limits(r, game);
    def.window = settings::window(r, game, &def.name);
    def.physics = settings::physics(r, game);
    def.constants = settings::constants(r, game);
    def.variables = settings::variables(r, game, def.limits.variables);
    let (scripts, script_paths) = settings::scripts(r, game);
    def.scripts = scripts;
    script_paths
}

/// The files game.toml lists, each once across all lists.
struct FileLists {
    archetypes: Vec<Named>,
    /// Every archetype file could be listed: names missing from them are real mistakes.
    archetypes_ok: bool,
    levels: Vec<Named>,
    levels_ok: bool,
    /// The game declares some level (a file or a table).
    declared_levels: bool,
    scripts: Vec<Named>,
}

impl FileLists {
    fn read(r: &mut Report, game: &Table<'_, '_>, script_paths: Vec<Named>) -> FileLists {
        let mut listed: HashMap<String, Loc> = HashMap::new();
        let mut list = |r: &mut Report, key: &str, paths: Vec<Named>| -> Vec<Named> {
            let mut out = Vec::with_capacity(paths.len());
            for p in paths {
                if p.name == "game.toml" {
                    r.error(p.loc, format!("`{key}` lists game.toml itself"))
                        .help("game.toml is always read first; list only the other files");
                    continue;
                }
                if let Some(first) = listed.get(&p.name) {
                    let first = r.describe(*first);
                    r.error(p.loc, format!("`{}` is listed twice", p.name))
                        .help(format!("first listed at {first}"));
                    continue;
                }
                listed.insert(p.name.clone(), p.loc);
                out.push(p);
            }
            out
        };
        // A list with an entry that could not be used leaves names undeclared: references to
        // unknown archetypes or levels would then only echo the first error, and are not
        // reported.
        let before = r.count();
        let paths = game.paths(r, "archetype_files").unwrap_or_default();
        let archetypes = list(r, "archetype_files", paths);
        let archetypes_ok = r.count() == before;
        let before = r.count();
        let level_paths = game.paths(r, "level_files");
        // Only a game that declares no level at all gets the "no levels" error.
        let declared_levels =
            game.has("levels") || level_paths.as_ref().is_none_or(|paths| !paths.is_empty());
        let levels = list(r, "level_files", level_paths.unwrap_or_default());
        let levels_ok = r.count() == before;
        let scripts = list(r, "scripts.files", script_paths);
        FileLists {
            archetypes,
            archetypes_ok,
            levels,
            levels_ok,
            declared_levels,
            scripts,
        }
    }
}

/// Archetypes: game.toml's first, then each archetype file's, in order.
fn read_archetypes(
    r: &mut Report,
    game: &Table<'_, '_>,
    lists: &FileLists,
    scope: &Scope<'_>,
    files: &mut Files<'_>,
    images: &mut Images,
) -> Archetypes {
    let mut archetypes = Archetypes {
        names: Symbols::new(
            "archetype",
            "declare it as `[archetypes.NAME]` in game.toml or in an archetype file",
        ),
        defs: Vec::new(),
        sizeless: Vec::new(),
        hurting: Vec::new(),
    };
    archetypes.names.complete = lists.archetypes_ok;
    let inline = game.named(r, "archetypes", "archetype");
    add_archetypes(r, inline, scope, files, images, &mut archetypes);
    for path in &lists.archetypes {
        let Some(Read::Text(file, text)) = files.read_listed(r, path, FileKind::Archetypes) else {
            archetypes.names.complete = false;
            continue;
        };
        let Some(tree) = parse_toml(r, file, &text) else {
            archetypes.names.complete = false;
            continue;
        };
        let t = Table::root(r, file, &tree, &schema::ARCHETYPE_FILE);
        let found = t.named(r, "archetypes", "archetype");
        if found.is_empty() && !t.has("archetypes") {
            r.error(
                path.loc,
                format!("archetype file `{}` declares no archetypes", path.name),
            )
            .help("an archetype file holds `[archetypes.NAME]` tables");
        }
        add_archetypes(r, found, scope, files, images, &mut archetypes);
    }
    archetypes
}

/// Levels: game.toml's first, then each level file's, in order; and whether every one could be
/// read (else names of levels are not checked: they would only echo the first error).
fn read_levels(
    r: &mut Report,
    game: &Table<'_, '_>,
    lists: &FileLists,
    tags: &Symbols,
    layers: &Symbols,
    files: &mut Files<'_>,
) -> (Vec<RawLevel>, bool) {
    let mut raw_levels: Vec<RawLevel> = Vec::new();
    let mut complete = lists.levels_ok;
    for (name, t) in game.named(r, "levels", "level") {
        match level::read(r, &t, Some(name), tags, layers, files) {
            Some(l) => raw_levels.push(l),
            None => complete = false,
        }
    }
    for path in &lists.levels {
        let Some(Read::Text(file, text)) = files.read_listed(r, path, FileKind::Level) else {
            complete = false;
            continue;
        };
        let Some(tree) = parse_toml(r, file, &text) else {
            complete = false;
            continue;
        };
        let t = Table::root(r, file, &tree, &schema::LEVEL);
        match level::read(r, &t, None, tags, layers, files) {
            Some(l) => raw_levels.push(l),
            None => complete = false,
        }
    }
    (raw_levels, complete)
}

/// The scripts, in order: `(path, text)`.
fn read_scripts(
    r: &mut Report,
    paths: &[Named],
    files: &mut Files<'_>,
    def: &mut GameDef,
) -> Vec<(String, String)> {
    let mut scripts = Vec::with_capacity(paths.len());
    for path in paths {
        if let Some(Read::Text(_, text)) = files.read_listed(r, path, FileKind::Script) {
            scripts.push((path.name.clone(), text.to_string()));
            def.scripts.files.push(path.name.clone());
        }
    }
    scripts
}

/// `[stress]`: the archetype `--entities` adds.
/// Reports each archetype whose static collider has no size (see
/// [`ArchetypeDef::sized_by_tiles`]) that no tile map's legend makes solid tiles of: nothing
/// gives it one.
fn unsized_colliders(r: &mut Report, archetypes: &Archetypes, levels: &[RawLevel]) {
    for &(i, loc) in &archetypes.sizeless {
        let a = &archetypes.defs[i];
        if levels.iter().any(|l| l.solid_names().any(|n| n == a.name)) {
            continue;
        }
        let (shape, key, example) = match a.collider.map(|c| c.shape) {
            Some(ludus_core::Shape::Circle { .. }) => ("circle", "radius", "radius = 8"),
            _ => ("box", "size", "size = [32, 16]"),
        };
        r.error(
            loc,
            format!("a {shape} collider needs `{key}` when the archetype has no sprite"),
        )
        .help(format!(
            "add e.g. `{example}` (only the archetype of a tile map's solid tiles may leave it out: the tiles give it their size)"
        ));
    }
}

/// Reports each archetype whose `contact_damage` can never land: no archetype with one of
/// its `to` tags has a collider in a contact its collider reports (neither side's `mask`
/// holds the other's layer), or none of those that do has health, so the rule would
/// silently do nothing.
fn untouched_contact_damage(r: &mut Report, archetypes: &Archetypes) {
    for &(i, loc) in &archetypes.hurting {
        let a = &archetypes.defs[i];
        let (Some(rule), Some(c)) = (a.contact_damage, a.collider) else {
            continue;
        };
        let targets = || {
            (archetypes.defs.iter())
                .filter(|t| t.tags & rule.to != 0)
                .filter_map(|t| Some((t, t.collider?)))
        };
        let touched = || targets().filter(|(_, t)| c.mask & t.layer != 0 || t.mask & c.layer != 0);
        if touched().any(|(t, _)| t.health.is_some()) {
            continue;
        }
        if touched().next().is_some() {
            let names: Vec<String> = touched().map(|(t, _)| format!("`{}`", t.name)).collect();
            r.error(
                loc,
                format!(
                    "`[archetypes.{}]`'s `contact_damage` hurts only what has no health",
                    a.name
                ),
            )
            .help(format!(
                "it touches only {}, without `health`: give what it should hurt a `health` table",
                names.join(", ")
            ));
            continue;
        }
        let names: Vec<&str> = targets().map(|(t, _)| t.name.as_str()).collect();
        let note = r.error(
            loc,
            format!(
                "`[archetypes.{}]` can never touch what its `contact_damage` hurts",
                a.name
            ),
        );
        if names.is_empty() {
            note.help("no archetype with one of its `to` tags has a collider: give one a collider, or name the tags of what it should hurt");
        } else {
            note.help(format!(
                "its collider reports no contact with {}: add the layer of what it hurts to its collider's `mask`",
                names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            ));
        }
    }
}

fn read_stress(r: &mut Report, game: &Table<'_, '_>, archetypes: &Archetypes) -> Option<StressDef> {
    let t = game.table(r, "stress")?;
    let named = t.name(r, "archetype", "archetype");
    let archetype = named
        .as_ref()
        .and_then(|a| archetypes.names.resolve(r, a))
        .and_then(|i| u16::try_from(i).ok());
    if let (Some(i), Some(named)) = (archetype, &named)
        && archetypes.defs[usize::from(i)].sized_by_tiles()
    {
        let a = &archetypes.defs[usize::from(i)];
        crate::archetype::sized_by_tiles(r, named.loc, a, "`[stress]`", "");
    }
    let area = t.rect(r, "area");
    archetype.map(|i| StressDef {
        archetype: ludus_core::ArchetypeId(i),
        area,
    })
}

/// The names of a top-level list (`tags`, `layers`), declared in order.
fn declare(
    r: &mut Report,
    game: &Table<'_, '_>,
    key: &str,
    kind: &'static str,
    max: usize,
    how: &str,
) -> Symbols {
    let mut symbols = Symbols::new(kind, how);
    let before = r.count();
    let list = game.names(r, key, kind).unwrap_or_default();
    for named in list.into_iter().take(max) {
        symbols.declare(r, named);
    }
    // A declaration that could not be read would make every use of it an error too.
    symbols.complete = r.count() == before;
    symbols
}

fn add_archetypes(
    r: &mut Report,
    found: Vec<(Named, Table<'_, '_>)>,
    scope: &Scope<'_>,
    files: &mut Files<'_>,
    images: &mut Images,
    archetypes: &mut Archetypes,
) {
    for (name, t) in found {
        if archetypes.defs.len() == MAX_ARCHETYPES {
            r.error(
                name.loc,
                format!("a game may declare at most {MAX_ARCHETYPES} archetypes"),
            );
            archetypes.names.complete = false;
            return;
        }
        let a = archetype::read(r, &t, &name.name, scope, files, images);
        if archetypes.names.declare(r, name).is_some() {
            if a.sized_by_tiles() {
                let loc = t.loc_of("collider").unwrap_or(t.loc);
                archetypes.sizeless.push((archetypes.defs.len(), loc));
            }
            if a.contact_damage.is_some() {
                let loc = t.loc_of("contact_damage").unwrap_or(t.loc);
                archetypes.hurting.push((archetypes.defs.len(), loc));
            }
            archetypes.defs.push(a);
        }
    }
}

/// The keys a script may bind at run time: every key but the app's own.
fn bindable(reserved: &[(Key, &str)]) -> Vec<String> {
    (Key::ALL.iter())
        .filter(|k| !reserved.iter().any(|(r, _)| r == *k))
        .map(|k| k.name().to_string())
        .collect()
}
