# Live analysis for Sabaki/Lizzie. A piped line right after lz-analyze / kata-analyze ends the
# analysis at once (here: the `#?` line itself), so the response may hold zero info lines.

boardsize 9
clear_board
play b E5
1 lz-analyze b 10
#? [(info move [A-HJ][1-9] visits \d+ winrate \d+ prior \d+ lcb \d+ order \d+ pv( [A-HJ][1-9]| pass)+( info move .*)?\n?)*]
2 kata-analyze w 10
#? [(info move [A-HJ][1-9] visits \d+ winrate [01]\.\d+ scoreLead -?\d+\.\d+ prior [01]\.\d+ lcb [01]\.\d+ order \d+ pv.*\n?)*]
3 lz-analyze 10
#? [(info .*\n?)*]
4 kata-analyze
#? [(info .*\n?)*]
5 lz-analyze b interval 20 maxmoves 2 minmoves 1
#? [(info .*\n?)*]
6 protocol_version
#? [2]

# genmove_analyze streams, then plays (and the move is on the board: undo works).
10 lz-genmove_analyze w 10
#? [(info move .*\n)*play ([A-HJ][1-9]|pass|resign)]
11 kata-genmove_analyze b 10
#? [(info move .*\n)*play ([A-HJ][1-9]|pass|resign)]
12 undo
#? []
13 undo
#? []
14 undo
#? []
15 undo
#? ?[cannot undo]

# Errors.
20 lz-analyze x
#? ?[syntax error.*]
21 lz-analyze b 10 ownership true
#? ?[syntax error.*]
22 lz-analyze b 10 interval
#? ?[syntax error.*]
23 lz-genmove_analyze 10
#? ?[syntax error.*]
24 kata-genmove_analyze
#? ?[syntax error.*]

# KataGo's `ownership true`: every info line ends with `ownership` and one value per point, row
# by row from the top left, in -1..1 from the analysed colour's point of view. The other
# ownership keys are accepted as `false` only; Leela Zero's dialect has none of them. Refusals
# change nothing (the board stays empty: nothing to undo).
boardsize 7
clear_board
40 kata-analyze b 10 ownershipStdev true
#? ?[syntax error.*]
41 kata-analyze b 10 ownership maybe
#? ?[syntax error.*]
42 kata-analyze b 10 ownership
#? ?[syntax error.*]
43 kata-analyze b 10 ownership true movesOwnership true
#? ?[syntax error.*]
44 kata-analyze b 10 ownership true avoid b A1
#? ?[syntax error.*]
45 lz-analyze b 10 ownership false
#? ?[syntax error.*]
46 lz-genmove_analyze b 10 ownership true
#? ?[syntax error.*]
47 kata-genmove_analyze b 10 pvVisits true
#? ?[syntax error.*]
48 kata-genmove_analyze b 10 ownership 1
#? ?[syntax error.*]
49 undo
#? ?[cannot undo]

# 7x7 walls: black walls column D and owns A-C, white walls column E and owns F-G; row 4 splits
# each side's area in two.
play b D1
play b D2
play b D3
play b D4
play b D5
play b D6
play b D7
play w E1
play w E2
play w E3
play w E4
play w E5
play w E6
play w E7
play b A4
play b B4
play b C4
play w F4
play w G4
50 kata-analyze b 10 ownership true
#? [(info move [^\n]* ownership( -?[01]\.\d{3}){49}\n?)*]
51 kata-analyze w interval 10 pvVisits false ownership true ownershipStdev false movesOwnership false movesOwnershipStdev false
#? [(info move [^\n]* ownership( -?[01]\.\d{3}){49}\n?)*]
52 kata-analyze b 10 ownership false
#? [(info move [^\n]* pv( [A-G][1-7]| pass)+\n?)*]
# genmove_analyze always reports after its search (the last info line, over all the playouts):
# there the top row is A7-D7 black's, E7-G7 white's.
53 kata-genmove_analyze b 10 ownership true
#? [(info move [^\n]* ownership( -?[01]\.\d{3}){49}\n)*info move [^\n]* ownership( 0\.\d{3}| 1\.000){4}( -0\.\d{3}| -1\.000){3}( -?[01]\.\d{3}){42}\nplay ([A-G][1-7]|pass|resign)]
54 undo
#? []
55 kata-genmove_analyze w 10 ownership true
#? [(info move [^\n]* ownership( -?[01]\.\d{3}){49}\n)*info move [^\n]* ownership( -0\.\d{3}| -1\.000){4}( 0\.\d{3}| 1\.000){3}( -?[01]\.\d{3}){42}\nplay ([A-G][1-7]|pass|resign)]
56 kata-genmove_analyze b 10 ownership false
#? [(info move [^\n]* pv( [A-G][1-7]| pass)+\n)+play ([A-G][1-7]|pass|resign)]

# Leela Zero's avoid / allow: colour, vertices joined by commas, the depth they reach (1 = the
# first move). The search never tries what they close; refusals change nothing.
boardsize 9
clear_board
60 lz-genmove_analyze b 1 allow b C3 1
#? [(info move C3 [^\n]*\n)+play C3]
61 kata-genmove_analyze w 1 allow w g7,C7,pass 1 avoid w c7 1
#? [(info move (G7|PASS) [^\n]*\n)+play (G7|pass)]
62 lz-genmove_analyze b 1 avoid b A1,B1,C1,D1,E1,F1,G1,H1,J1 3 allow w J9 1
#? [(info move [A-HJ][2-9] [^\n]*\n)+play [A-HJ][2-9]]
63 lz-analyze b 10 avoid b C3
#? ?[syntax error.*]
64 lz-analyze b 10 allow b C3,I3 1
#? ?[syntax error.*]
65 kata-analyze b 10 avoid b C3 0
#? ?[syntax error.*]
66 kata-genmove_analyze b 10 avoid purple C3 1
#? ?[syntax error.*]
67 showboard
#? [.*X.*\n.*]

# The last command: end of input ends it.
30 lz-analyze b 50
#? [(info .*\n?)*]
