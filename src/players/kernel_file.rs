//! The learning player's memory on disk: a [`KernelStore`] as a small, versioned text file, read
//! defensively and written atomically.
//!
//! # Format, version 1
//!
//! ASCII lines separated by `\n`:
//!
//! ```text
//! sente-kernels 1                      magic word and format version
//! kernels N                            number of kernel lines that follow
//! W H CX CY DX DY COUNT CELLS          N times: one learned kernel
//! end HHHHHHHHHHHHHHHH                 FNV-1a 64 of every byte before this line, 16 hex digits
//! ```
//!
//! * `W H`: the size of the board the kernel was cut from (1..=32); `CX CY`: its centre on that
//!   board (0-based, x to the right, y down, as Gomocup coordinates).
//! * `DX DY`: the marked point (the point to play) as an offset from the centre, each in -7..=7.
//! * `COUNT`: times learned (>= 1); each adds the reward once when the kernel matches.
//! * `CELLS`: 225 characters, the 15x15 window row by row from offset (-7, -7): `.` empty, `x`
//!   the learner's stone, `o` the opponent's, `#` off the board. The mark must be `.`, and `#`
//!   must be exactly the cells off a W x H board.
//!
//! A file that does not start with the magic word, has another version, ends before its `end`
//! line, fails the checksum or has a malformed line is refused as a whole with a [`FileError`];
//! the caller reports it and carries on without it. [`save`] writes a temporary file in the same
//! directory, flushes it to disk, then renames it over the old one, so a killed engine leaves
//! either the old file or the new one, never half of one.

use std::fmt;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::eval::learner::kernels::{
    Kernel, KernelStore, EMPTY, FRAME, FRAME_CELLS, MAX_RADIUS, OFF, OPP, OWN,
};

/// First word of every kernel file.
pub const MAGIC: &str = "sente-kernels";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;

/// Why a kernel file was refused.
#[derive(Debug)]
pub enum FileError {
    /// It could not be read.
    Io(io::Error),
    /// It does not start with [`MAGIC`].
    NotKernelFile,
    /// It is a kernel file of another format version.
    Version(String),
    /// It ends before its `end` line.
    Truncated,
    /// The checksum does not match the contents.
    Checksum,
    /// A line is malformed (1-based line number, what is wrong).
    Corrupt(usize, String),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io(e) => write!(f, "cannot read: {e}"),
            FileError::NotKernelFile => write!(f, "not a sente kernel file"),
            FileError::Version(v) => write!(f, "format version {v}, this build reads {VERSION}"),
            FileError::Truncated => write!(f, "truncated (no end line)"),
            FileError::Checksum => write!(f, "checksum mismatch (corrupt)"),
            FileError::Corrupt(line, what) => write!(f, "line {line}: {what}"),
        }
    }
}

impl std::error::Error for FileError {}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn cell_char(c: u8) -> char {
    match c {
        OWN => 'x',
        OPP => 'o',
        OFF => '#',
        _ => '.',
    }
}

fn char_cell(c: u8) -> Option<u8> {
    match c {
        b'.' => Some(EMPTY),
        b'x' => Some(OWN),
        b'o' => Some(OPP),
        b'#' => Some(OFF),
        _ => None,
    }
}

/// The file's text for `store`.
pub fn to_text(store: &KernelStore) -> String {
    let mut s = format!("{MAGIC} {VERSION}\nkernels {}\n", store.len());
    for e in store.entries() {
        let k = &e.kernel;
        s.push_str(&format!(
            "{} {} {} {} {} {} {} ",
            k.board.0, k.board.1, k.centre.0, k.centre.1, k.mark.0, k.mark.1, e.count
        ));
        s.extend(k.cells.iter().map(|&c| cell_char(c)));
        s.push('\n');
    }
    let sum = fnv1a(s.as_bytes());
    s.push_str(&format!("end {sum:016x}\n"));
    s
}

