//! `sente play gomoku`: gomoku in a terminal, any rule the engine knows (freestyle, standard,
//! renju, caro, no-double-three) on a square board of 5..26, against the gomoku levels of
//! [`crate::players::GOMOKU_LEVELS`] or another human. The menu, prompts and score are
//! [`crate::play::menu`]'s.
//!
//! Notation: renju notation, as RenLib and the RIF's records write games and as `sente play go`
//! and GTP count rows: columns are letters from `a` on the left, rows numbers from `1` at the
//! **bottom** (`a1` is the lower left; `h8` is the centre of 15x15, Gomocup `7,7`); `h8`,
//! `8 8` or `7,7` as [`crate::rules::text`] reads them. `undo` takes back the last human move
//! and the computer's reply after it; `quit` or `00` abandons the game; `help` lists the forms.
//! Boards stop at 26 columns so that every column has a letter.
//!
//! The board ([`crate::rules::text`]) is redrawn after every move, the last stone in
//! parentheses; under renju and no-double-three, when black is to move, black's forbidden
//! points are marked `*` and refused with their reason. The computer gets `movetime` per move (or a fixed node budget) and its search progress
//! (depth, evaluation, nodes, principal variation) goes to the progress stream while it thinks.

use crate::play::{parse_seconds, seconds};
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::play::menu::{ask_setting, per_move_limit, run_menu, ProgressLine, TerminalGame};
use crate::players::{
    gomoku_player, Decision, GomokuPlayer, MoveRequest, Player, SearchInfo, GOMOKU_LEVELS,
};
use crate::rules::text::TextPosition;
use crate::rules::{Board, Cell, Color, Pos, Rule};
use crate::search::clock::TimeManager;
use crate::search::format_eval;

/// Smallest board side (five in a row must fit).
pub const MIN_SIZE: usize = 5;
/// Largest board side: one letter per column.
pub const MAX_SIZE: usize = 26;
/// The rules offered, by their command-line names.
pub const RULES: &[Rule] = &[
    Rule::Freestyle,
    Rule::Standard,
    Rule::Renju,
    Rule::Caro,
    Rule::NoDoubleThree,
];

/// How a session is set up (`sente play gomoku` flags).
#[derive(Clone, Debug)]
pub struct GomokuOptions {
    /// Board side, 5..=26.
    pub size: usize,
    pub rule: Rule,
    /// The computer's level at the start (one of [`GOMOKU_LEVELS`]).
    pub level: String,
    /// Seeds every computer player.
    pub seed: u64,
    /// Time per computer move in milliseconds.
    pub movetime_ms: u64,
    /// A fixed node budget per computer move instead of the time (deterministic play).
    pub nodes: Option<u64>,
    /// Rewrite the progress line in place (the progress stream is a terminal).
    pub progress_in_place: bool,
}

impl Default for GomokuOptions {
    fn default() -> Self {
        GomokuOptions {
            size: 15,
            rule: Rule::Freestyle,
            level: GOMOKU_LEVELS[0].0.to_string(),
            seed: 0,
            movetime_ms: 1000,
            nodes: None,
            progress_in_place: false,
        }
    }
}

/// Checks a board side for `--size` and the settings prompt.
pub fn check_size(size: usize) -> Result<usize, String> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(size)
    } else {
        Err(format!(
            "The board side must be {MIN_SIZE} to {MAX_SIZE} here (one letter per column; over \
             Gomocup, for a GUI, the engine takes boards up to 32)."
        ))
    }
}

/// Parses a rule name for `--rule` and the settings prompt.
pub fn parse_rule(s: &str) -> Result<Rule, String> {
    Rule::from_name(s.trim())
        .filter(|r| RULES.contains(r))
        .ok_or_else(|| {
            let names: Vec<&str> = RULES.iter().map(|r| r.name()).collect();
            format!("Unknown rule {s:?}; the rules are {}.", names.join(", "))
        })
}

const HELP: &str = "Type a move as h8 (column letter, row number from 1 at the bottom, as in renju \
records), 8 8 (column and row numbers) or 7,7 (Gomocup x,y from 0 at the top left); undo takes back \
your last move, quit (or 00) ends the game.";

