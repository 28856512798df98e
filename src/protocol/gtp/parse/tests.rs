//! The parser's tests: framing, tokens, and every command family's arguments.

use super::*;
use crate::protocol::gtp::format::format_vertex;
use crate::rules::go::kata_rules::{KataKo, KataTax};
use crate::rules::go::{HandicapBonus, Scoring};
use crate::session::gtp_game::DEFAULT_INTERVAL_CS;

fn cmd(line: &str) -> Result<Command, LineError> {
    parse_line(line).expect("a command").command
}

fn at(x: usize, y: usize) -> Vertex {
    Vertex::At { x, y }
}

#[test]
fn preprocessing_comments_and_blank_lines() {
    assert_eq!(preprocess("# only a comment"), None);
    assert_eq!(preprocess("   "), None);
    assert_eq!(preprocess("clear_board  # trailing"), Some("clear_board"));
    assert!(parse_line("#").is_none());
    let p = parse_line("  2   play   b   D5 ").unwrap();
    assert_eq!(p.id.as_deref(), Some("2"));
    assert_eq!(p.command, Ok(Command::Play(Color::Black, at(3, 4))));
}

#[test]
fn ids_are_kept_as_sent() {
    let p = parse_line("0012 name").unwrap();
    assert_eq!(p.id.as_deref(), Some("0012"));
    assert_eq!(p.command, Ok(Command::Name));
    let p = parse_line("7").unwrap();
    assert_eq!(p.id.as_deref(), Some("7"));
    assert_eq!(p.command, Err(LineError::Unknown));
    assert_eq!(parse_line("name").unwrap().id, None);
}

#[test]
fn whole_token_case_sensitive_names() {
    assert_eq!(cmd("playout b d4"), Err(LineError::Unknown));
    assert_eq!(cmd("PLAY b d4"), Err(LineError::Unknown));
    assert_eq!(cmd("names"), Err(LineError::Unknown));
    assert_eq!(cmd("name"), Ok(Command::Name));
}

#[test]
fn no_argument_commands_refuse_arguments() {
    for (line, c) in [
        ("protocol_version", Command::ProtocolVersion),
        ("version", Command::Version),
        ("list_commands", Command::ListCommands),
        ("quit", Command::Quit),
        ("clear_board", Command::ClearBoard),
        ("undo", Command::Undo),
        ("final_score", Command::FinalScore),
        ("showboard", Command::Showboard),
        ("gogui-analyze_commands", Command::GoguiAnalyzeCommands),
        ("sente-ownership", Command::Ownership),
        ("cputime", Command::CpuTime),
        ("gomill-cpu_time", Command::CpuTime),
        ("gomill-describe_engine", Command::DescribeEngine),
        ("gomill-explain_last_move", Command::ExplainLastMove),
    ] {
        assert_eq!(cmd(line), Ok(c));
        assert!(matches!(
            cmd(&format!("{line} x")),
            Err(LineError::Syntax(_))
        ));
    }
}

#[test]
fn colours() {
    for t in ["b", "B", "black", "BLACK", "Black"] {
        assert_eq!(parse_color(t), Some(Color::Black), "{t}");
    }
    for t in ["w", "W", "white", "WHITE"] {
        assert_eq!(parse_color(t), Some(Color::White), "{t}");
    }
    for t in ["", "bl", "blackx", "x", "white2"] {
        assert_eq!(parse_color(t), None, "{t}");
    }
}

#[test]
fn vertices() {
    assert_eq!(parse_vertex("a1"), Some(at(0, 0)));
    assert_eq!(parse_vertex("D4"), Some(at(3, 3)));
    assert_eq!(parse_vertex("h8"), Some(at(7, 7)));
    assert_eq!(parse_vertex("J9"), Some(at(8, 8)));
    assert_eq!(parse_vertex("t19"), Some(at(18, 18)));
    assert_eq!(parse_vertex("Z25"), Some(at(24, 24)));
    assert_eq!(parse_vertex("pass"), Some(Vertex::Pass));
    assert_eq!(parse_vertex("PASS"), Some(Vertex::Pass));
    for t in [
        "i5", "I5", "a0", "a26", "a01", "4d", "aa1", "a", "1", "passx", "d4x", "",
    ] {
        assert_eq!(parse_vertex(t), None, "{t}");
    }
    for x in 0..25 {
        for y in 0..25 {
            let v = at(x, y);
            assert_eq!(parse_vertex(&format_vertex(v)), Some(v));
            assert_eq!(
                parse_vertex(&format_vertex(v).to_ascii_lowercase()),
                Some(v)
            );
        }
    }
    assert_eq!(format_vertex(at(8, 0)), "J1");
    assert_eq!(format_vertex(Vertex::Pass), "pass");
}

