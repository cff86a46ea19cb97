#!/usr/bin/env python3
"""Draws the bundled examples' sprite sheets into their images/ folders (standard library
only): swarm's ships, enemies, shots, gems, pillars, floor and pixel font, platformer's
ground tiles and HUD hearts, breakout's HUD balls, dungeon's tiles, hero, slime, bat and
sword; and their sounds.

Each sheet is a row of equal frames. Shapes are described by signed distances and coloured
in layers, with 4x4 samples per pixel for smooth edges. Run it from anywhere:

    python3 examples/make_assets.py
"""

import math
import os
import random
import struct
import subprocess
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SUB = 4  # samples per pixel side


def write_png(path, w, h, rgba):
    raw = b"".join(b"\x00" + bytes(rgba[y * w * 4:(y + 1) * w * 4]) for y in range(h))

    def chunk(kind, data):
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def hexc(s, a=255):
    s = s.lstrip("#")
    return (int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16), a)


def sheet(game, name, size, frames, paint, height=None):
    """`paint(frame, x, y)` gives the colour at (x, y) in [-1, 1]^2 (+x right, +y down) or None.
    Frames are `size` pixels wide and `height` (else `size`) high."""
    h = height or size
    w = size * frames
    px = bytearray(w * h * 4)
    for f in range(frames):
        for py in range(h):
            for pxl in range(size):
                acc = [0.0, 0.0, 0.0, 0.0]
                for sy in range(SUB):
                    for sx in range(SUB):
                        x = ((pxl + (sx + 0.5) / SUB) / size) * 2 - 1
                        y = ((py + (sy + 0.5) / SUB) / h) * 2 - 1
                        c = paint(f, x, y)
                        if c:
                            a = c[3] / 255.0
                            acc[0] += c[0] * a
                            acc[1] += c[1] * a
                            acc[2] += c[2] * a
                            acc[3] += a
                n = SUB * SUB
                o = (py * w + f * size + pxl) * 4
                if acc[3] > 0:
                    px[o:o + 4] = bytes((round(acc[0] / acc[3]), round(acc[1] / acc[3]),
                                         round(acc[2] / acc[3]), round(255 * acc[3] / n)))
    out = os.path.join(HERE, game, "images")
    os.makedirs(out, exist_ok=True)
    write_png(os.path.join(out, name + ".png"), w, h, px)


def over(*layers):
    """The first layer that covers the point."""
    for c in layers:
        if c:
            return c
    return None


def shade(c, k):
    return (min(255, int(c[0] * k)), min(255, int(c[1] * k)), min(255, int(c[2] * k)), c[3])


def player(f, x, y):
    # A dart pointing +x: a triangle with a notch at the back, an outline, a cockpit, and an
    # engine flame that flickers from frame to frame.
    body = hexc("4cc9f0")
    dark = hexc("1b6f8c")
    flame_len = (0.30, 0.42, 0.26, 0.38)[f]
    tip, back = 0.85, -0.65
    half = 0.62 * (tip - x) / (tip - back) if back <= x <= tip else -1
    notch = x < -0.40 + 0.45 * abs(y)
    inside = abs(y) < half and not notch
    edge = abs(y) < half + 0.09 and not (x < -0.49 + 0.45 * abs(y)) and back - 0.06 <= x <= tip + 0.08
    cockpit = (x - 0.18) ** 2 / 0.05 + y ** 2 / 0.012 < 1
    flame = -0.62 - flame_len < x < -0.45 and abs(y) < 0.14 * (x + 0.62 + flame_len) / flame_len
    return over(
        hexc("e0fbfc") if inside and cockpit else None,
        shade(body, 1.0 - 0.2 * max(0.0, y)) if inside else None,
        dark if edge else None,
        hexc("ffd166") if flame and abs(y) < 0.06 * (x + 0.62 + flame_len) / flame_len + 0.01 else None,
        hexc("f77f00") if flame else None,
    )