/// One line of search progress: `depth 7-12 | eval 35 | nodes 12345 | 340 ms | pv h8 i9`.
fn progress_text(board: &Board, info: &SearchInfo) -> String {
    let mut s = format!(
        "thinking: depth {}-{} | eval {} | nodes {} | {} ms",
        info.depth,
        info.seldepth.max(info.depth),
        format_eval(info.score, info.mate),
        info.nodes,
        info.elapsed.as_millis()
    );
    let pv: Vec<String> = info
        .pv
        .iter()
        .take(8)
        .take_while(|&&p| p.idx() < board.array_len() && board.cell(p) != Cell::Wall)
        .map(|&p| board.move_text(p))
        .collect();
    if !pv.is_empty() {
        s.push_str(" | pv ");
        s.push_str(&pv.join(" "));
    }
    s
}

/// Gomoku for the shared menu.
struct Gomoku<'p> {
    opts: GomokuOptions,
    progress: &'p mut dyn Write,
}

impl TerminalGame for Gomoku<'_> {
    type Pos = Board;
    type Player = Box<dyn GomokuPlayer>;

    fn title(&self) -> &str {
        "Gomoku"
    }
    fn levels(&self) -> &'static [(&'static str, &'static str)] {
        GOMOKU_LEVELS
    }
    fn player(&self, level: &str, seed: u64) -> Option<Self::Player> {
        gomoku_player(level, seed)
    }
    fn as_player(player: &mut Self::Player) -> &mut dyn Player<Board> {
        player.as_mut()
    }
    fn player_name(&self, player: &Self::Player) -> String {
        player.name().to_string()
    }
    fn settings(&self) -> Option<String> {
        let o = &self.opts;
        let per_move = match o.nodes {
            Some(n) => format!("{n} nodes per move"),
            None => format!("{} per move", seconds(o.movetime_ms)),
        };
        Some(format!("{0}x{0}, {1}, {per_move}", o.size, o.rule.name()))
    }
    fn change_settings(
        &mut self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> io::Result<bool> {
        let parse_size = |s: &str| {
            let n = s
                .parse::<usize>()
                .map_err(|_| format!("{s:?} is not a number."))?;
            check_size(n)
        };
        let Some(size) = ask_setting(input, out, "Board size", &self.opts.size, parse_size)? else {
            return Ok(false);
        };
        let names: Vec<&str> = RULES.iter().map(|r| r.name()).collect();
        let what = format!("Rule ({})", names.join(", "));
        let current = self.opts.rule.name().to_string();
        let Some(rule) = ask_setting(input, out, &what, &current, |s| {
            parse_rule(s).map(|r| r.name().to_string())
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
        self.opts.rule = parse_rule(&rule).unwrap_or(self.opts.rule);
        self.opts.movetime_ms = (secs * 1000.0).round() as u64;
        writeln!(out, "Settings: {}", self.settings().unwrap_or_default())?;
        Ok(true)
    }

    fn start(&self) -> Result<Board, String> {
        let size = self.opts.size;
        Board::new(size, size, self.opts.rule)
            .map_err(|_| format!("Cannot make a {size}x{size} board."))
    }
    fn intro(&self, _start: &Board) -> Option<String> {
        let (size, rule) = (self.opts.size, self.opts.rule);
        let how = match rule {
            Rule::Renju => "; black must make exactly five and may not play a double three, double four or overline (marked *)",
            Rule::Standard => " (exactly five: an overline does not)",
            Rule::Caro | Rule::CaroStandard => " unless both ends are blocked",
            Rule::Freestyle => " (or more)",
            Rule::NoDoubleThree => " (or more); black may not make two open threes at once (marked *)",
        };
        Some(format!(
            "{size}x{size} {}: five in a row wins{how}.",
            rule.name()
        ))
    }
    fn prompt_hint(&self) -> &'static str {
        "like h8; undo, quit, help"
    }
    fn help(&self) -> &'static str {
        HELP
    }
    /// The computer's move, with progress while it searches; a legal fallback should the
    /// player choose an illegal point.
    fn think(
        &mut self,
        player: &mut Self::Player,
        board: &Board,
        _name: &str,
    ) -> Option<(Decision<Pos>, String)> {
        let limit = per_move_limit(self.opts.nodes, self.opts.movetime_ms);
        let stop = AtomicBool::new(false);
        let tm = TimeManager::new(&limit, Instant::now(), &stop);
        let mut line = ProgressLine::new(&mut *self.progress, self.opts.progress_in_place);
        let mut last: Option<SearchInfo> = None;
        let mut report = |info: &SearchInfo| {
            line.show(&progress_text(board, info));
            last = Some(info.clone());
        };
        let mut req = MoveRequest {
            tm: &tm,
            nbest: 1,
            excluded: &[],
            report: &mut report,
        };
        let choice = player.choose(board, &mut req);
        line.finish();
        let legal = choice.filter(|&p| board.check(p).is_ok());
        if choice.is_some() && legal.is_none() {
            log::warn!(
                "player {} chose an illegal point; using a fallback",
                player.name()
            );
        }
        // Any legal point rather than none: the game must go on.
        let fallback = || board.empty_points().find(|&p| board.check(p).is_ok());
        let p = legal.or_else(fallback)?;
        let detail = last.map_or(String::new(), |i| {
            format!(
                " (depth {}, eval {}, {} nodes)",
                i.depth,
                format_eval(i.score, i.mate),
                i.nodes
            )
        });
        Some((Decision::Play(p), detail))
    }
    /// Learning players learn from the finished game.
    fn game_over(player: &mut Self::Player, board: &Board, ours: Color) {
        player.game_over(board, ours);
    }
}

