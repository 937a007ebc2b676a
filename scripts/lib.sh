# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers of the host-side scripts. Source it; do not run it.
#
# say MESSAGE, die MESSAGE: a line on stderr, "[dma-bench] MESSAGE" (die:
# "[dma-bench] error: MESSAGE", then exit 1); a script that wants its own
# name in the brackets sets SAY_AS after sourcing this. Packages come from
# one place: scripts/setup.sh installs them (or says what to install).

DMA_BENCH_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DMA_BENCH_CACHE=${DMA_BENCH_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/dma-bench}
DMA_BENCH_BUILD=${DMA_BENCH_BUILD:-$DMA_BENCH_TOP/build}
SAY_AS=dma-bench

say() {
	echo "[$SAY_AS] $*" >&2
}

die() {
	echo "[$SAY_AS] error: $*" >&2
	exit 1
}

# The newest installed Debian 6.12 kernel release, e.g. 6.12.117+deb12-amd64.
stock_kernel_release() {
	local v
	v=$(ls -1 /boot/vmlinuz-6.12*-amd64 2>/dev/null | sed 's|/boot/vmlinuz-||' |
		sort -V | tail -n 1)
	[ -n "$v" ] || return 1
	echo "$v"
}

# bench_report COMMAND ARGS...: the report of a benchmark script
# (scripts/bench-*.sh), python3 -m report.bench, whose top says what each
# COMMAND reads and prints
bench_report() {
	PYTHONPATH="$DMA_BENCH_TOP/scripts${PYTHONPATH:+:$PYTHONPATH}" \
		PYTHONDONTWRITEBYTECODE=1 python3 -m report.bench "$@"
}

# bench_boot DIR KIND ROUND ON_JSON COMMAND...: one boot of a benchmark
# (scripts/bench-*.sh): COMMAND (scripts/vm/run.sh and the guest's side),
# every line it prints in DIR/KIND-ROUND.log, and the guest's lines filed
# in DIR/raw.txt: "KERNEL WORDS" as "ROUND KIND kernel WORDS", "HOOK WORD"
# as "ROUND KIND hook WORD", "JSON KEY DOCUMENT" as DIR/KIND-ROUND-KEY.json
# and "ROUND KIND KEY FILE", then ON_JSON KIND ROUND KEY FILE (which says
# what the cell gave). A boot that fails: the log's last 30 lines, and die.
bench_boot() {
	local dir=$1 kind=$2 r=$3 on_json=$4 line key json rc
	shift 4
	: > "$dir/$kind-$r.log"
	set +e
	"$@" | while IFS= read -r line; do
		echo "$line" >> "$dir/$kind-$r.log"
		case $line in
		KERNEL\ *)
			echo "$r $kind kernel ${line#KERNEL }" >> "$dir/raw.txt" ;;
		HOOK\ *)
			echo "$r $kind hook ${line#HOOK }" >> "$dir/raw.txt" ;;
		JSON\ *)
			line=${line#JSON }
			key=${line%% *}
			json=$dir/$kind-$r-$key.json
			echo "${line#* }" > "$json"
			echo "$r $kind $key $json" >> "$dir/raw.txt"
			"$on_json" "$kind" "$r" "$key" "$json" ;;
		esac
	done
	rc=${PIPESTATUS[0]}
	set -e
	if [ "$rc" != 0 ]; then
		tail -n 30 "$dir/$kind-$r.log" >&2
		die "the $kind boot of round $r failed (exit $rc; log: $dir/$kind-$r.log)"
	fi
}

