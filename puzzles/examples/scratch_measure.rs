use std::collections::BTreeMap;
use std::time::Instant;
use signalbox_puzzles::{collection, find};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = find(&args[1]).unwrap();
    let n: u64 = args[2].parse().unwrap();
    let t0 = Instant::now();
    let mut kept = 0; let mut reasons = BTreeMap::new(); let mut diffs = BTreeMap::new(); let mut themes = BTreeMap::new();
    let mut simple = 0; let mut maxt = 0.0f64;
    for i in 0..n {
        let c = collection::candidate_number(1, i);
        let t = Instant::now();
        match collection::make_one(kind, c, 1.0) {
            Ok(p) => { kept += 1; *diffs.entry(p.grade.difficulty.name()).or_insert(0) += 1;
                for th in &p.themes { *themes.entry(th.clone()).or_insert(0) += 1; }
                if kind.simple_finds(&p.position).unwrap() { simple += 1; }
                if args.len() > 3 { println!("R {} {:?} {:?}", p.grade.rating, p.grade.factors, p.themes); }
            }
            Err(r) => { if let collection::Rejected::Failed(e) = &r { eprintln!("{c}: {e}"); } *reasons.entry(r.reason()).or_insert(0) += 1; }
        }
        maxt = maxt.max(t.elapsed().as_secs_f64());
    }
    let s = t0.elapsed().as_secs_f64();
    println!("candidates {n} kept {kept} secs {s:.1} per kept {:.3} max one {maxt:.3}", s / kept.max(1) as f64);
    println!("rejected {reasons:?}"); println!("difficulties {diffs:?}"); println!("themes {themes:?}"); println!("simple finds {simple}");
}
