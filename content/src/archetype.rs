//! `[archetypes.NAME]`: kinds of entity and their components.
//!
//! Defaults come from the schema; a value that fails its check has been reported, so what
//! stands in for it here never reaches a `GameDef`.

use crate::actions::Actions;
use crate::files::Files;
use crate::fonts::Fonts;
use crate::images::Images;
use crate::report::{Loc, Report};
use crate::symbols::Symbols;
use crate::table::{ChoiceOrTable, Table};
use ludus_core::{
    AnimationDef, ArchetypeDef, AssetId, AttachDef, BehaviourDef, BehaviourKind, BehaviourProblem,
    BehaviourSpec, BodyKind, BoundsPolicy, ColliderDef, ContactDamageDef, CooldownDef, HealthDef,
    Idle, LabelDef, MotionDef, RotateMode, RotationDef, Shape, SpriteDef, SpriteShape, Vec2,
};

/// Cooldown slots are `u8`.
const MAX_COOLDOWNS: usize = 256;
/// Animation slots are `u8`.
const MAX_ANIMATIONS: usize = 256;

/// What archetypes may refer to, declared in game.toml.
pub(crate) struct Scope<'a> {
    pub tags: &'a Symbols,
    pub layers: &'a Symbols,
    pub actions: &'a Actions,
    pub fonts: &'a Fonts,
}

/// Reads one archetype. `name` has been checked.
pub(crate) fn read(
    r: &mut Report,
    t: &Table<'_, '_>,
    name: &str,
    scope: &Scope<'_>,
    files: &mut Files<'_>,
    images: &mut Images,
) -> ArchetypeDef {
    let mut a = ArchetypeDef {
        name: name.to_string(),
        ..ArchetypeDef::default()
    };
    if let Some(tags) = t.names(r, "tags", "tag") {
        a.tags = scope.tags.bits(r, &tags);
    }
    a.speed = t.f32(r, "speed").unwrap_or_default();
    a.velocity = t.pair(r, "velocity").unwrap_or_default();
    a.camera_target = t.bool(r, "camera").unwrap_or_default();
    let rule = |choice| match choice {
        Some("confine") => BoundsPolicy::Confine,
        Some("bounce") => BoundsPolicy::Bounce,
        Some("wrap") => BoundsPolicy::Wrap,
        Some("destroy") => BoundsPolicy::Destroy,
        _ => BoundsPolicy::Ignore,
    };
    (a.bounds, a.bounds_margin) = match t.choice_or_table(r, "bounds") {
        Some(ChoiceOrTable::Table(b)) => {
            (rule(b.choice(r, "rule")), b.f32(r, "margin").unwrap_or(0.0))
        }
        Some(ChoiceOrTable::Choice(c)) => (rule(Some(c)), ArchetypeDef::BOUNDS_MARGIN),
        None => (BoundsPolicy::Ignore, ArchetypeDef::BOUNDS_MARGIN),
    };
    a.offscreen_destroy = t.choice(r, "offscreen") == Some("destroy");
    (a.motion, a.rotation) = (motion(r, t), rotation(r, t));
    a.lifetime = t.u32(r, "lifetime");
    let cooldowns = cooldowns(r, t, &mut a.cooldowns);
    let sprite = t.table(r, "sprite").map(|s| sprite(r, &s, files, images));
    a.animations = animations(r, t, sprite.as_ref(), images);
    if let Some(c) = t.table(r, "collider") {
        let sprite_size = sprite.as_ref().map(|s| s.size);
        a.collider = collider(r, &c, sprite_size, t.has("sprite"), scope);
    }
    a.sprite = sprite;
    if let Some(l) = t.table(r, "label") {
        let text = l.text(r, "text").unwrap_or_default();
        if text.len() > ludus_core::MAX_TEXT_BYTES {
            let loc = l.loc_of("text").unwrap_or(l.loc);
            r.error(
                loc,
                format!("a label holds at most {} bytes", ludus_core::MAX_TEXT_BYTES),
            );
        }
        a.label = Some(LabelDef {
            text,
            size: l.f32(r, "size").unwrap_or(LabelDef::SIZE),
            color: l.color(r, "color").unwrap_or_default(),
            offset: l.pair(r, "offset").unwrap_or_default(),
            font: scope.fonts.key(r, &l),
        });
    }
    if let Some(h) = t.table(r, "health") {
        a.health = Some(HealthDef {
            max: h
                .int(r, "max")
                .and_then(|v| i32::try_from(v).ok())
                .unwrap_or(1),
            invulnerable_ticks: h.u32(r, "invulnerable").unwrap_or_default(),
        });
    }
    if let Some(d) = t.table(r, "contact_damage") {
        a.contact_damage = contact_damage(r, &d, scope, a.collider.is_some());
    }
    if let Some(b) = t.table(r, "behaviour") {
        a.behaviour = behaviour(r, &b, scope);
    }
    if let Some(at) = t.table(r, "attach") {
        a.attach = attach(r, &at, scope);
    }
    if let Some(c) = t.table(r, "control") {
        a.control = Some(crate::control::read(
            r,
            &c,
            scope.actions,
            scope.tags,
            &cooldowns,
        ));
    }
    a
}

