//! What a tournament prints: the results table (W/L/D, score, Elo difference with its 95%
//! interval, likelihood of superiority) per pairing and per engine, how games ended, and the
//! SPRT's state; plus one SGF per game and a PGN-style summary that BayesElo and Ordo read.
//!
//! PGN convention: the first player (black in gomoku and Go) is written as PGN's `White`, so
//! `1-0` means the first player won and a rating tool's "white advantage" is the first-move
//! advantage.

use std::fmt;

use super::coords::Mv;
use super::engine::GameSetup;
use super::manifest::GameName;
use super::referee::EndReason;
use super::stats::{elo_estimate, fmt_elo, los, SprtDecision};
use super::tournament::{Entrant, GameRecord, TournamentReport};
use crate::rules::notation::{gtp_vertex, renju_name};
use crate::rules::sgf_write::{self, escape};
use crate::rules::{Color, Outcome};

/// Games lost by a fault that the table lists one by one.
const FAULTS_SHOWN: usize = 8;

fn score_text(w: &super::stats::Wdl) -> String {
    w.score()
        .map_or("-".to_string(), |s| format!("{:.1}%", s * 100.0))
}

impl fmt::Display for TournamentReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_setup(f)?;
        self.write_commands(f)?;
        self.write_table(f)?;
        self.write_endings(f)?;
        self.write_thinks(f)?;
        self.write_sprt(f)
    }
}

impl TournamentReport {
    /// The first line: game, board, time control, games played and planned.
    fn write_setup(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        let s = &c.setup;
        let rule = match s.game {
            GameName::Gomoku => format!(" {}", s.rule.name()),
            GameName::Go if s.handicap > 0 => format!(" komi {} handicap {}", s.komi, s.handicap),
            GameName::Go => format!(" komi {}", s.komi),
            _ => String::new(),
        };
        // A node budget rules where it is set: the clock is then only a backstop.
        let budgets: Vec<Option<u64>> = self
            .config
            .commands
            .iter()
            .map(|c| Entrant::node_budget(c))
            .collect();
        let budget = if budgets.iter().any(Option::is_some) {
            let each: Vec<String> = self
                .names
                .iter()
                .zip(&budgets)
                .map(|(name, b)| match b {
                    Some(n) => format!("{name} {n} nodes"),
                    None => format!("{name} the clock"),
                })
                .collect();
            format!("per move {}; clock", each.join(", "))
        } else {
            "tc".to_string()
        };
        writeln!(
            f,
            "{} {}x{}{}, {budget} {} (tolerance {} ms), {} of {} games, {} at once, {} openings, {:.1} s",
            s.game.name(),
            s.width,
            s.height,
            rule,
            s.tc,
            c.tolerance_ms,
            self.games.len(),
            self.planned,
            c.concurrency.max(1),
            c.openings.len().min(c.games.div_ceil(2)).max(1),
            self.elapsed.as_secs_f64()
        )?;
        Ok(())
    }

