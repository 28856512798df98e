//! The loop's tests, end to end through [`crate::protocol::run_with`]: framing, commands in
//! order, pondering and analysis ended by the next line, GoGui's interrupt.

use std::io::{BufReader, Cursor, PipeWriter};
use std::sync::mpsc::{channel, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use super::*;
use crate::protocol::gtp::commands::{command_names, GtpGameKind};
use crate::protocol::{run_with, run_with_ponder_hook, ProtocolChoice, RunOptions};

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
    let out =
        ttt("foo\n5 playout b a1\nfixed_handicap 2\nknown_command loadsgf\nknown_command play\n");
    assert_eq!(
        out,
        "? unknown command\n\n?5 unknown command\n\n? unknown command\n\n= false\n\n= true\n\n"
    );
}

#[test]
fn list_commands_is_exactly_what_works() {
    for game in [GtpGameKind::Ttt, GtpGameKind::Go] {
        let out = talk("list_commands\n", game, None);
        let listed: Vec<&str> = out.trim_start_matches("= ").trim_end().lines().collect();
        assert_eq!(listed, command_names(game));
        for name in listed {
            let reply = talk(&format!("{name}\n"), game, None);
            assert!(!reply.contains("unknown command"), "{name}: {reply}");
        }
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
struct Tee(Sender<Vec<u8>>);

impl Write for Tee {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let _ = self.0.send(buf.to_vec());
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// How long a live test waits for the engine before it fails: a hang guard, not a latency
/// check.
const PATIENCE: Duration = Duration::from_secs(30);

/// Go over a live pipe, wired as `--protocol gtp` wires it, driven one step at a time.
struct LiveGo {
    writer: Option<PipeWriter>,
    output: Receiver<Vec<u8>>,
    /// One message each time the loop begins a ponder.
    ponders: Receiver<()>,
    ponders_seen: usize,
    out: String,
    engine: JoinHandle<()>,
}

impl LiveGo {
    /// Starts the engine with a budget of `nodes` playouts a move, pondering when `ponder`.
    fn start(ponder: bool, nodes: u64) -> LiveGo {
        let (reader, writer) = std::io::pipe().unwrap();
        let (tx, output) = channel();
        let (ponder_tx, ponders) = channel();
        let options = RunOptions {
            protocol: ProtocolChoice::Gtp,
            gtp: GtpOptions {
                seed: 1,
                nodes: Some(nodes),
                ponder,
                ..GtpOptions::default()
            },
            ..RunOptions::default()
        };
        let engine = std::thread::spawn(move || {
            let mut ponder_started = || {
                let _ = ponder_tx.send(());
            };
            run_with_ponder_hook(
                BufReader::new(reader),
                Tee(tx),
                options,
                None,
                &mut ponder_started,
            )
            .unwrap();
        });
        LiveGo {
            writer: Some(writer),
            output,
            ponders,
            ponders_seen: 0,
            out: String::new(),
            engine,
        }
    }

    /// Sends `text`, then waits until the output written since holds `marker`.
    fn send(&mut self, text: &str, marker: &str) {
        // Ponders begun before this line belong to earlier steps.
        self.ponders_seen += self.ponders.try_iter().count();
        // From the last byte already seen, so that a marker split across writes is found.
        let from = self.out.len().saturating_sub(1);
        let writer = self.writer.as_mut().expect("input still open");
        writer.write_all(text.as_bytes()).unwrap();
        while !self.out[from..].contains(marker) {
            let chunk = self
                .output
                .recv_timeout(PATIENCE)
                .unwrap_or_else(|_| panic!("{marker:?} after {text:?}; output: {}", self.out));
            self.out.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    /// Waits until the loop has begun a ponder since the last step was sent.
    fn await_ponder(&mut self) {
        self.ponders
            .recv_timeout(PATIENCE)
            .unwrap_or_else(|_| panic!("no ponder began; output: {}", self.out));
        self.ponders_seen += 1;
    }

    /// Closes the input (the engine quits); all the output, and how many ponders began.
    fn finish(mut self) -> (String, usize) {
        drop(self.writer.take());
        while let Ok(chunk) = self.output.recv_timeout(PATIENCE) {
            self.out.push_str(&String::from_utf8_lossy(&chunk));
        }
        self.engine.join().unwrap();
        let ponders = self.ponders_seen + self.ponders.try_iter().count();
        (self.out, ponders)
    }
}

/// Runs Go over a live pipe, one step at a time: sends each step's text, then waits until
/// the output written since holds the step's marker. Closes the input after the last step and
/// returns all the output.
fn live_go_steps(steps: &[(&str, &str)]) -> String {
    let mut go = LiveGo::start(false, 50);
    for (text, marker) in steps {
        go.send(text, marker);
    }
    go.finish().0
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
    // A step that leaves the engine pondering is followed only once that ponder has begun.
    let steps = [
        ("boardsize 9\nclear_board\n1 genmove b\n", "=1 ", true),
        // The position is no longer the one our genmove left: nothing to ponder.
        ("2 play w A1\n", "=2\n\n", false),
        ("3 genmove b\n", "=3 ", true),
        // The position is unchanged: the ponder resumes.
        ("4 sente-ponder\n", "=4 ", true),
        ("5 sente-ponder off\n6 sente-ponder\n", "=6 ", false),
        ("9 protocol_version\n", "=9 2\n\n", false),
    ];
    let run = |ponder: bool| {
        let mut go = LiveGo::start(ponder, 50);
        for (text, marker, ponders_after) in steps {
            go.send(text, marker);
            if ponder && ponders_after {
                go.await_ponder();
            }
        }
        go.finish()
    };
    let (with, pondered) = run(true);
    let (without, not_pondered) = run(false);
    assert!(pondered >= 3, "{pondered} ponders");
    assert_eq!(not_pondered, 0, "a ponder began with pondering off");
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

#[test]
fn gtp_interrupts_stop_after_an_analysis_and_at_goguis_comment() {
    let mut w = GtpInterrupts::default();
    assert_eq!(w.line("1 genmove b"), None);
    assert_eq!(
        w.line("2 play b d4"),
        None,
        "a queued line never stops genmove"
    );
    assert_eq!(w.line("# interrupt"), Some(Interrupt::Stop));
    assert_eq!(w.line("#interrupt  "), Some(Interrupt::Stop));
    for other in [
        "# interrupted",
        "# please interrupt",
        "interrupt",
        "1 # interrupt",
        "",
    ] {
        assert_eq!(w.line(other), None, "{other:?}");
    }
    assert_eq!(w.line("5 lz-analyze b 50"), None);
    assert_eq!(w.line("# interrupt"), Some(Interrupt::Stop));
    assert_eq!(w.line("kata-analyze"), None);
    assert_eq!(w.line(""), Some(Interrupt::Stop), "a blank line ends it");
    assert_eq!(w.end_of_input(), Interrupt::Eof);
    assert_eq!(w.line("kata-analyze"), None);
    assert_eq!(w.end_of_input(), Interrupt::Stop, "end of input ends it");
}

#[test]
fn goguis_interrupt_answers_the_running_genmove_at_once() {
    // 20 million playouts would take minutes: the answer arriving at all is the proof. Here
    // the search is seen running (its `info` lines) before the interrupt is sent.
    let mut go = LiveGo::start(false, 20_000_000);
    go.send(
        "boardsize 9\nclear_board\n1 kata-genmove_analyze b 10\n",
        "info move",
    );
    go.send("# interrupt\n", "\n\n");
    go.send("2 name\n", "=2 sente\n\n");
    let (out, _) = go.finish();
    let analysis = &out[out.find("=1\n").expect("the analysis started")..];
    let (body, rest) = analysis.split_once("\n\n").expect("the genmove ended");
    let lines: Vec<&str> = body.lines().skip(1).collect();
    let (last, infos) = lines.split_last().expect("a play line");
    assert!(infos.iter().all(|l| l.starts_with("info move ")), "{body}");
    assert!(last.starts_with("play "), "{body}");
    assert_eq!(rest, "=2 sente\n\n", "the comment itself gets no response");
}

#[test]
fn goguis_interrupt_read_ahead_of_its_genmove_stops_it_when_it_starts() {
    let mut go = LiveGo::start(false, 20_000_000);
    go.send(
        "boardsize 9\nclear_board\n1 genmove b\n# interrupt\n",
        "=1 ",
    );
    go.send("2 name\n", "=2 sente\n\n");
    let (out, _) = go.finish();
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(replies.len(), 5, "{out}");
    assert!(replies[2].starts_with("=1 "), "{out}");
    assert_eq!(replies[3..], ["=2 sente", ""]);
}

#[test]
fn goguis_interrupt_with_no_search_running_stops_nothing() {
    // After a command that does not search, the next genmove still searches in full.
    let out = talk(
        "boardsize 9\nclear_board\nplay b E5\n# interrupt\n1 genmove w\n2 gomill-explain_last_move\n",
        GtpGameKind::Go,
        None,
    );
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(replies.len(), 6, "{out}");
    assert!(replies[4].contains("; 200 playouts in "), "{out}");
    // While pondering, it ends the ponder as any line does, gets no response, and the
    // ponder resumes.
    let mut go = LiveGo::start(true, 50);
    go.send("boardsize 9\nclear_board\n1 genmove b\n", "=1 ");
    go.await_ponder();
    go.send("# interrupt\n", "");
    go.await_ponder();
    go.send("2 protocol_version\n", "=2 2\n\n");
    let (out, _) = go.finish();
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(replies.len(), 5, "{out}");
    assert_eq!(replies[3..], ["=2 2", ""]);
}
