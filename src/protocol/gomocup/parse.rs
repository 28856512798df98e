//! Reading Gomocup ("Piskvork new protocol"): one normalised input line becomes a typed
//! [`Command`] (nom parsers), an `INFO` line a typed setting, and the reader thread learns
//! which lines interrupt a search ([`interrupt_of`]). No game state lives here.
//!
//! Command words and INFO keys are case-insensitive (Yixin-Board sends lower case, pygomo-lib
//! upper-case INFO keys) and are matched as whole tokens: `STARTX` is unknown, not `START`.

use nom::branch::alt;
use nom::bytes::complete::take_while1;
use nom::character::complete::{char, digit1, space0};
use nom::combinator::{all_consuming, map_res, opt, recognize};
use nom::sequence::{pair, preceded, tuple};
use nom::IResult;

use std::fmt;

use crate::session::gomoku::{Setting, StoneLine};
use crate::session::options::{info_value, InfoValue};
use crate::session::Interrupt;

/// A parsed Gomocup command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Start(i64),
    RectStart(i64, i64),
    Restart,
    Begin,
    Turn(i64, i64),
    /// Opens a block answered with a move.
    Board,
    /// Opens a block answered with nothing.
    YxBoard,
    /// Opens a SWAP2 opening block.
    Swap2Board,
    /// Closes a block.
    Done,
    /// A stone line `x,y,f` or `x,y`.
    Stone(StoneLine),
    Info(Setting),
    End,
    About,
    Takeback(i64, i64),
    Play(i64, i64),
    YxStop,
    Stop,
    YxShowForbid,
    YxNbest(i64),
    /// Yixin-Board's: forget the transposition table and what the search learnt.
    YxHashClear,
    /// Yixin-Board's: say who we are and the limits of our settings.
    YxShowInfo,
    /// Yixin-Board's: opens a block of `x,y` points no search may answer.
    YxBlock,
    /// Yixin-Board's: opens a block of `x,y` points to take out of the YXBLOCK set.
    YxBlockUndo,
    /// Yixin-Board's: empty the YXBLOCK set.
    YxBlockReset,
    /// Yixin-Board's: the move leaving the side to move closest to the bias (default 0).
    YxBalanceOne(i64),
    /// Yixin-Board's: the two moves leaving the side to move closest to the bias.
    YxBalanceTwo(i64),
    /// Yixin-Board's: the moves that stop the opponent's threat, and the best of them.
    YxSearchDefend,
    /// Any other command word (the whole line, for the `UNKNOWN` reply).
    Unknown(String),
}

/// Why a line with a known command word could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The command word, upper case.
    pub command: String,
    /// What its arguments should look like.
    pub expected: &'static str,
    /// What came instead.
    pub got: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.got.is_empty() {
            write!(f, "{} expects {}", self.command, self.expected)
        } else {
            write!(
                f,
                "{} expects {}, got '{}'",
                self.command, self.expected, self.got
            )
        }
    }
}

impl std::error::Error for ParseError {}

fn integer(i: &str) -> IResult<&str, i64> {
    map_res(
        recognize(pair(opt(alt((char('-'), char('+')))), digit1)),
        |s: &str| s.parse::<i64>(),
    )(i)
}

fn unsigned(i: &str) -> IResult<&str, u64> {
    map_res(recognize(pair(opt(char('+')), digit1)), |s: &str| {
        s.parse::<u64>()
    })(i)
}

fn comma(i: &str) -> IResult<&str, char> {
    preceded(space0, char(','))(i)
}

/// `x,y` (spaces around the comma tolerated).
fn coords(i: &str) -> IResult<&str, (i64, i64)> {
    let (i, (x, _, _, y)) = tuple((integer, comma, space0, integer))(i)?;
    Ok((i, (x, y)))
}

/// `x,y` or `x,y,f`.
fn stone(i: &str) -> IResult<&str, StoneLine> {
    let (i, (x, y)) = coords(i)?;
    let (i, field) = opt(preceded(pair(comma, space0), integer))(i)?;
    Ok((i, StoneLine { x, y, field }))
}

/// The whole of `args` (already trimmed) must match `p`.
fn whole<'a, T>(args: &'a str, p: impl FnMut(&'a str) -> IResult<&'a str, T>) -> Option<T> {
    all_consuming(p)(args.trim()).ok().map(|(_, v)| v)
}

fn word(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !c.is_whitespace())(i)
}

