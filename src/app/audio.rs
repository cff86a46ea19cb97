//! Sound: the game's `[sounds]`, played through the platform's [`SoundOutput`].
//!
//! A sound is a file (WAV or OGG Vorbis, decoded once when the app starts, mixed down to mono
//! and resampled to the output's rate, its pitch by resampling), or a tone generated from its
//! declaration (sine, square, triangle, saw or noise) with a frequency slide and a click-free
//! envelope, so games need no audio files. A machine without an audio device simply plays
//! nothing; that is not an error.

use crate::app::music::Music;
use crate::platform::{OPEN_SOUND_ON_GESTURE, SAMPLE_RATE, SoundOutput};
use crate::runtime::SoundCue;
use ludus_core::{MusicId, SoundDef, Wave};
use std::collections::HashMap;
use std::sync::Arc;

const RATE: u32 = SAMPLE_RATE;

/// The most decoded audio a game holds, in output samples (30 minutes, 160 MB): sounds past it
/// stay silent, so many long files cannot exhaust memory.
const MAX_TOTAL: usize = 30 * 60 * RATE as usize;

/// The output's cache key of a sound at a pitch (to the hundredth).
fn key(sound: u16, pitch: f32) -> u64 {
    (u64::from(sound) << 32) | u64::from((pitch * 100.0).round() as u32)
}

/// Each sound's file decoded to the output's samples (`None`: a tone, or a file that cannot be
/// decoded, reported once and then silent), each file once: sounds of the same file share its
/// samples.
fn decode_all(defs: &[SoundDef], files: &[Option<Arc<[u8]>>]) -> Vec<Option<Arc<[i16]>>> {
    let mut total = 0usize;
    let mut decoded: HashMap<&str, Option<Arc<[i16]>>> = HashMap::new();
    defs.iter()
        .enumerate()
        .map(|(i, def)| {
            let bytes = files.get(i)?.as_deref()?;
            let file = def.file.as_deref()?;
            if let Some(done) = decoded.get(file) {
                return done.clone();
            }
            if total >= MAX_TOTAL {
                crate::platform::error(&format!(
                    "ludus: `{}` stays silent: the game's sounds already hold {} minutes of audio",
                    def.name,
                    MAX_TOTAL / RATE as usize / 60
                ));
                return None;
            }
            let samples = match ludus_decode::decode_sound(bytes) {
                Ok(pcm) => {
                    let samples: Arc<[i16]> = Arc::from(mono(&pcm));
                    total += samples.len();
                    Some(samples)
                }
                Err(e) => {
                    crate::platform::error(&format!(
                        "ludus: `{}` cannot be decoded, it stays silent: {e}",
                        def.name
                    ));
                    None
                }
            };
            decoded.insert(file, samples.clone());
            samples
        })
        .collect()
}

/// A decoded sound file as the output's samples: mono, at [`RATE`].
fn mono(pcm: &ludus_decode::Pcm) -> Vec<i16> {
    let channels = usize::from(pcm.channels.max(1));
    let mixed: Vec<i16> = pcm
        .samples
        .chunks_exact(channels)
        .map(|f| (f.iter().map(|&s| i32::from(s)).sum::<i32>() / channels as i32) as i16)
        .collect();
    resample(&mixed, f64::from(pcm.rate) / f64::from(RATE), 1.0)
}

/// `input` read `step` samples per output sample (linear interpolation), scaled by `volume`.
fn resample(input: &[i16], step: f64, volume: f32) -> Vec<i16> {
    if input.is_empty() || step.is_nan() || step <= 0.0 {
        return Vec::new();
    }
    let n = ((input.len() as f64 - 1.0) / step).floor() as usize + 1;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let at = i as f64 * step;
        let j = at as usize;
        let f = (at - j as f64) as f32;
        let a = f32::from(input[j]);
        let b = f32::from(*input.get(j + 1).unwrap_or(&input[j]));
        out.push(((a + (b - a) * f) * volume).clamp(-32768.0, 32767.0) as i16);
    }
    out
}

/// The 16-bit mono samples of a sound at `pitch` times its speed, at 44.1 kHz: the file's
/// (`decoded`, already mono at the output's rate) when it has one, else its tone.
pub fn sound_samples(def: &SoundDef, decoded: Option<&[i16]>, pitch: f32) -> Vec<i16> {
    match decoded {
        Some(d) => resample(d, f64::from(pitch), def.volume.clamp(0.0, 1.0)),
        None => samples(def, pitch),
    }
}

