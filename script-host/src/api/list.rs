//! What is derived from the API list ([`API`]): the arguments that name something the game
//! declares, and the docs' tables.

use super::functions::API;
use super::spec::{NameKind, Section};

/// Which argument of which `ludus.*` function names something the game declares: the
/// function, the argument's 0-based index, and the kind of name, in the order of
/// [`API`]. A call with a name the game does not declare faults when it runs;
/// `ludus check` reports string literals passed there. It comes from the argument types of the
/// API list ([`ApiFunction::name_arg`]), so it names exactly the arguments the functions
/// convert as names.
pub const NAME_ARGS: &[(&str, usize, NameKind)] = &NAME_ARG_LIST;

const NAME_ARG_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < API.len() {
        if API[i].name_arg.is_some() {
            n += 1;
        }
        i += 1;
    }
    n
};

const NAME_ARG_LIST: [(&str, usize, NameKind); NAME_ARG_COUNT] = {
    let mut list = [("", 0, NameKind::Tag); NAME_ARG_COUNT];
    let (mut i, mut n) = (0, 0);
    while i < API.len() {
        if let Some((index, kind)) = API[i].name_arg {
            list[n] = (API[i].name, index, kind);
            n += 1;
        }
        i += 1;
    }
    list
};

/// The docs tables: commands, then reads and helpers.
pub fn markdown(section: &[Section]) -> String {
    let head = if section.contains(&Section::Command) {
        "| command | effect |\n| --- | --- |\n"
    } else {
        "| function | returns |\n| --- | --- |\n"
    };
    let mut out = String::from(head);
    for f in API.iter().filter(|f| section.contains(&f.section)) {
        out.push_str(&format!("| `ludus.{}` | {} |\n", f.call, f.doc.trim()));
    }
    out
}
