//! The honest GTP refusal of this build: Go over GTP is a later issue. When the first line
//! looks like GTP, every command is answered with a proper GTP failure (echoing its id) and
//! `quit` succeeds and ends the loop, so a Go front end reports a clear error instead of hanging.

/// The failure text sent for every GTP command but `quit`.
pub const NOT_AVAILABLE: &str = "GTP is not available in this build yet";

/// The GTP response to one line (without the blank line that ends every response) and whether
/// to quit afterwards. `None` for lines GTP ignores (empty, comments).
pub fn answer(line: &str) -> Option<(String, bool)> {
    let line = line.split('#').next().unwrap_or("").trim();
    if line.is_empty() {
        return None;
    }
    let mut tokens = line.split_whitespace();
    let mut first = tokens.next()?;
    let mut id = "";
    if first.bytes().all(|b| b.is_ascii_digit()) {
        id = first;
        first = tokens.next().unwrap_or("");
    }
    if first.eq_ignore_ascii_case("quit") {
        Some((format!("={id}"), true))
    } else {
        Some((format!("?{id} {NOT_AVAILABLE}"), false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_with_the_id_and_quits() {
        assert_eq!(
            answer("12 boardsize 19"),
            Some((format!("?12 {NOT_AVAILABLE}"), false))
        );
        assert_eq!(answer("name"), Some((format!("? {NOT_AVAILABLE}"), false)));
        assert_eq!(answer("quit"), Some(("=".to_string(), true)));
        assert_eq!(answer("3 quit"), Some(("=3".to_string(), true)));
        assert_eq!(answer("# comment"), None);
    }
}