    /// How each engine ran (its command, `INFO` lines, GTP commands and settings), a line each.
    fn write_commands(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, command) in self.names.iter().zip(&self.config.commands) {
            writeln!(f, "  {name}: {command}")?;
        }
        Ok(())
    }

    /// Each pairing's score, Elo and LOS, then each engine's when more than two play.
    fn write_table(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = |p: &(usize, usize)| format!("{} vs {}", self.names[p.0], self.names[p.1]);
        let w0 = self
            .pairings
            .iter()
            .map(|p| label(p).len())
            .chain(self.names.iter().map(String::len))
            .max()
            .unwrap_or(0)
            .max("pairing (first engine's view)".len());
        writeln!(
            f,
            "{:<w0$}  {:>5}  {:>4}  {:>4}  {:>4}  {:>6}  {:<34}  {:>6}",
            "pairing (first engine's view)",
            "games",
            "W",
            "L",
            "D",
            "score",
            "Elo (95% interval)",
            "LOS"
        )?;
        for (i, p) in self.pairings.iter().enumerate() {
            let w = self.pairing_wdl(i);
            let elo = elo_estimate(&w).map_or("-".to_string(), |e| e.to_string());
            writeln!(
                f,
                "{:<w0$}  {:>5}  {:>4}  {:>4}  {:>4}  {:>6}  {:<34}  {:>5.1}%",
                label(p),
                w.games(),
                w.wins,
                w.losses,
                w.draws,
                score_text(&w),
                elo,
                los(&w) * 100.0
            )?;
        }
        if self.names.len() > 2 {
            writeln!(
                f,
                "{:<w0$}  {:>5}  {:>4}  {:>4}  {:>4}  {:>6}  Elo vs its opponents",
                "engine (all games)", "games", "W", "L", "D", "score"
            )?;
            let mut order: Vec<usize> = (0..self.names.len()).collect();
            let score = |e: usize| self.entrant_wdl(e).score().unwrap_or(0.0);
            order.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
            for e in order {
                let w = self.entrant_wdl(e);
                let elo = elo_estimate(&w).map_or("-".to_string(), |e| fmt_elo(e.elo));
                writeln!(
                    f,
                    "{:<w0$}  {:>5}  {:>4}  {:>4}  {:>4}  {:>6}  {}",
                    self.names[e],
                    w.games(),
                    w.wins,
                    w.losses,
                    w.draws,
                    score_text(&w),
                    elo
                )?;
            }
        }
        Ok(())
    }

    /// Wins by colour, mean length, how games ended, and the games lost by a fault.
    fn write_endings(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = |o: Outcome| self.games.iter().filter(|g| g.result.outcome == o).count();
        let plies: usize = self.games.iter().map(|g| g.result.moves.len()).sum();
        writeln!(
            f,
            "black won {}, white won {}, drawn {}; mean length {:.1} moves",
            count(Outcome::Win(Color::Black)),
            count(Outcome::Win(Color::White)),
            count(Outcome::Draw),
            plies as f64 / self.games.len().max(1) as f64
        )?;
        let mut tally: Vec<(&'static str, usize)> = Vec::new();
        for g in &self.games {
            let k = g.result.reason.kind();
            match tally.iter_mut().find(|(name, _)| *name == k) {
                Some(e) => e.1 += 1,
                None => tally.push((k, 1)),
            }
        }
        let ends: Vec<String> = tally.iter().map(|(k, n)| format!("{k} {n}")).collect();
        writeln!(f, "endings: {}", ends.join(", "))?;
        let faults: Vec<&GameRecord> = self
            .games
            .iter()
            .filter(|g| is_fault(&g.result.reason))
            .collect();
        for g in faults.iter().take(FAULTS_SHOWN) {
            writeln!(f, "  game {}: {}", g.index + 1, game_line(&self.names, g))?;
        }
        if faults.len() > FAULTS_SHOWN {
            writeln!(
                f,
                "  ... and {} more games lost by a fault (see --verbose or the SGF files)",
                faults.len() - FAULTS_SHOWN
            )?;
        }
        Ok(())
    }

    /// Each engine's longest think (no newline after it).
    fn write_thinks(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut longest = vec![0u64; self.names.len()];
        for g in &self.games {
            for p in &g.result.moves {
                let e = if p.color == Color::Black {
                    g.black
                } else {
                    g.white
                };
                longest[e] = longest[e].max(p.ms.unwrap_or(0));
            }
            // A think that lost the game (on time, say) put no move on the board, but it was
            // thought all the same.
            if let Some((color, ms)) = g.result.last_think {
                let e = if color == Color::Black {
                    g.black
                } else {
                    g.white
                };
                longest[e] = longest[e].max(ms);
            }
        }
        let thinks: Vec<String> = longest
            .iter()
            .enumerate()
            .map(|(e, ms)| format!("{} {ms} ms", self.names[e]))
            .collect();
        write!(f, "longest think: {}", thinks.join(", "))?;
        Ok(())
    }

    /// The SPRT line, when the run had a test.
    fn write_sprt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((t, llr, d)) = &self.sprt {
            let (lo, hi) = t.bounds();
            let verdict = match d {
                SprtDecision::AcceptH1 => "H1 accepted (stronger by at least elo1)",
                SprtDecision::AcceptH0 => "H0 accepted (not stronger by elo1)",
                SprtDecision::Continue => "no decision yet",
            };
            write!(
                f,
                "\nSPRT elo0 {} elo1 {} (alpha {}, beta {}): LLR {:.2} in [{:.2}, {:.2}]: {verdict}",
                t.elo0, t.elo1, t.alpha, t.beta, llr, lo, hi
            )?;
        }
        Ok(())
    }
}

fn is_fault(r: &EndReason) -> bool {
    matches!(
        r,
        EndReason::Time
            | EndReason::Crash(_)
            | EndReason::Garbage(_)
            | EndReason::Refused(_)
            | EndReason::Illegal(_)
    )
}

/// One line for a game: who had black, the result and why.
pub fn game_line(names: &[String], g: &GameRecord) -> String {
    let loser = g.result.outcome.winner().map(|c| match c.opponent() {
        Color::Black => &names[g.black],
        Color::White => &names[g.white],
    });
    let why = match (&g.result.reason, loser) {
        (r, Some(l)) if is_fault(r) || *r == EndReason::Resign => format!("{l}: {r}"),
        (r, _) => r.to_string(),
    };
    format!(
        "{} (black) vs {} (white): {} by {} after {} moves",
        names[g.black],
        names[g.white],
        g.result.outcome.pgn(),
        why,
        g.result.moves.len()
    )
}

