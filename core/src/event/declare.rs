//! What the event list (`kinds.rs`) is made of, and the macro that turns it into code.
//!
//! [`event_kinds!`] reads the list once and writes everything that depends on it: the
//! [`Events`] queues with `clear`, their lengths in total and per stage, and the rows of the
//! bounded-queue table; [`EventKind`] with its stage and each stage's kinds; [`EVENT_KINDS`],
//! from which the script host builds its dispatch, its encoder's layouts and the C decoder's
//! field codes, and the docs their tables; and [`encode_events`], which writes a queue field by
//! field to a [`FieldSink`]. The generated code is what one would write by hand: one `Vec` per
//! queue, summed lengths, and each queue's records encoded in a loop with the layout inlined.
//!
//! [`Events`]: crate::event::Events
//! [`EventKind`]: crate::event::EventKind
//! [`EVENT_KINDS`]: crate::event::EVENT_KINDS
//! [`encode_events`]: crate::event::encode_events

use crate::def::ArchetypeId;
use crate::frame::input::ActionId;
use crate::limits::Limits;
use crate::phase::Stage;

/// What a field holds, as scripts see it. Optional fields may be absent (nil).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldType {
    /// A whole number (ticks, amounts, timer ids).
    Int,
    /// An entity id.
    Id,
    /// An entity id or nil.
    OptId,
    /// A number stored as f32 (positions, directions).
    Num,
    /// A number stored as f64 (timer data).
    Num64,
    /// An archetype, given to scripts by name.
    Kind,
    /// A tag set (test it with `ludus.has`).
    Tags,
    /// An input action, given by name.
    Action,
    /// True or false.
    Bool,
    /// One of a fixed list of names.
    Choice(&'static [&'static str]),
    /// Text.
    Text,
    /// The same as these, but absent (nil) for some events.
    OptKind,
    OptTags,
    OptNum,
}

/// One field of an event record.
#[derive(Clone, Copy, Debug)]
pub struct EventField {
    pub name: &'static str,
    pub ty: FieldType,
    pub doc: &'static str,
}

/// What bounds a queue's length within one tick. A full bounded queue faults: gameplay events
/// are required.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueBound {
    /// At most one event a tick (the level start, the tick): no `[limits]` key.
    Once,
    /// `[limits] events`.
    Events,
    /// `[limits] entities` (at most one event per entity).
    Entities,
}

impl QueueBound {
    /// The most events the queue may hold in one tick, where a `[limits]` key bounds it.
    pub fn limit(self, limits: &Limits) -> Option<usize> {
        match self {
            QueueBound::Once => None,
            QueueBound::Events => Some(limits.events_per_tick as usize),
            QueueBound::Entities => Some(limits.max_entities as usize),
        }
    }
}

/// One queue of events and the handler it is delivered to (a kind has one queue or several).
/// `K` is the list's kind type ([`EventKind`] but for lists a test declares).
///
/// [`EventKind`]: crate::event::EventKind
#[derive(Clone, Copy, Debug)]
pub struct EventSpec<K: 'static = crate::event::EventKind> {
    /// The Lua handler: `on_collision_enter`.
    pub handler: &'static str,
    /// The kind its events are, for systems' declarations.
    pub kind: K,
    /// The gameplay stage that delivers it (its kind's).
    pub stage: Stage,
    /// The handler gets one table (not a list of events): `on_start`.
    pub single: bool,
    /// An event is not delivered once an earlier handler of the stage cancelled it (timers).
    pub cancellable: bool,
    pub doc: &'static str,
    /// Its queue: the field of `Events`.
    pub queue: &'static str,
    /// What the bounded-queue table calls it: `collision` (events).
    pub label: &'static str,
    pub bound: QueueBound,
    /// Its record layout's name (queues sharing one share their fields): `contact`.
    pub layout: &'static str,
    pub fields: &'static [EventField],
}

/// Receives event fields in declared order (the script host packs them into bytes).
pub trait FieldSink {
    fn int(&mut self, v: i64);
    fn id(&mut self, v: u64);
    fn opt_id(&mut self, v: Option<u64>);
    fn num(&mut self, v: f32);
    fn num64(&mut self, v: f64);
    fn kind(&mut self, v: ArchetypeId);
    fn tags(&mut self, v: u64);
    fn action(&mut self, v: ActionId);
    /// The index of the value in the field's [`FieldType::Choice`] list.
    fn choice(&mut self, v: u8);
    fn text(&mut self, v: &str);
    fn opt_kind(&mut self, v: Option<ArchetypeId>);
    fn opt_tags(&mut self, v: Option<u64>);
    fn opt_num(&mut self, v: Option<f32>);
    fn bool(&mut self, v: bool);
}

