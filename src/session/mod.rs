//! What a protocol drives: the current game, its history, the clock settings and the player.
