# The `signature:` line of each bench: `sente bench`, `sente bench go`, `sente bench ttt`
# (one thread, the defaults). A change that alters play changes one of them; it updates this
# file in its own commit, whose message gives the match that kept it. `.ci/run` checks it
# through scripts/bench_check.sh.
gomoku 824fc85c0a73ef5d
go 5f99dfee23e0471b
ttt afadc105c8b1d01b
