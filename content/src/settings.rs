//! The settings tables of game.toml: `[tick]`, `[ai]`, `[limits]`, `[window]`, `[flow]`,
//! `[scripts]`, `[physics]` and `[constants]`.

use crate::actions::{self, Actions};
use crate::report::Report;
use crate::table::Table;
use crate::value::{Named, check_name, kind_of};
use ludus_core::{
    ActionKind, AiPolicy, Constant, FlowDef, Limit, Limits, MAX_TEXT_BYTES, PhysicsDef, ScriptsDef,
    TickMode, TickPolicy, Var, WindowDef,
};
use std::collections::BTreeMap;
use toml::de::DeValue;

/// `[tick]`. The policy is also checked by [`TickPolicy::validate`].
pub(crate) fn tick(r: &mut Report, root: &Table<'_, '_>) -> TickPolicy {
    let mut policy = TickPolicy::default();
    let Some(t) = root.table(r, "tick") else {
        return policy;
    };
    let before = r.count();
    if t.choice(r, "mode") == Some("turns") {
        policy.mode = TickMode::Turns;
    }
    if let Some(rate) = t.u32(r, "rate") {
        policy.rate_hz = rate;
    }
    if let Some(ms) = t.number(r, "max_frame_delta") {
        let ns = (ms * 1_000_000.0).round();
        if ns < 1.0 {
            let loc = t.loc_of("max_frame_delta").unwrap_or(t.loc);
            r.error(loc, "`tick.max_frame_delta` is shorter than one nanosecond")
                .help("it is in milliseconds; 250 is usual");
        } else {
            // At most 1e10 by the schema's range: exact in a u64.
            policy.max_frame_delta_ns = ns as u64;
        }
    }
    if let Some(n) = t.u32(r, "catch_up") {
        policy.max_catch_up_ticks = n;
    }
    if r.count() == before
        && let Err(e) = policy.validate()
    {
        r.error(t.loc, format!("the tick policy is refused: {e}"));
    }
    policy
}

/// `[ai]`.
pub(crate) fn ai(r: &mut Report, root: &Table<'_, '_>) -> AiPolicy {
    let mut ai = AiPolicy::default();
    if let Some(t) = root.table(r, "ai")
        && let Some(c) = t.u32(r, "cadence")
    {
        ai.default_cadence = c;
    }
    ai
}

/// `[limits]`.
pub(crate) fn limits(r: &mut Report, root: &Table<'_, '_>) -> Limits {
    let mut l = Limits::default();
    let Some(t) = root.table(r, "limits") else {
        return l;
    };
    // The keys are the core's, so its messages name what an author edits.
    for limit in Limit::ALL {
        if let Some(v) = t.u32(r, limit.key()) {
            *limit.slot(&mut l) = v;
        }
    }
    l
}

/// `[window]`; the title defaults to the game's name.
pub(crate) fn window(r: &mut Report, root: &Table<'_, '_>, name: &str) -> WindowDef {
    let mut w = WindowDef {
        title: name.to_string(),
        ..WindowDef::default()
    };
    let Some(t) = root.table(r, "window") else {
        return w;
    };
    if let Some(title) = t.text(r, "title") {
        w.title = title;
    }
    if let Some(v) = t.u32(r, "width") {
        w.width = v;
    }
    if let Some(v) = t.u32(r, "height") {
        w.height = v;
    }
    if let Some(v) = t.bool(r, "help") {
        w.help = v;
    }
    w
}

/// `[flow]`: its actions must be buttons the game declares.
pub(crate) fn flow(r: &mut Report, root: &Table<'_, '_>, actions: &Actions) -> FlowDef {
    let mut f = FlowDef::default();
    let Some(t) = root.table(r, "flow") else {
        return f;
    };
    for (key, slot) in [("pause", &mut f.pause), ("restart", &mut f.restart)] {
        if let Some(named) = t.name(r, key, "action") {
            *slot = actions::resolve(r, actions, &named, ActionKind::Button, &t.what(key));
        }
    }
    if let Some(v) = t.bool(r, "banner") {
        f.banner = v;
    }
    f
}

/// `[scripts]`: the fences, and the script paths still to be read.
pub(crate) fn scripts(r: &mut Report, root: &Table<'_, '_>) -> (ScriptsDef, Vec<Named>) {
    let mut s = ScriptsDef::default();
    let Some(t) = root.table(r, "scripts") else {
        return (s, Vec::new());
    };
    let files = t.paths(r, "files").unwrap_or_default();
    if let Some(budget) = t.int(r, "budget").and_then(|v| u64::try_from(v).ok()) {
        s.instruction_budget = budget;
    }
    if let Some(mib) = t.int(r, "memory").and_then(|v| u64::try_from(v).ok()) {
        match usize::try_from(mib.saturating_mul(1024 * 1024)) {
            Ok(bytes) => s.memory_limit = bytes,
            Err(_) => {
                let loc = t.loc_of("memory").unwrap_or(t.loc);
                r.error(
                    loc,
                    format!(
                        "`scripts.memory` of {mib} MiB does not fit this platform's address space"
                    ),
                );
            }
        }
    }
    (s, files)
}

