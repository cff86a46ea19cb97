//! Builds Lua 5.4 into a static library that `mlua-sys` (feature `external`) links against.
//!
//! The C sources come from the `lua-src` crate (a build dependency, so from the registry like
//! every other crate). They are copied into `OUT_DIR`, `lua.patch` is applied to the copy (see
//! the top of that file for what it changes), and the result is compiled together with this
//! crate's own C (`csrc/`: the event decoder, the library fences and the hot commands' entry).
//! `ludus_abi.h`, which that C includes, is written first from `src/abi.rs` (the values and the
//! struct the C shares with Rust).
//!
//! - Native targets use the platform C compiler through `cc`.
//! - `wasm32-unknown-unknown` uses clang for `wasm32-wasi` with the wasi-libc headers and
//!   LLVM's setjmp/longjmp lowering; `wasm/` supplies `setjmp.h` and the runtime helpers (see
//!   `wasm/README.md`), and wasi-libc's `libc.a` is linked in for string, printf/strtod and the
//!   exact math functions. Tools and paths can be overridden: `LUDUS_WASM_CC` (clang-19),
//!   `LUDUS_WASM_AR` (llvm-ar-19), `LUDUS_WASI_SYSROOT` (/usr, as laid out by Debian's
//!   wasi-libc package: headers in include/wasm32-wasi, libraries in lib/wasm32-wasi).
//!
//! On every target the string-hash seed and `table.sort`'s pivot choice are fixed (stock Lua
//! takes them from the time and addresses, which changes `pairs` order and the order of equal
//! sorted elements between runs and would break replays), and
//! `csrc/ludus_math.h` is force-included so Lua's transcendental functions come from the Rust
//! `libm` crate: the same bits natively and in the browser.

#[allow(dead_code)]
#[path = "src/abi.rs"]
mod abi;

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

/// The Lua sources compiled into the library (not the stand-alone `lua.c`, `luac.c`, `onelua.c`).
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

/// The Lua version inside the `lua-src` crate.
const LUA_DIR: &str = "lua-5.4.9";

fn main() {
    let target = env::var("TARGET").unwrap_or_default();
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=lua.patch");
    println!("cargo:rerun-if-changed=wasm");
    println!("cargo:rerun-if-changed=csrc");
    println!("cargo:rerun-if-changed=src/abi.rs");
    for var in [
        "LUDUS_WASM_CC",
        "LUDUS_WASM_AR",
        "LUDUS_WASI_SYSROOT",
        "LUDUS_LUA_SRC",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }

    let upstream = lua_sources();
    let out = PathBuf::from(env::var("OUT_DIR").expect("set by cargo")).join("lua");
    patch_sources(&upstream, &out);
    let generated = PathBuf::from(env::var("OUT_DIR").expect("set by cargo")).join("include");
    fs::create_dir_all(&generated).expect("OUT_DIR is writable");
    fs::write(generated.join("ludus_abi.h"), abi_header()).expect("OUT_DIR is writable");

    let mut build = cc::Build::new();
    build
        .include(&out)
        .include("csrc")
        .include(&generated)
        .warnings(false)
        .define("LUA_COMPAT_5_3", None)
        // A fixed string-hash seed: identical table layouts, hence `pairs` order, every run.
        .define("luai_makeseed(L)", Some("0x4c756475U"))
        // `table.sort` re-picks the pivot of an unbalanced partition at "random" (stock Lua
        // reads the clock; wasi-libc, arc4random), which changes the order of equal elements
        // and which comparisons run: a fixed value, the same every run and on every target.
        .define("l_randomizePivot()", Some("0x4c756475U"))
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
        build.file(out.join(f));
    }
    // Ludus's own C: packed event records into Lua tables, the library fences, the hot
    // commands' entry and the shared values as C sees them.
    build.file("csrc/events.c");
    build.file("csrc/fence.c");
    build.file("csrc/fast.c");
    build.file("csrc/abi.c");
    build.compile("ludus_lua54");
}

