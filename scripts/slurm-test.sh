#!/usr/bin/env bash
# The cluster test: a single-node Slurm (slurmctld + slurmd, Debian's packages) started in a
# scratch directory, a qemu-virt set submitted with `cyclebench submit slurm` as 4 shards, the
# node taken down while shards run and brought back (Slurm requeues their tasks, which resume
# their own directories), and the merged directory compared with a one-machine run by
# `cyclebench compare --identical`: the same records, .out files and CSV, no request lost or
# measured twice.
#
# No munge: auth/none and cred/none, high ports, every path under the scratch directory. A trap
# stops every job and daemon this script started, whatever happens. Every wait is bounded.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

for tool in slurmctld slurmd sbatch scontrol squeue python3; do
  command -v "$tool" >/dev/null || { echo "slurm-test: $tool missing (scripts/setup.sh installs it)" >&2; exit 1; }
done

scratch=$(mktemp -d /tmp/cyclebench-slurm.XXXXXX)
node=cbnode
export SLURM_CONF=$scratch/slurm.conf
ctld_pid=
slurmd_pid=

say() { echo "slurm-test: $*"; }

stop() {
  local status=$?
  set +e
  if [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null; then
    # Jobs first, while slurmd can still end their processes.
    timeout 10 scancel --full --signal=KILL --quiet $(squeue -h -o %A 2>/dev/null | sort -u) 2>/dev/null
    scancel --quiet $(squeue -h -o %A 2>/dev/null | sort -u) 2>/dev/null
    for _ in $(seq 1 30); do
      [ -z "$(squeue -h 2>/dev/null)" ] && break
      sleep 1
    done
  fi
  for pid in $slurmd_pid $ctld_pid; do
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid"
      timeout 15 tail --pid="$pid" -f /dev/null || kill -9 "$pid"
    fi
  done
  if [ "$status" -ne 0 ]; then
    say "FAILED (status $status); logs in $scratch"
    tail -n 20 "$scratch"/slurmctld.log "$scratch"/slurmd.log "$scratch"/run/slurm/logs/* 2>/dev/null
  else
    rm -rf "$scratch"
  fi
  exit "$status"
}
trap stop EXIT INT TERM

mkdir -p "$scratch"/{state,spool,cache}
cpus=$(nproc)
# Two free high ports, so that tests on one machine do not meet.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')
cat > "$SLURM_CONF" <<EOF
ClusterName=cyclebench-test
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/none
CredType=cred/none
# A requeued job waits out the credential lifetime before it may start again.
AuthInfo=cred_expire=10
StateSaveLocation=$scratch/state
SlurmdSpoolDir=$scratch/spool
SlurmctldPidFile=$scratch/slurmctld.pid
SlurmdPidFile=$scratch/slurmd.pid
SlurmctldLogFile=$scratch/slurmctld.log
SlurmdLogFile=$scratch/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
# A node taken down stays down until it is resumed.
ReturnToService=1
JobRequeue=1
KillWait=5
MinJobAge=600
MailProg=/bin/true
NodeName=$node NodeHostname=$(hostname -s) NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

# Wait up to $1 seconds for the command after it to succeed.
await() {
  local limit=$1
  shift
  for _ in $(seq 1 "$limit"); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 1
  done
  say "gave up after ${limit} s waiting for: $*" >&2
  return 1
}

say "starting slurmctld and slurmd in $scratch"
slurmctld -D -i -f "$SLURM_CONF" > "$scratch/slurmctld.out" 2>&1 &
ctld_pid=$!
await 30 scontrol ping
slurmd -D -f "$SLURM_CONF" -N "$node" > "$scratch/slurmd.out" 2>&1 &
slurmd_pid=$!
node_state() { sinfo -h -n "$node" -o %T | tr -d '*'; }
await 60 bash -c "[ \"\$(sinfo -h -n $node -o %T)\" = idle ]"

# The set: two shipped ones, a generated one long enough that shards are running when the node
# goes down, and a file whose lines run in order on one instance (one unit).
set_dir=$scratch/set
mkdir -p "$set_dir"
python3 - "$set_dir" <<'EOF'
import sys
d = sys.argv[1]
lines = ["# generated: SHA-2 and SHA3 over 64 KiB, three repetitions each"]
for i in range(1200):
    if i % 100 == 0:
        lines.append(f"# requests {i} on")
    alg = ["sha2", "sha3"][i % 2]
    lines.append(f'{{"hash": {{"algorithm": "{alg}", "length": 65536, "repeated_block": 4096, "seed": {i}, "repetitions": 3}}}}')
open(f"{d}/long.bench", "w").write("\n".join(lines) + "\n")
ordered = [
    "# in order on one instance: a control request makes the file one unit",
    '{"hash": {"algorithm": "sha2", "dataset": "abc"}}',
    '"hello"',
    '{"hash": {"algorithm": "sha3", "dataset": "msg-256"}}',
]
open(f"{d}/ordered.bench", "w").write("\n".join(ordered) + "\n")
EOF
files=(benchmarks/sha2.bench "$set_dir/long.bench" "$set_dir/ordered.bench" benchmarks/aes_modes.bench)
cli=$repo/target/release/cyclebench
(cd "$repo" && cargo build --release --quiet -p cyclebench)

say "submitting ${#files[@]} files as 4 shards"
"$cli" submit slurm --shards 4 --target qemu-virt --cpus-per-task 1 --cache "$scratch/cache" \
  --out "$scratch/run" --now "${files[@]}"

records() { cat "$scratch"/run/shards/*/results.jsonl 2>/dev/null | wc -l; }
say "waiting for shards to run and measure"
await 300 bash -c "[ \"\$(squeue -h -t RUNNING -n cyclebench-shards | wc -l)\" -ge 1 ] && [ \"\$(cat $scratch/run/shards/*/results.jsonl 2>/dev/null | wc -l)\" -ge 100 ]"
say "taking $node down with $(records) records written and $(squeue -h -t RUNNING -n cyclebench-shards | wc -l) shard(s) running"
scontrol update nodename="$node" state=down reason=cyclebench-test
await 60 bash -c "[ \"\$(squeue -h -t RUNNING | wc -l)\" -eq 0 ]"
say "node down, nothing runs; waiting in the queue: $(squeue -h -n cyclebench-shards -o '%i (%r)' | tr '\n' ' ')"
say "bringing $node back"
sleep 3
scontrol update nodename="$node" state=resume
say "waiting for every job to end"
await 900 bash -c "[ -z \"\$(squeue -h)\" ]"

grep -l "resuming" "$scratch"/run/slurm/logs/shard-* > "$scratch/resumed" || true
say "shard tasks that resumed after the node came back: $(wc -l < "$scratch/resumed")"
[ -s "$scratch/resumed" ] || { say "no shard task was requeued and resumed" >&2; exit 1; }
[ -f "$scratch/run/merged/results.jsonl" ] || { say "no merged results" >&2; cat "$scratch"/run/slurm/logs/merge-*; exit 1; }

say "one-machine run of the same files"
"$cli" run --target qemu-virt --no-report --out "$scratch/one" "${files[@]}" > "$scratch/one.log" 2>&1 \
  || { tail "$scratch/one.log"; exit 1; }

"$cli" compare "$scratch/one" "$scratch/run/merged" --identical
say "passed"
