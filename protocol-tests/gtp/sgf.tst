# loadsgf FILE [N]: size, komi, set-up (AB, AW, AE, PL) and the main line; the position before
# move N.

boardsize 19
clear_board
play b D4

# Failures change nothing, and say why after GTP's text.
1 loadsgf nosuchfile.sgf
#? ?[cannot load file: no such file]
2 loadsgf notsgf.sgf
#? ?[cannot load file: not a Go SGF file: .+]
3 loadsgf illegal.sgf
#? ?[cannot load file: move 2: point is occupied]
4 loadsgf
#? ?[syntax error.*]
5 loadsgf game.sgf x
#? ?[syntax error.*]
7 loadsgf hugekomi.sgf
#? ?[cannot load file: malformed KM\[[0-9]+\]]
# Only regular files are read: a device never ends, a FIFO waits for a writer.
8 loadsgf /dev/zero
#? ?[cannot load file: not a regular file]
9 loadsgf /dev/urandom
#? ?[cannot load file: not a regular file]
13 loadsgf .
#? ?[cannot load file: not a regular file]
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

# Set-up after the root, as the SGF spec has it (setup.sgf): AB C7 D7, AW E5, PL W in the root; W G3,
# B G7; then AE C7 E5, AB F4, AW A9, PL W; then W H2, B pass. The edited position is a new start:
# the moves before it cannot be undone.
60 loadsgf setup.sgf
#? []
61 showboard
#? [\s*A B C D E F G H J\n 9 O \. \. \. \. \. \. \. \. 9.*\n 8 .*\n 7 \. \. \. X \. \. X \. \. 7\n 6 .*\n 5 \. \. \. \. \. \. \. \. \. 5\n 4 \. \. \. \. \. X \. \. \. 4\n 3 \. \. \. \. \. \. O \. \. 3\n 2 \. \. \. \. \. \. \. O \. 2\n.*]
62 undo
#? []
63 undo
#? []
64 undo
#? ?[cannot undo]
65 showboard
#? [.*\n 7 \. \. \. X \. \. X \. \. 7\n.*\n 2 \. \. \. \. \. \. \. \. \. 2\n.*]
# Before move 3 (W H2): the set-up between moves 2 and 3 applies.
66 loadsgf setup.sgf 3
#? []
67 showboard
#? [.*\n 9 O \. .*\n 5 \. \. \. \. \. \. \. \. \. 5\n 4 \. \. \. \. \. X \. \. \. 4\n.*\n 2 \. \. \. \. \. \. \. \. \. 2\n.*]
68 undo
#? ?[cannot undo]
# Before move 2 (B G7): the root set-up and W G3.
69 loadsgf setup.sgf 2
#? []
70 showboard
#? [.*\n 7 \. \. X X \. \. \. \. \. 7\n.*\n 5 \. \. \. \. O \. \. \. \. 5\n.*\n 3 \. \. \. \. \. \. O \. \. 3\n.*]
# A set-up that leaves a group without a liberty describes no position.
71 loadsgf nolibs.sgf
#? ?[cannot load file: setup after move 0: .+]
72 showboard
#? [.*\n 7 \. \. X X \. \. \. \. \. 7\n.*]

# Errors name points and sizes as the file writes them (never Rust debug text), and a size
# no Go board has is refused as a size, before any move is read.
90 loadsgf offboard.sgf
#? ?[cannot load file: move B\[zz\] is off the 9x9 board]
91 loadsgf size0.sgf
#? ?[cannot load file: board size SZ\[0\] is not a Go board \(SGF sides are 1\.\.52\)]
