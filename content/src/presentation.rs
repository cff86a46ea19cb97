//! `[effects.NAME]`, `[sounds.NAME]` and `[music.NAME]`: what scripts can ask presentation
//! for, by name.
//!
//! Defaults come from the schema; a value that fails its check has been reported, so what
//! stands in for it here never reaches a `GameDef`.

use crate::files::{FileKind, Files, Read};
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

pub(crate) fn sounds(r: &mut Report, root: &Table<'_, '_>, files: &mut Files<'_>) -> Vec<SoundDef> {
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
        let file = t.path(r, "file");
        if file.is_some() {
            for key in ["wave", "freq", "freq_end", "duration"] {
                if let Some(loc) = t.key_loc(key) {
                    r.error(
                        loc,
                        format!(
                            "`{}` is for synthesised tones, not a sound file",
                            t.what(key)
                        ),
                    )
                    .help("remove it, or remove `file` to synthesise the sound");
                }
            }
        }
        let file = file.and_then(|f| match files.read_listed(r, &f, FileKind::Sound) {
            Some(Read::Sound) => Some(f.name),
            _ => None,
        });
        out.push(SoundDef {
            file,
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

/// `[music.NAME]`: tracks, each a sound file.
pub(crate) fn music(r: &mut Report, root: &Table<'_, '_>, files: &mut Files<'_>) -> Vec<SoundDef> {
    let mut out = Vec::new();
    for (name, t) in root.named(r, "music", "track") {
        if out.len() == MAX_NAMED {
            r.error(
                name.loc,
                format!("a game may declare at most {MAX_NAMED} tracks"),
            );
            break;
        }
        let file =
            t.path(r, "file")
                .and_then(|f| match files.read_listed(r, &f, FileKind::Sound) {
                    Some(Read::Sound) => Some(f.name),
                    _ => None,
                });
        out.push(SoundDef {
            name: name.name,
            file,
            wave: Wave::Sine,
            freq: 0.0,
            freq_end: 0.0,
            duration: 0.0,
            volume: t.f32(r, "volume").unwrap_or_default(),
        });
    }
    out
}
