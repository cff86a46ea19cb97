#!/usr/bin/env python3
"""Plays Flappy (examples/flappy) over `ludus sim --agent-stdio`, searching with snapshots.

    python3 examples/agents/flappy_client.py [--ludus PATH] [--points N] [--write-input FILE]

The client starts `ludus sim examples/flappy --agent-stdio --observe bird,gap` and talks to it
in JSON Lines: each line it sends is one input for some ticks, answered with an observation
(the tick, the state hash, score, variables, and the bird and gaps with their positions).

Its pilot is simple: flap when the bird sinks below a height aimed a little under the next
gap's centre. Which "little" works for a pipe depends on where the last pipe left the bird, so
before each pipe it takes a snapshot and tries one aim after another, restoring the snapshot
whenever a try costs a life, until one flies through the gap unhurt. It stops once the score
reaches --points (default 8) and prints the run's final hash; with --write-input, Ludus writes
the input that won as a file `ludus sim --input` plays back to the same hash.

Standard library only.
"""

import argparse
import json
import subprocess
import sys

AIMS = [30, 10, 50, 0, 60, 20, 40, -10]  # below the gap's centre, in world units
EVERY = 3  # ticks per decision
CLEAR_TICKS = 36  # ticks from a gap to clear of its pipes


class Ludus:
    """One `ludus sim --agent-stdio` process: send a line, read its one answer."""

    def __init__(self, command):
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.first = self.read()

    def read(self):
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("ludus ended the session")
        answer = json.loads(line)
        if "error" in answer:
            raise SystemExit("ludus: " + answer["error"])
        return answer

    def send(self, **command):
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        return self.read()

    def quit(self):
        self.proc.stdin.write('{"quit": true}\n')
        self.proc.stdin.close()
        return self.proc.wait()


def find(obs, kind):
    return [e for e in obs["entities"] if e["kind"] == kind]


def next_gap(obs, bird):
    ahead = [g for g in find(obs, "gap") if g["x"] > bird["x"] - 20]
    return min(ahead, key=lambda g: g["x"]) if ahead else None


def fly(game, obs, aim, until_gap):
    """Flies with `aim` until the gap with id `until_gap` is passed and the bird is clear of
    its pipes (or the game ends); returns the last observation."""
    target, clear = None, 0
    while obs["game_over"] is None and clear < CLEAR_TICKS:
        bird = find(obs, "bird")[0]
        gap = next_gap(obs, bird)
        if gap is not None and gap["id"] == until_gap:
            target = gap["y"] + aim
        else:
            # Through the gap: hold that height until the pipes are behind.
            clear += EVERY
        flap = bird["y"] > target and bird["vy"] > -120
        obs = game.send(tap=["flap"] if flap else [], ticks=EVERY)
    return obs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ludus", default="ludus", help="the ludus executable")
    ap.add_argument("--game", default="examples/flappy")
    ap.add_argument("--points", type=int, default=8)
    ap.add_argument("--write-input", help="write the winning input here")
    args = ap.parse_args()
    command = [args.ludus, "sim", args.game, "--agent-stdio", "--observe", "bird,gap"]
    if args.write_input:
        command += ["--write-input", args.write_input]
    game = Ludus(command)
    # The first flap starts the game; then wait for the first gap to come into view.
    obs = game.send(tap=["flap"])
    restores = 0
    while obs["score"] < args.points:
        if obs["game_over"] is not None:
            raise SystemExit("lost: " + obs["game_over"]["message"])
        bird = find(obs, "bird")[0]
        gap = next_gap(obs, bird)
        if gap is None:
            obs = fly_free(game, obs)
            continue
        game.send(snapshot="pipe")
        lives = obs["vars"]["lives"]
        for aim in AIMS:
            after = fly(game, obs, aim, gap["id"])
            if after["vars"]["lives"] == lives and after["game_over"] is None:
                obs = after
                break
            game.send(restore="pipe")
            restores += 1
        else:
            raise SystemExit(f"no aim gets through the gap at tick {obs['tick']}")
    print(
        json.dumps(
            {
                "score": obs["score"],
                "tick": obs["tick"],
                "hash": obs["hash"],
                "lives": obs["vars"]["lives"],
                "restores": restores,
            }
        )
    )
    return game.quit()


def fly_free(game, obs):
    """No gap ahead yet: hold the bird near the middle of the sky."""
    bird = find(obs, "bird")[0]
    flap = bird["y"] > 0 and bird["vy"] > -120
    return game.send(tap=["flap"] if flap else [], ticks=EVERY)


if __name__ == "__main__":
    sys.exit(main())
