//! Getters of lists and nested tables: arrays of names and paths, sub-tables, named tables
//! (`[archetypes.NAME]`), arrays of tables (`[[place]]`) and maps of counts.

use crate::report::{Loc, Report};
use crate::schema::{Dflt, KeySchema, TableSchema, Ty};
use crate::table::Table;
use crate::value::{Key, Named, Node, check_name, found, read_int, read_name, read_path, read_str};
use std::collections::HashMap;
use toml::de::{DeTable, DeValue};

/// The value of a [`Ty::ChoiceOr`] key.
pub(crate) enum ChoiceOrTable<'t, 'i> {
    Choice(&'static str),
    Table(Table<'t, 'i>),
}

/// An item of a [`Ty::TextsOr`] array.
pub enum TextOr<'t, 'i> {
    /// A string, and where it is written.
    Text(String, Loc),
    Table(Table<'t, 'i>),
}

impl<'t, 'i> Table<'t, 'i> {
    fn array<'n>(
        &self,
        r: &mut Report,
        v: &'n Node<'i>,
        what: &str,
        of: &str,
    ) -> Option<&'n [Node<'i>]> {
        if let DeValue::Array(items) = v.get_ref() {
            return Some(items);
        }
        let msg = format!(
            "`{what}` must be an array of {of}, found {}",
            found(r, self.file, v)
        );
        let example = self
            .spec(what.rsplit('.').next().unwrap_or(what))
            .map_or("", |k| k.example);
        r.error(Loc::new(self.file, v.span()), msg)
            .help(format!("e.g. `{example}`"));
        None
    }

    /// An array of distinct names of a `kind` of thing: the valid ones (the others are
    /// reported). Absent: empty (or reported, when required). `None` when absent and required,
    /// or not an array.
    pub fn names(&self, r: &mut Report, key: &str, kind: &str) -> Option<Vec<Named>> {
        let max = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Names { max }) => max,
            _ => usize::MAX,
        };
        let Some(v) = self.value(r, key) else {
            return match self.default(key) {
                Dflt::Required => None,
                _ => Some(Vec::new()),
            };
        };
        let what = self.what(key);
        let items = self.array(r, v, &what, &format!("{kind} names"))?;
        let mut out: Vec<Named> = Vec::with_capacity(items.len().min(max));
        let mut seen: HashMap<String, Loc> = HashMap::new();
        let mut ok = true;
        for (i, item) in items.iter().enumerate() {
            if i == max {
                let loc = Loc::new(self.file, item.span());
                r.error(loc, format!("`{what}` may hold at most {max} names"));
                ok = false;
                break;
            }
            let Some(named) = read_name(r, self.file, item, &what, kind) else {
                ok = false;
                continue;
            };
            if let Some(first) = seen.get(&named.name) {
                let first = r.describe(*first);
                r.error(
                    named.loc,
                    format!("`{}` appears twice in `{what}`", named.name),
                )
                .help(format!("first listed at {first}"));
                ok = false;
                continue;
            }
            seen.insert(named.name.clone(), named.loc);
            out.push(named);
        }
        ok.then_some(out)
    }

    /// An array of whole numbers (`Ty::Ints`) with where each is. `None` when absent (or
    /// reported as missing when required), not an array, empty, too long, or holding a bad item.
    pub fn ints(&self, r: &mut Report, key: &str) -> Option<Vec<(i64, Loc)>> {
        let (min, max, len) = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Ints { min, max, len }) => (min, max, len),
            _ => (i64::MIN, i64::MAX, usize::MAX),
        };
        let hint = self.hint(key);
        self.items(r, key, ("integers", len), |r, file, item, what| {
            read_int(r, file, item, what, (min, max), &hint)
        })
    }

    /// An array of 1 to `len` strings (`Ty::Lines`) with where each is; `None` when absent
    /// (reported when required), not an array, empty, too long or holding a non-string.
    pub fn lines(&self, r: &mut Report, key: &str) -> Option<Vec<(String, Loc)>> {
        let len = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Lines { len }) => len,
            _ => usize::MAX,
        };
        self.items(r, key, ("strings", len), |r, file, item, what| {
            read_str(r, file, item, what, "a string").map(str::to_string)
        })
    }

    /// An array of at most `len` file patterns (`Ty::Globs`), as written: the valid ones (the
    /// others are reported); empty when absent.
    pub fn globs(&self, r: &mut Report, key: &str) -> Vec<String> {
        let len = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Globs { len }) => len,
            _ => usize::MAX,
        };
        let Some(v) = self.value(r, key) else {
            return Vec::new();
        };
        let what = self.what(key);
        let Some(items) = self.array(r, v, &what, "strings") else {
            return Vec::new();
        };
        if items.len() > len {
            let msg = format!(
                "`{what}` holds at most {len} patterns, found {}",
                items.len()
            );
            r.error(Loc::new(self.file, v.span()), msg);
            return Vec::new();
        }
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            let Some(text) = read_str(r, self.file, item, &what, "a string") else {
                continue;
            };
            match crate::Glob::parse(text) {
                Ok(_) => out.push(text.to_string()),
                Err(why) => r
                    .error(Loc::new(self.file, item.span()), format!("`{what}`: {why}"))
                    .help("e.g. `\"*.png.bak\"` (a name anywhere), `\"shots/\"` (a folder), `\"tests/*.failed.*\"` (a path)"),
            }
        }
        out
    }

    /// An array of 1 to `len` `of`, each read by `read`, with where each is; `None` when
    /// absent, not an array, empty, too long, or holding an item `read` refused (reported).
    fn items<T>(
        &self,
        r: &mut Report,
        key: &str,
        (of, len): (&str, usize),
        read: impl Fn(&mut Report, usize, &Node<'i>, &str) -> Option<T>,
    ) -> Option<Vec<(T, Loc)>> {
        let v = self.value(r, key)?;
        let what = self.what(key);
        let items = self.array(r, v, &what, of)?;
        if items.is_empty() || items.len() > len {
            let msg = format!("`{what}` must hold 1 to {len} {of}, found {}", items.len());
            r.error(Loc::new(self.file, v.span()), msg);
            return None;
        }
        let mut out = Vec::with_capacity(items.len());
        let mut ok = true;
        for item in items {
            match read(r, self.file, item, &what) {
                Some(x) => out.push((x, Loc::new(self.file, item.span()))),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// A table of one-character keys to tables (`Ty::Legend`), in declaration order; keys
    /// that are not one character are reported and left out.
    pub fn legend(&self, r: &mut Report, key: &str) -> Vec<(char, Loc, Table<'t, 'i>)> {
        let (schema, example) = match self.spec(key) {
            Some(KeySchema {
                ty: Ty::Legend(s),
                example,
                ..
            }) => (*s, *example),
            _ => return Vec::new(),
        };
        let Some(entries) = self.entries(r, key, example) else {
            return Vec::new();
        };
        let what = self.what(key);
        let own = self.title();
        let mut out = Vec::with_capacity(entries.len());
        for (name, node) in entries {
            let mut chars = name.name.chars();
            let (Some(ch), None) = (chars.next(), chars.next()) else {
                r.error(
                    name.loc,
                    format!("a key of `{what}` is one character, found `{}`", name.name),
                )
                .help(format!("e.g. `{example}`"));
                continue;
            };
            let path = format!("{what}.\"{ch}\"");
            if let Some(t) =
                Table::open(r, self.file, node, &path, schema, Some((self.schema, &own)))
            {
                out.push((ch, name.loc, t));
            }
        }
        out
    }

    /// An array of paths in normal form: the valid ones (the others are reported). Absent:
    /// empty; `None` when not an array.
    pub fn paths(&self, r: &mut Report, key: &str) -> Option<Vec<Named>> {
        let ext = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Paths { ext }) => ext,
            _ => "",
        };
        let Some(v) = self.value(r, key) else {
            return Some(Vec::new());
        };
        let what = self.what(key);
        let items = self.array(r, v, &what, "paths")?;
        Some(
            items
                .iter()
                .filter_map(|item| read_path(r, self.file, item, &what, ext))
                .collect(),
        )
    }

    /// A sub-table (`Ty::Table`); `None` when absent or not a table.
    pub fn table(&self, r: &mut Report, key: &str) -> Option<Table<'t, 'i>> {
        let schema = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Table(s)) => s,
            _ => return None,
        };
        let v = self.value(r, key)?;
        let own = self.title();
        Table::open(
            r,
            self.file,
            v,
            &self.what(key),
            schema,
            Some((self.schema, &own)),
        )
    }

    /// A key of [`Ty::ChoiceOr`]: one of its strings, or its table; `None` when absent (and
    /// without a default) or wrong (reported).
    pub fn choice_or_table(&self, r: &mut Report, key: &str) -> Option<ChoiceOrTable<'t, 'i>> {
        let schema = match self.spec(key).map(|k| k.ty) {
            Some(Ty::ChoiceOr(_, s)) => s,
            _ => return None,
        };
        match self.get(key) {
            Some(v) if matches!(v.get_ref(), DeValue::Table(_)) => {
                let own = self.title();
                let (file, what) = (self.file, self.what(key));
                Table::open(r, file, v, &what, schema, Some((self.schema, &own)))
                    .map(ChoiceOrTable::Table)
            }
            _ => self.choice(r, key).map(ChoiceOrTable::Choice),
        }
    }

    /// How a table below this one names it.
    fn title(&self) -> String {
        if self.path.is_empty() {
            "the top level".to_string()
        } else {
            format!("`[{}]`", self.path)
        }
    }

    /// `[key.NAME]` tables in declaration order, each with its name checked as a `kind` name.
    pub fn named(&self, r: &mut Report, key: &str, kind: &str) -> Vec<(Named, Table<'t, 'i>)> {
        let schema = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Named(s)) => s,
            _ => return Vec::new(),
        };
        let Some(v) = self.value(r, key) else {
            return Vec::new();
        };
        let what = self.what(key);
        let DeValue::Table(table) = v.get_ref() else {
            let msg = format!(
                "`{what}` must hold `[{what}.NAME]` tables, found {}",
                found(r, self.file, v)
            );
            r.error(Loc::new(self.file, v.span()), msg)
                .help(format!("write each {kind} as a `[{what}.NAME]` table"));
            return Vec::new();
        };
        let mut entries: Vec<(&Key<'i>, &Node<'i>)> = table.iter().collect();
        entries.sort_by_key(|(k, _)| k.span().start);
        let own = self.title();
        let mut out = Vec::with_capacity(entries.len());
        for (k, node) in entries {
            let loc = Loc::new(self.file, k.span());
            if !check_name(r, loc, kind, k.get_ref()) {
                continue;
            }
            let path = format!("{what}.{}", k.get_ref());
            if let Some(t) =
                Table::open(r, self.file, node, &path, schema, Some((self.schema, &own)))
            {
                out.push((
                    Named {
                        name: k.get_ref().to_string(),
                        loc,
                    },
                    t,
                ));
            }
        }
        out
    }

    /// An array of strings and tables, in order (see [`Ty::TextsOr`]).
    pub fn texts_or_tables(&self, r: &mut Report, key: &str) -> Vec<TextOr<'t, 'i>> {
        let schemas = match self.spec(key).map(|k| k.ty) {
            Some(Ty::TextsOr(s)) => s,
            _ => return Vec::new(),
        };
        let Some(v) = self.value(r, key) else {
            return Vec::new();
        };
        let what = self.what(key);
        let Some(items) = self.array(r, v, &what, "strings or tables") else {
            return Vec::new();
        };
        let own = self.title();
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            match item.get_ref() {
                DeValue::Table(table) => {
                    let Some(schema) = table_kind(r, self.file, item, table, &what, schemas) else {
                        continue;
                    };
                    let place = format!("in a `{what}` entry");
                    if let Some(t) = Table::open_placed(
                        r,
                        self.file,
                        item,
                        &what,
                        place,
                        schema,
                        Some((self.schema, &own)),
                    ) {
                        out.push(TextOr::Table(t));
                    }
                }
                _ => {
                    if let Some(s) = read_str(r, self.file, item, &what, "a string or a table") {
                        out.push(TextOr::Text(
                            s.to_string(),
                            Loc::new(self.file, item.span()),
                        ));
                    }
                }
            }
        }
        out
    }

    /// An array of tables (`[[key]]` or an array of inline tables).
    pub fn tables(&self, r: &mut Report, key: &str) -> Vec<Table<'t, 'i>> {
        let schema = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Tables(s)) => s,
            _ => return Vec::new(),
        };
        let Some(v) = self.value(r, key) else {
            return Vec::new();
        };
        let what = self.what(key);
        let Some(items) = self.array(r, v, &what, "tables") else {
            return Vec::new();
        };
        let own = self.title();
        items
            .iter()
            .filter_map(|item| {
                if !matches!(item.get_ref(), DeValue::Table(_)) {
                    let msg = format!(
                        "each `{what}` entry must be a table, found {}",
                        found(r, self.file, item)
                    );
                    r.error(Loc::new(self.file, item.span()), msg).help(format!(
                        "write each entry under a `[[{what}]]` header, or as an inline table `{{ ... }}`"
                    ));
                    return None;
                }
                let place = format!("in a `[[{what}]]` entry");
                Table::open_placed(
                    r,
                    self.file,
                    item,
                    &what,
                    place,
                    schema,
                    Some((self.schema, &own)),
                )
            })
            .collect()
    }

    /// A table's raw entries (key text with the key's span, value), in declaration order.
    pub fn entries(
        &self,
        r: &mut Report,
        key: &str,
        example: &str,
    ) -> Option<Vec<(Named, &'t Node<'i>)>> {
        let v = self.value(r, key)?;
        let what = self.what(key);
        let DeValue::Table(table) = v.get_ref() else {
            let msg = format!("`{what}` must be a table, found {}", found(r, self.file, v));
            r.error(Loc::new(self.file, v.span()), msg)
                .help(format!("e.g. `{example}`"));
            return None;
        };
        let mut entries: Vec<(&Key<'i>, &Node<'i>)> = table.iter().collect();
        entries.sort_by_key(|(k, _)| k.span().start);
        Some(
            entries
                .into_iter()
                .map(|(k, v)| {
                    (
                        Named {
                            name: k.get_ref().to_string(),
                            loc: Loc::new(self.file, k.span()),
                        },
                        v,
                    )
                })
                .collect(),
        )
    }

    /// A table of `name = integer` (`Ty::Counts`), in declaration order.
    pub fn counts(&self, r: &mut Report, key: &str, kind: &str) -> Vec<(Named, i64)> {
        let (min, max, example) = match self.spec(key) {
            Some(KeySchema {
                ty: Ty::Counts { min, max },
                example,
                ..
            }) => (*min, *max, *example),
            _ => (0, i64::MAX, ""),
        };
        let Some(entries) = self.entries(r, key, example) else {
            return Vec::new();
        };
        let what = self.what(key);
        let hint = self.hint(key);
        let mut out = Vec::with_capacity(entries.len());
        for (name, node) in entries {
            if !check_name(r, name.loc, kind, &name.name) {
                continue;
            }
            let item = format!("{what}.{}", name.name);
            if let Some(v) = read_int(r, self.file, node, &item, (min, max), &hint) {
                out.push((name, v));
            }
        }
        out
    }
}

/// The schema of a table of a [`Ty::TextsOr`] array: the first of the list whose first key
/// it has (a key another schema also takes, such as a row of icons' `image`, is then read by
/// that one). A table with none of them is reported.
fn table_kind(
    r: &mut Report,
    file: usize,
    node: &Node<'_>,
    table: &DeTable<'_>,
    what: &str,
    schemas: &[&'static TableSchema],
) -> Option<&'static TableSchema> {
    let first = |s: &TableSchema| s.keys.first().map_or("", |k| k.name);
    if let Some(found) = schemas.iter().find(|s| table.get(first(s)).is_some()) {
        return Some(found);
    }
    if let [only] = schemas {
        return Some(only);
    }
    let keys: Vec<String> = schemas.iter().map(|s| format!("`{}`", first(s))).collect();
    let example = schemas
        .first()
        .and_then(|s| s.keys.first())
        .map_or("", |k| k.example);
    r.error(
        Loc::new(file, node.span()),
        format!("a `{what}` entry needs one of {}", keys.join(", ")),
    )
    .help(format!("e.g. `{{ {example} }}`"));
    None
}
