//! Text fitted to a width: the help line's parts packed into lines ([`wrap`]), a line cut with
//! an ellipsis ([`cut`]), and text wrapped at spaces, then shrunk until every line fits
//! ([`Fitted`]: the banners and the debug overlay, in any window from 64 pixels wide).

use crate::app::text::Face;

/// The smallest scale text is shrunk to; a word still wider is cut (with an ellipsis).
const MIN_SCALE: f32 = 0.25;

/// Text laid out in a width: its lines and the scale of the face they are drawn at.
///
/// Invariant: every line, drawn at `scale`, is at most the width it was fitted to (a word
/// too long even at [`MIN_SCALE`] is cut with an ellipsis), and `lines` is never empty.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub lines: Vec<String>,
    pub scale: f32,
}

impl Fitted {
    /// `text` wrapped at spaces into lines of at most `width` pixels, the face shrunk (never
    /// grown) until it takes at most `max_lines` lines and its longest word fits.
    pub fn new(face: &Face, text: &str, width: f32, max_lines: usize) -> Fitted {
        let width = width.max(1.0);
        let mut scale = 1.0f32;
        loop {
            let lines = words(face, text, width / scale);
            let widest = lines.iter().map(|l| face.width(l)).fold(0.0, f32::max) * scale;
            let fits = widest <= width && lines.len() <= max_lines.max(1);
            if fits || scale <= MIN_SCALE {
                let scale = if widest > width {
                    (scale * width / widest).max(MIN_SCALE)
                } else {
                    scale
                };
                let room = width / scale;
                let lines = lines.iter().map(|l| cut(face, l, room)).collect();
                return Fitted { lines, scale };
            }
            // Shrink just enough for the widest word, or a step for too many lines.
            let next = if widest > width {
                scale * width / widest
            } else {
                scale * 0.85
            };
            scale = next.clamp(MIN_SCALE, scale * 0.99);
        }
    }
}

/// `text` broken at spaces into lines of at most `width` pixels (a word wider than `width`
/// has a line of its own); spaces at a break go.
fn words(face: &Face, text: &str, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        for word in paragraph.split(' ') {
            if line.trim().is_empty() {
                line = if line.is_empty() {
                    word.to_string()
                } else {
                    format!("{line} {word}")
                };
                continue;
            }
            let candidate = format!("{line} {word}");
            if face.width(candidate.trim_end()) <= width {
                line = candidate;
            } else {
                lines.push(line.trim_end().to_string());
                line = word.to_string();
            }
        }
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// The parts of `text` (separated by two spaces) packed into lines of at most `width` pixels.
pub fn wrap(face: &Face, text: &str, width: f32) -> Vec<String> {
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
pub fn cut(face: &Face, text: &str, width: f32) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::text::Atlas;

    /// (text, width, most lines) -> (lines, whether it shrank): every line fits, and only the
    /// spaces at the breaks are lost.
    #[test]
    fn text_wraps_at_spaces_then_shrinks_to_fit() {
        let atlas = Atlas::new(1.0);
        let title = atlas.title();
        let long = "Supercalifragilisticexpialidocious".repeat(2);
        let cases: [(&str, f32, usize, &[&str], bool); 5] = [
            (
                "YOU HIT THE WALL   score 0",
                624.0,
                3,
                &["YOU HIT THE WALL   score", "0"],
                false,
            ),
            (
                "YOU HIT THE WALL   score 0",
                300.0,
                3,
                &["YOU HIT THE", "WALL   score", "0"],
                false,
            ),
            (
                "You hit the wall   score 0 and so on and so forth for a while",
                200.0,
                3,
                &[
                    "You hit the wall",
                    "score 0 and so on and",
                    "so forth for a while",
                ],
                true,
            ),
            (&long, 440.0, 3, &[long.as_str()], true),
            ("a\nb", 440.0, 3, &["a", "b"], false),
        ];
        for (text, width, most, lines, shrank) in cases {
            let f = Fitted::new(title, text, width, most);
            assert_eq!(f.lines, lines, "{text:?} in {width}: {f:?}");
            assert_eq!(f.scale < 1.0, shrank, "{text:?} in {width}: {f:?}");
            for l in &f.lines {
                assert!(
                    title.width(l) * f.scale <= width,
                    "{l:?} fits {width}: {f:?}"
                );
            }
        }
    }
}
