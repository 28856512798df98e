//! Monte Carlo tree search for Go: UCT with RAVE (all-moves-as-first), priors from the learned
//! move gammas, light playouts ([`crate::search::playout`]) and tree reuse between moves.
//!
//! - **Tree**: one arena of nodes ([`self::tree`]); a node's children are contiguous. A
//!   node holds the move that led to it, the colour that played it and its statistics from that
//!   colour's side.
//! - **Expansion**: the root at once, any other node once it has been visited
//!   [`MctsConfig::expand_after`] times. Children are the legal points that do not fill an own
//!   eye and that the seed's move scorer does not rule out (at the root also the game's superko
//!   law); a pass child exists only when there is no such point or when every such point is a
//!   self-atari (or a run into a ladder, [`crate::eval::go::ladder`]): a seki's shared
//!   liberties, where passing keeps both groups alive.
//! - **Priors**: each child starts with [`MctsConfig::prior_visits`] virtual visits at a
//!   winrate, and a probability that orders progressive widening. With
//!   [`MctsConfig::gamma_priors`] 1 (the default) both come from the learned Bradley-Terry
//!   gammas ([`crate::eval::go::gammas`]): the probability is the move's gamma over the sum of
//!   its siblings', the winrate runs from [`MctsConfig::bad_prior`] to
//!   [`MctsConfig::prior_cap`] with the square root of the gamma relative to the best
//!   sibling's. Below 1 they blend with the hand priors ([`crate::eval::go::priors`]: the move
//!   scorer's ranking plus bonuses for answers to the last move and for ataris a ladder turns
//!   into captures), which are all there is when no gamma table is embedded.
//! - **Progressive widening** on big boards: a node with more than [`MctsConfig::widen_over`]
//!   children (19x19 and 13x13, never 9x9) keeps them in the prior's order, and the selection
//!   looks only at the first `k`, where `k` grows with the logarithm of the node's visits
//!   (Chaslot et al., progressive unpruning), all game long ([`MctsConfig::widen_late`]; off,
//!   only while the root is in the scorer's opening phase, since the hand priors' crude order
//!   would hide fighting moves later). Without widening the 19x19 opening search spreads its
//!   visits over all 361 root children, RAVE weighs nearly every value, and the light
//!   playouts' AMAF statistics, which favour 2nd-line moves, drown the priors.
//! - **Selection**: the child maximising `(1 - b) q + b q_amaf + c sqrt(ln N / n)`, with the RAVE
//!   weight `b = n_amaf / (n_amaf + n + n n_amaf / rave_equiv)` (Gelly and Silver's schedule),
//!   plus the criticality bonus, plus the score utility ([`MctsConfig::score_weight`]): a
//!   bounded function of the child's mean final margin against its parent's
//!   ([`self::config::score_utility`]). Where every move wins or every move loses the winrates
//!   no longer tell moves apart; the margins still do, so the tree goes on preferring the
//!   larger win or the smaller loss (as KataGo's score utility does) instead of any move.
//! - **Criticality** ([`MctsConfig::crit_bonus`], [`self::crit`], Coulom 2009): a bonus
//!   for points whose owner at the end of the search's simulations goes with the winner (a
//!   fight's key points), read from the root's statistics at every depth.
//! - **Playout** from the leaf (the light policy); the area margin (komi and white's handicap
//!   bonus included, [`GoGame::effective_komi`], plus in handicap games the dynamic komi of
//!   [`self::config::dynamic_komi`] when it is set) decides the winner, and every node on
//!   the path and every sibling whose move the same colour played first later in the
//!   simulation (AMAF) is updated.
//! - **Time**: the playout budget (`SearchLimit::nodes` counts playouts) is exact; the stop flag
//!   and the clock are polled every 8 simulations. In play mode (saved time carries over) the
//!   soft deadline ends the search when the most visited move leads the next by
//!   [`MctsConfig::clear_ratio`] to 1, otherwise the search runs to the hard deadline. In turn
//!   mode (the move's time is lost if unused) the search runs to the hard deadline unless the
//!   leader's lead in visits exceeds the simulations still to come at the current rate, or
//!   only one move is allowed.
//! - **Reuse**: when the new position descends from the last root by moves found in the tree,
//!   that subtree becomes the new root (copied into a fresh arena).
//! - **Memory**: past [`MctsConfig::max_nodes`] the tree stops growing; simulations go on.
//! - **Ownership** (on request, [`Reporting::ownership`], for `kata-analyze ... ownership
//!   true`): every simulation's final board adds each point's owner to a running sum, and
//!   reports carry the mean over this search's simulations (reused visits have no board to
//!   count). The playouts then run to the end, past the mercy rule ([`Ending::ToTheEnd`]): a
//!   playout cut short leaves the disputed points owned by nobody. That costs time, so it is
//!   chosen once per search and a search without it runs exactly as before.
//! - **Threads** ([`Mcts::set_threads`]): all grow the one tree (atomic statistics, expansions
//!   claimed by one thread, no lock). Each thread has its own board, path, AMAF marks and
//!   random generator (seeded from the search's seed and its number; the first thread's is the
//!   one-thread seed). A node's visit is counted on the way down, its result on the way back:
//!   in between, the visit weighs as a loss (virtual loss), so the other threads' selections
//!   spread to other moves. Alone, nothing reads a visit before its result, so one thread
//!   searches exactly as a plain sequential search. The first thread runs on the caller's and
//!   makes every decision (clock, clear choice, reports); the others simulate until it is
//!   done, the budget is spent or the stop flag is raised. Each thread claims a simulation
//!   before it starts one, so a playout budget is exact; a report's ownership is the first
//!   thread's (the final one merges all).
//!
//! Deterministic for a given seed, command history and playout budget, on one thread (with
//! more, which thread reads what depends on their timing).

