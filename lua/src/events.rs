//! The event decoder (`csrc/events.c`) as Lua functions: packed little-endian records, one
//! [`FieldCode`](crate::FieldCode) per field, into reused Lua tables whose fields are decoded
//! on demand. The decoder knows no event kind: each kind's layout is a Lua table the host
//! builds (see `events.c` for its fields).

use crate::abi::LudusBlob;
use mlua::{AnyUserData, Function, Lua};
use std::ffi::c_int;

unsafe extern "C-unwind" {
    fn ludus_decode(state: *mut mlua::ffi::lua_State) -> c_int;
    fn ludus_pool(state: *mut mlua::ffi::lua_State) -> c_int;
    fn ludus_blob(state: *mut mlua::ffi::lua_State) -> c_int;
}

/// The smallest blob made: a stage of a few events fits, and blobs grow by doubling.
const MIN_BLOB: usize = 1024;

/// The event blobs of one Lua state, reused from stage to stage: `decode` reads a stage's
/// records from one, and a pool whose tables read their fields on demand keeps reading the
/// blob it was filled from, so a blob is written again only once no pool reads it (each pool
/// reads one, so there are at most one more blobs than pools). A Lua string made every stage
/// instead was an allocation and a copy, and garbage, each stage.
pub struct Blobs {
    make: Function,
    kept: Vec<AnyUserData>,
}

impl Blobs {
    pub fn new(lua: &Lua) -> mlua::Result<Blobs> {
        // SAFETY: `ludus_blob` is an ordinary Lua C function of the same Lua library as the
        // VM; it checks its argument and reports problems with `luaL_error`.
        let make = unsafe { lua.create_c_function(ludus_blob)? };
        Ok(Blobs {
            make,
            kept: Vec::new(),
        })
    }

    /// A blob holding `records`, for `decode`: a kept one that no pool reads and that has
    /// room, else a new one (which replaces kept ones too small to be of use).
    pub fn fill(&mut self, records: &[u8]) -> mlua::Result<AnyUserData> {
        let free = self.kept.iter().position(|b| {
            let h = header(b);
            h.pools == 0 && h.cap as usize >= records.len()
        });
        let blob = match free {
            Some(i) => self.kept[i].clone(),
            None => {
                self.kept.retain(|b| header(b).pools != 0);
                let cap = records.len().next_power_of_two().max(MIN_BLOB);
                let blob: AnyUserData = self.make.call(cap)?;
                self.kept.push(blob.clone());
                blob
            }
        };
        let at = blob.to_pointer().cast_mut().cast::<LudusBlob>();
        // SAFETY: every kept blob was made by `ludus_blob` (a full userdata whose block is a
        // `LudusBlob` header followed by `cap` bytes), is alive (held by `kept`) and is not
        // being read: no Lua code runs while the host fills a blob, and no pool reads this one.
        unsafe {
            std::ptr::copy_nonoverlapping(records.as_ptr(), at.add(1).cast::<u8>(), records.len());
            (*at).len = records.len() as i64;
        }
        Ok(blob)
    }
}

/// The header of a blob made by `ludus_blob`.
fn header(blob: &AnyUserData) -> &LudusBlob {
    // SAFETY: as in `Blobs::fill`: a live blob's block starts with its header, which only the
    // C of this library writes, never while the host looks.
    unsafe { &*blob.to_pointer().cast::<LudusBlob>() }
}

/// The decoder's two functions, `(pool, decode)`:
/// - `pool(spec, KINDS, ACTIONS, next) -> pool`: reused tables for the records of one kind;
/// - `decode(blob, pos, n, pool) -> list, pos`: fills the pool's first `n` tables from the `n`
///   records at 1-based offset `pos` of `blob`, returning them and the offset after them (with
///   `pool` nil and `spec` as a fifth argument it only skips the records).
pub fn decoder(lua: &Lua) -> mlua::Result<(Function, Function)> {
    // SAFETY:
    // - Both are ordinary Lua C functions compiled into the same Lua library as the VM: they
    //   only use the Lua C API on the state they are called with.
    // - They check every argument's type (a pool is a userdata of their own metatable), and
    //   the length left in the blob before every read, and report problems with `luaL_error`
    //   (a Lua error), never by reading out of bounds.
    // - They keep no global state, so VMs on different threads may call them at once.
    unsafe {
        Ok((
            lua.create_c_function(ludus_pool)?,
            lua.create_c_function(ludus_decode)?,
        ))
    }
}
