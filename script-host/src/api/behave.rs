//! The arguments of the behaviour and attachment commands: `ludus.set_behaviour`'s kind and
//! options, read into core's [`BehaviourSpec`] and checked by its rules (the ones an
//! archetype's `behaviour` table follows, with the same messages), and `ludus.attach`'s
//! options.

use super::args::{each_entry, int, num32, show, text, type_name, unknown};
use ludus_core::{BehaviourDef, BehaviourKind, BehaviourSpec, GameDef, Idle};
use mlua::{Table, Value};

/// The keys `set_behaviour`'s options take (an archetype's `behaviour` keys but `kind`) and
/// their types (`api/types.rs`).
pub(crate) const BEHAVIOUR_OPTIONS: [(&str, &str); 5] = [
    ("target", "tag|tag[]"),
    ("cadence", "integer"),
    ("navigate", "boolean"),
    ("range", "number"),
    ("idle", "string"),
];

/// The keys `attach`'s options take and their types.
pub(crate) const ATTACH_OPTIONS: [(&str, &str); 1] = [("angle", "boolean")];

/// The keys of a table of options, each with its value, in the table's order; a key that is
/// not a name is an error naming `what`. At most one more than the `known` options are read:
/// among them is the first key the caller does not know, if the table has one (its keys are
/// distinct), so a table of a million keys is refused as promptly as one of ten.
fn options(opts: &Value, what: &str, known: usize) -> Result<Vec<(String, Value)>, String> {
    let t: &Table = match opts {
        Value::Nil => return Ok(Vec::new()),
        Value::Table(t) => t,
        other => {
            return Err(format!(
                "{what} options must be a table, got {}",
                type_name(other)
            ));
        }
    };
    let mut out = Vec::new();
    let walked = each_entry(t, |k, v| {
        let key = match &k {
            Value::String(_) => text(&k, &format!("a {what} option name"))?,
            other => {
                return Err(format!(
                    "{what} option keys are names, got {}",
                    type_name(other)
                ));
            }
        };
        out.push((key, v));
        if out.len() > known {
            // Enough: stop the walk (an empty error, taken back below).
            return Err(String::new());
        }
        Ok(())
    });
    match walked {
        Err(e) if !(e.is_empty() && out.len() > known) => Err(e),
        _ => Ok(out),
    }
}

/// A tag's bit, by name.
fn tag(def: &GameDef, v: &Value) -> Result<u64, String> {
    let name = text(v, "a target tag")?;
    def.tag_bit(&name)
        .ok_or_else(|| unknown("tag", &name, def.tags.iter().map(String::as_str)))
}

/// `target`: a tag or an array of tags; their bits (0 for an empty array).
fn targets(def: &GameDef, v: &Value) -> Result<u64, String> {
    match v {
        Value::Table(t) => {
            let mut bits = 0;
            for item in t.clone().sequence_values::<Value>() {
                bits |= tag(def, &item.map_err(|e| e.to_string())?)?;
            }
            Ok(bits)
        }
        v => tag(def, v),
    }
}

/// `set_behaviour(id, kind [, opts])`'s behaviour: `None` for a nil kind.
pub(crate) fn behaviour(
    def: &GameDef,
    kind: &Value,
    opts: &Value,
) -> Result<Option<BehaviourDef>, String> {
    if kind.is_nil() {
        if !opts.is_nil() {
            return Err("a nil behaviour takes no options".into());
        }
        return Ok(None);
    }
    let name = text(kind, "behaviour kind")?;
    let kind = BehaviourKind::from_name(&name).ok_or_else(|| {
        unknown(
            "behaviour kind",
            &name,
            BehaviourKind::NAMES.iter().copied(),
        )
    })?;
    let mut spec = BehaviourSpec::new(kind);
    for (key, v) in options(opts, "behaviour", BEHAVIOUR_OPTIONS.len())? {
        match key.as_str() {
            "target" => spec.target = Some(targets(def, &v)?),
            "cadence" => {
                let c = int(&v, "cadence")?;
                let max = BehaviourDef::CADENCE_MAX;
                spec.cadence = Some(
                    u32::try_from(c)
                        .ok()
                        .filter(|c| (1..=max).contains(c))
                        .ok_or_else(|| format!("cadence must be 1 to {max} ticks, got {c}"))?,
                );
            }
            "navigate" => match v {
                Value::Boolean(b) => spec.navigate = Some(b),
                other => {
                    return Err(format!(
                        "navigate must be a boolean, got {}",
                        type_name(&other)
                    ));
                }
            },
            "range" => {
                let r = num32(&v, "range")?;
                let max = BehaviourDef::RANGE_MAX;
                if !(r > 0.0 && r <= max) {
                    return Err(format!(
                        "range must be above 0, at most {max}, got {}",
                        show(f64::from(r))
                    ));
                }
                spec.range = Some(r);
            }
            "idle" => {
                let idle = text(&v, "idle")?;
                spec.idle = Some(
                    Idle::from_name(&idle)
                        .ok_or_else(|| unknown("idle", &idle, Idle::NAMES.iter().copied()))?,
                );
            }
            other => {
                let known = BEHAVIOUR_OPTIONS.iter().map(|(k, _)| *k);
                return Err(unknown("behaviour option", other, known));
            }
        }
    }
    spec.check()
        .map(Some)
        .map_err(|p| p.message(kind, "target"))
}

/// `attach`'s options: whether the offset turns with the parent (`angle = true`).
pub(crate) fn attach_angle(opts: &Value) -> Result<bool, String> {
    let mut angle = false;
    for (key, v) in options(opts, "attach", ATTACH_OPTIONS.len())? {
        match (key.as_str(), v) {
            ("angle", Value::Boolean(b)) => angle = b,
            ("angle", other) => {
                return Err(format!(
                    "angle must be a boolean, got {}",
                    type_name(&other)
                ));
            }
            (other, _) => {
                let known = ATTACH_OPTIONS.iter().map(|(k, _)| *k);
                return Err(unknown("attach option", other, known));
            }
        }
    }
    Ok(angle)
}