/// The folder of upstream Lua sources: `LUDUS_LUA_SRC` if set, else the one inside the
/// `lua-src` crate.
///
/// `lua-src` does not publish where its sources are, only that they sit next to its
/// `src/lib.rs`. That path is compiled into the crate as the location of its panics, so it is
/// read from the panic `lua_src::Build::build` raises when it has no target (before it
/// compiles anything).
fn lua_sources() -> PathBuf {
    if let Some(dir) = env::var_os("LUDUS_LUA_SRC").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        check_sources(&dir, "LUDUS_LUA_SRC");
        return dir;
    }
    let location = std::sync::Arc::new(std::sync::Mutex::new(None::<String>));
    let seen = location.clone();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if let Some(l) = info.location() {
            *seen.lock().unwrap_or_else(|e| e.into_inner()) = Some(l.file().to_string());
        }
    }));
    let saved_target = env::var_os("TARGET");
    // SAFETY: the build script is single-threaded; the variable is restored just below.
    unsafe { env::remove_var("TARGET") };
    let _ = std::panic::catch_unwind(|| {
        lua_src::Build::new().build(lua_src::Lua54);
    });
    if let Some(t) = saved_target {
        // SAFETY: as above.
        unsafe { env::set_var("TARGET", t) };
    }
    std::panic::set_hook(previous);
    let file = location.lock().unwrap_or_else(|e| e.into_inner()).take();
    let dir = file
        .map(PathBuf::from)
        .and_then(|f| Some(f.parent()?.parent()?.join(LUA_DIR)))
        .unwrap_or_default();
    check_sources(&dir, "the lua-src crate");
    dir
}

fn check_sources(dir: &Path, from: &str) {
    if !SOURCES.iter().all(|f| dir.join(f).is_file()) {
        panic!(
            "cannot find the Lua {LUA_DIR} sources of {from} (looked in `{}`); set \
             LUDUS_LUA_SRC to a folder holding them (lapi.c, lvm.c, ...)",
            dir.display()
        );
    }
}

/// `ludus_abi.h`: the lists of `src/abi.rs` as C.
fn abi_header() -> String {
    let mut h = String::from(
        "/* Written by lua/build.rs from lua/src/abi.rs, which declares these values for Rust and\n\
         ** C alike: change them there. */\n\
         #ifndef LUDUS_ABI_H\n#define LUDUS_ABI_H\n",
    );
    let mut all = Vec::new();
    for c in abi::CONSTANTS {
        h.push_str(&format!("\n{}", c_comment(c.doc)));
        for (name, value) in c.items {
            let name = format!("{}_{}", c.prefix, upper_snake(name));
            let value = match u8::try_from(*value) {
                Ok(b) if c.chars && b.is_ascii_graphic() && b != b'\'' && b != b'\\' => {
                    format!("'{}'", b as char)
                }
                _ if c.chars => panic!("src/abi.rs: {name} is not a printable character"),
                _ => value.to_string(),
            };
            h.push_str(&format!("#define {name} {value}\n"));
            all.push(name);
        }
    }
    for s in abi::STRUCTS {
        h.push_str(&format!("\n{}", c_comment(s.doc)));
        h.push_str(&format!("typedef struct {} {{\n", s.name));
        all.push(format!("(long long)sizeof({})", s.name));
        for (field, ty, doc) in s.fields {
            // A scalar, or an array `[T; N]` of one.
            let (elem, len) = match ty.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
                Some(array) => match array.split_once("; ") {
                    Some((elem, n)) => (elem, Some(n)),
                    None => panic!("src/abi.rs: no C type for `{ty}` ({}.{field})", s.name),
                },
                None => (*ty, None),
            };
            let c = match elem {
                "i64" => "long long",
                "i32" => "int",
                "f64" => "double",
                "c_char" => "char",
                "*const c_char" => "const char *",
                "*mut c_void" => "void *",
                "*const i64" => "const long long *",
                _ => panic!("src/abi.rs: no C type for `{ty}` ({}.{field})", s.name),
            };
            let declaration = match len {
                Some(n) => format!("{c} {field}[{n}]"),
                None => format!("{c} {field}"),
            };
            h.push_str(&format!(
                "{:<24}{}",
                format!("  {declaration};"),
                c_comment(doc)
            ));
            all.push(format!("(long long)offsetof({}, {field})", s.name));
        }
        h.push_str(&format!("}} {};\n", s.name));
    }
    h.push_str(
        "\n/* Every value above, then each struct's size and field offsets, in the order of\n\
         ** `values` (src/abi.rs): csrc/abi.c hands them to the test that compares. */\n",
    );
    h.push_str(&format!(
        "#define LUDUS_ABI_VALUES {{ \\\n  {} }}\n",
        all.join(", \\\n  ")
    ));
    h.push_str("\n#endif\n");
    h
}

/// `OptId` as C names it: `OPT_ID`.
fn upper_snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// Doc lines as one C comment, ending its line.
fn c_comment(doc: &str) -> String {
    let lines: Vec<&str> = doc
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    match lines.as_slice() {
        [] => "\n".into(),
        [one] => format!("/* {one} */\n"),
        _ => format!("/*\n** {}\n*/\n", lines.join("\n** ")),
    }
}

