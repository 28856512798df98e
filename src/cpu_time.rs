//! CPU time from the operating system: the whole process's ([`process_cpu_time`], for the
//! tournament runners that ask for it: gomill's `gomill-cpu_time`, GNU Go's and GoGui's
//! `cputime`) and the calling thread's ([`thread_cpu_time`], so `sente bench` can quote rates per
//! CPU second on a loaded machine, and the root threat analysis its parts' cost).
//!
//! It is the whole process's user plus system time, every thread included, from the operating
//! system (`getrusage`). That is the moves' thinking plus a few milliseconds of start-up and of
//! scoring; the engine does not think on the opponent's time, so nothing else is in it.

use std::time::Duration;

/// User plus system CPU time of this process so far; `None` where the system cannot say.
pub fn process_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        // SAFETY: getrusage only writes the struct it is given, which is a plain C struct for
        // which all-zero bytes are a valid value.
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
                return None;
            }
            usage
        };
        let span = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec.max(0) as u64)
                + Duration::from_micros(t.tv_usec.max(0) as u64)
        };
        Some(span(usage.ru_utime) + span(usage.ru_stime))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// CPU time this thread has run (the POSIX per-thread CPU clock, to the nanosecond: the
/// scheduler's statistics in `/proc` move only at its ticks, several milliseconds), so rates
/// and the parts of one move can be quoted per CPU second on a loaded machine; `None` where the
/// system cannot say.
pub fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        // SAFETY: clock_gettime only writes the struct it is given, a plain C struct for which
        // all-zero bytes are a valid value.
        let ts = unsafe {
            let mut ts: libc::timespec = std::mem::zeroed();
            if libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) != 0 {
                return None;
            }
            ts
        };
        Some(Duration::new(
            ts.tv_sec.max(0) as u64,
            ts.tv_nsec.clamp(0, 999_999_999) as u32,
        ))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_with_work_done_on_any_thread() {
        let before = process_cpu_time().expect("unix systems report CPU time");
        // Busy work on another thread: the process total must include it.
        let spin = std::thread::spawn(|| {
            let start = std::time::Instant::now();
            let mut x = 0u64;
            while start.elapsed() < Duration::from_millis(60) {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
            x
        });
        spin.join().unwrap();
        let after = process_cpu_time().unwrap();
        assert!(after > before, "{before:?} -> {after:?}");
    }
}
