//! Lua values to the typed arguments of commands and reads.
//!
//! Each function converts one argument and says what was wrong in a sentence that names the
//! argument (`target must be an entity id (>= 1), got 0`). Strings are measured before they are
//! copied, so a script cannot make the host copy megabytes to refuse them.

use ludus_core::{Color, Overrides, TimerSpec, Var, Vec2, closest};
use ludus_lua::FastArg;
use mlua::Value;
use std::sync::Arc;

/// One argument as the helpers below read it: an mlua [`Value`] (the generic entry) or a fast
/// entry's [`FastArg`] (see `fast.rs`), so both entries convert alike.
pub(crate) trait Arg {
    /// The value, for the helpers' matches (a string's bytes through [`Arg::bytes`]).
    fn scalar(&self) -> Scalar;
    /// `f` of a string's bytes; `None` for any other value.
    fn bytes<R>(&self, f: impl FnOnce(&[u8]) -> R) -> Option<R>;
    /// The type's name as Lua gives it (`nil`, `number`, `string`...).
    fn type_name(&self) -> &'static str;
    /// A table entry's key or value as the helpers read it.
    type Item<'s>: Arg
    where
        Self: 's;
    /// `each` of every entry of a table (key, value), in the order Lua's `next` walks it,
    /// until one fails: that error; `None` where the value is not a table.
    fn entries<'s>(
        &'s self,
        each: impl FnMut(Self::Item<'s>, Self::Item<'s>) -> Result<(), String>,
    ) -> Option<Result<(), String>>;
    /// The value as mlua holds it, where it is one (a fast call's are not).
    fn lua(&self) -> Option<&Value>;

    fn is_nil(&self) -> bool {
        matches!(self.scalar(), Scalar::Nil)
    }
}

/// What [`Arg::scalar`] gives: the values the helpers take apart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Scalar {
    Nil,
    Int(i64),
    Num(f64),
    Str,
    /// Anything else (a boolean, a table...): refused by every helper, naming its type.
    Other,
}

impl Arg for Value {
    #[inline]
    fn scalar(&self) -> Scalar {
        match self {
            Value::Nil => Scalar::Nil,
            Value::Integer(i) => Scalar::Int(*i),
            Value::Number(n) => Scalar::Num(*n),
            Value::String(_) => Scalar::Str,
            _ => Scalar::Other,
        }
    }

    fn bytes<R>(&self, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
        match self {
            Value::String(s) => Some(f(&s.as_bytes())),
            _ => None,
        }
    }

    fn type_name(&self) -> &'static str {
        Value::type_name(self)
    }

    type Item<'s> = Value;

    fn entries<'s>(
        &'s self,
        each: impl FnMut(Self::Item<'s>, Self::Item<'s>) -> Result<(), String>,
    ) -> Option<Result<(), String>> {
        match self {
            Value::Table(t) => Some(each_entry(t, each)),
            _ => None,
        }
    }

    fn lua(&self) -> Option<&Value> {
        Some(self)
    }
}

impl Arg for FastArg<'_> {
    #[inline]
    fn scalar(&self) -> Scalar {
        match *self {
            FastArg::Nil => Scalar::Nil,
            FastArg::Int(i) => Scalar::Int(i),
            FastArg::Num(n) => Scalar::Num(n),
            FastArg::Str(_) => Scalar::Str,
            FastArg::Bool(_) | FastArg::Table(_) => Scalar::Other,
        }
    }

    fn bytes<R>(&self, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
        match *self {
            FastArg::Str(b) => Some(f(b)),
            _ => None,
        }
    }

    fn type_name(&self) -> &'static str {
        match self {
            FastArg::Nil => "nil",
            FastArg::Bool(_) => "boolean",
            FastArg::Int(_) => "integer",
            FastArg::Num(_) => "number",
            FastArg::Str(_) => "string",
            FastArg::Table(_) => "table",
        }
    }

    type Item<'s>
        = FastArg<'s>
    where
        Self: 's;

    fn entries<'s>(
        &'s self,
        mut each: impl FnMut(Self::Item<'s>, Self::Item<'s>) -> Result<(), String>,
    ) -> Option<Result<(), String>> {
        match *self {
            FastArg::Table(t) => Some(t.iter().try_for_each(|(k, v)| each(FastArg::Str(k), v))),
            _ => None,
        }
    }

    fn lua(&self) -> Option<&Value> {
        None
    }
}

