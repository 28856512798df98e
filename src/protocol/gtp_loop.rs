//! The GTP loop: reads framed lines from the reader thread, answers each command in order (a
//! controller may pipeline: Sabaki sends `clear_board` and every `play` at once), dispatches
//! typed commands to the game's session and writes each response, flushed, ending with its
//! empty line. Streaming commands (`lz-analyze`, `kata-analyze`, `*-genmove_analyze`) write
//! their `=` at once, then `info` lines as the session reports candidates.
//!
//! Which lines stop what is decided on the reader thread (`InterruptWatch` in the parent module): any line
//! after `lz-analyze` / `kata-analyze` (a blank one too, or end of input) ends the analysis at
//! once; nothing
//! interrupts a `genmove`, whose queued successors simply wait their turn. With pondering on
//! (`--ponder`, `sente-ponder on`), the loop ponders while no line is queued after a genmove
//! ([`GoSession::ponder`]); the reader raises the input flag after queueing any line, which
//! ends the ponder, and the line is then answered as if no ponder had run.

use std::io::{self, Write};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::sync::Arc;

use log::{error, warn};

use super::gtp::{
    command_names, format_cpu_time, format_genmove, format_influence, format_info,
    format_kata_rules, format_play_line, format_response, format_score, format_stream_start,
    format_vertices, id_and_name, is_supported, parse_line, Command, GtpGameKind, LineError,
    GENMOVE_EX_KEYWORDS, GOGUI_ANALYZE_COMMANDS,
};
use super::guard::guarded;
use super::io::{Event, Input, Output, MAX_LINE_BYTES, TOO_LONG};
use super::next_input;
use crate::cpu_time::process_cpu_time;
use crate::search::mcts::Candidate;
use crate::session::go::{GoConfig, GoSession};
use crate::session::gtp_game::{GtpGame, GtpRequest, Vertex};
use crate::session::ttt::TttSession;
use crate::session::StopSignal;

/// What the GTP side takes from the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GtpOptions {
    /// The game (`--game`).
    pub game: GtpGameKind,
    /// The level (`--level`); `None` = the game's default.
    pub level: Option<String>,
    /// Seed for every random choice.
    pub seed: u64,
    /// Fixed search budget per move (MCTS playouts); switches the clock off.
    pub nodes: Option<u64>,
    /// Search threads for Go (`--threads`; 0 counts as 1).
    pub threads: usize,
    /// Go: think on the opponent's time (`--ponder`).
    pub ponder: bool,
    /// Go: share main time most in the middle game (`--time-middle`).
    pub time_middle: bool,
}

/// The engine's name for `name`.
pub const ENGINE_NAME: &str = "sente";

/// The session of the chosen game.
enum Engine {
    Ttt(TttSession),
    Go(Box<GoSession>),
}

