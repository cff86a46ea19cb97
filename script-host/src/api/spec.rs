//! The `ludus.*` API, declared once: the Rust functions are registered under these names (a
//! test checks both ways), the prelude builds the `ludus` table from what is registered, a call
//! of any other name is an error naming the closest one, and the command and read tables of
//! docs/scripting.md are generated from this list.

/// What a function is for, and when it may be called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Asks for a change; checked when sent, applied after the stage. Handlers only.
    Command,
    /// Reads the state at the start of the stage. Handlers only.
    Read,
    /// Pure helpers (no world access); anywhere, top-level code included.
    Helper,
}

/// One `ludus.*` function.
#[derive(Clone, Copy, Debug)]
pub struct ApiFunction {
    pub name: &'static str,
    /// The call as the docs show it, without `ludus.`: `damage(id, amount [, source])`.
    pub call: &'static str,
    pub section: Section,
    /// Implemented by the prelude in Lua rather than registered from Rust.
    pub lua: bool,
    pub doc: &'static str,
}

const fn f(
    name: &'static str,
    call: &'static str,
    section: Section,
    doc: &'static str,
) -> ApiFunction {
    ApiFunction {
        name,
        call,
        section,
        lua: false,
        doc,
    }
}

const fn lua(
    name: &'static str,
    call: &'static str,
    section: Section,
    doc: &'static str,
) -> ApiFunction {
    ApiFunction {
        name,
        call,
        section,
        lua: true,
        doc,
    }
}

use Section::{Command as C, Helper as H, Read as R};

/// Every `ludus.*` name, in the order the docs list them.
pub const API: &[ApiFunction] = &[
    f(
        "damage",
        "damage(id, amount [, source])",
        C,
        "lower health by a whole `amount >= 0` (blocked while the target is invulnerable); produces an `on_damage` event",
    ),
    f(
        "heal",
        "heal(id, amount)",
        C,
        "raise health, up to its maximum",
    ),
    f(
        "add_score",
        "add_score(n)",
        C,
        "add a whole number to the score",
    ),
    f(
        "set",
        "set(name, value)",
        C,
        "set a game variable (a number; shown by `{name}` in HUD lines)",
    ),
    f(
        "set_state",
        "set_state(id, key, value)",
        C,
        "set a number in an entity's own state",
    ),
    f(
        "spawn",
        "spawn(kind, x, y [, opts])",
        C,
        "create an entity at the end of the tick; `opts`: `vx`, `vy`, `speed`, `health`, `color`, `lifetime`. It appears in the next tick's `on_spawn`",
    ),
    f(
        "destroy",
        "destroy(id)",
        C,
        "destroy at the end of the tick; later commands naming it this tick are discarded",
    ),
    f(
        "teleport",
        "teleport(id, x, y)",
        C,
        "move at the end of the tick, without interpolating across the jump",
    ),
    f(
        "velocity",
        "velocity(id, vx, vy)",
        C,
        "replace the velocity (units per second)",
    ),
    f(
        "effect",
        "effect(name, x, y [, color])",
        C,
        "a particle effect declared in `[effects.NAME]`",
    ),
    f(
        "sound",
        "sound(name [, volume [, pitch]])",
        C,
        "a sound declared in `[sounds.NAME]`; `volume` in 0..4, `pitch` in 0.05..20",
    ),
    f(
        "after",
        "after(ticks, name [, opts])",
        C,
        "a one-shot timer; returns its id. `opts`: `target` (an entity id: no delivery if it is gone), `data` (a number). A delay of 0 fires next tick",
    ),
    f(
        "every",
        "every(ticks, name [, opts])",
        C,
        "a repeating timer (first firing after `ticks`, or `opts.delay`); returns its id",
    ),
    f(
        "cancel",
        "cancel(timer_id)",
        C,
        "cancel; returns whether it was pending. A timer due this tick that an earlier handler cancels is not delivered",
    ),
    f(
        "game_over",
        "game_over([message])",
        C,
        "end the game; the app shows the message and offers a restart",
    ),
    f(
        "tick",
        "tick()",
        R,
        "the tick being run (the first tick of a level is 1)",
    ),
    f(
        "score",
        "score()",
        R,
        "the score at the start of this stage",
    ),
    f(
        "get",
        "get(name)",
        R,
        "a game variable at the start of this stage, or nil",
    ),
    f(
        "state",
        "state(id, key)",
        R,
        "a value of an entity's state, or nil",
    ),
    f(
        "alive",
        "alive(id)",
        R,
        "whether the entity exists and is not being destroyed this tick (a `destroy` sent earlier in this stage counts)",
    ),
    f("health", "health(id)", R, "`current, max`, or nil"),
    f(
        "random",
        "random([m [, n]])",
        R,
        "like `math.random` (which is the same function): a float in [0, 1), or a whole number in [1, m] or [m, n], from the world's seeded generator",
    ),
    lua(
        "has",
        "has(tags, name)",
        H,
        "whether a tag set (an event's `tags`, `a_tags`...) contains a tag",
    ),
    lua(
        "const",
        "const.NAME",
        H,
        "a constant from `[constants]` in game.toml (read-only)",
    ),
    lua(
        "log",
        "log(...)",
        H,
        "a line in the app's log, its values separated by tabs (`print` is the same function)",
    ),
];

/// The docs tables: commands, then reads and helpers.
pub fn markdown(section: &[Section]) -> String {
    let head = if section.contains(&Section::Command) {
        "| command | effect |\n| --- | --- |\n"
    } else {
        "| function | returns |\n| --- | --- |\n"
    };
    let mut out = String::from(head);
    for f in API.iter().filter(|f| section.contains(&f.section)) {
        out.push_str(&format!("| `ludus.{}` | {} |\n", f.call, f.doc));
    }
    out
}
