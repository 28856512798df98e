//! `sente bench kernels`: what the learning player's kernel store costs per move as it grows,
//! the hash index against scanning every kernel (docs/sources.md, SEEDS 001's literal loop).

use std::time::Instant;

use crate::rules::Board;

use crate::rules::splitmix::splitmix64;

/// `sente bench kernels`: how the learned map's cost grows with the store. Kernels are cut from
/// real positions (rule-only self-play on 13x13, at random stones, marking random empty points
/// within 7), then the learned map is computed for 400 positions of other games, with the hash
/// index (anchored and free, exact and near) and with 001's literal loop (compare every kernel
/// at its place) for reference. Prints microseconds per move and matches found.
pub fn run() -> String {
    use crate::eval::learner::kernels::{Anchor, Kernel, KernelIndex, KernelStore, MatchOptions};
    use crate::players::learner::Learner;
    use crate::players::Player;
    use crate::rules::Color;
    use crate::study::kernels::play_game;
    use std::fmt::Write as _;

    // Positions at black's turns from seeded games.
    let positions = |first: u64, games: u64| -> Vec<Board> {
        let mut out = Vec::new();
        let (mut b, mut w) = (Learner::rule_only(), Learner::rule_only());
        for g in first..first + games {
            b.set_seed(2 * g);
            w.set_seed(2 * g + 1);
            let end = play_game(&mut b, &mut w);
            let mut pos = end.clone();
            while pos.stones() > 1 {
                pos.undo();
                if pos.to_move() == Color::Black {
                    out.push(pos.clone());
                }
            }
        }
        out
    };
    let source = positions(0, 2_000);
    let tests: Vec<Board> = positions(1_000_000, 40).into_iter().take(400).collect();
    let mut state = 0x6b62_656e_6368u64;
    let mut kernels = Vec::new();
    while kernels.len() < 100_000 {
        let b = &source[(splitmix64(&mut state) % source.len() as u64) as usize];
        let h = b.history();
        let centre = h[(splitmix64(&mut state) % h.len() as u64) as usize].0;
        let (cx, cy) = b.xy(centre);
        let dx = (splitmix64(&mut state) % 15) as i64 - 7;
        let dy = (splitmix64(&mut state) % 15) as i64 - 7;
        let Some(mark) = b
            .pos(cx as i64 + dx, cy as i64 + dy)
            .filter(|&p| b.is_empty(p))
        else {
            continue;
        };
        kernels.extend(Kernel::extract(b, centre, Color::Black, mark));
    }
    let mut t = String::new();
    let _ = writeln!(
        t,
        "learned-map cost per move over {} test positions (13x13); kernels cut from {} positions",
        tests.len(),
        source.len()
    );
    let _ = writeln!(
        t,
        "{:>8} {:>4} {:<26} {:>10} {:>12} {:>9}",
        "kernels", "K", "matching", "build ms", "us per move", "matches"
    );
    let mut values = vec![0i32; tests[0].array_len()];
    for &n in &[1_000usize, 10_000, 100_000] {
        let mut store = KernelStore::new();
        for k in &kernels[..n] {
            store.add(k.clone(), 1);
        }
        for size in [5usize, 15] {
            let variants = [
                ("hash, anchored, exact", Anchor::Board, false, 0),
                ("hash, anywhere, exact", Anchor::Anywhere, false, 0),
                ("hash, anchored, symmetry", Anchor::Board, true, 0),
                ("hash, anchored, near 2", Anchor::Board, false, 2),
            ];
            for (name, anchor, symmetry, near) in variants {
                let opts = MatchOptions {
                    size,
                    anchor,
                    symmetry,
                    near,
                    ..MatchOptions::default()
                };
                let t0 = Instant::now();
                let mut index = KernelIndex::build(opts, &store);
                let build = t0.elapsed();
                let t1 = Instant::now();
                let mut matches = 0;
                for b in &tests {
                    values.fill(0);
                    matches += index.add_learned(b, Color::Black, &mut values);
                }
                let per = t1.elapsed().as_secs_f64() * 1e6 / tests.len() as f64;
                let _ = writeln!(
                    t,
                    "{n:>8} {size:>4} {name:<26} {:>10.1} {per:>12.1} {matches:>9}",
                    build.as_secs_f64() * 1e3
                );
            }
            // 001's loop: every kernel compared with the board at its place.
            let r = (size / 2) as i64;
            let t1 = Instant::now();
            let mut matches = 0;
            for b in &tests {
                for e in store.entries() {
                    let k = &e.kernel;
                    if k.mark.0.abs() as i64 > r || k.mark.1.abs() as i64 > r {
                        continue;
                    }
                    let (cx, cy) = (k.centre.0 as i64, k.centre.1 as i64);
                    let same = (-r..=r).all(|dy| {
                        (-r..=r).all(|dx| {
                            let c = b.get(cx + dx, cy + dy);
                            let code = match c {
                                crate::rules::Cell::Empty => 0,
                                crate::rules::Cell::Black => 1,
                                crate::rules::Cell::White => 2,
                                crate::rules::Cell::Wall => 3,
                            };
                            k.cell(dx, dy) == code
                        })
                    });
                    // A kernel learned n times is n of 001's data.
                    matches += if same { e.count as usize } else { 0 };
                }
            }
            let per = t1.elapsed().as_secs_f64() * 1e6 / tests.len() as f64;
            let _ = writeln!(
                t,
                "{n:>8} {size:>4} {:<26} {:>10} {per:>12.1} {matches:>9}",
                "scan every kernel (001)", "-"
            );
        }
    }
    t
}
