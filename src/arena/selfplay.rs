//! In-process level-vs-level gomoku matches: generated openings, the referee, worker threads and
//! the match report.
//!
//! Each opening is played twice with colours swapped, so first-move advantage and opening luck
//! cancel within a pair. Openings are 2 to 4 stones (by default) put alternately, black first,
//! on random points of a central square; an opening is redrawn while it is illegal under the
//! rule, or leaves a five-in-one or a window with three stones of one colour and none of the
//! other (no side starts with a threat). Openings and every player seed derive from the match
//! seed alone, so with a node limit a match replays exactly whatever the concurrency.
//!
//! The runner is the referee: every move goes through [`Board::play`]; an illegal point, no
//! move, or a panic inside the player loses the game; [`Board::winner`] ends it; a full board or
//! the move limit is a draw. Think time is recorded, not enforced (on a shared machine it is
//! too noisy to forfeit on); players see the limit through their [`TimeManager`].

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::stats::{elo_estimate, los, Wdl};
use crate::eval::window::WINDOW;
use crate::players::{gomoku_player, GomokuPlayer, MoveRequest, SearchInfo};
use crate::rules::mnk::splitmix64;
use crate::rules::{Board, Cell, Color, MoveError, Rule};
use crate::search::clock::{SearchLimit, TimeManager};

/// What to play. The CLI maps onto it as follows:
///
/// | flag                     | field                                                  |
/// |--------------------------|--------------------------------------------------------|
/// | `--game gomoku`          | (the only game this runner plays; refuse others)       |
/// | `--levels A B`           | `levels: [A, B]` (`A` is the side the report scores)   |
/// | `--games N`              | `games` (rounded up to an even number: pairs)          |
/// | `--nodes N`              | `limit.nodes = Some(N)` ([`SearchLimit::nodes`])        |
/// | `--movetime MS`          | `limit.clock.turn_ms = Some(MS)` ([`SearchLimit::move_time`]) |
/// | `--size S` / `--size WxH`| `width`, `height`                                      |
/// | `--rule R`               | `rule` via [`Rule::from_name`]                         |
/// | `--seed S`               | `seed`                                                 |
/// | `--concurrency C`        | `concurrency` (threads; each game owns its players)    |
///
/// With neither `--nodes` nor `--movetime` a limit must still be chosen by the CLI (an
/// unlimited search may never end for levels that deepen iteratively).
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two levels, as accepted by [`gomoku_player`]. Results are reported for the first.
    pub levels: [String; 2],
    /// Games to play; an odd number is rounded up so every opening is played with both colours.
    pub games: usize,
    /// Per-move limit handed to each player.
    pub limit: SearchLimit,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Rule in force.
    pub rule: Rule,
    /// Seed for openings and players.
    pub seed: u64,
    /// Games played at once (at least 1).
    pub concurrency: usize,
    /// Fewest and most stones in a generated opening.
    pub opening_stones: (usize, usize),
    /// Moves after the opening before the game is called a draw; `None`: play until full.
    pub max_moves: Option<usize>,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            levels: ["classic".to_string(), "classic".to_string()],
            games: 2,
            limit: SearchLimit::nodes(20_000),
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            seed: 0,
            concurrency: 1,
            opening_stones: (2, 4),
            max_moves: None,
        }
    }
}

/// Why a match could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// No player has this level name.
    UnknownLevel(String),
    /// The board size is outside what the rules accept.
    BadSize(usize, usize),
    /// No legal threat-free opening fits the board.
    NoOpening,
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::UnknownLevel(l) => write!(f, "unknown gomoku level '{l}'"),
            MatchError::BadSize(w, h) => write!(f, "unsupported board size {w}x{h}"),
            MatchError::NoOpening => write!(f, "could not generate an opening for this board"),
        }
    }
}