/// Runs the gomoku menu until `0` or end of input; the computer's search progress goes to
/// `progress` (stderr in the CLI).
pub fn run(
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    progress: &mut dyn Write,
    opts: GomokuOptions,
) -> io::Result<()> {
    let (level, seed) = (opts.level.clone(), opts.seed);
    let mut game = Gomoku { opts, progress };
    run_menu(&mut game, level, input, output, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::play::menu::scripted::lines;

    /// Runs a scripted session; (output, progress).
    fn session(opts: GomokuOptions, script: &str) -> (String, String) {
        crate::play::menu::scripted::session(script, |i, o, p| run(i, o, p, opts))
    }

    fn tiny(size: usize, rule: Rule) -> GomokuOptions {
        GomokuOptions {
            size,
            rule,
            nodes: Some(300),
            seed: 7,
            ..GomokuOptions::default()
        }
    }

    #[test]
    fn two_humans_refusals_undo_and_a_win() {
        // Black builds row 8 from h to l; white answers on column a. In between: white types
        // an occupied point (twice, in two notations), an off-board one and nonsense; black
        // plays j8, takes it back and plays it again.
        let script = lines(&[
            "5", "h8", "h8", "7,7", "z1", "foo", "help", "a1", "i8", "a2", "j8", "undo", "j8",
            "a3", "k8", "a4", "l8", "0",
        ]);
        let (t, progress) = session(GomokuOptions::default(), &script);
        assert!(t.contains("h8 is taken; choose an empty point."), "{t}");
        assert_eq!(t.matches("h8 is taken").count(), 2, "{t}");
        assert!(
            t.contains("z1 is off the board: columns a to o, rows 1 to 15"),
            "{t}"
        );
        assert!(t.contains("I do not understand \"foo\"."), "{t}");
        assert!(t.contains("Type a move as h8"), "{t}");
        // Two humans: undo takes back the last move only.
        assert!(t.contains("Taken back: j8."), "{t}");
        assert!(
            t.contains("player 1 (black) made five in a row. player 1 wins!"),
            "{t}"
        );
        assert!(t
            .trim_end()
            .ends_with("Score after 1 game: player 1 1, player 2 0, draws 0"));
        // The final board: five in row 8, the last stone in parentheses.
        assert!(t.contains(" 8  . . . . . . . X X X X(X). . .  8"), "{t}");
        assert!(t.contains(" 1 (O). . . . . . . . . . . . . .  1"), "{t}");
        // Boards: the empty one, 9 moves + 1 undo + replay of j8 (11 stones placed).
        assert_eq!(
            t.matches("    a b c d e f g h i j k l m n o\n").count(),
            2 * 12
        );
        assert!(progress.is_empty());
    }

    #[test]
    fn renju_forbidden_points_are_marked_and_refused() {
        // Black h7, h6, f8, g8: h8 would make two open threes.
        let script = lines(&[
            "5", "h7", "a1", "h6", "a3", "f8", "a5", "g8", "a7", "h8", "quit", "0",
        ]);
        let (t, _) = session(tiny(15, Rule::Renju), &script);
        assert!(
            t.contains("h8 is forbidden for black under renju (double three)"),
            "{t}"
        );
        assert!(t.contains(" 8  . . . . . X X * . . . . . . .  8"), "{t}");
        assert!(t.contains("Game abandoned (not scored)."), "{t}");
        // The same double three under no-double-three; freestyle has no forbidden points.
        let (t, _) = session(tiny(15, Rule::NoDoubleThree), &script);
        assert!(
            t.contains("h8 is forbidden for black under no-double-three (double three)"),
            "{t}"
        );
        assert!(t.contains(" 8  . . . . . X X * . . . . . . .  8"), "{t}");
        let (t, _) = session(tiny(15, Rule::Freestyle), &script);
        assert!(!t.contains("forbidden"), "{t}");
    }

    #[test]
    fn against_the_computer_at_a_tiny_node_budget() {
        // The human walks row 1 and row 3 (refusals skip to the next line); whatever the
        // computer does, the game ends and is scored, and the session replays exactly.
        let mut moves = vec!["1", "e5", "undo"];
        let row: Vec<String> = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
            .iter()
            .flat_map(|c| {
                [
                    format!("{c}1"),
                    format!("{c}3"),
                    format!("{c}5"),
                    format!("{c}7"),
                ]
            })
            .collect();
        moves.extend(row.iter().map(String::as_str));
        moves.push("0");
        let script = lines(&moves);
        let (t, progress) = session(tiny(9, Rule::Freestyle), &script);
        assert!(t.contains("You play black against strong."), "{t}");
        // undo took back e5 and the reply.
        assert!(t.contains("Taken back: e5, "), "{t}");
        assert!(t.contains("computer (white) plays "), "{t}");
        assert!(t.contains(" nodes)."), "{t}");
        assert!(progress.contains("thinking: depth "), "{progress}");
        assert!(t.contains("Score after 1 game: you "), "{t}");
        // The progress lines carry times; the game itself replays exactly.
        let again = session(tiny(9, Rule::Freestyle), &script);
        assert_eq!(t, again.0);
    }

    #[test]
    fn computer_vs_computer_finishes() {
        let (t, _) = session(tiny(9, Rule::Standard), "3\n0\n");
        assert!(
            t.contains("Computer vs computer: black is strong, white is "),
            "{t}"
        );
        assert!(
            t.contains("made five in a row.") || t.contains("a draw."),
            "{t}"
        );
        assert!(
            t.trim_end().ends_with("draws 0") || t.trim_end().ends_with("draws 1"),
            "{t}"
        );
    }

    #[test]
    fn settings_are_asked_and_checked() {
        let script = "6\n40\n11\nbogus\nrenju\n-1\n0.5\n6\n\n\n\n0\n";
        let (t, _) = session(GomokuOptions::default(), script);
        assert!(t.contains("Board size (empty keeps 15): "), "{t}");
        assert!(t.contains("The board side must be 5 to 26"), "{t}");
        assert!(t.contains("Unknown rule \"bogus\""), "{t}");
        assert!(t.contains("is not a time per move in seconds"), "{t}");
        assert!(t.contains("Settings: 11x11, renju, 0.5 s per move"), "{t}");
        // Empty answers keep every setting.
        assert_eq!(
            t.matches("Settings: 11x11, renju, 0.5 s per move").count(),
            2
        );
        assert!(
            t.contains("6 : Settings (11x11, renju, 0.5 s per move)"),
            "{t}"
        );
    }

    #[test]
    fn quit_and_end_of_input_exit_cleanly() {
        let (t, _) = session(GomokuOptions::default(), "2\nquit\n0\n");
        assert!(t.contains("You play white against strong."), "{t}");
        assert!(t.contains("Game abandoned (not scored)."), "{t}");
        assert!(t
            .trim_end()
            .ends_with("Score after 0 games: you 0, computer 0, draws 0"));
        for script in ["", "1\n", "5\nh8\n", "6\n", "6\n12\n", "4\n", "1\n00\n"] {
            let (t, _) = session(tiny(9, Rule::Freestyle), script);
            assert!(t.trim_end().ends_with("Goodbye."), "{script:?}: {t}");
        }
    }
}
