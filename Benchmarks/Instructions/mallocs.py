"""Counts the calls to the allocator in a callgrind output file (instructions.sh): the calls made
while instrumentation was on, after the counters were zeroed, i.e. in the measured loop."""
import re
import sys

ALLOCATORS = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"}


def is_allocator_internal(name):
    """Calls made inside the allocator (posix_memalign reaches malloc through _mid_memalign)
    are part of the call that entered it, not allocations of their own."""
    return name in ALLOCATORS or name.startswith(("_mid_memalign", "_int_", "malloc_", "tcache", "sysmalloc"))


def allocation_calls(path):
    names = {}
    total = 0
    caller = ""
    callee = None
    with open(path) as file:
        for line in file:
            if line.startswith(("fn=", "cfn=")):
                match = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if match:
                    if match.group(2):
                        names[match.group(1)] = match.group(2)
                    name = names.get(match.group(1), "")
                else:
                    name = line.split("=", 1)[1].strip()
                if line.startswith("fn="):
                    caller, callee = name, None
                else:
                    callee = name
            elif line.startswith("calls=") and callee is not None:
                if callee in ALLOCATORS and not is_allocator_internal(caller):
                    total += int(line.split("=", 1)[1].split()[0])
                callee = None
    return total


if __name__ == "__main__":
    # With an iteration count: allocations per iteration, two decimals.
    calls = allocation_calls(sys.argv[1])
    print(f"{calls / int(sys.argv[2]):.2f}" if len(sys.argv) > 2 else calls)
