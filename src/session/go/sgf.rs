//! Reading a Go game record for GTP's `loadsgf`: SGF text (parsed by the `sgf-parse` crate)
//! becomes a plain [`SgfRecord`] (board size, komi, and the main line as a list of events: set-up
//! edits, side to move, moves) in GTP orientation (x from the left, y from the bottom, 0-based).
//! No board logic: the Go session replays the record on a fresh game and keeps it only when
//! every event applies.
//!
//! Supported: the first game of the collection; `SZ` (square or rectangular, default 19), `KM`;
//! along the main line (the first child at each branch) the set-up properties `AB`, `AW`, `AE`
//! and `PL` in any node, as the SGF spec has them (GNU Go 3.8 reads them too, but ignores `AE`),
//! and `B`/`W` moves, passes written `B[]` or, on boards up to 19x19, `B[tt]`. In one node the
//! set-up comes first (`AE`, then `AB`/`AW`), then `PL`, then the move.
//!
//! Limits, so that no file can hang, bloat or crash the engine: only regular files are read
//! (not FIFOs or devices such as `/dev/zero`), at most [`MAX_FILE_BYTES`], and no path from a
//! game's root may hold more than [`MAX_DEPTH`] nodes (the parser's tree is freed recursively,
//! so a deeper one would overflow the stack). Real game records are far below both.

use std::fmt;
use std::io::{ErrorKind, Read};

use sgf_parse::go::{parse, Move, Prop};
use sgf_parse::SgfNode;

use crate::rules::Color;

/// A stone or move location in GTP orientation.
pub type Xy = (usize, usize);

/// One step of the main line.
#[derive(Clone, Debug, PartialEq)]
pub enum SgfEvent {
    /// A node's set-up: the `erase` points (`AE`) become empty, then the `add` stones (`AB`,
    /// `AW`, sorted) go down on their points, whatever was there.
    Setup {
        add: Vec<(Xy, Color)>,
        erase: Vec<Xy>,
    },
    /// `PL`: the side to move from here until the next move.
    ToPlay(Color),
    /// A move; `None` is a pass.
    Move(Color, Option<Xy>),
}

/// The main line of a Go SGF file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SgfRecord {
    pub width: usize,
    pub height: usize,
    /// `KM`, when the file has it.
    pub komi: Option<f32>,
    /// The main line's set-ups, sides to move and moves, in order.
    pub events: Vec<SgfEvent>,
}

/// Why a file could not be read (logged; GTP answers `cannot load file`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError(pub String);

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SgfError {}

fn err<T>(msg: impl Into<String>) -> Result<T, SgfError> {
    Err(SgfError(msg.into()))
}

/// The largest file `loadsgf` reads (4 MiB): a long commented game record takes well under
/// 100 KB. It also bounds the parser's memory, which holds every property of the file.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// The most nodes on one path from a game's root (a main line of 10,000 moves, or a variation
/// that far down): a game has a few hundred.
pub const MAX_DEPTH: usize = 10_000;

/// A file's bytes for [`decode`]: a regular file of at most [`MAX_FILE_BYTES`].
pub fn read_file(path: &str) -> Result<Vec<u8>, SgfError> {
    let io_error = |e: std::io::Error| {
        SgfError(match e.kind() {
            ErrorKind::NotFound => "no such file".to_string(),
            ErrorKind::PermissionDenied => "permission denied".to_string(),
            _ => e.to_string(),
        })
    };
    let too_large = || err(format!("larger than {} MiB", MAX_FILE_BYTES >> 20));
    // Opening a FIFO waits for a writer, and a device may never end: look before opening.
    let meta = std::fs::metadata(path).map_err(io_error)?;
    if !meta.is_file() {
        return err("not a regular file");
    }
    if meta.len() > MAX_FILE_BYTES {
        return too_large();
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // Should the path have become a FIFO since, opening it must not block either.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io_error)?;
    if !file.metadata().map_err(io_error)?.is_file() {
        return err("not a regular file");
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return too_large();
    }
    Ok(bytes)
}

/// The most nodes on one path from a root of the collection in `text`, counted as the parser
/// will see them (bracketed values skipped, `\` escaping the next character), without building
/// anything; past [`MAX_DEPTH`] it stops counting. The count may exceed the parser's (a `;`
/// inside a malformed property name counts), never fall short of it.
fn deepest_path(text: &str) -> usize {
    // The depth at each open `(`: a `)` returns to it.
    let mut opened: Vec<usize> = Vec::new();
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'[' => {
                while let Some(c) = bytes.next() {
                    match c {
                        b'\\' => {
                            bytes.next();
                        }
                        b']' => break,
                        _ => {}
                    }
                }
            }
            b'(' => {
                // Nesting deeper than the limit is either malformed or too deep a tree.
                if opened.len() > MAX_DEPTH {
                    return MAX_DEPTH + 1;
                }
                opened.push(depth);
            }
            b')' => depth = opened.pop().unwrap_or(0),
            b';' => {
                depth += 1;
                deepest = deepest.max(depth);
                if deepest > MAX_DEPTH {
                    return deepest;
                }
            }
            _ => {}
        }
    }
    deepest
}