/// An archetype's motion settings, where it has any other than the defaults.
fn motion(r: &mut Report, t: &Table<'_, '_>) -> Option<MotionDef> {
    let motion = MotionDef {
        gravity_scale: t.f32(r, "gravity_scale"),
        drag: t.f32(r, "drag").unwrap_or_default(),
        max_speed: t.f32(r, "max_speed"),
    };
    (motion != MotionDef::default()).then_some(motion)
}

/// An archetype's angle, spin and rotation rule, where it sets any of them.
fn rotation(r: &mut Report, t: &Table<'_, '_>) -> Option<RotationDef> {
    let rotation = RotationDef {
        angle: t.f32(r, "angle").unwrap_or_default(),
        spin: t.f32(r, "spin").unwrap_or_default(),
        rotate: match t.choice(r, "rotate") {
            Some("velocity") => RotateMode::Velocity,
            Some("facing") => RotateMode::Facing,
            _ => RotateMode::None,
        },
    };
    let turns = ["angle", "spin", "rotate"].iter().any(|k| t.has(k));
    turns.then_some(rotation)
}

/// An archetype's `cooldowns`, into `out`, and the names they declare (incomplete where one
/// was refused, so a control naming it is not reported as unknown).
fn cooldowns(r: &mut Report, t: &Table<'_, '_>, out: &mut Vec<CooldownDef>) -> Symbols {
    let mut cooldowns = Symbols::new(
        "cooldown",
        format!(
            "declare it in `cooldowns` of `[{}]`, e.g. `cooldowns = {{ shoot = 10 }}`",
            t.path
        ),
    );
    let before = r.count();
    for (cd, ticks) in t.counts(r, "cooldowns", "cooldown") {
        if out.len() == MAX_COOLDOWNS {
            r.error(
                cd.loc,
                format!("an archetype may declare at most {MAX_COOLDOWNS} cooldowns"),
            );
            cooldowns.complete = false;
            break;
        }
        out.push(CooldownDef {
            name: cd.name.clone(),
            ticks: u32::try_from(ticks).unwrap_or_default(),
        });
        cooldowns.declare(r, cd);
    }
    if r.count() > before {
        cooldowns.complete = false;
    }
    cooldowns
}

