//! Looks reach the screen: a sprite flipped top to bottom by its archetype, one flipped left
//! to right and one scaled by `ludus.set_look`, one hidden by it and one faded by it, each
//! compared with the plain sprite beside them. A real window under Xvfb, read back pixel by
//! pixel.

mod support;

use support::{Frame, window_frame, xvfb_available};

const RED: [u8; 3] = [250, 20, 30];
const GREEN: [u8; 3] = [20, 240, 60];
const BLUE: [u8; 3] = [30, 60, 250];
const YELLOW: [u8; 3] = [240, 220, 20];

/// A 32 x 32 picture of four quadrants: red top left, green top right, blue bottom left,
/// yellow bottom right.
fn quadrants_png() -> Vec<u8> {
    let (w, h) = (32u32, 32u32);
    let mut px = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let c = match (x < 16, y < 16) {
                (true, true) => RED,
                (false, true) => GREEN,
                (true, false) => BLUE,
                (false, false) => YELLOW,
            };
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

const GAME: &str = r##"name = "Looks"

[scripts]
files = ["scripts/main.lua"]

[images.quad]
file = "quad.png"
filter = "nearest"

[archetypes.plain]
sprite = { image = "quad", size = [100, 100] }

[archetypes.upside_down]
sprite = { image = "quad", size = [100, 100], flip_y = true }

[archetypes.square]
sprite = { shape = "rect", size = [100, 100], color = "#ffffff" }

[levels.main]
bounds = { size = [800, 600] }
background = "#000000"
camera = { view = [800, 600] }
place = [
  { archetype = "plain", at = [-250, -120] },
  { archetype = "upside_down", at = [0, -120] },
  { archetype = "plain", at = [250, -120] },
  { archetype = "plain", at = [-250, 150] },
  { archetype = "plain", at = [0, 150] },
  { archetype = "square", at = [250, 150] },
]
"##;

/// The script: the third entity mirrored left to right, the fourth drawn 1.5 wide and half as
/// high, the fifth hidden, the square at half opacity.
const SCRIPT: &str = r#"
function on_start()
  ludus.set_look(3, { flip_x = true })
  ludus.set_look(4, { scale = { 1.5, 0.5 } })
  ludus.set_look(5, { visible = false })
  ludus.set_look(6, { alpha = 0.5 })
end
"#;

/// The mean (x, y) of the pixels near `rgb` in the window of `half` pixels about the world
/// point (`x`, `y`), and how many there are.
fn centroid(f: &Frame, rgb: [u8; 3], (x, y): (f32, f32), half: u32) -> (f32, f32, usize) {
    // 800 x 600 world units in 1024 x 768 pixels: 1.28 pixels a unit, the origin in the middle.
    let cx = (512.0 + x * 1.28) as u32;
    let cy = (384.0 + y * 1.28) as u32;
    let (mut sx, mut sy, mut n) = (0.0, 0.0, 0usize);
    for py in cy - half..cy + half {
        for px in cx - half..cx + half {
            let o = ((py * f.width + px) * 4) as usize;
            if (0..3).all(|i| (f.px[o + i] as i32 - rgb[i] as i32).abs() <= 12) {
                sx += px as f32;
                sy += py as f32;
                n += 1;
            }
        }
    }
    (sx / n.max(1) as f32, sy / n.max(1) as f32, n)
}

/// Where each colour's quadrant of the sprite at (`x`, `y`) lies from the sprite's centre
/// (-1: left or above, 1: right or below), and each one's pixel count.
fn quadrants(f: &Frame, at: (f32, f32), half: u32) -> Vec<((i32, i32), usize)> {
    let (cx, cy) = (512.0 + at.0 * 1.28, 384.0 + at.1 * 1.28);
    [RED, GREEN, BLUE, YELLOW]
        .into_iter()
        .map(|c| {
            let (x, y, n) = centroid(f, c, at, half);
            let side = |d: f32| if d.abs() < 4.0 { 0 } else { d.signum() as i32 };
            ((side(x - cx), side(y - cy)), n)
        })
        .collect()
}

#[test]
fn flipped_scaled_hidden_and_faded_sprites_differ_from_the_plain_one() {
    if !xvfb_available() {
        return;
    }
    let game = support::scratch("looks", "game");
    std::fs::write(game.join("quad.png"), quadrants_png()).unwrap();
    std::fs::write(game.join("game.toml"), GAME).unwrap();
    std::fs::create_dir_all(game.join("scripts")).unwrap();
    std::fs::write(game.join("scripts/main.lua"), SCRIPT).unwrap();
    let check = support::ludus().arg("check").arg(&game).output().unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let run = support::scratch("looks", "run");
    let f = window_frame(&game, &run, &"{}\n".repeat(20), Some(60));
    // A 100-unit quadrant sprite is 128 x 128 pixels: 64 x 64 (4096) a quadrant.
    let q = |x: i32, y: i32| ((x, y), 4096);
    let counts = |v: &[((i32, i32), usize)]| v.iter().map(|(_, n)| *n).collect::<Vec<_>>();
    let plain = quadrants(&f, (-250.0, -120.0), 90);
    for n in counts(&plain) {
        assert!((3800..4400).contains(&n), "a quadrant: {n} pixels");
    }
    let sides = |v: Vec<((i32, i32), usize)>| v.into_iter().map(|(s, _)| s).collect::<Vec<_>>();
    let expected = [
        // Red, green, blue, yellow: where each lies.
        (
            "plain",
            (-250.0, -120.0),
            [q(-1, -1), q(1, -1), q(-1, 1), q(1, 1)],
        ),
        (
            "flip_y",
            (0.0, -120.0),
            [q(-1, 1), q(1, 1), q(-1, -1), q(1, -1)],
        ),
        (
            "flip_x",
            (250.0, -120.0),
            [q(1, -1), q(-1, -1), q(1, 1), q(-1, 1)],
        ),
    ];
    for (name, at, want) in expected {
        let got = quadrants(&f, at, 90);
        assert_eq!(
            sides(got.clone()),
            want.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
            "{name}: {got:?}"
        );
        for n in counts(&got) {
            assert!(
                (3800..4400).contains(&n),
                "{name}: a quadrant of {n} pixels"
            );
        }
    }
    // Scaled 1.5 x 0.5: each quadrant 96 x 32 pixels (3072), still in its corner.
    let scaled = quadrants(&f, (-250.0, 150.0), 120);
    assert_eq!(
        sides(scaled.clone()),
        [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        "scaled: {scaled:?}"
    );
    for n in counts(&scaled) {
        assert!(
            (2850..3300).contains(&n),
            "scaled: a quadrant of {n} pixels"
        );
    }
    let (_, _, wide) = centroid(&f, RED, (-250.0, 150.0), 120);
    let red_left_edge = (0..f.width)
        .find(|&x| {
            let o = (((384.0 + 140.0 * 1.28) as u32 * f.width + x) * 4) as usize;
            (0..3).all(|i| (f.px[o + i] as i32 - RED[i] as i32).abs() <= 12)
        })
        .unwrap_or(0);
    assert!(
        wide > 0 && (red_left_edge as f32 - (512.0 - 325.0 * 1.28)).abs() < 3.0,
        "1.5 times as wide: its left edge at {red_left_edge}"
    );
    // Hidden: nothing where it stands.
    let hidden = quadrants(&f, (0.0, 150.0), 90);
    assert_eq!(counts(&hidden), [0, 0, 0, 0], "hidden: {hidden:?}");
    // Half opacity on black: a mid grey where the square stands, no white.
    let (_, _, white) = centroid(&f, [255, 255, 255], (250.0, 150.0), 70);
    let (_, _, grey) = centroid(&f, [128, 128, 128], (250.0, 150.0), 70);
    assert_eq!(white, 0, "no full white");
    assert!(
        (15500..17000).contains(&grey),
        "half-faded: {grey} grey pixels"
    );
}
