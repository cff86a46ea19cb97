//! The tables of game.toml.

use crate::schema::*;
use ludus_core::{
    AiPolicy, Anchor, EffectDef, FlowDef, FontSource, GameDef, HudBar, HudIcons, HudLine, Limits,
    PhysicsDef, ScriptsDef, SoundDef, TickPolicy, WindowDef,
};

/// `[scripts] memory` is in MiB.
const MIB: usize = 1024 * 1024;

/// The top level of `game.toml`.
#[rustfmt::skip]
pub(crate) static GAME: TableSchema = TableSchema {
    title: "game.toml",
    doc: "The game file. Top-level keys come first, before any `[table]` header: a key written \
          after a header belongs to that table.",
    keys: &[
        key("name", Ty::Text, Dflt::Required, "", "The game's name: the window title unless `[window]` sets one.", "name = \"Swarm\""),
        key("seed", int(0, i64::MAX), Dflt::Int(GameDef::SEED as i64), "", "Seed of the world's random generator. The same seed and the same input play the same game.", "seed = 7"),
        key("entry", Ty::Name, Dflt::Doc("the first level"), "", "Name of the level the game starts in.", "entry = \"arena\""),
        key("hud", Ty::TextsOr(&[&HUD, &HUD_ICONS, &HUD_BAR, &HUD_IMAGE]), Dflt::Empty, "", "What is drawn over the game: lines of text (strings, at the top left, or `{ text, at, size, color }` tables), pictures (`{ image, frame, at, size }`), rows of icons (`{ icons, image, frame, empty_frame, max, at, size }`) and bars (`{ bar, max, at, size, color, back }`). `{score}`, `{tick}`, `{entities}` and `{NAME}` of any game variable or constant are replaced by their values.", "hud = [\"score {score}\", { text = \"{banner}\", at = \"center\", size = 40 }]"),
        key("tags", Ty::Names { max: 64 }, Dflt::Empty, "", "Tags entities can carry. Behaviours find their targets by tag; scripts test them.", "tags = [\"player\", \"enemy\"]"),
        key("layers", Ty::Names { max: 32 }, Dflt::Empty, "", "Collision layers. Every collider is on one layer and names the layers it reports and pushes.", "layers = [\"ships\", \"shots\"]"),
        key("archetype_files", Ty::Paths { ext: ".toml" }, Dflt::Empty, "", "Files of `[archetypes.NAME]` tables, read in order after game.toml.", "archetype_files = [\"archetypes.toml\"]"),
        key("level_files", Ty::Paths { ext: ".toml" }, Dflt::Empty, "", "Level files, read in order after the archetype files.", "level_files = [\"levels/arena.toml\"]"),
        key("tick", Ty::Table(&TICK), Dflt::Defaults, "", "How wall time becomes simulation ticks.", "[tick]"),
        key("ai", Ty::Table(&AI), Dflt::Defaults, "", "When behaviours decide.", "[ai]"),
        key("limits", Ty::Table(&LIMITS), Dflt::Defaults, "", "Capacities of every bounded queue and pool.", "[limits]"),
        key("window", Ty::Table(&WINDOW), Dflt::Defaults, "", "The desktop window.", "[window]"),
        key("flow", Ty::Table(&FLOW), Dflt::Defaults, "", "How the game's own actions pause and restart it, and whether the app draws its game-over banner.", "[flow]"),
        key("scripts", Ty::Table(&SCRIPTS), Dflt::Defaults, "", "Lua scripts and their budgets.", "[scripts]"),
        key("constants", Ty::Constants, Dflt::Empty, "", "Named values scripts can read.", "[constants]"),
        key("variables", Ty::Variables, Dflt::Empty, "", "Game variables and their values when a game starts (a restart too): the HUD shows them and scripts read them (`ludus.get`) from the first tick. A level switch keeps the current values.", "[variables]"),
        key("physics", Ty::Table(&PHYSICS), Dflt::Defaults, "", "Collision detection settings.", "[physics]"),
        key("input", Ty::Table(&INPUT), Dflt::Defaults, "", "Actions and the keys that drive them.", "[input.actions.fire]"),
        key("touch", Ty::Table(&TOUCH), Dflt::Defaults, "", "On-screen controls for touch screens.", "[[touch.controls]]"),
        key("images", Ty::Named(&IMAGE), Dflt::Empty, "", "Images sprites draw by name: whole pictures or sprite sheets.", "[images.hero]"),
        key("fonts", Ty::Named(&FONT), Dflt::Empty, "", "Fonts labels and HUD lines can name: TrueType/OpenType files or bitmap fonts cut from images.", "[fonts.title]"),
        key("font", Ty::Name, Dflt::Doc("the bundled font"), "", "The `[fonts]` font of labels and HUD lines that name none. The window's own text (help line, banners, overlay) keeps the bundled font.", "font = \"pixel\""),
        key("effects", Ty::Named(&EFFECT), Dflt::Empty, "", "Particle effects scripts can request by name.", "[effects.spark]"),
        key("sounds", Ty::Named(&SOUND), Dflt::Empty, "", "Sounds scripts can request by name: files or synthesised tones.", "[sounds.shoot]"),
        key("music", Ty::Named(&MUSIC), Dflt::Empty, "", "Tracks scripts loop by name (`ludus.music`).", "[music.theme]"),
        key("stress", Ty::Table(&STRESS), Dflt::Unset, "", "What `--entities N` fills a level with.", "[stress]"),
        key("archetypes", Ty::Named(&ARCHETYPE), Dflt::Empty, "", "Kinds of entity (also allowed in archetype files).", "[archetypes.ship]"),
        key("levels", Ty::Named(&LEVEL), Dflt::Empty, "", "Levels written inline; the table key is the level's name.", "[levels.arena]"),
        key("export", Ty::Table(&EXPORT), Dflt::Defaults, "", "What `ludus export` packs.", "[export]"),
    ],
};

