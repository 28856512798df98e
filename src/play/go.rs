//! `sente play go`: Go in a terminal on a square board of 2..25, against the Go levels of
//! [`crate::players::GO_LEVELS`] or another human. The menu, prompts and score are
//! [`crate::play::menu`]'s.
//!
//! Rules: area counting, positional superko, no suicide (the engine's [`GoRules`] defaults),
//! komi as set (7.5 by default), an optional fixed handicap of 2..9 black stones on the GTP
//! points (white then moves first). Vertices are typed as GTP has them: column letter without
//! `I`, row number from 1 at the **bottom** (`d4`, any case); `pass`, `resign`, `undo` (the last
//! human move and the computer's reply after it), `quit` or `00`, `help`.
//!
//! The game ends on a resignation or two passes in a row (or, as a guard for computer games, at
//! three times the board's points in moves, counted as it stands). The count lifts the dead
//! stones that the engine's Monte Carlo ownership finds (always a fresh player of the default
//! level, seeded by the session, so the count does not depend on who played), shows them on the
//! board (`x` / `o`) with each side's area (`+` black, `-` white), and prints the area count
//! and the result (`B+3.5`). Nobody is asked to agree: the estimate is the verdict, which is
//! what a one-shot terminal game can offer.

use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::play::menu::{ask_setting, per_move_limit, run_menu, End, ProgressLine, TerminalGame};
use crate::play::{parse_seconds, seconds};
use crate::players::{go_player, Decision, GoDecision, GoPlayer, GoRequest, Player, GO_LEVELS};
use crate::rules::go::{margin_text, score_detail, GoGame, GoMove, GoRules, MAX_SIDE, MIN_SIDE};
use crate::rules::text::{go_board_text, TextPosition};
use crate::rules::Color;
use crate::search::clock::{SearchLimit, TimeManager};
use crate::search::mcts::Candidate;
use crate::search::move_filter::MoveFilter;
use crate::session::go::scoring::{SCORING_MS, SCORING_SAFETY_MS};

/// How often the progress line is refreshed while the computer thinks.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// How a session is set up (`sente play go` flags).
#[derive(Clone, Debug)]
pub struct GoOptions {
    /// Board side, 2..=25.
    pub size: usize,
    /// Points given to white.
    pub komi: f32,
    /// Fixed handicap stones for black: 0 (none) or 2..=9 where the board has the points.
    pub handicap: usize,
    /// The computer's level at the start (one of [`GO_LEVELS`]).
    pub level: String,
    /// Seeds every computer player and the dead-stone estimate.
    pub seed: u64,
    /// Time per computer move in milliseconds.
    pub movetime_ms: u64,
    /// A fixed playout budget per computer move instead of the time (deterministic play).
    pub nodes: Option<u64>,
    /// Rewrite the progress line in place (the progress stream is a terminal).
    pub progress_in_place: bool,
}

impl Default for GoOptions {
    fn default() -> Self {
        GoOptions {
            size: 9,
            komi: 7.5,
            handicap: 0,
            level: GO_LEVELS[0].0.to_string(),
            seed: 0,
            movetime_ms: 1000,
            nodes: None,
            progress_in_place: false,
        }
    }
}

/// Checks a board side for `--size` and the settings prompt.
pub fn check_size(size: usize) -> Result<usize, String> {
    if (MIN_SIDE..=MAX_SIDE).contains(&size) {
        Ok(size)
    } else {
        Err(format!("The board side must be {MIN_SIDE} to {MAX_SIDE}."))
    }
}

/// Checks a handicap for a board side: 0, or a count the side has fixed points for.
pub fn check_handicap(size: usize, stones: usize) -> Result<usize, String> {
    if stones == 0 {
        return Ok(0);
    }
    let board = GoGame::new(size, size, GoRules::default()).map_err(|e| e.to_string())?;
    match board.fixed_handicap_points(stones) {
        Some(_) => Ok(stones),
        None => {
            let max = (2..=9)
                .rev()
                .find(|&n| board.fixed_handicap_points(n).is_some());
            Err(match max {
                Some(m) => {
                    format!("A {size}x{size} board takes a handicap of 0 or 2 to {m} stones.")
                }
                None => format!("A {size}x{size} board has no handicap points (below 7x7)."),
            })
        }
    }
}

/// Checks komi: a multiple of 0.5 within the board's reach.
pub fn check_komi(komi: f32) -> Result<f32, String> {
    if komi.is_finite() && komi.abs() <= 1000.0 && (komi * 2.0).fract() == 0.0 {
        Ok(komi)
    } else {
        Err(format!(
            "Komi {komi} must be a multiple of 0.5 (like 7.5, 6.5 or 0)."
        ))
    }
}

