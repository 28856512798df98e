//! Incremental line patterns for gomoku-family boards (k = 5): for every cell, every direction and
//! each colour, what a stone of that colour *would* make there along that line, kept up to date
//! on each play and undo. The search reads threats (five points, fours, open threes) and the
//! evaluation straight from this state instead of rescanning the board.
//!
//! Each cell keeps, per direction, a 20-bit key of its ten neighbours on the line (2 bits each:
//! empty, black, white, wall), five on each side:
//!
//! ```text
//!   slot:  0  1  2  3  4  [P]  5  6  7  8  9
//!   off : -5 -4 -3 -2 -1   0  +1 +2 +3 +4 +5
//! ```
//!
//! A precomputed table maps a key to the [`Pattern`] that a stone at `P` makes, for one colour
//! and one rule (exact five or not, caro or not). Patterns are defined recursively, counting only
//! fives that pass through `P`:
//! FIVE = makes a winning five; FLEX4 = two or more points then make a five (open four);
//! BLOCK4 = exactly one; FLEX3 = some point then makes a FLEX4; BLOCK3 = some point makes a BLOCK4;
//! and so on down to FLEX1 / BLOCK1. The four directions combine into a [`P4`] threat level.

use std::sync::OnceLock;

use crate::eval::gomoku::cellset::{CellSet, Cells};
use crate::eval::gomoku::learned::{unpack, PolicyTables, ValueTables};
use crate::rules::{Board, Cell, Color, Pos};

/// What a stone makes along one line.
pub type Pattern = u8;
pub const DEAD: Pattern = 0;
/// Exact-five rules: the stone would make six or more (no win; forbidden for renju black).
pub const OVERLINE: Pattern = 1;
pub const BLOCK1: Pattern = 2;
pub const FLEX1: Pattern = 3;
pub const BLOCK2: Pattern = 4;
pub const FLEX2: Pattern = 5;
pub const BLOCK3: Pattern = 6;
pub const FLEX3: Pattern = 7;
pub const BLOCK4: Pattern = 8;
pub const FLEX4: Pattern = 9;
pub const FIVE: Pattern = 10;
/// Number of pattern values.
pub const PATTERN_COUNT: usize = 11;

/// The combined threat a stone makes over its four lines.
pub type P4 = u8;
pub const P4_NONE: P4 = 0;
pub const P4_FLEX2: P4 = 1;
pub const P4_BLOCK3: P4 = 2;
/// Two of BLOCK3 / FLEX2 in different lines.
pub const P4_TWO_TWOS: P4 = 3;
pub const P4_FLEX3: P4 = 4;
/// An open three plus a BLOCK3 or FLEX2 elsewhere.
pub const P4_FLEX3_PLUS: P4 = 5;
/// Two open threes (3-3): wins unless answered by a four.
pub const P4_FLEX3_2X: P4 = 6;
pub const P4_BLOCK4: P4 = 7;
/// A four plus a BLOCK3 or FLEX2.
pub const P4_BLOCK4_PLUS: P4 = 8;
/// A four and an open three (4-3): wins unless the four's answer also defends.
pub const P4_BLOCK4_FLEX3: P4 = 9;
/// An open four, or two fours: wins next move.
pub const P4_FLEX4: P4 = 10;
/// Makes five now.
pub const P4_FIVE: P4 = 11;
/// Number of P4 values.
pub const P4_COUNT: usize = 12;
/// Flag bit in the combined table: some line is an overline (renju black may be forbidden).
const OVERLINE_FLAG: u8 = 0x80;
/// Flag bit in the combined table: the lines make two fours or two open threes with no five,
/// the shapes renju forbids black. Kept on black's level under renju only
/// ([`PatternBoard::new`]), where the evaluation counts such a point as nothing for black
/// ([`PatternBoard::eval_level`]): black cannot play it, and white need not take it. Every 3-3
/// shape is flagged, also the rare one the rules allow because a three is false (deciding that
/// needs the recursive test, too slow for every cell). The search still sees the level (its
/// moves ask the rules whether the point is forbidden).
const FORBID_FLAG: u8 = 0x40;
/// Both flag bits.
const FLAGS: u8 = OVERLINE_FLAG | FORBID_FLAG;

const KEY_BITS: u32 = 20;
const TABLE_LEN: usize = 1 << KEY_BITS;
const UNKNOWN: u8 = 0xFF;

/// The slot of neighbour offset `off` (-5..=-1, 1..=5).
#[inline]
const fn slot(off: isize) -> u32 {
    if off < 0 {
        (off + 5) as u32
    } else {
        (off + 4) as u32
    }
}

/// The five-slot halves of a key that can occur on a board: off the board every cell is a wall,
/// so walls only ever fill the far end of a half (3^0 + ... + 3^5 = 364 halves per side).
fn possible_halves(near_first: [u32; 5]) -> Vec<u32> {
    let mut halves = Vec::with_capacity(364);
    for on_board in 0..=5usize {
        for mut code in 0..3u32.pow(on_board as u32) {
            let mut key = 0u32;
            for (i, &slot) in near_first.iter().enumerate() {
                let value = if i < on_board {
                    let v = code % 3;
                    code /= 3;
                    v
                } else {
                    Cell::Wall as u32
                };
                key |= value << (2 * slot);
            }
            halves.push(key);
        }
    }
    halves
}

/// Builds the key -> pattern table for stones of cell value `own` under one rule flavour. Only
/// the keys of a board without blocked points are computed (about an eighth of the table); a
/// key with a wall inside the board (a blocked point, [`Board::block`]) reads as the key with
/// everything beyond that wall walled too, since no line passes a wall.
fn build_table(own: u8, exact: bool, caro: bool) -> Vec<u8> {
    let mut table = vec![UNKNOWN; TABLE_LEN];
    let left = possible_halves([4, 3, 2, 1, 0]);
    let right = possible_halves([5, 6, 7, 8, 9]);
    for &l in &left {
        for &r in &right {
            pattern_of(l | r, own, exact, caro, &mut table);
        }
    }
    for key in 0..TABLE_LEN as u32 {
        if table[key as usize] == UNKNOWN {
            let seen = table[walled_beyond(key) as usize];
            table[key as usize] = if seen == UNKNOWN { DEAD } else { seen };
        }
    }
    table
}

