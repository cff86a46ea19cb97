//! A table being read against its schema: unknown keys reported with suggestions, then typed
//! getters that apply the schema's ranges and defaults and report at the exact span at fault.

use crate::report::{Loc, Report};
use crate::schema::{Dflt, KeySchema, TableSchema, Ty, one_of};
use crate::suggest;
use crate::value::{
    Key, Named, Node, check_name, found, parse_color, read_bool, read_color, read_int, read_name,
    read_number, read_pair, read_path, read_rect, read_size, read_str,
};
use ludus_core::{Color, Rect, Vec2};
use std::collections::HashMap;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// A table being read: its entries in declaration order, checked against its schema.
pub(crate) struct Table<'t, 'i> {
    pub file: usize,
    /// Dotted path of the table (`archetypes.ship.sprite`), empty at the top of a file.
    pub path: String,
    /// Span of the table (its header, or the inline table).
    pub loc: Loc,
    /// Where its keys are, for messages: `in `[tick]``, `at the top level of game.toml`.
    place: String,
    schema: &'static TableSchema,
    entries: Vec<(&'t Key<'i>, &'t Node<'i>)>,
}

/// Where an unknown key's table sits: the schema and the title of its enclosing table.
pub(crate) type Parent<'a> = Option<(&'static TableSchema, &'a str)>;

impl<'t, 'i> Table<'t, 'i> {
    /// The top-level table of a file.
    pub fn root(
        r: &mut Report,
        file: usize,
        tree: &'t Spanned<DeTable<'i>>,
        schema: &'static TableSchema,
    ) -> Table<'t, 'i> {
        let place = format!("at the top level of {}", r.shown(r.path(file)));
        Table::build(
            r,
            file,
            tree.get_ref(),
            Loc::new(file, 0..0),
            String::new(),
            place,
            schema,
            None,
        )
    }

    /// A table value at `path`; reports anything that is not a table.
    pub fn open(
        r: &mut Report,
        file: usize,
        node: &'t Node<'i>,
        path: &str,
        schema: &'static TableSchema,
        parent: Parent<'_>,
    ) -> Option<Table<'t, 'i>> {
        let place = format!("in `[{path}]`");
        Table::open_placed(r, file, node, path, place, schema, parent)
    }

    #[allow(clippy::too_many_arguments)]
    fn open_placed(
        r: &mut Report,
        file: usize,
        node: &'t Node<'i>,
        path: &str,
        place: String,
        schema: &'static TableSchema,
        parent: Parent<'_>,
    ) -> Option<Table<'t, 'i>> {
        let loc = Loc::new(file, node.span());
        let DeValue::Table(table) = node.get_ref() else {
            let example = schema.keys.first().map_or("", |k| k.example);
            let msg = format!("`{path}` must be a table, found {}", found(r, file, node));
            r.error(loc, msg).help(format!(
                "write it as `[{path}]` followed by its keys, e.g. `{example}`"
            ));
            return None;
        };
        Some(Table::build(
            r,
            file,
            table,
            loc,
            path.to_string(),
            place,
            schema,
            parent,
        ))
    }

    #[allow(clippy::too_many_arguments)]
    fn build(
        r: &mut Report,
        file: usize,
        table: &'t DeTable<'i>,
        loc: Loc,
        path: String,
        place: String,
        schema: &'static TableSchema,
        parent: Parent<'_>,
    ) -> Table<'t, 'i> {
        let mut entries: Vec<(&Key<'i>, &Node<'i>)> = table.iter().collect();
        entries.sort_by_key(|(k, _)| k.span().start);
        let t = Table {
            file,
            path,
            loc,
            place,
            schema,
            entries,
        };
        for (k, _) in &t.entries {
            if schema.key(k.get_ref()).is_none() {
                t.unknown(r, k, parent);
            }
        }
        t
    }

