//! The one description of the content format: every table, every key, its type, default,
//! allowed range, meaning and an example. Unknown-key detection, suggestions, range checks,
//! defaults and the authoring reference (`docs/content.md`) are all driven from here.
//!
//! The tables are in `game.rs` (game.toml), `archetype.rs` and `level.rs`; this file holds
//! what they are made of.

mod archetype;
#[cfg(test)]
mod defaults;
mod game;
mod level;
mod test;

pub(crate) use archetype::*;
pub(crate) use game::*;
pub(crate) use level::*;
pub(crate) use test::*;

use ludus_core::{Color, Vec2};

/// Ticks are counted in `u32`.
const TICKS_MAX: i64 = u32::MAX as i64;
/// Bound of a speed or velocity component, in world units per second.
const SPEED_MAX: f64 = 1_000_000.0;
/// Bound of a size, radius or cell, in world units.
const SIZE_MAX: f64 = ludus_core::SpriteDef::SIZE_MAX as f64;
/// Bound of a scale factor.
const SCALE_MAX: f64 = ludus_core::Look::SCALE_MAX as f64;
/// Bound of a coordinate, in world units.
const COORD_MAX: f64 = 1_000_000_000.0;

/// One table of the format.
pub(crate) struct TableSchema {
    /// How the reference names it, e.g. `[archetypes.NAME.sprite]`.
    pub title: &'static str,
    pub doc: &'static str,
    pub keys: &'static [KeySchema],
}

/// One key of a table.
pub(crate) struct KeySchema {
    pub name: &'static str,
    pub ty: Ty,
    pub default: Dflt,
    /// Unit of numbers, for the reference (`Hz`, `ticks`...); empty when none.
    pub unit: &'static str,
    pub doc: &'static str,
    /// A TOML line using the key.
    pub example: &'static str,
}

