//! The determinism fence at the VM: what C and Rust share agrees, math is the same bits on
//! every target, no value shows an address, and neither `pairs` order nor `table.sort`
//! depends on addresses, the clock or the process.

mod support;

use support::*;

#[test]
fn abi_matches_the_compiled_c() {
    let (rust, c) = ludus_lua::abi_values();
    assert_eq!(
        rust, c,
        "the constants and the meter's layout (src/abi.rs) as Rust and the compiled C see them"
    );
}

#[test]
fn no_value_shows_an_address() {
    let (lua, _) = vm(1 << 40, 0);
    let table: &[(&str, &str)] = &[
        ("tostring({})", "table"),
        ("tostring(print)", "function"),
        ("tostring(function() end)", "function"),
        ("tostring(coroutine.create(print))", "thread"),
        ("tostring(setmetatable({}, { __name = 'Foo' }))", "Foo"),
        (
            "tostring(setmetatable({}, { __tostring = function() return 'mine' end }))",
            "mine",
        ),
        ("string.format('%s|%9s', {}, print)", "table| function"),
        (
            "select(2, pcall(string.format, '%p', {}))",
            "string.format: %p is not available to scripts (addresses differ between runs)",
        ),
        ("select(2, pcall(error, {}))", "table"),
    ];
    for (code, want) in table {
        let got = eval(&lua, &format!("tostring({code})"));
        assert_eq!(got, *want, "{code}");
    }
}

/// The order `pairs` visits keys in, in a fresh VM that first made `strings` strings (so the
/// tables after them sit at other addresses; it made no other object, so the tables'
/// creation numbers are the same).
fn pairs_order(strings: usize) -> Vec<String> {
    let (lua, _) = vm(1 << 40, 0);
    run(
        &lua,
        &format!(
            "local s = '' for i = 1, {strings} do s = s .. 'xy' end \
             local t = {{}} \
             for i = 1, 40 do t[{{}}] = 'table ' .. i end \
             for i = 1, 20 do t[function() return i end] = 'function ' .. i end \
             for i = 1, 20 do t['key' .. i] = 'string ' .. i end \
             ORDER = {{}} for _, v in pairs(t) do ORDER[#ORDER + 1] = v end"
        ),
    )
    .expect("the table");
    let order: mlua::Table = lua.globals().raw_get("ORDER").expect("ORDER");
    order
        .sequence_values()
        .map(|v| v.expect("a name"))
        .collect()
}

#[test]
fn pairs_order_does_not_depend_on_addresses() {
    let first = pairs_order(0);
    assert_eq!(first.len(), 80, "every key");
    for strings in [1, 77, 1000, 5000] {
        assert_eq!(pairs_order(strings), first, "after {strings} strings");
    }
    // String keys in the order the fixed hash seed gives.
    let strings: Vec<&str> = first
        .iter()
        .filter(|k| k.starts_with("string"))
        .map(String::as_str)
        .collect();
    assert_eq!(strings, STRING_ORDER, "string keys");
}

/// The string keys `key1`..`key20` in the order their hashes (with the fixed seed) give.
const STRING_ORDER: &[&str] = &[
    "string 14",
    "string 4",
    "string 16",
    "string 5",
    "string 13",
    "string 3",
    "string 10",
    "string 20",
    "string 2",
    "string 9",
    "string 17",
    "string 19",
    "string 18",
    "string 12",
    "string 15",
    "string 11",
    "string 8",
    "string 7",
    "string 6",
    "string 1",
];