/// `key` with every slot beyond the nearest wall of each side made a wall too: the key an edge
/// at that distance gives, which [`possible_halves`] covers.
fn walled_beyond(key: u32) -> u32 {
    let wall = Cell::Wall as u32;
    let mut out = key;
    for half in [[4u32, 3, 2, 1, 0], [5, 6, 7, 8, 9]] {
        let mut walled = false;
        for slot in half {
            if walled {
                out |= wall << (2 * slot);
            } else if (key >> (2 * slot)) & 3 == wall {
                walled = true;
            }
        }
    }
    out
}

/// Builds the tables `rule` needs now, so the first search does not pay for them on its clock.
/// Each is built once per process and cached; after [`warm_up`] has run this is a lookup.
pub fn prepare(rule: crate::rules::Rule) {
    fused_table(rule);
    combine_table();
}

/// Starts (once per process) a background thread that builds every rule's tables.
///
/// Why: a table takes ~12 ms of CPU per colour (~25 ms for a rule, more under load), and the
/// commands that need one (`START`, `INFO rule`) arrive while the manager's clock for the first
/// move may already run: GomocupJudge sends START, the INFOs and BOARD without waiting, and
/// c-gomoku-cli sends `INFO rule` right before BEGIN. Built on the second core at start-up,
/// they are ready before the first game; a command that needs one still in progress simply
/// waits for it ([`OnceLock`]), never building it twice. All five rules take 10 MB, inside the
/// reserve the players keep for the engine besides their caches.
pub fn warm_up() {
    use crate::rules::Rule;
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let spawned = std::thread::Builder::new()
            .name("pattern-tables".into())
            .spawn(|| {
                for rule in Rule::ALL {
                    let t = std::time::Instant::now();
                    prepare(rule);
                    log::debug!(
                        "pattern tables for {} ready in {:?}",
                        rule.name(),
                        t.elapsed()
                    );
                }
            });
        if let Err(e) = spawned {
            log::warn!("no pattern warm-up thread ({e}); tables are built when first needed");
        }
    });
}

fn pattern_of(key: u32, own: u8, exact: bool, caro: bool, memo: &mut [u8]) -> u8 {
    let cached = memo[key as usize];
    if cached != UNKNOWN {
        return cached;
    }
    let opp = 3 - own;
    let mut line = [0u8; 11];
    for (i, cell) in line.iter_mut().enumerate() {
        *cell = match i {
            5 => own,
            _ => {
                let s = if i < 5 { i } else { i - 1 };
                ((key >> (2 * s)) & 3) as u8
            }
        };
    }
    let mut l = 5;
    while l > 0 && line[l - 1] == own {
        l -= 1;
    }
    let mut r = 5;
    while r < 10 && line[r + 1] == own {
        r += 1;
    }
    let len = r - l + 1;
    let result = if len >= 5 {
        if exact && len > 5 {
            OVERLINE
        } else {
            // Beyond the window the end is unknown; treat it as open (rare, only for long runs).
            let left = if l > 0 { line[l - 1] } else { 0 };
            let right = if r < 10 { line[r + 1] } else { 0 };
            if caro && left == opp && right == opp {
                DEAD
            } else {
                FIVE
            }
        }
    } else {
        let mut fives = 0;
        let mut best = DEAD;
        for (q, &cell) in line.iter().enumerate().take(10).skip(1) {
            if q == 5 || cell != 0 {
                continue;
            }
            let s = if q < 5 { q } else { q - 1 };
            let child = pattern_of(key | (own as u32) << (2 * s), own, exact, caro, memo);
            let lowered = match child {
                FIVE => {
                    fives += 1;
                    DEAD
                }
                FLEX4 => FLEX3,
                BLOCK4 => BLOCK3,
                FLEX3 => FLEX2,
                BLOCK3 => BLOCK2,
                FLEX2 => FLEX1,
                BLOCK2 => BLOCK1,
                _ => DEAD,
            };
            best = best.max(lowered);
        }
        match fives {
            0 => best,
            1 => BLOCK4,
            _ => FLEX4,
        }
    };
    memo[key as usize] = result;
    result
}

/// Both colours' patterns for every key as one byte (black in the low nibble, white in the high
/// one; see [`pair`]), under one rule: one memory access gives both, so a stone's update touches
/// each neighbour's entry once. Built once per process and rule flavour (exact five per colour,
/// caro) on first use; 1 MB each.
fn fused_table(rule: crate::rules::Rule) -> &'static [u8; TABLE_LEN] {
    static TABLES: [OnceLock<Box<[u8; TABLE_LEN]>>; 8] = [const { OnceLock::new() }; 8];
    let exact = [rule.exact_five(Color::Black), rule.exact_five(Color::White)];
    let i = exact[0] as usize * 4 + exact[1] as usize * 2 + rule.caro() as usize;
    TABLES[i].get_or_init(|| {
        // White's pattern at a key is black's at the key with the colours swapped, so a rule
        // needs one table build per distinct exact-five flavour, not one per colour: this
        // halves the build (it runs at start-up or, at worst, on the first move's clock).
        let own = Color::Black.cell() as u8;
        let black = build_table(own, exact[0], rule.caro());
        let other;
        let white = if exact[1] == exact[0] {
            &black
        } else {
            other = build_table(own, exact[1], rule.caro());
            &other
        };
        let fused: Vec<u8> = (0..TABLE_LEN as u32)
            .map(|key| pair(black[key as usize], white[swap_colours(key) as usize]))
            .collect();
        fused
            .into_boxed_slice()
            .try_into()
            .expect("one entry per key")
    })
}

