//! Frame pacing as pure policy: when the platform should start its next frame.

/// How a native loop paces frames. Pacing never changes tick accounting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacerPolicy {
    /// Optional cap for presented frames; `None` leaves presented frames to the swapchain
    /// (vsync), with no extra wait.
    pub frame_cap_hz: Option<u32>,
    /// Rate for frames that present nothing (start-up, loading).
    pub idle_hz: u32,
    /// Rate while minimised or occluded; the simulation drops that time.
    pub hidden_hz: u32,
    /// A frame later than its target by more than this restarts the schedule from now instead
    /// of rushing to catch up missed targets.
    pub max_lateness_ns: u64,
}

impl Default for PacerPolicy {
    fn default() -> Self {
        PacerPolicy {
            frame_cap_hz: None,
            idle_hz: 30,
            hidden_hz: 5,
            max_lateness_ns: 50_000_000,
        }
    }
}

/// What the frame just finished did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    Presented,
    Idle,
    Hidden,
}

/// Computes absolute wait targets; the platform performs the wait (an operating-system sleep
/// until the target) after each frame and before the next frame reads its timestamp.
///
/// Guarantees:
/// - Targets advance by whole intervals from the previous target, so a steady loop keeps a
///   steady cadence without drift.
/// - A frame later than its target by more than `max_lateness_ns` restarts the schedule at
///   `now + interval`: missed frames are never replayed in a burst.
/// - A change of frame kind, and [`reset`](FramePacer::reset) (session activation, visibility
///   change), restarts the schedule.
/// - Presented frames without a cap return `None`: the swapchain paces them. Pause keeps
///   presenting, so it keeps this schedule.
#[derive(Clone, Debug)]
pub struct FramePacer {
    policy: PacerPolicy,
    schedule: Option<(FrameKind, u64)>,
    resets: u64,
}

fn interval_ns(hz: u32) -> u64 {
    1_000_000_000 / u64::from(hz.max(1))
}

impl FramePacer {
    pub fn new(policy: PacerPolicy) -> Self {
        FramePacer {
            policy,
            schedule: None,
            resets: 0,
        }
    }

    pub fn policy(&self) -> &PacerPolicy {
        &self.policy
    }

    /// The absolute time to wait for before the next frame, or `None` for no wait.
    pub fn next_target(&mut self, now_ns: u64, kind: FrameKind) -> Option<u64> {
        let interval = match kind {
            FrameKind::Presented => self.policy.frame_cap_hz.map(interval_ns),
            FrameKind::Idle => Some(interval_ns(self.policy.idle_hz)),
            FrameKind::Hidden => Some(interval_ns(self.policy.hidden_hz)),
        };
        let Some(interval) = interval else {
            self.schedule = None;
            return None;
        };
        let target = match self.schedule {
            Some((k, previous)) if k == kind => {
                let next = previous.saturating_add(interval);
                if now_ns > next.saturating_add(self.policy.max_lateness_ns) {
                    self.resets += 1;
                    now_ns.saturating_add(interval)
                } else {
                    next
                }
            }
            _ => now_ns.saturating_add(interval),
        };
        self.schedule = Some((kind, target));
        Some(target)
    }

    /// Forgets the schedule.
    pub fn reset(&mut self) {
        self.schedule = None;
    }

    /// Schedules restarted because a frame was too late.
    pub fn lateness_resets(&self) -> u64 {
        self.resets
    }
}
