//! Small games built in memory load their images, sprite sheets and animations, tile maps,
//! labels and the built-in `text` archetype, music and fonts into the `GameDef` as declared.

use ludus_content::{MemorySource, load_game};
use ludus_core::{ArchetypeId, AssetId, Color, Filter, SpriteShape, TileMapDef, Vec2};

/// A PNG header of `w` x `h` pixels (all content reads of an image).
fn png_header(w: u32, h: u32) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
    b.extend_from_slice(&w.to_be_bytes());
    b.extend_from_slice(&h.to_be_bytes());
    b.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
    b
}

#[test]
fn images_sheets_and_animations_are_read() {
    let mut source = MemorySource::new();
    source.insert(
        "game.toml",
        br#"name = "Sheets"
[images.hero]
file = "art/hero.png"
frame = [16, 24]
filter = "nearest"

[archetypes.hero]
sprite = { image = "hero", frame = 5, flip_x = true }

[archetypes.hero.animations.idle]
frames = [0, 1]

[archetypes.hero.animations.run]
frames = [4, 5, 6, 7]
fps = 12
loop = false

[archetypes.old.sprite]
shape = "image"
image = "art/old.png"

[levels.one]
camera = { zoom = 2, dead_zone = [100, 60] }
"#
        .to_vec(),
    );
    source.insert("art/hero.png", png_header(64, 48));
    source.insert("art/old.png", png_header(10, 20));
    let def = match load_game(&source) {
        Ok(g) => g.def,
        Err(d) => panic!("{}", d.render()),
    };
    let hero = &def.images[0];
    assert_eq!(
        (hero.name.as_str(), hero.file.as_str()),
        ("hero", "art/hero.png")
    );
    assert_eq!((hero.width, hero.height, hero.frame), (64, 48, (16, 24)));
    assert_eq!((hero.filter, hero.frames()), (Filter::Nearest, 8));
    assert_eq!(hero.frame_rect(5), (16, 24, 16, 24));
    // Named by path: a whole image, smooth, named by its path.
    let old = &def.images[1];
    assert_eq!(
        (old.name.as_str(), old.frame, old.filter),
        ("art/old.png", (10, 20), Filter::Linear)
    );

    let a = &def.archetypes[0];
    let s = a.sprite.as_ref().unwrap();
    assert_eq!(s.shape, SpriteShape::Image(AssetId(0)));
    assert_eq!((s.frame, s.flip_x), (5, true));
    assert_eq!(
        s.size,
        Vec2::new(16.0, 24.0),
        "an image without a shape: its frame's size"
    );
    let anims: Vec<(&str, &[u16], f32, bool)> = a
        .animations
        .iter()
        .map(|x| (x.name.as_str(), x.frames.as_slice(), x.fps, x.looping))
        .collect();
    assert_eq!(
        anims,
        [
            ("idle", &[0u16, 1][..], 10.0, true),
            ("run", &[4u16, 5, 6, 7][..], 12.0, false)
        ]
    );
    let old = def.archetypes[1].sprite.as_ref().unwrap();
    assert_eq!(
        (old.shape, old.size),
        (SpriteShape::Image(AssetId(1)), Vec2::new(16.0, 16.0)),
        "`shape = \"image\"` keeps its old default size"
    );
    let camera = def.levels[0].camera;
    assert_eq!(
        (camera.zoom, camera.dead_zone),
        (2.0, Some(Vec2::new(100.0, 60.0)))
    );
}

#[test]
fn a_tilemap_becomes_cells_and_merged_solid_placements() {
    // The same map as rows of characters, and as a CSV file the way Tiled writes one
    // (numbers from 1, 0 for no tile, trailing commas, CRLF), where the legend makes `2` solid.
    let rows = r#"rows = [
  "WWWW",
  "W..",
  "W .W",
]
legend = { "W" = { frame = 1, solid = "wall" }, "." = { frame = 3 } }"#;
    let csv = r#"csv = "maps/main.csv"
