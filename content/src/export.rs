//! `[export]`: which files of the game folder `ludus export` leaves out.

use crate::report::Report;
use crate::table::Table;
use ludus_core::ExportDef;

/// `[export]` of game.toml.
pub(crate) fn read(r: &mut Report, root: &Table<'_, '_>) -> ExportDef {
    let Some(t) = root.table(r, "export") else {
        return ExportDef::default();
    };
    ExportDef {
        exclude: t.globs(r, "exclude"),
    }
}
