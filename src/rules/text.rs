//! How a game's position meets a human at a terminal (`sente play`): the board as text, a move
//! by name, a typed move read and checked against the rules with the refusal explained, and a
//! finished game's result in words ([`TextPosition`]). The menus, prompts and players belong to
//! the terminal games; what is drawn and read is each game's own, here.
//!
//! - Gomoku (any rule): renju notation ([`crate::rules::notation`]): `h8` with row 1 at the
//!   **bottom**, also `8 8` (column and row numbers so counted) or a Gomocup pair `7,7` from 0
//!   at the top left. The board shows letters above and below, row numbers on both sides, `X`
//!   black, `O` white, the last stone in parentheses, and under renju and no-double-three, when
//!   black is to move, black's forbidden points as `*`.
//! - Tic-tac-toe (the 3x3 board, three in a row): a row and a column, `23` = row 2, column 3
//!   (spaces allowed), on a grid drawn with `|` and `---+---+---`.
//! - Go: GTP vertices in lower case (`d4`, no `i`, row 1 at the bottom; `pass`); the board as
//!   GTP letters them, with the captures and komi below ([`go_board_text`] also draws a count:
//!   dead stones and each side's area).

use crate::rules::game::GamePosition;
use crate::rules::go::{
    move_name, parse_move, GoGame, GoMove, IllegalMove, Point, ScoreDetail, COLUMNS,
};
use crate::rules::gomoku::forbidden_points;
use crate::rules::notation::{column_letter, renju_name, renju_y, split_letter_number};
use crate::rules::{Board, Cell, Color, MoveError, Pos};

/// Why a typed line is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unread {
    /// It is not written as a move of this game at all (the terminal shows its help).
    NotAMove,
    /// A move the rules refuse here, or a malformed one, with the explanation.
    Refused(String),
}

/// A position as the terminal shows and reads it.
pub trait TextPosition: GamePosition {
    /// The board as text, one line a row, ending with a newline.
    fn board_text(&self) -> String;
    /// The name of `mv`, as a human types it.
    fn move_text(&self, mv: Self::Move) -> String;
    /// The move `s` names, legal for the side to move.
    fn read_move(&self, s: &str) -> Result<Self::Move, Unread>;
    /// Once the game is over by its rules: the winner and how they won (completing
    /// "black ..."), or `None` and the sentence announcing a draw.
    fn result_text(&self) -> Option<(Option<Color>, String)>;
}

/// A board as text: `columns` letters above and below, `rows` labels (top line first) on both
/// sides, `cell(column, line)` the character of each point (lines counted from the top), the
/// point at `last` in parentheses.
pub fn draw_grid(
    columns: &[char],
    rows: &[usize],
    cell: impl Fn(usize, usize) -> char,
    last: Option<(usize, usize)>,
) -> String {
    let letters: String = columns.iter().map(|c| format!(" {c}")).collect();
    let mut s = format!("   {letters}\n");
    for (line, label) in rows.iter().enumerate() {
        s.push_str(&format!("{label:>2} "));
        let mut after_last = false;
        for x in 0..columns.len() {
            let is_last = last == Some((x, line));
            s.push(match (is_last, after_last) {
                (true, _) => '(',
                (false, true) => ')',
                (false, false) => ' ',
            });
            after_last = is_last;
            s.push(cell(x, line));
        }
        s.push(if after_last { ')' } else { ' ' });
        s.push_str(&format!(" {label}\n"));
    }
    s.push_str(&format!("   {letters}\n"));
    s
}

/// Whether `b` is the tic-tac-toe board rather than a gomoku one.
fn is_tic_tac_toe(b: &Board) -> bool {
    b.k() == 3 && b.width() == 3 && b.height() == 3
}

/// `black`, `white`.
fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Column and row (0-based, the row from the top as the board holds it) of a point typed on a
/// gomoku board `height` rows high, before any board check: `h8` and `8 8` count rows from 1 at
/// the bottom, `7,7` (Gomocup) from 0 at the top.
fn parse_gomoku_point(s: &str, height: usize) -> Option<(i64, i64)> {
    let s = s.trim().to_ascii_lowercase();
    let number = |t: &str| -> Option<i64> {
        let t = t.trim();
        if t.is_empty() || t.len() > 4 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse().ok()
    };
    if let Some((x, y)) = s.split_once(',') {
        return Some((number(x)?, number(y)?));
    }
    // A row off the board becomes y = -1, which the board check then refuses by name.
    let y_of = |row: i64| -> i64 {
        usize::try_from(row)
            .ok()
            .and_then(|r| renju_y(r, height))
            .map_or(-1, |y| y as i64)
    };
    let parts: Vec<&str> = s.split_whitespace().collect();
    if parts.len() == 2 {
        return Some((number(parts[0])? - 1, y_of(number(parts[1])?)));
    }
    let (x, row, rest) = split_letter_number(&s)?;
    rest.is_empty().then_some((x as i64, y_of(row as i64)))
}

