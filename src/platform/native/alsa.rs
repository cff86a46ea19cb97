//! Sound output on Linux: ALSA loaded at run time, and a small mixer thread.
//!
//! `libasound.so.2` is opened with `dlopen` when the game starts, like miniquad opens X11 and
//! GL, so building needs no ALSA headers and a machine without ALSA or without a sound card
//! simply plays nothing. The mixer sums the playing voices and the looping music track into
//! 16-bit mono at 44.1 kHz and writes them with `snd_pcm_writei`, recovering from underruns.

use crate::platform::Track;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};

const RATE: u32 = crate::platform::SAMPLE_RATE;
const FRAMES: usize = 512;
const SND_PCM_STREAM_PLAYBACK: c_int = 0;
const SND_PCM_FORMAT_S16_LE: c_int = 2;
const SND_PCM_ACCESS_RW_INTERLEAVED: c_int = 3;
const RTLD_NOW: c_int = 2;

unsafe extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    /// csrc/alsa_quiet.c: an error handler that prints nothing.
    fn ludus_alsa_quiet(
        file: *const c_char,
        line: c_int,
        function: *const c_char,
        err: c_int,
        fmt: *const c_char,
        ...
    );
}

type SetErrorHandler = unsafe extern "C" fn(*const c_void) -> c_int;

type Open = unsafe extern "C" fn(*mut *mut c_void, *const c_char, c_int, c_int) -> c_int;
type SetParams =
    unsafe extern "C" fn(*mut c_void, c_int, c_int, c_uint, c_uint, c_int, c_uint) -> c_int;
type Writei = unsafe extern "C" fn(*mut c_void, *const c_void, c_ulong) -> c_long;
type Recover = unsafe extern "C" fn(*mut c_void, c_int, c_int) -> c_int;

/// The four ALSA functions the mixer uses.
#[derive(Clone, Copy)]
struct Alsa {
    open: Open,
    set_params: SetParams,
    writei: Writei,
    recover: Recover,
}

impl Alsa {
    fn load() -> Option<Alsa> {
        // SAFETY: dlopen/dlsym are called with NUL-terminated names; a symbol found is cast to
        // the signature ALSA documents for it (alsa-lib's pcm.h), and only called through
        // those signatures. The library handle is never closed, so the pointers stay valid.
        unsafe {
            let lib = dlopen(c"libasound.so.2".as_ptr(), RTLD_NOW);
            if lib.is_null() {
                return None;
            }
            let sym = |name: &std::ffi::CStr| {
                let p = dlsym(lib, name.as_ptr());
                (!p.is_null()).then_some(p)
            };
            // A machine without a sound card makes ALSA print configuration errors; silence
            // them (no card only means no sound).
            if let Some(set) = sym(c"snd_lib_error_set_handler") {
                let set = std::mem::transmute::<*mut c_void, SetErrorHandler>(set);
                set(ludus_alsa_quiet as *const c_void);
            }
            Some(Alsa {
                open: std::mem::transmute::<*mut c_void, Open>(sym(c"snd_pcm_open")?),
                set_params: std::mem::transmute::<*mut c_void, SetParams>(sym(
                    c"snd_pcm_set_params",
                )?),
                writei: std::mem::transmute::<*mut c_void, Writei>(sym(c"snd_pcm_writei")?),
                recover: std::mem::transmute::<*mut c_void, Recover>(sym(c"snd_pcm_recover")?),
            })
        }
    }

    /// Opens the default playback device, 16-bit mono at [`RATE`], about 50 ms of latency.
    fn open_default(&self) -> Option<Pcm> {
        let mut pcm = std::ptr::null_mut();
        // SAFETY: `open` writes a valid handle on success (return >= 0); `set_params` takes it
        // with constants from pcm.h.
        unsafe {
            if (self.open)(&mut pcm, c"default".as_ptr(), SND_PCM_STREAM_PLAYBACK, 0) < 0 {
                return None;
            }
            let ok = (self.set_params)(
                pcm,
                SND_PCM_FORMAT_S16_LE,
                SND_PCM_ACCESS_RW_INTERLEAVED,
                1,
                RATE,
                1,
                50_000,
            ) >= 0;
            ok.then_some(Pcm(pcm))
        }
    }
}

/// An open PCM handle, used only by the mixer thread.
struct Pcm(*mut c_void);

// SAFETY: the handle is created on the opening thread and then used only by the mixer thread
// it moves to; ALSA allows a PCM to be used from any one thread at a time.
unsafe impl Send for Pcm {}

struct Voice {
    samples: Arc<[i16]>,
    at: usize,
    volume: f32,
}

/// What the game sends the mixer.
enum Msg {
    /// A sound to play once.
    Play(Voice),
    /// A track to loop in place of the one looping (`None`: stop it).
    Music(Option<Box<dyn Track>>),
}

/// A running output: send it sounds to mix in. See [`crate::platform::SoundOutput`].
pub struct Output {
    voices: Sender<Msg>,
    cache: HashMap<u64, Arc<[i16]>>,
}

impl Output {
    /// Starts the output, or `None` when ALSA or a device is missing.
    pub fn open() -> Option<Output> {
        let alsa = Alsa::load()?;
        let pcm = alsa.open_default()?;
        let (voices, incoming) = channel();
        std::thread::Builder::new()
            .name("ludus-audio".into())
            .spawn(move || mix(alsa, pcm, incoming))
            .ok()?;
        Some(Output {
            voices,
            cache: HashMap::new(),
        })
    }

    /// Makes the sound `key` ready to play.
    pub fn prepare(&mut self, key: u64, pcm: &[i16]) {
        self.cache.insert(key, pcm.into());
    }

