//! How many turns a player needs, on average, to build a plan under the dice: exact, by
//! dynamic programming over how far each path of the plan is built.
//!
//! The plan is held fixed (its tiles, each with its kind and the terrain of its hex). Each turn
//! the four dice are rolled (every face of the content's dice equally likely), the player pairs
//! them either way and builds as much of the plan as the four slots allow: the next tile of any
//! path whose start is reached, each on a slot of its kind whose terrain die allows its hex.
//! The state is how many tiles of each path are built; the expected turns from a state are
//! `E(S) = 1 + sum over rolls of p(roll) * min over the states S' the roll reaches of E(S')`,
//! solved from the most built states down (a roll that builds nothing leaves S, so
//! `E(S) = (1 + sum of the progressing rolls) / (1 - p(no progress))`). Re-rolls and the other
//! players are left out.

use std::collections::HashMap;

use rustc_hash::FxHashMap;

use signalbox_engine::railways::catalogue::Content;
use signalbox_engine::railways::dice::{DiceFaces, Roll, Slot, TrackFace};
use signalbox_engine::railways::terrain::{Terrain, TerrainFace};
use signalbox_engine::railways::track::{Curve, Ends, TileKind};

use super::link::LinkPlan;

/// What a tile of a plan needs: its kind and the terrain of its hex.
pub type Need = (TileKind, Terrain);

/// A plan as the race sees it: for each path, the path it starts from (`None`: the network)
/// and its tiles' needs in building order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Course {
    /// (the path it starts from, its tiles' needs).
    pub paths: Vec<(Option<usize>, Vec<Need>)>,
}

impl Course {
    /// The course of `plan` on `content`'s map under `curve`.
    pub fn of(plan: &LinkPlan, content: &Content, curve: Curve) -> Course {
        let need = |&(hex, ends): &(signalbox_engine::grid::hex::Hex, Ends)| {
            (ends.kind(curve).unwrap_or(TileKind::Straight), content.terrain(hex).unwrap_or(Terrain::Plains))
        };
        let paths = plan
            .paths
            .iter()
            .map(|p| {
                let parent = p.from.and_then(|c| plan.paths.iter().position(|q| q.to == c));
                (parent, p.tiles.iter().map(need).collect())
            })
            .collect();
        Course { paths }
    }

    fn open(&self, state: &[u8], i: usize) -> bool {
        let (parent, needs) = &self.paths[i];
        usize::from(state[i]) < needs.len() && parent.is_none_or(|p| usize::from(state[p]) == self.paths[p].1.len())
    }

    /// What is left of the course from the packed state `key`, packed (`None` when it does not
    /// fit 128 bits): the paths not finished in their order, each with the path it starts from
    /// if that one is not finished, and the needs of its tiles still to build. The expected turns
    /// from `key` are the expected turns of that course from its start: the rolls, the slots and
    /// the paths that can take a tile are the same.
    fn rest(&self, key: u64) -> Option<u128> {
        if self.paths.len() > 7 {
            return None;
        }
        let mut code: u128 = 0;
        let mut bits = 0u32;
        let mut put = |value: u32, width: u32| -> Option<()> {
            if bits + width > 128 {
                return None;
            }
            code |= u128::from(value) << bits;
            bits += width;
            Some(())
        };
        let mut index = [7u32; 8];
        let mut kept = 0;
        for (i, (_, needs)) in self.paths.iter().enumerate() {
            if usize::from(built(key, i)) < needs.len() {
                index[i] = kept;
                kept += 1;
            }
        }
        put(kept, 3)?;
        for (i, (parent, needs)) in self.paths.iter().enumerate() {
            let done = usize::from(built(key, i));
            if done == needs.len() {
                continue;
            }
            put(parent.map_or(7, |p| index[p]), 3)?;
            let left = needs.len() - done;
            put(u32::try_from(left).ok().filter(|&l| l < 64)?, 6)?;
            for &(kind, terrain) in &needs[done..] {
                let k = match kind {
                    TileKind::Straight => 0,
                    TileKind::Curved => 1,
                };
                let t = match terrain {
                    Terrain::Plains => 0,
                    Terrain::Mountain => 1,
                    Terrain::Water => 2,
                };
                put(k | t << 1, 3)?;
            }
        }
        Some(code)
    }

    /// Whether path `i` can take its next tile in the packed state `key`.
    fn open_packed(&self, key: u64, i: usize) -> bool {
        let (parent, needs) = &self.paths[i];
        usize::from(built(key, i)) < needs.len()
            && parent.is_none_or(|p| usize::from(built(key, p)) == self.paths[p].1.len())
    }

