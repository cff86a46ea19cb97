// Ludus's glue for miniquad's loader (gl.js). Load it after gl.js and audio.js, before
// `load("ludus.wasm")`. It is a miniquad plugin that
//
// - supplies the `wasi_snapshot_preview1` imports that the Lua VM's C library (wasi-libc)
//   links against: console output, clocks and randomness; no files, no environment;
// - runs the C constructors (`__wasm_call_ctors`) once, after instantiation and before `main`;
// - gives the module a monotonic clock, and opens sound only if the page can play it (the
//   module itself waits for the first user gesture; see src/audio.rs);
// - shows a game that cannot start as a message over the canvas, and a page without WebGL
//   says so instead of loading the module;
// - keeps the game's saved data in the page's localStorage, under the game's name;
// - reads the page's gamepads (the Gamepad API) when the module asks, once a frame;
// - starts a game from a bundle (`ludus_start`, what `ludus export web` writes in index.html);
// - exposes `window.ludus`, a small API for tests and tools: headless runs and replays of the
//   page's game, through the same code as `ludus sim --input` and `ludus replay`
//   (src/web/api.rs documents the C ABI underneath).
"use strict";

(function () {
  const GLUE_VERSION = 2; // must equal ludus_crate_version() in src/web/api.rs
  const ESUCCESS = 0;
  const EBADF = 8;
  const ENOSYS = 52;

  let exports = null;
  let readyResolve;
  const ready = new Promise((resolve) => (readyResolve = resolve));
  const utf8 = new TextDecoder("utf-8");
  const encoder = new TextEncoder();

  // gl.js keeps the module's memory in its global `wasm_memory`; its buffer is replaced
  // whenever memory grows, so views are made fresh for every access.
  const bytes = (ptr, len) => new Uint8Array(wasm_memory.buffer, ptr, len);
  const view = () => new DataView(wasm_memory.buffer);

  // ---- WASI: what wasi-libc asks of its host --------------------------------------------
  const pending = { 1: "", 2: "" };
  function fd_write(fd, iovs, iovsLen, nwritten) {
    if (fd !== 1 && fd !== 2) return EBADF;
    const v = view();
    let total = 0;
    let text = pending[fd];
    for (let i = 0; i < iovsLen; i++) {
      const ptr = v.getUint32(iovs + i * 8, true);
      const len = v.getUint32(iovs + i * 8 + 4, true);
      text += utf8.decode(bytes(ptr, len).slice());
      total += len;
    }
    const lines = text.split("\n");
    pending[fd] = lines.pop();
    for (const line of lines) (fd === 1 ? console.log : console.warn)(line);
    v.setUint32(nwritten, total, true);
    return ESUCCESS;
  }

  function clock_time_get(id, _precision, out) {
    // 0: realtime; the others (monotonic, CPU time) all read the page's monotonic clock.
    const ns = id === 0
      ? BigInt(Date.now()) * 1000000n
      : BigInt(Math.round(performance.now() * 1e6));
    view().setBigUint64(out, ns, true);
    return ESUCCESS;
  }

  function random_get(buf, len) {
    for (let at = 0; at < len; at += 65536) {
      crypto.getRandomValues(bytes(buf + at, Math.min(65536, len - at)));
    }
    return ESUCCESS;
  }

  function environ_sizes_get(count, size) {
    const v = view();
    v.setUint32(count, 0, true);
    v.setUint32(size, 0, true);
    return ESUCCESS;
  }

  const wasiFunctions = {
    fd_write,
    clock_time_get,
    random_get,
    environ_sizes_get,
    environ_get: () => ESUCCESS,
    args_sizes_get: environ_sizes_get,
    args_get: () => ESUCCESS,
    // No preopened folders: "bad descriptor" ends wasi-libc's start-up scan (anything else
    // makes it exit).
    fd_prestat_get: () => EBADF,
    proc_exit: (code) => {
      throw new Error("ludus: the C library exited with status " + code);
    },
  };
  // Everything else (files, directories, seeking...) is not available in a page.
  const wasi = new Proxy(wasiFunctions, {
    get: (target, name) => (name in target ? target[name] : () => ENOSYS),
  });

  // ---- Sound ------------------------------------------------------------------------------
  function audioAvailable() {
    return typeof audio_init === "function" && !!(window.AudioContext || window.webkitAudioContext);
  }

  // quad-snd's audio.js throws if WebAudio fails; a page without sound must still play.
  function guardAudio(env) {
    let broken = false;
    for (const name of Object.keys(env)) {
      if (!name.startsWith("audio_") || typeof env[name] !== "function") continue;
      const inner = env[name];
      env[name] = function (...args) {
        if (broken) return 0;
        try {
          return inner(...args);
        } catch (e) {
          broken = true;
          console.warn("ludus: sound is off (" + e + ")");
          return 0;
        }
      };
    }
  }

  // ---- Messages ---------------------------------------------------------------------------
  function showError(ptr, len) {
    showMessage(utf8.decode(bytes(ptr, len).slice()));
  }

  function showMessage(text) {
    const box = document.getElementById("ludus-error");
    if (box) {
      box.textContent = text;
      box.style.display = "block";
    }
    document.getElementById("ludus-hint")?.remove();
  }

  // A recording the game left (a fault): a download link under the canvas.
  function offerRecording(ptr, len, namePtr, nameLen) {
    const blob = new Blob([bytes(ptr, len).slice()], { type: "application/octet-stream" });
    const name = utf8.decode(bytes(namePtr, nameLen).slice());
    let link = document.getElementById("ludus-recording");
    if (!link) {
      link = document.createElement("a");
      link.id = "ludus-recording";
      link.style.cssText = "display:block;margin:8px;color:#9cf;font:14px sans-serif";
      document.body.appendChild(link);
    }
    if (link.href) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(blob);
    link.download = name;
    link.dataset.bytes = String(len);
    link.textContent = "Download the recording of this run (" + name + "): replay it with `ludus replay " + name + "`";
  }

  // ---- Saved data: the page's localStorage, under the game's name -------------------------
  // The module asks a text's length in UTF-8 bytes first (-1: none; -2: the storage refused),
  // and copies it only when it is within its bound.
  let savedBytes = null;
  const storageKey = (ptr, len) => utf8.decode(bytes(ptr, len).slice());

  function savedLen(keyPtr, keyLen) {
    try {
      const text = localStorage.getItem(storageKey(keyPtr, keyLen));
      savedBytes = text === null ? null : encoder.encode(text);
      return savedBytes === null ? -1 : savedBytes.length;
    } catch (e) {
      console.warn("ludus: cannot read saved data (" + e + ")");
      return -2;
    }
  }

  function savedRead(keyPtr, keyLen, ptr, cap) {
    if (savedLen(keyPtr, keyLen) < 0 || savedBytes.length > cap) return -1;
    bytes(ptr, savedBytes.length).set(savedBytes);
    const n = savedBytes.length;
    savedBytes = null;
    return n;
  }

  function savedWrite(keyPtr, keyLen, ptr, len) {
    try {
      localStorage.setItem(storageKey(keyPtr, keyLen), utf8.decode(bytes(ptr, len).slice()));
      return true;
    } catch (e) {
      console.warn("ludus: cannot keep saved data (" + e + ")");
      return false;
    }
  }

  function savedMove(keyPtr, keyLen, toPtr, toLen) {
    try {
      const key = storageKey(keyPtr, keyLen);
      const text = localStorage.getItem(key);
      if (text !== null) {
        localStorage.setItem(storageKey(toPtr, toLen), text);
        localStorage.removeItem(key);
      }
      return true;
    } catch (e) {
      console.warn("ludus: cannot move saved data aside (" + e + ")");
      return false;
    }
  }

  // ---- Gamepads: the Gamepad API, read by the module once a frame --------------------------
  // Each slot of navigator.getGamepads() as 9 numbers (src/platform/pad_snapshot.rs reads
  // them): connected, a hash of the pad's id, buttons 0-15 of the standard mapping pressed
  // (bits), axes 0-3, and the values of buttons 6 and 7 (the triggers).
  const PAD_VALUES = 9;

  function padIdHash(id) {
    let h = 0x811c9dc5;
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
    return h;
  }

  function padsRead(ptr, cap) {
    const out = new Float64Array(wasm_memory.buffer, ptr, cap);
    out.fill(0);
    let pads = [];
    try {
      pads = (navigator.getGamepads && navigator.getGamepads()) || [];
    } catch (e) {
      pads = [];
    }
    const finite = (v) => (Number.isFinite(v) ? v : 0);
    for (let i = 0; i < pads.length && (i + 1) * PAD_VALUES <= cap; i++) {
      const pad = pads[i];
      if (!pad || !pad.connected) continue;
      const at = i * PAD_VALUES;
      const buttons = pad.buttons || [];
      const axes = pad.axes || [];
      let bits = 0;
      for (let b = 0; b < 16 && b < buttons.length; b++) if (buttons[b] && buttons[b].pressed) bits |= 1 << b;
      out[at] = 1;
      out[at + 1] = padIdHash(String(pad.id));
      out[at + 2] = bits;
      for (let a = 0; a < 4; a++) out[at + 3 + a] = finite(Number(axes[a]));
      out[at + 7] = finite(Number(buttons[6] && buttons[6].value));
      out[at + 8] = finite(Number(buttons[7] && buttons[7].value));
    }
  }

  function hideHintOnGesture() {
    const hide = () => {
      const hint = document.getElementById("ludus-hint");
      if (hint) hint.remove();
      removeEventListener("keydown", hide, true);
      removeEventListener("pointerdown", hide, true);
    };
    addEventListener("keydown", hide, true);
    addEventListener("pointerdown", hide, true);
  }

  // ---- WebGL ------------------------------------------------------------------------------
  // gl.js assumes the page has WebGL and dies on its first call without it; a page without
  // it says so instead, and the module is not loaded. A throwaway canvas asks, so the game's
  // canvas is left for gl.js to make the context it wants.
  function webglAvailable() {
    try {
      return !!document.createElement("canvas").getContext("webgl");
    } catch (e) {
      return false;
    }
  }

  const glLoad = load;
  load = function (wasmPath) {
    if (!webglAvailable()) {
      showMessage("This game needs WebGL, which this browser does not offer (it may be " +
        "turned off, or the graphics driver blocked).\nTry another browser, or turn on " +
        "hardware acceleration in this one's settings.");
      return;
    }
    glLoad(wasmPath);
  };

  // ---- The plugin -------------------------------------------------------------------------
  function register_plugin(importObject) {
    importObject.wasi_snapshot_preview1 = wasi;
    const env = importObject.env;
    // gl.js looks every import name up in `env`, whatever its module, and warns about the ones
    // it does not find; listing the WASI names there too keeps the console quiet.
    for (const name of Object.keys(wasiFunctions)) env[name] = env[name] || wasiFunctions[name];
    for (const name of ["fd_close", "fd_fdstat_get", "fd_fdstat_set_flags", "fd_prestat_dir_name",
      "fd_read", "fd_renumber", "fd_seek", "path_open", "path_remove_directory", "path_rename",
      "path_unlink_file"]) {
      env[name] = env[name] || (() => ENOSYS);
    }
    env.ludus_now_ms = () => performance.now();
    env.ludus_audio_available = audioAvailable;
    env.ludus_show_error = showError;
    env.ludus_offer_recording = offerRecording;
    env.ludus_saved_len = savedLen;
    env.ludus_saved_read = savedRead;
    env.ludus_saved_write = savedWrite;
    env.ludus_saved_move = savedMove;
    env.ludus_pads_read = padsRead;
    env.ludus_set_title = (ptr, len) => (document.title = utf8.decode(bytes(ptr, len).slice()));
    guardAudio(env);
  }

  function on_init() {
    exports = wasm_exports;
    if (typeof exports.__wasm_call_ctors === "function") exports.__wasm_call_ctors();
    // The game bundle `start` fetched: handed over before gl.js calls `main`.
    if (bundle) {
      const ptr = copyIn(bundle);
      exports.ludus_set_bundle(ptr, bundle.length);
      exports.ludus_free(ptr, bundle.length);
      bundle = null;
    }
    if (audioAvailable()) {
      hideHintOnGesture();
    } else {
      document.getElementById("ludus-hint")?.remove();
    }
    // gl.js calls `main` right after the plugins' on_init: the API is ready after that.
    setTimeout(() => readyResolve(), 0);
  }

  miniquad_add_plugin({ register_plugin, on_init, name: "ludus", version: GLUE_VERSION });

  // ---- window.ludus -----------------------------------------------------------------------
  function copyIn(data) {
    const ptr = exports.ludus_alloc(data.length);
    bytes(ptr, data.length).set(data);
    return ptr;
  }

  // Reads and frees a result buffer: u32 length, then parts of u32 length + bytes.
  function takeResult(ptr) {
    const total = view().getUint32(ptr, true);
    const parts = [];
    let at = ptr + 4;
    while (at < ptr + 4 + total) {
      const len = view().getUint32(at, true);
      parts.push(bytes(at + 4, len).slice());
      at += 4 + len;
    }
    exports.ludus_free(ptr, 4 + total);
    return parts;
  }

  function call(fn, data, ...rest) {
    if (!exports) throw new Error("ludus: the module is not loaded yet (await ludus.ready)");
    const input = copyIn(data);
    try {
      return takeResult(fn(input, data.length, ...rest));
    } finally {
      exports.ludus_free(input, data.length);
    }
  }

  // ---- Starting a game from a bundle (`ludus export web`) -------------------------------
  let bundle = null;

  /// Fetches the game bundle at `bundleUrl`, then loads the module at `wasmUrl` to play it
  /// (the one module runs every game); a bundle that cannot be fetched is a message on the
  /// page, and one that is damaged or from another version is refused by the module.
  window.ludus_start = async function (wasmUrl, bundleUrl) {
    let response;
    try {
      response = await fetch(bundleUrl);
    } catch (e) {
      showMessage(`The game could not be loaded:\n${bundleUrl}: ${e.message}`);
      return;
    }
    if (!response.ok) {
      showMessage(`The game could not be loaded:\n${bundleUrl}: HTTP ${response.status}`);
      return;
    }
    bundle = new Uint8Array(await response.arrayBuffer());
    load(wasmUrl);
  };

  window.ludus = {
    ready,
    version: GLUE_VERSION,

    /// Runs the embedded game headless for `ticks` ticks with per-tick input in the
    /// `ludus sim --input` format (JSON Lines). Returns { summary, trace, recording }: the
    /// summary `ludus sim` prints (or { error }), one { tick, hash, entities } per tick when
    /// `trace` is set, and the recording's bytes when `record` is set.
    sim(input, ticks, { record = false, trace = false } = {}) {
      const flags = (record ? 1 : 0) | (trace ? 2 : 0);
      const [summary, traceBytes, recording] =
        call(exports.ludus_sim, encoder.encode(input), ticks >>> 0, flags);
      const lines = utf8.decode(traceBytes).split("\n").filter((l) => l.length > 0);
      return {
        summary: JSON.parse(utf8.decode(summary)),
        trace: lines.map((l) => JSON.parse(l)),
        recording: record ? recording : null,
      };
    },

    /// Replays a recording (bytes, as `ludus sim --record` writes) against the embedded game:
    /// { outcome: "identical", ticks } or { outcome: "diverged", segment, tick, report } or
    /// { outcome: "error", error }.
    replay(recording) {
      const [json] = call(exports.ludus_replay, new Uint8Array(recording));
      return JSON.parse(utf8.decode(json));
    },

    /// One rung of `ludus bench --serial` in the page: the embedded game with `entities` more
    /// of its [stress] archetype, `warmup` unmeasured then `ticks` timed ticks, up to the tick
    /// in which the game ends if it does. Returns { entities, ticks (those measured), ended_at
    /// (null or the tick the game ended in), median_ms, mean_ms, p99_ms, in_scripts, hash } or
    /// { error }. The
    /// page's clock may be coarse (0.1 ms without cross-origin isolation): compare `mean_ms`.
    /// The browser compiles the module's code quickly first and optimises what runs hot while
    /// it runs: the first seconds of ticks after loading are slower than the rest (the
    /// `?bench=` ladder runs its first rung unmeasured until its code is warm).
    bench(entities, { ticks = 120, warmup = 20 } = {}) {
      if (!exports) throw new Error("ludus: the module is not loaded yet (await ludus.ready)");
      if (!exports.ludus_bench) throw new Error("ludus: this module has no bench (an older runtime)");
      const [json] = takeResult(exports.ludus_bench(entities >>> 0, ticks >>> 0, warmup >>> 0));
      return JSON.parse(utf8.decode(json));
    },
  };

  // ---- The bench ladder: `?bench=N` ------------------------------------------------------
  // A page opened with `?bench=N` (and optionally `&from=M`, default 1000, and `&ticks=T`,
  // default 120) measures the game's tick with M, 2M, 4M ... up to N stress entities, as
  // `ludus bench --serial --from M --to N` does natively, and shows the table over the canvas;
  // `window.ludus.benchResults` holds the rows once `window.ludus.benchDone` resolves. First
  // the rung of M runs unmeasured, again and again for `&warm=S` seconds (default 3, 0 to 60),
  // so the table measures the browser's optimised code, not its first quick compilation. The
  // page's own game waits until the ladder is done, as `ludus bench` opens no window: its
  // frames (its ticks and drawing, in software where the machine has no GPU) would share the
  // machine's cores with the ticks measured.
  const params = new URLSearchParams(window.location.search);
  if (params.has("bench")) {
    let doneResolve;
    window.ludus.benchDone = new Promise((resolve) => (doneResolve = resolve));
    const requestFrame = window.requestAnimationFrame.bind(window);
    const heldFrames = [];
    window.requestAnimationFrame = (frame) => {
      heldFrames.push(frame);
      return 0;
    };
    window.ludus.benchDone.then(() => {
      window.requestAnimationFrame = requestFrame;
      for (const frame of heldFrames.splice(0)) requestFrame(frame);
    });
    window.ludus.benchResults = [];
    const to = Math.min(Number(params.get("bench")) || 16000, 1000000);
    const from = Math.max(1, Math.min(Number(params.get("from")) || 1000, to));
    const ticks = Math.max(1, Math.min(Number(params.get("ticks")) || 120, 100000));
    const warm = Math.max(0, Math.min(Number(params.get("warm") ?? 3) || 0, 60));
    ready.then(async () => {
      const pre = document.createElement("pre");
      pre.id = "ludus-bench";
      pre.style.cssText = "position:fixed;left:12px;top:12px;margin:0;padding:10px;background:#000c;" +
        "color:#e8e8f0;font:13px/1.4 ui-monospace,monospace;white-space:pre";
      document.body.appendChild(pre);
      const lines = ["| entities | median tick ms | mean tick ms | p99 ms | in scripts | hash |",
        "| ---: | ---: | ---: | ---: | ---: | --- |"];
      pre.textContent = lines.join("\n") + (warm > 0 ? `\n(warming up for ${warm} s)` : "");
      const until = performance.now() + warm * 1000;
      while (warm > 0) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        const row = window.ludus.bench(from, { ticks, warmup: 0 });
        if (row.error || performance.now() >= until) break;
      }
      pre.textContent = lines.join("\n");
      for (let n = from; n <= to; n *= 2) {
        await new Promise((resolve) => setTimeout(resolve, 0)); // let the table show
        const row = window.ludus.bench(n, { ticks });
        window.ludus.benchResults.push(row);
        lines.push(row.error
          ? `| ${n} | ${row.error} |`
          : `| ${row.entities} | ${row.median_ms.toFixed(3)} | ${row.mean_ms.toFixed(3)} | ` +
            `${row.p99_ms.toFixed(3)} | ${(row.in_scripts * 100).toFixed(1)}% | ${row.hash} |`);
        pre.textContent = lines.join("\n");
        console.log(lines[lines.length - 1]);
        if (row.error) break;
      }
      doneResolve(window.ludus.benchResults);
    });
  }
})();
