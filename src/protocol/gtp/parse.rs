//! Reading GTP: one normalised input line becomes an optional id and a typed [`Command`] with
//! validated arguments (nom parsers). Framing, as the spec's preprocessing steps: a `#` starts a
//! comment to the end of the line, and a line that is then empty gets no response
//! ([`preprocess`]). A first token of digits is the id. Command names are matched as whole,
//! case-sensitive tokens (`play` is not `playout`, `PLAY` is unknown, as in GNU Go); colours
//! (`b`, `w`, `black`, `white`) and vertices (`d4`, `D4`, `pass`) in any case, with the column
//! letter `I` skipped. Whether a vertex is on the current board is the session's question.

use nom::branch::alt;
use nom::bytes::complete::{tag_no_case, take_while_m_n};
use nom::character::complete::{anychar, char, digit1};
use nom::combinator::{all_consuming, map, map_opt, map_res, opt, recognize, value};
use nom::sequence::{pair, tuple};
use nom::IResult;

use super::rules::{parse_kata_rules_json, parse_rule_option};
use crate::rules::go::kata_rules::{KataRules, RuleOption, RULE_NAMES};
use crate::rules::notation::{gtp_column, gtp_row};
use crate::rules::Color;
use crate::session::gtp_game::{
    AnalyzeKind, AnalyzeOptions, FilterKind, MoveRule, Status, TimeSystem, Vertex,
};

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
    /// `printsgf [file]`: the game as SGF, answered or written to `file`.
    PrintSgf(Option<String>),
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
    /// `gogui-interrupt`: says that the engine takes GoGui's `# interrupt` comment line
    /// ([`is_gogui_interrupt`]); it does nothing itself.
    GoguiInterrupt,
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

/// Whether a normalised line is GoGui's interrupt, the comment line `# interrupt`: the
/// command running when it arrives is to answer at once. Being a comment, it is no command
/// and gets no response.
pub fn is_gogui_interrupt(line: &str) -> bool {
    line.strip_prefix('#')
        .is_some_and(|comment| comment.trim() == "interrupt")
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
        "gogui-interrupt" => Command::GoguiInterrupt,
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
        "printsgf" if args.len() > 1 => Err(syntax("printsgf [filename]")),
        "printsgf" => Ok(Command::PrintSgf(args.first().map(|f| f.to_string()))),
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

#[cfg(test)]
mod tests;
