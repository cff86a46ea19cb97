//! The tables of an archetype.

use crate::schema::*;
use ludus_core::{
    AnimationDef, ArchetypeDef, AttachDef, BehaviourDef, BehaviourKind, ColliderDef,
    ContactDamageDef, HealthDef, Idle, LabelDef, MotionDef, PlatformerDef, RotationDef, SpriteDef,
    ThrustDef,
};

#[rustfmt::skip]
pub(crate) static ARCHETYPE_FILE: TableSchema = TableSchema {
    title: "archetype files",
    doc: "A file listed in `archetype_files` holds only `[archetypes.NAME]` tables. An \
          archetype name is declared once across all files.",
    keys: &[key("archetypes", Ty::Named(&ARCHETYPE), Dflt::Empty, "", "Kinds of entity.", "[archetypes.drone]")],
};

#[rustfmt::skip]
pub(crate) static ARCHETYPE: TableSchema = TableSchema {
    title: "[archetypes.NAME]",
    doc: "A kind of entity: its components and their starting values. Every component table is \
          optional.",
    keys: &[
        key("tags", Ty::Names { max: 64 }, Dflt::Empty, "", "Tags from the game's `tags`.", "tags = [\"enemy\"]"),
        key("speed", number(0.0, SPEED_MAX), Dflt::Num(ArchetypeDef::SPEED), "world units/s", "Movement speed for behaviours and player control.", "speed = 180"),
        key("velocity", VELOCITY, pair(ArchetypeDef::VELOCITY), "world units/s", "Initial velocity.", "velocity = [0, -300]"),
        key("camera", Ty::Bool, Dflt::Bool(ArchetypeDef::CAMERA_TARGET), "", "The camera follows the first live entity of an archetype with this set.", "camera = true"),
        key("bounds", Ty::ChoiceOr(&["ignore", "confine", "bounce", "wrap", "destroy"], &BOUNDS), Dflt::Str("ignore"), "", "At the level's bounds: nothing; kept inside (velocity into the wall removed); kept inside bouncing off (velocity reflected, scaled by the collider's `bounce`); wrapped round to the opposite edge; or destroyed once its centre is outside (an `expired` event). A table gives the rule a margin. An entity spawned with its centre outside its bounds follows its rule all the same, and is reported (a warning in the log, `spawned_outside` in `ludus sim`'s summary).", "bounds = \"wrap\""),
        key("offscreen", Ty::Choice(&["ignore", "destroy"]), Dflt::Str("ignore"), "", "`\"destroy\"`: destroyed (an `expired` event with reason `\"offscreen\"`) once it has been in the camera's view and then is out of it by more than its size (its sprite's, else its collider's), so what waits outside the view to come in lives until it has been seen. The camera is the level's, following its target as each tick leaves it (without shake).", "offscreen = \"destroy\""),
        key("gravity_scale", number(-1000.0, 1000.0), Dflt::Doc("1 for a dynamic, non-trigger collider, else 0"), "", "How strongly `[physics] gravity` pulls it.", "gravity_scale = 0"),
        key("drag", number(0.0, 1000.0), Dflt::Num(MotionDef::DEFAULT.drag), "1/s", "Linear damping: each tick the velocity is divided by `1 + drag * dt`.", "drag = 0.8"),
        key("max_speed", positive(SPEED_MAX), Dflt::Unset, "world units/s", "The fastest it may go.", "max_speed = 400"),
        key("angle", number(-1000.0, 1000.0), Dflt::Num(RotationDef::DEFAULT.angle), "radians", "Starting angle: 0 faces +x, positive turns toward +y (down the screen). Sprites draw rotated; colliders stay unrotated (boxes stay axis-aligned).", "angle = 1.5708"),
        key("spin", number(-1000.0, 1000.0), Dflt::Num(RotationDef::DEFAULT.spin), "radians/s", "Turning speed.", "spin = 2"),
        key("rotate", Ty::Choice(&["none", "velocity", "facing"]), Dflt::Str("none"), "", "What else turns it: nothing (only spin and scripts), its velocity (it faces where it moves), or its controller's facing.", "rotate = \"velocity\""),
        key("lifetime", int(1, TICKS_MAX), Dflt::Unset, "ticks", "Ticks until the entity expires (an `expired` event, then it is destroyed).", "lifetime = 90"),
        key("cooldowns", Ty::Counts { min: 0, max: 1_000_000 }, Dflt::Empty, "ticks", "Named cooldowns and their lengths (at most 256), for triggers and scripts.", "cooldowns = { shoot = 8 }"),
        key("sprite", Ty::Table(&SPRITE), Dflt::Unset, "", "How it is drawn.", "[archetypes.ship.sprite]"),
        key("collider", Ty::Table(&COLLIDER), Dflt::Unset, "", "How it collides.", "[archetypes.ship.collider]"),
        key("health", Ty::Table(&HEALTH), Dflt::Unset, "", "Hit points.", "health = { max = 3 }"),
        key("contact_damage", Ty::Table(&CONTACT_DAMAGE), Dflt::Unset, "", "Damage it does to what it touches, without a script.", "contact_damage = { amount = 1, to = [\"player\"] }"),
        key("behaviour", Ty::Table(&BEHAVIOUR), Dflt::Unset, "", "A built-in AI behaviour.", "behaviour = { kind = \"chase\", target = [\"player\"] }"),
        key("attach", Ty::Table(&ATTACH), Dflt::Unset, "", "What each spawned entity of it is attached to.", "attach = { to = \"hero\", offset = [12, 0] }"),
        key("control", Ty::Table(&CONTROL), Dflt::Unset, "", "Player control.", "[archetypes.ship.control]"),
        key("label", Ty::Table(&LABEL), Dflt::Unset, "", "Text drawn with it.", "label = { text = \"BOSS\", offset = [0, -30] }"),
        key("animations", Ty::Named(&ANIMATION), Dflt::Empty, "", "Sequences of its sprite's frames; the first plays from spawn, `ludus.animate(id, name)` switches.", "[archetypes.hero.animations.run]"),
    ],
};