/// `[physics]`.
pub(crate) fn physics(r: &mut Report, root: &Table<'_, '_>) -> PhysicsDef {
    let mut p = PhysicsDef::default();
    if let Some(t) = root.table(r, "physics") {
        p.cell_size = t.f32(r, "cell");
        p.gravity = t.pair(r, "gravity").unwrap_or_default();
    }
    p
}

/// `[constants]`: single values only.
pub(crate) fn constants(r: &mut Report, root: &Table<'_, '_>) -> BTreeMap<String, Constant> {
    let mut out = BTreeMap::new();
    let Some(entries) = root.entries(r, "constants", "lives = 3") else {
        return out;
    };
    for (name, node) in entries {
        if !check_name(r, name.loc, "constant", &name.name) {
            continue;
        }
        let loc = crate::report::Loc::new(name.loc.file, node.span());
        let what = format!("constants.{}", name.name);
        let value = match node.get_ref() {
            DeValue::Boolean(b) => Some(Constant::Bool(*b)),
            DeValue::String(s) => Some(Constant::Text(s.to_string())),
            DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
                Ok(v) => Some(Constant::Int(v)),
                Err(_) => {
                    r.error(loc, format!("`{what}` does not fit in a 64-bit integer"))
                        .help("integers range from -9223372036854775808 to 9223372036854775807");
                    None
                }
            },
            DeValue::Float(f) => match f.as_str().parse::<f64>() {
                Ok(v) if v.is_finite() => Some(Constant::Float(v)),
                _ => {
                    let shown = r.excerpt(loc, 40);
                    r.error(
                        loc,
                        format!("`{what}` must be a finite number, found `{shown}`"),
                    )
                    .help("`nan` and `inf` are not numbers a game can use; write a finite number");
                    None
                }
            },
            other => {
                r.error(
                    loc,
                    format!(
                        "`{what}` must be a boolean, integer, number or string, found {}",
                        kind_of(other)
                    ),
                )
                .help("constants are single values; tables, arrays and dates are not allowed");
                None
            }
        };
        if let Some(v) = value {
            out.insert(name.name, v);
        }
    }
    out
}

/// `[variables]`: starting values of game variables, at most `limit` of them.
pub(crate) fn variables(r: &mut Report, root: &Table<'_, '_>, limit: u32) -> BTreeMap<String, Var> {
    let mut out = BTreeMap::new();
    let Some(entries) = root.entries(r, "variables", "money = 100") else {
        return out;
    };
    for (name, node) in entries {
        if !check_name(r, name.loc, "variable", &name.name) {
            continue;
        }
        let loc = crate::report::Loc::new(name.loc.file, node.span());
        let what = format!("variables.{}", name.name);
        if out.len() == limit as usize {
            r.error(
                name.loc,
                format!(
                    "`{what}` would be game variable number {}, more than {limit} (raise {})",
                    limit + 1,
                    Limit::Variables
                ),
            );
            break;
        }
        let value = match node.get_ref() {
            DeValue::String(s) if s.len() > MAX_TEXT_BYTES => {
                r.error(
                    loc,
                    format!(
                        "`{what}` is {} bytes long; a variable's text has at most {MAX_TEXT_BYTES}",
                        s.len()
                    ),
                );
                None
            }
            DeValue::String(s) => Some(Var::Text(s.as_ref().into())),
            DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
                Ok(v) => Some(Var::Num(v as f64)),
                Err(_) => {
                    r.error(loc, format!("`{what}` does not fit in a 64-bit integer"));
                    None
                }
            },
            DeValue::Float(f) => match f.as_str().parse::<f64>() {
                Ok(v) if v.is_finite() => Some(Var::Num(v)),
                _ => {
                    let shown = r.excerpt(loc, 40);
                    r.error(
                        loc,
                        format!("`{what}` must be a finite number, found `{shown}`"),
                    );
                    None
                }
            },
            other => {
                r.error(
                    loc,
                    format!(
                        "`{what}` must be a number or a string, found {}",
                        kind_of(other)
                    ),
                )
                .help("a game variable holds a number or a text");
                None
            }
        };
        if let Some(v) = value {
            out.insert(name.name, v);
        }
    }
    out
}