#[rustfmt::skip]
pub(crate) static HUD: TableSchema = TableSchema {
    title: "hud lines",
    doc: "A HUD line written as a table places, sizes or colours it. The items at one anchor \
          (lines, pictures, icons, bars) form a block in declaration order, at that edge or \
          centre of the screen. A HUD table is a line if it has `text`, else a row of icons if \
          it has `icons`, else a bar if it has `bar`, else a picture if it has `image`.",
    keys: &[
        key("text", Ty::Text, Dflt::Required, "", "The line; `{score}`, `{tick}`, `{entities}` and `{NAME}` of game variables and constants are replaced (`-` for a variable not set). `ludus check` reports a name no script sets and the game does not declare.", "text = \"score {score}\""),
        key("at", Ty::Choice(&Anchor::NAMES), Dflt::Str(HudLine::AT.name()), "", "Where on the screen it sits.", "at = \"top\""),
        key("size", Ty::Number { min: 6.0, max: 200.0, above_min: false }, Dflt::Num(HudLine::SIZE), "px", "Text height.", "size = 40"),
        key("color", Ty::Color, Dflt::Color(HudLine::COLOR), "", "Text colour.", "color = \"#ffd000\""),
        key("font", Ty::Name, Dflt::Doc("the game's `font`"), "", "A `[fonts]` name.", "font = \"title\""),
    ],
};

/// The range of a picture's or icon's size, in pixels.
const HUD_SIZE: Ty = Ty::Size { max: 4096.0 };

#[rustfmt::skip]
pub(crate) static HUD_IMAGE: TableSchema = TableSchema {
    title: "hud images",
    doc: "A picture over the game: one frame of an `[images]` image.",
    keys: &[
        key("image", Ty::Name, Dflt::Required, "", "An `[images]` name.", "image = \"key\""),
        key("frame", int(0, 65_535), count(HudIcons::FRAME as u32), "", "The frame of a sprite sheet.", "frame = 2"),
        key("at", Ty::Choice(&Anchor::NAMES), Dflt::Str(HudLine::AT.name()), "", "Where on the screen it sits.", "at = \"top_right\""),
        key("size", HUD_SIZE, Dflt::Doc("the frame's size in pixels"), "px", "Its height (the width keeps the frame's shape) or `[w, h]`.", "size = 32"),
    ],
};

