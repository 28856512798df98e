# Tree-parallel search: `--threads 2` has two threads grow the mcts level's one tree. The
# --nodes budget counts both threads' playouts (the moves depend on their timing, so the
# checks are on form).
#! args --threads 2

boardsize 9
clear_board
komi 7.5
1 gomill-describe_engine
#? [sente .*\nlevel: mcts: .*; 2 threads sharing one tree \(tree parallel, virtual loss\); .*\nseed: 1\ntime: 200 playouts per move, clock off]
2 genmove b
#? [[A-HJ][1-9]]
# The whole budget is run, by both threads together.
3 gomill-explain_last_move
#? [[A-HJ][1-9] wins \d+\.\d% of \d+ visits \(score lead [+-]\d+\.\d\); 200 playouts in \d+\.\d\d s; pv .*]
4 genmove w
#? [[A-HJ][1-9]]
# genmove_analyze runs on both threads too and reports the shared root moves (and ownership).
5 lz-genmove_analyze b 1
#? [(info move .*\n)+play ([A-HJ][1-9]|pass|resign)]
# A fresh board first: the genmoves above depend on the threads' timing and may have taken E5.
clear_board
6 play b E5
#? []
7 kata-genmove_analyze w 1 ownership true
#? [(info move .* ownership( -?[01]\.\d{3}){81}\n)+play ([A-HJ][1-9]|pass|resign)]
# Another level ignores the setting; switching back gives two threads again.
8 sente-level heuristic
#? []
9 gomill-describe_engine
#? [sente .*\nlevel: heuristic: .*]
10 sente-level mcts
#? []
11 gomill-describe_engine
#? [sente .*\nlevel: mcts: .*; 2 threads sharing one tree \(tree parallel, virtual loss\); .*]
12 genmove b
#? [[A-HJ][1-9]]
