#!/bin/sh
# t-probe-nocache.sh: integration: `roofline-probe --quick` on a node whose operating system
# names no cache and whose CPUID is not read: hwloc is given the Zen 5 guest's topology as its
# Linux backend saw it (no cache object: tests/data/zen5-vm-no-cache), the identity a sysroot
# with this machine's cpuinfo and no CPUID dump. The levels then come from the measured curve
# alone, each labelled "curve", and the profile passes every check t-probe.sh makes.
dir=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-probe-nocache.XXXXXX") || { echo "Bail out! mktemp"; exit 1; }
trap 'rm -rf "$dir"' EXIT
. "$top_srcdir/tests/tap.sh"
mkdir -p "$dir/root/proc" && cp /proc/cpuinfo "$dir/root/proc/cpuinfo" ||
	{ echo "Bail out! cannot copy /proc/cpuinfo"; exit 1; }
HWLOC_XMLFILE="$top_srcdir/tests/data/zen5-vm-no-cache/hwloc-sysfs-only.xml"
HWLOC_THISSYSTEM=1
ROOFTRAJ_SYSROOT="$dir/root"
export HWLOC_XMLFILE HWLOC_THISSYSTEM ROOFTRAJ_SYSROOT
beside "$dir" "$dir/stdout" "$dir/stderr" \
	"$top_builddir/src/roofline-probe" --quick --profile-out "$dir/node.cfg"
unset HWLOC_XMLFILE HWLOC_THISSYSTEM ROOFTRAJ_SYSROOT
rc=$(cat "$dir/rc")
sed 's/^/# stderr: /' "$dir/stderr"
RT_PROBE_SOURCE=curve "$top_builddir/tests/check-probe" "$dir/node.cfg" "$rc" "$dir/stdout" \
	"$dir/node-roofline"
