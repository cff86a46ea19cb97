//! The budget fence, through the host: every way a script can make the host work without
//! end (loops, library calls that work in proportion to what they are asked, single
//! instructions that do a great deal of work, compiling) ends at once in a budget fault at the
//! script's line, `pcall` or not; ordinary uses of the same functions stay within the budget.
//! The charges themselves, at the VM: ludus-lua's tests/budget.rs.

mod support;

use support::hostile::*;

// Library calls do work in proportion to what they are asked.
#[test]
fn rep_empty_forever() {
    Case::on_start("string.rep('', math.maxinteger)").faults(BUDGET, 1);
}

#[test]
fn rep_in_pcall_loop() {
    Case::on_start(REP_IN_PCALL_LOOP).faults(BUDGET, 1);
}

#[test]
fn move_huge_range() {
    Case::on_start("table.move({}, 1, math.maxinteger - 1, 2)").faults(BUDGET, 1);
}

#[test]
fn move_a_billion() {
    Case::on_start("table.move({}, 1, 1e9, 2)").faults(BUDGET, 1);
}

#[test]
fn insert_with_lying_length() {
    Case::on_start("local t = setmetatable({}, { __len = function() return math.maxinteger - 1 end }) table.insert(t, 1, 'x')")
        .faults(BUDGET, 1);
}

#[test]
fn concat_with_endless_index() {
    Case::on_start("local t = setmetatable({}, { __index = function() return 'x' end }) table.concat(t, '', 1, 1e12)")
        .faults(BUDGET, 1);
}

#[test]
fn unpack_all_the_time() {
    Case::on_start("local t = {} for i = 1, 1e5 do t[i] = i end while true do select('#', table.unpack(t)) end")
        .faults(BUDGET, 1);
}

#[test]
fn sort_a_big_table() {
    Case::on_start("local t = {} for i = 1, 2e4 do t[i] = -i end while true do table.sort(t) end")
        .faults(BUDGET, 1);
}

#[test]
fn pattern_backtracking() {
    Case::on_start("string.find(string.rep('a', 600), '.-.-.-.-.-b')").faults(BUDGET, 1);
}

#[test]
fn bracket_class_backtracking() {
    Case::on_start("string.find(string.rep('a', 5000), '[' .. string.rep('b', 5000) .. 'a]*c')")
        .faults(BUDGET, 1);
}

#[test]
fn plain_find_in_a_loop() {
    Case::on_start("local s = string.rep('a', 1e6) while true do s:find('b', 1, true) end")
        .faults(BUDGET, 1);
}

#[test]
fn plain_find_worst_case() {
    Case::on_start(
        "local s = string.rep('a', 4e5) string.find(s, string.rep('a', 300) .. 'b', 1, true)",
    )
    .faults(BUDGET, 1);
}

#[test]
fn gsub_every_position() {
    Case::on_start("local s = string.rep('a', 1e6) while true do s:gsub('%w', '') end")
        .faults(BUDGET, 1);
}

#[test]
fn upper_in_a_loop() {
    Case::on_start("local s = string.rep('a', 2e6) while true do local _ = s:upper() end")
        .faults(BUDGET, 1);
}

#[test]
fn format_big_strings() {
    Case::on_start(FORMAT_BIG_STRINGS).faults(BUDGET, 1);
}

#[test]
fn utf8_scans() {
    Case::on_start("local s = string.rep('\\x80', 2e6) local f = utf8.codes(s) while true do pcall(f, s, 0) pcall(utf8.len, s) end")
        .faults(BUDGET, 1);
}

// One instruction doing bulk work: concatenation, comparison, long keys, varargs.
#[test]
fn concat_in_a_loop() {
    Case::on_start("local s = string.rep('x', 1e6) while true do local t = s .. 'y' end")
        .faults(BUDGET, 1);
}

#[test]
fn compare_long_strings() {
    Case::on_start("local a, b = string.rep('x', 2e6), string.rep('x', 2e6) while true do local _ = (a == b) or (a < b) end")
        .faults(BUDGET, 1);
}

