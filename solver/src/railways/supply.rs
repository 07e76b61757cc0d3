//! The tile supply as the linker counts it (ruling T1 in `docs/rules/railways-express.md`): a
//! tile laid on a free hex comes from the pile of its kind; a tile laid over another player's
//! tile takes a crossing tile while any is left, else a tile of its own kind. The piles are the
//! position's, shared by every player: what the other players have laid is gone.
//!
//! Which over tiles get the last crossing tiles depends on the order they are laid, so a plan
//! fits the supply when some order the rules allow fits it ([`arrange`]). The linker's bounds
//! use a relaxation that ignores the order ([`Draw::may_fit`]): any plan that fits in some order
//! passes it.

use signalbox_engine::railways::catalogue::Supply;
use signalbox_engine::railways::track::TileKind;

/// What tiles draw from the supply before the crossing tiles are shared out: straight and
/// curved tiles on free hexes, then straight and curved tiles laid over another player's tile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Draw(pub [u32; 4]);

impl Draw {
    /// One tile of `kind`, laid over another player's tile when `over`.
    pub const fn tile(kind: TileKind, over: bool) -> Draw {
        let k = match kind {
            TileKind::Straight => 0,
            TileKind::Curved => 1,
        } + if over { 2 } else { 0 };
        let mut d = [0; 4];
        d[k] = 1;
        Draw(d)
    }

    /// Whether every count is at most `other`'s.
    pub fn within(self, other: Draw) -> bool {
        (0..4).all(|k| self.0[k] <= other.0[k])
    }

    /// The counts that `mask` keeps, the others zero.
    pub fn masked(self, mask: [bool; 4]) -> Draw {
        Draw(std::array::from_fn(|k| if mask[k] { self.0[k] } else { 0 }))
    }

    /// Whether the tiles fit `supply` when the crossing tiles may go to any of the over tiles:
    /// the straight and curved tiles on free hexes fit their piles, and the over tiles no
    /// crossing tile covers fit what those piles have left. Every plan that fits the supply in
    /// some order passes (the first over tiles laid are one such choice); each count only makes
    /// it harder, so a part of a plan that fails has no plan that passes.
    pub fn may_fit(self, supply: Supply) -> bool {
        let [s, c, so, co] = self.0;
        s <= supply.straight
            && c <= supply.curved
            && (s + so).saturating_sub(supply.straight) + (c + co).saturating_sub(supply.curved) <= supply.crossing
    }
}

impl std::ops::Add for Draw {
    type Output = Draw;
    /// Both draws together.
    fn add(self, other: Draw) -> Draw {
        Draw(std::array::from_fn(|k| self.0[k] + other.0[k]))
    }
}

/// The counts of a [`Draw`] that can decide [`Draw::may_fit`] for plans of at most `bound`
/// tiles: a pile with at least `bound` tiles never runs short, so its counts (and with enough
/// crossing tiles, the over tiles' counts) are left out. For any draw of at most `bound` tiles,
/// `d.masked(mask(supply, bound)).may_fit(supply) == d.may_fit(supply)`: a straight pile of at
/// least `bound` makes `s <= S` and `(s + so - S)+ = 0` hold whatever `s` and `so`; a crossing
/// pile of at least `bound` covers every over tile, and then `(s + so - S)+ <= so` once
/// `s <= S`.
pub fn mask(supply: Supply, bound: u32) -> [bool; 4] {
    let straight = supply.straight < bound;
    let curved = supply.curved < bound;
    let over = supply.crossing < bound;
    [straight, curved, straight && over, curved && over]
}

/// One path of a plan as the supply sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    /// The path it starts from, which must be built first (`None`: the network as it stands).
    pub parent: Option<usize>,
    /// Its tiles in building order: each tile's kind, and whether it is laid over another
    /// player's tile.
    pub tiles: Vec<(TileKind, bool)>,
}

/// An order of the plan's tiles (as `(path, tile)` steps) that fits `supply` under ruling T1,
/// or `None` when no order the rules allow fits. The rules allow exactly the orders in which
/// each path is built from its start, after the path it starts from (the linker's paths branch
/// only at cities, so no tile of a path can be reached another way).
///
/// With `k` over tiles and `x` crossing tiles left, the first `min(k, x)` over tiles laid take
/// the crossing tiles and the last `k - x` take tiles of their own kind. Those last ones can be
/// any set of over tiles closed under "laid after" (an over tile late, every over tile after it
/// on its path and on the paths that start from it late too), and no other: so every such set
/// of `k - x` is tried, and the order lays every other tile first whenever it can.
pub fn arrange(chains: &[Chain], supply: Supply) -> Option<Vec<(usize, usize)>> {
    let all = chains.iter().flat_map(|c| &c.tiles).fold(Draw::default(), |d, &(k, o)| d + Draw::tile(k, o));
    let [s, c, so, co] = all.0;
    if s > supply.straight || c > supply.curved {
        return None;
    }
    let late = (so + co).saturating_sub(supply.crossing) as usize;
    let over: Vec<Vec<TileKind>> =
        chains.iter().map(|ch| ch.tiles.iter().filter(|t| t.1).map(|t| t.0).collect()).collect();
    let mut counts = vec![0usize; chains.len()];
    let fits = |counts: &[usize]| {
        // Closed under "laid after": a path with a late tile has every path below it all late.
        let closed = (0..chains.len()).all(|i| {
            counts[i] == 0 || (0..chains.len()).all(|j| !descends(chains, j, i) || counts[j] == over[j].len())
        });
        let (mut ls, mut lc) = (0u32, 0u32);
        for (i, &n) in counts.iter().enumerate() {
            for kind in &over[i][over[i].len() - n..] {
                match kind {
                    TileKind::Straight => ls += 1,
                    TileKind::Curved => lc += 1,
                }
            }
        }
        closed && s + ls <= supply.straight && c + lc <= supply.curved
    };
    if !choose(&over, late, 0, &mut counts, &fits) {
        return None;
    }
    Some(order(chains, &counts))
}

