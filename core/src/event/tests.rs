//! The event list generates everything a kind needs: a kind added to a list of the test's own
//! shows up in each generated part, and the real list's parts agree with each other.

use crate::event::{EVENT_KINDS, EventKind, Events, FieldSink, FieldType, QueueBound};
use crate::limits::Limits;
use crate::phase::Stage;

/// A list of the test's own, with a kind `Probe` added beside a kind of the real list.
#[allow(dead_code)]
mod added {
    use crate::event::declare::event_kinds;
    use crate::event::{Party, StartEvent};

    /// The record of the added kind.
    #[derive(Clone, Debug)]
    pub struct ProbeEvent {
        pub tick: u64,
        pub entity: Party,
        pub way: u8,
        pub note: Option<f32>,
    }

    pub const WAYS: &[&str] = &["in", "out"];

    event_kinds! {
        layouts {
            tick(e: &StartEvent) {
                tick: Int = e.tick as i64, "the tick";
                level: Text = &e.level, "the level's name";
            }
            probe(e: &ProbeEvent) {
                tick: Int = e.tick as i64, "the tick";
                id: Id = e.entity.seq, "the entity";
                way: Choice(WAYS) = e.way, "which way";
                note: OptNum = e.note, "a note, or nil";
            }
        }
        stage One {
            /// A tick began.
            Tick {
                ticked: StartEvent as tick => "on_tick" [single], Once "tick", "every tick";
            }
            /// The added kind: two queues, one bounded by events, one by entities.
            Probe {
                probes: ProbeEvent as probe => "on_probe", Events "probe", "a probe";
                late_probes: ProbeEvent as probe => "on_late_probe" [cancellable single],
                    Entities "late probe", "a late probe";
            }
        }
        stage Two {
            /// The added kind's second stage.
            Echo {
                echoes: ProbeEvent as probe => "on_echo", Events "echo", "an echo";
            }
        }
    }
}

/// Writes each field as a line of text.
#[derive(Default)]
struct Lines(Vec<String>);

impl FieldSink for Lines {
    fn int(&mut self, v: i64) {
        self.0.push(format!("int {v}"));
    }
    fn id(&mut self, v: u64) {
        self.0.push(format!("id {v}"));
    }
    fn opt_id(&mut self, v: Option<u64>) {
        self.0.push(format!("opt_id {v:?}"));
    }
    fn num(&mut self, v: f32) {
        self.0.push(format!("num {v}"));
    }
    fn num64(&mut self, v: f64) {
        self.0.push(format!("num64 {v}"));
    }
    fn kind(&mut self, v: crate::def::ArchetypeId) {
        self.0.push(format!("kind {}", v.0));
    }
    fn tags(&mut self, v: u64) {
        self.0.push(format!("tags {v}"));
    }
    fn action(&mut self, v: crate::frame::input::ActionId) {
        self.0.push(format!("action {}", v.0));
    }
    fn choice(&mut self, v: u8) {
        self.0.push(format!("choice {v}"));
    }
    fn text(&mut self, v: &str) {
        self.0.push(format!("text {v}"));
    }
    fn opt_kind(&mut self, v: Option<crate::def::ArchetypeId>) {
        self.0.push(format!("opt_kind {:?}", v.map(|k| k.0)));
    }
    fn opt_tags(&mut self, v: Option<u64>) {
        self.0.push(format!("opt_tags {v:?}"));
    }
    fn opt_num(&mut self, v: Option<f32>) {
        self.0.push(format!("opt_num {v:?}"));
    }
    fn bool(&mut self, v: bool) {
        self.0.push(format!("bool {v}"));
    }
}

fn probe(seq: u64, way: u8, note: Option<f32>) -> added::ProbeEvent {
    added::ProbeEvent {
        tick: 7,
        entity: crate::event::Party {
            seq,
            archetype: crate::def::ArchetypeId(0),
            tags: 0,
            pos: crate::math::Vec2::ZERO,
        },
        way,
        note,
    }
}

