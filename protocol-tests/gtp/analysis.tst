# Live analysis for Sabaki/Lizzie. A piped line right after lz-analyze / kata-analyze ends the
# analysis at once (here: the `#?` line itself), so the response may hold zero info lines.

boardsize 9
clear_board
play b E5
1 lz-analyze b 10
#? [(info move [A-HJ][1-9] visits \d+ winrate \d+ prior \d+ order \d+ pv( [A-HJ][1-9]| pass)+( info move .*)?\n?)*]
2 kata-analyze w 10
#? [(info move [A-HJ][1-9] visits \d+ winrate [01]\.\d+ scoreLead -?\d+\.\d+ prior [01]\.\d+ order \d+ pv.*\n?)*]
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

# The last command: end of input ends it.
30 lz-analyze b 50
#? [(info .*\n?)*]