#[rustfmt::skip]
pub(crate) static HUD_ICONS: TableSchema = TableSchema {
    title: "hud icons",
    doc: "A row of `max` icons, the first `icons` of them full: hearts, lives. The row always \
          takes the room of `max` icons.",
    keys: &[
        key("icons", Ty::Name, Dflt::Required, "", "The game variable (or constant) that says how many icons are full.", "icons = \"lives\""),
        key("image", Ty::Name, Dflt::Required, "", "An `[images]` name.", "image = \"heart\""),
        key("frame", int(0, 65_535), count(HudIcons::FRAME as u32), "", "The frame of a full icon.", "frame = 0"),
        key("empty_frame", int(0, 65_535), Dflt::Unset, "", "The frame of an empty icon (none: nothing is drawn there).", "empty_frame = 1"),
        key("max", Ty::NumberOrName { min: 1.0, max: HudIcons::MAX as f64, above_min: false }, Dflt::Required, "", "How many icons: a whole number, or a variable or constant that says (at most 64 are drawn).", "max = 3"),
        key("at", Ty::Choice(&Anchor::NAMES), Dflt::Str(HudLine::AT.name()), "", "Where on the screen it sits.", "at = \"top_left\""),
        key("size", HUD_SIZE, Dflt::Doc("the frame's size in pixels"), "px", "One icon's height (the width keeps the frame's shape) or `[w, h]`.", "size = 24"),
    ],
};

#[rustfmt::skip]
pub(crate) static HUD_BAR: TableSchema = TableSchema {
    title: "hud bars",
    doc: "A bar filled in proportion to a value: `bar / max`, from empty (0 or less) to full \
          (`max` or more).",
    keys: &[
        key("bar", Ty::Name, Dflt::Required, "", "The game variable (or constant) that fills it.", "bar = \"boss_hp\""),
        key("max", Ty::NumberOrName { min: 0.0, max: 1e9, above_min: true }, Dflt::Required, "", "The value of a full bar: a number, or a variable or constant that says.", "max = 100"),
        key("at", Ty::Choice(&Anchor::NAMES), Dflt::Str(HudLine::AT.name()), "", "Where on the screen it sits.", "at = \"top\""),
        key("size", Ty::Pair { min: 1.0, max: 4096.0, above_min: false, form: "[w, h]" }, pair(HudBar::SIZE), "px", "Width and height.", "size = [300, 16]"),
        key("color", Ty::Color, Dflt::Color(HudBar::COLOR), "", "The filled part's colour.", "color = \"#e63946\""),
        key("back", Ty::Color, Dflt::Color(HudBar::BACK), "", "The empty part's colour.", "back = \"#00000080\""),
    ],
};

#[rustfmt::skip]
pub(crate) static EXPORT: TableSchema = TableSchema {
    title: "[export]",
    doc: "`ludus export` packs every file of the game folder except hidden ones (a name \
          starting with `.`), the window's `recordings/`, a failed test's `tests/*.failed.*` \
          and what `exclude` names, and lists what it packed with sizes. A pattern's `*` is \
          any run of characters within a name, `?` one character, `**` any run across \
          folders; a `/` at the end names a folder (everything under it); a pattern without \
          another `/` matches a name at any depth, one with a `/` a path from the game folder.",
    keys: &[
        key("exclude", Ty::Globs { len: 64 }, Dflt::Empty, "", "Patterns of files to leave out. A file the game reads, or any Lua file (a script may `require` it), may not be left out.", "exclude = [\"*.png.bak\", \"shots/\"]"),
    ],
};

#[rustfmt::skip]
pub(crate) static TICK: TableSchema = TableSchema {
    title: "[tick]",
    doc: "The tick policy. Every second of accepted wall time runs exactly `rate` ticks; a \
          frame that arrives late counts as at most `max_frame_delta`, and one frame runs at \
          most `catch_up` ticks (the rest are dropped, so overload slows the game down instead \
          of spiralling). In `mode = \"turns\"` wall time does not count: a level's first tick \
          runs at once, then one tick runs for each frame in which a button was pressed.",
    keys: &[
        key("mode", Ty::Choice(&["realtime", "turns"]), Dflt::Str(TickPolicy::DEFAULT.mode.name()), "", "What runs a tick: wall time, or the player's presses (a turn-based game).", "mode = \"turns\""),
        key("rate", int(1, 1000), count(TickPolicy::DEFAULT.rate_hz), "Hz", "Simulation ticks per second (in turns mode, the seconds one tick integrates: `1 / rate`).", "rate = 60"),
        key("max_frame_delta", positive(10_000.0), Dflt::Num(TickPolicy::DEFAULT.max_frame_delta_ns as f32 / 1e6), "ms", "The most wall time one frame may contribute.", "max_frame_delta = 250"),
        key("catch_up", int(1, 64), count(TickPolicy::DEFAULT.max_catch_up_ticks), "ticks", "The most ticks one frame may run.", "catch_up = 4"),
    ],
};