/// Parses a tic-tac-toe `rc` (row, column 1..3) into a square 0..8, row-major.
fn parse_ttt_square(s: &str) -> Result<usize, String> {
    let digits: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.len() != 2 || !digits.iter().all(|c| c.is_ascii_digit()) {
        return Err("Please type a row and a column as two digits, like 23 (00 quits).".into());
    }
    let (r, c) = (digits[0] as u8 - b'0', digits[1] as u8 - b'0');
    if !(1..=3).contains(&r) || !(1..=3).contains(&c) {
        return Err("Rows and columns go from 1 to 3, like 23 (00 quits).".into());
    }
    Ok(((r - 1) * 3 + (c - 1)) as usize)
}

/// The tic-tac-toe grid: column numbers above, row numbers on the left, a blank line after.
fn ttt_text(board: &Board) -> String {
    let mut s = String::from("    1   2   3\n");
    for r in 0..3 {
        let cells: Vec<char> = (0..3)
            .map(|c| match board.get(c, r) {
                Cell::Black => 'X',
                Cell::White => 'O',
                _ => ' ',
            })
            .collect();
        s.push_str(&format!(
            "{}   {} | {} | {}\n",
            r + 1,
            cells[0],
            cells[1],
            cells[2]
        ));
        if r < 2 {
            s.push_str("   ---+---+---\n");
        }
    }
    s.push('\n');
    s
}

/// The gomoku board, black's forbidden points marked when black is to move under a rule that
/// has them.
fn gomoku_text(board: &Board) -> String {
    let forbidden = if board.rule().restricts_black()
        && board.to_move() == Color::Black
        && board.winner().is_none()
    {
        forbidden_points(board)
    } else {
        Vec::new()
    };
    let columns: Vec<char> = (0..board.width()).map(column_letter).collect();
    let rows: Vec<usize> = (1..=board.height()).rev().collect();
    let cell = |x: usize, y: usize| {
        let p = board.pos(x as i64, y as i64).expect("on the board");
        match board.cell(p) {
            Cell::Black => 'X',
            Cell::White => 'O',
            _ if forbidden.contains(&p) => '*',
            _ => '.',
        }
    };
    draw_grid(
        &columns,
        &rows,
        cell,
        board.last_move().map(|p| board.xy(p)),
    )
}

/// Gomoku and tic-tac-toe.
impl TextPosition for Board {
    fn board_text(&self) -> String {
        if is_tic_tac_toe(self) {
            ttt_text(self)
        } else {
            gomoku_text(self)
        }
    }
    /// `h8` (renju notation); tic-tac-toe's row and column, `23`.
    fn move_text(&self, p: Pos) -> String {
        let (x, y) = self.xy(p);
        if is_tic_tac_toe(self) {
            format!("{}{}", y + 1, x + 1)
        } else {
            renju_name(x, y, self.height())
        }
    }
    fn read_move(&self, s: &str) -> Result<Pos, Unread> {
        if is_tic_tac_toe(self) {
            let sq = parse_ttt_square(s).map_err(Unread::Refused)?;
            return match self.pos((sq % 3) as i64, (sq / 3) as i64) {
                Some(p) if self.check(p).is_ok() => Ok(p),
                _ => Err(Unread::Refused(
                    "That square is taken; choose an empty one.".into(),
                )),
            };
        }
        let (x, y) = parse_gomoku_point(s, self.height()).ok_or(Unread::NotAMove)?;
        let n = self.width();
        let last = column_letter(n - 1);
        let p = self.pos(x, y).ok_or_else(|| {
            Unread::Refused(format!(
                "{s} is off the board: columns a to {last}, rows 1 to {n} (7,7-style pairs count from 0)."
            ))
        })?;
        let name = self.move_text(p);
        match self.check(p) {
            Ok(()) => Ok(p),
            Err(MoveError::Occupied) => Err(format!("{name} is taken; choose an empty point.")),
            Err(MoveError::Forbidden(kind)) => Err(format!(
                "{name} is forbidden for black under {} ({kind}); the points marked * are.",
                self.rule().name()
            )),
            Err(e) => Err(format!("{name}: {e}.")),
        }
        .map_err(Unread::Refused)
    }
    fn result_text(&self) -> Option<(Option<Color>, String)> {
        if let Some(w) = self.winner() {
            let how = if is_tic_tac_toe(self) {
                "has three in a row"
            } else {
                "made five in a row"
            };
            return Some((Some(w), how.into()));
        }
        if self.is_full() {
            return Some((None, "The board is full: a draw.".into()));
        }
        let any_legal = self.empty_points().any(|p| self.check(p).is_ok());
        (!any_legal).then(|| {
            let who = colour_name(self.to_move());
            (
                None,
                format!("No point is left that {who} may play: a draw."),
            )
        })
    }
}

