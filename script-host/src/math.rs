//! The transcendental functions behind Lua's `math` library and `^` operator, from the `libm`
//! crate: one implementation on every target, so scripts compute the same bits on the desktop
//! and in the browser (glibc and wasi-libc disagree in the last bit on a few percent of
//! inputs). `csrc/ludus_math.h`, force-included into the Lua sources by build.rs, routes the C
//! calls here.

macro_rules! unary {
    ($($name:ident => $f:path),* $(,)?) => {$(
        #[unsafe(no_mangle)]
        pub extern "C" fn $name(x: f64) -> f64 {
            $f(x)
        }
    )*};
}

unary! {
    ludus_sin => libm::sin,
    ludus_cos => libm::cos,
    ludus_tan => libm::tan,
    ludus_asin => libm::asin,
    ludus_acos => libm::acos,
    ludus_exp => libm::exp,
    ludus_log => libm::log,
    ludus_log2 => libm::log2,
    ludus_log10 => libm::log10,
    ludus_sinh => libm::sinh,
    ludus_cosh => libm::cosh,
    ludus_tanh => libm::tanh,
}

#[unsafe(no_mangle)]
pub extern "C" fn ludus_atan2(y: f64, x: f64) -> f64 {
    libm::atan2(y, x)
}

#[unsafe(no_mangle)]
pub extern "C" fn ludus_pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

#[cfg(test)]
mod tests {
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
        let lua = crate::sandbox_lua().expect("a sandboxed VM");
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
}
