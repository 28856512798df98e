//! What every terminal game of `sente play` shares: the menu (play first, play second, computer
//! vs computer, select the AI level, as the lecture numbers them; then two humans, the game's
//! settings, exit), reading a line,
//! asking until an answer is accepted, and the running score across the games of a session.
//!
//! A game plugs in through [`TerminalGame`]: its levels, how to make a player, its settings,
//! where a game starts and how the computer thinks; one loop ([`play_game`]) plays every game
//! over the position's text ([`crate::rules::text`]): its board, its moves, its result.
//! Everything goes through the reader and writer given to [`run_menu`]; end of input ends the
//! session cleanly at any prompt.
//!
//! Computer vs computer: the first computer plays the selected level, the second a level chosen
//! at random (docs/sources.md, SEEDS 004's menu), both from the session's seeded generator so a
//! session replays.

use std::io::{self, BufRead, Write};

use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::players::{Decision, Player};
use crate::rules::game::GamePosition;
use crate::rules::notation::Mv;
use crate::rules::text::{TextPosition, Unread};
use crate::rules::{Color, Position};
use crate::search::clock::SearchLimit;

/// The computer's limit per move: a fixed node budget when given (deterministic play), else
/// `movetime_ms`.
pub fn per_move_limit(nodes: Option<u64>, movetime_ms: u64) -> SearchLimit {
    match nodes {
        Some(n) => SearchLimit::nodes(n),
        None => SearchLimit::move_time(movetime_ms),
    }
}

/// Wins per named participant and draws, kept across the games of a session.
#[derive(Default, Debug)]
pub struct Score {
    wins: Vec<(String, u32)>,
    draws: u32,
    games: u32,
}

impl Score {
    /// Makes `who` appear in the score line (with 0 wins) from now on.
    pub fn ensure(&mut self, who: &str) {
        if !self.wins.iter().any(|(w, _)| w == who) {
            self.wins.push((who.to_string(), 0));
        }
    }
    /// Counts a game won by `who`.
    pub fn win(&mut self, who: &str) {
        self.ensure(who);
        if let Some((_, n)) = self.wins.iter_mut().find(|(w, _)| w == who) {
            *n += 1;
        }
        self.games += 1;
    }
    /// Counts a drawn game.
    pub fn draw(&mut self) {
        self.draws += 1;
        self.games += 1;
    }
    /// `Score after 2 games: you 1, computer 0, draws 1`.
    pub fn line(&self) -> String {
        let mut parts: Vec<String> = self.wins.iter().map(|(w, n)| format!("{w} {n}")).collect();
        parts.push(format!("draws {}", self.draws));
        let s = if self.games == 1 { "" } else { "s" };
        format!("Score after {} game{s}: {}", self.games, parts.join(", "))
    }
}

/// Who moves for one side.
pub enum Agent<P> {
    Human,
    Computer(P),
}

/// One side of a game.
pub struct Side<P> {
    pub agent: Agent<P>,
    /// Name in messages and in the score (`you`, `computer`, `player 1`, `computer 2`); the
    /// colour follows it in parentheses.
    pub label: String,
}

impl<P> Side<P> {
    /// Whether a human types this side's moves.
    pub fn is_human(&self) -> bool {
        matches!(self.agent, Agent::Human)
    }
}

/// What a game ended with.
#[derive(Debug, PartialEq)]
pub enum End {
    /// `winner` won; `how` completes `"<label> (<colour>) ..."`, e.g. `has three in a row`.
    Won { winner: Color, how: String },
    /// A draw, with the sentence announcing it.
    Draw(String),
    /// A human abandoned the game (not scored).
    Quit,
    /// Input ended.
    Eof,
}

/// Reads one trimmed line; `None` at end of input. A line that is not UTF-8 reads as `?`, which
/// every prompt refuses like any other bad input.
pub fn read_line(input: &mut dyn BufRead) -> io::Result<Option<String>> {
    let mut s = String::new();
    match input.read_line(&mut s) {
        Ok(0) => Ok(None),
        Ok(_) => Ok(Some(s.trim().to_string())),
        Err(e) if e.kind() == io::ErrorKind::InvalidData => Ok(Some(String::from("?"))),
        Err(e) => Err(e),
    }
}