fn sprite(
    r: &mut Report,
    s: &Table<'_, '_>,
    files: &mut Files<'_>,
    images: &mut Images,
) -> SpriteDef {
    let image = s.path(r, "image");
    let choice = s.choice(r, "shape");
    let shape = match choice.or(s.has("image").then_some("image")) {
        Some("image") => {
            if !s.has("image") {
                let loc = s.loc_of("shape").unwrap_or(s.loc);
                r.error(
                    loc,
                    format!("`{}` is \"image\" but no `image` is given", s.what("shape")),
                )
                .help("name an image from `[images]`, or give the picture's path, e.g. `image = \"images/ship.png\"`");
            }
            let id = image
                .as_ref()
                .and_then(|p| images.sprite_image(r, files, p));
            SpriteShape::Image(id.unwrap_or(AssetId(0)))
        }
        Some("rect") => SpriteShape::Rect,
        _ => SpriteShape::Circle,
    };
    if !matches!(shape, SpriteShape::Image(_))
        && let Some(loc) = s.key_loc("image")
    {
        r.error(
            loc,
            format!(
                "`{}` is only used when `shape = \"image\"`",
                s.what("image")
            ),
        )
        .help("remove `shape`, or remove `image`");
    }
    let frame = s.int(r, "frame").unwrap_or_default();
    match shape {
        SpriteShape::Image(id) if image.is_some() => {
            if let Some(loc) = s.loc_of("frame") {
                images.check_frame(r, id, frame, loc, "frame");
            }
        }
        _ => {
            for key in ["frame", "flip_x", "flip_y"] {
                if let Some(loc) = s.key_loc(key) {
                    r.error(loc, format!("`{}` is only used with an image", s.what(key)))
                        .help("add `image = \"NAME\"`, or remove it");
                }
            }
        }
    }
    // An image named without `shape` (new style) is drawn at its frame's size in pixels.
    let natural = match shape {
        SpriteShape::Image(id) if choice.is_none() && !s.has("size") => images
            .get(id)
            .map(|i| Vec2::new(i.frame.0 as f32, i.frame.1 as f32)),
        _ => None,
    };
    SpriteDef {
        shape,
        size: natural.unwrap_or_else(|| {
            s.size(r, "size")
                .unwrap_or(Vec2::new(SpriteDef::SIZE, SpriteDef::SIZE))
        }),
        color: s.color(r, "color").unwrap_or_default(),
        layer: s
            .int(r, "layer")
            .and_then(|v| i16::try_from(v).ok())
            .unwrap_or_default(),
        depth: s.f32(r, "depth").unwrap_or_default(),
        frame: u16::try_from(frame).unwrap_or_default(),
        flip_x: s.bool(r, "flip_x").unwrap_or_default(),
        flip_y: s.bool(r, "flip_y").unwrap_or_default(),
        alpha: s.f32(r, "alpha").unwrap_or(SpriteDef::ALPHA),
    }
}

/// `[archetypes.NAME.animations.NAME]`: frames of the sprite's image, checked against it.
fn animations(
    r: &mut Report,
    t: &Table<'_, '_>,
    sprite: Option<&SpriteDef>,
    images: &Images,
) -> Vec<AnimationDef> {
    let list = t.named(r, "animations", "animation");
    let image = match sprite.map(|s| s.shape) {
        Some(SpriteShape::Image(id)) => Some(id),
        _ => None,
    };
    let mut out = Vec::with_capacity(list.len());
    for (name, a) in list {
        if out.len() == MAX_ANIMATIONS {
            r.error(
                name.loc,
                format!("an archetype may declare at most {MAX_ANIMATIONS} animations"),
            );
            break;
        }
        let Some(id) = image else {
            r.error(
                name.loc,
                format!("animation `{}` needs a sprite with an image", name.name),
            )
            .help("add `sprite = { image = \"NAME\" }` to the archetype");
            continue;
        };
        let Some(frames) = a.ints(r, "frames") else {
            continue;
        };
        for &(f, loc) in &frames {
            images.check_frame(r, id, f, loc, "frame");
        }
        out.push(AnimationDef {
            name: name.name,
            frames: frames
                .iter()
                .map(|&(f, _)| u16::try_from(f).unwrap_or_default())
                .collect(),
            fps: a.f32(r, "fps").unwrap_or(AnimationDef::FPS),
            looping: a.bool(r, "loop").unwrap_or(AnimationDef::LOOPING),
        });
    }
    out
}

