//! The game setup of `sente match` and `sente openings`: the game, `--size`, `--rule`, komi,
//! handicap and `--tc` checked and turned into a [`GameSetup`].

use anyhow::{anyhow, bail, Context};

use crate::arena::engine::GameSetup;
use crate::arena::manifest::GameName;
use crate::arena::tc::TimeControl;
use crate::rules::game::{with_game, GamePosition, GameVisitor};

/// `N` (as `NxN`) or `WxH`.
fn parse_size(s: &str) -> anyhow::Result<(usize, usize)> {
    Ok(match s.split_once(['x', 'X']) {
        Some((w, h)) => (w.trim().parse()?, h.trim().parse()?),
        None => {
            let n: usize = s.trim().parse()?;
            (n, n)
        }
    })
}

/// `MIN-MAX` or `N` (as `N-N`).
pub fn parse_range(s: &str) -> anyhow::Result<(usize, usize)> {
    Ok(match s.split_once('-') {
        Some((a, b)) => (a.trim().parse()?, b.trim().parse()?),
        None => {
            let n: usize = s.trim().parse()?;
            (n, n)
        }
    })
}

/// The game setup of a game name, `--size`, `--rule`, komi, handicap and `--tc`.
pub fn setup_of(
    game: &str,
    size: Option<&str>,
    rule: &str,
    komi: f32,
    handicap: usize,
    tc: &str,
) -> anyhow::Result<GameSetup> {
    let game = GameName::from_name(game).ok_or_else(|| anyhow!("unknown game"))?;
    /// The game's own defaults and checks.
    struct Checked<'a>(GameName, Option<&'a str>, &'a str, f32, usize, &'a str);
    impl GameVisitor for Checked<'_> {
        type Out = anyhow::Result<GameSetup>;
        fn visit<P: GamePosition>(self) -> Self::Out {
            let Checked(game, size, rule, komi, handicap, tc) = self;
            let (width, height) = match size {
                Some(s) => parse_size(s).context("--size takes N or WxH")?,
                None => (P::default_side(game), P::default_side(game)),
            };
            let rule = P::rule_for(game, rule).map_err(|e| anyhow!(e))?;
            let tc: TimeControl = tc.parse().map_err(|e: String| anyhow!("--tc: {e}"))?;
            let setup = GameSetup {
                game,
                rule,
                width,
                height,
                komi,
                handicap: 0,
                tc,
            };
            if P::start(&setup.board()).is_none() {
                bail!("{} cannot be played on {width}x{height}", game.name());
            }
            if handicap == 0 {
                return Ok(setup);
            }
            if game != GameName::Go {
                bail!("--handicap: only Go takes a handicap");
            }
            let setup = GameSetup { handicap, ..setup };
            if P::start(&setup.board()).is_none() {
                bail!(
                    "--handicap: {width}x{height} has no fixed handicap of {handicap} stones \
                     (GTP's fixed_handicap: 2-9 on boards with star points)"
                );
            }
            Ok(setup)
        }
    }
    with_game(game, Checked(game, size, rule, komi, handicap, tc))
}
