//! The Gomocup loop: reads lines from the reader thread, gathers `BOARD`-style blocks
//! ([`BoardCollector`]), hands each typed command to the gomoku session and writes its reply,
//! with progress `MESSAGE` lines as they come. Which lines interrupt a search is decided on the
//! reader thread ([`super::parse::interrupt_of`]). With `INFO pondering 1` it ponders while no
//! line is queued after a reply that played our move ([`GomokuSession::ponder`]); the reader
//! raises the input flag after queueing any line (and at end of input), which ends the
//! ponder, and the line is then answered as if no ponder had run.

use std::io::{self, Write};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::sync::Arc;

use log::warn;

use super::block::{BlockKind, BoardCollector, Feed};
use super::format::{format_progress, format_reply};
use super::parse::{parse_command, Command};
use crate::players::GomokuPlayer;
use crate::protocol::guard::guarded;
use crate::protocol::io::{Event, Input, Output, TOO_LONG};
use crate::protocol::{log_write_error, next_input};
use crate::session::gomoku::{GomokuSession, Progress, Reply, Request, SessionConfig};
use crate::session::StopSignal;

/// What one Gomocup line leads to.
enum Step {
    /// A reply (perhaps none) to write.
    Reply(Reply),
    /// A line inside a block: wait for more.
    Wait,
    /// The session is over (`END`, or `END` inside a block).
    End,
}

