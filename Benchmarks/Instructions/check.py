"""Checks instruction and byte counts against the recorded thresholds (instructions.sh)."""
import sys


def load(path):
    values = {}
    with open(path) as file:
        for line in file:
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 3:
                values[fields[0]] = float(fields[2])
    return values


thresholds, measured, margin = load(sys.argv[1]), load(sys.argv[2]), float(sys.argv[3]) / 100
failed, improved = [], []
for name, limit in sorted(thresholds.items()):
    if name.endswith(".ratio") or ".array." in name:
        continue  # derived or not ours
    value = measured.get(name)
    if value is None:
        failed.append(f"{name}: not measured")
    elif value > limit * (1 + margin):
        failed.append(f"{name}: {value:,.0f} > {limit:,.0f} + {margin:.0%}")
    elif value < limit * (1 - margin):
        improved.append(f"{name}: {value:,.0f} < {limit:,.0f} - {margin:.0%}")
for line in improved:
    print(f"improved (record with instructions.sh --update): {line}")
for line in failed:
    print(f"REGRESSION: {line}", file=sys.stderr)
checked = len([n for n in thresholds if not n.endswith(".ratio") and ".array." not in n])
print(f"instructions: {checked - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
