//! Protocols: only parsing and formatting. A line becomes a typed command; a typed reply becomes
//! text. Each dialect has its folder ([`gomocup`], [`gtp`]); what they share stays here: which
//! protocol is speaking ([`detect`]), the reader thread and the writer ([`io`]), the panic
//! guard ([`guard`]), and [`run`], which wires stdin, the chosen protocol's loop and stdout
//! together. The state the loops drive lives in `session`.

pub mod detect;
pub mod gomocup;
pub mod gtp;
pub mod guard;
pub mod io;

use std::io::{BufRead, BufReader, Write};
use std::sync::mpsc::Receiver;
use std::sync::Arc;

use log::error;

use crate::players::GomokuPlayer;
use crate::session::gomoku::SessionConfig;
use crate::session::{Interrupt, StopSignal};
use detect::{detect, Detected};
use gomocup::main_loop::gomocup_loop;
use gtp::main_loop::{gtp_loop, GtpInterrupts};
use gtp::GtpOptions;
use io::{Event, Input, Output};

/// Which protocol to speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProtocolChoice {
    /// Decide from the first meaningful line.
    #[default]
    Auto,
    /// Gomocup / Piskvork (what `pbrain-sente` forces).
    Gomocup,
    /// GTP (Go, or tic-tac-toe with `--game ttt`).
    Gtp,
}

/// Everything the loop needs from the command line.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    pub protocol: ProtocolChoice,
    /// The Gomocup session's settings.
    pub session: SessionConfig,
    /// The GTP session's settings.
    pub gtp: GtpOptions,
}

/// Runs the protocol loop on stdin and stdout until `END`, `quit` or end of input.
pub fn run(options: RunOptions) -> std::io::Result<()> {
    let stdin = BufReader::new(std::io::stdin());
    match run_with(stdin, std::io::stdout(), options) {
        // The manager closed our output: it has gone, and there is no one left to answer.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            log::info!("the manager closed the engine's output; stopping");
            Ok(())
        }
        result => result,
    }
}

/// Logs a failed write to the manager. A closed pipe is the manager leaving (it ends the
/// loop quietly, see [`run`]), not an engine error.
pub(crate) fn log_write_error(what: &str, e: &std::io::Error) {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        log::info!("writing {what}: the manager closed the pipe");
    } else {
        error!("writing {what}: {e}");
    }
}

/// [`run`] on any input and output (tests drive it in-process).
pub fn run_with<R, W>(input: R, output: W, options: RunOptions) -> std::io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    run_with_player(input, output, options, None)
}

/// [`run_with`] with a given gomoku player instead of the `--level` one (tests, tools).
pub fn run_with_player<R, W>(
    input: R,
    output: W,
    options: RunOptions,
    player: Option<Box<dyn GomokuPlayer>>,
) -> std::io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    run_with_ponder_hook(input, output, options, player, &mut || {})
}

/// [`run_with_player`], calling `ponder_started` each time the GTP loop begins a ponder (tests
/// wait on it to send a line while the engine ponders).
pub(crate) fn run_with_ponder_hook<R, W>(
    input: R,
    output: W,
    options: RunOptions,
    player: Option<Box<dyn GomokuPlayer>>,
    ponder_started: &mut dyn FnMut(),
) -> std::io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let signal = Arc::new(StopSignal::new());
    let mut watch = InterruptWatch::new(options.protocol);
    let rx = io::spawn_reader(input, signal.clone(), move |line| watch.check(line));
    let mut out = Output::new(output);
    let mut first = None;
    let protocol = match options.protocol {
        ProtocolChoice::Gomocup => Detected::Gomocup,
        ProtocolChoice::Gtp => Detected::Gtp,
        ProtocolChoice::Auto => loop {
            match rx.recv() {
                Ok(Event::Line(input)) => {
                    if let Some(d) = detect(&input.line) {
                        first = Some(input);
                        break d;
                    }
                }
                Ok(Event::Eof) | Err(_) => return Ok(()),
            }
        },
    };
    match protocol {
        Detected::Gomocup => gomocup_loop(first, &rx, &mut out, signal, options.session, player),
        Detected::Gtp => gtp_loop(first, &rx, &mut out, signal, &options.gtp, ponder_started),
    }
}

/// Decides, on the reader thread, which input lines interrupt a running search: Gomocup's
/// words ([`gomocup::parse::interrupt_of`]: `YXSTOP`/`STOP` stop it, `END` ends the session),
/// GTP's lines ([`GtpInterrupts`]: the line after an analysis, GoGui's `# interrupt`). In both,
/// end of input stops the search of the last line at once if it is running (a manager that
/// died must not leave its engine burning a core); the move found so far is answered and the
/// session quits. Under auto-detection the first meaningful line decides the dialect, exactly
/// as the loop decides it.
struct InterruptWatch {
    protocol: Option<Detected>,
    gtp: GtpInterrupts,
}