const HELP: &str = "Type a vertex as d4 (column letter, no I; row number from the bottom), \
pass or resign; undo takes back your last move, quit (or 00) ends the game.";

/// `thinking: 1234 playouts | best d4 54.1% | pv d4 e5 f6`.
fn progress_text(game: &GoGame, moves: &[Candidate<GoMove>]) -> Option<String> {
    let best = moves.iter().min_by_key(|c| c.order)?;
    let playouts: u64 = moves.iter().map(|c| c.visits).sum();
    let pv: Vec<String> = best.pv.iter().take(8).map(|&m| game.move_text(m)).collect();
    Some(format!(
        "thinking: {playouts} playouts | best {} {:.1}% | pv {}",
        game.move_text(best.mv),
        best.winrate * 100.0,
        pv.join(" ")
    ))
}

/// `1 stone`, `2 stones`.
fn stones(n: u32) -> String {
    format!("{n} stone{}", if n == 1 { "" } else { "s" })
}

/// Go for the shared menu.
struct Go<'p> {
    opts: GoOptions,
    progress: &'p mut dyn Write,
}

impl Go<'_> {
    /// Counts the finished game: dead stones, the board with areas, the counts, the result.
    fn count(&mut self, game: &GoGame, out: &mut dyn Write) -> io::Result<End> {
        let mut scorer =
            go_player(GO_LEVELS[0].0, self.opts.seed).expect("the first Go level exists");
        // The estimate's own playout count decides; the clock only guards against a hang (loosely
        // under a node budget, so that load does not change a deterministic answer).
        let guard = if self.opts.nodes.is_some() {
            SCORING_SAFETY_MS
        } else {
            SCORING_MS
        };
        let stop = AtomicBool::new(false);
        let tm = TimeManager::new(&SearchLimit::move_time(guard), Instant::now(), &stop);
        let mut dead = scorer.dead_stones(game, &tm);
        let b = game.board();
        dead.retain(|&p| b.get(p).is_some());
        let detail = score_detail(b, &dead, game.rules());
        write!(out, "\n{}", go_board_text(game, Some((&dead, &detail))))?;
        writeln!(out, "x, o: dead stones; +, -: black's and white's area.")?;
        for color in [Color::Black, Color::White] {
            let mut names: Vec<String> = dead
                .iter()
                .filter(|&&p| b.get(p) == Some(color))
                .map(|&p| game.move_text(GoMove::Play(p)))
                .collect();
            names.sort();
            let list = if names.is_empty() {
                "none".to_string()
            } else {
                names.join(" ")
            };
            writeln!(out, "Dead {} stones: {list}.", self.colour(color))?;
        }
        let komi = game.rules().komi;
        let (bs, bt) = (detail.stones[0], detail.territory[0]);
        let (ws, wt) = (detail.stones[1], detail.territory[1]);
        writeln!(
            out,
            "Area count: black {} + {bt} territory = {}; white {} + {wt} territory + {komi} komi = {}.",
            stones(bs),
            bs + bt,
            stones(ws),
            (ws + wt) as f32 + komi
        )?;
        let margin = detail.score;
        let result = margin_text(margin);
        writeln!(out, "Result: {result}")?;
        Ok(if margin == 0.0 {
            End::Draw("Jigo: a draw.".into())
        } else {
            let winner = if margin > 0.0 {
                Color::Black
            } else {
                Color::White
            };
            End::Won {
                winner,
                how: format!("wins by {} points ({result})", margin.abs()),
            }
        })
    }
}