    /// Plays the sound `key`, made from `pcm()` the first time.
    pub fn play(&mut self, key: u64, pcm: impl FnOnce() -> Vec<i16>, volume: f32) {
        let samples = self
            .cache
            .entry(key)
            .or_insert_with(|| pcm().into())
            .clone();
        let _ = self.voices.send(Msg::Play(Voice {
            samples,
            at: 0,
            volume,
        }));
    }

    /// Nothing waits here: sounds are ready when handed over.
    pub fn poll(&mut self) {}

    /// Forgets every prepared sound (the game's sounds changed).
    pub fn forget(&mut self) {
        self.cache.clear();
    }

    /// Loops `music` from its start in place of the music playing, decoding it as it plays.
    pub fn play_music(&mut self, music: Box<dyn Track>) {
        let _ = self.voices.send(Msg::Music(Some(music)));
    }

    /// Stops the music.
    pub fn stop_music(&mut self) {
        let _ = self.voices.send(Msg::Music(None));
    }
}

/// Mixes the next `acc.len()` samples of the looping `music` and the `playing` voices into
/// `out` (clamped to 16 bits); voices that end are dropped. Music that cannot go on (a damaged
/// file) is dropped too, saying why.
fn mix_into(
    acc: &mut [f32],
    out: &mut [i16],
    playing: &mut Vec<Voice>,
    music: &mut Option<Box<dyn Track>>,
) {
    acc.iter_mut().for_each(|a| *a = 0.0);
    if let Some(m) = music
        && let Err(e) = m.fill(acc)
    {
        crate::platform::error(&format!("ludus: the music stops: {e}"));
        *music = None;
    }
    for v in playing.iter_mut() {
        let n = (v.samples.len() - v.at).min(acc.len());
        for (a, s) in acc.iter_mut().zip(&v.samples[v.at..v.at + n]) {
            *a += *s as f32 * v.volume;
        }
        v.at += n;
    }
    playing.retain(|v| v.at < v.samples.len());
    for (b, a) in out.iter_mut().zip(acc.iter()) {
        *b = a.clamp(i16::MIN as f32, i16::MAX as f32) as i16;
    }
}

fn mix(alsa: Alsa, pcm: Pcm, incoming: Receiver<Msg>) {
    let mut playing: Vec<Voice> = Vec::new();
    let mut music: Option<Box<dyn Track>> = None;
    let mut buf = [0i16; FRAMES];
    let mut acc = [0f32; FRAMES];
    loop {
        // Block while silent; the game hanging up ends the thread.
        let first = if playing.is_empty() && music.is_none() {
            match incoming.recv() {
                Ok(m) => Some(m),
                Err(_) => return,
            }
        } else {
            None
        };
        for m in first.into_iter().chain(incoming.try_iter()) {
            match m {
                Msg::Play(v) => playing.push(v),
                Msg::Music(m) => music = m,
            }
        }
        mix_into(&mut acc, &mut buf, &mut playing, &mut music);
        // SAFETY: `buf` holds FRAMES interleaved mono frames of the configured format.
        let written =
            unsafe { (alsa.writei)(pcm.0, buf.as_ptr() as *const c_void, FRAMES as c_ulong) };
        if written < 0 {
            // SAFETY: recover takes the handle and the error just returned.
            let recovered = unsafe { (alsa.recover)(pcm.0, written as c_int, 1) };
            if recovered < 0 {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn voice(samples: &[i16], volume: f32) -> Voice {
        Voice {
            samples: samples.into(),
            at: 0,
            volume,
        }
    }

    /// A track of `samples` looping at `volume`; without samples it cannot go on.
    struct Loop {
        samples: Vec<f32>,
        at: usize,
        volume: f32,
    }

    impl Track for Loop {
        fn volume(&self) -> f32 {
            self.volume
        }

        fn fill(&mut self, out: &mut [f32]) -> Result<(), String> {
            for o in out.iter_mut() {
                let s = self.samples.get(self.at).ok_or("it holds no samples")?;
                *o += s * self.volume;
                self.at = (self.at + 1) % self.samples.len();
            }
            Ok(())
        }

        fn whole(self: Box<Self>) -> Result<Vec<i16>, String> {
            Ok(self.samples.iter().map(|&s| s as i16).collect())
        }
    }

    fn track(samples: &[f32], volume: f32) -> Option<Box<dyn Track>> {
        Some(Box::new(Loop {
            samples: samples.to_vec(),
            at: 0,
            volume,
        }))
    }

    #[test]
    fn music_loops_under_the_sounds_that_end() {
        let (mut acc, mut out) = ([0f32; 4], [0i16; 4]);
        let mut playing = vec![voice(&[100, 200, 300], 1.0)];
        // Three samples at half volume.
        let mut music = track(&[10.0, 20.0, 30.0], 0.5);
        mix_into(&mut acc, &mut out, &mut playing, &mut music);
        // The sound's three samples over the music's 5, 10, 15, then the music starts over.
        assert_eq!(out, [105, 210, 315, 5]);
        assert!(playing.is_empty(), "the sound ended");
        mix_into(&mut acc, &mut out, &mut playing, &mut music);
        assert_eq!(out, [10, 15, 5, 10]);
        // Loud sums are clamped, silence is silence.
        let mut loud = vec![voice(&[30_000], 1.0), voice(&[30_000], 1.0)];
        mix_into(&mut acc, &mut out, &mut loud, &mut None);
        assert_eq!(out, [32_767, 0, 0, 0]);
        // A track that cannot go on is dropped, not spun.
        let mut music = track(&[], 1.0);
        mix_into(&mut acc, &mut out, &mut Vec::new(), &mut music);
        assert!(music.is_none());
    }
}