/// Splits a line into its first token and the rest (trimmed).
fn head(line: &str) -> (&str, &str) {
    let line = line.trim();
    match word(line) {
        Ok((rest, w)) => (w, rest.trim()),
        Err(_) => ("", ""),
    }
}

/// Largest |bias| YXBALANCEONE / YXBALANCETWO take (far beyond any evaluation short of a
/// forced win).
const MAX_BIAS: u64 = 1_000_000;

/// Parses one normalised, non-empty line.
pub fn parse_command(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    if line.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
        return whole(line, stone)
            .map(Command::Stone)
            .ok_or_else(|| ParseError {
                command: "stone line".into(),
                expected: "X,Y or X,Y,F with integers",
                got: line.to_string(),
            });
    }
    let (cmd, args) = head(line);
    let upper = cmd.to_ascii_uppercase();
    let bad = |expected: &'static str| ParseError {
        command: upper.clone(),
        expected,
        got: args.to_string(),
    };
    // BEGIN, RESTART, ABOUT and YXSHOWFORBID take nothing. The block words (BOARD, YXBOARD,
    // SWAP2BOARD, YXBLOCK, YXBLOCKUNDO, DONE) ignore anything after them: refusing one would
    // answer the stone lines that follow one by one and put the manager a reply out of step.
    // END, STOP and YXSTOP act whatever follows, as the reader thread's interrupt test does.
    let bare = |c: Command| {
        if args.is_empty() {
            Ok(c)
        } else {
            Err(bad("no arguments"))
        }
    };
    let c = match upper.as_str() {
        "START" => Command::Start(whole(args, integer).ok_or_else(|| bad("a board size N"))?),
        "RECTSTART" => {
            let (w, h) = whole(args, coords).ok_or_else(|| bad("W,H"))?;
            Command::RectStart(w, h)
        }
        "RESTART" => bare(Command::Restart)?,
        "BEGIN" => bare(Command::Begin)?,
        "TURN" => {
            let (x, y) = whole(args, coords).ok_or_else(|| bad("X,Y"))?;
            Command::Turn(x, y)
        }
        "BOARD" => Command::Board,
        "YXBOARD" => Command::YxBoard,
        "SWAP2BOARD" => Command::Swap2Board,
        "DONE" => Command::Done,
        "INFO" => Command::Info(parse_info(args)),
        "END" => Command::End,
        "ABOUT" => bare(Command::About)?,
        "TAKEBACK" => {
            let (x, y) = whole(args, coords).ok_or_else(|| bad("X,Y"))?;
            Command::Takeback(x, y)
        }
        "PLAY" => {
            let (x, y) = whole(args, coords).ok_or_else(|| bad("X,Y"))?;
            Command::Play(x, y)
        }
        "YXSTOP" => Command::YxStop,
        "STOP" => Command::Stop,
        "YXSHOWFORBID" => bare(Command::YxShowForbid)?,
        "YXHASHCLEAR" => bare(Command::YxHashClear)?,
        "YXSHOWINFO" => bare(Command::YxShowInfo)?,
        "YXBLOCK" => Command::YxBlock,
        "YXBLOCKUNDO" => Command::YxBlockUndo,
        "YXBLOCKRESET" => bare(Command::YxBlockReset)?,
        "YXSEARCHDEFEND" => bare(Command::YxSearchDefend)?,
        "YXBALANCEONE" | "YXBALANCETWO" => {
            let bias = if args.is_empty() {
                0
            } else {
                whole(args, integer)
                    .filter(|b| b.unsigned_abs() <= MAX_BIAS)
                    .ok_or_else(|| bad("an optional bias, an integer within +-1000000"))?
            };
            if upper == "YXBALANCEONE" {
                Command::YxBalanceOne(bias)
            } else {
                Command::YxBalanceTwo(bias)
            }
        }
        "YXNBEST" => match whole(args, integer) {
            Some(n) if n >= 1 => Command::YxNbest(n),
            _ => return Err(bad("a count N >= 1")),
        },
        _ => Command::Unknown(line.to_string()),
    };
    Ok(c)
}

