#!/usr/bin/env bash
# The kernel tree: base package, git tree with the series, export.
#
#   tree.sh base     install the pinned linux-source package
#   tree.sh create   make build/linux: base commit (tag "base") + git am of patches/series
#   tree.sh export   write the tree's commits since "base" back to patches/
#   tree.sh basetree make build/linux-base, a worktree at "base"
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cmd_base() {
	local have
	have=$(dpkg-query -W -f='${Version}' "$PIN_PKG" 2>/dev/null || true)
	if [ "$have" != "$PIN_VERSION" ]; then
		[ "$(id -u)" -eq 0 ] || die "$PIN_PKG $PIN_VERSION is not installed (run as root)"
		mkdir -p "$BUILD"
		info "installing $PIN_PKG=$PIN_VERSION"
		if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --allow-downgrades \
			"$PIN_PKG=$PIN_VERSION" >"$BUILD/apt.log" 2>&1; then
			apt-get update -q >>"$BUILD/apt.log" 2>&1 || true
			if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --allow-downgrades \
				"$PIN_PKG=$PIN_VERSION" >>"$BUILD/apt.log" 2>&1; then
				warn "$PIN_PKG $PIN_VERSION is not available; using the newest $PIN_PKG." \
					"The series was tested on $PIN_VERSION."
				DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$PIN_PKG" \
					>>"$BUILD/apt.log" 2>&1 || die "could not install $PIN_PKG: see $BUILD/apt.log"
			fi
		fi
		have=$(dpkg-query -W -f='${Version}' "$PIN_PKG")
	fi
	[ -f "$TARBALL" ] || die "$TARBALL is missing although $PIN_PKG is installed"
	echo "$have"
}