/// Writes `prompt`, reads a line and gives it to `parse` until it is accepted; a refusal's
/// message is printed before asking again. `None` at end of input (after a newline, so the
/// next output starts on its own line).
pub fn ask<T>(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    prompt: &str,
    mut parse: impl FnMut(&str) -> Result<T, String>,
) -> io::Result<Option<T>> {
    loop {
        write!(out, "{prompt}")?;
        out.flush()?;
        let Some(line) = read_line(input)? else {
            writeln!(out)?;
            return Ok(None);
        };
        match parse(&line) {
            Ok(v) => return Ok(Some(v)),
            Err(msg) => writeln!(out, "{msg}")?,
        }
    }
}

/// Asks for a new value of a setting; an empty line keeps `current`. `None` at end of input.
pub fn ask_setting<T: std::fmt::Display + Clone>(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    what: &str,
    current: &T,
    mut parse: impl FnMut(&str) -> Result<T, String>,
) -> io::Result<Option<T>> {
    ask(
        input,
        out,
        &format!("{what} (empty keeps {current}): "),
        |line| {
            if line.is_empty() {
                Ok(current.clone())
            } else {
                parse(line)
            }
        },
    )
}

/// Where the computer's search progress goes while it thinks (stderr in the CLI): one line
/// rewritten in place on a terminal, or one line per report otherwise. Best effort: a failed
/// write is ignored, progress is never worth ending a game over.
pub struct ProgressLine<'a> {
    out: &'a mut dyn Write,
    overwrite: bool,
    shown: bool,
}

impl<'a> ProgressLine<'a> {
    /// Progress on `out`; `overwrite` when `out` is a terminal.
    pub fn new(out: &'a mut dyn Write, overwrite: bool) -> ProgressLine<'a> {
        ProgressLine {
            out,
            overwrite,
            shown: false,
        }
    }
    /// Shows `text` as the current progress.
    pub fn show(&mut self, text: &str) {
        let _ = if self.overwrite {
            // Carriage return, then erase to the end of the line (ANSI EL).
            write!(self.out, "\r\x1b[K{text}")
        } else {
            writeln!(self.out, "{text}")
        };
        let _ = self.out.flush();
        self.shown = true;
    }
    /// Clears the line after a search (terminal mode).
    pub fn finish(&mut self) {
        if self.overwrite && self.shown {
            let _ = write!(self.out, "\r\x1b[K");
            let _ = self.out.flush();
        }
        self.shown = false;
    }
}

/// A word every game's move prompt understands besides its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    /// `undo`: take back the last human move (and the computer's reply).
    Undo,
    /// `quit`, `exit` or `00`: abandon the game.
    Quit,
    /// `help` or `?`: show the forms a move may take.
    Help,
}

/// Recognises the shared words (any case).
pub fn word(s: &str) -> Option<Word> {
    match s.trim().to_ascii_lowercase().as_str() {
        "undo" => Some(Word::Undo),
        "quit" | "exit" | "00" | "q" => Some(Word::Quit),
        "help" | "?" => Some(Word::Help),
        _ => None,
    }
}

/// A line typed at a move prompt: one of the shared words, or the game's own input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Typed<I> {
    Word(Word),
    Game(I),
}

/// What a human's turn came to.
#[derive(Debug, PartialEq)]
pub enum Turn<I> {
    /// The game's input (a move, a resignation) to carry out.
    Play(I),
    /// A move was taken back: the turn starts over.
    Again,
    /// The game ends here (quit, end of input).
    Over(End),
}

/// A move prompt: the question, and what `help` shows.
pub struct MovePrompt<'a> {
    pub question: &'a str,
    pub help: &'a str,
}

/// One human turn on `pos`: asks until `parse` accepts a line, then carries out the shared
/// words (`help` answers and asks again, `quit` ends the game, `undo` takes back the last
/// human move, each named by `name`); end of input ends the session.
pub fn human_turn<P: Position, I>(
    pos: &mut P,
    human: [bool; 2],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    prompt: MovePrompt<'_>,
    parse: impl Fn(&P, &str) -> Result<Typed<I>, String>,
    name: impl Fn(&P, P::Move) -> String,
) -> io::Result<Turn<I>> {
    let answer = ask(input, out, prompt.question, |line| {
        match parse(pos, line)? {
            Typed::Word(Word::Help) => Err(prompt.help.to_string()),
            other => Ok(other),
        }
    })?;
    Ok(match answer {
        None => Turn::Over(End::Eof),
        Some(Typed::Word(Word::Quit)) => Turn::Over(End::Quit),
        Some(Typed::Word(_)) => {
            report_take_back(take_back(pos, human, name), out)?;
            Turn::Again
        }
        Some(Typed::Game(i)) => Turn::Play(i),
    })
}

