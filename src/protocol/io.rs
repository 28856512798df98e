//! The two ends of the pipe. A reader thread turns stdin into normalised [`Input`] lines on a
//! channel (stamped with the instant they were read, so the clock starts then) and raises the
//! [`StopSignal`] the moment an interrupting line arrives, even while the session is busy
//! searching. [`Output`] writes one reply line at a time and flushes each, because a buffered
//! reply is a timeout for the manager. Logs never come here: they go to stderr.

use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::thread;
use std::time::Instant;

use log::{debug, warn};

use crate::session::{Interrupt, StopSignal};

/// One normalised input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The text, without line end or control characters; never blank.
    pub line: String,
    /// When the reader got it.
    pub at: Instant,
    /// Position among the non-blank lines, from 0.
    pub seq: u64,
}

/// What the reader thread sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Line(Input),
    /// End of input: the manager is gone; quit after what is queued.
    Eof,
}

/// The longest line kept (1 MiB, far beyond any command: a 25x25 board's every vertex is 2 KB).
/// The rest of a longer line is read and dropped, so that a client sending bytes without a line
/// end cannot make the engine hold them all; what is kept gets its reply (an error, usually).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Reads one line, line end included, into `raw` (cleared first), keeping at most
/// [`MAX_LINE_BYTES`] of it; how many bytes were consumed (0 at end of input).
fn read_line_capped<R: BufRead>(input: &mut R, raw: &mut Vec<u8>) -> io::Result<usize> {
    raw.clear();
    let mut consumed = 0;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(consumed);
        }
        let (chunk, ends) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(raw.len());
        raw.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let n = chunk.len();
        input.consume(n);
        consumed += n;
        if ends {
            if consumed > MAX_LINE_BYTES {
                warn!("an input line of {consumed} bytes was cut to {MAX_LINE_BYTES}");
            }
            return Ok(consumed);
        }
    }
}

/// Normalises raw bytes of one line: invalid UTF-8 replaced, tabs become spaces, `\r` and other
/// control characters dropped, surrounding space trimmed. `None` for a blank line.
pub fn normalise(raw: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(raw);
    let cleaned: String = text
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let trimmed = cleaned.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// Starts the reader thread on `input`. `interrupt` runs on the reader thread for each line
/// (`Some(line)`, `Some("")` for a blank one) and once at end of input (`None`): whether that
/// interrupts a running search. It may keep state (GTP: only the line after an analysis
/// command interrupts).
pub fn spawn_reader<R, I>(
    mut input: R,
    signal: Arc<StopSignal>,
    mut interrupt: I,
) -> Receiver<Event>
where
    R: BufRead + Send + 'static,
    I: FnMut(Option<&str>) -> Option<Interrupt> + Send + 'static,
{
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut seq = 0u64;
            let mut raw = Vec::new();
            loop {
                match read_line_capped(&mut input, &mut raw) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(e) => {
                        warn!("stdin: {e}; treating it as end of input");
                        break;
                    }
                }
                let Some(line) = normalise(&raw) else {
                    // A blank line gets no response and no number, but it may still end a
                    // search (GTP: a bare newline ends `lz-analyze`, as KataGo documents). It
                    // stops the search before the line that comes next.
                    if let Some(kind) = interrupt(Some("")) {
                        signal.interrupt(seq, kind);
                    }
                    continue;
                };
                let at = Instant::now();
                debug!("<- {line}");
                if let Some(kind) = interrupt(Some(&line)) {
                    signal.interrupt(seq, kind);
                }
                if tx.send(Event::Line(Input { line, at, seq })).is_err() {
                    return;
                }
                // After the send: a ponder that found the queue empty then sees the flag.
                signal.note_input();
                seq += 1;
            }
            if let Some(kind) = interrupt(None) {
                signal.interrupt(seq, kind);
            }
            let _ = tx.send(Event::Eof);
            signal.note_input();
        })
        .expect("spawning the stdin thread");
    rx
}

/// The single writer of protocol output.
pub struct Output<W: Write> {
    w: W,
}

impl<W: Write> Output<W> {
    /// Wraps a writer (stdout in the binaries, a buffer in tests).
    pub fn new(w: W) -> Output<W> {
        Output { w }
    }
    /// Writes one line and flushes it.
    pub fn line(&mut self, s: &str) -> io::Result<()> {
        debug!("-> {s}");
        self.w.write_all(s.as_bytes())?;
        self.w.write_all(b"\n")?;
        self.w.flush()
    }
    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn normalise_strips_line_ends_and_controls() {
        assert_eq!(normalise(b"START 15\r\n").as_deref(), Some("START 15"));
        assert_eq!(normalise(b"\r\n"), None);
        assert_eq!(normalise(b"   \n"), None);
        assert_eq!(normalise(b"TURN\t7,7\x07\n").as_deref(), Some("TURN 7,7"));
        assert_eq!(normalise(b"AB\xffOUT").as_deref(), Some("AB\u{fffd}OUT"));
    }

    #[test]
    fn reader_numbers_lines_and_ends_with_eof() {
        let signal = Arc::new(StopSignal::new());
        let rx = spawn_reader(
            Cursor::new(b"START 15\r\n\r\nBEGIN\nEND".to_vec()),
            signal,
            |l: Option<&str>| (l == Some("END")).then_some(Interrupt::End),
        );
        let events: Vec<Event> = rx.iter().collect();
        let lines: Vec<(String, u64)> = events
            .iter()
            .filter_map(|e| match e {
                Event::Line(i) => Some((i.line.clone(), i.seq)),
                Event::Eof => None,
            })
            .collect();
        assert_eq!(
            lines,
            vec![
                ("START 15".to_string(), 0),
                ("BEGIN".to_string(), 1),
                ("END".to_string(), 2)
            ]
        );
        assert_eq!(events.last(), Some(&Event::Eof));
    }

    #[test]
    fn an_endless_line_is_cut_and_the_next_one_read_whole() {
        let mut input = vec![b'x'; 3 * MAX_LINE_BYTES];
        input.extend_from_slice(b" tail\nname\nlast");
        let mut reader = std::io::BufReader::with_capacity(4096, Cursor::new(input));
        let mut raw = Vec::new();
        let n = read_line_capped(&mut reader, &mut raw).unwrap();
        assert_eq!(n, 3 * MAX_LINE_BYTES + 6);
        assert_eq!(raw.len(), MAX_LINE_BYTES);
        assert_eq!(read_line_capped(&mut reader, &mut raw).unwrap(), 5);
        assert_eq!(raw, b"name\n");
        assert_eq!(read_line_capped(&mut reader, &mut raw).unwrap(), 4);
        assert_eq!(raw, b"last");
        assert_eq!(read_line_capped(&mut reader, &mut raw).unwrap(), 0);
        assert!(raw.is_empty());
    }
}
