//! Music: a track decoded a piece at a time while it plays (a few kilobytes held, however long
//! the file), mixed down to mono, resampled to the output's rate and looped without a gap.
//! An output that can only loop a whole buffer (quad-snd) takes the whole track instead
//! ([`Track::whole`]): the same samples, decoded when the track starts.

use crate::platform::{SAMPLE_RATE, Track};
use ludus_decode::SoundStream;
use std::sync::Arc;

/// A track playing. Invariant: `pos < src.len()` or `src` is empty (more must be decoded).
pub struct Music {
    stream: SoundStream,
    volume: f32,
    /// Source samples per output sample.
    step: f64,
    /// Mono source samples decoded and not yet passed: the output's next sample lies at `pos`.
    src: Vec<f32>,
    pos: f64,
    /// Samples decoded since the track last started (none in a whole pass: silence, stop).
    since_start: usize,
}

impl Music {
    /// Opens the track in the file `bytes`, checking its header.
    pub fn open(bytes: Arc<[u8]>, volume: f32) -> Result<Music, String> {
        let stream = SoundStream::open(bytes)?;
        let step = f64::from(stream.info().rate) / f64::from(SAMPLE_RATE);
        Ok(Music {
            stream,
            volume,
            step,
            src: Vec::new(),
            pos: 0.0,
            since_start: 0,
        })
    }

    /// Decodes the next piece into `src`: how many samples it added, `None` at the end.
    fn piece(&mut self) -> Result<Option<usize>, String> {
        let Some(piece) = self.stream.piece()? else {
            return Ok(None);
        };
        let channels = usize::from(self.stream.info().channels.max(1));
        let mono = piece
            .chunks_exact(channels)
            .map(|f| f.iter().map(|&s| f32::from(s)).sum::<f32>() / channels as f32);
        let before = self.src.len();
        self.src.extend(mono);
        Ok(Some(self.src.len() - before))
    }

    /// The sample at `pos`: linear interpolation between the two source samples about it
    /// (the last one alone at the very end).
    fn at(&self, pos: f64) -> f32 {
        let i = pos as usize;
        let f = (pos - i as f64) as f32;
        let a = self.src[i];
        let b = self.src.get(i + 1).copied().unwrap_or(a);
        a + (b - a) * f
    }

    /// Decodes the next piece (starting the track over at its end); `false` when it cannot
    /// go on: a file without a sample.
    fn refill(&mut self) -> Result<bool, String> {
        let passed = (self.pos as usize).min(self.src.len());
        self.src.drain(..passed);
        self.pos -= passed as f64;
        match self.piece()? {
            Some(n) => {
                self.since_start += n;
                Ok(true)
            }
            None if self.since_start == 0 => Ok(false),
            None => {
                self.stream.rewind()?;
                self.since_start = 0;
                Ok(true)
            }
        }
    }
}

impl Track for Music {
    fn volume(&self) -> f32 {
        self.volume
    }

    fn fill(&mut self, out: &mut [f32]) -> Result<(), String> {
        for o in out.iter_mut() {
            while self.pos as usize + 1 >= self.src.len() {
                if !self.refill()? {
                    return Err("it holds no samples".into());
                }
            }
            *o += self.at(self.pos) * self.volume;
            self.pos += self.step;
        }
        Ok(())
    }

    /// At most ten minutes, like any sound file.
    fn whole(mut self: Box<Self>) -> Result<Vec<i16>, String> {
        while self.piece()?.is_some() {}
        if self.src.is_empty() {
            return Ok(Vec::new());
        }
        let n = ((self.src.len() - 1) as f64 / self.step).floor() as usize + 1;
        Ok((0..n)
            .map(|i| self.at(i as f64 * self.step).clamp(-32768.0, 32767.0) as i16)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 16-bit PCM WAV at `rate` with `channels` interleaved `samples`.
    fn wav(rate: u32, channels: u16, samples: &[i16]) -> Arc<[u8]> {
        let data = (samples.len() * 2) as u32;
        let mut b = b"RIFF".to_vec();
        b.extend_from_slice(&(36 + data).to_le_bytes());
        b.extend_from_slice(b"WAVEfmt \x10\0\0\0\x01\0");
        b.extend_from_slice(&channels.to_le_bytes());
        b.extend_from_slice(&rate.to_le_bytes());
        b.extend_from_slice(&(rate * 2 * u32::from(channels)).to_le_bytes());
        b.extend_from_slice(&(2 * channels).to_le_bytes());
        b.extend_from_slice(&16u16.to_le_bytes());
        b.extend_from_slice(b"data");
        b.extend_from_slice(&data.to_le_bytes());
        for s in samples {
            b.extend_from_slice(&s.to_le_bytes());
        }
        b.into()
    }

    #[test]
    fn a_streamed_track_plays_what_the_whole_track_holds_then_starts_over() {
        // Ten thousand stereo frames at 32 kHz (several pieces): left a ramp, right silent.
        let frames: Vec<i16> = (0..10_000)
            .flat_map(|i| [(i % 3000) as i16 * 10, 0])
            .collect();
        let bytes = wav(32_000, 2, &frames);
        let whole = Box::new(Music::open(bytes.clone(), 1.0).unwrap())
            .whole()
            .unwrap();
        let mut music = Music::open(bytes, 1.0).unwrap();
        let mut streamed = vec![0.0f32; whole.len() + 500];
        // In uneven slices, as a mixer asks.
        for part in streamed.chunks_mut(333) {
            music.fill(part).unwrap();
        }
        let differs = whole
            .iter()
            .zip(&streamed)
            .position(|(w, s)| (f32::from(*w) - s).abs() > 1.0);
        assert_eq!(differs, None, "the stream equals the whole track");
        // Past the end (a sample or two between the last and the first) the track starts
        // over: its first samples again, within a step of the ramp.
        let again = &streamed[whole.len() + 2..whole.len() + 100];
        let first = &whole[..200];
        assert!(
            again
                .iter()
                .zip(first.iter().skip(2))
                .all(|(a, b)| (a - f32::from(*b)).abs() <= 8.0),
            "{:?} vs {:?}",
            &again[..4],
            &first[..5]
        );
    }

    #[test]
    fn a_track_without_samples_or_damaged_stops() {
        let empty = Music::open(wav(44_100, 1, &[]), 1.0);
        let mut out = [0.0f32; 8];
        assert!(
            empty.unwrap().fill(&mut out).is_err(),
            "no samples: no spin"
        );
        assert!(Music::open(Arc::from(&b"OggS garbage"[..]), 1.0).is_err());
    }
}
