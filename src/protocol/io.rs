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
    /// The line was longer than [`MAX_LINE_BYTES`] (not counting blanks before and after
    /// it): `line` holds its beginning only, and the protocol answers it with [`TOO_LONG`].
    pub cut: bool,
}

/// What the reader thread sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Line(Input),
    /// End of input: the manager is gone; quit after what is queued.
    Eof,
}

/// The longest line kept (1 MiB, far beyond any command: a 25x25 board's every vertex is 2 KB).
/// Blanks before a line's first character are skipped as they are read and never count, so a
/// command behind any number of them is read whole. Past the limit the rest of the line is read
/// and dropped, so that a client sending bytes without a line end cannot make the engine hold
/// them all; if only blanks were dropped the line is whole, otherwise it is marked
/// [`Input::cut`] and the protocol answers it with an error naming the limit
/// ([`TOO_LONG`]).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The error text for a line cut at [`MAX_LINE_BYTES`] (GTP: `? line too long (limit 1 MiB)`,
/// Gomocup: `ERROR line too long (limit 1 MiB)`).
pub const TOO_LONG: &str = "line too long (limit 1 MiB)";

/// A byte that [`normalise`] turns into nothing or a blank: ASCII space and control bytes
/// (the line end excepted).
fn is_blank(b: u8) -> bool {
    b != b'\n' && (b == b' ' || b.is_ascii_control())
}

/// One line as read.
#[derive(Debug, Default, PartialEq, Eq)]
struct RawLine {
    /// Bytes consumed, line end included (0 at end of input).
    consumed: usize,
    /// Whether non-blank bytes past [`MAX_LINE_BYTES`] were dropped.
    cut: bool,
}

/// Reads one line, line end included, into `raw` (cleared first): its leading blanks skipped,
/// at most [`MAX_LINE_BYTES`] of the rest kept.
fn read_line_capped<R: BufRead>(input: &mut R, raw: &mut Vec<u8>) -> io::Result<RawLine> {
    raw.clear();
    let mut line = RawLine::default();
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        let (chunk, ends) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let n = chunk.len();
        let mut rest = chunk;
        if raw.is_empty() {
            let blanks = rest.iter().take_while(|&&b| is_blank(b)).count();
            rest = &rest[blanks..];
        }
        let room = MAX_LINE_BYTES.saturating_sub(raw.len());
        let (kept, dropped) = rest.split_at(rest.len().min(room));
        raw.extend_from_slice(kept);
        if !line.cut && dropped.iter().any(|&b| b != b'\n' && !is_blank(b)) {
            line.cut = true;
        }
        input.consume(n);
        line.consumed += n;
        if ends {
            break;
        }
    }
    if line.cut {
        warn!(
            "an input line of {} bytes was cut to {MAX_LINE_BYTES}; it is answered as too long",
            line.consumed
        );
    }
    Ok(line)
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
/// interrupts a running search. It may keep state (GTP: the line after an analysis command
/// interrupts it).
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
                let cut = match read_line_capped(&mut input, &mut raw) {
                    Ok(RawLine { consumed: 0, .. }) => break,
                    Ok(RawLine { cut, .. }) => cut,
                    Err(e) => {
                        warn!("stdin: {e}; treating it as end of input");
                        break;
                    }
                };
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
                // A cut line is answered with an error, whatever it begins with: it stops
                // what any line stops (a GTP analysis), as a blank line would.
                if let Some(kind) = interrupt(Some(if cut { "" } else { &line })) {
                    signal.interrupt(seq, kind);
                }
                if tx.send(Event::Line(Input { line, at, seq, cut })).is_err() {
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
        let line = read_line_capped(&mut reader, &mut raw).unwrap();
        assert_eq!(line.consumed, 3 * MAX_LINE_BYTES + 6);
        assert!(line.cut);
        assert_eq!(raw.len(), MAX_LINE_BYTES);
        let line = read_line_capped(&mut reader, &mut raw).unwrap();
        assert_eq!((line.consumed, line.cut), (5, false));
        assert_eq!(raw, b"name\n");
        assert_eq!(read_line_capped(&mut reader, &mut raw).unwrap().consumed, 4);
        assert_eq!(raw, b"last");
        assert_eq!(read_line_capped(&mut reader, &mut raw).unwrap().consumed, 0);
        assert!(raw.is_empty());
    }

    #[test]
    fn blanks_around_a_line_never_count_against_the_limit() {
        let mut input = vec![b' '; 2 * MAX_LINE_BYTES];
        input.extend_from_slice(b"\t\rname");
        input.extend(std::iter::repeat_n(b' ', 2 * MAX_LINE_BYTES));
        input.extend_from_slice(b"\r\nnext\n");
        let mut reader = std::io::BufReader::with_capacity(4096, Cursor::new(input));
        let mut raw = Vec::new();
        let line = read_line_capped(&mut reader, &mut raw).unwrap();
        assert!(!line.cut);
        assert!(raw.len() <= MAX_LINE_BYTES);
        assert_eq!(normalise(&raw).as_deref(), Some("name"));
        read_line_capped(&mut reader, &mut raw).unwrap();
        assert_eq!(raw, b"next\n");
    }

    #[test]
    fn a_cut_line_reaches_the_loop_marked() {
        let mut input = b"1 ".to_vec();
        input.extend(std::iter::repeat_n(b' ', MAX_LINE_BYTES));
        input.extend_from_slice(b"name\nname\n");
        let signal = Arc::new(StopSignal::new());
        let rx = spawn_reader(Cursor::new(input), signal, |_: Option<&str>| None);
        let lines: Vec<(String, bool)> = rx
            .iter()
            .filter_map(|e| match e {
                Event::Line(i) => Some((i.line, i.cut)),
                Event::Eof => None,
            })
            .collect();
        assert_eq!(
            lines,
            vec![("1".to_string(), true), ("name".to_string(), false)]
        );
    }
}
