//! Ogg pages into packets, strictly: the file must be whole pages from its first byte to its
//! last, each with a correct checksum, holding one logical stream at a time (a chain of
//! streams one after another is allowed, several streams at once are not). A packet is at most
//! the file's own size, so nothing here allocates past it.

/// One packet, with what its page says about it.
pub(crate) struct Packet {
    pub data: Vec<u8>,
    /// The first packet of a logical stream (a Vorbis stream's identification header).
    pub first: bool,
    /// The last packet that ends on its page.
    pub last_in_page: bool,
    /// The last packet of its stream (its page ends the stream).
    pub last: bool,
    /// The granule position of the page it ends on (`None`: the page declares none).
    pub granule: Option<u64>,
}

/// A page's header fields Ludus reads.
struct Page {
    /// Bit 0: continues a packet; bit 1: first page of a stream; bit 2: last page.
    flags: u8,
    granule: u64,
    /// Byte ranges in the file: the lacing values, then the body.
    lacing: std::ops::Range<usize>,
    body: usize,
    end: usize,
}

/// Reads packets from a file's bytes in order (the bytes are passed to each call, so a reader
/// can live beside an `Arc` of them).
#[derive(Default)]
pub(crate) struct Demux {
    /// The next page's first byte.
    at: usize,
    /// The page being read, and the next lacing value and body byte in it.
    page: Option<(Page, usize, usize)>,
    /// A packet that continues on the next page.
    pending: Option<Vec<u8>>,
    /// The serial of the stream being read, and whether its last page was read.
    serial: Option<u32>,
    ended: bool,
}

impl Demux {
    /// The next packet, `None` after the last page.
    pub fn next(&mut self, bytes: &[u8]) -> Result<Option<Packet>, String> {
        loop {
            let Some((page, lace, body)) = &mut self.page else {
                if self.at >= bytes.len() {
                    if self.pending.is_some() {
                        return Err("it ends inside a packet".into());
                    }
                    return Ok(None);
                }
                let page = self.open_page(bytes)?;
                let (lace, body) = (page.lacing.start, page.body);
                self.page = Some((page, lace, body));
                continue;
            };
            // Each lacing value adds that many bytes; a value under 255 ends the packet.
            let mut data = self.pending.take().unwrap_or_default();
            let first = data.is_empty() && *body == page.body && page.flags & 2 != 0;
            let mut ended = false;
            while *lace < page.lacing.end {
                let n = usize::from(bytes[*lace]);
                *lace += 1;
                data.extend_from_slice(&bytes[*body..*body + n]);
                *body += n;
                if n < 255 {
                    ended = true;
                    break;
                }
            }
            if !ended {
                // The packet goes on in the next page.
                self.pending = Some(data);
                self.at = page.end;
                self.page = None;
                continue;
            }
            let last_in_page = bytes[*lace..page.lacing.end].iter().all(|&n| n == 255);
            let granule = (page.granule != u64::MAX).then_some(page.granule);
            let last = last_in_page && page.flags & 4 != 0;
            if *lace == page.lacing.end {
                self.at = page.end;
                self.page = None;
            }
            return Ok(Some(Packet {
                data,
                first,
                last_in_page,
                last,
                granule,
            }));
        }
    }

    /// Reads the page at `self.at` and checks it against the stream so far.
    fn open_page(&mut self, bytes: &[u8]) -> Result<Page, String> {
        let at = self.at;
        let damaged = |what: &str| format!("a damaged Ogg page at byte {at}: {what}");
        let head = bytes
            .get(at..at + 27)
            .ok_or_else(|| damaged("the file ends inside its header"))?;
        if &head[..4] != b"OggS" {
            return Err(damaged("no `OggS` where a page should start"));
        }
        if head[4] != 0 {
            return Err(damaged("an unknown Ogg version"));
        }
        let le32 = |i: usize| u32::from_le_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
        let flags = head[5];
        let granule = u64::from(le32(6)) | (u64::from(le32(10)) << 32);
        let serial = le32(14);
        let crc = le32(22);
        let lacing = at + 27..at + 27 + usize::from(head[26]);
        let laces = bytes
            .get(lacing.clone())
            .ok_or_else(|| damaged("the file ends inside its lacing values"))?;
        let body = lacing.end;
        let end = body + laces.iter().map(|&n| usize::from(n)).sum::<usize>();
        if end > bytes.len() {
            return Err(damaged("the file ends inside its body"));
        }
        if checksum(&bytes[at..end]) != crc {
            return Err(damaged("its checksum does not match"));
        }
        let continued = flags & 1 != 0;
        if continued != self.pending.is_some() {
            return Err(damaged(if continued {
                "it continues a packet that did not begin"
            } else {
                "a packet breaks off before it"
            }));
        }
        let starts = flags & 2 != 0;
        match self.serial {
            _ if starts && continued => return Err(damaged("a stream's first page continues")),
            None if !starts => return Err(damaged("the first page does not begin a stream")),
            Some(_) if starts && !self.ended => {
                return Err(
                    "it holds several streams at once (a video, or several tracks); \
                     save the sound alone as an OGG Vorbis file"
                        .into(),
                );
            }
            Some(s) if !starts && (s != serial || self.ended) => {
                return Err(damaged("a page of another stream"));
            }
            _ => {}
        }
        if starts {
            self.serial = Some(serial);
            self.ended = false;
        }
        if flags & 4 != 0 {
            self.ended = true;
        }
        Ok(Page {
            flags,
            granule,
            lacing,
            body,
            end,
        })
    }
}

