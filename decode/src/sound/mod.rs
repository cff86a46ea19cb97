//! Sound files: WAV (PCM 8, 16, 24 or 32 bit, or 32-bit float) and OGG Vorbis, checked at
//! load (`info`) and decoded by the app (`decode`, or a piece at a time with [`Stream`]) to
//! 16-bit samples. A sound lasts at most what its file declares (a WAV file's data chunk, an
//! OGG file's last granule position) and at most [`MAX_SECONDS`]; its headers are checked
//! before anything of the size they declare is allocated (see the OGG side in `vorbis`).

mod format;
mod ogg;
mod vorbis;

use ogg::Demux;
use std::sync::Arc;
use vorbis::{Headers, Totals};
pub use vorbis::{MAX_CODEBOOK_ENTRIES, MAX_VQ_VALUES};

/// What a sound file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoundInfo {
    pub rate: u32,
    pub channels: u16,
    /// Its length in frames (a sample of each channel), as the file declares it, at most
    /// [`MAX_SECONDS`] of them: what decoding gives at most.
    pub frames: u64,
}

impl SoundInfo {
    /// Its samples' size once decoded: 2 bytes a sample of every channel.
    pub fn decoded_bytes(&self) -> u64 {
        self.frames * u64::from(self.channels) * 2
    }
}

/// Decoded sound: 16-bit samples, channels interleaved.
#[derive(Clone, Debug, PartialEq)]
pub struct Pcm {
    pub rate: u32,
    pub channels: u16,
    pub samples: Vec<i16>,
}

/// The most samples a decoded sound may hold (ten minutes of 48 kHz stereo).
pub const MAX_SAMPLES: usize = 10 * 60 * 48_000 * 2;
/// The longest sound, in seconds (whatever its rate: resampled to the output's, it stays
/// within a bound).
pub const MAX_SECONDS: usize = 10 * 60;

/// The kind of file, from its first bytes.
fn kind(bytes: &[u8]) -> Option<&'static str> {
    if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WAVE" {
        Some("wav")
    } else if bytes.starts_with(b"OggS") {
        Some("ogg")
    } else {
        None
    }
}

/// Checks a sound file's headers (for OGG, every page and every stream's headers): what it
/// holds, or what is wrong with it.
pub fn info(bytes: &[u8]) -> Result<SoundInfo, String> {
    match kind(bytes) {
        Some("wav") => wav(bytes).map(|(i, _)| i.0),
        Some(_) => {
            let scan = vorbis::scan(bytes)?;
            let most = MAX_SECONDS as u64 * u64::from(scan.rate);
            Ok(SoundInfo {
                rate: scan.rate,
                channels: scan.channels,
                frames: scan.frames.min(most),
            })
        }
        None => Err(
            "not a WAV or OGG Vorbis file (it starts with neither `RIFF....WAVE` nor `OggS`)"
                .into(),
        ),
    }
}

/// Decodes a sound file, refusing one past [`MAX_SAMPLES`] before holding them.
pub fn decode(bytes: &[u8]) -> Result<Pcm, String> {
    let mut stream = Stream::open(Arc::from(bytes))?;
    let SoundInfo {
        rate,
        channels,
        frames,
    } = stream.info();
    if frames.saturating_mul(u64::from(channels)) > MAX_SAMPLES as u64 {
        return Err(format!("more than {MAX_SAMPLES} samples"));
    }
    // Grown as samples come (at most the frames declared): a file may declare more than it
    // holds.
    let mut samples = Vec::new();
    while let Some(piece) = stream.piece()? {
        samples.extend_from_slice(&piece);
    }
    Ok(Pcm {
        rate,
        channels,
        samples,
    })
}

/// Frames a WAV file's piece holds.
const WAV_PIECE: usize = 4096;

/// A sound file decoded a piece at a time (music plays while it decodes): 16-bit samples,
/// channels interleaved. It ends after the frames its file declares ([`SoundInfo::frames`]),
/// whatever the data goes on to hold.
pub struct Stream {
    bytes: Arc<[u8]>,
    info: SoundInfo,
    /// Frames handed out so far.
    frames: u64,
    source: Source,
}

enum Source {
    /// Sample bytes `at..end` of the file are still to come.
    Wav {
        format: u16,
        bits: u16,
        at: usize,
        end: usize,
    },
    Ogg(Box<Ogg>),
}

/// An OGG Vorbis file being decoded.
struct Ogg {
    demux: Demux,
    headers: Headers,
    totals: Totals,
    window: lewton::audio::PreviousWindowRight,
    /// The granule position the samples handed out reach, once a page declared one.
    granule: Option<u64>,
}