/// SGF text from a file's bytes. The properties that matter here are ASCII, but the text around
/// them need not be UTF-8: old records are often Latin-1 or GB2312 (`CA[...]`), and editors on
/// Windows start the file with a byte-order mark. Both would make the whole file unreadable, so
/// the mark is dropped and bytes that are not UTF-8 become U+FFFD (only comments and names
/// change).
pub fn decode(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    String::from_utf8_lossy(bytes)
}

/// The longest side SGF's Go points can name (`a`..`z`, `A`..`Z`).
pub const MAX_SIDE: usize = 52;

/// An SGF point as the file writes it (`zz`).
fn sgf_name(p: sgf_parse::go::Point) -> String {
    crate::rules::notation::sgf_point(usize::from(p.x), usize::from(p.y))
}

/// Reads the first game of an SGF collection.
pub fn read_record(text: &str) -> Result<SgfRecord, SgfError> {
    if deepest_path(text) > MAX_DEPTH {
        return err(format!("more than {MAX_DEPTH} nodes on one line of play"));
    }
    let games = parse(text).map_err(|e| SgfError(format!("not a Go SGF file: {e}")))?;
    let root = games
        .first()
        .ok_or_else(|| SgfError("no game in the file".into()))?;
    let (width, height) = match root.get_property("SZ") {
        Some(Prop::SZ((w, h))) => (usize::from(*w), usize::from(*h)),
        _ => (19, 19),
    };
    if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
        return err(format!(
            "board size SZ[{}] is not a Go board (SGF sides are 1..{MAX_SIDE})",
            if width == height {
                width.to_string()
            } else {
                format!("{width}:{height}")
            }
        ));
    }
    let mut record = SgfRecord {
        width,
        height,
        ..SgfRecord::default()
    };
    if let Some(Prop::KM(k)) = root.get_property("KM") {
        // `nan`, `inf` and numbers past f32's range parse as floats, but are no komi.
        let komi = *k as f32;
        if !komi.is_finite() {
            return err(format!("malformed KM[{k}]"));
        }
        record.komi = Some(komi);
    }
    for node in root.main_variation() {
        read_node(&mut record, node)?;
    }
    Ok(record)
}

/// Appends one node's events: its set-up, its side to move, its move.
fn read_node(record: &mut SgfRecord, node: &SgfNode<Prop>) -> Result<(), SgfError> {
    let (mut add, mut erase, mut to_play, mut mv) = (Vec::new(), Vec::new(), None, None);
    for prop in node.properties() {
        match prop {
            Prop::AB(points) | Prop::AW(points) => {
                let color = if matches!(prop, Prop::AB(_)) {
                    Color::Black
                } else {
                    Color::White
                };
                for p in points {
                    let xy = record.xy(*p).ok_or_else(|| {
                        let prop = if color == Color::Black { "AB" } else { "AW" };
                        SgfError(format!(
                            "setup stone {prop}[{}] {}",
                            sgf_name(*p),
                            record.off()
                        ))
                    })?;
                    add.push((xy, color));
                }
            }
            Prop::AE(points) => {
                for p in points {
                    erase.push(record.xy(*p).ok_or_else(|| {
                        SgfError(format!("AE[{}] {}", sgf_name(*p), record.off()))
                    })?);
                }
            }
            Prop::PL(c) => {
                to_play = Some(match c {
                    sgf_parse::Color::Black => Color::Black,
                    sgf_parse::Color::White => Color::White,
                });
            }
            Prop::B(m) | Prop::W(m) => {
                let color = if matches!(prop, Prop::B(_)) {
                    Color::Black
                } else {
                    Color::White
                };
                let at = match m {
                    Move::Pass => None,
                    Move::Move(p) => match record.xy(*p) {
                        Some(xy) => Some(xy),
                        // FF[3] pass: `tt` on boards up to 19x19.
                        None if p.x == 19 && p.y == 19 && record.width.max(record.height) <= 19 => {
                            None
                        }
                        None => {
                            let prop = if color == Color::Black { "B" } else { "W" };
                            return err(format!("move {prop}[{}] {}", sgf_name(*p), record.off()));
                        }
                    },
                };
                if mv.is_some() {
                    return err("two moves in one node");
                }
                mv = Some(SgfEvent::Move(color, at));
            }
            Prop::Invalid(id, values)
                if ["B", "W", "AB", "AW", "AE", "PL", "SZ", "KM"].contains(&id.as_str()) =>
            {
                let values: String = values.iter().map(|v| format!("[{v}]")).collect();
                return err(format!("malformed {id}{values}"));
            }
            _ => {}
        }
    }
    if !add.is_empty() || !erase.is_empty() {
        // The crate hands the points over in hash order: sorted, a record loads the same way
        // every time.
        add.sort_by_key(|&((x, y), c)| (y, x, c.index()));
        erase.sort_by_key(|&(x, y)| (y, x));
        record.events.push(SgfEvent::Setup { add, erase });
    }
    record.events.extend(to_play.map(SgfEvent::ToPlay));
    record.events.extend(mv);
    Ok(())
}

