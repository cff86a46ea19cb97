//! The names a HUD reads (`{NAME}` in a text, a row of icons' or a bar's variable) that the
//! content does not declare, checked against the variables scripts set.
//!
//! A name no script sets with `ludus.set("name", ...)` shows `-` (or an empty row or bar)
//! forever: an error with the closest known name. Where some script sets a variable by a
//! computed name, or a file could not be linted, the name may be one of those: a warning.

use ludus_content::{Diagnostic, HudName};
use ludus_core::{GameDef, HUD_BUILTINS, closest};
use std::collections::BTreeSet;

/// The variables scripts set: the literal names, and whether any name is computed (or a file
/// was not linted, so its names are unknown).
#[derive(Debug, Default)]
pub struct Set {
    pub names: BTreeSet<String>,
    pub computed: bool,
}

impl Set {
    /// Adds a file's (`None`: a file not linted, whose names are unknown).
    pub fn add(&mut self, file: Option<Set>) {
        match file {
            Some(file) => {
                self.names.extend(file.names);
                self.computed |= file.computed;
            }
            None => self.computed = true,
        }
    }
}

/// The HUD's names that neither the content declares nor a script sets, with help (each at
/// its place as the loader showed it).
pub fn unset(hud_names: &[HudName], def: &GameDef, set: &Set) -> Vec<Diagnostic> {
    let known: BTreeSet<&str> = HUD_BUILTINS
        .into_iter()
        .chain(def.variables.keys().map(String::as_str))
        .chain(def.constants.keys().map(String::as_str))
        .chain(set.names.iter().map(String::as_str))
        .collect();
    hud_names
        .iter()
        .filter(|n| !set.names.contains(&n.name))
        .map(|n| {
            let name = n.name.as_str();
            let d = n.problem.clone().with_code("hud");
            let help = match closest(name, known.iter().copied()) {
                Some(k) => format!("did you mean `{k}`?"),
                None => format!(
                    "no script sets it (`ludus.set(\"{name}\", v)`), and `[variables]` and \
                     `[constants]` do not declare it"
                ),
            };
            if set.computed {
                let help = format!(
                    "{help} (a script sets variables by computed names, so it may be one of \
                     those)"
                );
                d.with_help(help).warning()
            } else {
                d.with_help(help)
            }
        })
        .collect()
}
