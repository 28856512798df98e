//! Writing SGF (FF[4]) text: the pieces every game record the project writes is made of
//! (property values escaped, the board size, point lists, move nodes), shared by the match
//! records of the arena and GTP's `printsgf`. Points are `(x, y)` with `y` from the top, as
//! SGF counts ([`crate::rules::notation::sgf_point`]).

use super::notation::sgf_point;
use super::Color;

/// `text` as an SGF property value: `\` and `]` escaped.
pub fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// The `SZ` value of a `width` x `height` board: `9`, or `9:7` when it is not square.
pub fn size(width: usize, height: usize) -> String {
    if width == height {
        width.to_string()
    } else {
        format!("{width}:{height}")
    }
}

/// `prop` with one value per point (`AB[aa][bb]`), or nothing when there is no point.
pub fn point_list(prop: &str, points: impl IntoIterator<Item = (usize, usize)>) -> String {
    let values: String = points
        .into_iter()
        .map(|(x, y)| format!("[{}]", sgf_point(x, y)))
        .collect();
    if values.is_empty() {
        String::new()
    } else {
        format!("{prop}{values}")
    }
}

/// A move node on a line of its own: `\n;B[cc]`, `\n;W[]` for a pass (FF[4]'s pass), with a
/// comment `C[...]` when one is given.
pub fn move_node(color: Color, at: Option<(usize, usize)>, comment: Option<&str>) -> String {
    let c = match color {
        Color::Black => "B",
        Color::White => "W",
    };
    let point = at.map_or(String::new(), |(x, y)| sgf_point(x, y));
    let comment = comment.map_or(String::new(), |t| format!("C[{}]", escape(t)));
    format!("\n;{c}[{point}]{comment}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_sizes_lists_and_moves_are_written_as_sgf_reads_them() {
        assert_eq!(escape(r"a]b\c"), r"a\]b\\c");
        assert_eq!(size(9, 9), "9");
        assert_eq!(size(9, 7), "9:7");
        assert_eq!(point_list("AB", [(0, 0), (2, 3)]), "AB[aa][cd]");
        assert_eq!(point_list("AW", []), "");
        assert_eq!(move_node(Color::Black, Some((3, 2)), None), "\n;B[dc]");
        assert_eq!(
            move_node(Color::White, None, Some("12 ms]")),
            "\n;W[]C[12 ms\\]]"
        );
    }
}
