//! Pictures and report pages of the signalbox games: SVG boards drawn from engine positions, and
//! self-contained HTML pages (inline SVG and CSS, no script, no network) for the analysis of a
//! played game. The CLI and the puzzle books both draw through this crate.

pub mod book;
pub mod chart;
pub mod coe;
pub mod cube_express;
pub mod express01;
pub mod page;
pub mod railways;
pub mod walk;