#[test]
fn numbers() {
    assert_eq!(parse_float("6.5"), Some(6.5));
    assert_eq!(parse_float("-3.5"), Some(-3.5));
    assert_eq!(parse_float("7"), Some(7.0));
    assert_eq!(parse_float("+0.5"), Some(0.5));
    assert_eq!(parse_float(".5"), Some(0.5));
    assert_eq!(parse_float("7."), Some(7.0));
    for t in ["nan", "inf", "1e3", "6,5", "", "-", "."] {
        assert_eq!(parse_float(t), None, "{t}");
    }
    assert_eq!(parse_uint("19"), Some(19));
    assert_eq!(parse_uint("-1"), None);
    assert_eq!(parse_uint("1.0"), None);
}

#[test]
fn play_and_genmove() {
    assert_eq!(
        cmd("play white pass"),
        Ok(Command::Play(Color::White, Vertex::Pass))
    );
    assert_eq!(
        cmd("play B T19"),
        Ok(Command::Play(Color::Black, at(18, 18)))
    );
    assert!(matches!(cmd("play x d4"), Err(LineError::Syntax(m)) if m.contains("color")));
    assert!(matches!(cmd("play b i4"), Err(LineError::Syntax(m)) if m.contains("coordinate")));
    assert!(matches!(cmd("play b"), Err(LineError::Syntax(_))));
    assert!(matches!(cmd("play b d4 d5"), Err(LineError::Syntax(_))));
    assert_eq!(cmd("genmove w"), Ok(Command::Genmove(Color::White)));
    assert_eq!(cmd("reg_genmove B"), Ok(Command::RegGenmove(Color::Black)));
    assert_eq!(
        cmd("kgs-genmove_cleanup white"),
        Ok(Command::GenmoveCleanup(Color::White))
    );
    assert!(matches!(
        cmd("kgs-genmove_cleanup"),
        Err(LineError::Syntax(_))
    ));
    assert!(matches!(
        cmd("kgs-genmove_cleanup b c3"),
        Err(LineError::Syntax(_))
    ));
    assert_eq!(cmd("sente-ponder"), Ok(Command::Ponder(None)));
    assert_eq!(cmd("sente-ponder ON"), Ok(Command::Ponder(Some(true))));
    assert_eq!(cmd("sente-ponder off"), Ok(Command::Ponder(Some(false))));
    assert!(matches!(
        cmd("sente-ponder maybe"),
        Err(LineError::Syntax(_))
    ));
    assert!(matches!(
        cmd("sente-ponder on off"),
        Err(LineError::Syntax(_))
    ));
    assert!(matches!(cmd("genmove"), Err(LineError::Syntax(_))));
    assert!(matches!(cmd("genmove d4"), Err(LineError::Syntax(_))));
}

