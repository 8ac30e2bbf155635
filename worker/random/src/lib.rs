//! getrandom's source of random bytes in the Worker's wasm: V8's `Math.random` while the
//! module starts ([`during_startup`]), Web Crypto at any other time ([`fill`]).
//!
//! The one crate that allows `unsafe_code` (denied everywhere but one function; the
//! workspace forbids it elsewhere): getrandom's custom back end calls a function by name,
//! `__getrandom_v03_custom`, that takes a raw pointer and length, and only an `unsafe extern`
//! function can be that. It zeroes the bytes before borrowing them. The Worker's build
//! selects this back end with `--cfg getrandom_backend="custom"` (scripts/lib.sh,
//! `worker_rust_env`); a build without it keeps getrandom's `wasm_js` back end.

use std::cell::Cell;

thread_local! {
    static STARTING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `work` as the module's start-up: random bytes drawn meanwhile come from
/// `Math.random`. Whatever way `work` ends, requests then get Web Crypto's again.
///
/// The Worker compiles its tools' JSON schemas once per isolate, at global scope, before any
/// request (`entrez_mcp_worker::startup`), and jsonschema's hash maps draw their seeds there,
/// once for the isolate's life (ahash, through getrandom). Workers refuse Web Crypto at global
/// scope, so the bytes come from `Math.random` (seeded per isolate from the system's entropy):
/// what hash seeds need, nothing secret. Without this back end, start-up finds no seed and
/// leaves the compiling to each tool's first call.
pub fn during_startup<T>(work: impl FnOnce() -> T) -> T {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            STARTING.with(|s| s.set(false));
        }
    }
    STARTING.with(|s| s.set(true));
    let _reset = Reset;
    work()
}

/// Whether random bytes drawn now come from the start-up source.
pub fn starting() -> bool {
    STARTING.with(|s| s.get())
}

/// Fills `buf` with random bytes from the source the moment allows.
///
/// Outside start-up they come from `crypto.getRandomValues`, as getrandom's own `wasm_js`
/// back end does, and a failure there is an error, never a fall back to `Math.random`.
pub fn fill(buf: &mut [u8]) -> Result<(), getrandom::Error> {
    if starting() {
        for chunk in buf.chunks_mut(4) {
            let word = js::startup_word().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        return Ok(());
    }
    js::web_crypto(buf)
}

/// What the two sources are on wasm; elsewhere (this crate's own tests, natively) neither
/// exists, and both say so.
#[cfg(target_arch = "wasm32")]
mod js {
    use wasm_bindgen::prelude::wasm_bindgen;
    use wasm_bindgen::JsValue;

    /// `crypto.getRandomValues` takes at most 65,536 bytes at a time.
    const MOST_PER_CALL: usize = 65_536;

    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_namespace = ["globalThis", "crypto"], js_name = getRandomValues, catch)]
        fn get_random_values(buf: &mut [u8]) -> Result<(), JsValue>;
        #[wasm_bindgen(js_namespace = Math, js_name = random)]
        fn math_random() -> f64;
    }

    pub(super) fn web_crypto(buf: &mut [u8]) -> Result<(), getrandom::Error> {
        for chunk in buf.chunks_mut(MOST_PER_CALL) {
            get_random_values(chunk).map_err(|_| getrandom::Error::new_custom(1))?;
        }
        Ok(())
    }

    /// 32 of the 52 random bits of one `Math.random()`.
    pub(super) fn startup_word() -> u32 {
        (math_random() * 4_294_967_296.0) as u32
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod js {
    pub(super) fn web_crypto(_buf: &mut [u8]) -> Result<(), getrandom::Error> {
        Err(getrandom::Error::UNSUPPORTED)
    }

    pub(super) fn startup_word() -> u32 {
        0
    }
}

/// The function getrandom's custom back end calls (`getrandom_backend="custom"`) for every
/// random byte the wasm asks for.
#[cfg(target_arch = "wasm32")]
#[allow(unsafe_code)]
#[no_mangle]
unsafe extern "Rust" fn __getrandom_v03_custom(
    dest: *mut u8,
    len: usize,
) -> Result<(), getrandom::Error> {
    // SAFETY: getrandom's contract for this function: `dest` points to `len` bytes the caller
    // owns for the call, possibly uninitialised, so they are zeroed before being borrowed.
    let buf = unsafe {
        std::ptr::write_bytes(dest, 0, len);
        std::slice::from_raw_parts_mut(dest, len)
    };
    fill(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startup_is_only_while_the_work_runs() {
        assert!(!starting());
        let inside = during_startup(starting);
        assert!(inside);
        assert!(!starting());
    }

    #[test]
    fn a_panic_in_startup_still_ends_it() {
        let caught = std::panic::catch_unwind(|| during_startup(|| panic!("schema")));
        assert!(caught.is_err());
        assert!(!starting());
    }

    #[test]
    fn outside_startup_there_is_no_fall_back() {
        // Natively there is no Web Crypto: the error comes through, no startup bytes instead.
        let mut buf = [7u8; 8];
        assert!(fill(&mut buf).is_err());
        assert!(during_startup(|| fill(&mut buf)).is_ok());
    }
}