csv_first = 1
legend = { "2" = { frame = 1, solid = "wall" } }"#;
    for map in [rows, csv] {
        let mut source = MemorySource::new();
        let game = format!(
            r#"name = "Tiles"
layers = ["ground"]

[images.tiles]
file = "tiles.png"
frame = [8, 8]

[archetypes.wall]
collider = {{ shape = "box", size = 8, layer = "ground", body = "static" }}

[levels.main]
bounds = {{ min = [0, 0], max = [80, 40] }}
place = [{{ archetype = "wall", at = [5, 5], size = [30, 2] }}]

[levels.main.tilemap]
image = "tiles"
{map}
"#
        );
        source.insert("game.toml", game.into_bytes());
        source.insert(
            "maps/main.csv",
            b"2,2,2,2,\r\n2,4,4\r\n2, 0 ,4,2\r\n\r\n".to_vec(),
        );
        source.insert("tiles.png", png_header(32, 16));
        let def = match load_game(&source) {
            Ok(g) => g.def,
            Err(d) => panic!("{}", d.render()),
        };
        let level = &def.levels[0];
        let map = level.tilemap.as_ref().expect("the map");
        assert_eq!((map.columns, map.rows, map.layer), (4, 3, -1));
        assert_eq!((map.tile, map.origin), (Vec2::new(8.0, 8.0), Vec2::ZERO));
        // Frame + 1; 0 where there is no tile (a space, or past a short row's end).
        assert_eq!(map.cells, [2, 2, 2, 2, 2, 4, 4, 0, 2, 0, 4, 2]);
        // The legend key of each cell (its entry plus one), a CSV frame number's marker,
        // or 0 for none; the merged rectangles, placed from the placements' index 1.
        let (w, dot, frame) = if map.legend[0].ch == 'W' {
            (1, 2, 2)
        } else {
            (1, TileMapDef::FRAME_CELL, TileMapDef::FRAME_CELL)
        };
        assert_eq!(map.keys, [w, w, w, w, w, dot, dot, 0, w, 0, frame, w]);
        assert_eq!((map.solids.len(), map.first_solid), (3, 1));
        // The placed wall first, then the solid tiles: the top row, the left column below
        // it, the lone tile at the bottom right.
        let placed: Vec<(Vec2, Option<Vec2>)> = level
            .placements
            .iter()
            .map(|p| (p.pos, p.overrides.size))
            .collect();
        assert_eq!(
            placed,
            [
                (Vec2::new(5.0, 5.0), Some(Vec2::new(30.0, 2.0))),
                (Vec2::new(16.0, 4.0), Some(Vec2::new(32.0, 8.0))),
                (Vec2::new(4.0, 16.0), Some(Vec2::new(8.0, 16.0))),
                (Vec2::new(28.0, 20.0), Some(Vec2::new(8.0, 8.0))),
            ]
        );
    }
}

#[test]
fn a_legend_places_archetypes_over_the_tile_it_names_in_row_order() {
    let game = r#"name = "Spawns"
layers = ["ground"]

[images.tiles]
file = "tiles.png"
frame = [8, 8]

# No size: the tiles give it theirs.
[archetypes.wall]
collider = { shape = "box", layer = "ground", body = "static" }

[archetypes.enemy]
sprite = { shape = "circle", size = 6 }

[archetypes.key]
sprite = { shape = "rect", size = 4 }

[levels.main]
bounds = { min = [0, 0], max = [32, 24] }
place = [{ archetype = "key", at = [1, 1] }]

[levels.main.tilemap]
image = "tiles"
rows = ["WWWW", "WE.K", "WWEW"]
legend = { W = { frame = 1, solid = "wall" }, "." = { frame = 3 }, E = { spawn = "enemy", tile = "." }, K = { spawn = "key" } }
"#;
    let mut source = MemorySource::new();
    source.insert("game.toml", game.as_bytes().to_vec());
    source.insert("tiles.png", png_header(32, 16));
    let def = match load_game(&source) {
        Ok(g) => g.def,
        Err(d) => panic!("{}", d.render()),
    };
    let (enemy, key, wall) = (ArchetypeId(1), ArchetypeId(2), ArchetypeId(0));
    assert!(
        def.archetypes[0].sized_by_tiles(),
        "the wall's size is the tiles'"
    );
    let level = &def.levels[0];
    let map = level.tilemap.as_ref().expect("the map");
    // An enemy's cell is the floor `.` names; the key's has no tile.
    assert_eq!(map.cells, [2, 2, 2, 2, 2, 4, 4, 0, 2, 2, 4, 2]);
    assert_eq!(map.keys, [1, 1, 1, 1, 1, 2, 2, 0, 1, 1, 2, 1]);
    let legend: Vec<(char, u16, Option<ArchetypeId>, Option<ArchetypeId>)> = (map.legend.iter())
        .map(|k| (k.ch, k.frame, k.solid, k.spawn))
        .collect();
    assert_eq!(
        legend,
        [
            ('W', 2, Some(wall), None),
            ('.', 4, None, None),
            ('E', 0, None, Some(enemy)),
            ('K', 0, None, Some(key)),
        ]
    );
    // The placed key, the merged walls (top row, left column, two lone tiles below), then
    // what the legend places, row by row.
    let placed: Vec<(ArchetypeId, Vec2, Option<Vec2>)> = level
        .placements
        .iter()
        .map(|p| (p.archetype, p.pos, p.overrides.size))
        .collect();
    let wall_at = |x, y, w, h| (wall, Vec2::new(x, y), Some(Vec2::new(w, h)));
    assert_eq!(
        placed,
        [
            (key, Vec2::new(1.0, 1.0), None),
            wall_at(16.0, 4.0, 32.0, 8.0),
            wall_at(4.0, 16.0, 8.0, 16.0),
            wall_at(12.0, 20.0, 8.0, 8.0),
            wall_at(28.0, 20.0, 8.0, 8.0),
            (enemy, Vec2::new(12.0, 12.0), None),
            (key, Vec2::new(28.0, 12.0), None),
            (enemy, Vec2::new(20.0, 20.0), None),
        ]
    );
    assert_eq!(map.first_solid, 1);
}