/// The key with black and white exchanged in every 2-bit slot (empty and wall stay).
#[inline]
fn swap_colours(key: u32) -> u32 {
    const LOW: u32 = 0x5_5555;
    ((key & LOW) << 1) | ((key >> 1) & LOW)
}

/// The byte holding both colours' patterns of one line.
const fn pair(black: Pattern, white: Pattern) -> u8 {
    black | white << 4
}

/// Combines four line patterns into a threat level (with [`OVERLINE_FLAG`]).
fn combine(pats: [u8; 4]) -> u8 {
    let mut n = [0u8; PATTERN_COUNT];
    for p in pats {
        n[p as usize] += 1;
    }
    let overline = if n[OVERLINE as usize] > 0 && n[FIVE as usize] == 0 {
        OVERLINE_FLAG
    } else {
        0
    };
    let twos = n[BLOCK3 as usize] + n[FLEX2 as usize];
    let no_five = n[FIVE as usize] == 0;
    let fours = n[FLEX4 as usize] + n[BLOCK4 as usize];
    let forbidden_shape = if no_five && (fours >= 2 || n[FLEX3 as usize] >= 2) {
        FORBID_FLAG
    } else {
        0
    };
    let level = if n[FIVE as usize] > 0 {
        P4_FIVE
    } else if n[FLEX4 as usize] > 0 || n[BLOCK4 as usize] >= 2 {
        P4_FLEX4
    } else if n[BLOCK4 as usize] == 1 {
        if n[FLEX3 as usize] > 0 {
            P4_BLOCK4_FLEX3
        } else if twos > 0 {
            P4_BLOCK4_PLUS
        } else {
            P4_BLOCK4
        }
    } else if n[FLEX3 as usize] >= 2 {
        P4_FLEX3_2X
    } else if n[FLEX3 as usize] == 1 {
        if twos > 0 {
            P4_FLEX3_PLUS
        } else {
            P4_FLEX3
        }
    } else if twos >= 2 {
        P4_TWO_TWOS
    } else if n[BLOCK3 as usize] > 0 {
        P4_BLOCK3
    } else if n[FLEX2 as usize] > 0 {
        P4_FLEX2
    } else {
        P4_NONE
    };
    level | overline | forbidden_shape
}

/// Entries of the combined table: every 16-bit code, so that indexing it with half of a
/// [`CellState::code`] needs no bounds check (only the first 11^4 are ever used).
const COMBINED_LEN: usize = 1 << 16;

/// Threat level of each combination of four line patterns, indexed by
/// `sum(pattern[di] * DIR_WEIGHT[di])`.
fn combine_table() -> &'static [u8; COMBINED_LEN] {
    static T: OnceLock<Box<[u8; COMBINED_LEN]>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new([0u8; COMBINED_LEN]);
        for (i, entry) in t.iter_mut().enumerate().take(PATTERN_COUNT.pow(4)) {
            let pats = [
                (i / 1331) as u8,
                (i / 121 % 11) as u8,
                (i / 11 % 11) as u8,
                (i % 11) as u8,
            ];
            *entry = combine(pats);
        }
        t
    })
}

/// Evaluation weight of each line pattern at an empty cell (what the point is worth to the
/// colour that could play there).
pub const PATTERN_VALUE: [i32; PATTERN_COUNT] = [0, 0, 1, 3, 4, 12, 14, 48, 52, 140, 400];

/// What having the move is worth to the static evaluation, in [`PATTERN_VALUE`] units: the
/// value that made the root scores of odd and even depths agree best on the bench positions
/// (mean swing between consecutive depths 1-10: 96 with the old weighting, 40 with this; 0,
/// 100, 150 and 350 gave 133, 98, 81 and 64).
const TEMPO: i32 = 250;

/// Evaluation bonus for a 4-3 point the mover can use at once.
const THREAT_FOUR_THREE: i32 = 1500;
/// Evaluation bonus for a 3-3 point the mover can use at once.
const THREAT_THREE_THREE: i32 = 700;
/// Evaluation penalty when the opponent holds a 4-3 or 3-3 point.
const THREAT_PENDING: i32 = 250;

/// Threat levels a [`PatternBoard::threat_mask`] records per side: [`P4_FLEX3`] to
/// [`P4_FLEX4`].
pub const THREAT_BITS: usize = (P4_FLEX4 - P4_FLEX3 + 1) as usize;
/// Threat masks: both sides' [`THREAT_BITS`].
pub const THREAT_MASKS: usize = 1 << (2 * THREAT_BITS);

/// What the hand-set evaluation adds to the line sum for a [`PatternBoard::threat_mask`]: the
/// [`TEMPO`], and the double threats either side holds: a 4-3 point for the mover wins unless
/// the opponent can interrupt with fours, and a 3-3 point also needs the opponent to hold no
/// open three (it would make an open four in reply, which a three cannot answer); the
/// opponent's double threats must be answered now, which costs the mover its tempo.
pub fn hand_threat(mask: usize) -> i32 {
    let mine = |l: P4| mask >> (l - P4_FLEX3) & 1 != 0;
    let theirs = |l: P4| mask >> (THREAT_BITS + (l - P4_FLEX3) as usize) & 1 != 0;
    let mut score = TEMPO;
    if !(theirs(P4_BLOCK4) || theirs(P4_BLOCK4_PLUS) || theirs(P4_BLOCK4_FLEX3)) {
        if mine(P4_BLOCK4_FLEX3) {
            score += THREAT_FOUR_THREE;
        } else if mine(P4_FLEX3_2X) && !theirs(P4_FLEX4) {
            score += THREAT_THREE_THREE;
        }
    }
    if theirs(P4_BLOCK4_FLEX3) || theirs(P4_FLEX3_2X) {
        score -= THREAT_PENDING;
    }
    score
}

