#!/bin/sh
# A survey too long for one machine, run in parts and merged (the reference, "Surveys that
# resume, and surveys in parts"). Each part is `grundy --cache DIR --shard I/N` running the same
# survey statement; the merge is `grundy --cache DIR --merge` running it again, which computes
# nothing and writes the table of one run. A part stopped (a node lost, a time limit) resumes
# from its file when it runs again.
#
#   sh survey_job_array.sh slurm      submit the parts as a Slurm job array, then the merge
#                                     as a job that waits for all of them
#   sh survey_job_array.sh parallel   run the parts with GNU parallel over the machines of
#                                     $MACHINES (a file for --sshloginfile), then merge here
#   sh survey_job_array.sh local      run the parts here, $JOBS at a time, then merge
#   sh survey_job_array.sh part I     run part I (what each array task runs)
#   sh survey_job_array.sh merge      merge the parts
#
# CACHE must be a folder every machine sees (a shared file system) and the parts must be signed
# with one key: grundy's key is `grundy/cache-key` in the user's data folder (usually
# ~/.local/share), the same file on nodes that share the home folder; otherwise copy it,
# owner-only (`chmod 600`), to each machine. A part signed with another key is refused by the
# merge, never believed.

set -eu

SURVEY=${SURVEY:-'survey octal 3 up to 131072'}
OUT=${OUT:-octal3.csv}
PARTS=${PARTS:-16}
CACHE=${CACHE:-$PWD/survey-cache}
GRUNDY=${GRUNDY:-grundy}
JOBS=${JOBS:-2}
MACHINES=${MACHINES:-machines.txt}
SCRIPT=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")

case "${1:-}" in
part)
    # One part: in a Slurm array, part $SLURM_ARRAY_TASK_ID.
    I=${2:-${SLURM_ARRAY_TASK_ID:?part I, or SLURM_ARRAY_TASK_ID}}
    exec "$GRUNDY" --cache "$CACHE" --shard "$I/$PARTS" -e "$SURVEY"
    ;;
merge)
    exec "$GRUNDY" --cache "$CACHE" --merge -e "$SURVEY to \"$OUT\""
    ;;
slurm)
    export SURVEY OUT PARTS CACHE GRUNDY
    ARRAY=$(sbatch --parsable --export=ALL --array="1-$PARTS" --job-name=survey-part \
        --wrap "sh '$SCRIPT' part")
    sbatch --export=ALL --dependency="afterok:$ARRAY" --job-name=survey-merge \
        --wrap "sh '$SCRIPT' merge"
    ;;
parallel)
    export SURVEY OUT PARTS CACHE GRUNDY
    seq 1 "$PARTS" | parallel --sshloginfile "$MACHINES" --env SURVEY,PARTS,CACHE,GRUNDY \
        sh "'$SCRIPT'" part {}
    sh "$SCRIPT" merge
    ;;
local)
    export SURVEY OUT PARTS CACHE GRUNDY
    seq 1 "$PARTS" | xargs -P "$JOBS" -I{} sh "$SCRIPT" part {}
    sh "$SCRIPT" merge
    ;;
*)
    sed -n '2,20p' "$SCRIPT"
    exit 2
    ;;
esac
