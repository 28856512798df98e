//! What `INFO key value` does to a Gomocup session: the settings it records ([`Settings`]),
//! the rule and level it switches, the player options it offers on, and the complaint a bad
//! value leaves for the next move request (the policies are in [`super`]'s notes).

use std::path::Path;

use log::{info, warn};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{GomokuSession, Reply, Setting};
use crate::players::{gomoku_player, GOMOKU_LEVELS};
use crate::rules::{Board, Rule};
use crate::session::mnk::{is_tic_tac_toe, ttt_level_names, TttLevel};

/// The `INFO` values received so far. `None` = not sent.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub timeout_turn: Option<u64>,
    pub timeout_match: Option<u64>,
    pub time_left: Option<i64>,
    pub max_memory: u64,
    pub game_type: Option<i64>,
    pub folder: Option<String>,
    pub evaluate: Option<(i64, i64)>,
    pub max_depth: Option<u32>,
    pub max_node: Option<u64>,
    pub thread_num: Option<u32>,
    pub time_increment: u64,
    /// `INFO pondering 1`: think on the opponent's time (off until sent, unless `--ponder`).
    pub pondering: bool,
}

impl GomokuSession {
    /// `INFO key value`: never answered; bad values become a complaint for the next move request.
    pub fn info(&mut self, setting: Setting) {
        let s = &mut self.settings;
        match setting {
            Setting::TimeoutTurn(v) => match u64::try_from(v) {
                Ok(v) => s.timeout_turn = Some(v),
                Err(_) => self.complain(format!("INFO timeout_turn {v}: must not be negative")),
            },
            Setting::TimeoutMatch(v) => match u64::try_from(v) {
                Ok(v) => s.timeout_match = Some(v),
                Err(_) => self.complain(format!("INFO timeout_match {v}: must not be negative")),
            },
            Setting::TimeLeft(v) => s.time_left = Some(v),
            Setting::MaxMemory(v) => match u64::try_from(v) {
                Ok(v) => {
                    s.max_memory = v;
                    self.player.set_memory_limit(v);
                }
                Err(_) => self.complain(format!("INFO max_memory {v}: must not be negative")),
            },
            Setting::GameType(v) => s.game_type = Some(v),
            Setting::Rule(v) => match Rule::from_gomocup(v) {
                Some(rule) => self.set_managers_rule(rule),
                None => self.complain(format!(
                    "INFO rule {v}: unsupported rule (supported: 0 freestyle, 1 standard, \
                     4 renju, 8 caro, 9 caro with exact five, 2 renju as Yixin-Board sends it; \
                     +2 continuous is otherwise ignored)"
                )),
            },
            Setting::RuleName(name) => match Rule::from_name(&name) {
                Some(rule) => self.set_managers_rule(rule),
                None => {
                    let names: Vec<&str> = Rule::NAMED.iter().map(|r| r.name()).collect();
                    self.complain(format!(
                        "INFO rule_name {name}: unknown rule (known: {})",
                        names.join(", ")
                    ))
                }
            },
            Setting::Folder(f) => {
                if self.config.memory.is_none() {
                    self.player.set_folder(Path::new(&f));
                }
                s.folder = Some(f);
            }
            Setting::Evaluate(x, y) => s.evaluate = Some((x, y)),
            // 0 means "no limit" for both, as c-gomoku-cli uses it; so does -1, which
            // Yixin-Board sends for its unlimited level (`INFO max_node -1`, read by Rapfi as
            // no limit), and so does a depth too deep to count.
            Setting::MaxDepth(v) => s.max_depth = u32::try_from(v).ok().filter(|&d| d > 0),
            Setting::MaxNode(v) => s.max_node = u64::try_from(v).ok().filter(|&n| n > 0),
            // At least one, as Rapfi reads it; more than the engine runs is its maximum.
            Setting::ThreadNum(v) => {
                s.thread_num = Some(u32::try_from(v.max(1)).unwrap_or(u32::MAX));
                self.player.set_threads(self.threads());
            }
            Setting::TimeIncrement(v) => match u64::try_from(v) {
                Ok(v) => s.time_increment = v,
                Err(_) => self.complain(format!("INFO time_increment {v}: must not be negative")),
            },
            Setting::Level(name) => {
                if let Some(mut p) = gomoku_player(&name, self.config.seed) {
                    if self.settings.max_memory > 0 {
                        p.set_memory_limit(self.settings.max_memory);
                    }
                    p.prepare(self.rule);
                    info!("level switched to {}", p.name());
                    self.player = p;
                    self.config.level = name;
                    self.configure_player();
                } else if let Some(p) = TttLevel::named(&name, self.config.seed) {
                    info!("tic-tac-toe level switched to {}", p.name());
                    self.ttt = p;
                    self.config.level = name;
                } else {
                    let known: Vec<&str> = GOMOKU_LEVELS
                        .iter()
                        .map(|l| l.0)
                        .chain(ttt_level_names())
                        .collect();
                    self.complain(format!(
                        "INFO level {name}: unknown level (known: {})",
                        known.join(", ")
                    ))
                }
            }
            Setting::Pondering(v) => match v {
                0 | 1 => s.pondering = v == 1,
                _ => self.complain(format!("INFO pondering {v}: must be 0 or 1")),
            },
            Setting::Seed(seed) => {
                self.config.seed = seed;
                self.player.set_seed(seed);
                self.ttt.set_seed(seed);
                self.rng = ChaCha8Rng::seed_from_u64(seed);
            }
            Setting::Other { key, value } => {
                let result = self.player.set_option(&key, &value);
                match &result {
                    None => info!("INFO {key} {value}: not used by {}", self.player.name()),
                    Some(Ok(())) => info!("INFO {key} {value}: set"),
                    Some(Err(e)) => self.complain(format!("INFO {e}")),
                }
                if !matches!(result, Some(Err(_))) {
                    let opts = &mut self.config.player_options;
                    opts.retain(|(k, _)| *k != key);
                    opts.push((key, value));
                }
            }
            Setting::Invalid { key, value } if value.is_empty() => {
                self.complain(format!("INFO {key}: missing value"))
            }
            Setting::Invalid { key, value } => {
                self.complain(format!("INFO {key} {value}: value does not parse"))
            }
        }
    }

