//! Answering one typed GTP command: the session of the chosen game ([`Engine`]) does the
//! work and the response is written, flushed, ending with its empty line. Streaming commands
//! (`lz-analyze`, `kata-analyze`, `*-genmove_analyze`) write their `=` at once, then `info`
//! lines as the session reports candidates.

use std::io::{self, Write};
use std::sync::Arc;

use log::warn;

use super::commands::{command_names, is_supported, GtpGameKind};
use super::format::{
    format_cpu_time, format_genmove, format_influence, format_info, format_play_line,
    format_response, format_score, format_stream_start, format_vertices, GENMOVE_EX_KEYWORDS,
    GOGUI_ANALYZE_COMMANDS,
};
use super::parse::Command;
use super::rules::format_kata_rules;
use super::GtpOptions;
use crate::cpu_time::process_cpu_time;
use crate::protocol::io::{Input, Output};
use crate::protocol::log_write_error;
use crate::search::mcts::Candidate;
use crate::session::go::{GoConfig, GoSession};
use crate::session::gtp_game::{GtpGame, GtpRequest, Vertex};
use crate::session::ttt::TttSession;
use crate::session::StopSignal;

/// The engine's name for `name`.
const ENGINE_NAME: &str = "sente";

/// The session of the chosen game.
pub(super) enum Engine {
    Ttt(TttSession),
    Go(Box<GoSession>),
}

impl Engine {
    /// The session for `options`; an unknown level falls back to the game's default (the CLI
    /// refuses unknown levels before getting here). An error when the game has no player.
    pub(super) fn new(options: &GtpOptions, signal: Arc<StopSignal>) -> Result<Engine, String> {
        let level = options.level.as_deref();
        let fallback = |e: String| {
            warn!("{e}; using the default level");
        };
        Ok(match options.game {
            GtpGameKind::Ttt => Engine::Ttt(TttSession::new(level, options.seed).or_else(|e| {
                fallback(e);
                TttSession::new(None, options.seed)
            })?),
            GtpGameKind::Go => {
                let config = GoConfig {
                    level: options.level.clone(),
                    seed: options.seed,
                    nodes: options.nodes,
                    threads: options.threads,
                    ponder: options.ponder,
                    time_middle: options.time_middle,
                };
                let session = GoSession::new(config.clone(), signal.clone()).or_else(|e| {
                    fallback(e);
                    let config = GoConfig {
                        level: None,
                        ..config
                    };
                    GoSession::new(config, signal)
                })?;
                Engine::Go(Box::new(session))
            }
        })
    }

    fn common(&mut self) -> &mut dyn GtpGame {
        match self {
            Engine::Ttt(s) => s,
            Engine::Go(s) => s.as_mut(),
        }
    }

    /// After a command panicked ([`crate::protocol::guard::guarded`]): drop the search state it may have left half
    /// built. The game record changes only in small steps that finish before a search starts.
    pub(super) fn recover(&mut self) {
        if let Engine::Go(go) = self {
            go.clear_cache();
        }
    }
}

/// Tells a Go session that its last response is out, so a `genmove`'s lateness is measured
/// up to the moment the controller could read it.
pub(super) fn reply_written(engine: &mut Engine) {
    if let Engine::Go(go) = engine {
        go.reply_written(std::time::Instant::now());
    }
}

/// Writes a whole response (which already ends with its empty line) and flushes it.
pub(super) fn send<W: Write>(out: &mut Output<W>, response: &str) -> io::Result<()> {
    out.line(response.strip_suffix('\n').unwrap_or(response))
        .inspect_err(|e| log_write_error("the response", e))
}

