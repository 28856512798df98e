#! args --ponder
# Pondering (`--ponder`): after each genmove the engine thinks on the opponent's time until the
# next line arrives; no reply changes (a piped script leaves no time to ponder, and a ponder
# writes nothing). `sente-ponder` shows and switches it.
1 sente-ponder
#? [on]
boardsize 9
clear_board
2 genmove b
#? [[A-HJ][1-9]]
3 play w A1
#? []
4 genmove b
#? [[A-HJ][1-9]]
5 sente-ponder off
#? []
6 sente-ponder
#? [off]
7 sente-ponder ON
#? []
8 sente-ponder
#? [on]
9 sente-ponder maybe
#? ?[syntax error.*]
10 stop
#? []
11 known_command sente-ponder
#? [true]