impl std::error::Error for MatchError {}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Black won.
    BlackWins,
    /// White won.
    WhiteWins,
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The winning colour, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::BlackWins => Some(Color::Black),
            Outcome::WhiteWins => Some(Color::White),
            Outcome::Draw => None,
        }
    }
    fn win_for(c: Color) -> Outcome {
        match c {
            Color::Black => Outcome::BlackWins,
            Color::White => Outcome::WhiteWins,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// A winning line.
    Five,
    /// The loser named a point the rules refuse.
    IllegalMove(MoveError),
    /// The loser returned no move while legal points remained.
    NoMove,
    /// The loser's player panicked.
    Crashed,
    /// No empty point left.
    BoardFull,
    /// [`MatchConfig::max_moves`] reached.
    MoveLimit,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::Five => write!(f, "five"),
            EndReason::IllegalMove(e) => write!(f, "illegal move: {e}"),
            EndReason::NoMove => write!(f, "no move"),
            EndReason::Crashed => write!(f, "player crashed"),
            EndReason::BoardFull => write!(f, "board full"),
            EndReason::MoveLimit => write!(f, "move limit"),
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// 0-based game number in the match.
    pub index: usize,
    /// Which opening (games `2k` and `2k + 1` share opening `k`).
    pub pair: usize,
    /// Level playing black.
    pub black: String,
    /// Level playing white.
    pub white: String,
    /// Whether `levels[0]` had black.
    pub first_is_black: bool,
    /// The opening stones, (x, y), black first and alternating.
    pub opening: Vec<(usize, usize)>,
    /// The moves played after the opening, (x, y).
    pub moves: Vec<(usize, usize)>,
    /// The result.
    pub outcome: Outcome,
    /// Why the game ended.
    pub reason: EndReason,
    /// Longest think of black and of white.
    pub max_think: [Duration; 2],
    /// Total think of black and of white.
    pub total_think: [Duration; 2],
}

impl GameRecord {
    /// Points for `levels[0]`: 1, 1/2 or 0.
    pub fn first_points(&self) -> f64 {
        match self.outcome.winner() {
            None => 0.5,
            Some(Color::Black) if self.first_is_black => 1.0,
            Some(Color::White) if !self.first_is_black => 1.0,
            Some(_) => 0.0,
        }
    }
    /// The result for `levels[0]` as counts of one game.
    pub fn first_wdl(&self) -> Wdl {
        match self.first_points() {
            p if p > 0.75 => Wdl::new(1, 0, 0),
            p if p < 0.25 => Wdl::new(0, 1, 0),
            _ => Wdl::new(0, 0, 1),
        }
    }
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let result = match self.outcome {
            Outcome::BlackWins => "1-0",
            Outcome::WhiteWins => "0-1",
            Outcome::Draw => "1/2",
        };
        write!(
            f,
            "game {:>3} (opening {:>2}): {} (black) vs {} (white): {} by {} after {} moves",
            self.index + 1,
            self.pair + 1,
            self.black,
            self.white,
            result,
            self.reason,
            self.opening.len() + self.moves.len()
        )
    }
}

/// A finished match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// What was played.
    pub config: MatchConfig,
    /// Every game, in game order.
    pub games: Vec<GameRecord>,
    /// Wall time of the whole match.
    pub elapsed: Duration,
}

