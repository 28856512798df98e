# play, undo, genmove, reg_genmove, clear_board, levels on a 9x9 board.

boardsize 9
clear_board
komi 7.5

# Colours in any case and spelling; vertices in any case, I skipped, pass.
1 play b D4
#? []
2 play WHITE e5
#? []
3 play Black J9
#? []
4 play B d5
#? []
5 play w pass
#? []
6 play W PASS
#? []
7 play b i5
#? ?[invalid coordinate.*]
8 play b K1
#? ?[invalid coordinate.*]
9 play b A10
#? ?[invalid coordinate.*]
10 play x A1
#? ?[invalid color.*]
11 play b
#? ?[syntax error.*]
# A refused move is answered with GTP's text exactly, as GNU Go and KataGo answer it: gomill's
# ringmaster forfeits the mover only when the whole message is "illegal move" (any other text
# forfeits the engine that refused). The reason goes to stderr.
12 play b d4
#? ?[illegal move]
13 play w E5
#? ?[illegal move]
14 showboard
#? [.*\n 9 \. \. \. \. \. \. \. \. X 9.*\n 5 \. \. \. X O \. \. \. \. 5\n 4 \. \. \. X \. \. \. \. \. 4\n.*]

# Suicide is illegal; a capture is not suicide.
clear_board
play b B1
play b A2
20 play w A1
#? ?[illegal move]
play w C1
play w B2
play w A3
21 play w A1
#? []
22 showboard
#? [.*\n 3 O \. \. .*\n 2 \. O \. .*\n 1 O \. O .*]

# Simple ko: the immediate recapture is illegal.
clear_board
play b D5
play b C4
play b D3
play w E5
play w F4
play w E3
play b E4
play w D4
30 play b E4
#? ?[illegal move]
31 play b A1
#? []
32 play w A9
#? []
33 play b E4
#? []

# undo takes back moves (captures restored), then refuses.
40 undo
#? []
41 undo
#? []
42 undo
#? []
43 undo
#? []
44 showboard
#? [.*\n 5 \. \. \. X O \. .*\n 4 \. \. X \. X O .*\n 3 \. \. \. X O \. .*]
undo
undo
undo
undo
undo
undo
undo
45 undo
#? ?[cannot undo]
46 showboard
#? [.*\n 5 \. \. \. \. \. \. \. \. \. 5\n.*]

# genmove plays for either colour, in any order; reg_genmove does not play.
50 reg_genmove b
#? [[A-HJ][1-9]|pass|resign]
51 genmove b
#? [[A-HJ][1-9]|pass|resign]
52 genmove b
#? [[A-HJ][1-9]|pass|resign]
53 genmove white
#? [[A-HJ][1-9]|pass|resign]
54 undo
#? []
55 undo
#? []
56 undo
#? []
57 undo
#? ?[cannot undo]
58 genmove x
#? ?[invalid color.*]
59 genmove
#? ?[syntax error.*]

# Levels.
60 sente-level
#? [mcts|heuristic]
61 sente-level nosuch
#? ?[unknown level 'nosuch'.*]
62 sente-level heuristic
#? []
63 sente-level
#? [heuristic]
64 genmove b
#? [[A-HJ][1-9]]
65 sente-level perfect
#? ?[unknown level.*]