/// Cells within this Chebyshev distance of a stone are move candidates.
pub const NEAR_RADIUS: isize = 2;
/// Cells within [`NEAR_RADIUS`] of a point, the point itself left out.
const NEAR_CELLS: usize = ((2 * NEAR_RADIUS + 1) * (2 * NEAR_RADIUS + 1) - 1) as usize;

/// Weight of each direction's pattern in a [`combine_table`] index.
const DIR_WEIGHT: [u32; 4] = [1331, 121, 11, 1];

/// The pattern of colour index `c` in a [`pair`] byte.
#[inline]
fn of(pair: u8, c: usize) -> Pattern {
    (pair >> (4 * c)) & 15
}

/// Values per colour packed in one integer: black in the low half, white in the high half (or
/// 16-bit quarters, as below). Every part stays non-negative and below its field's limit, so
/// adding and subtracting whole words (wrapping) is exact.
///
/// `CODE_VALUE[di][pair]`: what a line's two patterns add to a cell's [`CellState::code_value`]:
/// its black and white [`combine_table`] indices (bits 0..16 and 16..32; at most 14640 each)
/// and its black and white [`PATTERN_VALUE`] sums (bits 32..48 and 48..64; at most 1600 each).
const CODE_VALUE: [[u64; 256]; 4] = {
    let mut t = [[0u64; 256]; 4];
    let mut di = 0;
    while di < 4 {
        let mut p = 0;
        while p < 256 {
            let (b, w) = ((p & 15) as u64, (p >> 4) as u64);
            let weight = DIR_WEIGHT[di] as u64;
            let value = pattern_value(p & 15) as u64 | (pattern_value(p >> 4) as u64) << 16;
            t[di][p] = (b * weight) | ((w * weight) << 16) | (value << 32);
            p += 1;
        }
        di += 1;
    }
    t
};

/// A line's two [`PATTERN_VALUE`]s in 32-bit halves, for the board-wide sums.
const VALUE_WIDE: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut p = 0;
    while p < 256 {
        t[p] = pattern_value(p & 15) as u64 + ((pattern_value(p >> 4) as u64) << 32);
        p += 1;
    }
    t
};

const fn pattern_value(p: usize) -> u32 {
    if p < PATTERN_COUNT {
        PATTERN_VALUE[p] as u32
    } else {
        0
    }
}

/// A cell's two value sums (the top half of [`CellState::code_value`]) in [`VALUE_WIDE`]'s
/// layout.
#[inline]
fn widen(code_value: u64) -> u64 {
    (code_value >> 32 & 0xFFFF) | (code_value >> 48) << 32
}

/// Both colours' threat levels (black in the low byte) from a cell's code, with the flag bits
/// `keep` lets through ([`PatternBoard::flags_kept`]).
#[inline]
fn levels_of(code_value: u64, combined: &[u8; COMBINED_LEN], keep: u16) -> u16 {
    let black = combined[(code_value & 0xFFFF) as usize];
    let white = combined[(code_value >> 16 & 0xFFFF) as usize];
    (black as u16 | (white as u16) << 8) & keep
}

/// Threat levels a [`PatternBoard`] keeps point sets for (the [`P4`] values, padded).
const LEVELS: usize = 16;

/// Per-cell incremental state, kept together (half a cache line) for locality.
#[derive(Clone, Copy, Default)]
#[repr(align(32))]
struct CellState {
    keys: [u32; 4],
    /// [`combine_table`] indices and pattern-value sums of both colours, packed as in
    /// [`CODE_VALUE`].
    code_value: u64,
    /// Both colours' patterns per direction ([`pair`] bytes).
    pat: [u8; 4],
    /// Both colours' threat levels, black in the low byte (with [`OVERLINE_FLAG`] and, black
    /// under renju, [`FORBID_FLAG`]).
    p4: u16,
    near: u8,
    /// On the board and empty: only these cells' patterns are kept up to date.
    empty: bool,
}

impl CellState {
    /// Sets every pattern from the keys and recomputes codes, values and threat levels.
    #[inline]
    fn refresh(&mut self, table: &[u8; TABLE_LEN], combined: &[u8; COMBINED_LEN], keep: u16) {
        let mut code_value = 0;
        for di in 0..4 {
            let pat = table[self.keys[di] as usize & (TABLE_LEN - 1)];
            self.pat[di] = pat;
            code_value += CODE_VALUE[di][pat as usize];
        }
        self.code_value = code_value;
        self.p4 = levels_of(code_value, combined, keep);
    }

    /// The threat level of colour index `c`, with its flag bits ([`OVERLINE_FLAG`],
    /// [`FORBID_FLAG`]).
    #[inline]
    fn p4_of(&self, c: usize) -> u8 {
        (self.p4 >> (8 * c)) as u8
    }
}

/// A board plus incremental line patterns, threat counts, point sets and evaluation.
#[derive(Clone)]
pub struct PatternBoard {
    board: Board,
    cells: Vec<CellState>,
    dirs: [isize; 4],
    near_offsets: [isize; NEAR_CELLS],
    table: &'static [u8; TABLE_LEN],
    combined: &'static [u8; COMBINED_LEN],
    /// Sum of PATTERN_VALUE over empty cells and directions, per colour (pair as in
    /// [`VALUE_WIDE`]).
    sum: u64,
    /// Empty cells at each P4 level from [`TRACKED`] up, per colour.
    p4_count: [[u16; LEVELS]; 2],
    /// Of the counted cells, those with [`FORBID_FLAG`], per colour and level (only black's,
    /// under renju, ever have it).
    forbid_count: [[u16; LEVELS]; 2],
    /// The flag bits a cell's [`CellState::p4`] keeps: [`FORBID_FLAG`] on black's level
    /// only under renju.
    flags_kept: u16,
    /// The empty cells at each P4 level from [`TRACKED`] up, per colour.
    at_level: [[CellSet; LEVELS]; 2],
    /// The empty cells within [`NEAR_RADIUS`] of a stone.
    candidates: CellSet,
    /// Words of a [`CellSet`] this board's array uses.
    words: usize,
    /// Five steps along the longest direction: how far a line update reaches in the array.
    reach: usize,
    /// Learned value tables replacing the hand-set line sum (`None`: the hand evaluation).
    learned: Option<&'static ValueTables>,
    /// Per colour, the sum over empty cells of the learned table entries (see [`unpack`]).
    lsum: [i64; 2],
    /// The sum over empty cells of the learned joint table entries (see [`unpack`]: the value
    /// with black to move, with white to move).
    jsum: i64,
    /// Learned move policy for ordering (`None`: the search orders by the hand values).
    policy: Option<&'static PolicyTables>,
}

