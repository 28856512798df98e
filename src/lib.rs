//! sente: a board-game engine. Gomoku, renju and caro over the Gomocup protocol; Go over GTP;
//! tic-tac-toe. Layers, top to bottom (imports only point down):
//! protocol -> session -> players -> search -> eval -> rules.

pub mod arena;
pub mod bench;
pub mod cli;
pub mod cpu_time;
pub mod eval;
pub mod play;
pub mod players;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod selfplay;
pub mod session;
pub mod study;
pub mod train;
