#!/usr/bin/env python3
"""Re-records win.jsonl: a simple pilot plays examples/asteroids through `ludus sim`.

Usage: python3 examples/asteroids/tests/pilot.py [LUDUS_BINARY] > examples/asteroids/tests/win.jsonl

The pilot sees the game the only way a headless run allows: it copies the game to a temporary
folder with one extra script that prints the ship and the rocks on one chosen tick, runs
`ludus sim` up to that tick with the input so far, and decides the next CHUNK ticks of input
from what it printed (the extra script only reads, so the copy plays exactly as the game does).
It burns the engine for a moment at the start, then turns toward the rock it can hit soonest,
leading it, and fires when lined up; with nothing in range it turns toward the nearest rock and
burns the engine to close in. Keys only: the turn axis is -1, 0 or 1.
"""
import json, math, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GAME = os.path.dirname(HERE)
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(GAME, '../../target/debug/ludus')
CHUNK = 12            # ticks decided per look at the game
OPENING = 30          # engine and right turn held until this tick
W, H = 880, 680       # where everything wraps: the level's bounds and the 40-unit margins
BULLET_SPEED = 420    # game.toml: constants.bullet_speed
BULLET_TIME = 50 / 60 # archetypes.bullet.lifetime, in seconds
TURN = 4.5 / 60       # archetypes.ship.control.turn_speed, per tick

work = tempfile.mkdtemp()
copy = os.path.join(work, 'game')
shutil.copytree(GAME, copy, ignore=shutil.ignore_patterns('tests'))
toml = open(os.path.join(copy, 'game.toml')).read().replace(
    'files = ["scripts/asteroids.lua"]', 'files = ["scripts/asteroids.lua", "scripts/look.lua"]')
open(os.path.join(copy, 'game.toml'), 'w').write(toml)


def look(lines, tick):
    """Runs the game to `tick` with `lines` of input: (summary, ship or None, rocks)."""
    open(os.path.join(copy, 'scripts/look.lua'), 'w').write(f'''
function on_tick(t)
  if t.tick ~= {tick} then return end
  for _, id in ipairs(ludus.find("ship")) do
    local x, y = ludus.pos(id); local vx, vy = ludus.vel(id)
    print("S", x, y, vx, vy, ludus.angle(id))
  end
  for _, id in ipairs(ludus.find("rock")) do
    local x, y = ludus.pos(id); local vx, vy = ludus.vel(id)
    print("R", x, y, vx, vy)
  end
end
''')
    inp = os.path.join(work, 'in.jsonl')
    open(inp, 'w').write(''.join(json.dumps(l, separators=(',', ':')) + '\n' for l in lines))
    o = subprocess.run([BIN, 'sim', copy, '--ticks', str(tick), '--input', inp],
                       capture_output=True, text=True, check=True)
    ship, rocks = None, []
    for ln in o.stderr.splitlines():
        parts = ln.split('\t')
        head = parts[0].split(': ')[-1]
        if head == 'S':
            ship = [float(v) for v in parts[1:]]
        elif head == 'R':
            rocks.append([float(v) for v in parts[1:]])
    return json.loads(o.stdout), ship, rocks


def wrapped(d, size):
    return (d + size / 2) % size - size / 2


def angle_to(a, b):
    return (a - b + math.pi) % (2 * math.pi) - math.pi


def aim(ship, rock):
    """(seconds, heading) of a bullet fired now that meets the rock, or None."""
    dx, dy = wrapped(rock[0] - ship[0], W), wrapped(rock[1] - ship[1], H)
    ux, uy = rock[2] - ship[2], rock[3] - ship[3]  # bullets carry the ship's velocity
    a = ux * ux + uy * uy - BULLET_SPEED ** 2
    b = 2 * (dx * ux + dy * uy)
    c = dx * dx + dy * dy
    disc = b * b - 4 * a * c
    if disc < 0:
        return None
    ts = [t for t in ((-b - math.sqrt(disc)) / (2 * a), (-b + math.sqrt(disc)) / (2 * a)) if t >= 0]
    if not ts:
        return None
    t = min(ts)
    return t, math.atan2(dy + uy * t, dx + ux * t)


lines, held = [], {'turn': 0, 'fire': False, 'thrust': False}


def keys(tick, turn, fire, thrust):
    line = {'tick': tick}
    if turn != held['turn']:
        line['axis'] = {'turn': turn}
    for name, down in (('fire', fire), ('thrust', thrust)):
        if down != held[name]:
            line.setdefault('press' if down else 'release', []).append(name)
    held.update(turn=turn, fire=fire, thrust=thrust)
    if len(line) > 1:
        lines.append(line)


tick = 1
while tick < 20000:
    summary, ship, rocks = look(lines, tick)
    if summary['game_over']:
        print(summary, file=sys.stderr)
        break
    if not ship or not rocks:
        for k in range(1, CHUNK + 1):
            opening = ship and tick + k < OPENING
            keys(tick + k, 1 if opening else 0, False, bool(opening))
        tick += CHUNK
        continue
    shots = [(t + abs(angle_to(h, ship[4])) / 4.5, h) for t, h in filter(None, (aim(ship, r) for r in rocks))
             if t < BULLET_TIME * 0.95]
    target = min(shots)[1] if shots else None
    angle, speed = ship[4], math.hypot(ship[2], ship[3])
    if target is None:
        near = min(rocks, key=lambda r: math.hypot(wrapped(r[0] - ship[0], W), wrapped(r[1] - ship[1], H)))
        hunt = math.atan2(wrapped(near[1] - ship[1], H), wrapped(near[0] - ship[0], W))
    for k in range(1, CHUNK + 1):
        if tick + k < OPENING:
            keys(tick + k, 1, False, True)
            angle += TURN
            continue
        err = angle_to(target if target is not None else hunt, angle)
        turn = 0 if abs(err) < TURN / 2 else (1 if err > 0 else -1)
        angle += turn * TURN
        if target is None:
            keys(tick + k, turn, False, abs(err) < 0.3 and speed < 150)
        else:
            keys(tick + k, turn, abs(angle_to(target, angle)) < 0.06, False)
    tick += CHUNK

shutil.rmtree(work)
sys.stdout.write(''.join(json.dumps(l, separators=(',', ':')) + '\n' for l in lines))