/// `INFO key value` arguments -> a typed setting, the value read as the options table
/// ([`crate::session::options`]) says the key's is. Never fails: INFO is never answered, so a bad
/// value travels on as [`Setting::Invalid`] for the session to complain about later.
pub fn parse_info(args: &str) -> Setting {
    let (key, value) = head(args);
    let key = key.to_ascii_lowercase();
    let invalid = || Setting::Invalid {
        key: key.clone(),
        value: value.to_string(),
    };
    match info_value(&key) {
        Some(InfoValue::Integer(make)) => whole(value, integer).map(make).unwrap_or_else(invalid),
        Some(InfoValue::Unsigned(make)) => whole(value, unsigned).map(make).unwrap_or_else(invalid),
        Some(InfoValue::Word(make))
            if !value.is_empty() && !value.contains(char::is_whitespace) =>
        {
            make(value.to_string())
        }
        Some(InfoValue::Word(_)) => invalid(),
        Some(InfoValue::Text(make)) => make(value.to_string()),
        Some(InfoValue::Point(make)) => whole(value, coords)
            .map(|(x, y)| make(x, y))
            .unwrap_or_else(invalid),
        Some(InfoValue::Player) | None => Setting::Other {
            key,
            value: value.to_string(),
        },
    }
}

/// The input thread's test: does this line interrupt a running search?
pub fn interrupt_of(line: &str) -> Option<Interrupt> {
    let (cmd, _) = head(line);
    if cmd.eq_ignore_ascii_case("YXSTOP") || cmd.eq_ignore_ascii_case("STOP") {
        Some(Interrupt::Stop)
    } else if cmd.eq_ignore_ascii_case("END") {
        Some(Interrupt::End)
    } else {
        None
    }
}

