//! Line charts of a game over time, drawn as inline SVG.
