//! The transcendental functions behind Lua's `math` library and `^` operator, from the `libm`
//! crate: one implementation on every target, so scripts compute the same bits on the desktop
//! and in the browser (glibc and wasi-libc disagree in the last bit on a few percent of
//! inputs). `csrc/ludus_math.h`, force-included into the Lua sources by build.rs, routes the C
//! calls here. `lua_math_uses_the_same_libm_on_every_target` (tests/determinism.rs) checks it.

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