    fn unknown(&self, r: &mut Report, key: &Key<'_>, parent: Parent<'_>) {
        let name: &str = key.get_ref();
        let shown: String = name.chars().take(60).collect();
        let loc = Loc::new(self.file, key.span());
        let msg = format!("unknown key `{shown}` {}", self.place);
        if let Some(hint) = suggest::did_you_mean(name, self.schema.key_names()) {
            r.error(loc, msg).help(hint);
            return;
        }
        let mut named = self
            .schema
            .keys
            .iter()
            .filter(|k| matches!(k.ty, Ty::Named(_)));
        if let (Some(only), None) = (named.next(), named.next())
            && self.schema.keys.len() == 1
        {
            let at = self.child_path(only.name);
            r.error(loc, msg).help(format!(
                "this file holds only `[{at}.NAME]` tables: write `[{at}.{shown}]`"
            ));
            return;
        }
        let child = self.schema.keys.iter().find_map(|k| match k.ty {
            Ty::Table(c) if c.key(name).is_some() => Some(k.name),
            _ => None,
        });
        if let Some(child) = child {
            let at = self.child_path(child);
            r.error(loc, msg).help(format!(
                "`{name}` belongs in `[{at}]`: write it under a `[{at}]` header"
            ));
            return;
        }
        if let Some((p, p_title)) = parent
            && p.key(name).is_some()
        {
            r.error(loc, msg).help(format!(
                "`{name}` belongs to {p_title}, but every key after a `[header]` belongs to \
                 that header's table: move `{name}` above the `[{}]` header",
                self.path
            ));
            return;
        }
        r.error(loc, msg).help(format!(
            "the keys allowed here are {}",
            suggest::list(self.schema.key_names())
        ));
    }

    fn child_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// The key as messages name it: its dotted path.
    pub fn what(&self, key: &str) -> String {
        self.child_path(key)
    }

    pub fn get(&self, key: &str) -> Option<&'t Node<'i>> {
        self.entries
            .iter()
            .find(|(k, _)| k.get_ref() == key)
            .map(|(_, v)| *v)
    }

    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The span of a key's value.
    pub fn loc_of(&self, key: &str) -> Option<Loc> {
        self.get(key).map(|v| Loc::new(self.file, v.span()))
    }

    /// The span of a key itself.
    pub fn key_loc(&self, key: &str) -> Option<Loc> {
        self.entries
            .iter()
            .find(|(k, _)| k.get_ref() == key)
            .map(|(k, _)| Loc::new(self.file, k.span()))
    }

