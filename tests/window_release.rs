//! What the window shows besides the game, in a real window under Xvfb: the help line only in
//! `ludus run` and only where the game leaves `[window] help` on (never in an exported game,
//! unless exported with `--dev`), and a game-over banner fitted to a narrow window.
//!
//! The game is a plain dark field with nothing in it, so any light pixel is the window's own
//! text.

mod support;

use std::path::{Path, PathBuf};
use support::{ludus, scratch, sized_frame, xvfb_available};

/// A game of an empty field, `width` pixels wide, with `window` added to its `[window]` table
/// and `script` as its script.
fn game(dir: &Path, width: u32, window: &str, script: &str) -> PathBuf {
    let game = dir.join("plain");
    std::fs::create_dir_all(&game).unwrap();
    let toml = format!(
        "name = \"Plain\"\n\n[window]\nwidth = {width}\nheight = 400\n{window}\n\n\
         [scripts]\nfiles = [\"main.lua\"]\n\n[levels.main]\n"
    );
    std::fs::write(game.join("game.toml"), toml).unwrap();
    std::fs::write(game.join("main.lua"), script).unwrap();
    game
}

/// The last of 20 frames of `program run [game]` under Xvfb: RGBA pixels and the width.
fn frame(program: &Path, game: Option<&Path>, dir: &Path) -> (Vec<u8>, u32) {
    let frame = sized_frame(program, game, dir, &"{}\n".repeat(20), None);
    (frame.px, frame.width)
}

/// Light pixels (text) in rows `rows` and columns `cols` of a frame `width` pixels wide.
fn light(px: &[u8], width: u32, rows: std::ops::Range<u32>, cols: std::ops::Range<u32>) -> usize {
    let height = px.len() as u32 / 4 / width;
    let rows = rows.start.min(height)..rows.end.min(height);
    rows.flat_map(|y| cols.clone().map(move |x| ((y * width + x) * 4) as usize))
        .filter(|&i| px[i..i + 3].iter().all(|&c| c > 110))
        .count()
}

/// `ludus export desktop game OUT` (with `--dev` when asked): the executable.
fn export(game: &Path, dir: &Path, dev: bool) -> PathBuf {
    let exe = dir.join(if dev { "exported-dev" } else { "exported" });
    let o = ludus()
        .args(["export", "desktop"])
        .arg(game)
        .arg(&exe)
        .args(dev.then_some("--dev"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    exe
}

/// The bottom 60 rows of the 400-pixel-high window hold the help line where it is shown:
/// `ludus run` of the game as it is, and its export with `--dev`; nothing there with `[window]
/// help = false`, nor in the game exported for players.
#[test]
fn the_help_line_shows_only_in_the_developers_view() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch("release", "help");
    let ludus_bin = Path::new(env!("CARGO_BIN_EXE_ludus"));
    let plain = game(&dir, 640, "", "-- nothing happens\n");
    let hidden_dir = dir.join("hidden");
    std::fs::create_dir_all(&hidden_dir).unwrap();
    let hidden = game(&hidden_dir, 640, "help = false", "-- nothing happens\n");
    let (release, dev) = (export(&plain, &dir, false), export(&plain, &dir, true));
    let bottom = |program: &Path, game: Option<&Path>| {
        let (px, width) = frame(program, game, &dir);
        assert_eq!(width, 640, "the game's window width");
        light(&px, width, 340..400, 0..width)
    };
    // (what runs, whether the help line shows)
    let cases: [(&str, usize, bool); 4] = [
        ("ludus run", bottom(ludus_bin, Some(&plain)), true),
        ("--dev export", bottom(&dev, None), true),
        ("help = false", bottom(ludus_bin, Some(&hidden)), false),
        ("export", bottom(&release, None), false),
    ];
    for (what, text, shown) in cases {
        if shown {
            assert!(
                text > 200,
                "{what}: the help line is drawn ({text} light pixels)"
            );
        } else {
            assert_eq!(text, 0, "{what}: nothing is drawn at the bottom");
        }
    }
}

/// A long game-over message in a 480-pixel window: the banner wraps and shrinks it, so its
/// text keeps clear of both edges (cut-off text would run into them) and still shows; the
/// exported game names no restart key (the game has no restart action).
#[test]
fn a_long_game_over_message_fits_a_480_pixel_window() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch("release", "banner");
    let script = "function on_tick(t)\n  if t.tick == 2 then\n    \
                  ludus.game_over(\"You hit the wall   score 0   after a very long and \
                  winding run, Supercalifragilisticexpialidocious\")\n  end\nend\n";
    let plain = game(&dir, 480, "", script);
    let ludus_bin = Path::new(env!("CARGO_BIN_EXE_ludus"));
    let (px, width) = frame(ludus_bin, Some(&plain), &dir);
    assert_eq!(width, 480, "the game's window width");
    let all = light(&px, width, 0..400, 0..width);
    let edges = light(&px, width, 0..400, 0..8) + light(&px, width, 0..400, 472..480);
    assert!(all > 500, "the banner is drawn: {all} light pixels");
    assert_eq!(edges, 0, "no text reaches the window's edges");
}
