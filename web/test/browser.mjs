// The browser test of the web build: the same game, the same rules, the same bits as native.
//
//   node web/test/browser.mjs SITE_URL LUDUS_BIN ARTIFACT_DIR
//
// SITE_URL serves web builds (web/build.sh) of examples/swarm in `swarm/` and of
// web/test/probe in `probe/` (`ludus serve`); LUDUS_BIN is a native `ludus` built from
// the same sources. Headless Chromium (/usr/bin/chromium, or $CHROMIUM) loads the pages; any
// console error, page error or failed request fails the test. Then, for swarm:
//
// 1. the live game draws (the canvas has several colours, the player's sprite sheet, the
//    pillars' image and the floor's tile map among them), keyboard input moves the player,
//    the first touch (CDP Input.dispatchTouchEvent) shows the on-screen controls and a finger
//    on their stick moves the player, and sound starts only with the first gesture (the game's WAV and OGG Vorbis sound files
//    are decoded when it starts: a failure would be a console error), when every sound and
//    the music reach WebAudio as decoded buffers and the music plays, looping;
// 2. a headless run in the page (window.ludus.sim) with scripted input equals
//    `ludus sim GAME_DIR --input FILE --ticks N`: summary and every tick's state hash;
// 3. a recording made in the page replays natively with `ludus replay`, and a native
//    recording replays in the page; a damaged one and bad input are refused as values;
// 4. a page without WebAudio still plays;
// 5. tick cost: the same headless run timed in the page and natively; the ratio is printed;
//    and the bench ladder (`?bench=`) at 16k drones against `ludus bench --serial`, with the
//    page's state after it equal to the native one's (cost.mjs);
//
// and for web/test/probe: 6. its script folds the bits of thousands of Lua math results into
// the score, which must be the same in the page as natively; a script error is the same
// fault in both, and in the live page it shows the fault screen while the page lives on, and
// offers the run's recording as a download, which replays natively to the same fault; the
// live game's saved data (a count of its starts) is in localStorage["probe"] after the first
// page load, and the next load reads it and counts on;
// 7. its level uses every motion key (bodies, bounce, friction, wrap, gravity, drag, rotation,
// thrust and platformer control): a long run with input has every tick's state hash equal in
// the page and natively;
// 7b. two fingers on its live page (CDP Input.dispatchTouchEvent) each get a mark drawn under
// them, the first the pointer's ring, and the marks follow and go with the fingers; the run's
// recording (F8) replays natively with every state hash equal, and a headless run with
// `touches` lines has every tick's state hash equal in the page and natively;
//
// and for the motion examples (breakout, asteroids, platformer), flappy (looks changed at run
// time) and the dungeon (range, attachment), each exported for the web (`ludus export web`: the
// generic runtime, the swarm's module, playing a fetched game bundle) in a folder of its name:
// 8. the page draws it, and its recorded play (examples/NAME/tests/win.jsonl; flappy's
// play.jsonl, the dungeon's clear.jsonl) reaches the same end in the page as natively, every
// tick's state hash equal;
// 9. the swarm exported the same way (`swarm-export/`) runs as natively, and a copy of the
// breakout export with a damaged bundle (`damaged/`) shows why on the page instead of a game,
// and so does a page without WebGL;
// 10. `ludus serve` of a copy of the breakout folder (runtime: $LUDUS_WEB_RUNTIME) reloads the
// page when its game.toml changes, and the page then plays the changed game;
// 11. a gamepad injected into the probe's page (navigator.getGamepads overridden before it
// loads) drives the live game: its left stick moves the player (the view follows it) and A
// jumps the runner; the page's recording of that play (F8) replays natively with every
// tick's state hash equal (10 and 11: live.mjs; the touches of 1 and 7b: touch.mjs).
//
// Exit status 0 when every check passed; each failure is printed.

import { chromium } from "playwright-core";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tickCost } from "./cost.mjs";
import { gamepad, serveReload } from "./live.mjs";
import { probeTouch, swarmTouch } from "./touch.mjs";

