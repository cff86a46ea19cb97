//! The browser build's test API as the page calls it (see `runtime/page.rs`): the C ABI.
//! The only unsafe code is here: turning (pointer, length) pairs from JS back
//! into the buffers this module handed out.
//!
//! # Safety
//! - Every pointer JS passes in came from `ludus_alloc` (or a result) with that length and
//!   is passed to `ludus_free` exactly once, with the same length.
//! - The module is single-threaded, and JS does not touch a buffer during a call.

use crate::runtime::page::{envelope, replay, sim};

fn into_raw(bytes: Vec<u8>) -> *mut u8 {
    Box::into_raw(bytes.into_boxed_slice()) as *mut u8
}

/// # Safety
/// `ptr` and `len` describe a live buffer from `ludus_alloc` (or null with 0).
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: see the function's contract.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    }
}

/// The version of this API and of web/ludus.js, which checks it (miniquad's plugin
/// mechanism calls `<name>_crate_version`).
#[unsafe(no_mangle)]
pub extern "C" fn ludus_crate_version() -> u32 {
    2
}

/// A zeroed buffer of `len` bytes for JS to fill.
#[unsafe(no_mangle)]
pub extern "C" fn ludus_alloc(len: usize) -> *mut u8 {
    into_raw(vec![0; len])
}

/// Frees a buffer from `ludus_alloc` or a result.
///
/// # Safety
/// `ptr` came from `ludus_alloc(len)` or is a result buffer of `len` bytes, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ludus_free(ptr: *mut u8, len: usize) {
    if !ptr.is_null() {
        // SAFETY: the box was made by `into_raw` with exactly this length.
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
    }
}

/// Gives the module the game to play: a game bundle (`ludus export web`), read before `main`
/// runs; without one it plays the game compiled in. Copies the bytes (JS frees its buffer).
///
/// # Safety
/// `ptr`/`len` describe a live buffer from `ludus_alloc` (or null with 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ludus_set_bundle(ptr: *const u8, len: usize) {
    // SAFETY: the caller's contract.
    super::set_bundle(unsafe { bytes(ptr, len) }.to_vec());
}

/// A headless run of the page's game; `flags`: bit 0 record, bit 1 trace.
///
/// # Safety
/// `input`/`len` describe a live buffer from `ludus_alloc` (or null with 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ludus_sim(
    input: *const u8,
    len: usize,
    ticks: u32,
    flags: u32,
) -> *mut u8 {
    // SAFETY: the caller's contract.
    let text = String::from_utf8_lossy(unsafe { bytes(input, len) }).into_owned();
    let out = match super::project() {
        Ok(project) => sim(
            &project,
            &text,
            u64::from(ticks),
            flags,
            crate::platform::clock_ns,
        ),
        Err(e) => crate::runtime::page::SimOutput {
            summary: crate::runtime::page::error_json(&e),
            ..crate::runtime::page::SimOutput::default()
        },
    };
    into_raw(envelope(&[
        out.summary.as_bytes(),
        &out.trace,
        &out.recording,
    ]))
}

/// One rung of the page's bench ladder (see `runtime::page::bench`): `entities` more stress
/// entities, `warmup` then `ticks` timed ticks; one JSON object.
#[unsafe(no_mangle)]
pub extern "C" fn ludus_bench(entities: u32, ticks: u32, warmup: u32) -> *mut u8 {
    let json = match super::project() {
        Ok(project) => crate::runtime::page::bench(
            &project,
            entities,
            (ticks, warmup),
            crate::platform::clock_ns,
        ),
        Err(e) => crate::runtime::page::error_json(&e),
    };
    into_raw(envelope(&[json.as_bytes()]))
}

/// Replays a recording against the embedded game.
///
/// # Safety
/// `rec`/`len` describe a live buffer from `ludus_alloc` (or null with 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ludus_replay(rec: *const u8, len: usize) -> *mut u8 {
    // SAFETY: the caller's contract.
    let rec = unsafe { bytes(rec, len) };
    let json = match super::project() {
        Ok(project) => replay(&project, rec),
        Err(e) => serde_json::json!({ "outcome": "error", "error": e }).to_string(),
    };
    into_raw(envelope(&[json.as_bytes()]))
}
