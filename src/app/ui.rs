//! What the window writes over the game: the HUD where the game places it (`hud.rs`), the
//! on-screen controls once a touch has been seen (`touch.rs`), the help line, the banner
//! (pause, game over, fault with the scripts' last lines), the entity inspector (F6,
//! `inspector.rs`), the script console (F4) and the debug overlay (F3; its second page the
//! profiler), with the dark panels behind the last three.

use crate::app::fit::{Fitted, cut, wrap};
use crate::app::hud::{Picture, Placed};
use crate::app::text::{self, Atlas, Face};
use crate::runtime::Runner;
use ludus_core::{Color, Mode};

/// A piece of UI text in screen pixels.
pub struct Label {
    pub text: String,
    pub x: f32,
    pub y: f32,
    pub color: Color,
    /// The face it is drawn with (an index into [`Atlas::faces`]).
    pub face: usize,
    /// Glyph scale relative to the face.
    pub scale: f32,
}

/// A filled rectangle: x, y, width, height, colour.
pub type Panel = (f32, f32, f32, f32, Color);

/// A filled circle: centre x, centre y, radius, colour.
pub type Disc = (f32, f32, f32, Color);

/// Everything the UI draws this frame.
#[derive(Default)]
pub struct Ui {
    pub labels: Vec<Label>,
    pub panels: Vec<Panel>,
    /// Drawn over the panels, under the pictures and text (the on-screen controls).
    pub discs: Vec<Disc>,
    /// The HUD's pictures, drawn over the panels and under the text.
    pub pictures: Vec<Picture>,
    /// How much to darken the game (under a banner).
    pub dim: f32,
}

/// Lines of the script console.
const CONSOLE_LINES: usize = 12;
/// Script lines shown under a fault.
const FAULT_LINES: usize = 5;

/// The window's size and pixel ratio, and what the overlay reports of the renderer.
pub struct Screen {
    pub w: f32,
    pub h: f32,
    pub dpi: f32,
    pub draw_calls: usize,
    pub audio: bool,
}

fn label(text: String, x: f32, y: f32, color: Color) -> Label {
    Label {
        text,
        x,
        y,
        color,
        face: text::BODY,
        scale: 1.0,
    }
}

/// Lays out the frame's UI; `live`: with the parts of the developer's view that change with
/// wall-clock time or the developer's toggles (a reload's error, the console, the overlay),
/// which a frame shown for a tick (a playback's stop tick) leaves out.
pub fn layout(runner: &Runner, atlas: &Atlas, screen: &Screen, live: bool) -> Ui {
    let (w, h) = (screen.w, screen.h);
    let body = atlas.body();
    let line = body.line_height;
    let pad = 10.0 * screen.dpi;
    let mut ui = Ui::default();
    // The help line, wrapped to the window's width, at the bottom (where it is shown).
    let help_top = match runner.help_line() {
        Some(help) => help_line(&help, body, screen, &mut ui),
        None => h - pad / 2.0,
    };
    hud(runner, atlas, screen, help_top, &mut ui);
    let controls = crate::app::touch::controls(runner.play(), atlas, (w, h, screen.dpi));
    ui.discs.extend(controls.discs);
    for (text, x, y, scale, color) in controls.labels {
        ui.labels.push(Label {
            scale,
            ..label(text, x, y, color)
        });
    }
    if live {
        // Over the HUD, under the rest.
        inspector(runner, atlas, screen, help_top, &mut ui);
    }
    if let Some(err) = runner.ui().reload_error().filter(|_| live) {
        for (i, l) in err.lines().take(6).enumerate() {
            ui.labels.push(label(
                l.to_string(),
                pad,
                h * 0.6 + i as f32 * line,
                Color::rgb(255, 120, 120),
            ));
        }
    }
    banner(runner, atlas, screen, &mut ui);
    if runner.ui().console() && live {
        let lines = runner.ui().recent_log(CONSOLE_LINES);
        let top = h - pad - line * (CONSOLE_LINES as f32 + 2.5);
        ui.panels.push((
            pad / 2.0,
            top - pad / 2.0,
            w - pad,
            line * (CONSOLE_LINES as f32 + 1.0) + pad,
            Color::rgba(0, 0, 0, 190),
        ));
        let head = if lines.is_empty() {
            "script output (F4 to close): nothing printed yet".to_string()
        } else {
            "script output (F4 to close)".to_string()
        };
        ui.labels
            .push(label(head, pad, top, Color::rgb(150, 200, 255)));
        for (i, l) in lines.iter().enumerate() {
            ui.labels.push(label(
                cut(body, l, w - 2.0 * pad),
                pad,
                top + (i + 1) as f32 * line,
                Color::rgb(220, 220, 230),
            ));
        }
    }
    if runner.ui().profiler() && live {
        profiler_page(runner, body, screen, &mut ui);
    } else if runner.ui().overlay() && live {
        overlay(runner, body, screen, &mut ui);
    }
    ui
}