/// Whether path `j` starts, directly or through others, from path `i` (`j != i`).
fn descends(chains: &[Chain], j: usize, i: usize) -> bool {
    let mut at = chains[j].parent;
    let mut steps = 0;
    while let Some(p) = at {
        if p == i {
            return true;
        }
        at = chains[p].parent;
        steps += 1;
        if steps > chains.len() {
            return false;
        }
    }
    false
}

/// Every split of `left` late over tiles among the paths from `i` on (at most each path's over
/// tiles), the first that `fits` left in `counts`.
fn choose(
    over: &[Vec<TileKind>],
    left: usize,
    i: usize,
    counts: &mut [usize],
    fits: &dyn Fn(&[usize]) -> bool,
) -> bool {
    if i == over.len() {
        return left == 0 && fits(counts);
    }
    for n in 0..=over[i].len().min(left) {
        counts[i] = n;
        if choose(over, left - n, i + 1, counts, fits) {
            return true;
        }
    }
    counts[i] = 0;
    false
}

/// The order that lays every tile but the last `late[i]` over tiles of each path whenever one
/// can be laid, path by path in the plan's order.
fn order(chains: &[Chain], late: &[usize]) -> Vec<(usize, usize)> {
    // Tile j of path i is late when it is one of the path's last late[i] over tiles.
    let is_late: Vec<Vec<bool>> = chains
        .iter()
        .zip(late)
        .map(|(ch, &n)| {
            let mut left = n;
            let mut marks = vec![false; ch.tiles.len()];
            for j in (0..ch.tiles.len()).rev() {
                if left > 0 && ch.tiles[j].1 {
                    marks[j] = true;
                    left -= 1;
                }
            }
            marks
        })
        .collect();
    let mut pos = vec![0usize; chains.len()];
    let mut out = Vec::new();
    loop {
        let open = |i: usize, pos: &[usize]| {
            pos[i] < chains[i].tiles.len() && chains[i].parent.is_none_or(|p| pos[p] == chains[p].tiles.len())
        };
        let pick = (0..chains.len())
            .find(|&i| open(i, &pos) && !is_late[i][pos[i]])
            .or_else(|| (0..chains.len()).find(|&i| open(i, &pos)));
        let Some(i) = pick else { break };
        out.push((i, pos[i]));
        pos[i] += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: TileKind = TileKind::Straight;
    const C: TileKind = TileKind::Curved;

    fn supply(straight: u32, curved: u32, crossing: u32) -> Supply {
        Supply { straight, curved, crossing }
    }

    #[test]
    fn the_relaxation_and_the_mask_agree_on_small_draws() {
        for bound in 0..6u32 {
            for sup in [supply(1, 2, 0), supply(0, 5, 1), supply(3, 3, 3), supply(2, 0, 2)] {
                let m = mask(sup, bound);
                for code in 0..6u32.pow(4) {
                    let d = Draw([code % 6, code / 6 % 6, code / 36 % 6, code / 216]);
                    if d.0.iter().sum::<u32>() <= bound {
                        assert_eq!(d.masked(m).may_fit(sup), d.may_fit(sup), "{d:?} {sup:?} bound {bound}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_first_over_tiles_laid_take_the_crossing_tiles() {
        // One path: a straight over tile, then a curved over tile; one crossing tile left.
        let one = [Chain { parent: None, tiles: vec![(S, true), (C, true)] }];
        // The straight one comes first and takes it: the curved one needs a curved tile.
        assert_eq!(arrange(&one, supply(0, 1, 1)), Some(vec![(0, 0), (0, 1)]));
        assert_eq!(arrange(&one, supply(1, 0, 1)), None);
        // Two paths from the network: the curved over tile can be laid first.
        let two = [Chain { parent: None, tiles: vec![(S, true)] }, Chain { parent: None, tiles: vec![(C, true)] }];
        assert_eq!(arrange(&two, supply(1, 0, 1)), Some(vec![(1, 0), (0, 0)]));
        // A path after another: its over tiles come last whatever the order.
        let after = [
            Chain { parent: None, tiles: vec![(S, false), (C, true)] },
            Chain { parent: Some(0), tiles: vec![(S, true)] },
        ];
        assert_eq!(arrange(&after, supply(2, 0, 1)), Some(vec![(0, 0), (0, 1), (1, 0)]));
        assert_eq!(arrange(&after, supply(1, 1, 1)), None);
        assert!(arrange(&after, supply(1, 1, 2)).is_some());
    }
}
