//! Renju forbidden points for black (RIF rules): double three, double four, overline, with the
//! full recursive false-three test. Owns nothing but the law; the board is the m,n,k family's
//! ([`crate::rules::mnk::board`]).
//!
//! Definitions used (black only; white has no restrictions):
//!
//! ```text
//!   five          exactly five in a row            XXXXX      (always allowed, even with 4-4/3-3)
//!   overline      six or more in a row             XXXXXX
//!   four          a line one move from an EXACT five: X.XXX  XXXX.  XX.XX
//!   straight four a four with two five points:     .XXXX.     (one four, not two)
//!   three         a line one allowed move from a straight four: .XXX.  .X.XX.  .XX.X.
//! ```
//!
//! A point is forbidden when the stone does not make a five and makes an overline, two or more
//! fours (also two fours in one line: `X.X?X.X`, `XX.?X.XX`, `XXX.?.XXX`), or two or more real
//! threes. A three is real only if some point turning it into a straight four is itself allowed
//! (tested recursively with the hypothetical stones on the board) and the resulting four is a
//! true straight four (both ends give exactly five).
//!
//! Every scan starts next to the tested point and walks outward, so the tested point is never
//! read: the first level needs no mutation at all, and hypothetical stones are only placed (with
//! [`Board::set_scratch`]) while validating threes.

use crate::rules::gomoku::Forbidden;
use crate::rules::{Board, Cell, Pos};

/// Recursion guard for the false-three test. Each level adds a black stone, so the recursion
/// always ends; real positions need a handful of levels. Past this depth a straight-four point
/// is taken as allowed, which only matters on contrived boards and keeps the stack bounded.
const MAX_DEPTH: u32 = 64;

/// Whether black playing the empty point `p` is forbidden, and why. A move that makes exactly
/// five is never forbidden. Occupied or off-board points and boards with k != 5 give `None`.
/// The board's rule is not consulted: this is the renju law itself.
///
/// Clones the board only when a double three needs its threes validated.
pub fn forbidden(board: &Board, p: Pos) -> Option<Forbidden> {
    if !testable(board, p) {
        return None;
    }
    match analyse(board, p) {
        Verdict::Done(v) => v,
        Verdict::Threes(threes) => {
            let mut scratch = board.clone();
            validate_threes(&mut scratch, p, &threes, 0)
        }
    }
}

/// [`forbidden`] without allocation: hypothetical stones go on `board` through
/// [`Board::set_scratch`] and every cell is restored before returning (hash and history are never
/// touched). This is the search's path.
pub fn forbidden_in_place(board: &mut Board, p: Pos) -> Option<Forbidden> {
    if !testable(board, p) {
        return None;
    }
    classify(board, p, 0)
}

/// Every empty point renju forbids black, row by row; none when k != 5.
pub(super) fn every_forbidden(board: &Board) -> Vec<Pos> {
    if board.k() != 5 {
        return Vec::new();
    }
    let mut scratch = board.clone();
    let points: Vec<Pos> = board.empty_points().collect();
    points
        .into_iter()
        .filter(|&p| classify(&mut scratch, p, 0).is_some())
        .collect()
}

/// An empty on-board point of a five-in-a-row board.
fn testable(board: &Board, p: Pos) -> bool {
    board.k() == 5 && p.idx() < board.array_len() && board.cell(p) == Cell::Empty
}

/// The up-to-two points that would turn a line's three into a straight four.
type ThreeLine = [Option<Pos>; 2];

/// The first-level result: either final, or the candidate three lines still to validate.
enum Verdict {
    Done(Option<Forbidden>),
    /// At least two lines look like threes; up to four lines, unused slots are `None`.
    Threes([Option<ThreeLine>; 4]),
}

/// Classifies `p` (empty) for black with the full recursion; `board` is restored on return.
fn classify(board: &mut Board, p: Pos, depth: u32) -> Option<Forbidden> {
    match analyse(board, p) {
        Verdict::Done(v) => v,
        Verdict::Threes(threes) => validate_threes(board, p, &threes, depth),
    }
}