/// The SGF of one game: `GM[1]` for Go, `GM[4]` for the gomoku family (tic-tac-toe included, as a
/// 3x3 board); opening moves are commented as such, every engine move carries its think time.
pub fn sgf(names: &[String], s: &GameSetup, g: &GameRecord) -> String {
    let gm = if s.game == GameName::Go { 1 } else { 4 };
    let size = sgf_write::size(s.width, s.height);
    let re = match (&g.result.outcome, &g.result.reason) {
        (Outcome::Draw, EndReason::MoveLimit) => "Void".to_string(),
        (Outcome::Draw, _) => "0".to_string(),
        (o, reason) => {
            let w = if o.winner() == Some(Color::Black) {
                "B"
            } else {
                "W"
            };
            let how = match reason {
                EndReason::Score { black, white } => format!("{}", (black - white).abs()),
                EndReason::Resign => "R".into(),
                EndReason::Time => "T".into(),
                EndReason::Line => "".into(),
                _ => "F".into(),
            };
            if how.is_empty() {
                w.to_string()
            } else {
                format!("{w}+{how}")
            }
        }
    };
    let rules = match s.game {
        // What the referee counts: area, every stone on the board alive, positional superko.
        GameName::Go => format!("RU[Tromp-Taylor]KM[{}]{}", s.komi, handicap_sgf(s)),
        GameName::Ttt => "RU[tic-tac-toe]".into(),
        _ => format!("RU[{}]", s.rule.name()),
    };
    let mut out = format!(
        "(;FF[4]GM[{gm}]CA[UTF-8]AP[sente:{}]SZ[{size}]{rules}PB[{}]PW[{}]RE[{re}]{}GN[game {}]GC[{}]",
        env!("CARGO_PKG_VERSION"),
        escape(&names[g.black]),
        escape(&names[g.white]),
        s.tc
            .game_ms
            .map_or(String::new(), |ms| format!("TM[{}]", ms as f64 / 1000.0)),
        g.index + 1,
        escape(&format!("tc {}; ended by {}", s.tc, g.result.reason)),
    );
    for p in &g.result.moves {
        let point = match p.mv {
            Mv::At(x, y) => Some((x, y)),
            Mv::Pass => None,
        };
        let comment = match p.ms {
            None => "opening".to_string(),
            Some(ms) => format!("{ms} ms"),
        };
        out.push_str(&sgf_write::move_node(p.color, point, Some(&comment)));
    }
    out.push_str(")\n");
    out
}

/// `HA[n]AB[..]` for a Go game with handicap stones, else nothing.
fn handicap_sgf(s: &GameSetup) -> String {
    let stones = s.handicap_stones();
    if stones.is_empty() {
        return String::new();
    }
    let points = stones.into_iter().filter_map(|mv| match mv {
        Mv::At(x, y) => Some((x, y)),
        Mv::Pass => None,
    });
    format!("HA[{}]{}", s.handicap, sgf_write::point_list("AB", points))
}

/// The PGN-style summary of every game, for BayesElo / Ordo.
pub fn pgn(report: &TournamentReport) -> String {
    let mut out = String::new();
    let s = &report.config.setup;
    for g in &report.games {
        out.push_str(&format!(
            "[Event \"sente match {} {}x{}\"]\n[Site \"sente\"]\n[Round \"{}\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"{}\"]\n[TimeControl \"{}\"]\n[Termination \"{}\"]\n[PlyCount \"{}\"]\n\n{}\n\n",
            s.game.name(),
            s.width,
            s.height,
            g.index + 1,
            report.names[g.black],
            report.names[g.white],
            g.result.outcome.pgn(),
            s.tc,
            g.result.reason.to_string().replace('"', "'"),
            g.result.moves.len(),
            pgn_movetext(g, s)
        ));
    }
    out
}

/// The moves of a game as PGN movetext, ending in its result: gomoku and tic-tac-toe points in
/// renju notation (`h8`, row 1 at the bottom), Go moves as GTP vertices (`D4`, `pass`).
fn pgn_movetext(g: &GameRecord, s: &GameSetup) -> String {
    let name = |mv: Mv| match (s.game, mv) {
        (GameName::Go, mv) => gtp_vertex(mv, s.height),
        (_, Mv::At(x, y)) => renju_name(x, y, s.height),
        (_, Mv::Pass) => "pass".to_string(),
    };
    let mut words = Vec::new();
    for (i, pair) in g.result.moves.chunks(2).enumerate() {
        words.push(format!("{}.", i + 1));
        words.extend(pair.iter().map(|p| name(p.mv)));
    }
    words.push(g.result.outcome.pgn().to_string());
    // PGN keeps lines under 80 characters.
    let mut text = String::new();
    let mut line = 0;
    for w in words {
        if line > 0 && line + 1 + w.len() > 79 {
            text.push('\n');
            line = 0;
        } else if line > 0 {
            text.push(' ');
            line += 1;
        }
        text.push_str(&w);
        line += w.len();
    }
    text
}
