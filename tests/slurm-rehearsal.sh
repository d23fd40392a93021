#!/bin/sh
# slurm-rehearsal.sh: a Slurm cluster of simulated nodes on this machine, to rehearse rooftraj
# the way clusters are run: munge, one slurmctld and one slurmd per node (Debian's slurm-wlm),
# all private to this run (their own configuration, ports, state, logs and munge socket in a
# temporary directory; nothing read from or written to /etc). Each node is a host name of its
# own (a UTS namespace) with its own cores (a cgroup v1 cpuset; one may be throttled with the
# cpu controller's CFS quota), its slurmd on its own port, and its own directory for the PMIx
# plugin's per-step files (its own mpi.conf: PMIxCliTmpDirBase), which would collide between
# two nodes on one machine.
#
# Usage (as root):
#   tests/slurm-rehearsal.sh [-n NODES] [-c CORES] [-t NODE:PCT] -- COMMAND [ARG]...
#     -n NODES   nodes nodea, nodeb, ... (default 2), in partition "rehearsal"
#     -c CORES   cores per node (default 1; NODES x CORES must fit this machine's CPUs)
#     -t SPEC    throttle a node: nodeb:40 gives nodeb 40% of its cores' time
#   COMMAND runs here with SLURM_CONF set to the rehearsal's cluster (srun, salloc, sbatch,
#   squeue reach it), and Open MPI told to use TCP over loopback. The exit status is COMMAND's;
#   77 when the cluster cannot be made here (not root, no Slurm or munge), said why.
#
# Everything it starts is stopped, and its cgroups and directory removed, on every way out
# (success, failure, Ctrl-C, SIGTERM).
set -u

nodes=2 cores=1 throttle=""
while getopts n:c:t: opt; do
	case $opt in
	n) nodes=$OPTARG ;;
	c) cores=$OPTARG ;;
	t) throttle=$OPTARG ;;
	*) echo "usage: $0 [-n NODES] [-c CORES] [-t NODE:PCT] -- COMMAND..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