    pub(super) fn complain(&mut self, text: String) {
        warn!("{text} (reported on the next move request)");
        self.complaints.push(text);
    }

    /// Takes the pending complaint, if any, as the reply to a move request.
    pub(super) fn pending_complaint(&mut self) -> Option<Reply> {
        if self.complaints.is_empty() {
            return None;
        }
        let text = self.complaints.join("; ");
        self.complaints.clear();
        Some(Reply::Error(text))
    }

    /// Rebuilds the current board under `rule`, keeping its stones and side to move.
    /// A rule from `INFO rule` / `INFO rule_name`, unless `--rule` fixed one.
    fn set_managers_rule(&mut self, rule: Rule) {
        match self.config.rule {
            Some(fixed) if fixed != rule => warn!(
                "the manager's rule {} ignored: --rule {} outranks it",
                rule.name(),
                fixed.name()
            ),
            _ => self.set_rule(rule),
        }
    }

    fn set_rule(&mut self, rule: Rule) {
        self.rule = rule;
        self.player.prepare(rule);
        if let Some(old) = &self.board {
            // Tic-tac-toe has one rule whatever the manager says.
            if old.rule() == rule || is_tic_tac_toe(old) {
                return;
            }
            let mut b = Board::new(old.width(), old.height(), rule).expect("same size as before");
            for &(p, c) in old.history() {
                b.place(p, c);
            }
            b.set_to_move(old.to_move());
            self.board = Some(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::*;
    use super::super::*;
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn ttt_levels_switch_only_the_ttt_player() {
        let mut s = session();
        s.info(Setting::Level("dumber".into()));
        assert!(s.complaints.is_empty());
        assert_eq!(s.start(3), Reply::Ok);
        assert_eq!(s.level(), "dumber");
        assert_eq!(ask(|r| s.begin(r)).0, Reply::Move(0, 0));
        assert_eq!(ask(|r| s.turn(2, 2, r)).0, Reply::Move(1, 0));
        // The gomoku player is untouched.
        assert_eq!(s.start(15), Reply::Ok);
        assert_eq!(s.level(), "scripted");
        s.info(Setting::Level("nosuch".into()));
        let r = ask(|r| s.begin(r)).0;
        assert!(
            is_err(&r, "known: strong, strong-hand, classic, learner, perfect"),
            "{r:?}"
        );
    }

    #[test]
    fn info_complaints_answer_the_next_move_request() {
        let mut s = session();
        s.start(15);
        s.info(Setting::Rule(16));
        s.info(Setting::Level("nosuch".into()));
        s.info(Setting::TimeoutTurn(-5));
        s.info(Setting::Invalid {
            key: "max_node".into(),
            value: String::new(),
        });
        let (r, _) = ask(|r| s.turn(7, 7, r));
        assert!(is_err(&r, "INFO rule 16"), "{r:?}");
        assert!(is_err(&r, "INFO max_node: missing value"), "{r:?}");
        assert!(is_err(&r, "INFO level nosuch"));
        assert!(is_err(&r, "INFO timeout_turn -5"));
        // Not executed, and forgotten afterwards.
        assert_eq!(s.board().unwrap().stones(), 0);
        assert_eq!(ask(|r| s.turn(7, 7, r)).0, Reply::Move(0, 0));
    }

    #[test]
    fn rule_applies_to_the_current_board() {
        let mut s = session();
        s.start(15);
        ask(|r| s.turn(7, 7, r));
        s.info(Setting::Rule(4));
        assert_eq!(s.rule(), Rule::Renju);
        let b = s.board().unwrap();
        assert_eq!(b.rule(), Rule::Renju);
        assert_eq!(b.stones(), 2);
        assert_eq!(b.to_move(), Color::Black);
        // And survives START.
        s.start(15);
        assert_eq!(s.board().unwrap().rule(), Rule::Renju);
    }

    #[test]
    fn level_switches_player() {
        let mut s = session();
        s.info(Setting::Level("classic".into()));
        assert_eq!(s.level(), "classic");
        s.info(Setting::Level("STRONG".into()));
        assert_eq!(s.level(), "strong");
    }

    #[test]
    fn threads_come_from_the_command_line_else_thread_num() {
        let (mut s, seen) = scripted(0);
        assert_eq!(seen.lock().unwrap().threads, 1, "one thread unless told");
        s.info(Setting::ThreadNum(2));
        assert_eq!((s.threads(), seen.lock().unwrap().threads), (2, 2));
        s.info(Setting::ThreadNum(0));
        assert_eq!(seen.lock().unwrap().threads, 1);
        s.info(Setting::ThreadNum(1_000));
        assert_eq!(seen.lock().unwrap().threads, MAX_THREADS);
        let seen = Arc::new(Mutex::new(Seen::default()));
        let player = Scripted {
            score: 0,
            mate: None,
            pick: None,
            none: false,
            seen: seen.clone(),
        };
        let config = SessionConfig {
            threads: Some(3),
            ..SessionConfig::default()
        };
        let mut s =
            GomokuSession::with_player(config, Arc::new(StopSignal::new()), Box::new(player));
        assert_eq!(seen.lock().unwrap().threads, 3);
        s.info(Setting::ThreadNum(8));
        assert_eq!(
            seen.lock().unwrap().threads,
            3,
            "--threads outranks INFO thread_num"
        );
        // A level chosen later gets the count too (`strong` keeps it for its search).
        s.info(Setting::Level("classic".into()));
        assert_eq!(s.threads(), 3);
    }

    #[test]
    fn unknown_info_keys_go_to_the_player_and_refusals_become_complaints() {
        let (mut s, seen) = scripted(0);
        s.start(15);
        s.info(Setting::Other {
            key: "scripted_opt".into(),
            value: "7".into(),
        });
        s.info(Setting::Other {
            key: "hash_size".into(),
            value: "1".into(),
        });
        let (r, _) = ask(|r| s.begin(r));
        assert!(matches!(r, Reply::Move(_, _)));
        s.info(Setting::Other {
            key: "scripted_opt".into(),
            value: "bad".into(),
        });
        let (r, _) = ask(|r| s.turn(0, 14, r));
        assert!(is_err(&r, "INFO scripted_opt bad: refused"), "{r:?}");
        assert_eq!(
            seen.lock().unwrap().options,
            vec![
                ("scripted_opt".to_string(), "7".to_string()),
                ("scripted_opt".to_string(), "bad".to_string())
            ]
        );
        // Remembered for a player chosen later: the learner gets a valid kernel size.
        s.info(Setting::Other {
            key: "kernel".into(),
            value: "5".into(),
        });
        s.info(Setting::Level("learner".into()));
        assert_eq!(s.level(), "learner");
        assert!(s.pending_complaint().is_none());
    }
}
