# Tic-tac-toe over GTP: `sente --game ttt`, level perfect (the default for ttt).
#! args --game ttt

1 protocol_version
#? [2]
2 name
#? [sente]
3 list_commands
#? [protocol_version\nname\nversion\nknown_command\nlist_commands\nquit\nboardsize\nclear_board\nkomi\nplay\ngenmove\nreg_genmove\nundo\nshowboard\nfinal_score\nsente-level\ncputime\ngomill-cpu_time\ngomill-describe_engine\nset_random_seed]
4 known_command lz-analyze
#? [false]
5 known_command genmove
#? [true]
6 sente-level
#? [perfect]

# Only 3x3.
10 boardsize 19
#? ?[unacceptable size]
11 boardsize 3
#? []
12 clear_board
#? []
13 komi 6.5
#? []

# X takes two corners of the bottom row: O must block at C1.
20 play b a1
#? []
21 play B A1
#? ?[illegal move]
22 play b d1
#? ?[invalid coordinate.*]
23 play x b1
#? ?[invalid color.*]
24 play b i1
#? ?[invalid coordinate.*]
25 play black B1
#? []
26 genmove w
#? [C1]
27 showboard
#? [\s*A B C\n 3 \. \. \. 3\n 2 \. \. \. 2\n 1 X X O 1\n\s*A B C]

# X on A2 threatens A3; reg_genmove finds the win without playing it.
30 play b a2
#? []
31 reg_genmove b
#? [A3]
32 final_score
#? ?[cannot score.*]
33 genmove b
#? [A3]
34 final_score
#? [B\+1]
35 play w b2
#? ?[illegal move]
36 genmove w
#? [pass]

# Undo the pass and the win: O must block at A3, then X forks at B2 and wins.
40 undo
#? []
41 undo
#? []
42 genmove w
#? [A3]
43 genmove b
#? [B2]
44 genmove w
#? [B3|C3|C2]
45 genmove b
#? [B3|C3|C2]
46 final_score
#? [B\+1]

# Perfect play against itself from the empty board is a draw.
clear_board
genmove b
genmove w
genmove b
genmove w
genmove b
genmove w
genmove b
genmove w
48 genmove b
#? [[A-C][1-3]]
49 final_score
#? [0]

# Undo back to the empty board, then one more is refused.
50 undo
51 undo
52 undo
53 undo
54 undo
55 undo
56 undo
57 undo
58 undo
#? []
59 undo
#? ?[cannot undo]

# Level switching.
60 sente-level nosuch
#? ?[unknown level 'nosuch'.*]
61 sente-level dumber
#? []
62 genmove b
#? [A3]
63 sente-level
#? [dumber]
64 lz-analyze b 50
#? ?[unknown command]

# Tournament runners' questions (gomill, GoGui's twogtp): the settings and the CPU time.
65 gomill-describe_engine
#? [sente \d+\.\d+\.\d+\+w\.\w+\.\w+\ngame: tic-tac-toe, 3x3, three in a row, black \(X\) first\nlevel: dumber: .*\nseed: 1]
66 gomill-cpu_time
#? [\d+\.\d\d\d]
67 gomill-explain_last_move
#? ?[unknown command]
# GNU Go's set_random_seed reseeds the player (a controller's seed per game).
set_random_seed 9
70 gomill-describe_engine
#? [sente \d+\.\d+\.\d+\+w\.\w+\.\w+\ngame: .*\nseed: 9]
71 set_random_seed -1
#? ?[syntax error.*]
68 quit
#? []
