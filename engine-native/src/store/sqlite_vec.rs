//! Registers the sqlite-vec extension (the `vec0` virtual table and `vec_*` functions) with
//! SQLite, once per process, so every connection opened afterwards has it.

use std::sync::OnceLock;

use rusqlite::ffi;

/// The result code of the one registration, kept so every caller sees the same outcome.
static REGISTERED: OnceLock<std::os::raw::c_int> = OnceLock::new();

/// Makes sqlite-vec available on every SQLite connection this process opens from now on
/// (`sqlite3_auto_extension`). Idempotent; call it before opening connections that use `vec0`.
/// Fails only if SQLite could not record the extension (out of memory).
pub fn register_sqlite_vec() -> Result<(), rusqlite::Error> {
    let rc = *REGISTERED.get_or_init(|| {
        // SAFETY: `sqlite3_vec_init` is the extension's entry point with the signature SQLite
        // expects of an auto extension (`int (*)(sqlite3*, char**, const sqlite3_api_routines*)`);
        // the crate declares it without parameters, so it is cast to the expected type. It is
        // compiled with SQLITE_CORE against the SQLite that rusqlite links, so it uses that
        // library's symbols directly.
        unsafe {
            type EntryPoint = unsafe extern "C" fn(
                *mut ffi::sqlite3,
                *mut *mut std::os::raw::c_char,
                *const ffi::sqlite3_api_routines,
            ) -> std::os::raw::c_int;
            let entry: EntryPoint = std::mem::transmute::<*const (), EntryPoint>(
                sqlite_vec::sqlite3_vec_init as *const (),
            );
            ffi::sqlite3_auto_extension(Some(entry))
        }
    });
    if rc == ffi::SQLITE_OK {
        Ok(())
    } else {
        Err(rusqlite::Error::SqliteFailure(
            ffi::Error::new(rc),
            Some("could not register the sqlite-vec extension".into()),
        ))
    }
}
