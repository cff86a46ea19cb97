//! Events to the packed little-endian records the decoder ([`ludus_lua::decoder`]) reads.
//!
//! One byte string per stage crosses into Lua, so the cost of the boundary does not grow with
//! the number of events. The records follow ludus-core's event list ([`EVENT_KINDS`]) field by
//! field; [`layout_codes`] gives the decoder the [`FieldCode`] of each field, and the
//! [`FieldSink`] below writes each field as that code says.

use ludus_core::{
    ActionId, ArchetypeId, EVENT_KINDS, Events, FieldSink, FieldType, Stage, encode_events,
    event_count,
};
use ludus_lua::FieldCode;

/// How the decoder reads a field of type `ty`.
fn code(ty: FieldType) -> FieldCode {
    match ty {
        FieldType::Int | FieldType::Id | FieldType::Tags => FieldCode::Int,
        FieldType::OptId => FieldCode::OptId,
        FieldType::Num => FieldCode::Num,
        FieldType::Num64 => FieldCode::Num64,
        FieldType::Kind => FieldCode::Kind,
        FieldType::Action => FieldCode::Action,
        FieldType::Choice(_) => FieldCode::Choice,
        FieldType::Text => FieldCode::Text,
        FieldType::OptKind => FieldCode::OptKind,
        FieldType::OptTags => FieldCode::OptTags,
        FieldType::OptNum => FieldCode::OptNum,
        FieldType::Bool => FieldCode::Bool,
    }
}

/// The field codes of event kind `kind`'s fields, in order, as the decoder reads them.
pub(crate) fn layout_codes(kind: usize) -> String {
    EVENT_KINDS[kind]
        .fields
        .iter()
        .map(|f| char::from(code(f.ty) as u8))
        .collect()
}

#[derive(Default)]
pub(crate) struct Encoder {
    pub blob: Vec<u8>,
    /// Events of each kind in `blob` (indexed like [`EVENT_KINDS`]).
    pub counts: Vec<usize>,
}

impl FieldSink for Encoder {
    fn int(&mut self, v: i64) {
        self.blob.extend_from_slice(&v.to_le_bytes());
    }
    fn id(&mut self, v: u64) {
        self.int(v as i64);
    }
    fn opt_id(&mut self, v: Option<u64>) {
        self.int(v.unwrap_or(0) as i64);
    }
    fn num(&mut self, v: f32) {
        self.blob.extend_from_slice(&v.to_le_bytes());
    }
    fn num64(&mut self, v: f64) {
        self.blob.extend_from_slice(&v.to_le_bytes());
    }
    fn kind(&mut self, v: ArchetypeId) {
        self.blob.extend_from_slice(&v.0.to_le_bytes());
    }
    fn tags(&mut self, v: u64) {
        self.int(v as i64);
    }
    fn action(&mut self, v: ActionId) {
        self.blob.push(v.0);
    }
    fn choice(&mut self, v: u8) {
        self.blob.push(v);
    }
    fn text(&mut self, v: &str) {
        let bytes = v.as_bytes();
        let len = bytes.len().min(u16::MAX as usize);
        self.blob.extend_from_slice(&(len as u16).to_le_bytes());
        self.blob.extend_from_slice(&bytes[..len]);
    }
    fn opt_kind(&mut self, v: Option<ArchetypeId>) {
        self.blob.push(u8::from(v.is_some()));
        if let Some(v) = v {
            self.kind(v);
        }
    }
    fn opt_tags(&mut self, v: Option<u64>) {
        self.blob.push(u8::from(v.is_some()));
        if let Some(v) = v {
            self.tags(v);
        }
    }
    fn bool(&mut self, v: bool) {
        self.blob.push(u8::from(v));
    }
    fn opt_num(&mut self, v: Option<f32>) {
        self.blob.push(u8::from(v.is_some()));
        if let Some(v) = v {
            self.num(v);
        }
    }
}

impl Encoder {
    /// Encodes the events of `stage`'s kinds, skipping kinds nobody handles (`wanted(k)` is
    /// asked only of kinds with events).
    pub fn stage(&mut self, events: &Events, stage: Stage, mut wanted: impl FnMut(usize) -> bool) {
        self.blob.clear();
        // Zeroed in place (one `memset`; a `clear` and `resize` was a loop a count in some
        // builds).
        self.counts.resize(EVENT_KINDS.len(), 0);
        self.counts.fill(0);
        for (k, spec) in EVENT_KINDS.iter().enumerate() {
            if spec.stage == stage && event_count(events, k) > 0 && wanted(k) {
                self.counts[k] = encode_events(events, k, self);
            }
        }
    }
}
