# What a tournament runner asks besides the game: gomill's ringmaster (gomill-describe_engine once
# per run, gomill-explain_last_move after each genmove, gomill-cpu_time at the end of a game) and
# GNU Go's / GoGui twogtp's cputime. Run with --nodes 200 --seed 1 (deterministic play).

1 known_command gomill-describe_engine
#? [true]
2 known_command gomill-explain_last_move
#? [true]
3 known_command gomill-cpu_time
#? [true]
4 known_command cputime
#? [true]

# The description repeats name and version, then every setting that decides the play.
5 gomill-describe_engine
#? [sente \d+\.\d+\.\d+\+w\.\w+\.\w+\ngame: Go, board size, komi and rules as the controller sets them; until then 19x19, komi 7\.5, area scoring, positional superko, no suicide, dead stones lifted before counting\nlevel: mcts: .*search settings: expand_after=\d+ .*\nseed: 1\ntime: 200 playouts per move, clock off]

boardsize 9
clear_board
komi 6.5
# The ringmaster asks once per run, before the first boardsize, and writes the answer into
# every game record: it describes the run, not the game of the moment.
6 gomill-describe_engine
#? [sente [^\n]*\ngame: Go, board size, komi and rules as the controller sets them; until then 19x19, komi 7\.5, area scoring, positional superko, no suicide, dead stones lifted before counting\n.*]

# Nothing to explain before the first genmove of a game.
7 gomill-explain_last_move
#? []
8 genmove b
#? [[A-HJ][1-9]]
9 gomill-explain_last_move
#? [[A-HJ][1-9] wins \d+\.\d% of \d+ visits \(score lead [+-]\d+\.\d\); 200 playouts in \d+\.\d\d s; pv [A-HJ][1-9]( [A-HJ][1-9]| PASS)*]
# A new game forgets it.
clear_board
10 gomill-explain_last_move
#? []

# CPU seconds as a decimal number, under either name.
11 gomill-cpu_time
#? [\d+\.\d\d\d]
12 cputime
#? [\d+\.\d\d\d]

# The other level explains its one-ply choice.
13 sente-level heuristic
#? []
14 genmove w
#? [[A-HJ][1-9]]
15 gomill-explain_last_move
#? [[A-HJ][1-9]: scorer value -?\d+ \(one ply\), \d+ point\(s\) tied at that value]
16 gomill-describe_engine
#? [sente .*\n.*\nlevel: heuristic: scores every move one ply deep.*\nseed: 1\n.*]

# None of them takes arguments.
17 gomill-cpu_time now
#? ?[syntax error.*]
18 cputime 1
#? ?[syntax error.*]
19 gomill-describe_engine all
#? ?[syntax error.*]
20 gomill-explain_last_move b
#? ?[syntax error.*]

# gomill-genmove_ex: the known keywords without a colour; unknown keywords are ignored; `claim`
# lets the engine answer `claim` when certain to win (never in an opening, never under the
# 2000 visits it needs: these transcripts search 200 playouts a move).
boardsize 9
clear_board
21 gomill-genmove_ex
#? [claim]
22 gomill-genmove_ex b
#? [[A-HJ][1-9]]
23 gomill-genmove_ex w claim some_future_keyword
#? [[A-HJ][1-9]]
24 gomill-explain_last_move
#? [.*: scorer value .*]
25 gomill-genmove_ex x claim
#? ?[invalid color 'x']
