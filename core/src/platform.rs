//! What the core needs from the machine it runs on.
//!
//! The core never reads a clock or an entropy source itself: each edge passes a
//! [`Platform`] (natively the system clock and the OS's entropy; on Workers `Date.now`
//! and Web Crypto). Tests pass a fixed one, which makes time-dependent logic such as
//! session expiry deterministic.

use std::future::Future;
use std::pin::Pin;

/// A boxed future that is `Send` natively and not on wasm32, where JS futures never are.
#[cfg(not(target_arch = "wasm32"))]
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;
/// A boxed future that is `Send` natively and not on wasm32, where JS futures never are.
#[cfg(target_arch = "wasm32")]
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// `Send + Sync` natively; nothing on wasm32.
#[cfg(not(target_arch = "wasm32"))]
pub trait MaybeSendSync: Send + Sync {}
#[cfg(not(target_arch = "wasm32"))]
impl<T: Send + Sync + ?Sized> MaybeSendSync for T {}
/// `Send + Sync` natively; nothing on wasm32.
#[cfg(target_arch = "wasm32")]
pub trait MaybeSendSync {}
#[cfg(target_arch = "wasm32")]
impl<T: ?Sized> MaybeSendSync for T {}

/// Clock and entropy, supplied by the edge.
pub trait Platform: MaybeSendSync {
    /// Milliseconds since the Unix epoch.
    fn now_unix_ms(&self) -> u64;
    /// Fills `buf` with cryptographically secure random bytes.
    fn fill_random(&self, buf: &mut [u8]);
}

impl<P: Platform + ?Sized> Platform for std::sync::Arc<P> {
    fn now_unix_ms(&self) -> u64 {
        (**self).now_unix_ms()
    }
    fn fill_random(&self, buf: &mut [u8]) {
        (**self).fill_random(buf)
    }
}

/// Unix milliseconds as an ISO 8601 UTC timestamp, e.g. `2025-11-13T02:13:20Z`.
pub fn iso8601(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil-from-days, for dates after 1970.
    let z = days as i64 + 719_468;
    let revision = z.div_euclid(146_097);
    let doe = z - revision * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + revision * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
