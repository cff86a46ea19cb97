//! Sound: tones synthesised from the game's `[sounds]` declarations, played through quad-snd.
//!
//! Games need no audio files: each sound is a short generated wave (sine, square, triangle,
//! saw or noise) with a frequency slide and a click-free envelope. A machine without an audio
//! device simply plays nothing; that is not an error.

use crate::runner::SoundCue;
use ludus_core::{SoundDef, Wave};
use std::collections::HashMap;

const RATE: u32 = 44_100;

/// A 16-bit mono WAV of `def` at `pitch` times its frequencies (what quad-snd plays).
#[cfg_attr(target_os = "linux", allow(dead_code))]
pub fn synthesize(def: &SoundDef, pitch: f32) -> Vec<u8> {
    wav(&samples(def, pitch))
}

/// The 16-bit mono samples of `def` at `pitch` times its frequencies, at 44.1 kHz.
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

#[cfg_attr(target_os = "linux", allow(dead_code))]
fn wav(samples: &[i16]) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&RATE.to_le_bytes());
    out.extend_from_slice(&(RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out
}

/// The platform's sound output: ALSA loaded at run time on Linux, quad-snd elsewhere
/// (WebAudio in the browser, CoreAudio, WASAPI).
struct Backend {
    #[cfg(target_os = "linux")]
    output: crate::alsa::Output,
    #[cfg(target_os = "linux")]
    cache: HashMap<(u16, u32), std::sync::Arc<[i16]>>,
    #[cfg(not(target_os = "linux"))]
    ctx: quad_snd::AudioContext,
    #[cfg(not(target_os = "linux"))]
    cache: HashMap<(u16, u32), quad_snd::Sound>,
}

impl Backend {
    #[cfg(target_os = "linux")]
    fn open() -> Option<Backend> {
        crate::alsa::Output::open().map(|output| Backend {
            output,
            cache: HashMap::new(),
        })
    }

    #[cfg(not(target_os = "linux"))]
    fn open() -> Option<Backend> {
        #[cfg(target_arch = "wasm32")]
        if !crate::web::audio_available() {
            return None;
        }
        Some(Backend {
            ctx: quad_snd::AudioContext::new(),
            cache: HashMap::new(),
        })
    }

    fn play(&mut self, index: u16, def: &SoundDef, pitch: f32, volume: f32) {
        let key = (index, (pitch * 100.0).round() as u32);
        #[cfg(target_os = "linux")]
        {
            let samples = self
                .cache
                .entry(key)
                .or_insert_with(|| samples(def, pitch).into())
                .clone();
            self.output.play(samples, volume);
        }
        #[cfg(not(target_os = "linux"))]
        {
            let ctx = &self.ctx;
            let sound = self
                .cache
                .entry(key)
                .or_insert_with(|| quad_snd::Sound::load(ctx, &synthesize(def, pitch)));
            sound.play(
                ctx,
                quad_snd::PlaySoundParams {
                    looped: false,
                    volume,
                },
            );
        }
    }
}

/// Browsers let a page make sound only after a user gesture, so there the output is opened
/// by the first key or button press ([`Audio::gesture`]); cues before it are dropped.
const OPEN_ON_GESTURE: bool = cfg!(target_arch = "wasm32");

/// Plays cues; silent when no output exists or `LUDUS_NO_AUDIO` is set.
pub struct Audio {
    backend: Option<Backend>,
    /// Sound is wanted but waits for the first user gesture (browser).
    deferred: bool,
    defs: Vec<SoundDef>,
    /// Cues received (played or not), for diagnostics.
    pub cues: u64,
}

impl Audio {
    pub fn new(defs: &[SoundDef]) -> Audio {
        let wanted = std::env::var_os("LUDUS_NO_AUDIO").is_none();
        let backend = if wanted && !OPEN_ON_GESTURE {
            Backend::open()
        } else {
            None
        };
        Audio {
            backend,
            deferred: wanted && OPEN_ON_GESTURE,
            defs: defs.to_vec(),
            cues: 0,
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
        self.backend = Backend::open();
        #[cfg(not(target_os = "linux"))]
        if let Some(b) = &mut self.backend {
            for (i, def) in self.defs.iter().enumerate() {
                let sound = quad_snd::Sound::load(&b.ctx, &synthesize(def, 1.0));
                b.cache.insert((i as u16, 100), sound);
            }
        }
    }

    pub fn play(&mut self, cue: SoundCue) {
        self.cues += 1;
        let (Some(backend), Some(def)) = (&mut self.backend, self.defs.get(cue.sound.0 as usize))
        else {
            return;
        };
        backend.play(cue.sound.0, def, cue.pitch, cue.volume.clamp(0.0, 4.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(wave: Wave) -> SoundDef {
        SoundDef {
            name: "t".into(),
            wave,
            freq: 440.0,
            freq_end: 220.0,
            duration: 0.1,
            volume: 0.5,
        }
    }

    #[test]
    fn synthesised_sounds_are_valid_wav_with_an_envelope() {
        for wave in [
            Wave::Sine,
            Wave::Square,
            Wave::Triangle,
            Wave::Saw,
            Wave::Noise,
        ] {
            let bytes = synthesize(&tone(wave), 1.0);
            assert_eq!(&bytes[..4], b"RIFF");
            let samples = (bytes.len() - 44) / 2;
            assert_eq!(samples, 4410);
            let s = |i: usize| i16::from_le_bytes([bytes[44 + 2 * i], bytes[45 + 2 * i]]);
            assert_eq!(s(0), 0, "{wave:?} starts silent (no click)");
            let peak = (0..samples).map(|i| s(i).unsigned_abs()).max().unwrap();
            assert!(peak > 5000, "{wave:?} is audible: {peak}");
            assert!(s(samples - 1).unsigned_abs() < 200, "{wave:?} fades out");
        }
        assert_ne!(
            synthesize(&tone(Wave::Sine), 1.0),
            synthesize(&tone(Wave::Sine), 2.0),
            "pitch changes the tone"
        );
    }
}