impl PatternBoard {
    /// Builds the pattern state for `board` (k must be 5).
    pub fn new(board: &Board) -> PatternBoard {
        let table = fused_table(board.rule());
        let stride = board.stride() as isize;
        let mut near_offsets = [0; NEAR_CELLS];
        let mut n = 0;
        for dy in -NEAR_RADIUS..=NEAR_RADIUS {
            for dx in -NEAR_RADIUS..=NEAR_RADIUS {
                if dx != 0 || dy != 0 {
                    near_offsets[n] = dy * stride + dx;
                    n += 1;
                }
            }
        }
        let mut pb = PatternBoard {
            board: board.clone(),
            cells: vec![CellState::default(); board.array_len()],
            dirs: board.dirs(),
            near_offsets,
            table,
            combined: combine_table(),
            sum: 0,
            p4_count: [[0; LEVELS]; 2],
            forbid_count: [[0; LEVELS]; 2],
            flags_kept: if board.rule().renju() {
                !((FORBID_FLAG as u16) << 8)
            } else {
                !(FORBID_FLAG as u16 | (FORBID_FLAG as u16) << 8)
            },
            at_level: [[CellSet::default(); LEVELS]; 2],
            candidates: CellSet::default(),
            words: board.array_len().div_ceil(64),
            reach: 5 * board.dirs().into_iter().max().unwrap_or(0) as usize,
            learned: None,
            lsum: [0; 2],
            jsum: 0,
            policy: None,
        };
        pb.rebuild();
        pb
    }

    /// Recomputes every key, pattern, count, set and sum from the stones (set-up and
    /// validation).
    fn rebuild(&mut self) {
        let len = self.cells.len() as isize;
        for c in self.cells.iter_mut() {
            *c = CellState::default();
        }
        self.sum = 0;
        self.lsum = [0; 2];
        self.jsum = 0;
        self.p4_count = [[0; LEVELS]; 2];
        self.forbid_count = [[0; LEVELS]; 2];
        self.at_level = [[CellSet::default(); LEVELS]; 2];
        self.candidates = CellSet::default();
        let points: Vec<Pos> = self.board.points().collect();
        for &p in &points {
            for (di, &d) in self.dirs.iter().enumerate() {
                let mut key = 0u32;
                for off in (-5isize..=5).filter(|&o| o != 0) {
                    let q = p.idx() as isize + off * d;
                    let v = if q < 0 || q >= len {
                        Cell::Wall as u32
                    } else {
                        self.board.cell(Pos(q as u16)) as u32
                    };
                    key |= v << (2 * slot(off));
                }
                self.cells[p.idx()].keys[di] = key;
            }
            if !self.board.is_empty(p) {
                for &o in &self.near_offsets {
                    let q = (p.idx() as isize + o) as usize;
                    if q < self.cells.len() {
                        self.cells[q].near += 1;
                    }
                }
            }
        }
        for &p in &points {
            self.cells[p.idx()].refresh(self.table, self.combined, self.flags_kept);
            if self.board.is_empty(p) {
                self.add_cell(p);
            }
        }
    }

    /// Counts an empty cell's patterns into the sums, threat counts and point sets.
    #[inline]
    fn add_cell(&mut self, p: Pos) {
        let i = p.idx();
        let st = &mut self.cells[i];
        st.empty = true;
        self.sum = self.sum.wrapping_add(widen(st.code_value));
        if let Some(t) = self.learned {
            learned_add::<true>(&mut self.lsum, t, st.code_value);
            self.jsum = self.jsum.wrapping_add(t.joint[joint_index(st.p4)]);
        }
        for c in 0..2 {
            let level = st.p4_of(c) as usize & (LEVELS - 1);
            if tracked(level) {
                self.p4_count[c][level] += 1;
                self.at_level[c][level].insert(i);
            }
            if st.p4_of(c) & FORBID_FLAG != 0 {
                self.forbid_count[c][level] += 1;
            }
        }
        if st.near > 0 {
            self.candidates.insert(i);
        }
    }

    /// Takes a cell that is about to be occupied out of the sums, counts and sets.
    #[inline]
    fn remove_cell(&mut self, p: Pos) {
        let i = p.idx();
        let st = &mut self.cells[i];
        st.empty = false;
        self.sum = self.sum.wrapping_sub(widen(st.code_value));
        if let Some(t) = self.learned {
            learned_add::<false>(&mut self.lsum, t, st.code_value);
            self.jsum = self.jsum.wrapping_sub(t.joint[joint_index(st.p4)]);
        }
        for c in 0..2 {
            let level = st.p4_of(c) as usize & (LEVELS - 1);
            if tracked(level) {
                self.p4_count[c][level] -= 1;
                self.at_level[c][level].remove(i);
            }
            if st.p4_of(c) & FORBID_FLAG != 0 {
                self.forbid_count[c][level] -= 1;
            }
        }
        self.candidates.remove(i);
    }

