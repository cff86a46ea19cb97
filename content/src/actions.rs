//! `[input.actions.NAME]`: the game's actions and the keys bound to them, and references to
//! actions from archetypes.

use crate::key::{Key, PadControl, PadSlot};
use crate::report::{Loc, Report};
use crate::suggest;
use crate::table::Table;
use crate::value::{Named, declared_help, kind_of, read_number};
use ludus_core::{ActionError, ActionId, ActionKind, ActionSet, GameDef, KeyBinding};
use std::collections::HashMap;
use toml::de::DeValue;

/// The declared actions and their bindings.
pub(crate) struct Actions {
    pub set: ActionSet,
    pub bindings: Vec<KeyBinding>,
    /// `[input] deadzone`.
    pub deadzone: f32,
    /// False when an action could not be declared (unknown references are then not reported).
    pub complete: bool,
}

/// Reads `[input]`; a binding of one of the `reserved` keys (the program's own, with what each
/// does) is an error.
pub(crate) fn read(r: &mut Report, root: &Table<'_, '_>, reserved: &[(Key, &str)]) -> Actions {
    let mut out = Actions {
        set: ActionSet::new(),
        bindings: Vec::new(),
        deadzone: GameDef::DEADZONE,
        complete: true,
    };
    let Some(input) = root.table(r, "input") else {
        out.complete = !root.has("input");
        return out;
    };
    if let Some(deadzone) = input.f32(r, "deadzone") {
        out.deadzone = deadzone;
    }
    for (name, t) in input.named(r, "actions", "action") {
        let kind = match t.choice(r, "kind") {
            Some("button") => ActionKind::Button,
            Some("axis") => ActionKind::Axis,
            _ => {
                out.complete = false;
                continue;
            }
        };
        let id = match out.set.add(&name.name, kind) {
            Ok(id) => id,
            Err(e) => {
                let help = match e {
                    ActionError::TooMany => "combine actions, or drive several with one axis",
                    _ => "each action is declared once",
                };
                r.error(
                    name.loc,
                    format!("action `{}` cannot be declared: {e}", name.name),
                )
                .help(help);
                out.complete = false;
                continue;
            }
        };
        keys(r, &t, id, kind, reserved, &mut out.bindings);
    }
    out
}

/// The name of a [`Key`] that is not one of the `reserved` keys, or a report at `loc`.
fn key_name(r: &mut Report, loc: Loc, key: &str, reserved: &[(Key, &str)]) -> bool {
    if let Some((_, does)) = reserved.iter().find(|(k, _)| k.name() == key) {
        let keys: Vec<String> = reserved
            .iter()
            .map(|(k, d)| format!("{} {d}", k.name().to_uppercase()))
            .collect();
        r.error(
            loc,
            format!("key `{key}` is the app's own ({does}): it never reaches the game"),
        )
        .help(format!(
            "bind another key; the app keeps {}",
            keys.join(", ")
        ));
        return false;
    }
    if Key::from_name(key).is_some() {
        return true;
    }
    let shown: String = key.chars().take(40).collect();
    let help = pad_number_help(key)
        .or_else(|| suggest::did_you_mean(key, Key::names()))
        .unwrap_or_else(|| {
            let board: Vec<&str> = Key::board().iter().map(|k| k.name()).collect();
            match key.starts_with("pad") {
                true => pad_names(),
                false => format!("key names are {}; {}", board.join(" "), pad_names()),
            }
        });
    r.error(loc, format!("unknown input key `{shown}`"))
        .help(help);
    false
}

/// What pad keys are: `pad_NAME` and `padN_NAME` with each control's name.
fn pad_names() -> String {
    let controls: Vec<&str> = PadControl::ALL.iter().map(|c| c.name()).collect();
    format!(
        "pad keys are `pad_NAME` (any pad) or `pad1_NAME` to `pad{}_NAME` (one pad), NAME one of {}",
        PadSlot::NUMBERED,
        controls.join(" ")
    )
}

/// The help for a pad key whose number is not a pad's (`pad0_a`, `pad5_a`): pads are
/// numbered 1 to 4.
fn pad_number_help(key: &str) -> Option<String> {
    let (number, control) = key.strip_prefix("pad")?.split_once('_')?;
    let number: u32 = number.parse().ok()?;
    let control = PadControl::ALL.iter().find(|c| c.name() == control)?;
    let known = u8::try_from(number).ok().and_then(PadSlot::numbered);
    known.is_none().then(|| {
        format!(
            "pads are numbered 1 to {}: `{}` is any pad, `{}` the first to connect",
            PadSlot::NUMBERED,
            Key::Pad(PadSlot::Any, *control).name(),
            Key::Pad(PadSlot::P1, *control).name()
        )
    })
}

