//! Sound output through quad-snd: WebAudio in the browser, CoreAudio or WASAPI on other
//! desktops.

use std::collections::HashMap;

/// See [`crate::platform::SoundOutput`].
pub struct Output {
    ctx: quad_snd::AudioContext,
    cache: HashMap<u64, quad_snd::Sound>,
    /// The music track looping.
    music: Option<quad_snd::Sound>,
}

impl Output {
    pub fn open() -> Option<Output> {
        #[cfg(target_arch = "wasm32")]
        if !super::web::audio_available() {
            return None;
        }
        Some(Output {
            ctx: quad_snd::AudioContext::new(),
            cache: HashMap::new(),
            music: None,
        })
    }

    /// Makes the sound `key` ready to play without delay.
    pub fn prepare(&mut self, key: u64, pcm: &[i16]) {
        let sound = quad_snd::Sound::load(&self.ctx, &wav(pcm));
        self.cache.insert(key, sound);
    }

    /// Plays the sound `key`, made from `pcm()` the first time.
    pub fn play(&mut self, key: u64, pcm: impl FnOnce() -> Vec<i16>, volume: f32) {
        let ctx = &self.ctx;
        let sound = self
            .cache
            .entry(key)
            .or_insert_with(|| quad_snd::Sound::load(ctx, &wav(&pcm())));
        sound.play(
            ctx,
            quad_snd::PlaySoundParams {
                looped: false,
                volume,
            },
        );
    }
}

impl Output {
    /// Forgets every prepared sound (the game's sounds changed).
    pub fn forget(&mut self) {
        for (_, s) in self.cache.drain() {
            s.delete(&self.ctx);
        }
    }

    /// Loops `music` from its start in place of the music playing. quad-snd loops only a
    /// whole buffer: the track is decoded whole here (at most ten minutes).
    pub fn play_music(&mut self, music: crate::app::music::Music) {
        self.stop_music();
        let volume = music.volume;
        let pcm = match music.whole() {
            Ok(pcm) => pcm,
            Err(e) => {
                crate::platform::error(&format!("ludus: the music stops: {e}"));
                return;
            }
        };
        let sound = quad_snd::Sound::load(&self.ctx, &wav(&pcm));
        sound.play(
            &self.ctx,
            quad_snd::PlaySoundParams {
                looped: true,
                volume,
            },
        );
        self.music = Some(sound);
    }

    /// Stops the music.
    pub fn stop_music(&mut self) {
        if let Some(m) = self.music.take() {
            m.stop(&self.ctx);
            m.delete(&self.ctx);
        }
    }
}

/// A 16-bit mono WAV of `samples` (what quad-snd decodes).
fn wav(samples: &[i16]) -> Vec<u8> {
    let rate = super::SAMPLE_RATE;
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out
}