/// Everything about `p` that needs no hypothetical stone besides `p` itself (never read here).
fn analyse(board: &Board, p: Pos) -> Verdict {
    let black = Cell::Black;
    let mut overline = false;
    let mut fours = 0u32;
    let mut threes: [Option<ThreeLine>; 4] = [None; 4];
    let mut n_threes = 0;
    for (i, dir) in board.dirs().into_iter().enumerate() {
        // The black run through p and the first non-black cell on each side:
        //
        //   end_b  run_b..  p  ..run_f  end_f
        let (run_f, end_f) = walk(board, p, dir, black);
        let (run_b, end_b) = walk(board, p, -dir, black);
        let run = run_b + 1 + run_f;
        if run == 5 {
            return Verdict::Done(None);
        }
        if run > 5 {
            overline = true;
            continue;
        }
        // Filling an empty end joins the run to whatever black lies beyond it.
        let beyond_f = beyond(board, end_f, dir);
        let beyond_b = beyond(board, end_b, -dir);
        let five_f = beyond_f.is_some_and(|n| run + 1 + n == 5);
        let five_b = beyond_b.is_some_and(|n| run + 1 + n == 5);
        match (five_f, five_b) {
            // .XXXX. : two five points, one straight four. Anything else with two five points
            // (X.XXX.X, XX.XX.XX, XXX.X.XXX) is two fours in one line.
            (true, true) if run == 4 => fours += 1,
            (true, true) => fours += 2,
            (true, false) | (false, true) => fours += 1,
            (false, false) => {
                let q_f = beyond_f
                    .filter(|&n| run + 1 + n == 4)
                    .and_then(|n| straight_four_point(board, end_f, dir, n, run));
                let q_b = beyond_b
                    .filter(|&n| run + 1 + n == 4)
                    .and_then(|n| straight_four_point(board, end_b, -dir, n, run));
                if q_f.is_some() || q_b.is_some() {
                    threes[i] = Some([q_f, q_b]);
                    n_threes += 1;
                }
            }
        }
    }
    // Five in any direction was answered above; an overline beats the rest.
    if overline {
        return Verdict::Done(Some(Forbidden::Overline));
    }
    if fours >= 2 {
        return Verdict::Done(Some(Forbidden::DoubleFour));
    }
    if n_threes >= 2 {
        Verdict::Threes(threes)
    } else {
        Verdict::Done(None)
    }
}

/// Counts `cell` stones from next to `from` along `dir` (at most five: anything longer is an
/// overline either way); returns the count and the first other cell. Only stones are stepped
/// over, and the first cell past the board edge is a Wall, so the walk never leaves the padded
/// array.
#[inline]
fn walk(board: &Board, from: Pos, dir: isize, cell: Cell) -> (usize, Pos) {
    let mut n = 0;
    let mut q = from.step(dir, 1);
    while board.cell(q) == cell && n < 5 {
        n += 1;
        q = q.step(dir, 1);
    }
    (n, q)
}

/// If `end` is empty, the black stones right beyond it along `dir` (filling `end` joins them).
#[inline]
fn beyond(board: &Board, end: Pos, dir: isize) -> Option<usize> {
    if board.cell(end) != Cell::Empty {
        return None;
    }
    Some(walk(board, end, dir, Cell::Black).0)
}

/// `q` is an empty end of the run through p along `dir`, with `n` black stones beyond it, and
/// filling `q` makes a run of exactly four (`len_before` + 1 + `n`). Returns `q` if that four is
/// straight: both its ends empty and each completing an exact five (no black just past them).
///
/// ```text
///   e_back [run through p] q [n stones] e_fwd
/// ```
fn straight_four_point(
    board: &Board,
    q: Pos,
    dir: isize,
    n: usize,
    len_before: usize,
) -> Option<Pos> {
    let e_fwd = q.step(dir, n as isize + 1);
    let e_back = q.step(dir, -(len_before as isize) - 1);
    let open =
        |e: Pos, d: isize| board.cell(e) == Cell::Empty && board.cell(e.step(d, 1)) != Cell::Black;
    (open(e_fwd, dir) && open(e_back, -dir)).then_some(q)
}

