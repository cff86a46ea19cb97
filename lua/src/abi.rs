//! What the C half (`csrc/`) and Rust share, declared once, here: the work meter's layout, why
//! a meter ran out, the event records' field codes and the fast entries' upvalues.
//!
//! build.rs includes this file too and writes `ludus_abi.h` from it (into the build's output
//! folder, which the C includes), so a value changes on both sides at once and C that uses a
//! name dropped here no longer compiles. `abi_matches_the_compiled_c` (tests/determinism.rs)
//! compares every value and the meter's layout with what the compiled C sees.
//!
//! The header is written from plain lists ([`Constants`], [`Struct`]), so a list declared
//! elsewhere can be written into it the same way.

use std::ffi::{c_char, c_void};

/// Named constants as the header writes them: `#define {prefix}_{NAME} {value}`.
pub struct Constants {
    pub prefix: &'static str,
    pub doc: &'static str,
    /// `(name as Rust writes it, value)`; the header writes names in upper snake case
    /// (`OptId`: `OPT_ID`).
    pub items: &'static [(&'static str, i64)],
    /// Values written as C character literals (`'i'`) rather than numbers.
    pub chars: bool,
}

/// A `#[repr(C)]` struct as the header writes it: `typedef struct NAME { ... } NAME;`.
pub struct Struct {
    pub name: &'static str,
    pub doc: &'static str,
    /// `(name, Rust type, doc)` in declaration order.
    pub fields: &'static [(&'static str, &'static str, &'static str)],
    /// Its size, then each field's offset, as Rust lays it out.
    pub layout: fn() -> Vec<usize>,
}

