//! How the Go session sets a position up: handicap stones (`fixed_handicap`,
//! `place_free_handicap`, `set_free_handicap`), only on an empty board, and `loadsgf`, a game
//! record replayed on a fresh game that replaces the current one only when every event applies;
//! and `printsgf`, the game written back as such a record.

use log::{info, warn};

use super::sgf::{decode, read_file, read_record, SgfEvent, Xy};
use super::GoSession;
use crate::rules::go::game::corner_points;
use crate::rules::go::record::game_sgf;
use crate::rules::go::{GoGame, GoMove, Point};
use crate::rules::Color;
use crate::session::gtp_game::{GtpResult, Vertex, CANNOT_LOAD, CANNOT_WRITE};

impl GoSession {
    /// `fixed_handicap n`: the standard points, placed for black.
    pub fn fixed_handicap(&mut self, n: usize) -> GtpResult<Vec<Vertex>> {
        if !self.board_is_empty() {
            return Err("board not empty".into());
        }
        let points = self
            .game
            .fixed_handicap_points(n)
            .ok_or_else(|| "invalid number of stones".to_string())?;
        self.place_black(&points)
    }

    /// `place_free_handicap n`: up to `n` points of our choice.
    pub fn place_free_handicap(&mut self, n: usize) -> GtpResult<Vec<Vertex>> {
        let b = self.game.board();
        let area = b.width() * b.height();
        if n < 2 || n >= area {
            return Err("invalid number of stones".into());
        }
        if !self.board_is_empty() {
            return Err("board not empty".into());
        }
        let fixed = (2..=n)
            .rev()
            .find_map(|k| self.game.fixed_handicap_points(k));
        let points = match fixed {
            Some(p) => p,
            None => corner_points(b.width(), b.height())
                .into_iter()
                .filter_map(|(x, y)| b.point(x, y))
                .take(n)
                .collect(),
        };
        self.place_black(&points)
    }

    /// `set_free_handicap v1 v2 ...`: the controller's points.
    pub fn set_free_handicap(&mut self, vertices: &[Vertex]) -> GtpResult<()> {
        if !self.board_is_empty() {
            return Err("board not empty".into());
        }
        let b = self.game.board();
        let area = b.width() * b.height();
        let bad = || "bad vertex list".to_string();
        if vertices.len() < 2 || vertices.len() >= area {
            return Err(bad());
        }
        let mut points = Vec::with_capacity(vertices.len());
        for &v in vertices {
            let Vertex::At { x, y } = v else {
                return Err(bad());
            };
            let p = b.point(x, y).ok_or_else(bad)?;
            if points.contains(&p) {
                return Err(bad());
            }
            points.push(p);
        }
        self.place_black(&points).map(|_| ()).map_err(|_| bad())
    }

    fn place_black(&mut self, points: &[Point]) -> GtpResult<Vec<Vertex>> {
        let stones: Vec<(Point, Color)> = points.iter().map(|&p| (p, Color::Black)).collect();
        self.game
            .place_setup(&stones)
            .map_err(|e| format!("cannot place the handicap: {e}"))?;
        Ok(points
            .iter()
            .map(|&p| self.vertex(GoMove::Play(p)))
            .collect())
    }

    /// `printsgf [file]` (GNU Go's): the game as SGF ([`game_sgf`]), as the answer or, given
    /// `file`, written there with an empty answer. A path that exists and is not a regular file
    /// (a directory, a FIFO, a device) is refused without opening it; nothing in the game
    /// changes either way.
    pub fn printsgf(&self, file: Option<&str>) -> GtpResult<String> {
        let sgf = game_sgf(&self.game, &format!("sente:{}", env!("CARGO_PKG_VERSION")));
        let Some(path) = file else {
            // A GTP answer ends at its first blank line: the text has none, nor a final newline.
            return Ok(sgf.trim_end().to_string());
        };
        write_file(path, &sgf).map_err(|why| {
            warn!("printsgf {path}: {why}");
            format!("{CANNOT_WRITE}: {}", why.replace(['\r', '\n'], " "))
        })?;
        Ok(String::new())
    }