mod config;
mod crit;
mod root;
mod tree;

use std::time::Duration;

use crate::eval::go::baduk::{phase, Phase};
use crate::eval::go::features::features;
use crate::eval::go::gammas;
use crate::eval::go::ladder::LadderReader;
use crate::eval::go::priors::PriorReader;
use crate::rules::go::board::{GoBoard, BLACK};
use crate::rules::go::{GoGame, GoMove, Point};
use crate::rules::Color;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub use self::config::MctsConfig;
use self::config::{dynamic_komi, score_utility, widened, widens};
use self::crit::Criticality;
use self::root::{clear_choice, decided, root_moves};
pub use self::root::{winrate_lcb, Candidate, SearchResult};
use self::tree::{to_move, Arena, Kids, Node, SharedNode, PASS, ROOT};
use crate::search::clock::TimeManager;
use crate::search::move_filter::MoveFilter;
use crate::search::playout::owners::{add_owners, area_margin, mean_owners};
use crate::search::playout::rng::Rng;
use crate::search::playout::{playout, Ending, PlayoutTrace};

/// Bytes one tree node takes.
pub const NODE_BYTES: usize = std::mem::size_of::<SharedNode>();

pub use crate::search::MAX_THREADS;

/// Nodes the arena holds beyond [`MctsConfig::max_nodes`]: the root's children (at most one
/// per point of a 25x25 board and a pass), which come before the cap is checked.
const ROOT_ROOM: usize = 1024;

/// What a search reports while it runs, besides its result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reporting {
    /// How often the report callback is called; `None` = never.
    pub every: Option<Duration>,
    /// Whether to average every point's final owner over the simulations (see the module
    /// notes: the playouts then skip the mercy rule).
    pub ownership: bool,
}

/// Receives a running search's root moves and, when [`Reporting::ownership`] asks, its
/// ownership so far (as in [`SearchResult::ownership`]).
pub type SearchReport<'a> = &'a mut dyn FnMut(&[Candidate<GoMove>], Option<&[f32]>);

/// How one search runs, besides its position and clock.
#[derive(Clone, Copy, Debug)]
pub struct SearchSpec<'a> {
    /// When it may end before it is stopped.
    pub mode: Mode,
    /// What it reports while it runs.
    pub reporting: Reporting,
    /// Moves it may not try in the first plies ([`NO_FILTER`] for none).
    pub filter: &'a MoveFilter,
}

/// When a search may end before it is stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A move under a clock that carries saved time over: past the soft deadline, stop as soon
    /// as the most visited move leads the next by [`MctsConfig::clear_ratio`] to 1 (2:1).
    Play,
    /// A move with its own time that is lost if unused (a fixed time per move, a byo-yomi
    /// period of one stone): search to the hard deadline unless the most visited move can no
    /// longer be overtaken at the current speed.
    PlayTurn,
    /// Runs until stopped.
    Analyze,
}

