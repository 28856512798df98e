//! The Gomocup ("Piskvork new protocol") dialect: one normalised input line becomes a typed
//! [`Command`] (nom parsers), a `BOARD`/`YXBOARD`/`SWAP2BOARD` ... `DONE` block is gathered by
//! [`BoardCollector`], and typed session replies become output lines. No game state lives here.
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

use crate::rules::notation::gomocup_name;
use crate::search::format_eval;
use crate::session::gomoku::{Progress, Reply, Setting, StoneLine};
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
    // SWAP2BOARD, DONE) ignore anything after them: refusing one would answer the stone lines
    // that follow one by one and put the manager a reply out of step. END, STOP and YXSTOP
    // act whatever follows, as the reader thread's interrupt test does.
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

/// Which block a collector is gathering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// `BOARD`: set the position, answer a move.
    Board,
    /// `YXBOARD`: set the position, answer nothing.
    YxBoard,
    /// `SWAP2BOARD`: opening stones without colours.
    Swap2Board,
}

impl BlockKind {
    /// The command word that opened the block.
    pub fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2Board => "SWAP2BOARD",
        }
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

/// A move as `x,y`.
pub fn format_move(x: usize, y: usize) -> String {
    format!("{x},{y}")
}

/// The ABOUT line; `version` names the embedded weights too (see
/// `learned::version_with_weights`).
pub fn about_line() -> String {
    format!(
        "name=\"sente\", version=\"{}\", author=\"sente developers\", country=\"International\"",
        crate::eval::gomoku::learned::version_with_weights()
    )
}

/// `FORBID xxyy...` with two digits for X then two for Y per point, ended by `.`.
pub fn format_forbid(points: &[(usize, usize)]) -> String {
    let mut s = String::from("FORBID ");
    for &(x, y) in points {
        s.push_str(&format!("{x:02}{y:02}"));
    }
    s.push('.');
    s
}

/// The output line for a reply, if it has one.
pub fn format_reply(reply: &Reply) -> Option<String> {
    Some(match reply {
        Reply::Nothing => return None,
        Reply::Ok => "OK".to_string(),
        Reply::Move(x, y) => format_move(*x, *y),
        Reply::Moves(ms) => ms
            .iter()
            .map(|&(x, y)| format_move(x, y))
            .collect::<Vec<_>>()
            .join(" "),
        Reply::Swap => "SWAP".to_string(),
        Reply::Error(m) => format!("ERROR {}", one_line(m)),
        Reply::Unknown(m) => format!("UNKNOWN {}", one_line(m)),
        Reply::Forbid(ps) => format_forbid(ps),
        Reply::About => about_line(),
    })
}

/// The longest `ERROR`/`UNKNOWN` text we send (in characters): they echo the input, and a
/// manager that sent a megabyte of garbage should not get it back.
const MAX_ECHO_CHARS: usize = 1000;

/// Replies are one line each, whatever a message contains, and of bounded length.
fn one_line(s: &str) -> String {
    let flat = s.replace(['\r', '\n'], " ");
    match flat.char_indices().nth(MAX_ECHO_CHARS) {
        Some((cut, _)) => format!("{}...", &flat[..cut]),
        None => flat,
    }
}

/// `1234`, `56.7K`, `1.2M`, `3.4G`.
fn si(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{:.1}K", n as f64 / 1e3),
        1_000_000..=999_999_999 => format!("{:.1}M", n as f64 / 1e6),
        _ => format!("{:.1}G", n as f64 / 1e9),
    }
}

/// A `MESSAGE` line for search progress, Rapfi-like:
/// `MESSAGE depth 9-17 | eval 35 | nodes 123456 | nps 1.2M | time 120 | pv h8 i9 j10`.
pub fn format_progress(p: &Progress) -> String {
    let mut s = format!("MESSAGE depth {}-{}", p.depth, p.seldepth.max(p.depth));
    if p.multipv > 1 {
        s.push_str(&format!(" | multipv {}", p.multipv));
    }
    s.push_str(&format!(
        " | eval {} | nodes {} | nps {} | time {}",
        format_eval(p.score, p.mate),
        p.nodes,
        si(p.nps),
        p.elapsed.as_millis()
    ));
    if !p.pv.is_empty() {
        let pv: Vec<String> = p.pv.iter().map(|&(x, y)| gomocup_name(x, y)).collect();
        s.push_str(" | pv ");
        s.push_str(&pv.join(" "));
    }
    s
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
    ];
    WORDS.iter().any(|w| w.eq_ignore_ascii_case(word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
        assert_eq!(p("YXNBEST 3"), Command::YxNbest(3));
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

    #[test]
    fn replies_format() {
        assert_eq!(format_reply(&Reply::Ok).unwrap(), "OK");
        assert_eq!(format_reply(&Reply::Move(7, 12)).unwrap(), "7,12");
        assert_eq!(
            format_reply(&Reply::Moves(vec![(7, 7), (8, 7), (7, 9)])).unwrap(),
            "7,7 8,7 7,9"
        );
        assert_eq!(format_reply(&Reply::Swap).unwrap(), "SWAP");
        assert_eq!(
            format_reply(&Reply::Error("bad\nthing".into())).unwrap(),
            "ERROR bad thing"
        );
        assert_eq!(
            format_reply(&Reply::Unknown("FOO".into())).unwrap(),
            "UNKNOWN FOO"
        );
        assert_eq!(format_reply(&Reply::Nothing), None);
        let long = format_reply(&Reply::Unknown("é".repeat(5000))).unwrap();
        assert_eq!(long.chars().count(), "UNKNOWN ".len() + MAX_ECHO_CHARS + 3);
        assert!(long.ends_with("é..."));
        assert_eq!(format_forbid(&[]), "FORBID .");
        assert_eq!(format_forbid(&[(7, 8), (10, 3)]), "FORBID 07081003.");
        let about = format_reply(&Reply::About).unwrap();
        assert!(about.starts_with("name=\"sente\", version=\""));
        assert!(about.contains(env!("CARGO_PKG_VERSION")));
    }

    #[test]
    fn progress_formats_like_rapfi() {
        let p = Progress {
            depth: 9,
            seldepth: 17,
            score: 35,
            mate: None,
            nodes: 123456,
            nps: 1_234_000,
            elapsed: Duration::from_millis(120),
            pv: vec![(7, 7), (8, 8), (9, 9)],
            multipv: 1,
        };
        assert_eq!(
            format_progress(&p),
            "MESSAGE depth 9-17 | eval 35 | nodes 123456 | nps 1.2M | time 120 | pv h8 i9 j10"
        );
        let m = Progress {
            mate: Some(-4),
            multipv: 2,
            pv: vec![],
            ..p.clone()
        };
        assert_eq!(
            format_progress(&m),
            "MESSAGE depth 9-17 | multipv 2 | eval -M4 | nodes 123456 | nps 1.2M | time 120"
        );
        assert_eq!(format_eval(0, Some(7)), "+M7");
        assert_eq!(si(999), "999");
        assert_eq!(si(35_000), "35.0K");
    }
}
