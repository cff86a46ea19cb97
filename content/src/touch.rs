//! `[touch]`: the on-screen controls, their actions resolved against `[input.actions]`.

use crate::actions::{self, Actions};
use crate::report::Report;
use crate::table::Table;
use ludus_core::{ActionKind, Anchor, TouchControl, TouchControlKind, TouchDef};

/// The keys only one kind of control uses, and that kind.
const KIND_KEYS: &[(&str, &str)] = &[
    ("x_action", "stick"),
    ("y_action", "stick"),
    ("action", "button"),
    ("label", "button"),
];

/// Reads `[touch]`: each control's keys of its kind only, its actions declared and of the kind
/// it drives, at most [`TouchDef::MAX_CONTROLS`] at distinct anchors.
pub(crate) fn read(r: &mut Report, root: &Table<'_, '_>, actions: &Actions) -> TouchDef {
    let mut def = TouchDef::default();
    let Some(touch) = root.table(r, "touch") else {
        return def;
    };
    let mut taken: Vec<(Anchor, String)> = Vec::new();
    for (i, c) in touch.tables(r, "controls").into_iter().enumerate() {
        if i == TouchDef::MAX_CONTROLS {
            r.error(
                c.loc,
                format!(
                    "more than {} on-screen controls in `touch.controls`",
                    TouchDef::MAX_CONTROLS
                ),
            )
            .help("a screen holds a stick and a few buttons: drop the rest");
            break;
        }
        let Some(kind) = c.choice(r, "kind") else {
            continue;
        };
        for (key, owner) in KIND_KEYS {
            if *owner != kind
                && let Some(loc) = c.key_loc(key)
            {
                r.error(
                    loc,
                    format!("`{key}` is only used by a {owner}, and this control is a {kind}"),
                )
                .help(format!("remove `{key}`, or set `kind = \"{owner}\"`"));
            }
        }
        let at = c
            .choice(r, "at")
            .and_then(|name| Anchor::NAMES.iter().position(|n| *n == name))
            .map(|i| (Anchor::ALL[i], Anchor::NAMES[i]));
        let kind = match kind {
            "stick" => stick(r, &c, actions),
            _ => button(r, &c, actions),
        };
        let Some((at, name)) = at else {
            continue;
        };
        let loc = c.loc_of("at").unwrap_or(c.loc);
        if let Some((_, first)) = taken.iter().find(|(a, _)| *a == at) {
            r.error(loc, format!("two on-screen controls at `{name}`"))
                .help(format!(
                    "the first is at {first}; put each control at its own edge or corner"
                ));
            continue;
        }
        taken.push((at, r.describe(loc)));
        if let Some(kind) = kind {
            def.controls.push(TouchControl { at, kind });
        }
    }
    def
}

fn stick(r: &mut Report, c: &Table<'_, '_>, actions: &Actions) -> Option<TouchControlKind> {
    if !c.has("x_action") && !c.has("y_action") {
        r.error(
            c.loc,
            "a stick drives no action: it needs `x_action`, `y_action` or both",
        )
        .help("e.g. `x_action = \"move_x\"` and `y_action = \"move_y\"`, axis actions");
        return None;
    }
    let mut resolved = true;
    let mut axis = |key: &str| {
        if !c.has(key) {
            return None;
        }
        let found = c
            .name(r, key, "action")
            .and_then(|named| actions::resolve(r, actions, &named, ActionKind::Axis, &c.what(key)));
        resolved &= found.is_some();
        found
    };
    let (x, y) = (axis("x_action"), axis("y_action"));
    resolved.then_some(TouchControlKind::Stick { x, y })
}

fn button(r: &mut Report, c: &Table<'_, '_>, actions: &Actions) -> Option<TouchControlKind> {
    let action = match c.name(r, "action", "action") {
        Some(named) => actions::resolve(r, actions, &named, ActionKind::Button, &c.what("action")),
        None => {
            if !c.has("action") {
                r.error(c.loc, "a button drives no action: it needs `action`")
                    .help("e.g. `action = \"fire\"`, a button action");
            }
            None
        }
    };
    let label = c.text(r, "label");
    if let Some(text) = &label
        && text.chars().count() > TouchControlKind::MAX_LABEL
    {
        let loc = c.loc_of("label").unwrap_or(c.loc);
        r.error(
            loc,
            format!(
                "a button's `label` has at most {} characters, this one {}",
                TouchControlKind::MAX_LABEL,
                text.chars().count()
            ),
        )
        .help("a letter or a short word: `label = \"A\"`");
        return None;
    }
    Some(TouchControlKind::Button {
        action: action?,
        label,
    })
}