# project_apt CMD ARGS...: apt-get or apt-cache (CMD) with the project's
# own sources (scripts/apt/sources.list), lists and package cache under
# $DMA_BENCH_CACHE/apt, and an empty dpkg status: for `download`, `policy`
# and `show` of packages of another Debian release, never to install them.
# The lists are fetched the first time, and again when older than a day.
# PROJECT_APT_LIST=NAME.list uses scripts/apt/NAME.list instead, with its
# lists under $DMA_BENCH_CACHE/apt-NAME (sources-qemu.list: Debian 12's
# deb-src, for the QEMU plugin header, scripts/qemu-plugin/).
project_apt() {
	local cmd=$1 list=${PROJECT_APT_LIST:-sources.list} dir=$DMA_BENCH_CACHE/apt opts
	shift
	[ "$list" = sources.list ] || dir=$DMA_BENCH_CACHE/apt-${list%.list}
	mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$dir/none"
	[ -f "$dir/status" ] || : >"$dir/status"
	opts=(-o "Dir::Etc::sourcelist=$DMA_BENCH_TOP/scripts/apt/$list"
	      -o Dir::Etc::sourceparts=- -o "Dir::Etc::preferencesparts=$dir/none"
	      -o "Dir::State::Lists=$dir/lists" -o "Dir::State::status=$dir/status"
	      -o "Dir::Cache=$dir" -o "Dir::Cache::archives=$dir/archives"
	      -o APT::Architectures::=amd64 -o APT::Architectures::=arm64
	      -o APT::Architectures::=armhf -o Debug::NoLocking=1)
	[ "$(id -u)" = 0 ] && opts+=(-o APT::Sandbox::User=root)
	if [ -z "$(find "$dir/lists" -maxdepth 1 \( -name '*_Packages*' -o -name '*_Sources*' \) \
		-mmin -1440 2>/dev/null)" ]; then
		apt-get "${opts[@]}" -qq update >"$dir/update.log" 2>&1 || {
			cat "$dir/update.log" >&2
			[ -n "$(find "$dir/lists" -maxdepth 1 \( -name '*_Packages*' -o -name '*_Sources*' \))" ] ||
				die "apt-get update of scripts/apt/$list failed (see above)"
			say "apt-get update failed; using the lists fetched before"
		}
	fi
	"$cmd" "${opts[@]}" "$@"
}

# The Linux series the project builds its patched kernels from, and the one
# its backport series is for.
KERNEL_SERIES=7.3
BACKPORT_SERIES=6.12

# linux_source_tarball [SERIES]: the path of Debian's linux-source-SERIES
# tarball (default $KERNEL_SERIES): the installed package's when it is
# installed (6.12 on Debian 12), else the newest the project's apt sources
# have (7.3, from trixie-backports), downloaded and unpacked once into
# $DMA_BENCH_CACHE/linux-source/SERIES-VERSION/.
linux_source_tarball() {
	local series=${1:-$KERNEL_SERIES} pkg ver dir tmp
	pkg=linux-source-$series
	if [ -f "/usr/src/$pkg.tar.xz" ] &&
	   dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
		echo "/usr/src/$pkg.tar.xz"
		return
	fi
	dir=$(ls -1d "$DMA_BENCH_CACHE/linux-source/$series"-*/.complete 2>/dev/null |
		sort -V | tail -n 1)
	if [ -z "$dir" ]; then
		ver=$(project_apt apt-cache policy "$pkg" 2>/dev/null |
			sed -n 's/^ *Candidate: *//p')
		[ -n "$ver" ] && [ "$ver" != "(none)" ] ||
			die "$pkg is in neither the machine's apt sources nor scripts/apt/sources.list"
		dir=$DMA_BENCH_CACHE/linux-source/$series-$ver
		say "downloading Debian's $pkg $ver"
		mkdir -p "$DMA_BENCH_CACHE/linux-source"
		tmp=$(mktemp -d "$DMA_BENCH_CACHE/linux-source/.fetch.XXXXXX")
		if ! (cd "$tmp" && project_apt apt-get download -q "$pkg=$ver") >"$tmp/log" 2>&1 ||
		   ! dpkg-deb --fsys-tarfile "$tmp/${pkg}_"*.deb |
			tar -xf - -C "$tmp" "./usr/src/$pkg.tar.xz"; then
			cat "$tmp/log" >&2
			rm -rf "$tmp"
			die "apt-get download $pkg=$ver failed"
		fi
		rm -rf "$dir"
		mkdir -p "$dir"
		mv "$tmp/usr/src/$pkg.tar.xz" "$dir/"
		rm -rf "$tmp"
		touch "$dir/.complete"
	else
		dir=${dir%/.complete}
	fi
	echo "$dir/$pkg.tar.xz"
}

# linux_source_version [SERIES]: the Debian version of that tarball.
linux_source_version() {
	local series=${1:-$KERNEL_SERIES} t
	t=$(linux_source_tarball "$series")
	case $t in
	/usr/src/*) dpkg-query -W -f='${Version}' "linux-source-$series" ;;
	*) t=${t%/*}; echo "${t##*/$series-}" ;;
	esac
}