impl MatchReport {
    /// Results for `levels[0]` over all games.
    pub fn first_wdl(&self) -> Wdl {
        self.wdl_where(|_| true)
    }
    /// Results for `levels[0]` in the games where it had `color`.
    pub fn first_wdl_as(&self, color: Color) -> Wdl {
        self.wdl_where(|g| g.first_is_black == (color == Color::Black))
    }
    fn wdl_where(&self, keep: impl Fn(&GameRecord) -> bool) -> Wdl {
        let mut w = Wdl::default();
        for g in self.games.iter().filter(|g| keep(g)) {
            w += g.first_wdl();
        }
        w
    }
    /// Games won by black, won by white, drawn.
    pub fn by_colour(&self) -> (usize, usize, usize) {
        let count = |o| self.games.iter().filter(|g| g.outcome == o).count();
        (
            count(Outcome::BlackWins),
            count(Outcome::WhiteWins),
            count(Outcome::Draw),
        )
    }
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        let limit = match (c.limit.nodes, c.limit.clock.turn_ms) {
            (Some(n), Some(ms)) => format!("{n} nodes or {ms} ms per move"),
            (Some(n), None) => format!("{n} nodes per move"),
            (None, Some(ms)) => format!("{ms} ms per move"),
            (None, None) => "no limit".to_string(),
        };
        writeln!(
            f,
            "{} vs {}: {} games, {}x{} {}, {}, seed {}, {:.1} s",
            c.levels[0],
            c.levels[1],
            self.games.len(),
            c.width,
            c.height,
            c.rule.name(),
            limit,
            c.seed,
            self.elapsed.as_secs_f64()
        )?;
        let name_w = c.levels[0].len().max(10);
        writeln!(
            f,
            "{:<name_w$}  {:>5}  {:>5}  {:>6}  {:>5}  {:>6}",
            "", "games", "wins", "losses", "draws", "score"
        )?;
        let rows = [
            (c.levels[0].clone(), self.first_wdl()),
            ("  as black".to_string(), self.first_wdl_as(Color::Black)),
            ("  as white".to_string(), self.first_wdl_as(Color::White)),
        ];
        for (label, w) in rows {
            let score = w
                .score()
                .map_or("-".to_string(), |s| format!("{:.1}%", s * 100.0));
            writeln!(
                f,
                "{:<name_w$}  {:>5}  {:>5}  {:>6}  {:>5}  {:>6}",
                label,
                w.games(),
                w.wins,
                w.losses,
                w.draws,
                score
            )?;
        }
        let total = self.first_wdl();
        if let Some(e) = elo_estimate(&total) {
            writeln!(
                f,
                "Elo {} - {}: {}  LOS {:.1}%",
                c.levels[0],
                c.levels[1],
                e,
                los(&total) * 100.0
            )?;
        }
        let (bw, ww, dr) = self.by_colour();
        writeln!(
            f,
            "black won {bw}, white won {ww}, drawn {dr}; mean length {:.1} moves",
            mean(
                self.games
                    .iter()
                    .map(|g| (g.opening.len() + g.moves.len()) as f64)
            )
        )?;
        let mut reasons: Vec<(String, usize)> = Vec::new();
        for g in &self.games {
            let r = g.reason.to_string();
            match reasons.iter_mut().find(|(name, _)| *name == r) {
                Some(e) => e.1 += 1,
                None => reasons.push((r, 1)),
            }
        }
        let ends: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
        writeln!(f, "endings: {}", ends.join(", "))?;
        let longest = self
            .games
            .iter()
            .flat_map(|g| g.max_think)
            .max()
            .unwrap_or_default();
        write!(f, "longest think {} ms", longest.as_millis())
    }
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// Plays the match described by `cfg`, calling `progress` on the calling thread after each
/// game (in finishing order). Games run on up to `cfg.concurrency` threads.
pub fn run_match(
    cfg: &MatchConfig,
    progress: &mut dyn FnMut(&GameRecord),
) -> Result<MatchReport, MatchError> {
    let started = Instant::now();
    for level in &cfg.levels {
        if gomoku_player(level, 0).is_none() {
            return Err(MatchError::UnknownLevel(level.clone()));
        }
    }
    if Board::new(cfg.width, cfg.height, cfg.rule).is_err() {
        return Err(MatchError::BadSize(cfg.width, cfg.height));
    }
    let pairs = cfg.games.div_ceil(2);
    let mut opening_rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut openings = Vec::with_capacity(pairs);
    for _ in 0..pairs {
        openings.push(generate_opening(cfg, &mut opening_rng).ok_or(MatchError::NoOpening)?);
    }
    let jobs = pairs * 2;
    let next = AtomicUsize::new(0);
    let mut records: Vec<GameRecord> = Vec::with_capacity(jobs);
    let (tx, rx) = mpsc::channel::<GameRecord>();
    thread::scope(|scope| {
        let (next, openings) = (&next, &openings);
        let worker = move |tx: mpsc::Sender<GameRecord>| loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= jobs {
                break;
            }
            if tx.send(play_pair_game(cfg, i, &openings[i / 2])).is_err() {
                break;
            }
        };
        let mut spawned = 0;
        for _ in 0..cfg.concurrency.clamp(1, jobs.max(1)) {
            let tx = tx.clone();
            if thread::Builder::new()
                .name("arena".into())
                .spawn_scoped(scope, move || worker(tx))
                .is_ok()
            {
                spawned += 1;
            }
        }
        if spawned == 0 {
            // No thread could be made: play everything here.
            worker(tx.clone());
        }
        drop(tx);
        for rec in rx {
            progress(&rec);
            records.push(rec);
        }
    });
    records.sort_by_key(|g| g.index);
    Ok(MatchReport {
        config: cfg.clone(),
        games: records,
        elapsed: started.elapsed(),
    })
}