pub(crate) fn type_name(v: &impl Arg) -> &'static str {
    v.type_name()
}

/// `f` of `v`, or `None` when `v` is nil (an optional argument left out).
pub(crate) fn opt<A: Arg, T>(
    v: &A,
    f: impl FnOnce(&A) -> Result<T, String>,
) -> Result<Option<T>, String> {
    if v.is_nil() { Ok(None) } else { f(v).map(Some) }
}

/// A number as a person reads it: plain when short, in exponent form when it would print
/// hundreds of digits.
pub(crate) fn show(n: f64) -> String {
    if n.is_finite() && n != 0.0 && !(1e-4..1e15).contains(&n.abs()) {
        format!("{n:e}")
    } else {
        format!("{n}")
    }
}

/// The longest name a script can pass (archetypes, effects, sounds, variables, keys...).
pub(crate) const NAME_MAX: usize = ludus_core::MAX_NAME_BYTES;
/// The longest text a script can pass (a game-over message, a variable's text).
pub(crate) const TEXT_MAX: usize = ludus_core::MAX_TEXT_BYTES;

#[inline]
pub(crate) fn int(v: &impl Arg, what: &str) -> Result<i64, String> {
    match v.scalar() {
        Scalar::Int(i) => Ok(i),
        // Every float with a whole value in i64's range (2^63 itself is just outside).
        Scalar::Num(n)
            if n.fract() == 0.0
                && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&n) =>
        {
            Ok(n as i64)
        }
        Scalar::Num(n) if n.is_finite() && n.fract() == 0.0 => Err(format!(
            "{what} is too large for a whole number, got {}",
            show(n)
        )),
        Scalar::Num(n) => Err(format!("{what} must be a whole number, got {}", show(n))),
        _ => Err(format!("{what} must be a number, got {}", type_name(v))),
    }
}

pub(crate) fn num(v: &impl Arg, what: &str) -> Result<f64, String> {
    match v.scalar() {
        Scalar::Int(i) => Ok(i as f64),
        Scalar::Num(n) if n.is_finite() => Ok(n),
        Scalar::Num(n) => Err(format!("{what} must be a finite number, got {n}")),
        _ => Err(format!("{what} must be a number, got {}", type_name(v))),
    }
}

/// A number stored as `f32` in the world: finite there too.
pub(crate) fn num32(v: &impl Arg, what: &str) -> Result<f32, String> {
    let n = num(v, what)?;
    if n.abs() > f64::from(f32::MAX) {
        return Err(format!(
            "{what} must be within ±3.4e38 (a 32-bit number), got {}",
            show(n)
        ));
    }
    Ok(n as f32)
}

pub(crate) fn opt_num(v: &impl Arg, what: &str) -> Result<Option<f64>, String> {
    opt(v, |v| num(v, what))
}

/// Two numeric arguments as a vector (`x`, `y` name them in errors).
pub(crate) fn vec2<A: Arg>(x: &A, y: &A, names: (&str, &str)) -> Result<Vec2, String> {
    Ok(Vec2::new(num32(x, names.0)?, num32(y, names.1)?))
}

#[inline]
pub(crate) fn entity(v: &impl Arg, what: &str) -> Result<u64, String> {
    let i = int(v, what)?;
    u64::try_from(i)
        .ok()
        .filter(|i| *i >= 1)
        .ok_or_else(|| format!("{what} must be an entity id (>= 1), got {i}"))
}

