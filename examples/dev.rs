use sente::arena::selfplay::*;
use sente::rules::{Board, Rule};
use sente::search::clock::SearchLimit;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args[1].as_str() {
        "bench" => {
            let d: u32 = args[2].parse().unwrap();
            println!("{}", sente::bench::run_gomoku(d));
        }
        "losses" => {
            let cfg = MatchConfig {
                levels: ["strong".into(), "classic".into()],
                games: args[2].parse().unwrap(),
                limit: SearchLimit::move_time(100),
                seed: 1,
                ..MatchConfig::default()
            };
            let rep = run_match(&cfg, &mut |_| {}).unwrap();
            for g in rep.games.iter() {
                if g.first_points() < 1.0 {
                    println!("{}", g);
                    let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
                    let all: Vec<_> = g.opening.iter().chain(g.moves.iter()).collect();
                    for (i, &&(x, y)) in all.iter().enumerate() {
                        b.play(b.pos(x as i64, y as i64).unwrap()).unwrap();
                        if i + 1 >= g.opening.len() {}
                    }
                    println!("opening {:?}\nmoves {:?}", g.opening, g.moves);
                    println!("{}", b.to_text());
                }
            }
        }
        "analyse" => {
            // analyse ms x,y x,y ...
            let ms: u64 = args[2].parse().unwrap();
            let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
            for m in &args[3..] {
                let (x, y) = m.split_once(',').unwrap();
                b.play(b.pos(x.parse().unwrap(), y.parse().unwrap()).unwrap())
                    .unwrap();
            }
            println!("{}", b.to_text());
            let stop = std::sync::atomic::AtomicBool::new(false);
            let tm = sente::search::clock::TimeManager::new(
                &SearchLimit::move_time(ms),
                std::time::Instant::now(),
                &stop,
            );
            let mut p = sente::players::gomoku_player("strong", 0).unwrap();
            let mut req = sente::players::MoveRequest {
                tm: &tm,
                nbest: 1,
                report: &mut |i: &sente::players::SearchInfo| {
                    let pv: Vec<_> = i.pv.iter().map(|&q| b.xy(q)).collect();
                    println!(
                        "d{} sd{} score {} mate {:?} nodes {} {:?} pv {:?}",
                        i.depth, i.seldepth, i.score, i.mate, i.nodes, i.elapsed, pv
                    );
                },
            };
            let m = p.choose(&b, &mut req).unwrap();
            println!("best {:?}", b.xy(m));
        }
        _ => {}
    }
}
