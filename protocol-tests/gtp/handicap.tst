# fixed_handicap, place_free_handicap, set_free_handicap: placements and every error.

boardsize 9
clear_board
1 fixed_handicap 9
#? [C7 E7 G7 C5 E5 G5 C3 E3 G3]
2 fixed_handicap 2
#? ?[board not empty]
3 undo
#? ?[cannot undo]
4 genmove w
#? [[A-HJ][1-9]|pass|resign]

clear_board
10 fixed_handicap 2
#? [G7 C3]
clear_board
11 fixed_handicap 5
#? [C7 G7 E5 C3 G3]
clear_board
12 fixed_handicap 1
#? ?[invalid number of stones]
13 fixed_handicap 10
#? ?[invalid number of stones]
14 fixed_handicap -2
#? ?[syntax error.*]
15 fixed_handicap
#? ?[syntax error.*]

boardsize 19
clear_board
20 fixed_handicap 9
#? [D16 K16 Q16 D10 K10 Q10 D4 K4 Q4]
clear_board
21 fixed_handicap 4
#? [D16 Q16 D4 Q4]
boardsize 13
clear_board
22 fixed_handicap 9
#? [D10 G10 K10 D7 G7 K7 D4 G4 K4]
boardsize 8
clear_board
23 fixed_handicap 4
#? [C6 F6 C3 F3]
clear_board
24 fixed_handicap 5
#? ?[invalid number of stones]
boardsize 7
25 fixed_handicap 4
#? [C5 E5 C3 E3]
boardsize 5
26 fixed_handicap 2
#? ?[invalid number of stones]

# place_free_handicap: the engine's choice, possibly fewer stones.
boardsize 9
clear_board
30 place_free_handicap 4
#? [C7 G7 C3 G3]
31 place_free_handicap 2
#? ?[board not empty]
clear_board
32 place_free_handicap 20
#? [C7 E7 G7 C5 E5 G5 C3 E3 G3]
clear_board
33 place_free_handicap 1
#? ?[invalid number of stones]
34 place_free_handicap 81
#? ?[invalid number of stones]
boardsize 5
35 place_free_handicap 2
#? [D4 B2]

# set_free_handicap: the controller's points.
boardsize 9
clear_board
40 set_free_handicap A1
#? ?[bad vertex list]
41 set_free_handicap A1 A1
#? ?[bad vertex list]
42 set_free_handicap A1 pass
#? ?[bad vertex list]
43 set_free_handicap A1 I5
#? ?[invalid coordinate.*]
44 set_free_handicap A1 J10
#? ?[bad vertex list]
45 set_free_handicap
#? ?[syntax error.*]
46 showboard
#? [.*\n 1 \. \. \. \. \. \. \. \. \. 1\n.*]
47 set_free_handicap d4 F6 e5
#? []
48 set_free_handicap a1 b2
#? ?[board not empty]
49 showboard
#? [.*\n 6 \. \. \. \. \. X \. \. \. 6\n 5 \. \. \. \. X \. \. \. \. 5\n 4 \. \. \. X \. \. \. \. \. 4\n.*]
50 undo
#? ?[cannot undo]
clear_board
play b pass
51 set_free_handicap a1 b2
#? ?[board not empty]
