//! What a protocol drives: the current game, its history, the clock settings and the player.
//! Also owns [`StopSignal`], the handshake between the input thread (which sees `YXSTOP`, `STOP`
//! and `END` the moment they arrive) and the search running on the session's thread.

pub mod go;
pub mod gomoku;
pub mod gtp_game;
pub mod mnk;
pub mod options;
pub mod ttt;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};

/// An input line that interrupts a running search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// Stop thinking and answer with the best move found so far (`YXSTOP`, `STOP`).
    Stop,
    /// Stop thinking, answer nothing, quit (`END`).
    End,
    /// End of input: the manager is gone. A search running when it comes stops at once and
    /// answers with the best move so far (to whoever may still read it), and the session then
    /// quits; read ahead of its search (a piped script) it stops nothing, like `END`.
    Eof,
}

/// Sequence number meaning "no line".
const NONE: u64 = u64::MAX;

/// The stop flag shared by the input thread and the search, plus just enough bookkeeping that an
/// interrupt stops only the search it follows.
///
/// Every input line carries a sequence number. An interrupt on line `n` is meant for the search
/// requested by line `n - 1`: stdin is read ahead of the session, so a `YXSTOP` further down a
/// piped script must not cut short a search that comes earlier. Both sides publish before they
/// look (the session publishes `busy_seq` before taking the lock the reader records under), so
/// whichever of "search starts" and "interrupt read" happens second sees the first:
///
/// ```text
///   reader:  lock { pending += (n, kind);  if busy_seq == n - 1 { stop = true } }
///   session: stop = false; busy_seq = k;  lock { if (k + 1, Stop) in pending { stop = true } }
/// ```
///
/// Every interrupt read ahead is kept until the search it may concern has been armed, because a
/// piped GTP script can hold several analyses, each ended by the line after it.
///
/// `END` is different: read ahead of its search (a piped script, or a manager that sends `END`
/// after reading the reply) it simply ends the session in turn, after the answer; only an `END`
/// that arrives *while* the search runs stops it, and then the answer is not written.
#[derive(Debug)]
pub struct StopSignal {
    stop: AtomicBool,
    busy_seq: AtomicU64,
    /// `seq << 2 | kind` of the interrupting lines not yet passed by an `arm` (kind 1 = stop,
    /// 2 = end, 3 = end of input).
    pending: Mutex<Vec<u64>>,
    ended_during_search: AtomicBool,
    /// Raised by the input thread after it has queued any line (and at end of input): ends a
    /// ponder ([`StopSignal::input_flag`]), whatever the line.
    input: AtomicBool,
    /// Notified, under the `pending` lock, when an interrupt raises `stop`: what
    /// [`StopSignal::wait_for_stop`] sleeps on.
    raised: Condvar,
}

impl Default for StopSignal {
    fn default() -> Self {
        StopSignal::new()
    }
}

const STOP_CODE: u64 = 1;
const END_CODE: u64 = 2;
const EOF_CODE: u64 = 3;

impl StopSignal {
    /// A signal with nothing pending.
    pub fn new() -> StopSignal {
        StopSignal {
            stop: AtomicBool::new(false),
            busy_seq: AtomicU64::new(NONE),
            pending: Mutex::new(Vec::new()),
            ended_during_search: AtomicBool::new(false),
            input: AtomicBool::new(false),
            raised: Condvar::new(),
        }
    }

    /// Called by the input thread after it has queued a line, or at end of input.
    pub fn note_input(&self) {
        self.input.store(true, Ordering::SeqCst);
    }

    /// Lowers the input flag before the session looks for queued input and ponders: a line
    /// queued after this raises it again, so a ponder started on an empty queue sees it.
    pub fn clear_input(&self) {
        self.input.store(false, Ordering::SeqCst);
    }

    /// The flag a ponder polls: raised by any input since [`StopSignal::clear_input`].
    pub fn input_flag(&self) -> &AtomicBool {
        &self.input
    }

    /// The flag the search polls.
    pub fn flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// Called by the input thread for an interrupting line with sequence number `seq`.
    pub fn interrupt(&self, seq: u64, kind: Interrupt) {
        let code = match kind {
            Interrupt::Stop => STOP_CODE,
            Interrupt::End => END_CODE,
            Interrupt::Eof => EOF_CODE,
        };
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.push(seq << 2 | code);
        if seq > 0 && self.busy_seq.load(Ordering::SeqCst) == seq - 1 {
            if kind == Interrupt::End {
                self.ended_during_search.store(true, Ordering::SeqCst);
            }
            self.stop.store(true, Ordering::SeqCst);
            self.raised.notify_all();
        }
    }

