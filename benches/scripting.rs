//! Script host throughput: 100, 1k and 10k collision events per tick through the Lua host,
//! next to the fastest hand-written mlua code for the same batch and handler in the same run
//! (one packed string decoded with `string.unpack`, commands through one Rust callback).
//!
//! The handler: for every event whose first party is a bullet, damage the second by one.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ludus_core::*;
use ludus_script::{Script, ScriptHost};
use std::cell::RefCell;
use std::hint::black_box;
use std::rc::Rc;
use std::sync::Arc;

const HANDLER: &str = r#"
function on_collision_enter(events)
  for i = 1, #events do
    local e = events[i]
    if e.a_kind == "bullet" then
      ludus.damage(e.b, 1)
    end
  end
end
"#;

fn def() -> GameDef {
    let body = |name: &str| ArchetypeDef {
        name: name.into(),
        health: Some(HealthDef {
            max: 100,
            invulnerable_ticks: 0,
        }),
        ..ArchetypeDef::default()
    };
    let mut def = GameDef {
        archetypes: vec![body("bullet"), body("enemy")],
        levels: vec![LevelDef::default()],
        ..GameDef::default()
    };
    def.scripts.instruction_budget = 1_000_000_000;
    def
}

fn events(n: usize) -> Events {
    let party = |seq: u64, a: u16| Party {
        seq,
        archetype: ArchetypeId(a),
        tags: 0,
        pos: Vec2::new(seq as f32, 1.0),
    };
    let mut ev = Events::default();
    for i in 0..n as u64 {
        ev.collision_enter.push(ContactEvent {
            tick: 1,
            phase: ContactPhase::Enter,
            a: party(2 * i + 1, (i % 2) as u16),
            b: party(2 * i + 2, 1),
            normal: Vec2::new(1.0, 0.0),
            depth: 0.5,
        });
    }
    ev
}

/// The reference: hand-written mlua with the fastest known batch encoding.
struct Reference {
    lua: mlua::Lua,
    handler: mlua::Function,
    out: Rc<RefCell<Vec<(u64, i32)>>>,
    blob: Vec<u8>,
}

impl Reference {
    fn new() -> Reference {
        let lua = mlua::Lua::new();
        let out = Rc::new(RefCell::new(Vec::new()));
        let o = out.clone();
        let emit = lua
            .create_function(move |_, (target, amount): (i64, i32)| {
                o.borrow_mut().push((target as u64, amount));
                Ok(())
            })
            .unwrap();
        lua.globals().set("emit", emit).unwrap();
        let handler: mlua::Function = lua
            .load(
                r#"
                local unpack = string.unpack
                return function(blob, n)
                  local pos = 1
                  for _ = 1, n do
                    local tick, a, b, ak, bk, at, bt, ax, ay, bx, by
                    tick, a, b, ak, bk, at, bt, ax, ay, bx, by, pos = unpack("<jjjI2I2jjffff", blob, pos)
                    if ak == 0 then emit(b, 1) end
                  end
                end
                "#,
            )
            .eval()
            .unwrap();
        Reference {
            lua,
            handler,
            out,
            blob: Vec::new(),
        }
    }

    fn run(&mut self, ev: &Events) -> usize {
        self.blob.clear();
        for e in &ev.collision_enter {
            for v in [e.tick, e.a.seq, e.b.seq] {
                self.blob.extend_from_slice(&v.to_le_bytes());
            }
            self.blob.extend_from_slice(&e.a.archetype.0.to_le_bytes());
            self.blob.extend_from_slice(&e.b.archetype.0.to_le_bytes());
            self.blob.extend_from_slice(&e.a.tags.to_le_bytes());
            self.blob.extend_from_slice(&e.b.tags.to_le_bytes());
            for f in [e.a.pos.x, e.a.pos.y, e.b.pos.x, e.b.pos.y] {
                self.blob.extend_from_slice(&f.to_le_bytes());
            }
        }
        self.out.borrow_mut().clear();
        let s = self.lua.create_string(&self.blob).unwrap();
        self.handler
            .call::<()>((s, ev.collision_enter.len()))
            .unwrap();
        self.out.borrow().len()
    }
}

fn throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("script_events");
    let def = Arc::new(def());
    for n in [100usize, 1_000, 10_000] {
        let ev = events(n);
        group.throughput(Throughput::Elements(n as u64));
        let script = Script {
            path: "bench.lua".into(),
            text: HANDLER.into(),
        };
        let mut host = ScriptHost::new(def.clone(), vec![script], None).unwrap();
        let mut world = SimWorld::build(&def, 0, WorldId(1), 0).unwrap();
        host.begin_world(&def, &world).unwrap();
        // Check both produce the same commands before timing them.
        let cmds = run_stage_detached(&mut world, &def, &ev, Stage::One, &mut host).unwrap();
        let mut reference = Reference::new();
        assert_eq!(cmds.len(), reference.run(&ev));
        assert_eq!(cmds.len(), n / 2);
        group.bench_with_input(BenchmarkId::new("ludus_host", n), &n, |b, _| {
            b.iter(|| {
                black_box(
                    run_stage_detached(&mut world, &def, &ev, Stage::One, &mut host)
                        .unwrap()
                        .len(),
                )
            })
        });
        group.bench_with_input(BenchmarkId::new("handwritten_mlua", n), &n, |b, _| {
            b.iter(|| black_box(reference.run(&ev)))
        });
        let mut hooked = Reference::new();
        hooked
            .lua
            .set_global_hook(
                mlua::HookTriggers::new().every_nth_instruction(1000),
                |_, _| Ok(mlua::VmState::Continue),
            )
            .unwrap();
        group.bench_with_input(
            BenchmarkId::new("handwritten_mlua_hooked", n),
            &n,
            |b, _| b.iter(|| black_box(hooked.run(&ev))),
        );
    }
    group.finish();
}

criterion_group!(benches, throughput);
criterion_main!(benches);
