//! The machine, as the core asks for it on Workers: JavaScript's `Date.now` (std's clock
//! panics on wasm32-unknown-unknown) and Web Crypto's entropy, through getrandom.

use entrez_mcp_core::platform::Platform;

/// The Worker's [`Platform`].
#[derive(Debug, Default, Clone, Copy)]
pub struct WorkerPlatform;

impl Platform for WorkerPlatform {
    fn now_unix_ms(&self) -> u64 {
        date_now() as u64
    }

    fn fill_random(&self, buf: &mut [u8]) {
        // Without entropy no session id is safe; failing loudly beats weak ids.
        getrandom::fill(buf).expect("the platform entropy source failed");
    }
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Date, js_name = now)]
    fn date_now() -> f64;
}
