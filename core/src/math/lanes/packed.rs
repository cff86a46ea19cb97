//! [`Packed`]: the platform's packed floats, the one cfg for them (see the parent module):
//! x86_64's SSE2, wasm's `simd128` where the build enables it, else four floats one at a time.

#[cfg(target_arch = "x86_64")]
pub(crate) use super::sse::Sse as Packed;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) use super::simd128::Simd128 as Packed;

#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
pub(crate) use super::four::Plain as Packed;
