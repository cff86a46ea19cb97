//! A table being read against its schema: unknown keys reported with suggestions, then typed
//! getters that apply the schema's ranges and defaults and report at the exact span at fault.

mod lists;

pub(crate) use lists::{ChoiceOrTable, TextOr};

use crate::report::{Loc, Report};
use crate::schema::{Dflt, KeySchema, RECT, TableSchema, Ty, one_of};
use crate::suggest;
use crate::value::{
    Key, Named, Node, found, read_bool, read_color, read_int, read_name, read_number, read_pair,
    read_path, read_size, read_str,
};
use ludus_core::{Color, Rect, Vec2};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// A table being read: its entries in declaration order, checked against its schema.
pub(crate) struct Table<'t, 'i> {
    pub file: usize,
    /// Dotted path of the table (`archetypes.ship.sprite`), empty at the top of a file.
    pub path: String,
    /// Span of the table (its header, or the inline table).
    pub loc: Loc,
    /// Where its keys are, for messages: ``in `[tick]` ``, `at the top level of game.toml`.
    place: String,
    schema: &'static TableSchema,
    entries: Vec<(&'t Key<'i>, &'t Node<'i>)>,
}

/// A number, or a name that says the number (`Ty::NumberOrName`).
pub(crate) enum NumberOr {
    Number(f64),
    Name(Named),
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
    pub(super) fn open_placed(
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
            r.error_as("wrong-type", loc, msg).help(format!(
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
            r.error_as("unknown-key", loc, msg).help(hint);
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
            r.error_as("unknown-key", loc, msg).help(format!(
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
            r.error_as("unknown-key", loc, msg).help(format!(
                "`{name}` belongs in `[{at}]`: write it under a `[{at}]` header"
            ));
            return;
        }
        if let Some((p, p_title)) = parent
            && p.key(name).is_some()
        {
            r.error_as("unknown-key", loc, msg).help(format!(
                "`{name}` belongs to {p_title}, but every key after a `[header]` belongs to \
                 that header's table: move `{name}` above the `[{}]` header",
                self.path
            ));
            return;
        }
        r.error_as("unknown-key", loc, msg).help(format!(
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
        r.error_as("missing-key", self.loc, msg)
            .help(format!("add e.g. `{example}`"));
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
                Dflt::Num(v) => Some(f64::from(v)),
                Dflt::Int(v) => Some(v as f64),
                _ => None,
            },
        }
    }

    /// A number or a name (`Ty::NumberOrName`); `None` when absent or wrong (reported).
    pub fn number_or_name(&self, r: &mut Report, key: &str) -> Option<NumberOr> {
        let range = match self.spec(key).map(|k| k.ty) {
            Some(Ty::NumberOrName {
                min,
                max,
                above_min,
            }) => (min, max, above_min),
            _ => (f64::MIN, f64::MAX, false),
        };
        let v = self.value(r, key)?;
        let what = self.what(key);
        match v.get_ref() {
            DeValue::String(_) => read_name(r, self.file, v, &what, "variable").map(NumberOr::Name),
            _ => read_number(r, self.file, v, &what, range, &self.hint(key)).map(NumberOr::Number),
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
        let (options, table): (&'static [&'static str], _) = match self.spec(key).map(|k| k.ty) {
            Some(Ty::Choice(options)) => (options, None),
            Some(Ty::ChoiceOr(options, t)) => (options, Some(t)),
            _ => (&[], None),
        };
        let Some(v) = self.value(r, key) else {
            return match self.default(key) {
                Dflt::Str(s) => options.iter().copied().find(|o| *o == s),
                _ => None,
            };
        };
        let what = self.what(key);
        let expect = match table {
            None => one_of(options),
            Some(t) => {
                let keys: Vec<&str> = t.keys.iter().map(|k| k.example).collect();
                format!(
                    "{}, or a table such as `{{ {} }}`",
                    one_of(options),
                    keys.join(", ")
                )
            }
        };
        let text = read_str(r, self.file, v, &what, &expect)?;
        if let Some(o) = options.iter().copied().find(|o| *o == text) {
            return Some(o);
        }
        let msg = format!(
            "`{what}` must be {expect}, found {}",
            found(r, self.file, v)
        );
        let n = r.error_as("not-allowed", Loc::new(self.file, v.span()), msg);
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
                Dflt::Color(c) => Some(c),
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
                Dflt::Pair(a, b) => Some(Vec2::new(a, b)),
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
                Dflt::Num(n) => Some(Vec2::new(n, n)),
                _ => None,
            },
        }
    }

    pub fn rect(&self, r: &mut Report, key: &str) -> Option<Rect> {
        let v = self.value(r, key)?;
        read_rect(r, self.file, v, &self.what(key))
    }
}

/// Reads a rect: `{ min = [x, y], max = [x, y] }` or `{ size = [w, h] }` centred on the origin.
fn read_rect(r: &mut Report, file: usize, node: &Node<'_>, what: &str) -> Option<Rect> {
    let t = Table::open(r, file, node, what, &RECT, None)?;
    let (min, max, size) = (t.pair(r, "min"), t.pair(r, "max"), t.pair(r, "size"));
    let (has_min, has_max, has_size) = (t.has("min"), t.has("max"), t.has("size"));
    if has_size && (has_min || has_max) {
        let loc = t.key_loc("size").unwrap_or(t.loc);
        r.error(
            loc,
            format!("`{what}` has both `size` and `min`/`max`; a rect takes one or the other"),
        )
        .help("write `{ size = [w, h] }` for a rect centred on the origin, or `{ min = [x, y], max = [x, y] }`");
        return None;
    }
    if has_size {
        return size.map(Rect::centered);
    }
    if !has_min || !has_max {
        let msg = match (has_min, has_max) {
            (true, false) => format!("`{what}` has `min` but no `max`"),
            (false, true) => format!("`{what}` has `max` but no `min`"),
            _ => format!("`{what}` needs `min` and `max`, or `size`"),
        };
        r.error(t.loc, msg).help(
            "write `{ min = [x, y], max = [x, y] }`, or `{ size = [w, h] }` for a rect centred on the origin",
        );
        return None;
    }
    let (min, max) = (min?, max?);
    if min.x >= max.x || min.y >= max.y {
        let axis = if min.x >= max.x { "x" } else { "y" };
        let loc = t.loc_of("max").unwrap_or(t.loc);
        r.error(
            loc,
            format!(
                "`{what}`: `max` [{}, {}] is not above `min` [{}, {}] on the {axis} axis",
                max.x, max.y, min.x, min.y
            ),
        )
        .help("`min` is the lower corner and `max` the upper one: each coordinate of `max` must be greater than that of `min`");
        return None;
    }
    Some(Rect::new(min, max))
}
