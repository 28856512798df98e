//! The GTP v2 dialect (Go Text Protocol, draft 2): one normalised input line becomes an optional
//! id and a typed [`Command`] with validated arguments (nom parsers), and typed session results
//! become responses. No game state lives here; whether a vertex is on the current board is the
//! session's question.
//!
//! Framing, as the spec's preprocessing steps: control characters other than HT and LF are
//! dropped and tabs become spaces (done by the reader, [`crate::protocol::io::normalise`]), a `#`
//! starts a comment to the end of the line, and a line that is then empty gets no response
//! ([`preprocess`]). A first token of digits is the id, echoed as `=12 ...` / `?12 ...`. Command
//! names are matched as whole, case-sensitive tokens (`play` is not `playout`, `PLAY` is
//! unknown, as in GNU Go); colours (`b`, `w`, `black`, `white`) and vertices (`d4`, `D4`,
//! `pass`) in any case, with the column letter `I` skipped. Every response ends with an empty
//! line ([`format_response`]).

use std::time::Duration;

use nom::branch::alt;
use nom::bytes::complete::{tag_no_case, take_while_m_n};
use nom::character::complete::{anychar, char, digit1};
use nom::combinator::{all_consuming, map, map_opt, map_res, opt, recognize, value};
use nom::sequence::{pair, tuple};
use nom::IResult;

pub use super::gtp_rules::{format_kata_rules, parse_kata_rules_json, parse_rule_option};
use crate::rules::go::kata_rules::{KataRules, RuleOption, RULE_NAMES};
use crate::rules::notation::{gtp_column, gtp_point_name, gtp_row};
use crate::rules::Color;
use crate::search::mcts::Candidate;
use crate::session::gtp_game::{
    AnalyzeKind, AnalyzeOptions, FilterKind, FinalScore, Genmove, MoveRule, Status, TimeSystem,
    Vertex,
};

/// Which game a GTP session plays; it decides which commands exist.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GtpGameKind {
    /// Go / baduk (the default).
    #[default]
    Go,
    /// Tic-tac-toe on `boardsize 3`.
    Ttt,
}

/// A parsed GTP command with validated arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    /// `set_random_seed <n>` (GNU Go's command): seed every random choice of the player from
    /// now on, so a controller can give each game its own seed.
    SetRandomSeed(u64),
    Quit,
    Boardsize(usize),
    RectangularBoardsize(usize, usize),
    ClearBoard,
    Komi(f32),
    Play(Color, Vertex),
    Genmove(Color),
    RegGenmove(Color),
    /// `kgs-genmove_cleanup <colour>`: genmove in the cleanup phase (capture every dead stone
    /// before passing; never resign).
    GenmoveCleanup(Color),
    Undo,
    FixedHandicap(usize),
    PlaceFreeHandicap(usize),
    SetFreeHandicap(Vec<Vertex>),
    /// `time_settings` or `kgs-time_settings`.
    TimeSettings(TimeSystem),
    TimeLeft {
        color: Color,
        seconds: f64,
        stones: u64,
    },
    FinalScore,
    FinalStatusList(Status),
    Showboard,
    LoadSgf {
        file: String,
        move_number: Option<usize>,
    },
    /// `lz-analyze` / `kata-analyze`: stream until the next line arrives.
    Analyze(AnalyzeKind, AnalyzeOptions),
    /// `lz-genmove_analyze` / `kata-genmove_analyze`: genmove with streaming, then `play V`.
    GenmoveAnalyze(AnalyzeKind, Color, AnalyzeOptions),
    /// `sente-level [name]`: show or switch the player level.
    Level(Option<String>),
    /// `gogui-analyze_commands`: the analyze commands GoGui puts in its menu.
    GoguiAnalyzeCommands,
    /// `sente-ownership`: the player's ownership estimate as a GoGui `gfx` INFLUENCE map.
    Ownership,
    /// `gomill-cpu_time` (gomill's ringmaster) or `cputime` (GNU Go, GoGui's twogtp): the CPU
    /// seconds the engine has used.
    CpuTime,
    /// `gomill-describe_engine`: name, version and every setting that decides the play.
    DescribeEngine,
    /// `gomill-explain_last_move`: the player's words on its last genmove (an SGF comment).
    ExplainLastMove,
    /// `gomill-genmove_ex [<colour> <keyword>...]`: genmove that may answer `claim` when the
    /// `claim` keyword is given (other keywords are ignored, as gomill asks); without a colour,
    /// the keywords we know.
    GenmoveEx(Option<(Color, bool)>),
    /// `kata-get-rules`: the rules in force as KataGo's JSON.
    GetRules,
    /// `kata-set-rules <name|JSON>` or `kgs-rules <name>`: change the rules (komi stays).
    SetRules(KataRules),
    /// `kata-set-rule KEY VALUE`: change one field of the rules in force.
    SetRule(RuleOption),
    /// `clear_cache`: forget the search's cached tree (the game stays).
    ClearCache,
    /// `stop`: KataGo's "halt pondering"; any line already ends a ponder or an analysis, so
    /// there is nothing left to stop.
    Stop,
    /// `sente-ponder [on|off]`: show or switch pondering.
    Ponder(Option<bool>),
    /// `get_komi`: the komi in force.
    GetKomi,
    /// `is_legal <color> <vertex>`: whether that move is legal now (`1` or `0`).
    IsLegal(Color, Vertex),
    /// `kata-list-params`: the names of the playing level's tunable settings.
    ListParams,
    /// `kata-get-param NAME`: one setting's value.
    GetParam(String),
    /// `kata-set-param NAME VALUE`: change one setting of the playing level.
    SetParam(String, String),
}

/// Why a line was refused before reaching the session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// Not a command we know (`? unknown command`).
    Unknown,
    /// A known command with bad arguments: the message after `?`.
    Syntax(String),
}

/// One input line after framing: the id to echo and the command (or why it was refused).
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    /// The id digits as sent, if any.
    pub id: Option<String>,
    /// The command name as sent (empty when the line held only an id).
    pub name: String,
    pub command: Result<Command, LineError>,
}

/// Commands every game answers.
pub const COMMON_COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "sente-level",
    "cputime",
    "gomill-cpu_time",
    "gomill-describe_engine",
    "set_random_seed",
];

/// Commands only Go answers.
pub const GO_ONLY_COMMANDS: &[&str] = &[
    "rectangular_boardsize",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "final_status_list",
    "loadsgf",
    "lz-analyze",
    "kata-analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "gogui-analyze_commands",
    "sente-ownership",
    "gomill-explain_last_move",
    "gomill-genmove_ex",
    "kgs-genmove_cleanup",
    "kata-get-rules",
    "kata-set-rules",
    "kata-set-rule",
    "kgs-rules",
    "clear_cache",
    "stop",
    "sente-ponder",
    "kata-list-params",
    "kata-get-param",
    "kata-set-param",
    "get_komi",
    "is_legal",
];

/// Every command `game` answers, in `list_commands` order.
pub fn command_names(game: GtpGameKind) -> Vec<&'static str> {
    let mut v = COMMON_COMMANDS.to_vec();
    if game == GtpGameKind::Go {
        v.extend_from_slice(GO_ONLY_COMMANDS);
    }
    v
}

/// Whether `game` answers the command `name` (exact, case-sensitive).
pub fn is_supported(name: &str, game: GtpGameKind) -> bool {
    COMMON_COMMANDS.contains(&name) || (game == GtpGameKind::Go && GO_ONLY_COMMANDS.contains(&name))
}

/// GTP preprocessing on a line the reader already cleaned: cut the `#` comment, trim, and
/// `None` when nothing is left (no response).
pub fn preprocess(line: &str) -> Option<&str> {
    let text = line.split('#').next().unwrap_or("").trim();
    (!text.is_empty()).then_some(text)
}

/// The id (if any) and the command name of a line, without parsing arguments: what the reader
/// thread needs to know whether a line starts a streaming analysis.
pub fn id_and_name(line: &str) -> Option<(Option<&str>, &str)> {
    let text = preprocess(line)?;
    let mut tokens = text.split_whitespace();
    let first = tokens.next()?;
    if first.bytes().all(|b| b.is_ascii_digit()) {
        Some((Some(first), tokens.next().unwrap_or("")))
    } else {
        Some((None, first))
    }
}

/// Whether `line` asks for a streaming analysis that the next input line must end.
pub fn starts_interruptible_analysis(line: &str) -> bool {
    matches!(id_and_name(line), Some((_, "lz-analyze" | "kata-analyze")))
}

/// Parses one reader line; `None` when preprocessing leaves nothing (no response is due).
pub fn parse_line(line: &str) -> Option<Parsed> {
    let text = preprocess(line)?;
    let (id, name) = id_and_name(text)?;
    let args: Vec<&str> = {
        let mut t = text.split_whitespace();
        if id.is_some() {
            t.next();
        }
        t.next();
        t.collect()
    };
    Some(Parsed {
        id: id.map(String::from),
        name: name.to_string(),
        command: parse_command(name, &args),
    })
}

// ---------------------------------------------------------------------------------------------
// Token parsers

