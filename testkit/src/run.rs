//! Running a future to its end on the test's thread.

use std::future::Future;
use std::sync::Arc;
use std::task::{Context, Poll, Wake};

/// What runs a future to its end on this thread: [`Parked`] where the future waits on
/// nothing but other futures (the core's tests), a runtime where it waits on sockets.
pub trait Runner {
    /// Runs `f` until it is ready and returns its output.
    fn block_on<F: Future>(&self, f: F) -> F::Output;
}

/// The whole executor of a test with no network: the thread parks until the future wakes it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Parked;

impl Runner for Parked {
    fn block_on<F: Future>(&self, f: F) -> F::Output {
        struct Unpark(std::thread::Thread);
        impl Wake for Unpark {
            fn wake(self: Arc<Self>) {
                self.0.unpark();
            }
        }
        let waker = Arc::new(Unpark(std::thread::current())).into();
        let mut cx = Context::from_waker(&waker);
        let mut f = std::pin::pin!(f);
        loop {
            if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                return v;
            }
            std::thread::park();
        }
    }
}

/// Runs `f` on [`Parked`].
pub fn block_on<F: Future>(f: F) -> F::Output {
    Parked.block_on(f)
}