#[rustfmt::skip]
pub(crate) static BOUNDS: TableSchema = TableSchema {
    title: "[archetypes.NAME.bounds]",
    doc: "A bounds rule with a margin: the rule applies to the level's bounds grown by `margin` \
          on every side, so what spawns just outside the view (pipes, enemies waiting above the \
          screen) lives until it has crossed the margin. `bounds = \"destroy\"` is \
          `{ rule = \"destroy\", margin = 0 }`.",
    keys: &[
        key("rule", Ty::Choice(&["confine", "bounce", "wrap", "destroy"]), Dflt::Required, "", "What happens at the bounds (as `bounds = \"...\"` says).", "rule = \"destroy\""),
        key("margin", number(-COORD_MAX, COORD_MAX), Dflt::Num(ArchetypeDef::BOUNDS_MARGIN), "world units", "How far past the level's bounds the rule applies; negative: inside them (a margin that leaves no area destroys at once, and confines to the middle).", "margin = 64"),
    ],
};

#[rustfmt::skip]
pub(crate) static SPRITE: TableSchema = TableSchema {
    title: "[archetypes.NAME.sprite]",
    doc: "Drawing: lower layers first, then lower depth, then creation order. Scripts change \
          how an entity is drawn with `ludus.set_look` (scale, colour, alpha, visibility, flips, \
          layer).",
    keys: &[
        key("shape", Ty::Choice(&["circle", "rect", "image"]), Dflt::Doc("`\"image\"` when `image` is given, else `\"circle\"`"), "", "What is drawn.", "shape = \"rect\""),
        key("image", Ty::Path { ext: "" }, Dflt::Doc("required when `shape = \"image\"`"), "", "An image from `[images]` by name, or a PNG file in the game folder by path. Drawn rotated with the entity's angle.", "image = \"hero\""),
        key("frame", int(0, 65_535), Dflt::Int(SpriteDef::FRAME as i64), "", "The frame of a sprite sheet drawn when no animation plays.", "frame = 3"),
        key("flip_x", Ty::Bool, Dflt::Bool(SpriteDef::FLIP_X), "", "Mirror the image left to right (`ludus.set_look` changes it at run time).", "flip_x = true"),
        key("flip_y", Ty::Bool, Dflt::Bool(SpriteDef::FLIP_Y), "", "Mirror the image top to bottom: upside down, its shading kept (rotating by pi would mirror it both ways).", "flip_y = true"),
        key("size", Ty::Size { max: SIZE_MAX }, Dflt::Doc("an image's frame size in pixels when `image` is given without `shape`, else 16"), "world units", "Width and height (one number: a square).", "size = [24, 16]"),
        key("color", Ty::Color, Dflt::Color(SpriteDef::COLOR), "", "Fill colour (tints an image).", "color = \"#4cc9f0\""),
        key("alpha", number(0.0, 1.0), Dflt::Num(SpriteDef::ALPHA), "", "Opacity: 0 is unseen, 1 opaque; it multiplies the colour's own alpha.", "alpha = 0.5"),
        key("layer", int(-32_768, 32_767), Dflt::Int(SpriteDef::LAYER as i64), "", "Draw layer.", "layer = 2"),
        key("depth", number(-COORD_MAX, COORD_MAX), Dflt::Num(SpriteDef::DEPTH), "", "Draw order inside a layer.", "depth = 0.5"),
    ],
};