impl Stream {
    /// Reads the file's headers (`bytes` is the whole file; an OGG file is read through once
    /// to check every page and stream).
    pub fn open(bytes: Arc<[u8]>) -> Result<Stream, String> {
        let info = info(&bytes)?;
        let source = match kind(&bytes) {
            Some("wav") => {
                let ((_, format, bits), data) = wav(&bytes)?;
                let at = data.as_ptr() as usize - bytes.as_ptr() as usize;
                let end = at + data.len();
                Source::Wav {
                    format,
                    bits,
                    at,
                    end,
                }
            }
            _ => {
                let mut demux = Demux::default();
                let mut totals = Totals::default();
                let first = demux.next(&bytes)?.ok_or("it holds no Vorbis stream")?;
                let headers = vorbis::headers(&first, &mut demux, &bytes, &mut totals)?;
                Source::Ogg(Box::new(Ogg {
                    demux,
                    headers,
                    totals,
                    window: lewton::audio::PreviousWindowRight::new(),
                    granule: None,
                }))
            }
        };
        Ok(Stream {
            bytes,
            info,
            frames: 0,
            source,
        })
    }

    pub fn info(&self) -> SoundInfo {
        self.info
    }

    /// The next piece of samples, or `None` at the end.
    pub fn piece(&mut self) -> Result<Option<Vec<i16>>, String> {
        let channels = usize::from(self.info.channels.max(1));
        let most = self.info.frames.saturating_sub(self.frames);
        if most == 0 {
            return Ok(None);
        }
        let piece = match &mut self.source {
            Source::Wav {
                format,
                bits,
                at,
                end,
            } => {
                let width = usize::from(*bits / 8);
                let frames = ((*end - *at) / (width * channels)).min(WAV_PIECE);
                let bytes = &self.bytes[*at..*at + frames * width * channels];
                *at += bytes.len();
                let piece: Vec<i16> = bytes
                    .chunks_exact(width)
                    .map(|s| wav_sample(*format, *bits, s))
                    .collect();
                (!piece.is_empty()).then_some(piece)
            }
            Source::Ogg(ogg) => ogg.piece(&self.bytes)?,
        };
        let Some(mut piece) = piece else {
            return Ok(None);
        };
        piece.truncate(
            usize::try_from(most)
                .unwrap_or(usize::MAX)
                .saturating_mul(channels),
        );
        self.frames += (piece.len() / channels) as u64;
        Ok(Some(piece))
    }

    /// Starts again from the first sample.
    pub fn rewind(&mut self) -> Result<(), String> {
        *self = Stream::open(self.bytes.clone())?;
        Ok(())
    }
}

impl Ogg {
    /// The samples of the next audio packet that gives some (a stream's first gives none),
    /// `None` after the last. A packet whose page ends the stream is cut to the stream's last
    /// granule position, as the format says.
    fn piece(&mut self, bytes: &[u8]) -> Result<Option<Vec<i16>>, String> {
        let channels = usize::from(self.headers.ident.audio_channels.max(1));
        while let Some(p) = self.demux.next(bytes)? {
            if p.first {
                // The next stream of a chain (checked alike when the file was opened).
                self.headers = vorbis::headers(&p, &mut self.demux, bytes, &mut self.totals)?;
                self.window = lewton::audio::PreviousWindowRight::new();
                self.granule = None;
                continue;
            }
            // An empty packet holds no audio.
            if p.data.is_empty() {
                continue;
            }
            let mut samples = vorbis::audio(&self.headers, &p.data, &mut self.window)?;
            if let (Some(g), true, Some(page)) = (self.granule, p.last, p.granule) {
                let keep = usize::try_from(page.saturating_sub(g)).unwrap_or(usize::MAX);
                samples.truncate(keep.saturating_mul(channels));
            }
            if p.last_in_page {
                self.granule = p.granule;
            } else if let Some(g) = &mut self.granule {
                *g += (samples.len() / channels) as u64;
            }
            if !samples.is_empty() {
                return Ok(Some(samples));
            }
        }
        Ok(None)
    }
}

/// One WAV sample of `format` (1: PCM, 3: float) and `bits`, as 16 bits.
fn wav_sample(format: u16, bits: u16, s: &[u8]) -> i16 {
    match (format, bits) {
        (1, 8) => (i16::from(s[0]) - 128) << 8,
        (1, 16) => i16::from_le_bytes([s[0], s[1]]),
        (1, 24) => i16::from_le_bytes([s[1], s[2]]),
        (1, _) => i16::from_le_bytes([s[2], s[3]]),
        _ => {
            let f = f32::from_le_bytes([s[0], s[1], s[2], s[3]]);
            (f.clamp(-1.0, 1.0) * f32::from(i16::MAX)) as i16
        }
    }
}

