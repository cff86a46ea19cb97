//! The event kinds as the prelude reads them: what it dispatches, and each kind's layout for the
//! decoder ([`ludus_lua::decoder`]).

use crate::encode::layout_codes;
use ludus_core::{EVENT_KINDS, FieldType, Stage};
use mlua::{Lua, Table};

/// `KINDSPEC[k]` for each event kind `k` (1-based, in [`EVENT_KINDS`] order): `handler`,
/// `stage` (1 or 2), `single`, `cancellable`, and the layout the decoder reads: `codes`,
/// `names`, `index` (name to field number), `choices`.
pub(crate) fn kind_specs(lua: &Lua) -> mlua::Result<Table> {
    let specs = lua.create_table()?;
    for (k, spec) in EVENT_KINDS.iter().enumerate() {
        let t = lua.create_table()?;
        t.raw_set("handler", spec.handler)?;
        t.raw_set("stage", if spec.stage == Stage::One { 1 } else { 2 })?;
        t.raw_set("single", spec.single)?;
        t.raw_set("cancellable", spec.cancellable)?;
        t.raw_set("codes", layout_codes(k))?;
        let names = lua.create_table()?;
        let index = lua.create_table()?;
        let choices = lua.create_table()?;
        for (i, field) in spec.fields.iter().enumerate() {
            names.raw_set(i + 1, field.name)?;
            index.raw_set(field.name, i + 1)?;
            if let FieldType::Choice(list) = field.ty {
                choices.raw_set(i + 1, lua.create_sequence_from(list.iter().copied())?)?;
            }
        }
        t.raw_set("names", names)?;
        t.raw_set("index", index)?;
        t.raw_set("choices", choices)?;
        specs.raw_set(k + 1, t)?;
    }
    Ok(specs)
}