const [site, ludusBin, artifacts] = process.argv.slice(2);
if (!site || !ludusBin || !artifacts) {
  console.error("usage: node browser.mjs SITE_URL LUDUS_BIN ARTIFACT_DIR");
  process.exit(2);
}
const gameDir = fileURLToPath(new URL("../../examples/swarm", import.meta.url));
const probeDir = fileURLToPath(new URL("./probe", import.meta.url));
const url = new URL("swarm/", site).href;
const probeUrl = new URL("probe/", site).href;
mkdirSync(artifacts, { recursive: true });

const TICKS = 600;
const PLAYER = [0x4c, 0xc9, 0xf0];
const WALL = [0x31, 0x37, 0x4e]; // the lit half of the pillars' image: the camera follows the player
const FLOOR = [0x15, 0x1a, 0x28]; // the arena's floor tiles (examples/make_assets.py)
const FAULT = [255, 110, 110]; // the fault screen's title (src/app.rs)
const failures = [];
function check(ok, what, detail = "") {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail ? ": " + detail : ""}`);
  if (!ok) failures.push(what);
}

// A deterministic play session: fire held, the movement direction changing every 90 ticks,
// fire released and pressed again now and then.
function inputLines(ticks) {
  const dirs = [[1, 0], [0, 1], [-1, 0], [0, -1], [0.7, 0.7], [-0.7, -0.7]];
  const lines = [{ tick: 1, press: ["fire"], axis: { move_x: 1, move_y: 0 } }];
  for (let t = 90, i = 1; t <= ticks; t += 90, i++) {
    const [x, y] = dirs[i % dirs.length];
    lines.push({ tick: t, axis: { move_x: x, move_y: y } });
    if (i % 3 === 0) {
      lines.push({ tick: t + 1, release: ["fire"] });
      lines.push({ tick: t + 20, press: ["fire"] });
    }
  }
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

function native(args, { allowFail = false } = {}) {
  const r = spawnSync(ludusBin, args, { encoding: "utf8" });
  if (r.status !== 0 && !allowFail) {
    throw new Error(`ludus ${args.join(" ")} exited with ${r.status}: ${r.stderr}`);
  }
  return r;
}

const work = mkdtempSync(join(tmpdir(), "ludus-web-test-"));
const inputFile = join(work, "input.jsonl");
const input = inputLines(TICKS);
writeFileSync(inputFile, input);
writeFileSync(join(artifacts, "input.jsonl"), input);

const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const launchArgs = [
  "--no-sandbox",
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--no-default-browser-check",
  "--autoplay-policy=user-gesture-required",
];
const profile = mkdtempSync(join(tmpdir(), "ludus-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath,
  headless: true,
  args: launchArgs,
  viewport: { width: 960, height: 640 },
});

const problems = [];
function watch(page, label) {
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`${label}: console error: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`${label}: page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`${label}: request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`${label}: HTTP ${r.status()} for ${r.url()}`);
  });
}

async function open(label, init, address = url) {
  const page = await context.newPage();
  watch(page, label);
  if (init) await page.addInitScript(init);
  await page.goto(address);
  await page.waitForFunction(() => window.ludus !== undefined, null, { timeout: 30000 });
  await page.evaluate(() => window.ludus.ready);
  return page;
}

// Colours of a screenshot, decoded and counted by the browser itself: how many distinct
// colours; how many pixels lie within 2 of the player's colour and of the fault title's, and
// where the obstacles' colour is on average (its centroid).
async function analyse(page, png) {
  return page.evaluate(async ([b64, player, wall, fault, floorColour]) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    const data = g.getImageData(0, 0, img.width, img.height).data;
    const near = (i, c) => Math.abs(data[i] - c[0]) <= 2 && Math.abs(data[i + 1] - c[1]) <= 2 &&
      Math.abs(data[i + 2] - c[2]) <= 2;
    const colours = new Set();
    let n = 0, walls = 0, sx = 0, red = 0, floor = 0;
    for (let i = 0; i < data.length; i += 4) {
      colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      if (near(i, player)) n++;
      if (near(i, fault)) red++;
      if (Math.abs(data[i] - floorColour[0]) <= 4 && Math.abs(data[i + 1] - floorColour[1]) <= 4 &&
        Math.abs(data[i + 2] - floorColour[2]) <= 4) floor++;
      if (near(i, wall)) {
        walls++;
        sx += (i / 4) % img.width;
      }
    }
    return { pixels: data.length / 4, colours: colours.size, player: n, walls, wallX: walls ? sx / walls : NaN, fault: red, floor };
  }, [png.toString("base64"), PLAYER, WALL, FAULT, FLOOR]);
}

