//! Small image and sound files built in tests, valid or declaring what they do not hold: PNG,
//! WAV and OGG Vorbis (a complete stream of silence). Shared by the decoders' tests, the
//! loader's and the command line's (through `#[path]`); fonts are in `fonts.rs`.

#![allow(dead_code)]

/// A PNG of `w` x `h` RGBA pixels, every byte `fill`.
pub fn png(w: u32, h: u32, fill: u8) -> Vec<u8> {
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, w, h);
    e.set_color(png::ColorType::Rgba);
    e.set_depth(png::BitDepth::Eight);
    let mut writer = e.write_header().unwrap();
    writer
        .write_image_data(&vec![fill; (w * h * 4) as usize])
        .unwrap();
    drop(writer);
    out
}

/// A PNG of 16 x 16 pixels padded with a private chunk to `size` bytes.
pub fn padded_png(size: usize) -> Vec<u8> {
    let small = png(16, 16, 7);
    let iend = small.len() - 12;
    let pad = size - small.len() - 12;
    let mut chunk = (pad as u32).to_be_bytes().to_vec();
    chunk.extend_from_slice(b"ruSt");
    chunk.resize(8 + pad, 0);
    // The chunk's checksum is not checked by the loader, which reads the header only.
    chunk.extend_from_slice(&[0; 4]);
    [&small[..iend], &chunk, &small[iend..]].concat()
}

/// A PNG of 1 x 1 pixel whose header declares `w` x `h` (its checksum made to match).
pub fn png_declaring(w: u32, h: u32) -> Vec<u8> {
    let mut b = png(1, 1, 0);
    b[16..20].copy_from_slice(&w.to_be_bytes());
    b[20..24].copy_from_slice(&h.to_be_bytes());
    let crc = crc32(&b[12..29]);
    b[29..33].copy_from_slice(&crc.to_be_bytes());
    b
}

