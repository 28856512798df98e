# GTP framing and the administrative commands (Go, the default game).
# Ids are echoed, comments and empty lines get no response, tabs are spaces,
# unknown commands and bad arguments are errors that change nothing.

1 protocol_version
#? [2]
2 name
#? [sente]
# The version names the embedded weights, as Gomocup's ABOUT does.
3 version
#? [\d+\.\d+\.\d+\+w\.\w+\.\w+]
protocol_version   # an unnumbered command: must succeed, result unchecked

# A line with only a comment.
	4	known_command	play
#? [true]
5 known_command playout
#? [false]
6 known_command lz-analyze
#? [true]
7 known_command PLAY
#? [false]
8 list_commands
#? [protocol_version\nname\nversion\nknown_command\nlist_commands\nquit\nboardsize\nclear_board\nkomi\nplay\ngenmove\nreg_genmove\nundo\nshowboard\nfinal_score\nsente-level\ncputime\ngomill-cpu_time\ngomill-describe_engine\nset_random_seed\nrectangular_boardsize\nfixed_handicap\nplace_free_handicap\nset_free_handicap\ntime_settings\ntime_left\nkgs-time_settings\nfinal_status_list\nloadsgf\nprintsgf\nlz-analyze\nkata-analyze\nlz-genmove_analyze\nkata-genmove_analyze\ngogui-analyze_commands\nsente-ownership\ngomill-explain_last_move\ngomill-genmove_ex\nkgs-genmove_cleanup\nkata-get-rules\nkata-set-rules\nkata-set-rule\nkgs-rules\nclear_cache\nstop\nsente-ponder\nkata-list-params\nkata-get-param\nkata-set-param\nget_komi\nis_legal\ngogui-interrupt]
9 foo
#? ?[unknown command]
10 playout b d4
#? ?[unknown command]
11 PLAY b d4
#? ?[unknown command]
12 known_command
#? ?[syntax error.*]
13 name extra
#? ?[syntax error.*]
00014 protocol_version
#? [2]

# Board sizes: 2..25, square or rectangular.
20 boardsize 1
#? ?[unacceptable size]
21 boardsize 26
#? ?[unacceptable size]
22 boardsize 0
#? ?[unacceptable size]
23 boardsize nine
#? ?[syntax error.*]
24 boardsize 9.0
#? ?[syntax error.*]
# An integer past u64 is still an integer: a size we cannot play (GNU Go says the same).
35 boardsize 99999999999999999999999
#? ?[unacceptable size]
25 boardsize 25
#? []
26 play b Z25
#? []
27 boardsize 2
#? []
28 rectangular_boardsize 7 5
#? []
29 play b G5
#? []
30 play b H5
#? ?[invalid coordinate.*]
31 play b A6
#? ?[invalid coordinate.*]
32 rectangular_boardsize 7 26
#? ?[unacceptable size]
33 rectangular_boardsize 7
#? ?[syntax error.*]
34 showboard
#? [\s*A B C D E F G\n 5 \. \. \. \. \. \. X 5.*\n 1 \. \. \. \. \. \. \. 1.*\n\s*A B C D E F G]

# Komi: a decimal number (an exponent too), at most 1000 either way.
40 komi 6.5
#? []
41 komi -3
#? []
42 komi 0
#? []
43 komi six
#? ?[syntax error.*]
44 komi
#? ?[syntax error.*]
# A komi past that is refused by name (no komi decides a game there, and one past f32's
# range would score as W+inf); the komi stays 0.
45 komi 99999999999999999999999999999999999999999999999999
#? ?[komi 9+ is out of range \(at most 1000 either way\)]
48 komi 1e30
#? ?[komi 1e30 is out of range \(at most 1000 either way\)]
49 komi 1e2
#? []
46 komi inf
#? ?[syntax error.*]
# The description holds for the whole run: not this game's size and komi.
47 gomill-describe_engine
#? [.*\ngame: Go, board size, komi and rules as the controller sets them; until then 19x19, komi 7\.5, area scoring, positional superko, no suicide, dead stones lifted before counting\n.*]

50 quit
#? []