const canvasShot = (page) => page.locator("#glcanvas").screenshot();

// The mean x of the pixels within 2 of each of `colours` in a canvas shot (NaN: none).
async function meanX(page, png, colours) {
  return page.evaluate(async ([b64, colours]) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const c = document.createElement("canvas");
    [c.width, c.height] = [img.width, img.height];
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, img.width, img.height).data;
    return colours.map((colour) => {
      let n = 0, sx = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (colour.every((v, k) => Math.abs(d[i + k] - v) <= 2)) {
          n++;
          sx += (i / 4) % img.width;
        }
      }
      return n ? sx / n : NaN;
    });
  }, [png.toString("base64"), colours]);
}

// Pixels of the help line's light grey text in the bottom 40 rows of a canvas shot (the
// developer's view draws it there; a page in release mode draws nothing the game did not ask for).
async function helpPixels(page, png) {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const c = document.createElement("canvas");
    [c.width, c.height] = [img.width, img.height];
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    const top = Math.max(0, img.height - 40);
    const d = g.getImageData(0, top, img.width, img.height - top).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      const [r, gr, b] = [d[i], d[i + 1], d[i + 2]];
      if (r > 120 && gr > 120 && b > 120 && Math.abs(r - gr) < 24 && Math.abs(b - r) < 32) n++;
    }
    return n;
  }, png.toString("base64"));
}

