//! Sound: tones synthesised from the game's `[sounds]` declarations, played through the
//! platform's [`SoundOutput`].
//!
//! Games need no audio files: each sound is a short generated wave (sine, square, triangle,
//! saw or noise) with a frequency slide and a click-free envelope. A machine without an audio
//! device simply plays nothing; that is not an error.

use crate::platform::{OPEN_SOUND_ON_GESTURE, SAMPLE_RATE, SoundOutput};
use crate::runtime::SoundCue;
use ludus_core::{SoundDef, Wave};

const RATE: u32 = SAMPLE_RATE;

/// The output's cache key of a sound at a pitch (to the hundredth).
fn key(sound: u16, pitch: f32) -> u64 {
    (u64::from(sound) << 32) | u64::from((pitch * 100.0).round() as u32)
}

/// A 16-bit mono WAV of `def` at `pitch` times its frequencies (what quad-snd plays).
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

/// Plays cues; silent when no output exists or `LUDUS_NO_AUDIO` is set.
pub struct Audio {
    backend: Option<SoundOutput>,
    /// Sound is wanted but waits for the first user gesture (browser).
    deferred: bool,
    defs: Vec<SoundDef>,
    /// Cues received (played or not), for diagnostics.
    pub cues: u64,
}

impl Audio {
    pub fn new(defs: &[SoundDef]) -> Audio {
        let wanted = std::env::var_os("LUDUS_NO_AUDIO").is_none();
        let backend = if wanted && !OPEN_SOUND_ON_GESTURE {
            SoundOutput::open()
        } else {
            None
        };
        Audio {
            backend,
            deferred: wanted && OPEN_SOUND_ON_GESTURE,
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
        self.backend = SoundOutput::open();
        if let Some(b) = &mut self.backend {
            for (i, def) in self.defs.iter().enumerate() {
                b.prepare(key(i as u16, 1.0), &samples(def, 1.0));
            }
        }
    }

    pub fn play(&mut self, cue: SoundCue) {
        self.cues += 1;
        let (Some(backend), Some(def)) = (&mut self.backend, self.defs.get(cue.sound.0 as usize))
        else {
            return;
        };
        let pitch = cue.pitch;
        backend.play(
            key(cue.sound.0, pitch),
            || samples(def, pitch),
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
            wave,
            freq: 440.0,
            freq_end: 220.0,
            duration: 0.1,
            volume: 0.5,
        }
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
}