# Identify the series: the patch files in series order.
series_files() {
	[ -f "$PATCHES/series" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCHES/series"
}

series_hash() {
	{ echo "$(cmd_base_version)"; series_files | while read -r p; do cat "$PATCHES/$p"; done; } |
		sha256sum | cut -c1-16
}

cmd_base_version() { dpkg-query -W -f='${Version}' "$PIN_PKG" 2>/dev/null || echo none; }

# Commits in the tree since base that are not exported as-is.
unexported() {
	local ids c id
	ids=$(series_files | while read -r p; do git patch-id --stable <"$PATCHES/$p"; done | cut -d' ' -f1)
	for c in $(git -C "$TREE" rev-list base..HEAD); do
		id=$(git -C "$TREE" show "$c" | git patch-id --stable | cut -d' ' -f1)
		[ -z "$id" ] || grep -qx "$id" <<<"$ids" || echo "$c"
	done
}

make_base_commit() {
	local version=$1 tmp=$BUILD/linux.new
	rm -rf "$tmp"
	mkdir -p "$tmp"
	info "unpacking $TARBALL"
	tar -xf "$TARBALL" -C "$tmp" --strip-components=1
	# Debian's .gitignore ends with a block that ignores the whole top level.
	python3 - "$tmp/.gitignore" <<'PY'
import sys
p = sys.argv[1]
lines = open(p).read().split('\n')
for i, l in enumerate(lines):
    if l.startswith('# Debian packaging'):
        j = i - 1 if i > 0 and lines[i - 1] == '#' else i
        lines = lines[:j]
        break
open(p, 'w').write('\n'.join(lines).rstrip('\n') + '\n')
PY
	(
		cd "$tmp"
		git init -q -b master
		git config core.autocrlf false
		git config user.name "$PROJECT_NAME"
		git config user.email "$PROJECT_EMAIL"
		git add -A
		GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
			git commit -q -m "Linux $(sed -n 's/^SUBLEVEL = //p' Makefile | sed 's/^/6.12./') (Debian $PIN_PKG $version)"
		git tag base
	)
	[ "$(git -C "$tmp" ls-files | wc -l)" -gt 50000 ] || die "base commit is nearly empty: .gitignore hides the tree"
	rm -rf "$TREE"
	mv "$tmp" "$TREE"
}

apply_series() {
	local p n=0
	git -C "$TREE" reset -q --hard base
	for p in $(series_files); do
		[ -f "$PATCHES/$p" ] || die "patches/series names $p, which does not exist"
		if ! git -C "$TREE" am -q --keep-cr --committer-date-is-author-date "$PATCHES/$p" >"$BUILD/am.log" 2>&1; then
			git -C "$TREE" am --abort >/dev/null 2>&1 || true
			cat "$BUILD/am.log" >&2
			die "patch $p does not apply to the base ($(cmd_base_version))"
		fi
		n=$((n + 1))
	done
	info "applied $n patch(es) on base"
}

cmd_create() {
	local version stamp
	version=$(cmd_base)
	stamp=$(series_hash)
	mkdir -p "$BUILD"
	if [ -d "$TREE/.git" ] && git -C "$TREE" rev-parse -q --verify base >/dev/null; then
		if [ "$(cat "$TREE/.git/series-stamp" 2>/dev/null)" = "$stamp" ] && [ -z "${FORCE:-}" ]; then
			return 0
		fi
		if [ -z "${FORCE:-}" ]; then
			[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
				die "$TREE has uncommitted changes; commit them, then 'make export' (or FORCE=1)"
			[ -z "$(unexported)" ] ||
				die "$TREE has commits that are not in patches/; run 'make export' first (or FORCE=1)"
		fi
		# The tree holds exactly what patches/ holds (or FORCE): re-apply.
		if ! git -C "$TREE" log -1 --format=%s base | grep -qF "$version"; then
			make_base_commit "$version"
		fi
	else
		make_base_commit "$version"
	fi
	apply_series
	echo "$stamp" >"$TREE/.git/series-stamp"
}

cmd_export() {
	[ -d "$TREE/.git" ] || die "no tree at $TREE: run 'make tree'"
	[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
		die "$TREE has uncommitted changes; commit them first"
	if git -C "$TREE" log --format=%s base..HEAD | grep -qE '^(fixup|squash|amend)! '; then
		die "the tree has fixup!/squash! commits: git rebase -i --autosquash base first"
	fi
	local tmp=$BUILD/export.new
	rm -rf "$tmp"
	mkdir -p "$tmp"
	git -C "$TREE" format-patch -q --numbered --zero-commit --no-signature --no-stat --stat=80 \
		--full-index --abbrev=12 -o "$tmp" base..HEAD
	find "$PATCHES" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' -delete 2>/dev/null || true
	mkdir -p "$PATCHES"
	{
		echo "# Applied in order on the base by scripts/tree.sh (git am)."
		for f in "$tmp"/*.patch; do
			[ -e "$f" ] || continue
			mv "$f" "$PATCHES/"
			basename "$f"
		done
	} >"$PATCHES/series"
	rm -rf "$tmp"
	write_cover
	echo "$(series_hash)" >"$TREE/.git/series-stamp"
	info "exported $(series_files | wc -l) patch(es) to patches/"
}

# patches/0000-cover-letter.patch: the prose of patches/cover.txt, then
# the shortlog and the diffstat of the series, as git format-patch lays
# out a cover letter. Nothing in it changes unless the series does.
write_cover() {
	local n cover=$PATCHES/0000-cover-letter.patch
	[ -f "$PATCHES/cover.txt" ] || return 0
	n=$(git -C "$TREE" rev-list --count base..HEAD)
	{
		echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
		echo "From: $PROJECT_NAME <$PROJECT_EMAIL>"
		sed "1s|\[PATCH 0/N\]|[PATCH 0/$n]|" "$PATCHES/cover.txt"
		echo
		git -C "$TREE" shortlog --no-merges base..HEAD
		git -C "$TREE" diff --stat=80 --summary base HEAD
		echo
		echo "base-commit: $(git -C "$TREE" log -1 --format=%s base)"
	} >"$cover"
}

cmd_basetree() {
	[ -d "$TREE/.git" ] || cmd_create
	local want
	want=$(git -C "$TREE" rev-parse base)
	if [ -d "$BASE_TREE" ] && [ "$(git -C "$BASE_TREE" rev-parse HEAD 2>/dev/null)" = "$want" ]; then
		return 0
	fi
	rm -rf "$BASE_TREE"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$BASE_TREE" base
}

case "${1:-}" in
base) cmd_base >/dev/null ;;
create) cmd_create ;;
export) cmd_export ;;
basetree) cmd_basetree ;;
apply) apply_series ;;
unexported) unexported ;;
*) die "usage: $0 base|create|export|basetree|apply|unexported" ;;
esac
