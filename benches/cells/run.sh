#!/bin/sh
# Cram and Chomp through the language beside igsolve (built from beling/impartial-games for
# measurement), one board after the other in one run: CPU seconds (user + system) of each, and
# the nimbers.
# Usage: benches/cells/run.sh PATH/TO/igsolve [TIMEOUT_SECONDS]
igsolve=$1
limit=${2:-600}
here=$(dirname "$0")
grundy="$here/../../target/release/grundy"
cpu() {
    /usr/bin/time -f "%U %S" -o /tmp/cells-bench-time timeout "$limit" "$@" > /tmp/cells-bench-out 2>&1 || printf 'not finished in %s s, ' "$limit"
    tail -n 1 /tmp/cells-bench-time | awk '{ printf "%.2f", $1 + $2 }'
}
# compare GAME BOARD: grundy on benches/cells/GAME-BOARD.game, then igsolve GAME on BOARD (RxC:
# rows x columns; igsolve's cram takes them in order, its chomp as -r and -c).
compare() {
    rows=${2%x*}
    columns=${2#*x}
    ours=$(cpu "$grundy" "$here/$1-$2.game")
    nimber=$(tail -n 1 /tmp/cells-bench-out)
    case $1 in
        chomp) theirs=$(cpu "$igsolve" chomp -r "$rows" -c "$columns") ;;
        *) theirs=$(cpu "$igsolve" "$1" "$rows" "$columns") ;;
    esac
    their_nimber=$(grep -o 'initial position: [0-9]*' /tmp/cells-bench-out | grep -o '[0-9]*$')
    echo "$1 $2: grundy $ours s (nimber $nimber), igsolve $theirs s (nimber $their_nimber), ratio $(echo "$ours $theirs" | awk '{ printf "%.2f", $(NF - 1) / ($NF > 0.01 ? $NF : 0.01) }')"
}
for board in ${CRAM-4x7 5x6 5x7 5x8 3x15 4x11}; do
    compare cram "$board"
done
for board in ${CHOMP-10x10 11x11 12x12 13x13}; do
    compare chomp "$board"
done
