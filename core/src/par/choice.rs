//! Whether a tick splits its passes at all: two threads are not always faster than one. A
//! machine's second core may be busy elsewhere, or (a virtual machine's two cores sharing one
//! physical core) run both threads at half speed, and a split pass then waits for it: the
//! tick ran slower on both cores than on one. Every tick gives the same results either way.

/// Which way ticks take, split or on one thread, as this machine runs them faster.
///
/// Ticks take one way, and now and then two ticks take the other (a probe): the first lets
/// the worker thread settle into that way (woken and waiting busy for joins, or asleep: see
/// [`super::spin`]), the second is measured against the median of the last three ticks the
/// usual way, and the tick after, back, settles it again. A game's ticks grow and shrink as it
/// plays, so only times taken side by side are compared, and the median leaves one slow
/// tick out (a wave, a cache cold after other work). Where the probe beats them by a tenth,
/// ticks take its way. The first probe comes once the game has settled ([`Threads::FIRST`]);
/// then ticks on one thread probe splitting every [`Threads::OFTEN`] (a freed core shows
/// there), and split ticks probe one thread every [`Threads::SELDOM`], so where splitting
/// pays, probing costs little.
#[derive(Clone, Debug)]
pub struct Threads {
    /// Ticks chosen for, with splitting allowed.
    ticks: u64,
    /// The tick that starts the next probe, and the last probe's measured tick.
    probe: u64,
    last: u64,
    /// The last measured ticks of the usual way.
    usual: Times,
    /// Whether ticks run on one thread (splitting at first).
    one: bool,
    /// Every allowed tick splits, nothing measured (tests that compare split ticks with
    /// serial ones: see [`Threads::always_split`]).
    always: bool,
}

impl Default for Threads {
    fn default() -> Self {
        Threads {
            ticks: 0,
            probe: Self::FIRST,
            last: 0,
            usual: Times::default(),
            one: false,
            always: false,
        }
    }
}

impl Threads {
    /// Ticks not measured at a game's start (its first ticks warm its caches and buffers).
    pub const SETTLE: u64 = 10;
    /// The tick that starts the first probe.
    pub const FIRST: u64 = 30;
    /// Ticks between probes of splitting, on one thread.
    pub const OFTEN: u64 = 64;
    /// Ticks between probes of one thread, splitting.
    pub const SELDOM: u64 = 256;
    /// The share of the usual way's time a probe must beat for ticks to take its way.
    const MARGIN: f64 = 0.9;

    /// How the next tick runs; `allowed`: the tick's options, the machine and the world's
    /// size let it split (else it does not, and teaches nothing).
    pub fn next(&mut self, allowed: bool) -> TickWay {
        if !allowed || self.always {
            return TickWay {
                split: allowed,
                measured: false,
            };
        }
        self.ticks += 1;
        let t = self.ticks;
        // A probe's first tick only settles the worker, its second is measured, and the tick
        // after it settles the worker back.
        let probe = t == self.probe || t == self.probe + 1;
        let measured = t >= Self::SETTLE && t != self.probe && t != self.last + 1;
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

    /// Makes every allowed tick split from now on, whichever way runs faster: for tests that
    /// hold split ticks to the serial ones' results, which a probe that found one thread
    /// faster (a busy machine) would otherwise turn into serial ticks.
    pub fn always_split(&mut self) {
        self.always = true;
    }

    /// Learns from a measured tick that took `nanos` and ran `split` or not.
    pub fn learn(&mut self, split: bool, nanos: u64) {
        if split != self.one {
            self.usual.push(nanos);
            return;
        }
        // A probe, against the usual way's last ticks.
        let Some(usual) = self.usual.typical() else {
            return;
        };
        if (nanos as f64) < usual as f64 * Self::MARGIN {
            self.one = !self.one;
            self.usual = Times::default();
            self.usual.push(nanos);
            self.probe = self.ticks + if self.one { Self::OFTEN } else { Self::SELDOM };
        }
    }

    /// Whether ticks now run on one thread.
    #[cfg(test)]
    pub(crate) fn on_one(&self) -> bool {
        self.one
    }
}

/// One way's last three measured ticks (nanoseconds).
#[derive(Clone, Copy, Debug, Default)]
struct Times {
    last: [u64; 3],
    count: usize,
}

impl Times {
    fn push(&mut self, nanos: u64) {
        self.last[self.count % 3] = nanos;
        self.count += 1;
    }

    /// The median of the last three, or of fewer where fewer were measured (the lower of
    /// two); `None` where none was.
    fn typical(&self) -> Option<u64> {
        let mut t = self.last;
        let n = self.count.min(3);
        t[..n].sort_unstable();
        (n > 0).then(|| t[(n - 1) / 2])
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
        // measured), then every 256 (287, 543, 799, 1055).
        // Splitting twice as fast: one thread is probed at ticks 30 and 31 (the second
        // measured), then 256 ticks after each probe's measured tick.
        let probes = [30, 31, 287, 288, 544, 545, 801, 802, 1058, 1059];
        assert_eq!(run(&mut t, 1100, 50, 100), but(1, 1100, &probes));
        assert!(!t.on_one());
        // The second core is taken (splitting slower than one thread): the next probe (1315
        // and 1316) moves ticks to one thread, where splitting is probed every 64 ticks.
        let taken = run(&mut t, 300, 150, 100);
        assert_eq!(taken, [but(1101, 1314, &[]), vec![1380, 1381]].concat());
        assert!(t.on_one());
        // It is freed: the next probe (1445 and 1446) brings splitting back.
        assert_eq!(run(&mut t, 300, 50, 100), but(1445, 1700, &[]));
        assert!(!t.on_one());
        // Ticks grow slower as the game plays, both ways alike: splitting stays.
        let grows = (0..600).filter(|k| {
            let way = t.next(true);
            if way.measured {
                let load = 1 + k / 100;
                t.learn(way.split, load * if way.split { 60 } else { 100 });
            }
            way.split
        });
        assert_eq!(grows.count(), 600 - 6, "three probes");
        assert!(!t.on_one());
        // Splitting within a tenth of one thread: ticks stay where they are.
        assert_eq!(run(&mut t, 600, 95, 100).len(), 600 - 4);
        assert!(!t.on_one());
        // One slow tick in ten (a cache cold after other work) moves nothing.
        let mut t = Threads::default();
        let ticks = (0..1000).filter(|k| {
            let way = t.next(true);
            if way.measured {
                let slow = if k % 10 == 0 { 3 } else { 1 };
                t.learn(way.split, slow * if way.split { 60 } else { 100 });
            }
            way.split
        });
        assert_eq!(ticks.count(), 1000 - 8);
        assert!(!t.on_one());
        // The ways of a fresh chooser's first ticks: 9 and 10 (the first measured), 29 to 33
        // (the probe at 30 and 31).
        let mut t = Threads::default();
        let ways: Vec<TickWay> = (1..=33).map(|_| t.next(true)).collect();
        let way = |split, measured| TickWay { split, measured };
        assert_eq!(
            [
                ways[8], ways[9], ways[28], ways[29], ways[30], ways[31], ways[32]
            ],
            [
                way(true, false),
                way(true, true),
                way(true, true),
                way(false, false),
                way(false, true),
                way(true, false),
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
        // Always splitting: every allowed tick splits, however slowly, and none is measured.
        t.always_split();
        let ways: Vec<TickWay> = (0..300).map(|_| t.next(true)).collect();
        assert!(ways.iter().all(|w| *w == way(true, false)));
        assert_eq!(t.next(false), way(false, false));
    }
}