/// How many moves to take back so that the last move made by a human side goes (with the
/// computer replies after it); `None` when no human move is on the record. `movers` lists who
/// made each move, oldest first.
pub fn undo_count(
    movers: impl DoubleEndedIterator<Item = Color>,
    human: [bool; 2],
) -> Option<usize> {
    movers.rev().position(|c| human[c.index()]).map(|n| n + 1)
}

/// Takes back the last move a human side made, with the computer replies after it: the names
/// of the moves taken back, oldest first (`name` spells a move in the position it was played
/// from), or `None` when no human move is on the record.
pub fn take_back<P: Position>(
    pos: &mut P,
    human: [bool; 2],
    name: impl Fn(&P, P::Move) -> String,
) -> Option<Vec<String>> {
    let n = undo_count(pos.record().iter().map(|m| m.1), human)?;
    let mut taken = Vec::new();
    for _ in 0..n {
        if let Some(&(mv, _)) = pos.record().last() {
            taken.push(name(pos, mv));
        }
        pos.undo();
    }
    taken.reverse();
    Some(taken)
}

/// Says what [`take_back`] did.
pub fn report_take_back(taken: Option<Vec<String>>, out: &mut dyn Write) -> io::Result<()> {
    match taken {
        Some(taken) => writeln!(out, "Taken back: {}.", taken.join(", ")),
        None => writeln!(out, "There is no move of yours to take back."),
    }
}

/// A game the menu can run: its levels and settings, and the few things its games do
/// differently (where a game starts, how the computer thinks and what it says of it, how Go
/// counts at the end); the board, the moves and the result are its position's
/// ([`TextPosition`]), and one loop ([`play_game`]) plays every game.
pub trait TerminalGame {
    /// The game's positions.
    type Pos: TextPosition;
    /// A computer player of this game.
    type Player;
    /// The menu's title, e.g. `Tic-Tac-Toe`.
    fn title(&self) -> &str;
    /// The levels, strongest or default first, with a description each.
    fn levels(&self) -> &'static [(&'static str, &'static str)];
    /// The player of `level` (case-insensitive, aliases allowed) seeded with `seed`.
    fn player(&self, level: &str, seed: u64) -> Option<Self::Player>;
    /// The player behind the one interface.
    fn as_player(player: &mut Self::Player) -> &mut dyn Player<Self::Pos>;
    /// The canonical level name of a player.
    fn player_name(&self, player: &Self::Player) -> String;
    /// How a colour is called in messages: `black` / `white` unless the game names them
    /// otherwise (tic-tac-toe's `X` / `O`).
    fn colour(&self, color: Color) -> &'static str {
        match color {
            Color::Black => "black",
            Color::White => "white",
        }
    }
    /// A summary of the game's settings for the menu, `None` when it has none.
    fn settings(&self) -> Option<String> {
        None
    }
    /// Asks for new settings; false at end of input.
    fn change_settings(
        &mut self,
        _input: &mut dyn BufRead,
        _out: &mut dyn Write,
    ) -> io::Result<bool> {
        Ok(true)
    }
    /// The position a game starts from under the settings, or why there is none.
    fn start(&self) -> Result<Self::Pos, String>;
    /// The sentence that opens a game, if any.
    fn intro(&self, _start: &Self::Pos) -> Option<String> {
        None
    }
    /// What the move prompt lists in parentheses (`like h8; undo, quit, help`).
    fn prompt_hint(&self) -> &'static str;
    /// What `help` (and a line that is no move at all) shows.
    fn help(&self) -> &'static str;
    /// Whether a side may resign (`resign` at the prompt).
    fn resigns(&self) -> bool {
        false
    }
    /// The game's end before the board is shown again, when the game decides it rather than
    /// its rules' result (Go: two passes or the move cap, then the count).
    fn ended(&mut self, _pos: &Self::Pos, _out: &mut dyn Write) -> io::Result<Option<End>> {
        Ok(None)
    }
    /// The computer's decision for the side to move (called `name`), with what is said of it
    /// after the move (` (depth 7, eval 35, 1234 nodes)`); `None` when it finds no move.
    fn think(
        &mut self,
        player: &mut Self::Player,
        pos: &Self::Pos,
        name: &str,
    ) -> Option<(Decision<<Self::Pos as Position>::Move>, String)>;
    /// What to say after `mover` (called `name`, the other side `other`) played on `pos`.
    fn after_move(&self, _pos: &Self::Pos, _name: &str, _other: &str) -> Option<String> {
        None
    }
    /// The game on `pos` is over; the computer `player` played `ours` (learning players learn).
    fn game_over(_player: &mut Self::Player, _pos: &Self::Pos, _ours: Color) {}
}