#[rustfmt::skip]
pub(crate) static AI: TableSchema = TableSchema {
    title: "[ai]",
    doc: "Behaviours decide on a cadence and keep their last decision in between.",
    keys: &[key("cadence", int(1, 3600), count(AiPolicy::DEFAULT.default_cadence), "ticks", "Ticks between decisions of a behaviour that sets no cadence of its own.", "cadence = 10")],
};

#[rustfmt::skip]
pub(crate) static LIMITS: TableSchema = TableSchema {
    title: "[limits]",
    doc: "Capacities. Exceeding `entities`, `events`, `commands`, `timers`, `contacts`, \
          `variables`, `state_keys` or `save_bytes` stops the game with a fault naming the limit; `outbox` and \
          `draws` overflows are counted and reported. Each limit is checked as its queue or table \
          fills, so it also bounds the memory and time hostile content or scripts can take.",
    keys: &[
        key("entities", int(1, 10_000_000), count(Limits::DEFAULT.max_entities), "", "Live entities.", "entities = 300000"),
        key("events", int(1, 10_000_000), count(Limits::DEFAULT.events_per_tick), "", "Events of one kind in one tick.", "events = 65536"),
        key("commands", int(1, 10_000_000), count(Limits::DEFAULT.commands_per_tick), "", "Commands one gameplay stage may send.", "commands = 65536"),
        key("outbox", int(1, 10_000_000), count(Limits::DEFAULT.outbox), "", "Effect and sound requests waiting for presentation.", "outbox = 1024"),
        key("timers", int(1, 10_000_000), count(Limits::DEFAULT.timers), "", "Pending timers.", "timers = 4096"),
        key("draws", int(1, 10_000_000), count(Limits::DEFAULT.draws), "", "Draws in one frame.", "draws = 300000"),
        key("jobs", int(1, 10_000_000), count(Limits::DEFAULT.jobs), "", "Background requests admitted at once.", "jobs = 16"),
        key("contacts", int(1, 10_000_000), count(Limits::DEFAULT.contacts_per_tick), "", "Overlapping collider pairs found in one tick, reported or pushed apart. The search for them may also examine at most 256 candidates per pair allowed here plus 64 per collider, so colliders piled up without looking at each other stop the game instead of stalling it.", "contacts = 262144"),
        key("variables", int(1, 1_000_000), count(Limits::DEFAULT.variables), "", "Distinct game variable names scripts may set (`ludus.set`).", "variables = 1024"),
        key("state_keys", int(1, 1_000_000), count(Limits::DEFAULT.state_keys), "", "Distinct state keys scripts may set on one entity (`ludus.set_state`).", "state_keys = 64"),
        key("save_bytes", int(2, 16_777_216), count(Limits::DEFAULT.save_bytes), "bytes", "The game's saved data (`ludus.save`), measured as its `save.json` takes it with a comma after each entry: `{\"best\":1200}` takes 14. Keys have 1 to 64 bytes.", "save_bytes = 65536"),
    ],
};

#[rustfmt::skip]
pub(crate) static WINDOW: TableSchema = TableSchema {
    title: "[window]",
    doc: "The desktop window (the browser uses the page's canvas).",
    keys: &[
        key("title", Ty::Text, Dflt::Doc("the game's `name`"), "", "Window title.", "title = \"Swarm\""),
        key("width", int(64, 16_384), count(WindowDef::WIDTH), "pixels", "Initial width.", "width = 1280"),
        key("height", int(64, 16_384), count(WindowDef::HEIGHT), "pixels", "Initial height.", "height = 720"),
        key("help", Ty::Bool, Dflt::Bool(WindowDef::HELP), "", "`ludus run` draws its help line (the game's actions and the developer keys) at the bottom. Exported games never draw it (unless exported with `--dev`).", "help = false"),
    ],
};

