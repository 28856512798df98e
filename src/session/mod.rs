//! What a protocol drives: the current game, its history, the clock settings and the player.
//! Also owns [`StopSignal`], the handshake between the input thread (which sees `YXSTOP`, `STOP`
//! and `END` the moment they arrive) and the search running on the session's thread.

pub mod gomoku;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

/// An input line that interrupts a running search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// Stop thinking and answer with the best move found so far (`YXSTOP`, `STOP`).
    Stop,
    /// Stop thinking, answer nothing, quit (`END`).
    End,
}

/// Sequence number meaning "no line".
const NONE: u64 = u64::MAX;

/// The stop flag shared by the input thread and the search, plus just enough bookkeeping that an
/// interrupt stops only the search it follows.
///
/// Every input line carries a sequence number. An interrupt on line `n` is meant for the search
/// requested by line `n - 1`: stdin is read ahead of the session, so a `YXSTOP` further down a
/// piped script must not cut short a search that comes earlier. Both sides publish before they
/// look (sequentially consistent atomics), so whichever of "search starts" and "interrupt read"
/// happens second sees the first:
///
/// ```text
///   reader:  interrupt_seq = n;  if busy_seq == n - 1 { stop = true }
///   session: stop = false; busy_seq = k;  if interrupt_seq == k + 1 { stop = true }
/// ```
#[derive(Debug)]
pub struct StopSignal {
    stop: AtomicBool,
    busy_seq: AtomicU64,
    interrupt_seq: AtomicU64,
    interrupt_kind: AtomicU8,
}

impl Default for StopSignal {
    fn default() -> Self {
        StopSignal::new()
    }
}

impl StopSignal {
    /// A signal with nothing pending.
    pub fn new() -> StopSignal {
        StopSignal {
            stop: AtomicBool::new(false),
            busy_seq: AtomicU64::new(NONE),
            interrupt_seq: AtomicU64::new(NONE),
            interrupt_kind: AtomicU8::new(0),
        }
    }

    /// The flag the search polls.
    pub fn flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// Called by the input thread for an interrupting line with sequence number `seq`.
    pub fn interrupt(&self, seq: u64, kind: Interrupt) {
        let code = match kind {
            Interrupt::Stop => 1,
            Interrupt::End => 2,
        };
        self.interrupt_kind.store(code, Ordering::SeqCst);
        self.interrupt_seq.store(seq, Ordering::SeqCst);
        if seq > 0 && self.busy_seq.load(Ordering::SeqCst) == seq - 1 {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Called by the session right before searching for the command on line `seq`.
    pub fn arm(&self, seq: u64) {
        self.stop.store(false, Ordering::SeqCst);
        self.busy_seq.store(seq, Ordering::SeqCst);
        if self.interrupt_seq.load(Ordering::SeqCst) == seq.wrapping_add(1) {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Called by the session when the search for the current command has returned.
    pub fn disarm(&self) {
        self.busy_seq.store(NONE, Ordering::SeqCst);
    }

    /// The interrupt, if any, that arrived on the line right after `seq`.
    pub fn interrupt_after(&self, seq: u64) -> Option<Interrupt> {
        if self.interrupt_seq.load(Ordering::SeqCst) != seq.wrapping_add(1) {
            return None;
        }
        match self.interrupt_kind.load(Ordering::SeqCst) {
            1 => Some(Interrupt::Stop),
            2 => Some(Interrupt::End),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interrupt_stops_only_the_search_right_before_it() {
        let s = StopSignal::new();
        // Read ahead: the interrupt on line 9 is known before line 4 is searched.
        s.interrupt(9, Interrupt::Stop);
        s.arm(4);
        assert!(!s.flag().load(Ordering::SeqCst));
        s.disarm();
        s.arm(8);
        assert!(s.flag().load(Ordering::SeqCst));
        assert_eq!(s.interrupt_after(8), Some(Interrupt::Stop));
        s.disarm();
    }

    #[test]
    fn an_interrupt_during_the_search_sets_the_flag() {
        let s = StopSignal::new();
        s.arm(3);
        assert!(!s.flag().load(Ordering::SeqCst));
        s.interrupt(4, Interrupt::End);
        assert!(s.flag().load(Ordering::SeqCst));
        assert_eq!(s.interrupt_after(3), Some(Interrupt::End));
        s.disarm();
        // The next search starts with the flag cleared.
        s.arm(6);
        assert!(!s.flag().load(Ordering::SeqCst));
    }
}
