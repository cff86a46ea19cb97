//! Hostile scripts, second round: few instructions that do a great deal of work each (call and
//! index chains, hash floods, long scans, buffers that grow), and error objects that would
//! show an address. Every case here runs well within the instruction count of its budget, so
//! without a charge for its work it would end without a fault, minutes later; with the charge
//! it ends at once in a budget fault at its line. The legitimate uses of the same functions
//! keep running within the budget (`ordinary_uses_stay_within_the_budget`).

mod support;

use ludus_core::*;
use std::sync::mpsc;
use std::time::Duration;
use support::*;

/// How long one case may take before it counts as a hang (debug builds, a busy machine).
const HANG: Duration = Duration::from_secs(60);

const BUDGET: &str = "instruction budget exceeded";
const COMPILE: &str = "compiling this file took more than the instruction budget";

/// Lua 5.4's string hash (`luaS_hash`) with the seed the VM is built with.
fn lua_hash(s: &[u8]) -> u32 {
    let mut h = 0x4c75_6475u32 ^ s.len() as u32;
    for &c in s.iter().rev() {
        h ^= (h << 5).wrapping_add(h >> 2).wrapping_add(u32::from(c));
    }
    h
}

/// `n` short strings of lowercase letters whose hashes agree in their low `bits` bits, so they
/// share one main position in every table of up to 2^bits slots: a Lua table of them is one
/// chain, and every lookup walks it.
fn colliding(n: usize, bits: u32) -> Vec<String> {
    let mask = (1u32 << bits) - 1;
    let mut out = Vec::with_capacity(n);
    let mut v: u64 = 0;
    while out.len() < n {
        let mut s = [b'a'; 7];
        let mut x = v;
        for c in s.iter_mut() {
            *c = b'a' + (x % 26) as u8;
            x /= 26;
        }
        v += 1;
        if lua_hash(&s) & mask == 0 {
            out.push(String::from_utf8(s.to_vec()).expect("letters"));
        }
    }
    out
}

/// `{"k1","k2",...}` as a Lua table constructor.
fn lua_list(keys: &[String]) -> String {
    let quoted: Vec<String> = keys.iter().map(|k| format!("\"{k}\"")).collect();
    format!("{{{}}}", quoted.join(","))
}

/// Lua that sets `K` to [`colliding`] keys cut from one long string at run time.
fn keys_at_run_time(n: usize, bits: u32) -> String {
    format!(
        "local S = '{}' local K = {{}} for i = 1, #S, 7 do K[#K + 1] = S:sub(i, i + 6) end",
        colliding(n, bits).concat()
    )
}

/// Runs `on_start`'s body (line 1 of scripts/main.lua) for two ticks with `memory` MiB of
/// script memory; the outcome is the game variable `ok`, or the fault (`Err` if it hangs).
fn outcome(body: String, memory: usize) -> Result<Result<Option<f64>, Fault>, String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let src = format!("function on_start() {body}\nend");
        let mut d = def();
        d.scripts.memory_limit = memory * 1024 * 1024;
        let result = game_with(d, &[("scripts/main.lua", &src)], &[]).and_then(|mut g| {
            run(&mut g, 2)?;
            Ok(var(&g, "ok"))
        });
        let _ = tx.send(result);
    });
    rx.recv_timeout(HANG)
        .map_err(|_| format!("did not end within {HANG:?}"))
}

/// Expects a fault whose message contains `text`, at `scripts/main.lua:1`.
fn faults(name: &str, body: String, memory: usize, text: &str) -> Option<String> {
    match outcome(body, memory) {
        Ok(Err(f))
            if f.message.contains(text) && f.location.as_deref() == Some("scripts/main.lua:1") =>
        {
            None
        }
        other => Some(format!(
            "{name}: expected a fault with {text:?} at line 1, got {other:?}"
        )),
    }
}