try {
  const page = await open("page");

  // 1. No sound before a gesture.
  const before = await page.evaluate(() => typeof audio_context === "undefined" || audio_context == null);
  check(before, "no audio context before the first gesture");

  // The live game draws, and the keyboard moves the player. The first key (R, restart:
  // a fresh level whatever happened since the page opened) is also the first gesture.
  await page.focus("#glcanvas");
  await page.keyboard.press("r");
  await page.waitForTimeout(300);
  const shot = await canvasShot(page);
  const a = await analyse(page, shot);
  // Hold D until the view has followed the player (half a second on an idle machine; a
  // loaded one draws fewer frames in the same time), for at most ten seconds.
  await page.keyboard.down("d");
  let moved = shot;
  for (let waited = 0; waited < 10000; waited += 250) {
    await page.waitForTimeout(250);
    moved = await canvasShot(page);
    const seen = await analyse(page, moved);
    if (waited >= 250 && seen.player > 20 && seen.wallX < a.wallX - 10) break;
  }
  await page.keyboard.up("d");
  writeFileSync(join(artifacts, "canvas.png"), shot);
  writeFileSync(join(artifacts, "canvas-after-d.png"), moved);
  check(a.colours >= 4, "the canvas is not blank", `${a.colours} distinct colours`);
  const devHelp = await helpPixels(page, shot);
  check(devHelp > 200, "the page built for development draws its help line", `${devHelp} pixels`);
  check(a.player > 20, "the player's sprite sheet (#4cc9f0) is on the canvas", `${a.player} pixels`);
  check(a.floor > a.pixels / 4, "the floor's tile map is on the canvas", `${a.floor} of ${a.pixels} pixels`);
  check(a.walls > 100, "the pillars' image is on the canvas", `${a.walls} pixels`);
  const after = await analyse(page, moved);
  // Holding D moves the player right: the view follows it, so the obstacles move left.
  check(after.player > 20 && after.wallX < a.wallX - 10, "keyboard input reaches the live game",
    `obstacles' mean x ${a.wallX.toFixed(1)} -> ${after.wallX.toFixed(1)}`);

  // Touch: the first touch shows the on-screen controls, and their stick steers.
  await swarmTouch({ page, after, moved, analyse, canvasShot, check, artifacts });
  const audio = await page.evaluate(() => (typeof audio_context === "undefined" || audio_context == null)
    ? "none" : audio_context.state);
  check(audio !== "none", "the first gesture opens the audio context", audio);
  // The gesture also hands every sound to WebAudio (the swarm's six, four of them from WAV and
  // OGG Vorbis files, and its music, an OGG file the game asked for at its start), each
  // decoded by the browser into a buffer (quad-snd's `sounds`); the music plays looping.
  const sound = await page.evaluate(() => ({
    decoded: typeof sounds === "undefined" ? -1 : sounds.size,
    looping: typeof playbacks === "undefined" ? -1
      : playbacks.filter((p) => p.sound_key !== 0 && p.source.loop && p.source.buffer).length,
  }));
  check(sound.decoded >= 7, "WebAudio decoded the game's sounds and music", `${sound.decoded} buffers`);
  check(sound.looping === 1, "the music track plays, looping", `${sound.looping} looping`);

  // 2. The same run in the page and natively.
  const web = await page.evaluate(
    ([text, ticks]) => window.ludus.sim(text, ticks, { trace: true }),
    [input, TICKS],
  );
  const traceFile = join(work, "trace.jsonl");
  const nat = JSON.parse(native(["sim", gameDir, "--input", inputFile, "--ticks", String(TICKS), "--trace", traceFile]).stdout);
  writeFileSync(join(artifacts, "summary-web.json"), JSON.stringify(web.summary) + "\n");
  writeFileSync(join(artifacts, "summary-native.json"), JSON.stringify(nat) + "\n");
  for (const key of ["ticks", "world_tick", "hash", "entities", "score", "faulted", "stale_commands"]) {
    check(web.summary[key] === nat[key], `headless run: ${key} equal`, `web ${web.summary[key]}, native ${nat[key]}`);
  }
  check(web.summary.ticks === TICKS && !web.summary.faulted, `the page ran ${TICKS} ticks without a fault`);
  const rate = web.summary.ticks_per_second;
  check(web.summary.elapsed_ms > 0 ? rate > 0 : rate === null,
    "ticks_per_second is a rate, or null when no time passed", `${rate} in ${web.summary.elapsed_ms} ms`);
  check(web.summary.score > 0, "the scripted player scored", `score ${web.summary.score}`);
  const nativeTrace = readFileSync(traceFile, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const firstDiff = nativeTrace.findIndex((t, i) => !web.trace[i] || web.trace[i].hash !== t.hash || web.trace[i].tick !== t.tick);
  check(
    web.trace.length === TICKS && nativeTrace.length === TICKS && firstDiff === -1,
    "every tick's state hash equal",
    firstDiff === -1 ? `${TICKS} ticks` : `first difference at tick ${nativeTrace[firstDiff].tick}`,
  );

  // 3. Recorded in the page, replayed natively.
  const recorded = await page.evaluate(
    ([text, ticks]) => Array.from(window.ludus.sim(text, ticks, { record: true }).recording),
    [input, TICKS],
  );
  const webRec = join(artifacts, "web.ludusrec");
  writeFileSync(webRec, Buffer.from(recorded));
  const replayed = native(["replay", webRec, "--game", gameDir], { allowFail: true });
  check(replayed.status === 0 && /every state hash matches/.test(replayed.stdout),
    "a recording made in the page replays natively", (replayed.stdout + replayed.stderr).trim());

  // Recorded natively, replayed in the page.
  const nativeRec = join(artifacts, "native.ludusrec");
  native(["sim", gameDir, "--input", inputFile, "--ticks", String(TICKS), "--record", nativeRec]);
  const bytes = Array.from(readFileSync(nativeRec));
  const verdict = await page.evaluate((b) => window.ludus.replay(new Uint8Array(b)), bytes);
  check(verdict.outcome === "identical" && verdict.ticks === TICKS,
    "a native recording replays in the page", JSON.stringify(verdict));
  bytes[bytes.length - 20] ^= 0x10;
  const damaged = await page.evaluate((b) => window.ludus.replay(new Uint8Array(b)), bytes);
  check(damaged.outcome === "error" && /corrupt/.test(damaged.error),
    "a damaged recording is refused in the page", JSON.stringify(damaged));
  const bad = await page.evaluate(() => window.ludus.sim('{"tick":1,"press":["nonsense"]}', 10).summary);
  check(typeof bad.error === "string" && /unknown action/.test(bad.error),
    "bad input is an error value, not a dead page", JSON.stringify(bad));

  // 4. A page without WebAudio still plays.
  const silent = await open("page without WebAudio", () => {
    delete window.AudioContext;
    delete window.webkitAudioContext;
  });
  await silent.waitForTimeout(300);
  await silent.focus("#glcanvas");
  await silent.keyboard.press("d");
  await silent.waitForTimeout(300);
  const s = await analyse(silent, await canvasShot(silent));
  check(s.player > 20, "without WebAudio the game still draws", `${s.player} player pixels`);
  const run = await silent.evaluate(() => window.ludus.sim("", 30).summary.ticks);
  check(run === 30, "without WebAudio the module still runs", `${run} ticks`);
  await silent.close();

  // 5. Tick cost: the page against native (cost.mjs).
  await tickCost({ page, url, open, input, TICKS, inputFile, gameDir, native, check, artifacts, work });

  // 6. Lua's math library computes the same bits in the page as natively.
  const probe = await open("probe", null, probeUrl);
  const saved = () => probe.evaluate(() => localStorage.getItem("probe"));
  const savedIs = (text) => probe.waitForFunction((t) => localStorage.getItem("probe") === t, text,
    { timeout: 15000 }).catch(() => {});
  await savedIs('{"loads":1}');
  const firstLoad = await saved();
  await probe.reload();
  await probe.waitForFunction(() => window.ludus !== undefined, null, { timeout: 30000 });
  await probe.evaluate(() => window.ludus.ready);
  await savedIs('{"loads":2}');
  const secondLoad = await saved();
  check(firstLoad === '{"loads":1}' && secondLoad === '{"loads":2}',
    "saved data is kept in localStorage: a page load reads what the one before saved",
    `${firstLoad} -> ${secondLoad}`);
  // Saved data the game cannot use is moved aside (the game's next save must not destroy it),
  // and the game starts without it.
  await probe.evaluate(() => localStorage.setItem("probe", "{damaged"));
  await probe.reload();
  await probe.waitForFunction(() => window.ludus !== undefined, null, { timeout: 30000 });
  await probe.evaluate(() => window.ludus.ready);
  await savedIs('{"loads":1}');
  const aside = await probe.evaluate(() => localStorage.getItem("probe.damaged"));
  const fresh = await saved();
  check(aside === "{damaged" && fresh === '{"loads":1}',
    "damaged saved data is kept aside in localStorage and the game starts without it",
    `${aside} / ${fresh}`);
  const webMath = await probe.evaluate(() => window.ludus.sim("", 3).summary);
  const nativeMath = JSON.parse(native(["sim", probeDir, "--ticks", "3"]).stdout);
  check(!webMath.faulted && webMath.score !== 0, "the Lua math digest ran in the page", `score ${webMath.score}`);
  check(webMath.score === nativeMath.score && webMath.hash === nativeMath.hash,
    "Lua math results are bit-identical in the page and natively",
    `digest web ${webMath.score}, native ${nativeMath.score}`);

  // A script error: the same fault in the page as natively...
  const faultInput = '{"tick":2,"tap":["fault"]}\n';
  const faultFile = join(work, "fault.jsonl");
  writeFileSync(faultFile, faultInput);
  const webFault = await probe.evaluate((text) => window.ludus.sim(text, 3).summary, faultInput);
  const nativeFault = JSON.parse(native(["sim", probeDir, "--ticks", "3", "--input", faultFile], { allowFail: true }).stdout);
  check(webFault.faulted && JSON.stringify(webFault.fault) === JSON.stringify(nativeFault.fault),
    "a script error is the same fault in the page as natively", JSON.stringify(webFault.fault?.location));
  // ...and in the live page, the fault screen; the page lives on.
  await probe.waitForTimeout(300);
  const calm = await analyse(probe, await canvasShot(probe));
  await probe.focus("#glcanvas");
  await probe.keyboard.press("f");
  await probe.waitForTimeout(400);
  const faultShot = await canvasShot(probe);
  writeFileSync(join(artifacts, "fault.png"), faultShot);
  const faulted = await analyse(probe, faultShot);
  check(calm.fault === 0 && faulted.fault > 20, "a script error shows the fault screen",
    `fault-title pixels ${calm.fault} -> ${faulted.fault}`);
  // The fault's recording is offered as a download, and it replays to the same fault.
  const offered = await probe.evaluate(async () => {
    const link = document.getElementById("ludus-recording");
    if (!link) return null;
    const bytes = new Uint8Array(await (await fetch(link.href)).arrayBuffer());
    return { name: link.download, bytes: Array.from(bytes) };
  });
  check(offered !== null && offered.bytes.length > 100 && offered.name.endsWith(".ludusrec"),
    "the fault's recording is offered as a download", offered ? `${offered.name}, ${offered.bytes.length} bytes` : "no link");
  if (offered) {
    const faultRec = join(artifacts, "fault.ludusrec");
    writeFileSync(faultRec, Buffer.from(offered.bytes));
    const replayedFault = native(["replay", faultRec, "--game", probeDir], { allowFail: true });
    check(replayedFault.status === 0 && /faults as recorded/.test(replayedFault.stdout),
      "the page's fault recording replays natively to the same fault", (replayedFault.stdout + replayedFault.stderr).trim());
  }
  const alive = await probe.evaluate(() => window.ludus.sim("", 2).summary.ticks);
  check(alive === 2, "the page still works after the fault", `${alive} ticks`);

  // 7. Every motion rule computes the same bits in the page as natively.
  const motionLines = [
    { tick: 5, press: ["thrust"], axis: { turn: 1, move_x: 1 } },
    { tick: 60, axis: { turn: 0, move_x: -1 }, tap: ["jump"] },
    { tick: 150, release: ["thrust"], axis: { turn: -1, move_x: 0 } },
    { tick: 240, tap: ["jump"], axis: { move_x: 1 } },
    { tick: 243, press: ["jump"] },
    { tick: 300, release: ["jump"], press: ["thrust"], axis: { turn: 0.5 } },
    { tick: 420, release: ["thrust"], axis: { move_x: -1, turn: 0 } },
  ];
  const motionInput = motionLines.map((l) => JSON.stringify(l)).join("\n") + "\n";
  const motionFile = join(work, "motion.jsonl");
  const motionTrace = join(work, "motion.trace");
  writeFileSync(motionFile, motionInput);
  const webMotion = await probe.evaluate(
    (text) => ({ trace: window.ludus.sim(text, 600, { trace: true }).trace }),
    motionInput,
  );
  native(["sim", probeDir, "--ticks", "600", "--input", motionFile, "--trace", motionTrace]);
  const nativeMotion = readFileSync(motionTrace, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const motionDiff = nativeMotion.findIndex((t, i) => !webMotion.trace[i] || webMotion.trace[i].hash !== t.hash);
  check(
    webMotion.trace.length === 600 && nativeMotion.length === 600 && motionDiff === -1,
    "every motion rule gives the same state hash every tick in the page and natively",
    motionDiff === -1 ? "600 ticks" : `first difference at tick ${motionDiff + 1}`,
  );
  await probe.close();

  // 7b. Touches in the probe's live page and in input files.
  await probeTouch({ open, probeUrl, probeDir, canvasShot, check, native, artifacts, work });

  // 8. The motion examples, flappy and the dungeon: drawn, and their recorded plays identical in the page.
  const plays = [
    ["breakout", "win.jsonl", "YOU WIN"],
    ["asteroids", "win.jsonl", "YOU WIN"],
    ["platformer", "win.jsonl", "YOU WIN"],
    ["flappy", "play.jsonl", "GAME OVER - 12 points"],
    ["dungeon", "clear.jsonl", "The dungeon is clear!"],
  ];
  for (const [name, file, end] of plays) {
    const dir = fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));
    const winFile = join(dir, "tests", file);
    const win = readFileSync(winFile, "utf8");
    const page = await open(name, null, new URL(`${name}/`, site).href);
    await page.waitForTimeout(500);
    const shot = await analyse(page, await canvasShot(page));
    check(shot.colours > 4, `${name} draws in the page`, `${shot.colours} colours`);
    const limit = 20000;
    const web = await page.evaluate(
      ([text, ticks]) => {
        const r = window.ludus.sim(text, ticks, { trace: true });
        return { summary: r.summary, hashes: r.trace.map((t) => t.hash) };
      },
      [win, limit],
    );
    const traceFile = join(work, `${name}.trace`);
    const nat = JSON.parse(native(["sim", dir, "--input", winFile, "--ticks", String(limit), "--trace", traceFile]).stdout);
    const natHashes = readFileSync(traceFile, "utf8").trim().split("\n").map((l) => JSON.parse(l).hash);
    const same = web.hashes.length === natHashes.length && web.hashes.every((h, i) => h === natHashes[i]);
    check(
      same && web.summary.hash === nat.hash && JSON.stringify(web.summary.game_over) === JSON.stringify(nat.game_over),
      `${name}'s play ends the same in the page as natively, every tick`,
      `${JSON.stringify(web.summary.game_over)} after ${web.summary.ticks} ticks`,
    );
    check(web.summary.game_over?.message?.startsWith(end), `${name}'s play ends in the page with ${end}`);
    await page.close();
  }

  // 9. The swarm through the generic runtime, and a damaged bundle.
  const exportPage = await open("swarm-export", null, new URL("swarm-export/", site).href);
  await exportPage.waitForTimeout(500);
  const releaseShot = await canvasShot(exportPage);
  writeFileSync(join(artifacts, "canvas-exported.png"), releaseShot);
  const releaseHelp = await helpPixels(exportPage, releaseShot);
  // A help line is hundreds of such pixels; a stray light pixel of the game's own may be there.
  check(releaseHelp < 30, "an exported page runs in release mode: no help line", `${releaseHelp} pixels`);
  const webExported = await exportPage.evaluate((n) => window.ludus.sim("", n).summary, TICKS);
  const natExported = JSON.parse(native(["sim", gameDir, "--ticks", String(TICKS)]).stdout);
  check(
    webExported.hash === natExported.hash && webExported.entities === natExported.entities,
    "the swarm exported as a bundle runs in the generic runtime as natively",
    `${webExported.hash} / ${natExported.hash}`,
  );
  await exportPage.close();
  // Not watched: its error message is the point.
  const badPage = await context.newPage();
  await badPage.goto(new URL("damaged/", site).href);
  await badPage.waitForSelector("#ludus-error", { state: "visible", timeout: 30000 });
  const message = await badPage.textContent("#ludus-error");
  check(
    message.includes("the game bundle is damaged (its checksum does not match)"),
    "a damaged game bundle is a message on the page",
    message.split("\n").slice(0, 2).join(" "),
  );
  await badPage.close();
  // A page without WebGL (every canvas refuses it) says so on the page; it is watched for
  // errors other than gl.js's own, which it must not reach.
  const noGl = await context.newPage();
  const noGlErrors = [];
  noGl.on("pageerror", (e) => noGlErrors.push(e.message));
  noGl.on("console", (m) => m.type() === "error" && noGlErrors.push(m.text()));
  await noGl.addInitScript(() => {
    const get = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
      return /webgl/i.test(type) ? null : get.call(this, type, ...rest);
    };
  });
  await noGl.goto(new URL("breakout/", site).href);
  await noGl.waitForSelector("#ludus-error", { state: "visible", timeout: 30000 });
  const noGlMessage = await noGl.textContent("#ludus-error");
  check(
    noGlMessage.includes("This game needs WebGL") && noGlErrors.length === 0,
    "a page without WebGL is a message on the page, not an error",
    noGlErrors.length ? noGlErrors.join("; ") : noGlMessage.split("\n")[0],
  );
  await noGl.close();

  // 10. `ludus serve GAME_DIR` reloads the page's game when a file changes (live.mjs).
  await serveReload({ open, ludusBin, native, check, work });

  // 11. A gamepad in the live page (live.mjs).
  await gamepad({ open, probeUrl, probeDir, meanX, canvasShot, native, check, artifacts });
} catch (e) {
  check(false, "the test ran to the end", e.stack || String(e));
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}

for (const p of problems) console.log("FAIL " + p);
check(problems.length === 0, "no console errors, page errors or failed requests", `${problems.length} found`);
if (failures.length > 0) {
  console.log(`\n${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("\nall browser checks passed");