/// Whether a line is a Gomocup command word we know (for protocol detection).
pub fn is_gomocup_word(word: &str) -> bool {
    const WORDS: &[&str] = &[
        "START",
        "RECTSTART",
        "RESTART",
        "BEGIN",
        "TURN",
        "BOARD",
        "YXBOARD",
        "SWAP2BOARD",
        "DONE",
        "INFO",
        "END",
        "ABOUT",
        "TAKEBACK",
        "PLAY",
        "YXSTOP",
        "STOP",
        "YXSHOWFORBID",
        "YXNBEST",
        "YXSHOWINFO",
        "YXHASHCLEAR",
        "YXBLOCK",
        "YXBLOCKUNDO",
        "YXBLOCKRESET",
        "YXBALANCEONE",
        "YXBALANCETWO",
        "YXSEARCHDEFEND",
    ];
    WORDS.iter().any(|w| w.eq_ignore_ascii_case(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(line: &str) -> Command {
        parse_command(line).unwrap()
    }

    #[test]
    fn commands_parse_case_insensitively() {
        assert_eq!(p("START 15"), Command::Start(15));
        assert_eq!(p("start 20"), Command::Start(20));
        assert_eq!(p("RectStart 20,15"), Command::RectStart(20, 15));
        assert_eq!(p("turn 7,8"), Command::Turn(7, 8));
        assert_eq!(p("TURN 7, 8"), Command::Turn(7, 8));
        assert_eq!(p("begin"), Command::Begin);
        assert_eq!(p("BOARD"), Command::Board);
        assert_eq!(p("yxboard"), Command::YxBoard);
        assert_eq!(p("SWAP2BOARD"), Command::Swap2Board);
        assert_eq!(p("done"), Command::Done);
        assert_eq!(p("END"), Command::End);
        assert_eq!(p("about"), Command::About);
        assert_eq!(p("RESTART"), Command::Restart);
        assert_eq!(p("TAKEBACK 3,4"), Command::Takeback(3, 4));
        assert_eq!(p("PLAY 3,4"), Command::Play(3, 4));
        assert_eq!(p("yxstop"), Command::YxStop);
        assert_eq!(p("STOP"), Command::Stop);
        assert_eq!(p("YXSHOWFORBID"), Command::YxShowForbid);
        assert_eq!(p("yxhashclear"), Command::YxHashClear);
        assert_eq!(p("YXSHOWINFO"), Command::YxShowInfo);
        assert_eq!(p("YXNBEST 3"), Command::YxNbest(3));
        assert_eq!(p("yxblock"), Command::YxBlock);
        assert_eq!(p("YXBLOCKUNDO"), Command::YxBlockUndo);
        assert_eq!(p("YXBLOCKRESET"), Command::YxBlockReset);
        assert_eq!(p("YXBALANCEONE"), Command::YxBalanceOne(0));
        assert_eq!(p("yxbalanceone -120"), Command::YxBalanceOne(-120));
        assert_eq!(p("YXBALANCETWO 35"), Command::YxBalanceTwo(35));
        assert_eq!(p("YXSEARCHDEFEND"), Command::YxSearchDefend);
        // Block words and the interrupting ones ignore what follows.
        assert_eq!(p("BOARD 1"), Command::Board);
        assert_eq!(p("DONE."), Command::Unknown("DONE.".into()));
        assert_eq!(p("DONE now"), Command::Done);
        assert_eq!(p("END please"), Command::End);
        assert_eq!(p("YXSTOP 1"), Command::YxStop);
    }

    #[test]
    fn whole_tokens_only() {
        assert_eq!(p("STARTX 15"), Command::Unknown("STARTX 15".into()));
        assert_eq!(p("BEGINNER"), Command::Unknown("BEGINNER".into()));
        assert_eq!(p("TURNS 1,2"), Command::Unknown("TURNS 1,2".into()));
        assert_eq!(p("FOO"), Command::Unknown("FOO".into()));
    }

    #[test]
    fn bad_arguments_are_typed_errors() {
        for line in [
            "START",
            "START x",
            "START 15 16",
            "TURN",
            "TURN 7",
            "TURN 7,",
            "TURN a,b",
            "TURN 7,8,9",
            "TURN 99999999999999999999,1",
            "RECTSTART 20",
            "TAKEBACK",
            "PLAY 1;2",
            "YXNBEST",
            "YXNBEST 0",
            "BEGIN 7,7",
            "RESTART 15",
            "ABOUT me",
            "YXSHOWFORBID 1",
            "YXBLOCKRESET 1",
            "YXSEARCHDEFEND 7,7",
            "YXBALANCEONE x",
            "YXBALANCETWO 1 2",
            "YXBALANCEONE 99999999999",
        ] {
            let e = parse_command(line).unwrap_err();
            assert!(!e.to_string().is_empty(), "{line}");
        }
        assert!(parse_command("7,").is_err());
        assert!(parse_command("7,8,1,2").is_err());
        assert!(parse_command("1.5,2").is_err());
    }

    #[test]
    fn stone_lines() {
        let s = |x, y, field| Command::Stone(StoneLine { x, y, field });
        assert_eq!(p("7,7,1"), s(7, 7, Some(1)));
        assert_eq!(p("7,7"), s(7, 7, None));
        assert_eq!(p("-1,3,2"), s(-1, 3, Some(2)));
        assert_eq!(p("10 , 11 , 2"), s(10, 11, Some(2)));
    }

    #[test]
    fn info_keys_are_typed() {
        let i = |s: &str| match p(s) {
            Command::Info(x) => x,
            other => panic!("{other:?}"),
        };
        assert_eq!(i("INFO timeout_turn 1000"), Setting::TimeoutTurn(1000));
        assert_eq!(i("INFO TIMEOUT_TURN 1000"), Setting::TimeoutTurn(1000));
        assert_eq!(i("info time_left -50"), Setting::TimeLeft(-50));
        assert_eq!(i("INFO rule 4"), Setting::Rule(4));
        assert_eq!(
            i("INFO rule_name No-Double-Three"),
            Setting::RuleName("No-Double-Three".into())
        );
        assert_eq!(
            i("INFO max_memory 367001600"),
            Setting::MaxMemory(367001600)
        );
        assert_eq!(i("INFO evaluate 3,4"), Setting::Evaluate(3, 4));
        assert_eq!(
            i("INFO folder C:\\My AI"),
            Setting::Folder("C:\\My AI".into())
        );
        assert_eq!(i("INFO level classic"), Setting::Level("classic".into()));
        assert_eq!(i("INFO seed 42"), Setting::Seed(42));
        assert_eq!(
            i("INFO timeout_turn abc"),
            Setting::Invalid {
                key: "timeout_turn".into(),
                value: "abc".into()
            }
        );
        assert_eq!(
            i("INFO rule"),
            Setting::Invalid {
                key: "rule".into(),
                value: "".into()
            }
        );
        assert_eq!(
            i("INFO show_detail 3"),
            Setting::Other {
                key: "show_detail".into(),
                value: "3".into()
            }
        );
        assert_eq!(
            i("INFO"),
            Setting::Other {
                key: "".into(),
                value: "".into()
            }
        );
    }

    #[test]
    fn interrupts() {
        assert_eq!(interrupt_of("YXSTOP"), Some(Interrupt::Stop));
        assert_eq!(interrupt_of("stop"), Some(Interrupt::Stop));
        assert_eq!(interrupt_of("END"), Some(Interrupt::End));
        assert_eq!(interrupt_of("ENDX"), None);
        assert_eq!(interrupt_of("TURN 1,1"), None);
    }
}