/// The 16-bit mono samples of `def`'s tone at `pitch` times its frequencies, at 44.1 kHz.
pub fn samples(def: &SoundDef, pitch: f32) -> Vec<i16> {
    let duration = def.duration.clamp(0.005, 5.0);
    let n = (duration * RATE as f32) as usize;
    let mut samples = Vec::with_capacity(n);
    let mut phase = 0.0f32;
    let mut noise: u32 = 0x1234_5678;
    let attack = (0.005 * RATE as f32).max(1.0);
    for i in 0..n {
        let t = i as f32 / n as f32;
        let freq = (def.freq + (def.freq_end - def.freq) * t) * pitch;
        phase = (phase + freq / RATE as f32).fract();
        let v = match def.wave {
            Wave::Sine => libm::sinf(phase * std::f32::consts::TAU),
            Wave::Square => {
                if phase < 0.5 {
                    1.0
                } else {
                    -1.0
                }
            }
            Wave::Triangle => 1.0 - 4.0 * (phase - 0.5).abs(),
            Wave::Saw => 2.0 * phase - 1.0,
            Wave::Noise => {
                noise ^= noise << 13;
                noise ^= noise >> 17;
                noise ^= noise << 5;
                (noise as f32 / u32::MAX as f32) * 2.0 - 1.0
            }
        };
        let envelope = (i as f32 / attack).min(1.0) * (1.0 - t).powf(1.5);
        let s = (v * envelope * def.volume.clamp(0.0, 1.0) * 0.8 * i16::MAX as f32) as i16;
        samples.push(s);
    }
    samples
}

/// Plays cues; silent when no output exists or `LUDUS_NO_AUDIO` is set.
pub struct Audio {
    backend: Option<SoundOutput>,
    /// Sound is wanted but waits for the first user gesture (browser).
    deferred: bool,
    defs: Vec<SoundDef>,
    /// Each sound file decoded (mono, at the output's rate); `None` for tones and files that
    /// could not be decoded (reported once, then silent).
    decoded: Vec<Option<Arc<[i16]>>>,
    /// Each music track's file and volume (decoded while it plays).
    tracks: Vec<Option<(Arc<[u8]>, f32)>>,
    /// The track playing (or asked for while the output waits for a gesture).
    playing: Option<u16>,
    /// Cues received (played or not), for diagnostics.
    pub cues: u64,
}

impl Audio {
    /// `files`: each sound's file bytes by id (`None` for tones).
    pub fn new(defs: &[SoundDef], files: &[Option<Arc<[u8]>>]) -> Audio {
        let wanted = std::env::var_os("LUDUS_NO_AUDIO").is_none();
        let backend = if wanted && !OPEN_SOUND_ON_GESTURE {
            SoundOutput::open()
        } else {
            None
        };
        // Sound off: nothing to decode.
        let decoded = if wanted {
            decode_all(defs, files)
        } else {
            vec![None; defs.len()]
        };
        Audio {
            backend,
            deferred: wanted && OPEN_SOUND_ON_GESTURE,
            defs: defs.to_vec(),
            decoded,
            tracks: Vec::new(),
            playing: None,
            cues: 0,
        }
    }

    /// The game's sounds again, after a reload: decoded anew, and the output's prepared
    /// copies forgotten (a sound's id may now name another sound).
    pub fn set_sounds(&mut self, defs: &[SoundDef], files: &[Option<Arc<[u8]>>]) {
        let wanted = self.backend.is_some() || self.deferred;
        self.decoded = if wanted {
            decode_all(defs, files)
        } else {
            vec![None; defs.len()]
        };
        self.defs = defs.to_vec();
        if let Some(b) = &mut self.backend {
            b.forget();
        }
    }

    /// The game's music tracks and their files' bytes by id.
    pub fn set_music(&mut self, defs: &[SoundDef], files: &[Option<Arc<[u8]>>]) {
        if self.backend.is_none() && !self.deferred {
            return;
        }
        self.tracks = defs
            .iter()
            .enumerate()
            .map(|(i, def)| {
                let bytes = files.get(i)?.clone()?;
                Some((bytes, def.volume.clamp(0.0, 1.0)))
            })
            .collect();
    }

    /// Loops `track` from its start in place of the one playing; `None` stops the music.
    pub fn music(&mut self, track: Option<MusicId>) {
        self.playing = track.map(|t| t.0);
        self.start_music();
    }

    fn start_music(&mut self) {
        let Some(backend) = &mut self.backend else {
            return;
        };
        let Some(t) = self.playing else {
            backend.stop_music();
            return;
        };
        let Some((bytes, volume)) = self.tracks.get(t as usize).and_then(Option::as_ref) else {
            backend.stop_music();
            return;
        };
        match Music::open(bytes.clone(), *volume) {
            Ok(music) => backend.play_music(Box::new(music)),
            Err(e) => {
                backend.stop_music();
                crate::platform::error(&format!(
                    "ludus: music track {t} cannot be played, it stays silent: {e}"
                ));
            }
        }
    }

    /// Once a frame: starts plays that waited for their sound to be ready.
    pub fn update(&mut self) {
        if let Some(b) = &mut self.backend {
            b.poll();
        }
    }