def grunt(f, x, y):
    # A red spiky blob whose spikes turn a little each frame, with one eye looking +x.
    r = math.hypot(x, y)
    a = math.atan2(y, x) + f * (math.pi / 16)
    spikes = 0.70 + 0.16 * max(0.0, math.cos(8 * a)) ** 3
    eye = math.hypot(x - 0.22, y) < 0.22
    pupil = math.hypot(x - 0.30, y) < 0.10
    return over(
        hexc("10131c") if pupil else None,
        hexc("ffffff") if eye else None,
        shade(hexc("ef476f"), 1.15 - 0.4 * r) if r < spikes else None,
        hexc("8d1b3d") if r < spikes + 0.08 else None,
    )


def brute(f, x, y):
    # An armoured purple block with rivets and a core that pulses.
    pulse = (0.22, 0.27, 0.31, 0.27)[f]
    box = max(abs(x), abs(y))
    rivet = any(math.hypot(x - sx * 0.62, y - sy * 0.62) < 0.08 for sx in (-1, 1) for sy in (-1, 1))
    core = math.hypot(x, y)
    return over(
        hexc("f15bb5") if core < pulse else None,
        hexc("fee440") if core < pulse + 0.06 else None,
        hexc("3a1c71") if rivet else None,
        shade(hexc("9b5de5"), 1.1 - 0.3 * (x + y) / 2) if box < 0.80 else None,
        hexc("4a2a82") if box < 0.92 else None,
    )


def drone(f, x, y):
    # A small orange diamond with a bright centre.
    d = abs(x) + abs(y)
    return over(
        hexc("ffe8a3") if d < 0.3 else None,
        hexc("f4a261") if d < 0.8 else None,
        hexc("9c4f1c") if d < 0.95 else None,
    )


def bullet(f, x, y):
    # A glowing shot: a white-hot centre in a yellow glow that pulses.
    r = math.hypot(x, y)
    glow = (0.95, 0.8)[f]
    return over(
        hexc("ffffff") if r < 0.35 else None,
        hexc("ffd166") if r < 0.65 else None,
        hexc("ffd166", int(255 * max(0.0, 1 - (r - 0.65) / (glow - 0.65)) * 0.6)) if r < glow else None,
    )


def gem(f, x, y):
    # A green gem turning about its vertical axis: its width follows the cosine of the turn.
    turn = abs(math.cos(f * math.pi / 6)) * 0.75 + 0.12
    d = abs(x) / turn + abs(y) / 0.9
    facet = x > 0 if f % 6 < 3 else x < 0
    return over(
        hexc("c7f9cc") if d < 0.35 else None,
        shade(hexc("57cc99"), 1.2 if facet else 0.85) if d < 0.85 else None,
        hexc("22577a") if d < 1.0 else None,
    )


def pillar(f, x, y):
    # A stone block: bevelled edges, a lighter top-left, cracks.
    box = max(abs(x), abs(y))
    crack = abs(y - 0.3 * x - 0.1) < 0.025 and -0.5 < x < 0.2
    crack2 = abs(x + 0.5 * y - 0.35) < 0.025 and 0.1 < y < 0.6
    light = 1.15 if (x + y) < 0 else 0.9
    return over(
        hexc("1c2030") if (crack or crack2) and box < 0.8 else None,
        shade(hexc("2b3044"), light) if box < 0.82 else None,
        shade(hexc("3c4460"), light) if box < 0.96 else None,
    )


def floor(f, x, y):
    # Floor tiles, dark so the fight stays readable: plain plates with a seam, one with a
    # crack, one with bolts, one a vent grate.
    base = hexc("151a28")
    seam = max(abs(x), abs(y)) > 0.93
    if seam:
        return hexc("10131c")
    if f == 1 and abs(y - 0.4 * x + 0.2) < 0.03 and -0.6 < x < 0.5:
        return hexc("0e111a")
    if f == 2 and any(math.hypot(x - sx * 0.7, y - sy * 0.7) < 0.07 for sx in (-1, 1) for sy in (-1, 1)):
        return hexc("232a3d")
    if f == 3 and max(abs(x), abs(y)) < 0.7:
        return hexc("0f121b") if int((y + 1) * 6) % 2 == 0 else hexc("1b2133")
    return shade(base, 1.0 + 0.06 * (y - x) / 2)


