//! A test's expectations against the end of its run: what was seen, and each expectation it
//! does not meet, with the expected and the seen value.

use crate::runtime::headless::{HeadlessRun, RunFigures};
use ludus_content::{Outcome, Value, Want};
use ludus_core::{GameDef, Identity, StateHash, Var};

/// The end of a run, as expectations read it.
pub struct Seen<'a> {
    pub run: &'a HeadlessRun,
    pub figures: &'a RunFigures,
}

impl Seen<'_> {
    /// The ticks the run ran.
    pub fn ticks(&self) -> u64 {
        self.run.ticks
    }

    /// The state hash after the last tick.
    pub fn hash(&self) -> u64 {
        self.run
            .last_hash
            .unwrap_or_else(|| StateHash::of(self.run.game.world()))
            .total
    }

    /// `None` when the expectation is met, else what was seen against what was expected.
    pub fn miss(&self, want: &Want, def: &GameDef, bless: bool) -> Option<(String, String)> {
        let world = self.run.game.world();
        match want {
            Want::GameOver(o) => {
                let seen = world.game_over().map(|(_, m)| m);
                let met = match o {
                    Outcome::No => seen.is_none(),
                    Outcome::Any => seen.is_some(),
                    Outcome::Text(t) => seen == Some(t.as_str()),
                };
                let shown = match world.game_over() {
                    None => "no game over".to_string(),
                    Some((tick, m)) => format!("{} on tick {tick}", quoted(m)),
                };
                (!met).then(|| (outcome(o, "no game over", "a game over"), shown))
            }
            Want::Faulted(o) => {
                let seen = self.figures.fault.as_ref();
                let met = match o {
                    Outcome::No => seen.is_none(),
                    Outcome::Any => seen.is_some(),
                    Outcome::Text(t) => seen.is_some_and(|f| f.message.contains(t.as_str())),
                };
                let shown = seen.map_or("no fault".to_string(), |f| quoted(&f.to_string()));
                let expected = match o {
                    Outcome::Text(t) => format!("a fault containing {}", quoted(t)),
                    o => outcome(o, "no fault", "a fault"),
                };
                (!met).then_some((expected, shown))
            }
            Want::Tick(t) => {
                (!bless && *t != self.ticks()).then(|| (t.to_string(), self.ticks().to_string()))
            }
            Want::Hash(h) => (!bless && *h != self.hash())
                .then(|| (format!("{h:016x}"), format!("{:016x}", self.hash()))),
            Want::Score(v) => {
                let score = world.score() as f64;
                (!matches(v, Some(&Var::Num(score)))).then(|| (value(v), world.score().to_string()))
            }
            Want::Var(name, v) => {
                let seen = world.vars().get(name.as_str());
                (!matches(v, seen)).then(|| (value(v), var(seen)))
            }
            Want::Count(tag, n) => {
                let Some(bit) = def.tag_bit(tag) else {
                    return Some((n.to_string(), format!("no tag `{tag}` in the game")));
                };
                let seen = world
                    .ecs()
                    .query::<&Identity>()
                    .iter()
                    .filter(|id| def.tags_of(id.archetype) & bit == bit)
                    .count() as u64;
                (seen != *n).then(|| (n.to_string(), seen.to_string()))
            }
        }
    }
}

fn outcome(o: &Outcome, no: &str, any: &str) -> String {
    match o {
        Outcome::No => no.into(),
        Outcome::Any => any.into(),
        Outcome::Text(t) => quoted(t),
    }
}

fn matches(want: &Value, seen: Option<&Var>) -> bool {
    match (want, seen) {
        (Value::Num(n), Some(Var::Num(s))) => n == s,
        (Value::Text(t), Some(Var::Text(s))) => t.as_str() == &**s,
        (Value::Range { min, max }, Some(Var::Num(s))) => {
            min.is_none_or(|m| *s >= m) && max.is_none_or(|m| *s <= m)
        }
        _ => false,
    }
}

fn value(v: &Value) -> String {
    match v {
        Value::Num(n) => number(*n),
        Value::Text(t) => quoted(t),
        Value::Range { min, max } => match (min, max) {
            (Some(a), Some(b)) => format!("{} to {}", number(*a), number(*b)),
            (Some(a), None) => format!("at least {}", number(*a)),
            (None, Some(b)) => format!("at most {}", number(*b)),
            (None, None) => "any number".into(),
        },
    }
}

fn var(v: Option<&Var>) -> String {
    match v {
        None => "not set".into(),
        Some(Var::Num(n)) => number(*n),
        Some(Var::Text(t)) => quoted(t),
    }
}

fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 9e15 {
        (n as i64).to_string()
    } else {
        n.to_string()
    }
}

/// A text as JSON writes it: quoted, its control characters escaped.
pub fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}
