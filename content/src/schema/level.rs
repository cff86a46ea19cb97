//! The tables of a level.

use crate::schema::*;
use ludus_core::{CameraDef, LevelDef, NavDef, SpawnerDef, TileMapDef};

#[rustfmt::skip]
pub(crate) static LEVEL: TableSchema = TableSchema {
    title: "level files",
    doc: "A file listed in `level_files`, or a `[levels.NAME]` table in game.toml (whose table \
          key is the name, so it has no `name` key). Level names are unique across the game.",
    keys: &[
        key("name", Ty::Name, Dflt::Doc("required in level files"), "", "The level's name.", "name = \"arena\""),
        key("mode", Ty::Choice(&["playing", "paused"]), Dflt::Str(LevelDef::ENTRY_MODE.name()), "", "The mode the level starts in.", "mode = \"paused\""),
        key("bounds", Ty::Rect, Dflt::Doc("`{ size = [800, 600] }`"), "", "The playfield; `confine` and `destroy` bounds use it.", "bounds = { min = [0, 0], max = [1600, 1200] }"),
        key("background", Ty::Color, Dflt::Color(LevelDef::BACKGROUND), "", "Clear colour.", "background = \"#101018\""),
        key("tilemap", Ty::Table(&TILEMAP), Dflt::Unset, "", "A grid of tiles drawn from an image's frames; solid tiles collide.", "[tilemap]"),
        key("camera", Ty::Table(&CAMERA), Dflt::Defaults, "", "What the camera shows.", "camera = { view = [800, 600] }"),
        key("nav", Ty::Table(&NAV), Dflt::Unset, "", "A navigation grid for `navigate` behaviours.", "[nav]"),
        key("place", Ty::Tables(&PLACE), Dflt::Empty, "", "Entities placed when the level starts.", "[[place]]"),
        key("spawner", Ty::Tables(&SPAWNER), Dflt::Empty, "", "Periodic spawning.", "[[spawner]]"),
    ],
};

#[rustfmt::skip]
pub(crate) static TILEMAP: TableSchema = TableSchema {
    title: "[tilemap]",
    doc: "Rows of characters, top to bottom, each character a tile from `legend` (a space is \
          no tile; rows may differ in length), or a CSV file of frame numbers as map editors \
          export them (Tiled: `csv_first = 1`), a line per row. Tiles are drawn from the frames of one image; \
          only those in view are drawn, so large maps cost what the screen shows. Solid tiles \
          are merged into rectangles (each row's runs of equal tiles, then equal runs below \
          them) placed with the level as static colliders of the legend's archetype.",
    keys: &[
        key("image", Ty::Name, Dflt::Required, "", "An image from `[images]`: a tile is one of its frames.", "image = \"tiles\""),
        key("rows", Ty::Lines { len: 4096 }, Dflt::Unset, "", "The map, a string per row (at most 4096 x 4096 tiles). Give `rows` or `csv`.", "rows = [\"#####\", \"#...#\", \"#####\"]"),
        key("csv", Ty::Path { ext: ".csv" }, Dflt::Unset, "", "The map in a file, a line per row of comma-separated cells: a frame number (numbers below `csv_first`, and empty cells, are no tile) or a character of `legend` (which decides first, so a legend may make numbers solid).", "csv = \"maps/cave.csv\""),
        key("csv_first", int(-65_536, 65_536), Dflt::Int(0), "", "The number that stands for frame 0 in `csv` (Tiled writes 1, and 0 for no tile).", "csv_first = 1"),
        key("legend", Ty::Legend(&LEGEND), Dflt::Empty, "", "What each character is.", "legend = { \"#\" = { frame = 1, solid = \"wall\" }, \".\" = { frame = 0 } }"),
        key("tile", Ty::Pair { min: 0.0, max: SIZE_MAX, above_min: true, form: "[w, h]" }, Dflt::Doc("the image's frame size"), "world units", "A tile's size.", "tile = [32, 32]"),
        key("origin", POINT, Dflt::Doc("the top-left corner of the level's bounds"), "world units", "The top-left corner of the first row's first tile.", "origin = [-400, -300]"),
        key("layer", int(-32_768, 32_767), Dflt::Int(TileMapDef::LAYER as i64), "", "Draw layer (sprites are on layer 0 unless they say).", "layer = -1"),
    ],
};

