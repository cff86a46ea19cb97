//! `hud`: what a game draws over itself: lines of text, pictures, rows of icons and bars.
//!
//! Images and frames are checked here, against `[images]`. The names a HUD reads (`{NAME}` in
//! a text, `icons`, `bar`, `max`) may be variables that scripts set, which content cannot see:
//! those that are not `score`, `tick`, `entities`, a `[variables]` key or a `[constants]` key
//! are kept as [`HudName`]s, each with its diagnostic, for `ludus check` to report when no
//! script sets them either.

use crate::diagnostic::Diagnostic;
use crate::fonts::Fonts;
use crate::images::Images;
use crate::report::{Loc, Report};
use crate::table::{NumberOr, Table, TextOr};
use crate::value::Named;
use ludus_core::{
    Anchor, AssetId, GameDef, HUD_BUILTINS, HudBar, HudIcons, HudImage, HudItem, HudLine,
    HudNumber, Vec2, hud_names,
};
use toml::de::DeValue;

/// A name a HUD text or item reads that the game's content does not declare (see the module
/// documentation): a script may set it. `problem` is the error at the name, without help.
#[derive(Clone, Debug, PartialEq)]
pub struct HudName {
    pub name: String,
    pub problem: Diagnostic,
}

/// The HUD read so far: its items, and the names it reads that the content does not declare.
pub(crate) struct Hud<'a> {
    def: &'a GameDef,
    pub items: Vec<HudItem>,
    pub names: Vec<HudName>,
}

/// Reads `hud` of game.toml; `def` holds the variables and constants already read.
pub(crate) fn read<'a>(
    r: &mut Report,
    game: &Table<'_, '_>,
    fonts: &Fonts,
    images: &Images,
    def: &'a GameDef,
) -> Hud<'a> {
    let mut hud = Hud {
        def,
        items: Vec::new(),
        names: Vec::new(),
    };
    for entry in game.texts_or_tables(r, "hud") {
        let item = match entry {
            TextOr::Text(text, loc) => {
                hud.text_names(r, &text, loc);
                Some(HudItem::Text(HudLine::plain(text)))
            }
            // The kinds in the order the schema's list picks them (a row of icons has an
            // `image` too).
            TextOr::Table(t) if t.has("text") => hud.line(r, &t, fonts).map(HudItem::Text),
            TextOr::Table(t) if t.has("icons") => hud.icons(r, &t, images).map(HudItem::Icons),
            TextOr::Table(t) if t.has("bar") => hud.bar(r, &t).map(HudItem::Bar),
            TextOr::Table(t) => image(r, &t, images).map(HudItem::Image),
        };
        hud.items.extend(item);
    }
    hud
}

