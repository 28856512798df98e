//! `sente play ttt`: tic-tac-toe in a terminal (SEEDS 002 and 004). Owns the menu, the board
//! drawing, the reading of human moves and the running score across games; the moves of the
//! computer come from the levels of [`crate::players::ttt`].
//!
//! Everything goes through the reader and writer given to [`run`], so whole sessions are
//! tested from scripted input. End of input ends the session cleanly at any prompt.
//!
//! A human move is a row and a column, `23` = row 2, column 3 (spaces allowed: `2 3`); `00`
//! abandons the game (not scored) and returns to the menu.
//!
//! CLI: `sente play ttt` calls `run(&mut stdin.lock(), &mut stdout, seed)`.

use std::io::{self, BufRead, Write};

use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::players::ttt::{square_pos, ttt_player, TttPlayer, TTT_LEVELS};
use crate::rules::{Board, Cell, Color, Rule};

/// Wins per named participant and draws, kept across the games of a session.
#[derive(Default, Debug)]
struct Score {
    wins: Vec<(String, u32)>,
    draws: u32,
    games: u32,
}

impl Score {
    fn ensure(&mut self, who: &str) {
        if !self.wins.iter().any(|(w, _)| w == who) {
            self.wins.push((who.to_string(), 0));
        }
    }
    fn win(&mut self, who: &str) {
        self.ensure(who);
        if let Some((_, n)) = self.wins.iter_mut().find(|(w, _)| w == who) {
            *n += 1;
        }
        self.games += 1;
    }
    fn draw(&mut self) {
        self.draws += 1;
        self.games += 1;
    }
    fn line(&self) -> String {
        let mut parts: Vec<String> = self.wins.iter().map(|(w, n)| format!("{w} {n}")).collect();
        parts.push(format!("draws {}", self.draws));
        let s = if self.games == 1 { "" } else { "s" };
        format!("Score after {} game{s}: {}", self.games, parts.join(", "))
    }
}

/// Who moves for one side.
enum Agent {
    Human,
    Computer(Box<dyn TttPlayer>),
}

struct Side {
    agent: Agent,
    /// Name in messages and in the score.
    label: String,
}

/// What a game ended with.
enum End {
    Won(Color),
    Draw,
    Quit,
    Eof,
}

/// Reads one line; `None` at end of input.
fn read_line(input: &mut dyn BufRead) -> io::Result<Option<String>> {
    let mut s = String::new();
    match input.read_line(&mut s) {
        Ok(0) => Ok(None),
        Ok(_) => Ok(Some(s.trim().to_string())),
        // A line that is not UTF-8 is answered like any other bad input.
        Err(e) if e.kind() == io::ErrorKind::InvalidData => Ok(Some(String::from("?"))),
        Err(e) => Err(e),
    }
}

fn draw_board(board: &Board, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "    1   2   3")?;
    for r in 0..3 {
        let cells: Vec<char> = (0..3)
            .map(|c| match board.get(c, r) {
                Cell::Black => 'X',
                Cell::White => 'O',
                _ => ' ',
            })
            .collect();
        writeln!(
            out,
            "{}   {} | {} | {}",
            r + 1,
            cells[0],
            cells[1],
            cells[2]
        )?;
        if r < 2 {
            writeln!(out, "   ---+---+---")?;
        }
    }
    writeln!(out)
}

/// Parses `rc` (row, column 1..3) into a square; `Ok(None)` for the quit code `00`.
fn parse_move(s: &str) -> Result<Option<usize>, &'static str> {
    let digits: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.len() != 2 || !digits.iter().all(|c| c.is_ascii_digit()) {
        return Err("Please type a row and a column as two digits, like 23 (00 quits).");
    }
    let (r, c) = (digits[0] as u8 - b'0', digits[1] as u8 - b'0');
    if r == 0 && c == 0 {
        return Ok(None);
    }
    if !(1..=3).contains(&r) || !(1..=3).contains(&c) {
        return Err("Rows and columns go from 1 to 3, like 23 (00 quits).");
    }
    Ok(Some(((r - 1) * 3 + (c - 1)) as usize))
}

