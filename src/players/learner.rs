//! `learner`: the semi-supervised gomoku player of SEEDS 001 (docs/sources.md). Every move is the
//! argmax of the rule map ([`crate::eval::learner::rulemap`]) plus the learned map
//! ([`crate::eval::learner::kernels`]): each stored KxK kernel matching the board adds the reward 10 to the
//! point it marks. Ties are broken by the player's seeded generator; an empty board gets the centre
//! (001's opening).
//!
//! After each finished game ([`GomokuPlayer::game_over`]) the player stores what the game
//! teaches (our winning point, or the point the opponent won on) and, when it has a memory file,
//! saves the whole store at once, atomically ([`super::kernel_file`]). So it learns across the
//! games of one process (c-gomoku-cli sends `START` per game) and across processes (Piskvork may
//! restart the engine): the file carries the kernels.
//!
//! Memory file: `--memory PATH`, else `<INFO folder>/sente/learner.kernels`, else none (learning
//! lasts as long as the process). A file that cannot be read is reported on stderr, set aside as
//! `<file>.bad` and ignored. Before saving, the file on disk is read again and kernels another
//! process added meanwhile are merged in (counts: the larger), so two learners sharing a folder
//! (self-play under Piskvork) do not erase each other's lessons.
//!
//! Options (`INFO key value`, or `--kernel` on the command line):
//!
//! | key | values | default | meaning |
//! |---|---|---|---|
//! | `kernel` | 1, 3, ..., 15 | 15 | kernel side K |
//! | `kernel_anchor` | `board`, `anywhere` | `board` | match only where the kernel was cut (001), or anywhere |
//! | `kernel_symmetry` | 0, 1 | 0 | also match the 8 rotations/reflections |
//! | `kernel_near` | 0..=4 | 0 | approximate matching: Hamming radius (0 = exact, 001) |
//! | `kernel_learn` | 0, 1 | 1 | learn from finished games |
//! | `rule_map` | `steep`, `linear` | `steep` | rule-map weights (see `eval::learner::rulemap`) |

use std::path::{Path, PathBuf};

use log::{info, warn};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Decision, GomokuPlayer, MoveRequest, Player, SearchInfo};
use crate::eval::learner::kernels::{
    lessons, valid_size, Anchor, KernelIndex, KernelStore, MatchOptions, MatchStats,
};
use crate::eval::learner::rulemap::{rule_map, RuleWeights};
use crate::players::kernel_file;
use crate::rules::{Board, Color, Pos};
use crate::search::clock::TimeManager;

/// Sub-folder of the Gomocup `INFO folder` holding our files.
pub const FOLDER_NAME: &str = "sente";
/// The memory file's name in that sub-folder.
pub const FILE_NAME: &str = "learner.kernels";
/// Largest `kernel_near` radius accepted.
pub const MAX_NEAR: usize = 4;

/// The learning player.
pub struct Learner {
    weights: RuleWeights,
    store: KernelStore,
    index: KernelIndex,
    learning: bool,
    file: Option<PathBuf>,
    /// Set by `--memory`: the folder no longer moves the file.
    explicit_file: bool,
    rng: ChaCha8Rng,
    values: Vec<i32>,
    ties: Vec<Pos>,
}

impl Default for Learner {
    fn default() -> Self {
        Learner::new()
    }
}

impl Learner {
    /// A learner with the default options (15x15 kernels, anchored, exact), nothing learned and
    /// no memory file.
    pub fn new() -> Learner {
        Learner::with_options(MatchOptions::default())
    }

    /// A learner matching kernels as `opts` says.
    pub fn with_options(opts: MatchOptions) -> Learner {
        Learner {
            weights: RuleWeights::STEEP,
            store: KernelStore::new(),
            index: KernelIndex::new(opts),
            learning: true,
            file: None,
            explicit_file: false,
            rng: ChaCha8Rng::seed_from_u64(0),
            values: Vec::new(),
            ties: Vec::new(),
        }
    }

