# rehearsal-cgroups.sh: sourced by the rehearsals (cluster-rehearsal.sh, slurm-rehearsal.sh).
# rehearsal_cgroups_remove BASE: each node's cgroup under BASE (cgroup v1 cpuset and cpu)
# removed, whatever is left in it killed first (a daemon that outlived its launcher), again
# until the cgroup goes: a process may fork as it dies, a slow one (under a sanitizer) takes a
# while, and the kernel refuses (EBUSY) for a moment after the last task left; 60 s at most.
rehearsal_cgroups_remove() {
	for _ctl in cpuset cpu; do
		for _d in "/sys/fs/cgroup/$_ctl/$1"/*/; do
			[ -d "$_d" ] || continue
			for _k in $(seq 600); do
				rmdir "$_d" 2>/dev/null && break
				for _p in $(cat "$_d/tasks" 2>/dev/null); do kill -9 "$_p" 2>/dev/null; done
				sleep 0.1
			done
			[ -d "$_d" ] && echo "rehearsal: $_d: could not be removed" >&2
		done
		rmdir "/sys/fs/cgroup/$_ctl/$1" 2>/dev/null
	done
}