    /// Blocks until the flag is raised for the armed command (by an interrupt read ahead for
    /// it, or one that arrives while it runs): how an analysis that finished early waits for
    /// the next line. The flag is raised and read under one lock, so no raise is missed.
    pub fn wait_for_stop(&self) {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        while !self.stop.load(Ordering::SeqCst) {
            pending = self.raised.wait(pending).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Called by the session right before searching for the command on line `seq`.
    pub fn arm(&self, seq: u64) {
        self.stop.store(false, Ordering::SeqCst);
        self.ended_during_search.store(false, Ordering::SeqCst);
        self.busy_seq.store(seq, Ordering::SeqCst);
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        // Lines before this command can no longer stop anything.
        pending.retain(|&c| c >> 2 > seq);
        if pending.contains(&(seq.wrapping_add(1) << 2 | STOP_CODE)) {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Called by the session when the search for the current command has returned.
    pub fn disarm(&self) {
        self.busy_seq.store(NONE, Ordering::SeqCst);
    }

    /// Whether an `END` arrived while the last search was running (its answer must not be sent).
    pub fn ended_during_search(&self) -> bool {
        self.ended_during_search.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_read_ahead_stops_only_the_search_right_before_it() {
        let s = StopSignal::new();
        s.interrupt(9, Interrupt::Stop);
        s.arm(4);
        assert!(!s.flag().load(Ordering::SeqCst));
        s.disarm();
        s.arm(8);
        assert!(s.flag().load(Ordering::SeqCst));
        assert!(!s.ended_during_search());
        s.disarm();
    }

    #[test]
    fn every_stop_read_ahead_is_kept_for_its_search() {
        let s = StopSignal::new();
        s.interrupt(5, Interrupt::Stop);
        s.interrupt(7, Interrupt::Stop);
        s.interrupt(9, Interrupt::Stop);
        s.arm(4);
        assert!(s.flag().load(Ordering::SeqCst));
        s.disarm();
        s.arm(5);
        assert!(!s.flag().load(Ordering::SeqCst));
        s.disarm();
        s.arm(6);
        assert!(s.flag().load(Ordering::SeqCst));
        s.disarm();
        s.arm(8);
        assert!(s.flag().load(Ordering::SeqCst));
        s.disarm();
    }

    #[test]
    fn an_end_read_ahead_does_not_stop_the_search() {
        let s = StopSignal::new();
        s.interrupt(9, Interrupt::End);
        s.arm(8);
        assert!(!s.flag().load(Ordering::SeqCst));
        assert!(!s.ended_during_search());
        s.disarm();
    }

    #[test]
    fn end_of_input_stops_only_a_running_search_and_lets_it_answer() {
        let s = StopSignal::new();
        s.interrupt(9, Interrupt::Eof);
        s.arm(8);
        assert!(
            !s.flag().load(Ordering::SeqCst),
            "read ahead, it stops nothing"
        );
        s.disarm();
        let s = StopSignal::new();
        s.arm(8);
        s.interrupt(9, Interrupt::Eof);
        assert!(s.flag().load(Ordering::SeqCst));
        assert!(!s.ended_during_search(), "the answer is still written");
        s.disarm();
    }

    #[test]
    fn a_wait_for_the_stop_ends_when_an_interrupt_raises_it() {
        let s = std::sync::Arc::new(StopSignal::new());
        s.interrupt(6, Interrupt::Stop);
        s.arm(5);
        s.wait_for_stop();
        s.disarm();
        s.arm(7);
        let waiter = {
            let s = s.clone();
            std::thread::spawn(move || s.wait_for_stop())
        };
        s.interrupt(8, Interrupt::Stop);
        waiter.join().unwrap();
        s.disarm();
    }

    #[test]
    fn an_interrupt_during_the_search_sets_the_flag() {
        let s = StopSignal::new();
        s.arm(3);
        s.interrupt(4, Interrupt::Stop);
        assert!(s.flag().load(Ordering::SeqCst));
        assert!(!s.ended_during_search());
        s.disarm();
        s.arm(6);
        assert!(!s.flag().load(Ordering::SeqCst));
        s.interrupt(7, Interrupt::End);
        assert!(s.flag().load(Ordering::SeqCst));
        assert!(s.ended_during_search());
        s.disarm();
        s.arm(9);
        assert!(!s.ended_during_search());
    }
}
