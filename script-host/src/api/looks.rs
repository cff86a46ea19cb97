//! The look table `ludus.set_look` takes, as a [`Look`]. Types are checked here; ranges by
//! core (`Look::check`), which every command passes.

use super::args::{
    NAME_MAX, color, each_entry, int, num32, pair_or_number, type_name, unknown, with_text,
};
use ludus_core::Look;
use mlua::Value;

/// The keys of a `set_look` table and their types (`api/types.rs`), in the order the docs
/// list them.
pub(crate) const LOOK_KEYS: [(&str, &str); 7] = [
    ("scale", "number|number[]"),
    ("color", "color"),
    ("alpha", "number"),
    ("visible", "boolean"),
    ("flip_x", "boolean"),
    ("flip_y", "boolean"),
    ("layer", "integer"),
];

/// The look table of `ludus.set_look(id, look)`: any of [`LOOK_KEYS`].
pub(crate) fn look(v: &Value) -> Result<Look, String> {
    let t = match v {
        Value::Table(t) => t,
        other => {
            return Err(format!(
                "a look must be a table (e.g. {{ alpha = 0.5 }}), got {}",
                type_name(other)
            ));
        }
    };
    let mut look = Look::default();
    each_entry(t, |k, v| {
        if !matches!(k, Value::String(_)) {
            return Err(format!("look keys are names, got {}", type_name(&k)));
        }
        with_text(&k, "a look key", NAME_MAX, |key| {
            match key {
                "scale" => look.scale = Some(pair_or_number(&v, "scale", "{x, y}")?),
                "color" => look.color = Some(color(&v)?),
                "alpha" => look.alpha = Some(num32(&v, "alpha")?),
                "visible" => look.visible = Some(boolean(&v, "visible")?),
                "flip_x" => look.flip_x = Some(boolean(&v, "flip_x")?),
                "flip_y" => look.flip_y = Some(boolean(&v, "flip_y")?),
                "layer" => look.layer = Some(layer(&v)?),
                other => {
                    let known = LOOK_KEYS.iter().map(|(k, _)| *k);
                    return Err(unknown("look key", other, known));
                }
            }
            Ok(())
        })?
    })?;
    Ok(look)
}

fn boolean(v: &Value, what: &str) -> Result<bool, String> {
    match v {
        Value::Boolean(b) => Ok(*b),
        other => Err(format!(
            "{what} must be true or false, got {}",
            type_name(other)
        )),
    }
}

/// A draw layer: a whole number as a sprite's `layer` takes (-32768 to 32767).
fn layer(v: &Value) -> Result<i16, String> {
    let n = int(v, "layer")?;
    i16::try_from(n).map_err(|_| {
        format!(
            "layer must be a whole number from {} to {}, got {n}",
            i16::MIN,
            i16::MAX
        )
    })
}
