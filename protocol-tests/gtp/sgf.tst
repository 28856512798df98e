# loadsgf FILE [N]: size, komi, setup stones and the main line; the position before move N.

boardsize 19
clear_board
play b D4

# Failures change nothing.
1 loadsgf nosuchfile.sgf
#? ?[cannot load file]
2 loadsgf notsgf.sgf
#? ?[cannot load file]
3 loadsgf illegal.sgf
#? ?[cannot load file]
4 loadsgf
#? ?[syntax error.*]
5 loadsgf game.sgf x
#? ?[syntax error.*]
7 loadsgf hugekomi.sgf
#? ?[cannot load file]
6 showboard
#? [\s*A B C D E F G H J K L M N O P Q R S T\n.*\n 4 \. \. \. X \. .*]

# The whole main line: AB C7 G3, AW E5, then B C3, W G7, B pass, W D6, B F6, W F5.
10 loadsgf game.sgf
#? []
11 showboard
#? [\s*A B C D E F G H J\n 9 \. \. \. \. \. \. \. \. \. 9.*\n 7 \. \. X \. \. \. O \. \. 7\n 6 \. \. \. O \. X \. \. \. 6\n 5 \. \. \. \. O O \. \. \. 5\n 4 \. \. \. \. \. \. \. \. \. 4\n 3 \. \. X \. \. \. X \. \. 3\n.*]
12 final_score
#? [W\+\d+(\.5)?|B\+\d+(\.5)?|0]

# Before move 4 (W D6): three moves played.
20 loadsgf game.sgf 4
#? []
21 showboard
#? [.*\n 6 \. \. \. \. \. \. \. \. \. 6\n.*\n 3 \. \. X \. \. \. X \. \. 3\n.*]
22 undo
#? []
23 undo
#? []
24 undo
#? []
25 undo
#? ?[cannot undo]
26 showboard
#? [.*\n 7 \. \. X \. \. \. \. \. \. 7\n.*\n 3 \. \. \. \. \. \. X \. \. 3\n.*]

# Move 1: the setup only. A number past the end: everything.
30 loadsgf game.sgf 1
#? []
31 undo
#? ?[cannot undo]
32 loadsgf game.sgf 999
#? []
33 undo
#? []

# Rectangular boards and komi from the file.
40 loadsgf rect.sgf
#? []
41 showboard
#? [\s*A B C D E F G\n 5 \. \. \. \. \. \. X 5.*\n 1 O \. \. \. \. \. \. 1.*\n\s*A B C D E F G]
42 final_score
#? [0|[BW]\+\d+]

# Files that are not plain UTF-8 still load: a Latin-1 record (its comment becomes U+FFFD, the
# moves are ASCII) and a UTF-8 record that starts with a byte-order mark.
50 loadsgf latin1.sgf
#? []
51 showboard
#? [\s*A B C D E F G H J\n.*\n 7 \. \. O \. \. .*\n 5 \. \. \. \. X \. .*]
52 loadsgf bom.sgf
#? []
53 showboard
#? [\s*A B C D E F G\n.*\n 4 \. \. \. X \. \. \. 4\n.*]
