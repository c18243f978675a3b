#!/usr/bin/env bash
# Builds the DocC documentation of every library product with the toolchain's `docc`, and
# checks that every public symbol has a doc comment that names no source file, and that every
# library module has a catalog.
#
#   scripts/docs.sh                  build the package, check coverage, convert; fails on any
#                                    warning or undocumented public symbol
#   scripts/docs.sh --preview        the same, then serves the archive on http://localhost:8080
#
# How: `swift build`, then `swift-symbolgraph-extract` writes each library module's symbol
# graph from the built modules (public symbols); the `.docc` catalogs of the products
# (Sources/<module>/<module>.docc) are combined into one catalog, and a single `docc convert`
# gets all modules' symbol graphs together, so links between modules resolve.
#
# Output: .build-docs/AsyncPaging.doccarchive (git-ignored). Environment: DOCS_OUT (default
# .build-docs).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${DOCS_OUT:-$ROOT/.build-docs}"
export PATH="/opt/swift/usr/bin:$PATH"
cd "$ROOT"

log() { printf '== %s\n' "$*"; }

# --- Symbol graphs -------------------------------------------------------------------------
log "swift build"
source "$ROOT/scripts/library-modules.sh"

rm -rf "$OUT/symbol-graphs" "$OUT/catalog" "$OUT/AsyncPaging.doccarchive"
mkdir -p "$OUT/symbol-graphs"
for module in $modules; do
    swift-symbolgraph-extract -module-name "$module" -I "$modules_dir" -target "$triple" \
        -minimum-access-level public -skip-inherited-docs -output-dir "$OUT/symbol-graphs"
done
log "symbol graphs of: $modules"

# --- Documentation coverage ------------------------------------------------------------------
# Every public symbol written in the source needs a doc comment. Not counted: symbols the
# compiler made (no source location: a synthesized `init(rawValue:)`), and members inherited
# from a protocol's default implementation (`::SYNTHESIZED::`).
log "documentation coverage"
python3 - "$OUT/symbol-graphs" "$ROOT" <<'PYTHON'
import glob, json, os, re, sys
directory, root = sys.argv[1], sys.argv[2]
missing, total, sourcefiles = [], 0, []
for path in sorted(glob.glob(os.path.join(directory, "*.symbols.json"))):
    graph = json.load(open(path))
    for symbol in graph["symbols"]:
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        if "::SYNTHESIZED::" in symbol["identifier"]["precise"] or "location" not in symbol:
            continue
        total += 1
        lines = symbol.get("docComment", {}).get("lines")
        if lines:
            # A symbol's page speaks of the API, never of the files it is written in.
            for entry in lines:
                if re.search(r"\w\.swift\b", entry["text"]):
                    location = symbol["location"]
                    file = location["uri"].removeprefix("file://")
                    line = location["position"]["line"] + 1
                    sourcefiles.append(f"{os.path.relpath(file, root)}:{line}: {'.'.join(symbol['pathComponents'])}: {entry['text'].strip()}")
            continue
        location = symbol["location"]
        file = location["uri"].removeprefix("file://")
        line = location["position"]["line"] + 1
        name = ".".join(symbol["pathComponents"])
        missing.append(f"{os.path.relpath(file, root)}:{line}: {graph['module']['name']}.{name} ({symbol['kind']['displayName']})")
for entry in sorted(set(missing)):
    print("  undocumented:", entry)
for entry in sorted(set(sourcefiles)):
    print("  names a source file:", entry)
print(f"{total - len(set(missing))} of {total} public symbols documented")
sys.exit(1 if missing or sourcefiles else 0)
PYTHON

# --- One catalog for all modules ---------------------------------------------------------------
mkdir -p "$OUT/catalog/AsyncPaging.docc"
for module in $modules; do
    catalog="Sources/$module/$module.docc"
    if [[ ! -d $catalog ]]; then
        echo "FAIL: $module has no catalog at $catalog (every library module has one, with a landing page)" >&2
        exit 1
    fi
    for file in "$catalog"/*; do
        target="$OUT/catalog/AsyncPaging.docc/$(basename "$file")"
        [[ ! -e $target ]] || { echo "FAIL: two catalogs have $(basename "$file")" >&2; exit 1; }
        cp -R "$file" "$target"
    done
done

# --- Convert ---------------------------------------------------------------------------------
log "docc convert"
set +e
docc convert "$OUT/catalog/AsyncPaging.docc" \
    --additional-symbol-graph-dir "$OUT/symbol-graphs" \
    --output-dir "$OUT/AsyncPaging.doccarchive" \
    --fallback-display-name AsyncPaging \
    --fallback-bundle-identifier org.asyncpaging.AsyncPaging \
    --transform-for-static-hosting \
    --warnings-as-errors >"$OUT/docc.log" 2>&1
code=$?
set -e
# The catalog is a copy: name the source file instead.
sed -e "s#$OUT/catalog/AsyncPaging.docc/#Sources/*/*.docc/#g" "$OUT/docc.log" | grep -vE '^(Progress|Finished|Generated|Conversion)' || true
if [[ $code -ne 0 ]] || grep -qE '(^|: )(warning|error):' "$OUT/docc.log"; then
    echo "FAIL: docc reported problems (above); warnings count as failures"
    exit 1
fi
pages=$(find "$OUT/AsyncPaging.doccarchive/data/documentation" -name '*.json' | wc -l)
log "built $OUT/AsyncPaging.doccarchive: $pages pages, 0 warnings"

if [[ ${1:-} == --preview ]]; then
    log "serving on http://localhost:8080/documentation/asyncpaging (Ctrl-C stops)"
    cd "$OUT/AsyncPaging.doccarchive" && exec python3 -m http.server 8080
fi