/// The [`FieldSink`] call for a field of type `$ty`.
macro_rules! sink_call {
    ($w:ident, Int, $v:expr) => {
        $w.int($v)
    };
    ($w:ident, Id, $v:expr) => {
        $w.id($v)
    };
    ($w:ident, OptId, $v:expr) => {
        $w.opt_id($v)
    };
    ($w:ident, Num, $v:expr) => {
        $w.num($v)
    };
    ($w:ident, Num64, $v:expr) => {
        $w.num64($v)
    };
    ($w:ident, Kind, $v:expr) => {
        $w.kind($v)
    };
    ($w:ident, Tags, $v:expr) => {
        $w.tags($v)
    };
    ($w:ident, Action, $v:expr) => {
        $w.action($v)
    };
    ($w:ident, Choice, $v:expr) => {
        $w.choice($v)
    };
    ($w:ident, Text, $v:expr) => {
        $w.text($v)
    };
    ($w:ident, OptKind, $v:expr) => {
        $w.opt_kind($v)
    };
    ($w:ident, OptTags, $v:expr) => {
        $w.opt_tags($v)
    };
    ($w:ident, OptNum, $v:expr) => {
        $w.opt_num($v)
    };
    ($w:ident, Bool, $v:expr) => {
        $w.bool($v)
    };
}
pub(crate) use sink_call;

/// Whether a queue's flags (`single`, `cancellable`) include `$want`; an unknown flag does not
/// compile.
macro_rules! queue_flag {
    ($want:ident:) => {
        false
    };
    (single: single $($rest:ident)*) => {
        true
    };
    (cancellable: cancellable $($rest:ident)*) => {
        true
    };
    ($want:ident: single $($rest:ident)*) => {
        $crate::event::declare::queue_flag!($want: $($rest)*)
    };
    ($want:ident: cancellable $($rest:ident)*) => {
        $crate::event::declare::queue_flag!($want: $($rest)*)
    };
    ($want:ident: $other:ident $($rest:ident)*) => {
        compile_error!(concat!(
            "unknown event queue flag `",
            stringify!($other),
            "`: a queue is `single`, `cancellable`, both or neither"
        ))
    };
}
pub(crate) use queue_flag;

