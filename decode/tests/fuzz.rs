//! Whatever bytes arrive as an image, a sound or a font, Ludus's readers (the loader's checks
//! and the app's decoders) end in a success or an error: never a panic, not even one caught
//! inside a third-party decoder (the browser cannot catch it), and never an allocation past
//! the limits (a counting allocator measures each case's peak). Inputs: random edits of valid
//! small files (byte flips, truncations, inserted and deleted bytes, huge numbers written over
//! sizes), OGG packets edited and put back in pages with valid checksums (so the Vorbis
//! decoder sees them, not only the page reader), and random bytes. Case counts keep each run to
//! a few seconds in debug builds.

#[path = "support/files.rs"]
mod files;
#[path = "support/fonts.rs"]
mod fonts;

use files::*;
use fonts::*;
use ludus_decode::*;
use proptest::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::OnceLock;

/// The most one case may allocate at once: a 4094 x 4094 image's pixels (64 MiB) decoded from
/// three bytes a pixel (48 MiB more), with the PNG decoder's own 16 MiB, and some room.
const MAX_CASE_BYTES: isize = 160 << 20;

thread_local! {
    /// Bytes this thread holds, and the most it held since the case began.
    static NOW: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
    /// Panics on this thread since the case began (caught or not).
    static PANICS: Cell<u32> = const { Cell::new(0) };
}

/// The system allocator, counting each thread's bytes.
struct Counting;

fn count(delta: isize) {
    let _ = NOW.try_with(|n| {
        let v = n.get() + delta;
        n.set(v);
        let _ = PEAK.try_with(|p| p.set(p.get().max(v)));
    });
}

// SAFETY: every call is passed to the system allocator unchanged; the counters are plain
// thread-local cells that never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        count(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new) };
        if !p.is_null() {
            count(new as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs one case: `f`'s answer must be an error or pass `ok`; no panic may happen on the way
/// and the case may not hold more than [`MAX_CASE_BYTES`] at once.
fn case<T>(
    f: impl FnOnce() -> Result<T, String>,
    ok: impl FnOnce(&T) -> Result<(), String>,
) -> Result<(), String> {
    static HOOK: OnceLock<()> = OnceLock::new();
    HOOK.get_or_init(|| {
        let quiet = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.with(|p| p.set(p.get() + 1));
            quiet(info);
        }));
    });
    PANICS.with(|p| p.set(0));
    let base = NOW.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = f();
    let peak = PEAK.with(Cell::get) - base;
    if PANICS.with(Cell::get) > 0 {
        return Err("a panic (caught or not) while reading".into());
    }
    if peak > MAX_CASE_BYTES {
        return Err(format!("{peak} bytes held at once"));
    }
    match out {
        Ok(v) => ok(&v),
        Err(e) if e.is_empty() => Err("an empty error".into()),
        Err(_) => Ok(()),
    }
}

/// One edit of a file.
#[derive(Clone, Debug)]
enum Edit {
    Flip(usize, u8),
    Truncate(usize),
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    /// A big number written over 4 bytes (sizes, counts, offsets).
    Huge(usize, u32),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Flip(i, b)),
        1 => any::<usize>().prop_map(Edit::Truncate),
        1 => (any::<usize>(), prop::collection::vec(any::<u8>(), 1..8)).prop_map(|(i, b)| Edit::Insert(i, b)),
        1 => (any::<usize>(), 1usize..16).prop_map(|(i, n)| Edit::Delete(i, n)),
        2 => (any::<usize>(), prop::sample::select(vec![0xFFFF_FFFFu32, 0x7FFF_FFFF, 0xFFFF, 0x1_0000, 0x00FF_FFFF, 4094, 4095]))
            .prop_map(|(i, v)| Edit::Huge(i, v)),
    ]
}

/// A Vorbis codebook of sizes near the limits and past them, its lookup table partly written.
fn codebook() -> impl Strategy<Value = Codebook> {
    let dims = prop::sample::select(vec![0u16, 1, 2, 4, 8, 31, 32, 255, 65_535]);
    let entries = prop::sample::select(vec![
        0u32,
        1,
        2,
        3,
        256,
        4096,
        1 << 16,
        1 << 18,
        (1 << 24) - 1,
    ]);
    (dims, entries, any::<bool>(), 0u8..4, 1u32..=16, 0u64..64).prop_map(
        |(dims, entries, ordered, lookup, value_bits, written)| Codebook {
            dims,
            entries: if ordered { entries } else { entries.min(4096) },
            ordered,
            lookup,
            value_bits,
            written,
        },
    )
}