#[test]
fn long_table_keys() {
    Case::on_start("local a, b = string.rep('k', 2e6), string.rep('k', 2e6) local t = { [a] = 1 } while true do local _ = t[b] end")
        .faults(BUDGET, 1);
}

#[test]
fn varargs() {
    Case::on_start(VARARGS).faults(BUDGET, 1);
}

// A loop where the budget cannot interrupt it, print, and modules.
#[test]
fn close_handler_loops() {
    Case::on_start(
        "do local x <close> = setmetatable({}, { __close = function() while true do end end }) end",
    )
    .faults(BUDGET, 1);
}

#[test]
fn print_big_strings() {
    Case::on_start(PRINT_BIG_STRINGS).faults(BUDGET, 1);
}

/// 1.2 MB of source that does not compile, required again and again: compiling costs, and
/// the failure is remembered.
#[test]
fn require_a_big_broken_module() {
    Case::on_start("for i = 1, 1e6 do pcall(require, 'big') end")
        .module("scripts/big.lua", "x = (".repeat(300_000))
        .faults(BUDGET, 1);
}

// Few instructions that do a great deal of work each: call and index chains, long scans,
// hash floods, buffers that grow. Each runs well within the instruction count of its budget,
// so without a charge for its work it would end without a fault, minutes later; with the
// charge it ends at once in a budget fault at its line. (1 GiB of script memory: only the
// budget can stop them.)

/// A case of few instructions that must end in a budget fault at line 1.
fn much_work(body: impl Into<String>) {
    Case::on_start(body).memory(1024).faults(BUDGET, 1);
}

// Metamethod dispatch: each step of a chain is work.

#[test]
fn call_cycle() {
    much_work("local t = setmetatable({}, {}) getmetatable(t).__call = t t()");
}

#[test]
fn call_through_pcall() {
    much_work(
        "local t = setmetatable({}, { __call = pcall }) for i = 1, 5000 do t() end \
         ludus.set('ok', 1)",
    );
}

/// `t`: a chain of 2,000 tables, each the `__index` of the next.
const INDEX_CHAIN: &str =
    "local t = {} for i = 1, 1999 do t = setmetatable({}, { __index = t }) end ";

#[test]
fn long_index_chain() {
    much_work(format!(
        "{INDEX_CHAIN} for i = 1, 20000 do local _ = t.q end ludus.set('ok', 1)"
    ));
}

#[test]
fn long_newindex_chain() {
    much_work(
        "local t = {} for i = 1, 1999 do t = setmetatable({}, { __newindex = t }) end \
         for i = 1, 20000 do t.q = i end ludus.set('ok', 1)",
    );
}

#[test]
fn index_cycle_in_pcall() {
    much_work(
        "local a, b = {}, {} setmetatable(a, { __index = b }) setmetatable(b, { __index = a }) \
         local f = function() return a.q end for i = 1, 2000 do pcall(f) end ludus.set('ok', 1)",
    );
}

// Scans whose length is not in their arguments.

#[test]
fn plain_find_misses() {
    much_work(
        "local s = 'a' for i = 1, 20 do s = s .. s end for i = 1, 200 do s:find('b', 1, true) end \
         ludus.set('ok', 1)",
    );
}

#[test]
fn plain_find_of_a_pattern_free_needle() {
    much_work(
        "local s = 'a' for i = 1, 20 do s = s .. s end for i = 1, 200 do s:find('bc') end \
         ludus.set('ok', 1)",
    );
}

#[test]
fn utf8_offset_back_over_continuations() {
    much_work(
        "local s = '\\x80' for i = 1, 20 do s = s .. s end \
         for i = 1, 200 do utf8.offset(s, 0, #s) end \
         ludus.set('ok', 1)",
    );
}

#[test]
fn utf8_offset_forward_over_continuations() {
    much_work(
        "local s = '\\x80' for i = 1, 19 do s = s .. s end s = 'a' .. s \
         for i = 1, 200 do utf8.offset(s, 2) end \
         ludus.set('ok', 1)",
    );
}