    /// Every state the slots reach from `state` with the steps that reach it (the empty use
    /// included), slots alike tried once (they give the same states).
    fn steps(
        &self,
        state: &[u8],
        slots: &[Slot; 4],
        used: &mut [bool; 4],
        so_far: &mut Vec<Step>,
        out: &mut Vec<(Vec<u8>, Vec<Step>)>,
        visited: &mut Vec<(u64, [bool; 4])>,
    ) {
        // The states below a state and the slots left were all found the first time they were
        // met (earlier in this depth-first order, so with the steps found first).
        let here = (pack(state), *used);
        if visited.contains(&here) {
            return;
        }
        visited.push(here);
        if !out.iter().any(|(s, _)| s == state) {
            out.push((state.to_vec(), so_far.clone()));
        }
        for i in 0..self.paths.len() {
            if !self.open(state, i) {
                continue;
            }
            let (kind, terrain) = self.paths[i].1[usize::from(state[i])];
            let mut tried: Vec<Slot> = Vec::new();
            for k in 0..4 {
                if used[k] || slots[k].kind != kind || !slots[k].terrain.allows(terrain) || tried.contains(&slots[k]) {
                    continue;
                }
                tried.push(slots[k]);
                used[k] = true;
                so_far.push((i, k));
                let mut next = state.to_vec();
                next[i] += 1;
                self.steps(&next, slots, used, so_far, out, visited);
                so_far.pop();
                used[k] = false;
            }
        }
    }

    /// The states (packed) the slots reach from `key`, without the steps: what
    /// [`Race::value`] needs, with no allocation per state.
    fn reach(&self, key: u64, slots: &[Slot; 4], used: u8, out: &mut Vec<u64>, visited: &mut Vec<(u64, u8)>) {
        // What lies below a state and the slots left was all reached the first time.
        if visited.contains(&(key, used)) {
            return;
        }
        visited.push((key, used));
        if !out.contains(&key) {
            out.push(key);
        }
        for i in 0..self.paths.len() {
            if !self.open_packed(key, i) {
                continue;
            }
            let (kind, terrain) = self.paths[i].1[usize::from(built(key, i))];
            for k in 0..4 {
                let s = slots[k];
                if used & (1 << k) != 0
                    || s.kind != kind
                    || !s.terrain.allows(terrain)
                    || (0..k).any(|j| used & (1 << j) == 0 && slots[j] == s)
                {
                    continue;
                }
                self.reach(key + (1 << (8 * i)), slots, used | (1 << k), out, visited);
            }
        }
    }
}

/// The tiles built on path `i` in a packed state (8 bits a path).
fn built(key: u64, i: usize) -> u8 {
    (key >> (8 * i)) as u8
}

/// A state packed 8 bits a path (a plan has at most 4 paths, each far below 256 tiles).
fn pack(state: &[u8]) -> u64 {
    state.iter().enumerate().fold(0, |key, (i, &b)| key | (u64::from(b) << (8 * i)))
}

/// The rolls by what matters to the best use of a roll, with their probabilities: swapping the
/// two track dice (or the two terrain dice) turns each pairing into the other, and the best use
/// takes the better of the two, so each roll is counted with its dice in order.
fn rolls(content: &Content) -> Vec<(Roll, f64)> {
    let d = &content.dice;
    // The faces ranked by their names (as the rolls are sorted below), each face named once.
    let track: Vec<(TrackFace, String)> = d.track.iter().map(|f| (*f, format!("{f:?}"))).collect();
    let terrain: Vec<(TerrainFace, String)> = d.terrain.iter().map(|f| (*f, format!("{f:?}"))).collect();
    let mut counts: HashMap<Roll, u32> = HashMap::new();
    for (a, na) in &track {
        for (b, nb) in &track {
            for (g, ng) in &terrain {
                for (h, nh) in &terrain {
                    let mut track = [*a, *b];
                    let mut terrain = [*g, *h];
                    if na > nb {
                        track.swap(0, 1);
                    }
                    if ng > nh {
                        terrain.swap(0, 1);
                    }
                    *counts.entry(Roll { track, terrain }).or_default() += 1;
                }
            }
        }
    }
    let mut out: Vec<(Roll, f64)> = counts.into_iter().map(|(r, n)| (r, f64::from(n) / 1296.0)).collect();
    // Sorted by the roll's debug text: a fixed order, so the sums over the rolls are the same
    // on every run.
    out.sort_by_cached_key(|a| format!("{:?}", a.0));
    out
}

