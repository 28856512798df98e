//! What a GTP controller drives, whatever the game: the typed arguments and results of GTP
//! commands ([`Vertex`], [`FinalScore`], [`TimeSystem`], [`AnalyzeOptions`]; analysis
//! candidates are the search's [`Candidate`]s with their moves named as vertices) and the
//! [`GtpGame`] trait that the tic-tac-toe session (`session::ttt`) and the Go session
//! (`session::go`) implement for the commands they share. Protocol text never appears here: the
//! protocol layer parses lines into these types and formats what comes back; a failure is the
//! GTP error message (`illegal move`, `cannot undo`, ...) that goes after the `?`.

use std::time::{Duration, Instant};

use crate::rules::Color;
use crate::search::mcts::Candidate;
pub use crate::search::move_filter::FilterKind;

/// A GTP vertex: a point or `pass`. Points count from the bottom-left corner, 0-based: `x` is
/// the column from the left (`A` = 0, `I` skipped), `y` the row from the bottom (GTP row 1 = 0).
/// Whether the point is on the current board is for the session to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vertex {
    Pass,
    At { x: usize, y: usize },
}

impl std::fmt::Display for Vertex {
    /// The GTP name: `pass`, or the column letter and row number (`A1`); a point past the 25
    /// columns GTP names is written `x,y`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Vertex::Pass => f.write_str("pass"),
            Vertex::At { x, y } => match crate::rules::notation::gtp_point_name(x, y) {
                Some(name) => f.write_str(&name),
                None => write!(f, "{x},{y}"),
            },
        }
    }
}

/// What `genmove` answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Genmove {
    Move(Vertex),
    Resign,
    /// gomill's `claim`: the engine is certain to win (only when the controller allowed it).
    Claim,
}

/// A game result for `final_score`: the winner (`None` = a draw, written `0`) and the margin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FinalScore {
    pub winner: Option<Color>,
    /// Points the winner is ahead by (komi included); 0 for a draw.
    pub margin: f32,
}

impl FinalScore {
    /// The result of a signed score, positive when black is ahead.
    pub fn from_black_lead(lead: f32) -> FinalScore {
        if lead > 0.0 {
            FinalScore {
                winner: Some(Color::Black),
                margin: lead,
            }
        } else if lead < 0.0 {
            FinalScore {
                winner: Some(Color::White),
                margin: -lead,
            }
        } else {
            FinalScore {
                winner: None,
                margin: 0.0,
            }
        }
    }
}

/// `final_status_list` classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Alive,
    Dead,
    Seki,
}

/// A time system from `time_settings` or `kgs-time_settings`, all in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeSystem {
    /// No time limit.
    None,
    /// Sudden death: `main` seconds for the whole game.
    Absolute { main: u64 },
    /// Main time, then `stones` moves in every period of `period` seconds.
    Canadian { main: u64, period: u64, stones: u64 },
    /// Main time, then `periods` periods of `period` seconds, one move in each.
    Byoyomi {
        main: u64,
        period: u64,
        periods: u64,
    },
}

impl TimeSystem {
    /// GTP's `time_settings main byo_time byo_stones`: `byo_time = 0` is absolute time,
    /// `byo_stones = 0` with `byo_time > 0` means no limit.
    pub fn from_time_settings(main: u64, byo_time: u64, byo_stones: u64) -> TimeSystem {
        match (byo_time, byo_stones) {
            (0, _) => TimeSystem::Absolute { main },
            (_, 0) => TimeSystem::None,
            (period, stones) => TimeSystem::Canadian {
                main,
                period,
                stones,
            },
        }
    }
}

/// Which streaming analysis dialect: Leela Zero's (winrates and priors in 1/100 of a percent) or
/// KataGo's (floats in 0..1, with `scoreLead`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalyzeKind {
    Lz,
    Kata,
}

/// One `avoid` or `allow` key of an analysis command: `color`'s `vertices` closed (or the only
/// ones open) from the first move to ply `until_depth` of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    pub kind: FilterKind,
    pub color: Color,
    pub vertices: Vec<Vertex>,
    pub until_depth: u32,
}

/// Arguments of `lz-analyze` / `kata-analyze` / `*-genmove_analyze`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalyzeOptions {
    /// Whose moves to analyse; `None` = the side to move.
    pub color: Option<Color>,
    /// Centiseconds between `info` lines.
    pub interval_cs: u32,
    /// Report at least this many candidates (when the search has them).
    pub min_moves: usize,
    /// Report at most this many candidates; `None` = all.
    pub max_moves: Option<usize>,
    /// `kata-analyze ... ownership true`: every report also carries the ownership map.
    pub ownership: bool,
    /// `avoid` / `allow` keys, in the order given.
    pub move_rules: Vec<MoveRule>,
}

/// The interval when a controller names none: one second.
pub const DEFAULT_INTERVAL_CS: u32 = 100;

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            color: None,
            interval_cs: DEFAULT_INTERVAL_CS,
            min_moves: 0,
            max_moves: None,
            ownership: false,
            move_rules: Vec::new(),
        }
    }
}

impl AnalyzeOptions {
    /// The reporting interval (at least 10 ms, so a zero interval does not flood the pipe).
    pub fn interval(&self) -> Duration {
        Duration::from_millis((u64::from(self.interval_cs) * 10).max(10))
    }
}