/// A string argument of at most `max` bytes, read without copying a longer one.
pub(crate) fn text_max(v: &impl Arg, what: &str, max: usize) -> Result<String, String> {
    with_text(v, what, max, str::to_string)
}

/// `f` of the text [`text_max`] gives, read in place (no copy).
pub(crate) fn with_text<R>(
    v: &impl Arg,
    what: &str,
    max: usize,
    f: impl FnOnce(&str) -> R,
) -> Result<R, String> {
    let read = v.bytes(|bytes| {
        if bytes.len() > max {
            return Err(format!(
                "{what} is too long ({} bytes; at most {max})",
                bytes.len()
            ));
        }
        std::str::from_utf8(bytes)
            .map(f)
            .map_err(|_| format!("{what} must be UTF-8 text"))
    });
    read.unwrap_or_else(|| Err(format!("{what} must be a string, got {}", type_name(v))))
}

/// A name (archetype, effect, variable, key...): at most [`NAME_MAX`] bytes.
pub(crate) fn text(v: &impl Arg, what: &str) -> Result<String, String> {
    text_max(v, what, NAME_MAX)
}

/// `each` of every entry of `t` (key, value), in the order Lua's `next` walks it (as its
/// `pairs` does, metamethods aside), until one fails: that error. One protected walk of the
/// table, where mlua's iterator of its pairs runs a protected call and makes two references
/// to every key (`ludus.spawn`'s options cost 4,000 instructions a call so).
pub(crate) fn each_entry(
    t: &mlua::Table,
    mut each: impl FnMut(Value, Value) -> Result<(), String>,
) -> Result<(), String> {
    let mut failed = None;
    let walked = t.for_each::<Value, Value>(|k, v| {
        each(k, v).map_err(|e| {
            let stop = mlua::Error::runtime(&e);
            failed = Some(e);
            stop
        })
    });
    match failed {
        Some(e) => Err(e),
        None => walked.map_err(|e| e.to_string()),
    }
}

/// One character of a tile map's legend (`" "`: no tile).
pub(crate) fn tile_char(v: &impl Arg) -> Result<char, String> {
    let t = text(v, "the tile")?;
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(format!(
            "the tile must be one character of the legend (\" \" for none), got \"{}\"",
            ludus_core::printable_line(&t)
        )),
    }
}

/// A colour, in the grammar of [`Color`] (the same as content's).
pub(crate) fn color(v: &impl Arg) -> Result<Color, String> {
    let c = text(v, "color")?;
    Color::parse(&c)
        .ok_or_else(|| format!("color `{c}` is not #rgb, #rrggbb, #rrggbbaa or a colour name"))
}

/// A game variable's value: a number or a text.
pub(crate) fn var_value(v: &impl Arg, what: &str) -> Result<Var, String> {
    match v.scalar() {
        Scalar::Str => Ok(Var::Text(Arc::from(text_max(v, what, TEXT_MAX)?))),
        Scalar::Int(_) | Scalar::Num(_) => num(v, what).map(Var::Num),
        _ => Err(format!(
            "{what} must be a number or a string, got {}",
            type_name(v)
        )),
    }
}

/// A key of saved data: refused, naming it, before a long one is copied.
pub(crate) fn save_key(v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) => {
            let bytes = s.as_bytes();
            ludus_core::check_save_key(&bytes)?;
            std::str::from_utf8(&bytes)
                .map(str::to_string)
                .map_err(|_| "a saved key must be UTF-8 text".to_string())
        }
        other => Err(format!(
            "a saved key must be a string, got {}",
            type_name(other)
        )),
    }
}

