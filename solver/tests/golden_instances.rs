//! Seeds are forever: a seed gives the same instance on every machine, thread count and
//! version. These tests pin a few instances by a fingerprint of their full text.

use signalbox_engine::express01::catalogue::Catalogue;
use signalbox_engine::express01::network::Network;
use signalbox_engine::express01::position::{PositionSetup, SAMPLE_POSITION_JSON};
use signalbox_solver::express01::instances::{Synthetic, house_position, synthetic};

/// FNV-1a over a text: a fingerprint that does not depend on the platform.
fn fingerprint(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The whole network as text: every cell, track and station.
fn describe(network: &Network) -> String {
    let mut out = String::new();
    for cell in &network.cells {
        out.push_str(&format!("{} r{} x{}:", cell.label, cell.row, cell.x));
        for t in &cell.tracks {
            out.push_str(&format!(" {t}"));
        }
        for s in &cell.stations {
            out.push_str(&format!(" [{:?} {}]", s.company.map(|c| c.0), s.bonus));
        }
        out.push('\n');
    }
    out
}

#[test]
fn synthetic_networks_are_pinned() {
    let pinned: [(usize, u64, u64); 3] =
        [(50, 1, 0x2600_c730_ac86_37fe), (200, 7, 0xa207_62ba_1439_b717), (1000, 42, 0x91d1_4d3e_15fd_25fd)];
    let mut got = Vec::new();
    for (cards, seed, _) in pinned {
        got.push(fingerprint(&describe(&synthetic(Synthetic::new(cards), seed))));
    }
    let expected: Vec<u64> = pinned.iter().map(|p| p.2).collect();
    assert_eq!(got, expected, "a seed must keep giving the same synthetic network: {got:#x?}");
}

#[test]
fn house_positions_are_pinned() {
    let catalogue = Catalogue::house();
    let pinned: [(&str, u64, u64); 2] = [("germany", 5, 0x9d70_f70c_b213_4d4c), ("usa", 9, 0x0897_eb35_2baf_fbc4)];
    let mut got = Vec::new();
    for (map, seed, _) in pinned {
        let setup = house_position(&catalogue, map, 0.8, seed).expect("map exists");
        got.push(fingerprint(&serde_json::to_string(&setup).expect("serialises")));
    }
    let expected: Vec<u64> = pinned.iter().map(|p| p.2).collect();
    assert_eq!(got, expected, "a seed must keep giving the same position: {got:#x?}");
}

/// The embedded sample position was drawn from seed 202 (density 0.97) and then given names:
/// the generator must still draw the same board.
#[test]
fn the_sample_board_comes_from_its_seed() {
    let catalogue = Catalogue::house();
    let sample: PositionSetup = serde_json::from_str(SAMPLE_POSITION_JSON).expect("sample parses");
    let drawn = house_position(&catalogue, "germany", 0.97, 202).expect("map exists");
    let board = |s: &PositionSetup| s.board.iter().map(|p| (p.cell, p.card, p.turned)).collect::<Vec<_>>();
    assert_eq!(board(&drawn), board(&sample));
    let shares = |s: &PositionSetup| s.players.iter().map(|p| p.shares.clone()).collect::<Vec<_>>();
    assert_eq!(shares(&drawn), shares(&sample));
}