if [ $# -eq 0 ]; then
	echo "$0: no command to run" >&2
	exit 2
fi
why=""
[ "$(id -u)" = 0 ] || why="not root"
for p in slurmctld slurmd srun sinfo munged unshare; do
	[ -z "$why" ] && { command -v $p >/dev/null 2>&1 || why="no $p (slurm-wlm, munge)"; }
done
[ -z "$why" ] && { [ -w /sys/fs/cgroup/cpuset/cgroup.procs ] && [ -w /sys/fs/cgroup/cpu/cgroup.procs ] || why="no writable cgroup v1 cpuset and cpu hierarchies"; }
if [ -n "$why" ]; then
	echo "$0: cannot rehearse a Slurm cluster here: $why" >&2
	exit 77
fi
ncpu=$(nproc --all)
if [ $((nodes * cores)) -gt "$ncpu" ] || [ "$nodes" -lt 1 ] || [ "$nodes" -gt 16 ] || [ "$cores" -lt 1 ]; then
	echo "$0: $nodes nodes x $cores cores do not fit in this machine's $ncpu CPUs" >&2
	exit 2
fi

base="rooftraj-slurm-$$"
d=""
. "$(dirname "$0")/rehearsal-cgroups.sh"
# a daemon's pid from its pid file, while it runs
alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
cleanup() {
	trap - EXIT INT TERM HUP
	if [ -n "$d" ]; then
		# the daemons asked to stop (their pid files), waited for (5 s at most), then killed
		for f in "$d"/slurmd-*.pid "$d/slurmctld.pid" "$d/munge/pid"; do
			alive "$f" && kill "$(cat "$f")" 2>/dev/null
		done
		for k in $(seq 50); do
			left=false
			for f in "$d"/slurmd-*.pid "$d/slurmctld.pid" "$d/munge/pid"; do
				alive "$f" && left=true
			done
			$left || break
			sleep 0.1
		done
		for f in "$d"/slurmd-*.pid "$d/slurmctld.pid" "$d/munge/pid"; do
			alive "$f" && kill -9 "$(cat "$f")" 2>/dev/null
		done
	fi
	rehearsal_cgroups_remove "$base"
	[ -n "$d" ] && rm -rf "$d"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

d=$(mktemp -d "${TMPDIR:-/tmp}/rooftraj-slurm.XXXXXX") || exit 1
chmod 700 "$d"
echo "slurm rehearsal: directory $d, cgroups $base (cpuset, cpu)" >&2
mkdir -m 700 "$d/munge" "$d/state" "$d/log" "$d/spool" || exit 1

# munge: a key of its own, a socket of its own
dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 2>/dev/null && chmod 600 "$d/munge/munge.key" || exit 1
munged --force --socket="$d/munge/sock" --key-file="$d/munge/munge.key" --pid-file="$d/munge/pid" \
	--log-file="$d/munge/log" --seed-file="$d/munge/seed" || { echo "slurm rehearsal: munged did not start" >&2; exit 1; }

# ports: the controller's and one per node, free now
port=$((20000 + $$ % 20000))
while ss -ltnH 2>/dev/null | awk -v lo="$port" -v hi="$((port + nodes))" '{ n = split($4, a, ":"); p = a[n] + 0; if (p >= lo && p <= hi) f = 1 } END { exit !f }'; do
	port=$((port + 100))
	[ $port -lt 65000 ] || { echo "slurm rehearsal: no free ports" >&2; exit 1; }
done

names="" i=0
for letter in a b c d e f g h i j k l m n o p; do
	[ $i -lt "$nodes" ] || break
	names="$names${names:+,}node$letter"
	i=$((i + 1))
done
conf="$d/slurm.conf"
{
	echo "# a rehearsal cluster of rooftraj (tests/slurm-rehearsal.sh): $nodes nodes on one machine"
	echo "ClusterName=rehearsal"
	echo "SlurmctldHost=localhost(127.0.0.1)"
	echo "SlurmctldPort=$port"
	echo "SlurmUser=root"
	echo "SlurmdUser=root"
	echo "AuthType=auth/munge"
	echo "CredType=cred/munge"
	echo "AuthInfo=socket=$d/munge/sock"
	echo "StateSaveLocation=$d/state"
	echo "SlurmdSpoolDir=$d/spool/%n"
	echo "SlurmctldPidFile=$d/slurmctld.pid"
	echo "SlurmdPidFile=$d/slurmd-%n.pid"
	echo "SlurmctldLogFile=$d/log/slurmctld.log"
	echo "SlurmdLogFile=$d/log/slurmd-%n.log"
	echo "ProctrackType=proctrack/linuxproc"
	echo "TaskPlugin=task/none"
	echo "MpiDefault=none"
	echo "SchedulerType=sched/builtin"
	echo "SelectType=select/cons_tres"
	echo "SelectTypeParameters=CR_CPU"
	echo "ReturnToService=2"
	echo "JobCompType=jobcomp/none"
	echo "AccountingStorageType=accounting_storage/none"
	echo "PlugStackConfig=/dev/null"
	i=0
	for n in $(echo "$names" | tr , ' '); do
		i=$((i + 1))
		echo "NodeName=$n NodeAddr=127.0.0.1 Port=$((port + i)) CPUs=$cores State=UNKNOWN"
	done
	echo "PartitionName=rehearsal Nodes=$names Default=YES MaxTime=INFINITE State=UP"
} >"$conf"
SLURM_CONF=$conf
export SLURM_CONF
slurmctld -f "$conf" || { echo "slurm rehearsal: slurmctld did not start (see above)" >&2; exit 1; }

mems=$(cat /sys/fs/cgroup/cpuset/cpuset.mems)
mkdir "/sys/fs/cgroup/cpuset/$base" "/sys/fs/cgroup/cpu/$base" || exit 1
cat /sys/fs/cgroup/cpuset/cpuset.cpus >"/sys/fs/cgroup/cpuset/$base/cpuset.cpus"
echo "$mems" >"/sys/fs/cgroup/cpuset/$base/cpuset.mems"
i=0
for n in $(echo "$names" | tr , ' '); do
	first=$((i * cores)) last=$((i * cores + cores - 1))
	cg="$base/$n"
	mkdir "/sys/fs/cgroup/cpuset/$cg" "/sys/fs/cgroup/cpu/$cg" "$d/conf-$n" "$d/pmix-$n" || exit 1
	echo "$first-$last" >"/sys/fs/cgroup/cpuset/$cg/cpuset.cpus" || exit 1
	echo "$mems" >"/sys/fs/cgroup/cpuset/$cg/cpuset.mems" || exit 1
	if [ "${throttle%%:*}" = "$n" ]; then
		echo 100000 >"/sys/fs/cgroup/cpu/$cg/cpu.cfs_period_us" &&
			echo $((100000 * cores * ${throttle#*:} / 100)) >"/sys/fs/cgroup/cpu/$cg/cpu.cfs_quota_us" || exit 1
		echo "slurm rehearsal: $n throttled to ${throttle#*:}% of its $cores core(s)" >&2
	fi
	# the node's own configuration directory: the same slurm.conf, its own mpi.conf
	cp "$conf" "$d/conf-$n/slurm.conf"
	echo "PMIxCliTmpDirBase=$d/pmix-$n" >"$d/conf-$n/mpi.conf"
	echo "slurm rehearsal: $n: CPUs $first-$last, slurmd port $((port + i + 1))" >&2
	# its cgroups, then its host name, then slurmd (which daemonizes inside them)
	sh -c "echo \$\$ >/sys/fs/cgroup/cpuset/$cg/tasks && echo \$\$ >/sys/fs/cgroup/cpu/$cg/tasks && exec unshare --uts sh -c 'hostname $n && exec slurmd -N $n -f $d/conf-$n/slurm.conf'" ||
		{ echo "slurm rehearsal: slurmd of $n did not start:" >&2; tail -n 5 "$d/log/slurmd-$n.log" >&2; exit 1; }
	i=$((i + 1))
done
if [ -n "$throttle" ] && ! echo ",$names," | grep -q ",${throttle%%:*},"; then
	echo "$0: -t $throttle: no node ${throttle%%:*}" >&2
	exit 2
fi
# every node idle before the command: 60 s at the most
for k in $(seq 300); do
	idle=$(sinfo -h -N -o '%T' 2>/dev/null | grep -c '^idle$')
	[ "$idle" = "$nodes" ] && break
	sleep 0.2
done
if [ "$idle" != "$nodes" ]; then
	echo "slurm rehearsal: $idle of $nodes nodes came up; slurmctld says:" >&2
	sinfo -N >&2
	tail -n 5 "$d"/log/*.log >&2
	exit 1
fi
echo "slurm rehearsal: nodes $names up (partition rehearsal, controller port $port)" >&2
OMPI_MCA_oob_tcp_if_include=lo OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_btl=self,tcp
export OMPI_MCA_oob_tcp_if_include OMPI_MCA_btl_tcp_if_include OMPI_MCA_btl
"$@"
rc=$?
exit $rc
