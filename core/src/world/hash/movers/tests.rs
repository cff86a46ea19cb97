//! The pass over moving rows with kept records, four rows at a time and one at a time, against
//! the records hashed afresh.

use super::*;
use crate::def::ArchetypeId;
use crate::world::components::{Deadline, Identity, Lifetime, Position, Velocity};
use crate::world::hash::record::position;
use crate::world::hash::record::{lifetime_words, velocity, words};
use crate::world::hash::tests::{changed_rows, vec};

/// The rows' columns, owned; `life` empty where the rows keep no lifetime.
#[derive(Clone)]
struct Columns {
    id: Vec<Identity>,
    pos: Vec<Position>,
    vel: Vec<Velocity>,
    life: Option<Vec<Lifetime>>,
}

impl Columns {
    fn rows(&self) -> MoverRows<'_> {
        MoverRows {
            id: &self.id,
            pos: &self.pos,
            vel: &self.vel,
            life: self.life.as_deref(),
        }
    }
}

/// A lifetime: inactive, or ending at a tick (0 among them, the word an absent lifetime is
/// kept as).
fn life(rng: &mut fastrand::Rng) -> Lifetime {
    Lifetime(match rng.u8(..4) {
        0 => Deadline::INACTIVE,
        1 => Deadline::after(0, 0).expect("tick 0"),
        _ => Deadline::after(rng.u64(..1000), rng.u64(..100)).expect("a tick"),
    })
}

fn columns(rng: &mut fastrand::Rng, n: usize, lives: bool) -> Columns {
    Columns {
        id: (0..n)
            .map(|k| Identity::new(k as u64 + 1, ArchetypeId(rng.u16(..4))))
            .collect(),
        pos: (0..n).map(|_| Position(vec(rng))).collect(),
        vel: (0..n).map(|_| Velocity(vec(rng))).collect(),
        life: lives.then(|| (0..n).map(|_| life(rng)).collect()),
    }
}

/// Changes some rows as ticks do: a velocity, a lifetime, a row given to another entity (a
/// new one, or another row's, as a removal moves the last row into a gap), a position
/// (always).
fn change(rng: &mut fastrand::Rng, c: &mut Columns, next_seq: &mut u64) {
    let n = c.id.len();
    for r in changed_rows(rng, &mut c.pos) {
        match rng.u8(..4) {
            0 => c.vel[r] = Velocity(vec(rng)),
            1 => {
                if let Some(l) = &mut c.life {
                    l[r] = life(rng);
                }
            }
            2 => {
                *next_seq += 1;
                c.id[r] = Identity::new(*next_seq, ArchetypeId(rng.u16(..4)));
            }
            _ => {
                let other = rng.usize(..n);
                c.id.swap(r, other);
                c.vel.swap(r, other);
                if let Some(l) = &mut c.life {
                    l.swap(r, other);
                }
            }
        }
    }
}

/// Over ticks of changing rows, with and without lifetimes, in runs taken as a split pass
/// takes them, both ways give the sums of every row's records hashed afresh.
#[test]
fn both_ways_give_the_records_hashed_afresh() {
    let mut rng = fastrand::Rng::with_seed(21);
    for case in 0..300 {
        let n = rng.usize(..40);
        let lives = rng.bool();
        let mut c = columns(&mut rng, n, lives);
        let mut next_seq = n as u64;
        let (mut wide, mut one) = (Movers::default(), Movers::default());
        for tick in 0..12 {
            let mut want = [0u64; 3];
            for r in 0..n {
                let i = &c.id[r];
                let life = c
                    .life
                    .as_ref()
                    .map_or(0, |l| words(lifetime_words(i, &l[r])));
                let row = [position(i, &c.pos[r]), velocity(i, &c.vel[r]), life];
                for (w, h) in want.iter_mut().zip(row) {
                    *w = w.wrapping_add(h);
                }
            }
            // Runs of whole chunks, as a split pass takes them (see `rows`).
            let run = 4 * rng.usize(1..4);
            for (movers, by_wide) in [(&mut wide, true), (&mut one, false)] {
                let (mut slots, mut got) = (movers.slots(n), [0u64; 3]);
                for at in (0..n).step_by(run) {
                    let len = run.min(n - at);
                    let cols = c.rows();
                    let rows = MoverRows {
                        id: &cols.id[at..at + len],
                        pos: &cols.pos[at..at + len],
                        vel: &cols.vel[at..at + len],
                        life: cols.life.map(|l| &l[at..at + len]),
                    };
                    let sums = slots.take_front(len).sums_by(&rows, by_wide);
                    for (g, s) in got.iter_mut().zip(sums) {
                        *g = g.wrapping_add(s);
                    }
                }
                assert_eq!(got, want, "case {case} tick {tick} wide {by_wide}");
            }
            change(&mut rng, &mut c, &mut next_seq);
        }
    }
}