    /// The underlying rules board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// Mutable access for hypothetical analysis (renju recursion); the caller restores it.
    #[inline]
    pub fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }
    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.board.to_move()
    }
    /// Hash of the position.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.board.hash()
    }

    /// Hands the move to `c` without placing a stone (a null move, for asking what the other
    /// side threatens). Undoing stones played afterwards restores their owners as the side to
    /// move, so the caller sets the side back when done.
    #[inline]
    pub fn set_to_move(&mut self, c: Color) {
        self.board.set_to_move(c);
    }

    /// Plays `p` for the side to move (no legality test).
    #[inline]
    pub fn play(&mut self, p: Pos) {
        let c = self.board.to_move();
        let wins = self.p4(c, p) == P4_FIVE;
        self.remove_cell(p);
        self.board.play_trusted(p, wins);
        self.update_lines::<true>(p, c as u32);
        let base = p.idx() as isize;
        for &o in &self.near_offsets {
            let q = (base + o) as usize;
            let st = &mut self.cells[q];
            st.near += 1;
            if st.near == 1 && st.empty {
                self.candidates.insert(q);
            }
        }
    }

    /// Takes back the last move.
    #[inline]
    pub fn undo(&mut self) {
        let Some(&(p, c)) = self.board.history().last() else {
            return;
        };
        self.board.undo();
        self.update_lines::<false>(p, c as u32);
        let base = p.idx() as isize;
        for &o in &self.near_offsets {
            let q = (base + o) as usize;
            let st = &mut self.cells[q];
            st.near -= 1;
            if st.near == 0 {
                self.candidates.remove(q);
            }
        }
        self.cells[p.idx()].refresh(self.table, self.combined, self.flags_kept);
        self.add_cell(p);
    }

    /// Sets (`SET`) or clears the stone bits of `p` in the keys of the cells on its four lines
    /// and refreshes the empty ones' patterns, sums, counts and sets. Nothing reads a wall's
    /// keys, and an occupied cell is refreshed when it empties again (undo).
    #[inline]
    fn update_lines<const SET: bool>(&mut self, p: Pos, stone: u32) {
        let base = p.idx();
        let table = self.table;
        let combined = self.combined;
        let cells = &mut self.cells[..];
        // The padding keeps every cell five steps from a board point inside the array (checked
        // once here rather than at each of the forty cells).
        assert!(base >= self.reach && base + self.reach < cells.len());
        let counts = &mut self.p4_count;
        let forbid = &mut self.forbid_count;
        let at_level = &mut self.at_level;
        let keep = self.flags_kept;
        let mut sum = self.sum;
        let learned = self.learned;
        let mut lsum = self.lsum;
        let mut jsum = self.jsum;
        for di in 0..4 {
            let d = self.dirs[di] as usize;
            let code_value = &CODE_VALUE[di];
            // One neighbour at `steps` (-5..=5, not 0) along the line; unrolled below so the
            // offsets and key shifts are constants.
            macro_rules! neighbour {
                ($steps:expr) => {{
                    const STEPS: isize = $steps;
                    let at = base.wrapping_add(d.wrapping_mul(STEPS as usize));
                    debug_assert!(at < cells.len());
                    // SAFETY: `at` is within five steps of `base` along one of `dirs`, which
                    // the assert above keeps inside `cells`.
                    let st = unsafe { cells.get_unchecked_mut(at) };
                    // The stone sits at offset -steps as seen from `at`.
                    const SHIFT: u32 = 2 * slot(-STEPS);
                    if SET {
                        st.keys[di] |= stone << SHIFT;
                    } else {
                        st.keys[di] &= !(3 << SHIFT);
                    }
                    if st.empty {
                        let new = table[st.keys[di] as usize & (TABLE_LEN - 1)] as usize;
                        let old = st.pat[di] as usize;
                        if new != old {
                            st.pat[di] = new as u8;
                            if let Some(t) = learned {
                                learned_add::<false>(&mut lsum, t, st.code_value);
                                let next = st
                                    .code_value
                                    .wrapping_add(code_value[new].wrapping_sub(code_value[old]));
                                learned_add::<true>(&mut lsum, t, next);
                            }
                            st.code_value = st
                                .code_value
                                .wrapping_add(code_value[new].wrapping_sub(code_value[old]));
                            sum = sum.wrapping_add(VALUE_WIDE[new].wrapping_sub(VALUE_WIDE[old]));
                            let new4 = levels_of(st.code_value, combined, keep);
                            if new4 != st.p4 {
                                if let Some(t) = learned {
                                    jsum = jsum.wrapping_add(
                                        t.joint[joint_index(new4)]
                                            .wrapping_sub(t.joint[joint_index(st.p4)]),
                                    );
                                }
                                if any_tracked(new4, st.p4) {
                                    relevel(counts, forbid, at_level, at, st.p4, new4);
                                }
                                st.p4 = new4;
                            }
                        }
                    }
                }};
            }
            neighbour!(-5);
            neighbour!(-4);
            neighbour!(-3);
            neighbour!(-2);
            neighbour!(-1);
            neighbour!(1);
            neighbour!(2);
            neighbour!(3);
            neighbour!(4);
            neighbour!(5);
        }
        self.sum = sum;
        self.lsum = lsum;
        self.jsum = jsum;
    }

    /// The threat level a stone of `c` would make at `p`.
    #[inline]
    pub fn p4(&self, c: Color, p: Pos) -> P4 {
        self.cells[p.idx()].p4_of(c.index()) & !FLAGS
    }
    /// The threat level of `p` for `c` as the evaluation reads it: none where renju forbids
    /// black the shape (see [`FORBID_FLAG`]), else [`PatternBoard::p4`].
    #[inline]
    pub fn eval_level(&self, c: Color, p: Pos) -> P4 {
        eval_level_of(self.cells[p.idx()].p4_of(c.index()))
    }
    /// Whether some line through `p` would be an overline for `c` (exact-five rules).
    #[inline]
    pub fn overline_at(&self, c: Color, p: Pos) -> bool {
        self.cells[p.idx()].p4_of(c.index()) & OVERLINE_FLAG != 0
    }
    /// The pattern a stone of `c` would make at `p` along direction index `di`.
    #[inline]
    pub fn pattern(&self, c: Color, p: Pos, di: usize) -> Pattern {
        of(self.cells[p.idx()].pat[di], c.index())
    }
    /// The four line patterns of `c` at `p`.
    #[inline]
    pub fn patterns(&self, c: Color, p: Pos) -> [Pattern; 4] {
        let pat = &self.cells[p.idx()].pat;
        let c = c.index();
        [of(pat[0], c), of(pat[1], c), of(pat[2], c), of(pat[3], c)]
    }
    /// Empty cells where `c` reaches threat level `level` ([`TRACKED`] or higher).
    #[inline]
    pub fn count(&self, c: Color, level: P4) -> u16 {
        debug_assert!(level >= TRACKED, "level {level} is not counted");
        self.p4_count[c.index()][level as usize]
    }
    /// The first empty cell (in row-by-row order) at or after `from` where `c` reaches threat
    /// `level` ([`TRACKED`] or higher). The set is read live, so a caller may play and undo
    /// between calls.
    #[inline]
    pub fn next_at(&self, c: Color, level: P4, from: Pos) -> Option<Pos> {
        debug_assert!(level >= TRACKED, "level {level} is not listed");
        self.at_level[c.index()][level as usize & (LEVELS - 1)].next_from(from.idx(), self.words)
    }
    /// The empty cells, row by row, where `c` reaches any of the threat levels in `levels`
    /// (bit `l` selects level `l`, as [`levels`] builds; [`TRACKED`] or higher).
    #[inline]
    pub fn cells_at(&self, c: Color, levels: u32) -> Cells<'_> {
        debug_assert!(
            levels & ((1 << TRACKED) - 1) == 0,
            "untracked levels asked for"
        );
        Cells::new(&self.at_level[c.index()], levels, self.words)
    }
    /// The empty cells within [`NEAR_RADIUS`] of a stone, row by row.
    #[inline]
    pub fn candidates(&self) -> Cells<'_> {
        Cells::new(std::slice::from_ref(&self.candidates), 1, self.words)
    }
    /// Whether `p` is within [`NEAR_RADIUS`] of some stone.
    #[inline]
    pub fn is_near(&self, p: Pos) -> bool {
        self.cells[p.idx()].near > 0
    }
    /// Line-pattern weight of `p` for `c` (sum over the four directions).
    #[inline]
    pub fn cell_value(&self, c: Color, p: Pos) -> i32 {
        (self.cells[p.idx()].code_value >> (32 + 16 * c.index()) & 0xFFFF) as i32
    }
    /// Sum of the line-pattern weights of every empty cell for `c`.
    #[inline]
    fn sum(&self, c: usize) -> i32 {
        (self.sum >> (32 * c)) as u32 as i32
    }
    /// Static evaluation for the side to move.
    ///
    /// Hand-set: both sides' line-pattern sums counted alike, plus [`hand_threat`] of the
    /// threats on the board (a fixed [`TEMPO`] for having the move and the double threats
    /// either side holds). Why a fixed tempo: weighting the mover's potential up (the old
    /// `(6 * mine - 5 * theirs) / 8`) made the bonus for having the move grow with the stones
    /// on the board, so root scores swung by hundreds between odd and even depths (whose
    /// leaves have the other side to move); a constant near the value of one move keeps them
    /// together.
    ///
    /// Learned (see `eval::gomoku::learned`): the learned cell and joint tables replace the line sums,
    /// and the learned threat table the tempo and the hand threat terms.
    #[inline]
    pub fn evaluate(&self) -> i32 {
        let me = self.board.to_move().index();
        let op = 1 - me;
        let mask = self.threat_mask();
        let Some(t) = self.learned else {
            return self.sum(me) - self.sum(op) + hand_threat(mask);
        };
        // The learned tables replace the line sum, and the learned threat table the tempo and
        // the hand threat terms.
        let joint = unpack(self.jsum);
        let joint = if me == 0 { joint.0 } else { joint.1 };
        unpack(self.lsum[me]).0 + unpack(self.lsum[op]).1 + joint + t.threat[me][mask]
    }

    /// Which threat levels from [`P4_FLEX3`] to [`P4_FLEX4`] each side has somewhere on the
    /// board, as a [`THREAT_MASKS`] index: bit `l - P4_FLEX3` for the side to move, bit
    /// `THREAT_BITS + l - P4_FLEX3` for the other side. What the static value adds beyond
    /// the cells' sum is a function of this (see [`hand_threat`]), learned or hand-set.
    #[inline]
    pub fn threat_mask(&self) -> usize {
        let me = self.board.to_move().index();
        // Black's shapes that renju forbids are no threat (see [`FORBID_FLAG`]).
        let bits = |c: usize| -> usize {
            let range = P4_FLEX3 as usize..=P4_FLEX4 as usize;
            let counts = &self.p4_count[c][range.clone()];
            let forbidden = &self.forbid_count[c][range];
            counts
                .iter()
                .zip(forbidden)
                .enumerate()
                .fold(0, |m, (i, (&n, &f))| m | (usize::from(n > f) << i))
        };
        bits(me) | bits(1 - me) << THREAT_BITS
    }

    /// Uses learned value tables (see `eval::gomoku::learned`) instead of the hand-set line sum in
    /// [`PatternBoard::evaluate`], or (`None`) the hand evaluation again.
    pub fn set_learned(&mut self, tables: Option<&'static ValueTables>) {
        self.learned = tables;
        self.rebuild();
    }

    /// Uses a learned move policy (see `eval::gomoku::learned`) for [`PatternBoard::policy_score`], or
    /// (`None`) none.
    pub fn set_policy(&mut self, tables: Option<&'static PolicyTables>) {
        self.policy = tables;
    }

    /// Whether a learned move policy is set.
    #[inline]
    pub fn has_policy(&self) -> bool {
        self.policy.is_some()
    }

    /// The learned policy score of the empty point `p` for the side to move (logits x 100; 0
    /// without a policy): what the mover's and the other side's line patterns there say about
    /// playing it.
    #[inline]
    pub fn policy_score(&self, p: Pos) -> i32 {
        let Some(t) = self.policy else {
            return 0;
        };
        let me = self.board.to_move().index();
        let code = self.cells[p.idx()].code_value;
        t.score(
            me,
            (code >> (16 * me)) as usize,
            (code >> (16 * (1 - me))) as usize,
        )
    }

    /// The raw learned-table code of `p` for `c`: its four line patterns as base-11 digits,
    /// one per direction (see `eval::gomoku::learned::canonical`).
    #[inline]
    pub fn code(&self, c: Color, p: Pos) -> usize {
        (self.cells[p.idx()].code_value >> (16 * c.index()) & 0xFFFF) as usize
    }

    /// Debug check: the incremental state equals a rebuild from scratch.
    pub fn validate(&self) {
        let mut fresh = self.clone();
        fresh.rebuild();
        assert_eq!(fresh.sum, self.sum, "pattern sums drifted");
        assert_eq!(fresh.lsum, self.lsum, "learned sums drifted");
        assert_eq!(fresh.jsum, self.jsum, "learned joint sums drifted");
        assert_eq!(fresh.p4_count, self.p4_count, "threat counts drifted");
        assert_eq!(
            fresh.forbid_count, self.forbid_count,
            "forbidden counts drifted"
        );
        assert!(fresh.at_level == self.at_level, "threat point sets drifted");
        assert_eq!(fresh.candidates, self.candidates, "candidate set drifted");
        for p in self.board.points() {
            let a = &fresh.cells[p.idx()];
            let b = &self.cells[p.idx()];
            assert_eq!(a.keys, b.keys, "keys drifted at {:?}", self.board.xy(p));
            assert_eq!(a.near, b.near);
            assert_eq!(a.empty, b.empty);
            if self.board.is_empty(p) {
                assert_eq!(a.pat, b.pat, "patterns drifted at {:?}", self.board.xy(p));
                assert_eq!(a.code_value, b.code_value);
                assert_eq!(a.p4, b.p4);
            }
        }
    }
}

