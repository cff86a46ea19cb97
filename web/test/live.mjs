// The browser test's live pages (browser.mjs calls them): a game folder served by `ludus
// serve` and reloaded when a file changes, and a gamepad driving the probe's live game.

import { spawn } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// `ludus serve` of a copy of the breakout folder: the page plays the changed game once its
// game.toml changes.
export async function serveReload({ open, ludusBin, native, check, work }) {
  // A game folder live in the runtime ($LUDUS_WEB_RUNTIME), the
  // page reloaded with the new game when a file changes.
  const liveDir = join(work, "live");
  cpSync(fileURLToPath(new URL("../../examples/breakout", import.meta.url)), liveDir, { recursive: true });
  const server = spawn(ludusBin, ["serve", liveDir, "--port", "0"], { stdio: ["ignore", "pipe", "ignore"] });
  try {
    const liveUrl = await new Promise((resolve, reject) => {
      let out = "";
      server.stdout.on("data", (d) => {
        out += d;
        const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
        if (m) resolve(m[0]);
      });
      server.on("exit", (code) => reject(new Error(`ludus serve ${liveDir} exited: ${code}`)));
    });
    const live = await open("live", null, liveUrl);
    const LIVE_TICKS = 200;
    const hashOf = (page) => page.evaluate((n) => window.ludus.sim("", n).summary.hash, LIVE_TICKS);
    const before = await hashOf(live);
    const toml = join(liveDir, "game.toml");
    const reloaded = live.waitForEvent("load", { timeout: 15000 });
    writeFileSync(toml, readFileSync(toml, "utf8").replace("serve_delay = 60", "serve_delay = 30"));
    await reloaded;
    await live.waitForFunction(() => window.ludus !== undefined, null, { timeout: 30000 });
    await live.evaluate(() => window.ludus.ready);
    const after = await hashOf(live);
    const nat = JSON.parse(native(["sim", liveDir, "--ticks", String(LIVE_TICKS)]).stdout).hash;
    check(
      after === nat && after !== before,
      "ludus serve GAME_DIR reloads the page's game when a file changes, and plays the new one",
      `${before} -> ${after} (native ${nat})`,
    );
    await live.close();
  } finally {
    server.kill();
  }
}

// A gamepad injected into the probe's page (navigator.getGamepads overridden before it
// loads): its stick moves the player, A jumps, and the play's recording (F8) replays natively.
export async function gamepad({ open, probeUrl, probeDir, meanX, canvasShot, native, check, artifacts }) {
  // The Gamepad API, as the page's glue polls it each frame.
  const padPage = await open("gamepad", () => {
    const pad = {
      id: "Ludus test pad (STANDARD GAMEPAD Vendor: 0000 Product: 0000)",
      index: 0,
      connected: true,
      mapping: "standard",
      timestamp: 0,
      axes: [0, 0, 0, 0],
      buttons: Array.from({ length: 17 }, () => ({ pressed: false, touched: false, value: 0 })),
    };
    window.ludusTestPad = pad;
    Object.defineProperty(Navigator.prototype, "getGamepads", {
      configurable: true,
      value: () => [pad, null, null, null],
    });
  }, probeUrl);
  const padTo = (change) => padPage.evaluate(change);
  await padPage.waitForTimeout(300);
  // Where the player is against the floor (web/test/probe: the player #4cc9f0, the wall
  // #2b3044), whether or not the view follows the player.
  const PROBE_PLAYER = [0x4c, 0xc9, 0xf0];
  const PROBE_WALL = [0x2b, 0x30, 0x44];
  const playerX = async () => {
    const [p, w] = await meanX(padPage, await canvasShot(padPage), [PROBE_PLAYER, PROBE_WALL]);
    return p - w;
  };
  const padBefore = await playerX();
  // The left stick right (past the deadzone) until the player has moved right, at most ten
  // seconds; then A, pressed and let go; then the stick back to rest.
  await padTo(() => (window.ludusTestPad.axes[0] = 1));
  let padMoved = padBefore;
  for (let waited = 0; waited < 10000 && !(padMoved > padBefore + 10); waited += 250) {
    await padPage.waitForTimeout(250);
    padMoved = await playerX();
  }
  await padTo(() => Object.assign(window.ludusTestPad.buttons[0], { pressed: true, value: 1 }));
  await padPage.waitForTimeout(200);
  await padTo(() => Object.assign(window.ludusTestPad.buttons[0], { pressed: false, value: 0 }));
  await padTo(() => (window.ludusTestPad.axes[0] = 0));
  await padPage.waitForTimeout(200);
  writeFileSync(join(artifacts, "gamepad.png"), await canvasShot(padPage));
  check(padMoved > padBefore + 10, "a gamepad's stick reaches the live game",
    `the player's x against the wall ${padBefore.toFixed(1)} -> ${padMoved.toFixed(1)}`);
  // F8 keeps the history as a recording, offered as a download.
  await padPage.focus("#glcanvas");
  await padPage.keyboard.press("F8");
  await padPage.waitForSelector("#ludus-recording", { timeout: 15000 });
  const padRec = await padPage.evaluate(async () => {
    const link = document.getElementById("ludus-recording");
    return Array.from(new Uint8Array(await (await fetch(link.href)).arrayBuffer()));
  });
  const padRecFile = join(artifacts, "gamepad.ludusrec");
  writeFileSync(padRecFile, Buffer.from(padRec));
  const padReplay = native(["replay", padRecFile, "--game", probeDir], { allowFail: true });
  check(padReplay.status === 0 && /every state hash matches/.test(padReplay.stdout),
    "the gamepad's play, recorded in the page, replays natively with every tick's hash equal",
    (padReplay.stdout + padReplay.stderr).trim());
  await padPage.close();
}
