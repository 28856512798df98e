# final_score and final_status_list: dead stones from the player's estimate, area counting.

# The empty board: nobody owns anything, white wins by komi.
boardsize 9
clear_board
komi 7.5
1 final_score
#? [W\+7\.5]
2 final_status_list dead
#? []
3 final_status_list alive
#? []

# 7x7: black walls column D, white walls column E, a dead white stone at B4 in black's area.
# Black: 21 points (B4 included once it is removed) + 7 stones; white 7 + 7; komi 6.5.
boardsize 7
clear_board
komi 6.5
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
play w B4
10 final_status_list dead
#? [B4]
11 final_status_list alive
#? [[DE][1-7]( [DE][1-7]){6}\n[DE][1-7]( [DE][1-7]){6}]
12 final_status_list seki
#? []
13 final_status_list DEAD
#? [B4]
14 final_score
#? [B\+0\.5]
15 komi 7.5
#? []
16 final_score
#? [W\+0\.5]
17 komi 7
#? []
18 final_score
#? [0]
19 final_status_list
#? ?[syntax error.*]
20 final_status_list unknown
#? ?[syntax error.*]
21 final_score now
#? ?[syntax error.*]

# GoGui's analyze menu: the ownership map (gfx INFLUENCE, -1 white .. 1 black, every point from
# the top left, then an estimate) and the dead stones, on the 7x7 walls above (komi 7).
22 gogui-analyze_commands
#? [gfx/Ownership/sente-ownership\nplist/Dead stones/final_status_list dead]
23 sente-ownership
#? [INFLUENCE A7 [01]\.\d\d B7 [01]\.\d\d C7 [01]\.\d\d D7 [01]\.\d\d E7 -[01]\.\d\d F7 -[01]\.\d\d G7 -[01]\.\d\d( [A-G][1-7] -?[01]\.\d\d){42}\nTEXT estimate (0|[BW]\+\d+(\.\d)?) \(area, komi included\)]
24 sente-ownership now
#? ?[syntax error.*]
25 gogui-analyze_commands x
#? ?[syntax error.*]