#[test]
fn a_legend_holds_at_most_254_characters() {
    let legend: Vec<String> = (0..255u32)
        .map(|i| {
            format!(
                "\"{}\" = {{ frame = 0 }}",
                char::from_u32(0x100 + i).unwrap()
            )
        })
        .collect();
    let game = format!(
        "name = \"Big\"\n[images.tiles]\nfile = \"tiles.png\"\nframe = [8, 8]\n[levels.main.tilemap]\nimage = \"tiles\"\nrows = [\"\u{100}\"]\nlegend = {{ {} }}\n",
        legend.join(", ")
    );
    let mut source = MemorySource::new();
    source.insert("game.toml", game.into_bytes());
    source.insert("tiles.png", png_header(32, 16));
    let rendered = match load_game(&source) {
        Ok(_) => panic!("255 characters are refused"),
        Err(d) => d.render(),
    };
    assert!(
        rendered.contains("error: a legend holds at most 254 characters")
            && rendered.contains("1 error found"),
        "{rendered}"
    );
}

#[test]
fn labels_and_the_text_archetype() {
    let load = |toml: &str| {
        let mut source = MemorySource::new();
        source.insert("game.toml", toml.as_bytes().to_vec());
        match load_game(&source) {
            Ok(g) => g.def,
            Err(d) => panic!("{}", d.render()),
        }
    };
    let def = load(
        r##"name = "Signs"
[archetypes.sign]
label = { text = "EXIT", size = 12, color = "#ff0000", offset = [0, -8] }
[levels.main]
place = [{ archetype = "sign", at = [0, 0], text = "IN" }]
"##,
    );
    let sign = def.archetypes[0].label.as_ref().unwrap();
    assert_eq!(
        (sign.text.as_str(), sign.size, sign.color, sign.offset),
        ("EXIT", 12.0, Color::rgb(255, 0, 0), Vec2::new(0.0, -8.0))
    );
    assert_eq!(
        def.levels[0].placements[0].overrides.text.as_deref(),
        Some("IN")
    );
    // No `text` of its own: the built-in one, after the game's archetypes.
    assert_eq!(def.archetypes.len(), 2);
    assert_eq!(def.archetypes[1], ludus_core::LabelDef::text_archetype());
    // Its own `text`: kept, nothing added.
    let own = load(
        "name = \"Own\"\n[archetypes.text]\nlifetime = 5\nlabel = { size = 30 }\n[levels.main]\n",
    );
    assert_eq!(own.archetypes.len(), 1);
    assert_eq!(own.archetypes[0].label.as_ref().unwrap().size, 30.0);
}

#[test]
fn music_tracks_are_sound_files() {
    let mut source = MemorySource::new();
    source.insert(
        "game.toml",
        b"name = \"Tunes\"\n[music.theme]\nfile = \"theme.wav\"\nvolume = 0.3\n[levels.main]\n"
            .to_vec(),
    );
    // A 16-bit mono WAV header with four samples.
    let mut wav = b"RIFF\0\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x22\x56\0\0\x44\xac\0\0\x02\0\x10\0data\x08\0\0\0".to_vec();
    wav.extend_from_slice(&[0; 8]);
    source.insert("theme.wav", wav);
    let def = match load_game(&source) {
        Ok(g) => g.def,
        Err(d) => panic!("{}", d.render()),
    };
    assert_eq!(def.music.len(), 1);
    assert_eq!(
        (
            def.music[0].name.as_str(),
            def.music[0].file.as_deref(),
            def.music[0].volume
        ),
        ("theme", Some("theme.wav"), 0.3)
    );
    assert_eq!(def.music_id("theme").map(|m| m.0), Some(0));
}