/// Parses a whole file's bytes.
pub fn from_bytes(bytes: &[u8]) -> Result<KernelStore, FileError> {
    // The header is checked before anything else so that a foreign file says so.
    let first_line_end = bytes.iter().position(|&b| b == b'\n');
    let first = &bytes[..first_line_end.unwrap_or(bytes.len())];
    let mut words = first.split(|&b| b == b' ');
    if words.next() != Some(MAGIC.as_bytes()) {
        return Err(FileError::NotKernelFile);
    }
    let version = String::from_utf8_lossy(words.next().unwrap_or_default()).into_owned();
    if version != VERSION.to_string() || words.next().is_some() {
        return Err(FileError::Version(version));
    }
    // The end line: the last complete line must be `end <hex>`.
    let body_end = match bytes.strip_suffix(b"\n") {
        Some(rest) => rest.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1),
        None => return Err(FileError::Truncated),
    };
    let last = &bytes[body_end..bytes.len() - 1];
    let Some(hex) = last.strip_prefix(b"end ") else {
        return Err(FileError::Truncated);
    };
    let want = std::str::from_utf8(hex)
        .ok()
        .filter(|h| h.len() == 16)
        .and_then(|h| u64::from_str_radix(h, 16).ok())
        .ok_or(FileError::Truncated)?;
    if fnv1a(&bytes[..body_end]) != want {
        return Err(FileError::Checksum);
    }
    let body = std::str::from_utf8(&bytes[..body_end])
        .map_err(|_| FileError::Corrupt(0, "not ASCII".into()))?;
    let mut lines = body.lines().enumerate().skip(1);
    let count: usize = match lines.next() {
        Some((_, l)) => l
            .strip_prefix("kernels ")
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| FileError::Corrupt(2, "expected `kernels N`".into()))?,
        None => return Err(FileError::Corrupt(2, "expected `kernels N`".into())),
    };
    let mut store = KernelStore::new();
    let mut seen = 0;
    for (i, line) in lines {
        let kernel_and_count = parse_kernel(line).map_err(|e| FileError::Corrupt(i + 1, e))?;
        let (kernel, n) = kernel_and_count;
        if store.contains(&kernel) {
            return Err(FileError::Corrupt(i + 1, "kernel listed twice".into()));
        }
        if !store.add(kernel, n) {
            return Err(FileError::Corrupt(
                i + 1,
                "more kernels than a store holds".into(),
            ));
        }
        seen += 1;
    }
    if seen != count {
        return Err(FileError::Corrupt(
            2,
            format!("header says {count} kernels, file has {seen}"),
        ));
    }
    Ok(store)
}

/// One kernel line.
fn parse_kernel(line: &str) -> Result<(Kernel, u32), String> {
    let fields: Vec<&str> = line.split(' ').collect();
    if fields.len() != 8 {
        return Err(format!("expected 8 fields, found {}", fields.len()));
    }
    let num = |i: usize, lo: i64, hi: i64, what: &str| -> Result<i64, String> {
        fields[i]
            .parse::<i64>()
            .ok()
            .filter(|v| (lo..=hi).contains(v))
            .ok_or_else(|| format!("{what} {:?} is not in {lo}..={hi}", fields[i]))
    };
    let w = num(0, 1, 32, "board width")?;
    let h = num(1, 1, 32, "board height")?;
    let cx = num(2, 0, w - 1, "centre x")?;
    let cy = num(3, 0, h - 1, "centre y")?;
    let dx = num(4, -MAX_RADIUS, MAX_RADIUS, "mark dx")?;
    let dy = num(5, -MAX_RADIUS, MAX_RADIUS, "mark dy")?;
    let count = num(6, 1, u32::MAX as i64, "count")? as u32;
    let text = fields[7].as_bytes();
    if text.len() != FRAME_CELLS {
        return Err(format!("{} cells, expected {FRAME_CELLS}", text.len()));
    }
    let mut cells = [EMPTY; FRAME_CELLS];
    for (i, &c) in text.iter().enumerate() {
        let cell = char_cell(c).ok_or_else(|| format!("bad cell character {:?}", c as char))?;
        let (ox, oy) = (
            (i % FRAME) as i64 - MAX_RADIUS,
            (i / FRAME) as i64 - MAX_RADIUS,
        );
        let (x, y) = (cx + ox, cy + oy);
        let on_board = (0..w).contains(&x) && (0..h).contains(&y);
        if on_board == (cell == OFF) {
            return Err(format!("cell ({ox},{oy}) disagrees with the board's edge"));
        }
        cells[i] = cell;
    }
    let kernel = Kernel {
        cells,
        board: (w as u8, h as u8),
        centre: (cx as u8, cy as u8),
        mark: (dx as i8, dy as i8),
    };
    if kernel.cell(dx, dy) != EMPTY {
        return Err("the marked point is not empty".into());
    }
    Ok((kernel, count))
}

/// Reads the store at `path`: `Ok(None)` when there is no file yet.
pub fn load(path: &Path) -> Result<Option<KernelStore>, FileError> {
    match fs::read(path) {
        Ok(bytes) => from_bytes(&bytes).map(Some),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(FileError::Io(e)),
    }
}