/// Game `index` of the match: opening `index / 2`, `levels[0]` black in even games.
fn play_pair_game(cfg: &MatchConfig, index: usize, opening: &[(usize, usize)]) -> GameRecord {
    let first_is_black = index.is_multiple_of(2);
    let (black_level, white_level) = if first_is_black {
        (&cfg.levels[0], &cfg.levels[1])
    } else {
        (&cfg.levels[1], &cfg.levels[0])
    };
    let mut state = cfg.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let black = gomoku_player(black_level, splitmix64(&mut state));
    let white = gomoku_player(white_level, splitmix64(&mut state));
    let mut rec = play_game(cfg, opening, [black, white]);
    rec.index = index;
    rec.pair = index / 2;
    rec.black = black_level.clone();
    rec.white = white_level.clone();
    rec.first_is_black = first_is_black;
    rec
}

/// Referees one game from `opening` between `players` (black, white). A missing player loses at
/// its first turn. Fills everything but the match bookkeeping (index, names, seats).
pub fn play_game(
    cfg: &MatchConfig,
    opening: &[(usize, usize)],
    mut players: [Option<Box<dyn GomokuPlayer>>; 2],
) -> GameRecord {
    let mut rec = GameRecord {
        index: 0,
        pair: 0,
        black: String::new(),
        white: String::new(),
        first_is_black: true,
        opening: opening.to_vec(),
        moves: Vec::new(),
        outcome: Outcome::Draw,
        reason: EndReason::BoardFull,
        max_think: [Duration::ZERO; 2],
        total_think: [Duration::ZERO; 2],
    };
    let mut board = match Board::new(cfg.width, cfg.height, cfg.rule) {
        Ok(b) => b,
        Err(_) => {
            rec.reason = EndReason::BoardFull;
            return rec;
        }
    };
    for &(x, y) in opening {
        let ok = board
            .pos(x as i64, y as i64)
            .is_some_and(|p| board.play(p).is_ok());
        if !ok {
            // Openings come from `generate_opening`, which plays them the same way; a caller's
            // bad opening ends the game as a draw rather than a panic.
            rec.reason = EndReason::IllegalMove(MoveError::OffBoard);
            return rec;
        }
    }
    for p in players.iter_mut().flatten() {
        p.new_game();
    }
    loop {
        if let Some(c) = board.winner() {
            rec.outcome = Outcome::win_for(c);
            rec.reason = EndReason::Five;
            return rec;
        }
        if board.is_full() {
            rec.reason = EndReason::BoardFull;
            return rec;
        }
        if cfg.max_moves.is_some_and(|m| rec.moves.len() >= m) {
            rec.reason = EndReason::MoveLimit;
            return rec;
        }
        let side = board.to_move();
        let loss = |reason| (Outcome::win_for(side.opponent()), reason);
        let Some(player) = players[side.index()].as_mut() else {
            (rec.outcome, rec.reason) = loss(EndReason::NoMove);
            return rec;
        };
        let stop = AtomicBool::new(false);
        let t0 = Instant::now();
        let tm = TimeManager::new(&cfg.limit, t0, &stop);
        let mut sink = |_: &SearchInfo| {};
        let answer = catch_unwind(AssertUnwindSafe(|| {
            let mut req = MoveRequest {
                tm: &tm,
                nbest: 1,
                report: &mut sink,
            };
            player.choose(&board, &mut req)
        }));
        let think = t0.elapsed();
        rec.max_think[side.index()] = rec.max_think[side.index()].max(think);
        rec.total_think[side.index()] += think;
        let p = match answer {
            Err(_) => {
                (rec.outcome, rec.reason) = loss(EndReason::Crashed);
                return rec;
            }
            Ok(None) => {
                (rec.outcome, rec.reason) = loss(EndReason::NoMove);
                return rec;
            }
            Ok(Some(p)) => p,
        };
        if let Err(e) = board.play(p) {
            (rec.outcome, rec.reason) = loss(EndReason::IllegalMove(e));
            return rec;
        }
        rec.moves.push(board.xy(p));
    }
}

