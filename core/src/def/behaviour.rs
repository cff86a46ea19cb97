//! Behaviours: what a Rust-native brain does, and the one set of rules its settings follow,
//! whether an archetype's `behaviour` table declares them or `ludus.set_behaviour` sets them
//! while the game runs ([`BehaviourSpec`]).

use serde::{Deserialize, Serialize};

/// A Rust-native behaviour, decided on its cadence.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BehaviourDef {
    pub kind: BehaviourKind,
    /// Tag set of what chase/flee look for (the nearest live entity with any of these tags).
    pub target: u64,
    /// Ticks between decisions; `None` uses the game's (`[ai] cadence`).
    pub cadence: Option<u32>,
    /// Chase along the level's flow field (around obstacles) where one is available.
    pub navigate: bool,
    /// Chase and flee only: a target farther than this (world units, > 0) at a decision is
    /// not chased or fled; the brain does what `idle` says instead. `None`: any distance.
    pub range: Option<f32>,
    /// What a brain with a `range` does while no target is within it.
    pub idle: Idle,
}

impl BehaviourDef {
    /// Whether a behaviour that does not say follows the flow field.
    pub const NAVIGATE: bool = false;
    /// The longest cadence, in ticks.
    pub const CADENCE_MAX: u32 = 3600;
    /// The largest range, in world units.
    pub const RANGE_MAX: f32 = 1_000_000.0;

    /// Whether a behaviour built in code keeps the rules content and scripts follow (see
    /// [`BehaviourSpec`]) and names only the game's `tags` (a count): the first rule it
    /// breaks, in words.
    pub fn check_values(&self, tags: usize) -> Result<(), String> {
        if let Some(r) = self.range
            && !(r > 0.0 && r <= BehaviourDef::RANGE_MAX)
        {
            let max = BehaviourDef::RANGE_MAX;
            return Err(format!("`range` must be above 0, at most {max}, got {r}"));
        }
        if let Some(c) = self.cadence
            && !(1..=BehaviourDef::CADENCE_MAX).contains(&c)
        {
            let max = BehaviourDef::CADENCE_MAX;
            return Err(format!("`cadence` must be 1 to {max}, got {c}"));
        }
        let declared = u64::MAX
            .checked_shr(64u32.saturating_sub(tags as u32))
            .unwrap_or(0);
        if self.target & !declared != 0 {
            return Err(format!(
                "`target` names tag bits the game does not declare ({:#x})",
                self.target & !declared
            ));
        }
        let spec = BehaviourSpec {
            target: (self.target != 0).then_some(self.target),
            cadence: self.cadence,
            navigate: Some(self.navigate),
            range: self.range,
            idle: (self.idle != Idle::Stop).then_some(self.idle),
            ..BehaviourSpec::new(self.kind)
        };
        match spec.check() {
            Ok(_) => Ok(()),
            Err(p) => Err(p.message(self.kind, "target")),
        }
    }

    /// A behaviour of `kind` looking for `target` with every other setting at its default.
    pub fn new(kind: BehaviourKind, target: u64) -> BehaviourDef {
        BehaviourDef {
            kind,
            target,
            cadence: None,
            navigate: BehaviourDef::NAVIGATE,
            range: None,
            idle: Idle::default(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BehaviourKind {
    /// Move toward the nearest target.
    Chase,
    /// Move away from the nearest target.
    Flee,
    /// Pick a random heading at every decision.
    Wander,
    /// Keep the initial heading.
    Straight,
}

impl BehaviourKind {
    /// Every kind's name, as content and scripts write it.
    pub const NAMES: &'static [&'static str] = &["chase", "flee", "wander", "straight"];
    const ALL: [BehaviourKind; 4] = [
        BehaviourKind::Chase,
        BehaviourKind::Flee,
        BehaviourKind::Wander,
        BehaviourKind::Straight,
    ];

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<BehaviourKind> {
        let i = Self::NAMES.iter().position(|n| *n == name)?;
        Some(Self::ALL[i])
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Whether it looks for a target (chase, flee).
    pub fn seeks(self) -> bool {
        matches!(self, BehaviourKind::Chase | BehaviourKind::Flee)
    }
}

/// What a chaser or a fleer does while no target is within its `range`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Idle {
    /// Stands still.
    #[default]
    Stop,
    /// Picks a random heading at every decision, as `wander` does.
    Wander,
}

impl Idle {
    /// Every choice's name, as content and scripts write it.
    pub const NAMES: &'static [&'static str] = &["stop", "wander"];

    /// The choice named `name`.
    pub fn from_name(name: &str) -> Option<Idle> {
        match name {
            "stop" => Some(Idle::Stop),
            "wander" => Some(Idle::Wander),
            _ => None,
        }
    }
}

/// A behaviour's settings as written, before the rules between them are checked: an
/// archetype's `behaviour` table, or `ludus.set_behaviour`'s kind and options. Each value has
/// been read and range-checked by its reader (a key absent is `None`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BehaviourSpec {
    pub kind: BehaviourKind,
    /// The tags of `target` (`Some(0)`: an empty list).
    pub target: Option<u64>,
    pub cadence: Option<u32>,
    pub navigate: Option<bool>,
    pub range: Option<f32>,
    pub idle: Option<Idle>,
}

/// A rule a [`BehaviourSpec`] breaks. Each names the key it is about ([`key`]), says what is
/// wrong ([`message`]) and what to do ([`help`]).
///
/// [`key`]: BehaviourProblem::key
/// [`message`]: BehaviourProblem::message
/// [`help`]: BehaviourProblem::help
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BehaviourProblem {
    /// Chase and flee need `target`.
    MissingTarget,
    /// `target` names no tag.
    EmptyTarget,
    /// `target` on a kind that looks for nothing.
    UnusedTarget,
    /// `navigate` on a kind other than chase.
    NavigateNotChase,
    /// `range` on a kind that looks for nothing.
    UnusedRange,
    /// `idle` without a `range` to be beyond.
    IdleWithoutRange,
}

impl BehaviourProblem {
    /// The key it is about (`None`: the behaviour as a whole).
    pub fn key(self) -> Option<&'static str> {
        match self {
            BehaviourProblem::MissingTarget => None,
            BehaviourProblem::EmptyTarget | BehaviourProblem::UnusedTarget => Some("target"),
            BehaviourProblem::NavigateNotChase => Some("navigate"),
            BehaviourProblem::UnusedRange => Some("range"),
            BehaviourProblem::IdleWithoutRange => Some("idle"),
        }
    }

