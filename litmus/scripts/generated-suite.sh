#!/usr/bin/env bash
# Generates the litmus suite of docs/litmus/generated-suite.md and runs it on real rma4j processes.
#   litmus/scripts/generated-suite.sh OUTDIR [RUNS] [BATCH]  (RUNS per test, default 10000; BATCH tests per job, 250)
# Needs the built jar (mvn -B -q -DskipTests package). The generated files go to OUTDIR/tests, the
# table to OUTDIR/summary.md and OUTDIR/summary.json.
set -euo pipefail
out=${1:?usage: generated-suite.sh OUTDIR [RUNS]}
runs=${2:-10000}
batch=${3:-250}
here=$(cd "$(dirname "$0")/../.." && pwd)
java="$(cat "$here/runtime/target/java-home")/bin/java"
tests="$out/tests"
mkdir -p "$tests" "$out/bin"
# Run a copy of the jar and its lib/, so that rebuilding the module meanwhile cannot break the run.
cp "$here/litmus/target/rma4j-litmus.jar" "$out/bin/"
cp -r "$here/litmus/target/lib" "$out/bin/"
jar="$out/bin/rma4j-litmus.jar"
gen() { "$java" -jar "$jar" gen -o "$tests" --procs 2 --min-procs 2 "$@" 2>/dev/null; }
# the coreRMA statements (the default alphabet)
gen --stmts 2 --prefix core --max 200
# accumulates (ordering, atomic reads) with puts, gets and flushes
gen --stmts 2 --alphabet read,write,put,get,flush,acc,fop --require acc,fop --prefix acc --max 800
# notified put / get, specific and wildcard waits
gen --stmts 3 --alphabet read,write,put_notify,get_notify,wait,wait_any,flush --prefix notify --max 300
# direct loads, stores and bounded polls through shared_query, with win_sync and barriers
gen --stmts 2 --alphabet read,write,load,store,poll,win_sync,barrier --require load,store,poll --prefix shm --max 300
# post / start / complete / wait
gen --stmts 3 --alphabet read,write,put,get,post,start,complete,win_wait --require post --prefix pscw --max 250
# lock_all epochs
gen --stmts 3 --alphabet read,write,put,get,flush,lock_all,unlock_all --require lock_all --prefix lockall --max 150
# sub-word and floating accumulates
gen --stmts 2 --alphabet read,write,acc,fop,rga,flush --type short --require acc,fop,rga --prefix short --max 150
gen --stmts 2 --alphabet read,write,acc,fop,flush --type double --require acc,fop --prefix double --max 100
# payloads: 40 bytes and 1 KiB, through puts and notified puts (the non-inline path)
gen --stmts 2 --alphabet read,write,put,put_notify,wait,flush --elements 5 --require put_notify --prefix p40 --max 100
gen --stmts 2 --alphabet read,write,put,put_notify,wait,flush --elements 128 --require put_notify --prefix p1k --max 100
echo "$(ls "$tests" | wc -l) tests in $tests"
"$java" -jar "$jar" suite -n "$runs" --mode processes --batch "$batch" -o "$out" "$tests"
