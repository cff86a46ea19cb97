//! The loader's bounds over a whole game: each distinct file is read and checked once however
//! many declarations name it (and the content hash covers its bytes once); the game's files,
//! and its images, sounds and tile maps once decoded, are bounded in total, each refusal at the
//! declaration that crossed the bound and naming the file.

#[path = "../../decode/tests/support/files.rs"]
mod files;
#[path = "../../decode/tests/support/fonts.rs"]
mod fonts;

use files::*;
use fonts::*;
use ludus_content::*;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// A game in memory that counts how often each file is read.
struct Counting {
    files: MemorySource,
    reads: RefCell<BTreeMap<String, usize>>,
}

impl FileSource for Counting {
    fn read(&self, path: &str) -> Result<Vec<u8>, ReadError> {
        *self.reads.borrow_mut().entry(path.to_string()).or_default() += 1;
        self.files.read(path)
    }
}

fn load(files: MemorySource) -> (Result<LoadedGame, Diagnostics>, BTreeMap<String, usize>) {
    let source = Counting {
        files,
        reads: RefCell::default(),
    };
    let start = Instant::now();
    let loaded = load_game(&source);
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "loading took {:?}",
        start.elapsed()
    );
    (loaded, source.reads.into_inner())
}

#[test]
fn a_file_declared_many_times_is_read_and_checked_once() {
    const MIB8: usize = 8 * 1024 * 1024;
    let mut game = String::from("name = \"Many\"\n");
    for i in 0..300 {
        game.push_str(&format!("[images.i{i}]\nfile = \"big.png\"\n"));
        if i < 250 {
            // At most 256 fonts.
            game.push_str(&format!(
                "[fonts.f{i}]\nfile = \"big.ttf\"\nsize = {}\n",
                8 + i % 40
            ));
        }
        game.push_str(&format!("[sounds.s{i}]\nfile = \"beep.ogg\"\n"));
        game.push_str(&format!("[music.m{i}]\nfile = \"beep.ogg\"\n"));
    }
    game.push_str("[levels.main]\n");
    let files = MemorySource::new()
        .with("game.toml", game)
        .with("big.png", padded_png(MIB8))
        .with("big.ttf", padded_font(MIB8))
        .with("beep.ogg", ogg_vorbis(&Vorbis::default()));
    let (loaded, reads) = load(files);
    let loaded = loaded.unwrap_or_else(|d| panic!("{}", d.render()));
    let once: BTreeMap<String, usize> = ["beep.ogg", "big.png", "big.ttf", "game.toml"]
        .iter()
        .map(|p| (p.to_string(), 1))
        .collect();
    assert_eq!(reads, once, "each file read once");
    assert_eq!(
        loaded.assets.keys().collect::<Vec<_>>(),
        ["beep.ogg", "big.png", "big.ttf"],
        "each file's bytes kept once"
    );
    // Every declaration is in the reading order the content hash covers.
    assert_eq!(loaded.files.len(), 1 + 3 * 300 + 250);
    assert_eq!(loaded.def.images.len(), 300);
    assert_eq!(loaded.def.fonts.len(), 250);
}

#[test]
fn a_file_refused_once_is_reported_once() {
    let mut game = String::from("name = \"Bad\"\n");
    for i in 0..50 {
        game.push_str(&format!("[images.i{i}]\nfile = \"huge.png\"\n"));
        game.push_str(&format!("[fonts.f{i}]\nfile = \"broken.ttf\"\n"));
    }
    game.push_str("[levels.main]\n");
    let files = MemorySource::new()
        .with("game.toml", game)
        .with("huge.png", png_declaring(30_000, 30_000))
        .with("broken.ttf", b"true and nothing more".to_vec());
    let (loaded, reads) = load(files);
    let text = loaded.unwrap_err().render();
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(
        lines,
        [
            "game.toml:3:8: error: image `huge.png` is 30000x30000 pixels, larger than 4094x4094",
            "game.toml:5:8: error: font file `broken.ttf` cannot be read as a font: malformed font",
        ],
        "{text}"
    );
    assert_eq!(reads.get("huge.png"), Some(&1));
}

/// A game of `decls` (TOML declarations) and `files`.
fn game(decls: &str, files: Vec<(&str, Vec<u8>)>) -> String {
    let mut source = MemorySource::new().with(
        "game.toml",
        format!("name = \"Total\"\nlayers = [\"ground\"]\n{decls}\n"),
    );
    for (p, b) in files {
        source.insert(p, b);
    }
    match load(source).0 {
        Ok(_) => "ok".into(),
        Err(d) => d.render(),
    }
}