/// `sprite_size` is the sprite's size when the archetype has a readable sprite; `has_sprite`
/// says whether it has a sprite at all (an unreadable one has been reported already).
fn collider(
    r: &mut Report,
    c: &Table<'_, '_>,
    sprite_size: Option<Vec2>,
    has_sprite: bool,
    scope: &Scope<'_>,
) -> Option<ColliderDef> {
    let is_box = c.choice(r, "shape") == Some("box");
    let (wrong, right) = if is_box {
        ("radius", "size")
    } else {
        ("size", "radius")
    };
    if let Some(loc) = c.key_loc(wrong) {
        let shape = if is_box { "box" } else { "circle" };
        r.error(
            loc,
            format!("`{}` does not apply to a {shape} collider", c.what(wrong)),
        )
        .help(format!(
            "a {shape} collider takes `{right}`; set `shape = \"{}\"` to use `{wrong}`",
            if is_box { "circle" } else { "box" }
        ));
    }
    let body = match c.choice(r, "body") {
        Some("kinematic") => BodyKind::Kinematic,
        Some("static") => BodyKind::Static,
        _ => BodyKind::Dynamic,
    };
    // A static collider may have no size: a tile map's solid tiles give it theirs (the game's
    // load reports it where nothing does: see `crate::level::unsized_colliders`).
    let missing = |r: &mut Report| {
        if !c.has(right) && !has_sprite && body != BodyKind::Static {
            let shape = if is_box { "box" } else { "circle" };
            r.error(
                c.loc,
                format!("a {shape} collider needs `{right}` when the archetype has no sprite"),
            )
            .help(if is_box {
                "add e.g. `size = [32, 16]`"
            } else {
                "add e.g. `radius = 8`"
            });
        }
    };
    let shape = if is_box {
        let size = c.size(r, "size").or_else(|| {
            missing(r);
            sprite_size.filter(|_| !c.has("size"))
        });
        Shape::Box {
            half: size.unwrap_or_default() * 0.5,
        }
    } else {
        let radius = c.f32(r, "radius").or_else(|| {
            missing(r);
            sprite_size
                .filter(|_| !c.has("radius"))
                .map(|s| s.x.max(s.y) * 0.5)
        });
        Shape::Circle {
            radius: radius.unwrap_or_default(),
        }
    };
    let layer = c
        .name(r, "layer", "layer")
        .and_then(|l| scope.layers.resolve(r, &l))
        .and_then(|i| u32::try_from(i).ok())
        .and_then(|i| 1u32.checked_shl(i))
        .unwrap_or_default();
    let mut layer_bits = |key: &str| {
        let list = c.names(r, key, "layer").unwrap_or_default();
        u32::try_from(scope.layers.bits(r, &list)).unwrap_or_default()
    };
    let (mask, push) = (layer_bits("mask"), layer_bits("push"));
    Some(ColliderDef {
        trigger: c.bool(r, "trigger").unwrap_or_default(),
        stay: c.bool(r, "stay").unwrap_or_default(),
        body,
        mass: c.f32(r, "mass").unwrap_or(ColliderDef::MASS),
        bounce: c.f32(r, "bounce"),
        friction: c.f32(r, "friction").unwrap_or_default(),
        ..ColliderDef::new(shape, layer, mask, push)
    })
}