#[rustfmt::skip]
pub(crate) static LABEL: TableSchema = TableSchema {
    title: "[archetypes.NAME.label]",
    doc: "Text drawn in the world with the entity, above every sprite, in its font, \
          centred on the entity plus `offset`. An archetype named `text` with a label is what \
          `ludus.text` spawns (a game without one gets a built-in `text`: white, 16 units high, \
          lasting 60 ticks).",
    keys: &[
        key("text", Ty::Text, Dflt::Str(LabelDef::TEXT), "", "The text (`[[place]]` and `ludus.text` may give each entity its own; at most 4096 bytes).", "text = \"BOSS\""),
        key("size", positive(SIZE_MAX), Dflt::Num(LabelDef::SIZE), "world units", "Height of a line.", "size = 12"),
        key("color", Ty::Color, Dflt::Color(LabelDef::COLOR), "", "Colour.", "color = \"#ffd166\""),
        key("offset", Ty::Pair { min: -COORD_MAX, max: COORD_MAX, above_min: false, form: "[x, y]" }, pair(LabelDef::OFFSET), "world units", "Where the text is centred, from the entity's position.", "offset = [0, -24]"),
        key("font", Ty::Name, Dflt::Doc("the game's `font`"), "", "A `[fonts]` name.", "font = \"pixel\""),
    ],
};

#[rustfmt::skip]
pub(crate) static ANIMATION: TableSchema = TableSchema {
    title: "[archetypes.NAME.animations.NAME]",
    doc: "Frames of the sprite's image shown in turn, advanced by simulation ticks (the same in \
          every run) and drawn between ticks by the same interpolation as movement. \
          `ludus.animate(id, name)` switches; switching to the animation already playing keeps \
          its place.",
    keys: &[
        key("frames", Ty::Ints { min: 0, max: 65_535, len: 1024 }, Dflt::Required, "", "Frame numbers of the sprite's image, in order (1 to 1024 of them).", "frames = [0, 1, 2, 3]"),
        key("fps", positive(1000.0), Dflt::Num(AnimationDef::FPS), "frames/s", "Frames per second of game time.", "fps = 12"),
        key("loop", Ty::Bool, Dflt::Bool(AnimationDef::LOOPING), "", "Start again after the last frame; otherwise stay on it.", "loop = false"),
    ],
};

