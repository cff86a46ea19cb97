//! The HUD's pictures, icons and bars in a real window under Xvfb: a bar's filled part is as
//! wide as its value says, to the pixel, over its empty part; a row of icons draws its full and
//! empty frames; a picture draws its frame at its size.

mod support;

use support::{count, scratch, window_frame, xvfb_available};

const FILL: [u8; 3] = [255, 0, 255];
const BACK: [u8; 3] = [0, 255, 0];
const FULL: [u8; 3] = [255, 0, 0];
const EMPTY: [u8; 3] = [0, 0, 255];

/// A 2-frame sheet of 8 x 8 frames: frame 0 all `FULL`, frame 1 all `EMPTY`.
fn sheet() -> Vec<u8> {
    let mut rgba = Vec::new();
    for _ in 0..8 {
        for x in 0..16 {
            let c = if x < 8 { FULL } else { EMPTY };
            rgba.extend_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, 16, 8);
    e.set_color(png::ColorType::Rgba);
    e.set_depth(png::BitDepth::Eight);
    e.write_header().unwrap().write_image_data(&rgba).unwrap();
    out
}

const GAME: &str = r##"name = "Hud"
hud = [
  { bar = "hp", max = "hp_max", size = [200, 20], color = "#ff00ff", back = "#00ff00", at = "top_left" },
  { icons = "lives", max = 5, image = "pips", empty_frame = 1, size = 16, at = "top_right" },
  { image = "pips", frame = 1, size = [40, 24], at = "bottom_right" },
]

[variables]
hp = 30
lives = 3

[constants]
hp_max = 120

[images.pips]
file = "pips.png"
frame = [8, 8]
filter = "nearest"

[levels.one]
"##;

/// The longest run of `rgb` pixels in each row that has any: (rows, longest run).
fn runs(px: &[u8], width: usize, rgb: [u8; 3]) -> (usize, usize) {
    let (mut rows, mut longest) = (0, 0);
    for row in px.chunks(width * 4) {
        let mut run = 0;
        let mut best = 0;
        for p in row.chunks(4) {
            run = if p[..3] == rgb { run + 1 } else { 0 };
            best = best.max(run);
        }
        if best > 0 {
            rows += 1;
            longest = longest.max(best);
        }
    }
    (rows, longest)
}

#[test]
fn a_bar_fills_as_its_value_says_and_icons_and_pictures_draw() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch("window", "hud");
    let game = dir.join("game");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(game.join("game.toml"), GAME).unwrap();
    std::fs::write(game.join("pips.png"), sheet()).unwrap();
    let frame = window_frame(&game, &dir, &"{}\n".repeat(20), None);
    let (px, width) = (&frame.px, frame.width as usize);
    // hp 30 of 120: a quarter of 200 pixels filled, the rest empty, 20 rows.
    assert_eq!(runs(px, width, FILL), (20, 50), "the filled part");
    assert_eq!(runs(px, width, BACK), (20, 150), "the empty part");
    // 3 of 5 icons full, 16 x 16 each; and the 40 x 24 picture of the empty frame.
    assert_eq!(count(px, FULL, 0), 3 * 16 * 16, "full icons");
    assert_eq!(
        count(px, EMPTY, 0),
        2 * 16 * 16 + 40 * 24,
        "empty icons and the picture"
    );
}