/// What a human typed at the move prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input<M> {
    Move(M),
    Resign,
}

/// Plays one game of `game` between `sides` (index 0 is the first player) and says how it
/// ended: the board before every move, a human's moves read and checked by the position, the
/// computer's announced, until the rules or the game say it is over.
pub fn play_game<G: TerminalGame>(
    game: &mut G,
    sides: &mut [Side<G::Player>; 2],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<End> {
    let mut pos = match game.start() {
        Ok(p) => p,
        Err(why) => {
            writeln!(out, "{why}")?;
            return Ok(End::Quit);
        }
    };
    for side in sides.iter_mut() {
        if let Agent::Computer(p) = &mut side.agent {
            G::as_player(p).new_game(&pos);
        }
    }
    if let Some(intro) = game.intro(&pos) {
        writeln!(out, "{intro}")?;
    }
    let human = [sides[0].is_human(), sides[1].is_human()];
    let (help, resigns) = (game.help(), game.resigns());
    let end = loop {
        if let Some(end) = game.ended(&pos, out)? {
            break end;
        }
        write!(out, "\n{}", pos.board_text())?;
        if let Some((winner, how)) = pos.result_text() {
            break match winner {
                Some(winner) => End::Won { winner, how },
                None => End::Draw(how),
            };
        }
        let color = pos.to_move();
        let label = sides[color.index()].label.clone();
        let (name, other) = (game.colour(color), game.colour(color.opponent()));
        let resigned = End::Won {
            winner: color.opponent(),
            how: format!("wins: {name} resigned"),
        };
        let mv = match &mut sides[color.index()].agent {
            Agent::Human => {
                let question = format!("{label} ({name}), your move ({}): ", game.prompt_hint());
                let prompt = MovePrompt {
                    question: &question,
                    help,
                };
                let parse = |p: &G::Pos, line: &str| {
                    if let Some(w) = word(line) {
                        return Ok(Typed::Word(w));
                    }
                    if resigns && line.trim().eq_ignore_ascii_case("resign") {
                        return Ok(Typed::Game(Input::Resign));
                    }
                    match p.read_move(line) {
                        Ok(mv) => Ok(Typed::Game(Input::Move(mv))),
                        Err(Unread::NotAMove) => {
                            Err(format!("I do not understand {line:?}. {help}"))
                        }
                        Err(Unread::Refused(why)) => Err(why),
                    }
                };
                let text = |p: &G::Pos, mv| p.move_text(mv);
                match human_turn(&mut pos, human, input, out, prompt, parse, text)? {
                    Turn::Over(end) => return Ok(end),
                    Turn::Again => continue,
                    Turn::Play(Input::Resign) => break resigned,
                    Turn::Play(Input::Move(mv)) => mv,
                }
            }
            Agent::Computer(player) => match game.think(player, &pos, name) {
                None => break End::Draw(format!("No point is left that {name} may play: a draw.")),
                Some((Decision::Resign, _)) => {
                    writeln!(out, "{label} ({name}) resigns.")?;
                    break resigned;
                }
                Some((Decision::Play(mv), detail)) => {
                    if pos.mv_of(mv) == Mv::Pass {
                        writeln!(out, "{label} ({name}) passes{detail}.")?;
                    } else {
                        writeln!(out, "{label} ({name}) plays {}{detail}.", pos.move_text(mv))?;
                    }
                    mv
                }
            },
        };
        if let Err(e) = pos.play(mv) {
            // Checked above; never leave the loop on it.
            writeln!(out, "{}: {e}; try again.", pos.move_text(mv))?;
            continue;
        }
        if let Some(said) = game.after_move(&pos, name, other) {
            writeln!(out, "{said}")?;
        }
    };
    for (side, ours) in sides.iter_mut().zip([Color::Black, Color::White]) {
        if let Agent::Computer(player) = &mut side.agent {
            G::game_over(player, &pos, ours);
        }
    }
    Ok(end)
}

/// Asks for a level by number or name; `None` at end of input.
fn choose_level<G: TerminalGame>(
    game: &G,
    current: &str,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<Option<String>> {
    let levels = game.levels();
    writeln!(out, "AI levels:")?;
    for (i, (name, desc)) in levels.iter().enumerate() {
        writeln!(out, "{} : {name} - {desc}", i + 1)?;
    }
    let prompt = format!("Choose a level by number or name (empty keeps {current}): ");
    let level = ask(input, out, &prompt, |line| {
        if line.is_empty() {
            return Ok(None);
        }
        let by_number = line
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| levels.get(i))
            .map(|(n, _)| n.to_string());
        let by_name = game.player(line, 0).map(|p| game.player_name(&p));
        match by_number.or(by_name) {
            Some(l) => Ok(Some(l)),
            None => Err(format!("Unknown level: {line}")),
        }
    })?;
    match level {
        None => Ok(None),
        Some(None) => Ok(Some(current.to_string())),
        Some(Some(l)) => {
            writeln!(out, "AI level: {l}")?;
            Ok(Some(l))
        }
    }
}

fn goodbye(out: &mut dyn Write) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "Goodbye.")
}