# linux_source_dir [SERIES]: a directory holding the files of Debian's
# linux-source-SERIES tarball (default $KERNEL_SERIES) that the test bed
# needs (dmatest.c, upstream's benchmark tool and header, checkpatch),
# extracted once and cached. Upstream's tool and header are where that
# series has them: 7.3 tools/dma/ and include/uapi/linux/map_benchmark.h,
# 6.12 tools/testing/selftests/dma/ and include/linux/map_benchmark.h.
linux_source_dir() {
	local series=${1:-$KERNEL_SERIES} tarball ver dir top
	tarball=$(linux_source_tarball "$series")
	ver=$(linux_source_version "$series")
	dir=$DMA_BENCH_CACHE/linux-source/files-$series-$ver
	top=linux-source-$series
	if [ ! -f "$dir/.complete" ]; then
		say "extracting the files the test bed needs from $tarball"
		rm -rf "$dir"
		mkdir -p "$dir"
		tar -xJf "$tarball" -C "$dir" --strip-components=1 \
			--wildcards --no-wildcards-match-slash --ignore-failed-read \
			"$top/drivers/dma/dmatest.c" \
			"$top/include/linux/map_benchmark.h" \
			"$top/include/uapi/linux/map_benchmark.h" \
			"$top/tools/testing/selftests/dma/*" \
			"$top/tools/dma/*" \
			"$top/scripts/checkpatch.pl" \
			"$top/scripts/spelling.txt" \
			"$top/scripts/const_structs.checkpatch" \
			"$top/Documentation/dev-tools/checkpatch.rst" 2>"$dir/.tar.log" || true
		[ -f "$dir/drivers/dma/dmatest.c" ] && [ -f "$dir/scripts/checkpatch.pl" ] || {
			cat "$dir/.tar.log" >&2
			die "extracting from $tarball failed"
		}
		touch "$dir/.complete"
	fi
	echo "$dir"
}

# nobatch_kernel_dir BASE: the directory scripts/kernel/nobatch-kernel.sh
# makes of the arm64 kernel cache dir BASE (the before kernel of the
# cache-sync comparison), found without building anything: its path on
# stdout, status 0 when it is complete, 1 when it is not (built by the
# benchmark only). The hash is nobatch-kernel.sh's (that script and its
# series' diffs): tools/testing/host/cachesync.t holds the two to it.
nobatch_kernel_dir() {
	local base series_dir line hash out
	local patches=()
	base=$(cd "$1" 2>/dev/null && pwd -P) || return 1
	series_dir=$DMA_BENCH_TOP/kernel/patches/v$KERNEL_SERIES-nobatch
	while IFS= read -r line; do
		line=${line%%#*}
		line=${line//[[:space:]]/}
		[ -z "$line" ] || patches+=("$series_dir/$line")
	done < "$series_dir/series"
	hash=$({ sha256sum < "$DMA_BENCH_TOP/scripts/kernel/nobatch-kernel.sh"
		for line in "${patches[@]}"; do
			sed -n '/^diff --git /,$p' "$line" | sha256sum
		done; } | sha256sum | cut -c1-8)
	out=$base-nobatch-$hash
	echo "$out"
	[ -f "$out/stamp" ] && [ -f "$out/Image" ] && [ -s "$out/release" ] &&
		[ -f "$out/build/Module.symvers" ] && [ -d "$out/modules/lib/modules" ]
}

# have_commit COMMIT: COMMIT is in the tree's history; in a shallow clone
# (CI's, say) it is fetched from origin first, as deep as it needs
have_commit() {
	git -C "$DMA_BENCH_TOP" rev-parse -q --verify "$1^{commit}" > /dev/null && return 0
	[ "$(git -C "$DMA_BENCH_TOP" rev-parse --is-shallow-repository 2>/dev/null)" = true ] ||
		return 1
	say "fetching commit $1 into the shallow clone"
	git -C "$DMA_BENCH_TOP" fetch -q --depth=1 origin "$1" >&2 &&
		git -C "$DMA_BENCH_TOP" rev-parse -q --verify "$1^{commit}" > /dev/null
}
