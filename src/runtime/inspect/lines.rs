//! The inspector's panels as text: the entity's record, or why there is none, and the game's
//! variables, score and entity counts per tag. The window draws these lines as they are.

use crate::runtime::inspect::{Inspected, Seen, Value, Watch};
use ludus_core::{FieldType, Game, Identity};

/// The most game variables and tags the world panel lists (the rest are counted).
const WORLD_ROWS: usize = 16;

impl Inspected {
    /// The entity panel's lines.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!("#{} {}", self.id, self.kind)];
        out.push(format!("tags: {}", list(self.tags.iter().cloned())));
        out.push(format!(
            "at {:.1}, {:.1}  velocity {:.1}, {:.1}  angle {:.2}",
            self.x, self.y, self.vx, self.vy, self.angle
        ));
        let mut more = Vec::new();
        if let (Some(h), Some(m)) = (self.health, self.max_health) {
            more.push(format!("health {h}/{m}"));
        }
        if let Some(b) = self.behaviour {
            more.push(format!("behaviour {b}"));
        }
        if let Some(p) = self.parent {
            more.push(format!("attached to #{p}"));
        }
        if !more.is_empty() {
            out.push(more.join("  "));
        }
        let state = self.state.iter().map(|(k, v)| format!("{k} {}", short(*v)));
        out.push(format!("state: {}", list(state)));
        let cooldowns = self.cooldowns.iter().map(|(k, left)| match left {
            0 => format!("{k} ready"),
            n => format!("{k} in {n}"),
        });
        out.push(format!("cooldowns: {}", list(cooldowns)));
        out.push(match &self.animation {
            Some(a) => format!("animation: {} since tick {}", a.name, a.since),
            None => "animation: none".into(),
        });
        let timers = self.timers.iter().map(|t| match t.period {
            Some(p) => format!("{} at {} (every {p})", t.name, t.due),
            None => format!("{} at {}", t.name, t.due),
        });
        out.push(format!("timers: {}", list(timers)));
        out.extend(events(self.id, &self.events));
        out
    }
}

impl Watch {
    /// The entity panel's lines for `game`: the record, or why there is none (the entity was
    /// destroyed, or is not in this world), with the last events it was in.
    pub fn lines(&self, game: &Game) -> Vec<String> {
        if let Some(record) = self.record(game) {
            return record.lines();
        }
        let tick = game.world().tick();
        let name = match self.kind() {
            Some(kind) => format!("#{} {kind}", self.seq),
            None => format!("#{}", self.seq),
        };
        let mut out = vec![match self.gone() {
            Some(t) => format!("{name} gone at tick {t}"),
            None => format!("{name} is not in the world now"),
        }];
        out.push("click an entity to inspect it".into());
        let kept: Vec<Seen> = self.events().filter(|s| s.tick <= tick).cloned().collect();
        out.extend(events(self.seq, &kept));
        out
    }
}

/// The lines of the last events entity `seq` was in, newest first.
fn events(seq: u64, seen: &[Seen]) -> Vec<String> {
    if seen.is_empty() {
        return vec!["last events: none since selected".into()];
    }
    let mut out = vec!["last events:".to_string()];
    out.extend(
        seen.iter()
            .rev()
            .map(|s| format!("  {}", event_line(seq, s))),
    );
    out
}

/// One event as the panel shows it: its tick, its handler and the fields that say something
/// the panel does not (the entity's own id, kind and tags, positions, normals and a timer's
/// handle are left out; a flag is named when it is true).
pub fn event_line(seq: u64, seen: &Seen) -> String {
    let mut out = format!("{} {}", seen.tick, seen.handler.trim_start_matches("on_"));
    // The id fields naming the entity itself (`a`, `id`, `target`): their kind goes too.
    let own: Vec<&str> = seen
        .fields
        .iter()
        .filter(|(_, v)| *v == Value::Id(seq))
        .map(|(f, _)| f.name)
        .collect();
    let own_kind = |name: &str| {
        own.iter()
            .any(|o| name.strip_suffix("_kind") == Some(o) || (name == "kind" && *o == "id"))
    };
    for (f, v) in &seen.fields {
        let shown = match (f.ty, v) {
            (_, Value::Null) | (FieldType::Tags | FieldType::OptTags, _) => continue,
            (FieldType::Num | FieldType::OptNum, _) => continue,
            (FieldType::Int, _) if f.name == "tick" || f.name == "id" => continue,
            (_, Value::Id(id)) if *id == seq => continue,
            (FieldType::Kind | FieldType::OptKind, _) if own_kind(f.name) => continue,
            (_, Value::Bool(false)) => continue,
            (_, Value::Bool(true)) => f.name.to_string(),
            (_, Value::Num64(n)) if *n == 0.0 => continue,
            (_, v) => format!("{}={}", f.name, value(v)),
        };
        out.push(' ');
        out.push_str(&shown);
    }
    if seen.times > 1 {
        out.push_str(&format!(" (x{} since {})", seen.times, seen.first_tick));
    }
    out
}

fn value(v: &Value) -> String {
    match v {
        Value::Null => "nil".into(),
        Value::Int(n) => n.to_string(),
        Value::Id(id) => format!("#{id}"),
        Value::Num(n) => short(f64::from(*n)),
        Value::Num64(n) => short(*n),
        Value::Bool(b) => b.to_string(),
        Value::Text(t) => t.clone(),
        Value::Names(n) => n.join("+"),
    }
}

/// A number as the panels write it: whole numbers without a fraction, others to three
/// places.
fn short(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n:.3}")
    }
}

/// Items joined by commas, or `none`.
fn list(items: impl Iterator<Item = String>) -> String {
    let all: Vec<String> = items.collect();
    if all.is_empty() {
        "none".into()
    } else {
        all.join(", ")
    }
}

/// The world panel's lines: the tick, level and score, each game variable, and how many
/// live entities carry each tag (at most [`WORLD_ROWS`] of each, the rest counted).
pub fn world_lines(game: &Game) -> Vec<String> {
    let world = game.world();
    let def = game.def();
    let level = world.level_def(def).map_or("", |l| l.name.as_str());
    let mut out = vec![format!(
        "tick {}  level {level}  score {}",
        world.tick(),
        world.score()
    )];
    let vars = world.vars();
    out.push(match vars.len() {
        0 => "game variables: none".into(),
        _ => "game variables:".into(),
    });
    for (name, v) in vars.iter().take(WORLD_ROWS) {
        out.push(format!("  {name} = {v}"));
    }
    if vars.len() > WORLD_ROWS {
        out.push(format!("  and {} more", vars.len() - WORLD_ROWS));
    }
    let mut per_tag = vec![0usize; def.tags.len()];
    for id in world.ecs().query::<&Identity>().iter() {
        let mut bits = def.tags_of(id.archetype);
        while bits != 0 {
            if let Some(n) = per_tag.get_mut(bits.trailing_zeros() as usize) {
                *n += 1;
            }
            bits &= bits - 1;
        }
    }
    out.push(format!("entities {}, by tag:", world.entity_count()));
    let tagged: Vec<String> = def
        .tags
        .iter()
        .zip(per_tag)
        .filter(|(_, n)| *n > 0)
        .map(|(t, n)| format!("  {t} {n}"))
        .collect();
    let shown = tagged.len().min(WORLD_ROWS);
    if tagged.is_empty() {
        out.push("  none tagged".into());
    }
    out.extend(tagged.iter().take(shown).cloned());
    if tagged.len() > shown {
        out.push(format!("  and {} more tags", tagged.len() - shown));
    }
    out
}
