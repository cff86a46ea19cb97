//! Sound output through quad-snd: WebAudio in the browser, CoreAudio or WASAPI on other
//! desktops.

use std::collections::HashMap;

/// The most plays that may wait for their sound to be decoded (the browser decodes
/// asynchronously); past it the oldest is dropped.
const MAX_WAITING: usize = 64;

/// See [`crate::platform::SoundOutput`].
///
/// In the browser a sound handed to WebAudio is decoded asynchronously and plays nothing until
/// it is: a play asked for before that waits (in `waiting`, or `music_waits`) and starts from
/// [`Output::poll`], once a frame.
pub struct Output {
    ctx: quad_snd::AudioContext,
    cache: HashMap<u64, quad_snd::Sound>,
    /// Plays whose sound is still being decoded: its key and volume.
    waiting: Vec<(u64, f32)>,
    /// The music track, and its volume while it waits to be decoded.
    music: Option<quad_snd::Sound>,
    music_waits: Option<f32>,
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
            waiting: Vec::new(),
            music: None,
            music_waits: None,
        })
    }

    /// Makes the sound `key` ready to play without delay.
    pub fn prepare(&mut self, key: u64, pcm: &[i16]) {
        let sound = quad_snd::Sound::load(&self.ctx, &wav(pcm));
        self.cache.insert(key, sound);
    }

    /// Plays the sound `key`, made from `pcm()` the first time (once it is decoded).
    pub fn play(&mut self, key: u64, pcm: impl FnOnce() -> Vec<i16>, volume: f32) {
        let ctx = &self.ctx;
        let sound = self
            .cache
            .entry(key)
            .or_insert_with(|| quad_snd::Sound::load(ctx, &wav(&pcm())));
        if sound.is_loaded() {
            sound.play(
                ctx,
                quad_snd::PlaySoundParams {
                    looped: false,
                    volume,
                },
            );
        } else {
            if self.waiting.len() >= MAX_WAITING {
                self.waiting.remove(0);
            }
            self.waiting.push((key, volume));
        }
    }

    /// Starts what was waiting for its sound to be decoded.
    pub fn poll(&mut self) {
        let (ctx, cache) = (&self.ctx, &self.cache);
        self.waiting.retain(|&(key, volume)| match cache.get(&key) {
            Some(s) if s.is_loaded() => {
                let looped = false;
                s.play(ctx, quad_snd::PlaySoundParams { looped, volume });
                false
            }
            Some(_) => true,
            None => false,
        });
        if let (Some(m), Some(volume)) = (&self.music, self.music_waits)
            && m.is_loaded()
        {
            m.play(
                ctx,
                quad_snd::PlaySoundParams {
                    looped: true,
                    volume,
                },
            );
            self.music_waits = None;
        }
    }
}

impl Output {
    /// Forgets every prepared sound (the game's sounds changed).
    pub fn forget(&mut self) {
        self.waiting.clear();
        for (_, s) in self.cache.drain() {
            s.delete(&self.ctx);
        }
    }

    /// Loops `music` from its start in place of the music playing. quad-snd loops only a
    /// whole buffer: the track is decoded whole here (at most ten minutes).
    pub fn play_music(&mut self, music: Box<dyn super::Track>) {
        self.stop_music();
        let volume = music.volume();
        let pcm = match music.whole() {
            Ok(pcm) => pcm,
            Err(e) => {
                crate::platform::error(&format!("ludus: the music stops: {e}"));
                return;
            }
        };
        self.music = Some(quad_snd::Sound::load(&self.ctx, &wav(&pcm)));
        self.music_waits = Some(volume);
        self.poll();
    }

    /// Stops the music.
    pub fn stop_music(&mut self) {
        self.music_waits = None;
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