/// Adds (`ADD`) or takes away one empty cell's learned table entries, both colours, given its
/// packed code as in [`CellState::code_value`].
#[inline]
fn learned_add<const ADD: bool>(lsum: &mut [i64; 2], t: &ValueTables, code_value: u64) {
    for (c, sum) in lsum.iter_mut().enumerate() {
        let v = t.packed[c][(code_value >> (16 * c)) as usize & 0xFFFF];
        *sum = if ADD {
            sum.wrapping_add(v)
        } else {
            sum.wrapping_sub(v)
        };
    }
}

/// A cell's index into the learned joint table (`ValueTables::joint`): black's threat level
/// plus 16 times white's, from its [`CellState::p4`] (overline flags dropped; a black shape
/// renju forbids counts as level 0, as [`PatternBoard::eval_level`] says).
#[inline]
fn joint_index(p4: u16) -> usize {
    let [black, white] = p4.to_le_bytes().map(eval_level_of);
    (black | white << 4) as usize
}

/// One colour's threat level from its [`CellState::p4`] byte as the evaluation reads it: the
/// flags dropped, and a shape renju forbids black (see [`FORBID_FLAG`]) level 0.
#[inline]
fn eval_level_of(level: u8) -> P4 {
    if level & FORBID_FLAG != 0 {
        P4_NONE
    } else {
        level & !FLAGS
    }
}