/// Identifies the position a tree's root stands for.
#[derive(Clone, Debug, PartialEq)]
struct RootKey {
    width: usize,
    height: usize,
    komi: f32,
    setup: Vec<(Point, Color)>,
    moves: Vec<(GoMove, Color)>,
    to_move: Color,
}

/// The search state kept between moves.
#[derive(Clone)]
pub struct Mcts {
    cfg: MctsConfig,
    /// The tree, shared by the threads during a search.
    arena: Arena,
    key: Option<RootKey>,
    root_board: Option<GoBoard>,
    /// One per search thread; the first runs on the caller's thread and leads.
    workers: Vec<Worker>,
    seed: u64,
    /// Whether this search widens progressively (the root position is in the opening).
    widen: bool,
    /// The `avoid` / `allow` rules the tree was grown under (a tree is reused only under the
    /// same rules).
    filter: MoveFilter,
    /// The deepest ply `filter` reaches (0 = no rule), read on every expansion.
    filter_depth: u32,
}

/// One search thread's own state.
#[derive(Clone)]
struct Worker {
    /// The simulation's board (left on its final position).
    scratch: Option<GoBoard>,
    /// By point: the colour that played there first in this simulation (AMAF).
    first_mover: Vec<u8>,
    /// Nodes of this simulation's descent.
    path: Vec<u32>,
    rng: Rng,
    /// Children being built by an expansion.
    kids: Vec<Node>,
    /// Scratch boards for the expansions' ladder reads.
    ladders: LadderReader,
    /// Final owners summed over this thread's simulations, by padded point (when reported).
    owners: Option<Vec<i64>>,
    /// Simulations this thread ran in this search.
    sims: u64,
}

/// What every thread of one search reads.
struct Ctx<'a> {
    arena: &'a Arena,
    cfg: &'a MctsConfig,
    widen: bool,
    filter: &'a MoveFilter,
    filter_depth: u32,
    root_board: &'a GoBoard,
    color: Color,
    komi: f32,
    ending: Ending,
    /// Several threads: visits are counted with a locked add.
    shared: bool,
    /// The search's criticality, when [`MctsConfig::crit_bonus`] asks for it.
    crit: Option<&'a Criticality>,
    /// [`MctsConfig::score_scale`] in points on this board.
    score_scale: f32,
}

impl Mcts {
    /// A search with the default configuration.
    pub fn new(seed: u64) -> Mcts {
        Mcts::with_config(MctsConfig::default(), seed)
    }

