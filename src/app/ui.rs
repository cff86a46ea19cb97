//! What the window writes over the game: the HUD where the game places it (`hud.rs`), the help line,
//! the banner (pause, game over, fault with the scripts' last lines), the script console (F4)
//! and the debug overlay (F3), with the dark panels behind the last two.

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

/// Everything the UI draws this frame.
pub struct Ui {
    pub labels: Vec<Label>,
    pub panels: Vec<Panel>,
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

/// Lays out the frame's UI.
pub fn layout(runner: &Runner, atlas: &Atlas, screen: &Screen) -> Ui {
    let (w, h) = (screen.w, screen.h);
    let body = atlas.body();
    let line = body.line_height;
    let pad = 10.0 * screen.dpi;
    let mut ui = Ui {
        labels: Vec::new(),
        panels: Vec::new(),
        pictures: Vec::new(),
        dim: 0.0,
    };
    // The help line, wrapped to the window's width, at the bottom.
    let help = wrap(body, &runner.help_line(), w - 2.0 * pad);
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
    hud(runner, atlas, screen, help_top, &mut ui);
    if let Some(err) = runner.ui().reload_error() {
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
    if runner.ui().console() {
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
                fit(body, l, w - 2.0 * pad),
                pad,
                top + (i + 1) as f32 * line,
                Color::rgb(220, 220, 230),
            ));
        }
    }
    if runner.ui().overlay() {
        let width = 70.0 * body.glyph('M').advance;
        let x = (w - width - pad).max(pad);
        let mut lines = runner.overlay_lines();
        lines.push(format!(
            "draw calls {}  audio {}",
            screen.draw_calls,
            if screen.audio { "on" } else { "off" }
        ));
        ui.panels.push((
            x - pad / 2.0,
            pad / 2.0,
            width + pad,
            lines.len() as f32 * line + pad,
            Color::rgba(0, 0, 0, 170),
        ));
        for (i, l) in lines.into_iter().enumerate() {
            ui.labels.push(label(
                l,
                x,
                pad + i as f32 * line,
                Color::rgb(170, 255, 170),
            ));
        }
    }
    ui
}

/// The game's HUD (see `hud.rs`), bottom blocks above `floor`.
fn hud(runner: &Runner, atlas: &Atlas, screen: &Screen, floor: f32, ui: &mut Ui) {
    let window = (screen.w, screen.h, screen.dpi);
    for placed in crate::app::hud::hud(runner, atlas, window, floor) {
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
fn banner(runner: &Runner, atlas: &Atlas, screen: &Screen, ui: &mut Ui) {
    let Some((head, lines)) = runner.banner() else {
        return;
    };
    let (w, h) = (screen.w, screen.h);
    let (body, title) = (atlas.body(), atlas.title());
    let pad = 10.0 * screen.dpi;
    let faulted = runner.play().session().mode() == Mode::Faulted;
    ui.dim = if faulted { 0.6 } else { 0.35 };
    let y0 = h * 0.32;
    let color = if faulted {
        Color::rgb(255, 110, 110)
    } else {
        Color::WHITE
    };
    ui.labels.push(Label {
        face: text::TITLE,
        ..label(head.clone(), (w - title.width(&head)) / 2.0, y0, color)
    });
    let mut y = y0 + title.line_height;
    for l in &lines {
        ui.labels.push(label(
            l.clone(),
            (w - body.width(l)).max(pad * 2.0) / 2.0,
            y,
            Color::WHITE,
        ));
        y += body.line_height * 1.2;
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
                    fit(body, &l, w - 4.0 * pad),
                    pad * 2.0,
                    y,
                    Color::rgb(220, 220, 230),
                ));
            }
        }
    }
}

/// The parts of `text` (separated by two spaces) packed into lines of at most `width` pixels.
fn wrap(face: &Face, text: &str, width: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for part in text.split("  ") {
        match lines.last_mut() {
            Some(l) if face.width(l) + face.width("  ") + face.width(part) <= width => {
                l.push_str("  ");
                l.push_str(part);
            }
            _ => lines.push(part.to_string()),
        }
    }
    lines
}

/// `text` cut to fit `width` pixels, with an ellipsis when cut.
fn fit(face: &Face, text: &str, width: f32) -> String {
    if face.width(text) <= width {
        return text.to_string();
    }
    let room = width - face.width("...");
    let mut out = String::new();
    let mut used = 0.0;
    for c in text.chars() {
        let a = face.glyph(c).advance;
        if used + a > room {
            break;
        }
        used += a;
        out.push(c);
    }
    out.push_str("...");
    out
}
