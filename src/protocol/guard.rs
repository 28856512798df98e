//! The last line of defence against a bug: a command whose handling panics is answered with the
//! protocol's error (`? internal error: ...`, `ERROR internal error: ...`) and the engine reads
//! on, instead of dying and forfeiting every game the manager still has to play. The panic's
//! own message goes to stderr (the default hook) and to the log. It is no excuse for the bug:
//! each one found is still fixed with a test.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `f`; a panic in it (or in a thread it scoped) becomes `Err` with the panic's message.
/// `f`'s captures may be left half-updated: the caller resets what a half-finished command can
/// spoil (a search tree) before it answers.
pub fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let message = panic_message(payload.as_ref());
        log::error!("internal error while answering {what}: {message}");
        format!("internal error: {message}")
    })
}

/// The text a panic carried (`panic!` with a literal or with formatting), else a placeholder.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_error_with_its_message() {
        assert_eq!(guarded("a test", || 7), Ok(7));
        let literal: Result<(), String> = guarded("a test", || panic!("board broke"));
        assert_eq!(literal, Err("internal error: board broke".to_string()));
        let n = 3;
        let formatted: Result<(), String> = guarded("a test", || panic!("index {n} out of range"));
        assert_eq!(
            formatted,
            Err("internal error: index 3 out of range".to_string())
        );
    }

    #[test]
    fn a_panic_in_a_scoped_thread_is_caught_too() {
        let r: Result<(), String> = guarded("a test", || {
            std::thread::scope(|s| {
                s.spawn(|| panic!("helper thread"));
            })
        });
        assert!(r.unwrap_err().starts_with("internal error: "));
    }
}
