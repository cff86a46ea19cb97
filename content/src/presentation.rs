//! `[effects.NAME]` and `[sounds.NAME]`: what scripts can ask presentation for, by name.
//!
//! Defaults come from the schema; a value that fails its check has been reported, so what
//! stands in for it here never reaches a `GameDef`.

use crate::report::Report;
use crate::table::Table;
use ludus_core::{EffectDef, SoundDef, Wave};

/// Effect and sound ids are `u16`.
const MAX_NAMED: usize = u16::MAX as usize;

pub(crate) fn effects(r: &mut Report, root: &Table<'_, '_>) -> Vec<EffectDef> {
    let mut out = Vec::new();
    for (name, t) in root.named(r, "effects", "effect") {
        if out.len() == MAX_NAMED {
            r.error(
                name.loc,
                format!("a game may declare at most {MAX_NAMED} effects"),
            );
            break;
        }
        out.push(EffectDef {
            color: t.color(r, "color").unwrap_or_default(),
            particles: t.u32(r, "particles").unwrap_or_default(),
            speed: t.f32(r, "speed").unwrap_or_default(),
            duration: t.f32(r, "duration").unwrap_or_default(),
            size: t.f32(r, "size").unwrap_or_default(),
            name: name.name,
        });
    }
    out
}

pub(crate) fn sounds(r: &mut Report, root: &Table<'_, '_>) -> Vec<SoundDef> {
    let mut out = Vec::new();
    for (name, t) in root.named(r, "sounds", "sound") {
        if out.len() == MAX_NAMED {
            r.error(
                name.loc,
                format!("a game may declare at most {MAX_NAMED} sounds"),
            );
            break;
        }
        let wave = match t.choice(r, "wave") {
            Some("sine") => Wave::Sine,
            Some("triangle") => Wave::Triangle,
            Some("saw") => Wave::Saw,
            Some("noise") => Wave::Noise,
            _ => Wave::Square,
        };
        let freq = t.f32(r, "freq").unwrap_or_default();
        out.push(SoundDef {
            wave,
            freq,
            freq_end: t.f32(r, "freq_end").unwrap_or(freq),
            duration: t.f32(r, "duration").unwrap_or_default(),
            volume: t.f32(r, "volume").unwrap_or_default(),
            name: name.name,
        });
    }
    out
}