/// Writes `store` to `path` atomically: a temporary file beside it, flushed to disk, renamed
/// over `path`. Creates the parent directory if needed.
pub fn save(path: &Path, store: &KernelStore) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir)?;
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    let mut tmp_name = name.to_os_string();
    tmp_name.push(format!(".tmp{}", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(to_text(store).as_bytes())?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)?;
        // Make the rename itself durable where directories can be synced.
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::learner::kernels::lessons;
    use crate::eval::learner::kernels::test_games::black_wins;
    use crate::rules::{Board, Color, Rule};

    fn sample_store() -> KernelStore {
        let b = black_wins();
        let mut store = KernelStore::new();
        for k in lessons(&b, Color::Black) {
            store.add(k, 3);
        }
        for k in lessons(&b, Color::White) {
            store.add(k, 1);
        }
        let mut r = Board::new(20, 15, Rule::Freestyle).unwrap();
        for (x, y) in [
            (0, 0),
            (10, 0),
            (1, 1),
            (12, 0),
            (2, 2),
            (14, 0),
            (3, 3),
            (6, 1),
        ] {
            r.play(r.pos(x, y).unwrap()).unwrap();
        }
        r.play(r.pos(4, 4).unwrap()).unwrap();
        for k in lessons(&r, Color::Black) {
            store.add(k, 1);
        }
        assert_eq!(store.len(), 3);
        store
    }

    fn same(a: &KernelStore, b: &KernelStore) -> bool {
        a.entries() == b.entries()
    }

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("sente-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn round_trip_through_text_and_disk() {
        let store = sample_store();
        let text = to_text(&store);
        assert!(text.starts_with("sente-kernels 1\nkernels 3\n"));
        assert!(same(&from_bytes(text.as_bytes()).unwrap(), &store));
        let dir = temp_dir("roundtrip");
        let path = dir.join("sub").join("learner.kernels");
        assert!(load(&path).unwrap().is_none(), "no file yet");
        save(&path, &store).unwrap();
        assert!(same(&load(&path).unwrap().unwrap(), &store));
        // Saving again replaces the file and leaves no temporary behind.
        save(&path, &KernelStore::new()).unwrap();
        assert!(load(&path).unwrap().unwrap().is_empty());
        let names: Vec<_> = fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn every_truncation_is_refused() {
        let text = to_text(&sample_store());
        let bytes = text.as_bytes();
        for cut in 0..bytes.len() {
            assert!(from_bytes(&bytes[..cut]).is_err(), "cut at {cut} accepted");
        }
        assert!(matches!(
            from_bytes(&bytes[..bytes.len() - 30]),
            Err(FileError::Truncated)
        ));
    }

    #[test]
    fn garbage_and_flipped_bytes_are_refused() {
        assert!(matches!(
            from_bytes(b"\x00\xffPK\x03\x04 garbage"),
            Err(FileError::NotKernelFile)
        ));
        assert!(matches!(from_bytes(b""), Err(FileError::NotKernelFile)));
        let text = to_text(&sample_store());
        let mut bytes = text.clone().into_bytes();
        let i = text.find("kernels").unwrap() + 40;
        bytes[i] = if bytes[i] == b'.' { b'x' } else { b'.' };
        assert!(matches!(from_bytes(&bytes), Err(FileError::Checksum)));
    }

    #[test]
    fn a_wellformed_but_inconsistent_line_is_refused() {
        // Rewrite a line and fix the checksum: the line check still catches it.
        let text = to_text(&sample_store());
        let body_end = text.rfind("end ").unwrap();
        let body = &text[..body_end];
        let reseal = |body: String| {
            let sum = fnv1a(body.as_bytes());
            format!("{body}end {sum:016x}\n")
        };
        let bad_edge = body.replacen("#", ".", 1);
        assert!(matches!(
            from_bytes(reseal(bad_edge).as_bytes()),
            Err(FileError::Corrupt(3, _))
        ));
        let bad_count = body.replacen("kernels 3", "kernels 4", 1);
        assert!(matches!(
            from_bytes(reseal(bad_count).as_bytes()),
            Err(FileError::Corrupt(2, _))
        ));
        let bad_field = body.replacen(" 3 ", " 0 ", 1);
        assert!(from_bytes(reseal(bad_field).as_bytes()).is_err());
    }

    #[test]
    fn another_version_is_refused_by_name() {
        let text = to_text(&sample_store()).replacen("sente-kernels 1", "sente-kernels 2", 1);
        match from_bytes(text.as_bytes()) {
            Err(FileError::Version(v)) => assert_eq!(v, "2"),
            other => panic!("{other:?}"),
        }
    }
}