/// Why a Go move is refused, explained; `name` is the move's.
pub fn explain_illegal(name: &str, e: IllegalMove) -> String {
    match e {
        IllegalMove::Occupied => format!("{name} is occupied; choose an empty point."),
        IllegalMove::Suicide => format!(
            "{name} is suicide: the stone would have no liberties and captures nothing."
        ),
        IllegalMove::Ko => format!(
            "{name} retakes the ko at once, which is not allowed; play elsewhere first (a ko threat), then retake."
        ),
        IllegalMove::Superko => {
            format!("{name} would repeat an earlier position (positional superko).")
        }
        IllegalMove::OffBoard => format!("{name} is off the board."),
    }
}

/// The Go board as text: GTP letters, row 1 at the bottom, `X` black, `O` white, the last stone
/// in parentheses, the captures and komi below. With a count, dead stones are `x` / `o` and
/// empty points owned by a side `+` (black) / `-` (white).
pub fn go_board_text(game: &GoGame, count: Option<(&[Point], &ScoreDetail)>) -> String {
    let b = game.board();
    let (w, h) = (b.width(), b.height());
    let columns: Vec<char> = COLUMNS[..w]
        .iter()
        .map(|&c| (c as char).to_ascii_lowercase())
        .collect();
    let rows: Vec<usize> = (1..=h).rev().collect();
    let cell = |x: usize, line: usize| {
        let Some(p) = b.point(x, h - 1 - line) else {
            return ' ';
        };
        let dead = count.is_some_and(|(d, _)| d.contains(&p));
        let owner = count.and_then(|(_, c)| c.owner.get(p.idx()).copied().flatten());
        match (b.get(p), dead, owner) {
            (Some(Color::Black), false, _) => 'X',
            (Some(Color::White), false, _) => 'O',
            (Some(Color::Black), true, _) => 'x',
            (Some(Color::White), true, _) => 'o',
            (None, _, Some(Color::Black)) => '+',
            (None, _, Some(Color::White)) => '-',
            (None, _, None) => '.',
        }
    };
    let last = b.last_move().map(|(p, _)| {
        let (x, y) = b.xy(p);
        (x, h - 1 - y)
    });
    let mut s = draw_grid(
        &columns,
        &rows,
        cell,
        if count.is_some() { None } else { last },
    );
    s.push_str(&format!(
        "Captured: by black {}, by white {}.  Komi {}.\n",
        b.captures(Color::Black),
        b.captures(Color::White),
        game.rules().komi
    ));
    s
}