/// A value of saved data under `key`: a finite number, or a string no longer than the store
/// may take (`bound`: `[limits] save_bytes`), measured before it is copied.
pub(crate) fn save_value(v: &Value, key: &str, bound: u32) -> Result<Var, String> {
    match v {
        Value::String(s) if s.as_bytes().len() > bound as usize => Err(format!(
            "more than {bound} bytes of saved data: saving `{key}` would take the store past \
             it (its text alone has {} bytes) (raise [limits] save_bytes)",
            s.as_bytes().len()
        )),
        Value::String(_) => {
            text_max(v, "a saved text", bound as usize).map(|t| Var::Text(t.into()))
        }
        _ => var_value(v, "a saved value"),
    }
}

/// A radius: a finite number, not negative.
pub(crate) fn radius(v: &impl Arg) -> Result<f32, String> {
    let r = num32(v, "radius")?;
    if r < 0.0 {
        return Err(format!(
            "radius must not be negative, got {}",
            show(f64::from(r))
        ));
    }
    Ok(r)
}

#[inline]
pub(crate) fn amount(v: &impl Arg, what: &str) -> Result<i32, String> {
    let i = int(v, what)?;
    if i < 0 {
        return Err(format!("{what} must not be negative, got {i}"));
    }
    i32::try_from(i).map_err(|_| format!("{what} is too large: {i}"))
}

/// "unknown X `name`" plus the closest known name.
pub(crate) fn unknown<'a>(what: &str, name: &str, known: impl Iterator<Item = &'a str>) -> String {
    match closest(name, known) {
        Some(k) => format!("unknown {what} `{name}` (did you mean `{k}`?)"),
        None => format!("unknown {what} `{name}`"),
    }
}

/// A number `n` (both ways alike: `(n, n)`) or an array of two numbers, written as `form`
/// says (`{x, y}`, `{w, h}`).
pub(crate) fn pair_or_number(v: &impl Arg, what: &str, form: &str) -> Result<Vec2, String> {
    let t = match (v.scalar(), v.lua()) {
        (Scalar::Int(_) | Scalar::Num(_), _) => {
            let n = num32(v, what)?;
            return Ok(Vec2::new(n, n));
        }
        (_, Some(Value::Table(t))) => t,
        _ => {
            return Err(format!(
                "{what} must be a number or {form}, got {}",
                type_name(v)
            ));
        }
    };
    // At most three entries are looked at: a longer table is refused at its third.
    let entries = t.clone().pairs::<Value, Value>().take(3).count();
    let (x, y) = (
        t.raw_get::<Value>(1).map_err(|e| e.to_string())?,
        t.raw_get::<Value>(2).map_err(|e| e.to_string())?,
    );
    if entries != 2 || x.is_nil() || y.is_nil() {
        return Err(format!(
            "{what} must be a number or an array of two numbers {form}"
        ));
    }
    Ok(Vec2::new(num32(&x, what)?, num32(&y, what)?))
}

/// The keys of spawn options and their types (`api/types.rs`), in the order the docs list
/// them.
pub(crate) const SPAWN_OPTIONS: [(&str, &str); 9] = [
    ("vx", "number"),
    ("vy", "number"),
    ("speed", "number"),
    ("health", "integer"),
    ("lifetime", "integer"),
    ("color", "color"),
    ("size", "number|number[]"),
    ("scale", "number|number[]"),
    ("angle", "number"),
];

/// The options of `ludus.spawn` and `ludus.text`: any of [`SPAWN_OPTIONS`].
pub(crate) fn spawn_overrides(opts: &impl Arg) -> Result<Overrides, String> {
    let mut o = Overrides::default();
    if opts.is_nil() {
        return Ok(o);
    }
    let (mut vx, mut vy) = (None, None);
    let walked = opts.entries(|k, v| {
        if !matches!(k.scalar(), Scalar::Str) {
            return Err(format!(
                "spawn option keys are names, got {}",
                type_name(&k)
            ));
        }
        // The name read where it lies, not copied.
        with_text(&k, "a spawn option name", NAME_MAX, |key| {
            spawn_option(&mut o, (&mut vx, &mut vy), key, &v)
        })?
    });
    match walked {
        Some(walked) => walked?,
        None => {
            return Err(format!(
                "spawn options must be a table, got {}",
                type_name(opts)
            ));
        }
    }
    if vx.is_some() || vy.is_some() {
        o.velocity = Some(Vec2::new(vx.unwrap_or(0.0), vy.unwrap_or(0.0)));
    }
    Ok(o)
}