/// Reads the event list and writes what depends on it (see the module documentation):
///
/// ```text
/// layouts {
///     name(e: &Record) { field: Type = value, "doc"; ... }   // Type: a FieldType
///     ...
/// }
/// stage One {                                                 // a Stage, each once, in order
///     /// doc
///     Kind {                                                  // an EventKind
///         queue: Record as layout => "handler" [flags], Bound "label", "doc";
///         ...
///     }
///     ...
/// }
/// ...
/// ```
///
/// A field without a doc shares the doc of the one before it. `[flags]` (optional) holds
/// `single` (the handler gets one table, not a list) and `cancellable`; `Bound` is a
/// [`QueueBound`]. The order of stages, kinds and queues is the order of `Events`' fields and
/// of delivery. Every name it writes is defined where it is invoked (the module needs the
/// record types and the layouts' choice lists in scope), so a test may invoke it on a list of
/// its own.
macro_rules! event_kinds {
    (
        layouts {$(
            $layout:ident($e:ident: &$ty:ty) {
                $( $fname:ident: $fty:ident $(($fchoice:expr))? = $fval:expr, $fdoc:literal; )+
            }
        )+}
        $(stage $stage:ident {$(
            $(#[doc = $kdoc:literal])*
            $kind:ident {$(
                $queue:ident: $qty:ident as $qlayout:ident =>
                    $handler:literal $([$($flag:ident)+])?, $bound:ident $label:literal,
                    $qdoc:literal;
            )+}
        )+})+
    ) => {
        $(
            /// A record layout: its fields as scripts see them, and how a record is written.
            #[allow(unused_imports)]
            mod $layout {
                use super::*;
                use $crate::event::{EventField, FieldSink, FieldType};

                pub(super) const FIELDS: &[EventField] = &[$(EventField {
                    name: stringify!($fname),
                    ty: FieldType::$fty $(($fchoice))?,
                    doc: $fdoc,
                }),+];

                pub(super) fn encode<W: FieldSink>($e: &$ty, w: &mut W) {
                    $( $crate::event::declare::sink_call!(w, $fty, $fval); )+
                }
            }
        )+

        /// Event kinds, for systems' declarations (what they produce and consume): each is
        /// delivered in one gameplay stage, through one queue or several.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum EventKind {$($(
            $(#[doc = $kdoc])*
            $kind,
        )+)+}

        impl EventKind {
            /// Every kind, in declaration order.
            pub const ALL: &'static [EventKind] = &[$($(EventKind::$kind,)+)+];

            /// The gameplay stage that delivers it.
            pub const fn stage(self) -> $crate::phase::Stage {
                match self {$($(
                    EventKind::$kind => $crate::phase::Stage::$stage,
                )+)+}
            }

            /// The kinds `stage` delivers, in order.
            pub const fn of_stage(stage: $crate::phase::Stage) -> &'static [EventKind] {
                match stage {$(
                    $crate::phase::Stage::$stage => &[$(EventKind::$kind),+],
                )+}
            }
        }

        /// The tick-local event queues, one per handler, in the order the stages deliver them.
        #[derive(Clone, Debug, Default)]
        pub struct Events {$($($(
            #[doc = concat!("`", $handler, "`: ", $qdoc, ".")]
            pub $queue: Vec<$qty>,
        )+)+)+}

        impl Events {
            /// Empties every queue, keeping its room.
            pub fn clear(&mut self) {
                $($($( self.$queue.clear(); )+)+)+
            }

            /// The events of every queue.
            pub fn len(&self) -> usize {
                0 $($($( + self.$queue.len() )+)+)+
            }

            /// Whether every queue is empty.
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }

            /// The events each kind's queues hold, in the order of `EventKind::ALL` (debug
            /// builds compare them before and after a system runs: a system that adds events of
            /// a kind it does not declare producing faults).
            pub(crate) fn kind_lens(&self) -> Vec<usize> {
                vec![$($( 0 $( + self.$queue.len() )+ ),+),+]
            }

            /// The events of the kinds `stage` delivers.
            pub fn stage_len(&self, stage: $crate::phase::Stage) -> usize {
                match stage {$(
                    $crate::phase::Stage::$stage => 0 $($( + self.$queue.len() )+)+,
                )+}
            }

            /// Each queue a `[limits]` key bounds, as `(name, room reserved, bound)`.
            pub(crate) fn room(
                &self,
                limits: &$crate::limits::Limits,
            ) -> impl Iterator<Item = (&'static str, usize, usize)> {
                [$($($((
                    concat!($label, " events"),
                    self.$queue.capacity(),
                    $crate::event::QueueBound::$bound.limit(limits),
                ),)+)+)+]
                .into_iter()
                .filter_map(|(name, room, bound)| Some((name, room, bound?)))
            }
        }

        /// Every event queue, in the order the stages deliver them.
        pub const EVENT_KINDS: &[$crate::event::EventSpec<EventKind>] = &[$($($(
            $crate::event::EventSpec {
                handler: $handler,
                kind: EventKind::$kind,
                stage: $crate::phase::Stage::$stage,
                single: $crate::event::declare::queue_flag!(single: $($($flag)+)?),
                cancellable: $crate::event::declare::queue_flag!(cancellable: $($($flag)+)?),
                doc: $qdoc,
                queue: stringify!($queue),
                label: $label,
                bound: $crate::event::QueueBound::$bound,
                layout: stringify!($qlayout),
                fields: $qlayout::FIELDS,
            },
        )+)+)+];

        /// Writes the events of queue `kind` (an index into [`EVENT_KINDS`]) to `w`; returns
        /// how many there were.
        pub fn encode_events<W: $crate::event::FieldSink>(
            events: &Events,
            kind: usize,
            w: &mut W,
        ) -> usize {
            let mut index = 0;
            $($($(
                if kind == index {
                    for e in events.$queue.iter() {
                        $qlayout::encode(e, w);
                    }
                    return events.$queue.len();
                }
                index += 1;
            )+)+)+
            let _ = index;
            0
        }

        /// How many events queue `kind` (an index into [`EVENT_KINDS`]) holds.
        pub fn event_count(events: &Events, kind: usize) -> usize {
            let mut index = 0;
            $($($(
                if kind == index {
                    return events.$queue.len();
                }
                index += 1;
            )+)+)+
            let _ = index;
            0
        }
    };
}
pub(crate) use event_kinds;
