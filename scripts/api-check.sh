#!/usr/bin/env bash
# Checks the public API of every library product against the last released version, recorded
# in api/<Module>.json, so that an upgrade breaks nobody's code without a word.
#
#   scripts/api-check.sh            build (debug), compare each module with its baseline; fails
#                                   on a source break that CHANGELOG.md's "Unreleased" section
#                                   does not name
#   scripts/api-check.sh --update   record the baselines again (do it when a version is released,
#                                   on that version's commit)
#
# How: `swift-api-digester -dump-sdk` writes a module's public declarations (names, signatures,
# enum cases, conformances, generic signatures) from the built module; `-diagnose-sdk` compares
# the built module with the recorded one and lists removed, renamed and retyped declarations,
# changed generic signatures and conformances, and cases added to a public enum (a break for any
# `switch` over it without `default`). Additions of types, members and parameters with defaults
# are not breaks and are not listed.
#
# A listed break passes only if CHANGELOG.md's "## [Unreleased]" section names the declaration
# in backquotes (the name the report gives, e.g. `FeedSide.loadPrevious` or
# `FeedController.loadMore()`), with its migration.
#
# Environment: API_DIR (default api).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
API_DIR="${API_DIR:-$ROOT/api}"
export PATH="/opt/swift/usr/bin:$PATH"
cd "$ROOT"

log() { printf '== %s\n' "$*"; }

source "$ROOT/scripts/library-modules.sh"
work="$ROOT/.build/api-check"
rm -rf "$work" && mkdir -p "$work"

# The digester's dump, without what depends on the machine (its command line) or changes with
# every build of the same API (mangled names), one key per line so that a diff reads well.
dump() {
    swift-api-digester -dump-sdk -module "$1" -I "$modules_dir" -target "$triple" -o "$work/$1.raw.json"
    python3 - "$work/$1.raw.json" "$2" <<'PYTHON'
import json, sys
source, target = sys.argv[1], sys.argv[2]
root = json.load(open(source))
root["ABIRoot"].pop("tool_arguments", None)
def strip(node):
    node.pop("mangledName", None)
    for child in node.get("children", []):
        strip(child)
strip(root["ABIRoot"])
with open(target, "w") as out:
    json.dump(root, out, indent=1, sort_keys=True)
    out.write("\n")
PYTHON
}

if [[ ${1:-} == --update ]]; then
    mkdir -p "$API_DIR"
    for module in $modules; do
        dump "$module" "$API_DIR/$module.json"
        log "recorded $API_DIR/$module.json"
    done
    exit 0
fi

# Breaks the changelog names: the backquoted names in its Unreleased section.
unreleased="$work/unreleased.md"
awk '/^## \[Unreleased\]/ { inside = 1; next } /^## / { inside = 0 } inside' CHANGELOG.md > "$unreleased"

failed=0
for module in $modules; do
    baseline="$API_DIR/$module.json"
    if [[ ! -f $baseline ]]; then
        # A module the last release did not have breaks nobody; CHANGELOG must still name it.
        if awk '/^## \[Unreleased\]/{on=1; next} /^## \[/{on=0} on' CHANGELOG.md | grep -q "\`$module\`"; then
            echo "== $module: new since the last release (no baseline; CHANGELOG names it)"
        else
            echo "FAIL: $module is new since the last release: name \`$module\` under \"## [Unreleased]\" in CHANGELOG.md"
            failed=1
        fi
        continue
    fi
    swift-api-digester -diagnose-sdk -module "$module" -I "$modules_dir" -target "$triple" \
        -baseline-path "$baseline" -o "$work/$module.report.txt" 2>&1 | grep -v '^$' || true
    # The report: section headers in /* */, then one line per break.
    breaks=$(grep -v -E '^(/\*.*\*/)?[[:space:]]*$' "$work/$module.report.txt" || true)
    if [[ -z $breaks ]]; then
        log "$module: no source break against $(basename "$baseline")"
        continue
    fi
    while IFS= read -r line; do
        # The declaration the line is about: "<Kind> <Name> has …" (for a rename, the old name).
        name=$(sed -E 's/^[A-Za-z]+ ([^ ]+( [^ ]+)?) (has|is|now|changes|was) .*/\1/' <<<"$line" | awk '{ print $1 }')
        short=${name%%(*}
        # An accessor's break is the property's: `Type.property` names it.
        short=${short%.Get}; short=${short%.Set}; short=${short%.Modify}
        if grep -qF "\`$name\`" "$unreleased" || grep -qF "\`$short" "$unreleased"; then
            echo "listed in CHANGELOG.md: $module: $line"
        else
            echo "FAIL: $module: $line"
            echo "      (a source break: name \`$short\` and its migration under \"## [Unreleased]\" in CHANGELOG.md)"
            failed=1
        fi
    done <<<"$breaks"
done
[[ $failed -eq 0 ]] && log "public API: every break against the last release is listed in CHANGELOG.md"
exit $failed
