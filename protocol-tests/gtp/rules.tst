# KataGo's rules commands (kata-get-rules, kata-set-rules, kata-set-rule), kgsGtp's kgs-rules,
# clear_cache and stop. KataGo prints the rules as JSON without komi; setting them leaves komi alone.

1 known_command kata-set-rules
#? [true]
2 known_command kgs-rules
#? [true]
6 known_command kata-set-rule
#? [true]
3 known_command clear_cache
#? [true]
4 known_command stop
#? [true]
5 list_commands
#? [.*\nkata-get-rules\nkata-set-rules\nkata-set-rule\nkgs-rules\nclear_cache\nstop(\n.*)?]

# The defaults: area scoring, positional superko, no suicide, no handicap bonus.
10 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"0"\}]

# 7x7: black walls column D, white walls column E, a dead white stone at B4 in black's area.
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
# Area: black 21 + 7, white 14 + 7, komi 6.5.
11 final_score
#? [B\+0\.5]
# Japanese: territory + prisoners (B4), black 21 + 1, white 14, komi 6.5 still.
12 kata-set-rules japanese
#? []
13 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"SIMPLE","scoring":"TERRITORY","suicide":false,"tax":"SEKI","whiteHandicapBonus":"0"\}]
14 final_score
#? [B\+1\.5]
# The description names the rules the engine starts with, not the game's (gomill asks once).
15 gomill-describe_engine
#? [sente [^\n]*\ngame: Go, board size, komi and rules as the controller sets them; until then 19x19, komi 7\.5, area scoring, positional superko, no suicide, dead stones lifted before counting\n.*]
# Tromp-Taylor counts every stone as alive: B4 stays, columns A-C are dame.
16 kata-set-rules Tromp-Taylor
#? []
17 final_status_list dead
#? []
18 final_score
#? [W\+21\.5]
19 kata-get-rules
#? [\{"friendlyPassOk":false,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"\}]
# The JSON form: unnamed keys are Tromp-Taylor's, tax follows the scoring, spaces are fine.
20 kata-set-rules {"scoring": "TERRITORY", "friendlyPassOk": true}
#? []
21 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"TERRITORY","suicide":true,"tax":"SEKI","whiteHandicapBonus":"0"\}]
22 final_score
#? [B\+1\.5]

# Refusals name what we cannot play and change nothing.
30 kata-set-rules aga-button
#? ?[.*button.*unchanged]
31 kata-set-rules stone-scoring
#? ?[.*tax ALL.*unchanged]
32 kata-set-rules {"ko":"SPIGHT"}
#? ?[.*SPIGHT.*unchanged]
33 kata-set-rules {"komi":6.5}
#? ?[.*komi.*]
34 kata-set-rules {"ko":"SUPER"}
#? ?[syntax error.*SUPER.*]
35 kata-set-rules {"suicide":"yes"}
#? ?[syntax error.*suicide.*]
36 kata-set-rules {"ko":"SIMPLE","colour":"blue"}
#? ?[syntax error.*colour.*]
37 kata-set-rules {"ko":
#? ?[syntax error.*JSON.*]
38 kata-set-rules ["SIMPLE"]
#? ?[unknown rules.*]
39 kata-set-rules mahjong
#? ?[unknown rules 'mahjong'.*]
40 kata-set-rules
#? ?[syntax error.*]
41 kata-get-rules now
#? ?[syntax error.*]
42 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"TERRITORY","suicide":true,"tax":"SEKI","whiteHandicapBonus":"0"\}]

# kata-set-rule KEY VALUE changes one field (key and value in any case) and nothing else: the
# tax stays SEKI when the scoring goes to AREA, unlike the JSON form, where it follows.
43 kata-set-rule scoring AREA
#? []
44 kata-set-rule Ko simple
#? []
45 kata-set-rule friendlyPassOk false
#? []
46 kata-get-rules
#? [\{"friendlyPassOk":false,"hasButton":false,"ko":"SIMPLE","scoring":"AREA","suicide":true,"tax":"SEKI","whiteHandicapBonus":"0"\}]
47 kata-set-rule ko
#? ?[syntax error.*]
48 kata-set-rule ko SIMPLE extra
#? ?[syntax error.*]
49 kata-set-rule ko SUPER
#? ?[syntax error.*SUPER.*unchanged]
57 kata-set-rule komi 6.5
#? ?[.*komi.*]
58 kata-set-rule colour blue
#? ?[syntax error.*colour.*]
59 kata-set-rule hasButton true
#? ?[.*button.*unchanged]
# JSON keys are matched in any case too.
66 kata-set-rules {"Ko":"POSITIONAL","SCORING":"TERRITORY","friendlypassok":true}
#? []
67 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"TERRITORY","suicide":true,"tax":"SEKI","whiteHandicapBonus":"0"\}]

# kgsGtp's names: chinese is KataGo's chinese-kgs (positional superko, N bonus).
50 kgs-rules chinese
#? []
51 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N"\}]
52 kgs-rules new_zealand
#? []
53 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"SITUATIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"\}]
54 kgs-rules tromp-taylor
#? ?[unknown rules.*]
55 kgs-rules
#? ?[syntax error.*]
56 kgs-rules aga japanese
#? ?[syntax error.*]

# White's handicap bonus: 4 stones on an otherwise empty 9x9, every stone alive (no
# friendlyPassOk, so no dead-stone guess): black 81 - komi 7.5 - bonus.
boardsize 9
clear_board
komi 7.5
fixed_handicap 4
60 kata-set-rules {"whiteHandicapBonus":"0"}
#? []
61 final_score
#? [B\+73\.5]
62 kata-set-rules {"whiteHandicapBonus":"N-1"}
#? []
63 final_score
#? [B\+70\.5]
64 kata-set-rules {"whiteHandicapBonus":"N"}
#? []
65 final_score
#? [B\+69\.5]

# In mid-game: a ko retaken after two passes is legal under simple ko but repeats a position,
# so superko rules are refused while the game holds it; the game and rules stay.
boardsize 5
clear_board
70 kata-set-rules chinese
#? []
play b B3
play w C3
play b A2
play w D2
play b B1
play w C1
play b C2
play w B2
play b pass
play w pass
play b C2
71 kata-set-rules chinese-ogs
#? ?[cannot change the rules: move 11 \(black C2\) would be illegal.*superko.*unchanged]
72 kgs-rules aga
#? ?[cannot change the rules: move 11 .*]
73 kata-get-rules
#? [\{.*"ko":"SIMPLE".*\}]
undo
74 kata-set-rules chinese-ogs
#? []
75 play b C2
#? ?[illegal move]

# A suicide played under New Zealand rules blocks going back to no suicide.
boardsize 5
clear_board
80 kata-set-rules new-zealand
#? []
play b A2
play b B1
81 play w A1
#? []
82 kata-set-rules japanese
#? ?[cannot change the rules: move 3 \(white A1\) would be illegal.*suicide.*unchanged]

# clear_cache keeps the game; stop has nothing to stop.
90 clear_cache
#? []
91 stop
#? []
92 showboard
#? [.*BLACK \(X\) has captured 1 stones.*]
93 clear_cache now
#? ?[syntax error.*]
94 stop now
#? ?[syntax error.*]