/// The Ogg checksum (CRC-32, polynomial 0x04c11db7, unreflected) of a page whose own checksum
/// field (bytes 22..26) counts as zeros.
fn checksum(page: &[u8]) -> u32 {
    static TABLE: std::sync::OnceLock<[u32; 256]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [0u32; 256];
        for (i, e) in t.iter_mut().enumerate() {
            let mut r = (i as u32) << 24;
            for _ in 0..8 {
                r = if r & 0x8000_0000 != 0 {
                    (r << 1) ^ 0x04c1_1db7
                } else {
                    r << 1
                };
            }
            *e = r;
        }
        t
    });
    let mut crc = 0u32;
    for (i, &b) in page.iter().enumerate() {
        let b = if (22..26).contains(&i) { 0 } else { b };
        crc = (crc << 8) ^ table[((crc >> 24) as u8 ^ b) as usize];
    }
    crc
}

/// Test files: Ogg pages around packets.
#[cfg(test)]
pub(crate) mod build {
    /// One page of `packets` (each whole) with `flags`, `granule` and `serial`.
    pub fn page(packets: &[&[u8]], flags: u8, granule: u64, serial: u32, seq: u32) -> Vec<u8> {
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
        let mut out = b"OggS\0".to_vec();
        out.push(flags);
        out.extend_from_slice(&granule.to_le_bytes());
        out.extend_from_slice(&serial.to_le_bytes());
        out.extend_from_slice(&seq.to_le_bytes());
        out.extend_from_slice(&[0; 4]);
        out.push(lacing.len() as u8);
        out.extend_from_slice(&lacing);
        out.extend_from_slice(&body);
        let crc = super::checksum(&out);
        out[22..26].copy_from_slice(&crc.to_le_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::build::page;
    use super::*;

    fn packets(bytes: &[u8]) -> Result<Vec<Packet>, String> {
        let mut d = Demux::default();
        let mut out = Vec::new();
        while let Some(p) = d.next(bytes)? {
            out.push(p);
        }
        Ok(out)
    }

    #[test]
    fn packets_come_out_whole_across_pages() {
        let long = vec![7u8; 600];
        let mut file = page(&[b"id", b"c"], 2, 0, 9, 0);
        // The long packet's first 510 bytes, then its rest with one more packet.
        let mut p = page(&[&long[..510]], 0, u64::MAX, 9, 1);
        // Two lacing values of 255 and no end: the packet continues.
        p[26] = 2;
        p.truncate(27);
        p.extend_from_slice(&[255, 255]);
        p.extend_from_slice(&long[..510]);
        let crc = checksum(&p);
        p[22..26].copy_from_slice(&crc.to_le_bytes());
        file.extend_from_slice(&p);
        // The continued packet's tail (90 bytes) is the first lacing value.
        file.extend_from_slice(&page(&[&long[510..], b"end"], 1 | 4, 1234, 9, 2));
        let got = packets(&file).unwrap();
        let table: Vec<_> = got
            .iter()
            .map(|p| (p.data.len(), p.first, p.last_in_page, p.last, p.granule))
            .collect();
        assert_eq!(
            table,
            [
                (2, true, false, false, Some(0)),
                (1, false, true, false, Some(0)),
                (600, false, false, false, Some(1234)),
                (3, false, true, true, Some(1234)),
            ]
        );
        assert_eq!(got[2].data, long);
    }

    #[test]
    fn damaged_or_mixed_pages_are_refused() {
        let a = page(&[b"x"], 2, 0, 1, 0);
        let end = page(&[b"y"], 4, 10, 1, 1);
        let other = page(&[b"z"], 2, 0, 2, 0);
        let mut bad_crc = end.clone();
        bad_crc[28] ^= 1;
        let cases: [(Vec<u8>, &str); 6] = [
            ([a.clone(), end.clone()].concat(), ""),
            (
                [a.clone(), end.clone(), other.clone()].concat(),
                "", // a chain: one stream after another
            ),
            (
                [a.clone(), other.clone()].concat(),
                "it holds several streams at once",
            ),
            ([a.clone(), bad_crc].concat(), "its checksum does not match"),
            (
                [a.clone(), b"junk".to_vec()].concat(),
                "a damaged Ogg page at byte 29: the file ends inside its header",
            ),
            (
                page(&[b"x"], 0, 0, 1, 0),
                "the first page does not begin a stream",
            ),
        ];
        for (bytes, expect) in cases {
            match packets(&bytes) {
                Ok(_) => assert_eq!(expect, "", "accepted"),
                Err(e) => assert!(!expect.is_empty() && e.contains(expect), "{e}"),
            }
        }
    }
}