impl Hud<'_> {
    /// `{ text, at, size, color, font }`.
    fn line(&mut self, r: &mut Report, t: &Table<'_, '_>, fonts: &Fonts) -> Option<HudLine> {
        let text = t.text(r, "text")?;
        if let Some(loc) = t.loc_of("text") {
            self.text_names(r, &text, loc);
        }
        let mut line = HudLine::plain(text);
        line.at = at(r, t);
        if let Some(size) = t.f32(r, "size") {
            line.size = size;
        }
        if let Some(color) = t.color(r, "color") {
            line.color = color;
        }
        line.font = fonts.key(r, t);
        Some(line)
    }

    /// `{ icons, image, frame, empty_frame, max, at, size }`.
    fn icons(&mut self, r: &mut Report, t: &Table<'_, '_>, images: &Images) -> Option<HudIcons> {
        let value = self.name(r, t, "icons");
        let max = self.number(r, t, "max");
        if let Some(HudNumber::Fixed(n)) = max
            && n.fract() != 0.0
        {
            let loc = t.loc_of("max").unwrap_or(t.loc);
            r.error(
                loc,
                format!(
                    "`{}` of a row of icons is a whole number, found {n}",
                    t.what("max")
                ),
            )
            .help("e.g. `max = 3`");
        }
        let (id, frame, size) = picture(r, t, images)?;
        let empty_frame = t.int(r, "empty_frame").and_then(|f| {
            let loc = t.loc_of("empty_frame").unwrap_or(t.loc);
            images.check_frame(r, id, f, loc, "`empty_frame`");
            u16::try_from(f).ok()
        });
        Some(HudIcons {
            value: value?,
            max: max.filter(|m| !matches!(m, HudNumber::Fixed(n) if n.fract() != 0.0))?,
            image: id,
            frame,
            empty_frame,
            size,
            at: at(r, t),
        })
    }

    /// `{ bar, max, at, size, color, back }`.
    fn bar(&mut self, r: &mut Report, t: &Table<'_, '_>) -> Option<HudBar> {
        let value = self.name(r, t, "bar");
        let max = self.number(r, t, "max");
        let size = t.pair(r, "size").unwrap_or(HudBar::SIZE);
        let color = t.color(r, "color").unwrap_or(HudBar::COLOR);
        let back = t.color(r, "back").unwrap_or(HudBar::BACK);
        Some(HudBar {
            value: value?,
            max: max?,
            size,
            color,
            back,
            at: at(r, t),
        })
    }

    /// The name `key` holds, kept when the content does not declare it.
    fn name(&mut self, r: &mut Report, t: &Table<'_, '_>, key: &str) -> Option<String> {
        let named = t.name(r, key, "variable")?;
        self.read_name(
            r,
            &named,
            &format!("unknown variable `{}` in `{}`", named.name, t.what(key)),
        );
        Some(named.name)
    }

    /// `max`: a number, or a name kept when the content does not declare it.
    fn number(&mut self, r: &mut Report, t: &Table<'_, '_>, key: &str) -> Option<HudNumber> {
        Some(match t.number_or_name(r, key)? {
            NumberOr::Number(n) => HudNumber::Fixed(n),
            NumberOr::Name(named) => {
                self.read_name(
                    r,
                    &named,
                    &format!("unknown variable `{}` in `{}`", named.name, t.what(key)),
                );
                HudNumber::Named(named.name)
            }
        })
    }

    /// Each `{NAME}` of a text written at `loc` (at the name itself when the string is written
    /// without escapes, else at the whole string).
    fn text_names(&mut self, r: &mut Report, text: &str, loc: Loc) {
        let plain = r
            .source(loc)
            .and_then(|raw| raw.get(1..raw.len().saturating_sub(1)))
            .is_some_and(|inside| inside == text);
        for (braces, name) in hud_names(text) {
            let at = if plain {
                Loc {
                    file: loc.file,
                    start: loc.start + 1 + braces.start,
                    end: loc.start + 1 + braces.end,
                }
            } else {
                loc
            };
            let named = Named {
                name: name.to_string(),
                loc: at,
            };
            self.read_name(r, &named, &format!("unknown `{{{name}}}` in a HUD text"));
        }
    }

    /// Keeps `named` with the error `message` when it is not a name the content declares.
    fn read_name(&mut self, r: &Report, named: &Named, message: &str) {
        let def = self.def;
        let name = named.name.as_str();
        if HUD_BUILTINS.contains(&name)
            || def.variables.contains_key(name)
            || def.constants.contains_key(name)
        {
            return;
        }
        self.names.push(HudName {
            name: name.to_string(),
            problem: r.diagnostic(named.loc, message),
        });
    }
}

/// `at`, or the default place.
fn at(r: &mut Report, t: &Table<'_, '_>) -> Anchor {
    t.choice(r, "at")
        .and_then(Anchor::from_name)
        .unwrap_or(HudLine::AT)
}

/// `{ image, frame, at, size }`.
fn image(r: &mut Report, t: &Table<'_, '_>, images: &Images) -> Option<HudImage> {
    let (image, frame, size) = picture(r, t, images)?;
    Some(HudImage {
        image,
        frame,
        size,
        at: at(r, t),
    })
}

/// The image, frame and size of a picture or icon: `image`, `frame` and `size` (a number is
/// the height, the width keeping the frame's shape; absent, the frame's own size).
fn picture(r: &mut Report, t: &Table<'_, '_>, images: &Images) -> Option<(AssetId, u16, Vec2)> {
    let named = t.name(r, "image", "image")?;
    let id = images.by_name(r, &named)?;
    let def = images.get(id)?;
    let frame = t.int(r, "frame").unwrap_or(i64::from(HudIcons::FRAME));
    let loc = t.loc_of("frame").unwrap_or(t.loc);
    images.check_frame(r, id, frame, loc, "`frame`");
    let (fw, fh) = (def.frame.0 as f32, def.frame.1 as f32);
    let written = t.size(r, "size");
    let number = t
        .get("size")
        .is_some_and(|v| matches!(v.get_ref(), DeValue::Integer(_) | DeValue::Float(_)));
    let size = match written {
        Some(s) if number => Vec2::new(s.y * fw / fh.max(1.0), s.y),
        Some(s) => s,
        None => Vec2::new(fw, fh),
    };
    Some((id, u16::try_from(frame).ok()?, size))
}