    /// `loadsgf file [move_number]`: the position before move `move_number` (or the end).
    pub fn loadsgf(&mut self, file: &str, move_number: Option<usize>) -> GtpResult<()> {
        // GTP's text first (clients match on it), then why, on one line.
        let fail = |why: String| {
            warn!("loadsgf {file}: {why}");
            format!("{CANNOT_LOAD}: {}", why.replace(['\r', '\n'], " "))
        };
        let bytes = read_file(file).map_err(|e| fail(e.to_string()))?;
        let record = read_record(&decode(&bytes)).map_err(|e| fail(e.to_string()))?;
        let mut rules = *self.game.rules();
        if let Some(k) = record.komi {
            rules.komi = k;
        }
        let mut game = GoGame::new(record.width, record.height, rules)
            .map_err(|e| fail(format!("board size: {e}")))?;
        let point = |game: &GoGame, (x, y): Xy, what: &str| {
            game.board()
                .point(x, y)
                .ok_or_else(|| fail(format!("{what} off the board")))
        };
        // The position before move `move_number` (1-based): a set-up or side to move recorded
        // between the move before it and it still applies.
        let stop_before = move_number.map_or(usize::MAX, |n| n.saturating_sub(1));
        let (mut played, mut edits) = (0, 0);
        for event in &record.events {
            match event {
                SgfEvent::Move(c, at) => {
                    if played == stop_before {
                        break;
                    }
                    played += 1;
                    let mv = match at {
                        None => GoMove::Pass,
                        Some(xy) => GoMove::Play(point(&game, *xy, &format!("move {played}"))?),
                    };
                    game.play(mv, *c)
                        .map_err(|e| fail(format!("move {played}: {e}")))?;
                }
                SgfEvent::Setup { add, erase } => {
                    let add = add
                        .iter()
                        .map(|&(xy, c)| Ok((point(&game, xy, "setup stone")?, c)))
                        .collect::<GtpResult<Vec<_>>>()?;
                    let erase = erase
                        .iter()
                        .map(|&xy| point(&game, xy, "AE point"))
                        .collect::<GtpResult<Vec<_>>>()?;
                    game.edit_position(&add, &erase)
                        .map_err(|e| fail(format!("setup after move {played}: {e}")))?;
                    edits += 1;
                }
                SgfEvent::ToPlay(c) => game.set_to_move(*c),
            }
        }
        let moves = record
            .events
            .iter()
            .filter(|e| matches!(e, SgfEvent::Move(..)))
            .count();
        info!(
            "loaded {file}: {}x{}, {edits} set-up nodes, {played} of {moves} moves, {} to move",
            record.width,
            record.height,
            game.to_move().name()
        );
        self.game = game;
        self.player.new_game(&self.game);
        Ok(())
    }
}

/// Writes `text` to `path`, creating or replacing a regular file; what goes wrong in words.
fn write_file(path: &str, text: &str) -> Result<(), String> {
    use std::io::{ErrorKind, Write};
    let io_error = |e: std::io::Error| match e.kind() {
        ErrorKind::NotFound => "no such directory".to_string(),
        ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    };
    // Opening a FIFO for writing waits for a reader, and a device is no record: look first.
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            return Err("not a regular file".to_string());
        }
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        // Should the path have become a FIFO since, opening it must not block either.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let mut file = options.open(path).map_err(io_error)?;
    file.write_all(text.as_bytes()).map_err(io_error)
}

#[cfg(test)]
mod tests {
    use super::super::tests::*;
    use super::super::*;
    use super::*;

    #[test]
    fn fixed_handicap() {
        let mut s = session();
        s.boardsize(9, 9).unwrap();
        let names = |v: Vec<Vertex>| -> Vec<(usize, usize)> {
            v.into_iter()
                .map(|v| match v {
                    Vertex::At { x, y } => (x, y),
                    Vertex::Pass => panic!("pass"),
                })
                .collect()
        };
        assert_eq!(s.fixed_handicap(10), Err("invalid number of stones".into()));
        assert_eq!(s.fixed_handicap(1), Err("invalid number of stones".into()));
        let two = names(s.fixed_handicap(2).unwrap());
        assert_eq!(two, vec![(6, 6), (2, 2)], "G7 C3");
        assert_eq!(s.fixed_handicap(2), Err("board not empty".into()));
        assert_eq!(s.undo(), Err(CANNOT_UNDO.into()), "handicap is not a move");
        s.clear_board();
        assert_eq!(names(s.fixed_handicap(9).unwrap()).len(), 9);
        s.boardsize(5, 5).unwrap();
        assert_eq!(s.fixed_handicap(2), Err("invalid number of stones".into()));
    }

    #[test]
    fn free_handicap() {
        let mut s = session();
        s.boardsize(9, 9).unwrap();
        assert_eq!(
            s.place_free_handicap(1),
            Err("invalid number of stones".into())
        );
        assert_eq!(
            s.place_free_handicap(81),
            Err("invalid number of stones".into())
        );
        assert_eq!(
            s.place_free_handicap(12).unwrap().len(),
            9,
            "fewer is allowed"
        );
        s.boardsize(5, 5).unwrap();
        assert_eq!(
            s.place_free_handicap(3).unwrap(),
            vec![at(3, 3), at(1, 1), at(1, 3)]
        );
        s.boardsize(2, 2).unwrap();
        assert_eq!(s.place_free_handicap(2).unwrap(), vec![at(1, 1), at(0, 0)]);
        s.boardsize(9, 9).unwrap();
        let bad = Err("bad vertex list".to_string());
        assert_eq!(s.set_free_handicap(&[at(2, 2)]), bad);
        assert_eq!(s.set_free_handicap(&[at(2, 2), Vertex::Pass]), bad);
        assert_eq!(s.set_free_handicap(&[at(2, 2), at(2, 2)]), bad);
        assert_eq!(s.set_free_handicap(&[at(2, 2), at(9, 9)]), bad);
        assert_eq!(s.game().board().stone_count(), 0, "refusals place nothing");
        s.set_free_handicap(&[at(2, 2), at(6, 6), at(4, 4)])
            .unwrap();
        assert_eq!(s.game().board().stone_count(), 3);
        assert_eq!(s.game().to_move(), Color::White);
        assert_eq!(
            s.set_free_handicap(&[at(1, 1), at(7, 7)]),
            Err("board not empty".into())
        );
        s.clear_board();
        s.play(Color::Black, Vertex::Pass).unwrap();
        assert_eq!(
            s.fixed_handicap(2),
            Err("board not empty".into()),
            "a move was played"
        );
    }

