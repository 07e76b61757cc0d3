//! Stopping a search that has a deadline before it passes: the user asked for the answer now
//! (Ctrl-C at the terminal, the stop button of the analysis board). A stop counts exactly as the
//! deadline passing: the search returns the best found with its bound, labelled not proven. A
//! search without a deadline never looks at it, so a proven answer is never cut short.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

static STOPPED: AtomicBool = AtomicBool::new(false);

/// Asks every search with a deadline in this process to stop as if its deadline had passed.
pub fn request() {
    STOPPED.store(true, Ordering::Relaxed);
}

/// Whether a stop was asked for.
pub fn requested() -> bool {
    STOPPED.load(Ordering::Relaxed)
}

/// Whether a search with this deadline must stop now: the deadline has passed, or a stop was
/// asked for.
pub fn passed(deadline: Instant) -> bool {
    requested() || Instant::now() >= deadline
}
