// The browser test's touches (browser.mjs calls them): fingers dispatched with CDP
// `Input.dispatchTouchEvent`, as a touch screen's reach the page.
//
// - On the swarm's live page, the first touch shows its on-screen controls and a finger on
//   their stick moves the player.
// - On the probe's live page (web/test/probe/scripts/touch.lua draws a mark under each touch
//   and a ring at the pointer), two fingers are seen where they are, the first as the pointer;
//   a touch follows its finger and lifts with it; the run's recording (F8) replays natively.
//   A headless run with `touches` lines has every tick's state hash equal in the page and
//   natively.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// Pixels of a canvas shot in the box [x0, y0, x1, y1] (canvas pixels) that are within `tol` of
// `rgb`, or (with `rgb` null) light grey: every channel at least 110, within 30 of each other
// (the on-screen controls over the swarm's dark floor).
export async function boxPixels(page, png, box, rgb, tol = 8) {
  return page.evaluate(async ([b64, [x0, y0, x1, y1], rgb, tol]) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const c = document.createElement("canvas");
    [c.width, c.height] = [img.width, img.height];
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    const [x, y] = [Math.max(0, Math.round(x0)), Math.max(0, Math.round(y0))];
    const [w, h] = [Math.min(img.width, Math.round(x1)) - x, Math.min(img.height, Math.round(y1)) - y];
    if (w <= 0 || h <= 0) return 0;
    const d = g.getImageData(x, y, w, h).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      const [r, gr, b] = [d[i], d[i + 1], d[i + 2]];
      const hit = rgb
        ? Math.abs(r - rgb[0]) <= tol && Math.abs(gr - rgb[1]) <= tol && Math.abs(b - rgb[2]) <= tol
        : Math.min(r, gr, b) >= 110 && Math.max(r, gr, b) - Math.min(r, gr, b) <= 30;
      if (hit) n++;
    }
    return n;
  }, [png.toString("base64"), box, rgb, tol]);
}

// A CDP session that dispatches touches to `page` (Input.dispatchTouchEvent), with touch
// emulation on so the page receives them as touch events.
export async function touchscreen(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 5 });
  return (type, touchPoints) => cdp.send("Input.dispatchTouchEvent", { type, touchPoints });
}

// The swarm's live `page` after the keyboard moved its player (`after`: the analysis of the
// shot `moved`).
export async function swarmTouch({ page, after, moved, analyse, canvasShot, check, artifacts }) {
  // Touch: the swarm's stick sits at the bottom left, its centre 92 pixels in from each edge
  // (src/runtime/touch.rs); a finger held 40 pixels left of it steers the player left, so
  // the view follows and the obstacles move right. No control is drawn before the first touch.
  const touch = await touchscreen(page);
  const box = await page.locator("#glcanvas").boundingBox();
  const [sx, sy] = [92, box.height - 92];
  const stickBox = [sx - 70, sy - 70, sx + 70, sy + 30];
  const untouched = await boxPixels(page, await canvasShot(page), stickBox, null);
  await touch("touchStart", [{ x: box.x + sx - 40, y: box.y + sy, id: 1 }]);
  let held = moved;
  let steered = after;
  for (let waited = 0; waited < 10000; waited += 250) {
    await page.waitForTimeout(250);
    held = await canvasShot(page);
    steered = await analyse(page, held);
    if (waited >= 250 && steered.player > 20 && steered.wallX > after.wallX + 10) break;
  }
  const knob = await boxPixels(page, held, stickBox, null);
  await touch("touchEnd", []);
  writeFileSync(join(artifacts, "canvas-touch.png"), held);
  check(untouched < 20 && knob > 300, "the first touch shows the on-screen controls",
    `light pixels at the stick ${untouched} -> ${knob}`);
  check(steered.player > 20 && steered.wallX > after.wallX + 10, "a finger on the stick moves the player",
    `obstacles' mean x ${after.wallX.toFixed(1)} -> ${steered.wallX.toFixed(1)}`);
}