    /// What is wrong, for a behaviour of `kind`; `target` is how the reader names the
    /// `target` key (content writes its whole path).
    pub fn message(self, kind: BehaviourKind, target: &str) -> String {
        let kind = kind.name();
        match self {
            BehaviourProblem::MissingTarget => {
                format!("a `{kind}` behaviour needs `target`: the tags it looks for")
            }
            BehaviourProblem::EmptyTarget => format!("`{target}` must name at least one tag"),
            BehaviourProblem::UnusedTarget => {
                format!("`target` is only used by `chase` and `flee`, not `{kind}`")
            }
            BehaviourProblem::NavigateNotChase => {
                format!("`navigate` only applies to `chase`, not `{kind}`")
            }
            BehaviourProblem::UnusedRange => {
                format!("`range` is only used by `chase` and `flee`, not `{kind}`")
            }
            BehaviourProblem::IdleWithoutRange => {
                "`idle` says what happens beyond `range`, and there is no `range`".to_string()
            }
        }
    }

    /// What to do about it.
    pub fn help(self) -> &'static str {
        match self {
            BehaviourProblem::MissingTarget | BehaviourProblem::EmptyTarget => {
                "add e.g. `target = [\"player\"]`"
            }
            BehaviourProblem::UnusedTarget => "remove `target`",
            BehaviourProblem::NavigateNotChase => "remove `navigate`, or set `kind = \"chase\"`",
            BehaviourProblem::UnusedRange => "remove `range`, or set `kind = \"chase\"`",
            BehaviourProblem::IdleWithoutRange => "add e.g. `range = 200`, or remove `idle`",
        }
    }
}

impl BehaviourSpec {
    /// Settings of `kind` with nothing else written.
    pub fn new(kind: BehaviourKind) -> BehaviourSpec {
        BehaviourSpec {
            kind,
            target: None,
            cadence: None,
            navigate: None,
            range: None,
            idle: None,
        }
    }

    /// Every rule it breaks, in the order of [`BehaviourProblem`].
    pub fn problems(&self) -> Vec<BehaviourProblem> {
        let seeks = self.kind.seeks();
        let mut out = Vec::new();
        match (seeks, self.target) {
            (true, None) => out.push(BehaviourProblem::MissingTarget),
            (true, Some(0)) => out.push(BehaviourProblem::EmptyTarget),
            (false, Some(_)) => out.push(BehaviourProblem::UnusedTarget),
            _ => {}
        }
        if self.navigate == Some(true) && self.kind != BehaviourKind::Chase {
            out.push(BehaviourProblem::NavigateNotChase);
        }
        if self.range.is_some() && !seeks {
            out.push(BehaviourProblem::UnusedRange);
        }
        if self.idle.is_some() && self.range.is_none() {
            out.push(BehaviourProblem::IdleWithoutRange);
        }
        out
    }

    /// The behaviour it declares, unchecked: each setting written, or its default.
    pub fn def(&self) -> BehaviourDef {
        BehaviourDef {
            cadence: self.cadence,
            navigate: self.navigate.unwrap_or(BehaviourDef::NAVIGATE),
            range: self.range,
            idle: self.idle.unwrap_or_default(),
            ..BehaviourDef::new(self.kind, self.target.unwrap_or(0))
        }
    }

    /// The behaviour it declares, or the first rule it breaks.
    pub fn check(&self) -> Result<BehaviourDef, BehaviourProblem> {
        match self.problems().first() {
            Some(p) => Err(*p),
            None => Ok(self.def()),
        }
    }
}