    fn spec(&self, key: &str) -> Option<&'static KeySchema> {
        let spec = self.schema.key(key);
        debug_assert!(
            spec.is_some(),
            "`{key}` is not in the schema of {}",
            self.schema.title
        );
        spec
    }

    /// Help for a bad value of `key`: its meaning and default.
    fn hint(&self, key: &str) -> String {
        let Some(k) = self.spec(key) else {
            return String::new();
        };
        let unit = if k.unit.is_empty() {
            String::new()
        } else {
            format!(" (in {})", k.unit)
        };
        match k.default {
            Dflt::Required | Dflt::Unset | Dflt::Defaults | Dflt::Empty => {
                format!("`{key}`{unit}: {}", k.doc)
            }
            d => format!("`{key}`{unit}: {} The default is {}.", k.doc, d.describe()),
        }
    }

    /// The value of `key`, or `None` when absent (reporting it when required).
    fn value(&self, r: &mut Report, key: &str) -> Option<&'t Node<'i>> {
        let v = self.get(key);
        if v.is_none()
            && let Some(spec) = self.spec(key)
            && matches!(spec.default, Dflt::Required)
        {
            self.missing(r, key);
        }
        v
    }

    /// Reports that `key` is missing from this table.
    pub fn missing(&self, r: &mut Report, key: &str) {
        let example = self.spec(key).map_or("", |k| k.example);
        let msg = format!("missing required key `{key}` {}", self.place);
        r.error(self.loc, msg).help(format!("add e.g. `{example}`"));
    }

    fn default(&self, key: &str) -> Dflt {
        self.spec(key).map_or(Dflt::Unset, |k| k.default)
    }

    pub fn int(&self, r: &mut Report, key: &str) -> Option<i64> {
        let (min, max) = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Int { min, max }) => (min, max),
            _ => (i64::MIN, i64::MAX),
        };
        match self.value(r, key) {
            Some(v) => read_int(
                r,
                self.file,
                v,
                &self.what(key),
                (min, max),
                &self.hint(key),
            ),
            None => match self.default(key) {
                Dflt::Int(v) => Some(v),
                _ => None,
            },
        }
    }

    /// An integer key as a `u32` (its schema range keeps it inside).
    pub fn u32(&self, r: &mut Report, key: &str) -> Option<u32> {
        self.int(r, key).and_then(|v| u32::try_from(v).ok())
    }

    pub fn number(&self, r: &mut Report, key: &str) -> Option<f64> {
        let range = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Number {
                min,
                max,
                above_min,
            }) => (min, max, above_min),
            _ => (f64::MIN, f64::MAX, false),
        };
        match self.value(r, key) {
            Some(v) => read_number(r, self.file, v, &self.what(key), range, &self.hint(key)),
            None => match self.default(key) {
                Dflt::Num(v) => Some(v),
                Dflt::Int(v) => Some(v as f64),
                _ => None,
            },
        }
    }

    /// A number key as an `f32` (its schema range keeps it representable).
    pub fn f32(&self, r: &mut Report, key: &str) -> Option<f32> {
        self.number(r, key).map(|v| v as f32)
    }

    pub fn bool(&self, r: &mut Report, key: &str) -> Option<bool> {
        match self.value(r, key) {
            Some(v) => read_bool(r, self.file, v, &self.what(key)),
            None => match self.default(key) {
                Dflt::Bool(b) => Some(b),
                _ => None,
            },
        }
    }

    pub fn text(&self, r: &mut Report, key: &str) -> Option<String> {
        let v = self.value(r, key)?;
        read_str(r, self.file, v, &self.what(key), "a string").map(str::to_string)
    }

    /// A name of a `kind` of thing (`archetype`, `tag`...).
    pub fn name(&self, r: &mut Report, key: &str, kind: &str) -> Option<Named> {
        let v = self.value(r, key)?;
        read_name(r, self.file, v, &self.what(key), kind)
    }

    pub fn path(&self, r: &mut Report, key: &str) -> Option<Named> {
        let ext = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Path { ext }) => ext,
            _ => "",
        };
        let v = self.value(r, key)?;
        read_path(r, self.file, v, &self.what(key), ext)
    }

    /// One of the key's allowed strings.
    pub fn choice(&self, r: &mut Report, key: &str) -> Option<&'static str> {
        let options: &'static [&'static str] = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Choice(options)) => options,
            _ => &[],
        };
        let Some(v) = self.value(r, key) else {
            return match self.default(key) {
                Dflt::Str(s) => options.iter().copied().find(|o| *o == s),
                _ => None,
            };
        };
        let what = self.what(key);
        let expect = one_of(options);
        let text = read_str(r, self.file, v, &what, &expect)?;
        if let Some(o) = options.iter().copied().find(|o| *o == text) {
            return Some(o);
        }
        let msg = format!(
            "`{what}` must be {expect}, found {}",
            found(r, self.file, v)
        );
        let n = r.error(Loc::new(self.file, v.span()), msg);
        match suggest::closest(text, options.iter().copied()) {
            Some(o) => n.help(format!("did you mean `\"{o}\"`?")),
            None => n.help(self.hint(key)),
        }
        None
    }

    pub fn color(&self, r: &mut Report, key: &str) -> Option<Color> {
        match self.value(r, key) {
            Some(v) => read_color(r, self.file, v, &self.what(key)),
            None => match self.default(key) {
                Dflt::Str(s) => parse_color(s),
                _ => None,
            },
        }
    }

    pub fn pair(&self, r: &mut Report, key: &str) -> Option<Vec2> {
        let (range, form) = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Pair {
                min,
                max,
                above_min,
                form,
            }) => ((min, max, above_min), form),
            _ => ((f64::MIN, f64::MAX, false), "[x, y]"),
        };
        match self.value(r, key) {
            Some(v) => read_pair(r, self.file, v, &self.what(key), form, range),
            None => match self.default(key) {
                Dflt::Pair(a, b) => Some(Vec2::new(a as f32, b as f32)),
                _ => None,
            },
        }
    }

    pub fn size(&self, r: &mut Report, key: &str) -> Option<Vec2> {
        let max = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Size { max }) => max,
            _ => f64::from(f32::MAX),
        };
        match self.value(r, key) {
            Some(v) => read_size(r, self.file, v, &self.what(key), max),
            None => match self.default(key) {
                Dflt::Num(n) => Some(Vec2::new(n as f32, n as f32)),
                _ => None,
            },
        }
    }

    pub fn rect(&self, r: &mut Report, key: &str) -> Option<Rect> {
        let v = self.value(r, key)?;
        read_rect(r, self.file, v, &self.what(key))
    }

    /// An array of strings.
    pub fn texts(&self, r: &mut Report, key: &str) -> Option<Vec<String>> {
        let Some(v) = self.value(r, key) else {
            return Some(Vec::new());
        };
        let what = self.what(key);
        let items = self.array(r, v, &what, "strings")?;
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            out.push(read_str(r, self.file, item, &what, "a string")?.to_string());
        }
        Some(out)
    }

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