/// The whole token must match `p`.
fn whole<'a, T>(tok: &'a str, p: impl FnMut(&'a str) -> IResult<&'a str, T>) -> Option<T> {
    all_consuming(p)(tok).ok().map(|(_, v)| v)
}

fn color_p(i: &str) -> IResult<&str, Color> {
    alt((
        value(Color::Black, tag_no_case("black")),
        value(Color::White, tag_no_case("white")),
        value(Color::Black, tag_no_case("b")),
        value(Color::White, tag_no_case("w")),
    ))(i)
}

/// A colour: `b`, `w`, `black`, `white`, any case.
pub fn parse_color(tok: &str) -> Option<Color> {
    whole(tok, color_p)
}

// Column letters and row numbers as rules/notation.rs spells them.
fn column_p(i: &str) -> IResult<&str, usize> {
    map_opt(anychar, gtp_column)(i)
}

fn row_p(i: &str) -> IResult<&str, usize> {
    map_opt(take_while_m_n(1, 2, |c: char| c.is_ascii_digit()), gtp_row)(i)
}

fn vertex_p(i: &str) -> IResult<&str, Vertex> {
    alt((
        value(Vertex::Pass, tag_no_case("pass")),
        map(pair(column_p, row_p), |(x, y)| Vertex::At { x, y }),
    ))(i)
}

/// A vertex: `pass` or a column letter (not `I`) and a row 1..25, any case.
pub fn parse_vertex(tok: &str) -> Option<Vertex> {
    whole(tok, vertex_p)
}

fn unsigned_p(i: &str) -> IResult<&str, u64> {
    map_res(recognize(pair(opt(char('+')), digit1)), |s: &str| {
        s.parse::<u64>()
    })(i)
}

/// An unsigned integer.
pub fn parse_uint(tok: &str) -> Option<u64> {
    whole(tok, unsigned_p)
}

fn float_p(i: &str) -> IResult<&str, f64> {
    map_res(
        recognize(tuple((
            opt(alt((char('-'), char('+')))),
            alt((
                recognize(pair(digit1, opt(pair(char('.'), opt(digit1))))),
                recognize(pair(char('.'), digit1)),
            )),
        ))),
        |s: &str| s.parse::<f64>(),
    )(i)
}

/// A float such as `6.5`, `-3`, `.5` (no exponents, no `inf`/`nan`).
pub fn parse_float(tok: &str) -> Option<f64> {
    whole(tok, float_p)
}

// ---------------------------------------------------------------------------------------------
// Commands

fn syntax(expected: &str) -> LineError {
    LineError::Syntax(format!("syntax error (expected {expected})"))
}

/// `args` must be exactly `n` tokens.
fn arity(args: &[&str], n: usize, expected: &str) -> Result<(), LineError> {
    if args.len() == n {
        Ok(())
    } else {
        Err(syntax(expected))
    }
}

fn color_arg(tok: &str) -> Result<Color, LineError> {
    parse_color(tok).ok_or_else(|| LineError::Syntax(format!("invalid color '{tok}'")))
}

fn vertex_arg(tok: &str) -> Result<Vertex, LineError> {
    parse_vertex(tok).ok_or_else(|| LineError::Syntax(format!("invalid coordinate '{tok}'")))
}

/// GTP's `int`: "an unsigned integer in the interval 0 <= x <= 2^31 - 1" (GTP 2, section 3.1).
pub const GTP_INT_MAX: u64 = (1 << 31) - 1;

/// A clock value (seconds, stones, periods) within GTP's int range: a larger one is refused,
/// naming the bound, and the clock stays as it was. What a move may spend of the longest
/// clock accepted is capped again by the search (`search::clock::MAX_MOVE_MS`).
fn clock_arg(tok: &str, expected: &str) -> Result<u64, LineError> {
    let digits = tok.strip_prefix('+').unwrap_or(tok);
    match parse_uint(tok) {
        Some(n) if n <= GTP_INT_MAX => Ok(n),
        None if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) => {
            Err(syntax(expected))
        }
        _ => Err(past_int_range(tok)),
    }
}

fn past_int_range(tok: &str) -> LineError {
    LineError::Syntax(format!(
        "syntax error: {tok} is past GTP's int range (at most {GTP_INT_MAX})"
    ))
}