/// The rolls with their probabilities.
type Rolls = Vec<(Roll, f64)>;

/// The most courses' values each thread keeps across races ([`REST`]).
const REST_LIMIT: usize = 1 << 18;

thread_local! {
    /// The expected turns of the courses raced on this thread, by what is left of them
    /// ([`Course::rest`]), for the dice they were raced on: a plan planned again next turn, or in
    /// another game played out from the same position, is mostly a course seen before. Cleared
    /// when full or for other dice; a value is the same whether remembered or computed.
    static REST: std::cell::RefCell<(Option<DiceFaces>, FxHashMap<u128, f64>)> =
        std::cell::RefCell::new((None, FxHashMap::default()));
}

/// A course under the dice, its values remembered: the expected turns from each state, and the
/// best pairing and builds for a roll.
pub struct Race<'c> {
    course: &'c Course,
    rolls: Vec<(Roll, f64)>,
    faces: DiceFaces,
    memo: FxHashMap<u64, f64>,
    /// [`Race::choose`]'s answers by state and roll.
    chosen: FxHashMap<(u64, Roll), (bool, Vec<Step>, f64)>,
    /// Whether the values are shared with the thread's other races ([`REST`]).
    shared: bool,
}

/// One step of building a course: the path and the slot its next tile takes.
pub type Step = (usize, usize);