#[rustfmt::skip]
pub(crate) static COLLIDER: TableSchema = TableSchema {
    title: "[archetypes.NAME.collider]",
    doc: "A shape centred on the entity. A pair is reported when either side's `mask` holds the \
          other's `layer`; a pair is pushed apart when either side's `push` holds the other's \
          layer and neither is a trigger. Either side's `mask` finds the same pairs, at the \
          same cost where a crowd meets a few (700 bullets whose masks name a ship's layer: \
          the ship looks for them, on their behalf).",
    keys: &[
        key("shape", Ty::Choice(&["circle", "box"]), Dflt::Str("circle"), "", "Circle or axis-aligned box.", "shape = \"box\""),
        key("radius", positive(SIZE_MAX), Dflt::Doc("half the larger side of the sprite; required without a sprite"), "world units", "A circle's radius.", "radius = 10"),
        key("size", Ty::Size { max: SIZE_MAX }, Dflt::Doc("the sprite's size; required without a sprite"), "world units", "A box's width and height.", "size = [32, 8]"),
        key("layer", Ty::Name, Dflt::Required, "", "Its layer, from the game's `layers`.", "layer = \"ships\""),
        key("mask", Ty::Names { max: 32 }, Dflt::Empty, "", "Layers whose contacts it reports.", "mask = [\"shots\"]"),
        key("push", Ty::Names { max: 32 }, Dflt::Empty, "", "Layers it is pushed apart from.", "push = [\"walls\"]"),
        key("trigger", Ty::Bool, Dflt::Bool(ColliderDef::TRIGGER), "", "Reports trigger events instead of collisions and is never pushed.", "trigger = true"),
        key("stay", Ty::Bool, Dflt::Bool(ColliderDef::STAY), "", "Also reports a `stay` event every tick a contact lasts.", "stay = true"),
        key("body", Ty::Choice(&["dynamic", "kinematic", "static"]), Dflt::Str("dynamic"), "", "Dynamic: pushed by what it touches. Kinematic: moves by its velocity, never pushed (paddles, moving platforms). Static: never moves (walls, floors, bricks).", "body = \"static\""),
        key("mass", positive(1_000_000.0), Dflt::Num(ColliderDef::MASS), "", "Pushes between dynamic bodies split by mass: the lighter moves more.", "mass = 4"),
        key("bounce", number(0.0, 1.0), Dflt::Unset, "", "Restitution on pushing contacts: 1 bounces back at full speed, 0 stops dead (the larger of two bodies' applies). Without it, two dynamic bodies are pushed apart and keep their velocities; contacts with static and kinematic bodies stop the motion into them.", "bounce = 1"),
        key("friction", number(0.0, 1.0), Dflt::Num(ColliderDef::FRICTION), "", "Friction on pushing contacts (the larger of the two applies).", "friction = 0.3"),
    ],
};

#[rustfmt::skip]
pub(crate) static HEALTH: TableSchema = TableSchema {
    title: "[archetypes.NAME.health]",
    doc: "Hit points, changed by `damage` and `heal` commands.",
    keys: &[
        key("max", int(1, 1_000_000_000), Dflt::Required, "", "Starting and largest health.", "max = 3"),
        key("invulnerable", int(0, 1_000_000), count(HealthDef::INVULNERABLE_TICKS), "ticks", "Invulnerability after taking damage.", "invulnerable = 30"),
    ],
};