/// Go: the game ends with two passes and a count, which needs a player's estimate of the dead
/// stones, so the rules give no result in words here.
impl TextPosition for GoGame {
    fn board_text(&self) -> String {
        go_board_text(self, None)
    }
    /// `d4`, `pass`.
    fn move_text(&self, mv: GoMove) -> String {
        move_name(self.board(), mv).to_ascii_lowercase()
    }
    fn read_move(&self, s: &str) -> Result<GoMove, Unread> {
        let s = s.trim();
        let board = self.board();
        let Some(mv) = parse_move(board, s) else {
            let mut chars = s.chars();
            let letter = chars.next().map(|c| c.to_ascii_uppercase());
            let row = chars.as_str();
            let looks_like_vertex = letter.is_some_and(|c| c.is_ascii_alphabetic())
                && !row.is_empty()
                && row.bytes().all(|b| b.is_ascii_digit());
            let n = board.width();
            let last = (COLUMNS[n - 1] as char).to_ascii_lowercase();
            return Err(if letter == Some('I') && looks_like_vertex {
                Unread::Refused("Go columns skip the letter I: ... g h j k ...".to_string())
            } else if looks_like_vertex {
                let no_i = if n > 8 { " (no i)" } else { "" };
                Unread::Refused(format!(
                    "{s} is off the board: columns a to {last}{no_i}, rows 1 to {n}."
                ))
            } else {
                Unread::NotAMove
            });
        };
        self.check(mv, self.to_move())
            .map(|()| mv)
            .map_err(|e| Unread::Refused(explain_illegal(&self.move_text(mv), e)))
    }
    fn result_text(&self) -> Option<(Option<Color>, String)> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn grid_marks_the_last_point_and_labels_both_sides() {
        let g = draw_grid(
            &['a', 'b', 'c'],
            &[2, 1],
            |x, y| if (x, y) == (1, 0) { 'X' } else { '.' },
            Some((1, 0)),
        );
        assert_eq!(g, "    a b c\n 2  .(X).  2\n 1  . . .  1\n    a b c\n");
        let g = draw_grid(&['a', 'b'], &[1], |_, _| 'O', Some((1, 0)));
        assert_eq!(g, "    a b\n 1  O(O) 1\n    a b\n");
    }

    #[test]
    fn gomoku_point_forms() {
        // Renju notation: a1 is the lower left, the top row is 15.
        let parse_point = parse_gomoku_point;
        assert_eq!(parse_point("h8", 15), Some((7, 7)));
        assert_eq!(parse_point(" H8 ", 15), Some((7, 7)));
        assert_eq!(parse_point("8 8", 15), Some((7, 7)));
        assert_eq!(parse_point("7,7", 15), Some((7, 7)));
        assert_eq!(parse_point("7, 7", 15), Some((7, 7)));
        assert_eq!(parse_point("a15", 15), Some((0, 0)));
        assert_eq!(parse_point("a1", 15), Some((0, 14)));
        assert_eq!(parse_point("1 1", 15), Some((0, 14)));
        assert_eq!(parse_point("0,14", 15), Some((0, 14)));
        assert_eq!(parse_point("c2", 9), Some((2, 7)));
        for bad in [
            "", "h", "88", "h8x", "8 8 8", "-1,2", "é8", "h 8", "h99999", "h08",
        ] {
            assert_eq!(parse_point(bad, 15), None, "{bad:?}");
        }
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        assert_eq!(b.move_text(b.pos(7, 7).unwrap()), "h8");
        assert_eq!(b.move_text(b.pos(0, 14).unwrap()), "a1");
        assert_eq!(b.move_text(b.pos(14, 0).unwrap()), "o15");
        // Off the board, not malformed: the message says where the board ends.
        let Err(Unread::Refused(e)) = b.read_move("p1") else {
            panic!("p1 read");
        };
        assert!(
            e.contains("off the board: columns a to o, rows 1 to 15"),
            "{e}"
        );
        let Err(Unread::Refused(e)) = b.read_move("0 3") else {
            panic!("0 3 read");
        };
        assert!(e.contains("off the board"), "{e}");
        assert_eq!(b.read_move("foo"), Err(Unread::NotAMove));
    }

    #[test]
    fn tic_tac_toe_squares_are_row_then_column() {
        let mut b = Board::with_k(3, 3, 3, Rule::Freestyle);
        let p = b.read_move("2 3").unwrap();
        assert_eq!(b.xy(p), (2, 1));
        assert_eq!(b.move_text(p), "23");
        b.play(p).unwrap();
        assert!(b.read_move("23").is_err());
        assert!(b.read_move("44").is_err());
        assert!(b.read_move("ab").is_err());
        assert!(b.board_text().contains("2     |   | X\n"));
    }

    #[test]
    fn tic_tac_toe_square_forms() {
        assert_eq!(parse_ttt_square("23"), Ok(5));
        assert_eq!(parse_ttt_square(" 1 1 "), Ok(0));
        // `00` quits at the prompt, before the square is read.
        for bad in ["", "123", "4", "é1", "04", "00"] {
            assert!(parse_ttt_square(bad).is_err(), "{bad:?}");
        }
    }
}
