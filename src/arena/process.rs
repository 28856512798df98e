//! An engine process: spawned with piped stdin/stdout/stderr, stdout read line by line on its
//! own thread so every wait has a deadline, stderr drained into the log, and a kill that takes
//! the whole process group (a shell script's `sleep` included) so nothing outlives the runner's
//! decision.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use log::debug;

use super::manifest::CommandLine;

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Silence {
    /// The deadline passed.
    Timeout,
    /// The engine closed its stdout (it exited or crashed).
    Closed,
}

/// A running engine.
pub struct Process {
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr_tail: Arc<StderrTail>,
}

/// What the stderr reader kept, and whether it has seen the end of the stream.
#[derive(Default)]
struct StderrTail {
    kept: Mutex<(VecDeque<String>, bool)>,
    ended: Condvar,
}

/// How long a crash report waits for the stderr reader to reach the end of an exited engine's
/// stream: its last lines come after the stdout's end, later still on a loaded machine.
const STDERR_CATCH_UP: Duration = Duration::from_millis(500);

/// Lines of stderr kept for crash reports: this many from the start (where a command-line error
/// or a panic message is) and as many from the end.
const STDERR_KEPT: usize = 2;

impl Process {
    /// Starts `cmd`; `label` names it in logs.
    pub fn spawn(cmd: &CommandLine, label: &str) -> std::io::Result<Process> {
        let mut command = Command::new(&cmd.program);
        command
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &cmd.cwd {
            command.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own group, so a kill reaches the engine's children too.
            command.process_group(0);
        }
        let mut child = command.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout was piped");
        let stderr = child.stderr.take().expect("stderr was piped");
        let (tx, lines) = mpsc::channel();
        let out_label = label.to_string();
        thread::Builder::new()
            .name(format!("{label}-out"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line: String = String::from_utf8_lossy(&buf)
                                .chars()
                                .filter(|&c| c == '\t' || !c.is_control())
                                .collect();
                            debug!("{out_label} -> {line}");
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })?;
        let err_label = label.to_string();
        let stderr_tail = Arc::new(StderrTail::default());
        let tail = Arc::clone(&stderr_tail);
        thread::Builder::new()
            .name(format!("{label}-err"))
            .spawn(move || {
                for line in BufReader::new(stderr).lines() {
                    let Ok(l) = line else { break };
                    debug!("{err_label} stderr: {l}");
                    if let Ok(mut t) = tail.kept.lock() {
                        // The first STDERR_KEPT lines stay; after them a window of the last ones.
                        if t.0.len() == 2 * STDERR_KEPT {
                            t.0.remove(STDERR_KEPT);
                        }
                        t.0.push_back(l);
                    }
                }
                if let Ok(mut t) = tail.kept.lock() {
                    t.1 = true;
                }
                tail.ended.notify_all();
            })?;
        Ok(Process {
            label: label.to_string(),
            child,
            stdin,
            lines,
            stderr_tail,
        })
    }

    /// The first and last lines the engine wrote to stderr, joined with ` | ` (empty if none),
    /// for saying why it died. Waits (at most STDERR_CATCH_UP) for the stderr reader to reach
    /// the stream's end, which an exited engine's stream does at once; a live engine's never does,
    /// and it is reported with what has come so far.
    pub fn stderr_tail(&self) -> String {
        let Ok(kept) = self.stderr_tail.kept.lock() else {
            return String::new();
        };
        let kept = match self
            .stderr_tail
            .ended
            .wait_timeout_while(kept, STDERR_CATCH_UP, |t| !t.1)
        {
            Ok((kept, _)) => kept,
            Err(_) => return String::new(),
        };
        kept.0.iter().cloned().collect::<Vec<_>>().join(" | ")
    }

    /// The label given at spawn.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Writes one line and flushes. An error means the engine is gone.
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        debug!("{} <- {line}", self.label);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::other("stdin closed"))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// The next line of output, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, Silence> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Silence::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(Silence::Closed),
        }
    }

    /// Whether the process has not exited yet.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Closes stdin and gives the process `grace` to exit by itself, then kills it.
    pub fn close(mut self, grace: Duration) {
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if !self.is_running() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the process and its group now, and reaps it.
    pub fn kill(&mut self) {
        #[cfg(unix)]
        {
            if self.is_running() {
                let pid = self.child.id() as libc::pid_t;
                // SAFETY: kill(2) on our own child's process group; no memory is touched.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn sh(script: &str) -> CommandLine {
        CommandLine {
            program: PathBuf::from("sh"),
            args: vec!["-c".into(), script.into()],
            cwd: None,
        }
    }

    #[test]
    fn lines_arrive_and_silence_has_a_deadline() {
        let mut p = Process::spawn(&sh("read x; echo \"got $x\"; sleep 30"), "t").unwrap();
        p.send("hello").unwrap();
        let soon = Instant::now() + Duration::from_secs(10);
        assert_eq!(p.recv(soon).as_deref(), Ok("got hello"));
        let t0 = Instant::now();
        assert_eq!(
            p.recv(Instant::now() + Duration::from_millis(100)),
            Err(Silence::Timeout)
        );
        assert!(t0.elapsed() < Duration::from_secs(5));
        p.kill();
        assert!(!p.is_running());
        assert_eq!(
            p.recv(soon),
            Err(Silence::Closed),
            "the sleep died with its group"
        );
    }

    #[test]
    fn an_exit_closes_the_stream() {
        let mut p = Process::spawn(
            &sh("for i in 1 2 3 4 5 6; do echo e$i >&2; done; printf 'a\\r\\nb'; exit 3"),
            "t",
        )
        .unwrap();
        let soon = Instant::now() + Duration::from_secs(10);
        assert_eq!(p.recv(soon).as_deref(), Ok("a"));
        assert_eq!(p.recv(soon).as_deref(), Ok("b"));
        assert_eq!(p.recv(soon), Err(Silence::Closed));
        assert_eq!(p.stderr_tail(), "e1 | e2 | e5 | e6");
        let _ = p.send("x");
        p.close(Duration::from_millis(200));
    }
}
