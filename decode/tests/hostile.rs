//! Hostile images, sounds and fonts as the decoders read them (the loader's checks and the
//! app's decoding alike): small files declaring huge sizes (image sides, sound lengths and
//! channels, OGG comment counts and codebooks, font tables and outlines) each end within a
//! bounded time as a clear error naming what they declare, or load as the little they hold;
//! never a panic, an abort or an allocation of what they declare.

#[path = "support/files.rs"]
mod files;
#[path = "support/fonts.rs"]
mod fonts;

use files::*;
use fonts::*;
use ludus_decode::*;
use std::time::{Duration, Instant};

/// Runs `f`, which must end within a generous hang bound.
fn bounded<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{what} took {:?}",
        start.elapsed()
    );
    out
}

#[test]
fn pngs_declaring_huge_images_are_refused_before_decoding() {
    type Case = (Vec<u8>, Result<(u32, u32), PngError>);
    let cases: [Case; 5] = [
        (png(3, 2, 9), Ok((3, 2))),
        (
            png_declaring(30_000, 30_000),
            Err(PngError::TooLarge {
                width: 30_000,
                height: 30_000,
            }),
        ),
        (
            png_declaring(u32::MAX, u32::MAX),
            Err(PngError::TooLarge {
                width: u32::MAX,
                height: u32::MAX,
            }),
        ),
        (png_declaring(0, 7), Err(PngError::NoHeader)),
        // Within the limit, over one pixel of data: the decoder finds it missing.
        (
            png_declaring(MAX_IMAGE_SIDE, MAX_IMAGE_SIDE),
            Ok((4094, 4094)),
        ),
    ];
    for (i, (bytes, expect)) in cases.into_iter().enumerate() {
        assert_eq!(png_size(&bytes), expect, "case {i}");
        let decoded = bounded("decode_png", || decode_png(&bytes));
        match (&expect, decoded) {
            (Ok((3, 2)), Ok((w, h, px))) => assert_eq!((w, h, px.len()), (3, 2, 24)),
            (Err(e), Err(got)) => assert_eq!(got, e.to_string(), "case {i}"),
            (Ok(_), Err(got)) => assert!(!got.is_empty(), "case {i}"),
            (_, Ok(_)) => panic!("case {i} decoded"),
        }
    }
    assert_eq!(
        PngError::TooLarge {
            width: 30_000,
            height: 30_000
        }
        .to_string(),
        "it is 30000x30000 pixels, larger than 4094x4094"
    );
}