/// One non-streaming command: the result text or the error message.
pub(super) fn execute(
    engine: &mut Engine,
    game: GtpGameKind,
    command: Command,
    input: &Input,
) -> Result<String, String> {
    let empty = |r: Result<(), String>| r.map(|_| String::new());
    if let Engine::Go(go) = engine {
        match command {
            Command::RectangularBoardsize(w, h) => return empty(go.boardsize(w, h)),
            Command::FixedHandicap(n) => return go.fixed_handicap(n).map(|v| format_vertices(&v)),
            Command::PlaceFreeHandicap(n) => {
                return go.place_free_handicap(n).map(|v| format_vertices(&v))
            }
            Command::SetFreeHandicap(vs) => return empty(go.set_free_handicap(&vs)),
            Command::TimeSettings(t) => {
                go.time_settings(t);
                return Ok(String::new());
            }
            Command::TimeLeft {
                color,
                seconds,
                stones,
            } => {
                go.time_left(color, seconds, stones);
                return Ok(String::new());
            }
            Command::FinalStatusList(status) => {
                let groups = go.final_status_list(status);
                let lines: Vec<String> = groups.iter().map(|g| format_vertices(g)).collect();
                return Ok(lines.join("\n"));
            }
            Command::LoadSgf { file, move_number } => return empty(go.loadsgf(&file, move_number)),
            Command::PrintSgf(file) => return go.printsgf(file.as_deref()),
            Command::GoguiAnalyzeCommands => return Ok(GOGUI_ANALYZE_COMMANDS.join("\n")),
            Command::ExplainLastMove => return Ok(go.explain_last_move()),
            Command::GenmoveEx(None) => return Ok(GENMOVE_EX_KEYWORDS.join("\n")),
            Command::GenmoveEx(Some((color, claim))) => {
                let mut req = GtpRequest::plain(input.seq, input.at);
                return Ok(format_genmove(go.genmove_ex(color, claim, &mut req)));
            }
            Command::GenmoveCleanup(color) => {
                let mut req = GtpRequest::plain(input.seq, input.at);
                return Ok(format_genmove(go.genmove_cleanup(color, &mut req)));
            }
            Command::GetRules => return Ok(format_kata_rules(&go.rules())),
            Command::ListParams => return Ok(go.param_names().join(" ")),
            Command::GetKomi => return Ok(go.komi_in_force().to_string()),
            Command::IsLegal(color, v) => {
                return go
                    .is_legal(color, v)
                    .map(|ok| if ok { "1" } else { "0" }.to_string())
            }
            Command::GetParam(name) => return go.get_param(&name),
            Command::SetParam(name, value) => return empty(go.set_param(&name, &value)),
            Command::SetRules(rules) => return empty(go.set_rules(rules)),
            Command::SetRule(option) => return empty(go.set_rules(option.applied_to(go.rules()))),
            Command::ClearCache => {
                go.clear_cache();
                return Ok(String::new());
            }
            // Any line already ended a ponder or an analysis: nothing is left to stop.
            Command::Stop => return Ok(String::new()),
            // Listing it is the whole of it: the reader thread acts on the `# interrupt` line.
            Command::GoguiInterrupt => return Ok(String::new()),
            Command::Ponder(None) => {
                return Ok(if go.ponder_enabled() { "on" } else { "off" }.to_string())
            }
            Command::Ponder(Some(on)) => {
                go.set_ponder(on);
                return Ok(String::new());
            }
            Command::Ownership => {
                let (points, margin) = go.ownership();
                return Ok(format_influence(&points, margin));
            }
            _ => {}
        }
    }
    let s = engine.common();
    match command {
        Command::ProtocolVersion => Ok("2".into()),
        Command::Name => Ok(ENGINE_NAME.into()),
        // One version string for both protocols (Gomocup's ABOUT too): the weights' identity.
        Command::Version => Ok(crate::eval::gomoku::learned::version_with_weights()),
        Command::KnownCommand(name) => Ok(is_supported(&name, game).to_string()),
        Command::ListCommands => Ok(command_names(game).join("\n")),
        Command::Level(None) => Ok(s.level().to_string()),
        Command::Level(Some(name)) => empty(s.set_level(&name)),
        Command::SetRandomSeed(seed) => {
            s.set_seed(seed);
            Ok(String::new())
        }
        Command::Boardsize(n) => empty(s.boardsize(n, n)),
        Command::ClearBoard => {
            s.clear_board();
            Ok(String::new())
        }
        Command::Komi(k) => {
            s.komi(k);
            Ok(String::new())
        }
        Command::Play(c, v) => empty(s.play(c, v)),
        Command::Genmove(c) | Command::RegGenmove(c) => {
            let commit = matches!(command, Command::Genmove(_));
            let mut req = GtpRequest::plain(input.seq, input.at);
            Ok(format_genmove(s.genmove(c, commit, &mut req)))
        }
        Command::Undo => empty(s.undo()),
        Command::Showboard => Ok(s.showboard()),
        Command::FinalScore => s.final_score().map(format_score),
        Command::CpuTime => process_cpu_time()
            .map(format_cpu_time)
            .ok_or_else(|| "cpu time is not available on this system".to_string()),
        Command::DescribeEngine => {
            let mut lines = vec![format!(
                "{ENGINE_NAME} {}",
                crate::eval::gomoku::learned::version_with_weights()
            )];
            lines.extend(s.describe());
            Ok(lines.join("\n"))
        }
        // The rest belong to other games; `is_supported` keeps them away from this one.
        _ => Err("unknown command".into()),
    }
}

/// A streaming command: `=` at once, `info` lines while the session works, then the end
/// (`play <move>` for the genmove form) and the empty line.
pub(super) fn stream<W: Write>(
    engine: &mut Engine,
    command: Command,
    id: Option<&str>,
    input: &Input,
    out: &mut Output<W>,
) -> io::Result<()> {
    let Engine::Go(go) = engine else {
        return send(out, &format_response(id, Err("unknown command")));
    };
    out.line(&format_stream_start(id))?;
    let mut failed: Option<io::Error> = None;
    match command {
        Command::Analyze(kind, options) => {
            let mut write = |c: &[Candidate<Vertex>], own: Option<&[f32]>| {
                write_info(out, &mut failed, format_info(kind, c, own))
            };
            go.analyze(options, input.seq, &mut write);
        }
        Command::GenmoveAnalyze(kind, color, options) => {
            let decision = {
                let mut write = |c: &[Candidate<Vertex>], own: Option<&[f32]>| {
                    write_info(out, &mut failed, format_info(kind, c, own))
                };
                let mut req = GtpRequest {
                    seq: input.seq,
                    at: input.at,
                    analysis: Some((&mut write, options)),
                };
                go.genmove(color, true, &mut req)
            };
            out.line(&format_play_line(decision))?;
        }
        _ => unreachable!("only streaming commands come here"),
    }
    if let Some(e) = failed {
        return Err(e);
    }
    out.line("")
}

/// Writes one `info` line; the first write error is kept for the end of the response.
fn write_info<W: Write>(out: &mut Output<W>, failed: &mut Option<io::Error>, line: Option<String>) {
    if let (Some(line), None) = (line, failed.as_ref()) {
        if let Err(e) = out.line(&line) {
            log_write_error("analysis", &e);
            *failed = Some(e);
        }
    }
}
