#!/bin/sh
# cluster-rehearsal.sh: a cluster of simulated nodes on this machine, under a real Open MPI over
# real TCP (loopback), to rehearse rooftraj's multi-node paths. Each node is a host name of its
# own (a UTS namespace: gethostname() and MPI_Comm_split_type(SHARED) see one node each) with
# its own cores (a cgroup v1 cpuset: disjoint CPUs), and one may be throttled (the cpu
# controller's CFS quota). Open MPI's rsh launcher starts each node's daemon through an agent
# (this script, called as its own agent) instead of ssh: no sshd, nothing written to /etc.
#
# Usage (as root):
#   tests/cluster-rehearsal.sh [-n NODES] [-c CORES] [-r RANKS] [-t NODE:PCT[:PERIOD_US]]
#                              [-s] [-k] -- COMMAND [ARG]...
#     -n NODES   simulated nodes, named nodea, nodeb, ... (default 2)
#     -c CORES   cores per node (default 1; NODES x CORES must not exceed this machine's CPUs)
#     -r RANKS   MPI ranks per node (default 1)
#     -t SPEC    throttle a node: nodeb:40 gives nodeb 40% of its cores' time, in CFS periods
#                of 100000 us (the kernel's default) unless PERIOD_US is given
#     -s         every node on the same cores, the first CORES CPUs: for nodes measured one at
#                a time, the same hardware (a VM's vCPUs differ from each other by up to half
#                on a cache level: what differs between such nodes is then the machine's own
#                noise over time)
#     -k         report what was set up and keep nothing else (a dry run: no mpirun)
#   COMMAND runs under mpirun, one rank per slot, --host nodea:RANKS,nodeb:RANKS,...;
#   $REHEARSAL_MPIRUN_ARGS adds options. The exit status is mpirun's.
#
# Every cgroup it makes is removed on every way out (success, failure, a signal); the processes
# left in them are killed first.
set -u

# ---- the agent: mpirun calls "AGENT [ssh options] HOST COMMAND" for each node ----
if [ "${REHEARSAL_AGENT:-}" = 1 ]; then
	while [ $# -gt 0 ]; do
		case $1 in
		-*) shift ;;
		*) break ;;
		esac
	done
	host=$1
	shift
	cg="$REHEARSAL_CG/$host"
	# join the node's cgroups (cpuset, cpu), then its own host name
	echo $$ >"/sys/fs/cgroup/cpuset/$cg/tasks" || exit 1
	echo $$ >"/sys/fs/cgroup/cpu/$cg/tasks" || exit 1
	exec unshare --uts sh -c "hostname '$host' && exec sh -c \"\$0\"" "$*"
fi

nodes=2 cores=1 ranks=1 throttle="" dry=false same=false
while getopts n:c:r:t:sk opt; do
	case $opt in
	n) nodes=$OPTARG ;;
	c) cores=$OPTARG ;;
	r) ranks=$OPTARG ;;
	t) throttle=$OPTARG ;;
	s) same=true ;;
	k) dry=true ;;
	*) echo "usage: $0 [-n NODES] [-c CORES] [-r RANKS] [-t NODE:PCT[:PERIOD_US]] [-s] [-k] -- COMMAND..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
if ! $dry && [ $# -eq 0 ]; then
	echo "$0: no command to run" >&2
	exit 2
fi
why=""
[ "$(id -u)" = 0 ] || why="not root"
[ -z "$why" ] && { command -v mpirun >/dev/null 2>&1 || why="no mpirun (openmpi-bin)"; }
[ -z "$why" ] && { command -v unshare >/dev/null 2>&1 || why="no unshare"; }
[ -z "$why" ] && { [ -w /sys/fs/cgroup/cpuset/cgroup.procs ] && [ -w /sys/fs/cgroup/cpu/cgroup.procs ] || why="no writable cgroup v1 cpuset and cpu hierarchies"; }
if [ -n "$why" ]; then
	echo "$0: cannot rehearse a cluster here: $why" >&2
	exit 77
fi
ncpu=$(nproc --all)
if { ! $same && [ $((nodes * cores)) -gt "$ncpu" ]; } || [ "$cores" -gt "$ncpu" ] ||
	[ "$nodes" -lt 1 ] || [ "$cores" -lt 1 ]; then
	echo "$0: $nodes nodes x $cores cores do not fit in this machine's $ncpu CPUs" >&2
	exit 2
fi

base="rooftraj-rehearsal-$$"
names=""
. "$(dirname "$0")/rehearsal-cgroups.sh"
cleanup() {
	trap - EXIT INT TERM HUP
	rehearsal_cgroups_remove "$base"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

mems=$(cat /sys/fs/cgroup/cpuset/cpuset.mems)
mkdir "/sys/fs/cgroup/cpuset/$base" "/sys/fs/cgroup/cpu/$base" || exit 1
echo "rehearsal: cgroups $base (cpuset, cpu)" >&2
cat /sys/fs/cgroup/cpuset/cpuset.cpus >"/sys/fs/cgroup/cpuset/$base/cpuset.cpus"
echo "$mems" >"/sys/fs/cgroup/cpuset/$base/cpuset.mems"
i=0
for letter in a b c d e f g h i j k l m n o p; do
	[ $i -lt "$nodes" ] || break
	host="node$letter"
	first=$((i * cores)) last=$((i * cores + cores - 1))
	$same && first=0 last=$((cores - 1))
	mkdir "/sys/fs/cgroup/cpuset/$base/$host" "/sys/fs/cgroup/cpu/$base/$host" || exit 1
	echo "$first-$last" >"/sys/fs/cgroup/cpuset/$base/$host/cpuset.cpus" || exit 1
	echo "$mems" >"/sys/fs/cgroup/cpuset/$base/$host/cpuset.mems" || exit 1
	echo "rehearsal: $host: CPUs $first-$last" >&2
	names="$names${names:+,}$host:$ranks"
	i=$((i + 1))
done
if [ -n "$throttle" ]; then
	t_host=${throttle%%:*} rest=${throttle#*:}
	t_pct=${rest%%:*} t_period=100000
	[ "$rest" != "$t_pct" ] && t_period=${rest#*:}
	d="/sys/fs/cgroup/cpu/$base/$t_host"
	if [ ! -d "$d" ]; then
		echo "$0: -t $throttle: no node $t_host" >&2
		exit 2
	fi
	echo "$t_period" >"$d/cpu.cfs_period_us" &&
		echo $((t_period * cores * t_pct / 100)) >"$d/cpu.cfs_quota_us" || exit 1
	echo "rehearsal: $t_host: throttled to $t_pct% of its $cores core(s) (period $t_period us)" >&2
fi
if $dry; then
	echo "rehearsal: --host $names (dry run: nothing started)" >&2
	exit 0
fi
REHEARSAL_AGENT=1 REHEARSAL_CG="$base"
OMPI_MCA_plm_rsh_agent="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
OMPI_MCA_oob_tcp_if_include=lo OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_btl=self,tcp
OMPI_MCA_plm_rsh_no_tree_spawn=1
export REHEARSAL_AGENT REHEARSAL_CG OMPI_MCA_plm_rsh_agent OMPI_MCA_oob_tcp_if_include \
	OMPI_MCA_btl_tcp_if_include OMPI_MCA_btl OMPI_MCA_plm_rsh_no_tree_spawn
# the agent must not take over mpirun itself: only what it starts
mpirun --allow-run-as-root --host "$names" -n $((nodes * ranks)) ${REHEARSAL_MPIRUN_ARGS:-} \
	env -u REHEARSAL_AGENT "$@"
rc=$?
exit $rc