impl TerminalGame for Go<'_> {
    type Pos = GoGame;
    type Player = Box<dyn GoPlayer>;

    fn title(&self) -> &str {
        "Go"
    }
    fn levels(&self) -> &'static [(&'static str, &'static str)] {
        GO_LEVELS
    }
    fn player(&self, level: &str, seed: u64) -> Option<Self::Player> {
        go_player(level, seed)
    }
    fn as_player(player: &mut Self::Player) -> &mut dyn Player<GoGame> {
        player.as_mut()
    }
    fn player_name(&self, player: &Self::Player) -> String {
        player.name().to_string()
    }
    fn settings(&self) -> Option<String> {
        let o = &self.opts;
        let per_move = match o.nodes {
            Some(n) => format!("{n} playouts per move"),
            None => format!("{} per move", seconds(o.movetime_ms)),
        };
        let handicap = match o.handicap {
            0 => String::new(),
            n => format!(", handicap {n}"),
        };
        Some(format!(
            "{0}x{0}, komi {1}{handicap}, {per_move}",
            o.size, o.komi
        ))
    }
    fn change_settings(
        &mut self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> io::Result<bool> {
        let number = |s: &str| {
            s.parse::<usize>()
                .map_err(|_| format!("{s:?} is not a number."))
        };
        let Some(size) = ask_setting(input, out, "Board size", &self.opts.size, |s| {
            check_size(number(s)?)
        })?
        else {
            return Ok(false);
        };
        let Some(komi) = ask_setting(input, out, "Komi", &self.opts.komi, |s| {
            let k = s
                .parse::<f32>()
                .map_err(|_| format!("{s:?} is not a number."))?;
            check_komi(k)
        })?
        else {
            return Ok(false);
        };
        // A handicap the new size cannot take is dropped rather than kept invalid.
        let current = check_handicap(size, self.opts.handicap).unwrap_or(0);
        let Some(handicap) =
            ask_setting(input, out, "Handicap stones (0 = none)", &current, |s| {
                check_handicap(size, number(s)?)
            })?
        else {
            return Ok(false);
        };
        let current = self.opts.movetime_ms as f64 / 1000.0;
        let Some(secs) = ask_setting(input, out, "Seconds per computer move", &current, |s| {
            parse_seconds(s).map(|ms| ms as f64 / 1000.0)
        })?
        else {
            return Ok(false);
        };
        self.opts.size = size;
        self.opts.komi = komi;
        self.opts.handicap = handicap;
        self.opts.movetime_ms = (secs * 1000.0).round() as u64;
        writeln!(out, "Settings: {}", self.settings().unwrap_or_default())?;
        Ok(true)
    }

    fn start(&self) -> Result<GoGame, String> {
        let size = self.opts.size;
        let rules = GoRules {
            komi: self.opts.komi,
            ..GoRules::default()
        };
        let mut game = GoGame::new(size, size, rules)
            .map_err(|_| format!("Cannot make a {size}x{size} board."))?;
        if self.opts.handicap >= 2 {
            let placed = game
                .fixed_handicap_points(self.opts.handicap)
                .map(|pts| {
                    pts.into_iter()
                        .map(|p| (p, Color::Black))
                        .collect::<Vec<_>>()
                })
                .map(|stones| game.place_setup(&stones));
            if !matches!(placed, Some(Ok(()))) {
                return Err(format!(
                    "No handicap of {} on {size}x{size}.",
                    self.opts.handicap
                ));
            }
        }
        Ok(game)
    }
    fn intro(&self, game: &GoGame) -> Option<String> {
        let size = self.opts.size;
        let handicap = match self.opts.handicap {
            0 => String::new(),
            n => format!(", black has {n} handicap stones and white moves first"),
        };
        Some(format!(
            "{size}x{size} Go, area counting, komi {}{handicap}. Two passes in a row end the game.",
            game.rules().komi
        ))
    }
    fn prompt_hint(&self) -> &'static str {
        "like d4; pass, resign, undo, quit, help"
    }
    fn help(&self) -> &'static str {
        HELP
    }
    fn resigns(&self) -> bool {
        true
    }
    /// Two passes in a row end the game, as does the move cap; then the count.
    fn ended(&mut self, game: &GoGame, out: &mut dyn Write) -> io::Result<Option<End>> {
        let move_cap = 3 * self.opts.size * self.opts.size;
        if game.consecutive_passes() >= 2 {
            writeln!(out, "Both sides passed: the game is over.")?;
        } else if game.moves().len() >= move_cap {
            writeln!(
                out,
                "{move_cap} moves played: the game is counted as it stands."
            )?;
        } else {
            return Ok(None);
        }
        self.count(game, out).map(Some)
    }
    /// The computer's decision, with progress while it searches; its winrate for the
    /// announcement. An illegal choice becomes a pass.
    fn think(
        &mut self,
        player: &mut Self::Player,
        game: &GoGame,
        name: &str,
    ) -> Option<(Decision<GoMove>, String)> {
        let color = game.to_move();
        let limit = per_move_limit(self.opts.nodes, self.opts.movetime_ms);
        let stop = AtomicBool::new(false);
        let tm = TimeManager::new(&limit, Instant::now(), &stop);
        let mut line = ProgressLine::new(&mut *self.progress, self.opts.progress_in_place);
        let mut best: Option<Candidate<GoMove>> = None;
        let mut report = |moves: &[Candidate<GoMove>], _: Option<&[f32]>| {
            if let Some(text) = progress_text(game, moves) {
                line.show(&text);
            }
            best = moves.iter().min_by_key(|c| c.order).cloned();
        };
        let mut req = GoRequest {
            tm: &tm,
            report: &mut report,
            report_every: Some(PROGRESS_EVERY),
            ownership: false,
            filter: &MoveFilter::default(),
        };
        let decision = player.genmove(game, color, &mut req);
        line.finish();
        let (decision, best) = match decision {
            GoDecision::Play(mv) if game.check(mv, color).is_err() => {
                log::warn!("player {} chose an illegal move; passing", player.name());
                (Decision::Play(GoMove::Pass), None)
            }
            GoDecision::Play(mv) => (Decision::Play(mv), best),
            GoDecision::Resign => (Decision::Resign, best),
        };
        let detail = best.map_or(String::new(), |c| {
            format!(" ({:.0}% to win for {name})", c.winrate * 100.0)
        });
        Some((decision, detail))
    }
    fn after_move(&self, game: &GoGame, name: &str, other: &str) -> Option<String> {
        (game.consecutive_passes() == 1)
            .then(|| format!("{name} passes; if {other} passes too, the game ends."))
    }
}