impl Engine {
    /// The session for `options`; an unknown level falls back to the game's default (the CLI
    /// refuses unknown levels before getting here). An error when the game has no player.
    fn new(options: &GtpOptions, signal: Arc<StopSignal>) -> Result<Engine, String> {
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

    /// After a command panicked ([`guarded`]): drop the search state it may have left half
    /// built. The game record changes only in small steps that finish before a search starts.
    fn recover(&mut self) {
        if let Engine::Go(go) = self {
            go.clear_cache();
        }
    }
}

/// Runs GTP until `quit` or end of input.
pub fn gtp_loop<W: Write>(
    first: Option<Input>,
    rx: &Receiver<Event>,
    out: &mut Output<W>,
    signal: Arc<StopSignal>,
    options: &GtpOptions,
) -> io::Result<()> {
    let game = options.game;
    let mut engine = Engine::new(options, signal.clone());
    if let Err(e) = &engine {
        error!("no GTP session: {e}");
    }
    let mut next = first;
    loop {
        if next.is_none() {
            if let Ok(Engine::Go(go)) = engine.as_mut() {
                if go.wants_ponder() {
                    // Ponder only on an empty queue, until the next line arrives.
                    signal.clear_input();
                    match rx.try_recv() {
                        Ok(Event::Line(input)) => next = Some(input),
                        Ok(Event::Eof) | Err(TryRecvError::Disconnected) => return Ok(()),
                        Err(TryRecvError::Empty) => {
                            if guarded("pondering", || go.ponder(signal.input_flag())).is_err() {
                                go.clear_cache();
                            }
                            continue;
                        }
                    }
                }
            }
        }
        let Some(input) = next_input(&mut next, rx) else {
            return Ok(());
        };
        // A cut line's command is lost unless what was dropped lay inside a comment.
        if input.cut && !input.line.contains('#') {
            // Leading blanks are not kept, so an id shorter than the kept part ended before
            // the cut: it is whole.
            let id = id_and_name(&input.line)
                .and_then(|(id, _)| id)
                .filter(|id| id.len() < MAX_LINE_BYTES);
            send(out, &format_response(id, Err(TOO_LONG)))?;
            continue;
        }
        let Some(parsed) = parse_line(&input.line) else {
            continue;
        };
        let id = parsed.id.as_deref();
        let command = match parsed.command {
            _ if !is_supported(&parsed.name, game) => Err("unknown command".to_string()),
            Err(LineError::Unknown) => Err("unknown command".to_string()),
            Err(LineError::Syntax(m)) => Err(m),
            Ok(c) => Ok(c),
        };
        let command = match command {
            Ok(c) => c,
            Err(m) => {
                send(out, &format_response(id, Err(&m)))?;
                continue;
            }
        };
        let result = match (command, engine.as_mut()) {
            (Command::Quit, _) => {
                send(out, &format_response(id, Ok("")))?;
                return Ok(());
            }
            // Without a session (no player for the game) only `quit` works.
            (_, Err(e)) => Err(e.clone()),
            (c @ (Command::Analyze(..) | Command::GenmoveAnalyze(..)), Ok(engine)) => {
                let streamed = guarded("a GTP analysis", || stream(engine, c, id, &input, out));
                if streamed.is_err() {
                    // The `=` line is out: the empty line ends the response.
                    engine.recover();
                    send(out, "\n")?;
                }
                streamed.unwrap_or(Ok(()))?;
                reply_written(engine);
                continue;
            }
            (other, Ok(engine)) => {
                guarded("a GTP command", || execute(engine, game, other, &input)).unwrap_or_else(
                    |e| {
                        engine.recover();
                        Err(e)
                    },
                )
            }
        };
        let text = match &result {
            Ok(body) => format_response(id, Ok(body)),
            Err(m) => format_response(id, Err(m)),
        };
        send(out, &text)?;
        if let Ok(engine) = engine.as_mut() {
            reply_written(engine);
        }
    }
}

/// Tells a Go session that its last response is out, so a `genmove`'s lateness is measured
/// up to the moment the controller could read it.
fn reply_written(engine: &mut Engine) {
    if let Engine::Go(go) = engine {
        go.reply_written(std::time::Instant::now());
    }
}

/// Writes a whole response (which already ends with its empty line) and flushes it.
fn send<W: Write>(out: &mut Output<W>, response: &str) -> io::Result<()> {
    out.line(response.strip_suffix('\n').unwrap_or(response))
        .inspect_err(|e| super::log_write_error("the response", e))
}

/// One non-streaming command: the result text or the error message.
fn execute(
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
fn stream<W: Write>(
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
            super::log_write_error("analysis", &e);
            *failed = Some(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{run_with, ProtocolChoice, RunOptions};
    use super::*;
    use std::io::Cursor;

    fn talk(input: &str, game: GtpGameKind, level: Option<&str>) -> String {
        let options = RunOptions {
            protocol: ProtocolChoice::Gtp,
            gtp: GtpOptions {
                game,
                level: level.map(String::from),
                seed: 1,
                nodes: Some(200),
                threads: 1,
                ponder: false,
                time_middle: false,
            },
            ..RunOptions::default()
        };
        let mut buf = Vec::new();
        run_with(Cursor::new(input.as_bytes().to_vec()), &mut buf, options).unwrap();
        String::from_utf8(buf).unwrap()
    }

    fn ttt(input: &str) -> String {
        talk(input, GtpGameKind::Ttt, None)
    }

    #[test]
    fn framing_ids_comments_and_blank_lines() {
        let out = ttt("1 boardsize 3\n\n# comment\nclear_board  # trailing\n\t2\tplay   b   B2\n3 play w B2\n10 name\n");
        assert_eq!(out, "=1\n\n=\n\n=2\n\n?3 illegal move\n\n=10 sente\n\n");
    }

    #[test]
    fn unknown_and_game_specific_commands() {
        let out = ttt(
            "foo\n5 playout b a1\nfixed_handicap 2\nknown_command loadsgf\nknown_command play\n",
        );
        assert_eq!(
            out,
            "? unknown command\n\n?5 unknown command\n\n? unknown command\n\n= false\n\n= true\n\n"
        );
    }

    #[test]
    fn list_commands_is_exactly_what_works() {
        let out = ttt("list_commands\n");
        let listed: Vec<&str> = out.trim_start_matches("= ").trim_end().lines().collect();
        assert_eq!(listed, command_names(GtpGameKind::Ttt));
        for name in listed {
            let reply = ttt(&format!("{name}\n"));
            assert!(!reply.contains("unknown command"), "{name}: {reply}");
        }
    }

    #[test]
    fn quit_answers_then_stops_reading() {
        assert_eq!(ttt("7 quit\nname\n"), "=7\n\n");
        assert_eq!(ttt("name\n"), "= sente\n\n", "end of input quits quietly");
    }

    #[test]
    fn ttt_game_and_levels() {
        let out = ttt("boardsize 4\nboardsize 3\nplay b a1\nplay b b1\ngenmove w\nsente-level\nsente-level nosuch\nsente-level dumber\nsente-level\n");
        let replies: Vec<&str> = out.split("\n\n").collect();
        assert_eq!(replies[0], "? unacceptable size");
        assert_eq!(replies[1], "=");
        assert_eq!(replies[4], "= C1", "perfect blocks");
        assert_eq!(replies[5], "= perfect");
        assert!(replies[6].starts_with("? unknown level 'nosuch'"));
        assert_eq!(replies[7], "=");
        assert_eq!(replies[8], "= dumber");
    }

    /// Forwards everything written to a channel, so a test can watch output as it comes.
    struct Tee(std::sync::mpsc::Sender<Vec<u8>>);

    impl Write for Tee {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let _ = self.0.send(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Runs Go over a live pipe, one step at a time: sends each step's text, then waits until
    /// the output written since holds the step's marker (30 s of silence fail the test: a hang
    /// guard, not a latency check). Closes the input after the last step and returns all the
    /// output.
    fn live_go_steps(steps: &[(&str, &str)]) -> String {
        live_go_steps_with(false, steps)
    }

    /// [`live_go_steps`], pondering when `ponder`.
    fn live_go_steps_with(ponder: bool, steps: &[(&str, &str)]) -> String {
        use std::io::BufReader;
        use std::time::Duration;
        let (reader, writer) = std::io::pipe().unwrap();
        let mut writer = Some(writer);
        let (tx, rx) = std::sync::mpsc::channel();
        let options = RunOptions {
            protocol: ProtocolChoice::Gtp,
            gtp: GtpOptions {
                seed: 1,
                nodes: Some(50),
                ponder,
                ..GtpOptions::default()
            },
            ..RunOptions::default()
        };
        let engine = std::thread::spawn(move || {
            run_with(BufReader::new(reader), Tee(tx), options).unwrap();
        });
        let mut out = String::new();
        for (text, marker) in steps {
            if ponder {
                // Time for the ponder after the last answer to start.
                std::thread::sleep(Duration::from_millis(50));
            }
            // From the last byte already seen, so that a marker split across writes is found.
            let from = out.len().saturating_sub(1);
            writer.as_mut().unwrap().write_all(text.as_bytes()).unwrap();
            while !out[from..].contains(marker) {
                let chunk = rx
                    .recv_timeout(Duration::from_secs(30))
                    .unwrap_or_else(|_| panic!("{marker:?} after {text:?}; output: {out}"));
                out.push_str(&String::from_utf8_lossy(&chunk));
            }
        }
        drop(writer.take()); // end of input: the engine quits
        while let Ok(chunk) = rx.recv_timeout(Duration::from_secs(30)) {
            out.push_str(&String::from_utf8_lossy(&chunk));
        }
        engine.join().unwrap();
        out
    }

    /// [`live_go_steps`] with two steps: `before` until `marker`, then `after` (which must end
    /// with `9 protocol_version`) until that is answered.
    fn live_go(before: &str, marker: &str, after: &str) -> String {
        live_go_steps(&[(before, marker), (after, "=9 2\n\n")])
    }

    #[test]
    fn the_next_line_ends_a_ponder_and_is_answered_as_without_one() {
        // After `genmove` the engine ponders (20 million playouts would take minutes): each
        // later line must stop it and be answered, the answers shaped as in a run without
        // pondering (the moves may differ: the ponder grows the tree the next genmove reuses).
        let steps = [
            ("boardsize 9\nclear_board\n1 genmove b\n", "=1 "),
            ("2 play w A1\n", "=2\n\n"),
            ("3 genmove b\n", "=3 "),
            ("4 sente-ponder\n", "=4 "),
            ("5 sente-ponder off\n6 sente-ponder\n", "=6 "),
            ("9 protocol_version\n", "=9 2\n\n"),
        ];
        let with = live_go_steps_with(true, &steps);
        let without = live_go_steps_with(false, &steps);
        assert!(with.contains("=4 on\n"), "{with}");
        assert!(without.contains("=4 off\n"), "{without}");
        assert!(with.contains("=6 off\n"), "{with}");
        let shape = |s: &str| {
            s.lines()
                .map(|l| l.split(' ').next().unwrap_or("").to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(shape(&with), shape(&without));
    }

    #[test]
    fn a_live_line_ends_the_analysis_at_once() {
        // An analysis has no end of its own: the next line is the only thing that can end it,
        // so the answer to that line arriving at all is the proof. How fast it comes is
        // measured, not asserted, by `scripts/latency.py commands`.
        let out = live_go(
            "boardsize 9\nclear_board\nplay b E5\n5 lz-analyze w 5\n",
            "info move",
            "9 protocol_version\n",
        );
        let analysis = &out[out.find("=5\n").expect("analysis started")..];
        let (body, rest) = analysis.split_once("\n\n").expect("the analysis ended");
        assert!(
            body.lines().skip(1).all(|l| l.starts_with("info move ")),
            "{body}"
        );
        assert_eq!(rest, "=9 2\n\n");
    }

    #[test]
    fn a_bare_newline_ends_the_analysis_without_a_response() {
        // KataGo's rule (GTP.md section 5): a bare newline ends lz-analyze / kata-analyze.
        let out = live_go_steps(&[
            (
                "boardsize 9\nclear_board\n5 kata-analyze b 5\n",
                "info move",
            ),
            ("\n", "\n\n"),
            ("9 protocol_version\n", "=9 2\n\n"),
        ]);
        let analysis = &out[out.find("=5\n").expect("analysis started")..];
        let (body, rest) = analysis.split_once("\n\n").expect("the analysis ended");
        assert!(
            body.lines().skip(1).all(|l| l.starts_with("info move ")),
            "{body}"
        );
        assert_eq!(rest, "=9 2\n\n", "the blank line itself gets no response");
    }

    #[test]
    fn pipelined_commands_are_answered_in_order() {
        let mut input = String::from("1 boardsize 9\n2 clear_board\n");
        let moves = ["D4", "E5", "D5", "E4", "pass", "C3", "F6"];
        for (i, m) in moves.iter().enumerate() {
            let c = if i % 2 == 0 { "B" } else { "W" };
            input.push_str(&format!("{} play {c} {m}\n", 10 + i));
        }
        input.push_str("20 genmove b\n21 protocol_version\n22 play W D4\n");
        let out = talk(&input, GtpGameKind::Go, None);
        let replies: Vec<&str> = out.split("\n\n").collect();
        assert_eq!(
            &replies[..9],
            ["=1", "=2", "=10", "=11", "=12", "=13", "=14", "=15", "=16"]
        );
        assert!(replies[9].starts_with("=20 "), "{out}");
        assert_eq!(replies[10], "=21 2");
        assert_eq!(replies[11], "?22 illegal move");
    }
}