def ground(f, x, y):
    # 32-unit ground tiles: 0 grass on top of earth, 1 earth, 2 earth with pebbles, 3 rock.
    grass, earth, dark = hexc("5b8c3a"), hexc("7a5a3a"), hexc("5e4329")
    pebble = any(math.hypot(x - px, y - py) < r for px, py, r in ((-0.5, 0.3, 0.16), (0.35, -0.4, 0.12), (0.5, 0.55, 0.1)))
    if f == 0:
        blade = y < -0.45 + 0.12 * math.sin(x * 9.0)
        return over(shade(grass, 1.1) if y < -0.75 else None, grass if blade else None,
                    dark if y < -0.35 and not blade else None, earth)
    if f == 1:
        return over(dark if abs(y - 0.2 * math.sin(x * 3)) < 0.05 else None, earth)
    if f == 2:
        return over(hexc("a89a8a") if pebble else None, earth)
    rock = hexc("7f6a55")
    crack = abs(x + 0.3 * y) < 0.04 and y > -0.2
    return over(hexc("5a4a3c") if crack or max(abs(x), abs(y)) > 0.94 else None,
                shade(rock, 1.1 if x + y < 0 else 0.95))


def dungeon_tiles(f, x, y):
    # 32-unit dungeon tiles: 0 flagstones, 1 flagstones with a crack, 2 a brick wall.
    if f == 2:
        row = int((y + 1) * 2)
        shift = 0.5 if row % 2 else 0.0
        mortar = abs(((y + 1) * 2) % 1 - 0.5) > 0.44 or abs(((x + 1) + shift) % 1 - 0.5) > 0.45
        return hexc("2a2233") if mortar else shade(hexc("6b5b7b"), 1.08 if (x + y) < 0 else 0.92)
    seam = max(abs(x), abs(y)) > 0.92
    if seam:
        return hexc("1d1a22")
    if f == 1 and abs(y + 0.5 * x - 0.1) < 0.04 and -0.7 < x < 0.4:
        return hexc("22202a")
    return shade(hexc("3b3546"), 1.0 + 0.05 * (y - x) / 2)


def dungeon_hero(f, x, y):
    # Seen from above, facing +x: a green hood, a face, two boots; frames step the boots.
    step = 0.12 if f % 2 else -0.12
    boots = any(math.hypot(x + 0.35, y - by) < 0.2 for by in (-0.38 + step, 0.38 - step))
    hood = math.hypot(x + 0.05, y) < 0.62
    face = math.hypot(x - 0.3, y) < 0.32
    eye = any(math.hypot(x - 0.42, y - ey) < 0.06 for ey in (-0.12, 0.12))
    return over(
        hexc("1b1b1b") if eye else None,
        hexc("f4c7a1") if face else None,
        shade(hexc("3fa34d"), 1.1 if y < 0 else 0.9) if hood else None,
        hexc("2d6a4f") if math.hypot(x + 0.05, y) < 0.72 else None,
        hexc("6f4518") if boots else None,
    )


def dungeon_slime(f, x, y):
    # A green blob that squashes from frame to frame, with a shine and two eyes.
    sq = 1.0 if f == 0 else 1.12
    d = math.hypot(x / sq, (y - 0.15) * sq / 0.8)
    eye = any(math.hypot(x - ex, y + 0.05) < 0.1 for ex in (-0.25, 0.25))
    return over(
        hexc("10240f") if eye and d < 0.85 else None,
        hexc("c8f7c5") if math.hypot(x + 0.35, y + 0.2) < 0.13 else None,
        shade(hexc("70e000"), 1.0 - 0.3 * max(0.0, y)) if d < 0.8 else None,
        hexc("38b000") if d < 0.92 else None,
    )


def dungeon_bat(f, x, y):
    # A purple bat, wings up in frame 0 and down in frame 1.
    lift = -0.35 if f == 0 else 0.25
    wing = abs(x) < 0.97 and abs(y - lift * abs(x) - 0.08 * math.sin(abs(x) * 10)) < 0.32 * (1 - abs(x)) + 0.07
    body = math.hypot(x, y * 0.9) < 0.36
    ears = any(abs(x - ex) < 0.08 and -0.5 < y < -0.2 for ex in (-0.16, 0.16))
    eye = any(math.hypot(x - ex, y + 0.05) < 0.08 for ex in (-0.13, 0.13))
    return over(hexc("ffd166") if eye else None, hexc("5a189a") if body or ears else None,
                hexc("9d4edd") if wing else None)