#[test]
fn board_commands() {
    assert_eq!(cmd("boardsize 19"), Ok(Command::Boardsize(19)));
    assert_eq!(cmd("boardsize 0"), Ok(Command::Boardsize(0)));
    // An integer too big for any board is an unacceptable size, as GNU Go says.
    assert_eq!(
        cmd("boardsize 99999999999999999999999"),
        Ok(Command::Boardsize(usize::MAX))
    );
    assert_eq!(
        cmd("rectangular_boardsize 9 +99999999999999999999999"),
        Ok(Command::RectangularBoardsize(9, usize::MAX))
    );
    assert!(matches!(cmd("boardsize +"), Err(LineError::Syntax(_))));
    assert!(matches!(cmd("boardsize -1"), Err(LineError::Syntax(_))));
    assert!(matches!(cmd("boardsize 9.5"), Err(LineError::Syntax(_))));
    assert!(matches!(cmd("boardsize"), Err(LineError::Syntax(_))));
    assert_eq!(
        cmd("rectangular_boardsize 9 13"),
        Ok(Command::RectangularBoardsize(9, 13))
    );
    assert!(matches!(
        cmd("rectangular_boardsize 9"),
        Err(LineError::Syntax(_))
    ));
    assert_eq!(cmd("komi 6.5"), Ok(Command::Komi(6.5)));
    assert_eq!(cmd("komi -3"), Ok(Command::Komi(-3.0)));
    assert!(matches!(cmd("komi six"), Err(LineError::Syntax(_))));
    for bad in [
        "komi inf",
        "komi nan",
        "komi 7,5",
        &format!("komi -{}", "9".repeat(50)),
    ] {
        assert!(matches!(cmd(bad), Err(LineError::Syntax(_))), "{bad}");
    }
    assert_eq!(cmd("komi 1e3"), Ok(Command::Komi(1000.0)));
    assert_eq!(cmd("komi -1000"), Ok(Command::Komi(-1000.0)));
    assert_eq!(cmd("komi .5"), Ok(Command::Komi(0.5)));
    for far in ["komi 1e30", "komi 100000", "komi -1000.5"] {
        match cmd(far) {
            Err(LineError::Syntax(m)) => {
                assert!(
                    m.contains("out of range (at most 1000 either way)"),
                    "{far}: {m}"
                )
            }
            other => panic!("{far}: {other:?}"),
        }
    }
    assert_eq!(
        cmd("known_command play"),
        Ok(Command::KnownCommand("play".into()))
    );
    assert!(matches!(cmd("known_command"), Err(LineError::Syntax(_))));
    assert_eq!(
        cmd("set_random_seed 2147483647"),
        Ok(Command::SetRandomSeed(2147483647))
    );
    for bad in [
        "set_random_seed",
        "set_random_seed -1",
        "set_random_seed x",
        "set_random_seed 1 2",
    ] {
        assert!(matches!(cmd(bad), Err(LineError::Syntax(_))), "{bad}");
    }
}

#[test]
fn handicap_commands() {
    assert_eq!(cmd("fixed_handicap 4"), Ok(Command::FixedHandicap(4)));
    assert_eq!(
        cmd("place_free_handicap 9"),
        Ok(Command::PlaceFreeHandicap(9))
    );
    assert!(matches!(
        cmd("fixed_handicap -1"),
        Err(LineError::Syntax(_))
    ));
    assert_eq!(
        cmd("set_free_handicap d4 Q16 k10"),
        Ok(Command::SetFreeHandicap(vec![
            at(3, 3),
            at(15, 15),
            at(9, 9)
        ]))
    );
    assert!(matches!(
        cmd("set_free_handicap"),
        Err(LineError::Syntax(_))
    ));
    assert!(matches!(
        cmd("set_free_handicap d4 i9"),
        Err(LineError::Syntax(_))
    ));
    // `pass` parses as a vertex; the session refuses it as a bad vertex list.
    assert_eq!(
        cmd("set_free_handicap d4 pass"),
        Ok(Command::SetFreeHandicap(vec![at(3, 3), Vertex::Pass]))
    );
}

