//! Compiles the vendored Lua 5.4 sources into a static library that `mlua-sys` (feature
//! `external`) links against.
//!
//! - Native targets use the platform C compiler through `cc`.
//! - `wasm32-unknown-unknown` uses clang for `wasm32-wasi` with wasi-libc headers and LLVM's
//!   setjmp/longjmp lowering; `wasm/` supplies `setjmp.h` and the runtime helpers (see
//!   `wasm/README.md`).
//!
//! On every target the string-hash seed is fixed: stock Lua seeds it from the time and
//! addresses, which changes `pairs` order between runs and would break replays.

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

    let mut build = cc::Build::new();
    build
        .include(dir)
        .warnings(false)
        .define("LUA_COMPAT_5_3", None)
        // A fixed string-hash seed: identical table layouts, hence `pairs` order, every run.
        .define("luai_makeseed(L)", Some("0x4c756475U"));
    if target == "wasm32-unknown-unknown" {
        let clang = env::var("LUDUS_WASM_CC").unwrap_or_else(|_| "clang-19".into());
        let ar = env::var("LUDUS_WASM_AR").unwrap_or_else(|_| "llvm-ar-19".into());
        let sysroot = env::var("LUDUS_WASI_SYSROOT").unwrap_or_else(|_| "/usr".into());
        build
            .compiler(clang)
            .archiver(ar)
            .target("wasm32-wasi")
            .flag("--target=wasm32-wasi")
            .flag(format!("-isystem{sysroot}/include/wasm32-wasi"))
            .include("wasm")
            .define("_WASI_EMULATED_SIGNAL", None)
            .flag("-fno-common")
            .flag("-mllvm")
            .flag("-wasm-enable-sjlj")
            .opt_level(2)
            .file("wasm/setjmp.c");
        println!("cargo:rustc-link-search=native={sysroot}/lib/wasm32-wasi");
        println!("cargo:rustc-link-lib=static=c");
        println!("cargo:rustc-link-arg=--export=__wasm_call_ctors");
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