/// Runs Gomocup until `END` or end of input, with `player` or else the configured level's.
pub(crate) fn gomocup_loop<W: Write>(
    first: Option<Input>,
    rx: &Receiver<Event>,
    out: &mut Output<W>,
    signal: Arc<StopSignal>,
    config: SessionConfig,
    player: Option<Box<dyn GomokuPlayer>>,
) -> io::Result<()> {
    let mut session = match player {
        Some(p) => GomokuSession::with_player(config, signal.clone(), p),
        None => GomokuSession::new(config, signal.clone()),
    };
    let mut block: Option<BoardCollector> = None;
    let mut next = first;
    loop {
        if next.is_none() && session.wants_ponder() {
            // Ponder only on an empty queue, until the next line arrives.
            signal.clear_input();
            match rx.try_recv() {
                Ok(Event::Line(input)) => next = Some(input),
                Ok(Event::Eof) | Err(TryRecvError::Disconnected) => return Ok(()),
                Err(TryRecvError::Empty) => {
                    // A ponder that panicked is not retried (it cleared its position first).
                    let _ = guarded("pondering", || session.ponder(signal.input_flag()));
                    continue;
                }
            }
        }
        let Some(input) = next_input(&mut next, rx) else {
            return Ok(());
        };
        let seq = input.seq;
        // Progress lines go out as they come; a failed MESSAGE write only matters if the
        // reply after it fails too.
        let mut write_progress = |p: &Progress| {
            if let Err(e) = out.line(&format_progress(p)) {
                warn!("writing MESSAGE: {e}");
            }
        };
        let mut req = Request {
            seq,
            at: input.at,
            progress: &mut write_progress,
        };
        let mut searched = false;
        let handled = guarded("a Gomocup command", || {
            // A cut line's command is lost: refuse it (inside a block, the block at its DONE).
            if input.cut {
                return match &mut block {
                    Some(collector) => {
                        collector.refuse(TOO_LONG);
                        Step::Wait
                    }
                    None => Step::Reply(Reply::Error(TOO_LONG.into())),
                };
            }
            Step::Reply(if let Some(collector) = &mut block {
                match collector.feed(&input.line) {
                    Feed::Pending => return Step::Wait,
                    Feed::End => return Step::End,
                    Feed::Complete(kind, result) => {
                        block = None;
                        match (kind, result) {
                            (_, Err(e)) => Reply::Error(format!("{}: {e}", kind.name())),
                            (BlockKind::Board, Ok(stones)) => {
                                searched = true;
                                session.set_board(&stones, true, &mut req)
                            }
                            (BlockKind::YxBoard, Ok(stones)) => {
                                session.set_board(&stones, false, &mut req)
                            }
                            (BlockKind::Swap2Board, Ok(stones)) => {
                                searched = true;
                                session.swap2(&stones, &mut req)
                            }
                            (BlockKind::YxBlock | BlockKind::YxBlockUndo, Ok(points)) => {
                                let points: Vec<(i64, i64)> =
                                    points.iter().map(|s| (s.x, s.y)).collect();
                                let undo = kind == BlockKind::YxBlockUndo;
                                match session.block(&points, undo) {
                                    Reply::Error(e) => {
                                        Reply::Error(format!("{}: {e}", kind.name()))
                                    }
                                    r => r,
                                }
                            }
                        }
                    }
                }
            } else {
                match parse_command(&input.line) {
                    Err(e) => Reply::Error(e.to_string()),
                    Ok(cmd) => match cmd {
                        Command::Start(n) => session.start(n),
                        Command::RectStart(w, h) => session.rect_start(w, h),
                        Command::Restart => session.restart(),
                        Command::Begin => {
                            searched = true;
                            session.begin(&mut req)
                        }
                        Command::Turn(x, y) => {
                            searched = true;
                            session.turn(x, y, &mut req)
                        }
                        Command::Board => {
                            block = Some(BoardCollector::new(BlockKind::Board));
                            Reply::Nothing
                        }
                        Command::YxBoard => {
                            block = Some(BoardCollector::new(BlockKind::YxBoard));
                            Reply::Nothing
                        }
                        Command::Swap2Board => {
                            block = Some(BoardCollector::new(BlockKind::Swap2Board));
                            Reply::Nothing
                        }
                        Command::YxBlock => {
                            block = Some(BoardCollector::new(BlockKind::YxBlock));
                            Reply::Nothing
                        }
                        Command::YxBlockUndo => {
                            block = Some(BoardCollector::new(BlockKind::YxBlockUndo));
                            Reply::Nothing
                        }
                        Command::YxBlockReset => session.block_reset(),
                        Command::YxBalanceOne(bias) => {
                            searched = true;
                            session.balance(false, bias, &mut req)
                        }
                        Command::YxBalanceTwo(bias) => {
                            searched = true;
                            session.balance(true, bias, &mut req)
                        }
                        Command::YxSearchDefend => {
                            searched = true;
                            session.search_defend(&mut req)
                        }
                        Command::Done => Reply::Error(
                            "DONE without BOARD, YXBOARD, SWAP2BOARD, YXBLOCK or YXBLOCKUNDO"
                                .into(),
                        ),
                        Command::Stone(s) => Reply::Error(format!(
                            "stone line {},{} outside BOARD ... DONE",
                            s.x, s.y
                        )),
                        Command::Info(setting) => {
                            session.info(setting);
                            Reply::Nothing
                        }
                        Command::End => return Step::End,
                        Command::About => Reply::About,
                        Command::Takeback(x, y) => session.takeback(x, y),
                        Command::Play(x, y) => session.play(x, y),
                        // Outside a search there is nothing to stop.
                        Command::YxStop | Command::Stop => Reply::Nothing,
                        Command::YxShowForbid => session.show_forbid(),
                        Command::YxHashClear => session.hash_clear(),
                        Command::YxShowInfo => Reply::Messages(vec![
                            format!(
                                "sente {}",
                                crate::eval::gomoku::learned::version_with_weights()
                            ),
                            // Yixin-Board reads its thread setting's limit from this line.
                            format!("INFO MAX_THREAD_NUM {}", crate::search::MAX_THREADS),
                        ]),
                        Command::YxNbest(n) => {
                            searched = true;
                            session.nbest(n, &mut req)
                        }
                        Command::Unknown(text) => Reply::Unknown(text),
                    },
                }
            })
        });
        let reply = match handled {
            Ok(Step::Reply(reply)) => reply,
            Ok(Step::Wait) => continue,
            Ok(Step::End) => return Ok(()),
            Err(e) => {
                // A block being collected when it panicked is dropped with it.
                block = None;
                Reply::Error(e)
            }
        };
        // END while we were thinking: the manager has given up on the answer.
        if searched && signal.ended_during_search() {
            return Ok(());
        }
        if let Some(text) = format_reply(&reply) {
            if let Err(e) = out.line(&text) {
                log_write_error("the reply", &e);
                return Err(e);
            }
        }
        if searched {
            session.reply_written(std::time::Instant::now());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::{decide_quietly, Decision, Player};
    use crate::protocol::{run_with, run_with_player, ProtocolChoice, RunOptions};
    use crate::rules::{Board, Pos};
    use crate::search::clock::TimeManager;
    use std::io::Cursor;

    fn talk(input: &str, protocol: ProtocolChoice) -> Vec<String> {
        let options = RunOptions {
            protocol,
            session: SessionConfig {
                nodes: Some(1000),
                ..SessionConfig::default()
            },
            ..RunOptions::default()
        };
        let mut buf = Vec::new();
        run_with(Cursor::new(input.as_bytes().to_vec()), &mut buf, options).unwrap();
        String::from_utf8(buf)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("MESSAGE"))
            .map(String::from)
            .collect()
    }

    fn gomocup(input: &str) -> Vec<String> {
        talk(input, ProtocolChoice::Auto)
    }

    /// A player with a bug: it panics on the move it is asked for.
    struct Panicky;

    impl Player<Board> for Panicky {
        fn name(&self) -> &'static str {
            "panicky"
        }
        fn decide(&mut self, board: &Board, tm: &TimeManager<'_>) -> Option<Decision<Pos>> {
            decide_quietly(self, board, tm)
        }
    }

    impl GomokuPlayer for Panicky {
        fn choose(
            &mut self,
            _: &crate::rules::Board,
            _: &mut crate::players::MoveRequest<'_, '_>,
        ) -> Option<crate::rules::Pos> {
            panic!("the player broke")
        }
    }

    #[test]
    fn a_panicking_player_gets_an_error_reply_and_the_engine_reads_on() {
        let input = "START 15\nBEGIN\nTURN 7,7\nTAKEBACK 7,7\nABOUT\nEND\n";
        let mut buf = Vec::new();
        let options = RunOptions {
            protocol: ProtocolChoice::Gomocup,
            ..RunOptions::default()
        };
        let player: Box<dyn GomokuPlayer> = Box::new(Panicky);
        run_with_player(
            Cursor::new(input.as_bytes()),
            &mut buf,
            options,
            Some(player),
        )
        .unwrap();
        let text = String::from_utf8(buf).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
        assert_eq!(lines[0], "OK");
        assert_eq!(lines[1], "ERROR internal error: the player broke");
        // TURN keeps the opponent's stone (the search came after it), so TAKEBACK finds it.
        assert_eq!(lines[2], "ERROR internal error: the player broke");
        assert_eq!(lines[3], "OK");
        assert!(lines[4].starts_with("name=\"sente\""), "{lines:?}");
        assert_eq!(lines.len(), 5, "{lines:?}");
    }

    fn is_move(s: &str) -> bool {
        parse_command(s).is_ok_and(|c| matches!(c, Command::Stone(_)))
    }

    #[test]
    fn a_short_game() {
        let out = gomocup("START 15\nINFO timeout_turn 100\nBEGIN\nTURN 14,14\nABOUT\n");
        assert_eq!(out[0], "OK");
        assert!(is_move(&out[1]) && is_move(&out[2]), "{out:?}");
        assert!(out[3].starts_with("name=\"sente\""));
    }

    #[test]
    fn errors_never_end_the_loop() {
        let out = gomocup(
            "TURN 1,1\nSTART 4\nSTART 2\nSTART 15\nTURN 15,0\nTURN -1,0\nTURN 1\nSTARTX\n\
             DONE\n1,1,1\nbegin\nTURN 7,8\nABOUT\n",
        );
        assert!(out[0].starts_with("ERROR no game started"), "{out:?}");
        assert!(out[1].starts_with("ERROR unsupported board size"));
        assert!(
            out[2].starts_with("ERROR unsupported board size 2x2"),
            "{out:?}"
        );
        assert_eq!(out[3], "OK");
        assert!(out[4].starts_with("ERROR TURN 15,0: point is off the board"));
        assert!(out[5].starts_with("ERROR TURN -1,0"));
        assert!(out[6].starts_with("ERROR TURN expects X,Y"));
        assert_eq!(out[7], "UNKNOWN STARTX");
        assert!(out[8].starts_with("ERROR DONE without"));
        assert!(out[9].starts_with("ERROR stone line"));
        assert!(is_move(&out[10]));
        assert!(is_move(&out[11]));
        assert!(out[12].starts_with("name="));
    }

    #[test]
    fn occupied_turn_leaves_the_position() {
        let out = gomocup("START 15\nBOARD\n7,7,2\nDONE\nTURN 7,7\nYXSHOWFORBID\n");
        assert_eq!(out[0], "OK");
        assert!(is_move(&out[1]));
        assert_eq!(out[2], "ERROR TURN 7,7: point is occupied");
        assert_eq!(out[3], "FORBID .");
    }

    #[test]
    fn bad_info_is_reported_on_the_next_move_request() {
        let out = gomocup("START 15\nINFO rule 16\nINFO timeout_turn abc\nBEGIN\nBEGIN\n");
        assert_eq!(out[0], "OK");
        assert!(out[1].starts_with("ERROR INFO rule 16"), "{out:?}");
        assert!(out[1].contains("INFO timeout_turn abc"));
        assert!(is_move(&out[2]));
        assert_eq!(out.len(), 3);
    }

    #[test]
    fn end_stops_and_says_nothing_more() {
        let out = gomocup("START 15\nEND\nABOUT\n");
        assert_eq!(out, vec!["OK"]);
        let out = gomocup("START 15\nYXBOARD\n1,1,1\nEND\nDONE\nABOUT\n");
        assert_eq!(out, vec!["OK"]);
    }

    #[test]
    fn yxstop_outside_search_is_silent() {
        let out = gomocup("START 15\nYXSTOP\nSTOP\nABOUT\n");
        assert_eq!(out.len(), 2);
    }

    /// Thinks until told to stop (or 10 s pass), announcing when it starts.
    struct Stubborn {
        started: std::sync::mpsc::Sender<()>,
    }

    impl Player<Board> for Stubborn {
        fn name(&self) -> &'static str {
            "stubborn"
        }
        fn decide(&mut self, board: &Board, tm: &TimeManager<'_>) -> Option<Decision<Pos>> {
            decide_quietly(self, board, tm)
        }
    }

    impl GomokuPlayer for Stubborn {
        fn choose(
            &mut self,
            board: &crate::rules::Board,
            req: &mut crate::players::MoveRequest<'_, '_>,
        ) -> Option<crate::rules::Pos> {
            let _ = self.started.send(());
            let t = std::time::Instant::now();
            while !req.tm.stop_requested() && t.elapsed() < std::time::Duration::from_secs(10) {
                std::thread::yield_now();
            }
            assert!(req.tm.stop_requested(), "the stop never came");
            board.empty_points().next()
        }
    }

    /// Runs the loop on a pipe: sends `before`, waits for the search to start, sends `during`.
    fn live(before: &str, during: &str) -> Vec<String> {
        let (reader, mut writer) = std::io::pipe().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let options = RunOptions {
            protocol: ProtocolChoice::Gomocup,
            ..RunOptions::default()
        };
        let engine = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let player: Box<dyn GomokuPlayer> = Box::new(Stubborn { started: tx });
            run_with_player(
                std::io::BufReader::new(reader),
                &mut buf,
                options,
                Some(player),
            )
            .unwrap();
            String::from_utf8(buf).unwrap()
        });
        writer.write_all(before.as_bytes()).unwrap();
        rx.recv_timeout(std::time::Duration::from_secs(10))
            .expect("the search started");
        writer.write_all(during.as_bytes()).unwrap();
        drop(writer);
        let out = engine.join().unwrap();
        out.lines().map(String::from).collect()
    }

    #[test]
    fn yxstop_during_a_search_answers_at_once() {
        let out = live("START 15\nBEGIN\n", "YXSTOP\nABOUT\n");
        assert_eq!(out.len(), 3, "{out:?}");
        assert_eq!(out[1], "0,0");
        assert!(out[2].starts_with("name="));
    }

    /// Pondering with the real player over pipes: after our move nothing is written while it
    /// ponders, the next line is answered at once, and end of input ends the process.
    #[test]
    fn a_ponder_writes_nothing_and_yields_to_the_next_line_at_once() {
        use std::io::BufRead;
        let (reader, mut writer) = std::io::pipe().unwrap();
        let (out_reader, out_writer) = std::io::pipe().unwrap();
        let options = RunOptions {
            protocol: ProtocolChoice::Gomocup,
            ..RunOptions::default()
        };
        let engine = std::thread::spawn(move || {
            run_with(std::io::BufReader::new(reader), out_writer, options).unwrap();
        });
        let mut lines = std::io::BufReader::new(out_reader).lines();
        let mut next = || loop {
            let l = lines.next().expect("a line").unwrap();
            if !l.starts_with("MESSAGE") {
                return l;
            }
        };
        writer
            .write_all(b"START 15\nINFO pondering 1\nINFO timeout_turn 200\nBEGIN\n")
            .unwrap();
        assert_eq!(next(), "OK");
        assert!(is_move(&next()));
        // The ponder runs now (an unlimited search); a line must not wait for it to end.
        std::thread::sleep(std::time::Duration::from_millis(300));
        let asked = std::time::Instant::now();
        writer.write_all(b"ABOUT\n").unwrap();
        let about = next();
        assert!(about.starts_with("name=\"sente\""), "{about}");
        assert!(
            asked.elapsed() < std::time::Duration::from_secs(3),
            "ABOUT waited {:?} for the ponder",
            asked.elapsed()
        );
        // A ponder after ABOUT again (the position is still ours), then end of input.
        std::thread::sleep(std::time::Duration::from_millis(100));
        drop(writer);
        engine.join().unwrap();
        assert!(lines.next().is_none(), "nothing after the last reply");
    }

    #[test]
    fn end_during_a_search_quits_without_answering() {
        let out = live("START 15\nTURN 7,7\n", "END\nABOUT\n");
        assert_eq!(out, vec!["OK"]);
    }
}