#[test]
fn table_sort_does_not_read_the_clock() {
    // Descending input makes partitions unbalanced, where Lua re-picks the pivot "at random";
    // equal keys show the order the choice gives them.
    let code = "COMPARED = 0 local t = {} \
                for i = 1, 2000 do t[i] = { key = (2000 - i) // 3, id = i } end \
                table.sort(t, function(a, b) COMPARED = COMPARED + 1 return a.key < b.key end) \
                local ids = {} for i = 1, #t do ids[i] = t[i].id end \
                IDS = table.concat(ids, ',')";
    let mut runs = Vec::new();
    for _ in 0..3 {
        let (lua, _) = vm(1 << 40, 0);
        run(&lua, code).expect("the sort");
        let g = lua.globals();
        let compared: i64 = g.raw_get("COMPARED").expect("COMPARED");
        let ids: String = g.raw_get("IDS").expect("IDS");
        runs.push((compared, fingerprint(&ids)));
    }
    assert_eq!(
        runs,
        [(22699, 17768789995579028411); 3],
        "comparisons and the order of equal keys"
    );
}

fn fingerprint(s: &str) -> u64 {
    // FNV-1a: a short fingerprint of the order.
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// A Lua function, its `libm` counterpart, and inputs to compare them on.
type Case = (&'static str, fn(f64) -> f64, &'static [f64]);

/// Inputs where glibc's result differs from `libm`'s in the last bit: if the Lua build ever
/// fell back to the C library's functions, these would fail natively.
const UNARY: &[Case] = &[
    ("sin", libm::sin, &[3.934, 7.171, 7.325]),
    ("cos", libm::cos, &[-7.144, -2.334, -2.759]),
    ("tan", libm::tan, &[0.825, -2.426, -2.128]),
    ("asin", libm::asin, &[0.811, -0.832, 0.884]),
    ("acos", libm::acos, &[0.462, -0.339, -0.873]),
    ("exp", libm::exp, &[19.615, -3.282, 2.588]),
    ("log", libm::log, &[808.638, 192.209, 306.428]),
    ("sinh", libm::sinh, &[0.991, -3.939, 1.026]),
    ("cosh", libm::cosh, &[1.943, -4.544, 2.224]),
    ("tanh", libm::tanh, &[-0.49, 0.374, -0.297]),
];

fn lua_number(lua: &mlua::Lua, code: &str) -> f64 {
    lua.load(code)
        .eval::<f64>()
        .unwrap_or_else(|e| panic!("{code}: {e}"))
}

#[test]
fn lua_math_uses_the_same_libm_on_every_target() {
    let lua = ludus_lua::sandboxed().expect("a sandboxed VM");
    for (name, f, inputs) in UNARY {
        for &x in *inputs {
            let got = lua_number(&lua, &format!("return math.{name}({x:?})"));
            assert_eq!(got.to_bits(), f(x).to_bits(), "math.{name}({x})");
        }
    }
    for (y, x) in [(-4.04, -7.27), (-6.95, -1.14), (-6.38, -2.78)] {
        let got = lua_number(&lua, &format!("return math.atan({y:?}, {x:?})"));
        assert_eq!(
            got.to_bits(),
            libm::atan2(y, x).to_bits(),
            "math.atan({y}, {x})"
        );
    }
    for (base, e) in [(18.83, 3.68), (78.53, -3.41), (2.57, 1.65)] {
        let want = libm::pow(base, e).to_bits();
        let op = lua_number(&lua, &format!("local b, e = {base:?}, {e:?} return b ^ e"));
        assert_eq!(op.to_bits(), want, "{base} ^ {e}");
        let folded = lua_number(&lua, &format!("return {base:?} ^ {e:?}"));
        assert_eq!(
            folded.to_bits(),
            want,
            "{base} ^ {e} folded by the compiler"
        );
        let f = lua_number(&lua, &format!("return math.pow({base:?}, {e:?})"));
        assert_eq!(f.to_bits(), want, "math.pow({base}, {e})");
    }
    for (x, base, f) in [
        (165.766, "2", libm::log2 as fn(f64) -> f64),
        (481.263, "10", libm::log10),
    ] {
        let got = lua_number(&lua, &format!("return math.log({x:?}, {base})"));
        assert_eq!(got.to_bits(), f(x).to_bits(), "math.log({x}, {base})");
    }
}