#[test]
fn time_commands() {
    assert_eq!(
        cmd("time_settings 300 30 5"),
        Ok(Command::TimeSettings(TimeSystem::Canadian {
            main: 300,
            period: 30,
            stones: 5
        }))
    );
    assert_eq!(
        cmd("time_settings 60 0 0"),
        Ok(Command::TimeSettings(TimeSystem::Absolute { main: 60 }))
    );
    assert!(matches!(
        cmd("time_settings 1 2"),
        Err(LineError::Syntax(_))
    ));
    assert!(matches!(
        cmd("time_settings a 2 3"),
        Err(LineError::Syntax(_))
    ));
    assert_eq!(
        cmd("kgs-time_settings none"),
        Ok(Command::TimeSettings(TimeSystem::None))
    );
    assert_eq!(
        cmd("kgs-time_settings absolute 600"),
        Ok(Command::TimeSettings(TimeSystem::Absolute { main: 600 }))
    );
    assert_eq!(
        cmd("kgs-time_settings byoyomi 600 30 5"),
        Ok(Command::TimeSettings(TimeSystem::Byoyomi {
            main: 600,
            period: 30,
            periods: 5
        }))
    );
    assert_eq!(
        cmd("kgs-time_settings canadian 600 300 25"),
        Ok(Command::TimeSettings(TimeSystem::Canadian {
            main: 600,
            period: 300,
            stones: 25
        }))
    );
    for bad in [
        "kgs-time_settings",
        "kgs-time_settings fischer 1 2",
        "kgs-time_settings absolute",
        "kgs-time_settings byoyomi 1 2",
        "kgs-time_settings none 5",
    ] {
        assert!(matches!(cmd(bad), Err(LineError::Syntax(_))), "{bad}");
    }
    assert_eq!(
        cmd("time_left b 120 0"),
        Ok(Command::TimeLeft {
            color: Color::Black,
            seconds: 120.0,
            stones: 0
        })
    );
    assert!(matches!(cmd("time_left b 120"), Err(LineError::Syntax(_))));
    for negative in ["time_left b -5 0", "time_left w -0.5 1", "time_left b -0 0"] {
        assert!(
            matches!(cmd(negative), Err(LineError::Syntax(_))),
            "{negative}"
        );
    }
    for huge in [
        "time_settings 2147483648 0 0",
        "time_settings 0 0 99999999999999999999999",
        "time_left b 18446744073709551616 5",
        "time_left b 2147483647.5 0",
        "time_left b 5 2147483648",
        "kgs-time_settings absolute 99999999999999",
        "kgs-time_settings byoyomi 0 2147483648 1",
    ] {
        match cmd(huge) {
            Err(LineError::Syntax(m)) => assert!(m.contains("2147483647"), "{huge}: {m}"),
            other => panic!("{huge}: {other:?}"),
        }
    }
    assert_eq!(
        cmd("time_settings 2147483647 0 0"),
        Ok(Command::TimeSettings(TimeSystem::Absolute {
            main: 2147483647
        }))
    );
    for negative in ["time_settings -1 0 0", "kgs-time_settings absolute -60"] {
        assert!(
            matches!(cmd(negative), Err(LineError::Syntax(_))),
            "{negative}"
        );
    }
}

#[test]
fn scoring_and_sgf_commands() {
    assert_eq!(
        cmd("final_status_list dead"),
        Ok(Command::FinalStatusList(Status::Dead))
    );
    assert_eq!(
        cmd("final_status_list SEKI"),
        Ok(Command::FinalStatusList(Status::Seki))
    );
    assert!(matches!(
        cmd("final_status_list unknown"),
        Err(LineError::Syntax(_))
    ));
    assert_eq!(
        cmd("loadsgf game.sgf"),
        Ok(Command::LoadSgf {
            file: "game.sgf".into(),
            move_number: None
        })
    );
    assert_eq!(
        cmd("loadsgf game.sgf 12"),
        Ok(Command::LoadSgf {
            file: "game.sgf".into(),
            move_number: Some(12)
        })
    );
    assert_eq!(cmd("printsgf"), Ok(Command::PrintSgf(None)));
    assert_eq!(
        cmd("printsgf out.sgf"),
        Ok(Command::PrintSgf(Some("out.sgf".into())))
    );
    assert!(matches!(cmd("printsgf a b"), Err(LineError::Syntax(_))));
    assert!(matches!(cmd("loadsgf"), Err(LineError::Syntax(_))));
    assert!(matches!(cmd("loadsgf a.sgf x"), Err(LineError::Syntax(_))));
}

