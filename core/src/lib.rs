//! Ludus simulation core: time, input, modes and the fixed tick over a hecs world.
//!
//! No I/O, no graphics, no Lua: time arrives as nanoseconds, input as action events, and
//! gameplay consequences through the [`Consequences`] trait, which the script host implements.
//! Every rule here is testable headless.
//!
//! - Frame loop: [`Session`] (modes, lifecycle, the frame function), [`FrameClock`],
//!   [`InputBridge`], [`FramePacer`].
//! - The tick: [`run_tick`] and its phases over a [`SimWorld`]; [`Game`] ties a definition,
//!   a world and consequences together as a [`Simulation`].
//! - Data: [`GameDef`] and its parts, components, events, commands, timers, the outbox.
//! - Presentation: [`RenderFrame`]. Replay: [`StateHash`]. Background work: [`Completions`].
//! - Yardsticks: [`reference`](mod@reference) does two workloads' ticks by hand, bit for bit, to measure the
//!   tick against.

mod budget;
mod collision;
mod command;
mod consequences;
mod def;
mod event;
mod fault;
mod frame;
mod game;
mod ids;
mod jobs;
mod limits;
mod math;
mod nav;
mod outbox;
pub mod par;
mod phase;
pub mod profile;
pub mod reference;
mod render;
mod replay;
mod resource;
mod saved;
mod spatial;
mod suggest;
mod tick;
mod timer;
mod var;
mod world;