    /// The rule-only player of 001 (what a 1x1 kernel amounts to): no learned map, no learning.
    pub fn rule_only() -> Learner {
        let mut l = Learner::with_options(MatchOptions {
            size: 1,
            ..MatchOptions::default()
        });
        l.learning = false;
        l
    }

    /// Uses `w` for the rule map.
    pub fn set_weights(&mut self, w: RuleWeights) {
        self.weights = w;
    }

    /// Everything learned so far.
    pub fn store(&self) -> &KernelStore {
        &self.store
    }

    /// The matching options in force.
    pub fn options(&self) -> MatchOptions {
        self.index.options()
    }

    /// Kernels the index can use at the current size (symmetric variants included).
    pub fn usable_kernels(&self) -> usize {
        self.index.len()
    }

    /// Matching work done so far.
    pub fn match_stats(&self) -> MatchStats {
        self.index.stats
    }

    /// The memory file, if any.
    pub fn memory_file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Rebuilds the index for new options.
    fn set_options(&mut self, opts: MatchOptions) {
        if opts != self.index.options() {
            self.index = KernelIndex::build(opts, &self.store);
        }
    }

    /// Learns each kernel once more (store and index).
    fn absorb(
        &mut self,
        kernels: impl IntoIterator<Item = (crate::eval::learner::kernels::Kernel, u32)>,
    ) {
        for (k, n) in kernels {
            if self.store.add(k.clone(), n) {
                self.index.insert(&k, n);
            } else {
                warn!("learner: kernel store full; a lesson was dropped");
            }
        }
    }

    /// Stores the lessons of the finished game on `board` for `ours`; returns how many. No I/O.
    pub fn learn(&mut self, board: &Board, ours: Color) -> usize {
        if !self.learning {
            return 0;
        }
        let found = lessons(board, ours);
        let n = found.len();
        self.absorb(found.into_iter().map(|k| (k, 1)));
        n
    }

    /// The move for the side to move and its combined value: the argmax of rule map plus
    /// learned map over legal points, ties broken at random; `None` when nothing is legal.
    pub fn pick(&mut self, board: &Board) -> Option<(Pos, i32)> {
        self.pick_from(board, None)
    }

    /// [`Learner::pick`] with its ties broken by `stream` instead of the player's own generator:
    /// two players drawing from one stream play as 001's program did, one `rand()` for both
    /// sides, so a move changed by learning changes every later tie-break (`study kernels`).
    pub fn pick_with(&mut self, board: &Board, stream: &mut ChaCha8Rng) -> Option<(Pos, i32)> {
        self.pick_from(board, Some(stream))
    }

    fn pick_from(&mut self, board: &Board, stream: Option<&mut ChaCha8Rng>) -> Option<(Pos, i32)> {
        let rng = match stream {
            Some(r) => r,
            None => &mut self.rng,
        };
        if board.winner().is_some() {
            return None;
        }
        if board.stones() == 0 && board.check(board.centre()).is_ok() {
            return Some((board.centre(), 0));
        }
        let me = board.to_move();
        self.values.resize(board.array_len(), 0);
        rule_map(board, me, &self.weights, &mut self.values);
        self.index.add_learned(board, me, &mut self.values);
        // Highest value first; a tie set with no legal point (renju) is skipped.
        let mut floor = i32::MAX;
        loop {
            let best = board
                .empty_points()
                .map(|p| self.values[p.idx()])
                .filter(|&v| v < floor)
                .max()?;
            self.ties.clear();
            self.ties.extend(
                board
                    .empty_points()
                    .filter(|&p| self.values[p.idx()] == best && board.check(p).is_ok()),
            );
            if let Some(&p) = self.ties.choose(rng) {
                return Some((p, best));
            }
            floor = best;
        }
    }