impl InterruptWatch {
    fn new(choice: ProtocolChoice) -> InterruptWatch {
        InterruptWatch {
            protocol: match choice {
                ProtocolChoice::Auto => None,
                ProtocolChoice::Gomocup => Some(Detected::Gomocup),
                ProtocolChoice::Gtp => Some(Detected::Gtp),
            },
            gtp: GtpInterrupts::default(),
        }
    }

    /// `line` is `None` at end of input: the manager is gone, so the search for the last line,
    /// if it is running, stops at once and answers with what it has ([`Interrupt::Eof`]); one
    /// still queued when input ends (a piped script, read ahead) runs in full and is answered,
    /// and the session then quits.
    fn check(&mut self, line: Option<&str>) -> Option<Interrupt> {
        let Some(line) = line else {
            return Some(match self.protocol {
                Some(Detected::Gtp) => self.gtp.end_of_input(),
                _ => Interrupt::Eof,
            });
        };
        if self.protocol.is_none() {
            self.protocol = detect(line);
        }
        match self.protocol? {
            Detected::Gomocup => gomocup::parse::interrupt_of(line),
            Detected::Gtp => self.gtp.line(line),
        }
    }
}

/// The held-back first line if any, else the next line from the reader; `None` at end of input.
pub(crate) fn next_input(held: &mut Option<Input>, rx: &Receiver<Event>) -> Option<Input> {
    if let Some(input) = held.take() {
        return Some(input);
    }
    match rx.recv() {
        Ok(Event::Line(i)) => Some(i),
        Ok(Event::Eof) | Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn talk(input: &str, protocol: ProtocolChoice) -> Vec<String> {
        let options = RunOptions {
            protocol,
            ..RunOptions::default()
        };
        let mut buf = Vec::new();
        run_with(Cursor::new(input.as_bytes().to_vec()), &mut buf, options).unwrap();
        String::from_utf8(buf)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    #[test]
    fn gtp_is_detected_from_the_first_line() {
        let options = RunOptions {
            gtp: GtpOptions {
                game: gtp::commands::GtpGameKind::Ttt,
                ..GtpOptions::default()
            },
            ..RunOptions::default()
        };
        let mut buf = Vec::new();
        let input = "# a comment first\n1 name\nboardsize 3\nquit\nname\n";
        run_with(Cursor::new(input.as_bytes().to_vec()), &mut buf, options).unwrap();
        assert_eq!(String::from_utf8(buf).unwrap(), "=1 sente\n\n=\n\n=\n\n");
    }

    #[test]
    fn the_watch_interrupts_only_what_follows_an_analysis() {
        let mut w = InterruptWatch::new(ProtocolChoice::Auto);
        assert_eq!(w.check(Some("# comment")), None);
        assert_eq!(w.check(Some("genmove b")), None);
        assert_eq!(
            w.check(Some("play b d4")),
            None,
            "a queued line never stops genmove"
        );
        assert_eq!(w.check(Some("12 lz-analyze b 50")), None);
        assert_eq!(w.check(Some("protocol_version")), Some(Interrupt::Stop));
        assert_eq!(w.check(Some("genmove b")), None);
        assert_eq!(
            w.check(Some("# interrupt")),
            Some(Interrupt::Stop),
            "GoGui's interrupt"
        );
        assert_eq!(w.check(Some("kata-analyze 10")), None);
        assert_eq!(w.check(None), Some(Interrupt::Stop), "end of input ends it");
        assert_eq!(w.check(Some("genmove b")), None);
        assert_eq!(
            w.check(None),
            Some(Interrupt::Eof),
            "and a genmove running then"
        );
        let mut g = InterruptWatch::new(ProtocolChoice::Auto);
        assert_eq!(g.check(Some("START 15")), None);
        assert_eq!(g.check(Some("lz-analyze")), None);
        assert_eq!(g.check(Some("YXSTOP")), Some(Interrupt::Stop));
        assert_eq!(g.check(Some("END")), Some(Interrupt::End));
        assert_eq!(
            g.check(None),
            Some(Interrupt::Eof),
            "end of input ends any search"
        );
    }

    #[test]
    fn forced_gomocup_answers_gtp_words_as_unknown() {
        let out = talk("name\n", ProtocolChoice::Gomocup);
        assert_eq!(out, vec!["UNKNOWN name"]);
    }
}
