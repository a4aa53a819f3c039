# Common settings for the harness scripts. Sourced, not run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
TREE=${TREE:-$BUILD/linux}            # git tree: base commit + the series
BASE_TREE=$BUILD/linux-base  # worktree of TREE at tag "base"
OUT=${OUT:-$BUILD/out}        # O= build directories, one per flavour
PATCHES=${PATCHES:-$TOP/patches}

# The version the series is tested against. A newer 6.12 package is
# accepted with a warning as long as the series still applies.
PIN_PKG=linux-source-6.12
PIN_VERSION=6.12.118-1~deb12u1
TARBALL=/usr/src/linux-source-6.12.tar.xz

# The project's own identity, for the base commit and the series.
PROJECT_NAME="fgraph-events"
PROJECT_EMAIL="fgraph-events@users.noreply.invalid"
export GIT_AUTHOR_NAME=${GIT_AUTHOR_NAME:-$PROJECT_NAME}
export GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL:-$PROJECT_EMAIL}
export GIT_COMMITTER_NAME=${GIT_COMMITTER_NAME:-$PROJECT_NAME}
export GIT_COMMITTER_EMAIL=${GIT_COMMITTER_EMAIL:-$PROJECT_EMAIL}

JOBS=${JOBS:-$(nproc)}

die() { echo "ERROR: $*" >&2; exit 1; }
warn() { echo "WARNING: $*" >&2; }
info() { echo ">>> $*" >&2; }

# Seconds since the epoch, for stage timing.
now() { date +%s; }
stage_time() { # name start
	local t=$(( $(now) - $2 ))
	printf '>>> stage %s took %dm%02ds\n' "$1" $((t / 60)) $((t % 60)) >&2
	mkdir -p "$BUILD"
	printf '%s %d\n' "$1" "$t" >>"$BUILD/timings"
}

# Install Debian packages that are missing. Names are package names.
need_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || die "missing packages ${missing[*]} (run as root, or: apt-get install ${missing[*]})"
	info "installing ${missing[*]}"
	mkdir -p "$BUILD"
	local i
	for i in 1 2; do
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
			"${missing[@]}" >"$BUILD/apt.log" 2>&1 && return 0
		[ $i -eq 1 ] && apt-get update -q >>"$BUILD/apt.log" 2>&1
	done
	die "could not install ${missing[*]}: see $BUILD/apt.log"
}

BUILD_PKGS=(build-essential flex bison bc libelf-dev libssl-dev ccache cpio kmod git xz-utils python3 perl rsync)
VM_PKGS=(qemu-system-x86 iproute2 iputils-ping procps kmod cpio)
CLIENT_PKGS=(trace-cmd linux-perf)
PERF_PKGS=(build-essential flex bison libelf-dev libtraceevent-dev pkg-config)
BENCH_PKGS=(gnuplot-nox libtracefs-dev pkg-config bpftrace bpfcc-tools libbpf-tools)