    /// Points the memory at `path` and merges what the file holds.
    fn use_file(&mut self, path: PathBuf) {
        if self.file.as_ref() == Some(&path) {
            return;
        }
        info!("learner: memory file {}", path.display());
        self.file = Some(path);
        self.merge_file();
    }

    /// Merges the memory file's kernels into ours (larger count wins). A bad file is reported,
    /// set aside as `.bad` and ignored.
    fn merge_file(&mut self) {
        let Some(path) = self.file.clone() else {
            return;
        };
        match kernel_file::load(&path) {
            Ok(None) => {}
            Ok(Some(disk)) => {
                let more: Vec<_> = disk
                    .entries()
                    .iter()
                    .filter_map(|e| {
                        let ours = self
                            .store
                            .entries()
                            .iter()
                            .find(|o| o.kernel == e.kernel)
                            .map_or(0, |o| o.count);
                        (e.count > ours).then(|| (e.kernel.clone(), e.count - ours))
                    })
                    .collect();
                if !more.is_empty() {
                    info!(
                        "learner: {} kernels merged from {}",
                        more.len(),
                        path.display()
                    );
                }
                self.absorb(more);
            }
            Err(e) => {
                let mut bad = path.clone().into_os_string();
                bad.push(".bad");
                let kept = std::fs::rename(&path, &bad).is_ok();
                warn!(
                    "learner: memory file {} ignored: {e}{}",
                    path.display(),
                    if kept {
                        format!(" (kept as {})", Path::new(&bad).display())
                    } else {
                        String::new()
                    }
                );
            }
        }
    }

    /// Saves the store (after merging the file's newer kernels), reporting failures.
    fn save(&mut self) {
        let Some(path) = self.file.clone() else {
            return;
        };
        self.merge_file();
        if let Err(e) = kernel_file::save(&path, &self.store) {
            warn!("learner: cannot save {}: {e}", path.display());
        }
    }
}

impl Player<Board> for Learner {
    fn name(&self) -> &'static str {
        "learner"
    }
    fn set_seed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }
    fn decide(&mut self, pos: &Board, tm: &TimeManager<'_>) -> Option<Decision<Pos>> {
        super::decide_quietly(self, pos, tm)
    }
}