def dungeon_sword(f, x, y):
    # A sword pointing +x from the frame's centre-left: grip, guard, blade, a bright edge.
    grip = -0.95 < x < -0.6 and abs(y) < 0.08
    guard = -0.62 < x < -0.5 and abs(y) < 0.3
    blade = -0.5 <= x < 0.85 - 0.25 * abs(y) / 0.14 and abs(y) < 0.14
    return over(
        hexc("ffffff") if blade and y < -0.03 else None,
        hexc("c9d6df") if blade else None,
        hexc("e9c46a") if guard else None,
        hexc("7f5539") if grip else None,
    )


RATE = 22050


def heart(f, x, y):
    """Frame 0 a full heart, frame 1 an empty one (its outline over a dark inside)."""
    def inside(k):
        hx, hy = x * k, -(y * k) + 0.12 * k
        return (hx * hx + hy * hy - 1) ** 3 - hx * hx * hy ** 3 <= 0
    if not inside(1.22):
        return None
    if not inside(1.45):
        return hexc("#3a0d12")
    if f == 1:
        return hexc("#4a2a30", 200)
    # A highlight up on the left lobe.
    if (x + 0.4) ** 2 + (y + 0.3) ** 2 < 0.03:
        return hexc("#ffc2cc")
    return hexc("#e63946")


def ball(f, x, y):
    """Frame 0 the ball as the game draws it (white), frame 1 a lost one (a dim ring)."""
    d = math.hypot(x, y)
    if d > 0.9:
        return None
    if f == 0:
        return hexc("#ffffff")
    return hexc("#8d99ae") if d > 0.65 else None


def bird(f, x, y):
    """A round yellow bird facing +x: frame 0 its wing up, frame 1 down."""
    body = (x / 0.78) ** 2 + (y / 0.74) ** 2
    beak = 0.5 < x < 1.0 and abs(y - 0.15) < 0.26 * (1.0 - x) / 0.5
    if beak:
        return hexc("#e76f51") if abs(y - 0.15) > 0.2 * (1.0 - x) / 0.5 else hexc("#f4a261")
    if body > 1.0:
        return None
    eye = (x - 0.36) ** 2 + (y + 0.28) ** 2
    wing_y = -0.05 if f == 0 else 0.3
    wing = ((x + 0.3) / 0.42) ** 2 + ((y - wing_y) / 0.24) ** 2 < 1
    return over(
        hexc("#14213d") if eye < 0.012 else None,
        hexc("#ffffff") if eye < 0.05 else None,
        hexc("#7a4b12") if body > 0.8 else None,
        hexc("#fff3b0") if wing else None,
        shade(hexc("#f7c531"), 1.06 - 0.18 * y),
    )


def pipe_shade(x):
    """A pipe's green across its width: a light stripe left of the middle, darker to the right."""
    if abs(x) > 0.9:
        return hexc("#1b4d17")
    light = max(0.0, 1.0 - abs(x + 0.45) / 0.3)
    return shade(hexc("#58b947"), 0.85 + 0.45 * light - 0.25 * max(0.0, x))


def pipe(f, x, y):
    """A pipe's body, stretched to any height: shaded across, the same down its length."""
    return pipe_shade(x)


def cap(f, x, y):
    """The lip at a pipe's open end, seen as the bottom pipe's: a bright rim along its top edge,
    a shadow along the bottom where it meets the body. The top pipe's is this upside down."""
    if abs(x) > 0.96 or abs(y) > 0.9:
        return hexc("#1b4d17")
    if y < -0.45:
        return hexc("#c7f59a")
    if y > 0.55:
        return hexc("#2c6e24")
    return pipe_shade(x * 0.95)


def cloud(f, x, y):
    """A soft white cloud: three puffs on a flat base."""
    puffs = ((-0.45, 0.25, 0.42), (0.05, -0.05, 0.55), (0.5, 0.3, 0.4))
    d = min(math.hypot((x - cx) * 0.55 / 0.5, y - cy) - r for cx, cy, r in puffs)
    if y > 0.7 or d > 0:
        return None
    return hexc("#ffffff") if y < 0.35 else hexc("#e6eef7")