/// `contact_damage`: what it hurts by touching, which needs a collider (`collides`).
fn contact_damage(
    r: &mut Report,
    d: &Table<'_, '_>,
    scope: &Scope<'_>,
    collides: bool,
) -> Option<ContactDamageDef> {
    if !collides {
        r.error(
            d.loc,
            format!(
                "`{}` needs a `collider`: an entity hurts only what its collider touches",
                d.path
            ),
        )
        .help("add e.g. `collider = { radius = 8, layer = \"enemy\", mask = [\"player\"] }`");
    }
    let tags = d.names(r, "to", "tag")?;
    if tags.is_empty() {
        let loc = d.loc_of("to").unwrap_or(d.loc);
        r.error(
            loc,
            format!("`{}` names no tag: it would hurt nothing", d.what("to")),
        )
        .help("name the tags of what it hurts, e.g. `to = [\"player\"]`");
    }
    let to = scope.tags.bits(r, &tags);
    let rule = ContactDamageDef {
        amount: d
            .int(r, "amount")
            .and_then(|v| i32::try_from(v).ok())
            .unwrap_or(ContactDamageDef::AMOUNT),
        to,
        once: d.bool(r, "once").unwrap_or(ContactDamageDef::ONCE),
    };
    (collides && to != 0).then_some(rule)
}

/// A behaviour: its keys read, then the rules between them checked as `ludus.set_behaviour`
/// checks them ([`BehaviourSpec`]), each broken rule reported at its key.
fn behaviour(r: &mut Report, b: &Table<'_, '_>, scope: &Scope<'_>) -> Option<BehaviourDef> {
    let kind = BehaviourKind::from_name(b.choice(r, "kind")?)?;
    let targets = b.names(r, "target", "tag");
    let bits = scope.tags.bits(r, targets.as_deref().unwrap_or_default());
    let empty = b
        .get("target")
        .is_some_and(|v| v.get_ref().as_array().is_some_and(|a| a.is_empty()));
    let spec = BehaviourSpec {
        // Written (an empty list is none; tags that did not resolve were reported).
        target: b.has("target").then_some(if empty { 0 } else { u64::MAX }),
        cadence: b.u32(r, "cadence"),
        navigate: b.bool(r, "navigate"),
        // A value that failed its check was reported; the rules see the key as written.
        range: b.f32(r, "range").or(b.has("range").then_some(1.0)),
        idle: b
            .has("idle")
            .then(|| b.choice(r, "idle").and_then(Idle::from_name))
            .map(Option::unwrap_or_default),
        ..BehaviourSpec::new(kind)
    };
    let target = b.what("target");
    for p in spec.problems() {
        // At the key, or at its value where the value is what is wrong.
        let at = match p {
            BehaviourProblem::EmptyTarget | BehaviourProblem::NavigateNotChase => Table::loc_of,
            _ => Table::key_loc,
        };
        let loc = p.key().and_then(|k| at(b, k)).unwrap_or(b.loc);
        r.error(loc, p.message(kind, &target)).help(p.help());
    }
    Some(BehaviourDef {
        target: bits,
        ..spec.def()
    })
}

/// `attach = { to = "tag", offset = [x, y], angle = true }`.
fn attach(r: &mut Report, t: &Table<'_, '_>, scope: &Scope<'_>) -> Option<AttachDef> {
    let to = t.name(r, "to", "tag");
    let offset = t.pair(r, "offset").unwrap_or(AttachDef::OFFSET);
    let angle = t.bool(r, "angle").unwrap_or(AttachDef::ANGLE);
    let to = scope.tags.bits(r, std::slice::from_ref(&to?));
    Some(AttachDef { to, offset, angle })
}

/// Reports archetype `a` placed by `what` (at `loc`): it has no size of its own (see
/// [`ArchetypeDef::sized_by_tiles`]). `help`: what to do instead.
pub(crate) fn sized_by_tiles(r: &mut Report, loc: Loc, a: &ArchetypeDef, what: &str, help: &str) {
    r.error(
        loc,
        format!(
            "{what} places archetype `{}`, which has no size of its own: its static collider has no `size` and it has no sprite (only a tile map's solid tiles give it theirs)",
            a.name
        ),
    )
    .help(format!(
        "{help}give the collider of `[archetypes.{}]` a `size` (or `radius`), or a sprite",
        a.name
    ));
}
