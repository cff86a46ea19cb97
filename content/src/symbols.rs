//! Declared names (tags, layers, archetypes, levels, cooldowns) and the references to them.

use crate::report::Report;
use crate::suggest;
use crate::value::{Named, declared_help};
use std::collections::HashMap;

/// The names of one kind of thing, in declaration order; a name's index is its id or bit.
pub(crate) struct Symbols {
    kind: &'static str,
    /// How to declare one, for help on an unknown name.
    declare: String,
    names: Vec<Named>,
    index: HashMap<String, usize>,
    /// False when a declaration could not be read: unknown references are then not reported,
    /// since they would only echo the first error.
    pub complete: bool,
}

impl Symbols {
    pub fn new(kind: &'static str, declare: impl Into<String>) -> Self {
        Symbols {
            kind,
            declare: declare.into(),
            names: Vec::new(),
            index: HashMap::new(),
            complete: true,
        }
    }

    /// Declares a name. A second declaration is reported there, pointing at the first.
    pub fn declare(&mut self, r: &mut Report, named: Named) -> Option<usize> {
        if let Some(first) = self.index.get(&named.name).and_then(|i| self.names.get(*i)) {
            let first = r.describe(first.loc);
            r.error_as(
                "unknown-name",
                named.loc,
                format!("{} `{}` is declared twice", self.kind, named.name),
            )
            .help(format!("first declared at {first}"));
            return None;
        }
        let i = self.names.len();
        self.index.insert(named.name.clone(), i);
        self.names.push(named);
        Some(i)
    }

    pub fn get(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(|n| n.name.as_str())
    }

    /// The index of a referenced name; an unknown name is reported at the reference.
    pub fn resolve(&self, r: &mut Report, named: &Named) -> Option<usize> {
        if let Some(i) = self.get(&named.name) {
            return Some(i);
        }
        if self.complete {
            let help = suggest::did_you_mean(&named.name, self.names()).unwrap_or_else(|| {
                let names: Vec<&str> = self.names().collect();
                declared_help(self.kind, &names, &self.declare)
            });
            r.error_as(
                "unknown-name",
                named.loc,
                format!("unknown {} `{}`", self.kind, named.name),
            )
            .help(help);
        }
        None
    }

    /// The bit set of referenced names (bit `i` for the `i`-th declared name).
    pub fn bits(&self, r: &mut Report, list: &[Named]) -> u64 {
        list.iter()
            .filter_map(|n| self.resolve(r, n))
            .filter_map(|i| u32::try_from(i).ok())
            .filter_map(|i| 1u64.checked_shl(i))
            .fold(0, |acc, b| acc | b)
    }
}