#[rustfmt::skip]
pub(crate) static FLOW: TableSchema = TableSchema {
    title: "[flow]",
    doc: "The game's own pause and restart. Exported games run in release mode, without the \
          developer keys: there the app pauses and restarts only through the actions named \
          here (their keys, and then P or R too). In `ludus run` P and R always work. Scripts \
          ask the same with `ludus.pause()` and `ludus.restart()`.",
    keys: &[
        key("pause", Ty::Name, Dflt::Unset, "", "A button action that pauses and resumes the game (a click resumes too).", "pause = \"pause\""),
        key("restart", Ty::Name, Dflt::Unset, "", "A button action that starts the game again, as `ludus.restart()` does.", "restart = \"restart\""),
        key("banner", Ty::Bool, Dflt::Bool(FlowDef::BANNER), "", "The app draws its game-over banner: the `game_over` message as written, fitted to the window, and the restart action's keys. Off, the game draws its own (HUD items).", "banner = false"),
    ],
};

#[rustfmt::skip]
pub(crate) static SCRIPTS: TableSchema = TableSchema {
    title: "[scripts]",
    doc: "Lua scripts, loaded in order, and the fences that turn a runaway script into a clean \
          fault.",
    keys: &[
        key("files", Ty::Paths { ext: ".lua" }, Dflt::Empty, "", "Script files, each non-empty UTF-8.", "files = [\"scripts/main.lua\"]"),
        key("budget", int(1_000, 1_000_000_000), Dflt::Int(ScriptsDef::INSTRUCTION_BUDGET as i64), "units", "Script budget per tick, all handlers together: one unit per Lua instruction, plus bulk work (copies, searches, library loops) by its size; see docs/scripting.md.", "budget = 2000000"),
        key("memory", int(1, 4_096), Dflt::Int((ScriptsDef::MEMORY_LIMIT / MIB) as i64), "MiB", "The most memory the Lua heap may hold; the script state of all entities (`ludus.set_state`: each entry its key's length plus 16 bytes) is held to the same number of bytes, counted apart.", "memory = 64"),
    ],
};

#[rustfmt::skip]
pub(crate) static PHYSICS: TableSchema = TableSchema {
    title: "[physics]",
    doc: "Collision detection and gravity.",
    keys: &[
        key("cell", positive(SIZE_MAX), Dflt::Doc("twice the extent that covers 95% of the colliders that move (static ones, such as a tile map's walls, do not count), grown to fit the largest collider that looks for others, up to 4 times"), "world units", "Broadphase grid cell size. Colliders larger than half a cell are each tested against every collider they can meet, every tick: a few walls or trigger areas cost little so, hundreds of big colliders much.", "cell = 64"),
        key("gravity", VELOCITY, pair(PhysicsDef::DEFAULT.gravity), "world units/s²", "Acceleration of everything gravity pulls (y is down): dynamic, non-trigger colliders, and any archetype with a `gravity_scale`.", "gravity = [0, 900]"),
    ],
};

#[rustfmt::skip]
pub(crate) static INPUT: TableSchema = TableSchema {
    title: "[input]",
    doc: "Input is declared as actions; keys drive actions; archetypes and scripts only ever \
          see actions.",
    keys: &[
        key("actions", Ty::Named(&ACTION), Dflt::Empty, "", "Actions in declaration order (at most 64).", "[input.actions.fire]"),
        key("deadzone", Ty::Number { min: 0.0, max: 0.9, above_min: false }, Dflt::Num(GameDef::DEADZONE), "", "How far a gamepad's stick or trigger may be off rest and still read 0 (worn sticks drift). Past it, values are rescaled to run from 0 to 1 again.", "deadzone = 0.25"),
    ],
};

