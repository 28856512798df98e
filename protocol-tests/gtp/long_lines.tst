# Lines longer than the reader keeps (1 MiB). Blanks before or after a command never count,
# so the command behind them is read whole; a line whose text runs past the limit is
# refused with an error naming it (and its id, when the id came before the cut), and the
# lines after it are read as usual.

{repeat 1048576 " "}name
{repeat 1048577 " "}1 name
#? [sente]
2 name{repeat 2097152 " "}
#? [sente]
3 {repeat 1048576 " "}name
#? ?[line too long \(limit 1 MiB\)]
4 play b {repeat 1048576 "x"}
#? ?[line too long \(limit 1 MiB\)]
5 name # a comment may run past the limit: {repeat 1048576 "x"}
#? [sente]
6 protocol_version
#? [2]
