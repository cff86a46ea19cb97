#!/usr/bin/env bash
# Builds the browser version of a game folder.
#
#   web/build.sh GAME_DIR OUT_DIR
#
# OUT_DIR receives index.html, ludus.wasm (the engine with GAME_DIR's files compiled in),
# gl.js (miniquad's loader, from the exact miniquad version in Cargo.lock), audio.js
# (quad-snd's WebAudio plugin, likewise) and ludus.js (our glue). Serve it with
# `ludus serve OUT_DIR` and open the printed address. See docs/web.md.
#
# Needs: the Rust target wasm32-unknown-unknown, clang-19, llvm-ar-19 and llvm-strip-19, and
# wasi-libc (Debian: apt-get install clang-19 llvm-19 wasi-libc). CARGO_TARGET_DIR is
# honoured; LUDUS_WASM_CC, LUDUS_WASM_AR, LUDUS_WASM_STRIP and LUDUS_WASI_SYSROOT name other
# tools or another wasi-libc.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 GAME_DIR OUT_DIR" >&2
  exit 2
fi
game=$(realpath "$1")
out=$(realpath -m "$2")
root=$(cd "$(dirname "$0")/.." && pwd)

fail() { echo "web/build.sh: $*" >&2; exit 1; }
[ -f "$game/game.toml" ] || fail "$1 is not a game folder (no game.toml)"
command -v "${LUDUS_WASM_CC:-clang-19}" >/dev/null ||
  fail "${LUDUS_WASM_CC:-clang-19} not found (Debian: apt-get install clang-19 llvm-19 wasi-libc)"
for tool in "${LUDUS_WASM_AR:-llvm-ar-19}" "${LUDUS_WASM_STRIP:-llvm-strip-19}"; do
  command -v "$tool" >/dev/null || fail "$tool not found (Debian: apt-get install llvm-19)"
done
if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  fail "the Rust target is missing: rustup target add wasm32-unknown-unknown"
fi

cd "$root"
LUDUS_GAME_DIR="$game" cargo build --release --locked --target wasm32-unknown-unknown --bin ludus

# Where cargo put things, and the exact crate versions the build used.
metadata=$(cargo metadata --format-version 1 --locked --filter-platform wasm32-unknown-unknown)
target_dir=$(printf '%s' "$metadata" | grep -o '"target_directory":"[^"]*"' | head -n1 | cut -d'"' -f4)
crate_dir() { # NAME -> the folder of the version in Cargo.lock
  local version
  version=$(cargo pkgid --locked "$1" | sed 's/.*[@#]//')
  printf '%s' "$metadata" | grep -o "\"manifest_path\":\"[^\"]*/$1-$version/Cargo.toml\"" |
    head -n1 | cut -d'"' -f4 | xargs -r dirname
}
miniquad=$(crate_dir miniquad)
quad_snd=$(crate_dir quad-snd)
[ -f "$miniquad/js/gl.js" ] || fail "cannot find gl.js of the locked miniquad ($miniquad)"
[ -f "$quad_snd/js/audio.js" ] || fail "cannot find audio.js of the locked quad-snd ($quad_snd)"

mkdir -p "$out"
# The page never shows DWARF line tables: without them the module is a fifth of the size.
"${LUDUS_WASM_STRIP:-llvm-strip-19}" --strip-debug -o "$out/ludus.wasm" \
  "$target_dir/wasm32-unknown-unknown/release/ludus.wasm"
cp "$miniquad/js/gl.js" "$out/gl.js"
cp "$quad_snd/js/audio.js" "$out/audio.js"
cp web/ludus.js web/index.html "$out/"
echo "built $(basename "$game") for the web in $out ($(du -k "$out/ludus.wasm" | cut -f1) KiB of wasm);" \
  "serve it with: ludus serve $out"
