//! Whether a tick splits its passes at all: two threads are not always faster than one. A
//! machine's second core may be busy elsewhere, or (a virtual machine's two cores sharing one
//! physical core) run both threads at half speed, and a split pass then waits for it: the
//! tick ran slower on both cores than on one. Every tick gives the same results either way.

/// How long ticks took with their passes split and without, and which way ticks take.
///
/// Ticks take the way that ran faster, and now and then two ticks take the other (a probe:
/// the first lets the worker thread settle into that way, woken and waiting busy for joins
/// or asleep, see [`super::spin`]; the second is measured). The first probe comes once the
/// game has settled ([`Threads::FIRST`]); ticks on one thread probe splitting every
/// [`Threads::OFTEN`] (a freed core shows only there); split ticks probe one thread every
/// [`Threads::SELDOM`], or as soon as they come near its last time (a core taken shows in
/// their own), so where splitting pays, probing costs little. A way's time is a moving
/// average of its ticks' (a quarter of the way to each new one, half for a probe's, which
/// come seldom), so one slow or fast tick moves it little; the other way is taken where it
/// beats the way taken by a tenth.
///
/// Invariant: `one` changes only when both ways have been measured.
#[derive(Clone, Debug)]
pub struct Threads {
    /// Ticks chosen for, with splitting allowed.
    ticks: u64,
    /// The tick that starts the next probe, and the last probe's measured tick.
    probe: u64,
    last: u64,
    /// The mean tick with passes split, and on one thread (nanoseconds; `None`: not yet run
    /// that way).
    split: Option<f64>,
    serial: Option<f64>,
    /// Whether ticks run on one thread: the faster way so far (splitting at first).
    one: bool,
}

impl Default for Threads {
    fn default() -> Self {
        Threads {
            ticks: 0,
            probe: Self::FIRST,
            last: 0,
            split: None,
            serial: None,
            one: false,
        }
    }
}

impl Threads {
    /// The tick that starts the first probe (a game's first ticks warm its caches).
    pub const FIRST: u64 = 30;
    /// Ticks between probes of splitting, on one thread.
    pub const OFTEN: u64 = 64;
    /// The most ticks between probes of one thread, splitting.
    pub const SELDOM: u64 = 1024;
    /// Ticks after a probe before split ticks' times may call the next.
    const CALM: u64 = 16;
    /// The share of the way taken's time the other way must beat to be taken instead.
    const MARGIN: f64 = 0.9;
    /// The share of one thread's time past which split ticks probe it again.
    const NEAR: f64 = 0.8;

    /// How the next tick runs; `allowed`: the tick's options and the machine let it split
    /// (else it does not, and teaches nothing).
    pub fn next(&mut self, allowed: bool) -> TickWay {
        if !allowed {
            return TickWay {
                split: false,
                measured: false,
            };
        }
        self.ticks += 1;
        let t = self.ticks;
        // A probe's first tick only settles the worker; its second is measured.
        let (probe, measured) = (t == self.probe || t == self.probe + 1, t != self.probe);
        if t == self.probe + 1 {
            self.last = t;
            self.probe = t + if self.one { Self::OFTEN } else { Self::SELDOM };
        }
        TickWay {
            // Split where ticks run on one thread and this one probes, or the other way round.
            split: self.one == probe,
            measured,
        }
    }

    /// Learns from a tick that took `nanos` with its passes split (`split`) or not.
    pub fn learn(&mut self, split: bool, nanos: u64) {
        let slot = if split {
            &mut self.split
        } else {
            &mut self.serial
        };
        let (t, weight) = (nanos as f64, if split == self.one { 0.5 } else { 0.25 });
        *slot = Some(slot.map_or(t, |m| m + (t - m) * weight));
        if let (Some(split), Some(serial)) = (self.split, self.serial) {
            if self.one && split < serial * Self::MARGIN {
                self.one = false;
            } else if !self.one && serial < split * Self::MARGIN {
                self.one = true;
                self.probe = self.probe.min(self.ticks + Self::OFTEN);
            } else if !self.one && split > serial * Self::NEAR {
                // Splitting comes near one thread's time: probe it soon.
                let soon = (self.ticks + 1).max(self.last + Self::CALM);
                self.probe = self.probe.min(soon);
            }
        }
    }

    /// Whether ticks now run on one thread.
    #[cfg(test)]
    pub(crate) fn on_one(&self) -> bool {
        self.one
    }
}

/// How one tick runs: split or not, and whether its time teaches [`Threads`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TickWay {
    pub split: bool,
    pub measured: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `n` ticks that take `split` or `serial` nanoseconds by the way they run; returns
    /// the ticks (from 1) that split.
    fn run(t: &mut Threads, n: u64, split: u64, serial: u64) -> Vec<u64> {
        (0..n)
            .filter_map(|_| {
                let way = t.next(true);
                if way.measured {
                    t.learn(way.split, if way.split { split } else { serial });
                }
                way.split.then_some(t.ticks)
            })
            .collect()
    }

    /// The ticks from `from` to `to` but `not`.
    fn but(from: u64, to: u64, not: &[u64]) -> Vec<u64> {
        (from..=to).filter(|k| !not.contains(k)).collect()
    }

    #[test]
    fn ticks_take_the_faster_way_and_probe_the_other() {
        let mut t = Threads::default();
        // Splitting twice as fast: one thread is probed at ticks 30 and 31 (the second
        // measured), then 1024 ticks on (1055 and 1056).
        assert_eq!(
            run(&mut t, 1100, 50, 100),
            but(1, 1100, &[30, 31, 1055, 1056])
        );
        assert!(!t.on_one());
        // The second core is taken (splitting slower than one thread): splitting comes near
        // one thread's time at 1102, which is probed at 1103 and 1104, then again 16 ticks
        // after (1120 and 1121) as it stays near; by 1106 splitting is slower by more than a
        // tenth and ticks run on one thread, splitting probed every 64 (from 1120).
        assert_eq!(
            run(&mut t, 140, 150, 100),
            [1101, 1102, 1105, 1106, 1120, 1121, 1185, 1186]
        );
        assert!(t.on_one());
        // It is freed: two probes bring splitting back (its time 92, then 71, of 100), and one
        // thread is probed again 64 ticks on (1380 and 1381), as on one thread.
        let freed = run(&mut t, 200, 50, 100);
        assert_eq!(freed[..4], [1250, 1251, 1315, 1316]);
        assert_eq!(freed[4..], but(1317, 1440, &[1380, 1381]));
        assert!(!t.on_one());
        // Splitting comes near one thread's time (85 of 100): one thread is probed every 17
        // ticks (16 after the last probe's measured tick), and splitting stays.
        let near = run(&mut t, 60, 85, 100);
        assert_eq!(
            near,
            but(
                1441,
                1500,
                &[1448, 1449, 1465, 1466, 1482, 1483, 1499, 1500]
            )
        );
        assert!(!t.on_one());
        // The ways of a fresh chooser's first probe.
        let mut t = Threads::default();
        let ways: Vec<TickWay> = (1..=32).map(|_| t.next(true)).collect();
        let way = |split, measured| TickWay { split, measured };
        assert_eq!(
            ways[28..],
            [
                way(true, true),
                way(false, false),
                way(false, true),
                way(true, true)
            ]
        );
        // Not allowed: no split, nothing learnt, no probe counted.
        let before = format!("{t:?}");
        assert!((0..100).all(|_| t.next(false)
            == TickWay {
                split: false,
                measured: false
            }));
        assert_eq!(format!("{t:?}"), before);
    }
}
