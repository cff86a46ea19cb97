//! `[archetypes.NAME.control]`: how player input moves an entity, and the buttons that raise
//! events for it.

use crate::actions;
use crate::actions::Actions;
use crate::report::Report;
use crate::symbols::Symbols;
use crate::table::Table;
use ludus_core::{
    ActionId, ActionKind, ControlDef, ControlKind, PlatformerDef, ThrustDef, TriggerDef, TriggerOn,
};

/// The keys only one control kind uses, and that kind's name.
const KIND_KEYS: &[(&str, &str)] = &[
    ("move_x", "top_down"),
    ("move_y", "top_down"),
    ("turn", "thrust"),
    ("thrust", "thrust"),
    ("turn_speed", "thrust"),
    ("run", "platformer"),
    ("jump", "platformer"),
    ("jump_speed", "platformer"),
    ("coyote", "platformer"),
    ("buffer", "platformer"),
    ("cut", "platformer"),
];

/// Reads a control table. Keys of another kind than the one declared are errors.
pub(crate) fn read(
    r: &mut Report,
    c: &Table<'_, '_>,
    actions: &Actions,
    tags: &Symbols,
    cooldowns: &Symbols,
) -> ControlDef {
    let kind_name = c.choice(r, "kind").unwrap_or("top_down");
    for (key, owner) in KIND_KEYS {
        if *owner != kind_name
            && let Some(loc) = c.key_loc(key)
        {
            r.error(
                loc,
                format!(
                    "`{}` is only used by `kind = \"{owner}\"`, and this control is `{kind_name}`",
                    c.what(key)
                ),
            )
            .help(format!("remove `{key}`, or set `kind = \"{owner}\"`"));
        }
    }
    let mut action = |key: &str, want: ActionKind| -> Option<ActionId> {
        let named = c.name(r, key, "action")?;
        actions::resolve(r, actions, &named, want, &c.what(key))
    };
    let (move_x, move_y) = (
        action("move_x", ActionKind::Axis),
        action("move_y", ActionKind::Axis),
    );
    let kind = match kind_name {
        "thrust" => ControlKind::Thrust(ThrustDef {
            turn: action("turn", ActionKind::Axis),
            thrust: action("thrust", ActionKind::Button),
            turn_speed: c.f32(r, "turn_speed").unwrap_or(ThrustDef::TURN_SPEED),
            accel: c.f32(r, "accel").unwrap_or(ThrustDef::ACCEL),
        }),
        "platformer" => ControlKind::Platformer(PlatformerDef {
            run: action("run", ActionKind::Axis),
            jump: action("jump", ActionKind::Button),
            accel: c.f32(r, "accel").unwrap_or(PlatformerDef::ACCEL),
            jump_speed: c.f32(r, "jump_speed").unwrap_or(PlatformerDef::JUMP_SPEED),
            coyote: c.u32(r, "coyote").unwrap_or(PlatformerDef::COYOTE),
            buffer: c.u32(r, "buffer").unwrap_or(PlatformerDef::BUFFER),
            cut: c.f32(r, "cut").unwrap_or(PlatformerDef::CUT),
        }),
        _ => ControlKind::TopDown,
    };
    let accel = match kind {
        ControlKind::TopDown => c.f32(r, "accel"),
        _ => None,
    };
    ControlDef {
        kind,
        move_x,
        move_y,
        accel,
        triggers: triggers(r, c, actions, tags, cooldowns),
    }
}

/// `triggers`: button actions that raise `action` events.
fn triggers(
    r: &mut Report,
    c: &Table<'_, '_>,
    actions: &Actions,
    tags: &Symbols,
    cooldowns: &Symbols,
) -> Vec<TriggerDef> {
    let mut out = Vec::new();
    for t in c.tables(r, "triggers") {
        let action = t
            .name(r, "action", "action")
            .and_then(|a| actions::resolve(r, actions, &a, ActionKind::Button, &t.what("action")));
        let on = match t.choice(r, "on") {
            Some("hold") => TriggerOn::Hold,
            Some("release") => TriggerOn::Release,
            _ => TriggerOn::Press,
        };
        let cooldown = t.name(r, "cooldown", "cooldown").and_then(|cd| {
            let slot = cooldowns.resolve(r, &cd)?;
            u8::try_from(slot).ok()
        });
        let aim = t
            .names(r, "aim", "tag")
            .map_or(0, |names| tags.bits(r, &names));
        if let Some(action) = action {
            out.push(TriggerDef {
                action,
                on,
                cooldown,
                aim,
            });
        }
    }
    out
}