fn apply(bytes: &mut Vec<u8>, edits: &[Edit]) {
    for e in edits {
        let len = bytes.len();
        let at = |i: usize| if len == 0 { 0 } else { i % len };
        match e {
            Edit::Flip(i, b) => {
                if len > 0 {
                    bytes[at(*i)] ^= b | 1;
                }
            }
            Edit::Truncate(i) => bytes.truncate(i % (len + 1)),
            Edit::Insert(i, b) => {
                let p = i % (len + 1);
                bytes.splice(p..p, b.iter().copied());
            }
            Edit::Delete(i, n) => {
                let p = at(*i);
                bytes.drain(p..(p + n).min(len));
            }
            Edit::Huge(i, v) => {
                if len >= 4 {
                    let p = at(*i).min(len - 4);
                    bytes[p..p + 4].copy_from_slice(&v.to_be_bytes());
                }
            }
        }
    }
}

fn check_png(bytes: &[u8]) -> Result<(), String> {
    case(
        || png_size(bytes).map_err(|e| e.to_string()),
        |&(w, h)| {
            let side = 1..=MAX_IMAGE_SIDE;
            if side.contains(&w) && side.contains(&h) {
                Ok(())
            } else {
                Err(format!("{w}x{h} accepted"))
            }
        },
    )?;
    case(
        || decode_png(bytes),
        |(w, h, px)| {
            if png_size(bytes) != Ok((u32::from(*w), u32::from(*h))) {
                return Err(format!("decoded {w}x{h}, not what the header says"));
            }
            if px.len() != usize::from(*w) * usize::from(*h) * 4 {
                return Err(format!("{} bytes of pixels for {w}x{h}", px.len()));
            }
            Ok(())
        },
    )
}

fn check_sound(bytes: &[u8]) -> Result<(), String> {
    let info = sound_info(bytes).ok();
    case(
        || sound_info(bytes),
        |i| {
            let most = MAX_SECONDS as u64 * u64::from(i.rate);
            if !(1..=2).contains(&i.channels) || i.frames > most {
                return Err(format!("accepted {i:?}"));
            }
            Ok(())
        },
    )?;
    case(
        || decode_sound(bytes),
        |pcm| {
            let Some(i) = info else {
                return Err("decoded a file whose headers do not read".into());
            };
            if pcm.samples.len() as u64 > i.frames * u64::from(i.channels) {
                return Err(format!("{} samples, {i:?} declared", pcm.samples.len()));
            }
            Ok(())
        },
    )
}

fn check_font(bytes: &[u8]) -> Result<(), String> {
    case(
        || load_font(bytes),
        |font| {
            // The characters Ludus draws rasterise within bounds at the largest raster size.
            for c in ['A', 'g', '\u{e9}'] {
                let m = font.metrics(c, 128.0);
                if m.width > 1 << 14 || m.height > 1 << 14 {
                    return Err(format!("{c:?} is {}x{} pixels", m.width, m.height));
                }
            }
            Ok(())
        },
    )
}

fn pngs() -> &'static [Vec<u8>] {
    static P: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    P.get_or_init(|| {
        vec![
            png(3, 2, 9),
            png(16, 1, 200),
            png_declaring(4094, 4094),
            std::fs::read(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../content/tests/good/images/ship.png"
            ))
            .unwrap(),
        ]
    })
}

fn wavs() -> Vec<Vec<u8>> {
    let data: Vec<u8> = (0..64).collect();
    vec![
        wav(1, 1, 22_050, 16, &data, None),
        wav(1, 2, 44_100, 8, &data, None),
        wav(3, 1, 8_000, 32, &data, None),
        wav(1, 2, 48_000, 24, &data, Some(u32::MAX)),
    ]
}

/// The packets of a small Vorbis stream: identification, comment, setup, then audio.
fn vorbis_packets(v: &Vorbis) -> Vec<Vec<u8>> {
    let mut comment = b"\x03vorbis\0\0\0\0\0\0\0\0".to_vec();
    comment.push(1);
    let mut out = vec![vorbis_ident(v), comment, vorbis_setup(v)];
    out.extend((0..v.packets).map(|_| vec![0u8]));
    out
}

/// `packets` in pages (checksums valid): the first alone, the next two together, then the
/// rest, the last page ending the stream at `granule`.
fn paged(packets: &[Vec<u8>], granule: u64) -> Vec<u8> {
    let refs: Vec<&[u8]> = packets.iter().map(Vec::as_slice).collect();
    let mut out = ogg_page(&refs[..1.min(refs.len())], 2, 0, 1, 0);
    if refs.len() > 1 {
        out.extend(ogg_page(&refs[1..3.min(refs.len())], 0, 0, 1, 1));
    }
    if refs.len() > 3 {
        out.extend(ogg_page(&refs[3..], 4, granule, 1, 2));
    }
    out
}