#[rustfmt::skip]
pub(crate) static ACTION: TableSchema = TableSchema {
    title: "[input.actions.NAME]",
    doc: "One action. A button is held while any of its keys is down; an axis is the sum of the \
          scales of its held keys (a pad's axis: its scale times the axis's value), clamped to \
          -1..1.",
    keys: &[
        key("kind", Ty::Choice(&["button", "axis"]), Dflt::Required, "", "Button or axis.", "kind = \"axis\""),
        key("keys", Ty::Keys, Dflt::Empty, "", "A button's keys: an array of key names. An axis's keys: a table of key name = scale. Keys, mouse buttons and gamepads' buttons and axes (see Key names).", "keys = { a = -1, d = 1 }"),
    ],
};

#[rustfmt::skip]
pub(crate) static TOUCH: TableSchema = TableSchema {
    title: "[touch]",
    doc: "A touch screen plays the game with fingers: the first finger down (not on a control) \
          is the pointer and presses `mouse_left`, as a mouse click does, and every finger \
          down is one of `ludus.touches()`. On-screen controls drive actions instead: they \
          are drawn once a touch has been seen and hidden when a key or a pad button is \
          used, and a finger that goes down on one drives it until it lifts (it is then \
          neither the pointer nor one of the game's touches).",
    keys: &[key("controls", Ty::Tables(&TOUCH_CONTROL), Dflt::Empty, "", "The on-screen controls, each at its own anchor (at most 8).", "[[touch.controls]]")],
};

#[rustfmt::skip]
pub(crate) static TOUCH_CONTROL: TableSchema = TableSchema {
    title: "[[touch.controls]]",
    doc: "One on-screen control. A stick sets its axis actions to the finger's offset from \
          its centre over its radius, clamped to the unit circle (right and down are \
          positive, as in the world), and back to 0 when the finger lifts; a button holds \
          its button action while a finger is on it.",
    keys: &[
        key("kind", Ty::Choice(&["stick", "button"]), Dflt::Required, "", "A thumbstick or a button.", "kind = \"stick\""),
        key("at", Ty::Choice(&Anchor::NAMES), Dflt::Required, "", "The edge or corner of the window it sits at, inset from it.", "at = \"bottom_left\""),
        key("x_action", Ty::Name, Dflt::Unset, "", "A stick's horizontal axis action (a stick names `x_action`, `y_action` or both).", "x_action = \"move_x\""),
        key("y_action", Ty::Name, Dflt::Unset, "", "A stick's vertical axis action.", "y_action = \"move_y\""),
        key("action", Ty::Name, Dflt::Unset, "", "A button's button action (required for a button).", "action = \"fire\""),
        key("label", Ty::Text, Dflt::Unset, "", "Text on a button, at most 8 characters.", "label = \"A\""),
    ],
};

#[rustfmt::skip]
pub(crate) static IMAGE: TableSchema = TableSchema {
    title: "[images.NAME]",
    doc: "A PNG image, whole or a sprite sheet: a grid of equal frames numbered from 0, left to \
          right, then top to bottom. Every image of a game is packed into one texture at load, \
          so sprites of different images still draw together.",
    keys: &[
        key("file", Ty::Path { ext: "png" }, Dflt::Required, "", "The PNG file in the game folder (at most 4094 x 4094 pixels).", "file = \"images/hero.png\""),
        key("frame", Ty::Pair { min: 0.0, max: 4094.0, above_min: true, form: "[w, h]" }, Dflt::Doc("the whole image"), "pixels", "A frame's size: the image's width and height must be whole multiples of it.", "frame = [16, 16]"),
        key("filter", Ty::Choice(&["linear", "nearest"]), Dflt::Str("linear"), "", "Smooth or blocky (pixel art) when drawn larger or smaller than its pixels.", "filter = \"nearest\""),
    ],
};