/// Long because it checks every part the macro generates from one list, in one place: the
/// kinds, stages, handler table, lengths, bounded-queue rows, encoding and clearing.
#[test]
fn a_kind_added_to_the_list_is_in_every_generated_part() {
    use added::EventKind as K;
    assert_eq!(K::ALL, &[K::Tick, K::Probe, K::Echo], "the kinds");
    let stages: Vec<Stage> = K::ALL.iter().map(|k| k.stage()).collect();
    assert_eq!(stages, [Stage::One, Stage::One, Stage::Two], "their stages");
    assert_eq!(K::of_stage(Stage::One), &[K::Tick, K::Probe], "stage 1");
    assert_eq!(K::of_stage(Stage::Two), &[K::Echo], "stage 2");

    // The handler table scripts and docs are built from, one row per queue, in order.
    type Row = (
        &'static str,
        K,
        Stage,
        bool,
        bool,
        &'static str,
        &'static str,
    );
    let rows: Vec<(Row, (QueueBound, &str), Vec<&str>)> = added::EVENT_KINDS
        .iter()
        .map(|s| {
            let row = (
                s.handler,
                s.kind,
                s.stage,
                s.single,
                s.cancellable,
                s.queue,
                s.label,
            );
            (
                row,
                (s.bound, s.layout),
                s.fields.iter().map(|f| f.name).collect(),
            )
        })
        .collect();
    let (one, two) = (Stage::One, Stage::Two);
    let probe_fields = vec!["tick", "id", "way", "note"];
    assert_eq!(
        rows,
        [
            (
                ("on_tick", K::Tick, one, true, false, "ticked", "tick"),
                (QueueBound::Once, "tick"),
                vec!["tick", "level"]
            ),
            (
                ("on_probe", K::Probe, one, false, false, "probes", "probe"),
                (QueueBound::Events, "probe"),
                probe_fields.clone()
            ),
            (
                (
                    "on_late_probe",
                    K::Probe,
                    one,
                    true,
                    true,
                    "late_probes",
                    "late probe"
                ),
                (QueueBound::Entities, "probe"),
                probe_fields.clone()
            ),
            (
                ("on_echo", K::Echo, two, false, false, "echoes", "echo"),
                (QueueBound::Events, "probe"),
                probe_fields
            ),
        ],
        "the handler table"
    );
    assert_eq!(
        added::EVENT_KINDS[1].fields[2].ty,
        FieldType::Choice(added::WAYS),
        "a choice field's names"
    );

    // The queues: lengths in total and per stage, the bounded-queue table, clearing.
    let mut events = added::Events::default();
    assert!(events.is_empty(), "a new queue set is empty");
    events.probes.push(probe(1, 0, None));
    events.probes.push(probe(2, 1, Some(0.5)));
    events.late_probes.push(probe(3, 0, None));
    events.echoes.push(probe(4, 1, None));
    let counts: Vec<usize> = (0..4).map(|k| added::event_count(&events, k)).collect();
    assert_eq!(counts, [0, 2, 1, 1], "events per queue");
    assert_eq!(
        (
            events.len(),
            events.stage_len(Stage::One),
            events.stage_len(Stage::Two)
        ),
        (4, 3, 1),
        "lengths: total, stage 1, stage 2"
    );
    let limits = Limits {
        events_per_tick: 10,
        max_entities: 20,
        ..Limits::default()
    };
    let room: Vec<(&str, usize)> = events
        .room(&limits)
        .map(|(name, _, bound)| (name, bound))
        .collect();
    assert_eq!(
        room,
        [
            ("probe events", 10),
            ("late probe events", 20),
            ("echo events", 10)
        ],
        "the bounded-queue table: every queue a `[limits]` key bounds"
    );
    let mut lines = Lines::default();
    assert_eq!(added::encode_events(&events, 1, &mut lines), 2, "encoded");
    assert_eq!(
        lines.0,
        [
            "int 7",
            "id 1",
            "choice 0",
            "opt_num None",
            "int 7",
            "id 2",
            "choice 1",
            "opt_num Some(0.5)"
        ],
        "the records of `on_probe`, field by field in declared order"
    );
    let capacity = events.probes.capacity();
    events.clear();
    assert!(events.is_empty(), "clear empties every queue");
    assert_eq!(events.probes.capacity(), capacity, "and keeps its room");
}

/// The field names of a queue set, from its `Debug` form: `Events { a: [], b: [] }`.
fn queue_names(events: &Events) -> Vec<String> {
    let text = format!("{events:?}");
    let inner = text
        .strip_prefix("Events { ")
        .and_then(|t| t.strip_suffix(" }"))
        .expect("the Debug form of Events");
    inner
        .split(", ")
        .map(|field| field.trim_end_matches(": []").to_string())
        .collect()
}

#[test]
fn the_real_lists_parts_agree() {
    let queues: Vec<&str> = EVENT_KINDS.iter().map(|s| s.queue).collect();
    assert_eq!(
        queue_names(&Events::default()),
        queues,
        "Events' queues are the list's, in order"
    );
    for stage in [Stage::One, Stage::Two] {
        let mut kinds: Vec<EventKind> = Vec::new();
        for s in EVENT_KINDS.iter().filter(|s| s.stage == stage) {
            assert_eq!(s.kind.stage(), stage, "{}: its kind's stage", s.handler);
            if !kinds.contains(&s.kind) {
                kinds.push(s.kind);
            }
        }
        assert_eq!(EventKind::of_stage(stage), kinds, "{stage:?}'s kinds");
    }
    let all: Vec<EventKind> = [Stage::One, Stage::Two]
        .iter()
        .flat_map(|&s| EventKind::of_stage(s).iter().copied())
        .collect();
    assert_eq!(EventKind::ALL, all, "every kind is delivered by one stage");
    let limits = Limits::default();
    let room: Vec<&str> = Events::default().room(&limits).map(|r| r.0).collect();
    let bounded: Vec<String> = EVENT_KINDS
        .iter()
        .filter(|s| s.bound.limit(&limits).is_some())
        .map(|s| format!("{} events", s.label))
        .collect();
    assert_eq!(room, bounded, "the bounded-queue table");
}

/// The order handlers are called in is behaviour (recordings depend on it): a change to the
/// list's order must be deliberate.
#[test]
fn the_stages_deliver_in_the_documented_order() {
    let handlers = |stage| -> Vec<&str> {
        EVENT_KINDS
            .iter()
            .filter(|s| s.stage == stage)
            .map(|s| s.handler)
            .collect()
    };
    assert_eq!(
        handlers(Stage::One),
        [
            "on_start",
            "on_tick",
            "on_spawn",
            "on_action",
            "on_collision_enter",
            "on_collision_stay",
            "on_collision_exit",
            "on_trigger_enter",
            "on_trigger_stay",
            "on_trigger_exit",
            "on_expire",
            "on_timer"
        ],
        "stage 1"
    );
    assert_eq!(handlers(Stage::Two), ["on_damage", "on_death"], "stage 2");
}