/// With `p` hypothetically black, counts the three lines that have an allowed straight-four
/// point; two or more make `p` a double three. Restores `p` before returning.
fn validate_threes(
    board: &mut Board,
    p: Pos,
    threes: &[Option<ThreeLine>; 4],
    depth: u32,
) -> Option<Forbidden> {
    let total = threes.iter().flatten().count();
    board.set_scratch(p, Cell::Black);
    let mut real = 0;
    let mut left = total;
    for line in threes.iter().flatten() {
        left -= 1;
        let is_real = line
            .iter()
            .flatten()
            .any(|&q| depth >= MAX_DEPTH || classify(board, q, depth + 1).is_none());
        if is_real {
            real += 1;
        }
        if real >= 2 || real + left < 2 {
            break;
        }
    }
    board.set_scratch(p, Cell::Empty);
    (real >= 2).then_some(Forbidden::DoubleThree)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::gomoku::forbidden_points;
    use crate::rules::{Color, MoveError, Rule};

    /// The hand-checked positions; the format is documented at the top of the file.
    const CASES: &str = include_str!("renju_cases.txt");

    struct Case {
        name: String,
        expect: Option<Forbidden>,
        /// The board size, when the diagram is centred on a larger board.
        board: Option<(usize, usize)>,
        rows: Vec<Vec<char>>,
    }

    fn parse_kind(s: &str) -> Option<Forbidden> {
        match s {
            "none" => None,
            "double-three" => Some(Forbidden::DoubleThree),
            "double-four" => Some(Forbidden::DoubleFour),
            "overline" => Some(Forbidden::Overline),
            other => panic!("unknown expectation {other:?}"),
        }
    }

    fn parse_cases() -> Vec<Case> {
        let mut cases: Vec<Case> = Vec::new();
        for line in CASES.lines() {
            let line = line.trim();
            if line.starts_with('#') {
                continue;
            }
            if let Some(name) = line.strip_prefix("case ") {
                cases.push(Case {
                    name: name.to_string(),
                    expect: None,
                    board: None,
                    rows: Vec::new(),
                });
                continue;
            }
            if line.is_empty() {
                continue;
            }
            let case = cases.last_mut().expect("a line before the first case");
            if let Some(kind) = line.strip_prefix("expect ") {
                case.expect = parse_kind(kind.trim());
            } else if let Some(size) = line.strip_prefix("board ") {
                let (w, h) = size.trim().split_once('x').expect("board WxH");
                case.board = Some((w.parse().unwrap(), h.parse().unwrap()));
            } else {
                let row: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
                assert!(
                    row.iter().all(|c| "XO.?".contains(*c)),
                    "{}: bad row {line:?}",
                    case.name
                );
                case.rows.push(row);
            }
        }
        cases
    }

    /// The case's board under `rule` and the tested point.
    fn build(case: &Case, rule: Rule) -> (Board, Pos) {
        let h = case.rows.len();
        let w = case.rows[0].len();
        assert!(
            case.rows.iter().all(|r| r.len() == w),
            "{}: ragged diagram",
            case.name
        );
        let (bw, bh) = case.board.unwrap_or((w, h));
        assert!(
            bw >= w && bh >= h,
            "{}: diagram larger than board",
            case.name
        );
        let (ox, oy) = ((bw - w) / 2, (bh - h) / 2);
        let mut board = Board::new(bw, bh, rule).expect("case board size");
        let mut target = None;
        for (y, row) in case.rows.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                let p = board.pos((x + ox) as i64, (y + oy) as i64).unwrap();
                match c {
                    'X' => {
                        board.place(p, Color::Black);
                    }
                    'O' => {
                        board.place(p, Color::White);
                    }
                    '?' => {
                        assert!(target.is_none(), "{}: two '?'", case.name);
                        target = Some(p);
                    }
                    _ => {}
                }
            }
        }
        assert!(
            board.winner().is_none(),
            "{}: set-up already won",
            case.name
        );
        (
            board,
            target.unwrap_or_else(|| panic!("{}: no '?'", case.name)),
        )
    }

    fn snapshot(board: &Board) -> (u64, Vec<Cell>) {
        let cells = (0..board.array_len() as u16)
            .map(|i| board.cell(Pos(i)))
            .collect();
        (board.hash(), cells)
    }

    #[test]
    fn the_case_file_has_enough_cases() {
        let cases = parse_cases();
        assert!(cases.len() >= 40, "only {} cases", cases.len());
        for kind in [
            None,
            Some(Forbidden::DoubleThree),
            Some(Forbidden::DoubleFour),
            Some(Forbidden::Overline),
        ] {
            assert!(
                cases.iter().any(|c| c.expect == kind),
                "no case for {kind:?}"
            );
        }
    }

    #[test]
    fn hand_checked_cases() {
        let mut failures = Vec::new();
        for case in parse_cases() {
            let (mut board, p) = build(&case, Rule::Renju);
            let before = snapshot(&board);
            let got = forbidden(&board, p);
            let got_in_place = forbidden_in_place(&mut board, p);
            assert_eq!(snapshot(&board), before, "{}: board changed", case.name);
            if got != case.expect || got_in_place != case.expect {
                failures.push(format!(
                    "{}: expected {:?}, forbidden {:?}, in place {:?}\n{}",
                    case.name,
                    case.expect,
                    got,
                    got_in_place,
                    board.to_text()
                ));
            }
            if forbidden_points(&board).contains(&p) != case.expect.is_some() {
                failures.push(format!("{}: forbidden_points disagrees", case.name));
            }
        }
        assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    }

    #[test]
    fn play_refuses_forbidden_black_moves_only_under_renju() {
        for case in parse_cases() {
            let Some(kind) = case.expect else { continue };
            let (mut board, p) = build(&case, Rule::Renju);
            board.set_to_move(Color::Black);
            let before = snapshot(&board);
            let stones = board.stones();
            assert_eq!(
                board.play(p),
                Err(MoveError::Forbidden(kind)),
                "{}",
                case.name
            );
            assert_eq!(snapshot(&board), before, "{}: board changed", case.name);
            assert_eq!(board.stones(), stones);
            assert_eq!(board.to_move(), Color::Black);
            // White may take the same point.
            board.set_to_move(Color::White);
            assert!(board.play(p).is_ok(), "{}: white refused", case.name);

            for rule in [
                Rule::Freestyle,
                Rule::Standard,
                Rule::Caro,
                Rule::CaroStandard,
            ] {
                let (mut other, p) = build(&case, rule);
                other.set_to_move(Color::Black);
                assert!(other.play(p).is_ok(), "{}: {rule:?} forbade", case.name);
                assert!(forbidden_points(&other).is_empty());
            }
        }
    }

    #[test]
    fn occupied_and_wall_points_are_not_forbidden() {
        let mut board = Board::new(15, 15, Rule::Renju).unwrap();
        let p = board.centre();
        board.place(p, Color::Black);
        assert_eq!(forbidden(&board, p), None);
        assert_eq!(forbidden_in_place(&mut board, p), None);
        assert_eq!(forbidden(&board, Pos(0)), None);
        assert_eq!(forbidden(&board, Pos(u16::MAX)), None);
        assert_eq!(forbidden_in_place(&mut board, Pos(u16::MAX)), None);
    }

    #[test]
    fn forbidden_points_lists_row_by_row() {
        let case = parse_cases()
            .into_iter()
            .find(|c| c.name == "open three cross")
            .unwrap();
        let (board, p) = build(&case, Rule::Renju);
        let points = forbidden_points(&board);
        assert!(points.contains(&p));
        assert!(points.windows(2).all(|w| w[0] < w[1]));
    }
}