/// A legal, threat-free opening of `cfg.opening_stones` stones in the central square, or `None`
/// when none was found (tiny boards with large stone counts).
pub fn generate_opening(cfg: &MatchConfig, rng: &mut ChaCha8Rng) -> Option<Vec<(usize, usize)>> {
    let (w, h) = (cfg.width, cfg.height);
    let mut board = Board::new(w, h, cfg.rule).ok()?;
    let centre = board.xy(board.centre());
    let r = (w.min(h) / 6).max(1);
    let x0 = centre.0.saturating_sub(r);
    let y0 = centre.1.saturating_sub(r);
    let x1 = (centre.0 + r).min(w - 1);
    let y1 = (centre.1 + r).min(h - 1);
    let area = (x1 - x0 + 1) * (y1 - y0 + 1);
    let lo = cfg.opening_stones.0.min(cfg.opening_stones.1);
    let hi = cfg.opening_stones.0.max(cfg.opening_stones.1).min(area);
    let lo = lo.min(hi);
    'attempt: for _ in 0..1000 {
        while board.undo().is_some() {}
        let n = rng.gen_range(lo..=hi);
        let mut stones = Vec::with_capacity(n);
        while stones.len() < n {
            let x = rng.gen_range(x0..=x1);
            let y = rng.gen_range(y0..=y1);
            let Some(p) = board.pos(x as i64, y as i64) else {
                continue 'attempt;
            };
            if !board.is_empty(p) {
                continue;
            }
            if board.play(p).is_err() {
                continue 'attempt;
            }
            stones.push((x, y));
        }
        if threat_free(&board) {
            return Some(stones);
        }
    }
    None
}