/// Spawn option `key` of [`spawn_overrides`], `v`, into `o` (the velocity's parts apart).
fn spawn_option(
    o: &mut Overrides,
    (vx, vy): (&mut Option<f32>, &mut Option<f32>),
    key: &str,
    v: &impl Arg,
) -> Result<(), String> {
    match key {
        "vx" => *vx = Some(num32(v, "vx")?),
        "vy" => *vy = Some(num32(v, "vy")?),
        "speed" => o.speed = Some(num32(v, "speed")?),
        "health" => {
            let h = amount(v, "health")?;
            if h == 0 {
                return Err("health must be at least 1".into());
            }
            o.health = Some(h);
        }
        "lifetime" => {
            let l = int(v, "lifetime")?;
            o.lifetime = Some(u32::try_from(l).ok().filter(|l| *l >= 1).ok_or_else(|| {
                format!(
                    "lifetime must be a number of ticks from 1 to {}, got {l}",
                    u32::MAX
                )
            })?);
        }
        "color" => o.color = Some(color(v)?),
        "size" => o.size = Some(pair_or_number(v, "size", "{w, h}")?),
        "scale" => o.scale = Some(pair_or_number(v, "scale", "{x, y}")?),
        "angle" => o.angle = Some(num32(v, "angle")?),
        other => {
            let known = SPAWN_OPTIONS.iter().map(|(k, _)| *k);
            return Err(unknown("spawn option", other, known));
        }
    }
    Ok(())
}

/// The options of `ludus.after` (the first two) and `ludus.every` (all three), with their
/// types (`api/types.rs`).
pub(crate) const TIMER_OPTIONS: [(&str, &str); 3] =
    [("target", "id"), ("data", "number"), ("delay", "integer")];

/// `ludus.after(delay, name, opts)` and `ludus.every(period, name, opts)`.
pub(crate) fn timer_spec(
    delay: &Value,
    name: &Value,
    opts: &Value,
    recurring: bool,
) -> Result<TimerSpec, String> {
    let delay_value = int(delay, if recurring { "period" } else { "delay" })?;
    let delay = u64::try_from(delay_value)
        .map_err(|_| format!("a timer delay must not be negative, got {delay_value}"))?;
    if recurring && delay == 0 {
        return Err("a timer period must be at least 1 tick".into());
    }
    let name = text(name, "timer name")?;
    if name.is_empty() {
        return Err("a timer name must not be empty".into());
    }
    let mut spec = TimerSpec {
        name: name.as_str().into(),
        delay,
        period: recurring.then_some(delay),
        target: None,
        data: 0.0,
    };
    let t = match opts {
        Value::Nil => return Ok(spec),
        Value::Table(t) => t,
        other => {
            return Err(format!(
                "timer options must be a table, got {}",
                type_name(other)
            ));
        }
    };
    each_entry(t, |k, v| {
        with_text(&k, "a timer option name", NAME_MAX, |key| {
            match key {
                "target" => spec.target = Some(entity(&v, "target")?),
                "data" => spec.data = num(&v, "data")?,
                "delay" if recurring => {
                    let d = int(&v, "delay")?;
                    spec.delay = u64::try_from(d)
                        .map_err(|_| format!("delay must not be negative, got {d}"))?;
                }
                other => {
                    let known = if recurring { 3 } else { 2 };
                    let known = TIMER_OPTIONS[..known].iter().map(|(k, _)| *k);
                    return Err(unknown("timer option", other, known));
                }
            }
            Ok(())
        })?
    })?;
    Ok(spec)
}
