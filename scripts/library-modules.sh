# Sourced by scripts/docs.sh and scripts/api-check.sh (from the package root): builds the
# package, then sets `modules_dir` (where the built modules are), `triple` (the target triple)
# and `modules` (the library products' modules, from the manifest, in order).
swift build 2>&1 | tail -1
modules_dir="$(swift build --show-bin-path)/Modules"
triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
modules=$(swift package dump-package | python3 -c '
import json, sys
package = json.load(sys.stdin)
seen = []
for product in package["products"]:
    if "library" in product["type"]:
        for target in product["targets"]:
            if target not in seen: seen.append(target)
print(" ".join(seen))')
