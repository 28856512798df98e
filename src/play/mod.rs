//! Terminal UIs for humans. They read and write the streams they are given, never stdout directly.

pub mod go;
pub mod gomoku;
pub mod menu;
pub mod ttt;