/// No winner, no five-in-one for either side, and no 5-cell window holding three or more stones
/// of one colour and none of the other.
fn threat_free(board: &Board) -> bool {
    if board.winner().is_some() {
        return false;
    }
    for p in board.points() {
        if board.is_empty(p)
            && (board.makes_win(p, Color::Black) || board.makes_win(p, Color::White))
        {
            return false;
        }
        for dir in board.dirs() {
            let (mut black, mut white) = (0, 0);
            for i in 0..WINDOW as isize {
                match board.cell(p.step(dir, i)) {
                    Cell::Black => black += 1,
                    Cell::White => white += 1,
                    Cell::Wall => {
                        black = 0;
                        white = 0;
                        break;
                    }
                    Cell::Empty => {}
                }
            }
            if (black >= 3 && white == 0) || (white >= 3 && black == 0) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Pos;

    fn tiny(games: usize, concurrency: usize) -> MatchConfig {
        MatchConfig {
            games,
            limit: SearchLimit::nodes(300),
            width: 9,
            height: 9,
            seed: 5,
            concurrency,
            ..MatchConfig::default()
        }
    }

    #[test]
    fn a_short_classic_match_finishes_and_adds_up() {
        let cfg = tiny(5, 2);
        let mut seen = 0;
        let report = run_match(&cfg, &mut |_| seen += 1).unwrap();
        assert_eq!(seen, 6, "5 games round up to 3 pairs");
        assert_eq!(report.games.len(), 6);
        for (i, g) in report.games.iter().enumerate() {
            assert_eq!(g.index, i);
            assert_eq!(g.pair, i / 2);
            assert_eq!(g.first_is_black, i % 2 == 0);
            assert!(!g.moves.is_empty());
            assert!(matches!(
                g.reason,
                EndReason::Five | EndReason::BoardFull | EndReason::MoveLimit
            ));
        }
        let w = report.first_wdl();
        assert_eq!(w.games() as usize, report.games.len());
        let b = report.first_wdl_as(Color::Black);
        let wh = report.first_wdl_as(Color::White);
        assert_eq!(b.games() + wh.games(), w.games());
        assert_eq!(b.wins + wh.wins, w.wins);
        let (bw, ww, dr) = report.by_colour();
        assert_eq!(bw + ww + dr, report.games.len());
        let points: f64 = report.games.iter().map(|g| g.first_points()).sum();
        assert_eq!(points, w.points());
        let text = report.to_string();
        assert!(text.contains("classic vs classic"));
        assert!(text.contains("as black"));
    }

    #[test]
    fn colours_alternate_and_a_pair_shares_its_opening() {
        let cfg = MatchConfig {
            levels: ["classic".into(), "strong".into()],
            ..tiny(4, 1)
        };
        let report = run_match(&cfg, &mut |_| {}).unwrap();
        for pair in report.games.chunks(2) {
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(pair[0].black, "classic");
            assert_eq!(pair[0].white, "strong");
            assert_eq!(pair[1].black, "strong");
            assert_eq!(pair[1].white, "classic");
            assert!((2..=4).contains(&pair[0].opening.len()));
        }
        assert_ne!(report.games[0].opening, report.games[2].opening);
    }

    #[test]
    fn node_limited_matches_replay_exactly_at_any_concurrency() {
        let one = run_match(&tiny(4, 1), &mut |_| {}).unwrap();
        let two = run_match(&tiny(4, 2), &mut |_| {}).unwrap();
        let moves = |r: &MatchReport| -> Vec<Vec<(usize, usize)>> {
            r.games.iter().map(|g| g.moves.clone()).collect()
        };
        assert_eq!(moves(&one), moves(&two));
    }

    #[test]
    fn openings_are_legal_central_and_threat_free() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            for (w, h) in [(15, 15), (20, 20), (5, 5), (6, 19)] {
                let cfg = MatchConfig {
                    width: w,
                    height: h,
                    rule,
                    ..MatchConfig::default()
                };
                let mut rng = ChaCha8Rng::seed_from_u64(9);
                for _ in 0..20 {
                    let op = generate_opening(&cfg, &mut rng).unwrap();
                    let mut b = Board::new(w, h, rule).unwrap();
                    for &(x, y) in &op {
                        b.play(b.pos(x as i64, y as i64).unwrap()).unwrap();
                    }
                    assert!(threat_free(&b));
                    let (cx, cy) = b.xy(b.centre());
                    let r = (w.min(h) / 6).max(1);
                    for &(x, y) in &op {
                        assert!(x.abs_diff(cx) <= r && y.abs_diff(cy) <= r);
                    }
                }
            }
        }
    }

    #[test]
    fn the_referee_punishes_illegal_and_missing_moves_and_stops_at_the_limit() {
        struct Occupier;
        impl GomokuPlayer for Occupier {
            fn name(&self) -> &'static str {
                "occupier"
            }
            fn choose(&mut self, board: &Board, _: &mut MoveRequest<'_, '_>) -> Option<Pos> {
                board.last_move()
            }
        }
        struct Crasher;
        impl GomokuPlayer for Crasher {
            fn name(&self) -> &'static str {
                "crasher"
            }
            fn choose(&mut self, _: &Board, _: &mut MoveRequest<'_, '_>) -> Option<Pos> {
                panic!("deliberate test panic")
            }
        }
        let cfg = tiny(2, 1);
        let opening = [(4, 4), (4, 5)];
        let rec = play_game(
            &cfg,
            &opening,
            [Some(Box::new(Occupier)), gomoku_player("classic", 1)],
        );
        assert_eq!(rec.outcome, Outcome::WhiteWins);
        assert_eq!(rec.reason, EndReason::IllegalMove(MoveError::Occupied));
        let rec = play_game(&cfg, &opening, [gomoku_player("classic", 1), None]);
        assert_eq!(rec.outcome, Outcome::BlackWins);
        assert_eq!(rec.reason, EndReason::NoMove);
        assert_eq!(rec.moves.len(), 1);
        let rec = play_game(
            &cfg,
            &opening,
            [gomoku_player("classic", 1), Some(Box::new(Crasher))],
        );
        assert_eq!(rec.outcome, Outcome::BlackWins);
        assert_eq!(rec.reason, EndReason::Crashed);
        let limited = MatchConfig {
            max_moves: Some(3),
            ..tiny(2, 1)
        };
        let rec = play_game(
            &limited,
            &opening,
            [gomoku_player("classic", 1), gomoku_player("classic", 2)],
        );
        assert_eq!(rec.outcome, Outcome::Draw);
        assert_eq!(rec.reason, EndReason::MoveLimit);
        assert_eq!(rec.moves.len(), 3);
    }

    #[test]
    fn bad_configurations_are_errors() {
        let cfg = MatchConfig {
            levels: ["classic".into(), "nonesuch".into()],
            ..MatchConfig::default()
        };
        assert_eq!(
            run_match(&cfg, &mut |_| {}).unwrap_err(),
            MatchError::UnknownLevel("nonesuch".into())
        );
        let cfg = MatchConfig {
            width: 40,
            ..MatchConfig::default()
        };
        assert_eq!(
            run_match(&cfg, &mut |_| {}).unwrap_err(),
            MatchError::BadSize(40, 15)
        );
        let cfg = MatchConfig {
            games: 0,
            ..MatchConfig::default()
        };
        let report = run_match(&cfg, &mut |_| {}).unwrap();
        assert!(report.games.is_empty());
        assert!(!report.to_string().is_empty());
    }
}