    #[test]
    fn printsgf_round_trips_through_loadsgf_and_bad_paths_change_nothing() {
        let dir = std::env::temp_dir().join(format!("sente-printsgf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut s = session();
        s.play(Color::Black, at(3, 3)).unwrap();
        s.play(Color::White, Vertex::Pass).unwrap();
        s.play(Color::Black, at(15, 15)).unwrap();
        let text = s.printsgf(None).unwrap();
        assert!(
            text.starts_with("(;FF[4]GM[1]") && text.ends_with(";B[pd])"),
            "{text}"
        );
        assert!(!text.contains("\n\n"));
        let file = dir.join("game.sgf");
        let path = file.to_str().unwrap();
        assert_eq!(s.printsgf(Some(path)), Ok(String::new()));
        let board = s.game().board().to_text();
        for bad in [
            "/nonexistent-sente-dir/x.sgf",
            "/dev/null",
            dir.to_str().unwrap(),
        ] {
            let err = s.printsgf(Some(bad)).unwrap_err();
            assert!(err.starts_with("cannot write file: "), "{bad}: {err}");
            assert_eq!(s.game().moves().len(), 3);
        }
        s.loadsgf(path, None).unwrap();
        assert_eq!(s.game().board().to_text(), board);
        assert_eq!(s.game().moves().len(), 3);
        assert_eq!(s.printsgf(None).unwrap(), text);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn loadsgf_replays_and_refusals_change_nothing() {
        let dir = std::env::temp_dir().join(format!("sente-sgf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.sgf");
        std::fs::write(&good, "(;GM[1]SZ[9]KM[5.5]AB[cc]AW[gg];B[ee];W[dd];B[ff])").unwrap();
        let bad = dir.join("bad.sgf");
        // The second move is on an occupied point.
        std::fs::write(&bad, "(;GM[1]SZ[9];B[ee];W[ee])").unwrap();
        let mut s = session();
        s.play(Color::Black, at(0, 0)).unwrap();
        for (f, why) in [
            (bad.to_str().unwrap(), "move 2: point is occupied"),
            ("/nonexistent/file.sgf", "no such file"),
            ("/dev/zero", "not a regular file"),
            (dir.to_str().unwrap(), "not a regular file"),
        ] {
            assert_eq!(s.loadsgf(f, None), Err(format!("cannot load file: {why}")));
            assert_eq!(s.game().board().width(), 19, "unchanged");
            assert_eq!(s.game().moves().len(), 1);
        }
        s.loadsgf(good.to_str().unwrap(), None).unwrap();
        let g = s.game();
        assert_eq!((g.board().width(), g.rules().komi), (9, 5.5));
        assert_eq!(g.moves().len(), 3);
        assert_eq!(g.board().stone_count(), 5);
        s.loadsgf(good.to_str().unwrap(), Some(2)).unwrap();
        assert_eq!(s.game().moves().len(), 1, "the position before move 2");
        assert_eq!(s.game().to_move(), Color::White);
        s.loadsgf(good.to_str().unwrap(), Some(99)).unwrap();
        assert_eq!(s.game().moves().len(), 3);
        // PL names the side to move: against the mixed set-up's default (black), and against
        // a black-only set-up's (white, as after a handicap).
        for (text, to_move) in [
            ("(;GM[1]SZ[9]AB[cc]AW[gg]PL[W])", Color::White),
            ("(;GM[1]SZ[9]AB[cc][gg])", Color::White),
            ("(;GM[1]SZ[9]AB[cc][gg]PL[B])", Color::Black),
            ("(;GM[1]SZ[9];B[cc];W[gg];PL[W])", Color::White),
            // In a move node, PL only says whose move it is.
            ("(;GM[1]SZ[9];B[cc];PL[W]W[gg])", Color::Black),
        ] {
            std::fs::write(&good, text).unwrap();
            s.loadsgf(good.to_str().unwrap(), None).unwrap();
            assert_eq!(s.game().to_move(), to_move, "{text}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
