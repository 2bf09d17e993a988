#!/usr/bin/env bash
# Runs rma4j's jcstress suite (jcstress-tests/target/rma4j-jcstress.jar) and fails unless every test result
# passed.
#
# Usage: jcstress-tests/run-jcstress.sh [jcstress options]      e.g.  -m quick   or   -m default -t Flush
#
# Java: the first of $RMA4J_TOOLCHAIN_JAVA_HOME (set by the Maven build from its JDK toolchain), $JAVA_HOME,
# runtime/target/java-home (the JDK of the last build) and `java` on the PATH that is a JDK >= 22.
# Output: $RMA4J_JCSTRESS_OUT (default jcstress-tests/target/jcstress): jcstress.log, the result blob and the
# HTML report in results/index.html.
#
# Exit status: 0 if every planned result passed (ACCEPTABLE or ACCEPTABLE_INTERESTING outcomes only);
# 1 otherwise. jcstress 0.16 itself exits 1 on a FORBIDDEN outcome, an exception, a timeout or a crashed VM,
# but exits 0 when a test is skipped because its pre-run check failed (reported as "API MISMATCH" or
# "soft errs"), so this script also checks jcstress's final count line:
#   (Results: N planned; P passed, F failed, S soft errs, H hard errs)
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="${RMA4J_JCSTRESS_JAR:-$here/target/rma4j-jcstress.jar}"
out="${RMA4J_JCSTRESS_OUT:-$here/target/jcstress}"

fail() {
    echo "run-jcstress: $*" >&2
    exit 1
}

feature_version() {
    "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p'
}

find_java() {
    local candidates=()
    [ -n "${RMA4J_TOOLCHAIN_JAVA_HOME:-}" ] && candidates+=("$RMA4J_TOOLCHAIN_JAVA_HOME/bin/java")
    [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME/bin/java")
    local recorded="$here/../runtime/target/java-home"
    [ -f "$recorded" ] && candidates+=("$(head -n 1 "$recorded")/bin/java")
    command -v java >/dev/null 2>&1 && candidates+=("$(command -v java)")
    local candidate version
    for candidate in "${candidates[@]}"; do
        [ -x "$candidate" ] || continue
        version="$(feature_version "$candidate")"
        if [ -n "$version" ] && [ "$version" -ge 22 ]; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

[ -f "$jar" ] || fail "no $jar: build it first (mvn -pl jcstress-tests -am package -DskipTests)"
java="$(find_java)" || fail "no JDK >= 22 found (set JAVA_HOME)"
mkdir -p "$out" || fail "cannot create $out"
rm -rf "$out/results"
cd "$out" || fail "cannot enter $out"
log="$out/jcstress.log"

echo "run-jcstress: $java -jar $jar $*"
start=$(date +%s)
# Native access for the host VM here; for the forked VMs through -jvmArgs / -jvmArgsPrepend (see README).
"$java" --enable-native-access=ALL-UNNAMED -jar "$jar" -r "$out/results" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
elapsed=$(( $(date +%s) - start ))

summary="$(grep -a '^(Results:' "$log" | tail -n 1)"
echo "run-jcstress: jcstress exited with status $status after ${elapsed} s; final count: ${summary:-none}"

not_passed() {
    # Test pages with a run whose status cell is not OK (skipped, API mismatch, failed, error, timeout, ...).
    local page
    for page in "$out"/results/org.*.html; do
        [ -f "$page" ] || continue
        if grep -o "align='center' bgColor='[^']*'>[^<]*<" "$page" | grep -q -v ">OK<"; then
            basename "$page" .html
        fi
    done
}

if [ "$status" -ne 0 ]; then
    fail "jcstress reported failures (a FORBIDDEN outcome, an exception, a timeout or a VM crash); see" \
        "$out/results/index.html and the TEST FAILURES list above"
fi
[ -n "$summary" ] || fail "jcstress printed no final count line; see $log"

count='^(Results: \([0-9]*\) planned; \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) soft errs, \([0-9]*\) hard errs'
read -r planned passed failed soft hard < <(echo "$summary" | sed -n "s/$count).*/\\1 \\2 \\3 \\4 \\5/p")
[ -n "${planned:-}" ] || fail "cannot read jcstress's final count line: $summary"
if [ "$planned" -eq 0 ] || [ "$passed" -ne "$planned" ] || [ "$failed" -ne 0 ] || [ "$soft" -ne 0 ] \
    || [ "$hard" -ne 0 ]; then
    echo "run-jcstress: tests that did not pass:" >&2
    not_passed | sed 's/^/  /' >&2
    fail "$passed of $planned results passed ($failed failed, $soft soft errors such as a failed pre-run check," \
        "$hard hard errors); see $out/results/index.html"
fi
echo "run-jcstress: all $planned results passed in ${elapsed} s"
