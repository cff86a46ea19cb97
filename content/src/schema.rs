//! The one description of the content format: every table, every key, its type, default,
//! allowed range, meaning and an example. Unknown-key detection, suggestions, range checks,
//! defaults and the authoring reference (`docs/content.md`) are all driven from here.
//!
//! The file is longer than most because the format is one table; splitting it would scatter
//! what a reader wants to scan in one place.

/// Ticks are counted in `u32`.
const TICKS_MAX: i64 = u32::MAX as i64;
/// Bound of a speed or velocity component, in world units per second.
const SPEED_MAX: f64 = 1_000_000.0;
/// Bound of a size, radius or cell, in world units.
const SIZE_MAX: f64 = 1_000_000.0;
/// Bound of a coordinate, in world units.
const COORD_MAX: f64 = 1_000_000_000.0;

/// One table of the format.
pub(crate) struct TableSchema {
    /// How the reference names it, e.g. `[archetypes.NAME.sprite]`.
    pub title: &'static str,
    pub doc: &'static str,
    pub keys: &'static [KeySchema],
}

/// One key of a table.
pub(crate) struct KeySchema {
    pub name: &'static str,
    pub ty: Ty,
    pub default: Dflt,
    /// Unit of numbers, for the reference (`Hz`, `ticks`...); empty when none.
    pub unit: &'static str,
    pub doc: &'static str,
    /// A TOML line using the key.
    pub example: &'static str,
}