/// `keys`: an array of key names for a button, a table of key name = scale for an axis.
fn keys(
    r: &mut Report,
    t: &Table<'_, '_>,
    action: ActionId,
    kind: ActionKind,
    reserved: &[(Key, &str)],
    out: &mut Vec<KeyBinding>,
) {
    let Some(node) = t.get("keys") else {
        return;
    };
    let what = t.what("keys");
    let loc = Loc::new(t.file, node.span());
    let mut seen: HashMap<String, Loc> = HashMap::new();
    let mut twice = |r: &mut Report, key: &str, at: Loc| -> bool {
        if let Some(first) = seen.get(key) {
            let first = r.describe(*first);
            r.error(
                at,
                format!("input key `{key}` is bound twice to this action"),
            )
            .help(format!("first bound at {first}"));
            return true;
        }
        seen.insert(key.to_string(), at);
        false
    };
    match (kind, node.get_ref()) {
        (ActionKind::Button, DeValue::Array(items)) => {
            for item in items.iter() {
                let at = Loc::new(t.file, item.span());
                let DeValue::String(key) = item.get_ref() else {
                    r.error(
                        at,
                        format!(
                            "`{what}` must hold key names (strings), found {}",
                            kind_of(item.get_ref())
                        ),
                    );
                    continue;
                };
                if key_name(r, at, key, reserved) && !twice(r, key, at) {
                    out.push(KeyBinding {
                        key: key.to_string(),
                        action,
                        scale: 1.0,
                    });
                }
            }
        }
        (ActionKind::Axis, DeValue::Table(table)) => {
            let mut entries: Vec<_> = table.iter().collect();
            entries.sort_by_key(|(k, _)| k.span().start);
            for (k, v) in entries {
                let at = Loc::new(t.file, k.span());
                let key: &str = k.get_ref();
                let item = format!("{what}.{key}");
                let scale = read_number(
                    r,
                    t.file,
                    v,
                    &item,
                    (-1.0, 1.0, false),
                    "the value an axis takes while this key is held, usually -1 or 1",
                );
                if key_name(r, at, key, reserved)
                    && !twice(r, key, at)
                    && let Some(scale) = scale
                {
                    out.push(KeyBinding {
                        key: key.to_string(),
                        action,
                        scale: scale as f32,
                    });
                }
            }
        }
        (kind, found) => wrong_keys(r, loc, &what, kind, found),
    }
}

/// Reports `keys` (`what`, at `loc`) that are not of the shape its action's `kind` takes.
fn wrong_keys(r: &mut Report, loc: Loc, what: &str, kind: ActionKind, found: &DeValue<'_>) {
    match kind {
        ActionKind::Button => {
            r.error(
                loc,
                format!(
                    "`{what}` of a button must be an array of key names, found {}",
                    kind_of(found)
                ),
            )
            .help(
                "e.g. `keys = [\"space\", \"j\"]`; a table of key = scale is for `kind = \"axis\"`",
            );
        }
        ActionKind::Axis => {
            r.error(
                loc,
                format!(
                    "`{what}` of an axis must be a table of key name = scale, found {}",
                    kind_of(found)
                ),
            )
            .help(
                "e.g. `keys = { a = -1, d = 1 }`; an array of key names is for `kind = \"button\"`",
            );
        }
    }
}

/// The action a reference names, which must be of kind `want`; `role` says what it is for
/// (`control.move_x`).
pub(crate) fn resolve(
    r: &mut Report,
    actions: &Actions,
    named: &Named,
    want: ActionKind,
    role: &str,
) -> Option<ActionId> {
    let Some(id) = actions.set.find(&named.name) else {
        if actions.complete {
            let names: Vec<&str> = actions.set.iter().map(|(_, a)| a.name.as_str()).collect();
            let help =
                suggest::did_you_mean(&named.name, names.iter().copied()).unwrap_or_else(|| {
                    declared_help(
                        "action",
                        &names,
                        "declare it as `[input.actions.NAME]` in game.toml",
                    )
                });
            r.error(named.loc, format!("unknown action `{}`", named.name))
                .help(help);
        }
        return None;
    };
    let kind = actions.set.get(id).map(|a| a.kind)?;
    if kind == want {
        return Some(id);
    }
    let (want_word, got_word, help) = match want {
        ActionKind::Axis => (
            "an axis",
            "a button",
            "movement reads an axis: declare one with `kind = \"axis\"` and `keys = { a = -1, d = 1 }`",
        ),
        ActionKind::Button => (
            "a button",
            "an axis",
            "this is pressed, not held at a level: declare a button with `kind = \"button\"` and `keys = [\"space\"]`",
        ),
    };
    r.error(
        named.loc,
        format!(
            "`{role}` needs {want_word} action, but `{}` is {got_word}",
            named.name
        ),
    )
    .help(help);
    None
}
