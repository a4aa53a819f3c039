#!/usr/bin/env bash
# Install the Debian packages a stage needs: deps.sh build|vm|clients|bench ...
set -euo pipefail
. "$(dirname "$0")/lib.sh"
pkgs=()
for s in "$@"; do
	case $s in
	build) pkgs+=("${BUILD_PKGS[@]}") ;;
	vm) pkgs+=("${VM_PKGS[@]}") ;;
	clients) pkgs+=("${CLIENT_PKGS[@]}") ;;
	perf) pkgs+=("${PERF_PKGS[@]}") ;;
	bench) pkgs+=("${BENCH_PKGS[@]}") ;;
	*) die "unknown package set $s" ;;
	esac
done
need_pkgs "${pkgs[@]}"