/// A WAV file's format (info, format tag, bits per sample) and its sample bytes.
#[allow(clippy::type_complexity)]
fn wav(bytes: &[u8]) -> Result<((SoundInfo, u16, u16), &[u8]), String> {
    let u16_at = |b: &[u8], i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let u32_at = |b: &[u8], i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let mut at = 12;
    let mut format = None;
    while at + 8 <= bytes.len() {
        let id = &bytes[at..at + 4];
        let len = u32_at(bytes, at + 4) as usize;
        let body = at + 8;
        let end = body.checked_add(len).filter(|e| *e <= bytes.len());
        match id {
            b"fmt " => {
                let Some(end) = end.filter(|_| len >= 16) else {
                    return Err("a damaged `fmt ` chunk".into());
                };
                let f = &bytes[body..end];
                let (tag, channels, rate, bits) =
                    (u16_at(f, 0), u16_at(f, 2), u32_at(f, 4), u16_at(f, 14));
                // WAVE_FORMAT_EXTENSIBLE names the real format in its sub-format GUID.
                let tag = if tag == 0xFFFE && f.len() >= 26 {
                    u16_at(f, 24)
                } else {
                    tag
                };
                match (tag, bits) {
                    (1, 8 | 16 | 24 | 32) | (3, 32) => {}
                    (1 | 3, _) => {
                        return Err(format!(
                            "{bits}-bit samples; 8, 16, 24 or 32-bit PCM or 32-bit float is supported"
                        ));
                    }
                    _ => {
                        return Err(format!(
                            "compressed WAV data (format {tag}); save it as PCM"
                        ));
                    }
                }
                format::check(rate, channels)?;
                format = Some((
                    SoundInfo {
                        rate,
                        channels,
                        frames: 0,
                    },
                    tag,
                    bits,
                ));
            }
            b"data" => {
                let Some(mut f) = format else {
                    return Err("its `data` chunk comes before its `fmt ` chunk".into());
                };
                // A truncated file: the samples that are there.
                let end = end.unwrap_or(bytes.len());
                let frame = usize::from(f.2 / 8) * usize::from(f.0.channels);
                let data = &bytes[body..end];
                if data.len() / frame > MAX_SECONDS * f.0.rate as usize {
                    return Err(format!("longer than {MAX_SECONDS} seconds"));
                }
                f.0.frames = (data.len() / frame) as u64;
                return Ok((f, &data[..data.len() - data.len() % frame]));
            }
            _ => {}
        }
        // Chunks are padded to an even length.
        at = body.saturating_add(len).saturating_add(len & 1);
    }
    Err(if format.is_none() {
        "no `fmt ` chunk".into()
    } else {
        "no `data` chunk".into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A WAV file: `tag` and `bits` in its `fmt ` chunk, `data` as its samples' bytes.
    fn wav_file(tag: u16, channels: u16, rate: u32, bits: u16, data: &[u8]) -> Vec<u8> {
        let mut fmt = Vec::new();
        fmt.extend_from_slice(&tag.to_le_bytes());
        fmt.extend_from_slice(&channels.to_le_bytes());
        fmt.extend_from_slice(&rate.to_le_bytes());
        let block = channels * bits / 8;
        fmt.extend_from_slice(&(rate * u32::from(block)).to_le_bytes());
        fmt.extend_from_slice(&block.to_le_bytes());
        fmt.extend_from_slice(&bits.to_le_bytes());
        let mut out = b"RIFF\0\0\0\0WAVE".to_vec();
        // A chunk readers must skip, of odd length (padded).
        out.extend_from_slice(b"LIST\x03\0\0\0abc\0");
        out.extend_from_slice(b"fmt ");
        out.extend_from_slice(&(fmt.len() as u32).to_le_bytes());
        out.extend_from_slice(&fmt);
        out.extend_from_slice(b"data");
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn every_pcm_width_and_float_decode_to_the_same_samples() {
        // Full scale down, zero, half scale up, in each format.
        let cases: [(u16, u16, Vec<u8>); 5] = [
            (1, 8, vec![0, 128, 192]),
            (
                1,
                16,
                [i16::MIN, 0, 16384]
                    .iter()
                    .flat_map(|s| s.to_le_bytes())
                    .collect(),
            ),
            (1, 24, vec![0, 0, 0x80, 0, 0, 0, 0, 0, 0x40]),
            (
                1,
                32,
                [i32::MIN, 0, 1 << 30]
                    .iter()
                    .flat_map(|s| s.to_le_bytes())
                    .collect(),
            ),
            (
                3,
                32,
                [-1.0f32, 0.0, 0.5]
                    .iter()
                    .flat_map(|s| s.to_le_bytes())
                    .collect(),
            ),
        ];
        for (tag, bits, data) in cases {
            let bytes = wav_file(tag, 1, 22_050, bits, &data);
            assert_eq!(
                info(&bytes),
                Ok(SoundInfo {
                    rate: 22_050,
                    channels: 1,
                    frames: 3,
                })
            );
            let pcm = decode(&bytes).unwrap();
            let expected = if tag == 3 {
                [-32767, 0, 16383]
            } else {
                [-32768, 0, 16384]
            };
            assert_eq!(pcm.samples, expected, "format {tag}, {bits} bits");
        }
        // Stereo keeps its frames interleaved; a truncated data chunk keeps whole frames.
        let mut stereo = wav_file(1, 2, 44_100, 16, &[1, 0, 2, 0, 3, 0, 4, 0]);
        stereo.truncate(stereo.len() - 1);
        let pcm = decode(&stereo).unwrap();
        assert_eq!((pcm.channels, pcm.samples.as_slice()), (2, &[1, 2][..]));
    }

    #[test]
    fn unplayable_files_say_why() {
        let cases: [(Vec<u8>, &str); 6] = [
            (b"ID3\x03 an mp3".to_vec(), "not a WAV or OGG Vorbis file"),
            (
                wav_file(2, 1, 44_100, 4, &[0; 8]),
                "compressed WAV data (format 2); save it as PCM",
            ),
            (wav_file(1, 1, 44_100, 12, &[0; 8]), "12-bit samples"),
            (
                wav_file(1, 6, 44_100, 16, &[0; 12]),
                "6 channels; sounds are mono or stereo",
            ),
            (
                wav_file(1, 1, 1_000, 16, &[0; 8]),
                "a sample rate of 1000 Hz",
            ),
            (
                b"RIFF\0\0\0\0WAVEdata\x04\0\0\0\0\0\0\0".to_vec(),
                "its `data` chunk comes before its `fmt ` chunk",
            ),
        ];
        for (bytes, why) in cases {
            let e = info(&bytes).unwrap_err();
            assert!(e.starts_with(why) || e.contains(why), "{e}");
            assert!(decode(&bytes).is_err());
        }
        assert_eq!(info(b"RIFF\0\0\0\0WAVE").unwrap_err(), "no `fmt ` chunk");
        // Ten minutes and a second of 8 kHz 8-bit mono: too long, whatever the file's size.
        let long = wav_file(1, 1, 8_000, 8, &vec![128; 8_000 * (MAX_SECONDS + 1)]);
        assert_eq!(info(&long).unwrap_err(), "longer than 600 seconds");
        assert_eq!(
            info(b"OggS but nothing more").unwrap_err(),
            "a damaged Ogg page at byte 0: the file ends inside its header"
        );
    }

    /// An OGG Vorbis file made by `oggenc` (vorbis-tools) from a WAV of a 440 Hz tone decodes
    /// to about as many samples, as loud. `oggenc` is required where `LUDUS_REQUIRE_OGGENC` is
    /// set (CI); elsewhere the test says it was skipped.
    #[test]
    fn an_ogg_vorbis_file_decodes() {
        let found = std::process::Command::new("oggenc")
            .arg("--version")
            .output()
            .is_ok();
        if !found {
            assert!(
                std::env::var_os("LUDUS_REQUIRE_OGGENC").is_none(),
                "oggenc is required (LUDUS_REQUIRE_OGGENC is set)"
            );
            eprintln!("OGG test skipped: oggenc is not installed (apt-get install vorbis-tools)");
            return;
        }
        // Removed when the test ends, passed or failed.
        let tmp = tempfile::Builder::new()
            .prefix("ludus-ogg-")
            .tempdir()
            .unwrap();
        let dir = tmp.path();
        let tone: Vec<u8> = (0..22_050)
            .map(|i| {
                ((i as f32 * 440.0 / 22_050.0 * std::f32::consts::TAU).sin() * 16_000.0) as i16
            })
            .flat_map(|s| s.to_le_bytes())
            .collect();
        // Without the padded LIST chunk, which oggenc does not skip correctly.
        let mut wav = wav_file(1, 1, 22_050, 16, &tone);
        wav.drain(12..24);
        std::fs::write(dir.join("tone.wav"), wav).unwrap();
        let o = std::process::Command::new("oggenc")
            .args(["-Q", "-o"])
            .arg(dir.join("tone.ogg"))
            .arg(dir.join("tone.wav"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let bytes = std::fs::read(dir.join("tone.ogg")).unwrap();
        assert_eq!(
            info(&bytes),
            Ok(SoundInfo {
                rate: 22_050,
                channels: 1,
                frames: 22_050,
            })
        );
        let pcm = decode(&bytes).unwrap();
        assert!(
            (21_000..=23_000).contains(&pcm.samples.len()),
            "{}",
            pcm.samples.len()
        );
        let peak = pcm.samples.iter().map(|s| s.unsigned_abs()).max().unwrap();
        assert!(
            (14_000..=18_000).contains(&peak),
            "as loud as the tone: {peak}"
        );
        // A damaged stream is an error, not a panic.
        let mut cut = bytes.clone();
        cut.truncate(bytes.len() / 2);
        let _ = decode(&cut);
    }
}