/// The help line's lines at the bottom, over a dark band; returns the top of its first line.
fn help_line(help: &str, body: &Face, screen: &Screen, ui: &mut Ui) -> f32 {
    let (w, h) = (screen.w, screen.h);
    let (line, pad) = (body.line_height, 10.0 * screen.dpi);
    let help = wrap(body, help, w - 2.0 * pad);
    let help_top = h - pad - line * help.len() as f32;
    // A dark band, so the help reads over any background.
    ui.panels.push((
        0.0,
        help_top - pad / 2.0,
        w,
        h - help_top + pad / 2.0,
        Color::rgba(0, 0, 0, 110),
    ));
    for (i, l) in help.into_iter().enumerate() {
        ui.labels.push(label(
            l,
            pad,
            help_top + i as f32 * line,
            Color::rgba(200, 200, 210, 200),
        ));
    }
    help_top
}

/// The debug overlay (F3) at the top right: at most 70 columns wide, its figures wrapped and
/// shrunk to fit a narrower window.
fn overlay(runner: &Runner, body: &Face, screen: &Screen, ui: &mut Ui) {
    let pad = 10.0 * screen.dpi;
    let width = (70.0 * body.glyph('M').advance).min(screen.w - 2.0 * pad);
    let x = (screen.w - width - pad).max(pad);
    let mut figures = runner.overlay_lines();
    figures.push(format!(
        "draw calls {}  audio {}",
        screen.draw_calls,
        if screen.audio { "on" } else { "off" }
    ));
    let lines: Vec<Fitted> = figures
        .iter()
        .map(|l| Fitted::new(body, l, width, 2))
        .collect();
    let height: f32 = lines
        .iter()
        .map(|f| f.lines.len() as f32 * body.line_height * f.scale)
        .sum();
    ui.panels.push((
        x - pad / 2.0,
        pad / 2.0,
        width + pad,
        height + pad,
        Color::rgba(0, 0, 0, 170),
    ));
    let mut y = pad;
    for fitted in lines {
        for l in fitted.lines {
            ui.labels.push(Label {
                scale: fitted.scale,
                ..label(l, x, y, Color::rgb(170, 255, 170))
            });
            y += body.line_height * fitted.scale;
        }
    }
}

/// The overlay's second page (F3 again): the profiler's items, each with its mean per tick
/// and a bar for its share of the ticks' time (see `runtime/runner/profiler.rs`).
/// At the top right, at most 78 columns wide.
fn profiler_page(runner: &Runner, body: &Face, screen: &Screen, ui: &mut Ui) {
    let rows = runner.profiler_rows();
    let pad = 10.0 * screen.dpi;
    let width = (78.0 * body.glyph('M').advance).min(screen.w - 2.0 * pad);
    let x = (screen.w - width - pad).max(pad);
    let line = body.line_height;
    ui.panels.push((
        x - pad / 2.0,
        pad / 2.0,
        width + pad,
        rows.len() as f32 * line + pad,
        Color::rgba(0, 0, 0, 185),
    ));
    for (i, row) in rows.iter().enumerate() {
        let y = pad + i as f32 * line;
        if row.share > 0.0 {
            // The bar under the text: the item's share of the whole width.
            ui.panels.push((
                x,
                y + line * 0.15,
                (width * row.share).max(1.0),
                line * 0.7,
                Color::rgba(80, 160, 255, 110),
            ));
        }
        let color = if i < 2 {
            Color::rgb(150, 200, 255)
        } else {
            Color::rgb(170, 255, 170)
        };
        ui.labels.push(Label {
            text: cut(body, &row.text, width),
            x,
            y,
            color,
            face: text::BODY,
            scale: 1.0,
        });
    }
}

