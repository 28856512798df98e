# kgs-genmove_cleanup: the cleanup phase of KGS and OGS bridges (sent when the players disagree
# on dead stones): the engine plays on, capturing every dead stone, and never passes while one
# is left; it never resigns there.

# 9x9 split by a wall: black owns columns A-E, white F-J; white stones at B2 and C7 are dead in
# black's area. White passes throughout; each cleanup move fills a liberty of a dead stone (the
# eight below), and only when both are captured does black pass.
boardsize 9
clear_board
komi 7.5
play b E1
play w F1
play b E2
play w F2
play b E3
play w F3
play b E4
play w F4
play b E5
play w F5
play b E6
play w F6
play b E7
play w F7
play b E8
play w F8
play b E9
play w F9
play b A5
play b B5
play b C5
play b D5
play w G5
play w H5
play w J5
play w B2
play w C7
1 final_status_list dead
#? [B2\nC7]
play w pass
2 kgs-genmove_cleanup b
#? [A2|C2|B1|B3|B7|D7|C6|C8]
play w pass
3 kgs-genmove_cleanup b
#? [A2|C2|B1|B3|B7|D7|C6|C8]
play w pass
4 kgs-genmove_cleanup b
#? [A2|C2|B1|B3|B7|D7|C6|C8]
play w pass
5 kgs-genmove_cleanup b
#? [A2|C2|B1|B3|B7|D7|C6|C8]
play w pass
6 kgs-genmove_cleanup b
#? [A2|C2|B1|B3|B7|D7|C6|C8]
play w pass
7 kgs-genmove_cleanup b
#? [A2|C2|B1|B3|B7|D7|C6|C8]
play w pass
8 kgs-genmove_cleanup b
#? [A2|C2|B1|B3|B7|D7|C6|C8]
play w pass
9 kgs-genmove_cleanup b
#? [A2|C2|B1|B3|B7|D7|C6|C8]
play w pass
10 final_status_list dead
#? []
11 kgs-genmove_cleanup b
#? [pass]

# White has no dead black stone to remove: it plays on like genmove (and never resigns).
12 kgs-genmove_cleanup w
#? [[A-HJ][1-9]|pass]

# Refusals leave the game as it was.
13 kgs-genmove_cleanup
#? ?[syntax error.*]
14 kgs-genmove_cleanup b c3
#? ?[syntax error.*]
15 kgs-genmove_cleanup x
#? ?[invalid color 'x']
16 known_command kgs-genmove_cleanup
#? [true]
