#!/usr/bin/env bash
# The CUDA check, for a machine with an NVIDIA GPU (and on a CPU machine, a dry run):
#
#     bash benchmarks/cuda_check.sh [OUT]          # default OUT: reports/cuda
#
# Runs the hand-written cases and a slice of the generated corpus (CUDA_CHECK_COUNT, default
# 2000) on reference-torch, torch-cpu and torch-cuda of whatever torch is installed, judges both
# devices against the reference, compares torch-cuda with torch-cpu case by case (device parity),
# and writes the report folder (report.md, report.html, summary.json, results.jsonl). summary.json
# records the torch that ran and whether it is the pinned one; the report says so when it is not.
# Without a GPU, torch-cuda is "unavailable" (with its reason) and the rest still runs.
# Needs python3 with numpy, torch, pytest and pytest-xdist; nothing is installed or fetched.
# Exit status: 0 when the run completed (its failures are in the report), else the run's.
set -u
cd "$(dirname "$0")/.."
OUT="${1:-reports/cuda}"
PY="${PYTHON:-python3}"
COUNT="${CUDA_CHECK_COUNT:-2000}"
SELECT="${CUDA_CHECK_SELECT:-}"

# the reference on both devices: parity tells a device difference the reference models from one
# it does not
ARGS=(run --backends reference-torch,reference-torch-cuda,torch-cpu,torch-cuda --count "$COUNT"
      --out "$OUT" -n auto)
if [ -n "$SELECT" ]; then
    ARGS+=(--select "$SELECT")
fi

start=$(date +%s)
"$PY" -m conformance.cli "${ARGS[@]}"
status=$?
echo "cuda check: $(( $(date +%s) - start )) s, run exit status $status"
# 4: torch-cuda judged nothing (no GPU here): the dry run is still a complete run
if [ "$status" -gt 1 ] && [ "$status" -ne 4 ]; then
    exit "$status"
fi

"$PY" - "$OUT" <<'PYEOF'
import json
import sys

summary = json.load(open(f"{sys.argv[1]}/summary.json"))
target = summary["execution_target"]
pin = summary["framework_pins"].get("torch", {})
print(f"torch {target['torch']} (pinned {pin.get('pinned')}: "
      f"{'yes' if pin.get('is_pinned') else 'NO, results are from another torch'}), "
      f"device {target['device']}, CUDA {target['cuda']}, driver {target['driver']}")
for backend, counts in sorted(summary["counts"].items()):
    print(f"  {backend}: " + ", ".join(f"{v} {n}" for v, n in sorted(counts.items())))
for backend, reasons in sorted(summary["unsupported"].items()):
    for reason, n in reasons.items():
        print(f"  {backend} unsupported ({reason}): {n}")
parity = summary.get("device_parity", {})
print(f"device parity: compared {parity.get('compared', 0)}, same {parity.get('same', 0)}, "
      f"modelled by the reference {len(parity.get('modelled', []))}, "
      f"known {len(parity.get('known', []))}, "
      f"differ {len(parity.get('differ', []))}")
for reason, n in parity.get("not_compared", {}).items():
    print(f"  not compared, {reason}: {n}")
for name, n in parity.get("modelled_classes", {}).items():
    print(f"  modelled: {n}: {name}")
for name, n in parity.get("classes", {}).items():
    print(f"  differ: {n}: {name}")
for d in parity.get("differ", [])[:20]:
    print(f"  differs: {d['case']} step {d['step']}: {d['what']}")
for cls in summary.get("failure_classes", [])[:40]:
    print(f"  failing class on {cls['backend']}: {cls['count']}: {cls['signature']}")
failing = {"torch-cpu": set(), "torch-cuda": set()}
with open(f"{sys.argv[1]}/results.jsonl") as stream:
    for line in stream:
        r = json.loads(line)
        if r.get("backend") in failing and r.get("verdict") in ("fail", "crashed", "timeout"):
            failing[r["backend"]].add(r["case"])
only_cuda = sorted(failing["torch-cuda"] - failing["torch-cpu"])
print(f"failing on torch-cuda and not on torch-cpu: {len(only_cuda)}")
for case in only_cuda[:20]:
    print(f"  {case}")
PYEOF
exit 0
