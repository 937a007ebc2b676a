#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Derive, from Debian's zynqmp-zcu102-rev1.0.dtb, a device tree that QEMU's
# xlnx-zcu102 boots with working DMA controllers and serial ports.
#
# usage: scripts/vm/zcu102-dtb.sh STOCK.dtb OUT.dtb
#
# On the board the platform-management firmware (PMU) provides the clocks
# and power domains of the GDMA (ZDMA) channels and the UARTs. QEMU does
# not emulate that firmware: its calls fail and those devices wait for a
# provider that never comes. Here they get a fixed clock instead, and lose
# their power domains, pin control and IOMMU (the SMMU is not emulated
# either). The firmware node is disabled so that nothing else waits on it.
# One node is added: /dma-bench-map, a device without a driver and without
# dma-coherent, for the benchmark's map modes (bound by driver_override).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
SAY_AS=zcu102-dtb

[ $# -eq 2 ] || die "usage: $0 STOCK.dtb OUT.dtb"
in=$1
out=$2
[ -f "$in" ] || die "$in does not exist"
command -v fdtput >/dev/null || die "fdtput is missing: scripts/setup.sh installs device-tree-compiler"

tmp=$(mktemp "${TMPDIR:-/tmp}/zcu102-dtb.XXXXXX")
trap 'rm -f "$tmp"' EXIT
# room for the additions: fdtput cannot grow a blob in place
dtc -q -I dtb -O dtb -p 4096 -o "$tmp" "$in"

# a phandle no node uses
max=0
for p in $(dtc -q -I dtb -O dts "$in" | sed -n 's/.*phandle = <\(0x[0-9a-f]*\)>;.*/\1/p'); do
	[ $((p)) -gt "$max" ] && max=$((p))
done
clk=$((max + 1))

fdtput -c "$tmp" /dma-bench-clk
fdtput -t s "$tmp" /dma-bench-clk compatible fixed-clock
fdtput -t u "$tmp" /dma-bench-clk '#clock-cells' 0
# the rate of the GDMA's main clock on the board; nothing in QEMU uses it
fdtput -t u "$tmp" /dma-bench-clk clock-frequency 533333333
fdtput -t u "$tmp" /dma-bench-clk phandle "$clk"

# free_node PATH: both clocks (main/uart and apb) from the fixed clock, no
# power domain, pin control or IOMMU
free_node() {
	fdtput -t u "$tmp" "$1" clocks "$clk" "$clk"
	for prop in power-domains pinctrl-names pinctrl-0 iommus; do
		if fdtget "$tmp" "$1" "$prop" >/dev/null 2>&1; then
			fdtput -d "$tmp" "$1" "$prop"
		fi
	done
}

gdma=0
for node in $(fdtget -l "$tmp" /axi); do
	path=/axi/$node
	case $(fdtget "$tmp" "$path" compatible 2>/dev/null) in
	*xlnx,zynqmp-dma-1.0*) ;;
	*) continue ;;
	esac
	[ "$(fdtget "$tmp" "$path" status 2>/dev/null || echo okay)" = okay ] || continue
	free_node "$path"
	gdma=$((gdma + 1))
done
[ "$gdma" -gt 0 ] || die "no enabled xlnx,zynqmp-dma-1.0 node in $in"

for alias in serial0 serial1; do
	path=$(fdtget "$tmp" /aliases "$alias") || die "no $alias alias in $in"
	free_node "$path"
done

fdtput -t s "$tmp" /firmware/zynqmp-firmware status disabled

fdtput -c "$tmp" /dma-bench-map
fdtput -t s "$tmp" /dma-bench-map compatible dma-bench,map-target

# compact again, and check the result parses
dtc -q -I dtb -O dtb -o "$out" "$tmp"
say "$gdma GDMA channels and 2 UARTs on a fixed clock"
