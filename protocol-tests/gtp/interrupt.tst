# GoGui's interrupt (`gogui-interrupt` in list_commands): the comment line `# interrupt` stops
# the search of the command right before it, which answers at once with its best move so far.
# Being a comment, it gets no response; after a command that does not search it stops nothing.
# A piped script is read ahead: the interrupt is already waiting when its genmove starts, so
# that genmove has no time to search.
1 known_command gogui-interrupt
#? [true]
2 gogui-interrupt
#? []
boardsize 9
clear_board
3 play b E5
# interrupt
#? []
4 genmove w
#? [[A-HJ][1-9]]
5 gomill-explain_last_move
#? [.*; 200 playouts in .*]
6 genmove b
# interrupt
#? [[A-HJ][1-9]|pass]
7 gomill-explain_last_move
#? [.*no time to search.*]
8 name
#? [sente]
