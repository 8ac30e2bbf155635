//! The machine, as the core asks for it: the system clock and the OS's entropy source.

use entrez_mcp_core::platform::Platform;

/// The native edge's [`Platform`].
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemPlatform;

impl Platform for SystemPlatform {
    fn now_unix_ms(&self) -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0)
    }

    fn fill_random(&self, buf: &mut [u8]) {
        // Without entropy no session id is safe; failing loudly beats weak ids.
        getrandom::fill(buf).expect("the platform entropy source failed");
    }
}