    /// A search with `cfg`, on one thread.
    pub fn with_config(cfg: MctsConfig, seed: u64) -> Mcts {
        Mcts {
            cfg,
            arena: Arena::default(),
            key: None,
            root_board: None,
            workers: vec![Worker::new()],
            seed,
            widen: false,
            filter: MoveFilter::default(),
            filter_depth: 0,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &MctsConfig {
        &self.cfg
    }
    /// Changes the configuration (the tree is dropped).
    pub fn set_config(&mut self, cfg: MctsConfig) {
        self.cfg = cfg;
        self.clear();
    }
    /// Changes the seed of the playouts.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }
    /// Searches with `threads` threads from now on (1..=[`MAX_THREADS`], clamped), all on
    /// the one tree, which is kept.
    pub fn set_threads(&mut self, threads: usize) {
        self.workers
            .resize_with(threads.clamp(1, MAX_THREADS), Worker::new);
    }
    /// Threads a search uses.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }
    /// Forgets the tree.
    pub fn clear(&mut self) {
        self.arena.release();
        self.key = None;
        self.root_board = None;
    }
    /// Nodes in the current tree.
    pub fn tree_size(&self) -> usize {
        self.arena.len()
    }
    /// Real visits of the current root (reused ones included).
    pub fn root_visits(&self) -> u64 {
        if self.arena.is_empty() {
            return 0;
        }
        self.arena.get(ROOT).visits() as u64
    }

    /// Searches `game` for `color` until `tm` says stop (see the module notes), calling
    /// `report` every `reporting.every` with the root moves and, when `reporting.ownership`
    /// asks, the ownership so far (as in [`SearchResult::ownership`]; such a report waits for
    /// the first simulation).
    pub fn search(
        &mut self,
        game: &GoGame,
        color: Color,
        tm: &TimeManager<'_>,
        spec: SearchSpec<'_>,
        report: SearchReport<'_>,
    ) -> SearchResult {
        let SearchSpec {
            mode,
            reporting,
            filter,
        } = spec;
        self.prepare_root(game, color, filter);
        // Each search replays from its own seed: the same position gives the same answer.
        let seed = self.seed ^ game.board().hash() ^ (game.moves().len() as u64) << 48;
        let board = game.board();
        self.widen = self.cfg.widen_late
            || phase(board.stone_count(), board.width() * board.height()) == Phase::Opening;
        let root_board = self.root_board.take().expect("prepared root");
        let crit = (self.cfg.crit_bonus > 0.0).then(|| Criticality::new(root_board.array_len()));
        for (i, w) in self.workers.iter_mut().enumerate() {
            w.start(thread_seed(seed, i), &root_board, reporting.ownership);
        }
        let ctx = Ctx {
            arena: &self.arena,
            cfg: &self.cfg,
            widen: self.widen,
            filter: &self.filter,
            filter_depth: self.filter_depth,
            root_board: &root_board,
            color,
            komi: game.effective_komi()
                + dynamic_komi(
                    &self.cfg,
                    game.handicap_stones(),
                    game.moves().len(),
                    board.width() * board.height(),
                    color,
                ),
            ending: if reporting.ownership {
                Ending::ToTheEnd
            } else {
                Ending::Mercy
            },
            shared: self.workers.len() > 1,
            crit: crit.as_ref(),
            score_scale: self.cfg.score_scale * ((board.width() * board.height()) as f32).sqrt(),
        };
        let budget = tm.max_nodes().unwrap_or(u64::MAX);
        // Simulations claimed so far, by all threads: the budget is exact.
        let claimed = AtomicU64::new(0);
        let done = AtomicBool::new(false);
        let (lead, helpers) = self.workers.split_first_mut().expect("one worker at least");
        std::thread::scope(|scope| {
            for h in helpers {
                let (ctx, claimed, done) = (&ctx, &claimed, &done);
                scope.spawn(move || h.help(ctx, claimed, done, budget, tm));
            }
            lead.lead(&ctx, &claimed, budget, tm, mode, reporting, report);
            done.store(true, Ordering::Relaxed);
        });
        let playouts = self.workers.iter().map(|w| w.sims).sum();
        let ownership = self.workers[0].owners.as_ref().map(|first| {
            let mut sum = first.clone();
            for w in &self.workers[1..] {
                for (s, o) in sum.iter_mut().zip(w.owners.iter().flatten()) {
                    *s += o;
                }
            }
            mean_owners(&sum, playouts)
        });
        self.root_board = Some(root_board);
        let moves = root_moves(&self.arena);
        SearchResult {
            best: moves.first().map(|m| m.mv),
            moves,
            ownership: ownership.filter(|_| playouts > 0),
            playouts,
            elapsed: tm.elapsed(),
        }
    }

    /// Reuses the matching subtree of the last search or starts a new tree, and expands the
    /// root under the game's law.
    fn prepare_root(&mut self, game: &GoGame, color: Color, filter: &MoveFilter) {
        let key = RootKey {
            width: game.board().width(),
            height: game.board().height(),
            komi: game.effective_komi(),
            setup: game.setup().to_vec(),
            moves: game.moves().to_vec(),
            to_move: color,
        };
        self.filter_depth = filter.depth();
        // Nodes grown under other rules carry their exclusions: such a tree starts afresh. So
        // does a subtree under rules, whose depths counted from the old root.
        let reused = if *filter == self.filter {
            self.key
                .as_ref()
                .and_then(|old| self.descend(old, &key))
                .filter(|&idx| idx == ROOT || filter.is_empty())
        } else {
            self.filter = filter.clone();
            None
        };
        match reused {
            Some(idx) if idx != ROOT => self.arena.reroot(idx),
            Some(_) => {}
            None => {
                // Room for the root's children beyond the cap (the cap is checked before
                // each expansion below the root, not before the root's).
                self.arena.reset(self.cfg.max_nodes + ROOT_ROOM);
                self.arena.push_root(Node {
                    color: color.opponent() as u8,
                    allowed: true,
                    ..Node::default()
                });
            }
        }
        let board = game.board().clone();
        let arena = &self.arena;
        if arena.get(ROOT).kids() == Kids::Leaf {
            let w = &mut self.workers[0];
            children_of(
                &mut w.kids,
                &mut w.ladders,
                &board,
                color,
                Some(game),
                &self.cfg,
            );
            let claimed = arena.try_claim(ROOT);
            let attached = arena.attach(ROOT, &w.kids);
            debug_assert!(claimed && attached.is_some());
        } else {
            // A reused root: apply the game's law (superko) to its children.
            for i in arena.children(ROOT) {
                let ch = arena.get(i);
                ch.set_allowed(ch.mv() == PASS || game.is_legal(Point(ch.mv()), color));
            }
        }
        if self.filter_depth > 0 {
            for i in arena.children(ROOT) {
                let ch = arena.get(i);
                if self.filter.forbids(1, color, to_move(ch.mv())) {
                    ch.set_allowed(false);
                }
            }
        }
        self.root_board = Some(board);
        self.key = Some(key);
    }

    /// The node of the old tree that stands for `new`, if `new` descends from `old` by moves
    /// present in the tree.
    fn descend(&self, old: &RootKey, new: &RootKey) -> Option<u32> {
        if self.arena.is_empty()
            || old.width != new.width
            || old.height != new.height
            || old.komi != new.komi
            || old.setup != new.setup
            || new.moves.len() < old.moves.len()
            || new.moves[..old.moves.len()] != old.moves[..]
        {
            return None;
        }
        let mut node = ROOT;
        let mut to_move = old.to_move;
        for &(mv, c) in &new.moves[old.moves.len()..] {
            if c != to_move {
                return None;
            }
            if self.arena.get(node).kids() == Kids::Leaf {
                return None;
            }
            let code = match mv {
                GoMove::Pass => PASS,
                GoMove::Play(p) => p.0,
            };
            node = self
                .arena
                .children(node)
                .find(|&i| self.arena.get(i).mv() == code)?;
            to_move = to_move.opponent();
        }
        if to_move != new.to_move {
            return None;
        }
        Some(node)
    }

    /// The allowed root moves, most visited first (prior breaks ties).
    pub fn root_moves(&self) -> Vec<Candidate<GoMove>> {
        root_moves(&self.arena)
    }
}

/// Thread `i`'s seed for a search seeded with `seed`: `seed` itself for the first, decorrelated
/// ones for the others.
fn thread_seed(seed: u64, i: usize) -> u64 {
    seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Worker {
    fn new() -> Worker {
        Worker {
            scratch: None,
            first_mover: Vec::new(),
            path: Vec::with_capacity(64),
            rng: Rng::new(0),
            kids: Vec::new(),
            ladders: LadderReader::new(),
            owners: None,
            sims: 0,
        }
    }

    /// Readies the thread for a search from `root_board`.
    fn start(&mut self, seed: u64, root_board: &GoBoard, ownership: bool) {
        self.rng = Rng::new(seed);
        self.sims = 0;
        let len = root_board.array_len();
        if self.first_mover.len() != len {
            self.first_mover = vec![0; len];
        }
        if self.scratch.as_ref().is_none_or(|s| s.array_len() != len) {
            self.scratch = Some(root_board.clone());
        }
        self.owners = ownership.then(|| vec![0i64; len]);
    }

    /// The first thread's loop: it makes every decision (the clock, the clear choice, the
    /// stop flag, the reports) while the helpers only simulate.
    #[allow(clippy::too_many_arguments)]
    fn lead(
        &mut self,
        ctx: &Ctx<'_>,
        claimed: &AtomicU64,
        budget: u64,
        tm: &TimeManager<'_>,
        mode: Mode,
        reporting: Reporting,
        report: SearchReport<'_>,
    ) {
        let report_every = reporting.every;
        let mut next_report = report_every;
        loop {
            // Everyone's simulations: the clock's rates and the budget count them all.
            let sims = claimed.load(Ordering::Relaxed);
            if sims >= budget {
                break;
            }
            if self.sims.is_multiple_of(8) {
                if tm.should_stop(sims) {
                    break;
                }
                if mode == Mode::Play && !tm.may_start_iteration(0, sims, Duration::ZERO) {
                    // Past the soft deadline: stop when the choice is clear.
                    if clear_choice(ctx.arena, ctx.cfg.clear_ratio) {
                        break;
                    }
                }
                if mode == Mode::PlayTurn
                    && self.sims.is_multiple_of(64)
                    && decided(ctx.arena, sims, tm)
                {
                    break;
                }
                if let Some(crit) = ctx.crit.filter(|_| self.sims.is_multiple_of(64)) {
                    crit.refresh(ctx.cfg);
                }
                if let Some(at) = next_report {
                    // An ownership map needs a simulation (the clock may be past the first
                    // interval before the search starts). Helpers' maps join at the end.
                    if tm.elapsed() >= at && (self.sims > 0 || self.owners.is_none()) {
                        let own = self.owners.as_deref().map(|o| mean_owners(o, self.sims));
                        report(&root_moves(ctx.arena), own.as_deref());
                        next_report = report_every.map(|every| tm.elapsed() + every);
                    }
                }
            }
            if ctx.arena.children(ROOT).is_empty()
                || claimed.fetch_add(1, Ordering::Relaxed) >= budget
            {
                break;
            }
            self.simulate(ctx);
        }
    }

    /// A helper thread's loop: simulations until the lead is done, the budget is spent or
    /// the stop flag is raised.
    fn help(
        &mut self,
        ctx: &Ctx<'_>,
        claimed: &AtomicU64,
        done: &AtomicBool,
        budget: u64,
        tm: &TimeManager<'_>,
    ) {
        while !done.load(Ordering::Relaxed) && !tm.stop_requested() {
            if claimed.fetch_add(1, Ordering::Relaxed) >= budget {
                break;
            }
            self.simulate(ctx);
        }
    }

    /// One simulation: descend (counting each node's visit on the way down, a virtual loss
    /// for the other threads until the result arrives), maybe expand, play out (ended as
    /// `ctx.ending` allows), back up. The scratch board is left on the final position.
    fn simulate(&mut self, ctx: &Ctx<'_>) {
        let (arena, cfg) = (ctx.arena, ctx.cfg);
        let scratch = self.scratch.as_mut().expect("started");
        scratch.copy_from(ctx.root_board);
        self.first_mover.fill(0);
        self.path.clear();
        self.path.push(ROOT);
        let mut node = ROOT;
        let mut to_move = ctx.color;
        let mut passes = 0;
        loop {
            let (first, n) = match arena.get(node).kids() {
                Kids::Published { first, n } => (first, n),
                // Another thread expands it: play out from here.
                Kids::Expanding => break,
                Kids::Leaf => {
                    let room = arena.len() + scratch.empty_points().len() < cfg.max_nodes;
                    if !(arena.get(node).visits() >= cfg.expand_after
                        && room
                        && arena.try_claim(node))
                    {
                        break;
                    }
                    children_of(
                        &mut self.kids,
                        &mut self.ladders,
                        scratch,
                        to_move,
                        None,
                        cfg,
                    );
                    let depth = self.path.len() as u32 - 1;
                    if depth < ctx.filter_depth {
                        for ch in &mut self.kids {
                            if ctx.filter.forbids(depth + 1, to_move, self::to_move(ch.mv)) {
                                ch.allowed = false;
                            }
                        }
                    }
                    match arena.attach(node, &self.kids) {
                        Some(first) => (first, self.kids.len() as u16),
                        None => break,
                    }
                }
            };
            if n == 0 {
                break;
            }
            // Every child forbidden (avoid / allow): the simulation plays out from here.
            let Some(child) = select(ctx, node, first, n) else {
                break;
            };
            arena.get(node).add_visit(ctx.shared);
            let mv = arena.get(child).mv();
            if mv == PASS {
                scratch.pass();
                passes += 1;
            } else {
                scratch.play_unhashed(mv as usize, to_move as u8);
                if self.first_mover[mv as usize] == 0 {
                    self.first_mover[mv as usize] = to_move as u8;
                }
                passes = 0;
            }
            self.path.push(child);
            node = child;
            to_move = to_move.opponent();
            if passes >= 2 {
                break;
            }
        }
        arena.get(node).add_visit(ctx.shared);
        let margin = if passes >= 2 {
            area_margin(scratch) as f32 - ctx.komi
        } else {
            let mut trace = PlayoutTrace {
                first_mover: &mut self.first_mover,
            };
            let trace = Some(&mut trace);
            let rng = &mut self.rng;
            let (komi, ending) = (ctx.komi, ctx.ending);
            playout(scratch, to_move, komi, rng, trace, ending)
        };
        backup(arena, &self.path, &self.first_mover, margin);
        if let Some(crit) = ctx.crit {
            crit.record(scratch, margin);
        }
        if let Some(own) = self.owners.as_deref_mut() {
            add_owners(scratch, own);
        }
        self.sims += 1;
    }
}

/// Adds the result to every node on the path (their visits were counted on the way
/// down) and, as all-moves-as-first, to their children whose move the same colour played
/// first later in the simulation.
fn backup(arena: &Arena, path: &[u32], first_mover: &[u8], margin: f32) {
    let black_result = if margin > 0.0 {
        1.0
    } else if margin < 0.0 {
        0.0
    } else {
        0.5
    };
    let win_for = |color: u8| {
        if color == BLACK {
            black_result
        } else {
            1.0 - black_result
        }
    };
    for &i in path {
        let n = arena.get(i);
        let color = n.color();
        let black = color == BLACK;
        n.add_result(win_for(color), if black { margin } else { -margin });
        for ch in arena.child_nodes(i) {
            let (mv, color) = (ch.mv(), ch.color());
            if mv != PASS && first_mover[mv as usize] == color {
                ch.add_amaf(win_for(color));
            }
        }
    }
}

/// The allowed child among the `n` from `first` of `parent` with the best RAVE-blended value
/// (`None` when every child is forbidden). Visits of simulations still running elsewhere count
/// as losses (virtual loss).
fn select(ctx: &Ctx<'_>, parent: u32, first: u32, n: u16) -> Option<u32> {
    let arena = ctx.arena;
    let cfg = ctx.cfg;
    // In locals: the compiler does not keep fields behind a reference in registers across
    // the loop's atomic loads.
    let (prior_visits, rave_equiv, explore) = (cfg.prior_visits, cfg.rave_equiv, cfg.explore);
    let crit_bonus = cfg.crit_bonus;
    let (score_weight, score_scale) = (cfg.score_weight, ctx.score_scale);
    let p_visits = arena.get(parent).visits();
    // The parent's mean margin from the children's side (the parent's mover is the other).
    let centre = if p_visits > 0 {
        -arena.get(parent).score_sum() / p_visits as f32
    } else {
        0.0
    };
    let log_n = ((p_visits + 1) as f32).ln();
    let mut best = None;
    let mut best_v = f32::NEG_INFINITY;
    // Disallowed root children do not count against the width.
    let mut width = if ctx.widen {
        widened(cfg, n, p_visits)
    } else {
        n
    };
    for (i, ch) in (first..).zip(arena.block(first, n)) {
        if !ch.allowed() {
            continue;
        }
        if width == 0 {
            break;
        }
        width -= 1;
        let n = ch.visits() as f32 + prior_visits;
        let q = (ch.wins() + prior_visits * ch.prior_q()) / n;
        let an = ch.amaf_visits() as f32;
        let mut v = if an > 0.0 {
            let beta = an / (an + n + n * an / rave_equiv);
            (1.0 - beta) * q + beta * ch.amaf_wins() / an
        } else {
            q
        };
        v += explore * (log_n / n).sqrt();
        if score_weight > 0.0 {
            // The prior's virtual visits sit at the parent's margin, as an unvisited move's.
            let mean = (ch.score_sum() + prior_visits * centre) / n;
            v += score_weight * score_utility(mean, centre, score_scale);
        }
        if let Some(crit) = ctx.crit {
            v += crit_bonus * crit.of(ch.mv());
        }
        if v > best_v {
            best_v = v;
            best = Some(i);
        }
    }
    best
}

/// Fills `nodes` with the children of the position `board`, `color` to move, with their
/// priors ([`crate::eval::go::priors`]). At the root, `game` adds its law (superko) to the
/// board's physics.
fn children_of(
    nodes: &mut Vec<Node>,
    ladders: &mut LadderReader,
    board: &GoBoard,
    color: Color,
    game: Option<&GoGame>,
    cfg: &MctsConfig,
) {
    let weights = cfg.prior_weights();
    let reader = PriorReader::new(board, color, weights);
    let me = color as u8;
    nodes.clear();
    let first = 0;
    let mut top = i32::MIN;
    for &p in board.empty_points() {
        let pt = Point(p);
        if !board.is_legal(pt, color) || board.is_eye(p as usize, me) {
            continue;
        }
        if let Some(g) = game {
            if !g.is_legal(pt, color) {
                continue;
            }
        }
        let Some(raw) = reader.raw(ladders, p) else {
            continue;
        };
        if !raw.bad {
            top = top.max(raw.score);
        }
        nodes.push(Node {
            mv: p,
            color: me,
            allowed: true,
            // Scores ride in prior_q and bonuses in score_sum until every child is known;
            // self-ataris (and runs into a ladder) are flagged by prior_p < 0.
            prior_q: raw.score as f32,
            score_sum: raw.bonus,
            prior_p: if raw.bad { -1.0 } else { 0.0 },
            ..Node::default()
        });
    }
    // The learned gammas ride in `wins` (zero in a fresh node) until the priors are set.
    let learned = if cfg.gamma_priors > 0.0 {
        gammas::embedded()
    } else {
        None
    };
    let mut gamma_max = 0.0f32;
    if let Some(table) = learned {
        for n in &mut nodes[first..] {
            n.wins = table.strength(&features(
                board,
                ladders,
                n.mv as usize,
                me,
                table.spatial_dict(),
            ));
            gamma_max = gamma_max.max(n.wins);
        }
    }
    // A pass child: even odds, the weight of a good move.
    let pass = Node {
        mv: PASS,
        color: me,
        allowed: true,
        prior_q: 0.5,
        prior_p: 1.0,
        wins: gamma_max,
        ..Node::default()
    };
    if nodes.is_empty() {
        nodes.push(Node { wins: 0.0, ..pass });
    } else {
        let all_bad = top == i32::MIN;
        if all_bad {
            top = nodes[first..]
                .iter()
                .map(|n| n.prior_q as i32)
                .max()
                .unwrap_or(0);
        }
        let top = top as f32;
        let mut sum = 0.0;
        for n in &mut nodes[first..] {
            let gap = (n.prior_q - top).min(0.0);
            (n.prior_q, n.prior_p) = weights.prior_of(gap, n.score_sum, n.prior_p < 0.0);
            n.score_sum = 0.0;
            sum += n.prior_p;
        }
        if all_bad {
            // Every move left is a self-atari or a run into a ladder: in a seki, or with the
            // game over but for such moves, passing is often the only sound move, and the
            // playouts pass there too. Without a pass child the tree had to pick one of them
            // (and resigned a won seki: every move loses the group).
            sum += pass.prior_p;
            nodes.push(pass);
        }
        let gamma_sum: f32 = nodes[first..].iter().map(|n| n.wins).sum();
        let w = if gamma_sum > 0.0 {
            cfg.gamma_priors.min(1.0)
        } else {
            0.0
        };
        for n in &mut nodes[first..] {
            n.prior_p /= sum;
            if w > 0.0 {
                // The learned probability, and a winrate from the bad moves' up to the cap
                // that grows with the move's gamma relative to the best one's.
                let rel = (n.wins / gamma_max).sqrt();
                let q = weights.bad_q + (weights.cap_q - weights.bad_q) * rel;
                n.prior_q = (1.0 - w) * n.prior_q + w * q;
                n.prior_p = (1.0 - w) * n.prior_p + w * n.wins / gamma_sum;
            }
            n.wins = 0.0;
        }
        let kids = &mut nodes[first..];
        if widens(cfg, kids.len()) {
            // Progressive widening searches the children in the prior's order.
            kids.sort_unstable_by(|a, b| b.prior_p.total_cmp(&a.prior_p).then(a.mv.cmp(&b.mv)));
        }
    }
}

#[cfg(test)]
mod tests;