/// Moves cell `at` between the threat counts and point sets when its levels (both colours, as
/// in [`CellState::p4`]) change from `old` to `new`, and keeps the [`FORBID_FLAG`] counts.
/// Only [`TRACKED`] levels are kept (a flagged level always is one).
#[inline]
fn relevel(
    counts: &mut [[u16; LEVELS]; 2],
    forbid: &mut [[u16; LEVELS]; 2],
    at_level: &mut [[CellSet; LEVELS]; 2],
    at: usize,
    old: u16,
    new: u16,
) {
    for c in 0..2 {
        let (ob, nb) = ((old >> (8 * c)) as u8, (new >> (8 * c)) as u8);
        let o = ob as usize & (LEVELS - 1);
        let n = nb as usize & (LEVELS - 1);
        if o != n {
            if tracked(o) {
                counts[c][o] -= 1;
                at_level[c][o].remove(at);
            }
            if tracked(n) {
                counts[c][n] += 1;
                at_level[c][n].insert(at);
            }
        }
        let (of, nf) = (ob & FORBID_FLAG != 0, nb & FORBID_FLAG != 0);
        if (o, of) != (n, nf) {
            if of {
                forbid[c][o] -= 1;
            }
            if nf {
                forbid[c][n] += 1;
            }
        }
    }
}

/// The lowest threat level whose cells are counted and listed: nothing asks about weaker
/// ones, and most pattern changes only move a cell between them, which then costs nothing.
pub const TRACKED: P4 = P4_FLEX3;

/// Whether a level (flag bits cleared) is counted and listed. The tracked levels 4..=11 are
/// exactly those with bit 2 or 3 set.
#[inline]
const fn tracked(level: usize) -> bool {
    level & 0b1100 != 0
}

/// Whether either colour's level is tracked in one of two [`CellState::p4`] words.
#[inline]
fn any_tracked(a: u16, b: u16) -> bool {
    (a | b) & 0x0C0C != 0
}

/// The bit set of threat levels for [`PatternBoard::cells_at`].
pub const fn levels(list: &[P4]) -> u32 {
    let mut mask = 0;
    let mut i = 0;
    while i < list.len() {
        mask |= 1 << list[i];
        i += 1;
    }
    mask
}

/// Every four that is not yet open: [`P4_BLOCK4`], [`P4_BLOCK4_PLUS`], [`P4_BLOCK4_FLEX3`].
pub const FOURS: u32 = levels(&[P4_BLOCK4, P4_BLOCK4_PLUS, P4_BLOCK4_FLEX3]);

#[cfg(test)]
mod tests;