def write_wav(path, samples):
    data = b"".join(struct.pack("<h", max(-32768, min(32767, int(s * 32767)))) for s in samples)
    head = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(data), b"WAVE", b"fmt ", 16, 1, 1,
                       RATE, RATE * 2, 2, 16, b"data", len(data))
    with open(path, "wb") as f:
        f.write(head + data)


def sound(game, name, seconds, voice, ogg=False):
    """`voice(t)` is the sample at time t in seconds, in [-1, 1]."""
    out = os.path.join(HERE, game, "sfx")
    os.makedirs(out, exist_ok=True)
    samples = [voice(i / RATE) for i in range(int(seconds * RATE))]
    wav = os.path.join(out, name + ".wav")
    write_wav(wav, samples)
    if ogg:
        subprocess.run(["oggenc", "-Q", "-q", "4", "-s", "1", "-o", os.path.join(out, name + ".ogg"), wav],
                       check=True)
        os.remove(wav)


def hit(t):
    # A short thud: a falling low tone under a burst of noise.
    rng = hit.rng
    env = math.exp(-t * 45)
    tone = math.sin(2 * math.pi * (180 - 900 * t) * t)
    return 0.7 * env * (0.6 * tone + 0.4 * (rng.random() * 2 - 1))


hit.rng = random.Random(7)


def chime(t):
    # Two bell-like notes, the second a fifth above.
    def bell(f, start):
        if t < start:
            return 0.0
        u = t - start
        return math.exp(-u * 9) * (math.sin(2 * math.pi * f * u) + 0.3 * math.sin(2 * math.pi * 2.76 * f * u))
    return 0.35 * (bell(880, 0.0) + bell(1320, 0.07))


def fanfare(t):
    # Three rising notes with a soft square tone: a new wave is coming.
    notes = [(0.0, 330), (0.12, 440), (0.24, 660)]
    v = 0.0
    for start, f in notes:
        if t >= start:
            u = t - start
            v += math.exp(-u * 5) * (1 if math.sin(2 * math.pi * f * u) > 0 else -1) * 0.25
    return 0.6 * math.tanh(v)


def theme(t):
    # Eight bars of a minor arpeggio over a pulsing bass at 120 beats a minute, 16 s, ending
    # where it starts so it loops without a seam.
    beat = 0.5
    roots = [110.0, 110.0, 87.31, 87.31, 98.0, 98.0, 82.41, 82.41]  # A, F, G, E
    bar = int(t / (4 * beat)) % 8
    root = roots[bar]
    step = int(t / (beat / 2)) % 8
    arp = root * 2 * [1, 1.5, 2, 2.4, 3, 2.4, 2, 1.5][step]
    u = t % (beat / 2)
    lead = math.exp(-u * 10) * (1 if math.sin(2 * math.pi * arp * t) > 0 else -1) * 0.18
    v = t % beat
    bass = math.exp(-v * 4) * math.sin(2 * math.pi * root * t) * 0.45
    return math.tanh(lead + bass)


