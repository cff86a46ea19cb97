//! Vorbis streams in Ogg: each stream's three headers checked before the decoder (lewton) reads
//! them, and audio packets decoded by it.
//!
//! lewton allocates what a header declares before reading it: a vendor string or comment of
//! any length, 2^32 comments, codebooks of 2^24 entries with lookup tables of entries x
//! dimensions values. So the comment header is never given to it (Ludus reads no comments),
//! and every codebook of a setup header is parsed here first, its sizes checked against the
//! bits the packet holds and against [`MAX_CODEBOOK_ENTRIES`] and [`MAX_VQ_VALUES`] over the
//! whole file (a chain of many small streams cannot multiply the work). The rest of a setup
//! header (floors, residues, mappings, modes) declares only counts of a few bits.

use super::ogg::{Demux, Packet};
use lewton::audio::PreviousWindowRight;
use lewton::header::{IdentHeader, SetupHeader};

/// The most codebook entries a file's setup headers may declare together (lewton builds a
/// Huffman tree of each; real encoders use a few thousand).
pub(crate) const MAX_CODEBOOK_ENTRIES: u64 = 1 << 18;
/// The most vector values (entries x dimensions) a file's codebooks may declare together (4
/// bytes each once decoded).
pub(crate) const MAX_VQ_VALUES: u64 = 1 << 20;

/// One stream's headers, checked.
pub(crate) struct Headers {
    pub ident: IdentHeader,
    pub setup: SetupHeader,
}

/// What a file's setup headers declared so far.
#[derive(Default)]
pub(crate) struct Totals {
    entries: u64,
    values: u64,
}

/// What a whole file declares, every stream's headers checked.
pub(crate) struct Scan {
    pub rate: u32,
    pub channels: u16,
    /// The sum of each stream's last granule position: its length in frames.
    pub frames: u64,
}

/// Reads every page and checks every stream's headers; the streams of a chain must agree on
/// rate and channels.
pub(crate) fn scan(bytes: &[u8]) -> Result<Scan, String> {
    let mut demux = Demux::default();
    let mut totals = Totals::default();
    let mut format: Option<(u32, u16)> = None;
    let (mut frames, mut stream_frames) = (0u64, 0u64);
    while let Some(p) = demux.next(bytes)? {
        if p.first {
            frames = frames.saturating_add(stream_frames);
            stream_frames = 0;
            let h = headers(&p, &mut demux, bytes, &mut totals)?;
            let this = (h.ident.audio_sample_rate, u16::from(h.ident.audio_channels));
            match format {
                None => format = Some(this),
                Some(f) if f != this => {
                    return Err(format!(
                        "its chained streams differ ({} Hz, {} channels, then {} Hz, {} channels)",
                        f.0, f.1, this.0, this.1
                    ));
                }
                Some(_) => {}
            }
        } else if let Some(g) = p.granule {
            stream_frames = stream_frames.max(g);
        }
    }
    let (rate, channels) = format.ok_or("it holds no Vorbis stream")?;
    Ok(Scan {
        rate,
        channels,
        frames: frames.saturating_add(stream_frames),
    })
}

/// A stream's headers: `first` is its identification packet; the comment and setup packets
/// are read next from `demux`.
pub(crate) fn headers(
    first: &Packet,
    demux: &mut Demux,
    bytes: &[u8],
    totals: &mut Totals,
) -> Result<Headers, String> {
    let ident = lewton::header::read_header_ident(&first.data)
        .map_err(|e| format!("not a readable OGG Vorbis file ({e})"))?;
    super::check_sound(ident.audio_sample_rate, u16::from(ident.audio_channels))?;
    let mut next = |what: &str, kind: u8| -> Result<Vec<u8>, String> {
        let p = demux
            .next(bytes)?
            .filter(|p| !p.first)
            .ok_or_else(|| format!("its {what} header is missing"))?;
        if p.data.len() < 7 || p.data[0] != kind || &p.data[1..7] != b"vorbis" {
            return Err(format!("its {what} header is damaged"));
        }
        Ok(p.data)
    };
    // The comments are not read: only the packet's type is checked.
    next("comment", 3)?;
    let setup = next("setup", 5)?;
    check_codebooks(&setup, totals)?;
    let blocks = (ident.blocksize_0, ident.blocksize_1);
    let setup = guard(|| lewton::header::read_header_setup(&setup, ident.audio_channels, blocks))
        .ok_or("a damaged OGG Vorbis setup header (the decoder gave up)")?
        .map_err(|e| format!("a damaged OGG Vorbis setup header ({e})"))?;
    Ok(Headers { ident, setup })
}

/// Decodes one audio packet: interleaved 16-bit samples (none for a stream's first packet,
/// which only primes the next).
pub(crate) fn audio(
    h: &Headers,
    packet: &[u8],
    pwr: &mut PreviousWindowRight,
) -> Result<Vec<i16>, String> {
    use lewton::samples::InterleavedSamples;
    guard(|| {
        lewton::audio::read_audio_packet_generic::<InterleavedSamples<i16>>(
            &h.ident, &h.setup, packet, pwr,
        )
    })
    .ok_or("damaged OGG Vorbis data (the decoder gave up)")?
    .map(|s| s.samples)
    .map_err(|e| format!("damaged OGG Vorbis data ({e})"))
}