/// The type (and allowed range) of a key's value.
#[derive(Clone, Copy)]
pub(crate) enum Ty {
    /// A whole number from `min` to `max`.
    Int {
        min: i64,
        max: i64,
    },
    /// An integer or float, finite, from `min` (excluded when `above_min`) to `max`.
    Number {
        min: f64,
        max: f64,
        above_min: bool,
    },
    Bool,
    Text,
    /// A name: 1 to 64 ASCII letters, digits, `_` or `-`.
    Name,
    /// An array of distinct names, at most `max`.
    Names {
        max: usize,
    },
    /// An array of strings.
    Texts,
    /// A path inside the game folder, ending in `ext` unless it is empty.
    Path {
        ext: &'static str,
    },
    /// An array of distinct paths.
    Paths {
        ext: &'static str,
    },
    /// One of a fixed set of strings.
    Choice(&'static [&'static str]),
    Color,
    /// `[a, b]`, both finite, from `min` (excluded when `above_min`) to `max`.
    Pair {
        min: f64,
        max: f64,
        above_min: bool,
        form: &'static str,
    },
    /// A positive number or `[w, h]` of positive numbers, at most `max`.
    Size {
        max: f64,
    },
    Rect,
    Table(&'static TableSchema),
    /// `[key.NAME]` tables, one per name, in declaration order.
    Named(&'static TableSchema),
    /// An array of tables (`[[key]]`).
    Tables(&'static TableSchema),
    /// A table of `name = integer` from `min` to `max`, in declaration order.
    Counts {
        min: i64,
        max: i64,
    },
    /// An action's keys: an array of key names, or a table of key name to scale.
    Keys,
    /// A table of `name = boolean, integer, number or string`.
    Constants,
}

/// What a key is when it is absent.
#[derive(Clone, Copy)]
pub(crate) enum Dflt {
    Required,
    /// Absent means "none" (an optional component, an unset limit).
    Unset,
    /// Absent means every key of the table takes its default.
    Defaults,
    /// Absent means an empty array or table.
    Empty,
    Int(i64),
    Num(f64),
    Bool(bool),
    Str(&'static str),
    Pair(f64, f64),
    /// Computed from other values; the text says how.
    Doc(&'static str),
}

impl TableSchema {
    pub fn key(&self, name: &str) -> Option<&'static KeySchema> {
        self.keys.iter().find(|k| k.name == name)
    }

    pub fn key_names(&self) -> impl Iterator<Item = &'static str> {
        self.keys.iter().map(|k| k.name)
    }
}

impl Ty {
    /// The type as the reference and messages name it.
    pub fn describe(&self) -> String {
        match self {
            Ty::Int { .. } => "integer".into(),
            Ty::Number { .. } => "number".into(),
            Ty::Bool => "boolean".into(),
            Ty::Text => "string".into(),
            Ty::Name => "name".into(),
            Ty::Names { .. } => "array of names".into(),
            Ty::Texts => "array of strings".into(),
            Ty::Path { .. } => "path".into(),
            Ty::Paths { .. } => "array of paths".into(),
            Ty::Choice(_) => "string".into(),
            Ty::Color => "colour".into(),
            Ty::Pair { form, .. } => (*form).into(),
            Ty::Size { .. } => "number or [w, h]".into(),
            Ty::Rect => "rect".into(),
            Ty::Table(_) => "table".into(),
            Ty::Named(_) => "tables by name".into(),
            Ty::Tables(_) => "array of tables".into(),
            Ty::Counts { .. } => "table of name = integer".into(),
            Ty::Keys => "key names".into(),
            Ty::Constants => "table of name = value".into(),
        }
    }

    /// The allowed values, in words; empty when the type says it all.
    pub fn range(&self) -> String {
        match *self {
            Ty::Int { min, max } | Ty::Counts { min, max } => int_range(min, max),
            Ty::Number {
                min,
                max,
                above_min,
            }
            | Ty::Pair {
                min,
                max,
                above_min,
                ..
            } => number_range(min, max, above_min),
            Ty::Size { max } => number_range(0.0, max, true),
            Ty::Choice(options) => one_of(options),
            Ty::Names { max } if max < usize::MAX => format!("at most {max}, distinct"),
            Ty::Names { .. } => "distinct".into(),
            Ty::Path { ext } | Ty::Paths { ext } if !ext.is_empty() => format!("ends in `{ext}`"),
            Ty::Text | Ty::Name | Ty::Texts | Ty::Path { .. } | Ty::Paths { .. } => String::new(),
            Ty::Color => "`#rgb`, `#rrggbb`, `#rrggbbaa` or a colour name".into(),
            Ty::Keys => "key names below; axis scales -1 to 1".into(),
            Ty::Constants => "booleans, integers, finite numbers, strings".into(),
            Ty::Bool | Ty::Rect | Ty::Table(_) | Ty::Named(_) | Ty::Tables(_) => String::new(),
        }
    }
}

pub(crate) fn int_range(min: i64, max: i64) -> String {
    if max == i64::MAX {
        format!("at least {min}")
    } else {
        format!("{min} to {max}")
    }
}

pub(crate) fn number_range(min: f64, max: f64, above_min: bool) -> String {
    if above_min {
        format!("above {min}, at most {max}")
    } else {
        format!("{min} to {max}")
    }
}

impl Dflt {
    /// The default as the reference shows it.
    pub fn describe(&self) -> String {
        match self {
            Dflt::Required => "required".into(),
            Dflt::Unset => "none".into(),
            Dflt::Defaults => "all defaults".into(),
            Dflt::Empty => "empty".into(),
            Dflt::Int(v) => v.to_string(),
            Dflt::Num(v) => v.to_string(),
            Dflt::Bool(v) => v.to_string(),
            Dflt::Str(s) => format!("`\"{s}\"`"),
            Dflt::Pair(a, b) => format!("`[{a}, {b}]`"),
            Dflt::Doc(s) => (*s).into(),
        }
    }
}

const fn key(
    name: &'static str,
    ty: Ty,
    default: Dflt,
    unit: &'static str,
    doc: &'static str,
    example: &'static str,
) -> KeySchema {
    KeySchema {
        name,
        ty,
        default,
        unit,
        doc,
        example,
    }
}

const fn int(min: i64, max: i64) -> Ty {
    Ty::Int { min, max }
}

const fn number(min: f64, max: f64) -> Ty {
    Ty::Number {
        min,
        max,
        above_min: false,
    }
}

const fn positive(max: f64) -> Ty {
    Ty::Number {
        min: 0.0,
        max,
        above_min: true,
    }
}

const POINT: Ty = Ty::Pair {
    min: -COORD_MAX,
    max: COORD_MAX,
    above_min: false,
    form: "[x, y]",
};

const VELOCITY: Ty = Ty::Pair {
    min: -SPEED_MAX,
    max: SPEED_MAX,
    above_min: false,
    form: "[x, y]",
};

// The tables below keep one key per line so that they read as tables.

/// The top level of `game.toml`.
#[rustfmt::skip]
pub(crate) static GAME: TableSchema = TableSchema {
    title: "game.toml",
    doc: "The game file. Top-level keys come first, before any `[table]` header: a key written \
          after a header belongs to that table.",
    keys: &[
        key("name", Ty::Text, Dflt::Required, "", "The game's name: the window title unless `[window]` sets one.", "name = \"Swarm\""),
        key("seed", int(0, i64::MAX), Dflt::Int(0), "", "Seed of the world's random generator. The same seed and the same input play the same game.", "seed = 7"),
        key("entry", Ty::Name, Dflt::Doc("the first level"), "", "Name of the level the game starts in.", "entry = \"arena\""),
        key("hud", Ty::Texts, Dflt::Empty, "", "Lines drawn over the game. `{score}`, `{tick}` and `{NAME}` of any script variable are replaced by their values.", "hud = [\"score {score}\"]"),
        key("tags", Ty::Names { max: 64 }, Dflt::Empty, "", "Tags entities can carry. Behaviours find their targets by tag; scripts test them.", "tags = [\"player\", \"enemy\"]"),
        key("layers", Ty::Names { max: 32 }, Dflt::Empty, "", "Collision layers. Every collider is on one layer and names the layers it reports and pushes.", "layers = [\"ships\", \"shots\"]"),
        key("archetype_files", Ty::Paths { ext: ".toml" }, Dflt::Empty, "", "Files of `[archetypes.NAME]` tables, read in order after game.toml.", "archetype_files = [\"archetypes.toml\"]"),
        key("level_files", Ty::Paths { ext: ".toml" }, Dflt::Empty, "", "Level files, read in order after the archetype files.", "level_files = [\"levels/arena.toml\"]"),
        key("tick", Ty::Table(&TICK), Dflt::Defaults, "", "How wall time becomes simulation ticks.", "[tick]"),
        key("ai", Ty::Table(&AI), Dflt::Defaults, "", "When behaviours decide.", "[ai]"),
        key("limits", Ty::Table(&LIMITS), Dflt::Defaults, "", "Capacities of every bounded queue and pool.", "[limits]"),
        key("window", Ty::Table(&WINDOW), Dflt::Defaults, "", "The desktop window.", "[window]"),
        key("scripts", Ty::Table(&SCRIPTS), Dflt::Defaults, "", "Lua scripts and their budgets.", "[scripts]"),
        key("constants", Ty::Constants, Dflt::Empty, "", "Named values scripts can read.", "[constants]"),
        key("physics", Ty::Table(&PHYSICS), Dflt::Defaults, "", "Collision detection settings.", "[physics]"),
        key("input", Ty::Table(&INPUT), Dflt::Defaults, "", "Actions and the keys that drive them.", "[input.actions.fire]"),
        key("effects", Ty::Named(&EFFECT), Dflt::Empty, "", "Particle effects scripts can request by name.", "[effects.spark]"),
        key("sounds", Ty::Named(&SOUND), Dflt::Empty, "", "Synthesised sounds scripts can request by name.", "[sounds.shoot]"),
        key("stress", Ty::Table(&STRESS), Dflt::Unset, "", "What `--entities N` fills a level with.", "[stress]"),
        key("archetypes", Ty::Named(&ARCHETYPE), Dflt::Empty, "", "Kinds of entity (also allowed in archetype files).", "[archetypes.ship]"),
        key("levels", Ty::Named(&LEVEL), Dflt::Empty, "", "Levels written inline; the table key is the level's name.", "[levels.arena]"),
    ],
};

#[rustfmt::skip]
pub(crate) static TICK: TableSchema = TableSchema {
    title: "[tick]",
    doc: "The tick policy. Every second of accepted wall time runs exactly `rate` ticks; a \
          frame that arrives late counts as at most `max_frame_delta`, and one frame runs at \
          most `catch_up` ticks (the rest are dropped, so overload slows the game down instead \
          of spiralling).",
    keys: &[
        key("rate", int(1, 1000), Dflt::Int(60), "Hz", "Simulation ticks per second.", "rate = 60"),
        key("max_frame_delta", positive(10_000.0), Dflt::Num(250.0), "ms", "The most wall time one frame may contribute.", "max_frame_delta = 250"),
        key("catch_up", int(1, 64), Dflt::Int(4), "ticks", "The most ticks one frame may run.", "catch_up = 4"),
    ],
};

#[rustfmt::skip]
pub(crate) static AI: TableSchema = TableSchema {
    title: "[ai]",
    doc: "Behaviours decide on a cadence and keep their last decision in between.",
    keys: &[key("cadence", int(1, 3600), Dflt::Int(10), "ticks", "Ticks between decisions of a behaviour that sets no cadence of its own.", "cadence = 10")],
};

#[rustfmt::skip]
pub(crate) static LIMITS: TableSchema = TableSchema {
    title: "[limits]",
    doc: "Capacities. Exceeding `entities`, `events`, `commands`, `timers`, `contacts`, \
          `variables` or `state_keys` stops the game with a fault naming the limit; `outbox` and \
          `draws` overflows are counted and reported. Each limit is checked as its queue or table \
          fills, so it also bounds the memory and time hostile content or scripts can take.",
    keys: &[
        key("entities", int(1, 10_000_000), Dflt::Int(300_000), "", "Live entities.", "entities = 300000"),
        key("events", int(1, 10_000_000), Dflt::Int(65_536), "", "Events of one kind in one tick.", "events = 65536"),
        key("commands", int(1, 10_000_000), Dflt::Int(65_536), "", "Commands one gameplay stage may send.", "commands = 65536"),
        key("outbox", int(1, 10_000_000), Dflt::Int(1_024), "", "Effect and sound requests waiting for presentation.", "outbox = 1024"),
        key("timers", int(1, 10_000_000), Dflt::Int(4_096), "", "Pending timers.", "timers = 4096"),
        key("draws", int(1, 10_000_000), Dflt::Int(300_000), "", "Draws in one frame.", "draws = 300000"),
        key("jobs", int(1, 10_000_000), Dflt::Int(16), "", "Background requests admitted at once.", "jobs = 16"),
        key("contacts", int(1, 10_000_000), Dflt::Int(262_144), "", "Overlapping collider pairs found in one tick, reported or pushed apart. The search for them may also examine at most 256 candidates per pair allowed here plus 64 per collider, so colliders piled up without looking at each other stop the game instead of stalling it.", "contacts = 262144"),
        key("variables", int(1, 1_000_000), Dflt::Int(1_024), "", "Distinct game variable names scripts may set (`ludus.set`).", "variables = 1024"),
        key("state_keys", int(1, 1_000_000), Dflt::Int(64), "", "Distinct state keys scripts may set on one entity (`ludus.set_state`).", "state_keys = 64"),
    ],
};

#[rustfmt::skip]
pub(crate) static WINDOW: TableSchema = TableSchema {
    title: "[window]",
    doc: "The desktop window (the browser uses the page's canvas).",
    keys: &[
        key("title", Ty::Text, Dflt::Doc("the game's `name`"), "", "Window title.", "title = \"Swarm\""),
        key("width", int(64, 16_384), Dflt::Int(1024), "pixels", "Initial width.", "width = 1280"),
        key("height", int(64, 16_384), Dflt::Int(768), "pixels", "Initial height.", "height = 720"),
    ],
};

#[rustfmt::skip]
pub(crate) static SCRIPTS: TableSchema = TableSchema {
    title: "[scripts]",
    doc: "Lua scripts, loaded in order, and the fences that turn a runaway script into a clean \
          fault.",
    keys: &[
        key("files", Ty::Paths { ext: ".lua" }, Dflt::Empty, "", "Script files, each non-empty UTF-8.", "files = [\"scripts/main.lua\"]"),
        key("budget", int(1_000, 1_000_000_000), Dflt::Int(2_000_000), "units", "Script budget per tick, all handlers together: one unit per Lua instruction, plus bulk work (copies, searches, library loops) by its size; see docs/scripting.md.", "budget = 2000000"),
        key("memory", int(1, 4_096), Dflt::Int(64), "MiB", "The most memory the Lua heap may hold.", "memory = 64"),
    ],
};

#[rustfmt::skip]
pub(crate) static PHYSICS: TableSchema = TableSchema {
    title: "[physics]",
    doc: "Collision detection.",
    keys: &[key("cell", positive(SIZE_MAX), Dflt::Doc("twice the largest collider extent"), "world units", "Broadphase grid cell size.", "cell = 64")],
};

#[rustfmt::skip]
pub(crate) static INPUT: TableSchema = TableSchema {
    title: "[input]",
    doc: "Input is declared as actions; keys drive actions; archetypes and scripts only ever \
          see actions.",
    keys: &[key("actions", Ty::Named(&ACTION), Dflt::Empty, "", "Actions in declaration order (at most 64).", "[input.actions.fire]")],
};

#[rustfmt::skip]
pub(crate) static ACTION: TableSchema = TableSchema {
    title: "[input.actions.NAME]",
    doc: "One action. A button is held while any of its keys is down; an axis is the sum of the \
          scales of its held keys, clamped to -1..1.",
    keys: &[
        key("kind", Ty::Choice(&["button", "axis"]), Dflt::Required, "", "Button or axis.", "kind = \"axis\""),
        key("keys", Ty::Keys, Dflt::Empty, "", "A button's keys: an array of key names. An axis's keys: a table of key name = scale.", "keys = { a = -1, d = 1 }"),
    ],
};

#[rustfmt::skip]
pub(crate) static EFFECT: TableSchema = TableSchema {
    title: "[effects.NAME]",
    doc: "A burst of particles scripts can request by name.",
    keys: &[
        key("color", Ty::Color, Dflt::Str("white"), "", "Particle colour.", "color = \"#ffd166\""),
        key("particles", int(0, 1000), Dflt::Int(12), "", "Particles per burst.", "particles = 24"),
        key("speed", number(0.0, SPEED_MAX), Dflt::Num(120.0), "world units/s", "Particle speed.", "speed = 200"),
        key("duration", positive(10.0), Dflt::Num(0.4), "seconds", "Particle life.", "duration = 0.5"),
        key("size", positive(SIZE_MAX), Dflt::Num(3.0), "world units", "Particle size.", "size = 4"),
    ],
};

#[rustfmt::skip]
pub(crate) static SOUND: TableSchema = TableSchema {
    title: "[sounds.NAME]",
    doc: "A synthesised tone scripts can request by name, so games need no audio files.",
    keys: &[
        key("wave", Ty::Choice(&["sine", "square", "triangle", "saw", "noise"]), Dflt::Str("square"), "", "Waveform.", "wave = \"triangle\""),
        key("freq", number(20.0, 20_000.0), Dflt::Num(440.0), "Hz", "Start frequency.", "freq = 880"),
        key("freq_end", number(20.0, 20_000.0), Dflt::Doc("`freq`"), "Hz", "End frequency: the tone slides from `freq` to it.", "freq_end = 220"),
        key("duration", positive(5.0), Dflt::Num(0.1), "seconds", "Length.", "duration = 0.15"),
        key("volume", number(0.0, 1.0), Dflt::Num(0.5), "", "Loudness.", "volume = 0.3"),
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

#[rustfmt::skip]
pub(crate) static ARCHETYPE_FILE: TableSchema = TableSchema {
    title: "archetype files",
    doc: "A file listed in `archetype_files` holds only `[archetypes.NAME]` tables. An \
          archetype name is declared once across all files.",
    keys: &[key("archetypes", Ty::Named(&ARCHETYPE), Dflt::Empty, "", "Kinds of entity.", "[archetypes.drone]")],
};

#[rustfmt::skip]
pub(crate) static ARCHETYPE: TableSchema = TableSchema {
    title: "[archetypes.NAME]",
    doc: "A kind of entity: its components and their starting values. Every component table is \
          optional.",
    keys: &[
        key("tags", Ty::Names { max: 64 }, Dflt::Empty, "", "Tags from the game's `tags`.", "tags = [\"enemy\"]"),
        key("speed", number(0.0, SPEED_MAX), Dflt::Num(0.0), "world units/s", "Movement speed for behaviours and player control.", "speed = 180"),
        key("velocity", VELOCITY, Dflt::Pair(0.0, 0.0), "world units/s", "Initial velocity.", "velocity = [0, -300]"),
        key("camera", Ty::Bool, Dflt::Bool(false), "", "The camera follows the first live entity of an archetype with this set.", "camera = true"),
        key("bounds", Ty::Choice(&["ignore", "confine", "destroy"]), Dflt::Str("ignore"), "", "At the level's bounds: nothing, kept inside, or destroyed (an `expired` event).", "bounds = \"confine\""),
        key("lifetime", int(1, TICKS_MAX), Dflt::Unset, "ticks", "Ticks until the entity expires (an `expired` event, then it is destroyed).", "lifetime = 90"),
        key("cooldowns", Ty::Counts { min: 0, max: 1_000_000 }, Dflt::Empty, "ticks", "Named cooldowns and their lengths (at most 256), for triggers and scripts.", "cooldowns = { shoot = 8 }"),
        key("sprite", Ty::Table(&SPRITE), Dflt::Unset, "", "How it is drawn.", "[archetypes.ship.sprite]"),
        key("collider", Ty::Table(&COLLIDER), Dflt::Unset, "", "How it collides.", "[archetypes.ship.collider]"),
        key("health", Ty::Table(&HEALTH), Dflt::Unset, "", "Hit points.", "health = { max = 3 }"),
        key("behaviour", Ty::Table(&BEHAVIOUR), Dflt::Unset, "", "A built-in AI behaviour.", "behaviour = { kind = \"chase\", target = [\"player\"] }"),
        key("control", Ty::Table(&CONTROL), Dflt::Unset, "", "Player control.", "[archetypes.ship.control]"),
    ],
};

#[rustfmt::skip]
pub(crate) static SPRITE: TableSchema = TableSchema {
    title: "[archetypes.NAME.sprite]",
    doc: "Drawing: lower layers first, then lower depth, then creation order.",
    keys: &[
        key("shape", Ty::Choice(&["circle", "rect", "image"]), Dflt::Str("circle"), "", "What is drawn.", "shape = \"rect\""),
        key("image", Ty::Path { ext: "" }, Dflt::Doc("required when `shape = \"image\"`"), "", "A PNG file in the game folder.", "image = \"images/ship.png\""),
        key("size", Ty::Size { max: SIZE_MAX }, Dflt::Num(16.0), "world units", "Width and height (one number: a square).", "size = [24, 16]"),
        key("color", Ty::Color, Dflt::Str("white"), "", "Fill colour (tints an image).", "color = \"#4cc9f0\""),
        key("layer", int(-32_768, 32_767), Dflt::Int(0), "", "Draw layer.", "layer = 2"),
        key("depth", number(-COORD_MAX, COORD_MAX), Dflt::Num(0.0), "", "Draw order inside a layer.", "depth = 0.5"),
    ],
};

#[rustfmt::skip]
pub(crate) static COLLIDER: TableSchema = TableSchema {
    title: "[archetypes.NAME.collider]",
    doc: "A shape centred on the entity. A pair is reported when either side's `mask` holds the \
          other's `layer`; a pair is pushed apart when either side's `push` holds the other's \
          layer and neither is a trigger.",
    keys: &[
        key("shape", Ty::Choice(&["circle", "box"]), Dflt::Str("circle"), "", "Circle or axis-aligned box.", "shape = \"box\""),
        key("radius", positive(SIZE_MAX), Dflt::Doc("half the larger side of the sprite; required without a sprite"), "world units", "A circle's radius.", "radius = 10"),
        key("size", Ty::Size { max: SIZE_MAX }, Dflt::Doc("the sprite's size; required without a sprite"), "world units", "A box's width and height.", "size = [32, 8]"),
        key("layer", Ty::Name, Dflt::Required, "", "Its layer, from the game's `layers`.", "layer = \"ships\""),
        key("mask", Ty::Names { max: 32 }, Dflt::Empty, "", "Layers whose contacts it reports.", "mask = [\"shots\"]"),
        key("push", Ty::Names { max: 32 }, Dflt::Empty, "", "Layers it is pushed apart from.", "push = [\"walls\"]"),
        key("trigger", Ty::Bool, Dflt::Bool(false), "", "Reports trigger events instead of collisions and is never pushed.", "trigger = true"),
        key("stay", Ty::Bool, Dflt::Bool(false), "", "Also reports a `stay` event every tick a contact lasts.", "stay = true"),
    ],
};

#[rustfmt::skip]
pub(crate) static HEALTH: TableSchema = TableSchema {
    title: "[archetypes.NAME.health]",
    doc: "Hit points, changed by `damage` and `heal` commands.",
    keys: &[
        key("max", int(1, 1_000_000_000), Dflt::Required, "", "Starting and largest health.", "max = 3"),
        key("invulnerable", int(0, 1_000_000), Dflt::Int(0), "ticks", "Invulnerability after taking damage.", "invulnerable = 30"),
    ],
};

#[rustfmt::skip]
pub(crate) static BEHAVIOUR: TableSchema = TableSchema {
    title: "[archetypes.NAME.behaviour]",
    doc: "A built-in behaviour, decided in Rust on its cadence: chase or flee the nearest entity \
          with a target tag, wander, or keep going straight.",
    keys: &[
        key("kind", Ty::Choice(&["chase", "flee", "wander", "straight"]), Dflt::Required, "", "The behaviour.", "kind = \"chase\""),
        key("target", Ty::Names { max: 64 }, Dflt::Doc("required for chase and flee; not allowed otherwise"), "", "Tags of what it chases or flees.", "target = [\"player\"]"),
        key("cadence", int(1, 3600), Dflt::Doc("`ai.cadence`"), "ticks", "Ticks between decisions.", "cadence = 5"),
        key("navigate", Ty::Bool, Dflt::Bool(false), "", "Chase along the level's `nav` flow field, around obstacles (chase only).", "navigate = true"),
    ],
};

#[rustfmt::skip]
pub(crate) static CONTROL: TableSchema = TableSchema {
    title: "[archetypes.NAME.control]",
    doc: "Player control: axis actions move the entity at its `speed`; button actions raise \
          `action` events for it.",
    keys: &[
        key("move_x", Ty::Name, Dflt::Unset, "", "An axis action for horizontal movement.", "move_x = \"move_x\""),
        key("move_y", Ty::Name, Dflt::Unset, "", "An axis action for vertical movement.", "move_y = \"move_y\""),
        key("triggers", Ty::Tables(&TRIGGER), Dflt::Empty, "", "Button actions that raise events.", "triggers = [{ action = \"fire\", on = \"hold\", cooldown = \"shoot\" }]"),
    ],
};

#[rustfmt::skip]
pub(crate) static TRIGGER: TableSchema = TableSchema {
    title: "[[archetypes.NAME.control.triggers]]",
    doc: "One button action that raises an `action` event for the controlled entity.",
    keys: &[
        key("action", Ty::Name, Dflt::Required, "", "A button action.", "action = \"fire\""),
        key("on", Ty::Choice(&["press", "hold", "release"]), Dflt::Str("press"), "", "The tick it went down, every tick it is held, or the tick it went up.", "on = \"hold\""),
        key("cooldown", Ty::Name, Dflt::Unset, "", "One of the archetype's cooldowns: the event fires only when it has run out, and restarts it.", "cooldown = \"shoot\""),
        key("aim", Ty::Names { max: 64 }, Dflt::Empty, "", "Tags to aim at: the event's `aim_x`, `aim_y` point at the nearest entity with one of them (the facing when there is none).", "aim = [\"enemy\"]"),
    ],
};

#[rustfmt::skip]
pub(crate) static LEVEL: TableSchema = TableSchema {
    title: "level files",
    doc: "A file listed in `level_files`, or a `[levels.NAME]` table in game.toml (whose table \
          key is the name, so it has no `name` key). Level names are unique across the game.",
    keys: &[
        key("name", Ty::Name, Dflt::Doc("required in level files"), "", "The level's name.", "name = \"arena\""),
        key("mode", Ty::Choice(&["playing", "paused"]), Dflt::Str("playing"), "", "The mode the level starts in.", "mode = \"paused\""),
        key("bounds", Ty::Rect, Dflt::Doc("`{ size = [800, 600] }`"), "", "The playfield; `confine` and `destroy` bounds use it.", "bounds = { min = [0, 0], max = [1600, 1200] }"),
        key("background", Ty::Color, Dflt::Str("#14161e"), "", "Clear colour.", "background = \"#101018\""),
        key("camera", Ty::Table(&CAMERA), Dflt::Defaults, "", "What the camera shows.", "camera = { view = [800, 600] }"),
        key("nav", Ty::Table(&NAV), Dflt::Unset, "", "A navigation grid for `navigate` behaviours.", "[nav]"),
        key("place", Ty::Tables(&PLACE), Dflt::Empty, "", "Entities placed when the level starts.", "[[place]]"),
        key("spawner", Ty::Tables(&SPAWNER), Dflt::Empty, "", "Periodic spawning.", "[[spawner]]"),
    ],
};

#[rustfmt::skip]
pub(crate) static CAMERA: TableSchema = TableSchema {
    title: "[camera]",
    doc: "The camera follows the archetype with `camera = true`, else looks at the centre of \
          the bounds.",
    keys: &[
        key("view", Ty::Pair { min: 0.0, max: SIZE_MAX, above_min: true, form: "[w, h]" }, Dflt::Pair(800.0, 600.0), "world units", "World units visible; the window letterboxes to keep the aspect.", "view = [960, 540]"),
        key("bounds", Ty::Rect, Dflt::Unset, "", "The camera centre never shows outside this rectangle.", "bounds = { size = [1600, 1200] }"),
    ],
};

#[rustfmt::skip]
pub(crate) static NAV: TableSchema = TableSchema {
    title: "[nav]",
    doc: "A grid over the level's bounds. Cells overlapped by colliders on `blocking` layers are \
          blocked; chasers with `navigate = true` follow a flow field toward the first entity \
          with a `goal` tag.",
    keys: &[
        key("cell", positive(SIZE_MAX), Dflt::Num(32.0), "world units", "Cell size.", "cell = 32"),
        key("blocking", Ty::Names { max: 32 }, Dflt::Required, "", "Layers that block cells.", "blocking = [\"walls\"]"),
        key("goal", Ty::Names { max: 64 }, Dflt::Required, "", "Tags of the goal entity.", "goal = [\"player\"]"),
    ],
};

#[rustfmt::skip]
pub(crate) static PLACE: TableSchema = TableSchema {
    title: "[[place]]",
    doc: "One entity placed when the level starts; the optional keys override the archetype's \
          values for this entity only.",
    keys: &[
        key("archetype", Ty::Name, Dflt::Required, "", "What to place.", "archetype = \"ship\""),
        key("at", POINT, Dflt::Required, "world units", "Position.", "at = [0, 200]"),
        key("velocity", VELOCITY, Dflt::Doc("the archetype's"), "world units/s", "Initial velocity.", "velocity = [40, 0]"),
        key("speed", number(0.0, SPEED_MAX), Dflt::Doc("the archetype's"), "world units/s", "Speed.", "speed = 90"),
        key("health", int(1, 1_000_000_000), Dflt::Doc("the archetype's"), "", "Starting health (the archetype needs `health`).", "health = 10"),
        key("color", Ty::Color, Dflt::Doc("the archetype's"), "", "Sprite colour (the archetype needs a `sprite`).", "color = \"red\""),
        key("lifetime", int(1, TICKS_MAX), Dflt::Doc("the archetype's"), "ticks", "Ticks until it expires.", "lifetime = 600"),
    ],
};

#[rustfmt::skip]
pub(crate) static SPAWNER: TableSchema = TableSchema {
    title: "[[spawner]]",
    doc: "Spawns `count` entities every `every` ticks at uniformly random positions in `area` \
          (drawn from the world's seeded generator).",
    keys: &[
        key("archetype", Ty::Name, Dflt::Required, "", "What to spawn.", "archetype = \"drone\""),
        key("every", int(1, TICKS_MAX), Dflt::Required, "ticks", "Ticks between bursts.", "every = 120"),
        key("count", int(1, 100_000), Dflt::Int(1), "", "Entities per burst.", "count = 5"),
        key("area", Ty::Rect, Dflt::Doc("the level's bounds"), "", "Where they appear.", "area = { min = [-400, -300], max = [400, -250] }"),
        key("start", int(0, TICKS_MAX), Dflt::Doc("`every`"), "tick", "Tick of the first burst.", "start = 0"),
        key("bursts", int(1, TICKS_MAX), Dflt::Unset, "", "Stop after this many bursts (none: forever).", "bursts = 10"),
    ],
};

#[rustfmt::skip]
pub(crate) static RECT: TableSchema = TableSchema {
    title: "rect",
    doc: "A rectangle: either both corners, or a size centred on the origin.",
    keys: &[
        key("min", POINT, Dflt::Doc("with `max`"), "world units", "Lower corner; every coordinate below `max`'s.", "min = [-400, -300]"),
        key("max", POINT, Dflt::Doc("with `min`"), "world units", "Upper corner.", "max = [400, 300]"),
        key("size", Ty::Pair { min: 0.0, max: 2.0 * COORD_MAX, above_min: true, form: "[w, h]" }, Dflt::Doc("instead of `min` and `max`"), "world units", "Width and height, centred on the origin.", "size = [800, 600]"),
    ],
};

/// "one of `"a"`, `"b"`": the allowed strings of a choice, as diagnostics and the reference
/// write them.
pub(crate) fn one_of(options: &[&str]) -> String {
    let quoted: Vec<String> = options.iter().map(|o| format!("`\"{o}\"`")).collect();
    format!("one of {}", quoted.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(t: &'static TableSchema, seen: &mut Vec<&'static str>) {
        if seen.contains(&t.title) {
            return;
        }
        seen.push(t.title);
        let mut names: Vec<&str> = t.key_names().collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), t.keys.len(), "duplicate key in {}", t.title);
        for k in t.keys {
            assert!(
                !k.doc.is_empty() && !k.example.is_empty(),
                "{}.{}",
                t.title,
                k.name
            );
            assert!(!k.example.contains('|'), "pipes break the reference tables");
            match k.ty {
                Ty::Table(c) | Ty::Named(c) | Ty::Tables(c) => walk(c, seen),
                _ => {}
            }
        }
    }

    /// The loader reads `[limits]` through `ludus_core::Limit`, and messages name limits by
    /// it: the schema must declare exactly its keys, defaulting to `Limits::default()`.
    #[test]
    fn limits_declares_the_cores_keys_and_defaults() {
        use ludus_core::{Limit, Limits};
        let declared: Vec<&str> = LIMITS.key_names().collect();
        let core: Vec<&str> = Limit::ALL.iter().map(|l| l.key()).collect();
        assert_eq!(declared, core);
        for limit in Limit::ALL {
            let key = LIMITS.key(limit.key()).expect("declared");
            match (key.ty, key.default) {
                (Ty::Int { min, max }, Dflt::Int(d)) => {
                    assert_eq!(d, i64::from(limit.of(&Limits::default())), "{limit}");
                    assert!(min >= 1 && max <= i64::from(u32::MAX) && (min..=max).contains(&d));
                }
                _ => panic!("{limit} is not an integer with a default"),
            }
        }
    }

    #[test]
    fn every_table_is_well_formed() {
        let mut seen = Vec::new();
        for root in [&GAME, &ARCHETYPE_FILE, &LEVEL, &RECT] {
            walk(root, &mut seen);
        }
        assert!(seen.len() > 20);
    }
}