#[rustfmt::skip]
pub(crate) static FONT: TableSchema = TableSchema {
    title: "[fonts.NAME]",
    doc: "A font: a TrueType or OpenType `file`, drawn smoothly at any size from one rasterisation \
          (printable ASCII and Latin-1), or a bitmap font cut from an `[images]` sprite sheet, one \
          frame per character of `glyphs`, drawn with the image's colours (tinted by the text's \
          colour) and filter. A bitmap font's characters are as wide as a frame; a character it \
          lacks is drawn as its other case, else `?`, else a space.",
    keys: &[
        key("file", Ty::Path { ext: "" }, Dflt::Unset, "", "A .ttf or .otf file in the game folder (at most 8 MiB).", "file = \"fonts/title.ttf\""),
        key("size", number(4.0, 256.0), Dflt::Num(FontSource::SIZE), "pixels", "The height a font file's glyphs are rasterised at: text near this size looks sharpest.", "size = 48"),
        key("image", Ty::Name, Dflt::Unset, "", "An `[images]` sheet whose frames are the glyphs.", "image = \"glyphs\""),
        key("glyphs", Ty::Text, Dflt::Unset, "", "With `image`: the character of each frame, in frame order.", "glyphs = \" !0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ\""),
    ],
};

#[rustfmt::skip]
pub(crate) static EFFECT: TableSchema = TableSchema {
    title: "[effects.NAME]",
    doc: "A burst of particles scripts can request by name.",
    keys: &[
        key("color", Ty::Color, Dflt::Color(EffectDef::COLOR), "", "Particle colour.", "color = \"#ffd166\""),
        key("particles", int(0, 1000), count(EffectDef::PARTICLES), "", "Particles per burst.", "particles = 24"),
        key("speed", number(0.0, SPEED_MAX), Dflt::Num(EffectDef::SPEED), "world units/s", "Particle speed.", "speed = 200"),
        key("duration", positive(10.0), Dflt::Num(EffectDef::DURATION), "seconds", "Particle life.", "duration = 0.5"),
        key("size", positive(SIZE_MAX), Dflt::Num(EffectDef::SIZE), "world units", "Particle size.", "size = 4"),
    ],
};

#[rustfmt::skip]
pub(crate) static SOUND: TableSchema = TableSchema {
    title: "[sounds.NAME]",
    doc: "A sound scripts can request by name: a sound file, or a tone synthesised from `wave`, \
          `freq`, `freq_end` and `duration` (so a game needs no audio files).",
    keys: &[
        key("file", Ty::Path { ext: "" }, Dflt::Unset, "", "A WAV (PCM or float) or OGG Vorbis file, mono or stereo, played instead of a tone (at most 10 minutes).", "file = \"sfx/hit.wav\""),
        key("wave", Ty::Choice(&["sine", "square", "triangle", "saw", "noise"]), Dflt::Str("square"), "", "Waveform.", "wave = \"triangle\""),
        key("freq", number(20.0, 20_000.0), Dflt::Num(SoundDef::FREQ), "Hz", "Start frequency.", "freq = 880"),
        key("freq_end", number(20.0, 20_000.0), Dflt::Doc("`freq`"), "Hz", "End frequency: the tone slides from `freq` to it.", "freq_end = 220"),
        key("duration", positive(5.0), Dflt::Num(SoundDef::DURATION), "seconds", "Length.", "duration = 0.15"),
        key("volume", number(0.0, 1.0), Dflt::Num(SoundDef::VOLUME), "", "Loudness.", "volume = 0.3"),
    ],
};

#[rustfmt::skip]
pub(crate) static MUSIC: TableSchema = TableSchema {
    title: "[music.NAME]",
    doc: "A track scripts loop with `ludus.music(\"NAME\")` (one at a time; `ludus.music(nil)` \
          stops it). Streamed while it plays on Linux; decoded when it starts where the output loops only whole buffers (browser, macOS, Windows).",
    keys: &[
        key("file", Ty::Path { ext: "" }, Dflt::Required, "", "A WAV or OGG Vorbis file, mono or stereo (at most 10 minutes).", "file = \"music/theme.ogg\""),
        key("volume", number(0.0, 1.0), Dflt::Num(SoundDef::VOLUME), "", "Loudness.", "volume = 0.4"),
    ],
};

#[rustfmt::skip]
pub(crate) static STRESS: TableSchema = TableSchema {
    title: "[stress]",
    doc: "What `ludus run --entities N` and `ludus bench` fill the entry level with.",
    keys: &[
        key("archetype", Ty::Name, Dflt::Required, "", "The archetype to spawn.", "archetype = \"drone\""),
        key("area", Ty::Rect, Dflt::Doc("the level's bounds"), "", "Where to place them.", "area = { size = [600, 400] }"),
    ],
};
