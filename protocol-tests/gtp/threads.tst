# Root-parallel search: `--threads 2` gives the mcts level two trees, one per thread. The
# --nodes budget is split between them and the answers replay exactly.
#! args --threads 2

boardsize 9
clear_board
komi 7.5
1 gomill-describe_engine
#? [sente .*\nlevel: mcts: .*; 2 threads, one tree each \(root parallel\); .*\nseed: 1\ntime: 200 playouts per move, clock off]
2 genmove b
#? [[A-HJ][1-9]]
# The whole budget is run, by both trees together.
3 gomill-explain_last_move
#? [[A-HJ][1-9] wins \d+\.\d% of \d+ visits \(score lead [+-]\d+\.\d\); 200 playouts in \d+\.\d\d s; pv .*]
4 genmove w
#? [[A-HJ][1-9]]
# genmove_analyze runs on both trees too and reports the merged root moves (and ownership).
5 lz-genmove_analyze b 1
#? [(info move .*\n)+play ([A-HJ][1-9]|pass|resign)]
6 play b E5
#? []
7 kata-genmove_analyze w 1 ownership true
#? [(info move .* ownership( -?[01]\.\d{3}){81}\n)+play ([A-HJ][1-9]|pass|resign)]
# Another level ignores the setting; switching back gives two trees again.
8 sente-level heuristic
#? []
9 gomill-describe_engine
#? [sente .*\nlevel: heuristic: .*]
10 sente-level mcts
#? []
11 gomill-describe_engine
#? [sente .*\nlevel: mcts: .*; 2 threads, one tree each \(root parallel\); .*]
12 genmove b
#? [[A-HJ][1-9]]