/// Runs the menu of `game` until `0` or end of input, starting at `level`. `seed` seeds every
/// computer player and the random level of the second computer, so a session replays.
pub fn run_menu<G: TerminalGame>(
    game: &mut G,
    mut level: String,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    seed: u64,
) -> io::Result<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut score = Score::default();
    let (first, second) = (game.colour(Color::Black), game.colour(Color::White));
    loop {
        writeln!(out)?;
        writeln!(out, "### {} ###", game.title())?;
        writeln!(out, "1 : Play first ({first})")?;
        writeln!(out, "2 : Play second ({second})")?;
        // The lecture's numbers (docs/sources.md, SEEDS 004), then what sente adds.
        writeln!(out, "3 : Computer vs Computer")?;
        writeln!(out, "4 : Select AI (current: {level})")?;
        writeln!(out, "5 : Two humans")?;
        if let Some(s) = game.settings() {
            writeln!(out, "6 : Settings ({s})")?;
        }
        writeln!(out, "0 : Exit")?;
        write!(out, "Enter command: ")?;
        out.flush()?;
        let Some(cmd) = read_line(input)? else {
            return goodbye(out);
        };
        let computer = |lvl: &str, rng: &mut ChaCha8Rng| -> Agent<G::Player> {
            match game.player(lvl, rng.gen()) {
                Some(p) => Agent::Computer(p),
                None => Agent::Human,
            }
        };
        let side = |agent: Agent<G::Player>, label: &str| Side {
            agent,
            label: label.to_string(),
        };
        let mut sides: [Side<G::Player>; 2] = match cmd.as_str() {
            "1" | "2" => {
                let human = side(Agent::Human, "you");
                let comp = side(computer(&level, &mut rng), "computer");
                let yours = if cmd == "1" { first } else { second };
                writeln!(out, "You play {yours} against {level}.")?;
                if cmd == "1" {
                    [human, comp]
                } else {
                    [comp, human]
                }
            }
            "5" => [
                side(Agent::Human, "player 1"),
                side(Agent::Human, "player 2"),
            ],
            "3" => {
                let levels = game.levels();
                let other = levels[rng.gen_range(0..levels.len())].0;
                writeln!(
                    out,
                    "Computer vs computer: {first} is {level}, {second} is {other} (chosen at random)."
                )?;
                [
                    side(computer(&level, &mut rng), "computer 1"),
                    side(computer(other, &mut rng), "computer 2"),
                ]
            }
            "4" => {
                match choose_level(game, &level, input, out)? {
                    Some(l) => level = l,
                    // `ask` has ended the prompt's line already.
                    None => return writeln!(out, "Goodbye."),
                }
                continue;
            }
            "6" if game.settings().is_some() => {
                if !game.change_settings(input, out)? {
                    return writeln!(out, "Goodbye.");
                }
                continue;
            }
            "0" => {
                writeln!(out, "Goodbye.")?;
                writeln!(out, "{}", score.line())?;
                return Ok(());
            }
            other => {
                writeln!(out, "Unknown command: {other}")?;
                continue;
            }
        };
        // "you" leads the score line whichever side the human took.
        let mut labels: Vec<String> = sides.iter().map(|s| s.label.clone()).collect();
        labels.sort_by_key(|l| l != "you");
        for l in &labels {
            score.ensure(l);
        }
        match play_game(game, &mut sides, input, out)? {
            End::Won { winner, how } => {
                let who = sides[winner.index()].label.clone();
                let msg = match who.as_str() {
                    "you" => "You win!".to_string(),
                    "computer" => "The computer wins.".to_string(),
                    other => format!("{other} wins!"),
                };
                writeln!(out, "{who} ({}) {how}. {msg}", game.colour(winner))?;
                score.win(&who);
                writeln!(out, "{}", score.line())?;
            }
            End::Draw(sentence) => {
                writeln!(out, "{sentence}")?;
                score.draw();
                writeln!(out, "{}", score.line())?;
            }
            End::Quit => {
                writeln!(out, "Game abandoned (not scored).")?;
            }
            End::Eof => {
                writeln!(out, "Goodbye.")?;
                return Ok(());
            }
        }
    }
}