#[rustfmt::skip]
pub(crate) static CONTACT_DAMAGE: TableSchema = TableSchema {
    title: "[archetypes.NAME.contact_damage]",
    doc: "Damage the entity does to what it touches, with no script: Rust applies it each tick \
          before the commands scripts send, as `ludus.damage(target, amount, id)` from a \
          script would. A hit lands every tick a contact with an entity carrying one of the \
          `to` tags lasts (only the tick it begins with `once`), so the target's \
          `health.invulnerable` spaces the hits; it is blocked while the target is \
          invulnerable, once its health has reached 0, and on a target without health. The \
          contact must be one the colliders report (either side's `mask` holds the other's \
          layer; a trigger's contacts count too), with or without `stay`. Scripts see each hit that lands \
          in `on_damage` (its `source` is the entity that did it) and a kill in `on_death`.",
    keys: &[
        key("to", Ty::Names { max: 64 }, Dflt::Required, "", "Tags of what it hurts.", "to = [\"player\"]"),
        key("amount", int(1, 1_000_000_000), Dflt::Int(ContactDamageDef::AMOUNT as i64), "", "Health each hit takes.", "amount = 2"),
        key("once", Ty::Bool, Dflt::Bool(ContactDamageDef::ONCE), "", "Hit only on the tick a contact begins, not every tick it lasts.", "once = true"),
    ],
};

#[rustfmt::skip]
pub(crate) static BEHAVIOUR: TableSchema = TableSchema {
    title: "[archetypes.NAME.behaviour]",
    doc: "A built-in behaviour, decided in Rust on its cadence: chase or flee the nearest entity \
          with a target tag (within `range`, if given), wander, or keep going straight. \
          `ludus.set_behaviour(id, kind, opts)` sets one while the game runs, with these keys \
          and rules. Every tick a chasing, fleeing or wandering entity's velocity is set to its \
          heading times its speed, so an impulse, `drag` or a bounce lasts one tick on it; a \
          `straight` one keeps the velocity it is given.",
    keys: &[
        key("kind", Ty::Choice(BehaviourKind::NAMES), Dflt::Required, "", "The behaviour.", "kind = \"chase\""),
        key("target", Ty::Names { max: 64 }, Dflt::Doc("required for chase and flee; not allowed otherwise"), "", "Tags of what it chases or flees.", "target = [\"player\"]"),
        key("cadence", int(1, BehaviourDef::CADENCE_MAX as i64), Dflt::Doc("`ai.cadence`"), "ticks", "Ticks between decisions.", "cadence = 5"),
        key("navigate", Ty::Bool, Dflt::Bool(BehaviourDef::NAVIGATE), "", "Chase along the level's `nav` flow field, around obstacles (chase only).", "navigate = true"),
        key("range", positive(BehaviourDef::RANGE_MAX as f64), Dflt::Unset, "world units", "Chase and flee only: the nearest target counts only within this distance (checked at each decision); beyond it the entity does what `idle` says. Without it, any distance.", "range = 240"),
        key("idle", Ty::Choice(Idle::NAMES), Dflt::Str("stop"), "", "With a `range`: what it does while no target is within it, stand still or wander (a random heading at each decision).", "idle = \"wander\""),
    ],
};

#[rustfmt::skip]
pub(crate) static ATTACH: TableSchema = TableSchema {
    title: "[archetypes.NAME.attach]",
    doc: "Each entity of the archetype, when it is spawned (or placed), is attached to the \
          nearest entity carrying the tag `to`, as `ludus.attach` attaches: it moves with it and \
          is destroyed with it. Nearest once the spawns of the same tick (or the level's \
          placements) are made, not counting itself or what is attached to it; ties go to the \
          earliest created. When none exists it is not attached: `ludus sim` counts it \
          (`\"unattached\"`) and the window's console names the archetype.",
    keys: &[
        key("to", Ty::Name, Dflt::Required, "", "The tag of the entity it is attached to.", "to = \"hero\""),
        key("offset", Ty::Pair { min: -COORD_MAX, max: COORD_MAX, above_min: false, form: "[x, y]" }, pair(AttachDef::OFFSET), "world units", "Its position from the parent's.", "offset = [0, -20]"),
        key("angle", Ty::Bool, Dflt::Bool(AttachDef::ANGLE), "", "The offset turns with the parent's angle, and its angle follows the parent's.", "angle = true"),
    ],
};

