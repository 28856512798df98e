//! The games sente plays, by name, and what each game's position offers beyond [`Position`] to
//! the code that runs any game: where a game starts ([`Setup`]), how the game-independent
//! [`Mv`] of the referee and the Gomocup protocol becomes its move and back, how a move is
//! named in its protocol, how a finished game is counted.
//!
//! [`games!`] below is the one registration of a game: one line giving its name (aliases, the
//! manifest's spelling) and its position type. It makes [`GameName`] and [`with_game`], which
//! hands the position type of a name to code generic over [`GamePosition`] (the arena's referee
//! and engines, `sente match`). The line cannot be dropped: a name read from a manifest or the
//! command line is a value known only at run time, and the position is a type, which Rust picks
//! at compile time; nothing in the language lists the types that implement a trait, so some
//! line must pair each name with its type.

use crate::rules::go::{score_detail, GoGame, GoMove, GoRules, KoRule, Scoring};
use crate::rules::notation::{gtp_vertex, Mv};
use crate::rules::{Board, Color, Pos, Position, Rule};

/// Registers the games: `Variant "name" | "alias"... => PositionType;`, one line each.
macro_rules! games {
    ($($(#[$doc:meta])* $variant:ident $name:literal $(| $alias:literal)* => $pos:ty;)*) => {
        /// A game sente plays (manifests' `games`, `sente match --game`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
        pub enum GameName {
            $($(#[$doc])* #[serde(rename = $name)] $variant,)*
        }

        impl GameName {
            /// Every game, in registration order.
            pub const ALL: &'static [GameName] = &[$(GameName::$variant),*];
            /// The game of a name or alias (any case).
            pub fn from_name(s: &str) -> Option<GameName> {
                match s.to_ascii_lowercase().as_str() {
                    $($name $(| $alias)* => Some(GameName::$variant),)*
                    _ => None,
                }
            }
            /// The lower-case name.
            pub fn name(self) -> &'static str {
                match self {
                    $(GameName::$variant => $name,)*
                }
            }
        }

        /// Calls `visitor` with the position type of `game`.
        pub fn with_game<V: GameVisitor>(game: GameName, visitor: V) -> V::Out {
            match game {
                $(GameName::$variant => visitor.visit::<$pos>(),)*
            }
        }
    };
}

games! {
    /// Gomoku under any non-renju rule (freestyle, standard, caro).
    Gomoku "gomoku" => Board;
    /// Renju (forbidden points for black).
    Renju "renju" => Board;
    /// Tic-tac-toe (3x3, three in a row).
    Ttt "ttt" | "tictactoe" | "tic-tac-toe" => Board;
    /// Go.
    Go "go" => GoGame;
}

/// What a [`GameName`] is to code that works the same for every game: its position type.
pub trait GameVisitor {
    /// What the visit gives.
    type Out;
    /// Does the work for the game whose positions are `P`.
    fn visit<P: GamePosition>(self) -> Self::Out;
}

/// The board a game is set up on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// Which game.
    pub game: GameName,
    /// Gomoku-family rule (freestyle for tic-tac-toe; unused for Go).
    pub rule: Rule,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Go komi; unused elsewhere.
    pub komi: f32,
    /// Go: black's fixed handicap stones (0 for none, else 2-9 where the board has the points,
    /// placed where GTP's `fixed_handicap` puts them), white then moving first. Every other
    /// game refuses a handicap.
    pub handicap: usize,
}

/// A game's position as the games' common moves ([`Mv`]) reach it.
pub trait GamePosition: Position + 'static {
    /// The empty position of `setup`, if it is this type's game on a board it can play.
    fn start(setup: &Setup) -> Option<Self>;
    /// The side of the square board `game` is played on when none is given.
    fn default_side(game: GameName) -> usize;
    /// The rule of `game` when `asked` names one (`--rule`); games without rules take
    /// freestyle whatever is asked.
    fn rule_for(_game: GameName, _asked: &str) -> Result<Rule, String> {
        Ok(Rule::Freestyle)
    }
    /// Fewest and most stones of a random opening of `game`: none unless the game says.
    fn opening_stones(_game: GameName) -> (usize, usize) {
        (0, 0)
    }
    /// This game's move for `mv`; a refusal says why not (off the board, a pass where none
    /// exists).
    fn move_of(&self, mv: Mv) -> Result<Self::Move, String>;
    /// The common spelling of this game's move `m` (the inverse of [`GamePosition::move_of`]).
    fn mv_of(&self, m: Self::Move) -> Mv;
    /// How `mv` is named in this game's protocol, on the board or off it (refusals).
    fn mv_name(&self, mv: Mv) -> String {
        mv.to_string()
    }
    /// Black's and white's points (komi included) where a finished game is counted (Go);
    /// `None` where a line or a full board ends it.
    fn area_count(&self) -> Option<(f32, f32)> {
        None
    }
    /// The move limit of a game when none is given: none for boards that fill up.
    fn default_move_limit(&self) -> Option<usize> {
        None
    }
    /// Plays `mv` for the side to move; the refusal names the move as the game spells it.
    fn play_mv(&mut self, mv: Mv) -> Result<(), String> {
        let m = self.move_of(mv)?;
        self.play(m)
            .map_err(|e| format!("{}: {e}", self.mv_name(mv)))
    }
}

/// Gomoku, renju and tic-tac-toe: a move is a point, named as Gomocup names it (`x,y`).
impl GamePosition for Board {
    /// An empty gomoku-family board (tic-tac-toe: 3x3, 3 in a row), if the setup is one.
    fn start(setup: &Setup) -> Option<Board> {
        if setup.handicap != 0 {
            return None;
        }
        match setup.game {
            GameName::Ttt => (setup.width == 3 && setup.height == 3)
                .then(|| Board::with_k(3, 3, 3, Rule::Freestyle)),
            GameName::Gomoku | GameName::Renju => {
                Board::new(setup.width, setup.height, setup.rule).ok()
            }
            _ => None,
        }
    }
    fn default_side(game: GameName) -> usize {
        if game == GameName::Ttt {
            3
        } else {
            15
        }
    }
    /// Renju is its own game; gomoku takes any other rule by name.
    fn rule_for(game: GameName, asked: &str) -> Result<Rule, String> {
        match game {
            GameName::Renju => Ok(Rule::Renju),
            GameName::Gomoku => match Rule::from_name(asked) {
                None => Err(format!("unknown rule {asked:?}")),
                Some(Rule::Renju) => Err("renju is its own game: use --game renju".into()),
                Some(r) => Ok(r),
            },
            _ => Ok(Rule::Freestyle),
        }
    }
    /// Gomoku: 2 to 4 stones; tic-tac-toe: one.
    fn opening_stones(game: GameName) -> (usize, usize) {
        if game == GameName::Ttt {
            (1, 1)
        } else {
            (2, 4)
        }
    }
    fn move_of(&self, mv: Mv) -> Result<Pos, String> {
        let Mv::At(x, y) = mv else {
            return Err("pass is not a move in this game".into());
        };
        self.pos(x as i64, y as i64)
            .ok_or_else(|| format!("{mv} is off the board"))
    }
    fn mv_of(&self, p: Pos) -> Mv {
        let (x, y) = self.xy(p);
        Mv::At(x, y)
    }
}

/// Go: a move is a point or a pass, named as GTP names it (`D4`, `pass`; rows count from the
/// bottom on the board, from the top in [`Mv`]).
impl GamePosition for GoGame {
    /// An empty Go game under the referee's rules (Chinese area scoring, positional superko,
    /// no suicide, the setup's komi, no bonus for handicap stones, as GNU Go counts), with the
    /// setup's handicap stones, if the setup is Go on a board that has them.
    fn start(setup: &Setup) -> Option<GoGame> {
        let rules = GoRules {
            komi: setup.komi,
            ko: KoRule::PositionalSuperko,
            scoring: Scoring::Area,
            suicide: false,
            ..GoRules::default()
        };
        if setup.game != GameName::Go {
            return None;
        }
        let mut game = GoGame::new(setup.width, setup.height, rules).ok()?;
        if setup.handicap != 0 {
            let stones: Vec<_> = (game.fixed_handicap_points(setup.handicap)?.into_iter())
                .map(|p| (p, Color::Black))
                .collect();
            game.place_setup(&stones).ok()?;
        }
        Some(game)
    }
    fn default_side(_game: GameName) -> usize {
        9
    }
    fn move_of(&self, mv: Mv) -> Result<GoMove, String> {
        let b = self.board();
        let m = match mv {
            Mv::Pass => Some(GoMove::Pass),
            Mv::At(x, y) if y < b.height() => b.point(x, b.height() - 1 - y).map(GoMove::Play),
            Mv::At(..) => None,
        };
        m.ok_or_else(|| format!("{} is off the board", self.mv_name(mv)))
    }
    fn mv_of(&self, m: GoMove) -> Mv {
        match m {
            GoMove::Pass => Mv::Pass,
            GoMove::Play(p) => {
                let (x, y) = self.board().xy(p);
                Mv::At(x, self.board().height() - 1 - y)
            }
        }
    }
    fn mv_name(&self, mv: Mv) -> String {
        gtp_vertex(mv, self.board().height())
    }
    /// Area counted as the board stands, every stone alive.
    fn area_count(&self) -> Option<(f32, f32)> {
        let d = score_detail(self.board(), &[], self.rules());
        let black = (d.stones[0] + d.territory[0]) as f32;
        Some((
            black,
            (d.stones[1] + d.territory[1]) as f32 + self.rules().komi,
        ))
    }
    fn default_move_limit(&self) -> Option<usize> {
        Some(3 * self.board().width() * self.board().height())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases() {
        for &g in GameName::ALL {
            assert_eq!(GameName::from_name(g.name()), Some(g));
            assert_eq!(GameName::from_name(&g.name().to_uppercase()), Some(g));
        }
        assert_eq!(GameName::from_name("Tic-Tac-Toe"), Some(GameName::Ttt));
        assert_eq!(GameName::from_name("chess"), None);
    }

    #[test]
    fn go_moves_count_rows_from_the_top_in_mv_and_from_the_bottom_on_the_board() {
        let game = GoGame::new(9, 7, GoRules::default()).unwrap();
        let board = game.board();
        // Top-left in Mv is row 7 of the board, x 0.
        assert_eq!(
            game.move_of(Mv::At(0, 0)),
            Ok(GoMove::Play(board.point(0, 6).unwrap()))
        );
        assert_eq!(
            game.move_of(Mv::At(8, 6)),
            Ok(GoMove::Play(board.point(8, 0).unwrap()))
        );
        assert_eq!(game.move_of(Mv::Pass), Ok(GoMove::Pass));
        for off in [Mv::At(9, 0), Mv::At(0, 7), Mv::At(usize::MAX, 0)] {
            assert!(game.move_of(off).is_err(), "{off}");
        }
        for mv in [Mv::At(0, 0), Mv::At(3, 5), Mv::At(8, 6), Mv::Pass] {
            assert_eq!(game.mv_of(game.move_of(mv).unwrap()), mv);
        }
    }

    #[test]
    fn every_game_starts_only_on_its_own_boards() {
        let setup = |game, width| Setup {
            game,
            rule: Rule::Freestyle,
            width,
            height: width,
            komi: 7.5,
            handicap: 0,
        };
        struct Starts(Setup);
        impl GameVisitor for Starts {
            type Out = bool;
            fn visit<P: GamePosition>(self) -> bool {
                P::start(&self.0).is_some()
            }
        }
        for &g in GameName::ALL {
            let side = with_game(g, DefaultSide(g));
            assert!(with_game(g, Starts(setup(g, side))), "{g:?}");
        }
        assert!(!with_game(GameName::Ttt, Starts(setup(GameName::Ttt, 4))));
        assert!(!with_game(GameName::Go, Starts(setup(GameName::Go, 1))));
        assert!(!with_game(GameName::Gomoku, Starts(setup(GameName::Go, 9))));
        assert!(!with_game(
            GameName::Go,
            Starts(setup(GameName::Gomoku, 15))
        ));
    }

    #[test]
    fn a_go_handicap_puts_black_stones_on_the_gtp_points_and_white_moves() {
        let setup = |game, width, handicap| Setup {
            game,
            rule: Rule::Freestyle,
            width,
            height: width,
            komi: 0.5,
            handicap,
        };
        let g = GoGame::start(&setup(GameName::Go, 9, 2)).unwrap();
        let names: Vec<String> = (g.setup().iter())
            .map(|&(p, _)| crate::rules::go::point_name(g.board(), p))
            .collect();
        assert_eq!(names, ["G7", "C3"]);
        assert!(g.setup().iter().all(|&(_, c)| c == Color::Black));
        assert_eq!(Position::to_move(&g), Color::White);
        assert_eq!(
            GoGame::start(&setup(GameName::Go, 19, 9))
                .unwrap()
                .setup()
                .len(),
            9
        );
        // No such handicap on the board (1 stone, 10, 5 on 7x7 has no centre rule): no game.
        for (side, h) in [(9, 1), (19, 10), (7, 5)] {
            assert!(
                GoGame::start(&setup(GameName::Go, side, h)).is_none(),
                "{side} {h}"
            );
        }
        // Other games take none.
        assert!(Board::start(&setup(GameName::Gomoku, 15, 2)).is_none());
        assert!(Board::start(&setup(GameName::Ttt, 3, 2)).is_none());
    }

    #[test]
    fn moves_reach_each_game_as_the_gtp_driver_and_gomocup_report_them() {
        let game = GoGame::new(5, 5, GoRules::default()).unwrap();
        assert_eq!(game.mv_of(GoMove::Pass), Mv::Pass);
        // GTP A5 is the top-left corner: the arena's (0, 0).
        let a5 = game.board().point(0, 4).unwrap();
        assert_eq!(game.mv_of(GoMove::Play(a5)), Mv::At(0, 0));
        assert_eq!(game.move_of(Mv::At(0, 0)), Ok(GoMove::Play(a5)));
        assert_eq!(
            game.move_of(Mv::At(5, 0)),
            Err("F5 is off the board".into())
        );
        let board = Board::new(9, 9, Rule::Freestyle).unwrap();
        assert_eq!(
            board.move_of(Mv::Pass),
            Err("pass is not a move in this game".into())
        );
        let p = board.move_of(Mv::At(2, 3)).unwrap();
        assert_eq!(board.mv_of(p), Mv::At(2, 3));
    }

    struct DefaultSide(GameName);
    impl GameVisitor for DefaultSide {
        type Out = usize;
        fn visit<P: GamePosition>(self) -> usize {
            P::default_side(self.0)
        }
    }
}
