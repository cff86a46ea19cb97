//! The real app in a real window under Xvfb: it renders the example with recorded input,
//! reads its own frame back, and quits on its own. Needs `xvfb-run`: .ci/run installs it and
//! sets `LUDUS_REQUIRE_WINDOW_TESTS=1`, which makes its absence a failure; elsewhere the window
//! test says it was skipped.

mod support;

use std::path::Path;
use support::{count, ludus, xvfb, xvfb_available};

#[test]
fn the_app_renders_the_example_under_xvfb_and_quits_on_its_own() {
    if !xvfb_available() {
        return;
    }
    let dir = support::scratch("window", "swarm");
    let shot = dir.join("shot.png");
    // Tick-exact input (`--input`, `--screenshot-at`): the frame shows the world exactly at
    // tick 100 however fast the frames come (a scripted run's screenshot fell wherever the
    // frames had got to, sometimes on a frame the hurt player blinked out).
    let input = dir.join("input.jsonl");
    std::fs::write(
        &input,
        "{\"tick\":5,\"press\":[\"fire\"],\"axis\":{\"move_x\":1}}\n\
         {\"tick\":60,\"axis\":{\"move_x\":0,\"move_y\":-1}}\n",
    )
    .unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/swarm");
    let o = xvfb("1280x800", &dir)
        .arg(env!("CARGO_BIN_EXE_ludus"))
        .arg("run")
        .arg(&example)
        .args(["--entities", "400", "--no-watch", "--screenshot-at", "100"])
        .arg("--input")
        .arg(&input)
        .arg("--screenshot")
        .arg(&shot)
        .env("LUDUS_NO_AUDIO", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "the app exits cleanly: {err}");
    let bytes = std::fs::read(&shot).expect("the app wrote its frame");
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut px = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut px).unwrap();
    assert_eq!((info.width, info.height), (1280, 800));
    let px = &px[..info.buffer_size()];
    let total = px.len() / 4;
    // The floor tiles (and the background beyond the arena's edge).
    let background = count(px, [0x15, 0x1a, 0x28], 4) + count(px, [0x10, 0x13, 0x1c], 2);
    // The sprite sheets' colours (examples/swarm/art/make_art.py): the ship's body, the
    // drones' diamonds, the pillars' lit and shaded halves.
    let player = count(px, [0x4c, 0xc9, 0xf0], 24);
    let drones = count(px, [0xf4, 0xa2, 0x61], 12);
    let pillars = count(px, [0x31, 0x37, 0x4e], 3) + count(px, [0x26, 0x2b, 0x3d], 3);
    let text = count(px, [225, 225, 230], 45);
    assert!(
        background > total / 3,
        "mostly arena floor: {background}/{total}"
    );
    assert!(player > 80, "the player is visible: {player} pixels");
    assert!(drones > 400, "enemies are visible: {drones} pixels");
    assert!(pillars > 2000, "pillars are visible: {pillars} pixels");
    assert!(text > 100, "the HUD is drawn: {text} pixels");
}

#[test]
fn without_a_display_run_says_so_and_points_to_sim() {
    let o = ludus()
        .arg("run")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(err.contains("ludus sim"), "{err}");
    assert!(!err.contains("panicked"));
}

/// The entity inspector on a selected entity: a script line selects the dungeon's hero (at
/// (112, 208), the window showing the level at 1:1), pauses and steps; the last frame has the
/// frame around the hero, the entity's panel on the other side (the hero is at the left) and
/// the panels' titles.
#[test]
fn the_inspector_frames_the_selected_entity_and_shows_its_panel() {
    if !xvfb_available() {
        return;
    }
    let dir = support::scratch("dungeon", "inspector");
    let mut script = ["{}"; 12];
    script[2] = r#"{"inspect":[112,208]}"#;
    script[3] = r#"{"signal":"pause"}"#;
    script[6] = r#"{"signal":"step"}"#;
    let ludus = Path::new(env!("CARGO_BIN_EXE_ludus"));
    let game = support::example("dungeon");
    let shot = support::sized_frame(ludus, Some(&game), &dir, &(script.join("\n") + "\n"), None);
    assert_eq!((shot.width, shot.height), (800, 480));
    // Pixels in a region (x0, y0, x1, y1) that `keep` says yes to.
    let within = |(x0, y0, x1, y1): (usize, usize, usize, usize), keep: &dyn Fn(&[u8]) -> bool| {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (y * 800 + x) * 4))
            .filter(|&i| keep(&shot.px[i..i + 3]))
            .count()
    };
    let mark = |p: &[u8]| {
        [255u8, 214, 102]
            .iter()
            .zip(p)
            .all(|(c, v)| c.abs_diff(*v) <= 30)
    };
    let frame = within((88, 184, 137, 233), &mark);
    let titles = within((0, 0, 800, 480), &mark) - frame;
    let dark = within((560, 40, 790, 140), &|p: &[u8]| p.iter().all(|v| *v < 20));
    assert!(frame > 120, "the frame around the hero: {frame} pixels");
    assert!(titles > 100, "the panels' titles: {titles} pixels");
    assert!(
        dark > 230 * 100 / 2,
        "the entity's panel at the right: {dark} dark pixels"
    );
}
