//! The HUD's values: each item of the game's `hud` with the names it reads looked up in the
//! world (`{NAME}` in a text, the numbers of a row of icons or a bar). It only reads: the HUD
//! never changes the world, so it is never part of a state hash.
//!
//! A name is, in this order: `score`, `tick` or `entities` ([`HUD_BUILTINS`]), a game
//! variable, a `[constants]` key. A text shows `-` for a name that is none of them (a variable
//! not set yet); a number reads it as 0.

use crate::def::{Constant, GameDef, HudBar, HudIcons, HudImage, HudItem, HudLine, HudNumber};
use crate::var::Var;
use crate::world::SimWorld;
use std::ops::Range;

/// The names every HUD can show, besides the game's variables and constants.
pub const HUD_BUILTINS: [&str; 3] = ["score", "tick", "entities"];

/// An item of the HUD with its values, as it is drawn this frame.
#[derive(Clone, Debug, PartialEq)]
pub enum HudShown<'d> {
    /// The line's text with its names replaced.
    Text {
        text: String,
        line: &'d HudLine,
    },
    Image(&'d HudImage),
    /// `slots` icons (at most [`HudIcons::MAX`]), the first `full` of them full.
    Icons {
        full: u32,
        slots: u32,
        icons: &'d HudIcons,
    },
    /// The filled fraction of the bar, 0 to 1.
    Bar {
        fill: f32,
        bar: &'d HudBar,
    },
}

/// Every `{NAME}` of a HUD text, in order: the byte range of the braces and the name. Text
/// after a `{` that is never closed is not a name.
pub fn hud_names(text: &str) -> impl Iterator<Item = (Range<usize>, &str)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let open = at + text.get(at..)?.find('{')?;
        let close = open + 1 + text[open + 1..].find('}')?;
        at = close + 1;
        Some((open..close + 1, &text[open + 1..close]))
    })
}

/// The game's HUD with this frame's values (see the module documentation).
pub fn hud_shown<'d>(def: &'d GameDef, world: &SimWorld) -> Vec<HudShown<'d>> {
    def.hud
        .iter()
        .map(|item| match item {
            HudItem::Text(line) => HudShown::Text {
                text: substitute(&line.text, def, world),
                line,
            },
            HudItem::Image(image) => HudShown::Image(image),
            HudItem::Icons(icons) => {
                let slots = count(number(&icons.max, def, world), HudIcons::MAX);
                let full = count(number_of(&icons.value, def, world), slots);
                HudShown::Icons { full, slots, icons }
            }
            HudItem::Bar(bar) => {
                let max = number(&bar.max, def, world);
                let value = number_of(&bar.value, def, world);
                let fill = if max > 0.0 { value / max } else { 0.0 };
                HudShown::Bar {
                    // NaN (infinite value and max) is empty.
                    fill: if fill.is_nan() {
                        0.0
                    } else {
                        fill.clamp(0.0, 1.0) as f32
                    },
                    bar,
                }
            }
        })
        .collect()
}

/// `text` with each `{NAME}` replaced by its value (`-` for none).
pub fn substitute(text: &str, def: &GameDef, world: &SimWorld) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (braces, name) in hud_names(text) {
        out.push_str(&text[copied..braces.start]);
        match value(name, def, world) {
            Some(Value::Int(v)) => out.push_str(&v.to_string()),
            Some(Value::Var(v)) => out.push_str(&v.to_string()),
            Some(Value::Const(Constant::Float(v))) => out.push_str(&Var::Num(*v).to_string()),
            Some(Value::Const(Constant::Int(v))) => out.push_str(&v.to_string()),
            Some(Value::Const(Constant::Bool(v))) => out.push_str(&v.to_string()),
            Some(Value::Const(Constant::Text(v))) => out.push_str(v),
            None => out.push('-'),
        }
        copied = braces.end;
    }
    out.push_str(&text[copied..]);
    out
}

/// What a name is (see the module documentation).
enum Value<'a> {
    Int(i64),
    Var(&'a Var),
    Const(&'a Constant),
}

fn value<'a>(name: &str, def: &'a GameDef, world: &'a SimWorld) -> Option<Value<'a>> {
    Some(match name {
        "score" => Value::Int(world.score()),
        "tick" => Value::Int(i64::try_from(world.tick()).unwrap_or(i64::MAX)),
        "entities" => Value::Int(i64::try_from(world.entity_count()).unwrap_or(i64::MAX)),
        _ => match world.vars().get(name) {
            Some(v) => Value::Var(v),
            None => Value::Const(def.constants.get(name)?),
        },
    })
}

/// A name's value as a number: 0 for a text or no value.
fn number_of(name: &str, def: &GameDef, world: &SimWorld) -> f64 {
    match value(name, def, world) {
        Some(Value::Int(v)) => v as f64,
        Some(Value::Var(v)) => v.num().unwrap_or(0.0),
        Some(Value::Const(Constant::Int(v))) => *v as f64,
        Some(Value::Const(Constant::Float(v))) => *v,
        Some(Value::Const(Constant::Bool(_) | Constant::Text(_))) | None => 0.0,
    }
}

fn number(n: &HudNumber, def: &GameDef, world: &SimWorld) -> f64 {
    match n {
        HudNumber::Fixed(v) => *v,
        HudNumber::Named(name) => number_of(name, def, world),
    }
}

/// `v` as a whole count from 0 to `max` (rounded down; NaN is 0).
fn count(v: f64, max: u32) -> u32 {
    if v.is_nan() {
        return 0;
    }
    v.floor().clamp(0.0, f64::from(max)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_between_braces() {
        // (text, every (range, name))
        type Found = &'static [(Range<usize>, &'static str)];
        let cases: [(&str, Found); 6] = [
            ("score {score}", &[(6..13, "score")]),
            ("{a}{b}", &[(0..3, "a"), (3..6, "b")]),
            ("no names", &[]),
            ("open { never closed", &[]),
            ("{a} then {", &[(0..3, "a")]),
            ("{}", &[(0..2, "")]),
        ];
        for (text, expect) in cases {
            let found: Vec<_> = hud_names(text).collect();
            assert_eq!(found, expect, "{text:?}");
        }
    }

    #[test]
    fn counts_are_whole_and_bounded() {
        // (value, max, count)
        let cases = [
            (3.0, 5, 3),
            (3.9, 5, 3),
            (-1.0, 5, 0),
            (9.0, 5, 5),
            (f64::NAN, 5, 0),
            (f64::INFINITY, 64, 64),
            (f64::NEG_INFINITY, 64, 0),
        ];
        for (v, max, expect) in cases {
            assert_eq!(count(v, max), expect, "{v} of at most {max}");
        }
    }
}