/// The type (and allowed range) of a key's value.
#[derive(Clone, Copy)]
pub(crate) enum Ty {
    /// A whole number from `min` to `max`.
    Int {
        min: i64,
        max: i64,
    },
    /// An integer or float, finite, from `min` (excluded when `above_min`) to `max`.
    Number {
        min: f64,
        max: f64,
        above_min: bool,
    },
    Bool,
    Text,
    /// A name: 1 to 64 ASCII letters, digits, `_` or `-`.
    Name,
    /// An array of distinct names, at most `max`.
    Names {
        max: usize,
    },
    /// An array of 1 to `len` strings.
    Lines {
        len: usize,
    },
    /// An array of at most `len` file patterns ([`crate::Glob`]).
    Globs {
        len: usize,
    },
    /// A table from single characters to tables of a schema.
    Legend(&'static TableSchema),
    /// An array of 1 to `len` whole numbers, each from `min` to `max`.
    Ints {
        min: i64,
        max: i64,
        len: usize,
    },
    /// A path inside the game folder, ending in `ext` unless it is empty.
    Path {
        ext: &'static str,
    },
    /// An array of distinct paths.
    Paths {
        ext: &'static str,
    },
    /// One of a fixed set of strings.
    Choice(&'static [&'static str]),
    /// One of a fixed set of strings, or a table of the schema (which says more).
    ChoiceOr(&'static [&'static str], &'static TableSchema),
    Color,
    /// `[a, b]`, both finite, from `min` (excluded when `above_min`) to `max`.
    Pair {
        min: f64,
        max: f64,
        above_min: bool,
        form: &'static str,
    },
    /// A positive number or `[w, h]` of positive numbers, at most `max`.
    Size {
        max: f64,
    },
    Rect,
    Table(&'static TableSchema),
    /// `[key.NAME]` tables, one per name, in declaration order.
    Named(&'static TableSchema),
    /// An array of tables (`[[key]]`).
    Tables(&'static TableSchema),
    /// An array whose items are strings or tables (any mix). A table is read with the first
    /// schema of the list whose first key it has (it may have only one of those keys).
    TextsOr(&'static [&'static TableSchema]),
    /// A number from `min` (excluded when `above_min`) to `max`, or a name.
    NumberOrName {
        min: f64,
        max: f64,
        above_min: bool,
    },
    /// A table of `name = integer` from `min` to `max`, in declaration order.
    Counts {
        min: i64,
        max: i64,
    },
    /// An action's keys: an array of key names, or a table of key name to scale.
    Keys,
    /// A table of `name = boolean, integer, number or string`.
    Constants,
    /// A table of `name = number or string`.
    Variables,
}

/// What a key is when it is absent. A value is read from `ludus_core`'s constant for it
/// (`ColliderDef::MASS`...), so a default is written once; a choice names its default
/// choice, which loads to core's default variant.
#[derive(Clone, Copy)]
pub(crate) enum Dflt {
    Required,
    /// Absent means "none" (an optional component, an unset limit).
    Unset,
    /// Absent means every key of the table takes its default.
    Defaults,
    /// Absent means an empty array or table.
    Empty,
    Int(i64),
    /// A number: every number of a definition is an `f32`.
    Num(f32),
    Bool(bool),
    Str(&'static str),
    Color(Color),
    Pair(f32, f32),
    /// Computed from other values; the text says how.
    Doc(&'static str),
}

impl TableSchema {
    pub fn key(&self, name: &str) -> Option<&'static KeySchema> {
        self.keys.iter().find(|k| k.name == name)
    }

    pub fn key_names(&self) -> impl Iterator<Item = &'static str> {
        self.keys.iter().map(|k| k.name)
    }
}

impl Ty {
    /// The type as the reference and messages name it.
    pub fn describe(&self) -> String {
        match self {
            Ty::Int { .. } => "integer".into(),
            Ty::Number { .. } => "number".into(),
            Ty::NumberOrName { .. } => "number or name".into(),
            Ty::Bool => "boolean".into(),
            Ty::Text => "string".into(),
            Ty::Name => "name".into(),
            Ty::Names { .. } => "array of names".into(),
            Ty::Ints { .. } => "array of integers".into(),
            Ty::Lines { .. } => "array of strings".into(),
            Ty::Globs { .. } => "array of patterns".into(),
            Ty::Legend(_) => "table of character = table".into(),
            Ty::Path { .. } => "path".into(),
            Ty::Paths { .. } => "array of paths".into(),
            Ty::Choice(_) => "string".into(),
            Ty::ChoiceOr(..) => "string or table".into(),
            Ty::Color => "colour".into(),
            Ty::Pair { form, .. } => (*form).into(),
            Ty::Size { .. } => "number or [w, h]".into(),
            Ty::Rect => "rect".into(),
            Ty::Table(_) => "table".into(),
            Ty::Named(_) => "tables by name".into(),
            Ty::Tables(_) => "array of tables".into(),
            Ty::TextsOr(_) => "array of strings or tables".into(),
            Ty::Counts { .. } => "table of name = integer".into(),
            Ty::Keys => "key names".into(),
            Ty::Constants => "table of name = value".into(),
            Ty::Variables => "table of name = value".into(),
        }
    }

    /// The allowed values, in words; empty when the type says it all.
    pub fn range(&self) -> String {
        match *self {
            Ty::Int { min, max } | Ty::Counts { min, max } => int_range(min, max),
            Ty::Number {
                min,
                max,
                above_min,
            }
            | Ty::NumberOrName {
                min,
                max,
                above_min,
            }
            | Ty::Pair {
                min,
                max,
                above_min,
                ..
            } => number_range(min, max, above_min),
            Ty::Size { max } => number_range(0.0, max, true),
            Ty::Choice(options) => one_of(options),
            Ty::ChoiceOr(options, t) => format!("{}; or `{}` below", one_of(options), t.title),
            Ty::Ints { min, max, len } => format!("1 to {len} of {}", int_range(min, max)),
            Ty::Lines { len } => format!("1 to {len}"),
            Ty::Globs { len } => {
                format!("at most {len}, each at most {} bytes", crate::Glob::MAX_LEN)
            }
            Ty::Legend(_) => "one-character keys".into(),
            Ty::Names { max } if max < usize::MAX => format!("at most {max}, distinct"),
            Ty::Names { .. } => "distinct".into(),
            Ty::Path { ext } | Ty::Paths { ext } if !ext.is_empty() => format!("ends in `{ext}`"),
            Ty::Text | Ty::Name | Ty::Path { .. } | Ty::Paths { .. } => String::new(),
            Ty::Color => "`#rgb`, `#rrggbb`, `#rrggbbaa` or a colour name".into(),
            Ty::Keys => "key names below; axis scales -1 to 1".into(),
            Ty::Constants => "booleans, integers, finite numbers, strings".into(),
            Ty::Variables => "finite numbers, strings of at most 4096 bytes".into(),
            Ty::Bool | Ty::Rect | Ty::Table(_) | Ty::Named(_) | Ty::Tables(_) | Ty::TextsOr(_) => {
                String::new()
            }
        }
    }
}

pub(crate) fn int_range(min: i64, max: i64) -> String {
    if max == i64::MAX {
        format!("at least {min}")
    } else {
        format!("{min} to {max}")
    }
}

pub(crate) fn number_range(min: f64, max: f64, above_min: bool) -> String {
    if above_min {
        format!("above {min}, at most {max}")
    } else {
        format!("{min} to {max}")
    }
}

impl Dflt {
    /// The default as the reference shows it.
    pub fn describe(&self) -> String {
        match self {
            Dflt::Required => "required".into(),
            Dflt::Unset => "none".into(),
            Dflt::Defaults => "all defaults".into(),
            Dflt::Empty => "empty".into(),
            Dflt::Int(v) => v.to_string(),
            Dflt::Num(v) => v.to_string(),
            Dflt::Bool(v) => v.to_string(),
            Dflt::Str(s) => format!("`\"{s}\"`"),
            Dflt::Color(c) => format!("`\"{c}\"`"),
            Dflt::Pair(a, b) => format!("`[{a}, {b}]`"),
            Dflt::Doc(s) => (*s).into(),
        }
    }
}

const fn key(
    name: &'static str,
    ty: Ty,
    default: Dflt,
    unit: &'static str,
    doc: &'static str,
    example: &'static str,
) -> KeySchema {
    KeySchema {
        name,
        ty,
        default,
        unit,
        doc,
        example,
    }
}

/// The default of an integer key, from core's constant.
const fn count(v: u32) -> Dflt {
    Dflt::Int(v as i64)
}

/// The default of a pair key, from core's constant.
const fn pair(v: Vec2) -> Dflt {
    Dflt::Pair(v.x, v.y)
}

const fn int(min: i64, max: i64) -> Ty {
    Ty::Int { min, max }
}

const fn number(min: f64, max: f64) -> Ty {
    Ty::Number {
        min,
        max,
        above_min: false,
    }
}

const fn positive(max: f64) -> Ty {
    Ty::Number {
        min: 0.0,
        max,
        above_min: true,
    }
}

const POINT: Ty = Ty::Pair {
    min: -COORD_MAX,
    max: COORD_MAX,
    above_min: false,
    form: "[x, y]",
};

const VELOCITY: Ty = Ty::Pair {
    min: -SPEED_MAX,
    max: SPEED_MAX,
    above_min: false,
    form: "[x, y]",
};

// The tables below keep one key per line so that they read as tables.

/// The top level of `game.toml`.
/// "one of `"a"`, `"b"`": the allowed strings of a choice, as diagnostics and the reference
/// write them.
pub(crate) fn one_of(options: &[&str]) -> String {
    let quoted: Vec<String> = options.iter().map(|o| format!("`\"{o}\"`")).collect();
    format!("one of {}", quoted.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(t: &'static TableSchema, seen: &mut Vec<&'static str>) {
        if seen.contains(&t.title) {
            return;
        }
        seen.push(t.title);
        let mut names: Vec<&str> = t.key_names().collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), t.keys.len(), "duplicate key in {}", t.title);
        for k in t.keys {
            assert!(
                !k.doc.is_empty() && !k.example.is_empty(),
                "{}.{}",
                t.title,
                k.name
            );
            assert!(!k.example.contains('|'), "pipes break the reference tables");
            match k.ty {
                Ty::Table(c) | Ty::Named(c) | Ty::Tables(c) | Ty::ChoiceOr(_, c) => walk(c, seen),
                Ty::TextsOr(cs) => cs.iter().for_each(|c| walk(c, seen)),
                _ => {}
            }
        }
    }

    /// The loader reads `[limits]` through `ludus_core::Limit`, and messages name limits by
    /// it: the schema must declare exactly its keys, defaulting to `Limits::default()`.
    #[test]
    fn limits_declares_the_cores_keys_and_defaults() {
        use ludus_core::{Limit, Limits};
        let declared: Vec<&str> = LIMITS.key_names().collect();
        let core: Vec<&str> = Limit::ALL.iter().map(|l| l.key()).collect();
        assert_eq!(declared, core);
        for limit in Limit::ALL {
            let key = LIMITS.key(limit.key()).expect("declared");
            match (key.ty, key.default) {
                (Ty::Int { min, max }, Dflt::Int(d)) => {
                    assert_eq!(d, i64::from(limit.of(&Limits::default())), "{limit}");
                    assert!(min >= 1 && max <= i64::from(u32::MAX) && (min..=max).contains(&d));
                }
                _ => panic!("{limit} is not an integer with a default"),
            }
        }
    }

    #[test]
    fn every_table_is_well_formed() {
        let mut seen = Vec::new();
        for root in [&GAME, &ARCHETYPE_FILE, &LEVEL, &RECT] {
            walk(root, &mut seen);
        }
        assert!(seen.len() > 20);
    }
}
