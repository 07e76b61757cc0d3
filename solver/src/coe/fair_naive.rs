//! A deliberately naive fair-play expectation (in progress).
