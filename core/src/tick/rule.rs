//! What a brain's behaviour says of its decisions, worked out once a tick per archetype
//! ([`Rules`]): the brains' decisions (see `brains`) read it.

use crate::def::{BehaviourDef, GameDef, Idle};
use crate::world::components::{Identity, OwnBehaviour};

/// What a brain's behaviour says of its decisions: the tags it looks for, whether it follows
/// the flow field, how far it looks (squared; infinite without a range) and whether it
/// wanders when nothing is that near.
#[derive(Clone, Copy)]
pub(crate) struct How {
    pub wants: u64,
    pub navigate: bool,
    pub range2: f32,
    pub wanders: bool,
}

impl How {
    /// A brain without a behaviour: it looks for nothing.
    const NONE: How = How {
        wants: 0,
        navigate: false,
        range2: f32::INFINITY,
        wanders: false,
    };

    fn of(b: &BehaviourDef) -> How {
        How {
            wants: b.target,
            navigate: b.navigate,
            range2: b.range.map_or(f32::INFINITY, |r| r * r),
            wanders: b.range.is_some() && b.idle == Idle::Wander,
        }
    }
}

/// What a behaviour says of a decision ([`How`]) and the ticks between decisions.
#[derive(Clone, Copy)]
pub(crate) struct Rule {
    pub how: How,
    pub cadence: u64,
}

impl Rule {
    /// The rule of behaviour `b` (none: a brain that looks for nothing) in `def`.
    fn of(b: Option<&BehaviourDef>, def: &GameDef) -> Rule {
        let (how, cadence) = match b {
            Some(b) => (How::of(b), b.cadence),
            None => (How::NONE, None),
        };
        let cadence = u64::from(cadence.unwrap_or(def.ai.default_cadence).max(1));
        Rule { how, cadence }
    }
}

/// Every brain's rule: its archetype's, worked out once a tick, or the behaviour set at run
/// time ([`OwnBehaviour`]) of a brain that has one, read from its own row as it decides.
#[derive(Clone, Copy)]
pub(crate) struct Rules<'a> {
    /// By archetype id.
    archetypes: &'a [Rule],
}

impl<'a> Rules<'a> {
    /// The rules of this tick's brains (`buffer` keeps the archetypes').
    pub(crate) fn of(buffer: &'a mut Vec<Rule>, def: &GameDef) -> Rules<'a> {
        buffer.clear();
        buffer.extend(
            def.archetypes
                .iter()
                .map(|a| Rule::of(a.behaviour.as_ref(), def)),
        );
        Rules { archetypes: buffer }
    }

    /// Brain `id`'s rule: by `own`, the behaviour its row holds if any, else its archetype's.
    #[inline(always)]
    pub(crate) fn get(&self, id: &Identity, own: Option<&OwnBehaviour>, def: &GameDef) -> Rule {
        if let Some(own) = own {
            return Rule::of(Some(&own.0), def);
        }
        let none = Rule {
            how: How::NONE,
            cadence: 1,
        };
        *self
            .archetypes
            .get(id.archetype.0 as usize)
            .unwrap_or(&none)
    }
}
