# SPDX-License-Identifier: GPL-2.0-only
#
# Out-of-tree DMA map benchmark with a dmaengine mode, and its software
# DMA provider. `make` builds the modules (through Kbuild) and the tool.

# The kernel tree to build against: the running kernel's, else the newest
# installed Debian 6.12 headers. Override with `make KDIR=/path/to/tree`.
ifeq ($(origin KDIR),undefined)
KDIR := $(wildcard /lib/modules/$(shell uname -r)/build)
ifeq ($(KDIR),)
KDIR := $(lastword $(sort $(wildcard /usr/src/linux-headers-6.12*-amd64)))
endif
endif

PREFIX ?= /usr/local
DESTDIR ?=
PROBES := $(sort $(wildcard $(CURDIR)/kernel/probes/*.c $(CURDIR)/kernel/probes/*.exports))
PROBES_H := $(CURDIR)/kernel/generated/probes.h
# Probes are redone whenever the tree, architecture, compiler (CC=, when
# given) or probe sources change, and once a tree that was only prepared
# has been built (Module.symvers).
PROBES_ID := $(KDIR) $(ARCH) $(CROSS_COMPILE) \
	$(if $(filter command environment,$(firstword $(origin CC))),CC=$(CC)) \
	$(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null) \
	$(notdir $(wildcard $(KDIR)/Module.symvers)) \
	$(shell cat $(PROBES) $(CURDIR)/scripts/kbuild-probes.sh | cksum)

KBUILD_ARGS := -C $(KDIR) M=$(CURDIR) \
	$(if $(ARCH),ARCH=$(ARCH)) $(if $(CROSS_COMPILE),CROSS_COMPILE=$(CROSS_COMPILE))

.PHONY: all modules tool probes clean modules_install install check \
	check-host lint checkpatch kdir-check

all: modules tool

kdir-check:
	@if [ -z "$(KDIR)" ] || [ ! -f "$(KDIR)/Makefile" ]; then \
		echo "No kernel tree found (KDIR='$(KDIR)')."; \
		echo "Install the headers: apt-get install linux-headers-6.12-amd64"; \
		echo "or build against a tree: make KDIR=/path/to/linux/build"; \
		exit 1; \
	fi

probes: kdir-check
	@mkdir -p $(dir $(PROBES_H))
	@if [ "$$(cat $(PROBES_H).id 2>/dev/null)" != "$(PROBES_ID)" ]; then \
		echo "  PROBE   $(KDIR)"; \
		KDIR=$(KDIR) $(if $(ARCH),ARCH=$(ARCH)) $(if $(CROSS_COMPILE),CROSS_COMPILE=$(CROSS_COMPILE)) \
			$(CURDIR)/scripts/kbuild-probes.sh $(PROBES_H) $(PROBES) && \
		echo "$(PROBES_ID)" > $(PROBES_H).id; \
	fi

# A tree without Module.symvers (`make modules_prepare` only, never built)
# has nothing for modpost to resolve the modules' symbols against: there
# the modules are compiled (every warning and error included) but not
# linked into .ko files, and one line says so.
modules: probes
ifeq ($(wildcard $(KDIR)/Module.symvers),)
	@echo "  NOTE    $(KDIR) has no Module.symvers (never built): the modules are compiled, not linked; build the kernel for .ko files"
	$(MAKE) $(KBUILD_ARGS) kernel/dma/ kernel/drivers/dma/ kernel/mm/
else
	$(MAKE) $(KBUILD_ARGS) modules
endif

tool:
	$(MAKE) -C tools/dma CROSS_COMPILE=$(CROSS_COMPILE)

# DESTDIR stages the modules too (INSTALL_MOD_PATH), e.g. for packaging.
modules_install: modules
	$(MAKE) $(KBUILD_ARGS) $(if $(DESTDIR),INSTALL_MOD_PATH=$(DESTDIR)) modules_install

install: modules_install tool
	$(MAKE) -C tools/dma install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

clean:
	-[ -n "$(KDIR)" ] && [ -f "$(KDIR)/Makefile" ] && $(MAKE) $(KBUILD_ARGS) clean
	$(MAKE) -C tools/dma clean
	rm -rf kernel/generated

# The project's static checks: checkpatch --strict, sparse and W=1 on the
# modules (against the stock 6.12 headers, whatever KDIR is), -Wall -Wextra
# on the userspace code.
lint:
	$(CURDIR)/scripts/lint.sh

# checkpatch --strict alone: no kernel tree needed.
checkpatch:
	$(CURDIR)/scripts/lint.sh checkpatch

# The fast tier: host tests and static checks, no root, no VM. Two files
# at a time (HOST_JOBS), the two longest first: the static checks and the
# patch series' builds; each file keeps its builds and outputs to itself.
HOST_JOBS ?= 2
HOST_T := $(sort $(wildcard $(CURDIR)/tools/testing/host/*.t))
HOST_T_FIRST := $(filter $(addprefix %/,lint.t patches.t),$(HOST_T))
check-host:
	prove --timer -j$(HOST_JOBS) $(HOST_T_FIRST) \
		$(filter-out $(HOST_T_FIRST),$(HOST_T))

# The README's test command: check-host first, then the VMs.
check:
	$(CURDIR)/scripts/check.sh
