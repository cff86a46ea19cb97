// The browser test's tick cost (browser.mjs calls it): the page's tick against the native one,
// on the same game and entity count, each measured as its fastest of a few alternating runs (a
// shared machine's speed moves between runs minutes apart).
//
// - The swarm's headless run with the test's input (`window.ludus.sim`), in the page after
//   3 s of warming and natively (`ludus sim`), best of five each: tick-cost.json.
// - The bench ladder in the page (`?bench=16000`) against `ludus bench --serial` natively,
//   alternately five times each, the best means compared, and the page's world after the
//   bench equal to the native one's: bench.json.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// Measures both, then closes `page` (the live game, whose frames would share the cores with
// the bench); `open(label, init, address)` opens a page of the swarm's site.
export async function tickCost({ page, url, open, input, TICKS, inputFile, gameDir, native, check, artifacts, work }) {
  // The same headless run, best of five, in the page and natively. The page's run
  // repeats for 3 s first: the browser optimises the module's hot code while it runs, and the
  // figure is the optimised code's, as the `?bench=` ladder's is (see docs/web.md).
  const webMs = await page.evaluate(([text, ticks]) => {
    const until = performance.now() + 3000;
    do window.ludus.sim(text, ticks); while (performance.now() < until);
    const times = [];
    for (let i = 0; i < 5; i++) times.push(window.ludus.sim(text, ticks).summary.elapsed_ms);
    return Math.min(...times);
  }, [input, TICKS]);
  const nativeMs = Math.min(...[0, 1, 2, 3, 4].map(() =>
    JSON.parse(native(["sim", gameDir, "--input", inputFile, "--ticks", String(TICKS)]).stdout).elapsed_ms));
  const cost = {
    ticks: TICKS,
    web_ms_per_tick: webMs / TICKS,
    native_ms_per_tick: nativeMs / TICKS,
    ratio: webMs / nativeMs,
  };
  writeFileSync(join(artifacts, "tick-cost.json"), JSON.stringify(cost) + "\n");
  console.log(
    `tick cost over ${TICKS} headless ticks (best of 5): browser ${cost.web_ms_per_tick.toFixed(4)} ms, ` +
      `native ${cost.native_ms_per_tick.toFixed(4)} ms, ratio ${cost.ratio.toFixed(2)}x`,
  );
  check(Number.isFinite(cost.ratio) && cost.ratio > 0, "tick cost measured on both");
  // Closed before the bench: its game, drawn 60 times a second, would share the cores.
  await page.close();

  // The bench ladder in the page (`?bench=N`) against `ludus bench --serial` natively: 16k
  // stress drones, the same ticks, alternately five times each; the best means compared (the
  // page's clock is coarse), and the page's state after the bench equal to the native one's.
  // A rung times about 20 ms of ticks: with three rounds, runs of the same build read 1.20x to
  // 1.65x on the test machine, the page's three rungs all slow in the last.
  const BENCH_N = 16000, BENCH_TICKS = 200, BENCH_WARMUP = 20, BENCH_ROUNDS = 5;
  const benchCsv = join(work, "bench.csv");
  const pageMeans = [], nativeMeans = [];
  let benchRow = null;
  for (let round = 0; round < BENCH_ROUNDS; round++) {
    const benchPage = await open("bench", null, `${url}?bench=${BENCH_N}&from=${BENCH_N}&ticks=${BENCH_TICKS}`);
    const rows = await benchPage.evaluate(() => window.ludus.benchDone);
    await benchPage.close();
    benchRow = rows[0];
    check(rows.length === 1 && !benchRow.error, `the page's ?bench=${BENCH_N} ladder ran`, JSON.stringify(rows));
    pageMeans.push(benchRow.mean_ms);
    native(["bench", gameDir, "--serial", "--from", String(BENCH_N), "--to", String(BENCH_N),
      "--ticks", String(BENCH_TICKS), "--warmup", String(BENCH_WARMUP), "--csv", benchCsv,
      "--svg", join(work, "bench.svg")]);
    const [header, line] = readFileSync(benchCsv, "utf8").trim().split("\n");
    const row = Object.fromEntries(header.split(",").map((k, i) => [k, line.split(",")[i]]));
    nativeMeans.push(Number(row.mean_ms));
  }
  const simmed = JSON.parse(native(["sim", gameDir, "--entities", String(BENCH_N),
    "--ticks", String(BENCH_TICKS + BENCH_WARMUP)]).stdout);
  check(benchRow && benchRow.hash === simmed.hash,
    `the page's bench world equals the native one after ${BENCH_TICKS + BENCH_WARMUP} ticks of ${BENCH_N} drones`,
    `${benchRow?.hash} against ${simmed.hash}`);
  const bench = {
    entities: benchRow?.entities,
    ticks: BENCH_TICKS,
    web_mean_ms: Math.min(...pageMeans),
    native_serial_mean_ms: Math.min(...nativeMeans),
    web_means_ms: pageMeans,
    native_means_ms: nativeMeans,
  };
  bench.ratio = bench.web_mean_ms / bench.native_serial_mean_ms;
  writeFileSync(join(artifacts, "bench.json"), JSON.stringify(bench) + "\n");
  console.log(
    `bench at ${BENCH_N} drones (mean tick, best of ${BENCH_ROUNDS} alternating): browser ${bench.web_mean_ms.toFixed(3)} ms, ` +
      `native serial ${bench.native_serial_mean_ms.toFixed(3)} ms, ratio ${bench.ratio.toFixed(2)}x`,
  );
  check(Number.isFinite(bench.ratio) && bench.ratio > 0, "bench tick measured on both");
}
