//! The GTP loop: reads framed lines from the reader thread and answers each command in order
//! (a controller may pipeline: Sabaki sends `clear_board` and every `play` at once), through
//! [`super::dispatch`]. With pondering on (`--ponder`, `sente-ponder on`), it ponders while no
//! line is queued after a genmove ([`crate::session::go::GoSession::ponder`]); the reader
//! raises the input flag after queueing any line, which ends the ponder, and the line is then
//! answered as if no ponder had run.
//!
//! Which lines stop a running search is decided on the reader thread, as each line is read
//! ([`GtpInterrupts`]).

use std::io::{self, Write};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::sync::Arc;

use log::error;

use super::commands::is_supported;
use super::dispatch::{execute, reply_written, send, stream, Engine};
use super::format::format_response;
use super::parse::{
    id_and_name, is_gogui_interrupt, parse_line, starts_interruptible_analysis, Command, LineError,
};
use super::GtpOptions;
use crate::protocol::guard::guarded;
use crate::protocol::io::{Event, Input, Output, MAX_LINE_BYTES, TOO_LONG};
use crate::protocol::next_input;
use crate::session::{Interrupt, StopSignal};

/// Which lines stop a running GTP search, decided on the reader thread. The line after
/// `lz-analyze` / `kata-analyze`, whatever it is (a blank line too), ends the analysis at once:
/// an analysis has no end of its own. GoGui's comment line `# interrupt` (the convention
/// `gogui-interrupt` announces) stops the search of the command right before it, a `genmove`
/// or an analysis, which answers at once with its best move so far; after a command that does
/// not search it stops nothing. No other line stops a `genmove`: pipelined commands wait
/// their turn.
#[derive(Debug, Default)]
pub(crate) struct GtpInterrupts {
    after_analysis: bool,
}

impl GtpInterrupts {
    /// Whether `line` (normalised; empty for a blank or cut one) stops the search before it.
    pub(crate) fn line(&mut self, line: &str) -> Option<Interrupt> {
        let analysing = starts_interruptible_analysis(line);
        let ends_analysis = std::mem::replace(&mut self.after_analysis, analysing);
        (ends_analysis || is_gogui_interrupt(line)).then_some(Interrupt::Stop)
    }

    /// End of input: an analysis read ahead of it must be stopped too (it never ends by
    /// itself), which only [`Interrupt::Stop`] does; any other search stops as at any end of
    /// input ([`Interrupt::Eof`]).
    pub(crate) fn end_of_input(&mut self) -> Interrupt {
        if std::mem::take(&mut self.after_analysis) {
            Interrupt::Stop
        } else {
            Interrupt::Eof
        }
    }
}

/// Runs GTP until `quit` or end of input, calling `ponder_started` each time a ponder begins.
pub(crate) fn gtp_loop<W: Write>(
    first: Option<Input>,
    rx: &Receiver<Event>,
    out: &mut Output<W>,
    signal: Arc<StopSignal>,
    options: &GtpOptions,
    ponder_started: &mut dyn FnMut(),
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
                            ponder_started();
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

#[cfg(test)]
mod tests;