/// Copies the upstream sources into `out` and applies `lua.patch` to the copy.
fn patch_sources(upstream: &Path, out: &Path) {
    fs::create_dir_all(out).expect("OUT_DIR is writable");
    for entry in fs::read_dir(upstream).expect("the Lua source folder is readable") {
        let path = entry.expect("a readable entry").path();
        let is_source = matches!(path.extension().and_then(|e| e.to_str()), Some("c" | "h"));
        if is_source {
            let name = path.file_name().expect("a file name");
            fs::copy(&path, out.join(name)).expect("copy a Lua source");
        }
    }
    let patch = fs::read_to_string("lua.patch").expect("lua/lua.patch is readable");
    for (file, hunks) in parse_patch(&patch) {
        let path = out.join(&file);
        let mut text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("lua.patch names {file}, which cannot be read: {e}"));
        for hunk in hunks {
            let found = text.matches(hunk.old.as_str()).count();
            if found != 1 {
                panic!(
                    "lua.patch: the hunk at line {} expects text in {file} that occurs {found} \
                     times in these sources (it must occur once); the Lua sources differ from \
                     the version the patch was written for ({LUA_DIR})",
                    hunk.line
                );
            }
            text = text.replacen(hunk.old.as_str(), &hunk.new, 1);
        }
        fs::write(&path, text).expect("OUT_DIR is writable");
    }
}

struct Hunk {
    /// Line of the `@@` header in the patch file.
    line: usize,
    old: String,
    new: String,
}

/// A unified diff: `+++ b/FILE` starts a file; each `@@ -a,b +c,d @@` hunk is followed by
/// lines starting with ' ' (context), '-' (removed) or '+' (added), as many as its header
/// counts. Lines outside hunks are commentary.
fn parse_patch(patch: &str) -> Vec<(String, Vec<Hunk>)> {
    let mut files: Vec<(String, Vec<Hunk>)> = Vec::new();
    let mut lines = patch.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        if let Some(name) = line.strip_prefix("+++ ") {
            let name = name.split('\t').next().unwrap_or(name).trim();
            let name = name.rsplit('/').next().unwrap_or(name).to_string();
            files.push((name, Vec::new()));
            continue;
        }
        if !line.starts_with("@@ ") {
            continue;
        }
        let count = |prefix: char| -> usize {
            let part = line
                .split_whitespace()
                .find(|p| p.starts_with(prefix))
                .unwrap_or_else(|| panic!("lua.patch line {}: a malformed hunk header", i + 1));
            part[1..]
                .split(',')
                .nth(1)
                .map_or(1, |n| n.parse().expect("a line count"))
        };
        let (mut old_left, mut new_left) = (count('-'), count('+'));
        let mut hunk = Hunk {
            line: i + 1,
            old: String::new(),
            new: String::new(),
        };
        while old_left > 0 || new_left > 0 {
            let (j, body) = lines
                .next()
                .unwrap_or_else(|| panic!("lua.patch line {}: the hunk is cut short", i + 1));
            let (kind, text) = body.split_at(body.len().min(1));
            match kind {
                " " | "" => {
                    hunk.old.push_str(text);
                    hunk.old.push('\n');
                    hunk.new.push_str(text);
                    hunk.new.push('\n');
                    old_left -= 1;
                    new_left -= 1;
                }
                "-" => {
                    hunk.old.push_str(text);
                    hunk.old.push('\n');
                    old_left -= 1;
                }
                "+" => {
                    hunk.new.push_str(text);
                    hunk.new.push('\n');
                    new_left -= 1;
                }
                _ => panic!("lua.patch line {}: not a hunk line", j + 1),
            }
        }
        files
            .last_mut()
            .unwrap_or_else(|| panic!("lua.patch line {}: a hunk before any file", i + 1))
            .1
            .push(hunk);
    }
    files
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
        // The features the Rust side of the module already uses (rustc's defaults for the
        // target, and simd128 from .cargo/config.toml), so the module asks no browser for
        // more: memcpy and memset as single instructions, float-to-integer conversions
        // without range-check branches (Lua converts only in range: the results are the
        // same), and packed loops where clang finds them.
        .flag("-mbulk-memory")
        .flag("-mnontrapping-fptoint")
        .flag("-msimd128")
        .opt_level(2)
        .file("wasm/setjmp.c");
    println!("cargo:rustc-link-search=native={}", libs.display());
    println!("cargo:rustc-link-lib=static:-bundle=c");
    // The module that links this library must also export `__wasm_call_ctors` (a link
    // argument only the final binary's own build script can give: see the root build.rs).
}