#[test]
fn single_instructions_that_do_much_work_are_charged_for_it() {
    let chain = "local t = {} for i = 1, 1999 do t = setmetatable({}, { __index = t }) end ";
    let cases: Vec<(&str, String)> = vec![
        // Metamethod dispatch: each step of a chain is work.
        (
            "call_cycle",
            "local t = setmetatable({}, {}) getmetatable(t).__call = t t()".into(),
        ),
        (
            "call_through_pcall",
            "local t = setmetatable({}, { __call = pcall }) for i = 1, 5000 do t() end \
             ludus.set('ok', 1)"
                .into(),
        ),
        (
            "long_index_chain",
            format!("{chain} for i = 1, 20000 do local _ = t.q end ludus.set('ok', 1)"),
        ),
        (
            "long_newindex_chain",
            "local t = {} for i = 1, 1999 do t = setmetatable({}, { __newindex = t }) end \
             for i = 1, 20000 do t.q = i end ludus.set('ok', 1)"
                .into(),
        ),
        (
            "index_cycle_in_pcall",
            "local a, b = {}, {} setmetatable(a, { __index = b }) setmetatable(b, { __index = a }) \
             local f = function() return a.q end for i = 1, 2000 do pcall(f) end ludus.set('ok', 1)"
                .into(),
        ),
        // Scans whose length is not in their arguments.
        (
            "plain_find_misses",
            "local s = 'a' for i = 1, 20 do s = s .. s end for i = 1, 200 do s:find('b', 1, true) end \
             ludus.set('ok', 1)"
                .into(),
        ),
        (
            "plain_find_of_a_pattern_free_needle",
            "local s = 'a' for i = 1, 20 do s = s .. s end for i = 1, 200 do s:find('bc') end \
             ludus.set('ok', 1)"
                .into(),
        ),
        (
            "utf8_offset_back_over_continuations",
            "local s = '\\x80' for i = 1, 20 do s = s .. s end \
             for i = 1, 200 do utf8.offset(s, 0, #s) end \
             ludus.set('ok', 1)"
                .into(),
        ),
        (
            "utf8_offset_forward_over_continuations",
            "local s = '\\x80' for i = 1, 19 do s = s .. s end s = 'a' .. s \
             for i = 1, 200 do utf8.offset(s, 2) end \
             ludus.set('ok', 1)"
                .into(),
        ),
        // Numbers read from long strings, by arithmetic and by a library argument.
        (
            "arithmetic_on_a_long_numeric_string",
            "local s = ' ' for i = 1, 19 do s = s .. s end s = s .. '1' \
             local x = 0 for i = 1, 200 do x = x + (s + 1) end ludus.set('ok', 1)"
                .into(),
        ),
        (
            "a_long_numeric_string_as_a_number_argument",
            "local s = ' ' for i = 1, 19 do s = s .. s end s = s .. '1' \
             local x = 0 for i = 1, 200 do x = x + math.floor(s) end ludus.set('ok', 1)"
                .into(),
        ),
        // `next` passing a long run of empty array slots on every call.
        (
            "next_over_empty_slots",
            "local t = { table.unpack({}, 1, 262144) } t[262145] = 1 \
             for i = 1, 2000 do local _ = next(t) end ludus.set('ok', 1)"
                .into(),
        ),
        // A hash flood: 256 keys in one chain (made at run time from one long string, which
        // the compiler does not intern), then lookups.
        (
            "hash_flood_lookups",
            format!(
                "{} local t = {{}} for i = 1, #K do t[K[i]] = i end \
                 local s = 0 for r = 1, 8 do for i = 1, #K do s = s + t[K[i]] end end \
                 ludus.set('ok', 1)",
                keys_at_run_time(256, 8)
            ),
        ),
        (
            "hash_flood_through_rawget",
            format!(
                "{} local t = {{}} for i = 1, #K do rawset(t, K[i], i) end \
                 for r = 1, 8 do for i = 1, #K do local _ = rawget(t, K[i]) end end \
                 ludus.set('ok', 1)",
                keys_at_run_time(256, 8)
            ),
        ),
    ];
    let memory = 1024;
    let mut failures: Vec<String> = cases
        .into_iter()
        .chain(buffer_cases())
        .filter_map(|(name, body)| faults(name, body, memory, BUDGET))
        .collect();
    // The same flood in the source: the compile stops, naming the line.
    let flood = format!("local K = {}", lua_list(&colliding(2048, 12)));
    failures.extend(faults("hash_flood_in_the_source", flood, memory, COMPILE));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ordinary_uses_stay_within_the_budget() {
    // Within 200,000 units: tokenising 20 KB with plain finds, a three-level class chain,
    // utf8 walks over text, a table of 2,000 string keys looked up twice, buffers of 200 KB.
    let body = "local line = string.rep('word ', 4000) local n, at = 0, 1 \
                while true do local i = line:find(' ', at, true) if not i then break end \
                n = n + 1 at = i + 1 end \
                local A = { hp = 1 } A.__index = A local B = setmetatable({}, A) B.__index = B \
                local C = setmetatable({}, B) C.__index = C local o = setmetatable({}, C) \
                local hp = 0 for i = 1, 2000 do hp = hp + o.hp end \
                local text = string.rep('h\\u{e9}llo w\\u{f6}rld ', 200) local chars = 0 \
                for p in utf8.codes(text) do chars = chars + 1 end \
                local third = utf8.offset(text, 3) \
                local t = {} for i = 1, 2000 do t['key' .. i] = i end local s = 0 \
                for r = 1, 2 do for i = 1, 2000 do s = s + t['key' .. i] end end \
                local big = table.concat({ string.rep('abcdefghij', 1e4), string.rep('klmnopqrst', 1e4) }) \
                if n == 4000 and hp == 2000 and chars == 2400 and third == 4 and #big == 2e5 \
                then ludus.set('ok', 1) end";
    assert_eq!(outcome(body.to_string(), 64), Ok(Ok(Some(1.0))));
}

#[test]
fn error_objects_are_shown_without_an_address() {
    let cases: &[(&str, &str)] = &[
        ("error({})", "table"),
        ("error(print)", "function"),
        ("error(function() end)", "function"),
        ("error(coroutine.create(print))", "thread"),
        ("error(setmetatable({}, { __name = 'Foo' }))", "Foo"),
        (
            "error(setmetatable({}, { __tostring = function() error({}) end }))",
            "table",
        ),
        (
            "error(setmetatable({}, { __tostring = function() error('inner') end }))",
            "table",
        ),
        (
            "error(setmetatable({}, { __tostring = function() return {} end }))",
            "table",
        ),
        (
            "error(setmetatable({}, { __tostring = function() return 'a custom error' end }))",
            "a custom error",
        ),
        ("local ok, e = pcall(error, {}) error(e)", "table"),
    ];
    let mut failures = Vec::new();
    for (body, message) in cases {
        match outcome(body.to_string(), 64) {
            Ok(Err(f))
                if f.message == *message && f.location.as_deref() == Some("scripts/main.lua:1") => {
            }
            other => failures.push(format!(
                "{body}: expected {message:?} at line 1, got {other:?}"
            )),
        }
    }
    // A __tostring that loops runs under the budget.
    let looping = "error(setmetatable({}, { __tostring = function() while true do end end }))";
    match outcome(looping.to_string(), 64) {
        Ok(Err(f)) if f.message.contains(BUDGET) && !f.message.contains("0x") => {}
        other => failures.push(format!("{looping}: got {other:?}")),
    }
    // At load, outside any handler, the same.
    for (src, message) in [("error({})", "table"), ("error(print)", "function")] {
        match game_with(def(), &[("scripts/main.lua", src)], &[]) {
            Err(f) if f.message == message && !f.to_string().contains("0x") => {}
            other => failures.push(format!("{src} at load: got {:?}", other.err())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Buffers grow only as far as the budget pays for, whatever memory allows.
fn buffer_cases() -> Vec<(&'static str, String)> {
    vec![
        (
            "concat_with_a_huge_separator",
            "local sep = 'x' for i = 1, 20 do sep = sep .. sep end local t = {} for i = 1, 3000 do t[i] = '' end \
             local _ = table.concat(t, sep) ludus.set('ok', 1)"
                .into(),
        ),
        (
            "pack_with_huge_padding",
            "local _ = string.pack('c2000000000', 'a') ludus.set('ok', 1)".into(),
        ),
    ]
}

/// The buffer cases with 4 GiB of script memory, in a child process limited to 2 GB of
/// address space: the budget ends each before it allocates much (an allocation the system
/// refused would abort the process).
#[test]
fn buffers_stop_at_the_budget_under_a_memory_limit() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 2000000 && exec '{}' --exact buffers_child --nocapture --test-threads=1",
            exe.display()
        ))
        .env("LUDUS_HOSTILE_CHILD", "1")
        .status()
        .expect("sh runs");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), None, "the child was killed: {status}");
    assert!(status.success(), "the child failed: {status}");
}

/// Runs [`buffer_cases`] when started by `buffers_stop_at_the_budget_under_a_memory_limit`.
#[test]
fn buffers_child() {
    if std::env::var_os("LUDUS_HOSTILE_CHILD").is_none() {
        return;
    }
    let failures: Vec<String> = buffer_cases()
        .into_iter()
        .filter_map(|(name, body)| faults(name, body, 4096, BUDGET))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn code_nested_past_the_c_stack_is_refused_at_its_line() {
    let parens = format!("local a = 1\nx = {}1{}", "(".repeat(300), ")".repeat(300));
    let blocks = format!("local a = 1\n\n{}{}", "do ".repeat(300), "end ".repeat(300));
    for (src, line) in [
        (parens, "scripts/main.lua:2"),
        (blocks, "scripts/main.lua:3"),
    ] {
        match game_with(def(), &[("scripts/main.lua", &src)], &[]) {
            Err(f) => {
                assert!(f.message.contains("code nested too deeply"), "{f}");
                assert_eq!(f.location.as_deref(), Some(line), "{f}");
            }
            Ok(_) => panic!("{src:.40}: compiled"),
        }
    }
}