# A 5 x 7 pixel font in 6 x 8 cells (one frame per character, in GLYPHS order), white with a
# dark shadow one pixel down and right; lowercase text is drawn in capitals.
GLYPHS = " !+-.:/?0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
FONT_ROWS = """
00000 00000 00000 00000 00000 00000 00000
00100 00100 00100 00100 00100 00000 00100
00000 00100 00100 11111 00100 00100 00000
00000 00000 00000 11111 00000 00000 00000
00000 00000 00000 00000 00000 01100 01100
00000 01100 01100 00000 01100 01100 00000
00001 00010 00010 00100 01000 01000 10000
01110 10001 00001 00010 00100 00000 00100
01110 10001 10011 10101 11001 10001 01110
00100 01100 00100 00100 00100 00100 01110
01110 10001 00001 00010 00100 01000 11111
11111 00010 00100 00010 00001 10001 01110
00010 00110 01010 10010 11111 00010 00010
11111 10000 11110 00001 00001 10001 01110
00110 01000 10000 11110 10001 10001 01110
11111 00001 00010 00100 01000 01000 01000
01110 10001 10001 01110 10001 10001 01110
01110 10001 10001 01111 00001 00010 01100
01110 10001 10001 11111 10001 10001 10001
11110 10001 10001 11110 10001 10001 11110
01110 10001 10000 10000 10000 10001 01110
11100 10010 10001 10001 10001 10010 11100
11111 10000 10000 11110 10000 10000 11111
11111 10000 10000 11110 10000 10000 10000
01110 10001 10000 10111 10001 10001 01111
10001 10001 10001 11111 10001 10001 10001
01110 00100 00100 00100 00100 00100 01110
00111 00010 00010 00010 00010 10010 01100
10001 10010 10100 11000 10100 10010 10001
10000 10000 10000 10000 10000 10000 11111
10001 11011 10101 10101 10001 10001 10001
10001 10001 11001 10101 10011 10001 10001
01110 10001 10001 10001 10001 10001 01110
11110 10001 10001 11110 10000 10000 10000
01110 10001 10001 10001 10101 10010 01101
11110 10001 10001 11110 10100 10010 10001
01111 10000 10000 01110 00001 00001 11110
11111 00100 00100 00100 00100 00100 00100
10001 10001 10001 10001 10001 10001 01110
10001 10001 10001 10001 10001 01010 00100
10001 10001 10001 10101 10101 10101 01010
10001 10001 01010 00100 01010 10001 10001
10001 10001 10001 01010 00100 00100 00100
11111 00001 00010 00100 01000 10000 11111
"""


def pixel_font(game, name):
    rows = [line.split() for line in FONT_ROWS.strip().splitlines()]
    assert len(rows) == len(GLYPHS) and all(len(r) == 7 for r in rows)
    cw, ch = 6, 8
    w = cw * len(rows)
    px = bytearray(w * ch * 4)
    for i, glyph in enumerate(rows):
        ink = {(x, y) for y, bits in enumerate(glyph) for x, b in enumerate(bits) if b == "1"}
        for (x, y) in ink:
            sx, sy = x + 1, y + 1
            if (sx, sy) not in ink:
                o = (sy * w + i * cw + sx) * 4
                px[o:o + 4] = bytes((20, 16, 40, 200))
        for (x, y) in ink:
            o = (y * w + i * cw + x) * 4
            px[o:o + 4] = bytes((255, 255, 255, 255))
    out = os.path.join(HERE, game, "images")
    write_png(os.path.join(out, name + ".png"), w, ch, px)


def dungeon():
    sheet("dungeon", "tiles", 32, 3, dungeon_tiles)
    sheet("dungeon", "hero", 32, 2, dungeon_hero)
    sheet("dungeon", "slime", 32, 2, dungeon_slime)
    sheet("dungeon", "bat", 32, 2, dungeon_bat)
    sheet("dungeon", "sword", 32, 1, dungeon_sword)


def main():
    pixel_font("swarm", "font")
    sheet("swarm", "player", 48, 4, player)
    sheet("swarm", "grunt", 40, 4, grunt)
    sheet("swarm", "brute", 64, 4, brute)
    sheet("swarm", "drone", 16, 1, drone)
    sheet("swarm", "bullet", 16, 2, bullet)
    sheet("swarm", "gem", 24, 6, gem)
    sheet("swarm", "pillar", 72, 1, pillar)
    sheet("swarm", "floor", 40, 4, floor)
    sheet("platformer", "ground", 32, 4, ground)
    sheet("platformer", "heart", 24, 2, heart)
    sheet("breakout", "ball", 16, 2, ball)
    sheet("flappy", "bird", 32, 2, bird)
    sheet("flappy", "pipe", 32, 1, pipe, height=8)
    sheet("flappy", "cap", 64, 1, cap, height=24)
    sheet("flappy", "cloud", 64, 1, cloud, height=32)
    dungeon()
    sound("swarm", "hit", 0.12, hit)
    sound("swarm", "gem", 0.45, chime)
    sound("swarm", "wave", 0.7, fanfare, ogg=True)
    sound("swarm", "theme", 16.0, theme, ogg=True)


if __name__ == "__main__":
    main()