/// Runs third-party code on checked input; a panic in it is `None` where unwinding exists.
fn guard<T>(f: impl FnOnce() -> T) -> Option<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok()
}

/// Vorbis packets are read least significant bit first.
struct Bits<'a> {
    data: &'a [u8],
    /// The next bit.
    at: u64,
}

impl Bits<'_> {
    fn left(&self) -> u64 {
        (self.data.len() as u64 * 8).saturating_sub(self.at)
    }

    /// `n` bits (at most 32), or `None` past the end.
    fn read(&mut self, n: u32) -> Option<u32> {
        if u64::from(n) > self.left() {
            return None;
        }
        let mut v = 0u32;
        for i in 0..n {
            let bit = self.data[(self.at / 8) as usize] >> (self.at % 8) & 1;
            v |= u32::from(bit) << i;
            self.at += 1;
        }
        Some(v)
    }

    fn skip(&mut self, n: u64) -> Option<()> {
        (n <= self.left()).then(|| self.at += n)
    }
}

/// The number of bits of `v` (0 for 0), as the Vorbis `ilog`.
fn ilog(v: u32) -> u32 {
    32 - v.leading_zeros()
}

/// The greatest `r` with `r^dims <= entries` (Vorbis `lookup1_values`); `dims` is at least 1.
fn lookup1(entries: u32, dims: u16) -> u64 {
    let fits = |r: u64| {
        (0..dims)
            .try_fold(1u64, |acc, _| {
                acc.checked_mul(r).filter(|v| *v <= u64::from(entries))
            })
            .is_some()
    };
    let mut r = (f64::from(entries).powf(1.0 / f64::from(dims)) as u64).saturating_add(1);
    while r > 0 && !fits(r) {
        r -= 1;
    }
    r
}

/// Walks a setup header's codebooks (the part that declares sizes) and checks each size before
/// the decoder allocates it.
fn check_codebooks(setup: &[u8], totals: &mut Totals) -> Result<(), String> {
    let damaged = |what: &str| format!("a damaged OGG Vorbis setup header ({what})");
    let mut b = Bits {
        data: setup,
        at: 7 * 8,
    };
    let eof = || damaged("it ends inside a codebook");
    let count = b.read(8).ok_or_else(eof)? + 1;
    for _ in 0..count {
        if b.read(24) != Some(0x56_4342) {
            return Err(damaged("a codebook without its sync pattern"));
        }
        let dims = b.read(16).ok_or_else(eof)? as u16;
        let entries = b.read(24).ok_or_else(eof)?;
        totals.entries += u64::from(entries);
        if totals.entries > MAX_CODEBOOK_ENTRIES {
            return Err(format!(
                "its codebooks declare more than {MAX_CODEBOOK_ENTRIES} entries in all"
            ));
        }
        let ordered = b.read(1).ok_or_else(eof)? == 1;
        if ordered {
            let mut length = b.read(5).ok_or_else(eof)? + 1;
            let mut done = 0u32;
            while done < entries {
                if length > 32 {
                    return Err(damaged("a codeword longer than 32 bits"));
                }
                done += b.read(ilog(entries - done)).ok_or_else(eof)?;
                length += 1;
            }
            if done > entries {
                return Err(damaged("more codewords than entries"));
            }
        } else {
            let sparse = b.read(1).ok_or_else(eof)? == 1;
            for _ in 0..entries {
                if !sparse || b.read(1).ok_or_else(eof)? == 1 {
                    b.read(5).ok_or_else(eof)?;
                }
            }
        }
        let lookup = b.read(4).ok_or_else(eof)?;
        if lookup == 0 {
            continue;
        }
        if lookup > 2 {
            return Err(damaged("an unknown lookup type"));
        }
        if dims == 0 {
            return Err(damaged("a lookup table of vectors of no dimension"));
        }
        b.skip(64).ok_or_else(eof)?;
        let value_bits = u64::from(b.read(4).ok_or_else(eof)? + 1);
        b.skip(1).ok_or_else(eof)?;
        let vectors = u64::from(entries) * u64::from(dims);
        totals.values += vectors;
        if totals.values > MAX_VQ_VALUES {
            return Err(format!(
                "its codebooks declare more than {MAX_VQ_VALUES} vector values in all"
            ));
        }
        let values = if lookup == 1 {
            lookup1(entries, dims)
        } else {
            vectors
        };
        if values.saturating_mul(value_bits) > b.left() {
            return Err(damaged(&format!(
                "a lookup table of {values} values in a packet of {} bytes",
                setup.len()
            )));
        }
        b.skip(values * value_bits).ok_or_else(eof)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup1_is_the_integer_root() {
        let cases = [
            (1025, 10, 2),
            (1024, 10, 2),
            (1023, 10, 1),
            (3125, 5, 5),
            (3124, 5, 4),
            (1, 1, 1),
            (0, 15, 0),
            (1 << 24, 1, 1 << 24),
            ((1 << 24) - 1, 2, 4095),
            (1 << 24, 40, 1),
            (81, 4, 3),
        ];
        for (entries, dims, r) in cases {
            assert_eq!(lookup1(entries, dims), r, "{entries} {dims}");
        }
    }
}