/// Scripted sessions for the games' tests: one place drives a menu from a script and
/// collects what it printed.
#[cfg(test)]
pub(crate) mod scripted {
    use std::io::{self, BufRead, Write};

    /// The menu's output and the search progress of a session fed `script`, run by `run`.
    pub fn session(
        script: &str,
        run: impl FnOnce(&mut dyn BufRead, &mut dyn Write, &mut dyn Write) -> io::Result<()>,
    ) -> (String, String) {
        let mut input = io::Cursor::new(script.as_bytes().to_vec());
        let (mut out, mut progress) = (Vec::new(), Vec::new());
        run(&mut input, &mut out, &mut progress).unwrap();
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(progress).unwrap(),
        )
    }

    /// One typed line per entry.
    pub fn lines(entries: &[&str]) -> String {
        entries.iter().map(|m| format!("{m}\n")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_line_counts_wins_and_draws() {
        let mut s = Score::default();
        s.ensure("you");
        s.ensure("computer");
        assert_eq!(s.line(), "Score after 0 games: you 0, computer 0, draws 0");
        s.win("computer");
        assert_eq!(s.line(), "Score after 1 game: you 0, computer 1, draws 0");
        s.draw();
        s.win("you");
        assert_eq!(s.line(), "Score after 3 games: you 1, computer 1, draws 1");
    }

    #[test]
    fn ask_repeats_until_accepted_and_setting_keeps_on_empty() {
        let mut input = io::Cursor::new(b"x\n7\n\n".to_vec());
        let mut out = Vec::new();
        let parse = |s: &str| s.parse::<u32>().map_err(|_| format!("not a number: {s}"));
        let v = ask(&mut input, &mut out, "n? ", parse).unwrap();
        assert_eq!(v, Some(7));
        let kept = ask_setting(&mut input, &mut out, "size", &15u32, parse).unwrap();
        assert_eq!(kept, Some(15));
        assert_eq!(ask(&mut input, &mut out, "n? ", parse).unwrap(), None);
        let t = String::from_utf8(out).unwrap();
        assert_eq!(t, "n? not a number: x\nn? size (empty keeps 15): n? \n");
    }

    #[test]
    fn undo_reaches_back_to_the_last_human_move() {
        use Color::{Black as B, White as W};
        // Human black, computer white: B W B W -> the last black and the reply after it.
        assert_eq!(undo_count([B, W, B, W].into_iter(), [true, false]), Some(2));
        assert_eq!(undo_count([B, W, B].into_iter(), [true, false]), Some(1));
        // Human white, nothing of theirs yet.
        assert_eq!(undo_count([B].into_iter(), [false, true]), None);
        // Two humans: the last move only.
        assert_eq!(undo_count([B, W].into_iter(), [true, true]), Some(1));
        assert_eq!(word(" UNDO "), Some(Word::Undo));
        assert_eq!(word("00"), Some(Word::Quit));
        assert_eq!(word("h8"), None);
    }

    #[test]
    fn invalid_utf8_reads_as_a_refusable_line() {
        let mut input = io::Cursor::new(vec![0xff, 0xfe, b'\n']);
        assert_eq!(read_line(&mut input).unwrap().as_deref(), Some("?"));
    }
}