pub use command::{Command, CommandError};
pub use command::{MAX_BOUND_KEYS, MAX_NAME_BYTES, MAX_TEXT_BYTES};
pub use consequences::{Consequences, Gameplay, NoConsequences};
pub use def::{
    AiPolicy, Anchor, AnimationDef, ArchetypeDef, ArchetypeId, AssetId, BehaviourDef,
    BehaviourKind, BodyKind, BoundsPolicy, CameraDef, ColliderDef, Constant, ContactDamageDef,
    ControlDef, ControlKind, CooldownDef, EffectDef, EffectId, Filter, FlowDef, FontDef, FontId,
    FontSource, GameDef, HealthDef, HudLine, ImageDef, LabelDef, LevelDef, Limits, MAX_LAYERS,
    MAX_TAGS, MotionDef, MusicId, Overrides, PhysicsDef, Placement, PlatformerDef, RotateMode,
    RotationDef, ScriptsDef, Shape, SolidRun, SoundDef, SoundId, SpawnOverrides, SpawnerDef,
    SpriteDef, SpriteShape, StressDef, ThrustDef, TileKey, TileMapDef, TriggerDef, TriggerOn, Wave,
    WindowDef, merge_solids,
};
pub use def::{AttachDef, BehaviourProblem, BehaviourSpec, Idle};
pub use def::{ExportDef, HudBar, HudIcons, HudImage, HudItem, HudNumber};
pub use def::{NotATile, merge_cells};
pub use def::{TouchControl, TouchControlKind, TouchDef};
// The event records and what the event list generates from them, whole: a new kind or
// record needs no line here.
pub use event::kinds::*;
pub use event::{
    EventField, EventSpec, FieldSink, FieldType, QueueBound, events_markdown, stages_markdown,
};
pub use fault::{
    Fault, FaultKind, MAX_FAULT_MESSAGE_BYTES, printable, printable_line, terminal_control,
};
pub use frame::bindings::{KeyBinding, KeyMap};
pub use frame::clock::{FrameClock, FrameTime, PolicyError, TICK_PHASE, TickMode, TickPolicy};
pub use frame::input::{
    ActionDef, ActionError, ActionId, ActionKind, ActionSet, BridgeStats, InputBridge, MAX_ACTIONS,
    ResetReason, TickInput,
};
pub use frame::mode::Mode;
pub use frame::pacer::{FrameKind, FramePacer, PacerPolicy};
pub use frame::session::{
    Flow, FlowActions, FrameReport, InputEvent, LoadRequest, LoadStatus, Session, SessionStats,
    Signal, Simulation,
};
pub use frame::touch::{MAX_TOUCH_COORD, MAX_TOUCHES, Touch};
pub use frame::touch::{check as check_touches, replace as replace_touches};
pub use frame::touch::{pointer as touch_pointer, valid_position as valid_touch_position};
pub use game::Game;
pub use ids::WorldId;
#[cfg(not(target_arch = "wasm32"))]
pub use jobs::ThreadPool;
pub use jobs::{
    Completion, Completions, Executor, JobInput, JobOutput, JobStats, JobStatus, ReplayExecutor,
    Request, RequestId, SerialExecutor,
};
pub use limits::Limit;
pub use math::{Color, Rect, Vec2};
pub use nav::{FlowField, FlowInput, MAX_GRID_SIDE, NavDef};
pub use outbox::{Outbox, OutboxStats, Presentation, PresentationRequest};
pub use phase::{Phase, Stage};
pub use render::{Camera, Draw, Interpolation, RenderFrame, TextDraw};
pub use render::{HUD_BUILTINS, HudShown, hud_names, hud_shown, substitute as hud_text};
pub use replay::{
    EntityValues, FORMAT_VERSION, FREE_SEGMENTS, MAGIC, MAX_DECODED_BYTES, MAX_RECORDED_NAME_BYTES,
    MAX_RECORDING_BYTES, MAX_SEGMENTS, RecordedFault, Recording, RecordingError, RecordingHeader,
    Segment, TICKS_PER_SEGMENT, TickRecord, describe_difference, entity_values,
};
pub use resource::Resource;
pub use saved::{MAX_SAVE_KEY_BYTES, SaveStore, check_key as check_save_key};
pub use suggest::{closest, edit_distance};
pub use tick::access::{OrderError, PhaseAccess, check_order};
pub use tick::gameplay::run_stage_detached;
pub use tick::motion::integrate;
pub use tick::report::{TickOptions, TickReport};
pub use tick::schedule::{Schedule, ScheduleError, ScheduleWarning};
pub use tick::system::{Access, System, SystemId, TickState};
pub use tick::{TickContext, native_systems, run_tick};
pub use timer::{DueTimer, PendingTimer, TimerId, TimerQueue, TimerSpec, TimerStats};
pub use var::Var;
pub use world::components::{
    Aim, Animation, BoundsRule, Brain, CameraTarget, Collider, Control, Cooldowns, Deadline,
    Footing, Health, Identity, Lifetime, Look, Motion, Position, PrevPosition, Rotation,
    ScriptState, Speed, Sprite, StaticBody, Tags, Velocity,
};
pub use world::components::{
    Attached, BoundsMargin, Drawn, Offscreen, OwnBehaviour, SharedCollider,
};
pub use world::contact::{ContactCache, ContactKey};
pub use world::hash::{HashPart, StateHash};
pub use world::tiles::Tiles;
pub use world::{Asked, Bindings, NavState, SimWorld, WorldCounters};

/// The handles of the framework's own systems, by phase, for ordering a program's systems
/// against them ([`System::after`], [`System::before`]). Each phase's file under `tick/`
/// declares its systems; docs/architecture.md lists them with what they touch.
pub mod systems {
    pub use crate::tick::begin::{CARRIED, CLEAR, COMPLETIONS, DUE_TIMERS, PREVIOUS};
    pub use crate::tick::commit::COMMIT;
    pub use crate::tick::end::{HASH, INVARIANTS, PUBLISH};
    pub use crate::tick::gameplay::{
        APPLY_ONE, APPLY_TWO, DELIVERABLE_TIMERS, STAGE_ONE, STAGE_TWO,
    };
    pub use crate::tick::intent::{BEHAVIOURS, CONTROL, EXPIRATIONS, NAVIGATION, SPAWNERS};
    pub use crate::tick::motion::{ATTACH, BOUNDS, COLLIDE, INTEGRATE, OFFSCREEN, ROTATE};
}
