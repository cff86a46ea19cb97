#!/usr/bin/env python3
"""Re-records clear.jsonl: a simple pilot plays examples/dungeon through `ludus sim`.

Usage: python3 examples/dungeon/tests/pilot.py [LUDUS_BINARY] > examples/dungeon/tests/clear.jsonl

The pilot sees the game the only way a headless run allows: it copies the game to a temporary
folder with one extra script that prints the hero and the foes on one chosen tick, runs
`ludus sim` up to that tick with the input so far, and decides the next CHUNK ticks of input
from what it printed (the extra script only reads, so the copy plays exactly as the game does).
It dashes once at the start, then walks toward the nearest foe (through the door when the foe
is in the other room) and thrusts the sword whenever one is within reach. Keys only would do;
it uses the axes' full range.
"""
import json, math, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GAME = os.path.dirname(HERE)
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(GAME, '../../target/debug/ludus')
CHUNK = 6             # ticks decided per look at the game
LAST = 3600           # give up after this tick
WALL_X = (352, 384)   # the wall between the rooms (levels/keep.toml: column 11)
DOOR = (160, 256)     # the door's y span
REACH = 44            # thrust when a foe is this near

work = tempfile.mkdtemp()
copy = os.path.join(work, 'game')
shutil.copytree(GAME, copy, ignore=shutil.ignore_patterns('tests'))
toml = open(os.path.join(copy, 'game.toml')).read().replace(
    'files = ["scripts/dungeon.lua"]', 'files = ["scripts/dungeon.lua", "scripts/look.lua"]')
open(os.path.join(copy, 'game.toml'), 'w').write(toml)


def look(lines, tick):
    """Runs the game to `tick` with `lines` of input: (summary, hero or None, foes)."""
    open(os.path.join(copy, 'scripts/look.lua'), 'w').write(f'''
function on_tick(t)
  if t.tick ~= {tick} then return end
  for _, id in ipairs(ludus.find("hero")) do print("H", ludus.pos(id)) end
  for _, id in ipairs(ludus.find("foe")) do print("F", ludus.pos(id)) end
end
''')
    inp = os.path.join(work, 'in.jsonl')
    open(inp, 'w').write(''.join(json.dumps(l, separators=(',', ':')) + '\n' for l in lines))
    o = subprocess.run([BIN, 'sim', copy, '--ticks', str(tick), '--input', inp],
                       capture_output=True, text=True, check=True)
    hero, foes = None, []
    for ln in o.stderr.splitlines():
        parts = ln.split('\t')
        head = parts[0].split(': ')[-1]
        if head == 'H':
            hero = [float(v) for v in parts[1:]]
        elif head == 'F':
            foes.append([float(v) for v in parts[1:]])
    return json.loads(o.stdout), hero, foes


def room(x):
    return 0 if x < WALL_X[0] else 1 if x > WALL_X[1] else None


def waypoint(hero, foe):
    """Where to walk: the foe, or the door on the way to it."""
    here, there = room(hero[0]), room(foe[0])
    if here is None or there is None or here == there:
        return foe
    mid = (DOOR[0] + DOOR[1]) / 2
    if not DOOR[0] + 14 < hero[1] < DOOR[1] - 14:
        return [WALL_X[0] - 24 if here == 0 else WALL_X[1] + 24, mid]
    return [WALL_X[1] + 30 if here == 0 else WALL_X[0] - 30, mid]


def main():
    lines = []
    tick = 1
    while tick < LAST:
        summary, hero, foes = look(lines, tick)
        if summary['game_over'] is not None or hero is None or not foes:
            break
        foe = min(foes, key=lambda f: math.hypot(f[0] - hero[0], f[1] - hero[1]))
        to = waypoint(hero, foe)
        dx, dy = to[0] - hero[0], to[1] - hero[1]
        d = math.hypot(dx, dy) or 1.0
        line = {'tick': tick + 1, 'axis': {'move_x': round(dx / d, 2), 'move_y': round(dy / d, 2)}}
        if math.hypot(foe[0] - hero[0], foe[1] - hero[1]) < REACH:
            line['tap'] = ['attack']
        elif not lines:
            line['tap'] = ['dash']
        lines.append(line)
        tick += CHUNK
    for l in lines:
        print(json.dumps(l, separators=(',', ':')))


main()