// A fresh page of the probe (`open`), touched.
export async function probeTouch({ open, probeUrl, probeDir, canvasShot, check, native, artifacts, work }) {
  // Two fingers, each with a mark under it and the first with the pointer's ring; the first
  // moves, then both lift.
  const touched = await open("probe by touch", null, probeUrl);
  const fingers = await touchscreen(touched);
  const pbox = await touched.locator("#glcanvas").boundingBox();
  await touched.waitForTimeout(300);
  const MARK = [255, 0, 255];
  const RING = [255, 255, 0];
  const near = (png, [x, y], rgb) => boxPixels(touched, png, [x - 20, y - 20, x + 20, y + 20], rgb);
  const [f1, f2, f1b] = [[300, 200], [620, 420], [380, 240]];
  const point = ([x, y], id) => ({ x: pbox.x + x, y: pbox.y + y, id });
  await fingers("touchStart", [point(f1, 1), point(f2, 2)]);
  await touched.waitForTimeout(400);
  const two = await canvasShot(touched);
  await fingers("touchMove", [point(f1b, 1), point(f2, 2)]);
  await touched.waitForTimeout(400);
  const slid = await canvasShot(touched);
  await fingers("touchEnd", []);
  await touched.waitForTimeout(400);
  const lifted = await canvasShot(touched);
  writeFileSync(join(artifacts, "probe-touch.png"), two);
  const seen = {
    marks: [await near(two, f1, MARK), await near(two, f2, MARK)],
    ring: [await near(two, f1, RING), await near(two, f2, RING)],
    slid: [await near(slid, f1b, MARK), await near(slid, f1, MARK)],
    lifted: [await boxPixels(touched, lifted, [0, 0, pbox.width, pbox.height], MARK), await near(lifted, f1b, RING)],
  };
  check(seen.marks.every((n) => n > 40) && seen.ring[0] > 40 && seen.ring[1] === 0,
    "the game sees two touches where the fingers are, the first as the pointer", JSON.stringify(seen));
  check(seen.slid[0] > 40 && seen.slid[1] === 0 && seen.lifted[0] === 0 && seen.lifted[1] > 40,
    "a touch follows its finger and lifts with it; the pointer stays where it was", JSON.stringify(seen));
  // The run so far, recorded (F8), replays natively: every state hash equal.
  await touched.focus("#glcanvas");
  await touched.keyboard.press("F8");
  await touched.waitForSelector("#ludus-recording", { state: "attached", timeout: 15000 }).catch(() => {});
  const touchRec = await touched.evaluate(async () => {
    const link = document.getElementById("ludus-recording");
    return link ? Array.from(new Uint8Array(await (await fetch(link.href)).arrayBuffer())) : null;
  });
  if (touchRec) {
    const file = join(artifacts, "probe-touch.ludusrec");
    writeFileSync(file, Buffer.from(touchRec));
    const r = native(["replay", file, "--game", probeDir], { allowFail: true });
    check(r.status === 0 && /every state hash matches/.test(r.stdout),
      "the page's touches, recorded, replay natively", (r.stdout + r.stderr).trim());
  } else {
    check(false, "the page's touches, recorded, replay natively", "no recording offered after F8");
  }
  // `touches` lines: the same run in the page and natively.
  const touchLines = [
    { tick: 2, touches: [{ id: 1, x: 10, y: -20 }] },
    { tick: 5, touches: [{ id: 1, x: 15, y: -20 }, { id: 4, x: -30, y: 40 }] },
    { tick: 9, touches: [{ id: 4, x: -31, y: 41 }] },
    { tick: 14, touches: [] },
  ];
  const touchInput = touchLines.map((l) => JSON.stringify(l)).join("\n") + "\n";
  const touchFile = join(work, "touch.jsonl");
  const touchTrace = join(work, "touch.trace");
  writeFileSync(touchFile, touchInput);
  const webTouch = await touched.evaluate((text) => {
    const r = window.ludus.sim(text, 20, { trace: true });
    return { summary: r.summary, hashes: r.trace.map((t) => t.hash) };
  }, touchInput);
  const natTouch = JSON.parse(native(["sim", probeDir, "--ticks", "20", "--input", touchFile, "--trace", touchTrace]).stdout);
  const natTouchHashes = readFileSync(touchTrace, "utf8").trim().split("\n").map((l) => JSON.parse(l).hash);
  check(
    webTouch.hashes.length === 20 && webTouch.hashes.every((h, i) => h === natTouchHashes[i]) &&
      JSON.stringify(webTouch.summary.vars) === JSON.stringify(natTouch.vars) && natTouch.vars.touches === 0,
    "touches in an input file give the same state every tick in the page and natively",
    `vars ${JSON.stringify(webTouch.summary.vars)}, entities ${webTouch.summary.entities}`,
  );
  await touched.close();
}
