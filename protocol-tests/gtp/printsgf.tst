# printsgf [FILE] (GNU Go's): the game as SGF (size, komi, rules, handicap or set-up stones,
# the moves) as the answer, or written to FILE with an empty answer; loadsgf reads it back to
# the same position. A path that cannot be written is refused and nothing changes.

boardsize 9
clear_board
komi 5.5
fixed_handicap 2
play w E5
play b pass
play w D4

1 printsgf
#? [\(;FF\[4\]GM\[1\]CA\[UTF-8\]AP\[sente:[^\]]+\]SZ\[9\]KM\[5\.5\]RU\[koPOSITIONALscoreAREAtaxNONEsui0whb0fpok1\]HA\[2\]AB\[gc\]\[cg\]\n;W\[ee\]\n;B\[\]\n;W\[df\]\)]

# Bad paths: no such directory, not a regular file, too many arguments.
2 printsgf /nonexistent-sente-dir/game.sgf
#? ?[cannot write file: no such directory]
3 printsgf /dev/null
#? ?[cannot write file: not a regular file]
4 printsgf .
#? ?[cannot write file: not a regular file]
5 printsgf a.sgf b.sgf
#? ?[syntax error.*]
6 showboard
#? [.*\n 7 \. \. \. \. \. \. X \. \. 7\n.*\n 5 \. \. \. \. O \. \. \. \. 5\n 4 \. \. \. O \. \. \. \. \. 4\n 3 \. \. X \. \. \. \. \. \. 3\n.*]

# The round trip: written, the game cleared, read back, written again the same.
10 printsgf /tmp/sente-printsgf-transcript.sgf
#? []
11 boardsize 13
#? []
12 loadsgf /tmp/sente-printsgf-transcript.sgf
#? []
13 showboard
#? [.*\n 7 \. \. \. \. \. \. X \. \. 7\n.*\n 5 \. \. \. \. O \. \. \. \. 5\n 4 \. \. \. O \. \. \. \. \. 4\n 3 \. \. X \. \. \. \. \. \. 3\n.*]
14 get_komi
#? [5\.5]
15 printsgf
#? [\(;FF\[4\]GM\[1\]CA\[UTF-8\]AP\[sente:[^\]]+\]SZ\[9\]KM\[5\.5\]RU\[koPOSITIONALscoreAREAtaxNONEsui0whb0fpok1\]HA\[2\]AB\[gc\]\[cg\]\n;W\[ee\]\n;B\[\]\n;W\[df\]\)]
16 undo
#? []
17 undo
#? []
18 undo
#? []
19 undo
#? ?[cannot undo]
