//! Images reach the screen: a sprite sheet's pixels are drawn from the packed atlas, the frame
//! a sprite names is the one shown, a rotated sprite is drawn rotated, a tile map draws, a
//! label's text is drawn in the world, and text is drawn in the game's fonts (a bitmap font's
//! frames, a font file's glyphs). A real window under Xvfb, read back pixel by pixel.

mod support;

use support::{Frame, window_frame, xvfb_available};

const RED: [u8; 3] = [250, 20, 30];
const GREEN: [u8; 3] = [20, 240, 60];
const BLUE: [u8; 3] = [30, 60, 250];
const YELLOW: [u8; 3] = [240, 220, 20];

/// A 96 x 16 sheet of three 32 x 16 frames: frame 0 red on its left half and green on its
/// right, frame 1 all blue, frame 2 all yellow.
fn sheet_png() -> Vec<u8> {
    png_of(96, 16, |x| match x {
        0..16 => RED,
        16..32 => GREEN,
        32..64 => BLUE,
        _ => YELLOW,
    })
}

/// A `w` x `h` PNG whose column `x` is `colour(x)`.
fn png_of(w: u32, h: u32, colour: impl Fn(u32) -> [u8; 3]) -> Vec<u8> {
    let mut px = Vec::with_capacity((w * h * 4) as usize);
    for _ in 0..h {
        for x in 0..w {
            let c = colour(x);
            px.extend_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header().unwrap().write_image_data(&px).unwrap();
    out
}

const GAME: &str = r##"name = "Sheet"
layers = ["ground"]

[images.sheet]
file = "art/sheet.png"
frame = [32, 16]
filter = "nearest"

[archetypes.flat]
sprite = { image = "sheet", size = [160, 80] }

[archetypes.turned]
angle = 1.5707964
sprite = { image = "sheet", size = [160, 80] }

[archetypes.blue]
sprite = { image = "sheet", frame = 1, size = [60, 30] }

[archetypes.sign]
label = { text = "HELLO", size = 40, color = "#ff00ff" }

[archetypes.wall]
collider = { shape = "box", size = 8, layer = "ground", body = "static" }

[levels.main]
bounds = { size = [800, 600] }
background = "#000000"
camera = { view = [800, 600] }
place = [
  { archetype = "flat", at = [-200, -100] },
  { archetype = "turned", at = [200, -100] },
  { archetype = "blue", at = [0, 200] },
  { archetype = "sign", at = [0, -250], text = "WORLD" },
]

# Ten yellow tiles along the bottom, 40 x 20 units each; the middle gap holds the blue sprite.
[levels.main.tilemap]
image = "sheet"
tile = [40, 20]
origin = [-400, 220]
rows = ["yyyyy     yyyyS"]
legend = { "y" = { frame = 2 }, "S" = { frame = 2, solid = "wall" } }
"##;

/// The mean (x, y) of the pixels near `rgb` in columns `x0..x1`, and how many there are.
fn centroid(f: &Frame, rgb: [u8; 3], x0: u32, x1: u32) -> (f32, f32, usize) {
    centroid_in(f, rgb, (x0, x1), (0, f.height))
}

/// The mean (x, y) of the clearly magenta pixels (text's smoothed edges count), and how many.
fn magenta(f: &Frame) -> (f32, f32, usize) {
    let (mut sx, mut sy, mut n) = (0.0, 0.0, 0usize);
    for (i, p) in f.px.chunks(4).enumerate() {
        if p[0] > 120 && p[2] > 120 && p[1] < 60 {
            sx += (i as u32 % f.width) as f32;
            sy += (i as u32 / f.width) as f32;
            n += 1;
        }
    }
    (sx / n.max(1) as f32, sy / n.max(1) as f32, n)
}

/// [`centroid`] in columns `x0..x1` of rows `y0..y1`.
fn centroid_in(
    f: &Frame,
    rgb: [u8; 3],
    (x0, x1): (u32, u32),
    (y0, y1): (u32, u32),
) -> (f32, f32, usize) {
    let (mut sx, mut sy, mut n) = (0.0, 0.0, 0usize);
    for y in y0..y1 {
        for x in x0..x1 {
            let o = ((y * f.width + x) * 4) as usize;
            if (0..3).all(|i| (f.px[o + i] as i32 - rgb[i] as i32).abs() <= 12) {
                sx += x as f32;
                sy += y as f32;
                n += 1;
            }
        }
    }
    (sx / n.max(1) as f32, sy / n.max(1) as f32, n)
}

#[test]
fn sheet_frames_and_tiles_draw_and_a_rotated_sprite_draws_rotated() {
    if !xvfb_available() {
        return;
    }
    let game = support::scratch("images", "sheet");
    std::fs::create_dir_all(game.join("art")).unwrap();
    std::fs::write(game.join("art/sheet.png"), sheet_png()).unwrap();
    std::fs::write(game.join("game.toml"), GAME).unwrap();
    let check = support::ludus().arg("check").arg(&game).output().unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let run = support::scratch("images", "run");
    let f = window_frame(&game, &run, &"{}\n".repeat(20), Some(60));
    // 800 x 600 world units in 1024 x 768 pixels: 1.28 pixels a unit; the world's origin is
    // the screen's centre.
    let mid = f.width / 2;
    let (rx, ry, rn) = centroid(&f, RED, 0, mid);
    let (gx, gy, gn) = centroid(&f, GREEN, 0, mid);
    // Each half of the flat sprite is 80 x 80 units: about 102 x 102 pixels.
    for n in [rn, gn] {
        assert!((9000..12000).contains(&n), "a half of frame 0: {n} pixels");
    }
    assert!(
        gx - rx > 90.0 && (gy - ry).abs() < 2.0,
        "flat: red left of green ({rx},{ry}) ({gx},{gy})"
    );
    let (rx, ry, rn) = centroid(&f, RED, mid, f.width);
    let (gx, gy, gn) = centroid(&f, GREEN, mid, f.width);
    for n in [rn, gn] {
        assert!(
            (9000..12000).contains(&n),
            "a half of the turned sprite: {n} pixels"
        );
    }
    // A quarter turn toward +y (down the screen): what was left is now above.
    assert!(
        gy - ry > 90.0 && (gx - rx).abs() < 2.0,
        "turned: red above green ({rx},{ry}) ({gx},{gy})"
    );
    // The tile map: ten 40 x 20 tiles (a solid one among them) at the bottom of the view,
    // about 51 x 26 pixels each.
    let (_, ty, tn) = centroid(&f, YELLOW, 0, f.width);
    assert!(
        (12000..14500).contains(&tn),
        "the tiles are drawn: {tn} pixels"
    );
    assert!(
        (ty - (384.0 + 230.0 * 1.28)).abs() < 2.0,
        "along the bottom: {ty}"
    );
    // The sign's label, its own text ("WORLD") for the archetype's: magenta glyphs 40 units
    // (51 pixels) high, centred 250 units up; smoothed edges count while clearly magenta.
    let (lx, ly, ln) = magenta(&f);
    assert!(ln > 800, "the label is drawn: {ln} pixels");
    assert!(
        (lx - mid as f32).abs() < 12.0 && (ly - (384.0 - 250.0 * 1.28)).abs() < 12.0,
        "({lx},{ly})"
    );
    let (bx, by, bn) = centroid(&f, BLUE, 0, f.width);
    // 60 x 30 units: about 77 x 38 pixels, centred 200 units below the middle.
    assert!((2500..3400).contains(&bn), "frame 1 is blue: {bn} pixels");
    assert!(
        (bx - mid as f32).abs() < 2.0 && (by - (384.0 + 256.0)).abs() < 2.0,
        "({bx},{by})"
    );
}

const FONTS: &str = r##"name = "Letters"
font = "pixel"
hud = [{ text = "AB", size = 32 }]

[images.glyphs]
file = "glyphs.png"
frame = [8, 8]
filter = "nearest"

[fonts.pixel]
image = "glyphs"
glyphs = "AB"

[fonts.mono]
file = "mono.ttf"
size = 48

[archetypes.pixel_sign]
label = { text = "BA", size = 80 }

[archetypes.mono_sign]
label = { text = "WW", size = 80, color = "#ff00ff", font = "mono" }

[levels.main]
bounds = { size = [800, 600] }
background = "#000000"
camera = { view = [800, 600] }
place = [
  { archetype = "pixel_sign", at = [0, 100] },
  { archetype = "mono_sign", at = [0, -150] },
]
"##;

#[test]
fn text_is_drawn_in_the_games_fonts() {
    if !xvfb_available() {
        return;
    }
    let game = support::scratch("images", "fonts");
    // A two-glyph bitmap font: "A" all red, "B" all blue.
    let glyphs = png_of(16, 8, |x| if x < 8 { RED } else { BLUE });
    std::fs::write(game.join("glyphs.png"), glyphs).unwrap();
    let ttf =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/fonts/DejaVuSansMono.ttf");
    std::fs::copy(ttf, game.join("mono.ttf")).unwrap();
    std::fs::write(game.join("game.toml"), FONTS).unwrap();
    let run = support::scratch("images", "fonts-run");
    let f = window_frame(&game, &run, &"{}\n".repeat(10), Some(30));
    let (mid, top) = (f.width / 2, f.height / 4);
    // The HUD line "AB" in the game's font at the top left: two 32 x 32 pixel squares.
    let hud = |rgb| {
        let (x, _, n) = centroid_in(&f, rgb, (0, mid), (0, top));
        (x, n)
    };
    let ((ax, an), (bx, bn)) = (hud(RED), hud(BLUE));
    assert!(
        (900..1200).contains(&an) && (900..1200).contains(&bn),
        "the HUD's glyphs: {an} and {bn} pixels"
    );
    assert!((bx - ax - 32.0).abs() < 2.0, "A, then B: {ax} {bx}");
    // The label "BA", 80 units (about 102 pixels) high in the same font, 100 units below the
    // middle: B left of A, each about 102 x 102 pixels.
    let (lbx, lby, lbn) = centroid(&f, BLUE, mid - 150, mid + 150);
    let (lax, lay, lan) = centroid(&f, RED, mid - 150, mid + 150);
    for n in [lan, lbn] {
        assert!((9500..11500).contains(&n), "a label glyph: {n} pixels");
    }
    assert!(lax - lbx > 95.0 && (lay - lby).abs() < 2.0, "B, then A");
    assert!((lay - (384.0 + 128.0)).abs() < 3.0, "{lay}");
    // "WW" in the font file, magenta, 150 units above the middle.
    let (wx, wy, wn) = magenta(&f);
    assert!(wn > 1500, "the font file's glyphs are drawn: {wn} pixels");
    assert!(
        (wx - mid as f32).abs() < 12.0 && (wy - (384.0 - 150.0 * 1.28)).abs() < 15.0,
        "({wx},{wy})"
    );
}