#[test]
fn fonts_files_and_sheets_and_who_uses_them() {
    let mut source = MemorySource::new();
    source.insert(
        "game.toml",
        br##"name = "Letters"
font = "pixel"
hud = ["plain", { text = "big", font = "title" }]
[images.glyphs]
file = "glyphs.png"
frame = [8, 8]
[fonts.title]
file = "title.ttf"
size = 48
[fonts.pixel]
image = "glyphs"
glyphs = "AB"
[archetypes.sign]
label = { text = "A" }
[archetypes.boss]
label = { text = "B", font = "title" }
[levels.main]
"##
        .to_vec(),
    );
    source.insert("glyphs.png", png_header(16, 8));
    let ttf = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/fonts/DejaVuSansMono.ttf"),
    )
    .unwrap();
    source.insert("title.ttf", ttf.clone());
    let def = match load_game(&source) {
        Ok(g) => g.def,
        Err(d) => panic!("{}", d.render()),
    };
    use ludus_core::{FontId, FontSource};
    let fonts: Vec<(&str, &FontSource)> = def
        .fonts
        .iter()
        .map(|f| (f.name.as_str(), &f.source))
        .collect();
    assert_eq!(
        fonts,
        [
            (
                "title",
                &FontSource::File {
                    file: "title.ttf".into(),
                    size: 48.0
                }
            ),
            (
                "pixel",
                &FontSource::Sheet {
                    image: ludus_core::AssetId(0),
                    glyphs: "AB".into()
                }
            ),
        ]
    );
    // The game's font is every label's and line's that names none (the built-in `text` too).
    assert_eq!(def.font, Some(FontId(1)));
    let labels: Vec<(&str, Option<FontId>)> = def
        .archetypes
        .iter()
        .map(|a| (a.name.as_str(), a.label.as_ref().unwrap().font))
        .collect();
    assert_eq!(
        labels,
        [
            ("sign", Some(FontId(1))),
            ("boss", Some(FontId(0))),
            ("text", Some(FontId(1)))
        ]
    );
    let hud: Vec<Option<FontId>> = def
        .hud
        .iter()
        .filter_map(|h| match h {
            ludus_core::HudItem::Text(line) => Some(line.font),
            _ => None,
        })
        .collect();
    assert_eq!(hud, [Some(FontId(1)), Some(FontId(0))]);

    // A damaged font file (the right signature, then garbage) is an error at its path.
    source.insert("title.ttf", ttf[..64].to_vec());
    let Err(d) = load_game(&source) else {
        panic!("a truncated font loads")
    };
    let text = d.render();
    assert!(
        text.contains("game.toml:8:8: error: font file `title.ttf` cannot be read as a font"),
        "{text}"
    );
}

#[test]
fn sprite_looks_and_placed_looks_are_read() {
    let mut source = MemorySource::new();
    source.insert(
        "game.toml",
        br#"name = "Looks"
layers = ["pipes"]

[images.pipe]
file = "pipe.png"

[archetypes.pipe]
sprite = { image = "pipe", flip_y = true, alpha = 0.5 }
collider = { shape = "box", layer = "pipes" }

[archetypes.coin]
sprite = { shape = "circle", size = 10 }
collider = { layer = "pipes" }

[levels.one]

[[levels.one.place]]
archetype = "pipe"
at = [0, 0]
size = [40, 300]
scale = [2, 1]
angle = 0.5

[[levels.one.place]]
archetype = "coin"
at = [0, 0]
size = 30
scale = 3
"#
        .to_vec(),
    );
    source.insert("pipe.png", png_header(20, 40));
    let def = match load_game(&source) {
        Ok(g) => g.def,
        Err(d) => panic!("{}", d.render()),
    };
    let s = def.archetypes[0].sprite.as_ref().unwrap();
    assert_eq!((s.flip_x, s.flip_y, s.alpha), (false, true, 0.5));
    let coin = def.archetypes[1].sprite.as_ref().unwrap();
    assert_eq!((coin.flip_y, coin.alpha), (false, 1.0), "the defaults");
    let o: Vec<_> = def.levels[0]
        .placements
        .iter()
        .map(|p| (p.overrides.size, p.overrides.scale, p.overrides.angle))
        .collect();
    assert_eq!(
        o,
        [
            (
                Some(Vec2::new(40.0, 300.0)),
                Some(Vec2::new(2.0, 1.0)),
                Some(0.5)
            ),
            (Some(Vec2::new(30.0, 30.0)), Some(Vec2::new(3.0, 3.0)), None),
        ]
    );
}