#[test]
fn analysis_commands() {
    assert_eq!(
        cmd("lz-analyze B 50"),
        Ok(Command::Analyze(
            AnalyzeKind::Lz,
            AnalyzeOptions {
                color: Some(Color::Black),
                interval_cs: 50,
                ..AnalyzeOptions::default()
            }
        ))
    );
    assert_eq!(
        cmd("kata-analyze 25"),
        Ok(Command::Analyze(
            AnalyzeKind::Kata,
            AnalyzeOptions {
                interval_cs: 25,
                ..AnalyzeOptions::default()
            }
        ))
    );
    assert_eq!(
        cmd("lz-analyze"),
        Ok(Command::Analyze(AnalyzeKind::Lz, AnalyzeOptions::default()))
    );
    assert_eq!(
        cmd("kata-analyze w interval 10 maxmoves 3 minmoves 1"),
        Ok(Command::Analyze(
            AnalyzeKind::Kata,
            AnalyzeOptions {
                color: Some(Color::White),
                interval_cs: 10,
                min_moves: 1,
                max_moves: Some(3),
                ownership: false,
                move_rules: Vec::new(),
            }
        ))
    );
    assert!(matches!(
        cmd("lz-analyze b 50 ownership true"),
        Err(LineError::Syntax(_))
    ));
    assert!(matches!(
        cmd("lz-analyze b 50 interval"),
        Err(LineError::Syntax(_))
    ));
    assert_eq!(
        cmd("lz-genmove_analyze W 30"),
        Ok(Command::GenmoveAnalyze(
            AnalyzeKind::Lz,
            Color::White,
            AnalyzeOptions {
                color: Some(Color::White),
                interval_cs: 30,
                ..AnalyzeOptions::default()
            }
        ))
    );
    assert!(matches!(
        cmd("kata-genmove_analyze 30"),
        Err(LineError::Syntax(_))
    ));
    // avoid / allow: colour, vertices (pass included, any case), depth; repeatable, mixed
    // with the other keys in any order.
    let rule = |kind, color, vertices: &[Vertex], until_depth| MoveRule {
        kind,
        color,
        vertices: vertices.to_vec(),
        until_depth,
    };
    assert_eq!(
        cmd("lz-analyze b 20 avoid b d4,Q16,pass 3 maxmoves 2 ALLOW w c3 1"),
        Ok(Command::Analyze(
            AnalyzeKind::Lz,
            AnalyzeOptions {
                color: Some(Color::Black),
                interval_cs: 20,
                max_moves: Some(2),
                move_rules: vec![
                    rule(
                        FilterKind::Avoid,
                        Color::Black,
                        &[at(3, 3), at(15, 15), Vertex::Pass],
                        3
                    ),
                    rule(FilterKind::Allow, Color::White, &[at(2, 2)], 1),
                ],
                ..AnalyzeOptions::default()
            }
        ))
    );
    assert!(matches!(
        cmd("kata-genmove_analyze w 10 ownership true allow white e5,d4 1"),
        Ok(Command::GenmoveAnalyze(AnalyzeKind::Kata, Color::White, o))
            if o.ownership && o.move_rules.len() == 1
    ));
    assert!(starts_interruptible_analysis("5 lz-analyze b 50"));
    assert!(starts_interruptible_analysis("kata-analyze"));
    assert!(!starts_interruptible_analysis("lz-genmove_analyze b"));
    assert!(!starts_interruptible_analysis("# lz-analyze"));
    assert!(is_gogui_interrupt("# interrupt"));
    assert!(!is_gogui_interrupt("# interrupt now"));
    assert_eq!(parse_line("# interrupt"), None, "a comment, no command");
    assert_eq!(cmd("gogui-interrupt"), Ok(Command::GoguiInterrupt));
    assert!(matches!(
        cmd("gogui-interrupt now"),
        Err(LineError::Syntax(_))
    ));
}

#[test]
fn level_command() {
    assert_eq!(cmd("sente-level"), Ok(Command::Level(None)));
    assert_eq!(
        cmd("sente-level mcts"),
        Ok(Command::Level(Some("mcts".into())))
    );
    assert!(matches!(cmd("sente-level a b"), Err(LineError::Syntax(_))));
}

