//! Protocols: only parsing and formatting. A line becomes a typed command; a typed reply becomes text.