fn mark_of(c: Color) -> char {
    match c {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

fn play_game(
    sides: &mut [Side; 2],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<End> {
    let mut board = Board::with_k(3, 3, 3, Rule::Freestyle);
    draw_board(&board, out)?;
    loop {
        if let Some(w) = board.winner() {
            return Ok(End::Won(w));
        }
        if board.is_full() {
            return Ok(End::Draw);
        }
        let color = board.to_move();
        let side = &mut sides[color.index()];
        let p = match &mut side.agent {
            Agent::Human => loop {
                write!(
                    out,
                    "{} ({}), your move (row column, e.g. 23; 00 quits): ",
                    side.label,
                    mark_of(color)
                )?;
                out.flush()?;
                let Some(line) = read_line(input)? else {
                    writeln!(out)?;
                    return Ok(End::Eof);
                };
                match parse_move(&line) {
                    Err(msg) => writeln!(out, "{msg}")?,
                    Ok(None) => return Ok(End::Quit),
                    Ok(Some(sq)) => match square_pos(&board, sq) {
                        Some(p) if board.is_empty(p) => break p,
                        _ => writeln!(out, "That square is taken; choose an empty one.")?,
                    },
                }
            },
            Agent::Computer(player) => {
                let Some(p) = player.choose(&board) else {
                    // Unreachable on a live 3 x 3 board; end the game rather than loop.
                    return Ok(End::Draw);
                };
                let (x, y) = board.xy(p);
                writeln!(
                    out,
                    "{} ({}) plays {}{}.",
                    side.label,
                    mark_of(color),
                    y + 1,
                    x + 1
                )?;
                p
            }
        };
        if board.play(p).is_err() {
            writeln!(out, "That move is not legal; try again.")?;
            continue;
        }
        draw_board(&board, out)?;
    }
}

fn choose_level(
    current: &str,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<Option<String>> {
    writeln!(out, "AI levels:")?;
    for (i, (name, desc)) in TTT_LEVELS.iter().enumerate() {
        writeln!(out, "{} : {name} - {desc}", i + 1)?;
    }
    loop {
        write!(
            out,
            "Choose a level by number or name (empty keeps {current}): "
        )?;
        out.flush()?;
        let Some(line) = read_line(input)? else {
            return Ok(None);
        };
        if line.is_empty() {
            return Ok(Some(current.to_string()));
        }
        let by_number = line
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| TTT_LEVELS.get(i))
            .map(|(n, _)| n.to_string());
        let by_name = ttt_player(&line, 0).map(|p| p.name().to_string());
        match by_number.or(by_name) {
            Some(level) => {
                writeln!(out, "AI level: {level}")?;
                return Ok(Some(level));
            }
            None => writeln!(out, "Unknown level: {line}")?,
        }
    }
}

/// Runs the interactive tic-tac-toe menu until `0` or end of input. `seed` seeds the computer
/// players' tie-breaks and the random level of the second computer, so a session replays.
pub fn run(input: &mut dyn BufRead, output: &mut dyn Write, seed: u64) -> io::Result<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut level = TTT_LEVELS[0].0.to_string();
    let mut score = Score::default();
    let out = output;
    loop {
        writeln!(out)?;
        writeln!(out, "### Tic-Tac-Toe ###")?;
        writeln!(out, "1 : Play first (X)")?;
        writeln!(out, "2 : Play second (O)")?;
        writeln!(out, "3 : Two humans")?;
        writeln!(out, "4 : Computer vs Computer")?;
        writeln!(out, "5 : Select AI (current: {level})")?;
        writeln!(out, "0 : Exit")?;
        write!(out, "Enter command: ")?;
        out.flush()?;
        let Some(cmd) = read_line(input)? else {
            writeln!(out)?;
            writeln!(out, "Goodbye.")?;
            return Ok(());
        };
        let computer = |lvl: &str, rng: &mut ChaCha8Rng| -> Agent {
            match ttt_player(lvl, rng.gen()) {
                Some(p) => Agent::Computer(p),
                None => Agent::Human,
            }
        };
        let mut sides: [Side; 2] = match cmd.as_str() {
            "1" | "2" => {
                let human = Side {
                    agent: Agent::Human,
                    label: "you".into(),
                };
                let comp = Side {
                    agent: computer(&level, &mut rng),
                    label: "computer".into(),
                };
                writeln!(
                    out,
                    "You play {} against {level}.",
                    if cmd == "1" { 'X' } else { 'O' }
                )?;
                if cmd == "1" {
                    [human, comp]
                } else {
                    [comp, human]
                }
            }
            "3" => [
                Side {
                    agent: Agent::Human,
                    label: "player X".into(),
                },
                Side {
                    agent: Agent::Human,
                    label: "player O".into(),
                },
            ],
            "4" => {
                let second = TTT_LEVELS[rng.gen_range(0..TTT_LEVELS.len())].0;
                writeln!(
                    out,
                    "Computer vs computer: X is {level}, O is {second} (chosen at random)."
                )?;
                [
                    Side {
                        agent: computer(&level, &mut rng),
                        label: "computer X".into(),
                    },
                    Side {
                        agent: computer(second, &mut rng),
                        label: "computer O".into(),
                    },
                ]
            }
            "5" => {
                match choose_level(&level, input, out)? {
                    Some(l) => level = l,
                    None => {
                        writeln!(out)?;
                        writeln!(out, "Goodbye.")?;
                        return Ok(());
                    }
                }
                continue;
            }
            "0" => {
                writeln!(out, "Goodbye.")?;
                writeln!(out, "{}", score.line())?;
                return Ok(());
            }
            other => {
                writeln!(out, "Unknown command: {other}")?;
                continue;
            }
        };
        // "you" leads the score line whichever side the human took.
        let mut labels: Vec<String> = sides.iter().map(|s| s.label.clone()).collect();
        labels.sort_by_key(|l| l != "you");
        for l in &labels {
            score.ensure(l);
        }
        match play_game(&mut sides, input, out)? {
            End::Won(c) => {
                let who = &sides[c.index()].label;
                let msg = match who.as_str() {
                    "you" => "You win!".to_string(),
                    "computer" => "The computer wins.".to_string(),
                    other => format!("{other} wins!"),
                };
                writeln!(out, "{} ({}) has three in a row. {msg}", who, mark_of(c))?;
                score.win(&who.clone());
                writeln!(out, "{}", score.line())?;
            }
            End::Draw => {
                writeln!(out, "The board is full: a draw.")?;
                score.draw();
                writeln!(out, "{}", score.line())?;
            }
            End::Quit => {
                writeln!(out, "Game abandoned (not scored).")?;
            }
            End::Eof => {
                writeln!(out, "Goodbye.")?;
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(script: &str, seed: u64) -> String {
        let mut input = io::Cursor::new(script.as_bytes().to_vec());
        let mut out = Vec::new();
        run(&mut input, &mut out, seed).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn two_humans_refusals_win_and_score() {
        // X: 11, 12, 13 wins the top row; O: 21, 22. Bad inputs in between.
        let t = session("3\n11\n11\nab\n44\n21\n1 2\n22\n13\n0\n", 1);
        assert!(t.contains("That square is taken"), "{t}");
        assert!(t.contains("Please type a row and a column"), "{t}");
        assert!(t.contains("Rows and columns go from 1 to 3"), "{t}");
        assert!(
            t.contains("player X (X) has three in a row. player X wins!"),
            "{t}"
        );
        assert!(
            t.contains("Score after 1 game: player X 1, player O 0, draws 0"),
            "{t}"
        );
        assert!(t
            .trim_end()
            .ends_with("Score after 1 game: player X 1, player O 0, draws 0"));
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
        for script in ["1\n", "", "5\n", "3\n11\n"] {
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
        let t = session("5\nbogus\n6\n4\n5\n\n0\n", 4);
        assert!(t.contains("Unknown level: bogus"), "{t}");
        assert!(t.contains("AI level: dumb"), "{t}");
        assert!(t.contains("X is dumb, O is"), "{t}");
        assert!(t.contains("Score after 1 game:"), "{t}");
        assert!(t.contains("5 : Select AI (current: dumb)"), "{t}");
        // Same seed, same session.
        assert_eq!(t, session("5\nbogus\n6\n4\n5\n\n0\n", 4));
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

    #[test]
    fn parse_move_forms() {
        assert_eq!(parse_move("23"), Ok(Some(5)));
        assert_eq!(parse_move(" 1 1 "), Ok(Some(0)));
        assert_eq!(parse_move("00"), Ok(None));
        assert!(parse_move("").is_err());
        assert!(parse_move("123").is_err());
        assert!(parse_move("4").is_err());
        assert!(parse_move("é1").is_err());
        assert!(parse_move("04").is_err());
    }
}