#[test]
fn rules_commands() {
    use crate::rules::go::kata_rules::KataRules;
    let named = |n: &str| KataRules::named(n).unwrap();
    assert_eq!(cmd("kata-get-rules"), Ok(Command::GetRules));
    assert_eq!(cmd("kata-list-params"), Ok(Command::ListParams));
    assert_eq!(cmd("get_komi"), Ok(Command::GetKomi));
    assert_eq!(
        cmd("is_legal w D4"),
        Ok(Command::IsLegal(Color::White, Vertex::At { x: 3, y: 3 }))
    );
    for bad in ["get_komi 7", "is_legal b", "is_legal x D4", "is_legal b I9"] {
        assert!(matches!(cmd(bad), Err(LineError::Syntax(_))), "{bad}");
    }
    assert_eq!(
        cmd("kata-get-param explore"),
        Ok(Command::GetParam("explore".into()))
    );
    assert_eq!(
        cmd("kata-set-param explore 0.2"),
        Ok(Command::SetParam("explore".into(), "0.2".into()))
    );
    for bad in [
        "kata-get-param",
        "kata-set-param explore",
        "kata-list-params x",
    ] {
        assert!(matches!(cmd(bad), Err(LineError::Syntax(_))), "{bad}");
    }
    assert_eq!(cmd("clear_cache"), Ok(Command::ClearCache));
    assert_eq!(cmd("stop"), Ok(Command::Stop));
    for line in ["kata-get-rules x", "clear_cache 1", "stop analysis"] {
        assert!(matches!(cmd(line), Err(LineError::Syntax(_))), "{line}");
    }
    assert_eq!(
        cmd("kata-set-rules japanese"),
        Ok(Command::SetRules(named("japanese")))
    );
    assert_eq!(
        cmd("kata-set-rules CHINESE_OGS"),
        Ok(Command::SetRules(named("chinese-ogs")))
    );
    assert_eq!(
        cmd("kata-set-rules tromp taylor"),
        Ok(Command::SetRules(named("tromp-taylor"))),
        "the tokens are joined again, as KataGo joins them"
    );
    assert_eq!(
        cmd("kgs-rules chinese"),
        Ok(Command::SetRules(named("chinese-kgs")))
    );
    for line in [
        "kata-set-rules",
        "kata-set-rules go",
        "kata-set-rules {",
        "kata-set-rules {\"komi\":7}",
        "kgs-rules",
        "kgs-rules korean",
        "kgs-rules chinese aga",
        "kata-set-rule",
        "kata-set-rule ko",
        "kata-set-rule ko simple positional",
        "kata-set-rule ko super",
        "kata-set-rule suicide yes",
        "kata-set-rule komi 7",
        "kata-set-rule size 9",
    ] {
        assert!(matches!(cmd(line), Err(LineError::Syntax(_))), "{line}");
    }
    for (line, option) in [
        ("kata-set-rule ko simple", RuleOption::Ko(KataKo::Simple)),
        (
            "kata-set-rule SCORE territory",
            RuleOption::Scoring(Scoring::Territory),
        ),
        ("kata-set-rule tax SEKI", RuleOption::Tax(KataTax::Seki)),
        ("kata-set-rule suicide FALSE", RuleOption::Suicide(false)),
        ("kata-set-rule hasButton true", RuleOption::HasButton(true)),
        (
            "kata-set-rule whiteHandicapBonus N-1",
            RuleOption::WhiteHandicapBonus(HandicapBonus::NMinusOne),
        ),
        (
            "kata-set-rule friendlypassok true",
            RuleOption::FriendlyPassOk(true),
        ),
    ] {
        assert_eq!(cmd(line), Ok(Command::SetRule(option)), "{line}");
    }
    // One field changes, the rest stay (the tax does not follow the scoring here).
    let japanese = named("japanese");
    let area = RuleOption::Scoring(Scoring::Area).applied_to(japanese);
    assert_eq!(
        area,
        KataRules {
            scoring: Scoring::Area,
            ..japanese
        }
    );
}

fn options(ownership: bool, color: Option<Color>, interval_cs: u32) -> AnalyzeOptions {
    AnalyzeOptions {
        color,
        interval_cs,
        ownership,
        ..AnalyzeOptions::default()
    }
}