impl<'c> Race<'c> {
    /// The race of `course` on `content`'s dice.
    pub fn new(course: &'c Course, content: &Content) -> Race<'c> {
        // The rolls of the dice, worked out once a thread for the dice last raced on.
        thread_local! {
            static ROLLS: std::cell::RefCell<Option<(DiceFaces, Rolls)>> = const { std::cell::RefCell::new(None) };
        }
        let rolls = ROLLS.with_borrow_mut(|known| match known {
            Some((faces, rolls)) if *faces == content.dice => rolls.clone(),
            _ => {
                let rolls = rolls(content);
                *known = Some((content.dice.clone(), rolls.clone()));
                rolls
            }
        });
        Race {
            course,
            rolls,
            faces: content.dice.clone(),
            memo: FxHashMap::default(),
            chosen: FxHashMap::default(),
            shared: true,
        }
    }

    /// The race of `course` on `content`'s dice computing every value itself, sharing none with
    /// the thread's other races: the same answers as [`Race::new`], to check and time it against.
    pub fn isolated(course: &'c Course, content: &Content) -> Race<'c> {
        Race { shared: false, ..Race::new(course, content) }
    }

    /// The expected turns to finish from `state` (tiles built per path), each roll used at its
    /// best; infinite when some tile can never be built.
    pub fn value(&mut self, state: &[u8]) -> f64 {
        self.value_packed(pack(state))
    }

    fn value_packed(&mut self, key: u64) -> f64 {
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let course = self.course;
        if course.paths.iter().enumerate().all(|(i, p)| usize::from(built(key, i)) == p.1.len()) {
            return 0.0;
        }
        let rest = if self.shared { course.rest(key) } else { None };
        if let Some(rest) = rest
            && let Some(v) = REST.with_borrow(|(faces, values)| {
                values.get(&rest).filter(|_| faces.as_ref() == Some(&self.faces)).copied()
            })
        {
            self.memo.insert(key, v);
            return v;
        }
        let mut stuck = 0.0;
        let mut sum = 0.0;
        let mut reached = Vec::new();
        let mut visited = Vec::new();
        for r in 0..self.rolls.len() {
            let (roll, p) = self.rolls[r];
            let mut best = f64::INFINITY;
            for crossed in [false, true] {
                reached.clear();
                visited.clear();
                course.reach(key, &roll.slots(crossed), 0, &mut reached, &mut visited);
                for &s in reached.iter().filter(|&&s| s != key) {
                    best = best.min(self.value_packed(s));
                }
            }
            if best.is_finite() {
                sum += p * best;
            } else {
                stuck += p;
            }
        }
        let v = if stuck >= 1.0 - 1e-12 { f64::INFINITY } else { (1.0 + sum) / (1.0 - stuck) };
        self.memo.insert(key, v);
        if let Some(rest) = rest {
            REST.with_borrow_mut(|(faces, values)| {
                if faces.as_ref() != Some(&self.faces) || values.len() >= REST_LIMIT {
                    *faces = Some(self.faces.clone());
                    values.clear();
                }
                values.insert(rest, v);
            });
        }
        v
    }

    /// The best use of `roll` from `state`: the pairing, the steps (in an order the rules
    /// allow), and the expected turns after this one.
    pub fn choose(&mut self, state: &[u8], roll: Roll) -> (bool, Vec<Step>, f64) {
        let key = (pack(state), roll);
        if let Some(best) = self.chosen.get(&key) {
            return best.clone();
        }
        let mut best = (false, Vec::new(), self.value(state));
        for crossed in [false, true] {
            let slots = roll.slots(crossed);
            let mut found: Vec<(Vec<u8>, Vec<Step>)> = Vec::new();
            self.course.steps(state, &slots, &mut [false; 4], &mut Vec::new(), &mut found, &mut Vec::new());
            for (s, steps) in found {
                let v = self.value(&s);
                if v + 1e-12 < best.2 || (v <= best.2 + 1e-12 && steps.len() > best.1.len()) {
                    best = (crossed, steps, v);
                }
            }
        }
        self.chosen.insert(key, best.clone());
        best
    }

    /// The expected turns after this one from `state` when `dice` of `roll` are rolled again
    /// (averaged over their new faces), each outcome used at its best.
    pub fn reroll(&mut self, state: &[u8], roll: Roll, dice: &[signalbox_engine::railways::dice::Die]) -> f64 {
        use signalbox_engine::railways::dice::Die;
        let mut outcomes = vec![roll];
        for die in dice {
            let mut next = Vec::new();
            for r in &outcomes {
                for k in 0..6 {
                    let mut r = *r;
                    match *die {
                        Die::Track(i) => r.track[usize::from(i) & 1] = self.faces.track[k],
                        Die::Terrain(i) => r.terrain[usize::from(i) & 1] = self.faces.terrain[k],
                    }
                    next.push(r);
                }
            }
            outcomes = next;
        }
        let n = outcomes.len() as f64;
        outcomes.into_iter().map(|r| self.choose(state, r).2).sum::<f64>() / n
    }
}

/// The expected number of turns to build `course` from nothing built, on `content`'s dice;
/// infinite when some tile can never be built.
pub fn expected_turns(course: &Course, content: &Content) -> f64 {
    Race::new(course, content).value(&vec![0u8; course.paths.len()])
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use signalbox_engine::railways::catalogue::Content;
    use signalbox_engine::railways::dice::Roll;

    use super::*;

    /// The reference: play the course many times with random dice, each turn taking the pairing
    /// and builds that leave the fewest expected turns, and average the turns taken (with the
    /// standard error of the mean).
    fn simulated(course: &Course, content: &Content, games: usize, seed: u64) -> (f64, f64) {
        let mut race = Race::new(course, content);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut total = 0.0;
        let mut squares = 0.0;
        for _ in 0..games {
            let mut state = vec![0u8; course.paths.len()];
            let mut turns = 0.0;
            while race.value(&state) > 0.0 {
                turns += 1.0;
                let roll = Roll::random(&content.dice, &mut rng);
                let (_, steps, _) = race.choose(&state, roll);
                for (path, _) in steps {
                    state[path] += 1;
                }
            }
            total += turns;
            squares += turns * turns;
        }
        let n = games as f64;
        let mean = total / n;
        (mean, ((squares / n - mean * mean) / n).sqrt())
    }

    /// A random course of up to three paths (a later one may start from an earlier one).
    fn random_course(rng: &mut ChaCha8Rng, most: usize) -> Course {
        let kinds = [TileKind::Straight, TileKind::Curved];
        let terrains = [Terrain::Plains, Terrain::Mountain, Terrain::Water];
        let mut paths = Vec::new();
        for p in 0..rng.random_range(1..=3usize) {
            let parent = if p > 0 && rng.random() { Some(rng.random_range(0..p)) } else { None };
            let needs = (0..rng.random_range(1..=most))
                .map(|_| (kinds[rng.random_range(0..2)], terrains[rng.random_range(0..3)]))
                .collect();
            paths.push((parent, needs));
        }
        Course { paths }
    }

    /// What is left of `course` from `state`, written out as a course of its own (finished
    /// paths dropped, a path whose start is finished starting from the network).
    fn left_of(course: &Course, state: &[u8]) -> Course {
        let kept: Vec<usize> =
            (0..course.paths.len()).filter(|&i| usize::from(state[i]) < course.paths[i].1.len()).collect();
        let paths = kept
            .iter()
            .map(|&i| {
                let (parent, needs) = &course.paths[i];
                let parent = parent.and_then(|p| kept.iter().position(|&k| k == p));
                (parent, needs[usize::from(state[i])..].to_vec())
            })
            .collect();
        Course { paths }
    }

    #[test]
    fn a_value_shared_between_races_is_the_value_of_what_is_left_computed_afresh() {
        let content = Content::house();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for case in 0..30 {
            let course = random_course(&mut rng, 4);
            let state: Vec<u8> =
                course.paths.iter().map(|(_, needs)| rng.random_range(0..=needs.len()) as u8).collect();
            let left = left_of(&course, &state);
            // Each on a thread of its own: one remembers nothing from the other.
            let (fresh, shared) = std::thread::scope(|scope| {
                let fresh = scope.spawn(|| Race::isolated(&left, &content).value(&vec![0; left.paths.len()]));
                let shared = scope.spawn(|| {
                    // The whole course raced first, then a new race of the part left.
                    let whole = Race::new(&course, &content).value(&vec![0; course.paths.len()]);
                    let part = Race::new(&left, &content).value(&vec![0; left.paths.len()]);
                    let direct = Race::isolated(&course, &content).value(&state);
                    (whole, part, direct)
                });
                (fresh.join().expect("the fresh race"), shared.join().expect("the shared races"))
            });
            assert_eq!(shared.1.to_bits(), fresh.to_bits(), "case {case}: {course:?} from {state:?}");
            assert_eq!(shared.2.to_bits(), fresh.to_bits(), "case {case}: {course:?} from {state:?}");
            assert!(shared.0 > 0.0, "case {case}");
        }
    }

    #[test]
    fn what_is_left_of_two_courses_packs_alike_exactly_when_it_is_the_same_course() {
        // Short courses of few kinds of tile, so that many share what is left.
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let mut seen: Vec<(u128, Course, Course)> = Vec::new();
        for _ in 0..1500 {
            let mut course = random_course(&mut rng, 2);
            for path in &mut course.paths {
                for need in &mut path.1 {
                    need.1 = Terrain::Plains;
                }
            }
            let state: Vec<u8> =
                course.paths.iter().map(|(_, needs)| rng.random_range(0..=needs.len()) as u8).collect();
            let Some(rest) = course.rest(pack(&state)) else { continue };
            seen.push((rest, left_of(&course, &state), course));
        }
        let mut alike = 0;
        for (i, a) in seen.iter().enumerate() {
            for b in &seen[..i] {
                assert_eq!(a.0 == b.0, a.1 == b.1, "{:?} and {:?}", a.1, b.1);
                alike += usize::from(a.0 == b.0 && a.2 != b.2);
            }
        }
        assert!(alike > 100, "only {alike} pairs of courses leave the same course");
    }

    #[test]
    fn one_tile_takes_one_over_the_chance_a_roll_fits_it() {
        let content = Content::house();
        let course = Course { paths: vec![(None, vec![(TileKind::Curved, Terrain::Water)])] };
        // A roll fits when a track die shows a curve and a terrain die shows water or any.
        let mut fits = 0;
        let d = &content.dice;
        for a in d.track {
            for b in d.track {
                for g in d.terrain {
                    for h in d.terrain {
                        let roll = Roll { track: [a, b], terrain: [g, h] };
                        let ok = [false, true].iter().any(|&c| {
                            roll.slots(c).iter().any(|s| s.kind == TileKind::Curved && s.terrain.allows(Terrain::Water))
                        });
                        fits += u32::from(ok);
                    }
                }
            }
        }
        let expected = 1296.0 / f64::from(fits);
        assert!((expected_turns(&course, &content) - expected).abs() < 1e-9);
    }

    #[test]
    fn the_exact_value_agrees_with_simulation_on_random_courses() {
        let content = Content::house();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let kinds = [TileKind::Straight, TileKind::Curved];
        let terrains = [Terrain::Plains, Terrain::Mountain, Terrain::Water];
        for case in 0..12 {
            let mut paths = Vec::new();
            for p in 0..rng.random_range(1..=3usize) {
                let parent = if p > 0 && rng.random() { Some(rng.random_range(0..p)) } else { None };
                let needs = (0..rng.random_range(1..=4))
                    .map(|_| (kinds[rng.random_range(0..2)], terrains[rng.random_range(0..3)]))
                    .collect();
                paths.push((parent, needs));
            }
            let course = Course { paths };
            let exact = expected_turns(&course, &content);
            let (mean, se) = simulated(&course, &content, 4000, case);
            assert!(
                (exact - mean).abs() < 4.0 * se + 1e-9,
                "case {case}: exact {exact}, simulated {mean} ± {se}: {course:?}"
            );
        }
    }
}