/// Runs the Go menu until `0` or end of input; the computer's search progress goes to
/// `progress` (stderr in the CLI).
pub fn run(
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    progress: &mut dyn Write,
    opts: GoOptions,
) -> io::Result<()> {
    let (level, seed) = (opts.level.clone(), opts.seed);
    let mut game = Go { opts, progress };
    run_menu(&mut game, level, input, output, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::play::menu::scripted::lines;

    /// Runs a scripted session; (output, progress).
    fn session(opts: GoOptions, script: &str) -> (String, String) {
        crate::play::menu::scripted::session(script, |i, o, p| run(i, o, p, opts))
    }

    fn tiny(size: usize) -> GoOptions {
        GoOptions {
            size,
            nodes: Some(200),
            seed: 3,
            ..GoOptions::default()
        }
    }

    #[test]
    fn two_humans_refusals_explained_and_a_resignation() {
        // 5x5: black c4 b3 c2 a2 b1, white d4 c3 d2 e3 e5; black d3 takes c3 and makes a ko.
        // White then tries the ko, a suicide at a1, an occupied point, column I, off the
        // board, nonsense; then resigns.
        let script = lines(&[
            "5", "c4", "d4", "b3", "c3", "c2", "d2", "a2", "e3", "b1", "e5", "d3", "c3", "a1",
            "d3", "i1", "f1", "xyz", "help", "resign", "0",
        ]);
        let (t, progress) = session(tiny(5), &script);
        for want in [
            "c3 retakes the ko at once, which is not allowed",
            "a1 is suicide: the stone would have no liberties and captures nothing.",
            "d3 is occupied; choose an empty point.",
            "Go columns skip the letter I",
            "f1 is off the board: columns a to e, rows 1 to 5.",
            "I do not understand \"xyz\".",
            "Type a vertex as d4",
            "Captured: by black 1, by white 0.",
            " 3  . X .(X)O  3",
            "player 1 (black) wins: white resigned. player 1 wins!",
            "Score after 1 game: player 1 1, player 2 0, draws 0",
        ] {
            assert!(t.contains(want), "{want:?} missing:\n{t}");
        }
        assert!(progress.is_empty());
    }

    #[test]
    fn two_passes_count_the_game_with_dead_stones() {
        // A white stone alone in black's area is dead; black owns the whole board.
        let script = lines(&["5", "c3", "a1", "b2", "pass", "pass", "0"]);
        let (t, _) = session(tiny(5), &script);
        for want in [
            "white passes; if black passes too, the game ends.",
            "Both sides passed: the game is over.",
            " 1  o + + + +  1",
            "Dead black stones: none.",
            "Dead white stones: a1.",
            "Area count: black 2 stones + 23 territory = 25; white 0 stones + 0 territory + 7.5 komi = 7.5.",
            "Result: B+17.5",
            "player 1 (black) wins by 17.5 points (B+17.5).",
        ] {
            assert!(t.contains(want), "{want:?} missing:\n{t}");
        }
        // Integer komi and an empty board: jigo is a draw.
        let opts = GoOptions {
            komi: 0.0,
            ..tiny(5)
        };
        let (t, _) = session(opts, "5\npass\npass\n0\n");
        assert!(t.contains("Result: 0"), "{t}");
        assert!(t.contains("Jigo: a draw."), "{t}");
        assert!(t.contains("Score after 1 game: player 1 0, player 2 0, draws 1"));
    }

    #[test]
    fn against_the_computer_at_a_tiny_playout_budget() {
        // The human plays down the columns, takes one move back, and passes when nothing is
        // left; the refusals in between skip ahead. The game ends and is scored.
        let mut moves = vec!["1", "e5", "undo"];
        let points: Vec<String> = "abcdefghj"
            .chars()
            .flat_map(|c| (1..=9).map(move |r| format!("{c}{r}")))
            .collect();
        moves.extend(points.iter().map(String::as_str));
        moves.extend(["pass"; 40]);
        moves.push("0");
        let script = lines(&moves);
        let (t, progress) = session(tiny(9), &script);
        assert!(t.contains("You play black against mcts."), "{t}");
        assert!(t.contains("Taken back: e5, "), "{t}");
        assert!(t.contains("computer (white) plays "), "{t}");
        assert!(progress.contains("thinking: "), "{progress}");
        assert!(
            t.contains("Result: ") || t.contains("resign"),
            "the game did not end:\n{t}"
        );
        assert!(t.contains("Score after 1 game: you "), "{t}");
        // Deterministic under a playout budget and a seed.
        assert_eq!(t, session(tiny(9), &script).0);
    }

    #[test]
    fn handicap_gives_white_the_first_move() {
        let opts = GoOptions {
            handicap: 2,
            ..tiny(9)
        };
        // The human is black: the computer (white) moves first.
        let (t, _) = session(opts, "1\nquit\n0\n");
        assert!(
            t.contains("black has 2 handicap stones and white moves first"),
            "{t}"
        );
        assert!(t.contains(" 7  . . . . . . X . .  7"), "{t}");
        assert!(t.contains(" 3  . . X . . . . . .  3"), "{t}");
        let first_prompt = t.find("you (black), your move").unwrap();
        let reply = t.find("computer (white) plays").unwrap();
        assert!(reply < first_prompt, "{t}");
        assert_eq!(
            check_handicap(9, 10).unwrap_err(),
            "A 9x9 board takes a handicap of 0 or 2 to 9 stones."
        );
        assert!(check_handicap(5, 2).is_err());
        assert_eq!(check_handicap(19, 0), Ok(0));
        assert!(check_komi(7.3).is_err());
        assert_eq!(check_komi(-6.5), Ok(-6.5));
    }

    #[test]
    fn computer_vs_computer_finishes() {
        let (t, _) = session(tiny(7), "3\n0\n");
        assert!(
            t.contains("Computer vs computer: black is mcts, white is "),
            "{t}"
        );
        assert!(t.contains("Result: ") || t.contains("resigned"), "{t}");
        assert!(t.contains("Score after 1 game: computer 1 "), "{t}");
    }

    #[test]
    fn settings_are_asked_and_checked() {
        let script = "6\n30\n13\nx\n6.7\n0.5\n12\n4\n2\n6\n5\n\n\n\n0\n";
        let (t, _) = session(GoOptions::default(), script);
        assert!(t.contains("The board side must be 2 to 25."), "{t}");
        assert!(t.contains("Komi 6.7 must be a multiple of 0.5"), "{t}");
        assert!(
            t.contains("A 13x13 board takes a handicap of 0 or 2 to 9 stones."),
            "{t}"
        );
        assert!(
            t.contains("Settings: 13x13, komi 0.5, handicap 4, 2 s per move"),
            "{t}"
        );
        // A smaller board without handicap points drops the handicap.
        assert!(
            t.contains("Handicap stones (0 = none) (empty keeps 0): "),
            "{t}"
        );
        assert!(t.contains("Settings: 5x5, komi 0.5, 2 s per move"), "{t}");
    }

    #[test]
    fn quit_and_end_of_input_exit_cleanly() {
        let (t, _) = session(tiny(9), "5\nquit\n0\n");
        assert!(t.contains("Game abandoned (not scored)."), "{t}");
        assert!(t
            .trim_end()
            .ends_with("Score after 0 games: player 1 0, player 2 0, draws 0"));
        for script in [
            "",
            "2\n",
            "5\nd4\n",
            "6\n",
            "6\n9\n",
            "4\n",
            "1\n00\n",
            "5\npass\n",
        ] {
            let (t, _) = session(tiny(9), script);
            assert!(t.trim_end().ends_with("Goodbye."), "{script:?}: {t}");
        }
    }
}