impl SgfRecord {
    /// An SGF point (x from the left, y from the top) in GTP orientation, if on the board.
    /// "is off the 9x9 board".
    fn off(&self) -> String {
        format!("is off the {}x{} board", self.width, self.height)
    }

    fn xy(&self, p: sgf_parse::go::Point) -> Option<Xy> {
        let (x, y) = (usize::from(p.x), usize::from(p.y));
        (x < self.width && y < self.height).then(|| (x, self.height - 1 - y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_komi_setup_and_moves() {
        let r = read_record("(;GM[1]FF[4]SZ[9]KM[6.5]AB[cc][gc]AW[ee];B[ab];W[];B[tt])").unwrap();
        assert_eq!((r.width, r.height), (9, 9));
        assert_eq!(r.komi, Some(6.5));
        // cc: third column, third row from the top = C7 = (2, 6).
        assert_eq!(
            r.events,
            vec![
                SgfEvent::Setup {
                    add: vec![
                        ((4, 4), Color::White),
                        ((2, 6), Color::Black),
                        ((6, 6), Color::Black)
                    ],
                    erase: vec![]
                },
                SgfEvent::Move(Color::Black, Some((0, 7))),
                SgfEvent::Move(Color::White, None),
                SgfEvent::Move(Color::Black, None)
            ]
        );
    }

    #[test]
    fn main_line_only_and_defaults() {
        let r = read_record("(;FF[4](;B[dd];W[pp])(;B[pd]))").unwrap();
        assert_eq!((r.width, r.height), (19, 19));
        assert_eq!(r.komi, None);
        assert_eq!(r.events.len(), 2);
        assert_eq!(r.events[0], SgfEvent::Move(Color::Black, Some((3, 15))));
    }

    #[test]
    fn rectangular_boards() {
        let r = read_record("(;SZ[7:5];B[ga])").unwrap();
        assert_eq!((r.width, r.height), (7, 5));
        assert_eq!(r.events[0], SgfEvent::Move(Color::Black, Some((6, 4))));
    }

    #[test]
    fn byte_order_marks_and_other_encodings() {
        let bom = b"\xef\xbb\xbf(;SZ[9];B[aa])";
        assert_eq!(read_record(&decode(bom)).unwrap().events.len(), 1);
        let latin1 = b"(;SZ[9]CA[ISO-8859-1]PB[Jos\xe9]C[caf\xe9];B[aa];W[bb])";
        let r = read_record(&decode(latin1)).unwrap();
        assert_eq!(r.events.len(), 2);
        assert_eq!(decode(b"(;SZ[9])"), "(;SZ[9])");
    }

    #[test]
    fn setup_in_any_node_in_the_order_of_the_node() {
        // A move node after a set-up node; in the set-up node, PL written before AE and AB.
        let r = read_record("(;SZ[9]AB[aa];W[bb];PL[W]AB[ee][cc]AE[aa];W[dd])").unwrap();
        assert_eq!(
            r.events,
            vec![
                SgfEvent::Setup {
                    add: vec![((0, 8), Color::Black)],
                    erase: vec![]
                },
                SgfEvent::Move(Color::White, Some((1, 7))),
                SgfEvent::Setup {
                    add: vec![((4, 4), Color::Black), ((2, 6), Color::Black)],
                    erase: vec![(0, 8)]
                },
                SgfEvent::ToPlay(Color::White),
                SgfEvent::Move(Color::White, Some((3, 5))),
            ]
        );
    }

    #[test]
    fn refusals() {
        assert!(read_record("not sgf").is_err());
        assert!(read_record("").is_err());
        assert!(read_record("(;SZ[9];B[jj])").is_err(), "off the board");
        // Errors name points and sizes as the file writes them, never as Rust debug text.
        let e = |text: &str| read_record(text).unwrap_err().to_string();
        assert_eq!(e("(;SZ[9]B[zz])"), "move B[zz] is off the 9x9 board");
        assert_eq!(e("(;SZ[9];W[aj])"), "move W[aj] is off the 9x9 board");
        assert_eq!(
            e("(;SZ[5]AW[ff])"),
            "setup stone AW[ff] is off the 5x5 board"
        );
        assert_eq!(e("(;SZ[5]AE[af])"), "AE[af] is off the 5x5 board");
        assert_eq!(
            e("(;SZ[0];B[aa])"),
            "board size SZ[0] is not a Go board (SGF sides are 1..52)"
        );
        assert!(e("(;SZ[7:0])").contains("SZ[7:0]"));
        assert!(read_record("(;SZ[9];AE[jj])").is_err(), "AE off the board");
        assert!(read_record("(;SZ[9];AB[aj])").is_err(), "AB off the board");
        assert!(read_record("(;SZ[9]PL[X])").is_err(), "malformed PL");
        assert!(read_record("(;GM[4];B[aa])").is_err(), "not Go");
        for km in ["nan", "inf", "-inf", "1e50"] {
            let text = format!("(;SZ[9]KM[{km}];B[aa])");
            assert!(read_record(&text).is_err(), "KM[{km}]");
        }
        assert_eq!(read_record("(;SZ[9]KM[-3.5])").unwrap().komi, Some(-3.5));
    }

    #[test]
    fn depth_counts_the_longest_path_and_skips_values() {
        assert_eq!(deepest_path("(;SZ[9];B[aa];W[bb])"), 3);
        // Variations: the deepest branch counts, siblings do not add up.
        assert_eq!(deepest_path("(;B[aa](;W[bb];B[cc])(;W[dd]))"), 3);
        assert_eq!(deepest_path("(;B[aa](;W[bb])(;W[dd];B[ee];W[ff]))"), 4);
        // Brackets, escaped brackets and semicolons inside values are text.
        assert_eq!(deepest_path(r"(;C[a;b\];c(;d)];B[aa])"), 2);
        assert_eq!(deepest_path("no sgf at all"), 0);
    }

    /// A deeper tree than the limit is refused before the parser builds it; one at the limit is
    /// built and freed (recursively, by the parser's own types) with room to spare: here on a
    /// thread with a quarter of the main thread's stack.
    #[test]
    fn depth_limit_refuses_before_parsing_and_the_limit_itself_fits_the_stack() {
        let line = |nodes: usize| format!("(;SZ[9]{})", ";B[]".repeat(nodes - 1));
        let over = read_record(&line(MAX_DEPTH + 1)).unwrap_err();
        assert_eq!(over.0, "more than 10000 nodes on one line of play");
        let r = read_record(&line(200_000)).unwrap_err();
        assert_eq!(r, over);
        // Nested variations count as deep as a line.
        let nested = format!(
            "{}{}",
            "(;B[]".repeat(MAX_DEPTH + 1),
            ")".repeat(MAX_DEPTH + 1)
        );
        assert_eq!(read_record(&nested).unwrap_err(), over);
        let at_limit = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let ok = read_record(&line(MAX_DEPTH)).map(|r| r.events.len());
                // A parse error at the very end frees the whole tree inside the parser.
                let unclosed = line(MAX_DEPTH);
                let failed = read_record(&unclosed[..unclosed.len() - 1]).is_err();
                (ok, failed)
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(at_limit, (Ok(MAX_DEPTH - 1), true));
    }

    #[test]
    fn only_regular_files_of_bounded_size_are_read() {
        let dir = std::env::temp_dir().join(format!("sente-sgf-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let why = |p: &std::path::Path| read_file(p.to_str().unwrap()).unwrap_err().0;
        assert_eq!(why(&dir), "not a regular file");
        assert_eq!(why(std::path::Path::new("/dev/zero")), "not a regular file");
        assert_eq!(why(&dir.join("missing.sgf")), "no such file");
        let big = dir.join("big.sgf");
        std::fs::write(&big, vec![b' '; MAX_FILE_BYTES as usize + 1]).unwrap();
        assert_eq!(why(&big), "larger than 4 MiB");
        let fits = dir.join("fits.sgf");
        std::fs::write(&fits, "(;SZ[9])").unwrap();
        assert_eq!(read_file(fits.to_str().unwrap()).unwrap(), b"(;SZ[9])");
        #[cfg(unix)]
        {
            // Opening a FIFO for reading would wait for a writer that never comes.
            let fifo = dir.join("fifo.sgf");
            let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: a valid NUL-terminated path; mkfifo only creates a file.
            assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
            assert_eq!(why(&fifo), "not a regular file");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
