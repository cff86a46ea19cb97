//! `[effects.NAME]`, `[sounds.NAME]` and `[music.NAME]`: what scripts can ask presentation
//! for, by name.
//!
//! Defaults come from the schema; a value that fails its check has been reported, so what
//! stands in for it here never reaches a `GameDef`.

use crate::files::{FileKind, Files, Read};
use crate::report::Report;
use crate::table::Table;
use crate::value::Named;
use ludus_core::{EffectDef, SoundDef, Wave};
use ludus_decode::SoundInfo;

/// Effect, sound and music ids are `u16`.
const MAX_NAMED: usize = u16::MAX as usize;

/// The `[key.NAME]` tables of game.toml, each made into a `T` by `make`, at most
/// [`MAX_NAMED`] of them (`plural` names them in the error past that).
fn named<T>(
    r: &mut Report,
    root: &Table<'_, '_>,
    (key, kind, plural): (&str, &str, &str),
    mut make: impl FnMut(&mut Report, Named, &Table<'_, '_>) -> T,
) -> Vec<T> {
    let mut out = Vec::new();
    for (name, t) in root.named(r, key, kind) {
        if out.len() == MAX_NAMED {
            r.error(
                name.loc,
                format!("a game may declare at most {MAX_NAMED} {plural}"),
            );
            break;
        }
        out.push(make(r, name, &t));
    }
    out
}

/// A sound table's `file`, when it names a sound file that reads, with what it holds.
fn sound_file(
    r: &mut Report,
    t: &Table<'_, '_>,
    files: &mut Files<'_>,
) -> Option<(Named, SoundInfo)> {
    let f = t.path(r, "file")?;
    match files.read_listed(r, &f, FileKind::Sound) {
        Some(Read::Sound(info)) => Some((f, info)),
        _ => None,
    }
}

pub(crate) fn effects(r: &mut Report, root: &Table<'_, '_>) -> Vec<EffectDef> {
    named(r, root, ("effects", "effect", "effects"), |r, name, t| {
        EffectDef {
            color: t.color(r, "color").unwrap_or_default(),
            particles: t.u32(r, "particles").unwrap_or_default(),
            speed: t.f32(r, "speed").unwrap_or_default(),
            duration: t.f32(r, "duration").unwrap_or_default(),
            size: t.f32(r, "size").unwrap_or_default(),
            name: name.name,
        }
    })
}

pub(crate) fn sounds(r: &mut Report, root: &Table<'_, '_>, files: &mut Files<'_>) -> Vec<SoundDef> {
    named(r, root, ("sounds", "sound", "sounds"), |r, name, t| {
        let wave = match t.choice(r, "wave") {
            Some("sine") => Wave::Sine,
            Some("triangle") => Wave::Triangle,
            Some("saw") => Wave::Saw,
            Some("noise") => Wave::Noise,
            _ => Wave::Square,
        };
        let freq = t.f32(r, "freq").unwrap_or_default();
        if t.has("file") {
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
        // The player keeps each sound's samples decoded: they count against the game's total.
        let file = sound_file(r, t, files).and_then(|(f, info)| {
            let what = format!("sound file `{}`", f.name);
            files
                .charge(r, f.loc, &what, info.decoded_bytes())
                .then_some(f.name)
        });
        SoundDef {
            file,
            wave,
            freq,
            freq_end: t.f32(r, "freq_end").unwrap_or(freq),
            duration: t.f32(r, "duration").unwrap_or_default(),
            volume: t.f32(r, "volume").unwrap_or_default(),
            name: name.name,
        }
    })
}

/// `[music.NAME]`: tracks, each a sound file.
pub(crate) fn music(r: &mut Report, root: &Table<'_, '_>, files: &mut Files<'_>) -> Vec<SoundDef> {
    named(r, root, ("music", "track", "tracks"), |r, name, t| {
        // Music is decoded a piece at a time while it plays.
        SoundDef {
            file: sound_file(r, t, files).map(|(f, _)| f.name),
            wave: Wave::Sine,
            freq: 0.0,
            freq_end: 0.0,
            duration: 0.0,
            volume: t.f32(r, "volume").unwrap_or_default(),
            name: name.name,
        }
    })
}
