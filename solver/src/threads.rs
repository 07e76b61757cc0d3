//! Running a search on a chosen number of threads.

/// Runs `run` on a rayon pool of `threads` threads (at least one), or on rayon's default pool
/// (one thread per core) when `None` or when a pool cannot be built. Every search in signalbox
/// gives the same answer on any number of threads; this only decides how fast.
pub fn install<T: Send>(threads: Option<usize>, run: impl FnOnce() -> T + Send) -> T {
    match threads {
        None => run(),
        Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n.max(1)).build() {
            Ok(pool) => pool.install(run),
            Err(_) => run(),
        },
    }
}
