# Time control commands: accepted, validated, and genmove still answers.

boardsize 9
clear_board
1 time_settings 300 30 5
#? []
2 time_settings 60 0 0
#? []
3 time_settings 0 1 1
#? []
4 time_settings 10 5 0
#? []
5 time_settings 1 2
#? ?[syntax error.*]
6 time_settings -1 2 3
#? ?[syntax error.*]
7 time_settings a b c
#? ?[syntax error.*]
10 kgs-time_settings none
#? []
11 kgs-time_settings absolute 600
#? []
12 kgs-time_settings byoyomi 600 30 5
#? []
13 kgs-time_settings canadian 600 300 25
#? []
14 kgs-time_settings fischer 600 10
#? ?[syntax error.*]
15 kgs-time_settings byoyomi 600 30
#? ?[syntax error.*]
16 kgs-time_settings
#? ?[syntax error.*]
17 kgs-time_settings none 5
#? ?[syntax error.*]
20 time_left b 120 0
#? []
21 time_left white 4.5 1
#? []
22 time_left b 120
#? ?[syntax error.*]
23 time_left x 120 0
#? ?[invalid color.*]
# A clock never runs below zero: negative times are malformed, for every clock command.
26 time_left b -5 0
#? ?[syntax error.*]
27 time_left w -0.5 1
#? ?[syntax error.*]
28 kgs-time_settings absolute -60
#? ?[syntax error.*]
29 kgs-time_settings byoyomi 600 -30 5
#? ?[syntax error.*]
# Clock values must fit GTP's int (at most 2147483647): larger ones are refused and the clock
# stays as it was; of the longest clock accepted a move spends at most 5 minutes.
30 time_settings 2147483648 0 0
#? ?[syntax error: 2147483648 is past GTP's int range \(at most 2147483647\)]
31 time_left b 18446744073709551616 5
#? ?[syntax error: 18446744073709551616 is past GTP's int range \(at most 2147483647\)]
32 kgs-time_settings absolute 99999999999999
#? ?[syntax error: 99999999999999 is past GTP's int range \(at most 2147483647\)]
33 time_settings 2147483647 0 0
#? []
34 time_settings 0 1 1
#? []
24 genmove b
#? [[A-HJ][1-9]|pass|resign]
25 genmove w
#? [[A-HJ][1-9]|pass|resign]
