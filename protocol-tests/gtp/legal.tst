# GoGui's is_legal and get_komi: legality under the rules in force without playing, and the
# komi as komi set it.

1 get_komi
#? [7.5]
2 komi 6.5
#? []
3 get_komi
#? [6.5]
10 boardsize 9
#? []
11 is_legal b E5
#? [1]
12 play b E5
#? []
13 is_legal w E5
#? [0]
14 is_legal w pass
#? [1]
# White surrounds A1 on two sides; black may not play there (suicide) ...
15 play w A2
#? []
16 play w B1
#? []
17 is_legal b A1
#? [0]
18 is_legal w A1
#? [1]
# ... and asking played nothing: white's B1 is the last move, so one undo lets black play A1.
20 undo
#? []
23 is_legal b A1
#? [1]
21 is_legal b Z9
#? ?[.*]
22 is_legal b J10
#? ?[.*]
