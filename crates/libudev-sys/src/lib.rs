//! The part of libudev's C API that gilrs-core uses (device discovery and hot-plug), with the
//! library loaded at run time, as `src/platform/native/alsa.rs` loads ALSA.
//!
//! The crates.io `libudev-sys` links libudev when it is built, through pkg-config, so a build
//! machine needs libudev's development files; machines that run games have only the shared
//! library, if that. Here `libudev.so.1` (else `libudev.so.0`) is opened with `dlopen` the first
//! time any function is called, and every function this crate exposes is looked up with `dlsym`
//! then. Without the library, or without one of the functions, every call does nothing and
//! returns what libudev returns on failure (a null pointer, `-1`): gilrs then finds no udev
//! context and sees no pads. Nothing here can crash for want of the library.
//!
//! # Safety
//! - A function pointer is only called after `dlsym` found it in a libudev that had every
//!   function below, cast to the signature libudev documents for it (`libudev.h`); the names
//!   and signatures sit side by side in the one `udev!` list.
//! - The library is never closed, so the pointers stay valid for the life of the process.
//! - Arguments are passed through unchanged: the caller keeps libudev's own contract for them
//!   (live objects from this library, NUL-terminated strings), as with the crates.io crate.

#![allow(non_camel_case_types)]

use libc::{c_char, c_int, c_void};
use std::ffi::CStr;
use std::sync::OnceLock;

/// The library's names, tried in order.
const LIBRARIES: [&CStr; 2] = [c"libudev.so.1", c"libudev.so.0"];

macro_rules! opaque {
    ($($name:ident),* $(,)?) => {$(
        /// An opaque libudev object, only ever behind a pointer.
        #[repr(C)]
        pub struct $name {
            _private: [u8; 0],
        }
    )*};
}

opaque!(
    udev,
    udev_list_entry,
    udev_device,
    udev_monitor,
    udev_enumerate
);

/// Declares each function: its signature and the value it returns without the library. The
/// table of pointers [`Api`] and the public functions come from this one list.
macro_rules! udev {
    ($(fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty = $missing:expr;)*) => {
        /// Every function, found in one loaded libudev.
        struct Api {
            $($name: unsafe extern "C" fn($($ty),*) -> $ret,)*
        }

        impl Api {
            /// # Safety
            /// `lib` is a handle `dlopen` returned.
            unsafe fn find(lib: *mut c_void) -> Option<Api> {
                Some(Api {
                    $($name: {
                        let name = concat!(stringify!($name), "\0");
                        // SAFETY: `name` is NUL-terminated; `lib` is a live handle.
                        let p = unsafe { libc::dlsym(lib, name.as_ptr().cast()) };
                        if p.is_null() {
                            return None;
                        }
                        // SAFETY: the symbol is libudev's function of this name, whose C
                        // signature is the one declared with it in the list.
                        unsafe {
                            std::mem::transmute::<*mut c_void, unsafe extern "C" fn($($ty),*) -> $ret>(p)
                        }
                    },)*
                })
            }
        }

        $(
            /// libudev's function of this name; without libudev it returns what libudev
            /// returns on failure.
            ///
            /// # Safety
            /// As libudev's: pointer arguments are live objects of this library (or null
            /// where libudev accepts null), strings are NUL-terminated.
            pub unsafe fn $name($($arg: $ty),*) -> $ret {
                match api() {
                    // SAFETY: the caller keeps libudev's contract; see the crate's Safety.
                    Some(api) => unsafe { (api.$name)($($arg),*) },
                    None => $missing,
                }
            }
        )*
    };
}

