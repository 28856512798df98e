//! `sente play ttt`: tic-tac-toe in a terminal (docs/sources.md, SEEDS 002 and 004), against the
//! levels of [`crate::players::ttt`] or another human. The board drawing and the reading of moves
//! are the position's ([`crate::rules::text`]): a move is a row and a column, `23` = row 2, column
//! 3 (spaces allowed). The menu, the game loop (`undo`, `quit` or `00`, `help`) and the score are
//! [`crate::play::menu`]'s, shared with gomoku and Go.
//!
//! Everything goes through the reader and writer given to [`run`], so whole sessions are
//! tested from scripted input. End of input ends the session cleanly at any prompt.
//!
//! CLI: `sente play ttt` calls [`run_with_level`] on stdin and stdout.

use std::io::{self, BufRead, Write};
use std::time::Instant;

use crate::play::menu::{run_menu, TerminalGame};
use crate::players::mnk_level;
use crate::players::player::decide_with_limit;
use crate::players::ttt::TTT_LEVELS;
use crate::players::{Decision, Player};
use crate::rules::{Board, Color, Pos, Rule};
use crate::search::clock::SearchLimit;

const HELP: &str = "Type a move as a row and a column, like 23 (row 2, column 3); undo takes \
back your last move, quit (or 00) ends the game.";

/// Tic-tac-toe for the shared menu.
struct Ttt;

impl TerminalGame for Ttt {
    type Pos = Board;
    type Player = Box<dyn Player<Board>>;

    fn title(&self) -> &str {
        "Tic-Tac-Toe"
    }
    fn levels(&self) -> &'static [(&'static str, &'static str)] {
        TTT_LEVELS
    }
    fn player(&self, level: &str, seed: u64) -> Option<Self::Player> {
        mnk_level(true, level, seed)
    }
    fn as_player(player: &mut Self::Player) -> &mut dyn Player<Board> {
        player.as_mut()
    }
    fn player_name(&self, player: &Self::Player) -> String {
        player.name().to_string()
    }
    fn colour(&self, color: Color) -> &'static str {
        match color {
            Color::Black => "X",
            Color::White => "O",
        }
    }
    fn start(&self) -> Result<Board, String> {
        Ok(Board::with_k(3, 3, 3, Rule::Freestyle))
    }
    fn prompt_hint(&self) -> &'static str {
        "row column, e.g. 23; 00 quits"
    }
    fn help(&self) -> &'static str {
        HELP
    }
    /// Choosing is instant: no level looks at the clock.
    fn think(
        &mut self,
        player: &mut Self::Player,
        board: &Board,
        _name: &str,
    ) -> Option<(Decision<Pos>, String)> {
        let decision = decide_with_limit(
            player.as_mut(),
            board,
            &SearchLimit::default(),
            Instant::now(),
        )?;
        Some((decision, String::new()))
    }
}

/// Runs the interactive tic-tac-toe menu until `0` or end of input. `seed` seeds the computer
/// players' tie-breaks and the random level of the second computer, so a session replays.
pub fn run(input: &mut dyn BufRead, output: &mut dyn Write, seed: u64) -> io::Result<()> {
    run_with_level(input, output, seed, TTT_LEVELS[0].0)
}

/// [`run`] starting at `level` (`sente play ttt --level dumb`).
pub fn run_with_level(
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    seed: u64,
    level: &str,
) -> io::Result<()> {
    run_menu(&mut Ttt, level.to_string(), input, output, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(script: &str, seed: u64) -> String {
        crate::play::menu::scripted::session(script, |i, o, _| run(i, o, seed)).0
    }

    #[test]
    fn two_humans_refusals_win_and_score() {
        // X: 11, 12, 13 wins the top row; O: 21, 22. Bad inputs in between.
        let t = session("5\n11\n11\nab\n44\n21\n1 2\n22\n13\n0\n", 1);
        assert!(t.contains("That square is taken"), "{t}");
        assert!(t.contains("Please type a row and a column"), "{t}");
        assert!(t.contains("Rows and columns go from 1 to 3"), "{t}");
        assert!(
            t.contains("player 1 (X) has three in a row. player 1 wins!"),
            "{t}"
        );
        assert!(
            t.contains("Score after 1 game: player 1 1, player 2 0, draws 0"),
            "{t}"
        );
        assert!(t
            .trim_end()
            .ends_with("Score after 1 game: player 1 1, player 2 0, draws 0"));
        // The board is redrawn after every move: 5 moves + the empty board.
        assert_eq!(t.matches("    1   2   3").count(), 6);
        assert!(t.contains("1   X | X | X"), "{t}");
    }

    #[test]
    fn quitting_a_game_and_eof_exit_cleanly() {
        let t = session("1\n00\n", 3);
        assert!(t.contains("Game abandoned (not scored)."), "{t}");
        assert!(t.trim_end().ends_with("Goodbye."), "{t}");
        // EOF in the middle of a game, at the menu and in the level chooser.
        for script in ["1\n", "", "4\n", "5\n11\n"] {
            let t = session(script, 0);
            assert!(t.trim_end().ends_with("Goodbye."), "{script:?}: {t}");
        }
    }

    #[test]
    fn perfect_computer_never_loses_to_a_scripted_human() {
        // The human tries the corners and sides in order; every refusal is skipped by the
        // next line. The perfect computer must win or draw.
        let mut script = String::from("1\n");
        for _ in 0..3 {
            for m in ["11", "13", "31", "33", "12", "21", "23", "32", "22"] {
                script.push_str(m);
                script.push('\n');
            }
        }
        script.push_str("0\n");
        let t = session(&script, 9);
        assert!(!t.contains("You win!"), "{t}");
        assert!(t.contains("Score after 1 game: you 0, computer"), "{t}");
    }

    #[test]
    fn computer_vs_computer_and_level_selection() {
        // dumb is the fifth level, strongest first.
        let t = session("4\nbogus\n5\n3\n4\n\n0\n", 4);
        assert!(t.contains("Unknown level: bogus"), "{t}");
        assert!(t.contains("AI level: dumb"), "{t}");
        assert!(t.contains("X is dumb, O is"), "{t}");
        assert!(t.contains("Score after 1 game:"), "{t}");
        assert!(t.contains("4 : Select AI (current: dumb)"), "{t}");
        // The lecture's menu (docs/sources.md, SEEDS 004), then what sente adds.
        let menu = "1 : Play first (X)\n2 : Play second (O)\n3 : Computer vs Computer\n\
                    4 : Select AI (current: dumb)\n5 : Two humans\n0 : Exit\n";
        assert!(t.contains(menu), "{t}");
        // Same seed, same session.
        assert_eq!(t, session("4\nbogus\n5\n3\n4\n\n0\n", 4));
        let t = session("7\n0\n", 0);
        assert!(t.contains("Unknown command: 7"), "{t}");
    }

    #[test]
    fn playing_second_and_a_draw_is_scored() {
        // Perfect (X) against a human who blocks well enough to draw: scripted by trying every
        // square in a sensible order each turn; whatever happens, the game ends and is scored.
        let mut script = String::from("2\n");
        for _ in 0..4 {
            for m in ["22", "11", "13", "31", "33", "12", "21", "23", "32"] {
                script.push_str(m);
                script.push('\n');
            }
        }
        script.push_str("0\n");
        let t = session(&script, 2);
        assert!(t.contains("You play O against perfect."), "{t}");
        assert!(t.contains("Score after 1 game: you 0, computer"), "{t}");
    }
}