/// `s`: 512 KiB of spaces then a `1`, a number for Lua.
const LONG_NUMBER: &str = "local s = ' ' for i = 1, 19 do s = s .. s end s = s .. '1' ";

#[test]
fn arithmetic_on_a_long_numeric_string() {
    much_work(format!(
        "{LONG_NUMBER} local x = 0 for i = 1, 200 do x = x + (s + 1) end ludus.set('ok', 1)"
    ));
}

#[test]
fn a_long_numeric_string_as_a_number_argument() {
    much_work(format!(
        "{LONG_NUMBER} local x = 0 for i = 1, 200 do x = x + math.floor(s) end \
         ludus.set('ok', 1)"
    ));
}

#[test]
fn next_over_empty_slots() {
    much_work(
        "local t = { table.unpack({}, 1, 262144) } t[262145] = 1 \
         for i = 1, 2000 do local _ = next(t) end ludus.set('ok', 1)",
    );
}

// A hash flood: 256 keys in one chain (made at run time from one long string, which the
// compiler does not intern), then lookups; or the same flood in the source, which stops the
// compile at its line.

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

#[test]
fn hash_flood_lookups() {
    much_work(format!(
        "{} local t = {{}} for i = 1, #K do t[K[i]] = i end \
         local s = 0 for r = 1, 8 do for i = 1, #K do s = s + t[K[i]] end end \
         ludus.set('ok', 1)",
        keys_at_run_time(256, 8)
    ));
}

#[test]
fn hash_flood_through_rawget() {
    much_work(format!(
        "{} local t = {{}} for i = 1, #K do rawset(t, K[i], i) end \
         for r = 1, 8 do for i = 1, #K do local _ = rawget(t, K[i]) end end \
         ludus.set('ok', 1)",
        keys_at_run_time(256, 8)
    ));
}

#[test]
fn hash_flood_in_the_source() {
    let flood = format!("local K = {}", lua_list(&colliding(2048, 12)));
    Case::on_start(flood).memory(1024).faults(COMPILE, 1);
}

// Buffers grow only as far as the budget pays for (again under `ulimit -v` in memory.rs).

#[test]
fn concat_with_a_huge_separator() {
    much_work(CONCAT_WITH_A_HUGE_SEPARATOR);
}

#[test]
fn pack_with_huge_padding() {
    much_work(PACK_WITH_HUGE_PADDING);
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
    assert_eq!(Case::on_start(body).memory(64).outcome(), Ok(Ok(Some(1.0))));
}

/// The count hook's interval (1,000 instructions) starts afresh in every stage, as in a new
/// coroutine: a handler that runs fewer instructions than one interval a tick is never
/// charged, tick after tick, even by a budget that the hook's first call would spend. (Once a
/// stage finishes, the next one runs in the same coroutine, its count rewound.)
#[test]
fn each_stage_counts_from_a_fresh_interval() {
    let mut def = support::def();
    def.scripts.instruction_budget = 1000;
    let script = "n = 0\nfunction on_tick() for i = 1, 300 do end n = n + 1 ludus.set('n', n) end";
    let mut g = support::game_with(def, &[("scripts/main.lua", script)], &[]).expect("loads");
    support::run(&mut g, 40).expect("a stage of about 350 instructions is never charged");
    assert_eq!(support::var(&g, "n"), Some(40.0));
}

// API calls with a fast entry are charged as every call is: endless reads and commands by
// either entry end in the same budget fault.
#[test]
fn fast_reads_and_commands_forever() {
    for call in [
        "ludus.pos(1)",
        "ludus.pos(1, {})",
        "ludus.nearest(0, 0, 'enemy')",
        "ludus.nearest(0, 0, 'enemy', nil, nil, nil, nil)",
        "ludus.set('v', 'text')",
        "ludus.random(6)",
        "ludus.tick()",
        "ludus.alive(99)",
        "ludus.health(1, nil)",
        "ludus.add_score(0)",
        "ludus.find('enemy')",
        "ludus.find('enemy', nil, nil, nil, nil)",
        "ludus.count('player')",
    ] {
        Case::on_start(format!("while true do {call} end")).faults(BUDGET, 1);
    }
}
