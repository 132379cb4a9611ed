#!/usr/bin/env bash
# Runs a command with the kernel's FUSE tracepoints on (fuse_request_send, fuse_request_end) and
# prints, per request type, how many the kernel sent and how long each took from send to reply:
# what a workload asks of every FUSE file system on the machine while it runs, and where its time
# goes, without touching the daemon. Needs root and a kernel with the fuse trace events (6.x).
#
# Usage: bench/fuse-trace.sh COMMAND [ARG]...
#   e.g. bench/fuse-trace.sh python3 -c 'import os; [os.stat(f"/mnt/d/f{i}") for i in range(100)]'
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 COMMAND [ARG]..." >&2; exit 2; }
tracing=/sys/kernel/tracing
[ -d "$tracing/events" ] || mount -t tracefs nodev "$tracing"
[ -d "$tracing/events/fuse" ] || { echo "$0: this kernel has no fuse trace events" >&2; exit 1; }

events=(fuse/fuse_request_send fuse/fuse_request_end)
trace_off() {
    echo 0 > "$tracing/tracing_on"
    for e in "${events[@]}"; do echo 0 > "$tracing/events/$e/enable"; done
}
trap trace_off EXIT
echo 0 > "$tracing/tracing_on"
echo > "$tracing/trace"
echo 65536 > "$tracing/buffer_size_kb" # per CPU: ~1M requests before the oldest are overwritten
for e in "${events[@]}"; do echo 1 > "$tracing/events/$e/enable"; done
echo 1 > "$tracing/tracing_on"
status=0
"$@" || status=$?
trace_off

python3 - "$tracing/trace" <<'EOF'
import collections, re, sys
send = re.compile(r'\s([\d.]+): fuse_request_send: connection \d+ req (\d+) opcode \d+ \((\w+)\)')
end = re.compile(r'\s([\d.]+): fuse_request_end: connection \d+ req (\d+) len \d+ error (-?\d+)')
sent, stats = {}, collections.defaultdict(lambda: [0, 0.0, 0])  # op -> count, seconds, errors
with open(sys.argv[1]) as trace:
    for line in trace:
        if m := send.search(line):
            sent[m.group(2)] = (float(m.group(1)), m.group(3).removeprefix("FUSE_"))
        elif (m := end.search(line)) and m.group(2) in sent:
            t0, op = sent.pop(m.group(2))
            s = stats[op]
            s[0] += 1
            s[1] += float(m.group(1)) - t0
            s[2] += m.group(3) != "0"
print(f"{'request':14} {'count':>8} {'mean ms':>9} {'total ms':>10} {'errors':>7}")
for op, (n, seconds, errors) in sorted(stats.items(), key=lambda kv: -kv[1][1]):
    print(f"{op:14} {n:8d} {seconds / n * 1000:9.3f} {seconds * 1000:10.1f} {errors:7d}")
if sent:
    print(f"({len(sent)} requests still unanswered when the command ended)")
EOF
exit "$status"
