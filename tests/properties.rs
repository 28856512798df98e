//! Property tests of everything hostile input reaches: both protocol parsers and the SGF reader
//! take any bytes without panicking, and command sequences through the sessions get exactly one
//! answer per command and leave the state as it was whenever they are refused. Case counts stay
//! small (the whole file runs in seconds); `scripts/fuzz_gtp.py` and `scripts/fuzz_gomocup.py`
//! run the same checks by the thousand against the built binaries.

use std::io::Cursor;
use std::sync::Arc;
use std::time::Instant;

use proptest::prelude::*;

use sente::protocol::gomocup::block::{BlockKind, BoardCollector};
use sente::protocol::gomocup::parse::{parse_command, parse_info};
use sente::protocol::gtp::commands::GtpGameKind;
use sente::protocol::gtp::parse::{parse_line, preprocess};
use sente::protocol::gtp::GtpOptions;
use sente::protocol::io::normalise;
use sente::protocol::{run_with, ProtocolChoice, RunOptions};
use sente::rules::Rule;
use sente::session::go::sgf::{decode, read_record};
use sente::session::gomoku::{GomokuSession, Progress, Reply, Request, SessionConfig, StoneLine};
use sente::session::StopSignal;

fn cases(n: u32) -> ProptestConfig {
    ProptestConfig {
        cases: n,
        // No regression files in the repository: a failure prints its minimal input.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A short Go record, valid or nearly so, for the SGF reader to chew on.
fn sgf_text() -> impl Strategy<Value = String> {
    let prop = prop_oneof![
        "(B|W)\\[[a-t]{2}\\]",
        "(B|W)\\[\\]",
        "(AB|AW|AE)(\\[[a-t]{2}\\]){1,3}",
        "PL\\[(B|W|X)\\]",
        "SZ\\[([0-9]{1,2}|[0-9]{1,2}:[0-9]{1,2}|x)\\]",
        "KM\\[-?[0-9]{1,3}(\\.5)?\\]",
        "C\\[[^\\]]{0,8}\\]",
        "GM\\[[0-9]\\]",
    ];
    let node = prop::collection::vec(prop, 0..4).prop_map(|ps| format!(";{}", ps.concat()));
    prop::collection::vec(node, 1..12).prop_map(|nodes| format!("({})", nodes.concat()))
}

/// `text` with a few bytes replaced, inserted or cut.
fn corrupted(text: String, edits: Vec<(usize, u8, u8)>) -> Vec<u8> {
    let mut bytes = text.into_bytes();
    for (at, kind, b) in edits {
        let i = at % (bytes.len() + 1);
        match kind % 3 {
            0 if i < bytes.len() => bytes[i] = b,
            1 => bytes.insert(i, b),
            _ => bytes.truncate(i),
        }
    }
    bytes
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn gtp_lines_of_any_bytes_parse_without_panic(raw in prop::collection::vec(any::<u8>(), 0..80)) {
        let Some(line) = normalise(&raw) else { return Ok(()) };
        match parse_line(&line) {
            None => prop_assert!(preprocess(&line).is_none()),
            Some(p) => {
                prop_assert!(preprocess(&line).is_some());
                if let Some(id) = &p.id {
                    prop_assert!(!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()));
                }
            }
        }
    }

    #[test]
    fn gtp_lines_of_known_words_parse_without_panic(
        id in "([0-9]{1,3} )?",
        name in "(play|genmove|boardsize|rectangular_boardsize|komi|time_left|time_settings|kgs-time_settings|loadsgf|lz-analyze|kata-analyze|kata-genmove_analyze|kata-set-rules|kata-set-rule|kgs-rules|set_free_handicap|fixed_handicap|final_status_list|known_command|sente-level|gomill-genmove_ex|kgs-genmove_cleanup|reg_genmove|undo)",
        args in prop::collection::vec("[a-zA-Z0-9.:,{}\"-]{0,6}", 0..6),
    ) {
        let line = format!("{id}{name} {}", args.join(" "));
        prop_assert!(parse_line(&line).is_some());
    }

    #[test]
    fn gomocup_lines_of_any_text_parse_without_panic(line in ".{0,60}") {
        let _ = parse_command(&line);
        let _ = parse_info(&line);
        for kind in [BlockKind::Board, BlockKind::YxBoard, BlockKind::Swap2Board] {
            let _ = BoardCollector::new(kind).feed(&line);
        }
    }

    #[test]
    fn gomocup_lines_of_known_words_parse_without_panic(
        word in "(START|RECTSTART|TURN|PLAY|TAKEBACK|BEGIN|BOARD|INFO|YXNBEST|SWAP2BOARD|ABOUT|END|RESTART|YXSHOWFORBID|start|turn)",
        args in "[0-9 ,+-]{0,20}|INFO (timeout_turn|time_left|rule|max_node|level|kernel) [0-9a-z-]{0,12}",
    ) {
        let _ = parse_command(&format!("{word} {args}"));
    }

    #[test]
    fn the_sgf_reader_takes_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = read_record(&decode(&bytes));
    }

    #[test]
    fn the_sgf_reader_takes_corrupted_records(
        text in sgf_text(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), prop::sample::select(b"()[];\\:ABWabt9 \xff".to_vec())), 0..4),
    ) {
        let bytes = corrupted(text, edits);
        if let Ok(r) = read_record(&decode(&bytes)) {
            // What it accepts is on its own board.
            for e in &r.events {
                if let sente::session::go::sgf::SgfEvent::Move(_, Some((x, y))) = e {
                    prop_assert!(*x < r.width && *y < r.height);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// GTP sessions: one response per command, in order, with its id; a refused command changes
// neither the board nor the rules nor the level.

fn gtp_command() -> impl Strategy<Value = String> {
    let color = "(b|w|B|white|x)";
    let vertex = "([A-HJ][1-9]|pass|PASS|I5|Z9|[a-h][0-9]{1,2})";
    prop_oneof![
        3 => (color, vertex).prop_map(|(c, v)| format!("play {c} {v}")),
        1 => color.prop_map(|c| format!("genmove {c}")),
        1 => color.prop_map(|c| format!("reg_genmove {c}")),
        1 => "[0-9]{1,2}|-1|x".prop_map(|n| format!("boardsize {n}")),
        1 => ("[0-9]{1,2}", "[0-9]{1,2}").prop_map(|(w, h)| format!("rectangular_boardsize {w} {h}")),
        1 => Just("clear_board".to_string()),
        1 => "-?[0-9]{1,3}(\\.5)?|nan|inf|x".prop_map(|k| format!("komi {k}")),
        2 => Just("undo".to_string()),
        1 => "[0-9]{1,2}".prop_map(|n| format!("fixed_handicap {n}")),
        1 => prop::collection::vec(vertex, 0..4).prop_map(|v| format!("set_free_handicap {}", v.join(" "))),
        1 => "(japanese|chinese|tromp-taylor|aga-button|stone-scoring|nosuch)".prop_map(|r| format!("kata-set-rules {r}")),
        1 => "(ko|suicide|tax|scoring|komi) (SIMPLE|true|false|SEKI|AREA|x)".prop_map(|r| format!("kata-set-rule {r}")),
        1 => ("(b|w|x)", "-?[0-9]{1,3}", "[0-9]").prop_map(|(c, t, s)| format!("time_left {c} {t} {s}")),
        1 => "(mcts|heuristic|perfect|nosuch)".prop_map(|l| format!("sente-level {l}")),
        1 => "(game|illegal|nosuchfile|notsgf|hugekomi|nolibs|setup|rect)\\.sgf( [0-9]{1,2})?".prop_map(|f| format!("loadsgf {f}")),
        1 => Just("showboard".to_string()),
        1 => "[a-z][a-z0-9_ .,-]{0,15}",
    ]
}

/// The responses of a GTP output: (succeeded, id, text).
fn responses(out: &str) -> Vec<(bool, Option<String>, String)> {
    out.split_terminator("\n\n")
        .map(|r| {
            let ok = r.starts_with('=');
            let head = r.get(1..).unwrap_or("");
            let id: String = head.chars().take_while(char::is_ascii_digit).collect();
            let text = head[id.len()..].trim_start().to_string();
            (ok, (!id.is_empty()).then_some(id), text)
        })
        .collect()
}

/// Runs `commands` through the GTP loop (in-process) of `game`, each followed by the state
/// probes, and checks the properties.
fn check_gtp_session(game: &str, commands: &[String]) -> Result<(), TestCaseError> {
    const PROBES: [&str; 3] = ["showboard", "kata-get-rules", "sente-level"];
    let mut input = String::new();
    let line = |input: &mut String, id: usize, text: &str| {
        input.push_str(&format!("{id} {text}\n"));
    };
    for (j, p) in PROBES.iter().enumerate() {
        line(&mut input, j, p);
    }
    for (i, c) in commands.iter().enumerate() {
        let base = (i + 1) * 10;
        line(&mut input, base, c);
        for (j, p) in PROBES.iter().enumerate() {
            line(&mut input, base + 1 + j, p);
        }
    }
    let mut options = RunOptions {
        protocol: ProtocolChoice::Gtp,
        gtp: GtpOptions {
            seed: 1,
            nodes: Some(20),
            ..GtpOptions::default()
        },
        ..RunOptions::default()
    };
    if game == "ttt" {
        options.gtp.game = GtpGameKind::Ttt;
    }
    // loadsgf finds the transcripts' records relative to the working directory: give it
    // absolute paths instead.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/protocol-tests/gtp/");
    let input = input.replace("loadsgf ", &format!("loadsgf {dir}"));
    let mut out = Vec::new();
    run_with(Cursor::new(input.into_bytes()), &mut out, options).unwrap();
    let out = String::from_utf8(out).unwrap();
    let r = responses(&out);
    prop_assert_eq!(
        r.len(),
        (commands.len() + 1) * (PROBES.len() + 1) - 1,
        "{}",
        out
    );
    prop_assert!(!out.contains("internal error"), "{}", out);
    let probes_at =
        |k: usize| -> Vec<&str> { (0..PROBES.len()).map(|j| r[k + j].2.as_str()).collect() };
    let mut state = probes_at(0);
    for (i, c) in commands.iter().enumerate() {
        let at = PROBES.len() + i * (PROBES.len() + 1);
        let (ok, id, text) = &r[at];
        let want = ((i + 1) * 10).to_string();
        prop_assert_eq!(id.as_deref(), Some(want.as_str()), "{}", out);
        let after = probes_at(at + 1);
        if !ok {
            prop_assert!(!text.contains('\n'), "a one-line error: {:?}", text);
            prop_assert_eq!(
                &after,
                &state,
                "{:?} was refused ({:?}) but changed the state",
                c,
                text
            );
        }
        state = after;
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases(24))]

    #[test]
    fn go_command_sequences_answer_once_and_refusals_change_nothing(
        commands in prop::collection::vec(gtp_command(), 1..25),
    ) {
        check_gtp_session("go", &commands)?;
    }

    #[test]
    fn ttt_command_sequences_answer_once_and_refusals_change_nothing(
        commands in prop::collection::vec(gtp_command(), 1..25),
    ) {
        check_gtp_session("ttt", &commands)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Gomocup sessions: each command gets one reply by construction (one `Reply` per call); a
// refused one (`ERROR`) changes neither the board, its history nor the rule.

#[derive(Clone, Debug)]
enum GomokuOp {
    Start(i64),
    RectStart(i64, i64),
    Restart,
    Info(String),
    Begin,
    Turn(i64, i64),
    Play(i64, i64),
    Takeback(i64, i64),
    Board(Vec<(i64, i64, Option<i64>)>, bool),
    Swap2(Vec<(i64, i64, Option<i64>)>),
    Nbest(i64),
    ShowForbid,
}

fn gomoku_op() -> impl Strategy<Value = GomokuOp> {
    let c = -2i64..22;
    let stones = prop::collection::vec((-1i64..16, -1i64..16, prop::option::of(0i64..5)), 0..7);
    prop_oneof![
        1 => prop_oneof![Just(15i64), Just(3), 0i64..40].prop_map(GomokuOp::Start),
        1 => (0i64..25, 0i64..25).prop_map(|(w, h)| GomokuOp::RectStart(w, h)),
        1 => Just(GomokuOp::Restart),
        2 => "(rule [0-9]{1,2}|rule -1|level (strong|classic|learner|perfect|x)|max_node -?[0-9]{1,4}|timeout_turn [0-9]{1,3}|max_depth [0-9]|kernel [0-9]{1,2}|nosuch 1)".prop_map(GomokuOp::Info),
        1 => Just(GomokuOp::Begin),
        4 => (c.clone(), c.clone()).prop_map(|(x, y)| GomokuOp::Turn(x, y)),
        2 => (c.clone(), c.clone()).prop_map(|(x, y)| GomokuOp::Play(x, y)),
        2 => (c.clone(), c).prop_map(|(x, y)| GomokuOp::Takeback(x, y)),
        2 => (stones.clone(), any::<bool>()).prop_map(|(s, t)| GomokuOp::Board(s, t)),
        1 => stones.prop_map(GomokuOp::Swap2),
        1 => (-1i64..4).prop_map(GomokuOp::Nbest),
        1 => Just(GomokuOp::ShowForbid),
    ]
}

/// What a refused command must leave alone.
fn gomoku_state(s: &GomokuSession) -> (Option<(usize, usize, String)>, Rule) {
    let board = s
        .board()
        .map(|b| (b.width(), b.height(), format!("{:?}", b.history())));
    (board, s.rule())
}

proptest! {
    #![proptest_config(cases(48))]

    #[test]
    fn gomocup_command_sequences_leave_refused_states_alone(
        ops in prop::collection::vec(gomoku_op(), 1..30),
    ) {
        let config = SessionConfig {
            seed: 1,
            nodes: Some(40),
            ..SessionConfig::default()
        };
        let mut s = GomokuSession::new(config, Arc::new(StopSignal::new()));
        for op in &ops {
            let before = gomoku_state(&s);
            let mut sink = |_: &Progress| {};
            let mut req = Request { seq: 0, at: Instant::now(), progress: &mut sink };
            let lines = |v: &[(i64, i64, Option<i64>)]| -> Vec<StoneLine> {
                v.iter().map(|&(x, y, field)| StoneLine { x, y, field }).collect()
            };
            let reply = match op {
                GomokuOp::Start(n) => s.start(*n),
                GomokuOp::RectStart(w, h) => s.rect_start(*w, *h),
                GomokuOp::Restart => s.restart(),
                GomokuOp::Info(text) => {
                    s.info(parse_info(text));
                    Reply::Nothing
                }
                GomokuOp::Begin => s.begin(&mut req),
                GomokuOp::Turn(x, y) => s.turn(*x, *y, &mut req),
                GomokuOp::Play(x, y) => s.play(*x, *y),
                GomokuOp::Takeback(x, y) => s.takeback(*x, *y),
                GomokuOp::Board(v, think) => s.set_board(&lines(v), *think, &mut req),
                GomokuOp::Swap2(v) => s.swap2(&lines(v), &mut req),
                GomokuOp::Nbest(n) => s.nbest(*n, &mut req),
                GomokuOp::ShowForbid => s.show_forbid(),
            };
            if let Reply::Error(why) = &reply {
                prop_assert!(!why.contains("internal error"), "{:?}: {}", op, why);
                prop_assert_eq!(gomoku_state(&s), before, "{:?} was refused ({}) but changed the state", op, why);
            }
        }
    }

    #[test]
    fn both_loops_take_any_bytes(
        lines in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..30), 0..20),
        gtp in any::<bool>(),
    ) {
        let mut input = Vec::new();
        for l in &lines {
            input.extend_from_slice(l);
            input.push(b'\n');
        }
        let options = RunOptions {
            protocol: if gtp { ProtocolChoice::Gtp } else { ProtocolChoice::Auto },
            gtp: GtpOptions { seed: 1, nodes: Some(20), ..GtpOptions::default() },
            session: SessionConfig { seed: 1, nodes: Some(40), ..SessionConfig::default() },
        };
        // The lines as the reader splits them (a generated line may hold line ends itself).
        let commands: Vec<String> = input
            .split(|&b| b == b'\n')
            .filter_map(normalise)
            .filter(|l| preprocess(l).is_some())
            .collect();
        let mut out = Vec::new();
        run_with(Cursor::new(input), &mut out, options).unwrap();
        let out = String::from_utf8_lossy(&out);
        prop_assert!(!out.contains("internal error"), "{}", out);
        if gtp {
            // One response per line that preprocessing leaves non-empty, up to a quit.
            let due = commands
                .iter()
                .position(|l| parse_line(l).is_some_and(|p| p.name == "quit"))
                .map_or(commands.len(), |q| q + 1);
            prop_assert_eq!(responses(&out).len(), due, "{}", out);
        }
    }
}
