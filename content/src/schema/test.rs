//! The tables of a game's test files (`tests/*.toml`, run by `ludus test`).

use crate::schema::*;

/// The most ticks a test may run (`ludus sim --ticks`' bound).
pub(crate) const TEST_TICKS_MAX: i64 = 1_000_000_000;

/// The top level of a test file.
#[rustfmt::skip]
pub(crate) static TEST: TableSchema = TableSchema {
    title: "tests/NAME.toml",
    doc: "A test of a game: the input it plays, how long, and what the run must end with.",
    keys: &[
        key("input", Ty::Path { ext: ".jsonl" }, Dflt::Unset, "", "A `--input` file (JSON Lines keyed by tick), relative to the game folder.", "input = \"tests/win.jsonl\""),
        key("frames", Ty::Path { ext: ".jsonl" }, Dflt::Unset, "", "A `--frames` file (one line per presentation callback), relative to the game folder.", "frames = \"tests/menu.jsonl\""),
        key("ticks", int(1, TEST_TICKS_MAX), Dflt::Required, "ticks", "The most ticks the run takes (it stops sooner at a game over).", "ticks = 20000"),
        key("save", Ty::Path { ext: "" }, Dflt::Unset, "", "The game's saved data at the start: a save file, relative to the game folder (read, never written).", "save = \"tests/best.json\""),
        key("seed", int(0, i64::MAX), Dflt::Doc("the game's seed"), "", "The world seed.", "seed = 7"),
        key("expect", Ty::Table(&EXPECT), Dflt::Defaults, "", "What the run must end with.", "[expect]"),
    ],
};

/// `[expect]`.
#[rustfmt::skip]
pub(crate) static EXPECT: TableSchema = TableSchema {
    title: "[expect]",
    doc: "What the run must end with; a key not written is not checked (but `faulted`).",
    keys: &[
        key("game_over", Ty::Text, Dflt::Unset, "", "The game-over message, `false` for no game over, `true` for any.", "game_over = \"YOU WIN\""),
        key("tick", int(0, TEST_TICKS_MAX), Dflt::Unset, "ticks", "The ticks the run ran.", "tick = 5314"),
        key("score", Ty::Table(&RANGE), Dflt::Unset, "", "The score: a number, or `{ min = .., max = .. }`.", "score = 160"),
        key("vars", Ty::Variables, Dflt::Empty, "", "Game variables: each a number, a string, or `{ min = .., max = .. }`.", "vars.lives = 2"),
        key("count", Ty::Counts { min: 0, max: i64::MAX }, Dflt::Empty, "", "How many entities carry each tag at the end.", "count.brick = 0"),
        key("faulted", Ty::Bool, Dflt::Bool(false), "", "Whether the run faults: `false`, `true`, or text the fault's message contains.", "faulted = \"attempt to index a nil value\""),
        key("hash", Ty::Text, Dflt::Unset, "", "The state hash after the last tick (16 hex digits, as `ludus sim` prints it).", "hash = \"9b2c0e5d4f1a7c33\""),
    ],
};

/// `{ min = .., max = .. }` of a score or variable.
#[rustfmt::skip]
pub(crate) static RANGE: TableSchema = TableSchema {
    title: "ranges",
    doc: "Bounds of a number, both included; either may be left out.",
    keys: &[
        key("min", number(f64::MIN, f64::MAX), Dflt::Unset, "", "The least value allowed.", "min = 1"),
        key("max", number(f64::MIN, f64::MAX), Dflt::Unset, "", "The most value allowed.", "max = 10"),
    ],
};