/// The game's HUD (see `hud.rs`), bottom blocks above `floor`.
fn hud(runner: &Runner, atlas: &Atlas, screen: &Screen, floor: f32, ui: &mut Ui) {
    let window = (screen.w, screen.h, screen.dpi);
    add(crate::app::hud::hud(runner, atlas, window, floor), ui);
}

/// The entity inspector (F6, see `inspector.rs`) over what `ui` holds so far, hiding the
/// text and pictures under its panels.
fn inspector(runner: &Runner, atlas: &Atlas, screen: &Screen, floor: f32, ui: &mut Ui) {
    let window = (screen.w, screen.h, screen.dpi);
    let Some(shown) = crate::app::inspector::inspector(runner, atlas, window, floor) else {
        return;
    };
    let covered = |x: f32, y: f32, w: f32, h: f32| {
        shown
            .covers
            .iter()
            .any(|c| x < c.0 + c.2 && c.0 < x + w && y < c.1 + c.3 && c.1 < y + h)
    };
    ui.labels.retain(|l| {
        let face = &atlas.faces[l.face.min(atlas.faces.len() - 1)];
        let (w, h) = (face.width(&l.text) * l.scale, face.line_height * l.scale);
        !covered(l.x, l.y, w, h)
    });
    ui.pictures.retain(|p| !covered(p.x, p.y, p.w, p.h));
    add(shown.placed, ui);
}

/// Adds what the HUD or the inspector places.
fn add(placed: Vec<Placed>, ui: &mut Ui) {
    for placed in placed {
        match placed {
            Placed::Text {
                text,
                x,
                y,
                color,
                face,
                scale,
            } => ui.labels.push(Label {
                text,
                x,
                y,
                color,
                face,
                scale,
            }),
            Placed::Picture(p) => ui.pictures.push(p),
            Placed::Rect(x, y, w, h, c) => ui.panels.push((x, y, w, h, c)),
        }
    }
}

/// The centred banner (pause, game over, fault), and under a fault the scripts' last lines.
/// The title is wrapped and shrunk to the window's width (at most three lines), each line
/// under it too (at most two lines each).
fn banner(runner: &Runner, atlas: &Atlas, screen: &Screen, ui: &mut Ui) {
    let Some((head, lines)) = runner.banner() else {
        return;
    };
    let (w, h) = (screen.w, screen.h);
    let (body, title) = (atlas.body(), atlas.title());
    let pad = 10.0 * screen.dpi;
    let room = w - 4.0 * pad;
    let faulted = runner.play().session().mode() == Mode::Faulted;
    ui.dim = if faulted { 0.6 } else { 0.35 };
    let color = if faulted {
        Color::rgb(255, 110, 110)
    } else {
        Color::WHITE
    };
    let mut y = h * 0.32;
    let centred = |ui: &mut Ui, y: &mut f32, face: &Face, index: usize, fitted: Fitted, color| {
        for l in fitted.lines {
            let x = (w - face.width(&l) * fitted.scale) / 2.0;
            ui.labels.push(Label {
                face: index,
                scale: fitted.scale,
                ..label(l, x, *y, color)
            });
            *y += face.line_height * fitted.scale;
        }
    };
    centred(
        ui,
        &mut y,
        title,
        text::TITLE,
        Fitted::new(title, &head, room, 3),
        color,
    );
    for l in &lines {
        centred(
            ui,
            &mut y,
            body,
            text::BODY,
            Fitted::new(body, l, room, 2),
            Color::WHITE,
        );
        y += body.line_height * 0.2;
    }
    if faulted {
        let recent = runner.ui().recent_log(FAULT_LINES);
        if !recent.is_empty() {
            y += body.line_height;
            ui.labels.push(label(
                "the scripts' last lines:".into(),
                pad * 2.0,
                y,
                Color::rgb(150, 200, 255),
            ));
            for l in recent {
                y += body.line_height;
                ui.labels.push(label(
                    cut(body, &l, w - 4.0 * pad),
                    pad * 2.0,
                    y,
                    Color::rgb(220, 220, 230),
                ));
            }
        }
    }
}