/// CRC-32 as PNG uses it (reflected, polynomial 0xedb88320).
fn crc32(data: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in data {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xedb8_8320
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// A WAV file: format `tag` (1 PCM, 3 float), `channels`, `rate`, `bits`, then `data`, whose
/// chunk declares `data_len` bytes (`None`: its real length).
pub fn wav(
    tag: u16,
    channels: u16,
    rate: u32,
    bits: u16,
    data: &[u8],
    data_len: Option<u32>,
) -> Vec<u8> {
    let mut out = b"RIFF\0\0\0\0WAVEfmt \x10\0\0\0".to_vec();
    out.extend_from_slice(&tag.to_le_bytes());
    out.extend_from_slice(&channels.to_le_bytes());
    out.extend_from_slice(&rate.to_le_bytes());
    let block = u32::from(channels) * u32::from(bits) / 8;
    out.extend_from_slice(&(rate.wrapping_mul(block)).to_le_bytes());
    out.extend_from_slice(&(block as u16).to_le_bytes());
    out.extend_from_slice(&bits.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.unwrap_or(data.len() as u32).to_le_bytes());
    out.extend_from_slice(data);
    out
}

/// Bits written least significant first, as Vorbis packets are.
#[derive(Default)]
pub struct Bits {
    pub bytes: Vec<u8>,
    at: u64,
}

impl Bits {
    pub fn put(&mut self, value: u64, n: u32) -> &mut Self {
        for i in 0..n {
            if self.at.is_multiple_of(8) {
                self.bytes.push(0);
            }
            let bit = ((value >> i) & 1) as u8;
            *self.bytes.last_mut().unwrap() |= bit << (self.at % 8);
            self.at += 1;
        }
        self
    }
}

/// One Vorbis codebook as a setup header writes it.
#[derive(Clone, Copy, Debug)]
pub struct Codebook {
    pub dims: u16,
    pub entries: u32,
    /// Lengths written as one ordered run per length (few bits for many entries).
    pub ordered: bool,
    /// 0: none; 1 or 2: a lookup table of `values` values of `value_bits` bits, only the
    /// first `written` of which are in the packet.
    pub lookup: u8,
    pub value_bits: u32,
    pub written: u64,
}

impl Codebook {
    /// Two entries of one bit each: the smallest valid codebook.
    pub const SMALL: Codebook = Codebook {
        dims: 1,
        entries: 2,
        ordered: false,
        lookup: 0,
        value_bits: 1,
        written: 0,
    };
}

/// What a Vorbis stream built by [`ogg_vorbis`] declares.
#[derive(Clone, Debug)]
pub struct Vorbis {
    pub channels: u8,
    pub rate: u32,
    /// The comment header's vendor length and comment count as declared (nothing follows).
    pub vendor_len: u32,
    pub comments: u32,
    pub codebooks: Vec<Codebook>,
    /// Audio packets of silence (128 frames each after the first).
    pub packets: usize,
    /// The granule position the last page declares (`None`: the frames the packets hold).
    pub granule: Option<u64>,
    /// The Ogg stream serial.
    pub serial: u32,
}

impl Default for Vorbis {
    fn default() -> Vorbis {
        Vorbis {
            channels: 1,
            rate: 22_050,
            vendor_len: 0,
            comments: 0,
            codebooks: vec![Codebook::SMALL],
            packets: 40,
            granule: None,
            serial: 7,
        }
    }
}

/// The identification header.
pub fn vorbis_ident(v: &Vorbis) -> Vec<u8> {
    let mut p = b"\x01vorbis".to_vec();
    p.extend_from_slice(&0u32.to_le_bytes());
    p.push(v.channels);
    p.extend_from_slice(&v.rate.to_le_bytes());
    p.extend_from_slice(&[0; 12]);
    // Blocks of 256 and 2048 samples.
    p.push(0xb8);
    p.push(1);
    p
}

/// The setup header: `codebooks`, then one floor, residue, mapping and mode of silence.
pub fn vorbis_setup(v: &Vorbis) -> Vec<u8> {
    let mut b = Bits::default();
    b.put(v.codebooks.len() as u64 - 1, 8);
    for c in &v.codebooks {
        b.put(0x56_4342, 24)
            .put(u64::from(c.dims), 16)
            .put(u64::from(c.entries), 24);
        if c.ordered {
            // Every entry of one length in one run: its count in ilog(entries) bits. A power
            // of two makes a complete tree (every entry as long as its log).
            let length = if c.entries.is_power_of_two() {
                c.entries.trailing_zeros().max(1)
            } else {
                1
            };
            b.put(1, 1).put(u64::from(length - 1), 5);
            let bits = 32 - c.entries.leading_zeros();
            b.put(u64::from(c.entries), bits);
        } else {
            b.put(0, 1).put(0, 1);
            for _ in 0..c.entries {
                b.put(0, 5);
            }
        }
        b.put(u64::from(c.lookup), 4);
        if c.lookup != 0 {
            b.put(0, 32)
                .put(0, 32)
                .put(u64::from(c.value_bits - 1), 4)
                .put(0, 1);
            for _ in 0..c.written {
                b.put(0, c.value_bits);
            }
        }
    }
    // One time-domain value (0), one floor 1 of no partitions, multiplier 1, 4 range bits.
    b.put(0, 6).put(0, 16);
    b.put(0, 6).put(1, 16).put(0, 5).put(0, 2).put(4, 4);
    // One residue 0 over nothing, classbook 0, one classification.
    b.put(0, 6)
        .put(0, 16)
        .put(0, 24)
        .put(0, 24)
        .put(0, 24)
        .put(0, 6)
        .put(0, 8);
    b.put(0, 3).put(0, 1);
    // One mapping: one submap, no coupling; floor 0, residue 0.
    b.put(0, 6).put(0, 16).put(0, 1).put(0, 1).put(0, 2);
    b.put(0, 8).put(0, 8).put(0, 8);
    // One mode: short blocks, mapping 0; then the framing bit.
    b.put(0, 6).put(0, 1).put(0, 16).put(0, 16).put(0, 8);
    b.put(1, 1);
    let mut p = b"\x05vorbis".to_vec();
    p.extend_from_slice(&b.bytes);
    p
}

/// A whole OGG Vorbis file of `v.packets` packets of silence: its headers on pages of their
/// own, then the packets, 50 to a page.
pub fn ogg_vorbis(v: &Vorbis) -> Vec<u8> {
    let mut comment = b"\x03vorbis".to_vec();
    comment.extend_from_slice(&v.vendor_len.to_le_bytes());
    comment.extend_from_slice(&v.comments.to_le_bytes());
    comment.push(1);
    let mut out = ogg_page(&[&vorbis_ident(v)], 2, 0, v.serial, 0);
    out.extend(ogg_page(&[&comment, &vorbis_setup(v)], 0, 0, v.serial, 1));
    // A short block's audio packet of unused floors: one zero bit.
    let audio = [0u8];
    let chunks: Vec<usize> = (0..v.packets).collect();
    let pages = chunks.chunks(50).count().max(1);
    for (i, chunk) in chunks.chunks(50).enumerate() {
        let packets: Vec<&[u8]> = chunk.iter().map(|_| &audio[..]).collect();
        let last = i + 1 == pages;
        let frames = (chunk.last().copied().unwrap_or(0) as u64) * 128;
        let granule = if last {
            v.granule.unwrap_or(frames)
        } else {
            frames
        };
        out.extend(ogg_page(
            &packets,
            if last { 4 } else { 0 },
            granule,
            v.serial,
            2 + i as u32,
        ));
    }
    out
}

/// One Ogg page of whole `packets`.
pub fn ogg_page(packets: &[&[u8]], flags: u8, granule: u64, serial: u32, seq: u32) -> Vec<u8> {
    let mut lacing = Vec::new();
    let mut body = Vec::new();
    for p in packets {
        let mut n = p.len();
        while n >= 255 {
            lacing.push(255);
            n -= 255;
        }
        lacing.push(n as u8);
        body.extend_from_slice(p);
    }
    assert!(lacing.len() < 256, "a page holds at most 255 lacing values");
    let mut out = b"OggS\0".to_vec();
    out.push(flags);
    out.extend_from_slice(&granule.to_le_bytes());
    out.extend_from_slice(&serial.to_le_bytes());
    out.extend_from_slice(&seq.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.push(lacing.len() as u8);
    out.extend_from_slice(&lacing);
    out.extend_from_slice(&body);
    let crc = ogg_crc(&out);
    out[22..26].copy_from_slice(&crc.to_le_bytes());
    out
}

/// The Ogg checksum (unreflected CRC-32, polynomial 0x04c11db7).
fn ogg_crc(data: &[u8]) -> u32 {
    let mut c = 0u32;
    for &b in data {
        c ^= u32::from(b) << 24;
        for _ in 0..8 {
            c = if c & 0x8000_0000 != 0 {
                (c << 1) ^ 0x04c1_1db7
            } else {
                c << 1
            };
        }
    }
    c
}

/// An OGG Vorbis file whose second codebook declares 2^24 - 1 entries in a few bits.
pub fn codebook_bomb() -> Vec<u8> {
    ogg_vorbis(&Vorbis {
        codebooks: vec![
            Codebook::SMALL,
            Codebook {
                entries: (1 << 24) - 1,
                ordered: true,
                ..Codebook::SMALL
            },
        ],
        ..Vorbis::default()
    })
}

/// An OGG Vorbis file whose comment header declares 2^32 - 1 comments and a vendor string of
/// 4 GiB (and holds none), `setup`: with its setup header (a playable file) or without.
pub fn comment_bomb(setup: bool) -> Vec<u8> {
    let v = Vorbis {
        comments: u32::MAX,
        vendor_len: u32::MAX,
        ..Vorbis::default()
    };
    if setup {
        return ogg_vorbis(&v);
    }
    let mut comment = b"\x03vorbis".to_vec();
    comment.extend_from_slice(&v.vendor_len.to_le_bytes());
    comment.extend_from_slice(&v.comments.to_le_bytes());
    comment.push(1);
    let mut f = ogg_page(&[&vorbis_ident(&v)], 2, 0, 1, 0);
    f.extend(ogg_page(&[&comment], 0, 0, 1, 1));
    f
}
