//! Ludus's Lua 5.4: the VM of the `lua-src` crate with `lua.patch` applied at build time, its
//! own C (`csrc/`), the browser build's shims (`wasm/`), and a safe Rust API over them for the
//! script host (`ludus-script`).
//!
//! The patch and the C make a VM whose scripts cannot escape their allowance of work or
//! memory and compute the same bits in every process and on every target:
//! - [`Meter`]: one allowance of budget units, charged by the VM's count hook (the host's),
//!   by the patched VM for bulk work one instruction does (copies, comparisons, long keys,
//!   hash chains...) and by the library fences; a memory error spends it too.
//! - [`sandboxed`]: a VM with only the libraries scripts may use, fenced: work charged,
//!   `tostring` and `string.format` without addresses, no finalizers or weak tables.
//! - Determinism: a fixed string-hash seed, tables and functions hashed as keys by creation
//!   number rather than address, and `math` from the Rust `libm` crate on every target.
//! - [`decoder`]: packed event records into reused Lua tables; [`fast_entry`]: hot commands
//!   and reads past mlua's generic callback.
//!
//! What the C shares with Rust (the meter's layout, the causes, the field codes, the fast
//! entries' upvalues) is declared once, in `abi.rs`, and written into a C header at build time.
//! See docs/architecture.md.

pub mod abi;
mod events;
mod fast;
mod math;
mod meter;
mod vm;

pub use abi::{Cause, FastKind, FastUpvalue, FieldCode};
pub use events::{Blobs, decoder};
pub use fast::{Args, Entries, FastArg, FastCall, FastValue, Results, fast_entry};
pub use meter::{Meter, arm, rewind_hook, yieldable};
pub use vm::{Holders, copy_fields, freeze, sandboxed, sequence, set_in_array, shallow_copy};

/// Every value C shares with Rust as each side sees it, `(rust, c)`: the constants of
/// [`Cause`], [`FieldCode`] and [`FastUpvalue`], then the meter's size and field offsets. The
/// two lists are equal when the compiled C and this crate agree.
pub fn abi_values() -> (Vec<i64>, Vec<i64>) {
    unsafe extern "C" {
        fn ludus_abi(out: *mut std::ffi::c_longlong, cap: usize) -> usize;
    }
    let rust = abi::values();
    let mut c = vec![0; rust.len() + 16];
    // SAFETY: `ludus_abi` writes at most `cap` values into `out`, which has room for them.
    let n = unsafe { ludus_abi(c.as_mut_ptr(), c.len()) };
    c.truncate(n);
    (rust, c)
}
