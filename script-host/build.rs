//! Compiles the vendored Lua 5.4 sources into a static library that `mlua-sys` (feature
//! `external`) links against.
//!
//! - Native targets use the platform C compiler through `cc`.
//! - `wasm32-unknown-unknown` uses clang for `wasm32-wasi` with the wasi-libc headers and
//!   LLVM's setjmp/longjmp lowering; `wasm/` supplies `setjmp.h` and the runtime helpers (see
//!   `wasm/README.md`), and wasi-libc's `libc.a` is linked in for string, printf/strtod and the
//!   exact math functions. Tools and paths can be overridden: `LUDUS_WASM_CC` (clang-19),
//!   `LUDUS_WASM_AR` (llvm-ar-19), `LUDUS_WASI_SYSROOT` (/usr, as laid out by Debian's
//!   wasi-libc package: headers in include/wasm32-wasi, libraries in lib/wasm32-wasi).
//!
//! On every target the string-hash seed is fixed (stock Lua seeds it from the time and
//! addresses, which changes `pairs` order between runs and would break replays), and
//! `csrc/ludus_math.h` is force-included so Lua's transcendental functions come from the Rust
//! `libm` crate: the same bits natively and in the browser.

use std::env;
use std::path::Path;

const SOURCES: &[&str] = &[
    "lapi.c",
    "lauxlib.c",
    "lbaselib.c",
    "lcode.c",
    "lcorolib.c",
    "lctype.c",
    "ldblib.c",
    "ldebug.c",
    "ldo.c",
    "ldump.c",
    "lfunc.c",
    "lgc.c",
    "linit.c",
    "liolib.c",
    "llex.c",
    "lmathlib.c",
    "lmem.c",
    "loadlib.c",
    "lobject.c",
    "lopcodes.c",
    "loslib.c",
    "lparser.c",
    "lstate.c",
    "lstring.c",
    "lstrlib.c",
    "ltable.c",
    "ltablib.c",
    "ltm.c",
    "lundump.c",
    "lutf8lib.c",
    "lvm.c",
    "lzio.c",
];

fn main() {
    let target = env::var("TARGET").unwrap_or_default();
    let dir = Path::new("lua");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=lua");
    println!("cargo:rerun-if-changed=wasm");
    println!("cargo:rerun-if-changed=csrc");
    for var in ["LUDUS_WASM_CC", "LUDUS_WASM_AR", "LUDUS_WASI_SYSROOT"] {
        println!("cargo:rerun-if-env-changed={var}");
    }

    let mut build = cc::Build::new();
    build
        .include(dir)
        .warnings(false)
        .define("LUA_COMPAT_5_3", None)
        // A fixed string-hash seed: identical table layouts, hence `pairs` order, every run.
        .define("luai_makeseed(L)", Some("0x4c756475U"))
        // One implementation of sin, exp, pow... on every target (see the header).
        .flag("-include")
        .flag("csrc/ludus_math.h");
    if target == "wasm32-unknown-unknown" {
        wasm(&mut build);
    } else if target.contains("linux") || target.contains("bsd") {
        build.define("LUA_USE_POSIX", None);
    } else if target.contains("apple") {
        build.define("LUA_USE_MACOSX", None);
    } else if target.contains("windows") {
        build.define("LUA_USE_WINDOWS", None);
    }
    for f in SOURCES {
        build.file(dir.join(f));
    }
    // The host's own C: packed event records into Lua tables.
    build.file("csrc/events.c");
    build.compile("ludus_lua54");
}

/// The browser: C compiled by clang as wasm32-wasi objects, which link into the
/// wasm32-unknown-unknown module (same object format and ABI) together with wasi-libc.
fn wasm(build: &mut cc::Build) {
    let clang = env::var("LUDUS_WASM_CC").unwrap_or_else(|_| "clang-19".into());
    let ar = env::var("LUDUS_WASM_AR").unwrap_or_else(|_| "llvm-ar-19".into());
    let sysroot = env::var("LUDUS_WASI_SYSROOT").unwrap_or_else(|_| "/usr".into());
    let headers = Path::new(&sysroot).join("include/wasm32-wasi");
    let libs = Path::new(&sysroot).join("lib/wasm32-wasi");
    if !headers.join("stdio.h").is_file() || !libs.join("libc.a").is_file() {
        panic!(
            "the browser build needs wasi-libc: no {} or {} (Debian: apt-get install clang-19 \
             llvm-19 wasi-libc; elsewhere set LUDUS_WASI_SYSROOT)",
            headers.join("stdio.h").display(),
            libs.join("libc.a").display()
        );
    }
    build
        .compiler(clang)
        .archiver(ar)
        .target("wasm32-wasi")
        .flag("--target=wasm32-wasi")
        .flag("-isystem")
        .flag(headers.display().to_string())
        // Found before the system headers: wasi-libc has no setjmp.h.
        .include("wasm")
        .define("_WASI_EMULATED_SIGNAL", None)
        .flag("-fno-common")
        .flag("-mllvm")
        .flag("-wasm-enable-sjlj")
        .opt_level(2)
        .file("wasm/setjmp.c");
    println!("cargo:rustc-link-search=native={}", libs.display());
    println!("cargo:rustc-link-lib=static:-bundle=c");
    // The module that links this library must also export `__wasm_call_ctors` (a link
    // argument only the final binary's own build script can give: see the root build.rs).
}
