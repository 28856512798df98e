//! The m,n,k family: k stones in a row on an m x n board, which is gomoku (k = 5) and
//! tic-tac-toe (3 x 3, k = 3) alike. The physics is [`board`] (stones, lines, history, hash, the
//! win test); [`rule`] names the win condition and law in force; [`legal`] is the checked move,
//! which applies gomoku's forbidden points ([`crate::rules::gomoku`]) on five-in-a-row boards.

pub mod board;
pub mod legal;
pub mod rule;
