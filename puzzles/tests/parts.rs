//! A collection made in parts (`puzzles make --shard K/N`): the parts' outcomes, walked by
//! candidate index, keep exactly what one walk keeps, on random outcomes and requests (filters,
//! per-difficulty caps, candidate limits), whatever the number of parts and wherever a part is
//! resumed. The reference is the plain walk of `make`, which knows nothing of parts.

use std::collections::BTreeMap;

use proptest::prelude::*;
use signalbox_puzzles::collection::{Outcome, Request, make_one, walk, walk_part, walk_parts};
use signalbox_puzzles::{Difficulty, Puzzle, find};

/// A real puzzle, to be dressed as the synthetic outcomes need.
fn base() -> Puzzle {
    let kind = find("coe-max").expect("the kind");
    (0..200).find_map(|c| make_one(kind, c, 1.0).ok()).expect("a puzzle among 200 candidates")
}

/// Candidate `i`'s outcome: code 0 and 1 are rejections, 2.. a puzzle of a difficulty and themes.
fn dress(base: &Puzzle, i: u64, code: u8) -> Outcome {
    match code % 8 {
        0 => Err("two answers tie".into()),
        1 => Err("margin too small".into()),
        c => {
            let mut p = base.clone();
            p.id = format!("synthetic-{i}");
            p.grade.difficulty = Difficulty::ALL[usize::from(c) % 3];
            p.themes =
                ["a", "b"].iter().filter(|_| c >= 5).take(usize::from(c) % 2 + 1).map(|t| t.to_string()).collect();
            Ok(p)
        }
    }
}

fn request() -> impl Strategy<Value = Request> {
    (1usize..6, 0u64..90, proptest::option::of(0usize..3), proptest::bool::ANY, proptest::option::of(1usize..3))
        .prop_map(|(count, max_candidates, difficulty, theme, per_difficulty)| Request {
            count,
            seed: 1,
            difficulty: difficulty.map(|d| Difficulty::ALL[d]),
            theme: theme.then(|| "a".to_string()),
            margin: Some(1.0),
            max_candidates,
            per_difficulty,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn parts_make_the_collection_one_walk_makes(
        codes in proptest::collection::vec(any::<u8>(), 0..90),
        request in request(),
        parts in 1u64..5,
        cut in 0usize..40,
    ) {
        let base = base_puzzle();
        let outcome = |i: u64| dress(base, i, codes.get(i as usize).copied().unwrap_or(0));
        let kind = find("coe-max").expect("the kind");
        let whole = walk(&request, &outcome, &|_| {}).finish(kind);
        let mut all: BTreeMap<u64, Outcome> = BTreeMap::new();
        for part in 1..=parts {
            let mut made: Vec<(u64, Outcome)> = Vec::new();
            let kept = walk_part(&request, (part, parts), Vec::new(), &outcome, &mut |i, o| {
                made.push((i, o.clone()));
                Ok::<(), ()>(())
            }, &|_| {}).expect("no sink error");
            prop_assert!(kept <= request.count);
            for (i, _) in &made {
                prop_assert_eq!(i % parts, part - 1, "a candidate of another part");
                prop_assert!(*i < request.max_candidates);
            }
            // Resumed after `cut` outcomes, the part goes on with the same candidates.
            let cut = cut.min(made.len());
            let mut rest = Vec::new();
            let again = walk_part(&request, (part, parts), made[..cut].to_vec(), &outcome, &mut |i, o| {
                rest.push((i, o.clone()));
                Ok::<(), ()>(())
            }, &|_| {}).expect("no sink error");
            prop_assert_eq!(again, kept);
            prop_assert_eq!(&rest, &made[cut..].to_vec());
            all.extend(made);
        }
        let merged = walk_parts(&request, &all).map(|a| a.finish(kind));
        prop_assert_eq!(merged, Ok(whole));
    }
}

/// The base puzzle, made once.
fn base_puzzle() -> &'static Puzzle {
    static BASE: std::sync::OnceLock<Puzzle> = std::sync::OnceLock::new();
    BASE.get_or_init(base)
}

#[test]
fn a_missing_part_is_named_by_its_first_candidate() {
    let request = Request {
        count: 3,
        seed: 1,
        difficulty: None,
        theme: None,
        margin: Some(1.0),
        max_candidates: 50,
        per_difficulty: None,
    };
    let base = base_puzzle();
    let outcome = |i: u64| dress(base, i, if i.is_multiple_of(4) { 2 } else { 0 });
    let mut all = BTreeMap::new();
    // Parts 1 and 3 of 3; part 2 (candidates 1, 4, 7, ...) missing.
    for part in [1, 3] {
        walk_part(
            &request,
            (part, 3),
            Vec::new(),
            &outcome,
            &mut |i, o| {
                all.insert(i, o.clone());
                Ok::<(), ()>(())
            },
            &|_| {},
        )
        .expect("no sink error");
    }
    assert_eq!(walk_parts(&request, &all).err(), Some(1));
}