/// A fieldless enum whose values C uses by name: the enum, `ALL`, `from_code` and `C` (the
/// list the header is written from).
macro_rules! shared_enum {
    ($(#[doc = $doc:literal])* pub enum $name:ident: $repr:ident as $prefix:literal, chars: $chars:literal {
        $($(#[doc = $vdoc:literal])* $v:ident = $val:expr,)*
    }) => {
        $(#[doc = $doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr($repr)]
        pub enum $name {
            $($(#[doc = $vdoc])* $v = $val,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$v),*];

            /// The list `ludus_abi.h` is written from.
            pub const C: Constants = Constants {
                prefix: $prefix,
                doc: concat!($($doc, "\n"),*),
                items: &[$((stringify!($v), $val as i64)),*],
                chars: $chars,
            };

            /// The value whose code is `code`, if any.
            pub fn from_code(code: i64) -> Option<$name> {
                Self::ALL.iter().copied().find(|v| *v as i64 == code)
            }
        }
    };
}

/// A `#[repr(C)]` struct C uses field by field: the struct, `layout` and `C` (the list the
/// header is written from).
macro_rules! shared_struct {
    ($(#[doc = $doc:literal])* pub struct $name:ident {
        $($(#[doc = $fdoc:literal])* pub $field:ident: $ty:ty,)*
    }) => {
        $(#[doc = $doc])*
        #[repr(C)]
        pub struct $name {
            $($(#[doc = $fdoc])* pub $field: $ty,)*
        }

        impl $name {
            /// The list `ludus_abi.h` is written from.
            pub const C: Struct = Struct {
                name: stringify!($name),
                doc: concat!($($doc, "\n"),*),
                fields: &[$((stringify!($field), stringify!($ty), concat!($($fdoc, "\n"),*))),*],
                layout: $name::layout,
            };

            /// Its size, then each field's offset, in declaration order.
            pub fn layout() -> Vec<usize> {
                vec![std::mem::size_of::<$name>(), $(std::mem::offset_of!($name, $field)),*]
            }
        }
    };
}

shared_enum! {
    /// Why a meter ran out (its `cause`; 0 while it has not).
    pub enum Cause: i32 as "LUDUS_CAUSE", chars: false {
        /// The allowance of instructions and work was spent.
        Budget = 1,
        /// The script memory limit was reached.
        Memory = 2,
        /// The host ended the stage (a malformed command).
        Host = 3,
    }
}

shared_enum! {
    /// The type of one field of an event record, as the decoder (`csrc/events.c`) reads it;
    /// numbers are little-endian.
    pub enum FieldCode: u8 as "LUDUS_FIELD", chars: true {
        /// A whole number (i64).
        Int = b'i',
        /// An entity id, nil when 0 (i64).
        OptId = b'o',
        /// A number (f32).
        Num = b'f',
        /// A number (f64).
        Num64 = b'd',
        /// An archetype: its name in `KINDS` (u16 id).
        Kind = b'k',
        /// An action: its name in `ACTIONS` (u8 id).
        Action = b'a',
        /// A choice: its name in the field's `choices` (u8 index).
        Choice = b'c',
        /// Text (u16 length, then the bytes).
        Text = b's',
        /// As `Kind`, after a presence byte (0: nil).
        OptKind = b'K',
        /// As `Int` (a tag set), after a presence byte (0: nil).
        OptTags = b'T',
        /// As `Num`, after a presence byte (0: nil).
        OptNum = b'F',
        /// A boolean (u8: 0 false, else true).
        Bool = b'b',
    }
}

shared_enum! {
    /// The upvalues of a fast entry (`csrc/fast.c`), by their 1-based index.
    pub enum FastUpvalue: i32 as "LUDUS_FAST", chars: false {
        /// The host's state (light userdata), handed to `Call`.
        Host = 1,
        /// The command's generic function, which handles every call the host does not take.
        Generic = 2,
        /// The command's number in the host's list (an integer).
        Which = 3,
        /// The host's function (light userdata: a `LudusFastCall`).
        Call = 4,
    }
}

shared_enum! {
    /// The kind of one value a fast entry passes its host (`LudusArgs::kind`) or hands back
    /// (`LudusResults::kind`).
    pub enum FastKind: i32 as "LUDUS_KIND", chars: false {
        /// nil (or an argument not given).
        Nil = 0,
        /// A boolean: `whole` is 0 (false) or 1 (true).
        Bool = 1,
        /// A whole number: `whole`.
        Int = 2,
        /// A number: `number`.
        Num = 3,
        /// A string (arguments only): `text`, `len` bytes.
        Str = 4,
        /// A table of named plain values (arguments only, one a call): its entries are the
        /// `opt_*` arrays of `LudusArgs`.
        Table = 5,
        /// A list of whole numbers (a result only, one a call): a new table of the
        /// `ids_len` numbers at `ids` (`LudusResults`).
        Ids = 6,
    }
}

shared_struct! {
    /// The arguments of a call a fast entry hands its host (`csrc/fast.c` fills it): the first
    /// `n` of each array, argument `i` of kind `kind[i]` (a `FastKind`). A string's bytes are
    /// the Lua string's own, valid during the call.
    pub struct LudusArgs {
        /// How many arguments (0 to 4).
        pub n: i32,
        /// Each argument's kind.
        pub kind: [i32; 4],
        /// Each whole number or boolean.
        pub whole: [i64; 4],
        /// Each number.
        pub number: [f64; 4],
        /// Each string's bytes.
        pub text: [*const c_char; 4],
        /// Each string's length in bytes.
        pub len: [i64; 4],
        /// The Lua thread that made the call (a `lua_State *`), for where it was made.
        pub state: *mut c_void,
        /// How many entries the table argument has (0 to 8): entry `i` is a string key
        /// (`opt_key`, `opt_key_len` bytes) and a value of kind `opt_kind[i]` (not `Table`),
        /// read as the arguments' values are.
        pub opts: i32,
        pub opt_kind: [i32; 8],
        pub opt_key: [*const c_char; 8],
        pub opt_key_len: [i64; 8],
        pub opt_whole: [i64; 8],
        pub opt_number: [f64; 8],
        pub opt_text: [*const c_char; 8],
        pub opt_len: [i64; 8],
    }
}

shared_struct! {
    /// The values a fast entry's host hands back to the script (`csrc/fast.c` pushes them):
    /// the first `n` of each array, value `i` of kind `kind[i]` (a `FastKind`, not `Str`).
    pub struct LudusResults {
        /// How many values (0 to 2).
        pub n: i32,
        /// Each value's kind.
        pub kind: [i32; 2],
        /// Each whole number or boolean.
        pub whole: [i64; 2],
        /// Each number.
        pub number: [f64; 2],
        /// With a value of kind `Ids`: its numbers, read before the entry returns (they stay
        /// until the host's next call).
        pub ids: *const i64,
        pub ids_len: i64,
    }
}

shared_struct! {
    /// The work meter shared by the VM, the C library fences and the Rust host (see
    /// `csrc/ludus_fence.h`). Every Lua state the host creates carries a pointer to one in the
    /// extra space of its main thread.
    pub struct LudusMeter {
        /// Units left in this allowance.
        pub remaining: i64,
        /// Units in a whole allowance (for messages).
        pub limit: i64,
        /// Not 0 once the allowance is spent: nothing more may run.
        pub exhausted: i32,
        /// Why it was spent: a `Cause`, or 0.
        pub cause: i32,
        /// "file:line" where it ran out, or "" (NUL-terminated).
        pub place: [c_char; 200],
    }
}

shared_struct! {
    /// The header of an event blob (`csrc/events.c`, a full userdata): the records of one
    /// stage follow it, `cap` bytes of room of which `len` are used. A blob is reused from
    /// stage to stage (`ludus_lua::Blobs`) once no pool reads it: `pools` counts the pools
    /// whose tables read their fields from it.
    pub struct LudusBlob {
        /// Bytes of records after the header.
        pub len: i64,
        /// Bytes of room after the header.
        pub cap: i64,
        /// Pools whose tables read it.
        pub pools: i64,
    }
}

/// The constant lists of the header, in the order [`values`] gives them.
pub const CONSTANTS: &[&Constants] = &[&Cause::C, &FieldCode::C, &FastUpvalue::C, &FastKind::C];

/// The structs of the header.
pub const STRUCTS: &[&Struct] = &[
    &LudusMeter::C,
    &LudusBlob::C,
    &LudusArgs::C,
    &LudusResults::C,
];

/// Every shared value as Rust sees it: each constant of [`CONSTANTS`], then the size and field
/// offsets of each of [`STRUCTS`]. `ludus_abi` (`csrc/abi.c`) gives the same list as the
/// compiled C sees it.
pub fn values() -> Vec<i64> {
    let constants = CONSTANTS
        .iter()
        .flat_map(|c| c.items.iter().map(|(_, v)| *v));
    let layouts = STRUCTS
        .iter()
        .flat_map(|s| (s.layout)().into_iter().map(|n| n as i64));
    constants.chain(layouts).collect()
}
