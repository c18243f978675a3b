"""The markdown table of the instruction suite (results/instructions.md), from instructions.tsv."""
import sys

values = {}
for path in sys.argv[1:]:
    with open(path) as file:
        for line in file:
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 3:
                values[fields[0]] = float(fields[2])
            elif len(fields) == 2:
                values[fields[0]] = float(fields[1])


def get(name):
    return values.get(name)


def number(value, digits=0):
    return "n/a" if value is None else f"{value:,.{digits}f}"


def ratio(top, bottom):
    a, b = get(top), get(bottom)
    return None if a is None or not b else a / b


print("#### Instructions per page of 20 posts at 1k items (one subscriber receives each list)\n")
print("| contender | what it does per page | instructions |")
print("| --- | --- | ---: |")
rows = [
    ("engine, `Identifiable` posts, default configuration", "drops duplicates by id; publishes a snapshot; events, status", "page.posts-ids.engine"),
    ("engine, same posts, `duplicates: .keep`", "no id index", "page.posts-keep.engine"),
    ("engine, a source that suspends once per page", "as the first row; the fetch resumes from the executor", "page.posts-ids.engine.suspending"),
    ("seed-port", "rebuilds the list (`items + page`); no duplicate filter", "page.posts.seed-port"),
    ("append-port", "appends in place; no duplicate filter", "page.posts.append-port"),
    ("combine-port", "rebuilds the list in a subject; no duplicate filter", "page.posts.combine-port"),
    ("floor", "appends to an array, yields the page", "page.posts.floor"),
]
for label, what, key in rows:
    print(f"| {label} | {what} | {number(get(key))} |")

print("\n#### Instructions per page of 20 two-word items (no ids)\n")
print("| contender | at 1k | at 100k |")
print("| --- | ---: | ---: |")
for contender in ["engine", "seed-port", "append-port", "combine-port", "floor"]:
    print(f"| {contender} | {number(get(f'page.two-word.{contender}'))} | {number(get(f'page.two-word.{contender}.100k'))} |")

print("\n#### Targets (issue 14)\n")
print("| figure | target | measured | met |")
print("| --- | --- | ---: | :---: |")


def target(label, value, limit, digits=2, below=True, unit=""):
    met = "n/a" if value is None else ("yes" if (value <= limit if below else value >= limit) else "**no**")
    print(f"| {label} | {'≤' if below else '≥'} {limit:,}{unit} | {number(value, digits)} | {met} |")


target("page of `Identifiable` posts, dropped ÷ `.keep`", ratio("page.posts-ids.engine", "page.posts-keep.engine"), 1.3)
target("page while the id table grows (98k) ÷ page at 90k (instructions)",
       ratio("page.posts-ids.engine.growing-74k", "page.posts-ids.engine.at-90k"), 20)
if get("growth-1m.ids.worst_over_median") is not None:
    target("worst ÷ median page growing to 1M items with ids (wall clock, fastest of 3 runs per page)",
           get("growth-1m.ids.worst_over_median"), 20, 1)
    target("the same apart from the pages where the controller's `followedCursors` set rehashes (3·2^k + 1)",
           get("growth-1m.ids.worst_outside_cursor_set_growth_over_median"), 20, 1)
target("heap of a 1M-item feed with ids ÷ plain array (two-word items)", get("bytes.feed-1m.engine-ids.ratio"), 1.6)
target("`FeedModel` per page ÷ controller per page (both from the main actor)",
       ratio("model.page.posts-ids", "controller.page.posts-ids.from-main"), 2)
model_mallocs, controller_mallocs = get("mallocs.model.page.posts-ids"), get("mallocs.controller.page.posts-ids.from-main")
target("`FeedModel` allocations per page − controller's (calls to malloc in the same loops)",
       None if model_mallocs is None or controller_mallocs is None else model_mallocs - controller_mallocs, 3)
target("`rowAppeared(item)` per call", get("model.row-appeared"), 2000, 0, unit=" instructions")
target("time to first list (create → first non-empty snapshot)", get("first-list.posts-ids"), 60000, 0, unit=" instructions")
target("the same, waiting on `controller.updates` (no snapshot stream)", get("first-list.posts-ids.updates"), 60000, 0, unit=" instructions")
target("engine ÷ floor per page (two-word items, 1k)", ratio("page.two-word.engine", "page.two-word.floor"), 1.6)
target("idle controller", get("bytes.idle-controller.bytes"), 1024, 0, unit=" B")
target("100,000 controllers with one page of posts with ids, each", get("bytes.controllers-100k.posts-ids.bytes_each"), 3072, 0, unit=" B")
target("item sequence ÷ hand-written loop per item (pages of 100 from an in-process source, issue 26)",
       ratio("sequence.items.two-word", "sequence.hand-loop.two-word"), 1.2)
target("page sequence ÷ hand-written loop per item (the same items)",
       ratio("sequence.pages.two-word", "sequence.hand-loop.two-word"), 1.2)
target("heap at 1M ÷ at 100k items read through the item sequence (duplicates kept)",
       get("bytes.sequence.items.growth.ratio"), 1.2)
print("\nOther figures: " + ", ".join(
    f"{name} {number(get(name))}" for name in [
        "page.posts.engine", "page.posts-ids.engine.at-90k", "page.posts-ids.engine.growing-74k",
        "model.page.posts-ids", "controller.page.posts-ids.from-main", "cancel.engine",
        "bytes.idle-controller.posts-ids.bytes", "bytes.feed-1m.engine.ratio",
    ]) + ".")

print("\n#### Allocations per iteration (calls to malloc & co. in the measured loop)\n")
print("| scenario | allocations |")
print("| --- | ---: |")
for name in sorted(n for n in values if n.startswith("mallocs.")):
    print(f"| {name[len('mallocs.'):]} | {number(get(name), 2)} |")
