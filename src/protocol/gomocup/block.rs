//! Gathering a Gomocup block: the stone lines between `BOARD`, `YXBOARD` or `SWAP2BOARD` and
//! `DONE`, or the points between `YXBLOCK` or `YXBLOCKUNDO` and `DONE`, read by
//! [`super::parse`] one line at a time.

use super::parse::{parse_command, Command};
use crate::session::gomoku::StoneLine;

/// Which block a collector is gathering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// `BOARD`: set the position, answer a move.
    Board,
    /// `YXBOARD`: set the position, answer nothing.
    YxBoard,
    /// `SWAP2BOARD`: opening stones without colours.
    Swap2Board,
    /// `YXBLOCK`: `x,y` points to exclude from the searches' answers.
    YxBlock,
    /// `YXBLOCKUNDO`: `x,y` points to exclude no longer.
    YxBlockUndo,
}

impl BlockKind {
    /// The command word that opened the block.
    pub fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2Board => "SWAP2BOARD",
            BlockKind::YxBlock => "YXBLOCK",
            BlockKind::YxBlockUndo => "YXBLOCKUNDO",
        }
    }

    /// Whether the block's lines are bare points `x,y` (no field).
    fn takes_points(self) -> bool {
        matches!(self, BlockKind::YxBlock | BlockKind::YxBlockUndo)
    }
}

/// What feeding one line to a [`BoardCollector`] produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Feed {
    /// Still inside the block.
    Pending,
    /// `DONE` arrived: the stones, or the first malformed line's complaint.
    Complete(BlockKind, Result<Vec<StoneLine>, String>),
    /// `END` arrived inside the block: abandon it and quit.
    End,
}

/// Gathers the stone lines between `BOARD`/`YXBOARD`/`SWAP2BOARD` and `DONE`. A malformed line
/// does not end the block (the manager keeps sending until `DONE`); it is remembered and the
/// whole block is refused at `DONE`.
#[derive(Clone, Debug)]
pub struct BoardCollector {
    kind: BlockKind,
    stones: Vec<StoneLine>,
    error: Option<String>,
}

impl BoardCollector {
    /// Starts a block of `kind`.
    pub fn new(kind: BlockKind) -> BoardCollector {
        BoardCollector {
            kind,
            stones: Vec::new(),
            error: None,
        }
    }

    /// Records a line refused before parsing (one cut at the length limit): the block is
    /// answered with `message` at its `DONE`, unless an earlier line already spoiled it.
    pub fn refuse(&mut self, message: &str) {
        self.error.get_or_insert_with(|| message.to_string());
    }

    /// Takes one line of the block.
    pub fn feed(&mut self, line: &str) -> Feed {
        let parsed = parse_command(line);
        let complaint = match parsed {
            Ok(Command::Done) => {
                let result = match self.error.take() {
                    Some(e) => Err(e),
                    None => Ok(std::mem::take(&mut self.stones)),
                };
                return Feed::Complete(self.kind, result);
            }
            Ok(Command::End) => return Feed::End,
            Ok(Command::Stone(s)) => match (self.kind, s.field) {
                (BlockKind::Swap2Board, _) => {
                    self.stones.push(StoneLine { field: None, ..s });
                    None
                }
                (k, None) if k.takes_points() => {
                    self.stones.push(s);
                    None
                }
                (k, Some(_)) if k.takes_points() => {
                    Some(format!("malformed point line '{line}' (expected X,Y)"))
                }
                (_, Some(_)) => {
                    self.stones.push(s);
                    None
                }
                (_, None) => Some(format!(
                    "malformed stone line '{line}' (expected X,Y,F with F = 1, 2 or 3)"
                )),
            },
            Ok(_) => Some(format!(
                "'{line}' inside {} ... DONE (expected stone lines)",
                self.kind.name()
            )),
            Err(e) => Some(format!("malformed stone line '{line}': {e}")),
        };
        if let Some(c) = complaint {
            self.error.get_or_insert(c);
        }
        Feed::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collector_gathers_until_done() {
        let mut c = BoardCollector::new(BlockKind::Board);
        assert_eq!(c.feed("7,7,1"), Feed::Pending);
        assert_eq!(c.feed("8,8,2"), Feed::Pending);
        match c.feed("DONE") {
            Feed::Complete(BlockKind::Board, Ok(stones)) => assert_eq!(stones.len(), 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn collector_reports_a_malformed_line_at_done() {
        for bad in ["7,7", "x,y,1", "7;7;1", "TURN 1,1", "7,7,1,1"] {
            let mut c = BoardCollector::new(BlockKind::Board);
            c.feed("1,1,1");
            assert_eq!(c.feed(bad), Feed::Pending);
            c.feed("2,2,2");
            match c.feed("done") {
                Feed::Complete(_, Err(e)) => assert!(e.contains(bad), "{e}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
        let mut c = BoardCollector::new(BlockKind::YxBoard);
        c.feed("1,1,1");
        assert_eq!(c.feed("END"), Feed::End);
    }

    #[test]
    fn block_points_have_no_field() {
        let mut c = BoardCollector::new(BlockKind::YxBlock);
        c.feed("7,7");
        c.feed("8, 9");
        match c.feed("DONE") {
            Feed::Complete(BlockKind::YxBlock, Ok(points)) => {
                assert_eq!(points.len(), 2);
                assert_eq!((points[1].x, points[1].y), (8, 9));
            }
            other => panic!("{other:?}"),
        }
        let mut c = BoardCollector::new(BlockKind::YxBlockUndo);
        c.feed("7,7,1");
        match c.feed("DONE") {
            Feed::Complete(_, Err(e)) => assert!(e.contains("expected X,Y"), "{e}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn swap2_lines_have_no_colour() {
        let mut c = BoardCollector::new(BlockKind::Swap2Board);
        c.feed("7,7");
        c.feed("8,8");
        c.feed("9,9,1");
        match c.feed("DONE") {
            Feed::Complete(BlockKind::Swap2Board, Ok(stones)) => {
                assert_eq!(stones.len(), 3);
                assert!(stones.iter().all(|s| s.field.is_none()));
            }
            other => panic!("{other:?}"),
        }
    }
}