impl GomokuPlayer for Learner {
    fn choose(&mut self, board: &Board, req: &mut MoveRequest<'_, '_>) -> Option<Pos> {
        let (p, score) = self.pick(board)?;
        let info = SearchInfo {
            depth: 1,
            seldepth: 1,
            score,
            nodes: (board.width() * board.height() - board.stones()) as u64,
            elapsed: req.tm.elapsed(),
            pv: vec![p],
            multipv: 1,
            mate: None,
        };
        (req.report)(&info);
        Some(p)
    }
    fn set_folder(&mut self, dir: &Path) {
        if !self.explicit_file {
            self.use_file(dir.join(FOLDER_NAME).join(FILE_NAME));
        }
    }
    fn set_memory_file(&mut self, file: &Path) {
        self.explicit_file = true;
        self.use_file(file.to_path_buf());
    }
    fn set_option(&mut self, key: &str, value: &str) -> Option<Result<(), String>> {
        let mut opts = self.index.options();
        let flag = |v: &str| match v {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(format!("{key} {v}: expected 0 or 1")),
        };
        let result = match key {
            "kernel" => match value.parse::<usize>() {
                Ok(k) if k >= 1 && valid_size(k) => {
                    opts.size = k;
                    Ok(())
                }
                _ => Err(format!("kernel {value}: expected an odd size 1..15")),
            },
            "kernel_anchor" => match Anchor::from_name(value) {
                Some(a) => {
                    opts.anchor = a;
                    Ok(())
                }
                None => Err(format!("kernel_anchor {value}: expected board or anywhere")),
            },
            "kernel_symmetry" => flag(value).map(|b| opts.symmetry = b),
            "kernel_near" => match value.parse::<usize>() {
                Ok(d) if d <= MAX_NEAR => {
                    opts.near = d;
                    Ok(())
                }
                _ => Err(format!("kernel_near {value}: expected 0..{MAX_NEAR}")),
            },
            "kernel_learn" => flag(value).map(|b| self.learning = b),
            "rule_map" => match RuleWeights::from_name(value) {
                Some(w) => {
                    self.weights = w;
                    Ok(())
                }
                None => Err(format!("rule_map {value}: expected steep or linear")),
            },
            _ => return None,
        };
        if result.is_ok() {
            self.set_options(opts);
        }
        Some(result)
    }
    fn game_over(&mut self, board: &Board, ours: Color) {
        let n = self.learn(board, ours);
        if n > 0 {
            info!(
                "learner: {n} lesson(s) from the game; {} kernels",
                self.store.len()
            );
            self.save();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::learner::rulemap::{OPP, OWN};
    use crate::rules::Rule;
    use crate::search::clock::TimeManager;
    use std::sync::atomic::AtomicBool;

    fn at(b: &Board, x: i64, y: i64) -> Pos {
        b.pos(x, y).unwrap()
    }

    fn game(size: usize, moves: &[(i64, i64)]) -> Board {
        let mut b = Board::new(size, size, Rule::Freestyle).unwrap();
        for &(x, y) in moves {
            b.play(at(&b, x, y)).unwrap();
        }
        b
    }

    fn choose(l: &mut Learner, b: &Board) -> Pos {
        let stop = AtomicBool::new(false);
        let tm = TimeManager::infinite(&stop);
        let mut sink = |_: &SearchInfo| {};
        let mut req = MoveRequest {
            tm: &tm,
            nbest: 1,
            excluded: &[],
            report: &mut sink,
        };
        l.choose(b, &mut req).unwrap()
    }

    #[test]
    fn opens_in_the_centre_and_takes_a_five() {
        let mut l = Learner::new();
        let b = Board::new(13, 13, Rule::Freestyle).unwrap();
        assert_eq!(choose(&mut l, &b), b.centre());
        let b = game(
            13,
            &[
                (2, 2),
                (0, 12),
                (3, 2),
                (2, 12),
                (4, 2),
                (4, 12),
                (5, 2),
                (6, 12),
            ],
        );
        let p = choose(&mut l, &b);
        assert!(p == at(&b, 1, 2) || p == at(&b, 6, 2));
    }

    /// A position where the rule map prefers making two fours to blocking the opponent's four,
    /// so black loses; after learning from that loss it blocks.
    #[test]
    fn learning_changes_the_move_after_a_lost_game() {
        // Black: column 10 rows 3..5, row 6 columns 7..9, diagonal (11,7) (12,8): the point
        // (10,6) joins 3 + 3 + 2 = 72. White: (3,9) (4,9) (6,9) (7,9), five at (5,9): 64.
        let moves = [
            (10, 3),
            (3, 9),
            (10, 4),
            (4, 9),
            (10, 5),
            (6, 9),
            (7, 6),
            (7, 9),
            (8, 6),
            (0, 0),
            (9, 6),
            (0, 12),
            (11, 7),
            (12, 0),
            (12, 8),
            (2, 12),
        ];
        let before = game(13, &moves);
        assert_eq!(before.to_move(), Color::Black);
        let tempting = at(&before, 10, 6);
        let blocking = at(&before, 5, 9);
        let mut values = vec![0; before.array_len()];
        rule_map(&before, Color::Black, &RuleWeights::STEEP, &mut values);
        assert_eq!(values[tempting.idx()], 2 * OWN[3] + OWN[2]);
        assert_eq!(values[blocking.idx()], OPP[4]);
        let mut l = Learner::new();
        l.set_seed(7);
        assert_eq!(choose(&mut l, &before), tempting);
        // Black plays it, white wins on (5, 9).
        let mut lost = before.clone();
        lost.play(tempting).unwrap();
        lost.play(blocking).unwrap();
        assert_eq!(lost.winner(), Some(Color::White));
        assert_eq!(l.learn(&lost, Color::Black), 1);
        assert_eq!(choose(&mut l, &before), blocking, "64 + 10 > 72");
        // The rule-only player never changes its mind.
        let mut r = Learner::rule_only();
        assert_eq!(r.learn(&lost, Color::Black), 0);
        assert_eq!(choose(&mut r, &before), tempting);
        // Nor does a learner whose kernels are too small to reach the mark.
        let mut small = Learner::with_options(MatchOptions {
            size: 9,
            ..MatchOptions::default()
        });
        assert_eq!(small.learn(&lost, Color::Black), 1);
        assert_eq!(choose(&mut small, &before), tempting);
        // At 11x11 the mark (5 columns left) fits in the window: the same lesson now acts.
        assert_eq!(small.set_option("kernel", "11"), Some(Ok(())));
        assert_eq!(choose(&mut small, &before), blocking);
    }

    #[test]
    fn options_are_checked_and_rebuild_the_index() {
        let mut l = Learner::new();
        assert_eq!(l.set_option("kernel", "7"), Some(Ok(())));
        assert_eq!(l.options().size, 7);
        assert!(matches!(l.set_option("kernel", "8"), Some(Err(_))));
        assert!(matches!(l.set_option("kernel", "0"), Some(Err(_))));
        assert!(matches!(l.set_option("kernel", "17"), Some(Err(_))));
        assert_eq!(l.options().size, 7, "a refused value changes nothing");
        assert_eq!(l.set_option("kernel_anchor", "anywhere"), Some(Ok(())));
        assert_eq!(l.options().anchor, Anchor::Anywhere);
        assert_eq!(l.set_option("kernel_symmetry", "1"), Some(Ok(())));
        assert!(l.options().symmetry);
        assert_eq!(l.set_option("kernel_near", "2"), Some(Ok(())));
        assert!(matches!(l.set_option("kernel_near", "9"), Some(Err(_))));
        assert_eq!(l.options().near, 2);
        assert_eq!(l.set_option("rule_map", "linear"), Some(Ok(())));
        assert!(matches!(l.set_option("rule_map", "cubic"), Some(Err(_))));
        assert_eq!(l.set_option("hash_size", "1000"), None);
    }

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("sente-learner-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn won_game() -> Board {
        crate::eval::learner::kernels::test_games::local_won()
    }

    #[test]
    fn lessons_persist_in_the_folder_and_come_back_in_a_new_process() {
        let dir = temp_dir("folder");
        let mut a = Learner::new();
        a.set_folder(&dir);
        a.game_over(&won_game(), Color::Black);
        let file = dir.join(FOLDER_NAME).join(FILE_NAME);
        assert!(file.exists());
        let mut b = Learner::new();
        b.set_folder(&dir);
        assert_eq!(b.store().entries(), a.store().entries());
        // Two processes sharing the folder: b learns something else and saves; a's next save
        // keeps b's kernel.
        b.game_over(&won_game(), Color::White);
        a.game_over(&won_game(), Color::Black);
        let disk = kernel_file::load(&file).unwrap().unwrap();
        assert_eq!(disk.len(), 2);
        assert_eq!(a.store().len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_bad_memory_file_is_set_aside_and_ignored() {
        let dir = temp_dir("bad");
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("mem.kernels");
        std::fs::write(&file, b"sente-kernels 1\nkernels 5\n13 13").unwrap();
        let mut l = Learner::new();
        l.set_memory_file(&file);
        assert!(l.store().is_empty());
        assert!(dir.join("mem.kernels.bad").exists());
        // The explicit file outranks a later INFO folder.
        l.set_folder(&dir.join("elsewhere"));
        assert_eq!(l.memory_file(), Some(file.as_path()));
        l.game_over(&won_game(), Color::Black);
        assert_eq!(kernel_file::load(&file).unwrap().unwrap().len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