udev! {
    fn udev_new() -> *mut udev = std::ptr::null_mut();
    fn udev_ref(udev: *mut udev) -> *mut udev = std::ptr::null_mut();
    fn udev_unref(udev: *mut udev) -> *mut udev = std::ptr::null_mut();

    fn udev_list_entry_get_next(list_entry: *mut udev_list_entry) -> *mut udev_list_entry = std::ptr::null_mut();
    fn udev_list_entry_get_name(list_entry: *mut udev_list_entry) -> *const c_char = std::ptr::null();
    fn udev_list_entry_get_value(list_entry: *mut udev_list_entry) -> *const c_char = std::ptr::null();

    fn udev_device_ref(udev_device: *mut udev_device) -> *mut udev_device = std::ptr::null_mut();
    fn udev_device_unref(udev_device: *mut udev_device) -> *mut udev_device = std::ptr::null_mut();
    fn udev_device_new_from_syspath(udev: *mut udev, syspath: *const c_char) -> *mut udev_device = std::ptr::null_mut();
    fn udev_device_get_syspath(udev_device: *mut udev_device) -> *const c_char = std::ptr::null();
    fn udev_device_get_devnode(udev_device: *mut udev_device) -> *const c_char = std::ptr::null();
    fn udev_device_get_properties_list_entry(udev_device: *mut udev_device) -> *mut udev_list_entry = std::ptr::null_mut();
    fn udev_device_get_property_value(udev_device: *mut udev_device, key: *const c_char) -> *const c_char = std::ptr::null();
    fn udev_device_get_action(udev_device: *mut udev_device) -> *const c_char = std::ptr::null();

    fn udev_monitor_new_from_netlink(udev: *mut udev, name: *const c_char) -> *mut udev_monitor = std::ptr::null_mut();
    fn udev_monitor_unref(udev_monitor: *mut udev_monitor) -> *mut udev_monitor = std::ptr::null_mut();
    fn udev_monitor_enable_receiving(udev_monitor: *mut udev_monitor) -> c_int = -1;
    fn udev_monitor_get_fd(udev_monitor: *mut udev_monitor) -> c_int = -1;
    fn udev_monitor_receive_device(udev_monitor: *mut udev_monitor) -> *mut udev_device = std::ptr::null_mut();
    fn udev_monitor_filter_add_match_subsystem_devtype(udev_monitor: *mut udev_monitor, subsystem: *const c_char, devtype: *const c_char) -> c_int = -1;

    fn udev_enumerate_new(udev: *mut udev) -> *mut udev_enumerate = std::ptr::null_mut();
    fn udev_enumerate_unref(udev_enumerate: *mut udev_enumerate) -> *mut udev_enumerate = std::ptr::null_mut();
    fn udev_enumerate_add_match_subsystem(udev_enumerate: *mut udev_enumerate, subsystem: *const c_char) -> c_int = -1;
    fn udev_enumerate_add_match_property(udev_enumerate: *mut udev_enumerate, property: *const c_char, value: *const c_char) -> c_int = -1;
    fn udev_enumerate_scan_devices(udev_enumerate: *mut udev_enumerate) -> c_int = -1;
    fn udev_enumerate_get_list_entry(udev_enumerate: *mut udev_enumerate) -> *mut udev_list_entry = std::ptr::null_mut();
}

/// The first of `names` that opens and has every function.
fn load(names: &[&CStr]) -> Option<Api> {
    names.iter().find_map(|name| {
        // SAFETY: `name` is NUL-terminated. The handle is never closed (see the crate's Safety).
        let lib = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if lib.is_null() {
            return None;
        }
        // SAFETY: `lib` came from dlopen.
        unsafe { Api::find(lib) }
    })
}

/// libudev's functions, loaded at the first call; `None` for good when it cannot be loaded.
fn api() -> Option<&'static Api> {
    static API: OnceLock<Option<Api>> = OnceLock::new();
    API.get_or_init(|| load(&LIBRARIES)).as_ref()
}

/// Whether libudev could be loaded (it is, at the first call of this or any function).
pub fn available() -> bool {
    api().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_library_that_is_not_there_loads_nothing() {
        assert!(
            load(&[c"libludus-no-such-library.so.9"]).is_none(),
            "no library of that name"
        );
        // A library without libudev's functions is not libudev either.
        assert!(load(&[c"libc.so.6"]).is_none(), "libc has no udev_new");
    }

    #[test]
    fn with_libudev_a_context_is_made_and_released_and_without_it_every_call_fails_quietly() {
        // SAFETY: the objects passed back are the ones libudev just returned (or null, which
        // libudev's unref functions accept).
        unsafe {
            let udev = udev_new();
            assert_eq!(
                udev.is_null(),
                !available(),
                "a context exactly when libudev loads"
            );
            if !udev.is_null() {
                let en = udev_enumerate_new(udev);
                assert!(!en.is_null(), "an enumeration of a live context");
                assert_eq!(udev_enumerate_add_match_subsystem(en, c"input".as_ptr()), 0);
                udev_enumerate_unref(en);
                udev_unref(udev);
            } else {
                assert!(udev_enumerate_new(udev).is_null(), "no enumeration");
                assert_eq!(
                    udev_monitor_get_fd(std::ptr::null_mut()),
                    -1,
                    "no descriptor"
                );
            }
        }
    }
}