#[test]
fn kata_ownership_keys() {
    let kata = |o| Ok(Command::Analyze(AnalyzeKind::Kata, o));
    let w = Some(Color::White);
    assert_eq!(
        cmd("kata-analyze w 10 ownership true"),
        kata(options(true, w, 10))
    );
    assert_eq!(
        cmd("kata-analyze ownership TRUE"),
        kata(options(true, None, DEFAULT_INTERVAL_CS))
    );
    assert_eq!(
        cmd("kata-analyze b 10 ownership false"),
        kata(options(false, Some(Color::Black), 10))
    );
    // Any key order; the false-only keys of Lizzie-like clients are accepted as false.
    let all = "ownershipStdev false movesOwnership false movesOwnershipStdev false \
               pvVisits False";
    for line in [
        format!("kata-analyze w interval 10 ownership true {all}"),
        format!("kata-analyze w {all} ownership true interval 10"),
        format!("kata-analyze w 50 {all} interval 10 ownership true"),
        "kata-analyze w pvVisits false ownership false ownership true interval 10".into(),
    ] {
        assert_eq!(cmd(&line), kata(options(true, w, 10)), "{line}");
    }
    assert_eq!(
        cmd("kata-analyze b 10 maxmoves 2 ownership true minmoves 1"),
        kata(AnalyzeOptions {
            color: Some(Color::Black),
            interval_cs: 10,
            min_moves: 1,
            max_moves: Some(2),
            ownership: true,
            move_rules: Vec::new(),
        })
    );
    assert_eq!(
        cmd("kata-genmove_analyze b 10 ownership true"),
        Ok(Command::GenmoveAnalyze(
            AnalyzeKind::Kata,
            Color::Black,
            options(true, Some(Color::Black), 10)
        ))
    );
    assert_eq!(
        cmd("kata-genmove_analyze w ownership false pvVisits false"),
        Ok(Command::GenmoveAnalyze(
            AnalyzeKind::Kata,
            Color::White,
            options(false, w, DEFAULT_INTERVAL_CS)
        ))
    );
}

#[test]
fn refused_analysis_keys() {
    let refused = [
        // Unsupported true values.
        "kata-analyze b 10 ownershipStdev true",
        "kata-analyze b 10 ownership true movesOwnership true",
        "kata-analyze b 10 movesOwnershipStdev true",
        "kata-analyze b 10 pvVisits true",
        "kata-genmove_analyze b 10 ownershipStdev true",
        // Malformed values, missing values, unknown keys.
        "kata-analyze b 10 ownership yes",
        "kata-analyze b 10 ownership 1",
        "kata-analyze b 10 ownership",
        "kata-analyze b 10 ownership true interval",
        "kata-analyze b 10 pvVisits no",
        "kata-analyze b 10 ownership true allow b d4",
        "kata-analyze b 10 allow b d4 0",
        "kata-analyze b 10 allow x d4 1",
        "kata-analyze b 10 avoid b d4,,e5 1",
        "kata-analyze b 10 avoid b d4,i5 1",
        "kata-analyze b 10 avoid b d4, 1",
        "kata-analyze b 10 avoid b d4 -1",
        "kata-analyze b 10 avoid b d4 99999999999",
        "lz-analyze b 10 avoid b d4 1 allow",
        "kata-analyze b 10 rootInfo true",
        "kata-analyze b 10 Ownership true",
        "kata-analyze b 10 interval true",
        "kata-analyze b 10 ownership true ownership",
        "kata-genmove_analyze ownership true",
        // Leela Zero's dialect has no ownership.
        "lz-analyze b 10 ownership true",
        "lz-analyze b 10 ownership false",
        "lz-analyze b 10 pvVisits false",
        "lz-genmove_analyze b 10 ownership true",
        "lz-genmove_analyze b ownership false",
    ];
    for line in refused {
        match cmd(line) {
            Err(LineError::Syntax(m)) => {
                assert!(m.starts_with("syntax error ("), "{line}: {m}")
            }
            other => panic!("{line}: {other:?}"),
        }
    }
    assert!(matches!(
        cmd("kata-analyze b pvVisits true"),
        Err(LineError::Syntax(m)) if m.contains("pvVisits true is not supported")
    ));
    assert!(matches!(
        cmd("kata-analyze b ownership maybe"),
        Err(LineError::Syntax(m)) if m.contains("[ownership true|false]")
    ));
    assert!(matches!(
        cmd("lz-analyze b ownership true"),
        Err(LineError::Syntax(m)) if !m.contains("ownership")
    ));
}