#[test]
fn the_games_decoded_images_sounds_and_tile_maps_are_bounded_in_total() {
    // Five different images of 4094 x 4094 pixels (64 MiB each decoded), each declared twice:
    // the fifth file crosses 256 MiB; the second declaration of a file costs nothing.
    let mut decls = String::new();
    let mut files = Vec::new();
    for i in 0..5 {
        decls.push_str(&format!(
            "[images.a{i}]\nfile = \"p{i}.png\"\n[images.b{i}]\nfile = \"p{i}.png\"\n"
        ));
        files.push((
            ["p0.png", "p1.png", "p2.png", "p3.png", "p4.png"][i],
            png_declaring(4094, 4094),
        ));
    }
    decls.push_str("[levels.main]\n");
    let out = game(&decls, files);
    let errors: Vec<&str> = out.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(
        errors,
        [
            "game.toml:20:8: error: image `p4.png` (4094x4094 pixels) takes 64 MiB once decoded, which would bring the game's decoded images, sounds, fonts and tile maps to 320 MiB; they may take at most 256 MiB together"
        ],
        "{out}"
    );

    // A sound declaring ten minutes of 48 kHz stereo (110 MiB decoded) in a few hundred bytes,
    // as three sounds: the third crosses the total. As music it costs nothing (it streams).
    let long = ogg_vorbis(&Vorbis {
        rate: 48_000,
        channels: 2,
        granule: Some(1 << 40),
        ..Vorbis::default()
    });
    let decls = "[sounds.a]\nfile = \"long.ogg\"\n[sounds.b]\nfile = \"long.ogg\"\n\
                 [sounds.c]\nfile = \"long.ogg\"\n[music.m]\nfile = \"long.ogg\"\n\
                 [music.n]\nfile = \"long.ogg\"\n[levels.main]\n";
    let out = game(decls, vec![("long.ogg", long)]);
    let errors: Vec<&str> = out.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(
        errors,
        [
            "game.toml:8:8: error: sound file `long.ogg` takes 109.9 MiB once decoded, which would bring the game's decoded images, sounds, fonts and tile maps to 329.6 MiB; they may take at most 256 MiB together"
        ],
        "{out}"
    );

    // A CSV map of 4096 x 4096 cells (96 MiB while read) in 12 KiB, used by three levels: the
    // third crosses the total.
    let mut csv = ",".repeat(4095);
    csv.push('0');
    csv.push_str(&"\n0".repeat(4095));
    let mut decls = String::from(
        "[images.tiles]\nfile = \"t.png\"\n\
         [archetypes.wall]\ncollider = { shape = \"box\", size = 8, layer = \"ground\", body = \"static\" }\n",
    );
    for i in 0..3 {
        decls.push_str(&format!(
            "[levels.l{i}]\n[levels.l{i}.tilemap]\nimage = \"tiles\"\ncsv = \"map.csv\"\n"
        ));
    }
    let out = game(
        &decls,
        vec![("map.csv", csv.into_bytes()), ("t.png", png(8, 8, 1))],
    );
    let errors: Vec<&str> = out.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(
        errors,
        [
            "game.toml:18:7: error: a tile map of 4096 x 4096 takes 96 MiB once decoded, which would bring the game's decoded images, sounds, fonts and tile maps to 288.0 MiB; they may take at most 256 MiB together"
        ],
        "{out}"
    );
}

/// 33 different files of 8 MiB, made as they are read (only the loader holds them).
struct ManyBig;

impl FileSource for ManyBig {
    fn read(&self, path: &str) -> Result<Vec<u8>, ReadError> {
        if path == "game.toml" {
            let decls: String = (0..33)
                .map(|i| format!("[images.i{i}]\nfile = \"p{i}.png\"\n"))
                .collect();
            return Ok(format!("name = \"Big\"\n{decls}[levels.main]\n").into_bytes());
        }
        Ok(padded_png(8 * 1024 * 1024 - 4096))
    }
}

#[test]
fn fonts_count_what_the_rasteriser_keeps_of_them() {
    // Fonts of 65535 glyphs (about 6 MiB each once loaded) in 512 KiB files: fifty of them
    // pass the total; one file declared at fifty sizes counts once.
    let mut glyphs = vec![Glyph::Empty; 65_535];
    glyphs[1] = square(500);
    let font = truetype(&glyphs, 1000, cmap4(&[('A', 1)]));
    let mut decls = String::new();
    let mut source = MemorySource::new();
    for i in 0..50 {
        decls.push_str(&format!("[fonts.f{i}]\nfile = \"f{i}.ttf\"\n"));
        decls.push_str(&format!(
            "[fonts.g{i}]\nfile = \"f0.ttf\"\nsize = {}\n",
            10 + i
        ));
        source.insert(format!("f{i}.ttf"), font.clone());
    }
    source.insert(
        "game.toml",
        format!("name = \"Fonts\"\n{decls}[levels.main]\n"),
    );
    let out = match load(source).0 {
        Ok(_) => "ok".into(),
        Err(d) => d.render(),
    };
    let errors: Vec<&str> = out.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(errors.len(), 8, "{out}");
    assert!(
        errors[0].starts_with("game.toml:") && errors[0].contains(": error: font file `f42.ttf` takes 6.0 MiB once decoded, which would bring the game's decoded images, sounds, fonts and tile maps to 258.0 MiB; they may take at most 256 MiB together"),
        "{out}"
    );
}

#[test]
fn the_games_files_are_bounded_in_total() {
    // The 33rd file would bring the game past 256 MiB.
    let out = match load_game(&ManyBig) {
        Ok(_) => "ok".into(),
        Err(d) => d.render(),
    };
    let errors: Vec<&str> = out.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(
        errors,
        [
            "game.toml:67:8: error: image `p32.png` would bring the game's files to more than 256 MiB; they may hold at most that together (each file counted once)"
        ],
        "{out}"
    );
}