    pub fn enabled(&self) -> bool {
        self.backend.is_some()
    }

    /// A key or button went down: in the browser the first one opens the output (it must
    /// happen inside the input event) and prepares every sound ahead of its first cue.
    pub fn gesture(&mut self) {
        if !std::mem::take(&mut self.deferred) {
            return;
        }
        self.backend = SoundOutput::open();
        if let Some(b) = &mut self.backend {
            for (i, def) in self.defs.iter().enumerate() {
                let decoded = self.decoded.get(i).and_then(Option::as_deref);
                b.prepare(key(i as u16, 1.0), &sound_samples(def, decoded, 1.0));
            }
        }
        // Music asked for before the gesture starts now.
        if self.playing.is_some() {
            self.start_music();
        }
    }

    pub fn play(&mut self, cue: SoundCue) {
        self.cues += 1;
        let (Some(backend), Some(def)) = (&mut self.backend, self.defs.get(cue.sound.0 as usize))
        else {
            return;
        };
        let pitch = cue.pitch;
        let decoded = self
            .decoded
            .get(cue.sound.0 as usize)
            .and_then(Option::as_deref);
        backend.play(
            key(cue.sound.0, pitch),
            || sound_samples(def, decoded, pitch),
            cue.volume.clamp(0.0, 4.0),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(wave: Wave) -> SoundDef {
        SoundDef {
            name: "t".into(),
            file: None,
            wave,
            freq: 440.0,
            freq_end: 220.0,
            duration: 0.1,
            volume: 0.5,
        }
    }

    #[test]
    fn sound_files_are_mixed_to_mono_at_the_output_rate_and_pitched_by_resampling() {
        // Stereo at 22050 Hz: left a ramp, right its negative plus 1000.
        let frames = 1000;
        let pcm = ludus_decode::Pcm {
            rate: 22_050,
            channels: 2,
            samples: (0..frames)
                .flat_map(|i| [i as i16 * 10, 1000 - i as i16 * 10])
                .collect(),
        };
        let m = mono(&pcm);
        // Twice the rate: about twice the samples, every one the channels' mean (500).
        assert_eq!(m.len(), 2 * frames - 1);
        assert!(m.iter().all(|&s| s == 500), "{:?}", &m[..4]);
        let def = SoundDef {
            volume: 0.5,
            ..tone(Wave::Sine)
        };
        // Twice the pitch: half as long; the declared volume scales it.
        let up = sound_samples(&def, Some(&m), 2.0);
        assert_eq!(up.len(), m.len() / 2 + 1);
        assert_eq!(up[0], 250);
        // Without a file: the tone.
        assert_eq!(sound_samples(&def, None, 1.0), samples(&def, 1.0));
    }

    #[test]
    fn synthesised_sounds_have_an_envelope() {
        for wave in [
            Wave::Sine,
            Wave::Square,
            Wave::Triangle,
            Wave::Saw,
            Wave::Noise,
        ] {
            let s = samples(&tone(wave), 1.0);
            assert_eq!(s.len(), 4410);
            assert_eq!(s[0], 0, "{wave:?} starts silent (no click)");
            let peak = s.iter().map(|v| v.unsigned_abs()).max().unwrap();
            assert!(peak > 5000, "{wave:?} is audible: {peak}");
            assert!(s[s.len() - 1].unsigned_abs() < 200, "{wave:?} fades out");
        }
        assert_ne!(
            samples(&tone(Wave::Sine), 1.0),
            samples(&tone(Wave::Sine), 2.0),
            "pitch changes the tone"
        );
    }

    #[test]
    fn a_sound_file_named_by_many_sounds_is_decoded_once() {
        // A WAV file of four 16-bit mono samples at 44.1 kHz.
        let mut wav = b"RIFF\0\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x44\xac\0\0".to_vec();
        wav.extend_from_slice(b"\x88\x58\x01\0\x02\0\x10\0data\x08\0\0\0");
        wav.extend_from_slice(&[1, 0, 2, 0, 3, 0, 4, 0]);
        let bytes: Arc<[u8]> = Arc::from(wav);
        let defs: Vec<SoundDef> = (0..100)
            .map(|i| SoundDef {
                name: format!("s{i}"),
                file: Some("one.wav".into()),
                ..tone(Wave::Sine)
            })
            .collect();
        let files = vec![Some(bytes); defs.len()];
        let decoded = decode_all(&defs, &files);
        let first = decoded[0].as_ref().expect("decoded");
        assert_eq!(&first[..], &[1, 2, 3, 4]);
        assert!(
            decoded
                .iter()
                .all(|d| d.as_ref().is_some_and(|d| Arc::ptr_eq(d, first))),
            "every sound shares the one decode"
        );
    }
}