fn fonts() -> &'static [Vec<u8>] {
    static F: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    F.get_or_init(|| {
        vec![
            truetype(
                &[square(10), square(500)],
                1000,
                cmap4(&[('A', 1), ('g', 1)]),
            ),
            truetype(
                &[square(10), square(300), Glyph::Composite(vec![1, 1])],
                2048,
                cmap4(&[('A', 2), ('\u{e9}', 1)]),
            ),
            cff_triangle(),
            dejavu(),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_pngs(seed in 0usize..4, edits in prop::collection::vec(edit(), 1..6)) {
        let mut bytes = pngs()[seed].clone();
        apply(&mut bytes, &edits);
        prop_assert_eq!(check_png(&bytes), Ok(()));
    }

    #[test]
    fn mutated_wavs(seed in 0usize..4, edits in prop::collection::vec(edit(), 1..6)) {
        let mut bytes = wavs()[seed].clone();
        apply(&mut bytes, &edits);
        prop_assert_eq!(check_sound(&bytes), Ok(()));
    }

    #[test]
    fn mutated_ogg_files(channels in 1u8..3, packets in 0usize..6, edits in prop::collection::vec(edit(), 1..5)) {
        let mut bytes = ogg_vorbis(&Vorbis { channels, packets, ..Vorbis::default() });
        apply(&mut bytes, &edits);
        prop_assert_eq!(check_sound(&bytes), Ok(()));
    }

    #[test]
    fn mutated_vorbis_packets(
        channels in 1u8..3,
        which in 0usize..5,
        edits in prop::collection::vec(edit(), 1..5),
        granule in prop::sample::select(vec![0u64, 128, 1 << 20, u64::MAX - 1, u64::MAX]),
    ) {
        let mut packets = vorbis_packets(&Vorbis { channels, packets: 3, ..Vorbis::default() });
        let which = which % packets.len();
        apply(&mut packets[which], &edits);
        prop_assert_eq!(check_sound(&paged(&packets, granule)), Ok(()));
    }

    #[test]
    fn random_codebooks(books in prop::collection::vec(codebook(), 1..4), packets in 0usize..4) {
        let mut codebooks = vec![Codebook::SMALL];
        codebooks.extend(books);
        let bytes = ogg_vorbis(&Vorbis { codebooks, packets, ..Vorbis::default() });
        prop_assert_eq!(check_sound(&bytes), Ok(()));
    }

    #[test]
    fn random_bytes_as_files(prefix in 0usize..5, bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let prefix: &[u8] = [&b""[..], b"\x89PNG\r\n\x1a\n", b"RIFF\0\0\0\0WAVE", b"OggS", b"\0\x01\0\0"][prefix];
        let bytes = [prefix, &bytes].concat();
        prop_assert_eq!(check_png(&bytes), Ok(()));
        prop_assert_eq!(check_sound(&bytes), Ok(()));
        prop_assert_eq!(check_font(&bytes), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_fonts(seed in 0usize..4, edits in prop::collection::vec(edit(), 1..6)) {
        let mut bytes = fonts()[seed].clone();
        apply(&mut bytes, &edits);
        prop_assert_eq!(check_font(&bytes), Ok(()));
    }
}

/// Mutations the property tests found: each checked every run.
#[test]
fn mutated_fonts_found_before() {
    // A CFF font's top dictionary index made huge: the parser's own offset check fired.
    let cases = [(2, Edit::Huge(8953942407679215999, 0xFFFF_FFFF))];
    for (seed, edit) in cases {
        let mut bytes = fonts()[seed].clone();
        apply(&mut bytes, &[edit]);
        assert_eq!(check_font(&bytes), Ok(()), "font {seed}");
    }
}

#[test]
fn the_seeds_are_valid() {
    for (i, p) in pngs().iter().enumerate().filter(|(i, _)| *i != 2) {
        assert!(decode_png(p).is_ok(), "png {i}");
    }
    for (i, w) in wavs().iter().enumerate() {
        assert!(decode_sound(w).is_ok(), "wav {i}");
    }
    let packets = vorbis_packets(&Vorbis {
        packets: 3,
        ..Vorbis::default()
    });
    assert_eq!(
        decode_sound(&paged(&packets, 256)).map(|p| p.samples.len()),
        Ok(256)
    );
    for (i, f) in fonts().iter().enumerate() {
        assert!(load_font(f).is_ok(), "font {i}");
    }
}