#[test]
fn wav_files_declaring_what_they_do_not_hold() {
    let four = [1u8, 0, 2, 0, 3, 0, 4, 0];
    // (rate, channels, frames), or the error.
    type Case = (Vec<u8>, Result<(u32, u16, u64), &'static str>);
    let cases: [Case; 7] = [
        (wav(1, 1, 44_100, 16, &four, None), Ok((44_100, 1, 4))),
        // A data chunk declaring 4 GiB in a file of 52 bytes: the frames that are there.
        (
            wav(1, 1, 44_100, 16, &four, Some(u32::MAX)),
            Ok((44_100, 1, 4)),
        ),
        (
            wav(1, 2, 44_100, 16, &four, Some(u32::MAX)),
            Ok((44_100, 2, 2)),
        ),
        (
            wav(1, 65_535, 44_100, 16, &four, None),
            Err("65535 channels; sounds are mono or stereo"),
        ),
        (
            wav(1, 0, 44_100, 16, &four, None),
            Err("0 channels; sounds are mono or stereo"),
        ),
        (
            wav(1, 1, u32::MAX, 16, &four, None),
            Err("a sample rate of 4294967295 Hz; from 8000 to 192000 Hz is supported"),
        ),
        (
            wav(1, 1, 44_100, 0, &four, None),
            Err("0-bit samples; 8, 16, 24 or 32-bit PCM or 32-bit float is supported"),
        ),
    ];
    for (i, (bytes, expect)) in cases.into_iter().enumerate() {
        let got = sound_info(&bytes).map(|s| (s.rate, s.channels, s.frames));
        assert_eq!(got, expect.map_err(str::to_string), "case {i}");
        if let Ok((_, channels, frames)) = expect {
            let pcm = bounded("decode", || decode_sound(&bytes)).unwrap();
            assert_eq!(
                pcm.samples.len() as u64,
                frames * u64::from(channels),
                "case {i}"
            );
        }
    }
}

/// Long because it is one table of cases, each an OGG file and what reading it gives.
#[test]
fn ogg_files_declaring_huge_headers_are_refused_or_read_as_what_they_hold() {
    let v = Vorbis::default();
    let with = |f: &dyn Fn(&mut Vorbis)| {
        let mut v = v.clone();
        f(&mut v);
        ogg_vorbis(&v)
    };
    let book = |c: Codebook| vec![Codebook::SMALL, c];
    // (channels, declared frames, decoded frames), or the error.
    let held = 39 * 128;
    type Case = (&'static str, Vec<u8>, Result<(u16, u64, u64), &'static str>);
    let cases: Vec<Case> = vec![
        ("valid", ogg_vorbis(&v), Ok((1, held, held))),
        // Comments are never read: 2^32 of them, with a 4 GiB vendor string, cost nothing.
        ("2^32 comments", comment_bomb(true), Ok((1, held, held))),
        ("stereo", with(&|v| v.channels = 2), Ok((2, held, held))),
        // A last granule position of 2^60 frames: ten minutes at most, and only the audio
        // that is there is decoded.
        (
            "a huge length",
            with(&|v| v.granule = Some(1 << 60)),
            Ok((1, 600 * 22_050, held)),
        ),
        (
            "2^24 codebook entries in a few bits",
            codebook_bomb(),
            Err("its codebooks declare more than 262144 entries in all"),
        ),
        (
            "a lookup table of 65535 dimensions",
            with(&|v| {
                v.codebooks = book(Codebook {
                    dims: 65_535,
                    entries: 1000,
                    ordered: true,
                    lookup: 2,
                    value_bits: 8,
                    written: 4,
                })
            }),
            Err("its codebooks declare more than 1048576 vector values in all"),
        ),
        (
            "a lookup table the packet does not hold",
            with(&|v| {
                v.codebooks = book(Codebook {
                    dims: 4,
                    entries: 1000,
                    ordered: true,
                    lookup: 2,
                    value_bits: 16,
                    written: 10,
                })
            }),
            Err("a lookup table of 4000 values in a packet of"),
        ),
        (
            "a lookup table of vectors of no dimension",
            with(&|v| {
                v.codebooks = book(Codebook {
                    dims: 0,
                    entries: 1000,
                    ordered: true,
                    lookup: 1,
                    value_bits: 8,
                    written: 4,
                })
            }),
            Err("a lookup table of vectors of no dimension"),
        ),
        (
            "200 channels",
            with(&|v| v.channels = 200),
            Err("200 channels; sounds are mono or stereo"),
        ),
        (
            "a sample rate of 0",
            with(&|v| v.rate = 0),
            Err("not a readable OGG Vorbis file"),
        ),
        // The file of the first report: an identification and a comment header declaring
        // 2^32 comments, and nothing more.
        (
            "headers without a setup",
            comment_bomb(false),
            Err("its setup header is missing"),
        ),
        (
            "a truncated page",
            {
                let f = ogg_vorbis(&v);
                f[..f.len() - 10].to_vec()
            },
            Err("the file ends inside its body"),
        ),
        (
            "two streams at once",
            {
                let a = ogg_vorbis(&v);
                let b = ogg_vorbis(&Vorbis {
                    serial: 8,
                    ..v.clone()
                });
                // The second stream begins before the first ends.
                let first = 58;
                [&a[..first], &b[..], &a[first..]].concat()
            },
            Err("it holds several streams at once"),
        ),
        (
            "a chain of streams",
            [
                ogg_vorbis(&v),
                ogg_vorbis(&Vorbis {
                    serial: 8,
                    ..v.clone()
                }),
            ]
            .concat(),
            Ok((1, 2 * held, 2 * held)),
        ),
        (
            "a chain that changes channels",
            [
                ogg_vorbis(&v),
                ogg_vorbis(&Vorbis {
                    serial: 8,
                    channels: 2,
                    ..v.clone()
                }),
            ]
            .concat(),
            Err("its chained streams differ (22050 Hz, 1 channels, then 22050 Hz, 2 channels)"),
        ),
    ];
    for (name, bytes, expect) in cases {
        let got = bounded(name, || sound_info(&bytes));
        match (expect, got) {
            (Ok((channels, frames, decoded)), Ok(info)) => {
                assert_eq!((info.channels, info.frames), (channels, frames), "{name}");
                let pcm = bounded(name, || decode_sound(&bytes)).unwrap();
                assert_eq!(
                    pcm.samples.len() as u64,
                    decoded * u64::from(channels),
                    "{name}"
                );
                assert!(pcm.samples.iter().all(|&s| s == 0), "{name}: silence");
            }
            (Err(why), Err(e)) => {
                assert!(e.contains(why), "{name}: {e}");
                assert!(decode_sound(&bytes).is_err(), "{name}");
            }
            (expect, got) => panic!("{name}: expected {expect:?}, got {got:?}"),
        }
    }
}

#[test]
fn a_chain_of_many_small_streams_cannot_multiply_the_work() {
    // 1100 streams of a 256-entry codebook: 281,600 entries in all, past the file's limit.
    let one = |serial| {
        ogg_vorbis(&Vorbis {
            serial,
            packets: 1,
            codebooks: vec![
                Codebook::SMALL,
                Codebook {
                    entries: 256,
                    ordered: true,
                    ..Codebook::SMALL
                },
            ],
            ..Vorbis::default()
        })
    };
    // Each stream alone reads.
    assert!(sound_info(&one(1)).is_ok());
    let chain: Vec<u8> = (0..1100).flat_map(one).collect();
    let e = bounded("chain", || sound_info(&chain)).unwrap_err();
    assert_eq!(e, "its codebooks declare more than 262144 entries in all");
}

/// A font of glyph 0, then `glyphs`, whose map sends `A` to glyph 1.
fn font_of(glyphs: Vec<Glyph>, upem: u16) -> Vec<u8> {
    let all: Vec<Glyph> = std::iter::once(square(10)).chain(glyphs).collect();
    truetype(&all, upem, cmap4(&[('A', 1)]))
}

#[test]
fn fonts_with_bogus_tables_load_as_far_as_ludus_draws_or_are_refused() {
    let cases: Vec<(&str, Vec<u8>, Result<(), &str>)> = vec![
        ("a square", font_of(vec![square(500)], 1000), Ok(())),
        ("a CFF triangle", cff_triangle(), Ok(())),
        (
            "a character map range of every code",
            truetype(
                &[square(10), square(500)],
                1000,
                cmap12(&[(0x41, 0x41, 1), (0x100, u32::MAX, 1)]),
            ),
            Ok(()),
        ),
        ("a kerning table of 2^32 pairs", kern_bomb(), Ok(())),
        (
            "64 subtables of 100,000 many-to-one groups",
            {
                // Every group covers every code but `A`'s; the last one maps `A`.
                let mut groups = [(0, 0x40, 1), (0x42, u32::MAX, 1)].repeat(50_000);
                groups.push((0x41, 0x41, 1));
                truetype(&[square(10), square(500)], 1000, cmap13_shared(64, &groups))
            },
            Ok(()),
        ),
        (
            "65 character map subtables",
            truetype(
                &[square(10), square(500)],
                1000,
                cmap13_shared(65, &[(0x41, 0x41, 1)]),
            ),
            Err("its character map has 65 subtables; at most 64 are read"),
        ),
        (
            "a composite tower",
            composite_tower(),
            // Glyph 10 visits 6 (itself, its contour, 4 points), glyph 9 11 + 10 x 6, ...
            Err("glyph 6 takes 72221 points to outline; at most 65536 are allowed"),
        ),
        (
            "a glyph built from itself",
            font_of(vec![Glyph::Composite(vec![1, 1])], 1000),
            Err("glyph 1 is built from itself"),
        ),
        (
            "points 2000 ems away",
            font_of(
                vec![Glyph::Simple(vec![(0, 0), (32_000, 0), (0, 32_000)])],
                16,
            ),
            Err("glyph 1 reaches more than 16 ems from its origin"),
        ),
        (
            "subroutines 20^9 calls deep",
            cff_bomb(),
            Err("glyph 1 takes more than 65536 charstring steps to outline"),
        ),
        (
            "not a font",
            b"\x00\x01\x00\x00 and nothing".to_vec(),
            Err("malformed font"),
        ),
        (
            "no signature",
            b"GIF89a".to_vec(),
            Err("it does not start with a TrueType or OpenType signature"),
        ),
    ];
    for (name, bytes, expect) in cases {
        let got = bounded(name, || load_font(&bytes));
        match (expect, got) {
            (Ok(()), Ok(font)) => {
                let (m, bitmap) = font.rasterize('A', 32.0);
                assert!(
                    m.width > 0 && bitmap.iter().any(|&c| c > 0),
                    "{name}: draws"
                );
            }
            (Err(why), Err(e)) => assert!(e.contains(why), "{name}: {e}"),
            (expect, got) => panic!("{name}: expected {expect:?}, got {:?}", got.err()),
        }
    }
}