#[rustfmt::skip]
pub(crate) static CONTROL: TableSchema = TableSchema {
    title: "[archetypes.NAME.control]",
    doc: "Player control. `top_down`: axis actions move the entity at its `speed`. `thrust`: \
          `turn` rotates it and `thrust` accelerates it along its facing (give it `drag` and \
          `max_speed`). `platformer`: `run` moves it along the ground at its `speed`, `jump` \
          leaves the ground; standing on something is seen from the contacts that push it up, \
          with coyote time and a jump buffer in ticks, and a jump cut short when the button is \
          released early. Button actions in `triggers` raise `action` events for it.",
    keys: &[
        key("kind", Ty::Choice(&["top_down", "thrust", "platformer"]), Dflt::Str("top_down"), "", "How input moves it.", "kind = \"platformer\""),
        key("move_x", Ty::Name, Dflt::Unset, "", "`top_down`: an axis action for horizontal movement.", "move_x = \"move_x\""),
        key("move_y", Ty::Name, Dflt::Unset, "", "`top_down`: an axis action for vertical movement.", "move_y = \"move_y\""),
        key("accel", positive(SPEED_MAX * 100.0), Dflt::Doc("top_down and platformer: at once; thrust: 300"), "world units/s²", "How fast it gets up to speed (thrust: the thrust's acceleration).", "accel = 1200"),
        key("turn", Ty::Name, Dflt::Unset, "", "`thrust`: an axis action that turns it.", "turn = \"turn\""),
        key("thrust", Ty::Name, Dflt::Unset, "", "`thrust`: a button action that pushes it forward.", "thrust = \"thrust\""),
        key("turn_speed", number(0.0, 1000.0), Dflt::Num(ThrustDef::TURN_SPEED), "radians/s", "`thrust`: turning speed at full turn.", "turn_speed = 4"),
        key("run", Ty::Name, Dflt::Unset, "", "`platformer`: an axis action that runs.", "run = \"run\""),
        key("jump", Ty::Name, Dflt::Unset, "", "`platformer`: a button action that jumps.", "jump = \"jump\""),
        key("jump_speed", number(0.0, SPEED_MAX), Dflt::Num(PlatformerDef::JUMP_SPEED), "world units/s", "`platformer`: upward speed at the start of a jump.", "jump_speed = 520"),
        key("coyote", int(0, 600), count(PlatformerDef::COYOTE), "ticks", "`platformer`: a jump still works this long after leaving the ground.", "coyote = 6"),
        key("buffer", int(0, 600), count(PlatformerDef::BUFFER), "ticks", "`platformer`: a jump pressed this long before landing happens on landing.", "buffer = 6"),
        key("cut", number(0.0, 1.0), Dflt::Num(PlatformerDef::CUT), "", "`platformer`: releasing jump while rising multiplies the upward speed by this (1: no variable height).", "cut = 0.4"),
        key("triggers", Ty::Tables(&TRIGGER), Dflt::Empty, "", "Button actions that raise events.", "triggers = [{ action = \"fire\", on = \"hold\", cooldown = \"shoot\" }]"),
    ],
};

#[rustfmt::skip]
pub(crate) static TRIGGER: TableSchema = TableSchema {
    title: "[[archetypes.NAME.control.triggers]]",
    doc: "One button action that raises an `action` event for the controlled entity.",
    keys: &[
        key("action", Ty::Name, Dflt::Required, "", "A button action.", "action = \"fire\""),
        key("on", Ty::Choice(&["press", "hold", "release"]), Dflt::Str("press"), "", "The tick it went down, every tick it is held, or the tick it went up.", "on = \"hold\""),
        key("cooldown", Ty::Name, Dflt::Unset, "", "One of the archetype's cooldowns: the event fires only when it has run out, and restarts it.", "cooldown = \"shoot\""),
        key("aim", Ty::Names { max: 64 }, Dflt::Empty, "", "Tags to aim at: the event's `aim_x`, `aim_y` point at the nearest entity with one of them (the facing when there is none).", "aim = [\"enemy\"]"),
    ],
};