fn size_arg(tok: &str, expected: &str) -> Result<usize, LineError> {
    // A huge number is a size we cannot play, not a syntax error (GNU Go: `unacceptable
    // size`), even past u64.
    let digits = tok.strip_prefix('+').unwrap_or(tok);
    match parse_uint(tok) {
        Some(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        None if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => Ok(usize::MAX),
        None => Err(syntax(expected)),
    }
}

/// Parses the arguments of command `name`: each family of commands has its parser, which
/// answers `None` for a name that is not one of its own.
pub fn parse_command(name: &str, args: &[&str]) -> Result<Command, LineError> {
    if let Some(c) = argless_command(name) {
        return arity(args, 0, &format!("{name} with no arguments")).map(|_| c);
    }
    setup_command(name, args)
        .or_else(|| move_command(name, args))
        .or_else(|| time_command(name, args))
        .or_else(|| rules_command(name, args))
        .or_else(|| analysis_command(name, args))
        .or_else(|| engine_command(name, args))
        .unwrap_or(Err(LineError::Unknown))
}

/// The commands that take no argument.
fn argless_command(name: &str) -> Option<Command> {
    Some(match name {
        "protocol_version" => Command::ProtocolVersion,
        "name" => Command::Name,
        "version" => Command::Version,
        "list_commands" => Command::ListCommands,
        "quit" => Command::Quit,
        "clear_board" => Command::ClearBoard,
        "undo" => Command::Undo,
        "final_score" => Command::FinalScore,
        "showboard" => Command::Showboard,
        "gogui-analyze_commands" => Command::GoguiAnalyzeCommands,
        "sente-ownership" => Command::Ownership,
        "cputime" | "gomill-cpu_time" => Command::CpuTime,
        "gomill-describe_engine" => Command::DescribeEngine,
        "gomill-explain_last_move" => Command::ExplainLastMove,
        "kata-get-rules" => Command::GetRules,
        "kata-list-params" => Command::ListParams,
        "get_komi" => Command::GetKomi,
        "clear_cache" => Command::ClearCache,
        "stop" => Command::Stop,
        _ => return None,
    })
}

/// The board, komi, handicap and a game loaded from SGF.
fn setup_command(name: &str, args: &[&str]) -> Option<Result<Command, LineError>> {
    Some(match name {
        "boardsize" => arity(args, 1, "boardsize <int>")
            .and_then(|_| size_arg(args[0], "boardsize <int>"))
            .map(Command::Boardsize),
        "rectangular_boardsize" => {
            let e = "rectangular_boardsize <width> <height>";
            arity(args, 2, e).and_then(|_| {
                Ok(Command::RectangularBoardsize(
                    size_arg(args[0], e)?,
                    size_arg(args[1], e)?,
                ))
            })
        }
        "komi" => arity(args, 1, "komi <float>").and_then(|_| komi_arg(args[0])),
        "fixed_handicap" | "place_free_handicap" => {
            let e = format!("{name} <number_of_stones>");
            arity(args, 1, &e).and_then(|_| {
                let n = size_arg(args[0], &e)?;
                Ok(if name == "fixed_handicap" {
                    Command::FixedHandicap(n)
                } else {
                    Command::PlaceFreeHandicap(n)
                })
            })
        }
        "set_free_handicap" if args.is_empty() => {
            Err(syntax("set_free_handicap <vertex> <vertex> ..."))
        }
        "set_free_handicap" => args
            .iter()
            .map(|t| vertex_arg(t))
            .collect::<Result<Vec<_>, _>>()
            .map(Command::SetFreeHandicap),
        "loadsgf" => {
            let e = "loadsgf <filename> [move_number]";
            if args.is_empty() || args.len() > 2 {
                return Some(Err(syntax(e)));
            }
            args.get(1)
                .map(|t| size_arg(t, e))
                .transpose()
                .map(|move_number| Command::LoadSgf {
                    file: args[0].to_string(),
                    move_number,
                })
        }
        _ => return None,
    })
}

/// The largest komi either way: more than any board GTP plays has points (25x25 = 625), so
/// every komi that can decide a game fits, and no komi scores as `W+inf`.
pub const MAX_KOMI: f32 = 1000.0;

/// `komi`'s value: a decimal number, with an exponent or not (`6.5`, `-3`, `.5`, `1e2`; not
/// `inf` or `nan`), of at most [`MAX_KOMI`] either way; a larger one is refused by name and the
/// komi stays as it was.
fn komi_arg(tok: &str) -> Result<Command, LineError> {
    let numeric = tok
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E'));
    let k = tok
        .parse::<f64>()
        .ok()
        .filter(|_| numeric)
        .ok_or_else(|| syntax("komi <float>"))?;
    if !k.is_finite() || k.abs() > f64::from(MAX_KOMI) {
        return Err(LineError::Syntax(format!(
            "komi {tok} is out of range (at most {MAX_KOMI} either way)"
        )));
    }
    Ok(Command::Komi(k as f32))
}

/// Moves played and asked for.
fn move_command(name: &str, args: &[&str]) -> Option<Result<Command, LineError>> {
    Some(match name {
        "play" => arity(args, 2, "play <color> <vertex>")
            .and_then(|_| Ok(Command::Play(color_arg(args[0])?, vertex_arg(args[1])?))),
        "is_legal" => arity(args, 2, "is_legal <color> <vertex>")
            .and_then(|_| Ok(Command::IsLegal(color_arg(args[0])?, vertex_arg(args[1])?))),
        "genmove" | "reg_genmove" | "kgs-genmove_cleanup" => {
            arity(args, 1, &format!("{name} <color>")).and_then(|_| {
                let c = color_arg(args[0])?;
                Ok(match name {
                    "genmove" => Command::Genmove(c),
                    "reg_genmove" => Command::RegGenmove(c),
                    _ => Command::GenmoveCleanup(c),
                })
            })
        }
        "gomill-genmove_ex" => match args {
            [] => Ok(Command::GenmoveEx(None)),
            [color, keywords @ ..] => color_arg(color).map(|c| {
                let claim = keywords.iter().any(|k| k.eq_ignore_ascii_case("claim"));
                Command::GenmoveEx(Some((c, claim)))
            }),
        },
        _ => return None,
    })
}

/// Time systems and the clocks' state.
fn time_command(name: &str, args: &[&str]) -> Option<Result<Command, LineError>> {
    Some(match name {
        "time_settings" => {
            let e = "time_settings <main_time> <byo_yomi_time> <byo_yomi_stones>";
            arity(args, 3, e).and_then(|_| {
                let v: Vec<u64> = args
                    .iter()
                    .map(|t| clock_arg(t, e))
                    .collect::<Result<_, _>>()?;
                Ok(Command::TimeSettings(TimeSystem::from_time_settings(
                    v[0], v[1], v[2],
                )))
            })
        }
        "kgs-time_settings" => parse_kgs_time(args).map(Command::TimeSettings),
        "time_left" => {
            let e = "time_left <color> <time> <stones>";
            arity(args, 3, e).and_then(|_| {
                let color = color_arg(args[0])?;
                // A clock does not run below zero: a negative time is malformed, as in GTP's
                // grammar (an unsigned count of seconds; we also take decimals).
                let seconds = parse_float(args[1])
                    .filter(|s| !s.is_sign_negative())
                    .ok_or_else(|| syntax(e))?;
                if seconds > GTP_INT_MAX as f64 {
                    return Err(past_int_range(args[1]));
                }
                let stones = clock_arg(args[2], e)?;
                Ok(Command::TimeLeft {
                    color,
                    seconds,
                    stones,
                })
            })
        }
        _ => return None,
    })
}

/// The rules in force, KataGo's and KGS's way.
fn rules_command(name: &str, args: &[&str]) -> Option<Result<Command, LineError>> {
    Some(match name {
        "kata-set-rules" => parse_kata_set_rules(args).map(Command::SetRules),
        "kgs-rules" => parse_kgs_rules(args).map(Command::SetRules),
        "kata-set-rule" => arity(args, 2, "kata-set-rule KEY VALUE").and_then(|_| {
            parse_rule_option(args[0], args[1])
                .map(Command::SetRule)
                .map_err(|e| LineError::Syntax(format!("syntax error ({e}); rules unchanged")))
        }),
        _ => return None,
    })
}

/// Analysis, genmove with analysis, pondering.
fn analysis_command(name: &str, args: &[&str]) -> Option<Result<Command, LineError>> {
    Some(match name {
        "lz-analyze" | "kata-analyze" => {
            let kind = analyze_kind(name);
            parse_analyze(name, kind, args, false).map(|(_, o)| Command::Analyze(kind, o))
        }
        "lz-genmove_analyze" | "kata-genmove_analyze" => {
            let kind = analyze_kind(name);
            parse_analyze(name, kind, args, true)
                .map(|(c, o)| Command::GenmoveAnalyze(kind, c.expect("colour required"), o))
        }
        "sente-ponder" => match args {
            [] => Ok(Command::Ponder(None)),
            [w] if w.eq_ignore_ascii_case("on") => Ok(Command::Ponder(Some(true))),
            [w] if w.eq_ignore_ascii_case("off") => Ok(Command::Ponder(Some(false))),
            _ => Err(syntax("sente-ponder [on|off]")),
        },
        _ => return None,
    })
}

/// Questions to the engine and its settings: known commands, dead stones, the level.
fn engine_command(name: &str, args: &[&str]) -> Option<Result<Command, LineError>> {
    Some(match name {
        "known_command" => arity(args, 1, "known_command <command_name>")
            .map(|_| Command::KnownCommand(args[0].to_string())),
        "set_random_seed" => {
            let e = "set_random_seed <non-negative int>";
            arity(args, 1, e).and_then(|_| {
                args[0]
                    .parse()
                    .map(Command::SetRandomSeed)
                    .map_err(|_| syntax(e))
            })
        }
        "final_status_list" => {
            let e = "final_status_list alive|dead|seki";
            arity(args, 1, e).and_then(|_| match args[0].to_ascii_lowercase().as_str() {
                "alive" => Ok(Command::FinalStatusList(Status::Alive)),
                "dead" => Ok(Command::FinalStatusList(Status::Dead)),
                "seki" => Ok(Command::FinalStatusList(Status::Seki)),
                _ => Err(syntax(e)),
            })
        }
        "sente-level" => match args {
            [] => Ok(Command::Level(None)),
            [level] => Ok(Command::Level(Some(level.to_string()))),
            _ => Err(syntax("sente-level [level]")),
        },
        "kata-get-param" => {
            arity(args, 1, "kata-get-param NAME").map(|_| Command::GetParam(args[0].to_string()))
        }
        "kata-set-param" => arity(args, 2, "kata-set-param NAME VALUE")
            .map(|_| Command::SetParam(args[0].to_string(), args[1].to_string())),
        _ => return None,
    })
}

fn analyze_kind(name: &str) -> AnalyzeKind {
    if name.starts_with("kata-") {
        AnalyzeKind::Kata
    } else {
        AnalyzeKind::Lz
    }
}

/// KataGo's boolean keys that we accept only as `false` (what we do anyway): Lizzie-like
/// clients send them along with `ownership`.
const KATA_FALSE_ONLY_KEYS: &[&str] = &[
    "ownershipStdev",
    "movesOwnership",
    "movesOwnershipStdev",
    "pvVisits",
];

/// `true` / `false`, any case.
fn parse_bool(tok: &str) -> Option<bool> {
    if tok.eq_ignore_ascii_case("true") {
        Some(true)
    } else if tok.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

/// `[color] [interval]` then key-value pairs in any order: `interval N`, `minmoves N`,
/// `maxmoves N`, and for the `kata-` forms `ownership true|false` and the
/// [`KATA_FALSE_ONLY_KEYS`] with `false` (the colour is required for the genmove forms), and
/// Leela Zero's `avoid` / `allow` with three values each (colour, vertices separated by
/// commas, depth from 1), any number of times. Keys we do not implement (`ownershipStdev
/// true`, ...) are refused rather than silently ignored.
fn parse_analyze(
    name: &str,
    kind: AnalyzeKind,
    args: &[&str],
    need_color: bool,
) -> Result<(Option<Color>, AnalyzeOptions), LineError> {
    let color = if need_color { "<color>" } else { "[color]" };
    let kata = if kind == AnalyzeKind::Kata {
        " [ownership true|false]"
    } else {
        ""
    };
    let e = format!(
        "{name} {color} [interval] [minmoves N] [maxmoves N] \
         [avoid|allow <color> <vertex,...> <depth>]...{kata}"
    );
    let mut o = AnalyzeOptions::default();
    let mut rest = args;
    if let Some(c) = rest.first().and_then(|t| parse_color(t)) {
        o.color = Some(c);
        rest = &rest[1..];
    } else if need_color {
        return Err(syntax(&e));
    }
    if let Some(n) = rest.first().and_then(|t| parse_uint(t)) {
        o.interval_cs = u32::try_from(n).unwrap_or(u32::MAX);
        rest = &rest[1..];
    }
    while let [key, val, tail @ ..] = rest {
        let key = *key;
        if let Some(rule_kind) = move_rule_kind(key) {
            let [vertices, depth, tail @ ..] = tail else {
                return Err(syntax(&e));
            };
            o.move_rules
                .push(parse_move_rule(rule_kind, val, vertices, depth).ok_or_else(|| syntax(&e))?);
            rest = tail;
            continue;
        }
        if kind == AnalyzeKind::Kata && (key == "ownership" || KATA_FALSE_ONLY_KEYS.contains(&key))
        {
            match parse_bool(val) {
                Some(on) if key == "ownership" => o.ownership = on,
                Some(false) => {}
                Some(true) => {
                    return Err(LineError::Syntax(format!(
                        "syntax error ({key} true is not supported; expected {e})"
                    )))
                }
                None => return Err(syntax(&e)),
            }
        } else {
            let n = parse_uint(val).ok_or_else(|| syntax(&e))?;
            match key {
                "interval" => o.interval_cs = u32::try_from(n).unwrap_or(u32::MAX),
                "minmoves" => o.min_moves = usize::try_from(n).unwrap_or(usize::MAX),
                "maxmoves" => o.max_moves = Some(usize::try_from(n).unwrap_or(usize::MAX)),
                _ => return Err(syntax(&e)),
            }
        }
        rest = tail;
    }
    if !rest.is_empty() {
        return Err(syntax(&e));
    }
    Ok((o.color, o))
}

/// The analysis key `avoid` or `allow` (any case), as a filter kind.
fn move_rule_kind(key: &str) -> Option<FilterKind> {
    if key.eq_ignore_ascii_case("avoid") {
        Some(FilterKind::Avoid)
    } else if key.eq_ignore_ascii_case("allow") {
        Some(FilterKind::Allow)
    } else {
        None
    }
}

/// The three values of an `avoid` / `allow` key: a colour, vertices separated by commas (at
/// least one), and the depth it reaches (1 = the first move).
fn parse_move_rule(kind: FilterKind, color: &str, vertices: &str, depth: &str) -> Option<MoveRule> {
    let color = parse_color(color)?;
    let vertices = vertices
        .split(',')
        .map(parse_vertex)
        .collect::<Option<Vec<Vertex>>>()?;
    let until_depth = u32::try_from(parse_uint(depth)?).ok().filter(|&d| d >= 1)?;
    Some(MoveRule {
        kind,
        color,
        vertices,
        until_depth,
    })
}

/// `kgs-time_settings none | absolute M | byoyomi M T P | canadian M T S`.
fn parse_kgs_time(args: &[&str]) -> Result<TimeSystem, LineError> {
    let e = "kgs-time_settings none | absolute <main> | byoyomi <main> <period> <periods> | \
             canadian <main> <period> <stones>";
    let nums = |n: usize| -> Result<Vec<u64>, LineError> {
        arity(args, n + 1, e)?;
        args[1..].iter().map(|t| clock_arg(t, e)).collect()
    };
    let kind = args.first().ok_or_else(|| syntax(e))?;
    match kind.to_ascii_lowercase().as_str() {
        "none" => nums(0).map(|_| TimeSystem::None),
        "absolute" => nums(1).map(|v| TimeSystem::Absolute { main: v[0] }),
        "byoyomi" => nums(3).map(|v| TimeSystem::Byoyomi {
            main: v[0],
            period: v[1],
            periods: v[2],
        }),
        "canadian" => nums(3).map(|v| {
            if v[2] == 0 {
                // No stones per period cannot be played: like time_settings, no limit.
                TimeSystem::None
            } else {
                TimeSystem::Canadian {
                    main: v[0],
                    period: v[1],
                    stones: v[2],
                }
            }
        }),
        _ => Err(syntax(e)),
    }
}

/// `kata-set-rules`' argument: a KataGo shorthand name ([`KataRules::named`]) or a JSON object
/// ([`parse_kata_rules_json`]). The line's tokens are joined again with single spaces, so a JSON
/// object may hold spaces.
fn parse_kata_set_rules(args: &[&str]) -> Result<KataRules, LineError> {
    let text = args.join(" ");
    if text.is_empty() {
        return Err(syntax(&format!(
            "kata-set-rules <name or JSON>; names: {}",
            RULE_NAMES.join(", ")
        )));
    }
    if text.starts_with('{') {
        return parse_kata_rules_json(&text)
            .map_err(|e| LineError::Syntax(format!("syntax error ({e}); rules unchanged")));
    }
    KataRules::named(&text).ok_or_else(|| {
        LineError::Syntax(format!(
            "unknown rules '{text}' (known: {}, or KataGo's JSON)",
            RULE_NAMES.join(", ")
        ))
    })
}

/// `kgs-rules japanese|chinese|aga|new_zealand` (kgsGtp's names).
fn parse_kgs_rules(args: &[&str]) -> Result<KataRules, LineError> {
    let e = "kgs-rules japanese|chinese|aga|new_zealand";
    arity(args, 1, e)?;
    KataRules::kgs(args[0])
        .ok_or_else(|| LineError::Syntax(format!("unknown rules '{}' (expected {e})", args[0])))
}

// ---------------------------------------------------------------------------------------------
// Formatting

/// A vertex in upper case (`D4`), or `pass`.
pub fn format_vertex(v: Vertex) -> String {
    match v {
        Vertex::Pass => "pass".to_string(),
        Vertex::At { x, y } => gtp_point_name(x, y).unwrap_or_else(|| format!("?{x},{y}")),
    }
}

/// Space-separated vertices.
pub fn format_vertices(vs: &[Vertex]) -> String {
    vs.iter()
        .map(|&v| format_vertex(v))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `genmove`'s answer.
pub fn format_genmove(m: Genmove) -> String {
    match m {
        Genmove::Move(v) => format_vertex(v),
        Genmove::Resign => "resign".to_string(),
        Genmove::Claim => "claim".to_string(),
    }
}

/// The `gomill-genmove_ex` keywords we act on.
pub const GENMOVE_EX_KEYWORDS: &[&str] = &["claim"];

/// A CPU time as gomill and GoGui read it: seconds, in decimal, to the millisecond.
pub fn format_cpu_time(t: Duration) -> String {
    format!("{:.3}", t.as_secs_f64())
}

/// `final_score`'s answer: `B+2.5`, `W+31`, `0`.
pub fn format_score(s: FinalScore) -> String {
    match s.winner {
        None => "0".to_string(),
        Some(Color::Black) => format!("B+{}", s.margin),
        Some(Color::White) => format!("W+{}", s.margin),
    }
}

/// GoGui's analyze commands (`type/label/command` lines): the ownership map, and the dead
/// stones of `final_status_list` marked on the board.
pub const GOGUI_ANALYZE_COMMANDS: &[&str] = &[
    "gfx/Ownership/sente-ownership",
    "plist/Dead stones/final_status_list dead",
];

/// `sente-ownership`'s answer, in GoGui's `gfx` language: `INFLUENCE` with every point and its
/// owner (-1 white .. 1 black), then a `TEXT` line with black's expected area margin.
pub fn format_influence(points: &[(Vertex, f32)], margin: f32) -> String {
    let mut s = String::from("INFLUENCE");
    for &(v, own) in points {
        s.push_str(&format!(" {} {:.2}", format_vertex(v), own));
    }
    let lead = FinalScore::from_black_lead((margin * 10.0).round() / 10.0);
    s.push_str(&format!(
        "\nTEXT estimate {} (area, komi included)",
        format_score(lead)
    ));
    s
}

/// A colour as a word (`black`, `white`).
pub fn format_color(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A full response: `=id result` or `?id message`, then the empty line that ends every
/// response. A multi-line result must not hold an empty line (the controller would take it for
/// the end), so blank lines are dropped; a result that starts with a newline (a board drawing)
/// begins on the line after the `=`.
pub fn format_response(id: Option<&str>, result: Result<&str, &str>) -> String {
    let (mark, body) = match result {
        Ok(b) => ('=', b),
        Err(m) => ('?', m),
    };
    let mut s = String::with_capacity(body.len() + 8);
    s.push(mark);
    s.push_str(id.unwrap_or(""));
    let starts_new_line = body.starts_with('\n');
    let mut first = true;
    for line in body.lines() {
        let line = line.trim_end();
        if line.trim().is_empty() {
            continue;
        }
        if first && !starts_new_line {
            s.push(' ');
        } else {
            s.push('\n');
        }
        s.push_str(line);
        first = false;
    }
    s.push_str("\n\n");
    s
}

/// The first line of a streaming response (`=` or `=12`).
pub fn format_stream_start(id: Option<&str>) -> String {
    format!("={}", id.unwrap_or(""))
}

/// One `info` line holding every candidate, in the dialect of `kind`, ended by `ownership` and
/// the values of `ownership` when given (in the order given: the session sends them row by row
/// from the top left). `None` when there is no candidate yet.
pub fn format_info(
    kind: AnalyzeKind,
    candidates: &[Candidate<Vertex>],
    ownership: Option<&[f32]>,
) -> Option<String> {
    if candidates.is_empty() {
        return None;
    }
    let mut parts = Vec::with_capacity(candidates.len());
    for c in candidates {
        let mut s = format!("info move {} visits {}", format_vertex(c.mv), c.visits);
        match kind {
            AnalyzeKind::Lz => s.push_str(&format!(
                " winrate {} prior {} lcb {}",
                per_ten_thousand(c.winrate),
                per_ten_thousand(c.prior),
                per_ten_thousand(c.lcb)
            )),
            AnalyzeKind::Kata => s.push_str(&format!(
                " winrate {:.6} scoreLead {:.6} prior {:.6} lcb {:.6}",
                c.winrate.clamp(0.0, 1.0),
                c.score_lead,
                c.prior.clamp(0.0, 1.0),
                c.lcb.clamp(0.0, 1.0)
            )),
        }
        s.push_str(&format!(" order {} pv", c.order));
        let pv: &[Vertex] = if c.pv.is_empty() {
            std::slice::from_ref(&c.mv)
        } else {
            &c.pv
        };
        for &v in pv {
            s.push(' ');
            s.push_str(&format_vertex(v));
        }
        parts.push(s);
    }
    let mut line = parts.join(" ");
    if let Some(own) = ownership {
        line.reserve(own.len() * 7 + 10);
        line.push_str(" ownership");
        for &v in own {
            line.push(' ');
            line.push_str(&format_owner(v));
        }
    }
    Some(line)
}

/// An ownership value with three decimals, in -1..1, never `-0.000` nor `NaN`.
fn format_owner(v: f32) -> String {
    let v = if v.is_nan() { 0.0 } else { v.clamp(-1.0, 1.0) };
    let rounded = (v * 1000.0).round() / 1000.0;
    // `rounded + 0.0` turns -0.0 into 0.0.
    format!("{:.3}", rounded + 0.0)
}

/// A probability as an integer in 0..=10000 (Leela Zero's unit).
fn per_ten_thousand(p: f64) -> u32 {
    (p.clamp(0.0, 1.0) * 10000.0).round() as u32
}

/// The last line of a genmove_analyze response.
pub fn format_play_line(m: Genmove) -> String {
    format!("play {}", format_genmove(m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::kata_rules::{KataKo, KataTax};
    use crate::rules::go::{HandicapBonus, Scoring};
    use crate::session::gtp_game::DEFAULT_INTERVAL_CS;

    fn cmd(line: &str) -> Result<Command, LineError> {
        parse_line(line).expect("a command").command
    }

    fn at(x: usize, y: usize) -> Vertex {
        Vertex::At { x, y }
    }

    #[test]
    fn preprocessing_comments_and_blank_lines() {
        assert_eq!(preprocess("# only a comment"), None);
        assert_eq!(preprocess("   "), None);
        assert_eq!(preprocess("clear_board  # trailing"), Some("clear_board"));
        assert!(parse_line("#").is_none());
        let p = parse_line("  2   play   b   D5 ").unwrap();
        assert_eq!(p.id.as_deref(), Some("2"));
        assert_eq!(p.command, Ok(Command::Play(Color::Black, at(3, 4))));
    }

    #[test]
    fn ids_are_kept_as_sent() {
        let p = parse_line("0012 name").unwrap();
        assert_eq!(p.id.as_deref(), Some("0012"));
        assert_eq!(p.command, Ok(Command::Name));
        let p = parse_line("7").unwrap();
        assert_eq!(p.id.as_deref(), Some("7"));
        assert_eq!(p.command, Err(LineError::Unknown));
        assert_eq!(parse_line("name").unwrap().id, None);
    }

    #[test]
    fn whole_token_case_sensitive_names() {
        assert_eq!(cmd("playout b d4"), Err(LineError::Unknown));
        assert_eq!(cmd("PLAY b d4"), Err(LineError::Unknown));
        assert_eq!(cmd("names"), Err(LineError::Unknown));
        assert_eq!(cmd("name"), Ok(Command::Name));
    }

    #[test]
    fn no_argument_commands_refuse_arguments() {
        for (line, c) in [
            ("protocol_version", Command::ProtocolVersion),
            ("version", Command::Version),
            ("list_commands", Command::ListCommands),
            ("quit", Command::Quit),
            ("clear_board", Command::ClearBoard),
            ("undo", Command::Undo),
            ("final_score", Command::FinalScore),
            ("showboard", Command::Showboard),
            ("gogui-analyze_commands", Command::GoguiAnalyzeCommands),
            ("sente-ownership", Command::Ownership),
            ("cputime", Command::CpuTime),
            ("gomill-cpu_time", Command::CpuTime),
            ("gomill-describe_engine", Command::DescribeEngine),
            ("gomill-explain_last_move", Command::ExplainLastMove),
        ] {
            assert_eq!(cmd(line), Ok(c));
            assert!(matches!(
                cmd(&format!("{line} x")),
                Err(LineError::Syntax(_))
            ));
        }
    }

    #[test]
    fn colours() {
        for t in ["b", "B", "black", "BLACK", "Black"] {
            assert_eq!(parse_color(t), Some(Color::Black), "{t}");
        }
        for t in ["w", "W", "white", "WHITE"] {
            assert_eq!(parse_color(t), Some(Color::White), "{t}");
        }
        for t in ["", "bl", "blackx", "x", "white2"] {
            assert_eq!(parse_color(t), None, "{t}");
        }
    }

    #[test]
    fn vertices() {
        assert_eq!(parse_vertex("a1"), Some(at(0, 0)));
        assert_eq!(parse_vertex("D4"), Some(at(3, 3)));
        assert_eq!(parse_vertex("h8"), Some(at(7, 7)));
        assert_eq!(parse_vertex("J9"), Some(at(8, 8)));
        assert_eq!(parse_vertex("t19"), Some(at(18, 18)));
        assert_eq!(parse_vertex("Z25"), Some(at(24, 24)));
        assert_eq!(parse_vertex("pass"), Some(Vertex::Pass));
        assert_eq!(parse_vertex("PASS"), Some(Vertex::Pass));
        for t in [
            "i5", "I5", "a0", "a26", "a01", "4d", "aa1", "a", "1", "passx", "d4x", "",
        ] {
            assert_eq!(parse_vertex(t), None, "{t}");
        }
        for x in 0..25 {
            for y in 0..25 {
                let v = at(x, y);
                assert_eq!(parse_vertex(&format_vertex(v)), Some(v));
                assert_eq!(
                    parse_vertex(&format_vertex(v).to_ascii_lowercase()),
                    Some(v)
                );
            }
        }
        assert_eq!(format_vertex(at(8, 0)), "J1");
        assert_eq!(format_vertex(Vertex::Pass), "pass");
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_float("6.5"), Some(6.5));
        assert_eq!(parse_float("-3.5"), Some(-3.5));
        assert_eq!(parse_float("7"), Some(7.0));
        assert_eq!(parse_float("+0.5"), Some(0.5));
        assert_eq!(parse_float(".5"), Some(0.5));
        assert_eq!(parse_float("7."), Some(7.0));
        for t in ["nan", "inf", "1e3", "6,5", "", "-", "."] {
            assert_eq!(parse_float(t), None, "{t}");
        }
        assert_eq!(parse_uint("19"), Some(19));
        assert_eq!(parse_uint("-1"), None);
        assert_eq!(parse_uint("1.0"), None);
    }

    #[test]
    fn play_and_genmove() {
        assert_eq!(
            cmd("play white pass"),
            Ok(Command::Play(Color::White, Vertex::Pass))
        );
        assert_eq!(
            cmd("play B T19"),
            Ok(Command::Play(Color::Black, at(18, 18)))
        );
        assert!(matches!(cmd("play x d4"), Err(LineError::Syntax(m)) if m.contains("color")));
        assert!(matches!(cmd("play b i4"), Err(LineError::Syntax(m)) if m.contains("coordinate")));
        assert!(matches!(cmd("play b"), Err(LineError::Syntax(_))));
        assert!(matches!(cmd("play b d4 d5"), Err(LineError::Syntax(_))));
        assert_eq!(cmd("genmove w"), Ok(Command::Genmove(Color::White)));
        assert_eq!(cmd("reg_genmove B"), Ok(Command::RegGenmove(Color::Black)));
        assert_eq!(
            cmd("kgs-genmove_cleanup white"),
            Ok(Command::GenmoveCleanup(Color::White))
        );
        assert!(matches!(
            cmd("kgs-genmove_cleanup"),
            Err(LineError::Syntax(_))
        ));
        assert!(matches!(
            cmd("kgs-genmove_cleanup b c3"),
            Err(LineError::Syntax(_))
        ));
        assert_eq!(cmd("sente-ponder"), Ok(Command::Ponder(None)));
        assert_eq!(cmd("sente-ponder ON"), Ok(Command::Ponder(Some(true))));
        assert_eq!(cmd("sente-ponder off"), Ok(Command::Ponder(Some(false))));
        assert!(matches!(
            cmd("sente-ponder maybe"),
            Err(LineError::Syntax(_))
        ));
        assert!(matches!(
            cmd("sente-ponder on off"),
            Err(LineError::Syntax(_))
        ));
        assert!(matches!(cmd("genmove"), Err(LineError::Syntax(_))));
        assert!(matches!(cmd("genmove d4"), Err(LineError::Syntax(_))));
    }

    #[test]
    fn board_commands() {
        assert_eq!(cmd("boardsize 19"), Ok(Command::Boardsize(19)));
        assert_eq!(cmd("boardsize 0"), Ok(Command::Boardsize(0)));
        // An integer too big for any board is an unacceptable size, as GNU Go says.
        assert_eq!(
            cmd("boardsize 99999999999999999999999"),
            Ok(Command::Boardsize(usize::MAX))
        );
        assert_eq!(
            cmd("rectangular_boardsize 9 +99999999999999999999999"),
            Ok(Command::RectangularBoardsize(9, usize::MAX))
        );
        assert!(matches!(cmd("boardsize +"), Err(LineError::Syntax(_))));
        assert!(matches!(cmd("boardsize -1"), Err(LineError::Syntax(_))));
        assert!(matches!(cmd("boardsize 9.5"), Err(LineError::Syntax(_))));
        assert!(matches!(cmd("boardsize"), Err(LineError::Syntax(_))));
        assert_eq!(
            cmd("rectangular_boardsize 9 13"),
            Ok(Command::RectangularBoardsize(9, 13))
        );
        assert!(matches!(
            cmd("rectangular_boardsize 9"),
            Err(LineError::Syntax(_))
        ));
        assert_eq!(cmd("komi 6.5"), Ok(Command::Komi(6.5)));
        assert_eq!(cmd("komi -3"), Ok(Command::Komi(-3.0)));
        assert!(matches!(cmd("komi six"), Err(LineError::Syntax(_))));
        for bad in [
            "komi inf",
            "komi nan",
            "komi 7,5",
            &format!("komi -{}", "9".repeat(50)),
        ] {
            assert!(matches!(cmd(bad), Err(LineError::Syntax(_))), "{bad}");
        }
        assert_eq!(cmd("komi 1e3"), Ok(Command::Komi(1000.0)));
        assert_eq!(cmd("komi -1000"), Ok(Command::Komi(-1000.0)));
        assert_eq!(cmd("komi .5"), Ok(Command::Komi(0.5)));
        for far in ["komi 1e30", "komi 100000", "komi -1000.5"] {
            match cmd(far) {
                Err(LineError::Syntax(m)) => {
                    assert!(
                        m.contains("out of range (at most 1000 either way)"),
                        "{far}: {m}"
                    )
                }
                other => panic!("{far}: {other:?}"),
            }
        }
        assert_eq!(
            cmd("known_command play"),
            Ok(Command::KnownCommand("play".into()))
        );
        assert!(matches!(cmd("known_command"), Err(LineError::Syntax(_))));
        assert_eq!(
            cmd("set_random_seed 2147483647"),
            Ok(Command::SetRandomSeed(2147483647))
        );
        for bad in [
            "set_random_seed",
            "set_random_seed -1",
            "set_random_seed x",
            "set_random_seed 1 2",
        ] {
            assert!(matches!(cmd(bad), Err(LineError::Syntax(_))), "{bad}");
        }
    }

    #[test]
    fn handicap_commands() {
        assert_eq!(cmd("fixed_handicap 4"), Ok(Command::FixedHandicap(4)));
        assert_eq!(
            cmd("place_free_handicap 9"),
            Ok(Command::PlaceFreeHandicap(9))
        );
        assert!(matches!(
            cmd("fixed_handicap -1"),
            Err(LineError::Syntax(_))
        ));
        assert_eq!(
            cmd("set_free_handicap d4 Q16 k10"),
            Ok(Command::SetFreeHandicap(vec![
                at(3, 3),
                at(15, 15),
                at(9, 9)
            ]))
        );
        assert!(matches!(
            cmd("set_free_handicap"),
            Err(LineError::Syntax(_))
        ));
        assert!(matches!(
            cmd("set_free_handicap d4 i9"),
            Err(LineError::Syntax(_))
        ));
        // `pass` parses as a vertex; the session refuses it as a bad vertex list.
        assert_eq!(
            cmd("set_free_handicap d4 pass"),
            Ok(Command::SetFreeHandicap(vec![at(3, 3), Vertex::Pass]))
        );
    }

    #[test]
    fn time_commands() {
        assert_eq!(
            cmd("time_settings 300 30 5"),
            Ok(Command::TimeSettings(TimeSystem::Canadian {
                main: 300,
                period: 30,
                stones: 5
            }))
        );
        assert_eq!(
            cmd("time_settings 60 0 0"),
            Ok(Command::TimeSettings(TimeSystem::Absolute { main: 60 }))
        );
        assert!(matches!(
            cmd("time_settings 1 2"),
            Err(LineError::Syntax(_))
        ));
        assert!(matches!(
            cmd("time_settings a 2 3"),
            Err(LineError::Syntax(_))
        ));
        assert_eq!(
            cmd("kgs-time_settings none"),
            Ok(Command::TimeSettings(TimeSystem::None))
        );
        assert_eq!(
            cmd("kgs-time_settings absolute 600"),
            Ok(Command::TimeSettings(TimeSystem::Absolute { main: 600 }))
        );
        assert_eq!(
            cmd("kgs-time_settings byoyomi 600 30 5"),
            Ok(Command::TimeSettings(TimeSystem::Byoyomi {
                main: 600,
                period: 30,
                periods: 5
            }))
        );
        assert_eq!(
            cmd("kgs-time_settings canadian 600 300 25"),
            Ok(Command::TimeSettings(TimeSystem::Canadian {
                main: 600,
                period: 300,
                stones: 25
            }))
        );
        for bad in [
            "kgs-time_settings",
            "kgs-time_settings fischer 1 2",
            "kgs-time_settings absolute",
            "kgs-time_settings byoyomi 1 2",
            "kgs-time_settings none 5",
        ] {
            assert!(matches!(cmd(bad), Err(LineError::Syntax(_))), "{bad}");
        }
        assert_eq!(
            cmd("time_left b 120 0"),
            Ok(Command::TimeLeft {
                color: Color::Black,
                seconds: 120.0,
                stones: 0
            })
        );
        assert!(matches!(cmd("time_left b 120"), Err(LineError::Syntax(_))));
        for negative in ["time_left b -5 0", "time_left w -0.5 1", "time_left b -0 0"] {
            assert!(
                matches!(cmd(negative), Err(LineError::Syntax(_))),
                "{negative}"
            );
        }
        for huge in [
            "time_settings 2147483648 0 0",
            "time_settings 0 0 99999999999999999999999",
            "time_left b 18446744073709551616 5",
            "time_left b 2147483647.5 0",
            "time_left b 5 2147483648",
            "kgs-time_settings absolute 99999999999999",
            "kgs-time_settings byoyomi 0 2147483648 1",
        ] {
            match cmd(huge) {
                Err(LineError::Syntax(m)) => assert!(m.contains("2147483647"), "{huge}: {m}"),
                other => panic!("{huge}: {other:?}"),
            }
        }
        assert_eq!(
            cmd("time_settings 2147483647 0 0"),
            Ok(Command::TimeSettings(TimeSystem::Absolute {
                main: 2147483647
            }))
        );
        for negative in ["time_settings -1 0 0", "kgs-time_settings absolute -60"] {
            assert!(
                matches!(cmd(negative), Err(LineError::Syntax(_))),
                "{negative}"
            );
        }
    }

    #[test]
    fn scoring_and_sgf_commands() {
        assert_eq!(
            cmd("final_status_list dead"),
            Ok(Command::FinalStatusList(Status::Dead))
        );
        assert_eq!(
            cmd("final_status_list SEKI"),
            Ok(Command::FinalStatusList(Status::Seki))
        );
        assert!(matches!(
            cmd("final_status_list unknown"),
            Err(LineError::Syntax(_))
        ));
        assert_eq!(
            cmd("loadsgf game.sgf"),
            Ok(Command::LoadSgf {
                file: "game.sgf".into(),
                move_number: None
            })
        );
        assert_eq!(
            cmd("loadsgf game.sgf 12"),
            Ok(Command::LoadSgf {
                file: "game.sgf".into(),
                move_number: Some(12)
            })
        );
        assert!(matches!(cmd("loadsgf"), Err(LineError::Syntax(_))));
        assert!(matches!(cmd("loadsgf a.sgf x"), Err(LineError::Syntax(_))));
    }

    #[test]
    fn analysis_commands() {
        assert_eq!(
            cmd("lz-analyze B 50"),
            Ok(Command::Analyze(
                AnalyzeKind::Lz,
                AnalyzeOptions {
                    color: Some(Color::Black),
                    interval_cs: 50,
                    ..AnalyzeOptions::default()
                }
            ))
        );
        assert_eq!(
            cmd("kata-analyze 25"),
            Ok(Command::Analyze(
                AnalyzeKind::Kata,
                AnalyzeOptions {
                    interval_cs: 25,
                    ..AnalyzeOptions::default()
                }
            ))
        );
        assert_eq!(
            cmd("lz-analyze"),
            Ok(Command::Analyze(AnalyzeKind::Lz, AnalyzeOptions::default()))
        );
        assert_eq!(
            cmd("kata-analyze w interval 10 maxmoves 3 minmoves 1"),
            Ok(Command::Analyze(
                AnalyzeKind::Kata,
                AnalyzeOptions {
                    color: Some(Color::White),
                    interval_cs: 10,
                    min_moves: 1,
                    max_moves: Some(3),
                    ownership: false,
                    move_rules: Vec::new(),
                }
            ))
        );
        assert!(matches!(
            cmd("lz-analyze b 50 ownership true"),
            Err(LineError::Syntax(_))
        ));
        assert!(matches!(
            cmd("lz-analyze b 50 interval"),
            Err(LineError::Syntax(_))
        ));
        assert_eq!(
            cmd("lz-genmove_analyze W 30"),
            Ok(Command::GenmoveAnalyze(
                AnalyzeKind::Lz,
                Color::White,
                AnalyzeOptions {
                    color: Some(Color::White),
                    interval_cs: 30,
                    ..AnalyzeOptions::default()
                }
            ))
        );
        assert!(matches!(
            cmd("kata-genmove_analyze 30"),
            Err(LineError::Syntax(_))
        ));
        // avoid / allow: colour, vertices (pass included, any case), depth; repeatable, mixed
        // with the other keys in any order.
        let rule = |kind, color, vertices: &[Vertex], until_depth| MoveRule {
            kind,
            color,
            vertices: vertices.to_vec(),
            until_depth,
        };
        assert_eq!(
            cmd("lz-analyze b 20 avoid b d4,Q16,pass 3 maxmoves 2 ALLOW w c3 1"),
            Ok(Command::Analyze(
                AnalyzeKind::Lz,
                AnalyzeOptions {
                    color: Some(Color::Black),
                    interval_cs: 20,
                    max_moves: Some(2),
                    move_rules: vec![
                        rule(
                            FilterKind::Avoid,
                            Color::Black,
                            &[at(3, 3), at(15, 15), Vertex::Pass],
                            3
                        ),
                        rule(FilterKind::Allow, Color::White, &[at(2, 2)], 1),
                    ],
                    ..AnalyzeOptions::default()
                }
            ))
        );
        assert!(matches!(
            cmd("kata-genmove_analyze w 10 ownership true allow white e5,d4 1"),
            Ok(Command::GenmoveAnalyze(AnalyzeKind::Kata, Color::White, o))
                if o.ownership && o.move_rules.len() == 1
        ));
        assert!(starts_interruptible_analysis("5 lz-analyze b 50"));
        assert!(starts_interruptible_analysis("kata-analyze"));
        assert!(!starts_interruptible_analysis("lz-genmove_analyze b"));
        assert!(!starts_interruptible_analysis("# lz-analyze"));
    }

    #[test]
    fn level_command() {
        assert_eq!(cmd("sente-level"), Ok(Command::Level(None)));
        assert_eq!(
            cmd("sente-level mcts"),
            Ok(Command::Level(Some("mcts".into())))
        );
        assert!(matches!(cmd("sente-level a b"), Err(LineError::Syntax(_))));
    }

    #[test]
    fn rules_commands() {
        use crate::rules::go::kata_rules::KataRules;
        let named = |n: &str| KataRules::named(n).unwrap();
        assert_eq!(cmd("kata-get-rules"), Ok(Command::GetRules));
        assert_eq!(cmd("kata-list-params"), Ok(Command::ListParams));
        assert_eq!(cmd("get_komi"), Ok(Command::GetKomi));
        assert_eq!(
            cmd("is_legal w D4"),
            Ok(Command::IsLegal(Color::White, Vertex::At { x: 3, y: 3 }))
        );
        for bad in ["get_komi 7", "is_legal b", "is_legal x D4", "is_legal b I9"] {
            assert!(matches!(cmd(bad), Err(LineError::Syntax(_))), "{bad}");
        }
        assert_eq!(
            cmd("kata-get-param explore"),
            Ok(Command::GetParam("explore".into()))
        );
        assert_eq!(
            cmd("kata-set-param explore 0.2"),
            Ok(Command::SetParam("explore".into(), "0.2".into()))
        );
        for bad in [
            "kata-get-param",
            "kata-set-param explore",
            "kata-list-params x",
        ] {
            assert!(matches!(cmd(bad), Err(LineError::Syntax(_))), "{bad}");
        }
        assert_eq!(cmd("clear_cache"), Ok(Command::ClearCache));
        assert_eq!(cmd("stop"), Ok(Command::Stop));
        for line in ["kata-get-rules x", "clear_cache 1", "stop analysis"] {
            assert!(matches!(cmd(line), Err(LineError::Syntax(_))), "{line}");
        }
        assert_eq!(
            cmd("kata-set-rules japanese"),
            Ok(Command::SetRules(named("japanese")))
        );
        assert_eq!(
            cmd("kata-set-rules CHINESE_OGS"),
            Ok(Command::SetRules(named("chinese-ogs")))
        );
        assert_eq!(
            cmd("kata-set-rules tromp taylor"),
            Ok(Command::SetRules(named("tromp-taylor"))),
            "the tokens are joined again, as KataGo joins them"
        );
        assert_eq!(
            cmd("kgs-rules chinese"),
            Ok(Command::SetRules(named("chinese-kgs")))
        );
        for line in [
            "kata-set-rules",
            "kata-set-rules go",
            "kata-set-rules {",
            "kata-set-rules {\"komi\":7}",
            "kgs-rules",
            "kgs-rules korean",
            "kgs-rules chinese aga",
            "kata-set-rule",
            "kata-set-rule ko",
            "kata-set-rule ko simple positional",
            "kata-set-rule ko super",
            "kata-set-rule suicide yes",
            "kata-set-rule komi 7",
            "kata-set-rule size 9",
        ] {
            assert!(matches!(cmd(line), Err(LineError::Syntax(_))), "{line}");
        }
        for (line, option) in [
            ("kata-set-rule ko simple", RuleOption::Ko(KataKo::Simple)),
            (
                "kata-set-rule SCORE territory",
                RuleOption::Scoring(Scoring::Territory),
            ),
            ("kata-set-rule tax SEKI", RuleOption::Tax(KataTax::Seki)),
            ("kata-set-rule suicide FALSE", RuleOption::Suicide(false)),
            ("kata-set-rule hasButton true", RuleOption::HasButton(true)),
            (
                "kata-set-rule whiteHandicapBonus N-1",
                RuleOption::WhiteHandicapBonus(HandicapBonus::NMinusOne),
            ),
            (
                "kata-set-rule friendlypassok true",
                RuleOption::FriendlyPassOk(true),
            ),
        ] {
            assert_eq!(cmd(line), Ok(Command::SetRule(option)), "{line}");
        }
        // One field changes, the rest stay (the tax does not follow the scoring here).
        let japanese = named("japanese");
        let area = RuleOption::Scoring(Scoring::Area).applied_to(japanese);
        assert_eq!(
            area,
            KataRules {
                scoring: Scoring::Area,
                ..japanese
            }
        );
    }

    #[test]
    fn kata_rules_json() {
        use crate::rules::go::kata_rules::KataRules;
        let tt = KataRules::TROMP_TAYLOR;
        assert_eq!(parse_kata_rules_json("{}"), Ok(tt));
        // Every key, in any order and case of value; the documented examples read back.
        for name in [
            "tromp-taylor",
            "chinese",
            "japanese",
            "aga",
            "new-zealand",
            "aga-button",
        ] {
            let r = KataRules::named(name).unwrap();
            let text = format_kata_rules(&r);
            assert_eq!(parse_kata_rules_json(&text), Ok(r), "{name}: {text}");
        }
        let r = parse_kata_rules_json(r#"{"score":"territory","ko":"simple"}"#).unwrap();
        assert_eq!(
            (r.scoring, r.ko, r.tax),
            (Scoring::Territory, KataKo::Simple, KataTax::Seki)
        );
        let r = parse_kata_rules_json(r#"{"scoring":"TERRITORY","tax":"NONE"}"#).unwrap();
        assert_eq!(r.tax, KataTax::None, "a given tax wins");
        for bad in [
            "[]",
            "\"chinese\"",
            "{\"ko\":true}",
            "{\"ko\":\"SUPER\"}",
            "{\"suicide\":1}",
            "{\"whiteHandicapBonus\":\"2\"}",
            "{\"komi\":7.5}",
            "{\"button\":false}",
            "{\"ko\":\"SIMPLE\"",
        ] {
            assert!(parse_kata_rules_json(bad).is_err(), "{bad}");
        }
        assert_eq!(
            format_kata_rules(&KataRules::named("japanese").unwrap()),
            r#"{"friendlyPassOk":true,"hasButton":false,"ko":"SIMPLE","scoring":"TERRITORY","suicide":false,"tax":"SEKI","whiteHandicapBonus":"0"}"#
        );
    }

    #[test]
    fn every_listed_command_parses_and_nothing_else_does() {
        for name in command_names(GtpGameKind::Go) {
            assert_ne!(
                parse_command(name, &[]).err(),
                Some(LineError::Unknown),
                "{name}"
            );
            assert!(is_supported(name, GtpGameKind::Go));
        }
        for name in GO_ONLY_COMMANDS {
            assert!(!is_supported(name, GtpGameKind::Ttt));
        }
        // What gomill's ringmaster and GoGui's twogtp ask of any engine.
        for name in ["gomill-cpu_time", "cputime", "gomill-describe_engine"] {
            assert!(is_supported(name, GtpGameKind::Ttt), "{name}");
        }
        assert!(is_supported("play", GtpGameKind::Ttt));
        assert!(!is_supported("playout", GtpGameKind::Go));
    }

    #[test]
    fn responses() {
        assert_eq!(format_response(Some("12"), Ok("")), "=12\n\n");
        assert_eq!(format_response(None, Ok("")), "=\n\n");
        assert_eq!(format_response(None, Ok("D4")), "= D4\n\n");
        assert_eq!(
            format_response(Some("3"), Err("illegal move")),
            "?3 illegal move\n\n"
        );
        assert_eq!(format_response(None, Ok("a\n\nb\n")), "= a\nb\n\n");
        assert_eq!(
            format_response(None, Ok("\n  A B\n1 . .")),
            "=\n  A B\n1 . .\n\n"
        );
        assert_eq!(
            format_score(FinalScore {
                winner: Some(Color::White),
                margin: 2.5
            }),
            "W+2.5"
        );
        assert_eq!(
            format_score(FinalScore {
                winner: Some(Color::Black),
                margin: 31.0
            }),
            "B+31"
        );
        assert_eq!(format_score(FinalScore::from_black_lead(0.0)), "0");
        assert_eq!(
            format_influence(
                &[(at(0, 1), 0.875), (at(1, 1), -1.0), (at(0, 0), 0.0)],
                -3.46
            ),
            "INFLUENCE A2 0.88 B2 -1.00 A1 0.00\nTEXT estimate W+3.5 (area, komi included)"
        );
        assert_eq!(
            format_influence(&[], 0.04),
            "INFLUENCE\nTEXT estimate 0 (area, komi included)"
        );
        assert_eq!(format_cpu_time(Duration::from_micros(1_234_567)), "1.235");
        assert_eq!(format_cpu_time(Duration::ZERO), "0.000");
        assert_eq!(format_genmove(Genmove::Resign), "resign");
        assert_eq!(format_genmove(Genmove::Claim), "claim");
        assert_eq!(format_play_line(Genmove::Move(at(2, 3))), "play C4");
    }

    #[test]
    fn info_lines() {
        let c = |v, visits, order| Candidate {
            mv: v,
            visits,
            winrate: 0.4656,
            prior: 0.0839,
            lcb: 0.43215,
            score_lead: -1.25,
            order,
            pv: vec![v, at(15, 15)],
        };
        let cands = [c(at(3, 3), 836, 0), c(at(3, 15), 20, 1)];
        assert_eq!(
            format_info(AnalyzeKind::Lz, &cands, None).unwrap(),
            "info move D4 visits 836 winrate 4656 prior 839 lcb 4322 order 0 pv D4 Q16 \
             info move D16 visits 20 winrate 4656 prior 839 lcb 4322 order 1 pv D16 Q16"
        );
        assert_eq!(
            format_info(AnalyzeKind::Kata, &cands[..1], None).unwrap(),
            "info move D4 visits 836 winrate 0.465600 scoreLead -1.250000 prior 0.083900 \
             lcb 0.432150 order 0 pv D4 Q16"
        );
        assert_eq!(format_info(AnalyzeKind::Lz, &[], None), None);
        assert_eq!(format_info(AnalyzeKind::Kata, &[], Some(&[0.5])), None);
    }

    #[test]
    fn the_ownership_tail_ends_the_line_once_with_every_value_in_order() {
        let c = |v, order| Candidate {
            mv: v,
            visits: 5,
            winrate: 0.5,
            prior: 0.1,
            lcb: 0.4,
            score_lead: 0.0,
            order,
            pv: vec![v],
        };
        let cands = [c(at(0, 1), 0), c(at(1, 0), 1)];
        // A 3x2 board's six values, row by row from the top left, as the session sends them;
        // clamped to -1..1, three decimals, no -0.000, no exponent, NaN as 0.
        let own = [1.0, -0.25, 0.0004, -0.0004, 1.5, f32::NAN];
        let line = format_info(AnalyzeKind::Kata, &cands, Some(&own)).unwrap();
        let (infos, tail) = line.split_once(" ownership ").unwrap();
        assert_eq!(infos, format_info(AnalyzeKind::Kata, &cands, None).unwrap());
        assert_eq!(tail, "1.000 -0.250 0.000 0.000 1.000 0.000");
        assert_eq!(line.matches("ownership").count(), 1);
        assert!(line.rfind("info move").unwrap() < line.find("ownership").unwrap());
        for (v, want) in [
            (1e-9_f32, "0.000"),
            (-1e-9, "0.000"),
            (-0.9996, "-1.000"),
            (0.1235, "0.124"),
            (-f32::INFINITY, "-1.000"),
        ] {
            assert_eq!(format_owner(v), want, "{v}");
        }
        let n = 19 * 19;
        let own: Vec<f32> = (0..n).map(|i| i as f32 / n as f32).collect();
        let line = format_info(AnalyzeKind::Kata, &cands[..1], Some(&own)).unwrap();
        let values: Vec<&str> = line
            .split(" ownership ")
            .nth(1)
            .unwrap()
            .split(' ')
            .collect();
        assert_eq!(values.len(), n);
        assert_eq!(
            (values[0], values[1], values[n - 1]),
            ("0.000", "0.003", "0.997")
        );
    }

    fn options(ownership: bool, color: Option<Color>, interval_cs: u32) -> AnalyzeOptions {
        AnalyzeOptions {
            color,
            interval_cs,
            ownership,
            ..AnalyzeOptions::default()
        }
    }

    #[test]
    fn kata_ownership_keys() {
        let kata = |o| Ok(Command::Analyze(AnalyzeKind::Kata, o));
        let w = Some(Color::White);
        assert_eq!(
            cmd("kata-analyze w 10 ownership true"),
            kata(options(true, w, 10))
        );
        assert_eq!(
            cmd("kata-analyze ownership TRUE"),
            kata(options(true, None, DEFAULT_INTERVAL_CS))
        );
        assert_eq!(
            cmd("kata-analyze b 10 ownership false"),
            kata(options(false, Some(Color::Black), 10))
        );
        // Any key order; the false-only keys of Lizzie-like clients are accepted as false.
        let all = "ownershipStdev false movesOwnership false movesOwnershipStdev false \
                   pvVisits False";
        for line in [
            format!("kata-analyze w interval 10 ownership true {all}"),
            format!("kata-analyze w {all} ownership true interval 10"),
            format!("kata-analyze w 50 {all} interval 10 ownership true"),
            "kata-analyze w pvVisits false ownership false ownership true interval 10".into(),
        ] {
            assert_eq!(cmd(&line), kata(options(true, w, 10)), "{line}");
        }
        assert_eq!(
            cmd("kata-analyze b 10 maxmoves 2 ownership true minmoves 1"),
            kata(AnalyzeOptions {
                color: Some(Color::Black),
                interval_cs: 10,
                min_moves: 1,
                max_moves: Some(2),
                ownership: true,
                move_rules: Vec::new(),
            })
        );
        assert_eq!(
            cmd("kata-genmove_analyze b 10 ownership true"),
            Ok(Command::GenmoveAnalyze(
                AnalyzeKind::Kata,
                Color::Black,
                options(true, Some(Color::Black), 10)
            ))
        );
        assert_eq!(
            cmd("kata-genmove_analyze w ownership false pvVisits false"),
            Ok(Command::GenmoveAnalyze(
                AnalyzeKind::Kata,
                Color::White,
                options(false, w, DEFAULT_INTERVAL_CS)
            ))
        );
    }

    #[test]
    fn refused_analysis_keys() {
        let refused = [
            // Unsupported true values.
            "kata-analyze b 10 ownershipStdev true",
            "kata-analyze b 10 ownership true movesOwnership true",
            "kata-analyze b 10 movesOwnershipStdev true",
            "kata-analyze b 10 pvVisits true",
            "kata-genmove_analyze b 10 ownershipStdev true",
            // Malformed values, missing values, unknown keys.
            "kata-analyze b 10 ownership yes",
            "kata-analyze b 10 ownership 1",
            "kata-analyze b 10 ownership",
            "kata-analyze b 10 ownership true interval",
            "kata-analyze b 10 pvVisits no",
            "kata-analyze b 10 ownership true allow b d4",
            "kata-analyze b 10 allow b d4 0",
            "kata-analyze b 10 allow x d4 1",
            "kata-analyze b 10 avoid b d4,,e5 1",
            "kata-analyze b 10 avoid b d4,i5 1",
            "kata-analyze b 10 avoid b d4, 1",
            "kata-analyze b 10 avoid b d4 -1",
            "kata-analyze b 10 avoid b d4 99999999999",
            "lz-analyze b 10 avoid b d4 1 allow",
            "kata-analyze b 10 rootInfo true",
            "kata-analyze b 10 Ownership true",
            "kata-analyze b 10 interval true",
            "kata-analyze b 10 ownership true ownership",
            "kata-genmove_analyze ownership true",
            // Leela Zero's dialect has no ownership.
            "lz-analyze b 10 ownership true",
            "lz-analyze b 10 ownership false",
            "lz-analyze b 10 pvVisits false",
            "lz-genmove_analyze b 10 ownership true",
            "lz-genmove_analyze b ownership false",
        ];
        for line in refused {
            match cmd(line) {
                Err(LineError::Syntax(m)) => {
                    assert!(m.starts_with("syntax error ("), "{line}: {m}")
                }
                other => panic!("{line}: {other:?}"),
            }
        }
        assert!(matches!(
            cmd("kata-analyze b pvVisits true"),
            Err(LineError::Syntax(m)) if m.contains("pvVisits true is not supported")
        ));
        assert!(matches!(
            cmd("kata-analyze b ownership maybe"),
            Err(LineError::Syntax(m)) if m.contains("[ownership true|false]")
        ));
        assert!(matches!(
            cmd("lz-analyze b ownership true"),
            Err(LineError::Syntax(m)) if !m.contains("ownership")
        ));
    }
}