#[rustfmt::skip]
pub(crate) static LEGEND: TableSchema = TableSchema {
    title: "[tilemap.legend]",
    doc: "One character of the map (the key, e.g. `\"#\"`, at most 254 of them): a tile (the \
          frame drawn for it and whether it is solid), or a spawn entry: an archetype placed \
          at the centre of each cell holding the character when the level starts, over the \
          tile `tile` names. `ludus.tile(x, y)` reads a cell's character and \
          `ludus.set_tile(x, y, ch)` changes its tile.",
    keys: &[
        key("frame", int(0, 65_535), Dflt::Unset, "", "The image's frame drawn (none: nothing drawn, e.g. an invisible wall).", "frame = 1"),
        key("solid", Ty::Name, Dflt::Unset, "", "An archetype with a static collider: the tile collides as it does (its layer, mask, tags, kind in events), with the tiles' rectangle for a shape (so its collider needs no `size`).", "solid = \"wall\""),
        key("spawn", Ty::Name, Dflt::Unset, "", "An archetype placed at the centre of each cell holding this character, in row order after the level's `[[place]]` entries and solid tiles (then the entry has no `frame` or `solid`).", "spawn = \"enemy\""),
        key("tile", Ty::Text, Dflt::Unset, "", "The tile under a spawn entry's archetype: another character of the legend, or `\" \"` for none.", "tile = \".\""),
    ],
};

#[rustfmt::skip]
pub(crate) static CAMERA: TableSchema = TableSchema {
    title: "[camera]",
    doc: "The camera follows the archetype with `camera = true`, else looks at the centre of \
          the bounds. Scripts shake it (`ludus.camera_shake`) and zoom it (`ludus.camera_zoom`).",
    keys: &[
        key("view", Ty::Pair { min: 0.0, max: SIZE_MAX, above_min: true, form: "[w, h]" }, pair(CameraDef::DEFAULT.view), "world units", "World units visible; the window letterboxes to keep the aspect.", "view = [960, 540]"),
        key("bounds", Ty::Rect, Dflt::Unset, "", "The view never shows outside this rectangle (a view larger than it stays centred on it).", "bounds = { size = [1600, 1200] }"),
        key("zoom", number(0.01, 100.0), Dflt::Num(CameraDef::DEFAULT.zoom), "", "Magnification: 2 shows half of `view`, twice as large. Scripts change it with `ludus.camera_zoom(z)` (relative to this).", "zoom = 2"),
        key("dead_zone", Ty::Pair { min: 0.0, max: SIZE_MAX, above_min: false, form: "[w, h]" }, Dflt::Unset, "world units", "A box about the view's centre in which the followed entity moves without moving the camera.", "dead_zone = [120, 80]"),
    ],
};

#[rustfmt::skip]
pub(crate) static NAV: TableSchema = TableSchema {
    title: "[nav]",
    doc: "A grid over the level's bounds. Cells overlapped by colliders on `blocking` layers are \
          blocked; chasers with `navigate = true` follow a flow field toward the first entity \
          with a `goal` tag.",
    keys: &[
        key("cell", positive(SIZE_MAX), Dflt::Num(NavDef::CELL), "world units", "Cell size; the grid over the level's bounds has at most 1024 cells a side.", "cell = 32"),
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
        key("size", Ty::Size { max: SIZE_MAX }, Dflt::Doc("the archetype's"), "world units", "The sprite's size and the collider's together (the archetype needs a sprite or a collider): a box collider takes this size, a circle half the larger side as its radius. One number: a square. `ludus.spawn`'s `size` is the same.", "size = [200, 20]"),
        key("text", Ty::Text, Dflt::Doc("the archetype's"), "", "The label's text (the archetype needs a `label`).", "text = \"EXIT\""),
        key("scale", Ty::Size { max: SCALE_MAX }, Dflt::Doc("1"), "", "Drawn this many times its size, `[x, y]` each way (the archetype needs a sprite or a label); the collider keeps its size. What `ludus.set_look`'s `scale` sets.", "scale = 2"),
        key("angle", number(-1000.0, 1000.0), Dflt::Doc("the archetype's"), "radians", "Its starting angle (it turns as the archetype's `angle` says; one without any gets a rotation).", "angle = 3.1416"),
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
        key("count", int(1, 100_000), count(SpawnerDef::COUNT), "", "Entities per burst.", "count = 5"),
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