/// Where streamed candidates go, with the ownership map when [`AnalyzeOptions::ownership`]
/// asked for it: one value per point, row by row from the top left (A19 on 19x19) to the
/// bottom right, in -1..1 from the analysed colour's point of view (1 = that colour owns the
/// point), like the candidates' winrates.
pub type CandidateSink<'a> = &'a mut dyn FnMut(&[Candidate<Vertex>], Option<&[f32]>);

/// What a move-generating command brings along.
pub struct GtpRequest<'a> {
    /// Sequence number of the input line (see [`crate::session::StopSignal`]).
    pub seq: u64,
    /// When that line was read: the clock starts here.
    pub at: Instant,
    /// Streaming analysis: where candidates go and how often. `None` for a plain genmove.
    pub analysis: Option<(CandidateSink<'a>, AnalyzeOptions)>,
}

impl<'a> GtpRequest<'a> {
    /// A request with no streaming.
    pub fn plain(seq: u64, at: Instant) -> GtpRequest<'a> {
        GtpRequest {
            seq,
            at,
            analysis: None,
        }
    }
}

/// A session's answer: the result, or the GTP error message.
pub type GtpResult<T> = Result<T, String>;

/// Message for a size the game cannot play.
pub const UNACCEPTABLE_SIZE: &str = "unacceptable size";
/// Message for a move the rules refuse. It carries no reason (GNU Go and KataGo answer `play`
/// with exactly this text too): gomill's ringmaster compares the whole message with it, and only
/// on a match does it forfeit the player who made the move; any other failure forfeits the
/// engine that refused it. The reason goes to the log.
pub const ILLEGAL_MOVE: &str = "illegal move";
/// The start of `loadsgf`'s failure message; the reason follows after `: `.
pub const CANNOT_LOAD: &str = "cannot load file";
/// The start of `printsgf`'s failure to write its file; the reason follows after `: `.
pub const CANNOT_WRITE: &str = "cannot write file";
/// Message for `undo` with nothing to take back.
pub const CANNOT_UNDO: &str = "cannot undo";
/// Message for a vertex that is not on the current board.
pub const OFF_BOARD: &str = "invalid coordinate (not on the board)";

/// The GTP commands every game shares. Game-specific ones are methods of each session.
pub trait GtpGame {
    /// The current player level.
    fn level(&self) -> &'static str;
    /// Switches the player level (case-insensitive name); unknown names leave it as it was.
    fn set_level(&mut self, name: &str) -> GtpResult<()>;
    /// `set_random_seed`: every random choice of the player is seeded by `seed` from now on
    /// (a level switched to later takes it too).
    fn set_seed(&mut self, seed: u64);
    /// `boardsize` / `rectangular_boardsize`: a new empty board (`unacceptable size` otherwise,
    /// and then nothing changes).
    fn boardsize(&mut self, width: usize, height: usize) -> GtpResult<()>;
    /// `clear_board`.
    fn clear_board(&mut self);
    /// `komi`.
    fn komi(&mut self, komi: f32);
    /// `play`: the stone of `color` at `v` (the same colour twice in a row is legal).
    fn play(&mut self, color: Color, v: Vertex) -> GtpResult<()>;
    /// `genmove` (`commit` = play it) and `reg_genmove` (`commit` = false). Never fails.
    fn genmove(&mut self, color: Color, commit: bool, req: &mut GtpRequest<'_>) -> Genmove;
    /// `undo`: takes back the last move (`cannot undo` when there is none).
    fn undo(&mut self) -> GtpResult<()>;
    /// `showboard`: a drawing with columns lettered and rows numbered (several lines).
    fn showboard(&self) -> String;
    /// `final_score`.
    fn final_score(&mut self) -> GtpResult<FinalScore>;
    /// The settings that decide how the engine plays (game, rules, level, seed, time), one per
    /// line, for `gomill-describe_engine` (the protocol adds the name and version).
    fn describe(&self) -> Vec<String>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_and_colours_read_as_gtp_names() {
        // What the logs say of a refused move: `play white A1 refused: ...`.
        let v = Vertex::At { x: 0, y: 0 };
        assert_eq!(
            format!("play {} {v} refused", Color::White.name()),
            "play white A1 refused"
        );
        assert_eq!(Vertex::At { x: 8, y: 18 }.to_string(), "J19");
        assert_eq!(Vertex::Pass.to_string(), "pass");
    }

    #[test]
    fn time_settings_conventions() {
        assert_eq!(
            TimeSystem::from_time_settings(300, 0, 0),
            TimeSystem::Absolute { main: 300 }
        );
        assert_eq!(TimeSystem::from_time_settings(300, 30, 0), TimeSystem::None);
        assert_eq!(
            TimeSystem::from_time_settings(0, 30, 5),
            TimeSystem::Canadian {
                main: 0,
                period: 30,
                stones: 5
            }
        );
    }

    #[test]
    fn scores_by_sign() {
        assert_eq!(FinalScore::from_black_lead(2.5).winner, Some(Color::Black));
        assert_eq!(FinalScore::from_black_lead(-0.5).winner, Some(Color::White));
        assert_eq!(FinalScore::from_black_lead(-0.5).margin, 0.5);
        assert_eq!(FinalScore::from_black_lead(0.0).winner, None);
    }
}
